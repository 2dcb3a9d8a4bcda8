//! The engine pool: a fixed set of search tables, one per search thread, lent in turn to the
//! games that need a move, so engine memory follows the number of threads and not the number
//! of games against the computer.
//!
//! Who goes next is decided here, not by arrival order:
//! - a live game's move always goes before analysis work;
//! - among waiting players, the one with the fewest searches running goes first (then the one
//!   who has waited longest), so one player's many games can delay another's move by at most
//!   the search already running;
//! - a search whose game has ended (its [`SearchTicket`] dropped) leaves the queue unrun, and
//!   is stopped if it is running;
//! - when searches queue up, each gets a share of its time budget (see [`shared_budget`]): under
//!   a flood the computer plays faster and a little weaker, and nobody's move waits for a
//!   minute of other people's searches.
//!
//! Each search runs on tokio's blocking pool, so the async runtime never waits on an engine.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jungle_engine::{Analysis, Persona, Searcher};
use jungle_rules::{Game, Move, Rules};
use tokio::sync::oneshot;
use uuid::Uuid;

/// Large enough for full strength (level 8 asks for 32 MiB).
const TABLE_MEGABYTES: usize = 32;
/// The least a search is cut to under load: a few plies at full strength.
const LEAST_BUDGET: Duration = Duration::from_millis(50);

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// A game in play waits for the computer's move.
    Live,
    /// Someone asked for an analysis; it waits behind every live move. The search runs at full
    /// strength whatever the persona, and its answer carries the [`Analysis`].
    Analysis,
    /// Work nobody waits for (the fair-play assessment of a finished game): every legal move
    /// scored at this fixed depth, not by time, so a busy machine judges as deeply as an idle
    /// one. It waits behind every live move and analysis, and never takes the last free table.
    Background { depth: u32 },
}

/// One search to run.
pub struct SearchRequest {
    /// Whose turn waits on it (the human in a game against the computer), for fairness.
    pub owner: Uuid,
    pub priority: Priority,
    pub persona: Persona,
    pub game: Game,
    pub budget: Duration,
}

/// The outcome of a search: the move and the persona, whose random state has moved on.
pub struct SearchAnswer {
    pub persona: Persona,
    pub choice: Option<Move>,
    /// Searches the pool had started before this one: the order it was served in.
    pub turn: u64,
    /// For an analysis: the score, line and depth (`None` when the game is over).
    pub analysis: Option<Analysis>,
    /// For background work: every legal move with its score for the side to move.
    pub scores: Vec<(Move, i32)>,
}

/// Held by whoever wants the answer; dropping it (or calling [`cancel`](Self::cancel)) drops
/// the search from the queue, or stops it early if it is running.
#[derive(Debug)]
pub struct SearchTicket {
    cancelled: Arc<AtomicBool>,
}

impl SearchTicket {
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// The flag this ticket raises, for a search submitted later ([`EnginePool::submit_with`]).
    pub fn flag(&self) -> CancelFlag {
        CancelFlag(self.cancelled.clone())
    }
}

impl Default for SearchTicket {
    /// A ticket for a search not submitted yet.
    fn default() -> SearchTicket {
        SearchTicket {
            cancelled: Arc::default(),
        }
    }
}

/// The flag of a [`SearchTicket`] held elsewhere: raised when the ticket is dropped.
#[derive(Clone, Debug)]
pub struct CancelFlag(Arc<AtomicBool>);

impl Drop for SearchTicket {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[derive(Clone)]
pub struct EnginePool {
    shared: Arc<Mutex<State>>,
}

struct State {
    /// Tables in all: idle, lent, or not made yet.
    tables: usize,
    /// Tables not made yet: each is made on first need, so a server nobody plays the computer
    /// on spends no memory on them.
    unmade: usize,
    /// Searches started so far.
    started: u64,
    idle: Vec<Searcher>,
    live: FairQueue,
    analysis: FairQueue,
    background: FairQueue,
    /// Background searches running: at most [`State::background_cap`].
    background_running: usize,
    /// Searches running, by owner (owners with none are absent).
    running: HashMap<Uuid, usize>,
    /// The stop flags of tables lent out for background work ([`EnginePool::lend_background`]),
    /// by lease: raised when a live move or an analysis has to wait, so it waits for no more
    /// than the lent search takes to notice.
    lent: HashMap<u64, Arc<AtomicBool>>,
    /// The next lease's number.
    leases: u64,
}

/// A search waiting for a table.
struct Waiter {
    cancelled: Arc<AtomicBool>,
    grant: oneshot::Sender<Searcher>,
}

impl Waiter {
    fn abandoned(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed) || self.grant.is_closed()
    }
}

