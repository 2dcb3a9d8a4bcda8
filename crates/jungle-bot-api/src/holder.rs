//! Who an API request is: the account whose token it presents (`Authorization: Bearer`
//! only, never the session cookie), and whether that token has the scope the endpoint needs.

use axum::http::{header, HeaderMap};

use std::net::IpAddr;
use std::sync::Arc;

use tokio::sync::{mpsc, Notify};

use super::BotApiError;
use crate::BotApiState;
use jungle_limits::Limited;
use jungle_rooms::{next_connection_id, Connection, Outbound};
use jungle_store::TokenHolder;
use jungle_web::auth::hash_token;

/// The longest token we read (ours are 64 hex digits).
const MAX_TOKEN: usize = 128;

/// The holder of the request's API token. The request counts against its address's `bot and
/// board requests` budget before the token is looked up, and a token that names nobody costs
/// more: the database is not a guessing machine. (The holder's own budget is the caller's to
/// count, with `check_player`, once it knows who they are.)
async fn token_holder(
    state: &BotApiState,
    headers: &HeaderMap,
    client: IpAddr,
) -> Result<TokenHolder, BotApiError> {
    state.limits.check(Limited::BotRequests, None, client)?;
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN)
        .ok_or(BotApiError::Unauthorized)?;
    match state.store.api_token_holder(&hash_token(token)).await? {
        Some(holder) => Ok(holder),
        None => {
            state.limits.charge_guess(Limited::BotRequests, client);
            Err(BotApiError::Unauthorized)
        }
    }
}

/// The holder of the request's API token, which must carry `scope`.
pub async fn holder(
    state: &BotApiState,
    headers: &HeaderMap,
    scope: &'static str,
    client: IpAddr,
) -> Result<TokenHolder, BotApiError> {
    let holder = token_holder(state, headers, client).await?;
    if !holder.scopes.iter().any(|s| s == scope) {
        return Err(BotApiError::MissingScope(scope));
    }
    Ok(holder)
}

/// The holder of the request's API token, whatever its scopes (to ask who it is).
pub async fn any_holder(
    state: &BotApiState,
    headers: &HeaderMap,
    client: IpAddr,
) -> Result<TokenHolder, BotApiError> {
    token_holder(state, headers, client).await
}

/// The holder of a token that plays, as a bot or from a person's own client (either scope).
pub async fn playing_holder(
    state: &BotApiState,
    headers: &HeaderMap,
    client: IpAddr,
) -> Result<TokenHolder, BotApiError> {
    let holder = token_holder(state, headers, client).await?;
    if !holder
        .scopes
        .iter()
        .any(|s| s == "bot:play" || s == "board:play")
    {
        // Asked for as the second scope was, before: the answer names it.
        return Err(BotApiError::MissingScope("board:play"));
    }
    Ok(holder)
}

/// A connection of the holder's, as a browser tab is one: what rooms and challenges send it
/// arrives on the returned queue (`capacity` frames at most; beyond, `too_slow` rings).
pub fn connection(
    holder: &TokenHolder,
    client: std::net::IpAddr,
    capacity: usize,
) -> (Connection, mpsc::Receiver<Outbound>, Arc<Notify>) {
    let (tx, rx) = mpsc::channel(capacity);
    let too_slow = Arc::new(Notify::new());
    let conn = Connection {
        id: next_connection_id(),
        player: holder.player.clone(),
        tx,
        too_slow: too_slow.clone(),
        addr: client,
        remote: None,
    };
    (conn, rx, too_slow)
}
