//! The rules for bots (issue 26) that bound their games: at most [`BOT_GAMES_A_DAY`] games
//! a day against other bots (unlimited against people), and a bot that aborted or lost on
//! time [`FAILURES_BEFORE_PAUSE`] times within [`FAILURE_WINDOW`] takes no new game until
//! the oldest of them is that old. Read from the games themselves, so every node and every
//! restart agrees, and checked where a challenge is made and where it is accepted.

use std::time::Duration;

use uuid::Uuid;

use super::ChallengeError;
use crate::store::{Store, StoreError};

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
