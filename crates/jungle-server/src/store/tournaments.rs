//! Tournaments in the database: the tournament, its entries (each player's score) and its
//! pairings' games.

use jungle_protocol::ClockSpec;
use jungle_rules::Ruleset;
use sqlx::Row;
use uuid::Uuid;

use super::{get_uuid, now_ms, Store, StoreError};
use crate::tournaments::arena::Entry;

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRecord {
    pub id: Uuid,
    pub name: String,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    pub starts_at: i64,
    pub ends_at: i64,
    pub code: Option<String>,
    pub created_by: Uuid,
}

fn record(r: &sqlx::any::AnyRow) -> Result<TournamentRecord, StoreError> {
    let ruleset: String = r.try_get("ruleset")?;
    let clock: String = r.try_get("clock")?;
    Ok(TournamentRecord {
        id: get_uuid(r, "id")?,
        name: r.try_get("name")?,
        rules: ruleset
            .parse()
            .map_err(|e| StoreError::Corrupt(format!("ruleset: {e}")))?,
        clock: serde_json::from_str(&clock)
            .map_err(|e| StoreError::Corrupt(format!("clock: {e}")))?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        starts_at: r.try_get("starts_at")?,
        ends_at: r.try_get("ends_at")?,
        code: r.try_get("code")?,
        created_by: get_uuid(r, "created_by")?,
    })
}

const COLUMNS: &str = "id, name, ruleset, clock, rated, starts_at, ends_at, code, created_by";

impl Store {
    pub async fn create_tournament(&self, t: &TournamentRecord) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournaments (id, name, ruleset, clock, rated, starts_at, ends_at, code,
                 created_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(t.id.to_string())
        .bind(&t.name)
        .bind(t.rules.name())
        .bind(serde_json::to_string(&t.clock).expect("clock serializes"))
        .bind(i64::from(t.rated))
        .bind(t.starts_at)
        .bind(t.ends_at)
        .bind(t.code.clone())
        .bind(t.created_by.to_string())
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn tournament(&self, id: Uuid) -> Result<Option<TournamentRecord>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"))
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(record).transpose()
    }

    /// Public tournaments not yet over, soonest first, and the 20 that ended last.
    pub async fn public_tournaments(
        &self,
        now: i64,
    ) -> Result<(Vec<TournamentRecord>, Vec<TournamentRecord>), StoreError> {
        let open = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments WHERE code IS NULL AND ends_at > $1
             ORDER BY starts_at LIMIT 100"
        ))
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        let finished = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments WHERE code IS NULL AND ends_at <= $1
             ORDER BY ends_at DESC LIMIT 20"
        ))
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        Ok((
            open.iter().map(record).collect::<Result<_, _>>()?,
            finished.iter().map(record).collect::<Result<_, _>>()?,
        ))
    }

    /// How many tournaments `player` has made that are not over, to bound them.
    pub async fn open_tournaments_by(&self, player: Uuid, now: i64) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM tournaments WHERE created_by = $1 AND ends_at > $2",
        )
        .bind(player.to_string())
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// A tournament's entries, each with the player's name and current rating in its ruleset
    /// (in no particular order: [`crate::tournaments::arena::standings`] orders them).
    pub async fn tournament_entries(
        &self,
        tournament: Uuid,
        rules: Ruleset,
    ) -> Result<Vec<Entry>, StoreError> {
        let rows = sqlx::query(
            "SELECT e.player_id, p.name, e.points, e.streak, e.games, e.wins, e.losses,
                    e.opponents_rating, r.rating
             FROM tournament_entries e JOIN players p ON p.id = e.player_id
             LEFT JOIN ratings r ON r.player_id = e.player_id AND r.ruleset = $2
             WHERE e.tournament_id = $1",
        )
        .bind(tournament.to_string())
        .bind(rules.name())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let rating: Option<f64> = r.try_get("rating")?;
                let mut entry = Entry::new(
                    get_uuid(r, "player_id")?,
                    r.try_get("name")?,
                    rating
                        .map_or(crate::rating::Glicko::default().rating, |x| x)
                        .round() as i32,
                );
                entry.points = r.try_get::<i64, _>("points")? as u32;
                entry.streak = r.try_get::<i64, _>("streak")? as u32;
                entry.games = r.try_get::<i64, _>("games")? as u32;
                entry.wins = r.try_get::<i64, _>("wins")? as u32;
                entry.losses = r.try_get::<i64, _>("losses")? as u32;
                entry.opponents_rating = r.try_get("opponents_rating")?;
                Ok(entry)
            })
            .collect()
    }
}
