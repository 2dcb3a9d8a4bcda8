//! Checks that must hold under concurrency (issue 49): a count read and a row written in one
//! transaction that first locks the player's row, so two requests of one player at once run
//! one after the other, on any node. On PostgreSQL the update takes the row's lock; on SQLite
//! it takes the database's write lock (the transaction's first statement, so it waits for
//! it rather than failing to upgrade a read).

use sqlx::{Any, Transaction};
use uuid::Uuid;

use super::StoreError;

/// Locks `players`' rows for the rest of `tx`, in a fixed order (so that two transactions
/// locking the same two players cannot wait on each other).
pub(crate) async fn lock_players(
    tx: &mut Transaction<'_, Any>,
    players: &[Uuid],
) -> Result<(), StoreError> {
    let mut players = players.to_vec();
    players.sort();
    players.dedup();
    for player in players {
        sqlx::query("UPDATE players SET name = name WHERE id = $1")
            .bind(player.to_string())
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
