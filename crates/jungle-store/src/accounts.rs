//! Accounts and sessions in the database: only hashes of passwords and tokens are stored.

use sqlx::Row;
use uuid::Uuid;

use super::{get_uuid, now_ms, PlayerRecord, Store, StoreError};
use jungle_game::names::NameKeys;

/// Sessions one account may hold; signing in again ends the least recently used beyond it.
pub const MAX_SESSIONS: usize = 20;
/// Devices, and addresses, remembered per account for sign-in (the latest of each).
pub const MAX_ORIGINS: i64 = 20;

/// A new account's credentials, checked and hashed.
pub struct NewAccount<'a> {
    pub username: &'a str,
    pub keys: &'a NameKeys,
    pub password_hash: &'a str,
}

/// Where a session signs in from.
pub struct NewSession<'a> {
    pub token_hash: &'a str,
    pub device: &'a str,
    pub address: &'a str,
}

/// A signed-in device, as its owner sees it.
pub struct SessionRecord {
    pub id: Uuid,
    pub created_at: i64,
    pub last_seen_at: i64,
    pub device: String,
    pub address: String,
}

/// What signing in needs to know of an account.
pub struct Credentials {
    pub id: Uuid,
    pub name: String,
    pub password_hash: String,
}

/// Why an account could not be stored.
#[derive(Debug, thiserror::Error)]
pub enum AccountStoreError {
    #[error("the username (or one that looks like it) is taken")]
    UsernameTaken,
    #[error("the player already has an account, or is gone")]
    NotAGuest,
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.is_unique_violation())
}

impl Store {
    /// Makes the guest `player` an account named `account.username` (also its display name).
    /// Its guest token, `guest_token_hash`, becomes the account's first session, so the
    /// browser it was made in stays signed in.
    pub async fn claim_guest(
        &self,
        player: Uuid,
        guest_token_hash: &str,
        account: &NewAccount<'_>,
        device: &str,
        address: &str,
    ) -> Result<(), AccountStoreError> {
        let mut tx = self.pool.begin().await.map_err(StoreError::from)?;
        let updated = sqlx::query(
            "UPDATE players SET username = $1, name = $1, username_folded = $2,
                 username_skeleton = $3, password_hash = $4, token_hash = $5
             WHERE id = $6 AND username IS NULL AND bot_level IS NULL AND token_hash = $7",
        )
        .bind(account.username)
        .bind(&account.keys.folded)
        .bind(&account.keys.skeleton)
        .bind(account.password_hash)
        // Not a SHA-256 hex string: no token signs in as the guest any more; sessions do.
        .bind(format!("account-{player}"))
        .bind(player.to_string())
        .bind(guest_token_hash)
        .execute(&mut *tx)
        .await;
        match updated {
            Err(e) if is_unique_violation(&e) => return Err(AccountStoreError::UsernameTaken),
            Err(e) => return Err(StoreError::from(e).into()),
            Ok(done) if done.rows_affected() == 0 => return Err(AccountStoreError::NotAGuest),
            Ok(_) => {}
        }
        let session = NewSession {
            token_hash: guest_token_hash,
            device,
            address,
        };
        insert_session(&mut tx, player, &session).await?;
        tx.commit().await.map_err(StoreError::from)?;
        Ok(())
    }

