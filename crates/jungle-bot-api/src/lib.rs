//! The Bot and Board APIs (issue 26), in lichess's shape adapted to Jungle: personal API
//! tokens with scopes, bot accounts, the event and game streams, a game's actions and chat,
//! and challenges over HTTP. docs/bot-api.md is the contract.
//!
//! A token is not a session: it never signs in to the web client (the socket and the account
//! pages know only sessions and guest tokens), and a session never works here.

pub mod account;
pub mod actions;
mod challenge_body;
mod challenges;
mod computer;
pub mod event_stream;
pub mod game_stream;
pub mod game_view;
mod heard_challenges;
pub mod holder;
pub mod ndjson;
pub mod routes;
mod seek;
pub mod streams;
pub mod tokens;
pub mod tournaments;

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use jungle_protocol::http;

use jungle_store::StoreError;

/// Why a Bot or Board API request was refused. Each maps to one status and code, here.
#[derive(Debug, thiserror::Error)]
pub enum BotApiError {
    #[error("no API token, or not one we know: send Authorization: Bearer TOKEN")]
    Unauthorized,
    #[error("this token lacks the scope {0}")]
    MissingScope(&'static str),
    #[error("{0}")]
    BadRequest(String),
    #[error("the body is larger than {} bytes", routes::MAX_BODY)]
    TooLarge,
    #[error(
        "sign in first: tokens are managed with a session (POST /api/session), not with a token"
    )]
    NeedsSession,
    #[error(
        "an account holds at most {} tokens; delete one first",
        jungle_store::MAX_TOKENS
    )]
    TooManyTokens,
    #[error("only an account that has played no game can become a bot")]
    UpgradeRefused,
    #[error("this account is not a bot: it plays through the Board API (/api/board/…)")]
    NotABot,
    #[error("a bot plays through the Bot API (/api/bot/…)")]
    BotOnBoard,
    #[error(
        "this token holds {} game streams open already",
        streams::MAX_GAME_STREAMS
    )]
    TooManyStreams,
    #[error(
        "this token has {} actions under way or waiting their turn; wait for their answers",
        streams::MAX_ACTIONS_QUEUED
    )]
    OneAtATime,
    #[error("a seek of yours is already waiting: close its answer to take it back first")]
    AlreadySeeking,
    #[error("{0}")]
    Refused(String),
    #[error("the game did not answer in time; try again")]
    NoAnswer,
    #[error("open the event stream (GET /api/stream/event) first: it hears the answer")]
    NoEventStream,
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error(transparent)]
    RateLimited(#[from] jungle_limits::RateLimited),
    #[error(transparent)]
    ForeignOrigin(#[from] jungle_web::auth::ForeignOrigin),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl BotApiError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            BotApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            BotApiError::MissingScope(_) => (StatusCode::FORBIDDEN, "missing_scope"),
            BotApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            BotApiError::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            BotApiError::NeedsSession => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            BotApiError::TooManyTokens => (StatusCode::BAD_REQUEST, "too_many_tokens"),
            BotApiError::UpgradeRefused => (StatusCode::BAD_REQUEST, "bot_upgrade_refused"),
            BotApiError::NotABot => (StatusCode::FORBIDDEN, "not_a_bot"),
            BotApiError::BotOnBoard => (StatusCode::FORBIDDEN, "bot_on_board_api"),
            BotApiError::TooManyStreams => (StatusCode::TOO_MANY_REQUESTS, "too_many_streams"),
            BotApiError::Refused(_) => (StatusCode::BAD_REQUEST, "refused"),
            BotApiError::AlreadySeeking => (StatusCode::BAD_REQUEST, "already_seeking"),
            BotApiError::OneAtATime => (StatusCode::TOO_MANY_REQUESTS, "one_at_a_time"),
            BotApiError::NoAnswer => (StatusCode::SERVICE_UNAVAILABLE, "no_answer"),
            BotApiError::NoEventStream => (StatusCode::BAD_REQUEST, "no_event_stream"),
            BotApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            BotApiError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            BotApiError::ForeignOrigin(_) => (StatusCode::FORBIDDEN, "foreign_origin"),
            BotApiError::Store(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

/// A JSON body that did not read: too large, or not what was expected.
pub fn json_refused(e: axum::extract::rejection::JsonRejection) -> BotApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        BotApiError::TooLarge
    } else {
        BotApiError::BadRequest(e.body_text())
    }
}

/// A request body as lichess's clients send it, a form, or as JSON (by its content type).
pub fn form_or_json<T: serde::de::DeserializeOwned>(
    headers: &axum::http::HeaderMap,
    body: &[u8],
) -> Result<T, BotApiError> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        serde_json::from_slice(body).map_err(|e| BotApiError::BadRequest(e.to_string()))
    } else {
        serde_urlencoded::from_bytes(body).map_err(|e| BotApiError::BadRequest(e.to_string()))
    }
}

