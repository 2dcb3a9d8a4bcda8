//! The shape of a chapter file (`chapters/NN-name.json`). Unknown fields are refused, so a
//! misspelt claim fails the tests instead of being skipped.

use jungle_protocol::learn::{Goal, Text};
use jungle_rules::{Ruleset, Side};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chapter {
    pub id: String,
    pub title: Text,
    pub summary: Text,
    pub lessons: Vec<Lesson>,
    #[serde(default)]
    pub practice: Vec<Practice>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    pub id: String,
    pub title: Text,
    pub exercises: Vec<Exercise>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    pub id: String,
    pub intro: Text,
    pub goal: Text,
    pub why: Text,
    /// `None`: a reading card.
    #[serde(default)]
    pub board: Option<Board>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub rules: Ruleset,
    pub position: String,
    /// Turns played from `position` before the exercise begins.
    #[serde(default)]
    pub history: Vec<String>,
    pub steps: Vec<Step>,
    /// Moves at the first step that must be illegal here (the test checks).
    #[serde(default)]
    pub illegal: Vec<String>,
    /// Moves at the first step that are legal but not the answer (the test checks).
    #[serde(default)]
    pub wrong: Vec<String>,
    /// Shown when a legal move is not the answer.
    #[serde(default)]
    pub hint: Option<Text>,
    /// What the last step's answer does (the test checks).
    #[serde(default)]
    pub expect: Option<Expect>,
    #[serde(default)]
    pub contrast: Option<Contrast>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The moves that do what is asked; `["any"]`: any legal move (the lesson is about what
    /// the rules forbid, shown by the legal targets).
    pub accept: Vec<String>,
    /// The opponent's answer when another step follows: a move, or `pass` (the default: it
    /// stands still).
    #[serde(default)]
    pub reply: Option<String>,
}

impl Step {
    pub fn accepts(&self, mv: &str) -> bool {
        self.accept.iter().any(|a| a == "any" || a == mv)
    }
}

/// A claim about the last step's answer, checked against the rules.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// It captures this enemy animal (its letter: `E`, `l`, …, either case).
    #[serde(default)]
    pub captures: Option<char>,
    /// It ends the game: `den`, `all-captured`, `no-moves`, `no-capture`.
    #[serde(default)]
    pub ends: Option<String>,
    /// The game goes on after it.
    #[serde(default)]
    pub goes_on: bool,
}

/// The same position under another ruleset: these first-step moves are legal there, these
/// are not (each claim the test checks, and at least one differs from the exercise's own
/// ruleset).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contrast {
    pub rules: Ruleset,
    #[serde(default)]
    pub legal: Vec<String>,
    #[serde(default)]
    pub illegal: Vec<String>,
    /// First-step moves that end the game under the exercise's ruleset and not under this
    /// one (the count of plies without a capture differs).
    #[serde(default)]
    pub ends_here_only: Vec<String>,
    pub text: Text,
}

/// A practice game against the computer at level 1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Practice {
    pub id: String,
    pub rules: Ruleset,
    pub position: String,
    pub side: Side,
    pub goal: Goal,
    pub text: Text,
    pub why: Text,
}
