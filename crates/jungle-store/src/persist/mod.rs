//! The single writer: rooms hand it their writes and wait for the acknowledgement. It batches
//! the writes of many games into one transaction, so that persisting every move before it is
//! acknowledged costs one commit per batch, not per move. Being the only writer also orders
//! rating updates without row locks.

use std::time::{Duration, Instant};

use jungle_protocol::RatingChange;
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use sqlx::pool::PoolConnection;
use sqlx::Any;

use crate::{
    DirectTurns, FinishRecord, MoveRecord, NewGame, Store, StoreError, WaitingRoom,
    TURNS_PER_STATEMENT,
};
use unfolded::{EndFold, Unfolded};

#[cfg(test)]
mod tests;
mod unfolded;

/// Most writes committed together.
const MAX_BATCH: usize = 4096;
/// The shortest time between the starts of two SQLite commits.
const COMMIT_WINDOW: Duration = Duration::from_millis(1);
/// Writes waiting for the writer; rooms wait (back-pressure) when it is full.
const QUEUE: usize = 8192;

#[derive(Debug)]
pub enum Write {
    /// A private room opened; its link must outlive a restart.
    OpenRoom(WaitingRoom),
    /// A private room expired unjoined.
    CloseRoom(String),
    StartGame(NewGame),
    /// A turn on the clock: it goes to the move log.
    Turn(Uuid, MoveRecord),
    /// A correspondence turn: straight to `moves`, where the lists of games by correspondence
    /// read it (and a day given changes its clocks).
    CorrespondenceTurn(Uuid, MoveRecord),
    /// A takeback: the game's turns from `kept` on are deleted and the takeback recorded.
    TakeBack {
        game: Uuid,
        kept: usize,
        undone: Vec<String>,
    },
    Finish(FinishRecord),
    /// A correspondence turn was given a day: the clocks stored with turn `ply` change.
    TurnClock {
        game: Uuid,
        ply: usize,
        clock: crate::StoredClock,
    },
    /// A line of game chat.
    Chat(crate::ChatRecord),
}

/// What a write returns once committed.
#[derive(Debug)]
pub enum Written {
    Done,
    Finished(Option<RatingChange>),
}

#[derive(Debug, thiserror::Error)]
pub enum PersistError {
    #[error("the writer has stopped")]
    Stopped,
    #[error(transparent)]
    Store(#[from] StoreError),
}

type Request = (Write, oneshot::Sender<Result<Written, StoreError>>);

/// A cloneable handle to the writer task.
#[derive(Clone, Debug)]
pub struct Persister {
    tx: mpsc::Sender<Request>,
}

/// The server's hold on the writer: [`Writer::close`] commits what is queued and stops it,
/// whoever still holds a [`Persister`] (tasks that stop late get `Stopped`).
pub struct Writer {
    close: oneshot::Sender<()>,
    done: tokio::task::JoinHandle<()>,
}

impl Writer {
    /// Commits every write queued so far, then stops; false if that took longer than `wait`.
    pub async fn close(self, wait: Duration) -> bool {
        let _ = self.close.send(());
        tokio::time::timeout(wait, self.done).await.is_ok()
    }
}

impl Persister {
    /// Starts the writer; it stops once every handle is dropped and its queue is drained, or
    /// when the [`Writer`] is closed.
    pub fn start(store: Store) -> (Persister, Writer) {
        let (tx, rx) = mpsc::channel(QUEUE);
        let (close, closing) = oneshot::channel::<()>();
        // The writer is the serial stage every move waits for. On the shared runtime it
        // queued behind thousands of socket tasks at each step of a commit; on a thread of its
        // own it runs as soon as the database answers.
        let (done_tx, done_rx) = oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("jungle-writer".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("writer runtime");
                runtime.block_on(async move {
                    let store = store.for_writer_thread();
                    run(store.clone(), rx, closing).await;
                    store.close_writer_pool().await;
                });
                let _ = done_tx.send(());
            })
            .expect("the writer thread starts");
        let done = tokio::spawn(async move {
            let _ = done_rx.await;
        });
        (Persister { tx }, Writer { close, done })
    }

