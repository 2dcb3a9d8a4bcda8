//! A game's end, in the one transaction that stores it. The game's row closes first, and only
//! if it was still in play; then each domain's part runs, in order, in the same transaction:
//! what must count once (a player's leavings, tournament points, ratings) counts exactly once,
//! however often the end is written (a retried batch, a node adopting the game). A game
//! already ended changes nothing and answers with its first rating change.
//!
//! The parts, in order ([`GameEnd::with`]): the store's own first and last, each domain's in
//! between, given by the server at assembly from the domain's own crate:
//! - [`leaving`] (the store's): a game lost by leaving, or aborted for a missing first move, is
//!   counted against that player;
//! - the domains' parts: a tournament game's points and streaks (`jungle-tournaments`'
//!   `scoring.rs`), and fair play's rule that a game with a player marked as an engine user
//!   moves no rating (`jungle-rooms`' `fair_play/engine_marks.rs`), which must come before:
//! - [`ratings`] (the store's): Glicko-2 for both players in the game's rating pool, and their
//!   history.
//!
//! What follows from an end without needing to count once (re-pairing a tournament, judging
//! the game for fair play, a mail) hears of it after the commit, from the room
//! (`GameEnded`, jungle-server's `rooms::game_end`).

mod leaving;
mod ratings;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use jungle_protocol::{GameStatus, RatingChange};
use sqlx::{Any, AnyConnection, Row, Transaction};

use crate::games::status_name;
use crate::{now_ms, FinishRecord, Store, StoreError};

/// The game that is ending, as the parts read it.
pub struct Ending<'a> {
    pub finish: &'a FinishRecord,
    /// The game's id as stored.
    pub id: String,
    /// The rating pool it belongs to: its ruleset's real-time one, or its correspondence one.
    pub rating_pool: String,
    /// Red's and Blue's ids as stored.
    pub players: [String; 2],
}

/// What the parts decide together, in order.
#[derive(Debug)]
pub struct Verdict {
    /// Whether ratings may move: a finished rated game past the no-score rule, unless a part
    /// before the ratings' says otherwise.
    pub ratings_move: bool,
    /// What the ratings part did.
    pub rating_change: Option<RatingChange>,
}

/// What a part returns.
pub type PartDone<'a> = Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send + 'a>>;

/// One domain's share of a game's end, run inside the transaction that stores it.
pub trait EndPart: Send + Sync + 'static {
    fn apply<'a>(
        &'a self,
        conn: &'a mut AnyConnection,
        ending: &'a Ending<'a>,
        verdict: &'a mut Verdict,
    ) -> PartDone<'a>;
}

/// The parts a game's end runs, in order. Cloning shares.
#[derive(Clone)]
pub struct GameEnd {
    parts: Arc<[Arc<dyn EndPart>]>,
}

impl GameEnd {
    /// The store's own parts around the domains' (`domains`, run in the order given): the
    /// leavings first, the ratings last, so that a domain may still decide that ratings do not
    /// move ([`Verdict::ratings_move`]).
    pub fn with(domains: Vec<Arc<dyn EndPart>>) -> GameEnd {
        let mut parts: Vec<Arc<dyn EndPart>> = vec![Arc::new(leaving::LeavingCounted)];
        parts.extend(domains);
        parts.push(Arc::new(ratings::RatingsMoved));
        GameEnd {
            parts: parts.into(),
        }
    }

    /// The store's own parts alone: a store no domain has joined yet (its own tests, tools).
    pub fn store_only() -> GameEnd {
        GameEnd::with(Vec::new())
    }
}

impl std::fmt::Debug for GameEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameEnd({} parts)", self.parts.len())
    }
}

impl Store {
    /// This store, running `game_end` when a game ends (the server gives it every domain's
    /// part at start, before anything writes).
    pub fn with_game_end(mut self, game_end: GameEnd) -> Store {
        self.game_end = game_end;
        self
    }

    /// Ends a game and runs its end's parts — in the caller's transaction, and only once: a
    /// game already ended keeps its first result, and its first rating change is returned.
    pub async fn finish_game(
        &self,
        tx: &mut Transaction<'_, Any>,
        finish: &FinishRecord,
    ) -> Result<Option<RatingChange>, StoreError> {
        let id = finish.game.to_string();
        let updated = sqlx::query(
            "UPDATE games SET status = $1, winner = $2, reason = $3, plies = $4, ended_at = $5
             WHERE id = $6 AND status = 'active'",
        )
        .bind(status_name(finish.status))
        .bind(finish.winner.map(|s| s.name()))
        .bind(finish.reason.name())
        .bind(finish.plies)
        .bind(now_ms())
        .bind(id.clone())
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if updated == 0 {
            return first_rating_change(tx, id).await;
        }
        let row = sqlx::query("SELECT ruleset, clock, red_id, blue_id FROM games WHERE id = $1")
            .bind(id.clone())
            .fetch_one(&mut **tx)
            .await?;
        let rating_pool: String = {
            let name: String = row.try_get("ruleset")?;
            let clock: String = row.try_get("clock")?;
            match (name.parse(), serde_json::from_str(&clock)) {
                (Ok(rules), Ok(clock)) => jungle_game::rating::RatingPool::of(rules, clock).key(),
                _ => name,
            }
        };
        let ending = Ending {
            finish,
            id,
            rating_pool,
            players: [row.try_get("red_id")?, row.try_get("blue_id")?],
        };
        let mut verdict = Verdict {
            ratings_move: finish.apply_rating && finish.status == GameStatus::Finished,
            rating_change: None,
        };
        for part in self.game_end.parts.iter() {
            part.apply(tx, &ending, &mut verdict).await?;
        }
        Ok(verdict.rating_change)
    }
}

/// The rating change an already ended game was given, if any.
async fn first_rating_change(
    tx: &mut Transaction<'_, Any>,
    id: String,
) -> Result<Option<RatingChange>, StoreError> {
    let row = sqlx::query("SELECT red_change, blue_change FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.and_then(|r| {
        let red: Option<i64> = r.try_get("red_change").ok()?;
        let blue: Option<i64> = r.try_get("blue_change").ok()?;
        Some(RatingChange {
            red: red? as i32,
            blue: blue? as i32,
        })
    }))
}
