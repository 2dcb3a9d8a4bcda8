//! The rules of Jungle (斗兽棋, Dou Shou Qi): board, animals, positions, legal moves, games and
//! the four named rulesets.
//!
//! No I/O, no async, and no allocation on the move-generation path. `serde` support for the
//! value types is behind the `serde` feature.
//!
//! # The vocabulary
//! - [`Side`] (Red moves first), [`Animal`] (Rat 1 … Elephant 8) and [`Piece`] (an animal of a
//!   side).
//! - [`Square`] (a1 … g9) and [`Bitboard`] (a set of squares in a `u64`).
//! - [`Move`] (`a3a4`) and [`Turn`] (a move or a `pass`).
//! - [`Rules`], built from a [`Ruleset`] preset: `classic`, `strict`, `daitou`, `international`.
//! - [`Position`]: the board and counters, with the bare legal moves, `play`, `perft` and a
//!   Zobrist hash. Text is FEN-like.
//! - [`Game`]: a position plus its history, applying every rule, history rules included, and
//!   telling the [`Outcome`].
//! - [`GameText`]: a game in JGN, the Jungle Game Notation (tag pairs, movetext, result), with
//!   a forgiving parser and a writer.
//!
//! # Example
//! ```
//! use jungle_rules::{EndReason, Game, Position, Ruleset, Side, Turn};
//!
//! let rules = Ruleset::International.rules();
//! // Red's lion stands beside Blue's den; stepping in wins.
//! let position: Position = "2e4/3L3/7/7/7/7/7/7/7 r 0 30".parse()?;
//! let mut game = Game::new(rules, position);
//! assert!(game.legal_moves().contains("d8d9".parse()?));
//! game.play(Turn::Move("d8d9".parse()?))?;
//! let outcome = game.outcome().expect("the game is over");
//! assert_eq!(outcome.winner, Some(Side::Red));
//! assert_eq!(outcome.reason, EndReason::Den);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod animal;
mod bitboard;
mod fen;
mod game;
mod moves;
mod notation;
mod position;
mod rules;
mod side;
mod square;
mod zobrist;

pub use animal::{Animal, Piece};
pub use bitboard::Bitboard;
pub use fen::ParsePositionError;
pub use game::{Game, PlayedTurn};
pub use moves::{Move, MoveList, ParseMoveError, Turn, MAX_MOVES};
pub use notation::{
    GameResult, GameText, GameTextErrorKind, ParseGameTextError, ReplayTextError, TextTurn,
    TAG_ORDER,
};
pub use position::{AntiChaseRule, EndReason, Illegal, Outcome, PlayError, Position};
pub use rules::{ParseRulesetError, Rules, Ruleset};
pub use side::{ParseSideError, Side};
pub use square::{ParseSquareError, Square};