    /// A writer that commits nothing and answers at once, keeping the writes for inspection:
    /// for room tests under paused time, where a real database would let the clock jump.
    #[cfg(any(test, feature = "testing"))]
    pub fn recording() -> (Persister, std::sync::Arc<std::sync::Mutex<Vec<Write>>>) {
        let (tx, mut rx) = mpsc::channel::<Request>(QUEUE);
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = log.clone();
        tokio::spawn(async move {
            while let Some((write, ack)) = rx.recv().await {
                let answer = match write {
                    Write::Finish(_) => Written::Finished(None),
                    _ => Written::Done,
                };
                kept.lock().expect("log lock").push(write);
                let _ = ack.send(Ok(answer));
            }
        });
        (Persister { tx }, log)
    }

    /// Queues a write and waits until it is committed.
    pub async fn write(&self, write: Write) -> Result<Written, PersistError> {
        let (ack, done) = oneshot::channel();
        self.tx
            .send((write, ack))
            .await
            .map_err(|_| PersistError::Stopped)?;
        match done.await {
            Ok(result) => Ok(result?),
            Err(_) => Err(PersistError::Stopped),
        }
    }
}

async fn run(store: Store, mut rx: mpsc::Receiver<Request>, mut closing: oneshot::Receiver<()>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // At most one SQLite commit per window: each commit makes every reader reload what
    // changed, and thousands of tiny commits a second starved the reads (sign-ins) of a busy
    // server. PostgreSQL readers share one buffer cache and need no such pause.
    let window = if store.is_embedded() {
        COMMIT_WINDOW
    } else {
        Duration::ZERO
    };
    let mut last_commit = Instant::now();
    let mut closed = false;
    // The server folded the log whole before it started the writer, but a test may not have.
    let mut unfolded = Unfolded::new(false);
    let mut conns = Connections {
        held: Held::default(),
        direct: store.open_direct_turns().unwrap_or_else(|e| {
            tracing::warn!(error = %e, "the writer's own SQLite connection did not open; every commit goes through the pool");
            None
        }),
    };
    loop {
        // Waiting before taking the queue lets the writes of the whole window join the batch.
        if !window.is_zero() {
            tokio::time::sleep_until((last_commit + window).into()).await;
        }
        let received = tokio::select! {
            received = rx.recv_many(&mut batch, MAX_BATCH) => received,
            asked = &mut closing, if !closed => {
                closed = true;
                // Closing: what is queued now is the last; later writes are refused. (A
                // `Writer` dropped unclosed asks nothing: the writer runs until its handles go.)
                if asked.is_ok() {
                    rx.close();
                }
                rx.recv_many(&mut batch, MAX_BATCH).await
            }
        };
        if received == 0 {
            break;
        }
        last_commit = Instant::now();
        let started = last_commit;
        let size = batch.len();
        commit_with_retry(&store, &mut batch, &mut unfolded, &mut conns).await;
        metrics::histogram!("jungle_db_batch_seconds").record(started.elapsed().as_secs_f64());
        metrics::histogram!("jungle_db_batch_size").record(size as f64);
        if store.is_embedded() && unfolded.wants_whole_fold() {
            fold_whole(&store, &mut unfolded).await;
        }
        if let Err(e) = store.rewind_log_if_large().await {
            tracing::warn!(error = %e, "WAL checkpoint failed");
        }
    }
    // Leaves the database tidy; the next start would fold what is left anyway.
    fold_whole(&store, &mut unfolded).await;
}

/// Folds the whole move log into `moves` and empties it, between two batches.
async fn fold_whole(store: &Store, unfolded: &mut Unfolded) {
    let started = Instant::now();
    match store.fold_move_log().await {
        Ok(turns) => {
            unfolded.folded_whole();
            metrics::histogram!("jungle_db_fold_seconds").record(started.elapsed().as_secs_f64());
            metrics::counter!("jungle_db_folded_turns_total").increment(turns);
        }
        // It is tried again after the next batch.
        Err(e) => tracing::warn!(error = %e, "folding the move log failed"),
    }
}

