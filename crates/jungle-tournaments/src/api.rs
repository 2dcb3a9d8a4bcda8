//! The tournaments' HTTP API: `POST /api/tournaments` (create), `GET /api/tournaments`
//! (upcoming, running, recently finished), `GET /api/tournaments/{id}` (with standings).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use std::collections::{HashMap, HashSet};

use jungle_protocol::http::{self, NewTournament, Standing, TournamentCreated, TournamentStatus};
use uuid::Uuid;

use super::director::status_at;

use crate::TournamentsState;
use jungle_accounts::api::AccountApiError;
use jungle_game::time_text::{parse_rfc3339, rfc3339};
use jungle_limits::Limited;
use jungle_store::{now_ms, TournamentRecord};
use jungle_web::client_addr::ClientAddr;

/// Tournaments one player may have made that are not over yet.
pub const MAX_OPEN_PER_PLAYER: i64 = 3;
/// Public tournaments made from one address that are not over yet (whatever the accounts).
pub const MAX_OPEN_PER_ADDRESS: i64 = 10;
/// How far ahead a tournament may be set (30 days).
const FURTHEST_START_MS: i64 = 30 * 24 * 3600 * 1000;

fn bad(message: impl Into<String>) -> AccountApiError {
    AccountApiError::BadBody(message.into())
}

/// `POST /api/tournaments`.
pub async fn create(
    State(state): State<TournamentsState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: Result<Json<NewTournament>, JsonRejection>,
) -> Result<(StatusCode, Json<TournamentCreated>), AccountApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = jungle_web::identity::player_of(&state.store, &headers)
        .await?
        .ok_or(AccountApiError::NotSignedIn)?;
    let Json(new) = body.map_err(AccountApiError::unreadable)?;
    let name = new.name.trim();
    let length = name.chars().count();
    if !(1..=40).contains(&length) || name.chars().any(char::is_control) {
        return Err(bad(if length == 0 || length > 40 {
            "a tournament's name has 1 to 40 characters"
        } else {
            "a tournament's name may not hold control characters"
        }));
    }
    new.clock.validate().map_err(|e| bad(e.to_string()))?;
    if new.clock.is_correspondence() {
        return Err(bad("an arena is played in one sitting: no clock of days"));
    }
    if !(1..=720).contains(&new.minutes) {
        return Err(bad("a tournament lasts 1 to 720 minutes"));
    }
    let now = now_ms();
    let starts_at = match &new.starts_at {
        None => now,
        Some(text) => parse_rfc3339(text)
            .ok_or_else(|| bad("starts_at is an RFC 3339 time, such as 2026-12-01T18:00:00Z"))?,
    };
    if starts_at < now - 60_000 || starts_at > now + FURTHEST_START_MS {
        return Err(bad("a tournament starts between now and 30 days from now"));
    }
    // Anyone may hold a private arena for friends; the public list is for accounts, so that
    // it cannot be filled by guests minted by the thousand.
    let account = state.store.has_account(player.id).await?;
    if (new.rated || !new.private) && !account {
        return Err(AccountApiError::Account(
            jungle_accounts::AccountError::AccountRequired(
                "rated and public tournaments are made by accounts: make a private one, or keep your player with a username",
            ),
        ));
    }
    state
        .limits
        .check(Limited::NewTournament, Some(player.id), client)?;
    if state.store.open_tournaments_by(player.id, now).await? >= MAX_OPEN_PER_PLAYER {
        return Err(bad(format!(
            "you already have {MAX_OPEN_PER_PLAYER} tournaments to come or running"
        )));
    }
    let address = jungle_limits::address_key(client).to_string();
    if !new.private
        && state
            .store
            .open_public_tournaments_from(&address, now)
            .await?
            >= MAX_OPEN_PER_ADDRESS
    {
        return Err(bad(format!(
            "{MAX_OPEN_PER_ADDRESS} public tournaments made from your address are to come or running; wait for one to end"
        )));
    }
    let code = new
        .private
        .then(|| jungle_rooms::open::new_room_code(&state.rooms));
    let record = TournamentRecord {
        id: Uuid::new_v4(),
        name: name.to_owned(),
        rules: new.rules,
        clock: new.clock,
        rated: new.rated,
        starts_at: starts_at.max(now),
        ends_at: starts_at.max(now) + i64::from(new.minutes) * 60_000,
        code: code.clone(),
        created_by: player.id,
        bots: new.bots,
    };
    state
        .store
        .create_tournament(&record, Some(&address))
        .await?;
    // A new id: nobody else directs it. If Redis is away, the first tick takes the lease.
    state.room_ctx.claims.direct(record.id).await;
    let loaded = super::director::load(&state.store, record.clone()).await?;
    super::director::start(
        state.room_ctx.clone(),
        state.directors.clone(),
        state.online.clone(),
        loaded,
    );
    Ok((
        StatusCode::CREATED,
        Json(TournamentCreated {
            id: record.id,
            code,
        }),
    ))
}

