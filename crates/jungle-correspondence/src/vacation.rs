//! Vacations (issue 28): a player takes up to [`DAYS_A_YEAR`] days in any 365 during which
//! their turns in games over days stand still (their opponents' turns run as ever: they are
//! not away). Stored as intervals; each node polls for new ones and tells the rooms it runs,
//! which read them into their clocks, so it works the same with one node or several.

use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::CorrespondenceState;
use jungle_accounts::api::AccountApiError;
use jungle_limits::Limited;
use jungle_rooms::{RoomCommand, Rooms};
use jungle_store::{PlayerRecord, Store, Vacation, VacationTaken, DAY_MS};
use jungle_web::client_addr::ClientAddr;

/// Days of vacation a player may take in any 365.
pub const DAYS_A_YEAR: i64 = 14;
/// How often each node asks the database for vacations begun or ended.
pub const POLL: Duration = Duration::from_secs(1);

/// `GET`, and the answer of `POST` and `DELETE`, `/api/account/vacation`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VacationView {
    /// The end of the vacation running now, Unix ms; `null` when none is.
    pub until_ms: Option<i64>,
    /// Whole days still to take in the last 365.
    pub days_left: i64,
}

#[derive(Debug, Deserialize)]
pub struct NewVacation {
    pub days: i64,
}

async fn account(
    state: &CorrespondenceState,
    headers: &HeaderMap,
    client: std::net::IpAddr,
    limit: Limited,
) -> Result<PlayerRecord, AccountApiError> {
    let what = "vacations, as games over days,";
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

async fn view(
    state: &CorrespondenceState,
    player: &PlayerRecord,
) -> Result<VacationView, AccountApiError> {
    let now = state.room_ctx.time.wall_ms();
    let running = state.store.vacations(player.id, now).await?;
    let until_ms = running
        .iter()
        .find(|v| v.starts_at <= now)
        .map(|v| v.ends_at);
    let taken = state
        .store
        .vacation_taken_since(player.id, now - 365 * DAY_MS)
        .await?;
    Ok(VacationView {
        until_ms,
        // A day begun is a day taken.
        days_left: (DAYS_A_YEAR - (taken + DAY_MS - 1) / DAY_MS).max(0),
    })
}

/// `GET /api/account/vacation`.
pub async fn show(
    State(state): State<CorrespondenceState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<VacationView>, AccountApiError> {
    let player = account(&state, &headers, client, Limited::CorrespondenceReads).await?;
    Ok(Json(view(&state, &player).await?))
}

/// `POST /api/account/vacation {"days"}`: a vacation from now, of whole days.
pub async fn start(
    State(state): State<CorrespondenceState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: Result<Json<NewVacation>, JsonRejection>,
) -> Result<Json<VacationView>, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = account(&state, &headers, client, Limited::Vacation).await?;
    let Json(asked) = body.map_err(AccountApiError::unreadable)?;
    let over = |days_left: i64| {
        AccountApiError::BadBody(format!(
            "a vacation is 1 to {days_left} days now ({DAYS_A_YEAR} in any 365)"
        ))
    };
    if !(1..=DAYS_A_YEAR).contains(&asked.days) {
        return Err(over(view(&state, &player).await?.days_left));
    }
    let now = state.room_ctx.time.wall_ms();
    let vacation = Vacation {
        starts_at: now,
        ends_at: now + asked.days * DAY_MS,
    };
    // Checked where it is written, so that requests at once cannot pass the allowance.
    let year_began = now - 365 * DAY_MS;
    match state
        .store
        .take_vacation(player.id, vacation, year_began, DAYS_A_YEAR)
        .await?
    {
        VacationTaken::Taken => Ok(Json(view(&state, &player).await?)),
        VacationTaken::AlreadyRunning => Err(AccountApiError::BadBody(
            "a vacation is already running: end it first".into(),
        )),
        VacationTaken::OverAllowance { days_left } => Err(over(days_left)),
    }
}

/// `DELETE /api/account/vacation`: back early (the days not taken stay to take).
pub async fn end(
    State(state): State<CorrespondenceState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<VacationView>, AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = account(&state, &headers, client, Limited::Vacation).await?;
    let now = state.room_ctx.time.wall_ms();
    state.store.end_vacation(player.id, now).await?;
    Ok(Json(view(&state, &player).await?))
}

/// Tells this node's rooms of vacations begun or ended (on any node: they are in the store).
pub async fn tell_rooms(store: Store, rooms: Rooms, mut shutdown: watch::Receiver<bool>) {
    // Changes after this (the store's time, ms) are still to tell; one at exactly this time
    // is told again, harmlessly.
    let mut since = jungle_store::now_ms();
    let mut tick = tokio::time::interval(POLL);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.changed() => return,
        }
        let changed = match store.vacations_changed_since(since - 1).await {
            Ok(changed) => changed,
            Err(e) => {
                tracing::warn!(error = %e, "could not read vacations; trying again");
                continue;
            }
        };
        for (player, at) in changed {
            match store.active_game_ids(player).await {
                Ok(games) => {
                    for game in games {
                        if let Some(room) = rooms.get(game) {
                            room.send(RoomCommand::Vacation { player }).await;
                        }
                    }
                    since = since.max(at + 1);
                }
                Err(e) => tracing::warn!(error = %e, "a player's games, for a vacation"),
            }
        }
    }
}
