//! Tournaments in the database: the tournament, its entries (each player's score) and its
//! pairings' games.

use jungle_protocol::ClockSpec;
use jungle_rules::Ruleset;
use sqlx::{Any, Row, Transaction};
use uuid::Uuid;

use super::{get_uuid, now_ms, NewGame, Store, StoreError};
use jungle_game::arena::Entry;

/// A player's entry with whether they have withdrawn (paused).
#[derive(Clone, Debug, PartialEq)]
pub struct RosterLine {
    pub entry: Entry,
    pub withdrawn: bool,
}

/// One pairing of a tournament, oldest first in [`Store::tournament_pairings`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRecord {
    pub game: Uuid,
    pub red: Uuid,
    pub blue: Uuid,
    /// The game is still being played.
    pub in_play: bool,
}

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
    /// For bots only (they join over the Bot API); otherwise for people only.
    pub bots: bool,
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
        bots: r.try_get::<i64, _>("bots")? != 0,
    })
}

const COLUMNS: &str = "id, name, ruleset, clock, rated, starts_at, ends_at, code, created_by, bots";

impl Store {
    /// Stores a new tournament; `from` is its maker's address (the limits' key), when a
    /// player made it.
    pub async fn create_tournament(
        &self,
        t: &TournamentRecord,
        from: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournaments (id, name, ruleset, clock, rated, starts_at, ends_at, code,
                 created_by, created_at, created_from, bots)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
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
        .bind(from)
        .bind(i64::from(t.bots))
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

    /// The operator's scheduled public tournaments not yet over, soonest first (a period
    /// ahead of each schedule: a handful).
    pub async fn scheduled_open_tournaments(
        &self,
        organiser: Uuid,
        now: i64,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments
             WHERE code IS NULL AND ends_at > $1 AND created_by = $2
             ORDER BY starts_at LIMIT 500"
        ))
        .bind(now)
        .bind(organiser.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(record).collect()
    }

