//! A puzzle as the rules see it (issue 27): a position, the opponent's move that went wrong
//! (shown first, as lichess does), and the solution, the solver's moves with the opponent's
//! replies between them, ending on the solver's move. Pure: everything is checked by replaying
//! it with `jungle-rules` from the puzzle's position, with the history rules starting there.

use jungle_rules::{EndReason, Game, Move, Position, Ruleset, Side, Turn};
use serde::{Deserialize, Serialize};

use crate::theme::Theme;

/// One puzzle, as mined and as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    pub rules: Ruleset,
    /// The position before the opponent's last move, as text (FEN-like).
    pub position: String,
    /// The opponent's last move: the puzzle opens by playing it.
    pub blunder: String,
    /// The solver's moves and the opponent's replies, solver first and last.
    pub solution: Vec<String>,
    pub themes: Vec<Theme>,
    /// The game it comes from; `None` for self-play.
    #[serde(default)]
    pub source: Option<uuid::Uuid>,
    /// How the line's end was judged decisive (issue 53), by two measures that do not share a
    /// scale; `None` for a puzzle judged before they were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged: Option<Judged>,
}

/// A line's end as the miner judged it: the engine's winning chances for the solver there (in
/// thousandths of the scale, at the judging budget), and, counted without any evaluation, the
/// animals the solver is up by since the position before the opponent's mistake (an exchange
/// is 0), or the den entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judged {
    pub chances_permille: i32,
    pub animals_up: i32,
    pub den: bool,
}

/// Why a puzzle does not hold up under the rules.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PuzzleError {
    #[error("position: {0}")]
    Position(String),
    #[error("move {0:?}: {1}")]
    Move(String, String),
    #[error("the solution is empty, or ends on the opponent's move")]
    Shape,
    #[error("the game ends before the line does")]
    EndsEarly,
}

/// How an attempt went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every solver move right (or winning at once where several do).
    Solved,
    /// A wrong move at this solver move (0-based).
    Failed { at: usize },
    /// Right so far, but not to the end.
    Unfinished,
}

impl Puzzle {
    /// The game right after the opponent's move: the solver to move.
    pub fn start(&self) -> Result<Game, PuzzleError> {
        let position: Position = self
            .position
            .parse()
            .map_err(|e| PuzzleError::Position(format!("{e}")))?;
        let mut game = Game::new(self.rules.rules(), position);
        play(&mut game, &self.blunder)?;
        if game.outcome().is_some() {
            return Err(PuzzleError::EndsEarly);
        }
        Ok(game)
    }

    /// Every position of the puzzle: before the opponent's blunder, after it, and after each
    /// move of the line. The puzzle speaks of each with the engine's voice: the blunder is the
    /// engine's verdict on the first, the solver's moves its answers, and the opponent's
    /// replies its best defence.
    pub fn line_positions(&self) -> Result<Vec<Position>, PuzzleError> {
        let before: Position = self
            .position
            .parse()
            .map_err(|e| PuzzleError::Position(format!("{e}")))?;
        let mut game = self.start()?;
        let mut positions = vec![before, *game.position()];
        for mv in &self.solution {
            play(&mut game, mv)?;
            positions.push(*game.position());
        }
        Ok(positions)
    }

    /// The side that solves.
    pub fn solver(&self) -> Result<Side, PuzzleError> {
        Ok(self.start()?.position().side_to_move())
    }

    /// Checks the whole puzzle: the position reads, the blunder and every move of the
    /// solution are legal in turn, the line ends on the solver's move, and the game does not
    /// end before the line's last move.
    pub fn check(&self) -> Result<(), PuzzleError> {
        if self.solution.len().is_multiple_of(2) {
            return Err(PuzzleError::Shape);
        }
        let mut game = self.start()?;
        for mv in &self.solution {
            if game.outcome().is_some() {
                return Err(PuzzleError::EndsEarly);
            }
            play(&mut game, mv)?;
        }
        Ok(())
    }

