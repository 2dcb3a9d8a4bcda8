//! The account endpoints: `POST /api/account` (claim a guest, or a new account),
//! `POST /api/session` (sign in), `DELETE /api/session` (sign out).

use std::net::IpAddr;
use std::time::Instant;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use jungle_protocol::http;

use super::passwords::check_password;
use super::throttle::{Origin, Requester};
use super::AccountError;
use crate::fair_queue::Lane;
use crate::AccountsState;
use jungle_game::names::{name_keys, validate_username};
use jungle_limits::{Limited, RateLimited};
use jungle_store::{AccountStoreError, NewAccount, NewSession, StoreError};
use jungle_web::auth::{cookie, hash_token, new_token, presented_token, SESSION_COOKIE};
use jungle_web::client_addr::ClientAddr;

/// A browser's own cookie, set at its first sign-in and kept: a device that signed in to an
/// account before is never slowed by others' failed sign-ins (its SHA-256 is stored).
pub const DEVICE_COOKIE: &str = "jungle_device";
/// How long the device cookie lasts (400 days, the most browsers keep one).
const DEVICE_COOKIE_S: u64 = 400 * 24 * 3600;

/// Everything an account request can answer besides success.
#[derive(Debug, thiserror::Error)]
pub enum AccountApiError {
    #[error(transparent)]
    Account(#[from] AccountError),
    #[error(transparent)]
    RateLimited(#[from] RateLimited),
    #[error("sign in first")]
    NotSignedIn,
    #[error("you have no such session")]
    NoSuchSession,
    #[error(transparent)]
    ForeignOrigin(#[from] jungle_web::auth::ForeignOrigin),
    #[error("{0}")]
    BadBody(String),
    #[error("the request's body is too large")]
    TooLarge,
    #[error("this link is unknown, used or expired; ask the operator for a new one")]
    BadResetLink,
    #[error(transparent)]
    Report(#[from] ReportError),
    #[error("there is no such tournament")]
    NoSuchTournament,
    #[error(transparent)]
    Block(jungle_store::BlockError),
}

/// Why a report was refused.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{0}")]
    Bad(String),
    #[error("no such player")]
    NoSuchPlayer,
    #[error("you already have an open report about this player; the operator will read it")]
    AlreadyReported,
}

impl AccountApiError {
    /// A JSON body that did not read: too large for its route, or not what was expected.
    pub fn unreadable(e: JsonRejection) -> AccountApiError {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            AccountApiError::TooLarge
        } else {
            AccountApiError::BadBody(e.body_text())
        }
    }
}

impl From<jungle_store::BlockError> for AccountApiError {
    fn from(e: jungle_store::BlockError) -> Self {
        match e {
            jungle_store::BlockError::Store(e) => e.into(),
            other => AccountApiError::Block(other),
        }
    }
}

impl From<StoreError> for AccountApiError {
    fn from(e: StoreError) -> Self {
        AccountApiError::Account(AccountError::Internal(e.to_string()))
    }
}

impl From<AccountStoreError> for AccountApiError {
    fn from(e: AccountStoreError) -> Self {
        match e {
            AccountStoreError::UsernameTaken => AccountError::UsernameTaken.into(),
            AccountStoreError::NotAGuest => AccountError::AlreadyAnAccount.into(),
            AccountStoreError::Store(e) => e.into(),
        }
    }
}

impl IntoResponse for AccountApiError {
    fn into_response(self) -> Response {
        let (status, code) = match &self {
            AccountApiError::Account(e) => (
                match e {
                    AccountError::BadUsername(_) | AccountError::BadPassword(_) => {
                        StatusCode::BAD_REQUEST
                    }
                    AccountError::UsernameTaken | AccountError::AlreadyAnAccount => {
                        StatusCode::CONFLICT
                    }
                    AccountError::BadCredentials => StatusCode::UNAUTHORIZED,
                    AccountError::Banned(_) | AccountError::AccountRequired(_) => {
                        StatusCode::FORBIDDEN
                    }
                    AccountError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
                },
                e.code(),
            ),
            AccountApiError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            AccountApiError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            AccountApiError::NoSuchSession => (StatusCode::NOT_FOUND, "no_such_session"),
            AccountApiError::ForeignOrigin(_) => (StatusCode::FORBIDDEN, "foreign_origin"),
            AccountApiError::BadBody(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            AccountApiError::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            AccountApiError::BadResetLink => (StatusCode::BAD_REQUEST, "bad_reset_link"),
            AccountApiError::NoSuchTournament => (StatusCode::NOT_FOUND, "no_such_tournament"),
            AccountApiError::Block(e) => match e {
                jungle_store::BlockError::TooMany => (StatusCode::CONFLICT, "limit_reached"),
                jungle_store::BlockError::NoSuchPlayer => (StatusCode::NOT_FOUND, "no_such_player"),
                jungle_store::BlockError::Yourself | jungle_store::BlockError::Store(_) => {
                    (StatusCode::BAD_REQUEST, "bad_request")
                }
            },
            AccountApiError::Report(e) => match e {
                ReportError::Bad(_) => (StatusCode::BAD_REQUEST, "bad_request"),
                ReportError::NoSuchPlayer => (StatusCode::NOT_FOUND, "no_such_player"),
                ReportError::AlreadyReported => (StatusCode::CONFLICT, "already_reported"),
            },
        };
        let message = match &self {
            AccountApiError::Account(AccountError::Internal(detail)) => {
                tracing::error!(error = %detail, "account request failed");
                "something went wrong on our side; please try again".to_owned()
            }
            other => other.to_string(),
        };
        let body = Json(http::AccountError::new(code, message));
        match self {
            AccountApiError::RateLimited(limited) => {
                let wait = limited.seconds().to_string();
                (status, [(header::RETRY_AFTER, wait)], body).into_response()
            }
            _ => (status, body).into_response(),
        }
    }
}

/// What the sessions list shows of a device: its browser's own description, cut short.
fn device_of(headers: &HeaderMap) -> String {
    let agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("unknown device");
    agent.chars().take(120).collect()
}

/// An address coarse enough to say "where" without keeping who: IPv4 by /24, IPv6 by /48.
fn coarse_address(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            format!("{a}.{b}.{c}.0/24")
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}::/48", s[0], s[1], s[2])
        }
    }
}

fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, AccountApiError> {
    body.map(|Json(b)| b)
        .map_err(|e| match AccountApiError::unreadable(e) {
            AccountApiError::BadBody(why) => AccountApiError::BadBody(format!(
                "expected {{\"username\": …, \"password\": …}}: {why}"
            )),
            other => other,
        })
}

/// `POST /api/account`: with a guest's token, makes that guest permanent (id, games and
/// ratings stay; the token becomes the account's first session); without one, a new account.
pub async fn create_account(
    State(state): State<AccountsState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    request: Result<Json<http::Credentials>, JsonRejection>,
) -> Result<Response, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let credentials = body(request)?;
    let username = validate_username(&credentials.username).map_err(AccountError::from)?;
    check_password(&credentials.password, &username)?;
    // Counted once the cheap checks pass: what it limits is hashing and probing for names.
    state.limits.check(Limited::NewAccount, None, client)?;
    let keys = name_keys(&username);
    let password_hash = state
        .hasher
        .hash(Lane::of(client), &credentials.password)
        .await?;
    let account = NewAccount {
        username: &username,
        keys: &keys,
        password_hash: &password_hash,
    };
    let id = match presented_token(&headers) {
        Some(token) => {
            let token_hash = hash_token(&token);
            let guest = state
                .store
                .player_by_token_hash(&token_hash)
                .await?
                .ok_or(AccountApiError::NotSignedIn)?;
            if let Some(reason) = state.store.ban_reason(guest.id).await? {
                return Err(AccountError::Banned(reason).into());
            }
            state
                .store
                .claim_guest(
                    guest.id,
                    &token_hash,
                    &account,
                    &device_of(&headers),
                    &coarse_address(client),
                )
                .await?;
            guest.id
        }
        None => state.store.create_account(&account).await?,
    };
    // The device and address that made the account count as its owner's from the start.
    let device_token = cookie(&headers, DEVICE_COOKIE).unwrap_or_else(new_token);
    let address = jungle_limits::address_key(client).to_string();
    state
        .store
        .remember_origins(id, &hash_token(&device_token), &address)
        .await?;
    Ok((
        StatusCode::CREATED,
        [(header::SET_COOKIE, device_cookie(&state, &device_token))],
        Json(http::CreatedAccount { id, username }),
    )
        .into_response())
}

