//! What a session is asked ([`Action`]), what it answers ([`Event`]), and why it refuses
//! ([`Refusal`]).

use std::time::Duration;

use jungle_protocol::{ErrorCode, GameStatus, Reason};
use jungle_rules::{Animal, ParseMoveError, PlayError, Side, Turn};

use super::{SeatPlayer, DRAW_OFFER_EVERY};
use crate::records::StoredClock;

/// What a seated player (or the computer, for its seat) asks of the game.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
pub enum Action {
    /// A move in text (`a3a4`); `lag` is the connection's one-way lag (and, for a player on
    /// another node than the game's, the round trip between the nodes), credited to the clock;
    /// `blurred`: the player's tab lost focus since their previous move (a fair-play signal,
    /// stored with the move).
    Move {
        text: String,
        #[serde(with = "lag_ms")]
        lag: Duration,
        #[serde(default)]
        blurred: bool,
    },
    /// A move and a draw offer with it (lichess's `offeringDraw`), as one action: everyone sees
    /// the move with the offer standing, never the move alone first. The offer is not made if
    /// it may not be (the move ended the game, or the mover offered too recently).
    MoveOfferingDraw {
        text: String,
        #[serde(with = "lag_ms")]
        lag: Duration,
    },
    Resign,
    /// End the game unplayed: the side whose first move is due (Red at ply 0, Blue at ply 1)
    /// declines to play it. Rated for nobody; counted as that player's abort.
    Abort,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// lichess's `draw/yes`: accept the opponent's standing offer, or make one (an offer of
    /// one's own already standing is made again, changing nothing).
    WantDraw,
    Rematch,
    /// Ask to take back one's last move (casual games only).
    OfferTakeback,
    AcceptTakeback,
    DeclineTakeback,
    /// lichess's `takeback/yes`: accept the opponent's request, or ask to take one's own last
    /// move back.
    WantTakeback,
    /// lichess's `claim-victory`: the opponent left and did not come back in time. The server
    /// ends such a game by itself at that moment; a claim made as it does wins it the same.
    ClaimVictory,
    /// Give the opponent one more day on their turn (correspondence), once a turn.
    GiveDay,
    /// The host of a waiting room gives the free seat to the computer (the room makes this
    /// from a level: it never crosses between nodes).
    #[serde(skip)]
    AddComputer(SeatPlayer),
}

/// A move's lag as it crosses between nodes: whole milliseconds, at most a second (a node's
/// word is trusted, but a lag past that is no lag a client could have).
mod lag_ms {
    use std::time::Duration;

    pub fn serialize<S: serde::Serializer>(lag: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(lag.as_millis() as u64)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let ms = <u64 as serde::Deserialize>::deserialize(d)?;
        Ok(Duration::from_millis(ms.min(1_000)))
    }
}

/// What happened, in order. Events marked durable are committed before anyone hears of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Both seats are taken and the game begins (durable: the game's row).
    Started,
    /// A turn was played (durable: the move and the clocks after it).
    Moved {
        turn: Turn,
        /// The ply this turn was (0 for the first).
        ply: usize,
        /// The enemy animal it captured.
        captured: Option<Animal>,
        clock: StoredClock,
        /// The mover's tab had lost focus since their previous move.
        blurred: bool,
    },
    DrawOffered {
        by: Side,
    },
    DrawDeclined {
        by: Side,
    },
    RematchOffered {
        by: Side,
    },
    TakebackOffered {
        by: Side,
    },
    TakebackDeclined {
        by: Side,
    },
    /// The last turns were undone (durable: the turns from `keep` on are deleted); the game
    /// goes on from the position after `keep` turns.
    TakenBack {
        keep: usize,
        undone: Vec<Turn>,
    },
    /// Both players want another game: its seats, colours swapped.
    RematchAgreed {
        red: SeatPlayer,
        blue: SeatPlayer,
    },
    /// The side to move was given a day (durable: the last turn's stored clocks).
    DayGiven {
        to: Side,
        /// The ply of the turn whose stored clocks change.
        ply: usize,
        clock: StoredClock,
    },
    /// A seat's shown presence changed (or its abandon countdown restarted).
    Presence {
        side: Side,
    },
    /// The game ended (durable: the result and, when `apply_rating`, the rating update).
    Ended {
        status: GameStatus,
        winner: Option<Side>,
        reason: Reason,
        plies: usize,
        apply_rating: bool,
    },
    /// The room has nothing left to do. `expired_unjoined`: a private room nobody joined, whose
    /// stored invitation is to be forgotten.
    Closed {
        expired_unjoined: bool,
    },
}

