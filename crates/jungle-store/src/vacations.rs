//! Correspondence vacations (issue 28): intervals of wall time, Unix ms, during which a
//! player's turns in games over days do not run.

use sqlx::Row;
use uuid::Uuid;

use super::{Store, StoreError};

/// One vacation: from `starts_at` to `ends_at`, Unix ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub starts_at: i64,
    pub ends_at: i64,
}

impl Store {
    /// `player`'s vacations that end after `after` (Unix ms), earliest first.
    pub async fn vacations(&self, player: Uuid, after: i64) -> Result<Vec<Vacation>, StoreError> {
        let rows = sqlx::query(
            "SELECT starts_at, ends_at FROM vacations WHERE player_id = $1 AND ends_at > $2
             ORDER BY starts_at",
        )
        .bind(player.to_string())
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Vacation {
                    starts_at: r.try_get("starts_at")?,
                    ends_at: r.try_get("ends_at")?,
                })
            })
            .collect()
    }

    /// Milliseconds of vacation `player` took from `since` on (a year's start).
    pub async fn vacation_taken_since(&self, player: Uuid, since: i64) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT CAST(COALESCE(SUM(ends_at - starts_at), 0) AS BIGINT) AS taken FROM vacations
             WHERE player_id = $1 AND starts_at >= $2",
        )
        .bind(player.to_string())
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("taken")?)
    }

    pub async fn add_vacation(&self, player: Uuid, vacation: Vacation) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO vacations (player_id, starts_at, ends_at, changed_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player_id, starts_at) DO NOTHING",
        )
        .bind(player.to_string())
        .bind(vacation.starts_at)
        .bind(vacation.ends_at)
        .bind(super::now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Ends `player`'s vacation running at `now` there and then; whether one was.
    pub async fn end_vacation(&self, player: Uuid, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE vacations SET ends_at = $2, changed_at = $3
             WHERE player_id = $1 AND starts_at <= $2 AND ends_at > $2",
        )
        .bind(player.to_string())
        .bind(now)
        .bind(super::now_ms())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Players whose vacations changed after `since` (the store's own time, Unix ms), with
    /// the latest change: what each node tells its rooms.
    pub async fn vacations_changed_since(
        &self,
        since: i64,
    ) -> Result<Vec<(Uuid, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT player_id, MAX(changed_at) AS changed FROM vacations WHERE changed_at > $1
             GROUP BY player_id",
        )
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let id: String = r.try_get("player_id")?;
                let id = id
                    .parse()
                    .map_err(|_| StoreError::Corrupt(format!("vacation of {id}")))?;
                Ok((id, r.try_get("changed")?))
            })
            .collect()
    }
}