/// Waiting searches by owner; owners in the order they started waiting.
#[derive(Default)]
struct FairQueue {
    owners: VecDeque<Uuid>,
    waiting: HashMap<Uuid, VecDeque<Waiter>>,
}

impl FairQueue {
    fn push(&mut self, owner: Uuid, waiter: Waiter) {
        let queue = self.waiting.entry(owner).or_default();
        if queue.is_empty() {
            self.owners.push_back(owner);
        }
        queue.push_back(waiter);
    }

    /// The next search to run: from the waiting owner with the fewest searches running, the
    /// longest-waiting first among equals. Abandoned searches met on the way are dropped.
    fn pop(&mut self, running: &HashMap<Uuid, usize>) -> Option<(Uuid, Waiter)> {
        loop {
            let position = (0..self.owners.len())
                .min_by_key(|&i| running.get(&self.owners[i]).copied().unwrap_or(0))?;
            let owner = self.owners.remove(position).expect("in range");
            let queue = self
                .waiting
                .get_mut(&owner)
                .expect("every listed owner waits");
            let waiter = queue
                .pop_front()
                .expect("listed owners have a search waiting");
            if queue.is_empty() {
                self.waiting.remove(&owner);
            } else {
                // Back of the line: the others get their turn first.
                self.owners.push_back(owner);
            }
            if !waiter.abandoned() {
                return Some((owner, waiter));
            }
        }
    }

    fn len(&self) -> usize {
        self.waiting.values().map(VecDeque::len).sum()
    }
}

impl EnginePool {
    /// A pool of `threads` search tables (at least one).
    pub fn new(threads: usize) -> EnginePool {
        let tables = threads.max(1);
        EnginePool {
            shared: Arc::new(Mutex::new(State {
                tables,
                unmade: tables,
                started: 0,
                idle: Vec::with_capacity(tables),
                live: FairQueue::default(),
                analysis: FairQueue::default(),
                background: FairQueue::default(),
                background_running: 0,
                running: HashMap::new(),
                lent: HashMap::new(),
                leases: 0,
            })),
        }
    }

    /// Queues a search. The answer arrives on the returned receiver, which closes without one
    /// if the ticket is dropped first.
    pub fn submit(
        &self,
        request: SearchRequest,
    ) -> (SearchTicket, oneshot::Receiver<SearchAnswer>) {
        let ticket = SearchTicket::default();
        let answer = self.submit_with(request, ticket.flag());
        (ticket, answer)
    }

    /// Queues a search that the ticket owning `flag` cancels.
    pub fn submit_with(
        &self,
        request: SearchRequest,
        flag: CancelFlag,
    ) -> oneshot::Receiver<SearchAnswer> {
        let cancelled = flag.0;
        let (answer_tx, answer_rx) = oneshot::channel();
        let pool = self.clone();
        tokio::spawn(async move {
            let queued = Instant::now();
            let Some(searcher) = pool
                .wait_for_table(request.owner, request.priority, &cancelled)
                .await
            else {
                return;
            };
            metrics::histogram!("jungle_engine_wait_seconds")
                .record(queued.elapsed().as_secs_f64());
            let mut request = request;
            let turn = {
                let mut state = pool.shared.lock().expect("engine pool lock");
                request.budget = shared_budget(request.budget, state.tables, state.waiting());
                state.started += 1;
                state.started - 1
            };
            let owner = request.owner;
            let background = matches!(request.priority, Priority::Background { .. });
            let blocking_pool = pool.clone();
            let search = tokio::task::spawn_blocking(move || {
                let mut searcher = searcher.unwrap_or_else(new_table);
                let answer = search(&mut searcher, request, &cancelled, turn);
                // Handed on from this thread, so a table is never lost whatever the caller does.
                blocking_pool.release(searcher, owner, background);
                answer
            });
            match search.await {
                Ok(Some(answer)) => {
                    let _ = answer_tx.send(answer);
                }
                Ok(None) => {}
                // The engine panicked with the table in hand: a fresh one takes its place, so
                // the pool never shrinks. The game gets no answer (its room logs nothing more).
                Err(e) => {
                    tracing::error!(error = %e, "an engine search panicked");
                    pool.release(new_table(), owner, background);
                }
            }
        });
        answer_rx
    }

