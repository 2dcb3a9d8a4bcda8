//! What the rules for bots (issue 26) read of a bot's recent games: how many it began against
//! other bots in the last day, and how many it failed lately (aborted, or lost on time).

use sqlx::Row;
use uuid::Uuid;

use super::{now_ms, Store, StoreError};

/// A bot's recent games, as the rules for bots count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BotRecord {
    /// Games begun against another bot since the day's start of the count.
    pub against_bots: i64,
    /// Games since the failures' start of the count that it aborted (its first move never
    /// came) or lost on time.
    pub failures: i64,
}

impl Store {
    /// `bot`'s games against bots begun in the last `day_ms`, and its aborts and losses on
    /// time in the last `failures_ms`.
    pub async fn bot_record(
        &self,
        bot: Uuid,
        day_ms: i64,
        failures_ms: i64,
    ) -> Result<BotRecord, StoreError> {
        let now = now_ms();
        let id = bot.to_string();
        let against_bots = sqlx::query(
            "SELECT COUNT(*) AS n FROM games g JOIN players o ON o.id = g.blue_id
             WHERE g.red_id = $1 AND g.created_at >= $2 AND o.title = 'BOT'",
        )
        .bind(&id)
        .bind(now - day_ms)
        .fetch_one(&self.pool)
        .await?
        .try_get::<i64, _>("n")?
            + sqlx::query(
                "SELECT COUNT(*) AS n FROM games g JOIN players o ON o.id = g.red_id
                 WHERE g.blue_id = $1 AND g.created_at >= $2 AND o.title = 'BOT'",
            )
            .bind(&id)
            .bind(now - day_ms)
            .fetch_one(&self.pool)
            .await?
            .try_get::<i64, _>("n")?;
        // An abort is charged to the side whose first move never came: Red at an even ply
        // count (0), Blue at an odd one (1).
        let failures = sqlx::query(
            "SELECT COUNT(*) AS n FROM games
             WHERE ended_at >= $2 AND (
                (red_id = $1 AND ((reason = 'timeout' AND winner = 'blue')
                                  OR (reason = 'aborted' AND plies % 2 = 0)))
                OR (blue_id = $1 AND ((reason = 'timeout' AND winner = 'red')
                                  OR (reason = 'aborted' AND plies % 2 = 1))))",
        )
        .bind(&id)
        .bind(now - failures_ms)
        .fetch_one(&self.pool)
        .await?
        .try_get::<i64, _>("n")?;
        Ok(BotRecord {
            against_bots,
            failures,
        })
    }
}
