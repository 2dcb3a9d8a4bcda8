//! The records a game and a player are kept as: what the store reads and writes, and what the
//! room, the archive and the features pass between them. Plain data, no I/O.

use jungle_protocol::http::Rating;
use jungle_protocol::{ClockSpec, GameStatus, RatingChange, Reason};
use jungle_rules::{Ruleset, Side};
use serde::Serialize;
use uuid::Uuid;

use crate::rating::Glicko;

/// A game as it starts.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub id: Uuid,
    pub ruleset: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    pub room_code: Option<String>,
    pub red: Uuid,
    pub blue: Uuid,
    pub red_rating: i32,
    pub blue_rating: i32,
    /// Whether each rating was still provisional when the game began.
    pub red_provisional: bool,
    pub blue_provisional: bool,
    pub start_fen: String,
    /// The tournament that paired it: its pairing is stored with the game.
    pub tournament: Option<Uuid>,
    /// A private room's game (hidden from others until it is over).
    pub private: bool,
    /// When it began, Unix milliseconds by the server's clock (the store's when 0).
    pub created_at: i64,
}

impl NewGame {
    /// A casual classic game between two players at 1500, starting now: for tests and
    /// benchmarks, which change what they need with `..NewGame::casual(…)`.
    pub fn casual(red: Uuid, blue: Uuid, clock: ClockSpec) -> NewGame {
        NewGame {
            id: Uuid::new_v4(),
            ruleset: Ruleset::Classic,
            clock,
            rated: false,
            room_code: None,
            red,
            blue,
            red_rating: 1500,
            blue_rating: 1500,
            red_provisional: true,
            blue_provisional: true,
            start_fen: String::new(),
            tournament: None,
            private: false,
            created_at: 0,
        }
    }
}

/// One turn and both clocks right after it.

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRecord {
    pub ply: i64,
    pub mv: String,
    pub clock: StoredClock,
    /// The mover's tab had lost focus since their previous move (a fair-play signal).
    pub blurred: bool,
    /// When it was played, Unix milliseconds by the server's clock (the store's when 0).
    pub played_at: i64,
}

/// Clock state saved with each turn, so a restart resumes with fair clocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StoredClock {
    pub red_ms: i64,
    pub blue_ms: i64,
    pub red_timeouts: i64,
    pub blue_timeouts: i64,
}

/// A line of game chat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRecord {
    pub game: Uuid,
    /// `players` or `spectators`.
    pub channel: &'static str,
    pub player: Uuid,
    pub preset: Option<String>,
    pub text: Option<String>,
}

/// The end of a game, as the room reports it.
#[derive(Clone, Debug)]
pub struct FinishRecord {
    pub game: Uuid,
    pub status: GameStatus,
    pub winner: Option<Side>,
    pub reason: Reason,
    pub plies: i64,
    /// Whether ratings should change: a rated game that lasted beyond the 10-move rule.
    pub apply_rating: bool,
}

/// A game row with its moves.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    pub id: Uuid,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    pub room_code: Option<String>,
    pub red: Uuid,
    pub blue: Uuid,
    pub red_name: String,
    pub blue_name: String,
    pub red_rating: i32,
    pub blue_rating: i32,
    /// Whether each rating was still provisional when the game began.
    pub red_provisional: bool,
    pub blue_provisional: bool,
    /// Each player's title (`BOT`), if any.
    pub red_title: Option<String>,
    pub blue_title: Option<String>,
    pub start: String,
    pub status: GameStatus,
    pub winner: Option<Side>,
    pub reason: Option<Reason>,
    pub rating_applied: bool,
    pub rating_change: Option<RatingChange>,
    pub moves: Vec<MoveRecord>,
    pub created_at: i64,
    pub ended_at: Option<i64>,
    /// The tournament that paired it.
    pub tournament: Option<Uuid>,
    /// A private room's game.
    pub private: bool,
}

impl GameRecord {
    /// Whether a private room's game is still private: while it waits or is played, only its
    /// players see it (anyone else is told there is no such game); once over it is like any
    /// other finished game.
    pub fn private_in_play(&self) -> bool {
        self.private
            && matches!(
                self.status,
                jungle_protocol::GameStatus::Active | jungle_protocol::GameStatus::Waiting
            )
    }

    /// The colour `player` plays in this game, if they play in it.
    pub fn side_of(&self, player: Uuid) -> Option<Side> {
        if player == self.red {
            Some(Side::Red)
        } else if player == self.blue {
            Some(Side::Blue)
        } else {
            None
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerRecord {
    pub id: Uuid,
    pub name: String,
    /// Games lost by leaving and not coming back (seed 002's 断线次数), as last read.
    pub disconnects: i64,
    /// A bot account (title BOT): it plays through the Bot API only.
    #[serde(default)]
    pub bot: bool,
}

/// One rating as the API shows it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingRecord {
    pub rating: f64,
    pub deviation: f64,
    #[serde(skip)]
    pub volatility: f64,
    pub provisional: bool,
    pub games: i64,
}

impl RatingRecord {
    /// As the API shows it.
    pub fn wire(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            provisional: self.provisional,
            games: self.games,
        }
    }

    pub fn from_glicko(g: Glicko, games: i64) -> RatingRecord {
        RatingRecord {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
            provisional: g.is_provisional(),
            games,
        }
    }

    pub fn glicko(&self) -> Glicko {
        Glicko {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}
