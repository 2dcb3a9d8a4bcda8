//! An account holder manages their sessions, password and account. Every request names its
//! session by its token (`Authorization: Bearer` or the cookie); nobody acts on another's.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use jungle_protocol::http;
use uuid::Uuid;

use super::api::AccountApiError;
use super::passwords::check_password;
use super::AccountError;
use crate::fair_queue::Lane;
use crate::AccountsState;
use jungle_store::PlayerRecord;
use jungle_web::auth::hash_token;

/// The session and player a request is made with.
/// The account a request names, once `limit` allows it: guests are told what the
/// feature (`what`) is for. For account features reached by a session or a token alike.
pub async fn account_within(
    store: &jungle_store::Store,
    limits: &jungle_limits::Limits,
    headers: &HeaderMap,
    client: std::net::IpAddr,
    limit: jungle_limits::Limited,
    what: &str,
) -> Result<jungle_store::PlayerRecord, AccountApiError> {
    let player = jungle_web::identity::player_of(store, headers)
        .await?
        .ok_or(AccountApiError::NotSignedIn)?;
    limits.check(limit, Some(player.id), client)?;
    if !store.has_account(player.id).await? {
        return Err(AccountApiError::BadBody(format!("{what} are for accounts")));
    }
    Ok(player)
}

pub(super) async fn signed_in(
    state: &AccountsState,
    headers: &HeaderMap,
) -> Result<(Uuid, PlayerRecord), AccountApiError> {
    jungle_web::identity::session_of(&state.store, headers)
        .await?
        .ok_or(AccountApiError::NotSignedIn)
}

/// Ends `player`'s sessions (the one `only`, or all but `keep`) and closes their open
/// WebSockets. Returns how many ended.
async fn end_sessions(
    state: &AccountsState,
    player: Uuid,
    only: Option<Uuid>,
    keep: Option<Uuid>,
) -> Result<usize, AccountApiError> {
    let ended = state.store.delete_sessions(player, only, keep).await?;
    for &session in &ended {
        state.open_sessions.sign_out(session);
    }
    Ok(ended.len())
}

/// The session and player of a request whose account password is given again, before
/// something that cannot be undone.
async fn confirmed(
    state: &AccountsState,
    client: std::net::IpAddr,
    headers: &HeaderMap,
    password: &str,
) -> Result<(Uuid, PlayerRecord), AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, headers)?;
    let (session, player) = signed_in(state, headers).await?;
    // Each check hashes (19 MiB, tens of milliseconds): limited per player and address.
    state.limits.check(
        jungle_limits::Limited::PasswordConfirm,
        Some(player.id),
        client,
    )?;
    let stored = state.store.password_hash(player.id).await?;
    if state
        .hasher
        .verify(Lane::Owner, password, stored.as_deref())
        .await?
    {
        Ok((session, player))
    } else {
        Err(AccountError::BadCredentials.into())
    }
}

fn json<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, AccountApiError> {
    body.map(|Json(b)| b).map_err(AccountApiError::unreadable)
}

