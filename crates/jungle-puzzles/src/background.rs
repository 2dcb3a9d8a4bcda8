//! Mining on a running server (issue 27): every finished public game is looked at once for a
//! puzzle, in the background, never at a game's expense.
//!
//! - The miner runs on a thread of its own at the lowest CPU priority, and only while the rest
//!   of the server is quiet (it uses less than [`BUSY`] of the machine): a search's memory
//!   traffic slows the server even from the lowest priority, so a busy server is not mined.
//! - Each of its searches runs on a table the engine pool lends it like background work:
//!   behind every live move and analysis, never on the last free table; and a live move or an
//!   analysis that has to wait stops the lent search at once. The game being mined is then
//!   given up and mined again later.
//! - Among several nodes, each game is claimed in the store by the first to take it.
//! - A game is mined once: what came of it is stored with the claim, and the claims are
//!   forgotten once their games are older than the window looked through.
//! - A puzzle found is dealt only if its ruleset keeps its balance with it (issue 53: no theme
//!   but `material` on more than a quarter, den entries on at least a fifth); otherwise it is
//!   held back, readable by id, and dealt once enough other puzzles have come.

use std::sync::atomic::Ordering;
use std::time::Duration;

use jungle_engine::{Info, Limits};
use jungle_rules::{Game, Move};
use tokio::runtime::Handle;
use tokio::sync::watch;
use uuid::Uuid;

use super::balance::Shares;
use super::miner::{Budget, Miner, Rejection, Tables};
use jungle_rooms::engine_pool::EnginePool;
use jungle_store::{GameRecord, Store, StoreError};

/// How often finished games are looked for when none were waiting.
const LOOK_EVERY: Duration = Duration::from_secs(30);
/// Games ended longer ago than this are not mined (a site that finishes games faster than
/// it can mine them skips the oldest).
const WINDOW_MS: i64 = 7 * 24 * 3_600_000;
/// A game shorter than this has no middle game to find a blunder in.
const MIN_PLIES: i64 = 12;
/// Games taken from the store at a time.
const BATCH: i64 = 20;
/// After an interruption (a game wanted the table), the miner waits this long.
const BACK_OFF: Duration = Duration::from_secs(5);
/// The share of the machine's CPU the rest of the server may use for the miner to work.
const BUSY: f64 = 0.25;
/// How often the miner looks again at how busy the server is.
const QUIET_CHECK: Duration = Duration::from_secs(1);
/// How often a resting miner looks whether the server is stopping.
const STOP_CHECK: Duration = Duration::from_millis(100);

/// Starts the miner on its own thread; it stops when `shutdown` turns true.
pub fn start(engines: EnginePool, store: Store, shutdown: watch::Receiver<bool>) {
    let handle = Handle::current();
    let spawned = std::thread::Builder::new()
        .name("puzzle-miner".into())
        .spawn(move || {
            lowest_priority();
            run(&handle, engines, store, shutdown);
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "the puzzle miner could not start");
    }
}

/// This thread yields the CPU to everything else on the machine.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        // SCHED_IDLE: run only when no other thread wants the CPU. On Linux a policy belongs
        // to a thread; pid 0 is the calling one.
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: `param` outlives the call, which only reads it; a failure is only logged.
        let done = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) };
        if done != 0 {
            tracing::warn!("the puzzle miner could not lower its priority");
        }
    }
}

/// CPU time used so far by the whole process and by the calling thread.
fn cpu_times() -> (Duration, Duration) {
    let used = |who| {
        // SAFETY: getrusage writes into the zeroed struct we own.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(who, &mut usage) };
        let time = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
        };
        time(usage.ru_utime) + time(usage.ru_stime)
    };
    (used(libc::RUSAGE_SELF), used(libc::RUSAGE_THREAD))
}

/// Whether the rest of the server (every thread but the miner's) is busy, measured over the
/// last [`QUIET_CHECK`] or more.
struct Quiet {
    since: std::time::Instant,
    others: Duration,
    busy: bool,
}

impl Quiet {
    fn new() -> Quiet {
        let (process, own) = cpu_times();
        Quiet {
            since: std::time::Instant::now(),
            others: process.saturating_sub(own),
            busy: false,
        }
    }

