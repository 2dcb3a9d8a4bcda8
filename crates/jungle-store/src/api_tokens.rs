//! Personal API tokens in the database (issue 26): made by an account, stored as a hash, each
//! with its scopes; and the bot title an account takes for good.

use sqlx::Row;
use uuid::Uuid;

use super::{get_uuid, now_ms, PlayerRecord, Store, StoreError};

/// Tokens one account may hold.
pub const MAX_TOKENS: i64 = 20;

/// A token as its owner lists it (never the secret).
#[derive(Clone, Debug, PartialEq)]
pub struct TokenRecord {
    pub id: Uuid,
    pub description: String,
    pub scopes: Vec<String>,
    /// Unix milliseconds.
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

/// The account a token belongs to, and what the token may do.
#[derive(Clone, Debug)]
pub struct TokenHolder {
    pub token: Uuid,
    pub player: PlayerRecord,
    pub username: String,
    pub scopes: Vec<String>,
    pub bot: bool,
}

/// Why a token was not made.
#[derive(Debug, thiserror::Error)]
pub enum NewTokenError {
    #[error("an account holds at most {MAX_TOKENS} tokens; delete one first")]
    TooMany,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Store {
    /// Stores a token of `player`'s by its hash.
    pub async fn insert_api_token(
        &self,
        player: Uuid,
        hash: &str,
        description: &str,
        scopes: &[String],
    ) -> Result<Uuid, NewTokenError> {
        let mut tx = self.pool.begin().await.map_err(StoreError::from)?;
        let held: i64 = sqlx::query("SELECT COUNT(*) AS n FROM api_tokens WHERE player_id = $1")
            .bind(player.to_string())
            .fetch_one(&mut *tx)
            .await
            .map_err(StoreError::from)?
            .try_get("n")
            .map_err(StoreError::from)?;
        if held >= MAX_TOKENS {
            return Err(NewTokenError::TooMany);
        }
        let id = Uuid::new_v4();
        sqlx::query(
            "INSERT INTO api_tokens (id, player_id, token_hash, description, scopes, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id.to_string())
        .bind(player.to_string())
        .bind(hash.to_owned())
        .bind(description.to_owned())
        .bind(scopes.join(" "))
        .bind(now_ms())
        .execute(&mut *tx)
        .await
        .map_err(StoreError::from)?;
        tx.commit().await.map_err(StoreError::from)?;
        Ok(id)
    }

    /// `player`'s tokens, newest first.
    pub async fn api_tokens(&self, player: Uuid) -> Result<Vec<TokenRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, description, scopes, created_at, last_used_at FROM api_tokens
             WHERE player_id = $1 ORDER BY created_at DESC, id",
        )
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TokenRecord {
                    id: get_uuid(r, "id")?,
                    description: r.try_get("description")?,
                    scopes: split_scopes(&r.try_get::<String, _>("scopes")?),
                    created_at: r.try_get("created_at")?,
                    last_used_at: r.try_get("last_used_at")?,
                })
            })
            .collect()
    }

    /// Deletes one of `player`'s tokens; whether there was one.
    pub async fn delete_api_token(&self, player: Uuid, token: Uuid) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND player_id = $2")
            .bind(token.to_string())
            .bind(player.to_string())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Who holds the token hashed `hash` (an account neither deleted nor banned), marking it
    /// used at most once a minute.
    pub async fn api_token_holder(&self, hash: &str) -> Result<Option<TokenHolder>, StoreError> {
        let row = sqlx::query(
            "SELECT t.id AS token_id, t.scopes, t.last_used_at, p.id, p.name, p.username,
                    p.disconnects, p.title
             FROM api_tokens t JOIN players p ON p.id = t.player_id
             WHERE t.token_hash = $1 AND p.username IS NOT NULL AND p.deleted_at IS NULL
               AND p.banned_at IS NULL",
        )
        .bind(hash.to_owned())
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        let token = get_uuid(&r, "token_id")?;
        let now = now_ms();
        let last: Option<i64> = r.try_get("last_used_at")?;
        if last.is_none_or(|at| now - at > 60_000) {
            sqlx::query("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2")
                .bind(now)
                .bind(token.to_string())
                .execute(&self.pool)
                .await?;
        }
        Ok(Some(TokenHolder {
            token,
            player: PlayerRecord {
                id: get_uuid(&r, "id")?,
                name: r.try_get("name")?,
                disconnects: r.try_get("disconnects")?,
                bot: r.try_get::<Option<String>, _>("title")?.as_deref() == Some("BOT"),
            },
            username: r.try_get("username")?,
            scopes: split_scopes(&r.try_get::<String, _>("scopes")?),
            bot: r.try_get::<Option<String>, _>("title")?.as_deref() == Some("BOT"),
        }))
    }

    /// Makes `player` a bot, if they have played no game: whether they are one now.
    pub async fn make_bot(&self, player: Uuid) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE players SET title = 'BOT' WHERE id = $1 AND username IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM games WHERE red_id = $1 OR blue_id = $1)",
        )
        .bind(player.to_string())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Whether `player` is a bot account.
    pub async fn is_bot(&self, player: Uuid) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT title FROM players WHERE id = $1")
            .bind(player.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<Option<String>, _>("title")?.as_deref() == Some("BOT"),
            None => false,
        })
    }
}

fn split_scopes(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}
