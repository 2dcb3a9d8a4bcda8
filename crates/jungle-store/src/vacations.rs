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

/// A day of vacation, in ms.
pub const DAY_MS: i64 = 86_400_000;

/// What asking for a vacation came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VacationTaken {
    Taken,
    /// One runs already: end it first.
    AlreadyRunning,
    /// More than is left to take in the year: this many days are left.
    OverAllowance {
        days_left: i64,
    },
}

impl Store {
    /// Takes `vacation` (from now) for `player` if none is running at its start and the days
    /// `player` took since `year_began` (a day begun is a day taken), with it, stay within
    /// `allowance_days`: checked and written in one transaction that locks the player first,
    /// so requests at once take one vacation at most, never more than the allowance (issue 49).
    pub async fn take_vacation(
        &self,
        player: Uuid,
        vacation: Vacation,
        year_began: i64,
        allowance_days: i64,
    ) -> Result<VacationTaken, StoreError> {
        let mut tx = self.pool.begin().await?;
        super::serialized::lock_players(&mut tx, &[player]).await?;
        let row = sqlx::query(
            "SELECT
               (SELECT COUNT(*) FROM vacations
                WHERE player_id = $1 AND starts_at <= $2 AND ends_at > $2) AS running,
               (SELECT CAST(COALESCE(SUM(ends_at - starts_at), 0) AS BIGINT) FROM vacations
                WHERE player_id = $1 AND starts_at >= $3) AS taken",
        )
        .bind(player.to_string())
        .bind(vacation.starts_at)
        .bind(year_began)
        .fetch_one(&mut *tx)
        .await?;
        let running: i64 = row.try_get("running")?;
        let taken: i64 = row.try_get("taken")?;
        let days_left = (allowance_days - (taken + DAY_MS - 1) / DAY_MS).max(0);
        let asked_days = (vacation.ends_at - vacation.starts_at + DAY_MS - 1) / DAY_MS;
        let outcome = if running > 0 {
            VacationTaken::AlreadyRunning
        } else if asked_days > days_left {
            VacationTaken::OverAllowance { days_left }
        } else {
            sqlx::query(
                "INSERT INTO vacations (player_id, starts_at, ends_at, changed_at)
                 VALUES ($1, $2, $3, $4) ON CONFLICT (player_id, starts_at) DO NOTHING",
            )
            .bind(player.to_string())
            .bind(vacation.starts_at)
            .bind(vacation.ends_at)
            .bind(super::now_ms())
            .execute(&mut *tx)
            .await?;
            VacationTaken::Taken
        };
        tx.commit().await?;
        Ok(outcome)
    }

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
