//! `POST /api/reports`: a player reports another to the operator (`jungle-server admin reports`).
//! Any signed-in player may report (guests too: abuse in casual games is abuse); limited per
//! player and per address, one open report per pair, and the text is bounded.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use jungle_protocol::http::{NewReport, ReportCreated, MAX_REPORT_DETAILS, REPORT_REASONS};

use crate::api::{AccountApiError, ReportError};
use crate::AccountsState;
use jungle_limits::Limited;
use jungle_store::ModerationStoreError;
use jungle_web::client_addr::ClientAddr;

pub async fn create(
    State(state): State<AccountsState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: Result<Json<NewReport>, JsonRejection>,
) -> Result<(StatusCode, Json<ReportCreated>), AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let reporter = jungle_web::identity::player_of(&state.store, &headers)
        .await?
        .ok_or(AccountApiError::NotSignedIn)?;
    let Json(report) = body.map_err(AccountApiError::unreadable)?;
    let bad = |m: &str| AccountApiError::from(ReportError::Bad(m.to_owned()));
    if !REPORT_REASONS.contains(&report.reason.as_str()) {
        return Err(bad(&format!(
            "the reason must be one of {}",
            REPORT_REASONS.join(", ")
        )));
    }
    let details = report.details.trim();
    if details.chars().count() > MAX_REPORT_DETAILS {
        return Err(bad(&format!(
            "details are limited to {MAX_REPORT_DETAILS} characters"
        )));
    }
    if details.chars().any(|c| c.is_control() && c != '\n') {
        return Err(bad("details may not hold control characters"));
    }
    if report.player == reporter.id {
        return Err(bad("you cannot report yourself"));
    }
    state
        .limits
        .check(Limited::Report, Some(reporter.id), client)?;
    let store = &state.store;
    if store.player(report.player).await?.is_none()
        || jungle_game::computer::bot_level(report.player).is_some()
    {
        return Err(ReportError::NoSuchPlayer.into());
    }
    if let Some(game) = report.game {
        // A private game in play is, to anyone but its players, no game at all.
        let played = store.game_without_moves(game).await?.is_some_and(|g| {
            (g.red == report.player || g.blue == report.player)
                && (!g.private_in_play() || g.red == reporter.id || g.blue == reporter.id)
        });
        if !played {
            return Err(bad("the reported player did not play in that game"));
        }
    }
    let stored = store
        .create_report(&jungle_store::NewReport {
            reporter: reporter.id,
            reported: report.player,
            game: report.game,
            reason: &report.reason,
            details,
        })
        .await;
    match stored {
        Ok(id) => Ok((StatusCode::CREATED, Json(ReportCreated { id }))),
        Err(ModerationStoreError::AlreadyReported) => Err(ReportError::AlreadyReported.into()),
        Err(ModerationStoreError::Store(e)) => Err(e.into()),
        Err(e @ ModerationStoreError::NameTaken) => Err(ReportError::Bad(e.to_string()).into()),
    }
}
