//! The e-mail endpoints: an account gives (`PUT`), reads (`GET`) or removes (`DELETE`) its
//! address at `/api/account/email`; the links in mails confirm it and unsubscribe, without
//! signing in (`/api/mail/confirm`, `/api/mail/unsubscribe`).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Html;
use axum::Json;
use jungle_protocol::http::{MailSettings, NewMailAddress};
use serde::Deserialize;

use crate::MailState;
use jungle_accounts::api::AccountApiError;
use jungle_limits::Limited;
use jungle_store::PlayerRecord;
use jungle_web::client_addr::ClientAddr;

/// The longest address taken (RFC 5321's path limit).
const MAX_ADDRESS: usize = 254;

async fn account(
    state: &MailState,
    headers: &HeaderMap,
    client: std::net::IpAddr,
    limit: Limited,
) -> Result<PlayerRecord, AccountApiError> {
    let what = "mails";
    jungle_accounts::manage::account_within(
        &state.store,
        &state.limits,
        headers,
        client,
        limit,
        what,
    )
    .await
}

async fn settings(
    state: &MailState,
    player: &PlayerRecord,
) -> Result<MailSettings, AccountApiError> {
    let stored = state.store.mail_address(player.id).await?;
    Ok(MailSettings {
        address: stored.as_ref().map(|m| m.address.clone()),
        confirmed: stored.as_ref().is_some_and(|m| m.confirmed),
        turn_mails: stored.as_ref().is_some_and(|m| m.turn_mails),
        mail_on: state.mailer.is_on(),
    })
}

/// An address as typed, checked: one `@`, no spaces or control characters, not too long.
fn checked(address: &str) -> Result<String, AccountApiError> {
    let address = address.trim();
    let bad = || AccountApiError::BadBody("that is not an e-mail address".into());
    if address.is_empty() || address.len() > MAX_ADDRESS {
        return Err(bad());
    }
    if address.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad());
    }
    // A quoted local part (`"ada"@…`, `"a\da"@…`) reaches the same inbox as the bare one
    // under endless spellings, each a fresh count for the cap per inbox; nobody's real
    // address needs one.
    if address.contains(['"', '\\']) {
        return Err(bad());
    }
    match address.split_once('@') {
        Some((local, domain)) if !local.is_empty() && domain.contains('.') => {}
        _ => return Err(bad()),
    }
    address
        .parse::<lettre::Address>()
        .map_err(|_| bad())
        .map(|a| a.to_string())
}

/// `GET /api/account/email`.
pub async fn show(
    State(state): State<MailState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<MailSettings>, AccountApiError> {
    let player = account(&state, &headers, client, Limited::CorrespondenceReads).await?;
    Ok(Json(settings(&state, &player).await?))
}

/// The inbox an address reaches, as far as we can tell: case and a `+tag` change nothing.
fn inbox_of(address: &str) -> String {
    let lower = address.to_lowercase();
    match lower.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split('+').next().unwrap_or(local);
            format!("{local}@{domain}")
        }
        None => lower,
    }
}

/// Confirmation mails one address receives in a day, whoever asks for them.
pub const CONFIRMATIONS_A_DAY: i64 = 3;

