//! The move log: where SQLite commits turns on the clock first (issue 30). Appending to a
//! table with no key but its row number touches its last page only; `moves`, keyed by game,
//! dirtied one page per game in every commit, and SQLite wrote that page to its write-ahead
//! log again each time. The writer (`persist`) moves the turns into `moves` later, a game at a
//! time, so each game's page is written once for many turns. Readers of a game in progress
//! read both ([`Store::game`]); an ended game's turns are all in `moves`, put there by the
//! commit that ends it. PostgreSQL writes row changes, not pages, to its log: it commits
//! turns to `moves` directly, and its move log stays empty.

use sqlx::{Any, Row, Transaction};
use uuid::Uuid;

use super::games::TURN_COLUMNS;
use super::{Backend, MoveRecord, Store, StoreError};

/// Deletes the log's rows below a row number, all of them already in `moves`.
pub(super) const CLEAR_LOG_BELOW: &str = "DELETE FROM move_log WHERE rowid < $1";

impl Store {
    /// Appends turns to the log, in the caller's transaction; returns the row number of the
    /// first (the others follow it). SQLite only: the writer, the only one, numbers rows on.
    pub async fn append_to_log(
        &self,
        tx: &mut Transaction<'_, Any>,
        moves: &[(Uuid, MoveRecord)],
    ) -> Result<i64, StoreError> {
        self.insert_turn_rows(tx, "move_log", moves, "").await?;
        // (sqlx's `Any` does not pass SQLite's row number on; the function does.)
        let last: i64 = sqlx::query("SELECT last_insert_rowid() AS last")
            .fetch_one(&mut **tx)
            .await?
            .try_get("last")?;
        Ok(last - moves.len() as i64 + 1)
    }

    /// Deletes the log's rows below `row` (SQLite), all of them already in `moves`.
    pub async fn clear_log_below(
        &self,
        tx: &mut Transaction<'_, Any>,
        row: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(CLEAR_LOG_BELOW)
            .bind(row)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// Moves every turn in the log into `moves` (one already there is kept) and empties the
    /// log, in one transaction of its own: at start-up, at a stop, after a failed commit.
    pub async fn fold_move_log(&self) -> Result<u64, StoreError> {
        let mut tx = self.pool.begin().await?;
        let folded = match self.backend {
            // SQLite has one writer at a time: nothing is appended between the two statements.
            // (`WHERE true` tells SQLite's parser the ON CONFLICT is the upsert's.)
            Backend::Sqlite => {
                let folded = sqlx::query(&format!(
                    "INSERT INTO moves ({TURN_COLUMNS}) SELECT {TURN_COLUMNS} FROM move_log
                     WHERE true ORDER BY game_id, ply ON CONFLICT (game_id, ply) DO NOTHING"
                ))
                .execute(&mut *tx)
                .await?
                .rows_affected();
                sqlx::query("DELETE FROM move_log")
                    .execute(&mut *tx)
                    .await?;
                folded
            }
            // Other nodes append meanwhile: only the rows this statement deletes are moved.
            Backend::Postgres => sqlx::query(&format!(
                "WITH folded AS (DELETE FROM move_log RETURNING {TURN_COLUMNS})
                 INSERT INTO moves ({TURN_COLUMNS}) SELECT {TURN_COLUMNS} FROM folded
                 ORDER BY game_id, ply ON CONFLICT (game_id, ply) DO NOTHING"
            ))
            .execute(&mut *tx)
            .await?
            .rows_affected(),
        };
        tx.commit().await?;
        Ok(folded)
    }

    /// Copies one game's logged turns into `moves`, in the caller's transaction: for a game
    /// ending while the writer does not know all its turns (after a failed commit, until the
    /// whole log is folded). Reads the whole log; the rows stay in it.
    pub async fn fold_game_from_log(
        &self,
        tx: &mut Transaction<'_, Any>,
        game: Uuid,
    ) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO moves ({TURN_COLUMNS}) SELECT {TURN_COLUMNS} FROM move_log
             WHERE game_id = $1 ON CONFLICT (game_id, ply) DO NOTHING"
        ))
        .bind(game.to_string())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