    fn busy(&mut self) -> bool {
        let elapsed = self.since.elapsed();
        if elapsed >= QUIET_CHECK {
            let (process, own) = cpu_times();
            let others = process.saturating_sub(own);
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
            let share =
                (others - self.others.min(others)).as_secs_f64() / (elapsed.as_secs_f64() * cores);
            self.busy = share > BUSY;
            self.since = std::time::Instant::now();
            self.others = others;
        }
        self.busy
    }

    /// Waits until the rest of the server is quiet.
    fn wait(&mut self) {
        while self.busy() {
            metrics::counter!("jungle_puzzle_miner_paused_seconds_total")
                .increment(QUIET_CHECK.as_secs());
            std::thread::sleep(QUIET_CHECK);
        }
    }
}

fn run(handle: &Handle, engines: EnginePool, store: Store, shutdown: watch::Receiver<bool>) {
    let owner = Uuid::new_v4();
    let mut miner = Miner::with_tables(
        PoolTables {
            engines,
            handle: handle.clone(),
            owner,
            quiet: Quiet::new(),
        },
        Budget::default(),
    );
    loop {
        if *shutdown.borrow() {
            return;
        }
        let pause = match mine_waiting(handle, &store, &mut miner, &shutdown) {
            Ok(Pass::Done) => LOOK_EVERY,
            Ok(Pass::Interrupted) => BACK_OFF,
            Err(Halt::Stopped) => return,
            Err(Halt::Store(e)) => {
                tracing::warn!(error = %e, "mining puzzles");
                LOOK_EVERY
            }
        };
        if rest(pause, &shutdown) {
            return;
        }
    }
}

/// Sleeps on this thread for `pause`, or less if the server stops meanwhile; true if it did.
/// The runtime's timer is not used: a server dropped without a shutdown (tests) takes its
/// runtime with it, and a timer asked for then panics on this thread.
fn rest(pause: Duration, shutdown: &watch::Receiver<bool>) -> bool {
    let until = std::time::Instant::now() + pause;
    loop {
        // `has_changed` fails once the sender, held by the server, is gone.
        if *shutdown.borrow() || shutdown.has_changed().is_err() {
            return true;
        }
        let left = until.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return false;
        }
        std::thread::sleep(left.min(STOP_CHECK));
    }
}

enum Pass {
    /// Every waiting game was mined (or none waited).
    Done,
    /// A game wanted the engine: the rest waits.
    Interrupted,
}

/// Why a pass stopped short.
#[derive(Debug, thiserror::Error)]
enum Halt {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The server's runtime is gone (a server dropped without a shutdown, in tests).
    #[error("the server stopped")]
    Stopped,
}

/// Runs `work` on the server's runtime and waits for it on this thread. Not `block_on` here:
/// a runtime shutting down under it panics this thread when its timer or sockets are used;
/// a task of the runtime is only dropped, and the wait ends.
fn on_runtime<T: Send + 'static>(
    handle: &Handle,
    work: impl std::future::Future<Output = T> + Send + 'static,
) -> Result<T, Halt> {
    let (done, answer) = std::sync::mpsc::sync_channel(1);
    handle.spawn(async move {
        let _ = done.send(work.await);
    });
    answer.recv().map_err(|_| Halt::Stopped)
}

/// A store request, waited for on this thread.
fn stored<T: Send + 'static>(
    handle: &Handle,
    work: impl std::future::Future<Output = Result<T, StoreError>> + Send + 'static,
) -> Result<T, Halt> {
    Ok(on_runtime(handle, work)??)
}