    /// A table for `request`: at once if one is free (or may be made) and nobody waits,
    /// otherwise in turn. `Some(None)`: make a table (on the search's own thread). `None` if
    /// the search was cancelled while it waited.
    async fn wait_for_table(
        &self,
        owner: Uuid,
        priority: Priority,
        cancelled: &Arc<AtomicBool>,
    ) -> Option<Option<Searcher>> {
        let (grant_tx, grant_rx) = oneshot::channel();
        let background = matches!(priority, Priority::Background { .. });
        {
            let mut state = self.shared.lock().expect("engine pool lock");
            let may_start = !background || state.background_running < state.background_cap();
            // A free table means nobody waits: a release hands its table on before resting it.
            if may_start && !state.idle.is_empty() {
                let searcher = state.idle.pop();
                state.started_one(owner, background);
                return Some(searcher);
            }
            if may_start && state.unmade > 0 {
                state.unmade -= 1;
                state.started_one(owner, background);
                return Some(None);
            }
            let waiter = Waiter {
                cancelled: cancelled.clone(),
                grant: grant_tx,
            };
            match priority {
                Priority::Live => state.live.push(owner, waiter),
                Priority::Analysis => state.analysis.push(owner, waiter),
                Priority::Background { .. } => state.background.push(owner, waiter),
            }
            if !background {
                // Someone waits: lent background work gives its table back early.
                for stop in state.lent.values() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            metrics::gauge!("jungle_engine_queue").set(state.waiting() as f64);
        }
        grant_rx.await.ok().map(Some)
    }

    /// Lends a table for background work that the caller runs on a thread of its own (the
    /// puzzle miner, whose work is many searches with its own logic between them). It waits
    /// like a background search, behind every live move and analysis, never on the last free
    /// table; and while it is lent, a live move or an analysis that has to wait raises the
    /// lease's [`stop flag`](TableLease::stop_flag), which the borrower's search obeys.
    pub async fn lend_background(&self, owner: Uuid) -> TableLease {
        let never = Arc::new(AtomicBool::new(false));
        let searcher = self
            .wait_for_table(owner, Priority::Background { depth: 0 }, &never)
            .await
            .expect("a lease is never cancelled while it waits");
        let stop = Arc::new(AtomicBool::new(false));
        let id = {
            let mut state = self.shared.lock().expect("engine pool lock");
            state.leases += 1;
            let id = state.leases;
            // Someone may have queued while this one waited for its grant.
            if state.waiting() > 0 {
                stop.store(true, Ordering::Relaxed);
            }
            state.lent.insert(id, stop.clone());
            id
        };
        TableLease {
            pool: self.clone(),
            id,
            owner,
            searcher,
            stop,
        }
    }

    /// A search by `owner` is done with `searcher`: it goes to the next in line, or rests.
    /// The next is chosen while `owner`'s search still counts as running, so an owner whose
    /// search just ended goes behind one who has had none.
    fn release(&self, mut searcher: Searcher, owner: Uuid, background: bool) {
        let mut state = self.shared.lock().expect("engine pool lock");
        let state = &mut *state;
        if background {
            state.background_running -= 1;
        }
        loop {
            let mut next_is_background = false;
            let next = state
                .live
                .pop(&state.running)
                .or_else(|| state.analysis.pop(&state.running))
                .or_else(|| {
                    (state.background_running < state.background_cap())
                        .then(|| state.background.pop(&state.running))
                        .flatten()
                        .inspect(|_| next_is_background = true)
                });
            let Some((next, waiter)) = next else {
                state.idle.push(searcher);
                break;
            };
            match waiter.grant.send(searcher) {
                Ok(()) => {
                    state.started_one(next, next_is_background);
                    break;
                }
                // It stopped waiting in the meantime: the next one.
                Err(back) => searcher = back,
            }
        }
        if let Some(count) = state.running.get_mut(&owner) {
            *count -= 1;
            if *count == 0 {
                state.running.remove(&owner);
            }
        }
        metrics::gauge!("jungle_engine_queue").set(state.waiting() as f64);
    }
}

/// A table lent for background work ([`EnginePool::lend_background`]); it goes back to the
/// pool when the lease is dropped.
pub struct TableLease {
    pool: EnginePool,
    id: u64,
    owner: Uuid,
    /// `None` until first used: a table not made yet is made on the borrower's thread.
    searcher: Option<Searcher>,
    stop: Arc<AtomicBool>,
}

impl TableLease {
    /// The table, with the lease's stop flag set on it.
    pub fn searcher(&mut self) -> &mut Searcher {
        let stop = self.stop.clone();
        let searcher = self.searcher.get_or_insert_with(new_table);
        searcher.set_stop_flag(Some(stop));
        searcher
    }

