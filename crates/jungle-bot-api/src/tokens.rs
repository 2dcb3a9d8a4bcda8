//! `POST`, `GET /api/tokens` and `DELETE /api/tokens/{id}`: an account's personal API tokens,
//! managed with its session (from its settings page, or with curl after `POST /api/session`).
//! The token is shown once, when made; only its hash is kept.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use jungle_protocol::bot::{
    ApiTokenInfo, CreatedApiToken, NewApiToken, MAX_TOKEN_DESCRIPTION, SCOPES,
};
use uuid::Uuid;

use super::BotApiError;
use crate::BotApiState;
use jungle_limits::Limited;
use jungle_store::PlayerRecord;
use jungle_web::auth::{hash_token, new_token};
use jungle_web::client_addr::ClientAddr;

/// The account a session request is made for (a guest has no tokens).
async fn account(state: &BotApiState, headers: &HeaderMap) -> Result<PlayerRecord, BotApiError> {
    let (_, player) = jungle_web::identity::session_of(&state.store, headers)
        .await?
        .ok_or(BotApiError::NeedsSession)?;
    Ok(player)
}

/// A new token's description and scopes, checked: 1–100 characters, known scopes, each once.
fn checked(body: NewApiToken) -> Result<(String, Vec<String>), BotApiError> {
    let description = body.description.trim().to_owned();
    let length = description.chars().count();
    if length == 0 || length > MAX_TOKEN_DESCRIPTION {
        return Err(BotApiError::BadRequest(format!(
            "the description has {length} characters; 1 to {MAX_TOKEN_DESCRIPTION} are allowed"
        )));
    }
    if description.chars().any(char::is_control) {
        return Err(BotApiError::BadRequest(
            "the description may not hold control characters".into(),
        ));
    }
    let mut scopes: Vec<String> = Vec::new();
    for scope in body.scopes {
        if !SCOPES.contains(&scope.as_str()) {
            return Err(BotApiError::BadRequest(format!(
                "unknown scope {scope:?}; the scopes are {}",
                SCOPES.join(", ")
            )));
        }
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    if scopes.is_empty() {
        return Err(BotApiError::BadRequest(format!(
            "a token needs at least one scope of {}",
            SCOPES.join(", ")
        )));
    }
    Ok((description, scopes))
}

pub async fn create(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: Result<Json<NewApiToken>, JsonRejection>,
) -> Result<(StatusCode, Json<CreatedApiToken>), BotApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = account(&state, &headers).await?;
    state
        .limits
        .check(Limited::ApiTokens, Some(player.id), client)?;
    let Json(body) = body.map_err(super::json_refused)?;
    let (description, scopes) = checked(body)?;
    let token = new_token();
    let id = state
        .store
        .insert_api_token(player.id, &hash_token(&token), &description, &scopes)
        .await?;
    Ok((StatusCode::CREATED, Json(CreatedApiToken { id, token })))
}

pub async fn list(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<Vec<ApiTokenInfo>>, BotApiError> {
    let player = account(&state, &headers).await?;
    // A read, counted with the API's requests (its own page reads it at each visit).
    state
        .limits
        .check(Limited::BotRequests, Some(player.id), client)?;
    let tokens = state.store.api_tokens(player.id).await?;
    Ok(Json(
        tokens
            .into_iter()
            .map(|t| ApiTokenInfo {
                id: t.id,
                description: t.description,
                scopes: t.scopes,
                created_at: t.created_at,
                last_used_at: t.last_used_at,
            })
            .collect(),
    ))
}

pub async fn delete(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> Result<StatusCode, BotApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = account(&state, &headers).await?;
    state
        .limits
        .check(Limited::ApiTokens, Some(player.id), client)?;
    match state.store.delete_api_token(player.id, id).await? {
        true => {
            // What it holds open on this node ends now; its actions are refused already.
            state.event_streams.revoke(id);
            state.bot_streams.revoke(id);
            Ok(StatusCode::NO_CONTENT)
        }
        false => Err(BotApiError::NotFound("token")),
    }
}
