//! Puzzle Streak (issue 51), as lichess has it: puzzles of rising difficulty, one after the
//! other, until the first mistake; the best score is kept per player and ruleset. Unrated, and
//! judged here like any attempt: the client sends the solver's moves, the server replays them.
//!
//! Each next puzzle is one of the few easiest that are harder than the last (by rating, then
//! id), so a streak climbs steadily through the whole set and never meets a puzzle twice.
//! Puzzles are shown under the same fair-play rule as every other: one whose positions stand
//! in a game in progress is passed over.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use jungle_limits::Limited;
use jungle_protocol::puzzles::{StreakAnswer, StreakView};
use jungle_rules::Ruleset;
use jungle_store::{PlayerRecord, StoredPuzzle};
use jungle_web::client_addr::ClientAddr;
use serde::Deserialize;

use crate::api::{asker, check_moves, fair_to_show, fair_view, rules_of, PuzzleApiError};
use crate::{PuzzlesState, Verdict};

/// The next puzzle is drawn from this many of the easiest harder than the last: variety
/// between streaks, and a climb slow enough to meet most of the set.
const CHOICES: i64 = 5;

#[derive(Deserialize)]
pub struct StreakQuery {
    rules: Option<String>,
}

/// The asker, who must name themself (a guest's token is enough: a streak is unrated).
async fn solver(
    state: &PuzzlesState,
    headers: &HeaderMap,
    client: std::net::IpAddr,
    limit: Limited,
) -> Result<PlayerRecord, PuzzleApiError> {
    asker(state, headers, client, limit)
        .await?
        .ok_or(PuzzleApiError::NotSignedIn)
}

/// `GET /api/puzzles/streak?rules=R`: the running streak (to go on after a reload), or the
/// best so far in `R` with no puzzle when none runs there.
pub async fn current(
    State(state): State<PuzzlesState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Query(query): Query<StreakQuery>,
) -> Result<Json<StreakView>, PuzzleApiError> {
    let player = solver(&state, &headers, client, Limited::Puzzles).await?;
    let rules = rules_of(query.rules.as_deref())?;
    Ok(Json(running_view(&state, &player, rules).await?))
}

/// `POST /api/puzzles/streak?rules=R`: a new streak from the easiest puzzle, in place of any
/// running one (whose score is kept as a best if it is one).
pub async fn start(
    State(state): State<PuzzlesState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Query(query): Query<StreakQuery>,
) -> Result<Json<StreakView>, PuzzleApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = solver(&state, &headers, client, Limited::PuzzleAttempts).await?;
    let rules = rules_of(query.rules.as_deref())?;
    let first = harder_fair_puzzle(&state, rules, f64::MIN, "")
        .await?
        .ok_or(PuzzleApiError::NoneLeft)?;
    state.store.start_streak(player.id, rules, &first).await?;
    Ok(Json(StreakView {
        rules,
        score: 0,
        best: state.store.best_streak(player.id, rules).await?,
        puzzle: Some(fair_view(&state, &first).await?),
        over: false,
        complete: false,
    }))
}