/// Commits the batch, retrying while the database is unreachable. A write that fails for good
/// (a bug, not an outage) is answered with its error; the others still commit.
async fn commit_with_retry(
    store: &Store,
    batch: &mut Vec<Request>,
    unfolded: &mut Unfolded,
    conns: &mut Connections,
) {
    let mut delay = Duration::from_millis(50);
    loop {
        let writes: Vec<&Write> = batch.iter().map(|(w, _)| w).collect();
        let committed = commit(store, &writes, unfolded, conns).await;
        if committed.is_err() {
            // The commit remembered some of its turns, which are not stored.
            unfolded.forget();
        }
        match committed {
            Ok(results) => {
                for ((_, ack), result) in batch.drain(..).zip(results) {
                    let _ = ack.send(Ok(result));
                }
                return;
            }
            Err(e) if e.is_transient() => {
                metrics::counter!("jungle_db_retries_total").increment(1);
                tracing::warn!(error = %e, retry_in_ms = delay.as_millis() as u64, "database write failed; retrying");
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(Duration::from_secs(2));
            }
            Err(e) if batch.len() > 1 => {
                tracing::error!(error = %e, "batch failed; committing its writes one by one");
                for request in batch.drain(..) {
                    let mut single = vec![request];
                    Box::pin(commit_with_retry(store, &mut single, unfolded, conns)).await;
                }
                return;
            }
            Err(e) => {
                // A batch of one (larger ones were split above): its writer hears the error.
                tracing::error!(error = %e, write = ?batch[0].0, "write refused by the database");
                if let Some((_, ack)) = batch.pop() {
                    let _ = ack.send(Err(e));
                }
                return;
            }
        }
    }
}

/// The writer's connections besides the pool's.
struct Connections {
    held: Held,
    /// SQLite's own, for batches of turns on the clock alone.
    direct: Option<DirectTurns>,
}

/// The writer's PostgreSQL connection, kept from one commit to the next: taking it from the
/// pool and giving it back cost a round trip each (sqlx tests a connection both ways), as many
/// as the commit itself. A failed commit lets it go, and the next takes a fresh one. So does a
/// commit after a quiet spell ([`KEEP_IDLE`]): the pool's test, bounded by its acquire timeout,
/// finds a connection that died silently meanwhile (a dropped network flow, a vanished host),
/// where a statement on it would wait for TCP to give up, for many minutes. SQLite's goes back
/// to the pool after each commit: its readers (sign-ins) share that pool, and a writer holding
/// one starved them (benchmarks.md, "The writer keeping one connection").
#[derive(Default)]
struct Held(Option<(PoolConnection<Any>, Instant)>);

/// How long a kept connection may sit unused and still be used without the pool's test.
const KEEP_IDLE: Duration = Duration::from_secs(2);

impl Held {
    async fn take(&mut self, store: &Store) -> Result<PoolConnection<Any>, StoreError> {
        match self.0.take() {
            Some((conn, used)) if used.elapsed() < KEEP_IDLE => Ok(conn),
            // (A connection dropped goes back to the pool, which tests it again.)
            _ => Ok(store.pool().acquire().await?),
        }
    }

    fn keep(&mut self, store: &Store, conn: PoolConnection<Any>) {
        if !store.is_embedded() {
            self.0 = Some((conn, Instant::now()));
        }
    }
}