/// A body that may be left out: its defaults when empty, else as [`form_or_json`] reads it.
pub fn optional_body<T: serde::de::DeserializeOwned + Default>(
    headers: &axum::http::HeaderMap,
    body: &[u8],
) -> Result<T, BotApiError> {
    if body.is_empty() {
        Ok(T::default())
    } else {
        form_or_json(headers, body)
    }
}

impl From<jungle_store::NewTokenError> for BotApiError {
    fn from(e: jungle_store::NewTokenError) -> Self {
        match e {
            jungle_store::NewTokenError::TooMany => BotApiError::TooManyTokens,
            jungle_store::NewTokenError::Store(e) => BotApiError::Store(e),
        }
    }
}

impl IntoResponse for BotApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        let message = match &self {
            BotApiError::Store(e) => {
                tracing::error!(error = %e, "bot api request failed");
                "something went wrong on our side".to_owned()
            }
            other => other.to_string(),
        };
        let body = Json(http::ApiError::new(code, message));
        match &self {
            BotApiError::RateLimited(limited) => {
                let wait = limited.seconds().to_string();
                (status, [(header::RETRY_AFTER, wait)], body).into_response()
            }
            BotApiError::OneAtATime => {
                (status, [(header::RETRY_AFTER, "1".to_owned())], body).into_response()
            }
            // A place frees when one of the token's streams ends: every 429 says when to look.
            BotApiError::TooManyStreams => {
                (status, [(header::RETRY_AFTER, "10".to_owned())], body).into_response()
            }
            BotApiError::Unauthorized => (
                status,
                [(header::WWW_AUTHENTICATE, "Bearer".to_owned())],
                body,
            )
                .into_response(),
            _ => (status, body).into_response(),
        }
    }
}

/// What the Bot and Board APIs take: one pointer, since a game's stream holds it for the
/// game's life. The server builds it once and gives it by `FromRef`; cloning shares.
#[derive(Clone)]
pub struct BotApiState(std::sync::Arc<BotApiServices>);

impl BotApiState {
    pub fn new(services: BotApiServices) -> BotApiState {
        BotApiState(std::sync::Arc::new(services))
    }
}

impl std::ops::Deref for BotApiState {
    type Target = BotApiServices;

    fn deref(&self) -> &BotApiServices {
        &self.0
    }
}

/// The services the Bot and Board APIs reach.
pub struct BotApiServices {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: std::sync::Arc<jungle_limits::Limits>,
    /// The origins a browser may act from.
    pub origins: std::sync::Arc<jungle_web::auth::Origins>,
    /// Settings read at start.
    pub chat: jungle_rooms::chat_line::ChatMode,
    /// Flips to true on shutdown.
    pub shutdown: tokio::sync::watch::Receiver<bool>,
    /// What a room needs, for the rooms this opens.
    pub room_ctx: std::sync::Arc<jungle_rooms::RoomContext>,
    /// The players connected to this node.
    pub online: jungle_rooms::online::Online,
    /// Where a game, a room or a seek is, on this node or another.
    pub reach: jungle_cluster::reach::Reach,
    /// Direct challenges waiting for an answer.
    pub challenges: jungle_rooms::challenges::Challenges,
    /// The tournaments directed on this node.
    pub directors: jungle_tournaments::Directors,
    /// The open streams, per token.
    pub bot_streams: streams::OpenStreams,
    /// The actions under way, per token.
    pub bot_actions: streams::ActionsUnderWay,
    /// The event streams, one per token.
    pub event_streams: event_stream::EventStreams,
}