/// Mines the games waiting, a batch at a time, on the miner's thread: the store is waited for
/// and each search blocks this thread, never a runtime worker.
fn mine_waiting(
    handle: &Handle,
    store: &Store,
    miner: &mut Miner<PoolTables>,
    shutdown: &watch::Receiver<bool>,
) -> Result<Pass, Halt> {
    let now = jungle_store::now_ms();
    let s = store.clone();
    stored(handle, async move {
        s.forget_mined_before(now - 2 * WINDOW_MS).await
    })?;
    loop {
        let s = store.clone();
        let games = stored(handle, async move {
            s.games_to_mine(now - WINDOW_MS, MIN_PLIES, BATCH).await
        })?;
        if games.is_empty() {
            return Ok(Pass::Done);
        }
        for game in games {
            if *shutdown.borrow() {
                return Ok(Pass::Done);
            }
            let s = store.clone();
            if !stored(handle, async move { s.claim_for_mining(game).await })? {
                continue;
            }
            let s = store.clone();
            let Some(record) = stored(handle, async move { s.game(game).await })? else {
                continue;
            };
            let outcome = match mine_game(miner, &record) {
                Err(Rejection::Interrupted) => {
                    let s = store.clone();
                    stored(handle, async move { s.unclaim_for_mining(game).await })?;
                    count("interrupted");
                    return Ok(Pass::Interrupted);
                }
                Ok(puzzle) => {
                    let s = store.clone();
                    let dealt = stored(handle, async move { deal_in_balance(&s, puzzle).await })?;
                    tracing::info!(%game, dealt, "a puzzle mined from a finished game");
                    if dealt {
                        "puzzle"
                    } else {
                        "puzzle held back"
                    }
                }
                Err(why) => why.name(),
            };
            let s = store.clone();
            stored(handle, async move { s.mined(game, outcome).await })?;
            count(outcome);
        }
    }
}

/// The held puzzles looked at again each time one is dealt.
const RELEASE_BATCH: i64 = 50;

/// Deals `puzzle` if its ruleset keeps its balance with it (see [`crate::balance`]), else
/// holds it back; a puzzle dealt may make room for held ones, which are dealt then, the oldest
/// first. Whether `puzzle` was dealt.
async fn deal_in_balance(store: &Store, puzzle: super::Puzzle) -> Result<bool, StoreError> {
    let rules = puzzle.rules;
    let counts = store.puzzle_theme_counts(rules).await?;
    let mut shares = Shares::from_counts(&counts);
    if !shares.admits(&puzzle.themes) {
        store.add_held_puzzle(&puzzle).await?;
        return Ok(false);
    }
    store.add_puzzles(std::slice::from_ref(&puzzle)).await?;
    shares.add(&puzzle.themes);
    for held in store.held_puzzles(rules, RELEASE_BATCH).await? {
        let themes = &held.puzzle.themes;
        if shares.admits(themes) && store.release_puzzle(&held.id).await? {
            shares.add(themes);
        }
    }
    Ok(true)
}

fn count(outcome: &'static str) {
    metrics::counter!("jungle_puzzles_mined_total", "outcome" => outcome).increment(1);
}

/// The first puzzle in a stored game, or why there is none.
pub fn mine_game<T: Tables>(
    miner: &mut Miner<T>,
    record: &GameRecord,
) -> Result<super::Puzzle, Rejection> {
    let Ok(game) = jungle_game::replay::stored_game(record) else {
        return Err(Rejection::DoesNotReplay);
    };
    let turns: Vec<_> = game.turns().collect();
    miner.mine(record.rules, *game.start(), &turns, Some(record.id))
}

/// The engine pool's tables, lent one search at a time.
struct PoolTables {
    engines: EnginePool,
    handle: Handle,
    owner: Uuid,
    quiet: Quiet,
}

impl Tables for PoolTables {
    fn search_among(
        &mut self,
        game: &Game,
        moves: &[Move],
        limits: Limits,
    ) -> Option<(Option<Move>, Option<Info>)> {
        self.quiet.wait();
        let (engines, owner) = (self.engines.clone(), self.owner);
        // The server stopping: no search.
        let mut lease = on_runtime(
            &self.handle,
            async move { engines.lend_background(owner).await },
        )
        .ok()?;
        let searcher = lease.searcher();
        searcher.set_rules(*game.rules());
        let found = searcher.search_among(game, moves, limits, |_| {});
        (!lease.stop_flag().load(Ordering::Relaxed)).then_some(found)
    }
}

#[cfg(test)]
mod tests {
    use jungle_protocol::{ClockSpec, GameStatus, Reason};
    use jungle_rules::{Position, Ruleset, Side, Turn};

    use super::*;
    use crate::{starter, Puzzle};
    use jungle_store::{FinishRecord, MoveRecord, NewGame, StoredClock};

