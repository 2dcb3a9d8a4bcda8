//! A game's end as the other domains hear it, once it is stored: the room publishes it once,
//! and each domain that cares (tournaments, fair play, …) decides what it means for itself.
//! What must count exactly once (ratings, tournament points) is already in the transaction
//! that stored the end; what hears this event is work that follows from it.

use jungle_protocol::{GameStatus, Reason};
use jungle_rules::Side;
use uuid::Uuid;

/// One game that has just ended, its result durable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnded {
    pub game: Uuid,
    pub rated: bool,
    /// `Finished`, or `Aborted` before both sides moved.
    pub status: GameStatus,
    pub winner: Option<Side>,
    pub reason: Reason,
    /// The tournament that paired it.
    pub tournament: Option<Uuid>,
    /// The players, Red's first (the nil id for a seat nobody took).
    pub players: [Uuid; 2],
    /// Whether each side, Red's first, made a move of its own (a pass is none).
    pub moved: [bool; 2],
    /// The side to move when it ended.
    pub to_move: Side,
}

impl GameEnded {
    pub fn player(&self, side: Side) -> Uuid {
        self.players[side.index()]
    }

    pub fn has_moved(&self, side: Side) -> bool {
        self.moved[side.index()]
    }
}
