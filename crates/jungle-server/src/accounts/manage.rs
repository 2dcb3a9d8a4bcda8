//! An account holder manages their sessions, password and account. Every request names its
//! session by its token (`Authorization: Bearer` or the cookie); nobody acts on another's.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use jungle_protocol::http;
use uuid::Uuid;

use super::api::{presented_token, same_origin, AccountApiError};
use super::passwords::check_password;
use super::AccountError;
use crate::api::hash_token;
use crate::state::AppState;
use crate::store::PlayerRecord;

/// The session and player a request is made with.
async fn signed_in(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(Uuid, PlayerRecord), AccountApiError> {
    let token = presented_token(headers).ok_or(AccountApiError::NotSignedIn)?;
    state
        .store
        .player_by_session(&hash_token(&token), super::SESSION_IDLE_MS)
        .await?
        .ok_or(AccountApiError::NotSignedIn)
}

/// Deletes sessions and closes their open WebSockets.
fn close_connections(state: &AppState, sessions: &[Uuid]) {
    for &session in sessions {
        state.open_sessions.sign_out(session);
    }
}

/// Checks the account's password again before something that cannot be undone.
async fn confirm_password(
    state: &AppState,
    player: Uuid,
    password: &str,
) -> Result<(), AccountApiError> {
    let stored = state.store.password_hash(player).await?;
    if state.hasher.verify(password, stored.as_deref()).await? {
        Ok(())
    } else {
        Err(AccountError::BadCredentials.into())
    }
}

fn json<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, AccountApiError> {
    body.map(|Json(b)| b)
        .map_err(|e| AccountApiError::BadBody(e.body_text()))
}

/// `GET /api/sessions`: the player's signed-in devices.
pub async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Vec<http::SessionInfo>>, AccountApiError> {
    let (current, player) = signed_in(&state, &headers).await?;
    let sessions = state.store.sessions(player.id).await?;
    Ok(Json(
        sessions
            .into_iter()
            .map(|s| http::SessionInfo {
                current: s.id == current,
                id: s.id,
                device: s.device,
                address: s.address,
                created_at: s.created_at,
                last_seen_at: s.last_seen_at,
            })
            .collect(),
    ))
}

/// `DELETE /api/sessions/{id}`: signs one of the player's own sessions out.
pub async fn sign_out_one(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> Result<StatusCode, AccountApiError> {
    same_origin(&state, &headers)?;
    let (_, player) = signed_in(&state, &headers).await?;
    let deleted = state
        .store
        .delete_sessions(player.id, Some(id), None)
        .await?;
    if deleted.is_empty() {
        return Err(AccountApiError::NoSuchSession);
    }
    close_connections(&state, &deleted);
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/sessions`: signs out every session but this one.
pub async fn sign_out_others(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<StatusCode, AccountApiError> {
    same_origin(&state, &headers)?;
    let (current, player) = signed_in(&state, &headers).await?;
    let deleted = state
        .store
        .delete_sessions(player.id, None, Some(current))
        .await?;
    close_connections(&state, &deleted);
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/account/password`: a new password; every other session is signed out.
pub async fn change_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Json<http::PasswordChange>, JsonRejection>,
) -> Result<StatusCode, AccountApiError> {
    same_origin(&state, &headers)?;
    let change = json(body)?;
    let (current, player) = signed_in(&state, &headers).await?;
    check_password(&change.new, &player.name)?;
    confirm_password(&state, player.id, &change.current).await?;
    let hash = state.hasher.hash(&change.new).await?;
    state.store.set_password_hash(player.id, &hash).await?;
    let deleted = state
        .store
        .delete_sessions(player.id, None, Some(current))
        .await?;
    close_connections(&state, &deleted);
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/account` `{"password"}`: the games stay, under an anonymous name; the
/// username, password and every session are erased.
pub async fn delete_account(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Json<http::AccountDeletion>, JsonRejection>,
) -> Result<StatusCode, AccountApiError> {
    same_origin(&state, &headers)?;
    let deletion = json(body)?;
    let (_, player) = signed_in(&state, &headers).await?;
    confirm_password(&state, player.id, &deletion.password).await?;
    let deleted = state.store.delete_account(player.id).await?;
    close_connections(&state, &deleted);
    Ok(StatusCode::NO_CONTENT)
}
