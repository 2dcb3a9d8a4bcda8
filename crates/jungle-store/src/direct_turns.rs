//! The writer's own SQLite connection, for its commonest commit: a batch of nothing but turns
//! on the clock (issue 30). Through sqlx, every statement of a commit is a round trip to the
//! thread that serves the pool's connection, a wake-up and a sleep on each side: BEGIN, the
//! insert, its row number, COMMIT and the pool's own check, at up to a thousand commits a
//! second. This connection belongs to the writer's thread, so such a commit is function calls
//! there. Every other batch still goes through the pool; SQLite's lock orders the two
//! connections' transactions as it orders any two writers'. The values are stored as sqlx
//! stores them ([`turn_row`]), so readers see no difference.

use rusqlite::types::Value;
use rusqlite::{params_from_iter, Connection, ErrorCode, OpenFlags, Transaction};
use uuid::Uuid;

use super::games::{turn_row, TurnValue, TURNS_KEPT_PREPARED};
use super::move_log::CLEAR_LOG_BELOW;
use super::{Backend, MoveRecord, Store, StoreError, SQLITE_PRAGMAS};

/// The writer's connection touches the log's last pages and the pages of the games it folds:
/// a smaller cache than the readers' will do.
const CACHE_SIZE: &str = "PRAGMA cache_size = -16384";

/// The writer thread's own connection to the SQLite file.
pub struct DirectTurns {
    conn: Connection,
}

impl std::fmt::Debug for DirectTurns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DirectTurns")
    }
}

/// An error of the writer's own connection.
#[derive(Debug, thiserror::Error)]
#[error("database (writer's connection): {0}")]
pub struct DirectError(#[from] rusqlite::Error);

impl DirectError {
    /// The file was locked by another writer past the busy timeout: worth another try.
    pub fn is_transient(&self) -> bool {
        matches!(
            self.0.sqlite_error_code(),
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
        )
    }
}

impl Store {
    /// Opens the writer's own connection: for an SQLite file opened read-write with no other
    /// option in its URL (None for PostgreSQL, for an in-memory database, which another
    /// connection would not share, and for any option this connection would not honour, such
    /// as another VFS, whose locks the pool's connections would not see).
    pub fn open_direct_turns(&self) -> Result<Option<DirectTurns>, StoreError> {
        if self.backend != Backend::Sqlite || !plain_file(&self.url) {
            return Ok(None);
        }
        let options: sqlx::sqlite::SqliteConnectOptions = self.url.parse()?;
        // The pool created the file; this connection only writes to it.
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(options.get_filename(), flags)
            .map_err(DirectError::from)?;
        for pragma in SQLITE_PRAGMAS.iter().chain([&CACHE_SIZE]) {
            // (`journal_mode` answers with a row; the others with none.)
            conn.query_row(pragma, [], |_| Ok(()))
                .or_else(|e| match e {
                    rusqlite::Error::QueryReturnedNoRows => Ok(()),
                    e => Err(e),
                })
                .map_err(DirectError::from)?;
        }
        // Each row count is its own statement; as many kept as the pool's connections keep.
        conn.set_prepared_statement_cache_capacity(2 * TURNS_KEPT_PREPARED + 4);
        Ok(Some(DirectTurns { conn }))
    }
}

/// Whether an SQLite URL names a file with nothing but a read-write mode.
fn plain_file(url: &str) -> bool {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    !path.contains(":memory:")
        && query
            .split('&')
            .all(|param| matches!(param, "" | "mode=rw" | "mode=rwc"))
}

impl DirectTurns {
    /// Begins the commit's transaction (deferred, as sqlx's BEGIN).
    pub fn begin(&mut self) -> Result<Transaction<'_>, DirectError> {
        Ok(self.conn.transaction()?)
    }

    /// Whether no transaction is left open (a rollback that failed would leave one, holding
    /// the database's write lock).
    pub fn is_clean(&self) -> bool {
        self.conn.is_autocommit()
    }

    /// Closes the connection, which rolls back a transaction left open and lets its write
    /// lock go. A close that fails (a statement still unfinished) is logged: dropped, the
    /// connection would fail to close silently.
    pub fn close(self) {
        if let Err((_, e)) = self.conn.close() {
            tracing::error!(error = %e, "closing the writer's own SQLite connection failed");
        }
    }

    /// Leaves a transaction open that holds the write lock, as a rollback that failed would.
    #[cfg(any(test, feature = "testing"))]
    pub fn hold_a_transaction_open(&mut self) {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .expect("a transaction begins");
    }

    /// Appends turns to the move log in `tx`; returns the row number of the first (the others
    /// follow it: the transaction holds the write lock from its first insert on).
    pub fn append_to_log(
        store: &Store,
        tx: &Transaction<'_>,
        turns: &[(Uuid, MoveRecord)],
    ) -> Result<i64, DirectError> {
        insert_rows(store, tx, "move_log", turns, "")?;
        Ok(tx.last_insert_rowid() - turns.len() as i64 + 1)
    }

    /// Puts turns into `moves` in `tx` (one already there is kept), as `Store::insert_moves`.
    pub fn insert_moves(
        store: &Store,
        tx: &Transaction<'_>,
        turns: &[(Uuid, MoveRecord)],
    ) -> Result<(), DirectError> {
        insert_rows(
            store,
            tx,
            "moves",
            turns,
            " ON CONFLICT (game_id, ply) DO NOTHING",
        )
    }

    /// Deletes the log's rows below `row`, all of them already in `moves`.
    pub fn clear_log_below(tx: &Transaction<'_>, row: i64) -> Result<(), DirectError> {
        tx.prepare_cached(CLEAR_LOG_BELOW)?.execute([row])?;
        Ok(())
    }
}

fn insert_rows(
    store: &Store,
    tx: &Transaction<'_>,
    table: &str,
    turns: &[(Uuid, MoveRecord)],
    tail: &str,
) -> Result<(), DirectError> {
    let now = super::now_ms();
    // In statements of at most the rows kept prepared: a larger one would be parsed and
    // planned for its one use, at every commit of a busy minute (flat out, about 24 turns a
    // commit, that was the writer's parser at work for each). Here, unlike through sqlx, more
    // statements are no more round trips.
    for chunk in turns.chunks(TURNS_KEPT_PREPARED) {
        let sql = store.turn_rows_sql(table, chunk.len(), tail);
        let values = chunk.iter().flat_map(|(game, turn)| {
            turn_row(*game, turn, now).map(|value| match value {
                TurnValue::Text(text) => Value::Text(text),
                TurnValue::Integer(n) => Value::Integer(n),
            })
        });
        tx.prepare_cached(&sql)?.execute(params_from_iter(values))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::plain_file;

    #[test]
    fn only_a_plain_file_gets_the_writers_own_connection() {
        for url in [
            "sqlite://j.db",
            "sqlite://j.db?mode=rwc",
            "sqlite:j.db?mode=rw",
        ] {
            assert!(plain_file(url), "{url}");
        }
        for url in [
            "sqlite::memory:",
            "sqlite://j.db?mode=memory",
            "sqlite://j.db?mode=ro",
            "sqlite://j.db?mode=rwc&vfs=unix-dotfile",
            "sqlite://j.db?immutable=true",
        ] {
            assert!(!plain_file(url), "{url}");
        }
    }
}
