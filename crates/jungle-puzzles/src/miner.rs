//! The miner (issue 27): finds in a game the move that threw it away, and keeps the position
//! as a puzzle when the punishment is a decisive line the engine can prove unique. Pure and
//! synchronous (the caller picks the thread): a game's turns in, a puzzle or the reason there
//! is none out.
//!
//! In the spirit of lichess-puzzler, in our own terms:
//! - the opponent's move must turn a position that was not already lost for them into one the
//!   solver wins (a den entry in some moves, or a decisive swing of material), throwing away
//!   at least half of the winning-chances scale, as judged again with the line's budget;
//! - at every solver move the best is clearly better than the second best (by winning
//!   chances, each found by its own search at a fixed node budget), except that any move that
//!   wins at once is as good as another;
//! - the opponent's replies are the engine's best; the line ends on the solver's move (for a
//!   line that wins material, on the solver's last capture); it is
//!   replayed by the rules crate from the puzzle's position, so repetitions and the history
//!   rules hold in it as in a game that started there;
//! - at most one puzzle a game: the first that holds.

use jungle_engine::{Info, Limits, Score, Searcher};
use jungle_rules::{Game, Move, Position, Ruleset, Side, Turn};

use super::chances::winning_chances;
use jungle_game::puzzle::Puzzle;
use jungle_game::themes;

/// The solver's moves in a line at most.
const MAX_SOLVER_MOVES: usize = 6;
/// Plies at the start of a game not looked at (the opening's moves are nobody's blunder).
const SKIPPED_PLIES: usize = 4;
/// The solver must win this clearly after the opponent's move…
const DECISIVE: f64 = 0.6;
/// …from a position where the opponent was not already lost (their chances above minus this,
/// by the scan; then, with the line's budget, above minus [`NOT_LOST_BEFORE`])…
const ALREADY_LOST: f64 = 0.6;
const NOT_LOST_BEFORE: f64 = 0.3;
/// …and the move threw away at least this much (a "mistake" that was the best move there
/// is no mistake).
const MISTAKE: f64 = 0.5;
/// The best move must beat the second by this many winning chances.
const UNIQUE_BY: f64 = 0.5;

/// Why a game gave no puzzle (counted for docs/benchmarks.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rejection {
    /// No move in it turned the game.
    NoTurningPoint,
    /// The turning point came in a game already decided.
    AlreadyDecided,
    /// At the solver's first move, another move was about as good.
    NotUnique,
    /// The line did not end in a won position.
    NotDecisive,
    /// The blunder or the line did not replay from the puzzle's own position (history rules).
    DoesNotReplay,
    /// The engine's table was wanted for a game before the miner was done: try again later.
    Interrupted,
}

impl Rejection {
    pub const ALL: [Rejection; 6] = [
        Rejection::NoTurningPoint,
        Rejection::AlreadyDecided,
        Rejection::NotUnique,
        Rejection::NotDecisive,
        Rejection::DoesNotReplay,
        Rejection::Interrupted,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Rejection::NoTurningPoint => "no turning point",
            Rejection::AlreadyDecided => "already decided",
            Rejection::NotUnique => "solution not unique",
            Rejection::NotDecisive => "line not decisive",
            Rejection::DoesNotReplay => "does not replay",
            Rejection::Interrupted => "interrupted",
        }
    }
}

/// The miner's budgets, in search nodes (fixed, so a mine is the same on every machine).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// For the scan of every position of a game.
    pub scan: u64,
    /// For each move of a candidate's line, and its second best.
    pub solve: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            scan: 20_000,
            solve: 200_000,
        }
    }
}

/// Where the miner's searches run: a table of its own (the command line), or one the server's
/// engine pool lends for each search (mining in the background, see [`super::background`]).
pub trait Tables {
    /// Runs `limits` of search in `game` among `moves`; `None` if the search was stopped
    /// before its budget was spent (the table was wanted elsewhere).
    fn search_among(
        &mut self,
        game: &Game,
        moves: &[Move],
        limits: Limits,
    ) -> Option<(Option<Move>, Option<Info>)>;
}

