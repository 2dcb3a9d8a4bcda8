//! The puzzles' HTTP bodies (issue 27). docs/protocol.md documents them.

use serde::{Deserialize, Serialize};

use crate::{Ruleset, Side};

/// A puzzle as the solver's board shows it: the position before the opponent's move, that
/// move (played first, animated), the solver's side, and the line (the solver's moves and
/// the opponent's replies, the solver's first and last). `themes` and `rating` are for after.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleView {
    pub id: String,
    pub rules: Ruleset,
    pub position: String,
    pub blunder: String,
    pub solver: Side,
    pub solution: Vec<String>,
    pub themes: Vec<String>,
    pub rating: i32,
    pub plays: i64,
    /// The finished game it comes from; `None` for one our engine played against itself.
    pub game: Option<uuid::Uuid>,
}

/// `GET /api/puzzles/themes?rules=R`: how many puzzles of a ruleset are dealt, in all and
/// per theme (issue 53), so that a page offers the themes there are enough puzzles of. Themes
/// with none are left out. Counted again at most once a minute.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleThemes {
    pub rules: Ruleset,
    pub total: u64,
    pub themes: Vec<ThemeCount>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThemeCount {
    pub theme: String,
    pub count: u64,
}

/// `POST /api/puzzles/{id}/attempt`: the solver's moves in order (theirs only), and whether
/// they mean to have solved it (`false`: they gave up, or looked at the solution).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleAttempt {
    pub moves: Vec<String>,
    pub win: bool,
}

/// The answer to an attempt: the server's verdict and what it did to the ratings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleResult {
    /// Solved, as the server judged the moves.
    pub win: bool,
    /// Whether it counted for the player's puzzle rating (an account's first attempt).
    pub rated: bool,
    /// The player's puzzle rating after, and its change (0 when not rated).
    pub rating: i32,
    pub change: i32,
    /// The puzzle's rating after.
    pub puzzle_rating: i32,
}

/// A player's puzzle rating in one ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRatingView {
    pub rules: Ruleset,
    pub rating: i32,
    pub provisional: bool,
    pub attempts: i64,
    pub wins: i64,
}

/// One attempt in a player's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleAttemptView {
    pub puzzle: String,
    pub rules: Ruleset,
    pub win: bool,
    /// The rating after it, for rated attempts (the chart's points).
    pub rating: Option<i32>,
    /// Unix milliseconds.
    pub at: i64,
}

/// `GET /api/players/{id}/puzzles`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleHistory {
    pub ratings: Vec<PuzzleRatingView>,
    pub attempts: Vec<PuzzleAttemptView>,
}

/// Puzzle Streak (`/api/puzzles/streak`): the running streak as its player sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreakView {
    pub rules: Ruleset,
    /// Puzzles solved in this streak (the final score once it is `over`).
    pub score: i64,
    /// The player's best streak in `rules`, this one counted.
    pub best: i64,
    /// The puzzle to solve now; `None` once the streak is over, or before one is started.
    pub puzzle: Option<PuzzleView>,
    /// The streak ended: a wrong move, or every puzzle harder than the last was solved
    /// (`complete`).
    pub over: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub complete: bool,
}

/// `POST /api/puzzles/streak/answer`: the solver's moves on the streak's puzzle, in order
/// (theirs only): all of the solution's for a solve, or up to the first wrong one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreakAnswer {
    pub puzzle: String,
    pub moves: Vec<String>,
}