/// `PUT /api/account/email {"address"}`: stored unconfirmed; its confirmation link is mailed.
pub async fn set(
    State(state): State<MailState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: Result<Json<NewMailAddress>, JsonRejection>,
) -> Result<(StatusCode, Json<MailSettings>), AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = account(&state, &headers, client, Limited::Mail).await?;
    let Json(asked) = body.map_err(AccountApiError::unreadable)?;
    let mailer = &state.mailer;
    let Some(base) = mailer.public_url() else {
        return Err(AccountApiError::BadBody("this server sends no mail".into()));
    };
    let address = checked(&asked.address)?;
    // However many accounts ask, from however many addresses, a stranger's inbox gets few.
    let recipient = jungle_web::auth::hash_token(&inbox_of(&address));
    if !state
        .store
        .claim_mail_to(&recipient, CONFIRMATIONS_A_DAY)
        .await?
    {
        return Err(AccountApiError::RateLimited(jungle_limits::RateLimited {
            retry_after: std::time::Duration::from_secs(86_400),
        }));
    }
    let token = jungle_web::auth::new_token();
    state
        .store
        .set_mail_address(player.id, &address, &jungle_web::auth::hash_token(&token))
        .await?;
    let body = format!(
        "Someone, we hope you, gave this address to Jungle Arena for the player {}.\n\n\
         To get a mail when it is your move in a correspondence game, confirm it:\n\
         {base}/api/mail/confirm?token={token}\n\n\
         If it was not you, do nothing: no other mail comes to an address not confirmed.\n",
        player.name
    );
    if let Err(e) = mailer
        .send(&address, "Confirm your address for Jungle Arena", body)
        .await
    {
        tracing::warn!(error = %e, "a confirmation mail was not sent");
        return Err(AccountApiError::BadBody(
            "the confirmation mail could not be sent; try again later".into(),
        ));
    }
    Ok((StatusCode::ACCEPTED, Json(settings(&state, &player).await?)))
}

/// `DELETE /api/account/email`: the address and what was sent to it are forgotten.
pub async fn remove(
    State(state): State<MailState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<StatusCode, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = account(&state, &headers, client, Limited::Mail).await?;
    state.store.delete_mail_address(player.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
pub struct LinkQuery {
    token: Option<String>,
}

fn page(title: &str, text: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width\">\
         <title>{title}</title><h1>{title}</h1><p>{text}</p><p><a href=\"/\">Jungle Arena</a></p>"
    ))
}

/// A link's token, checked against the address's limit first (links are long random
/// secrets; the limit stops a flood of guesses anyway).
fn link_token(
    state: &MailState,
    client: std::net::IpAddr,
    q: &LinkQuery,
) -> Result<String, AccountApiError> {
    state.limits.check(Limited::MailLinks, None, client)?;
    let token = q.token.as_deref().unwrap_or_default();
    if token.is_empty() || token.len() > 128 {
        return Err(AccountApiError::BadBody("this link has no token".into()));
    }
    Ok(jungle_web::auth::hash_token(token))
}

/// `GET /api/mail/confirm?token=…`: the link of a confirmation mail.
pub async fn confirm(
    State(state): State<MailState>,
    ClientAddr(client): ClientAddr,
    Query(q): Query<LinkQuery>,
) -> Result<(StatusCode, Html<String>), AccountApiError> {
    let hash = link_token(&state, client, &q)?;
    Ok(if state.store.confirm_mail_address(&hash).await? {
        (
            StatusCode::OK,
            page(
                "Address confirmed",
                "You will get a mail when it is your move in a correspondence game.",
            ),
        )
    } else {
        (
            StatusCode::NOT_FOUND,
            page(
                "Unknown link",
                "This link was used already or replaced by a newer one.",
            ),
        )
    })
}

/// `GET` or `POST /api/mail/unsubscribe?token=…`: the link at the foot of each mail.
pub async fn unsubscribe(
    State(state): State<MailState>,
    ClientAddr(client): ClientAddr,
    Query(q): Query<LinkQuery>,
) -> Result<(StatusCode, Html<String>), AccountApiError> {
    let hash = link_token(&state, client, &q)?;
    Ok(if state.store.unsubscribe(&hash).await? {
        (
            StatusCode::OK,
            page(
                "No more mails",
                "You will get no more mails about your turns. Give your address again in your settings to have them back.",
            ),
        )
    } else {
        (
            StatusCode::NOT_FOUND,
            page("Unknown link", "This link names no mail we sent."),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked() {
        assert_eq!(checked(" ada@example.org ").unwrap(), "ada@example.org");
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.org",
            "a da@example.org",
            "ada@localhost",
            "ada@example.org\r\nBcc: x@y.z",
            // Quoted, or escaped: the same inbox as ada@example.org under another spelling.
            "\"ada\"@example.org",
            "\"a\\da\"@example.org",
            "\"ada+1\"@example.org",
        ] {
            assert!(checked(bad).is_err(), "{bad:?}");
        }
        assert!(checked(&format!("{}@example.org", "a".repeat(260))).is_err());
    }
}
