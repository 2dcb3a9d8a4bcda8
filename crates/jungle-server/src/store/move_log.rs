//! The move log: where turns on the clock are committed first (issue 30). Appending to a
//! table with no key but its own order touches its last page only; `moves`, keyed by game,
//! dirtied one page per game in every commit, and that page was written to SQLite's log
//! again each time. The writer (`persist`) folds the log into `moves` sorted by game, so each
//! game's page is written once for many turns. Readers of a game in progress read both
//! ([`Store::game`]); an ended game's turns are all in `moves`, folded by its end's commit.

use sqlx::{Any, Transaction};
use uuid::Uuid;

use super::games::TURN_COLUMNS;
use super::{Backend, MoveRecord, Store, StoreError};

impl Store {
    /// Appends turns to the log, in the caller's transaction.
    pub async fn append_to_log(
        &self,
        tx: &mut Transaction<'_, Any>,
        moves: &[(Uuid, MoveRecord)],
    ) -> Result<(), StoreError> {
        self.insert_turn_rows(tx, "move_log", moves, "").await
    }

    /// Moves every turn in the log into `moves` (one already there is kept), in one
    /// transaction of its own. Any node may fold the whole log: what it moves stays stored.
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
    /// ending whose turns the writer does not all hold (a game it took over). Reads the whole
    /// log; the rows stay in it until the next fold.
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
