//! The database: SQLite (embedded default) or PostgreSQL through sqlx's `Any` driver, with
//! runtime queries in portable SQL so that no live database is needed to build.

mod accounts;
mod api_tokens;
mod blocks;
mod bot_record;
mod correspondence;
mod direct_turns;
mod fair_play;
mod game_end;
mod games;
mod learn;
mod mail;
mod moderation;
mod move_log;
pub mod persist;
mod players;
mod push;
mod puzzle_mining;
mod puzzle_streaks;
mod puzzles;
mod rooms;
mod serialized;
mod tournaments;
mod vacations;

use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

pub use accounts::{AccountStoreError, Credentials, NewAccount, NewSession, SessionRecord};
pub use api_tokens::{NewTokenError, TokenHolder, TokenRecord, MAX_TOKENS};
pub use blocks::{BlockError, MAX_BLOCKS};
pub use bot_record::BotRecord;
pub use direct_turns::{DirectError, DirectTurns};
pub use fair_play::{GameAssessment, QueueLine};
pub use game_end::{EndPart, Ending, GameEnd, PartDone, Verdict};
pub use games::TURNS_PER_STATEMENT;
pub use jungle_game::records::{
    ChatRecord, FinishRecord, GameRecord, MoveRecord, NewGame, PlayerRecord, RatingRecord,
    StoredClock,
};
pub use mail::MailAddress;
pub use moderation::{AuditRecord, ModerationStoreError, NamedPlayer, NewReport, ReportRecord};
pub use push::{PushPreferences, StoredPushSubscription};
pub use puzzle_streaks::StreakRun;
pub use puzzles::{puzzle_id, AttemptOutcome, AttemptRecord, PuzzleRating, StoredPuzzle};
pub use rooms::WaitingRoom;
pub use tournaments::{PairingRecord, RosterLine, TournamentRecord};
pub use vacations::{Vacation, VacationTaken, DAY_MS};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Direct(#[from] DirectError),
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
            StoreError::Direct(e) => e.is_transient(),
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
    /// Set by the background checkpoint when the SQLite log has grown large; the game writer
    /// reads it between batches and rewinds the log (or the checkpoint does, if it is idle).
    wal_large: Arc<AtomicBool>,
    /// To open the writer's own connections on its thread: its PostgreSQL pool, or its SQLite
    /// connection for turns (`direct_turns.rs`).
    url: Arc<str>,
    /// What a game's end runs in the transaction that stores it ([`GameEnd`]).
    game_end: GameEnd,
}

/// Every SQLite connection's settings. WAL lets readers work beside the one writer; FULL sync
/// keeps every acknowledged move through a power cut; a busy writer is waited for.
const SQLITE_PRAGMAS: [&str; 6] = [
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA busy_timeout = 5000",
    "PRAGMA cache_size = -65536",
    "PRAGMA foreign_keys = ON",
    // Checkpoints run in the background (see below), not inside the writer's commits, where
    // they stalled every queued move.
    "PRAGMA wal_autocheckpoint = 0",
];

/// How the SQLite log is kept bounded (see [`checkpoint_wal`]).
#[derive(Clone, Copy, Debug)]
pub struct Checkpointing {
    /// How often the log is copied back.
    every: std::time::Duration,
    /// Log frames (pages, 4 KiB each) past which the log is rewound.
    rewind_frames: i64,
}

impl Checkpointing {
    /// Once a second; rewound past 256 MiB, about 4–5 s of writes at 10,000 moves/s (a move
    /// writes about 1.5 pages of log).
    const SERVER: Checkpointing = Checkpointing {
        every: std::time::Duration::from_secs(1),
        rewind_frames: 65_536,
    };
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

/// A unit test's database directory, removed when dropped.
#[cfg(any(test, feature = "testing"))]
pub struct TempDir(std::path::PathBuf);

#[cfg(any(test, feature = "testing"))]
impl TempDir {
    /// The database file's name in it.
    pub const DATABASE: &'static str = "unit.db";

    pub fn database(&self) -> std::path::PathBuf {
        self.0.join(Self::DATABASE)
    }
}

#[cfg(any(test, feature = "testing"))]
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Store {
    /// Connects and runs the migrations. An SQLite file is created if missing.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, Some(Checkpointing::SERVER)).await
    }