impl Tables for Searcher {
    fn search_among(
        &mut self,
        game: &Game,
        moves: &[Move],
        limits: Limits,
    ) -> Option<(Option<Move>, Option<Info>)> {
        self.set_rules(*game.rules());
        Some(Searcher::search_among(self, game, moves, limits, |_| {}))
    }
}

pub struct Miner<T: Tables = Searcher> {
    tables: T,
    budget: Budget,
    /// A search was stopped: what is being mined is given up, to be tried again.
    interrupted: bool,
}

impl Miner<Searcher> {
    pub fn new(ruleset: Ruleset, budget: Budget) -> Miner<Searcher> {
        Miner::with_tables(Searcher::new(ruleset.rules(), 16), budget)
    }
}

impl<T: Tables> Miner<T> {
    pub fn with_tables(tables: T, budget: Budget) -> Miner<T> {
        Miner {
            tables,
            budget,
            interrupted: false,
        }
    }

    /// The engine's best move in `game` and its score for the side to move.
    fn best(&mut self, game: &Game, nodes: u64) -> Option<(Move, Score)> {
        let moves = game.legal_moves().to_vec();
        self.best_among(game, &moves, nodes)
    }

    fn best_among(&mut self, game: &Game, moves: &[Move], nodes: u64) -> Option<(Move, Score)> {
        if self.interrupted {
            return None;
        }
        let limits = Limits {
            depth: None,
            movetime: None,
            nodes: Some(nodes),
        };
        let Some((best, info)) = self.tables.search_among(game, moves, limits) else {
            self.interrupted = true;
            return None;
        };
        Some((best?, Score::from_search(info?.score)))
    }

    /// The first puzzle in the game of `turns` from `start`, or why there is none.
    pub fn mine(
        &mut self,
        ruleset: Ruleset,
        start: Position,
        turns: &[Turn],
        source: Option<uuid::Uuid>,
    ) -> Result<Puzzle, Rejection> {
        self.interrupted = false;
        let found = self.first_puzzle(ruleset, start, turns, source);
        if self.interrupted {
            return Err(Rejection::Interrupted);
        }
        found
    }

    fn first_puzzle(
        &mut self,
        ruleset: Ruleset,
        start: Position,
        turns: &[Turn],
        source: Option<uuid::Uuid>,
    ) -> Result<Puzzle, Rejection> {
        let mut game = Game::new(ruleset.rules(), start);
        let mut rejection = Rejection::NoTurningPoint;
        for (ply, &turn) in turns.iter().enumerate() {
            if self.interrupted {
                break;
            }
            if ply >= SKIPPED_PLIES {
                if let Turn::Move(blunder) = turn {
                    match self.turning_point(ruleset, &game, blunder, source) {
                        Some(Ok(puzzle)) => return Ok(puzzle),
                        Some(Err(why)) => rejection = rejection.max(why),
                        None => {}
                    }
                }
            }
            if game.play(turn).is_err() || game.outcome().is_some() {
                break;
            }
        }
        Err(rejection)
    }