/// `GET /api/sessions`: the player's signed-in devices.
pub async fn list(
    State(state): State<AccountsState>,
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

/// `GET /api/account/export`: the account's data as one JSON document (profile, sessions,
/// games, rating history).
pub async fn export(
    State(state): State<AccountsState>,
    jungle_web::client_addr::ClientAddr(client): jungle_web::client_addr::ClientAddr,
    headers: HeaderMap,
) -> Result<Json<http::AccountExport>, AccountApiError> {
    let (_, player) = signed_in(&state, &headers).await?;
    state
        .limits
        .check(jungle_limits::Limited::Export, Some(player.id), client)?;
    let profile = state
        .store
        .profile(player.id)
        .await?
        .ok_or(AccountApiError::NotSignedIn)?;
    let Json(sessions) = list(State(state.clone()), headers).await?;
    let games = state
        .store
        .player_games(player.id, None, 0, 10_000, true)
        .await?;
    let mut rating_history = std::collections::BTreeMap::new();
    for ruleset in jungle_rules::Ruleset::ALL {
        let points = state
            .store
            .rating_history(player.id, ruleset, 10_000)
            .await?;
        rating_history.insert(
            ruleset.name().to_owned(),
            points
                .into_iter()
                .map(|(at, rating)| http::RatingPoint { at, rating })
                .collect(),
        );
    }
    let mail = state
        .store
        .mail_address(player.id)
        .await?
        .map(|m| http::MailSettings {
            address: Some(m.address),
            confirmed: m.confirmed,
            turn_mails: m.turn_mails,
            mail_on: state.mail_on,
        });
    let learn = state.store.learn_progress(player.id).await?;
    let preferences = state.store.push_preferences(player.id).await?;
    let push = Some(http::PushExport {
        endpoints: state
            .store
            .push_subscriptions(player.id)
            .await?
            .into_iter()
            .map(|s| s.endpoint)
            .collect(),
        turns: preferences.turns,
        challenges: preferences.challenges,
        tournaments: preferences.tournaments,
    });
    Ok(Json(http::AccountExport {
        profile,
        sessions,
        games,
        rating_history,
        mail,
        learn,
        push,
    }))
}

/// `DELETE /api/sessions/{id}`: signs one of the player's own sessions out.
pub async fn sign_out_one(
    State(state): State<AccountsState>,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> Result<StatusCode, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let (_, player) = signed_in(&state, &headers).await?;
    if end_sessions(&state, player.id, Some(id), None).await? == 0 {
        return Err(AccountApiError::NoSuchSession);
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/sessions`: signs out every session but this one.
pub async fn sign_out_others(
    State(state): State<AccountsState>,
    headers: HeaderMap,
) -> Result<StatusCode, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let (current, player) = signed_in(&state, &headers).await?;
    end_sessions(&state, player.id, None, Some(current)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/account/password`: a new password; every other session is signed out.
pub async fn change_password(
    State(state): State<AccountsState>,
    jungle_web::client_addr::ClientAddr(client): jungle_web::client_addr::ClientAddr,
    headers: HeaderMap,
    body: Result<Json<http::PasswordChange>, JsonRejection>,
) -> Result<StatusCode, AccountApiError> {
    let change = json(body)?;
    let (current, player) = confirmed(&state, client, &headers, &change.current).await?;
    check_password(&change.new, &player.name)?;
    let hash = state.hasher.hash(Lane::Owner, &change.new).await?;
    state.store.set_password_hash(player.id, &hash).await?;
    end_sessions(&state, player.id, None, Some(current)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/account` `{"password"}`: the games stay, under an anonymous name; the
/// username, password and every session are erased.
pub async fn delete_account(
    State(state): State<AccountsState>,
    jungle_web::client_addr::ClientAddr(client): jungle_web::client_addr::ClientAddr,
    headers: HeaderMap,
    body: Result<Json<http::AccountDeletion>, JsonRejection>,
) -> Result<StatusCode, AccountApiError> {
    let deletion = json(body)?;
    let (_, player) = confirmed(&state, client, &headers, &deletion.password).await?;
    for session in state.store.delete_account(player.id).await? {
        state.open_sessions.sign_out(session);
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/account/settings`: the account's display settings (the defaults until saved).
pub async fn settings(
    State(state): State<AccountsState>,
    headers: HeaderMap,
) -> Result<Json<http::DisplaySettings>, AccountApiError> {
    let (_, player) = signed_in(&state, &headers).await?;
    let saved = state.store.settings(player.id).await?;
    // What was saved was checked on the way in; a row that no longer reads is the defaults.
    let settings = saved
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default();
    Ok(Json(settings))
}

/// `PUT /api/account/settings`: saves the display settings, so every device shows the same.
pub async fn save_settings(
    State(state): State<AccountsState>,
    jungle_web::client_addr::ClientAddr(client): jungle_web::client_addr::ClientAddr,
    headers: HeaderMap,
    body: Result<Json<http::DisplaySettings>, JsonRejection>,
) -> Result<Json<http::DisplaySettings>, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let settings = json(body)?;
    if let Some(language) = &settings.language {
        if !["en", "zh", "zh-Hant"].contains(&language.as_str()) {
            return Err(AccountApiError::BadBody(
                "language must be \"en\", \"zh\" or \"zh-Hant\"".into(),
            ));
        }
    }
    if let Some(theme) = &settings.theme {
        if !["light", "dark"].contains(&theme.as_str()) {
            return Err(AccountApiError::BadBody(
                "theme must be \"light\" or \"dark\" (or absent: the system's)".into(),
            ));
        }
    }
    if let Some(challenges) = &settings.challenges {
        if !["everyone", "accounts", "nobody"].contains(&challenges.as_str()) {
            return Err(AccountApiError::BadBody(
                "challenges must be \"everyone\", \"accounts\" or \"nobody\"".into(),
            ));
        }
    }
    if let Some(board) = &settings.board {
        if !["wood", "meadow"].contains(&board.as_str()) {
            return Err(AccountApiError::BadBody(
                "board must be \"wood\" or \"meadow\"".into(),
            ));
        }
    }
    if let Some(pieces) = &settings.pieces {
        if !["pictures", "glyphs", "both"].contains(&pieces.as_str()) {
            return Err(AccountApiError::BadBody(
                "pieces must be \"pictures\", \"glyphs\" or \"both\" (or absent: the language's)"
                    .into(),
            ));
        }
    }
    let (_, player) = signed_in(&state, &headers).await?;
    state
        .limits
        .check(jungle_limits::Limited::Settings, Some(player.id), client)?;
    // Who may challenge is not a display setting: a body without it keeps what is saved.
    let mut settings = settings;
    if settings.challenges.is_none() {
        settings.challenges = state
            .store
            .settings(player.id)
            .await?
            .and_then(|json| serde_json::from_str::<http::DisplaySettings>(&json).ok())
            .and_then(|saved| saved.challenges);
    }
    let text = serde_json::to_string(&settings).expect("settings serialize");
    state.store.set_settings(player.id, &text).await?;
    Ok(Json(settings))
}

/// `POST /api/account/reset {"token", "password"}`: uses a one-time link from
/// `jungle-server admin reset-password`; every session is signed out.
pub async fn reset_password(
    State(state): State<AccountsState>,
    jungle_web::client_addr::ClientAddr(client): jungle_web::client_addr::ClientAddr,
    headers: HeaderMap,
    body: Result<Json<http::PasswordReset>, JsonRejection>,
) -> Result<StatusCode, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    // Guessing links is what this limits, like guessing passwords.
    state
        .limits
        .check(jungle_limits::Limited::SignIn, None, client)?;
    let reset = json(body)?;
    let token_hash = hash_token(reset.token.trim());
    let owner = state
        .store
        .password_reset_owner(&token_hash)
        .await?
        .ok_or(AccountApiError::BadResetLink)?;
    check_password(&reset.password, &owner)?;
    // Whoever holds a reset link is the owner, as far as we know.
    let hash = state.hasher.hash(Lane::Owner, &reset.password).await?;
    let (_, ended) = state
        .store
        .use_password_reset(&token_hash, &hash)
        .await?
        .ok_or(AccountApiError::BadResetLink)?;
    for session in ended {
        state.open_sessions.sign_out(session);
    }
    Ok(StatusCode::NO_CONTENT)
}