    /// A fresh SQLite store in a temporary directory of its own, for unit tests (no
    /// background checkpoint unless `checkpointing` asks for one).
    /// The directory goes when the returned guard is dropped.
    #[cfg(any(test, feature = "testing"))]
    pub async fn temporary(checkpointing: Option<Checkpointing>) -> (Store, TempDir) {
        let dir = std::env::temp_dir().join(format!("jungle-unit-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let url = format!("sqlite://{}", dir.join(TempDir::DATABASE).display());
        let store = Store::open_with(&url, checkpointing).await.expect("store");
        (store, TempDir(dir))
    }

    /// For a short-lived command beside a running server (`jungle-server admin`): no
    /// background checkpoint, which the server runs.
    pub async fn open_for_command(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, None).await
    }

    /// `checkpointing`: how the background WAL checkpoint runs (tests turn it off to watch
    /// the writer's own rewind alone, or make it eager).
    async fn open_with(
        url: &str,
        checkpointing: Option<Checkpointing>,
    ) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let url = match backend {
            Backend::Sqlite if !url.contains("mode=") => with_param(url, "mode=rwc"),
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
                        for pragma in SQLITE_PRAGMAS {
                            sqlx::query(pragma).execute(&mut *conn).await?;
                        }
                    }
                    Ok(())
                })
            });
        let pool = options.connect(&url).await?;
        sqlx::migrate!("../../migrations").run(&pool).await?;
        let wal_large = Arc::new(AtomicBool::new(false));
        if let (Backend::Sqlite, Some(checkpointing)) = (backend, checkpointing) {
            tokio::spawn(checkpoint_wal(
                pool.clone(),
                wal_large.clone(),
                checkpointing,
            ));
        }
        Ok(Store {
            pool,
            backend,
            wal_large,
            url: url.into(),
            game_end: GameEnd::store_only(),
        })
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The store the writer uses from its own thread and runtime. SQLite connections are
    /// served by threads of their own, so the same pool does; a PostgreSQL connection belongs
    /// to the runtime that opened it, so the writer gets a small pool of its own, opened (on
    /// first use) from the runtime this is called on.
    pub fn for_writer_thread(&self) -> Store {
        match self.backend {
            Backend::Sqlite => self.clone(),
            Backend::Postgres => Store {
                pool: AnyPoolOptions::new()
                    .max_connections(2)
                    .acquire_timeout(std::time::Duration::from_secs(5))
                    // Named, so that an operator (and a test) can tell it in pg_stat_activity.
                    .connect_lazy(&with_param(&self.url, "application_name=jungle-writer"))
                    .expect("the URL was accepted at start-up"),
                ..self.clone()
            },
        }
    }

    /// Closes the writer's own PostgreSQL pool (SQLite's is the shared one, closed with it).
    pub async fn close_writer_pool(&self) {
        if self.backend == Backend::Postgres {
            self.pool.close().await;
        }
    }

    /// SQLite: each commit makes every reader reload the pages that changed.
    pub fn is_embedded(&self) -> bool {
        self.backend == Backend::Sqlite
    }

    /// Lets a large SQLite write-ahead log start over. The log only rewinds when a write
    /// begins with every frame already copied back, which the checkpoint beside a busy writer
    /// never sees: under steady load the log grew by a page per move, without end. So once it
    /// is large, the writer copies the rest itself between two batches, and its next
    /// transaction rewinds the log. That pause (tens of milliseconds) is the price of a
    /// bounded log. A no-op on PostgreSQL and while the log is small.
    pub async fn rewind_log_if_large(&self) -> Result<(), StoreError> {
        // Only the SQLite checkpoint task ever raises the flag.
        if self.wal_large.swap(false, Ordering::Relaxed) {
            sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }
}

/// Copies the SQLite write-ahead log back into the database (once a second on a server),
/// beside the writers instead of inside their commits: PASSIVE never blocks a writer. When the
/// log is large, it asks the game writer to rewind it. If the request is still unanswered at
/// the next tick (the game writer is idle, and the log grew from other writes: sign-ups,
/// rooms), it rewinds the log itself and truncates the file; with no game writer busy, the
/// short block on writers that takes costs nobody a move. Stops with the pool.
async fn checkpoint_wal(pool: AnyPool, wal_large: Arc<AtomicBool>, how: Checkpointing) {
    let mut tick = tokio::time::interval(how.every);
    loop {
        tick.tick().await;
        if pool.is_closed() {
            return;
        }
        if wal_large.swap(false, Ordering::Relaxed) {
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(&pool)
                .await
            {
                tracing::warn!(error = %e, "WAL truncation failed");
            }
        }
        match passive_checkpoint(&pool).await {
            Ok(frames) => {
                metrics::gauge!("jungle_db_wal_frames").set(frames as f64);
                // A second pass right away copies what was written during the first, so that
                // the writer, asked next, has only milliseconds of writes left to copy.
                if frames > how.rewind_frames && passive_checkpoint(&pool).await.is_ok() {
                    wal_large.store(true, Ordering::Relaxed);
                }
            }
            Err(_) if pool.is_closed() => return,
            Err(e) => tracing::warn!(error = %e, "WAL checkpoint failed"),
        }
    }
}

