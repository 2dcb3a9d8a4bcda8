//! Learn to play (issue 29): lessons as data, one file per chapter in `chapters/`, every
//! language side by side, judged here by the rules crate.
//!
//! An exercise is a position (and the turns played before it, for the history rules), the
//! moves asked for, one step at a time, and the opponent's scripted reply after each step. The
//! client is shown the legal moves and the texts, never the answers: [`Exercise::judge`]
//! decides. The tests in `tests.rs` play every answer through the rules and check every
//! claim a lesson makes (what the answer captures or how it ends the game, that each wrong
//! answer is really wrong, what another ruleset changes), so a lesson cannot drift from the
//! rules.

pub mod api;
mod content;
pub mod practice;
#[cfg(test)]
mod tests;

pub use content::{Chapter, Exercise, Practice};

use std::sync::OnceLock;

use jungle_protocol::learn::{BoardView, Catalogue, ContrastView, ExerciseView, Verdict};
use jungle_rules::{Game, Turn};

/// The chapters, in order (the file names' numbers give it).
const CHAPTER_FILES: &[(&str, &str)] = &[
    ("01-board", include_str!("chapters/01-board.json")),
    ("02-captures", include_str!("chapters/02-captures.json")),
    ("03-river", include_str!("chapters/03-river.json")),
    ("04-traps", include_str!("chapters/04-traps.json")),
    ("05-den", include_str!("chapters/05-den.json")),
    ("06-winning", include_str!("chapters/06-winning.json")),
    ("07-online", include_str!("chapters/07-online.json")),
    ("08-rulesets", include_str!("chapters/08-rulesets.json")),
];

/// Every chapter, read once (the tests prove they read and hold).
pub fn chapters() -> &'static [Chapter] {
    static CHAPTERS: OnceLock<Vec<Chapter>> = OnceLock::new();
    CHAPTERS.get_or_init(|| {
        CHAPTER_FILES
            .iter()
            .map(|(name, text)| {
                serde_json::from_str(text)
                    .unwrap_or_else(|e| panic!("lesson chapter {name} does not read: {e}"))
            })
            .collect()
    })
}

/// The catalogue the client shows, computed once.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| Catalogue {
        chapters: chapters().iter().map(Chapter::view).collect(),
    })
}

/// The exercise with this id.
pub fn exercise(id: &str) -> Option<&'static Exercise> {
    chapters()
        .iter()
        .flat_map(|c| &c.lessons)
        .flat_map(|l| &l.exercises)
        .find(|e| e.id == id)
}

/// The practice game with this id.
pub fn practice(id: &str) -> Option<&'static Practice> {
    chapters()
        .iter()
        .flat_map(|c| &c.practice)
        .find(|p| p.id == id)
}

/// Whether `id` names an exercise or a practice game (progress keeps nothing else).
pub fn is_known(id: &str) -> bool {
    exercise(id).is_some() || practice(id).is_some()
}

/// How many things progress can hold: its bound.
pub fn known_count() -> usize {
    chapters()
        .iter()
        .map(|c| c.practice.len() + c.lessons.iter().map(|l| l.exercises.len()).sum::<usize>())
        .sum()
}

/// What the judge made of a try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    pub verdict: Verdict,
    /// The game where the player stands now (see `TryAnswer::position`); none for a
    /// reading card.
    pub game: Option<Game>,
    pub reply: Option<Turn>,
}

fn texts(list: &jungle_rules::MoveList) -> Vec<String> {
    list.iter().map(|m| m.to_string()).collect()
}

impl Chapter {
    fn view(&self) -> jungle_protocol::learn::ChapterView {
        jungle_protocol::learn::ChapterView {
            id: self.id.clone(),
            title: self.title.clone(),
            summary: self.summary.clone(),
            lessons: self
                .lessons
                .iter()
                .map(|l| jungle_protocol::learn::LessonView {
                    id: l.id.clone(),
                    title: l.title.clone(),
                    exercises: l.exercises.iter().map(Exercise::view).collect(),
                })
                .collect(),
            practice: self.practice.iter().map(Practice::view).collect(),
        }
    }
}

impl Exercise {
    fn view(&self) -> ExerciseView {
        let board = self.board.as_ref().map(|b| {
            let game = self.start().expect("lessons are tested to set up");
            BoardView {
                rules: b.rules,
                position: game.position().to_string(),
                history: b.history.clone(),
                legal: texts(&game.legal_moves()),
                steps: b.steps.len(),
                contrast: b.contrast.as_ref().map(|c| ContrastView {
                    rules: c.rules,
                    legal: texts(
                        &self
                            .start_under(c.rules)
                            .expect("lessons are tested to set up")
                            .legal_moves(),
                    ),
                    text: c.text.clone(),
                }),
            }
        });
        ExerciseView {
            id: self.id.clone(),
            intro: self.intro.clone(),
            goal: self.goal.clone(),
            why: self.why.clone(),
            board,
        }
    }