    /// Raised when a live move or an analysis waits for a table: the borrower should stop
    /// and give the table back.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }
}

impl Drop for TableLease {
    fn drop(&mut self) {
        let mut searcher = self.searcher.take().unwrap_or_else(new_table);
        searcher.set_stop_flag(None);
        self.pool
            .shared
            .lock()
            .expect("engine pool lock")
            .lent
            .remove(&self.id);
        self.pool.release(searcher, self.owner, true);
    }
}

impl State {
    /// Searches waiting that someone waits for (background work is not counted: it never
    /// shortens anyone's budget).
    fn waiting(&self) -> usize {
        self.live.len() + self.analysis.len()
    }

    /// Background work leaves one table free for live moves (when there are two or more).
    fn background_cap(&self) -> usize {
        self.tables.saturating_sub(1).max(1)
    }

    fn started_one(&mut self, owner: Uuid, background: bool) {
        *self.running.entry(owner).or_default() += 1;
        if background {
            self.background_running += 1;
        }
    }
}

/// An analysis's score as the protocol carries it (the frames `analysis` and `game_analysis`).
pub fn wire_score(score: jungle_engine::Score) -> jungle_protocol::EngineScore {
    match score {
        jungle_engine::Score::Cp(n) => jungle_protocol::EngineScore::Cp(n),
        jungle_engine::Score::DenIn(n) => jungle_protocol::EngineScore::DenIn(n),
    }
}

/// A table of the size full strength needs (the rules are set by each search).
fn new_table() -> Searcher {
    Searcher::new(Rules::INTERNATIONAL, TABLE_MEGABYTES)
}

/// The time a search gets when `waiting` others queue for `tables` tables: its budget shrunk
/// in proportion, so that the queue drains in about the time one search would take, but
/// never below [`LEAST_BUDGET`] (nor above the budget asked for).
fn shared_budget(budget: Duration, tables: usize, waiting: usize) -> Duration {
    let tables = tables.max(1) as u32;
    let share = budget * tables / (tables + waiting as u32);
    share.max(LEAST_BUDGET).min(budget)
}

/// Runs one search on a blocking thread. `None` if it was cancelled.
fn search(
    searcher: &mut Searcher,
    request: SearchRequest,
    cancelled: &Arc<AtomicBool>,
    turn: u64,
) -> Option<SearchAnswer> {
    if cancelled.load(Ordering::Relaxed) {
        return None;
    }
    let SearchRequest {
        mut persona,
        game,
        budget,
        priority,
        ..
    } = request;
    let started = Instant::now();
    searcher.set_stop_flag(Some(cancelled.clone()));
    let mut scores = Vec::new();
    let (choice, analysis) = match priority {
        Priority::Live => (persona.think(searcher, &game, budget, |_| {}), None),
        Priority::Analysis => {
            let analysis = jungle_engine::analyse(searcher, &game, budget);
            (analysis.as_ref().map(|a| a.best), analysis)
        }
        Priority::Background { depth } => {
            searcher.set_rules(*game.rules());
            scores = searcher.score_root_moves(&game, depth);
            let best = scores
                .iter()
                .max_by_key(|(_, score)| *score)
                .map(|(m, _)| *m);
            (best, None)
        }
    };
    searcher.set_stop_flag(None);
    metrics::histogram!("jungle_bot_think_seconds").record(started.elapsed().as_secs_f64());
    (!cancelled.load(Ordering::Relaxed)).then_some(SearchAnswer {
        persona,
        choice,
        turn,
        analysis,
        scores,
    })
}

#[cfg(test)]
mod tests;
