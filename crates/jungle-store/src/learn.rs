//! Learn-to-play progress (issue 29): which exercises and practice games an account has done.

use sqlx::Row;
use uuid::Uuid;

use super::{now_ms, Store, StoreError};

impl Store {
    /// Marks `items` done for `player` (those already done stay as they were).
    pub async fn learn_done(&self, player: Uuid, items: &[&str]) -> Result<(), StoreError> {
        let now = now_ms();
        for item in items {
            sqlx::query(
                "INSERT INTO learn_progress (player_id, item, done_at) VALUES ($1, $2, $3)
                 ON CONFLICT (player_id, item) DO NOTHING",
            )
            .bind(player.to_string())
            .bind(*item)
            .bind(now)
            .execute(&self.pool)
            .await?;
        }
        Ok(())
    }

    /// What `player` has done, in the order done.
    pub async fn learn_progress(&self, player: Uuid) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT item FROM learn_progress WHERE player_id = $1 ORDER BY done_at, item",
        )
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<String, _>("item")?))
            .collect()
    }

    /// Forgets `player`'s progress (the account is deleted).
    pub async fn forget_learn_progress(&self, player: Uuid) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM learn_progress WHERE player_id = $1")
            .bind(player.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
