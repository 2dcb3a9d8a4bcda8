//! The lessons' HTTP bodies (issue 29). docs/protocol.md documents them.
//!
//! The lessons are data on the server. The client gets what it shows: texts in every language,
//! positions and the legal moves the server computed. It never gets the answers: a try is
//! judged by the server.

use serde::{Deserialize, Serialize};

use crate::Ruleset;

/// A text in every language of the client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub zh: String,
    #[serde(rename = "zh-Hant")]
    pub zh_hant: String,
}

/// `GET /api/learn`: every chapter, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Catalogue {
    pub chapters: Vec<ChapterView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChapterView {
    pub id: String,
    pub title: Text,
    pub summary: Text,
    pub lessons: Vec<LessonView>,
    /// Games against the computer at level 1 from a set position, with a goal.
    pub practice: Vec<PracticeView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonView {
    pub id: String,
    pub title: Text,
    pub exercises: Vec<ExerciseView>,
}

/// One exercise: a reading card (`board` is `None`: it is done once read), or a task on a board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExerciseView {
    pub id: String,
    /// One line before.
    pub intro: Text,
    /// What to do, stated in full (a screen reader reads it).
    pub goal: Text,
    /// A short "why", for after.
    pub why: Text,
    pub board: Option<BoardView>,
}

/// An exercise's board as the player first sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardView {
    pub rules: Ruleset,
    /// The position to play from (FEN-like), after the turns already played (`history`).
    pub position: String,
    /// Turns played before the exercise begins (`a3a4`, `pass`), oldest first: the history
    /// rules (7-3, 17-5, the cycle rule) count them. Usually empty.
    pub history: Vec<String>,
    /// The legal moves there, under `rules` with that history.
    pub legal: Vec<String>,
    /// The player's moves the exercise asks for (the opponent answers after each but the last).
    pub steps: usize,
    /// The same position under another ruleset, shown after: what changes there.
    pub contrast: Option<ContrastView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContrastView {
    pub rules: Ruleset,
    pub legal: Vec<String>,
    pub text: Text,
}

/// A practice game: the player takes `side`'s seat against the computer at level 1 from
/// `position` (with `play_computer`), and reaches the goal within `within` of their moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeView {
    pub id: String,
    pub rules: Ruleset,
    pub position: String,
    pub side: crate::Side,
    pub goal: Goal,
    pub text: Text,
    pub why: Text,
}

/// What a practice game asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// Enter the enemy den.
    Den { within: u32 },
    /// Capture the enemy `animal` (its letter, `L` for the lion).
    Capture { animal: char, within: u32 },
}

/// `POST /api/learn/try`: the player's moves in the exercise so far, in order (theirs only;
/// the server plays the replies). An empty list completes a reading card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Try {
    pub exercise: String,
    pub moves: Vec<String>,
}

/// The server's verdict on a try.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The last move is right and more are asked: `position`, `reply` and `legal` go on.
    Continue,
    /// Every move is right: the exercise is done.
    Done,
    /// The last move is legal but not what was asked: try that step again.
    Wrong,
    /// The last move breaks the rules of the exercise's ruleset.
    Illegal,
}

/// The answer to a [`Try`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TryAnswer {
    pub verdict: Verdict,
    /// The opponent's answer to the last move (`pass` when it stands still), on `continue`.
    pub reply: Option<String>,
    /// The position now: after the reply on `continue`, after the move on `done`, before the
    /// wrong or illegal move otherwise.
    pub position: String,
    /// The legal moves in `position` (empty once done).
    pub legal: Vec<String>,
    /// Why a wrong move is wrong, when the exercise says.
    pub hint: Option<Text>,
    /// Whether the player's progress was stored (an account's, on `done`).
    pub recorded: bool,
}

/// `GET /api/account/learn`, and the body of `POST /api/account/learn` (progress made as a
/// guest, brought into the account): the exercises and practice games done.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub done: Vec<String>,
}

/// `POST /api/learn/practice/{id}/judge`: the practice game the player played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JudgePractice {
    pub game: uuid::Uuid,
}

/// The answer: whether the game reached the practice's goal in time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeVerdict {
    pub reached: bool,
    /// The player's moves it took (when reached).
    pub moves: Option<u32>,
    pub recorded: bool,
}
