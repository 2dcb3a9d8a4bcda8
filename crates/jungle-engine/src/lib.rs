//! A Jungle engine on top of `jungle-rules`: alpha-beta search with a transposition table, and
//! levels from 1 (a beginner who blunders) to 8 (full strength).
//!
//! ```
//! use jungle_engine::{Engine, Level};
//! use jungle_rules::{Game, Position, Rules};
//!
//! let game = Game::new(Rules::INTERNATIONAL, "2e4/3L3/7/7/7/7/7/7/7 r 0 30".parse()?);
//! let mut engine = Engine::new(Rules::INTERNATIONAL, Level::MAX);
//! let choice = engine.best_move(&game, std::time::Duration::from_millis(100)).expect("a move");
//! assert_eq!(choice.to_string(), "d8d9"); // into the den
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analysis;
mod eval;
mod level;
mod search;
mod tt;

pub use analysis::{analyse, Analysis, Score};
pub use eval::evaluate;
pub use level::{budget_from_clock, Engine, Level, Persona};
pub use search::{Info, Limits, Searcher, MATE};
