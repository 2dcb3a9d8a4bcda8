//! Computer players: one player row per engine level, the level that suits a rating, and the
//! thinking time a move gets. Their searches run in the [`crate::engine_pool`].

use std::time::Duration;

use jungle_engine::{budget_from_clock, Level};
use jungle_protocol::{ClockSpec, Clocks};
use jungle_rules::Side;

use jungle_game::computer::{bot_id, bot_name, LEVELS};

use jungle_store::{now_ms, Store, StoreError};

/// The level whose strength is nearest a rating (a rough scale: level 1 ≈ 800, +150 a level).
pub fn level_for_rating(rating: f64) -> Level {
    let level = (((rating - 800.0) / 150.0).round() as i64 + 1).clamp(1, 8) as u8;
    Level::new(level).expect("clamped to the levels")
}

/// Creates the computer players if they are missing.
pub async fn ensure_bot_players(store: &Store) -> Result<(), StoreError> {
    for level in LEVELS {
        sqlx::query(
            "INSERT INTO players (id, name, token_hash, created_at, bot_level) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(bot_id(level).to_string())
        .bind(bot_name(level))
        // Not a SHA-256 hex string, so no token can ever sign in as a bot.
        .bind(format!("computer-{level}"))
        .bind(now_ms())
        .bind(level as i64)
        .execute(store.pool())
        .await?;
    }
    Ok(())
}

/// How long the computer may think on this move.
pub fn budget(clock: ClockSpec, clocks: &Clocks, side: Side) -> Duration {
    let cap = Duration::from_secs(5);
    match clock {
        ClockSpec::Fischer { inc_s, .. } => {
            let left = if side == Side::Red {
                clocks.red_ms
            } else {
                clocks.blue_ms
            };
            budget_from_clock(
                Duration::from_millis(left),
                Duration::from_secs(inc_s.into()),
            )
            .min(cap)
        }
        ClockSpec::PerMove { move_s, .. } => (Duration::from_secs(move_s.into()) / 4).min(cap),
        // Days to answer: the computer answers at once, with its usual thought.
        ClockSpec::Days { .. } => cap,
    }
}
