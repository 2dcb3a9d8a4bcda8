//! Puzzles (issue 27): positions from real games (and from our engine's games against
//! itself) where one move wins and the player must find it. The pure core is `jungle-game`'s
//! (the puzzle and its judging, themes); here are winning chances ([`chances`]), the miner
//! ([`miner`]: in the background of a running server, [`background`], and as the operator's
//! command, [`mine`]), the shipped set ([`starter`]), the HTTP API ([`api`], [`theme_counts`]) and Puzzle Streak ([`streak`]).
//!
//! The feature wires itself: [`routes`] for the router, [`start`] at the server's start, and
//! [`PuzzlesState`] for what its handlers take (the server gives it by `FromRef`).

pub mod api;
pub mod background;
pub mod balance;
pub mod chances;
pub mod mine;
pub mod miner;
pub mod selfplay;
pub mod starter;
pub mod streak;
pub mod theme_counts;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::watch;

pub use jungle_game::puzzle::{Puzzle, PuzzleError, Verdict};
pub use jungle_game::themes::Theme;
use jungle_limits::Limits;
use jungle_rooms::engine_pool::EnginePool;
use jungle_rooms::fair_play::FairPlay;
use jungle_store::Store;
use jungle_web::auth::Origins;
pub use miner::{Budget, Miner, Rejection};

/// What the puzzles' handlers take. Cloning shares.
#[derive(Clone)]
pub struct PuzzlesState {
    pub store: Store,
    /// Tries and reads per player and per address.
    pub limits: Arc<Limits>,
    /// A page of another site must not spend a signed-in player's tries.
    pub origins: Arc<Origins>,
    /// A puzzle whose positions stand in a game in progress is not shown.
    pub fair_play: FairPlay,
    /// The theme counts a page asks for, kept a minute.
    pub theme_counts: Arc<theme_counts::ThemeCounts>,
}

/// The puzzles' routes, for a router whose state gives a [`PuzzlesState`].
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    PuzzlesState: FromRef<S>,
{
    Router::new()
        .route("/api/puzzles/next", get(api::next))
        .route("/api/puzzles/daily", get(api::daily))
        .route("/api/puzzles/themes", get(theme_counts::themes))
        .route(
            "/api/puzzles/streak",
            get(streak::current).post(streak::start),
        )
        .route(
            "/api/puzzles/streak/answer",
            post(streak::answer).layer(axum::extract::DefaultBodyLimit::max(api::MAX_BODY)),
        )
        .route("/api/puzzles/{id}", get(api::one))
        .route(
            "/api/puzzles/{id}/attempt",
            post(api::attempt).layer(axum::extract::DefaultBodyLimit::max(api::MAX_BODY)),
        )
        .route("/api/players/{id}/puzzles", get(api::history))
}

/// At the server's start: the shipped puzzles into the store, and (unless `mining` is off)
/// the miner in the background, on the engines' spare time.
pub fn start(store: Store, engines: EnginePool, mining: bool, shutdown: watch::Receiver<bool>) {
    tokio::spawn(starter::load(store.clone()));
    if mining {
        background::start(engines, store, shutdown);
    }
}
