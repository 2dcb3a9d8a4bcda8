//! Computer players: one player row per engine level, the level that suits a rating, and the
//! thinking time a move gets. Their searches run in the [`crate::engine_pool`].

use std::time::Duration;

use jungle_engine::{budget_from_clock, Level};
use jungle_protocol::{ClockSpec, Clocks};
use jungle_rules::Side;
use uuid::Uuid;

use crate::store::{now_ms, PlayerRecord, Store, StoreError};

/// The fixed id of the computer at a level: the same on every server and after every restart.
pub fn bot_id(level: u8) -> Uuid {
    Uuid::from_u128(0x6a75_6e67_6c65_0000_0000_0000_0000_0000 | level as u128)
}

pub fn bot_level(id: Uuid) -> Option<u8> {
    (1..=8).find(|&level| bot_id(level) == id)
}

pub fn bot_name(level: u8) -> String {
    format!("Computer level {level}")
}

/// The level whose strength is nearest a rating (a rough scale: level 1 ≈ 800, +150 a level).
pub fn level_for_rating(rating: f64) -> Level {
    let level = (((rating - 800.0) / 150.0).round() as i64 + 1).clamp(1, 8) as u8;
    Level::new(level).expect("clamped to the levels")
}

/// Creates the computer players if they are missing.
pub async fn ensure_bot_players(store: &Store) -> Result<(), StoreError> {
    for level in 1..=8u8 {
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

pub fn bot_player(level: u8) -> PlayerRecord {
    PlayerRecord {
        id: bot_id(level),
        name: bot_name(level),
        disconnects: 0,
        bot: false,
    }
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