    /// The game as the exercise begins: its position, with its history played.
    pub fn start(&self) -> Result<Game, String> {
        let board = self.board.as_ref().ok_or("a reading card has no board")?;
        self.start_under(board.rules)
    }

    /// The same, under another ruleset (for a contrast).
    pub fn start_under(&self, rules: jungle_rules::Ruleset) -> Result<Game, String> {
        let board = self.board.as_ref().ok_or("a reading card has no board")?;
        let position = board
            .position
            .parse()
            .map_err(|e| format!("{}: position: {e}", self.id))?;
        let mut game = Game::new(rules.rules(), position);
        for text in &board.history {
            let turn: Turn = text
                .parse()
                .map_err(|e| format!("{}: history {text}: {e}", self.id))?;
            game.play(turn)
                .map_err(|e| format!("{}: history {text}: {e}", self.id))?;
        }
        Ok(game)
    }

    /// Judges the player's moves so far. `Err` when the try cannot be read (too many moves,
    /// text that is not a move) or past a finished exercise.
    pub fn judge(&self, moves: &[String]) -> Result<Judged, String> {
        let Some(board) = &self.board else {
            // A reading card is done once read: judged with no moves.
            if !moves.is_empty() {
                return Err("a reading card takes no moves".into());
            }
            return Ok(Judged {
                verdict: Verdict::Done,
                game: None,
                reply: None,
            });
        };
        if moves.is_empty() || moves.len() > board.steps.len() {
            return Err(format!(
                "this exercise takes 1 to {} moves",
                board.steps.len()
            ));
        }
        let mut game = self.start()?;
        let mut reply = None;
        for (at, text) in moves.iter().enumerate() {
            let step = &board.steps[at];
            if text == "pass" {
                return Err("a lesson asks for moves: pass is not one here".into());
            }
            let mv: jungle_rules::Move = text.parse().map_err(|e| format!("{text}: {e}"))?;
            let before = game.clone();
            if game.play(Turn::Move(mv)).is_err() {
                return Ok(Judged {
                    verdict: Verdict::Illegal,
                    game: Some(before),
                    reply: None,
                });
            }
            if !step.accepts(text) {
                return Ok(Judged {
                    verdict: Verdict::Wrong,
                    game: Some(before),
                    reply: None,
                });
            }
            if at + 1 == board.steps.len() {
                return Ok(Judged {
                    verdict: Verdict::Done,
                    game: Some(game),
                    reply: None,
                });
            }
            let answer: Turn = step
                .reply
                .as_deref()
                .unwrap_or("pass")
                .parse()
                .map_err(|e| format!("{}: reply: {e}", self.id))?;
            game.play(answer)
                .map_err(|e| format!("{}: reply {answer}: {e}", self.id))?;
            reply = Some(answer);
        }
        Ok(Judged {
            verdict: Verdict::Continue,
            game: Some(game),
            reply,
        })
    }
}

impl Practice {
    fn view(&self) -> jungle_protocol::learn::PracticeView {
        jungle_protocol::learn::PracticeView {
            id: self.id.clone(),
            rules: self.rules,
            position: self.position.clone(),
            side: self.side,
            goal: self.goal,
            text: self.text.clone(),
            why: self.why.clone(),
        }
    }
}

/// What the lessons' handlers take. The server gives it from its own state (`FromRef`); cloning shares.
#[derive(Clone)]
pub struct LearnState {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: std::sync::Arc<jungle_limits::Limits>,
}

/// The lessons' routes, for a router whose state gives a [`LearnState`].
pub fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    LearnState: axum::extract::FromRef<S>,
{
    use axum::extract::DefaultBodyLimit;
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/api/learn", get(api::catalogue))
        .route(
            "/api/learn/try",
            post(api::attempt).layer(DefaultBodyLimit::max(4 * 1024)),
        )
        .route(
            "/api/learn/practice/{id}/judge",
            post(api::judge_practice).layer(DefaultBodyLimit::max(1024)),
        )
        .route(
            "/api/account/learn",
            get(api::progress)
                .post(api::bring_progress)
                .layer(DefaultBodyLimit::max(16 * 1024)),
        )
}
