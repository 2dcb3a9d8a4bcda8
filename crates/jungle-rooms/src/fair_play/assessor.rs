//! The assessor: after every rated game, in the background, each player's moves are compared
//! with our engine's (every legal move scored at a fixed depth, on the engine pool behind every
//! live move and analysis, never on its last free table), their move times and blurs read from
//! the stored moves, and the result stored once per game and player. A game or a record over
//! the threshold puts the player in the moderators' queue (`jungle-server admin queue`).
//!
//! Games reach it from the room that ends them; a scan every few minutes also picks up rated
//! games that ended without being assessed (the node stopped first), so none is missed and
//! none is judged twice (the store keeps the first).

use std::time::Duration;

use jungle_engine::{Level, Persona};
use jungle_protocol::GameStatus;
use jungle_rules::{Game, Position, Side, Turn};
use tokio::sync::{mpsc, watch};
use uuid::Uuid;

use crate::engine_pool::{EnginePool, Priority, SearchRequest};
use jungle_game::assessment::{self, JudgedMove, Record, Signals, RESEMBLES};
use jungle_store::{GameAssessment, GameRecord, Store, StoreError};

/// The depth every legal move is scored at (about 3 ms a position on one core).
pub const DEPTH: u32 = 4;
/// Games waiting to be assessed at most; beyond, the scan finds them later.
const QUEUE: usize = 10_000;
/// How often rated games left unassessed are looked for, and how far back.
const SCAN_EVERY: Duration = Duration::from_secs(300);
const SCAN_BACK_MS: i64 = 7 * 24 * 3_600_000;
/// A game is left to the node that ended it for this long before the scan takes it.
const SCAN_AFTER_MS: i64 = 120_000;

/// A handle to the assessor's queue. Cloning shares.
#[derive(Clone)]
pub struct Assessor {
    tx: mpsc::Sender<Uuid>,
}

impl Assessor {
    pub fn start(engines: EnginePool, store: Store, shutdown: watch::Receiver<bool>) -> Assessor {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(rx, engines, store.clone(), shutdown.clone()));
        let assessor = Assessor { tx };
        tokio::spawn(scan(assessor.clone(), store, shutdown));
        assessor
    }

    /// A rated game ended: assess it when the engine has time.
    pub fn game_ended(&self, game: Uuid) {
        if self.tx.try_send(game).is_err() {
            metrics::counter!("jungle_assessments_deferred_total").increment(1);
        }
    }
}

/// Every rated game that ends, finished by a result, is assessed (an aborted one has nothing
/// to judge).
impl crate::game_end::GameEndListener for Assessor {
    fn game_ended<'a>(
        &'a self,
        ended: &'a jungle_game::ended::GameEnded,
    ) -> crate::game_end::Heard<'a> {
        if ended.rated && ended.status == GameStatus::Finished {
            Assessor::game_ended(self, ended.game);
        }
        Box::pin(std::future::ready(()))
    }
}

async fn run(
    mut rx: mpsc::Receiver<Uuid>,
    engines: EnginePool,
    store: Store,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let game = tokio::select! {
            game = rx.recv() => match game {
                Some(game) => game,
                None => return,
            },
            _ = shutdown.changed() => return,
        };
        match assess(&engines, &store, game).await {
            Ok(()) => {}
            Err(e) => tracing::error!(%game, error = %e, "a game could not be assessed"),
        }
    }
}

async fn scan(assessor: Assessor, store: Store, mut shutdown: watch::Receiver<bool>) {
    let mut every = tokio::time::interval(SCAN_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = shutdown.changed() => return,
        }
        let now = jungle_store::now_ms();
        match store
            .unassessed_games(now - SCAN_BACK_MS, now - SCAN_AFTER_MS, 500)
            .await
        {
            Ok(games) => games.into_iter().for_each(|g| assessor.game_ended(g)),
            Err(e) => tracing::warn!(error = %e, "looking for unassessed games"),
        }
    }
}

