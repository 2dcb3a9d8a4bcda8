//! Moderation in the database: bans, reports, password-reset links and the audit log. The
//! `jungle-server admin` commands write here; a running server reads bans back (it polls).

use sqlx::Row;
use uuid::Uuid;

use super::{get_uuid, now_ms, Store, StoreError};
use jungle_game::names::NameKeys;

/// A player an admin command names: by username (any case) or, for guests, by id.
#[derive(Clone, Debug)]
pub struct NamedPlayer {
    pub id: Uuid,
    pub name: String,
    pub username: Option<String>,
    pub banned: bool,
}

/// An open (or, with `--all`, any) report.
#[derive(Clone, Debug)]
pub struct ReportRecord {
    pub id: Uuid,
    pub created_at: i64,
    pub reporter: String,
    pub reported: String,
    pub reported_id: Uuid,
    pub game: Option<Uuid>,
    pub reason: String,
    pub details: String,
    pub resolved: bool,
}

/// A new report, checked.
pub struct NewReport<'a> {
    pub reporter: Uuid,
    pub reported: Uuid,
    pub game: Option<Uuid>,
    pub reason: &'a str,
    pub details: &'a str,
}

/// One row of the audit log.
#[derive(Clone, Debug)]
pub struct AuditRecord {
    pub at: i64,
    pub operator: String,
    pub action: String,
    pub player: Option<Uuid>,
    pub detail: String,
}

/// Why a moderation write changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum ModerationStoreError {
    #[error("that name (or one that looks like it) is taken")]
    NameTaken,
    #[error("you already have an open report about this player")]
    AlreadyReported,
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.is_unique_violation())
}