/// Copies what it can of the log back without blocking anyone; returns the frames in the log.
async fn passive_checkpoint(pool: &AnyPool) -> Result<i64, sqlx::Error> {
    // One row: (busy, frames in the log, frames copied back).
    let row = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(pool)
        .await?;
    Ok(row.try_get(1).unwrap_or_default())
}

fn get_uuid(row: &AnyRow, column: &str) -> Result<uuid::Uuid, StoreError> {
    let text: String = row.try_get(column)?;
    uuid::Uuid::from_str(&text).map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))
}

/// `url` with one more query parameter.
fn with_param(url: &str, param: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}{param}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MoveRecord, NewGame, StoredClock};
    use jungle_protocol::ClockSpec;

    /// The log file only grows while the log is not rewound: a rewound log is overwritten
    /// from its start. (Asking SQLite for the frame count would checkpoint.)
    fn log_bytes(db: &std::path::Path) -> u64 {
        std::fs::metadata(db.with_extension("db-wal")).map_or(0, |m| m.len())
    }

    async fn write_moves(store: &Store, games: &[uuid::Uuid], plies: std::ops::Range<i64>) {
        let moves: Vec<(uuid::Uuid, MoveRecord)> = plies
            .flat_map(|ply| {
                games.iter().map(move |game| {
                    let record = MoveRecord {
                        ply,
                        mv: "a3a4".into(),
                        clock: StoredClock::default(),
                        blurred: false,
                        played_at: 0,
                    };
                    (*game, record)
                })
            })
            .collect();
        let mut tx = store.pool.begin().await.expect("begin");
        store.insert_moves(&mut tx, &moves).await.expect("insert");
        tx.commit().await.expect("commit");
    }

    #[tokio::test]
    async fn the_writer_rewinds_the_log_when_asked_and_only_then() {
        let (store, dir) = Store::temporary(None).await;
        let red = store
            .create_player("red", &format!("{:064}", 1))
            .await
            .expect("player");
        let blue = store
            .create_player("blue", &format!("{:064}", 2))
            .await
            .expect("player");
        let games: Vec<uuid::Uuid> = (0..50).map(|_| uuid::Uuid::new_v4()).collect();
        let mut tx = store.pool.begin().await.expect("begin");
        for id in &games {
            let game = NewGame {
                id: *id,
                ..NewGame::casual(red.id, blue.id, ClockSpec::CLASSIC_PER_MOVE)
            };
            store.insert_game(&mut tx, &game).await.expect("game");
        }
        tx.commit().await.expect("commit");

        let db = dir.database();
        // Not asked: every write lengthens the log, since none began after a full copy-back.
        write_moves(&store, &games, 0..20).await;
        let first = log_bytes(&db);
        store.rewind_log_if_large().await.expect("no-op");
        write_moves(&store, &games, 20..40).await;
        let second = log_bytes(&db);
        assert!(second > first, "the log grew: {first} then {second} bytes");

        // Asked: the writer copies the log back, and its next write starts the log over, so
        // the same amount of writing again leaves the file as it was.
        store.wal_large.store(true, Ordering::Relaxed);
        store.rewind_log_if_large().await.expect("rewind");
        assert!(
            !store.wal_large.load(Ordering::Relaxed),
            "the request is consumed"
        );
        write_moves(&store, &games, 40..60).await;
        assert_eq!(log_bytes(&db), second, "the log rewound instead of growing");
        store.close().await;
    }

    #[tokio::test]
    async fn the_log_is_rewound_when_only_others_write() {
        // No game writer at all: sign-ups alone. The checkpoint rewinds and truncates the log
        // once it passes the mark (64 frames here, to keep the test small).
        let eager = Checkpointing {
            every: std::time::Duration::from_millis(50),
            rewind_frames: 64,
        };
        let (store, dir) = Store::temporary(Some(eager)).await;
        let db = dir.database();
        // The log file never shrinks unless it is truncated (a rewound log is overwritten in
        // place), so a smaller file than before is the checkpoint's doing.
        let (mut largest, mut shrank) = (0, false);
        for i in 0..400 {
            store
                .create_player(&format!("guest {i}"), &format!("{i:064}"))
                .await
                .expect("player");
            let size = log_bytes(&db);
            shrank |= size < largest;
            largest = largest.max(size);
        }
        assert!(largest > 64 * 4096, "the log did pass the mark: {largest}");
        for _ in 0..100 {
            if shrank {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            shrank = log_bytes(&db) < largest;
        }
        assert!(shrank, "the log was truncated (at most {largest} bytes)");
        store.close().await;
    }
}
