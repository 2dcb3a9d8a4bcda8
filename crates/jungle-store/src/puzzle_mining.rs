//! The background miner's bookkeeping (issue 27): which finished games wait to be mined, and a
//! claim per game so that, among several nodes, one looks at each game once.

use uuid::Uuid;

use super::{get_uuid, now_ms, Store, StoreError};

impl Store {
    /// Finished public games of at least `min_plies` that ended after `ended_after` and no
    /// node has claimed, oldest first.
    pub async fn games_to_mine(
        &self,
        ended_after: i64,
        min_plies: i64,
        limit: i64,
    ) -> Result<Vec<Uuid>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g
             WHERE g.status = 'finished' AND g.ended_at > $1 AND g.private = 0 AND g.plies >= $2
               AND NOT EXISTS (SELECT 1 FROM puzzle_mined_games m WHERE m.game_id = g.id)
             ORDER BY g.ended_at LIMIT $3",
        )
        .bind(ended_after)
        .bind(min_plies)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| get_uuid(r, "id")).collect()
    }

    /// Claims `game` for mining; false if another node (or an earlier run) has it.
    pub async fn claim_for_mining(&self, game: Uuid) -> Result<bool, StoreError> {
        let claimed = sqlx::query(
            "INSERT INTO puzzle_mined_games (game_id, outcome, at) VALUES ($1, 'mining', $2)
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game.to_string())
        .bind(now_ms())
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(claimed == 1)
    }

    /// Records what came of mining `game` (`puzzle`, or why none).
    pub async fn mined(&self, game: Uuid, outcome: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE puzzle_mined_games SET outcome = $1, at = $2 WHERE game_id = $3")
            .bind(outcome)
            .bind(now_ms())
            .bind(game.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Gives up the claim on `game` (its mining was interrupted): it is mined later.
    pub async fn unclaim_for_mining(&self, game: Uuid) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM puzzle_mined_games WHERE game_id = $1 AND outcome = 'mining'")
            .bind(game.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets claims made before `before` (their games have left the miner's window).
    pub async fn forget_mined_before(&self, before: i64) -> Result<u64, StoreError> {
        Ok(sqlx::query("DELETE FROM puzzle_mined_games WHERE at < $1")
            .bind(before)
            .execute(&self.pool)
            .await?
            .rows_affected())
    }
}
