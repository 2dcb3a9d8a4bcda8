//! The rules for bots (issue 26) that bound their games: at most [`BOT_GAMES_A_DAY`] games
//! a day against other bots (unlimited against people), and a bot that aborted or lost on
//! time [`FAILURES_BEFORE_PAUSE`] times within [`FAILURE_WINDOW`] takes no new game until
//! the oldest of them is that old. Read from the games themselves, so every node and every
//! restart agrees, and checked where a challenge is made and where it is accepted.

use std::time::Duration;

use uuid::Uuid;

use super::ChallengeError;
use jungle_store::{Store, StoreError};

/// Games a bot may begin against other bots in a day.
pub const BOT_GAMES_A_DAY: i64 = 100;
/// Aborts and losses on time within [`FAILURE_WINDOW`] that pause a bot.
pub const FAILURES_BEFORE_PAUSE: i64 = 3;
pub const FAILURE_WINDOW: Duration = Duration::from_secs(3_600);
const DAY: Duration = Duration::from_secs(86_400);

/// Why a bot's game may not begin, or a store error.
#[derive(Debug)]
pub enum BotRuleError {
    Refused(ChallengeError),
    Store(StoreError),
}

/// Whether `bot` may begin a game now, against a bot or not.
pub async fn may_play(store: &Store, bot: Uuid, against_bot: bool) -> Result<(), BotRuleError> {
    let record = store
        .bot_record(
            bot,
            DAY.as_millis() as i64,
            FAILURE_WINDOW.as_millis() as i64,
        )
        .await
        .map_err(BotRuleError::Store)?;
    if record.failures >= FAILURES_BEFORE_PAUSE {
        return Err(BotRuleError::Refused(ChallengeError::BotPaused));
    }
    if against_bot && record.against_bots >= BOT_GAMES_A_DAY {
        return Err(BotRuleError::Refused(ChallengeError::BotDailyLimit));
    }
    Ok(())
}

/// The rules for a game between `a` and `b` (each with whether it is a bot).
pub async fn check_pair(
    store: &Store,
    (a, a_bot): (Uuid, bool),
    (b, b_bot): (Uuid, bool),
) -> Result<(), BotRuleError> {
    if a_bot {
        may_play(store, a, b_bot).await?;
    }
    if b_bot {
        may_play(store, b, a_bot).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::challenges::ChallengeError;
    use jungle_protocol::ClockSpec;
    use jungle_store::{BotRecord, NewGame};

    async fn player(store: &Store, name: &str, bot: bool) -> Uuid {
        let id = store
            .create_player(name, &format!("{name:0>64}"))
            .await
            .expect("player")
            .id;
        if bot {
            sqlx::query("UPDATE players SET title = 'BOT' WHERE id = $1")
                .bind(id.to_string())
                .execute(store.pool())
                .await
                .expect("a bot");
        }
        id
    }

    async fn games(store: &Store, red: Uuid, blue: Uuid, n: i64) {
        let mut tx = store.pool().begin().await.expect("begin");
        for _ in 0..n {
            let game = NewGame::casual(red, blue, ClockSpec::CLASSIC_PER_MOVE);
            store.insert_game(&mut tx, &game).await.expect("game");
        }
        tx.commit().await.expect("commit");
    }

    /// A bot's hundredth game against bots in a day is its last; games against people are
    /// not counted, and a person is never held by the cap.
    #[tokio::test]
    async fn a_bot_plays_at_most_a_hundred_games_a_day_against_bots() {
        let (store, _dir) = Store::temporary(None).await;
        let (alpha, beta) = (
            player(&store, "alpha", true).await,
            player(&store, "beta-bot", true).await,
        );
        let person = player(&store, "a person", false).await;
        games(&store, alpha, beta, BOT_GAMES_A_DAY - 1).await;
        games(&store, person, alpha, 30).await;
        let record = store
            .bot_record(alpha, 86_400_000, 3_600_000)
            .await
            .unwrap();
        assert_eq!(
            record,
            BotRecord {
                against_bots: BOT_GAMES_A_DAY - 1,
                failures: 0
            }
        );
        assert!(may_play(&store, alpha, true).await.is_ok());
        games(&store, beta, alpha, 1).await;
        assert!(matches!(
            may_play(&store, alpha, true).await,
            Err(BotRuleError::Refused(ChallengeError::BotDailyLimit))
        ));
        // Against people, it plays on.
        assert!(may_play(&store, alpha, false).await.is_ok());
    }
}
