use jungle_protocol::http::{PlayerProfile, Stats};
use jungle_rules::Ruleset;
use sqlx::Row;
use uuid::Uuid;

use super::{get_uuid, now_ms, Store, StoreError};
use jungle_game::rating::Glicko;
use jungle_game::records::{PlayerRecord, RatingRecord};

fn player_from_row(r: &sqlx::any::AnyRow) -> Result<PlayerRecord, StoreError> {
    Ok(PlayerRecord {
        id: get_uuid(r, "id")?,
        name: r.try_get("name")?,
        disconnects: r.try_get("disconnects")?,
        bot: r.try_get::<Option<String>, _>("title")?.as_deref() == Some("BOT"),
    })
}

impl Store {
    /// Creates the computer players if they are missing: one player row per engine level.
    pub async fn ensure_computer_players(&self) -> Result<(), StoreError> {
        for level in jungle_game::computer::LEVELS {
            sqlx::query(
                "INSERT INTO players (id, name, token_hash, created_at, bot_level) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(jungle_game::computer::bot_id(level).to_string())
            .bind(jungle_game::computer::bot_name(level))
            // Not a SHA-256 hex string, so no token can ever sign in as a computer player.
            .bind(format!("computer-{level}"))
            .bind(now_ms())
            .bind(level as i64)
            .execute(self.pool())
            .await?;
        }
        Ok(())
    }

    /// Creates a guest player; stores only the hash of the token.
    pub async fn create_player(
        &self,
        name: &str,
        token_hash: &str,
    ) -> Result<PlayerRecord, StoreError> {
        let id = Uuid::new_v4();
        sqlx::query(
            "INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(id.to_string())
        .bind(name)
        .bind(token_hash)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(PlayerRecord {
            id,
            name: name.to_owned(),
            disconnects: 0,
            bot: false,
        })
    }

    pub async fn player_by_token_hash(
        &self,
        token_hash: &str,
    ) -> Result<Option<PlayerRecord>, StoreError> {
        let row =
            sqlx::query("SELECT id, name, disconnects, title FROM players WHERE token_hash = $1")
                .bind(token_hash)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|r| player_from_row(&r)).transpose()
    }

    /// A guest's new display name (accounts are never renamed here: their name is the username).
    pub async fn rename_guest(&self, id: Uuid, name: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE players SET name = $1 WHERE id = $2 AND username IS NULL AND bot_level IS NULL",
        )
        .bind(name)
        .bind(id.to_string())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn player(&self, id: Uuid) -> Result<Option<PlayerRecord>, StoreError> {
        let row = sqlx::query("SELECT id, name, disconnects, title FROM players WHERE id = $1")
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| player_from_row(&r)).transpose()
    }

