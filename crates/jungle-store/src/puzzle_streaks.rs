//! Puzzle Streak (issue 51): one running streak per player and the best score per ruleset.
//! The score moves only by a compare-and-set on the puzzle shown, so that an answer sent twice
//! (two tabs, a retried request) counts once.

use jungle_rules::Ruleset;
use sqlx::Row;
use uuid::Uuid;

use super::puzzles::{stored, COLUMNS};
use super::{now_ms, Store, StoreError, StoredPuzzle};

/// A player's running streak.
#[derive(Clone, Debug, PartialEq)]
pub struct StreakRun {
    pub rules: Ruleset,
    /// The puzzle shown now.
    pub puzzle: String,
    /// Its rating when it was picked: the next puzzle comes after it.
    pub floor_rating: f64,
    /// Puzzles solved in this streak.
    pub score: i64,
}

impl Store {
    /// The puzzles that come next after (`rating`, `id`) in difficulty, easiest first: at most
    /// `count` of them (the caller picks one, for variety).
    pub async fn harder_puzzles(
        &self,
        rules: Ruleset,
        rating: f64,
        id: &str,
        count: i64,
    ) -> Result<Vec<StoredPuzzle>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM puzzles
             WHERE ruleset = $1 AND (rating > $2 OR (rating = $2 AND id > $3)) AND retired = 0
             ORDER BY rating, id LIMIT $4"
        ))
        .bind(rules.name())
        .bind(rating)
        .bind(id)
        .bind(count)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(stored).collect()
    }

    pub async fn streak_run(&self, player: Uuid) -> Result<Option<StreakRun>, StoreError> {
        let row = sqlx::query(
            "SELECT ruleset, puzzle_id, floor_rating, score FROM puzzle_streak_runs
             WHERE player_id = $1",
        )
        .bind(player.to_string())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            let rules: String = r.try_get("ruleset")?;
            Ok(StreakRun {
                rules: rules
                    .parse()
                    .map_err(|e| StoreError::Corrupt(format!("streak ruleset {rules}: {e}")))?,
                puzzle: r.try_get("puzzle_id")?,
                floor_rating: r.try_get("floor_rating")?,
                score: r.try_get("score")?,
            })
        })
        .transpose()
    }

    /// Starts a streak at `puzzle` (score 0), in place of any running one; what the running
    /// one had scored is kept as a best if it is one.
    pub async fn start_streak(
        &self,
        player: Uuid,
        rules: Ruleset,
        puzzle: &StoredPuzzle,
    ) -> Result<(), StoreError> {
        if let Some(old) = self.streak_run(player).await? {
            self.keep_best(player, old.rules, old.score).await?;
        }
        sqlx::query(
            "INSERT INTO puzzle_streak_runs
                 (player_id, ruleset, puzzle_id, floor_rating, score, started_at)
             VALUES ($1, $2, $3, $4, 0, $5)
             ON CONFLICT (player_id) DO UPDATE SET ruleset = excluded.ruleset,
                 puzzle_id = excluded.puzzle_id, floor_rating = excluded.floor_rating,
                 score = 0, started_at = excluded.started_at",
        )
        .bind(player.to_string())
        .bind(rules.name())
        .bind(&puzzle.id)
        .bind(puzzle.rating.rating)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The puzzle `solved` was solved: the streak scores one and shows `next`. False when the
    /// streak no longer shows `solved` (the answer came twice, or a new streak began).
    pub async fn advance_streak(
        &self,
        player: Uuid,
        solved: &str,
        next: &StoredPuzzle,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE puzzle_streak_runs SET puzzle_id = $1, floor_rating = $2, score = score + 1
             WHERE player_id = $3 AND puzzle_id = $4",
        )
        .bind(&next.id)
        .bind(next.rating.rating)
        .bind(player.to_string())
        .bind(solved)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The streak ends at `puzzle` (a wrong move, or the last puzzle solved): its score is
    /// kept as a best if it is one. Returns the score, or `None` when the streak no longer
    /// shows `puzzle` (ended already).
    pub async fn end_streak(
        &self,
        player: Uuid,
        puzzle: &str,
        solved_last: bool,
    ) -> Result<Option<i64>, StoreError> {
        let Some(run) = self.streak_run(player).await? else {
            return Ok(None);
        };
        let done = sqlx::query(
            "DELETE FROM puzzle_streak_runs WHERE player_id = $1 AND puzzle_id = $2 AND score = $3",
        )
        .bind(player.to_string())
        .bind(puzzle)
        .bind(run.score)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(None);
        }
        let score = run.score + i64::from(solved_last);
        self.keep_best(player, run.rules, score).await?;
        Ok(Some(score))
    }

    async fn keep_best(&self, player: Uuid, rules: Ruleset, score: i64) -> Result<(), StoreError> {
        if score == 0 {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO puzzle_streak_bests (player_id, ruleset, best, at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player_id, ruleset) DO UPDATE SET best = excluded.best, at = excluded.at
             WHERE puzzle_streak_bests.best < excluded.best",
        )
        .bind(player.to_string())
        .bind(rules.name())
        .bind(score)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A player's best streak in `rules` (0 before any).
    pub async fn best_streak(&self, player: Uuid, rules: Ruleset) -> Result<i64, StoreError> {
        let best: Option<i64> = sqlx::query_scalar(
            "SELECT best FROM puzzle_streak_bests WHERE player_id = $1 AND ruleset = $2",
        )
        .bind(player.to_string())
        .bind(rules.name())
        .fetch_optional(&self.pool)
        .await?;
        Ok(best.unwrap_or(0))
    }
}