    /// Whether `blunder`, played in `game`, turns it: `None` if not, else the puzzle or why
    /// it does not hold.
    fn turning_point(
        &mut self,
        ruleset: Ruleset,
        game: &Game,
        blunder: Move,
        source: Option<uuid::Uuid>,
    ) -> Option<Result<Puzzle, Rejection>> {
        let scan = self.budget.scan;
        let mut after = game.clone();
        after.play(Turn::Move(blunder)).ok()?;
        if after.outcome().is_some() {
            return None;
        }
        let (_, solver_score) = self.best(&after, scan)?;
        if winning_chances(solver_score) < DECISIVE {
            return None;
        }
        let (_, mover_score) = self.best(game, scan)?;
        if winning_chances(mover_score) < -ALREADY_LOST {
            return Some(Err(Rejection::AlreadyDecided));
        }
        // Looked at again with more thought: not lost before, and lost by this move.
        if !self.a_real_mistake(game, blunder, self.budget.solve)? {
            return Some(Err(Rejection::AlreadyDecided));
        }
        // The puzzle's own game: the history rules start at its position.
        let position = *game.position();
        let mut fresh = Game::new(ruleset.rules(), position);
        if fresh.play(Turn::Move(blunder)).is_err() {
            return Some(Err(Rejection::DoesNotReplay));
        }
        let solution = match self.solve(fresh) {
            Ok(line) => line,
            Err(why) => return Some(Err(why)),
        };
        let mut puzzle = Puzzle {
            rules: ruleset,
            position: position.to_string(),
            blunder: blunder.to_string(),
            solution: solution.iter().map(Move::to_string).collect(),
            themes: Vec::new(),
            source,
        };
        if puzzle.check().is_err() {
            return Some(Err(Rejection::DoesNotReplay));
        }
        puzzle.themes = themes::detect(&puzzle);
        Some(Ok(puzzle))
    }

    /// The line from `game` (the solver to move): unique solver moves and the engine's best
    /// replies, ending on the solver's move in a won position.
    fn solve(&mut self, mut game: Game) -> Result<Vec<Move>, Rejection> {
        let nodes = self.budget.solve;
        let solver = game.position().side_to_move();
        let start = game.clone();
        let mut line: Vec<Move> = Vec::new();
        for step in 0..MAX_SOLVER_MOVES {
            let (best, score) = self.best(&game, nodes).ok_or(Rejection::NotDecisive)?;
            let mut next = game.clone();
            next.play(Turn::Move(best))
                .map_err(|_| Rejection::DoesNotReplay)?;
            if wins(&next, solver) {
                line.push(best);
                return Ok(line);
            }
            // The second best, among the moves that do not win at once either.
            let others: Vec<Move> = game
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| m != best && !wins_with(&game, m, solver))
                .collect();
            let second = match self.best_among(&game, &others, nodes) {
                Some((_, second)) => winning_chances(second),
                None => -1.0,
            };
            if winning_chances(score) - second < UNIQUE_BY {
                if step == 0 {
                    return Err(Rejection::NotUnique);
                }
                // The line so far ended on the opponent's reply: it ends a move earlier.
                line.pop();
                break;
            }
            line.push(best);
            game = next;
            if step + 1 == MAX_SOLVER_MOVES {
                break;
            }
            let Some((reply, _)) = self.best(&game, nodes) else {
                break;
            };
            line.push(reply);
            game.play(Turn::Move(reply))
                .map_err(|_| Rejection::DoesNotReplay)?;
            if game.outcome().is_some() {
                line.pop();
                break;
            }
        }
        if line.is_empty() {
            return Err(Rejection::NotUnique);
        }
        // A line that wins material ends on the solver's capture: quiet moves after the last
        // one are no part of the puzzle.
        let last_capture = last_solver_capture(&start, &line).ok_or(Rejection::NotDecisive)?;
        line.truncate(last_capture + 1);
        // Won at the end: the last solver move leaves a decisive position.
        let mut replay = start;
        for &m in &line {
            replay
                .play(Turn::Move(m))
                .map_err(|_| Rejection::DoesNotReplay)?;
        }
        let (_, opponent_score) = match self.best(&replay, nodes) {
            Some(found) => found,
            None => return Ok(line),
        };
        if -winning_chances(opponent_score) < DECISIVE {
            return Err(Rejection::NotDecisive);
        }
        Ok(line)
    }

    /// Whether the mover of `blunder` in `game` was not already lost there, and lost by it
    /// (their chances before, less theirs after, at least [`MISTAKE`]), with `nodes` of thought.
    fn a_real_mistake(&mut self, game: &Game, blunder: Move, nodes: u64) -> Option<bool> {
        let (_, before) = self.best(game, nodes)?;
        let mut after = game.clone();
        after.play(Turn::Move(blunder)).ok()?;
        let (_, solver_after) = self.best(&after, nodes)?;
        let before = winning_chances(before);
        Some(before >= -NOT_LOST_BEFORE && before + winning_chances(solver_after) >= MISTAKE)
    }
}

