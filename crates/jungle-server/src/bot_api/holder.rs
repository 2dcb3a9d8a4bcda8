//! Who an API request is: the account whose token it presents (`Authorization: Bearer`
//! only, never the session cookie), and whether that token has the scope the endpoint needs.

use axum::http::{header, HeaderMap};

use super::BotApiError;
use crate::auth::hash_token;
use crate::state::AppState;
use crate::store::TokenHolder;

/// The longest token we read (ours are 64 hex digits).
const MAX_TOKEN: usize = 128;

/// The holder of the request's API token, which must carry `scope`.
pub async fn holder(
    state: &AppState,
    headers: &HeaderMap,
    scope: &'static str,
) -> Result<TokenHolder, BotApiError> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN)
        .ok_or(BotApiError::Unauthorized)?;
    let holder = state
        .store
        .api_token_holder(&hash_token(token))
        .await?
        .ok_or(BotApiError::Unauthorized)?;
    if !holder.scopes.iter().any(|s| s == scope) {
        return Err(BotApiError::MissingScope(scope));
    }
    Ok(holder)
}
