//! The database: SQLite (embedded default) or PostgreSQL through sqlx's `Any` driver, with
//! runtime queries in portable SQL so that no live database is needed to build.

mod games;
mod players;

use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

pub use games::{FinishRecord, GameRecord, GameSummary, MoveRecord, NewGame, StoredClock};
pub use players::{PlayerProfile, PlayerRecord, RatingRecord, Stats};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Worth retrying: the database was unreachable or busy, not the statement wrong.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Database(sqlx::Error::Database(db)) => {
                // SQLite's BUSY/LOCKED and PostgreSQL's connection and shutdown classes.
                let code = db.code().unwrap_or_default();
                matches!(code.as_ref(), "5" | "6" | "517" | "262")
                    || code.starts_with("08")
                    || code.starts_with("57P")
            }
            StoreError::Database(
                sqlx::Error::Io(_)
                | sqlx::Error::PoolTimedOut
                | sqlx::Error::PoolClosed
                | sqlx::Error::WorkerCrashed
                | sqlx::Error::Protocol(_)
                | sqlx::Error::Tls(_),
            ) => true,
            _ => false,
        }
    }
}

/// Which engine is behind the pool: SQLite needs its pragmas and a checkpoint task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A cloneable handle to the pool.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    /// Multi-row inserts write their placeholders in the backend's cheapest form.
    backend: Backend,
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

impl Store {
    /// Connects and runs the migrations. An SQLite file is created if missing.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let url = match backend {
            Backend::Sqlite if !url.contains("mode=") => {
                let sep = if url.contains('?') { '&' } else { '?' };
                format!("{url}{sep}mode=rwc")
            }
            _ => url.to_owned(),
        };
        let options = AnyPoolOptions::new()
            .max_connections(match backend {
                Backend::Sqlite => 4,
                Backend::Postgres => 10,
            })
            .acquire_timeout(std::time::Duration::from_secs(5))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers work beside the one writer; FULL sync keeps every
                        // acknowledged move through a power cut; a busy writer is waited for.
                        for pragma in [
                            "PRAGMA journal_mode = WAL",
                            "PRAGMA synchronous = FULL",
                            "PRAGMA busy_timeout = 5000",
                            "PRAGMA cache_size = -65536",
                            "PRAGMA foreign_keys = ON",
                            // Checkpoints run in the background (see below), not inside
                            // the writer's commits, where they stalled every queued move.
                            "PRAGMA wal_autocheckpoint = 0",
                        ] {
                            sqlx::query(pragma).execute(&mut *conn).await?;
                        }
                    }
                    Ok(())
                })
            });
        let pool = options.connect(&url).await?;
        sqlx::migrate!("../../migrations").run(&pool).await?;
        if backend == Backend::Sqlite {
            tokio::spawn(checkpoint_wal(pool.clone()));
        }
        Ok(Store { pool, backend })
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }
}

/// Copies the SQLite write-ahead log back into the database once a second, beside the writer
/// instead of inside its commits. PASSIVE never blocks the writer; it stops with the pool.
async fn checkpoint_wal(pool: AnyPool) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
    loop {
        tick.tick().await;
        if pool.is_closed() {
            return;
        }
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await
        {
            if pool.is_closed() {
                return;
            }
            tracing::warn!(error = %e, "WAL checkpoint failed");
        }
    }
}

fn get_uuid(row: &AnyRow, column: &str) -> Result<uuid::Uuid, StoreError> {
    let text: String = row.try_get(column)?;
    uuid::Uuid::from_str(&text).map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))
}