    /// Players' public tournaments not yet over, the most joined first, then the soonest:
    /// one page, and how many there are in all.
    pub async fn players_open_tournaments(
        &self,
        organiser: Uuid,
        now: i64,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<TournamentRecord>, i64), StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS},
                 (SELECT COUNT(*) FROM tournament_entries e WHERE e.tournament_id = t.id) AS joined
             FROM tournaments t
             WHERE code IS NULL AND ends_at > $1 AND created_by <> $2
             ORDER BY joined DESC, starts_at, id LIMIT $3 OFFSET $4"
        ))
        .bind(now)
        .bind(organiser.to_string())
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        let total = sqlx::query(
            "SELECT COUNT(*) AS n FROM tournaments
             WHERE code IS NULL AND ends_at > $1 AND created_by <> $2",
        )
        .bind(now)
        .bind(organiser.to_string())
        .fetch_one(&self.pool)
        .await?
        .try_get("n")?;
        Ok((rows.iter().map(record).collect::<Result<_, _>>()?, total))
    }

    /// The 20 public tournaments that ended last.
    pub async fn finished_tournaments(
        &self,
        now: i64,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let finished = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments WHERE code IS NULL AND ends_at <= $1
             ORDER BY ends_at DESC LIMIT 20"
        ))
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        finished.iter().map(record).collect()
    }

    /// Public tournaments not over that were made from `address` (its limit key), to bound
    /// them per address as well as per account.
    pub async fn open_public_tournaments_from(
        &self,
        address: &str,
        now: i64,
    ) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM tournaments
             WHERE created_from = $1 AND code IS NULL AND ends_at > $2",
        )
        .bind(address)
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
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
    /// (in no particular order: [`jungle_game::arena::standings`] orders them).
    pub async fn tournament_entries(
        &self,
        tournament: Uuid,
        rules: Ruleset,
    ) -> Result<Vec<RosterLine>, StoreError> {
        self.roster(tournament, rules, None).await
    }

    /// One player's entry, if they joined.
    pub async fn tournament_entry(
        &self,
        tournament: Uuid,
        rules: Ruleset,
        player: Uuid,
    ) -> Result<Option<RosterLine>, StoreError> {
        Ok(self
            .roster(tournament, rules, Some(player))
            .await?
            .into_iter()
            .next())
    }

    async fn roster(
        &self,
        tournament: Uuid,
        rules: Ruleset,
        player: Option<Uuid>,
    ) -> Result<Vec<RosterLine>, StoreError> {
        let one = if player.is_some() {
            " AND e.player_id = $3"
        } else {
            ""
        };
        let sql = format!(
            "SELECT e.player_id, p.name, e.points, e.streak, e.games, e.wins, e.losses,
                    e.opponents_rating, e.withdrawn, r.rating
             FROM tournament_entries e JOIN players p ON p.id = e.player_id
             LEFT JOIN ratings r ON r.player_id = e.player_id AND r.ruleset = $2
             WHERE e.tournament_id = $1{one} ORDER BY e.joined_at, e.player_id"
        );
        let mut query = sqlx::query(&sql)
            .bind(tournament.to_string())
            .bind(rules.name());
        if let Some(player) = player {
            query = query.bind(player.to_string());
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                let rating: Option<f64> = r.try_get("rating")?;
                let mut entry = Entry::new(
                    get_uuid(r, "player_id")?,
                    r.try_get("name")?,
                    rating
                        .map_or(jungle_game::rating::Glicko::default().rating, |x| x)
                        .round() as i32,
                );
                entry.points = r.try_get::<i64, _>("points")? as u32;
                entry.streak = r.try_get::<i64, _>("streak")? as u32;
                entry.games = r.try_get::<i64, _>("games")? as u32;
                entry.wins = r.try_get::<i64, _>("wins")? as u32;
                entry.losses = r.try_get::<i64, _>("losses")? as u32;
                entry.opponents_rating = r.try_get("opponents_rating")?;
                Ok(RosterLine {
                    entry,
                    withdrawn: r.try_get::<i64, _>("withdrawn")? != 0,
                })
            })
            .collect()
    }

    /// How many players have joined a tournament.
    pub async fn tournament_size(&self, tournament: Uuid) -> Result<i64, StoreError> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM tournament_entries WHERE tournament_id = $1")
                .bind(tournament.to_string())
                .fetch_one(&self.pool)
                .await?;
        Ok(row.try_get("n")?)
    }

    /// `player` joins, or comes back after withdrawing (their points kept).
    pub async fn join_tournament(&self, tournament: Uuid, player: Uuid) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournament_entries (tournament_id, player_id, joined_at)
             VALUES ($1, $2, $3)
             ON CONFLICT (tournament_id, player_id) DO UPDATE SET withdrawn = 0",
        )
        .bind(tournament.to_string())
        .bind(player.to_string())
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `player` withdraws (pauses): not paired until they join again.
    pub async fn withdraw_from_tournament(
        &self,
        tournament: Uuid,
        player: Uuid,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE tournament_entries SET withdrawn = 1 WHERE tournament_id = $1 AND player_id = $2",
        )
        .bind(tournament.to_string())
        .bind(player.to_string())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A tournament's pairings, oldest first.
    pub async fn tournament_pairings(
        &self,
        tournament: Uuid,
    ) -> Result<Vec<PairingRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT tg.game_id, tg.red_id, tg.blue_id, g.status
             FROM tournament_games tg JOIN games g ON g.id = tg.game_id
             WHERE tg.tournament_id = $1 ORDER BY tg.paired_at, tg.game_id",
        )
        .bind(tournament.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PairingRecord {
                    game: get_uuid(r, "game_id")?,
                    red: get_uuid(r, "red_id")?,
                    blue: get_uuid(r, "blue_id")?,
                    in_play: r.try_get::<String, _>("status")? == "active",
                })
            })
            .collect()
    }

    /// Tournaments a restarted server directs again: those not over, and those whose games
    /// are still being played.
    pub async fn tournaments_to_direct(
        &self,
        now: i64,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments t WHERE t.ends_at > $1 OR EXISTS (
                 SELECT 1 FROM tournament_games tg JOIN games g ON g.id = tg.game_id
                 WHERE tg.tournament_id = t.id AND g.status = 'active')"
        ))
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(record).collect()
    }

    /// A scheduled arena, once per `key` (the schedule and its start): true if it is new.
    pub async fn create_scheduled_tournament(
        &self,
        t: &TournamentRecord,
        key: &str,
    ) -> Result<bool, StoreError> {
        let inserted = sqlx::query(
            "INSERT INTO tournaments (id, name, ruleset, clock, rated, starts_at, ends_at, code,
                 created_by, created_at, schedule_key)
             VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9, $10)
             ON CONFLICT (schedule_key) DO NOTHING",
        )
        .bind(t.id.to_string())
        .bind(&t.name)
        .bind(t.rules.name())
        .bind(serde_json::to_string(&t.clock).expect("clock serializes"))
        .bind(i64::from(t.rated))
        .bind(t.starts_at)
        .bind(t.ends_at)
        .bind(t.created_by.to_string())
        .bind(now_ms())
        .bind(key)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(inserted == 1)
    }

    /// Stores a tournament game's pairing, in the transaction that stores the game.
    pub(super) async fn insert_pairing(
        &self,
        tx: &mut Transaction<'_, Any>,
        tournament: Uuid,
        game: &NewGame,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournament_games (game_id, tournament_id, red_id, blue_id, paired_at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game.id.to_string())
        .bind(tournament.to_string())
        .bind(game.red.to_string())
        .bind(game.blue.to_string())
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