    /// A player's rating in a ruleset (real time, or by correspondence): the default for one
    /// who has not played it.
    pub async fn rating(
        &self,
        player: Uuid,
        pool: impl Into<jungle_game::rating::RatingPool>,
    ) -> Result<RatingRecord, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, games FROM ratings WHERE player_id = $1 AND ruleset = $2",
        )
        .bind(player.to_string())
        .bind(pool.into().key())
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => RatingRecord::from_glicko(
                Glicko {
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    volatility: r.try_get("volatility")?,
                },
                r.try_get("games")?,
            ),
            None => RatingRecord::from_glicko(Glicko::default(), 0),
        })
    }

    pub async fn profile(&self, id: Uuid) -> Result<Option<PlayerProfile>, StoreError> {
        let Some(player) = self.player(id).await? else {
            return Ok(None);
        };
        let mut ratings = std::collections::BTreeMap::new();
        let mut correspondence_ratings = std::collections::BTreeMap::new();
        for ruleset in Ruleset::ALL {
            ratings.insert(
                ruleset.name().to_owned(),
                self.rating(id, ruleset).await?.wire(),
            );
            let correspondence = jungle_game::rating::RatingPool {
                rules: ruleset,
                correspondence: true,
            };
            correspondence_ratings.insert(
                ruleset.name().to_owned(),
                self.rating(id, correspondence).await?.wire(),
            );
        }
        let row = sqlx::query(
            "SELECT COUNT(*) AS games,
                COUNT(CASE WHEN (winner = 'red' AND red_id = $1) OR (winner = 'blue' AND blue_id = $1) THEN 1 END) AS wins,
                COUNT(CASE WHEN (winner = 'blue' AND red_id = $1) OR (winner = 'red' AND blue_id = $1) THEN 1 END) AS losses,
                COUNT(CASE WHEN winner IS NULL THEN 1 END) AS draws,
                COUNT(CASE WHEN reason = 'timeout' AND ((winner = 'blue' AND red_id = $1) OR (winner = 'red' AND blue_id = $1)) THEN 1 END) AS timeouts,
                COUNT(CASE WHEN reason = 'abandoned' AND ((winner = 'blue' AND red_id = $1) OR (winner = 'red' AND blue_id = $1)) THEN 1 END) AS abandons
             FROM games WHERE status = 'finished' AND (red_id = $1 OR blue_id = $1)",
        )
        .bind(id.to_string())
        .fetch_one(&self.pool)
        .await?;
        let stats = Stats {
            games: row.try_get("games")?,
            wins: row.try_get("wins")?,
            losses: row.try_get("losses")?,
            draws: row.try_get("draws")?,
            timeouts: row.try_get("timeouts")?,
            abandons: row.try_get("abandons")?,
        };
        let counts = sqlx::query(
            "SELECT disconnects, aborts, username, banned_at, title, created_at FROM players WHERE id = $1",
        )
        .bind(id.to_string())
        .fetch_one(&self.pool)
        .await?;
        Ok(Some(PlayerProfile {
            id: player.id,
            name: player.name,
            ratings,
            correspondence_ratings,
            stats,
            username: counts.try_get("username")?,
            disconnects: counts.try_get("disconnects")?,
            aborts: counts.try_get("aborts")?,
            // Filled in by the caller, which knows the connections.
            online: false,
            banned: counts.try_get::<Option<i64>, _>("banned_at")?.is_some(),
            computer: jungle_game::computer::bot_level(id),
            title: counts.try_get("title")?,
            created_at: counts.try_get("created_at")?,
        }))
    }

    /// The best established ratings of a ruleset, best first.
    /// The best ratings of a ruleset: settled ones, or with `provisional` those still
    /// settling (they say too little to rank anyone among the settled, and are listed apart).
    pub async fn leaderboard(
        &self,
        ruleset: Ruleset,
        limit: i64,
        provisional: bool,
        bots: bool,
    ) -> Result<Vec<(PlayerRecord, RatingRecord)>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.id, p.name, p.disconnects, p.title, r.rating, r.deviation, r.volatility, r.games
             FROM ratings r JOIN players p ON p.id = r.player_id
             WHERE r.ruleset = $1 AND r.games > 0 AND p.deleted_at IS NULL AND p.banned_at IS NULL
               AND (p.title IS NOT NULL) = ($5 = 1)
               AND p.engine_marked_at IS NULL
               AND (r.deviation < $3) = ($4 = 0)
             ORDER BY r.rating DESC LIMIT $2",
        )
        .bind(ruleset.name())
        .bind(limit)
        .bind(jungle_game::rating::PROVISIONAL_DEVIATION)
        .bind(i64::from(provisional))
        .bind(i64::from(bots))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    player_from_row(r)?,
                    RatingRecord::from_glicko(
                        Glicko {
                            rating: r.try_get("rating")?,
                            deviation: r.try_get("deviation")?,
                            volatility: r.try_get("volatility")?,
                        },
                        r.try_get("games")?,
                    ),
                ))
            })
            .collect()
    }

    /// A player's rating after each rated game of a ruleset, oldest first (the latest `limit`).
    pub async fn rating_history(
        &self,
        player: Uuid,
        pool: impl Into<jungle_game::rating::RatingPool>,
        limit: i64,
    ) -> Result<Vec<(i64, f64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT at, rating FROM rating_history WHERE player_id = $1 AND ruleset = $2
             ORDER BY at DESC LIMIT $3",
        )
        .bind(player.to_string())
        .bind(pool.into().key())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut points = rows
            .iter()
            .map(|r| Ok((r.try_get("at")?, r.try_get("rating")?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        points.reverse();
        Ok(points)
    }

    /// Bot accounts in play (not banned, not deleted), at most `most`, by id.
    pub async fn bot_ids(&self, most: i64) -> Result<Vec<Uuid>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM players
             WHERE title = 'BOT' AND banned_at IS NULL AND deleted_at IS NULL
             ORDER BY id LIMIT $1",
        )
        .bind(most)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| crate::get_uuid(row, "id")).collect()
    }

    /// The id of the account named `username` (matched ignoring case).
    pub async fn player_by_username(&self, username: &str) -> Result<Option<Uuid>, StoreError> {
        let keys = jungle_game::names::name_keys(username);
        let row = sqlx::query("SELECT id FROM players WHERE username_folded = $1")
            .bind(&keys.folded)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| get_uuid(&r, "id")).transpose()
    }
}
