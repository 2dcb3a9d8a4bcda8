//! The computer's seat in a room: its engine, lent to the engine pool for each search and
//! handed back with the answer, which reaches the room as a `ComputerMove` command.

use std::time::Duration;

use jungle_engine::{Engine, Level};
use jungle_rules::Rules;
use tokio::sync::mpsc;

use super::session::GameSession;
use super::RoomCommand;
use crate::bots::BotPool;

/// An instant reply feels like a machine gun; a short pause feels like a player.
const LEAST_THINKING: Duration = Duration::from_millis(300);

pub struct ComputerPlayer {
    /// Away while a search runs.
    engine: Option<Box<Engine>>,
}

impl ComputerPlayer {
    pub fn new(rules: Rules, level: Level) -> ComputerPlayer {
        ComputerPlayer {
            engine: Some(crate::bots::new_engine(rules, level)),
        }
    }

    /// Starts a search when it is the computer's turn and none is running. The answer is sent
    /// to `reply` (the room's own queue, held weakly so the room can still close).
    pub fn think_if_to_move(
        &mut self,
        session: &GameSession,
        now: std::time::Instant,
        pool: &BotPool,
        reply: &mpsc::WeakSender<RoomCommand>,
    ) {
        let Some((side, _)) = session.computer_to_move() else {
            return;
        };
        if self.engine.is_none() {
            return;
        }
        let Some(tx) = reply.upgrade() else {
            return;
        };
        let engine = self.engine.take().expect("checked");
        let game = session.game().clone();
        let ply = game.ply_count();
        let budget = crate::bots::budget(session.settings().clock, &session.clocks(now), side);
        let pool = pool.clone();
        tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            let (engine, choice) = pool.think(engine, game, budget).await;
            tokio::time::sleep_until(started + LEAST_THINKING).await;
            let _ = tx
                .send(RoomCommand::ComputerMove {
                    ply,
                    choice,
                    engine,
                })
                .await;
        });
    }

    /// The engine is back from a search.
    pub fn returned(&mut self, engine: Box<Engine>) {
        self.engine = Some(engine);
    }
}