async fn commit(
    store: &Store,
    writes: &[&Write],
    unfolded: &mut Unfolded,
    conns: &mut Connections,
) -> Result<Vec<Written>, StoreError> {
    if let Some(direct) = conns.direct.as_mut() {
        if let Some(turns) = clock_turns_alone(writes) {
            let error = match commit_clock_turns(store, direct, turns, unfolded) {
                Err(error) if !direct.is_clean() => error,
                committed => return committed,
            };
            // A rollback that failed left the transaction open, holding the write lock: the
            // connection goes (closing rolls back), and the pool takes this batch, which our
            // connection's state must not cost its moves, and every batch after it.
            tracing::error!(%error, "the writer's own SQLite connection is stuck in a transaction; closing it");
            if let Some(stuck) = conns.direct.take() {
                stuck.close();
            }
            // The failed commit remembered some of its turns, which are not stored.
            unfolded.forget();
        }
    }
    let held = &mut conns.held;
    let mut conn = held.take(store).await?;
    let results = match turns_alone(store, writes) {
        // One statement is a transaction by itself: no BEGIN and COMMIT round trips.
        Some(turns) => {
            store.insert_moves(&mut conn, &turns).await?;
            writes.iter().map(|_| Written::Done).collect()
        }
        None => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let (results, cleared_below) = commit_in(store, &mut tx, writes, unfolded).await?;
            tx.commit().await?;
            if let Some(below) = cleared_below {
                unfolded.cleared(below);
            }
            results
        }
    };
    held.keep(store, conn);
    Ok(results)
}

/// The batch's turns when it is nothing but turns on the clock: SQLite's common batch.
/// (Checked before any turn is cloned: a mixed batch clones nothing here.)
fn clock_turns_alone(writes: &[&Write]) -> Option<Vec<(Uuid, MoveRecord)>> {
    if !writes.iter().all(|write| matches!(write, Write::Turn(..))) {
        return None;
    }
    writes
        .iter()
        .map(|write| match write {
            Write::Turn(game, turn) => Some((*game, turn.clone())),
            _ => None,
        })
        .collect()
}

/// Commits a batch of turns on the clock through the writer's own SQLite connection: the turns
/// to the log, and as [`commit_in`] does after every batch, the games now due to `moves` and
/// the log's start that is all in `moves` away.
fn commit_clock_turns(
    store: &Store,
    direct: &mut DirectTurns,
    mut turns: Vec<(Uuid, MoveRecord)>,
    unfolded: &mut Unfolded,
) -> Result<Vec<Written>, StoreError> {
    let count = turns.len();
    stamp(&mut turns);
    let tx = direct.begin()?;
    let first = DirectTurns::append_to_log(store, &tx, &turns)?;
    for (row, (game, turn)) in (first..).zip(turns) {
        unfolded.logged(game, row, turn);
    }
    let due = unfolded.due();
    DirectTurns::insert_moves(store, &tx, &due)?;
    let clear = unfolded.clearable();
    if let Some(below) = clear {
        DirectTurns::clear_log_below(&tx, below)?;
    }
    tx.commit().map_err(crate::DirectError::from)?;
    if let Some(below) = clear {
        unfolded.cleared(below);
    }
    metrics::counter!("jungle_db_folded_turns_total").increment(due.len() as u64);
    Ok((0..count).map(|_| Written::Done).collect())
}

/// Stamps turns not yet stamped with the time of this commit, once: the turns remembered go
/// into `moves` later, and must keep this time, not take that one's.
fn stamp(turns: &mut [(Uuid, MoveRecord)]) {
    let now = crate::now_ms();
    for (_, turn) in turns {
        if turn.played_at == 0 {
            turn.played_at = now;
        }
    }
}

/// The batch's rows when it is nothing but turns that go straight to `moves` (PostgreSQL's
/// turns, and correspondence turns) and fit one statement: the common batch on PostgreSQL.
fn turns_alone(store: &Store, writes: &[&Write]) -> Option<Vec<(Uuid, MoveRecord)>> {
    if writes.len() > TURNS_PER_STATEMENT {
        return None;
    }
    writes
        .iter()
        .map(|write| match write {
            Write::Turn(game, turn) if !store.is_embedded() => Some((*game, turn.clone())),
            Write::CorrespondenceTurn(game, turn) => Some((*game, turn.clone())),
            _ => None,
        })
        .collect()
}