/// The standings of a tournament: as its director last sent them while it runs, else as
/// stored.
pub async fn standings(
    store: &jungle_store::Store,
    directors: &super::Directors,
    t: &TournamentRecord,
) -> Result<Vec<Standing>, jungle_store::StoreError> {
    if let Some(lines) = directors.standings(t.id) {
        return Ok(lines.as_ref().clone());
    }
    let mut paused = HashSet::new();
    let entries = store
        .tournament_entries(t.id, t.rules)
        .await?
        .into_iter()
        .map(|line| {
            if line.withdrawn {
                paused.insert(line.entry.player);
            }
            line.entry
        });
    let entries: Vec<_> = entries.collect();
    Ok(jungle_game::table::lines(entries, &paused, &HashMap::new()))
}

async fn view(
    state: &TournamentsState,
    t: &TournamentRecord,
    with_standings: bool,
) -> Result<http::Tournament, AccountApiError> {
    let (players, standings) = if with_standings {
        let lines = standings(&state.store, &state.directors, t).await?;
        (lines.len() as u32, lines)
    } else {
        (state.store.tournament_size(t.id).await? as u32, Vec::new())
    };
    Ok(http::Tournament {
        id: t.id,
        name: t.name.clone(),
        rules: t.rules,
        clock: t.clock,
        rated: t.rated,
        private: t.code.is_some(),
        status: status_at(t, now_ms()),
        starts_at: rfc3339(t.starts_at),
        ends_at: rfc3339(t.ends_at),
        players,
        standings,
        official: t.created_by == super::schedule::organiser_id(),
        bots: t.bots,
    })
}

/// Which page of `GET /api/tournaments` (from 1).
#[derive(Debug, serde::Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    page: Option<u32>,
}

/// `GET /api/tournaments?page=N`: public ones only; the operator's scheduled arenas on every
/// page, first; then the players' by players and start time, a page at a time.
pub async fn list(
    State(state): State<TournamentsState>,
    axum::extract::Query(query): axum::extract::Query<ListQuery>,
) -> Result<Json<http::Tournaments>, AccountApiError> {
    let now = now_ms();
    let organiser = super::schedule::organiser_id();
    let page = query.page.unwrap_or(1).max(1);
    let per_page = http::TOURNAMENTS_PAGE;
    let offset = i64::from(page - 1) * i64::from(per_page);
    let scheduled = state
        .store
        .scheduled_open_tournaments(organiser, now)
        .await?;
    let (players, total) = state
        .store
        .players_open_tournaments(organiser, now, i64::from(per_page), offset)
        .await?;
    let mut answer = http::Tournaments {
        page,
        pages: (total.max(1) as u32).div_ceil(per_page),
        total: total as u32,
        ..Default::default()
    };
    for t in scheduled.iter().chain(&players) {
        let shown = view(&state, t, false).await?;
        match shown.status {
            TournamentStatus::Upcoming => answer.upcoming.push(shown),
            _ => answer.running.push(shown),
        }
    }
    if page == 1 {
        for t in &state.store.finished_tournaments(now).await? {
            answer.finished.push(view(&state, t, false).await?);
        }
    }
    Ok(Json(answer))
}

/// `GET /api/tournaments/{id}`: anyone with the id sees it (a private one's code is not shown).
pub async fn one(
    State(state): State<TournamentsState>,
    Path(id): Path<Uuid>,
) -> Result<Json<http::Tournament>, AccountApiError> {
    let t = state
        .store
        .tournament(id)
        .await?
        .ok_or(AccountApiError::NoSuchTournament)?;
    Ok(Json(view(&state, &t, true).await?))
}