    /// Two quiet moves each, there and back: from `start`, four plies that lead to it again.
    fn there_and_back(rules: Ruleset, start: Position) -> Option<[Move; 4]> {
        let game = Game::new(rules.rules(), start);
        let quiet = |game: &Game| -> Vec<Move> {
            game.legal_moves()
                .iter()
                .copied()
                .filter(|m| game.position().piece_at(m.to).is_none())
                .collect()
        };
        for first in quiet(&game) {
            let mut one = game.clone();
            if one.play(Turn::Move(first)).is_err() {
                continue;
            }
            for second in quiet(&one) {
                let back = |m: Move| Move {
                    from: m.to,
                    to: m.from,
                };
                let mut replay = one.clone();
                let line = [first, second, back(first), back(second)];
                let played = line[1..]
                    .iter()
                    .all(|&m| replay.play(Turn::Move(m)).is_ok() && replay.outcome().is_none());
                // The same board and side to move (the move counters have gone on).
                if played && replay.position().hash() == start.hash() {
                    return Some(line);
                }
            }
        }
        None
    }

    /// A finished game in `store` that reaches a shipped puzzle's position after three times
    /// four quiet plies (long enough to be mined) and goes on with its blunder and solution.
    async fn stored_game_with(
        store: &Store,
        puzzle: &Puzzle,
        (red, blue): (Uuid, Uuid),
    ) -> Option<Uuid> {
        let start: Position = puzzle.position.parse().ok()?;
        let shuffle = there_and_back(puzzle.rules, start)?;
        let mut texts: Vec<String> = shuffle
            .iter()
            .cycle()
            .take(12)
            .map(Move::to_string)
            .collect();
        texts.push(puzzle.blunder.clone());
        texts.extend(puzzle.solution.iter().cloned());
        // The history rules may forbid going back and forth so often.
        jungle_game::replay::play_texts(puzzle.rules, start, texts.iter().map(String::as_str))
            .ok()?;
        let id = Uuid::new_v4();
        let mut tx = store.pool().begin().await.ok()?;
        let game = NewGame {
            id,
            ruleset: puzzle.rules,
            start_fen: puzzle.position.clone(),
            ..NewGame::casual(red, blue, ClockSpec::CLASSIC_PER_MOVE)
        };
        store.insert_game(&mut tx, &game).await.ok()?;
        let moves: Vec<(Uuid, MoveRecord)> = texts
            .iter()
            .enumerate()
            .map(|(ply, mv)| {
                let record = MoveRecord {
                    ply: ply as i64,
                    mv: mv.clone(),
                    clock: StoredClock::default(),
                    blurred: false,
                    played_at: 0,
                };
                (id, record)
            })
            .collect();
        store.insert_moves(&mut tx, &moves).await.ok()?;
        let finish = FinishRecord {
            game: id,
            status: GameStatus::Finished,
            winner: Some(Side::Red),
            reason: Reason::Resign,
            plies: texts.len() as i64,
            apply_rating: false,
        };
        store.finish_game(&mut tx, &finish).await.ok()?;
        tx.commit().await.ok()?;
        Some(id)
    }