/// Every write of the batch, in `tx`, which the caller commits; and below which row the log
/// was cleared, to tell `unfolded` once that is committed.
async fn commit_in(
    store: &Store,
    tx: &mut sqlx::Transaction<'_, Any>,
    writes: &[&Write],
    unfolded: &mut Unfolded,
) -> Result<(Vec<Written>, Option<i64>), StoreError> {
    let mut results = Vec::with_capacity(writes.len());
    // Turns are gathered into multi-row inserts; the order of writes within one game is kept
    // because a game's start precedes its turns, and its end and takebacks follow them.
    let mut pending = Pending::default();
    for write in writes {
        match write {
            // PostgreSQL logs row changes, not pages: it gains nothing from the move log.
            Write::Turn(game, record) if store.is_embedded() => {
                pending.logged.push((*game, record.clone()));
                results.push(Written::Done);
            }
            Write::Turn(game, record) => {
                pending.stored.push((*game, record.clone()));
                results.push(Written::Done);
            }
            Write::CorrespondenceTurn(game, record) => {
                pending.stored.push((*game, record.clone()));
                results.push(Written::Done);
            }
            Write::OpenRoom(room) => {
                store.insert_waiting_room(tx, room).await?;
                results.push(Written::Done);
            }
            Write::CloseRoom(code) => {
                store.delete_waiting_room(tx, code).await?;
                results.push(Written::Done);
            }
            Write::StartGame(game) => {
                pending.flush(store, tx, unfolded).await?;
                store.insert_game(tx, game).await?;
                results.push(Written::Done);
            }
            Write::Finish(finish) => {
                pending.flush(store, tx, unfolded).await?;
                // Its turns leave the log for `moves` with the game's end, in one commit.
                match unfolded.ended(finish.game) {
                    EndFold::Held(turns) => {
                        let turns: Vec<_> = turns.into_iter().map(|t| (finish.game, t)).collect();
                        store.insert_moves(tx, &turns).await?;
                    }
                    // (PostgreSQL's log is always empty.)
                    EndFold::FromLog if store.is_embedded() => {
                        store.fold_game_from_log(tx, finish.game).await?
                    }
                    EndFold::FromLog => {}
                }
                results.push(Written::Finished(store.finish_game(tx, finish).await?));
            }
            Write::Chat(line) => {
                store.insert_chat_line(tx, line).await?;
                results.push(Written::Done);
            }
            Write::TurnClock { game, ply, clock } => {
                // The turn it changes may be in this very batch: it goes in first.
                pending.flush(store, tx, unfolded).await?;
                store.set_turn_clock(tx, *game, *ply, *clock).await?;
                results.push(Written::Done);
            }
            Write::TakeBack { game, kept, undone } => {
                // The turns it undoes may be in this very batch: they go in first.
                pending.flush(store, tx, unfolded).await?;
                store.take_back(tx, *game, *kept, undone).await?;
                unfolded.taken_back(*game, *kept);
                results.push(Written::Done);
            }
        }
    }
    pending.flush(store, tx, unfolded).await?;
    // In the same commit: the turns of games whose oldest logged turn is old enough move to
    // `moves`, a few games at a time, and the start of the log that is all in `moves` goes.
    let due = unfolded.due();
    store.insert_moves(tx, &due).await?;
    let clear = unfolded.clearable();
    if let Some(below) = clear {
        store.clear_log_below(tx, below).await?;
    }
    metrics::counter!("jungle_db_folded_turns_total").increment(due.len() as u64);
    Ok((results, clear))
}

/// A batch's turns not yet inserted.
#[derive(Default)]
struct Pending {
    /// Turns on the clock, for the move log.
    logged: Vec<(Uuid, MoveRecord)>,
    /// Correspondence turns, for `moves`.
    stored: Vec<(Uuid, MoveRecord)>,
}

impl Pending {
    async fn flush(
        &mut self,
        store: &Store,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        unfolded: &mut Unfolded,
    ) -> Result<(), StoreError> {
        if !self.logged.is_empty() {
            stamp(&mut self.logged);
            let first = store.append_to_log(tx, &self.logged).await?;
            for (row, (game, turn)) in (first..).zip(self.logged.drain(..)) {
                unfolded.logged(game, row, turn);
            }
        }
        if !self.stored.is_empty() {
            store.insert_moves(tx, &self.stored).await?;
            self.stored.clear();
        }
        Ok(())
    }
}