/// `POST /api/puzzles/streak/answer`: the solver's moves on the streak's puzzle. Solved: one
/// more, and the next puzzle; wrong: the streak is over. An answer about a puzzle the streak
/// has left (sent twice) changes nothing and gets the streak as it stands.
pub async fn answer(
    State(state): State<PuzzlesState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: Result<Json<StreakAnswer>, JsonRejection>,
) -> Result<Json<StreakView>, PuzzleApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let player = solver(&state, &headers, client, Limited::PuzzleAttempts).await?;
    let Json(body) = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => PuzzleApiError::TooLarge,
        _ => PuzzleApiError::BadRequest(e.body_text()),
    })?;
    check_moves(&body.moves)?;
    let Some(run) = state.store.streak_run(player.id).await? else {
        return Err(PuzzleApiError::BadRequest(
            "no streak is running: start one first".into(),
        ));
    };
    if run.puzzle != body.puzzle {
        return Ok(Json(running_view(&state, &player, run.rules).await?));
    }
    let shown = state
        .store
        .puzzle(&run.puzzle)
        .await?
        .ok_or(PuzzleApiError::NotFound)?;
    fair_to_show(&state, &shown).await?;
    if body.moves.len() > shown.puzzle.solver_moves() {
        return Err(PuzzleApiError::BadRequest(format!(
            "this puzzle takes at most {} moves of yours",
            shown.puzzle.solver_moves()
        )));
    }
    let verdict = shown.puzzle.judge(&body.moves).map_err(|e| {
        PuzzleApiError::Store(jungle_store::StoreError::Corrupt(format!(
            "puzzle {}: {e}",
            shown.id
        )))
    })?;
    match verdict {
        Verdict::Unfinished => Err(PuzzleApiError::BadRequest(
            "send every move of the solution, or the moves up to the wrong one".into(),
        )),
        Verdict::Failed { .. } => {
            match state.store.end_streak(player.id, &shown.id, false).await? {
                Some(score) => Ok(Json(ended(&state, &player, run.rules, score, false).await?)),
                None => Ok(Json(running_view(&state, &player, run.rules).await?)),
            }
        }
        Verdict::Solved => {
            match harder_fair_puzzle(&state, run.rules, run.floor_rating, &shown.id).await? {
                Some(next) => {
                    state
                        .store
                        .advance_streak(player.id, &shown.id, &next)
                        .await?;
                    Ok(Json(running_view(&state, &player, run.rules).await?))
                }
                // Every harder puzzle solved: the streak is complete.
                None => match state.store.end_streak(player.id, &shown.id, true).await? {
                    Some(score) => Ok(Json(ended(&state, &player, run.rules, score, true).await?)),
                    None => Ok(Json(running_view(&state, &player, run.rules).await?)),
                },
            }
        }
    }
}

/// A streak just ended with `score`.
async fn ended(
    state: &PuzzlesState,
    player: &PlayerRecord,
    rules: Ruleset,
    score: i64,
    complete: bool,
) -> Result<StreakView, PuzzleApiError> {
    Ok(StreakView {
        rules,
        score,
        best: state.store.best_streak(player.id, rules).await?,
        puzzle: None,
        over: true,
        complete,
    })
}

/// The streak running in `rules` as its player sees it (none: score 0, no puzzle).
async fn running_view(
    state: &PuzzlesState,
    player: &PlayerRecord,
    rules: Ruleset,
) -> Result<StreakView, PuzzleApiError> {
    let best = state.store.best_streak(player.id, rules).await?;
    let run = state
        .store
        .streak_run(player.id)
        .await?
        .filter(|run| run.rules == rules);
    let Some(run) = run else {
        return Ok(StreakView {
            rules,
            score: 0,
            best,
            puzzle: None,
            over: false,
            complete: false,
        });
    };
    let shown = state
        .store
        .puzzle(&run.puzzle)
        .await?
        .ok_or(PuzzleApiError::NotFound)?;
    Ok(StreakView {
        rules,
        score: run.score,
        best: best.max(run.score),
        puzzle: Some(fair_view(state, &shown).await?),
        over: false,
        complete: false,
    })
}

/// One of the [`CHOICES`] easiest puzzles harder than (`rating`, `id`) that no game in
/// progress stands on; `None` when no puzzle is harder.
async fn harder_fair_puzzle(
    state: &PuzzlesState,
    rules: Ruleset,
    rating: f64,
    id: &str,
) -> Result<Option<StoredPuzzle>, PuzzleApiError> {
    let mut candidates = state
        .store
        .harder_puzzles(rules, rating, id, CHOICES)
        .await?;
    if candidates.is_empty() {
        return Ok(None);
    }
    let mut pick = [0u8; 8];
    getrandom::fill(&mut pick).expect("system randomness");
    let first = (u64::from_le_bytes(pick) % candidates.len() as u64) as usize;
    candidates.rotate_left(first);
    for candidate in candidates {
        match fair_to_show(state, &candidate).await {
            Err(PuzzleApiError::InPlay) => continue,
            Err(other) => return Err(other),
            Ok(()) => return Ok(Some(candidate)),
        }
    }
    Err(PuzzleApiError::InPlay)
}
