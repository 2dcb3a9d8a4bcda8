//! The writer's own SQLite connection, for its commonest commit: a batch of nothing but turns
//! on the clock (issue 30). Through sqlx, every statement of a commit is a round trip to the
//! thread that serves the pool's connection, a wake-up and a sleep on each side: BEGIN, the
//! insert, its row number, COMMIT and the pool's own check, at up to a thousand commits a
//! second. This connection belongs to the writer's thread, so such a commit is function calls
//! there. Every other batch still goes through the pool; SQLite's lock orders the two
//! connections' transactions as it orders any two writers'. The values are stored as sqlx
//! stores them (the game's id as text, the rest as integers), so readers see no difference.

use rusqlite::{params_from_iter, Connection, ErrorCode, Transaction};
use uuid::Uuid;

use super::games::TURNS_KEPT_PREPARED;
use super::{Backend, MoveRecord, Store, StoreError, SQLITE_PRAGMAS, TURNS_PER_STATEMENT};

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
    /// Opens the writer's own connection: for an SQLite file only (None for PostgreSQL and
    /// for an in-memory database, which another connection would not share).
    pub fn open_direct_turns(&self) -> Result<Option<DirectTurns>, StoreError> {
        if self.backend != Backend::Sqlite
            || self.url.contains(":memory:")
            || self.url.contains("mode=memory")
        {
            return Ok(None);
        }
        let options: sqlx::sqlite::SqliteConnectOptions = self.url.parse()?;
        let conn = Connection::open(options.get_filename()).map_err(DirectError::from)?;
        for pragma in SQLITE_PRAGMAS {
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

impl DirectTurns {
    /// Begins the commit's transaction (deferred, as sqlx's BEGIN).
    pub fn begin(&mut self) -> Result<Transaction<'_>, DirectError> {
        Ok(self.conn.transaction()?)
    }

    /// Appends turns to the move log in `tx`; returns the row number of the first (the others
    /// follow it: the writer is the log's only writer). The turns must be stamped.
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
        tx.prepare_cached("DELETE FROM move_log WHERE rowid < ?")?
            .execute([row])?;
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
    for chunk in turns.chunks(TURNS_PER_STATEMENT) {
        let sql = store.turn_rows_sql(table, chunk.len(), tail);
        let now = super::now_ms();
        let values = chunk
            .iter()
            .flat_map(|(game, turn)| turn_values(*game, turn, now));
        if chunk.len() <= TURNS_KEPT_PREPARED {
            tx.prepare_cached(&sql)?.execute(params_from_iter(values))?;
        } else {
            tx.prepare(&sql)?.execute(params_from_iter(values))?;
        }
    }
    Ok(())
}

/// One turn's values in the order of `TURN_COLUMNS` (a turn not yet stamped gets `now`).
fn turn_values(game: Uuid, turn: &MoveRecord, now: i64) -> [rusqlite::types::Value; 9] {
    use rusqlite::types::Value::{Integer, Text};
    [
        Text(game.to_string()),
        Integer(turn.ply),
        Text(turn.mv.clone()),
        Integer(turn.clock.red_ms),
        Integer(turn.clock.blue_ms),
        Integer(turn.clock.red_timeouts),
        Integer(turn.clock.blue_timeouts),
        Integer(if turn.played_at > 0 {
            turn.played_at
        } else {
            now
        }),
        Integer(i64::from(turn.blurred)),
    ]
}
