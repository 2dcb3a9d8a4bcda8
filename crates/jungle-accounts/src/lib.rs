//! Accounts: usernames, passwords and sessions (issue 12), and what an account does about
//! other players (blocks, reports). A feature that wires itself: [`routes`] for the router,
//! [`AccountsState`] for what its handlers take (the server gives it by `FromRef`).
//!
//! - [`names`]: usernames and the look-alike key shared with guests' display names;
//! - [`passwords`]: the password policy and Argon2id hashing off the async threads;
//! - [`throttle`]: growing waits after failed sign-ins, per account;
//! - [`open_sessions`]: the WebSockets of each session, closed when it is signed out;
//! - [`api`]: creating accounts, signing in and out; [`manage`]: sessions, password, deletion;
//! - [`blocks`]: whom a player blocks; [`reports`]: a player reported to the moderators.

pub mod api;
pub mod blocks;
pub mod fair_queue;
pub mod manage;
pub mod open_sessions;
pub mod passwords;
pub mod reports;
pub mod throttle;

use axum::extract::FromRef;
use axum::routing::{delete, get, post, put};
use axum::Router;

/// Why an account request was refused. Each maps to one HTTP status and error code.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    #[error("{0}")]
    BadUsername(String),
    #[error("{0}")]
    BadPassword(String),
    #[error("this username is taken, reserved, or looks like one that is")]
    UsernameTaken,
    #[error("this player already has an account")]
    AlreadyAnAccount,
    #[error("the username or the password is wrong")]
    BadCredentials,
    #[error("this account is banned: {0}")]
    Banned(String),
    /// What was asked is for accounts (a guest makes theirs permanent with a username).
    #[error("{0}")]
    AccountRequired(&'static str),
    #[error("{0}")]
    Internal(String),
}

impl From<jungle_game::names::UsernameError> for AccountError {
    fn from(e: jungle_game::names::UsernameError) -> AccountError {
        use jungle_game::names::UsernameError;
        match e {
            UsernameError::Malformed(why) => AccountError::BadUsername(why),
            UsernameError::Reserved => AccountError::UsernameTaken,
        }
    }
}

impl AccountError {
    /// The `error` code of the JSON answer.
    pub fn code(&self) -> &'static str {
        match self {
            AccountError::BadUsername(_) => "bad_username",
            AccountError::BadPassword(_) => "bad_password",
            AccountError::UsernameTaken => "username_taken",
            AccountError::AlreadyAnAccount => "already_an_account",
            AccountError::BadCredentials => "bad_credentials",
            AccountError::Banned(_) => "banned",
            AccountError::AccountRequired(_) => "account_required",
            AccountError::Internal(_) => "internal",
        }
    }
}

/// What the account handlers take. The server gives it from its own state (`FromRef`);
/// cloning shares.
#[derive(Clone)]
pub struct AccountsState {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: std::sync::Arc<jungle_limits::Limits>,
    /// The origins a browser may act from.
    pub origins: std::sync::Arc<jungle_web::auth::Origins>,
    /// The base of links, without a trailing slash.
    pub public_url: std::sync::Arc<str>,
    /// Whether the server sends mail (shown in the settings).
    pub mail_on: bool,
    /// Password hashing on a bounded set of threads.
    pub hasher: passwords::Hasher,
    /// Open WebSockets by account session.
    pub open_sessions: open_sessions::OpenSessions,
    /// Failed sign-ins per account, for growing waits.
    pub failed_sign_ins: std::sync::Arc<throttle::FailedSignIns>,
}

/// The accounts' routes, for a router whose state gives an [`AccountsState`].
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    AccountsState: FromRef<S>,
{
    Router::new()
        .route(
            "/api/account",
            post(api::create_account).delete(manage::delete_account),
        )
        .route("/api/account/password", post(manage::change_password))
        .route("/api/account/export", get(manage::export))
        .route(
            "/api/account/settings",
            get(manage::settings).put(manage::save_settings),
        )
        .route("/api/account/reset", post(manage::reset_password))
        .route("/api/account/blocks", get(blocks::list))
        .route(
            "/api/account/blocks/{player}",
            put(blocks::block).delete(blocks::unblock),
        )
        .route("/api/reports", post(reports::create))
        .route("/api/session", post(api::sign_in).delete(api::sign_out))
        .route(
            "/api/sessions",
            get(manage::list).delete(manage::sign_out_others),
        )
        .route("/api/sessions/{id}", delete(manage::sign_out_one))
}