/// Why an action changed nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("you do not play in this game")]
    NotYourGame,
    #[error("the game has not started: waiting for an opponent")]
    NotStarted,
    #[error("the game is over")]
    Over,
    #[error("it is your opponent's turn")]
    NotYourTurn,
    #[error("pass is played by the server for a timed-out turn")]
    PassIsTheServers,
    #[error("{}", .0.0)]
    BadMove(ParseMoveError),
    #[error("{0}")]
    Illegal(PlayError),
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("one draw offer per {DRAW_OFFER_EVERY} plies; next at ply {next}")]
    DrawOfferLimit { next: usize },
    #[error("a rematch is possible once, after the game ends")]
    RematchUnavailable,
    #[error("the room already has two players")]
    RoomFull,
    #[error("moves are never taken back in rated games")]
    TakebackRated,
    #[error("you have no move to take back")]
    NothingToTakeBack,
    #[error("a takeback is already asked for; wait for the answer")]
    TakebackPending,
    #[error("there is no takeback request to answer")]
    NoTakebackOffer,
    #[error("two takeback requests a move: ask again after the next move")]
    TakebackAskedThisTurn,
    #[error("moves are never taken back in tournament games")]
    TakebackTournament,
    #[error("tournament games have no rematch: the tournament pairs your next game")]
    RematchTournament,
    #[error("a game is aborted only before your first move, on your turn; resign instead")]
    AbortTooLate,
    #[error(
        "a day is given in a correspondence game, on the opponent's turn after the first \
         move, once a turn"
    )]
    GiveDayUnavailable,
    #[error("the computer plays in one sitting: no clock of days against it")]
    NoComputerByDays,
    #[error("your opponent is here: there is no victory to claim")]
    OpponentHere,
    #[error("your opponent left; the game is yours if they are not back within {seconds} s")]
    OpponentMayReturn { seconds: u64 },
    #[error("nobody abandons a game over days: its clock decides")]
    NoClaimByDays,
}

impl Refusal {
    /// The stable code a client branches on.
    pub fn code(&self) -> ErrorCode {
        match self {
            Refusal::NotYourGame => ErrorCode::NotYourGame,
            Refusal::NotStarted => ErrorCode::GameNotStarted,
            Refusal::Over => ErrorCode::GameOver,
            Refusal::NotYourTurn => ErrorCode::NotYourTurn,
            Refusal::PassIsTheServers | Refusal::BadMove(_) => ErrorCode::BadMove,
            Refusal::Illegal(_) => ErrorCode::IllegalMove,
            Refusal::NoDrawOffer => ErrorCode::NoDrawOffer,
            Refusal::DrawOfferLimit { .. } => ErrorCode::DrawOfferLimit,
            Refusal::RematchUnavailable => ErrorCode::RematchUnavailable,
            Refusal::RoomFull => ErrorCode::BadRequest,
            Refusal::RematchTournament => ErrorCode::RematchUnavailable,
            Refusal::TakebackRated
            | Refusal::TakebackTournament
            | Refusal::NothingToTakeBack
            | Refusal::NoTakebackOffer => ErrorCode::TakebackUnavailable,
            Refusal::TakebackPending => ErrorCode::TakebackPending,
            Refusal::TakebackAskedThisTurn => ErrorCode::TakebackUnavailable,
            Refusal::AbortTooLate => ErrorCode::AbortUnavailable,
            Refusal::GiveDayUnavailable => ErrorCode::GiveDayUnavailable,
            Refusal::NoComputerByDays => ErrorCode::BadRequest,
            Refusal::OpponentHere | Refusal::OpponentMayReturn { .. } | Refusal::NoClaimByDays => {
                ErrorCode::ClaimUnavailable
            }
        }
    }
}
