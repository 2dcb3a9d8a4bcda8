//! Accounts as the API shows them: `POST /api/bot/account/upgrade` (an account that has played
//! no game becomes a bot, for good), `GET /api/account` and `GET /api/user/{name}` in lichess's
//! shape, and `POST /api/token/test`.
//!
//! An account that has played no game becomes a bot, for good.
//! A bot carries the title BOT wherever its name shows, plays only through the Bot API, and is
//! ranked apart from people.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Value};

use super::holder::holder;
use super::BotApiError;
use crate::BotApiState;
use jungle_limits::Limited;
use jungle_web::client_addr::ClientAddr;

pub async fn upgrade(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<Value>, BotApiError> {
    let holder = holder(&state, &headers, "bot:play", client).await?;
    state
        .limits
        .check(Limited::ApiTokens, Some(holder.player.id), client)?;
    if holder.bot || state.store.make_bot(holder.player.id).await? {
        return Ok(Json(json!({ "ok": true })));
    }
    Err(BotApiError::UpgradeRefused)
}

/// A player as lichess's clients read one (`GET /api/account`, `GET /api/user/{name}`, as
/// berserk's `account.get` and `users.get_public_data` ask): `id` (our player id, as our
/// streams name players), `username`, `title` (`BOT`), `online`, and `perfs` by ruleset, its
/// correspondence rating apart (`classicCorrespondence`, …), as lichess's `perfs` by speed.
fn lichess_user(profile: &jungle_protocol::http::PlayerProfile, online: bool) -> Value {
    let perf = |r: &jungle_protocol::http::Rating| {
        json!({
            "rating": r.rating.round() as i64,
            "rd": r.deviation.round() as i64,
            "games": r.games,
            "prov": r.provisional,
        })
    };
    let mut perfs = serde_json::Map::new();
    for (rules, rating) in &profile.ratings {
        perfs.insert(rules.clone(), perf(rating));
    }
    for (rules, rating) in &profile.correspondence_ratings {
        perfs.insert(format!("{rules}Correspondence"), perf(rating));
    }
    let mut user = json!({
        "id": profile.id,
        "username": profile.username.clone().unwrap_or_else(|| profile.name.clone()),
        "online": online,
        // Unix milliseconds, as berserk reads them into dates.
        "createdAt": profile.created_at,
        "perfs": perfs,
        "count": {
            "all": profile.stats.games,
            "win": profile.stats.wins,
            "loss": profile.stats.losses,
            "draw": profile.stats.draws,
        },
    });
    if let Some(title) = &profile.title {
        user["title"] = json!(title);
    }
    user
}

/// `GET /api/account`: who the token's holder is (any scope), as lichess answers it: how a
/// bot learns its own id and name at start.
pub async fn me(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<Value>, BotApiError> {
    let holder = super::holder::any_holder(&state, &headers, client).await?;
    state
        .limits
        .check_player(Limited::BotRequests, holder.player.id)?;
    let profile = state
        .store
        .profile(holder.player.id)
        .await?
        .ok_or(BotApiError::NotFound("player"))?;
    Ok(Json(lichess_user(
        &profile,
        state.online.is_online(holder.player.id),
    )))
}

/// `GET /api/user/{username}`: an account as lichess shows one, to anyone (counted per
/// address with the Bot and Board API's requests).
pub async fn user(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    Path(username): Path<String>,
) -> Result<Json<Value>, BotApiError> {
    state.limits.check(Limited::BotRequests, None, client)?;
    if username.len() > 20 {
        return Err(BotApiError::NotFound("player"));
    }
    let id = state
        .store
        .player_by_username(&username)
        .await?
        .ok_or(BotApiError::NotFound("player"))?;
    let profile = state
        .store
        .profile(id)
        .await?
        .ok_or(BotApiError::NotFound("player"))?;
    Ok(Json(lichess_user(&profile, state.online.is_online(id))))
}

/// Tokens one `POST /api/token/test` may ask about.
pub const MOST_TOKENS_TESTED: usize = 20;

/// `POST /api/token/test` with `token1,token2,…` as the body (lichess's; no sign-in): for each,
/// whom it names and its scopes, or `null`. Each token that names nobody is a miss of the
/// address's (`tokens that name nobody`), as a guess on any route is; at most
/// [`MOST_TOKENS_TESTED`] a request.
pub async fn test_tokens(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    body: axum::body::Bytes,
) -> Result<Json<Value>, BotApiError> {
    state.limits.check(Limited::BotRequests, None, client)?;
    let text = std::str::from_utf8(&body)
        .map_err(|_| BotApiError::BadRequest("tokens, comma-separated".into()))?;
    let tokens: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() > MOST_TOKENS_TESTED {
        return Err(BotApiError::BadRequest(format!(
            "at most {MOST_TOKENS_TESTED} tokens at once"
        )));
    }
    let mut answer = serde_json::Map::new();
    for token in tokens {
        state.limits.token_lookup(client)?;
        let hash = jungle_web::auth::hash_token(token);
        let named = match state.store.api_token_holder(&hash).await? {
            Some(holder) => json!({
                "userId": holder.player.id,
                "scopes": holder.scopes.join(","),
                "expires": null,
            }),
            None => {
                state.limits.token_missed(client);
                Value::Null
            }
        };
        answer.insert(token.to_owned(), named);
    }
    Ok(Json(Value::Object(answer)))
}

/// Bots `GET /api/bot/online` lists at most (`?nb=`, 50 unless asked).
const MOST_BOTS_LISTED: usize = 100;

/// Bot accounts looked through for those online on other nodes, at most (a read bounded
/// however many bots a server has had).
const MOST_BOTS_SCANNED: i64 = 5_000;

#[derive(serde::Deserialize)]
pub struct OnlineQuery {
    nb: Option<usize>,
}

/// `GET /api/bot/online?nb=N`: the bots online (their event stream open on this node), one
/// account a line as `GET /api/user/{name}` shows it (berserk's `bots.get_online_bots`),
/// counted per address with the Bot and Board API's requests.
pub async fn online_bots(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    axum::extract::Query(query): axum::extract::Query<OnlineQuery>,
) -> Result<axum::response::Response, BotApiError> {
    state.limits.check(Limited::BotRequests, None, client)?;
    let most = query.nb.unwrap_or(50).clamp(1, MOST_BOTS_LISTED);
    // This node's streams first, then bots online on any node (a bot is online while its
    // event stream is open, wherever).
    let mut bots = state.event_streams.bots(most);
    if bots.len() < most {
        for bot in state.store.bot_ids(MOST_BOTS_SCANNED).await? {
            if bots.len() >= most {
                break;
            }
            if !bots.contains(&bot) && state.challenges.is_online(bot) {
                bots.push(bot);
            }
        }
    }
    let mut lines = String::new();
    for bot in bots {
        if let Some(profile) = state.store.profile(bot).await? {
            lines.push_str(&lichess_user(&profile, true).to_string());
            lines.push('\n');
        }
    }
    Ok(axum::response::IntoResponse::into_response((
        [(axum::http::header::CONTENT_TYPE, "application/x-ndjson")],
        lines,
    )))
}
