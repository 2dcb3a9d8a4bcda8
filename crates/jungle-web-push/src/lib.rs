//! Web Push (issue 52): "your move" reaches a player whose site is closed. An account's
//! browsers subscribe (`POST /api/push/subscriptions`, the browser's `PushSubscription`), and
//! the account chooses what is pushed (`PUT /api/push/settings`): its move in a game over
//! days, a challenge, a tournament it joined about to start. The server signs with its VAPID
//! key (made at the first start and kept in the database, so every node signs alike) and
//! encrypts each message for the browser (RFC 8291, `jungle-push`); the push service passes
//! it on without reading it.
//!
//! Pushes leave from whichever node learns of the event (the node holding the game for a
//! turn), once per event whatever reports it twice, at most [`DAILY_CAP`] a day per player,
//! in the background: a push is a courtesy, never a promise, and is not retried.

mod routes;
mod sender;
mod texts;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::{get, post, put};
use axum::Router;

pub use sender::{PushKind, Pusher, PusherConfig, DAILY_CAP, MAX_SUBSCRIPTIONS};

/// What the push endpoints take. The server gives it from its own state (`FromRef`).
#[derive(Clone)]
pub struct PushState {
    pub store: jungle_store::Store,
    pub limits: Arc<jungle_limits::Limits>,
    pub origins: Arc<jungle_web::auth::Origins>,
    pub pusher: Pusher,
}

/// The routes, for a router whose state gives a [`PushState`].
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    PushState: FromRef<S>,
{
    Router::new()
        .route("/api/push", get(routes::show))
        .route(
            "/api/push/subscriptions",
            post(routes::subscribe).delete(routes::unsubscribe),
        )
        .route("/api/push/settings", put(routes::change_settings))
        .layer(axum::extract::DefaultBodyLimit::max(routes::MAX_BODY))
}