    /// A puzzle that would tip its ruleset's balance is held back (readable by id, not
    /// dealt), and dealt once enough other puzzles have come.
    #[tokio::test]
    async fn a_puzzle_that_would_tip_the_balance_is_held_until_others_make_room() {
        use jungle_game::theme::Theme::{self, *};
        let (store, _dir) = Store::temporary(None).await;
        // Only the shape is read here: themes and an id of their own.
        let puzzle = |n: u32, themes: &[Theme]| Puzzle {
            rules: Ruleset::Classic,
            position: format!("7/7/7/7/7/7/7/3l3/E6 r 0 {n}"),
            blunder: "a1a2".into(),
            solution: vec!["d2c2".into()],
            themes: themes.to_vec(),
            source: None,
            judged: None,
        };
        let jumps = |store: Store| async move {
            let counts = store
                .puzzle_theme_counts(Ruleset::Classic)
                .await
                .expect("counts");
            Shares::from_counts(&counts).per_theme[&RiverJump]
        };
        // 30 river jumps of 50: past their quarter already.
        let mut set: Vec<Puzzle> = (0..30).map(|n| puzzle(n, &[Material, RiverJump])).collect();
        set.extend((30..50).map(|n| puzzle(n, &[Den2])));
        store.add_puzzles(&set).await.expect("stored");
        let jump = puzzle(100, &[Material, RiverJump]);
        assert!(!deal_in_balance(&store, jump.clone()).await.expect("held"));
        let id = jungle_store::puzzle_id(&jump);
        assert!(
            store.puzzle(&id).await.expect("read").is_some(),
            "readable by id"
        );
        assert_eq!(jumps(store.clone()).await, 30, "not dealt");
        // Other motifs come; once the jumps are under their quarter again, it is dealt.
        for n in 200..280 {
            let themes = [[Den1], [Den3], [DenLong], [Material]][n as usize % 4];
            assert!(deal_in_balance(&store, puzzle(n, &themes))
                .await
                .expect("dealt"));
        }
        assert_eq!(jumps(store.clone()).await, 31, "the held one is dealt now");
        assert!(store
            .held_puzzles(Ruleset::Classic, 10)
            .await
            .expect("read")
            .is_empty());
    }

    /// A finished game with a blunder in it becomes a puzzle on a running server: mined on the
    /// engine pool's tables by the miner's thread, stored with its source game, once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_finished_game_with_a_blunder_is_mined_into_a_puzzle_once() {
        let (store, _dir) = Store::temporary(None).await;
        let shipped = starter::puzzles().expect("the starter set reads");
        let mut players = Vec::new();
        for (name, n) in [("red", 1), ("blue", 2)] {
            let player = store.create_player(name, &format!("{n:064}")).await;
            players.push(player.expect("a player").id);
        }
        let mut source = None;
        for puzzle in shipped.iter().filter(|p| p.rules == Ruleset::Classic) {
            if let Some(id) = stored_game_with(&store, puzzle, (players[0], players[1])).await {
                source = Some((id, puzzle.clone()));
                break;
            }
        }
        let (game, puzzle) = source.expect("a shipped puzzle can be reached by a game");
        let engines = EnginePool::new(2);
        let (stop, shutdown) = watch::channel(false);
        start(engines, store.clone(), shutdown);
        let mut found = None;
        // Two minutes at most: the miner waits while other tests keep the process busy.
        for _ in 0..1200 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let mined: Option<String> =
                sqlx::query_scalar("SELECT outcome FROM puzzle_mined_games WHERE game_id = $1")
                    .bind(game.to_string())
                    .fetch_optional(store.pool())
                    .await
                    .expect("read");
            if mined.as_deref().is_some_and(|o| o != "mining") {
                found = mined;
                break;
            }
        }
        let _ = stop.send(true);
        assert_eq!(
            found.as_deref(),
            Some("puzzle"),
            "the game was mined once, into a puzzle"
        );
        let id: String = sqlx::query_scalar("SELECT id FROM puzzles WHERE source_game = $1")
            .bind(game.to_string())
            .fetch_one(store.pool())
            .await
            .expect("the puzzle is stored with its source game");
        let stored = store.puzzle(&id).await.expect("read").expect("stored");
        // Its blunder is a move of the game, played in its position (the game goes back and
        // forth before the shipped puzzle's blunder: the miner may find one of those moves
        // already throws the game away).
        let record = store.game(game).await.expect("read").expect("the game");
        let replayed = jungle_game::replay::stored_game(&record).expect("the game replays");
        let board = |p: &Puzzle| p.position.parse::<Position>().expect("a position").hash();
        let mut positions = Game::new(puzzle.rules.rules(), *replayed.start());
        let mut played_there = false;
        for turn in replayed.turns() {
            played_there |= positions.position().hash() == board(&stored.puzzle)
                && turn == Turn::Move(stored.puzzle.blunder.parse().expect("a move"));
            positions.play(turn).expect("it replays");
        }
        assert!(played_there, "the puzzle's blunder was played in the game");
        assert!(stored.puzzle.check().is_ok(), "it holds under the rules");
        // Not mined again: the claim stays.
        assert!(store
            .games_to_mine(0, MIN_PLIES, 10)
            .await
            .expect("read")
            .is_empty());
        store.close().await;
    }
}