/// `POST /api/session`: signs in, with a new session for this device. The same answer for an
/// unknown username and a wrong password, in the same time.
pub async fn sign_in(
    State(state): State<AccountsState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    request: Result<Json<http::Credentials>, JsonRejection>,
) -> Result<Response, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    state.limits.check(Limited::SignIn, None, client)?;
    let credentials = body(request)?;
    let keys = name_keys(credentials.username.trim());
    let now = Instant::now();
    let account = state.store.credentials(&keys).await?;
    let device = cookie(&headers, DEVICE_COOKIE).map(|d| hash_token(&d));
    let address = jungle_limits::address_key(client).to_string();
    let origin = match &account {
        Some(account)
            if state
                .store
                .is_known_origin(account.id, device.as_deref(), &address)
                .await? =>
        {
            Origin::Known
        }
        _ => Origin::Unknown,
    };
    // A browser that signed in to this account before is itself the requester: failures
    // from its address by others (a shared network) never slow it.
    let known_device = match (&account, &device) {
        (Some(account), Some(device)) => state.store.is_known_device(account.id, device).await?,
        _ => false,
    };
    let requester = match (&device, known_device) {
        (Some(device), true) => Requester::Device(device.clone()),
        _ => Requester::from(client),
    };
    if let Some(wait) = state
        .failed_sign_ins
        .wait(requester.clone(), &keys.folded, origin, now)
    {
        return Err(RateLimited { retry_after: wait }.into());
    }
    let stored = account.as_ref().map(|a| a.password_hash.as_str());
    // The owner, as far as we know, does not wait behind others' guesses.
    let lane = match origin {
        Origin::Known => Lane::Owner,
        Origin::Unknown => Lane::of(client),
    };
    let matches = state
        .hasher
        .verify(lane, &credentials.password, stored)
        .await?;
    let Some(account) = account.filter(|_| matches) else {
        state
            .failed_sign_ins
            .failed(requester, &keys.folded, origin, now);
        return Err(AccountError::BadCredentials.into());
    };
    state.failed_sign_ins.succeeded(requester, &keys.folded);
    // Told only to whoever knows the password.
    if let Some(reason) = state.store.ban_reason(account.id).await? {
        return Err(AccountError::Banned(reason).into());
    }
    // This device and address are the owner's from now on.
    let device_token = cookie(&headers, DEVICE_COOKIE).unwrap_or_else(new_token);
    state
        .store
        .remember_origins(account.id, &hash_token(&device_token), &address)
        .await?;
    let token = new_token();
    let session = NewSession {
        token_hash: &hash_token(&token),
        device: &device_of(&headers),
        address: &coarse_address(client),
    };
    let (_, ended) = state.store.create_session(account.id, &session).await?;
    for old in ended {
        state.open_sessions.sign_out(old);
    }
    let secure = secure(&state);
    let session_cookie = format!(
        "{SESSION_COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}",
        jungle_web::identity::SESSION_IDLE_MS / 1000
    );
    let answer = http::SignedIn {
        id: account.id,
        name: account.name,
        token,
    };
    Ok((
        axum::response::AppendHeaders([
            (header::SET_COOKIE, session_cookie),
            (header::SET_COOKIE, device_cookie(&state, &device_token)),
        ]),
        Json(answer),
    )
        .into_response())
}

/// Cookies are `Secure` behind https.
fn secure(state: &AccountsState) -> &'static str {
    if state.public_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    }
}

/// The device cookie: sent back only to sign-in (and account creation), never readable by
/// scripts.
fn device_cookie(state: &AccountsState, token: &str) -> String {
    format!(
        "{DEVICE_COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/api; Max-Age={DEVICE_COOKIE_S}{}",
        secure(state)
    )
}

/// `DELETE /api/session`: signs this session out (the token presented, by header or cookie).
pub async fn sign_out(
    State(state): State<AccountsState>,
    headers: HeaderMap,
) -> Result<Response, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let (session, _player) = jungle_web::identity::session_of(&state.store, &headers)
        .await?
        .ok_or(AccountApiError::NotSignedIn)?;
    state.store.delete_session(session).await?;
    state.open_sessions.sign_out(session);
    let expired = format!("{SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0");
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, expired)]).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_kept_coarse() {
        assert_eq!(
            coarse_address("203.0.113.77".parse().unwrap()),
            "203.0.113.0/24"
        );
        assert_eq!(
            coarse_address("2001:db8:1:2::9".parse().unwrap()),
            "2001:db8:1::/48"
        );
    }
}
