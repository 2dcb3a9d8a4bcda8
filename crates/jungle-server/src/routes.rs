//! The route table: the client's pages, each feature's routes (its crate's `routes()`), the
//! games and players API, and what every request and answer gets (a body limit and deadline,
//! JSON refusals, security headers).

use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::Router;

use crate::state::AppState;
use crate::{api, assets, request_body, security_headers, ws};

pub(crate) fn router(state: AppState, assets: assets::Assets, public_metrics: bool) -> Router {
    let client = Router::new()
        .route("/", get(assets::app_page))
        .route("/g/{id}", get(assets::app_page))
        .route("/r/{code}", get(assets::app_page))
        .route("/@/{username}", get(assets::app_page))
        .route("/p/{id}", get(assets::app_page))
        .route("/leaderboard", get(assets::app_page))
        .route("/leaderboard/{rules}", get(assets::app_page))
        .route("/reset/{token}", get(assets::app_page))
        .route("/settings", get(assets::app_page))
        .route("/analysis", get(assets::app_page))
        .route("/editor", get(assets::app_page))
        .route("/puzzles", get(assets::app_page))
        .route("/puzzles/{id}", get(assets::app_page))
        .route("/learn", get(assets::app_page))
        .route("/learn/{chapter}", get(assets::app_page))
        .route("/t/{id}", get(assets::app_page))
        .route("/rules/{name}", get(assets::app_page))
        .fallback(assets::file)
        .with_state(assets);
    let mut routes = Router::new()
        .route("/ws", get(ws::upgrade))
        .route(
            "/api",
            axum::routing::any(jungle_web::json_rejections::unknown),
        )
        .route(
            "/api/",
            axum::routing::any(jungle_web::json_rejections::unknown),
        )
        .route(
            "/api/{*rest}",
            axum::routing::any(jungle_web::json_rejections::unknown),
        )
        .merge(api::routes())
        .merge(jungle_accounts::routes())
        .merge(jungle_correspondence::routes())
        .merge(jungle_bot_api::routes::routes())
        .merge(jungle_puzzles::routes())
        .merge(jungle_learn::routes())
        .merge(jungle_tournaments::routes())
        .merge(jungle_web_push::routes())
        .route("/healthz", get(api::healthz));
    if public_metrics {
        routes = routes.route("/metrics", get(api::metrics));
    }
    let policy = axum::http::HeaderValue::from_str(&security_headers::content_security_policy(
        &state.public_url,
    ))
    .expect("the policy is plain ASCII");
    let body_rules = request_body::BodyRules::new(state.config.header_timeout());
    let limits = state.limits.clone();
    routes
        .with_state(state)
        .layer(axum::middleware::from_fn(
            jungle_web::json_rejections::middleware,
        ))
        // A token that names nobody is a guess, on whatever route it comes.
        .layer(axum::middleware::from_fn_with_state(
            limits,
            jungle_web::token_misses::guard,
        ))
        .merge(client)
        // Outside every route's own limit, which overrides it.
        .layer(DefaultBodyLimit::max(request_body::SMALLEST))
        .layer(axum::middleware::from_fn_with_state(
            body_rules,
            request_body::deadline,
        ))
        .layer(axum::middleware::map_response(
            move |response: axum::response::Response| {
                let policy = policy.clone();
                async move { security_headers::add(&policy, response) }
            },
        ))
}
