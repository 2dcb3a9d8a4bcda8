//! Private rooms waiting for their second player: kept so that a shared link outlives a restart.

use jungle_protocol::{ClockSpec, ColorChoice};
use jungle_rules::Ruleset;
use sqlx::{Any, Row, Transaction};
use uuid::Uuid;

use super::{get_uuid, Store, StoreError};

/// A private room as its host opened it.
#[derive(Clone, Debug, PartialEq)]
pub struct WaitingRoom {
    pub code: String,
    pub game: Uuid,
    pub host: Uuid,
    pub ruleset: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    pub color: ColorChoice,
    /// Unix milliseconds.
    pub created_at: i64,
    /// A set-up starting position's text; `None` for the initial position.
    pub start: Option<String>,
}

fn color_name(color: ColorChoice) -> &'static str {
    match color {
        ColorChoice::Red => "red",
        ColorChoice::Blue => "blue",
        ColorChoice::Random => "random",
    }
}

fn parse_color(name: &str) -> Result<ColorChoice, StoreError> {
    match name {
        "red" => Ok(ColorChoice::Red),
        "blue" => Ok(ColorChoice::Blue),
        "random" => Ok(ColorChoice::Random),
        other => Err(StoreError::Corrupt(format!("room colour {other:?}"))),
    }
}

impl Store {
    pub async fn insert_waiting_room(
        &self,
        tx: &mut Transaction<'_, Any>,
        room: &WaitingRoom,
    ) -> Result<(), StoreError> {
        let clock = serde_json::to_string(&room.clock).expect("clock serializes");
        sqlx::query(
            "INSERT INTO waiting_rooms (code, game_id, host_id, ruleset, clock, rated, color, created_at, start)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (code) DO NOTHING",
        )
        .bind(room.code.clone())
        .bind(room.game.to_string())
        .bind(room.host.to_string())
        .bind(room.ruleset.name())
        .bind(clock)
        .bind(room.rated as i64)
        .bind(color_name(room.color))
        .bind(room.created_at)
        .bind(room.start.clone())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// The room's game started or the room expired.
    pub async fn delete_waiting_room(
        &self,
        tx: &mut Transaction<'_, Any>,
        code: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM waiting_rooms WHERE code = $1")
            .bind(code.to_owned())
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// Every room still waiting, oldest first.
    pub async fn waiting_rooms(&self) -> Result<Vec<WaitingRoom>, StoreError> {
        let rows = sqlx::query(
            "SELECT code, game_id, host_id, ruleset, clock, rated, color, created_at, start
             FROM waiting_rooms ORDER BY created_at",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(waiting_room).collect()
    }

    /// The waiting room of `game`, if it still waits.
    pub async fn waiting_room(&self, game: Uuid) -> Result<Option<WaitingRoom>, StoreError> {
        let row = sqlx::query(
            "SELECT code, game_id, host_id, ruleset, clock, rated, color, created_at, start
             FROM waiting_rooms WHERE game_id = $1",
        )
        .bind(game.to_string())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(waiting_room).transpose()
    }

    /// The room `code` names, if it still waits.
    pub async fn waiting_room_by_code(
        &self,
        code: &str,
    ) -> Result<Option<WaitingRoom>, StoreError> {
        let row = sqlx::query(
            "SELECT code, game_id, host_id, ruleset, clock, rated, color, created_at, start
             FROM waiting_rooms WHERE code = $1",
        )
        .bind(code.to_owned())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(waiting_room).transpose()
    }

    /// The games of every room still waiting.
    pub async fn waiting_room_games(&self) -> Result<Vec<Uuid>, StoreError> {
        let rows = sqlx::query("SELECT game_id FROM waiting_rooms")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| get_uuid(r, "game_id")).collect()
    }
}

/// One row of `waiting_rooms`.
fn waiting_room(r: &sqlx::any::AnyRow) -> Result<WaitingRoom, StoreError> {
    let ruleset: String = r.try_get("ruleset")?;
    let clock: String = r.try_get("clock")?;
    let color: String = r.try_get("color")?;
    Ok(WaitingRoom {
        code: r.try_get("code")?,
        game: get_uuid(r, "game_id")?,
        host: get_uuid(r, "host_id")?,
        ruleset: ruleset
            .parse()
            .map_err(|e| StoreError::Corrupt(format!("ruleset: {e}")))?,
        clock: serde_json::from_str(&clock)
            .map_err(|e| StoreError::Corrupt(format!("clock: {e}")))?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        color: parse_color(&color)?,
        created_at: r.try_get("created_at")?,
        start: r.try_get("start")?,
    })
}
