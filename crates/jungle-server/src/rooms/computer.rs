//! The computer's seat in a room: how its level plays (a [`Persona`], a few bytes), and the
//! one search it may have queued in the engine pool. The answer reaches the room as a
//! `ComputerMove` command.

use std::time::Duration;

use jungle_engine::{Level, Persona};
use jungle_rules::Side;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::session::GameSession;
use super::RoomCommand;
use crate::engine_pool::{EnginePool, Priority, SearchRequest, SearchTicket};

/// An instant reply feels like a machine gun; a short pause feels like a player.
const LEAST_THINKING: Duration = Duration::from_millis(300);

pub struct ComputerPlayer {
    persona: Persona,
    /// The search under way, numbered so that a late answer to an older one is told apart.
    pending: Option<(u64, SearchTicket)>,
    searches: u64,
}

impl ComputerPlayer {
    pub fn new(level: Level) -> ComputerPlayer {
        ComputerPlayer {
            persona: Persona::new(level, Uuid::new_v4().as_u128() as u64),
            pending: None,
            searches: 0,
        }
    }

    /// Queues a search when it is the computer's turn and none is under way. The answer is
    /// sent to `reply` (the room's own queue, held weakly so the room can still close).
    pub fn think_if_to_move(
        &mut self,
        session: &GameSession,
        now: std::time::Instant,
        pool: &EnginePool,
        reply: &mpsc::WeakSender<RoomCommand>,
    ) {
        let Some((side, _)) = session.computer_to_move() else {
            return;
        };
        if self.pending.is_some() {
            return;
        }
        let budget = crate::bots::budget(session.settings().clock, &session.clocks(now), side);
        let request = SearchRequest {
            owner: opponent(session, side),
            priority: Priority::Live,
            persona: self.persona.clone(),
            game: session.game().clone(),
            budget,
        };
        let (ticket, answer) = pool.submit(request);
        self.searches += 1;
        let search = self.searches;
        self.pending = Some((search, ticket));
        let reply = reply.clone();
        tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            let Ok(answer) = answer.await else {
                return; // cancelled: the game is over
            };
            tokio::time::sleep_until(started + LEAST_THINKING).await;
            if let Some(tx) = reply.upgrade() {
                let _ = tx
                    .send(RoomCommand::ComputerMove {
                        search,
                        choice: answer.choice,
                        persona: answer.persona,
                    })
                    .await;
            }
        });
    }

    /// The answer to search number `search` is in: true if it is the one under way (an
    /// answer to a search since cancelled is ignored).
    pub fn answered(&mut self, search: u64, persona: Persona) -> bool {
        match &self.pending {
            Some((pending, _)) if *pending == search => {
                self.pending = None;
                self.persona = persona;
                true
            }
            _ => false,
        }
    }

    /// The game ended: the search under way, if any, is dropped or stopped.
    pub fn cancel(&mut self) {
        self.pending = None;
    }
}

/// Whose turn waits on the computer: the player across the board (the computer itself if,
/// in some future, it plays both sides).
fn opponent(session: &GameSession, computer: Side) -> Uuid {
    session
        .seat(!computer)
        .or_else(|| session.seat(computer))
        .map_or(Uuid::nil(), |seat| seat.who.player.id)
}
