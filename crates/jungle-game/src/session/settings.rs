//! What a session is set up with: the game's settings, the players taking its seats, the
//! durations it lives by, and a private room host's colour.

use std::time::Duration;

use jungle_protocol::ClockSpec;
use jungle_rules::{Ruleset, Side};

use crate::records::{PlayerRecord, RatingRecord};

/// The settings a game is played with; also the matchmaking pool key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoomSettings {
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
}

/// A player taking a seat, with their rating in the game's ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatPlayer {
    pub player: PlayerRecord,
    pub rating: RatingRecord,
    /// The engine level when this seat is the computer.
    pub computer: Option<u8>,
}

impl SeatPlayer {
    pub fn human(player: PlayerRecord, rating: RatingRecord) -> SeatPlayer {
        SeatPlayer {
            player,
            rating,
            computer: None,
        }
    }

    pub fn computer(level: u8, rating: RatingRecord) -> SeatPlayer {
        SeatPlayer {
            player: crate::computer::bot_player(level),
            rating,
            computer: Some(level),
        }
    }
}

/// The durations a room lives by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// How long an away player may stay away (while the opponent is present) before forfeiting.
    pub disconnect_grace: Duration,
    /// How long each side has for its first move before the game is aborted.
    pub abort_after: Duration,
    /// How long a private room waits for its second player.
    pub waiting_lifetime: Duration,
    /// How long a finished game's room stays open for a rematch and late spectators.
    pub linger: Duration,
}

impl Timing {
    pub fn new(disconnect_grace: Duration, abort_after: Duration) -> Timing {
        Timing {
            disconnect_grace,
            abort_after,
            waiting_lifetime: Duration::from_secs(3600),
            linger: Duration::from_secs(300),
        }
    }
}

/// A private room host's colour: as chosen, and the side they get (a coin already tossed for
/// `random`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostColour {
    pub chosen: jungle_protocol::ColorChoice,
    pub side: Side,
}