    /// The number of moves the solver makes.
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }

    /// Judges the solver's `moves` (theirs only, in order). A move is right when it is the
    /// solution's, or when it wins the game at once (any den entry is as good as another).
    pub fn judge(&self, moves: &[String]) -> Result<Verdict, PuzzleError> {
        let mut game = self.start()?;
        let solver = game.position().side_to_move();
        for (n, given) in moves.iter().enumerate() {
            let Some(expected) = self.solution.get(2 * n) else {
                // Moves past the end: the puzzle was solved before them.
                return Ok(Verdict::Solved);
            };
            if given != expected {
                let Ok(turn) = given.parse::<Move>() else {
                    return Ok(Verdict::Failed { at: n });
                };
                let mut tried = game.clone();
                let wins = tried.play(Turn::Move(turn)).is_ok()
                    && tried.outcome().is_some_and(|o| o.winner == Some(solver));
                return Ok(if wins {
                    Verdict::Solved
                } else {
                    Verdict::Failed { at: n }
                });
            }
            play(&mut game, expected)?;
            if game.outcome().is_some() {
                return Ok(Verdict::Solved);
            }
            match self.solution.get(2 * n + 1) {
                Some(reply) => play(&mut game, reply)?,
                None => return Ok(Verdict::Solved),
            }
        }
        Ok(Verdict::Unfinished)
    }

    /// Whether the line ends in the den (the solver's last move enters it).
    pub fn ends_in_den(&self) -> bool {
        let Ok(mut game) = self.start() else {
            return false;
        };
        for mv in &self.solution {
            if play(&mut game, mv).is_err() {
                return false;
            }
        }
        game.outcome().is_some_and(|o| o.reason == EndReason::Den)
    }
}

fn play(game: &mut Game, text: &str) -> Result<(), PuzzleError> {
    let turn: Turn = text
        .parse()
        .map_err(|e| PuzzleError::Move(text.to_owned(), format!("{e}")))?;
    game.play(turn)
        .map_err(|e| PuzzleError::Move(text.to_owned(), format!("{e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blue's lion stands next to Red's den; Red's last move left it so: Blue enters.
    fn den_in_one() -> Puzzle {
        Puzzle {
            rules: Ruleset::International,
            position: "7/7/7/7/7/7/7/3l3/E6 r 0 30".into(),
            blunder: "a1a2".into(),
            solution: vec!["d2d1".into()],
            themes: vec![Theme::Den1],
            source: None,
            judged: None,
        }
    }

    #[test]
    fn a_puzzle_checks_under_the_rules_and_judges_attempts() {
        let puzzle = den_in_one();
        puzzle.check().expect("a sound puzzle");
        assert_eq!(puzzle.solver().unwrap(), Side::Blue);
        assert!(puzzle.ends_in_den());
        assert_eq!(puzzle.judge(&["d2d1".into()]), Ok(Verdict::Solved));
        assert_eq!(
            puzzle.judge(&["d2e2".into()]),
            Ok(Verdict::Failed { at: 0 })
        );
        assert_eq!(
            puzzle.judge(&["nonsense".into()]),
            Ok(Verdict::Failed { at: 0 })
        );
        assert_eq!(puzzle.judge(&[]), Ok(Verdict::Unfinished));
    }

    #[test]
    fn a_broken_puzzle_is_refused() {
        let mut even = den_in_one();
        even.solution.push("a9a8".into());
        assert_eq!(even.check(), Err(PuzzleError::Shape));
        let mut illegal = den_in_one();
        illegal.solution = vec!["d2d4".into()];
        assert!(matches!(illegal.check(), Err(PuzzleError::Move(..))));
        let mut unreadable = den_in_one();
        unreadable.position = "not a position".into();
        assert!(matches!(unreadable.check(), Err(PuzzleError::Position(_))));
    }
}
