//! The computer opponent: the level that suits a rating, the thinking time a move gets, and
//! its seat in a room: how its level plays (a [`Persona`], a few bytes), and the one search it
//! may have queued in the engine pool. The answer reaches the room as a `ComputerMove`
//! command. Its player rows (one per level) are the store's
//! (`Store::ensure_computer_players`).

use std::time::Duration;

use jungle_engine::{budget_from_clock, Level, Persona};
use jungle_protocol::{ClockSpec, Clocks};
use jungle_rules::Side;
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::engine_pool::{EnginePool, Priority, SearchRequest, SearchTicket};
use crate::fair_play::FairPlay;
use crate::RoomCommand;
use jungle_game::session::GameSession;

/// The level whose strength is nearest a rating (a rough scale: level 1 ≈ 800, +150 a level).
pub fn level_for_rating(rating: f64) -> Level {
    let level = (((rating - 800.0) / 150.0).round() as i64 + 1).clamp(1, 8) as u8;
    Level::new(level).expect("clamped to the levels")
}

/// How long the computer may think on this move.
pub fn budget(clock: ClockSpec, clocks: &Clocks, side: Side) -> Duration {
    let cap = Duration::from_secs(5);
    match clock {
        ClockSpec::Fischer { inc_s, .. } => {
            let left = if side == Side::Red {
                clocks.red_ms
            } else {
                clocks.blue_ms
            };
            budget_from_clock(
                Duration::from_millis(left),
                Duration::from_secs(inc_s.into()),
            )
            .min(cap)
        }
        ClockSpec::PerMove { move_s, .. } => (Duration::from_secs(move_s.into()) / 4).min(cap),
        // Days to answer: the computer answers at once, with its usual thought.
        ClockSpec::Days { .. } => cap,
    }
}

/// The computer takes a draw only in a long game (at least this many turns played)…
pub const DRAW_AFTER_PLIES: usize = 40;
/// …whose position it judges level: its static evaluation within this many centi-animals
/// (a third of a cat) either way.
pub const DRAW_WITHIN: i32 = 80;

/// Whether the computer accepts a draw offered in `game`: a long game, and a level position.
/// A shorter game, or one it judges won or lost, plays on.
pub fn accepts_draw(game: &jungle_rules::Game) -> bool {
    game.ply_count() >= DRAW_AFTER_PLIES
        && jungle_engine::evaluate(game.position(), game.rules()).abs() <= DRAW_WITHIN
}

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
    ///
    /// When the position is where a game between people stands now (here or on another
    /// node), the computer plays a legal move at random instead of searching: a game against
    /// it must not be an oracle for theirs (see [`crate::fair_play`]).
    pub fn think_if_to_move(
        &mut self,
        session: &GameSession,
        now: std::time::Instant,
        pool: &EnginePool,
        fair_play: &FairPlay,
        reply: &mpsc::WeakSender<RoomCommand>,
    ) {
        let Some((side, _)) = session.computer_to_move() else {
            return;
        };
        if self.pending.is_some() {
            return;
        }
        let budget = budget(session.settings().clock, &session.clocks(now), side);
        let request = SearchRequest {
            owner: opponent(session),
            priority: Priority::Live,
            persona: self.persona.clone(),
            game: session.game().clone(),
            budget,
        };
        let ticket = SearchTicket::default();
        let cancelled = ticket.flag();
        self.searches += 1;
        let search = self.searches;
        self.pending = Some((search, ticket));
        let (pool, fair_play, reply) = (pool.clone(), fair_play.clone(), reply.clone());
        tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            let persona = request.persona.clone();
            // Its human opponent sat down to a game against a person meanwhile: no engine on
            // any board while they play that one.
            let human_busy = fair_play.not_playing(request.owner).await.is_err();
            let position = request.game.position();
            let masked = human_busy || !fair_play.computer_may_answer(position).await;
            let (choice, persona) = if masked {
                metrics::counter!("jungle_fair_play_masked_moves_total").increment(1);
                (random_move(&request.game, search), persona)
            } else {
                let Ok(answer) = pool.submit_with(request, cancelled).await else {
                    return; // cancelled: the game is over
                };
                (answer.choice, answer.persona)
            };
            tokio::time::sleep_until(started + LEAST_THINKING).await;
            if let Some(tx) = reply.upgrade() {
                let _ = tx
                    .send(RoomCommand::ComputerMove {
                        search,
                        choice,
                        persona,
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

/// A legal move chosen without the engine (varied by `salt`, so that it is no fixed answer
/// either).
fn random_move(game: &jungle_rules::Game, salt: u64) -> Option<jungle_rules::Move> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let seed = Uuid::new_v4().as_u128() as u64 ^ salt;
    Some(moves[(seed % moves.len() as u64) as usize])
}

/// The player across the board from the computer (the computer itself if, in some future, it
/// plays both sides; nobody before the game starts).
pub fn opponent(session: &GameSession) -> Uuid {
    let Some(computer) = Side::ALL.into_iter().find(|side| {
        session
            .seat(*side)
            .is_some_and(|s| s.who.computer.is_some())
    }) else {
        return Uuid::nil();
    };
    session
        .seat(!computer)
        .or_else(|| session.seat(computer))
        .map_or(Uuid::nil(), |seat| seat.who.player.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::{Game, Position, Rules, Turn};

    #[test]
    fn the_computer_takes_a_draw_only_late_and_level() {
        let rules = Rules::CLASSIC;
        let early = Game::new(rules, Position::start());
        assert!(!accepts_draw(&early), "too early");
        // The start shuffled back and forth for 40 turns: level, and long enough.
        let shuffle = ["g1f1", "a9b9", "f1g1", "b9a9"];
        let turns = (0..40).map(|i| shuffle[i % 4].parse::<Turn>().unwrap());
        let long = Game::replay(Rules::INTERNATIONAL, Position::start(), turns).unwrap();
        assert!(accepts_draw(&long));
        // A rat and an elephant up is no draw, however long.
        let lopsided: Position = "l5t/1d3c1/2p1w2/7/7/7/E1W1P1R/1C3D1/T5L r 0 45"
            .parse()
            .unwrap();
        let mut game = Game::new(Rules::INTERNATIONAL, lopsided);
        for i in 0..40 {
            game.play(shuffle[i % 4].parse().unwrap()).unwrap();
        }
        assert!(!accepts_draw(&game), "far ahead, it plays on");
    }
}