impl<T: Tables> Miner<T> {
    /// Checks again, with `nodes` per search, that each solver move of `puzzle` is the
    /// engine's best (or wins at once) and clearly better than the second best: a shipped
    /// puzzle is re-checked so, with more thought than it was mined with.
    pub fn recheck(&mut self, puzzle: &Puzzle, nodes: u64) -> Result<(), String> {
        let before: Position = puzzle.position.parse().map_err(|e| format!("{e}"))?;
        let before = Game::new(puzzle.rules.rules(), before);
        let blunder: Move = puzzle.blunder.parse().map_err(|e| format!("{e}"))?;
        if self.a_real_mistake(&before, blunder, nodes) != Some(true) {
            return Err("the opponent's move is no mistake, or the game was lost before it".into());
        }
        let mut game = puzzle.start().map_err(|e| e.to_string())?;
        let line: Vec<Move> = puzzle
            .solution
            .iter()
            .map(|m| m.parse().map_err(|e| format!("{e}")))
            .collect::<Result<_, String>>()?;
        if !wins_at_end(&game, &line) && last_solver_capture(&game, &line) != Some(line.len() - 1) {
            return Err("the line does not end on the solver's capture or win".into());
        }
        let solver = game.position().side_to_move();
        for (i, text) in puzzle.solution.iter().enumerate() {
            let mv: Move = text.parse().map_err(|e| format!("{e}"))?;
            if i % 2 == 0 && !wins_with(&game, mv, solver) {
                let (best, score) = self.best(&game, nodes).ok_or("no move")?;
                if best != mv && !wins_with(&game, best, solver) {
                    return Err(format!(
                        "move {}: the engine prefers {best} to {mv}",
                        i / 2 + 1
                    ));
                }
                let others: Vec<Move> = game
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| m != mv && !wins_with(&game, m, solver))
                    .collect();
                if let Some((second, second_score)) = self.best_among(&game, &others, nodes) {
                    let margin = winning_chances(score) - winning_chances(second_score);
                    if margin < UNIQUE_BY {
                        return Err(format!(
                            "move {}: {second} is nearly as good as {mv} ({margin:.2})",
                            i / 2 + 1
                        ));
                    }
                }
            }
            game.play(Turn::Move(mv))
                .map_err(|e| format!("{mv}: {e}"))?;
        }
        Ok(())
    }
}

/// The index in `line` (played from `game`) of the solver's last capturing or winning move.
fn last_solver_capture(game: &Game, line: &[Move]) -> Option<usize> {
    let mut replay = game.clone();
    let solver = replay.position().side_to_move();
    let mut last = None;
    for (i, &m) in line.iter().enumerate() {
        let takes = replay.position().piece_at(m.to).is_some();
        replay.play(Turn::Move(m)).ok()?;
        if i % 2 == 0 && (takes || wins(&replay, solver)) {
            last = Some(i);
        }
    }
    last
}

/// Whether `line`, played from `game`, ends with the solver's win.
fn wins_at_end(game: &Game, line: &[Move]) -> bool {
    let mut replay = game.clone();
    let solver = replay.position().side_to_move();
    line.iter().all(|&m| replay.play(Turn::Move(m)).is_ok()) && wins(&replay, solver)
}

/// Whether the game is over, won by `side`.
fn wins(game: &Game, side: Side) -> bool {
    game.outcome().is_some_and(|o| o.winner == Some(side))
}

fn wins_with(game: &Game, m: Move, side: Side) -> bool {
    let mut after = game.clone();
    after.play(Turn::Move(m)).is_ok() && wins(&after, side)
}
