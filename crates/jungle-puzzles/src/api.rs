//! The puzzles' HTTP API (issue 27): the next puzzle near the player's puzzle rating, one by
//! id, the day's, an attempt judged here (the moves, not the client's word), and a player's
//! history. A player is whoever the token names (a guest too); a guest solves unrated.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use jungle_protocol::puzzles::{
    PuzzleAttempt, PuzzleAttemptView, PuzzleHistory, PuzzleRatingView, PuzzleResult, PuzzleView,
};
use jungle_rules::Ruleset;
use serde::Deserialize;
use uuid::Uuid;

use super::{Theme, Verdict};
use crate::PuzzlesState;
use jungle_limits::Limited;
use jungle_store::{StoreError, StoredPuzzle};
use jungle_web::client_addr::ClientAddr;

/// Moves an attempt may carry, and the longest move text.
const MAX_MOVES: usize = 16;
const MAX_MOVE_TEXT: usize = 8;
/// The largest attempt's body (sixteen moves are a few hundred bytes).
pub const MAX_BODY: usize = 4 * 1024;
/// Attempts shown in a player's history.
const HISTORY: i64 = 100;

#[derive(Debug, thiserror::Error)]
pub enum PuzzleApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("no such puzzle")]
    NotFound,
    #[error("no puzzle left to offer here: try another ruleset or theme")]
    NoneLeft,
    #[error("no such player")]
    NoPlayer,
    #[error("an attempt is a player's: send your token")]
    NotSignedIn,
    #[error("an attempt is at most {MAX_BODY} bytes")]
    TooLarge,
    /// A position of the puzzle stands in a game in progress now: the puzzle is the engine's
    /// word on it, so it is neither shown nor judged until that game ends.
    #[error(
        "this puzzle's position stands in a game in progress now: try another, or this one later"
    )]
    InPlay,
    #[error("the puzzle cannot be checked against the games in progress now: try again soon")]
    Unsure,
    #[error(transparent)]
    ForeignOrigin(#[from] jungle_web::auth::ForeignOrigin),
    #[error(transparent)]
    RateLimited(#[from] jungle_limits::RateLimited),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl IntoResponse for PuzzleApiError {
    fn into_response(self) -> Response {
        let (status, code) = match &self {
            PuzzleApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            PuzzleApiError::NotFound | PuzzleApiError::NoPlayer => {
                (StatusCode::NOT_FOUND, "not_found")
            }
            PuzzleApiError::NoneLeft => (StatusCode::NOT_FOUND, "no_puzzle"),
            PuzzleApiError::InPlay => (StatusCode::CONFLICT, "puzzle_in_play"),
            PuzzleApiError::Unsure => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            PuzzleApiError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            PuzzleApiError::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            PuzzleApiError::ForeignOrigin(_) => (StatusCode::FORBIDDEN, "foreign_origin"),
            PuzzleApiError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            PuzzleApiError::Store(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        };
        let message = match &self {
            PuzzleApiError::Store(e) => jungle_web::json_rejections::internal("puzzle request", e),
            other => other.to_string(),
        };
        let limited = match &self {
            PuzzleApiError::RateLimited(limited) => Some(limited),
            _ => None,
        };
        jungle_web::json_rejections::refusal(status, code, message, limited)
    }
}

/// The player the request names, if any, once the limits allow it.
pub(crate) async fn asker(
    state: &PuzzlesState,
    headers: &HeaderMap,
    client: std::net::IpAddr,
    limit: Limited,
) -> Result<Option<jungle_store::PlayerRecord>, PuzzleApiError> {
    let player = jungle_web::identity::player_of(&state.store, headers).await?;
    state
        .limits
        .check(limit, player.as_ref().map(|p| p.id), client)?;
    Ok(player)
}

/// Refuses a puzzle any of whose positions stands in a game in progress now (any game: one
/// against our computer started from a puzzle's board would otherwise read the engine's
/// answer, or its best defence, here), on any node. Unsure counts as no.
pub(crate) async fn fair_to_show(
    state: &PuzzlesState,
    stored: &StoredPuzzle,
) -> Result<(), PuzzleApiError> {
    let positions = stored.puzzle.line_positions().map_err(|e| {
        PuzzleApiError::Store(StoreError::Corrupt(format!("puzzle {}: {e}", stored.id)))
    })?;
    let closed = state
        .fair_play
        .closed(&positions, jungle_rooms::fair_play::Among::AllGames)
        .await
        .map_err(|_| PuzzleApiError::Unsure)?;
    if closed.contains(&true) {
        return Err(PuzzleApiError::InPlay);
    }
    Ok(())
}

/// [`view`], once [`fair_to_show`].
pub(crate) async fn fair_view(
    state: &PuzzlesState,
    stored: &StoredPuzzle,
) -> Result<PuzzleView, PuzzleApiError> {
    fair_to_show(state, stored).await?;
    view(stored)
}

fn view(stored: &StoredPuzzle) -> Result<PuzzleView, PuzzleApiError> {
    let solver = stored.puzzle.solver().map_err(|e| {
        PuzzleApiError::Store(StoreError::Corrupt(format!("puzzle {}: {e}", stored.id)))
    })?;
    Ok(PuzzleView {
        id: stored.id.clone(),
        rules: stored.puzzle.rules,
        position: stored.puzzle.position.clone(),
        blunder: stored.puzzle.blunder.clone(),
        solver,
        solution: stored.puzzle.solution.clone(),
        themes: stored.puzzle.themes.iter().map(|t| t.name()).collect(),
        rating: stored.rating.shown(),
        plays: stored.plays,
        game: stored.puzzle.source,
    })
}

#[derive(Deserialize)]
pub struct NextQuery {
    rules: Option<String>,
    theme: Option<String>,
}

/// `GET /api/puzzles/next?rules=classic[&theme=den1]`.
pub async fn next(
    State(state): State<PuzzlesState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Query(query): Query<NextQuery>,
) -> Result<Json<PuzzleView>, PuzzleApiError> {
    let player = asker(&state, &headers, client, Limited::Puzzles).await?;
    let rules = rules_of(query.rules.as_deref())?;
    let theme = match query.theme.as_deref() {
        None | Some("") => None,
        Some(name) => Some(Theme::from_name(name).ok_or_else(|| {
            PuzzleApiError::BadRequest(format!("theme {:?} is not one we know", shortened(name)))
        })?),
    };
    let rating = match &player {
        Some(p) => state.store.puzzle_rating(p.id, rules).await?.glicko.rating,
        None => jungle_game::rating::START_RATING,
    };
    // A pick that stands in a game in progress is passed over for another (rare: a game
    // must stand exactly on a puzzle's board). Unsure (another node not answering) is said at
    // once: each further pick would wait on the same node again.
    for _ in 0..PICKS {
        let mut pick = [0u8; 8];
        getrandom::fill(&mut pick).expect("system randomness");
        let found = state
            .store
            .next_puzzle(
                player.as_ref().map(|p| p.id),
                rules,
                theme,
                rating,
                u64::from_le_bytes(pick),
            )
            .await?
            .ok_or(PuzzleApiError::NoneLeft)?;
        match fair_view(&state, &found).await {
            Err(PuzzleApiError::InPlay) => continue,
            shown => return shown.map(Json),
        }
    }
    Err(PuzzleApiError::InPlay)
}

/// Puzzles `next` picks before it gives up when each stands in a game in progress.
const PICKS: usize = 3;

/// The id's shape, checked before the database is asked.
fn checked_id(id: &str) -> Result<&str, PuzzleApiError> {
    if id.len() == 8 && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Ok(id)
    } else {
        Err(PuzzleApiError::NotFound)
    }
}

/// `GET /api/puzzles/{id}`.
pub async fn one(
    State(state): State<PuzzlesState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, PuzzleApiError> {
    asker(&state, &headers, client, Limited::Puzzles).await?;
    let found = state
        .store
        .puzzle(checked_id(&id)?)
        .await?
        .ok_or(PuzzleApiError::NotFound)?;
    Ok(Json(fair_view(&state, &found).await?))
}

/// `GET /api/puzzles/daily`: the same for everyone all day (UTC).
pub async fn daily(
    State(state): State<PuzzlesState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<PuzzleView>, PuzzleApiError> {
    asker(&state, &headers, client, Limited::Puzzles).await?;
    let today = jungle_game::time_text::rfc3339(jungle_store::now_ms());
    let found = state
        .store
        .puzzle_of_day(&today[..10])
        .await?
        .ok_or(PuzzleApiError::NoneLeft)?;
    Ok(Json(fair_view(&state, &found).await?))
}

/// `POST /api/puzzles/{id}/attempt`: judged here; an account's first attempt is rated.
pub async fn attempt(
    State(state): State<PuzzlesState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Json<PuzzleAttempt>, JsonRejection>,
) -> Result<Json<PuzzleResult>, PuzzleApiError> {
    // A page of another site must not spend a signed-in player's first try (or their
    // allowance of tries) with its cookie: refused before anything else.
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = asker(&state, &headers, client, Limited::PuzzleAttempts)
        .await?
        .ok_or(PuzzleApiError::NotSignedIn)?;
    let Json(body) = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => PuzzleApiError::TooLarge,
        _ => PuzzleApiError::BadRequest(e.body_text()),
    })?;
    // Text that is no move is a mistake of the client's, not a wrong answer: it must not
    // spend the player's one rated try.
    check_moves(&body.moves)?;
    let found = state
        .store
        .puzzle(checked_id(&id)?)
        .await?
        .ok_or(PuzzleApiError::NotFound)?;
    // A verdict tells right from wrong, as the solution would.
    fair_to_show(&state, &found).await?;
    if body.moves.len() > found.puzzle.solver_moves() {
        return Err(PuzzleApiError::BadRequest(format!(
            "this puzzle takes at most {} moves of yours",
            found.puzzle.solver_moves()
        )));
    }
    let verdict = found
        .puzzle
        .judge(&body.moves)
        .map_err(|e| PuzzleApiError::Store(StoreError::Corrupt(format!("puzzle {id}: {e}"))))?;
    let win = body.win && verdict == Verdict::Solved;
    let account = state.store.has_account(player.id).await?;
    let outcome = state
        .store
        .record_attempt(player.id, &found, win, account)
        .await?;
    let rating_now = state
        .store
        .puzzle_rating(player.id, found.puzzle.rules)
        .await?
        .glicko;
    let change = outcome
        .player
        .map_or(0, |(before, after)| after.shown() - before.shown());
    Ok(Json(PuzzleResult {
        win,
        rated: outcome.player.is_some(),
        rating: rating_now.shown(),
        change,
        puzzle_rating: outcome.puzzle.shown(),
    }))
}

/// Moves as a client sends them: a few, each like `a3a4`.
pub(crate) fn check_moves(moves: &[String]) -> Result<(), PuzzleApiError> {
    if moves.len() > MAX_MOVES
        || moves
            .iter()
            .any(|m| m.len() > MAX_MOVE_TEXT || m.parse::<jungle_rules::Move>().is_err())
    {
        return Err(PuzzleApiError::BadRequest(format!(
            "at most {MAX_MOVES} moves, each like a3a4"
        )));
    }
    Ok(())
}

/// A ruleset named in a query; Classic when none is.
/// What a refusal repeats of a name it was sent: no more than a name's length (a long one
/// is not sent back whole).
fn shortened(name: &str) -> String {
    const LONGEST: usize = 32;
    match name.char_indices().nth(LONGEST) {
        Some((at, _)) => format!("{}…", &name[..at]),
        None => name.to_owned(),
    }
}

pub(crate) fn rules_of(name: Option<&str>) -> Result<Ruleset, PuzzleApiError> {
    match name {
        None | Some("") => Ok(Ruleset::Classic),
        Some(name) => name.parse().map_err(|_| {
            PuzzleApiError::BadRequest(format!(
                "rules {:?} is not one we know (classic, strict, daitou or international)",
                shortened(name)
            ))
        }),
    }
}

/// `GET /api/players/{id}/puzzles`: ratings per ruleset and the latest attempts.
pub async fn history(
    State(state): State<PuzzlesState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> Result<Json<PuzzleHistory>, PuzzleApiError> {
    asker(&state, &headers, client, Limited::Puzzles).await?;
    state
        .store
        .player(id)
        .await?
        .ok_or(PuzzleApiError::NoPlayer)?;
    let mut ratings = Vec::new();
    for rules in Ruleset::ALL {
        let rating = state.store.puzzle_rating(id, rules).await?;
        if rating.attempts > 0 {
            ratings.push(PuzzleRatingView {
                rules,
                rating: rating.glicko.shown(),
                provisional: rating.glicko.is_provisional(),
                attempts: rating.attempts,
                wins: rating.wins,
            });
        }
    }
    let attempts = state
        .store
        .puzzle_attempts(id, HISTORY)
        .await?
        .into_iter()
        .map(|a| PuzzleAttemptView {
            puzzle: a.puzzle,
            rules: a.rules,
            win: a.win,
            rating: a.rating_after.map(|r| r.round() as i32),
            at: a.at,
        })
        .collect();
    Ok(Json(PuzzleHistory { ratings, attempts }))
}
