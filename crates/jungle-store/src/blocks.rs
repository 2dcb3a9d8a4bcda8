//! Blocks in the database: who an account does not want to hear from or meet.

use std::collections::HashSet;

use sqlx::Row;
use uuid::Uuid;

use super::{get_uuid, now_ms, Store, StoreError};

/// Blocks one account may hold.
pub const MAX_BLOCKS: i64 = 500;

/// Why a block was not added.
#[derive(Debug, thiserror::Error)]
pub enum BlockError {
    #[error("you block {MAX_BLOCKS} players already; unblock one first")]
    TooMany,
    #[error("no such player")]
    NoSuchPlayer,
    #[error("you cannot block yourself")]
    Yourself,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Store {
    /// `player` blocks `blocked` (again: nothing changes).
    pub async fn block(&self, player: Uuid, blocked: Uuid) -> Result<(), BlockError> {
        if player == blocked {
            return Err(BlockError::Yourself);
        }
        if self.player(blocked).await?.is_none() {
            return Err(BlockError::NoSuchPlayer);
        }
        let mut tx = self.pool.begin().await.map_err(StoreError::from)?;
        let held: i64 = sqlx::query("SELECT COUNT(*) AS n FROM blocks WHERE player_id = $1")
            .bind(player.to_string())
            .fetch_one(&mut *tx)
            .await
            .map_err(StoreError::from)?
            .try_get("n")
            .map_err(StoreError::from)?;
        let done = sqlx::query(
            "INSERT INTO blocks (player_id, blocked_id, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (player_id, blocked_id) DO NOTHING",
        )
        .bind(player.to_string())
        .bind(blocked.to_string())
        .bind(now_ms())
        .execute(&mut *tx)
        .await
        .map_err(StoreError::from)?;
        if done.rows_affected() > 0 && held >= MAX_BLOCKS {
            return Err(BlockError::TooMany);
        }
        tx.commit().await.map_err(StoreError::from)?;
        Ok(())
    }

    pub async fn unblock(&self, player: Uuid, blocked: Uuid) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM blocks WHERE player_id = $1 AND blocked_id = $2")
            .bind(player.to_string())
            .bind(blocked.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whom `player` blocks, with their names, the latest first.
    pub async fn blocks(&self, player: Uuid) -> Result<Vec<(Uuid, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT b.blocked_id, p.name FROM blocks b JOIN players p ON p.id = b.blocked_id
             WHERE b.player_id = $1 ORDER BY b.created_at DESC LIMIT $2",
        )
        .bind(player.to_string())
        .bind(MAX_BLOCKS)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((get_uuid(r, "blocked_id")?, r.try_get("name")?)))
            .collect()
    }

    /// The ids `player` blocks (for matchmaking).
    pub async fn blocked_ids(&self, player: Uuid) -> Result<HashSet<Uuid>, StoreError> {
        Ok(self
            .blocks(player)
            .await?
            .into_iter()
            .map(|(id, _)| id)
            .collect())
    }

    /// Whether either of the two blocks the other.
    pub async fn either_blocks(&self, a: Uuid, b: Uuid) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM blocks
             WHERE (player_id = $1 AND blocked_id = $2) OR (player_id = $2 AND blocked_id = $1)
             LIMIT 1",
        )
        .bind(a.to_string())
        .bind(b.to_string())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Which of `among` block `sender` (whose chat lines they do not get).
    pub async fn blockers_of(
        &self,
        sender: Uuid,
        among: &[Uuid],
    ) -> Result<HashSet<Uuid>, StoreError> {
        let mut blockers = HashSet::new();
        for chunk in among.chunks(200) {
            let mut sql = String::from(
                "SELECT player_id FROM blocks WHERE blocked_id = $1 AND player_id IN (",
            );
            for i in 0..chunk.len() {
                if i > 0 {
                    sql.push(',');
                }
                sql.push_str(&format!("${}", i + 2));
            }
            sql.push(')');
            let mut query = sqlx::query(&sql).bind(sender.to_string());
            for player in chunk {
                query = query.bind(player.to_string());
            }
            for row in query.fetch_all(&self.pool).await? {
                blockers.insert(get_uuid(&row, "player_id")?);
            }
        }
        Ok(blockers)
    }
}