    /// A new account with no games yet.
    pub async fn create_account(
        &self,
        account: &NewAccount<'_>,
    ) -> Result<Uuid, AccountStoreError> {
        let id = Uuid::new_v4();
        let inserted = sqlx::query(
            "INSERT INTO players (id, name, token_hash, created_at, username, username_folded,
                 username_skeleton, password_hash)
             VALUES ($1, $2, $3, $4, $2, $5, $6, $7)",
        )
        .bind(id.to_string())
        .bind(account.username)
        .bind(format!("account-{id}"))
        .bind(now_ms())
        .bind(&account.keys.folded)
        .bind(&account.keys.skeleton)
        .bind(account.password_hash)
        .execute(&self.pool)
        .await;
        match inserted {
            Err(e) if is_unique_violation(&e) => Err(AccountStoreError::UsernameTaken),
            Err(e) => Err(StoreError::from(e).into()),
            Ok(_) => Ok(id),
        }
    }

    /// Whether an account's name clashes with `keys` (for guests' display names).
    pub async fn account_name_clashes(&self, keys: &NameKeys) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 AS hit FROM players WHERE username_folded = $1 OR username_skeleton = $2",
        )
        .bind(&keys.folded)
        .bind(&keys.skeleton)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// The account a sign-in names, found by its look (as the username was typed, case aside).
    pub async fn credentials(&self, keys: &NameKeys) -> Result<Option<Credentials>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name, password_hash FROM players
             WHERE username_folded = $1 AND password_hash IS NOT NULL",
        )
        .bind(&keys.folded)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(Credentials {
                id: get_uuid(&r, "id")?,
                name: r.try_get("name")?,
                password_hash: r.try_get("password_hash")?,
            })
        })
        .transpose()
    }

    /// A new session for `player`. Beyond [`MAX_SESSIONS`], the least recently used ones end;
    /// their ids are returned so their open connections can be closed.
    pub async fn create_session(
        &self,
        player: Uuid,
        session: &NewSession<'_>,
    ) -> Result<(Uuid, Vec<Uuid>), StoreError> {
        let mut tx = self.pool.begin().await?;
        let id = insert_session(&mut tx, player, session).await?;
        tx.commit().await?;
        // `sessions` lists the most recently used first.
        let ended: Vec<Uuid> = self
            .sessions(player)
            .await?
            .into_iter()
            .map(|s| s.id)
            .filter(|&s| s != id)
            .skip(MAX_SESSIONS - 1)
            .collect();
        for &old in &ended {
            self.delete_session(old).await?;
        }
        Ok((id, ended))
    }

    /// The player a session token signs in as, if the session exists and has been used within
    /// `idle_ms`; its last use is brought forward. An expired session is deleted.
    pub async fn player_by_session(
        &self,
        token_hash: &str,
        idle_ms: i64,
    ) -> Result<Option<(Uuid, PlayerRecord)>, StoreError> {
        let row = sqlx::query(
            "SELECT s.id AS session_id, s.last_seen_at, p.id, p.name, p.disconnects, p.title
             FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let session = get_uuid(&row, "session_id")?;
        let last_seen: i64 = row.try_get("last_seen_at")?;
        let now = now_ms();
        if now - last_seen > idle_ms {
            self.delete_session(session).await?;
            return Ok(None);
        }
        // At most one write an hour per session: a sign-in is a read.
        if now - last_seen > 3_600_000 {
            sqlx::query("UPDATE sessions SET last_seen_at = $1 WHERE id = $2")
                .bind(now)
                .bind(session.to_string())
                .execute(&self.pool)
                .await?;
        }
        let player = PlayerRecord {
            id: get_uuid(&row, "id")?,
            name: row.try_get("name")?,
            disconnects: row.try_get("disconnects")?,
            bot: row.try_get::<Option<String>, _>("title")?.as_deref() == Some("BOT"),
        };
        Ok(Some((session, player)))
    }

    pub async fn delete_session(&self, session: Uuid) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(session.to_string())
            .execute(&self.pool)
            .await?;
        // The browser signed out is pushed to no more.
        sqlx::query("DELETE FROM push_subscriptions WHERE session_id = $1")
            .bind(session.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A player's sessions, most recently used first.
    pub async fn sessions(&self, player: Uuid) -> Result<Vec<SessionRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, created_at, last_seen_at, device, address FROM sessions
             WHERE player_id = $1 ORDER BY last_seen_at DESC",
        )
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SessionRecord {
                    id: get_uuid(r, "id")?,
                    created_at: r.try_get("created_at")?,
                    last_seen_at: r.try_get("last_seen_at")?,
                    device: r.try_get("device")?,
                    address: r.try_get("address")?,
                })
            })
            .collect()
    }

    /// Deletes `player`'s sessions: the one with id `only`, or all but `keep`. Returns the ids
    /// deleted, so their open connections can be closed.
    pub async fn delete_sessions(
        &self,
        player: Uuid,
        only: Option<Uuid>,
        keep: Option<Uuid>,
    ) -> Result<Vec<Uuid>, StoreError> {
        let ids: Vec<Uuid> = self
            .sessions(player)
            .await?
            .into_iter()
            .map(|s| s.id)
            .filter(|id| only.is_none_or(|o| o == *id) && keep != Some(*id))
            .collect();
        for id in &ids {
            self.delete_session(*id).await?;
        }
        Ok(ids)
    }

    /// The stored password hash of an account.
    pub async fn password_hash(&self, player: Uuid) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT password_hash FROM players WHERE id = $1")
            .bind(player.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("password_hash")?,
            None => None,
        })
    }

    pub async fn set_password_hash(&self, player: Uuid, hash: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET password_hash = $1 WHERE id = $2")
            .bind(hash)
            .bind(player.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes an account: its games stay, under an anonymous name; its username, password and
    /// sessions are erased and it leaves the leaderboards. Returns the sessions deleted.
    pub async fn delete_account(&self, player: Uuid) -> Result<Vec<Uuid>, StoreError> {
        let sessions = self.delete_sessions(player, None, None).await?;
        sqlx::query("DELETE FROM sign_in_origins WHERE player_id = $1")
            .bind(player.to_string())
            .execute(&self.pool)
            .await?;
        self.delete_mail_address(player).await?;
        self.forget_learn_progress(player).await?;
        for table in [
            "vacations",
            "analysed_boards",
            "correspondence_claims",
            "puzzle_streak_runs",
            "push_subscriptions",
            "push_settings",
            "pushes_sent",
        ] {
            sqlx::query(&format!("DELETE FROM {table} WHERE player_id = $1"))
                .bind(player.to_string())
                .execute(&self.pool)
                .await?;
        }
        sqlx::query(
            "UPDATE players SET name = 'Deleted player', username = NULL, username_folded = NULL,
                 username_skeleton = NULL, password_hash = NULL, token_hash = $1, deleted_at = $2
             WHERE id = $3",
        )
        .bind(format!("deleted-{player}"))
        .bind(now_ms())
        .bind(player.to_string())
        .execute(&self.pool)
        .await?;
        Ok(sessions)
    }

    /// Whether this device (the SHA-256 of its cookie) or this address has signed in to
    /// `player` before.
    pub async fn is_known_origin(
        &self,
        player: Uuid,
        device: Option<&str>,
        address: &str,
    ) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM sign_in_origins
             WHERE player_id = $1 AND ((kind = 'device' AND origin = $2)
                                    OR (kind = 'address' AND origin = $3))
             LIMIT 1",
        )
        .bind(player.to_string())
        .bind(device.unwrap_or(""))
        .bind(address)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Whether the device (its cookie's hash) has signed in to `player`'s account before.
    pub async fn is_known_device(&self, player: Uuid, device: &str) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM sign_in_origins
             WHERE player_id = $1 AND kind = 'device' AND origin = $2 LIMIT 1",
        )
        .bind(player.to_string())
        .bind(device)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Remembers a successful sign-in's device and address, keeping the latest
    /// [`MAX_ORIGINS`] of each kind.
    pub async fn remember_origins(
        &self,
        player: Uuid,
        device: &str,
        address: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let now = now_ms();
        for (kind, origin) in [("device", device), ("address", address)] {
            sqlx::query(
                "INSERT INTO sign_in_origins (player_id, kind, origin, last_at)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT (player_id, kind, origin) DO UPDATE SET last_at = excluded.last_at",
            )
            .bind(player.to_string())
            .bind(kind)
            .bind(origin)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "DELETE FROM sign_in_origins WHERE player_id = $1 AND kind = $2 AND origin NOT IN
                     (SELECT origin FROM sign_in_origins WHERE player_id = $1 AND kind = $2
                      ORDER BY last_at DESC LIMIT $3)",
            )
            .bind(player.to_string())
            .bind(kind)
            .bind(MAX_ORIGINS)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Who may challenge `player` (their `challenges` setting: `everyone` unless saved).
    pub async fn challenge_policy(&self, player: Uuid) -> Result<String, StoreError> {
        let saved = self.settings(player).await?;
        let settings: jungle_protocol::http::DisplaySettings = saved
            .and_then(|json| serde_json::from_str(&json).ok())
            .unwrap_or_default();
        Ok(settings.challenges.unwrap_or_else(|| "everyone".into()))
    }

    /// Whether `player` has an account (a username), as opposed to a guest or the computer.
    pub async fn has_account(&self, player: Uuid) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT username FROM players WHERE id = $1")
            .bind(player.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<Option<String>, _>("username")?.is_some(),
            None => false,
        })
    }

    /// An account's display settings (a JSON object), if it has saved any.
    pub async fn settings(&self, player: Uuid) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT settings FROM players WHERE id = $1")
            .bind(player.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("settings")?,
            None => None,
        })
    }

    pub async fn set_settings(&self, player: Uuid, json: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET settings = $1 WHERE id = $2")
            .bind(json)
            .bind(player.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

async fn insert_session(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    player: Uuid,
    session: &NewSession<'_>,
) -> Result<Uuid, StoreError> {
    let id = Uuid::new_v4();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO sessions (id, player_id, token_hash, created_at, last_seen_at, device, address)
         VALUES ($1, $2, $3, $4, $4, $5, $6)",
    )
    .bind(id.to_string())
    .bind(player.to_string())
    .bind(session.token_hash)
    .bind(now)
    .bind(session.device)
    .bind(session.address)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}