impl Store {
    /// The player `name` means: an account's username (case aside), else a player id.
    pub async fn named_player(
        &self,
        name: &str,
        keys: &NameKeys,
    ) -> Result<Option<NamedPlayer>, StoreError> {
        let by_id = name.parse::<Uuid>().ok().map(|id| id.to_string());
        let row = sqlx::query(
            "SELECT id, name, username, banned_at FROM players
             WHERE username_folded = $1 OR id = $2",
        )
        .bind(&keys.folded)
        .bind(by_id.unwrap_or_default())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(NamedPlayer {
                id: get_uuid(&r, "id")?,
                name: r.try_get("name")?,
                username: r.try_get("username")?,
                banned: r.try_get::<Option<i64>, _>("banned_at")?.is_some(),
            })
        })
        .transpose()
    }

    /// Why `player` is banned, if they are.
    pub async fn ban_reason(&self, player: Uuid) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT banned_at, ban_reason FROM players WHERE id = $1")
            .bind(player.to_string())
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) if r.try_get::<Option<i64>, _>("banned_at")?.is_some() => Some(
                r.try_get::<Option<String>, _>("ban_reason")?
                    .unwrap_or_default(),
            ),
            _ => None,
        })
    }

    /// Bans `player`, ends every session, and logs it; all in one transaction.
    pub async fn ban(
        &self,
        player: Uuid,
        reason: &str,
        operator: &str,
    ) -> Result<usize, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE players SET banned_at = $1, ban_reason = $2 WHERE id = $3")
            .bind(now_ms())
            .bind(reason)
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?;
        let sessions = sqlx::query("DELETE FROM sessions WHERE player_id = $1")
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        audit(&mut tx, operator, "ban", Some(player), reason).await?;
        tx.commit().await?;
        Ok(sessions as usize)
    }

    pub async fn unban(&self, player: Uuid, operator: &str) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE players SET banned_at = NULL, ban_reason = NULL WHERE id = $1")
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?;
        audit(&mut tx, operator, "unban", Some(player), "").await?;
        tx.commit().await?;
        Ok(())
    }

    /// Players banned at or after `since` (ms), with when: what a running server must apply.
    pub async fn bans_since(&self, since: i64) -> Result<Vec<(Uuid, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, banned_at FROM players WHERE banned_at >= $1 ORDER BY banned_at LIMIT 1000",
        )
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((get_uuid(r, "id")?, r.try_get("banned_at")?)))
            .collect()
    }

    /// Gives an account a new username (its display name too).
    pub async fn rename(
        &self,
        player: Uuid,
        username: &str,
        keys: &NameKeys,
        operator: &str,
    ) -> Result<(), ModerationStoreError> {
        let mut tx = self.pool.begin().await.map_err(StoreError::from)?;
        let renamed = sqlx::query(
            "UPDATE players SET username = $1, name = $1, username_folded = $2,
                 username_skeleton = $3 WHERE id = $4",
        )
        .bind(username)
        .bind(&keys.folded)
        .bind(&keys.skeleton)
        .bind(player.to_string())
        .execute(&mut *tx)
        .await;
        match renamed {
            Err(e) if is_unique_violation(&e) => return Err(ModerationStoreError::NameTaken),
            Err(e) => return Err(StoreError::from(e).into()),
            Ok(_) => {}
        }
        audit(&mut tx, operator, "rename", Some(player), username).await?;
        tx.commit().await.map_err(StoreError::from)?;
        Ok(())
    }

    /// Stores a one-time reset link's token hash for `player`, valid until `expires_at`.
    pub async fn create_password_reset(
        &self,
        player: Uuid,
        token_hash: &str,
        expires_at: i64,
        operator: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        // One live link per player: a new one replaces the last.
        sqlx::query("DELETE FROM password_resets WHERE player_id = $1")
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO password_resets (token_hash, player_id, expires_at) VALUES ($1, $2, $3)",
        )
        .bind(token_hash)
        .bind(player.to_string())
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        audit(&mut tx, operator, "reset-password", Some(player), "").await?;
        tx.commit().await?;
        Ok(())
    }

    /// The username whose live reset link this is.
    pub async fn password_reset_owner(
        &self,
        token_hash: &str,
    ) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT p.username FROM password_resets r JOIN players p ON p.id = r.player_id
             WHERE r.token_hash = $1 AND r.expires_at > $2 AND p.username IS NOT NULL",
        )
        .bind(token_hash)
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok(r.try_get("username")?)).transpose()
    }

    /// Uses a reset link: if it is live, sets the password, ends every session and forgets the
    /// link. Returns the player and the sessions ended.
    pub async fn use_password_reset(
        &self,
        token_hash: &str,
        password_hash: &str,
    ) -> Result<Option<(Uuid, Vec<Uuid>)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "DELETE FROM password_resets WHERE token_hash = $1 AND expires_at > $2
             RETURNING player_id",
        )
        .bind(token_hash)
        .bind(now_ms())
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let player = get_uuid(&row, "player_id")?;
        sqlx::query("UPDATE players SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?;
        let ended = sqlx::query("DELETE FROM sessions WHERE player_id = $1 RETURNING id")
            .bind(player.to_string())
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| get_uuid(r, "id"))
            .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await?;
        Ok(Some((player, ended)))
    }

    /// Stores a report; one open report per reporter and reported player.
    pub async fn create_report(
        &self,
        report: &NewReport<'_>,
    ) -> Result<Uuid, ModerationStoreError> {
        let id = Uuid::new_v4();
        let inserted = sqlx::query(
            "INSERT INTO reports (id, reporter_id, reported_id, game_id, reason, details, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id.to_string())
        .bind(report.reporter.to_string())
        .bind(report.reported.to_string())
        .bind(report.game.map(|g| g.to_string()))
        .bind(report.reason)
        .bind(report.details)
        .bind(now_ms())
        .execute(&self.pool)
        .await;
        match inserted {
            Err(e) if is_unique_violation(&e) => Err(ModerationStoreError::AlreadyReported),
            Err(e) => Err(StoreError::from(e).into()),
            Ok(_) => Ok(id),
        }
    }

    /// Reports, newest first: the open ones, or all.
    pub async fn reports(&self, all: bool, limit: i64) -> Result<Vec<ReportRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.id, r.created_at, r.reported_id, r.game_id, r.reason, r.details,
                    r.resolved_at, a.name AS reporter, b.name AS reported
             FROM reports r JOIN players a ON a.id = r.reporter_id
                            JOIN players b ON b.id = r.reported_id
             WHERE r.resolved_at IS NULL OR $1 = 1
             ORDER BY r.created_at DESC LIMIT $2",
        )
        .bind(i64::from(all))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let game: Option<String> = r.try_get("game_id")?;
                Ok(ReportRecord {
                    id: get_uuid(r, "id")?,
                    created_at: r.try_get("created_at")?,
                    reporter: r.try_get("reporter")?,
                    reported: r.try_get("reported")?,
                    reported_id: get_uuid(r, "reported_id")?,
                    game: game.and_then(|g| g.parse().ok()),
                    reason: r.try_get("reason")?,
                    details: r.try_get("details")?,
                    resolved: r.try_get::<Option<i64>, _>("resolved_at")?.is_some(),
                })
            })
            .collect()
    }

    /// Marks a report dealt with. False if there is no open report with this id.
    pub async fn resolve_report(&self, id: Uuid, operator: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE reports SET resolved_at = $1 WHERE id = $2 AND resolved_at IS NULL",
        )
        .bind(now_ms())
        .bind(id.to_string())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if done == 1 {
            audit(&mut tx, operator, "resolve-report", None, &id.to_string()).await?;
        }
        tx.commit().await?;
        Ok(done == 1)
    }

    /// The audit log, newest first.
    pub async fn audit_log(&self, limit: i64) -> Result<Vec<AuditRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT at, operator, action, player_id, detail FROM admin_actions
             ORDER BY at DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let player: Option<String> = r.try_get("player_id")?;
                Ok(AuditRecord {
                    at: r.try_get("at")?,
                    operator: r.try_get("operator")?,
                    action: r.try_get("action")?,
                    player: player.and_then(|p| p.parse().ok()),
                    detail: r.try_get("detail")?,
                })
            })
            .collect()
    }

    /// Logs an admin action that changes nothing else (listing sessions reads private data).
    pub async fn audit(
        &self,
        operator: &str,
        action: &str,
        player: Option<Uuid>,
        detail: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        audit(&mut tx, operator, action, player, detail).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Writes one line of the audit log in the caller's transaction.
pub(super) async fn audit(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    operator: &str,
    action: &str,
    player: Option<Uuid>,
    detail: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO admin_actions (id, at, operator, action, player_id, detail)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(Uuid::new_v4().to_string())
    .bind(now_ms())
    .bind(operator)
    .bind(action)
    .bind(player.map(|p| p.to_string()))
    .bind(detail)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