/// Assesses `game` (a finished rated game not assessed yet), stores it, and queues players
/// whose game or record crosses the threshold.
pub async fn assess(engines: &EnginePool, store: &Store, game: Uuid) -> Result<(), StoreError> {
    let Some(record) = store.game(game).await? else {
        return Ok(());
    };
    if !record.rated || record.status != GameStatus::Finished || store.is_assessed(game).await? {
        return Ok(());
    }
    let Ok(replayed) = jungle_game::replay::stored_game(&record) else {
        return Ok(());
    };
    let Some(judged) = judge(engines, &record, &replayed).await else {
        return Ok(());
    };
    let now = jungle_store::now_ms();
    let mut resembling = [0u32; 2];
    if record.clock.is_correspondence() {
        for side in Side::ALL {
            resembling[side.index()] = resembling_boards(store, &record, &replayed, side).await?;
        }
    }
    let rows: Vec<GameAssessment> = Side::ALL
        .into_iter()
        .filter(|&side| jungle_game::computer::bot_level(seat(&record, side)).is_none())
        .map(|side| {
            let (moves, blurs) = &judged[side.index()];
            let times = move_times(&record, &replayed, side);
            let signals =
                Signals::measure(moves, &times, *blurs).with_resembling(resembling[side.index()]);
            GameAssessment {
                game,
                player: seat(&record, side),
                side,
                verdict: signals.verdict(),
                signals,
                assessed_at: now,
            }
        })
        .collect();
    metrics::counter!("jungle_assessments_total").increment(1);
    if !store.save_assessments(&rows).await? {
        return Ok(());
    }
    for row in &rows {
        queue_if_suspicious(store, row).await?;
    }
    Ok(())
}

/// Plies of a game over days before its positions are compared with the boards its players
/// analysed: every board near the start resembles every opening.
pub const RESEMBLING_FROM_PLY: usize = 8;

/// Boards our engine analysed for the player of `side` while `record` (a game over days) was
/// in play that resemble one of its positions from [`RESEMBLING_FROM_PLY`] on, mirrored or
/// colour-swapped alike. A board that still resembles the standard start (an opening studied)
/// is not counted.
async fn resembling_boards(
    store: &Store,
    record: &GameRecord,
    replayed: &Game,
    side: Side,
) -> Result<u32, StoreError> {
    let ended = record.ended_at.unwrap_or_else(jungle_store::now_ms);
    let boards = store
        .analysed_boards(seat(record, side), record.created_at, ended)
        .await?;
    if boards.is_empty() {
        return Ok(0);
    }
    let positions: Vec<Position> = replayed.positions().skip(RESEMBLING_FROM_PLY).collect();
    let start = Position::start();
    let resembles = |board: &Position| {
        let variants = [
            *board,
            board.mirrored(),
            board.colours_swapped(),
            board.mirrored().colours_swapped(),
        ];
        let near = |p: &Position| variants.iter().any(|v| v.board_distance(p) <= RESEMBLES);
        !near(&start) && positions.iter().any(near)
    };
    Ok(boards
        .iter()
        .filter_map(|text| text.parse::<Position>().ok())
        .filter(resembles)
        .count() as u32)
}

fn seat(record: &GameRecord, side: Side) -> Uuid {
    match side {
        Side::Red => record.red,
        Side::Blue => record.blue,
    }
}

