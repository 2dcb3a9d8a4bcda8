//! Puzzles (issue 27): positions from real games (and from our engine's games against
//! itself) where one move wins and the player must find it. The pure core is here — the
//! puzzle and its judging ([`puzzle`]), winning chances ([`chances`]), themes ([`themes`]) and
//! the miner ([`miner`]).

pub mod api;
pub mod background;
pub mod chances;
pub mod mine;
pub mod miner;
pub mod selfplay;
pub mod starter;

pub use jungle_game::puzzle::{Puzzle, PuzzleError, Verdict};
pub use jungle_game::themes::Theme;
pub use miner::{Budget, Miner, Rejection};
