//! The lessons' HTTP API (issue 29): the catalogue, a try judged here, a practice game judged
//! here, and an account's progress. Guests keep their progress in their browser; an account's
//! is stored, one row per exercise done (only ids the lessons name: bounded by them).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use jungle_protocol::learn::{
    Catalogue, JudgePractice, PracticeVerdict, Progress, Try, TryAnswer, Verdict,
};

use crate::LearnState;
use jungle_accounts::api::AccountApiError;
use jungle_accounts::manage::account_within;
use jungle_limits::Limited;
use jungle_store::{PlayerRecord, StoreError};
use jungle_web::client_addr::ClientAddr;

/// The longest id and move text a request may carry.
pub(crate) const MAX_ID: usize = 64;
/// What only accounts have, as a guest's refusal says.
const SAVED: &str = "saved lessons";
const MAX_MOVE_TEXT: usize = 8;

#[derive(Debug, thiserror::Error)]
pub enum LearnApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("no such exercise")]
    NotFound,
    #[error("sign in first")]
    NotSignedIn,
    #[error("the request is too large")]
    TooLarge,
    #[error("no such game")]
    NoGame,
    #[error(transparent)]
    NotThePractice(#[from] super::practice::NotThePractice),
    #[error(transparent)]
    RateLimited(#[from] jungle_limits::RateLimited),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl IntoResponse for LearnApiError {
    fn into_response(self) -> Response {
        let (status, code) = match &self {
            LearnApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            LearnApiError::NotFound => (StatusCode::NOT_FOUND, "not_found"),
            LearnApiError::NoGame => (StatusCode::NOT_FOUND, "no_such_game"),
            LearnApiError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            LearnApiError::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            LearnApiError::NotThePractice(_) => (StatusCode::BAD_REQUEST, "not_the_practice"),
            LearnApiError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            LearnApiError::Store(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        };
        let message = match &self {
            LearnApiError::Store(e) => jungle_web::json_rejections::internal("learn request", e),
            other => other.to_string(),
        };
        let limited = match &self {
            LearnApiError::RateLimited(limited) => Some(limited),
            _ => None,
        };
        jungle_web::json_rejections::refusal(status, code, message, limited)
    }
}

/// The player the request names, if any, once the limits allow it; and whether they have an
/// account (only an account's progress is stored).
async fn asker(
    state: &LearnState,
    headers: &HeaderMap,
    client: std::net::IpAddr,
) -> Result<Option<(PlayerRecord, bool)>, LearnApiError> {
    let player = jungle_web::identity::player_of(&state.store, headers).await?;
    state
        .limits
        .check(Limited::Learn, player.as_ref().map(|p| p.id), client)?;
    match player {
        Some(player) => {
            let account = state.store.has_account(player.id).await?;
            Ok(Some((player, account)))
        }
        None => Ok(None),
    }
}

fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, LearnApiError> {
    body.map(|Json(b)| b).map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => LearnApiError::TooLarge,
        _ => LearnApiError::BadRequest(e.body_text()),
    })
}

/// `GET /api/learn`: every chapter.
pub async fn catalogue(
    State(state): State<LearnState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<&'static Catalogue>, LearnApiError> {
    asker(&state, &headers, client).await?;
    Ok(Json(super::catalogue()))
}

/// `POST /api/learn/try`: the player's moves in an exercise, judged.
pub async fn attempt(
    State(state): State<LearnState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    request: Result<Json<Try>, JsonRejection>,
) -> Result<Json<TryAnswer>, LearnApiError> {
    let asked = asker(&state, &headers, client).await?;
    let request = body(request)?;
    if request.exercise.len() > MAX_ID || request.moves.iter().any(|m| m.len() > MAX_MOVE_TEXT) {
        return Err(LearnApiError::BadRequest("too long".into()));
    }
    let exercise = super::exercise(&request.exercise).ok_or(LearnApiError::NotFound)?;
    let judged = exercise
        .judge(&request.moves)
        .map_err(LearnApiError::BadRequest)?;
    let mut recorded = false;
    if judged.verdict == Verdict::Done {
        if let Some((player, true)) = &asked {
            state.store.learn_done(player.id, &[&exercise.id]).await?;
            recorded = true;
        }
    }
    let (position, legal) = match &judged.game {
        Some(game) if judged.verdict != Verdict::Done => (
            game.position().to_string(),
            game.legal_moves().iter().map(|m| m.to_string()).collect(),
        ),
        Some(game) => (game.position().to_string(), Vec::new()),
        None => (String::new(), Vec::new()),
    };
    let hint = match judged.verdict {
        Verdict::Wrong => exercise.board.as_ref().and_then(|b| b.hint.clone()),
        _ => None,
    };
    Ok(Json(TryAnswer {
        verdict: judged.verdict,
        reply: judged.reply.map(|t| t.to_string()),
        position,
        legal,
        hint,
        recorded,
    }))
}

/// `POST /api/learn/practice/{id}/judge`: whether the player's game against the computer
/// reached the practice's goal in time.
pub async fn judge_practice(
    State(state): State<LearnState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<String>,
    request: Result<Json<JudgePractice>, JsonRejection>,
) -> Result<Json<PracticeVerdict>, LearnApiError> {
    let (player, account) = asker(&state, &headers, client)
        .await?
        .ok_or(LearnApiError::NotSignedIn)?;
    let request = body(request)?;
    let practice = super::practice(&id).ok_or(LearnApiError::NotFound)?;
    let record = state
        .store
        .game(request.game)
        .await?
        .ok_or(LearnApiError::NoGame)?;
    let moves = super::practice::judge(practice, &record, player.id)?;
    let recorded = moves.is_some() && account;
    if recorded {
        state.store.learn_done(player.id, &[&practice.id]).await?;
    }
    Ok(Json(PracticeVerdict {
        reached: moves.is_some(),
        moves,
        recorded,
    }))
}

/// `GET /api/account/learn`: what the account has done.
pub async fn progress(
    State(state): State<LearnState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<Progress>, AccountApiError> {
    let player = account_within(
        &state.store,
        &state.limits,
        &headers,
        client,
        Limited::Learn,
        SAVED,
    )
    .await?;
    let done = state.store.learn_progress(player.id).await?;
    Ok(Json(Progress { done }))
}

/// `POST /api/account/learn`: progress made as a guest in this browser, brought into the
/// account. Only ids the lessons name, each once; the answer is the whole progress.
pub async fn bring_progress(
    State(state): State<LearnState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    request: Result<Json<Progress>, JsonRejection>,
) -> Result<Json<Progress>, AccountApiError> {
    let player = account_within(
        &state.store,
        &state.limits,
        &headers,
        client,
        Limited::LearnProgress,
        SAVED,
    )
    .await?;
    let Json(request) = request.map_err(AccountApiError::unreadable)?;
    if request.done.len() > super::known_count() {
        return Err(AccountApiError::BadBody(format!(
            "at most {} ids",
            super::known_count()
        )));
    }
    if let Some(unknown) = request.done.iter().find(|id| !super::is_known(id)) {
        let shown: String = unknown.chars().take(MAX_ID).collect();
        return Err(AccountApiError::BadBody(format!(
            "{shown:?} is not an exercise here"
        )));
    }
    let ids: Vec<&str> = request.done.iter().map(String::as_str).collect();
    state.store.learn_done(player.id, &ids).await?;
    let done = state.store.learn_progress(player.id).await?;
    Ok(Json(Progress { done }))
}