async fn queue_if_suspicious(store: &Store, row: &GameAssessment) -> Result<(), StoreError> {
    let recent = store
        .assessments(row.player, assessment::RECORD_GAMES as i64)
        .await?;
    let signals: Vec<Signals> = recent.into_iter().map(|a| a.signals).collect();
    let record = Record::of(&signals);
    let on_record = record.verdict();
    let (verdict, reason) = if on_record >= assessment::QUEUE_PLAYER && on_record >= row.verdict {
        (
            on_record,
            format!(
                "record of {} games: {:.0}% engine moves, {:.0} cp lost a move, {} games suspicious, {} with many analysed boards like them",
                record.games,
                100.0 * f64::from(record.matched) / f64::from(record.moves.max(1)),
                record.loss_cp,
                record.suspicious_games,
                record.resembling_games
            ),
        )
    } else if row.verdict >= assessment::QUEUE_GAME {
        (
            row.verdict,
            format!(
                "game {}: {:.0}% engine moves over {}, {:.0} cp lost a move, move-time CV {}, {} blurs, {} analysed boards like it",
                row.game,
                100.0 * row.signals.match_share(),
                row.signals.moves,
                row.signals.loss_cp,
                row.signals
                    .time_cv
                    .map_or("-".to_owned(), |cv| format!("{cv:.2}")),
                row.signals.blurs,
                row.signals.resembling
            ),
        )
    } else {
        return Ok(());
    };
    tracing::info!(player = %row.player, verdict = verdict.name(), %reason, "fair play: queued for review");
    store
        .queue_for_review(row.player, verdict, &reason, Some(row.game))
        .await
}

/// Each side's judged moves and how many of them came after a blur; `None` if the pool
/// dropped a search (the server is stopping).
async fn judge(
    engines: &EnginePool,
    record: &GameRecord,
    replayed: &Game,
) -> Option<[(Vec<JudgedMove>, u32); 2]> {
    let mut sides: [(Vec<JudgedMove>, u32); 2] = Default::default();
    let mut own_moves = [0usize; 2];
    let mut game = Game::new(*replayed.rules(), *replayed.start());
    let turns: Vec<Turn> = replayed.turns().collect();
    for (ply, &turn) in turns.iter().enumerate() {
        let mover = game.position().side_to_move();
        let own = own_moves[mover.index()];
        own_moves[mover.index()] += 1;
        if let Turn::Move(played) = turn {
            if own >= assessment::OPENING_MOVES && game.legal_moves().len() > 1 {
                let scores = score_moves(engines, &game, record.id).await?;
                let best = scores.iter().map(|(_, s)| *s).max()?;
                let played_cp = scores.iter().find(|(m, _)| *m == played).map(|(_, s)| *s);
                if let (true, Some(played_cp)) = (best.abs() < assessment::DECIDED_CP, played_cp) {
                    let side = &mut sides[mover.index()];
                    side.0.push(JudgedMove {
                        best_cp: best,
                        played_cp,
                    });
                    if record.moves.get(ply).is_some_and(|m| m.blurred) {
                        side.1 += 1;
                    }
                }
            }
        }
        game.play(turn).ok()?;
    }
    Some(sides)
}

async fn score_moves(
    engines: &EnginePool,
    game: &Game,
    owner: Uuid,
) -> Option<Vec<(jungle_rules::Move, i32)>> {
    let request = SearchRequest {
        owner,
        priority: Priority::Background { depth: DEPTH },
        persona: Persona::new(Level::MAX, 1),
        game: game.clone(),
        budget: Duration::from_secs(5),
    };
    let (_ticket, answer) = engines.submit(request);
    Some(answer.await.ok()?.scores)
}

/// The time `side` took over each of its timed moves (its opening left out), from when the
/// move before it was stored to when it was; passes left out.
fn move_times(record: &GameRecord, replayed: &Game, side: Side) -> Vec<i64> {
    let first_mover = replayed.start().side_to_move();
    let mut times = Vec::new();
    for (ply, stored) in record.moves.iter().enumerate().skip(1) {
        let mover = if ply % 2 == 0 {
            first_mover
        } else {
            !first_mover
        };
        let own = ply / 2;
        if mover != side || own < assessment::OPENING_MOVES || stored.mv == "pass" {
            continue;
        }
        let before = record.moves[ply - 1].played_at;
        if before > 0 && stored.played_at >= before {
            times.push(stored.played_at - before);
        }
    }
    times
}
