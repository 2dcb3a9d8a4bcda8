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
//! - the opponent's replies are the engine's best; the line ends on the solver's move, at its
//!   point (issue 53): a den entry, or, for a line that wins material, the first quiet position
//!   at or after the solver's last capture (the opponent cannot take the capturing animal back
//!   at once, or the line already answered the recapture); a line the engine sees going on to a
//!   forced den entry it cannot follow uniquely is no material puzzle;
//! - a material line is judged at its quiet end by two measures that share no scale: the
//!   engine's winning chances at twice the line's budget, and the animals counted (the solver
//!   up by at least one since the position before the mistake: an exchange is no win); both
//!   are kept in the puzzle ([`Judged`]);
//! - the line is replayed by the rules crate from the puzzle's position, so repetitions and
//!   the history rules hold in it as in a game that started there;
//! - at most one puzzle a game: the first that holds.

use jungle_engine::{Info, Limits, Score, Searcher};
use jungle_rules::{Game, Move, Position, Ruleset, Side, Square, Turn};

use super::chances::winning_chances;
use jungle_game::puzzle::{Judged, Puzzle};
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
/// A line's end is judged with this many times the line's budget.
const JUDGE_FACTOR: u64 = 2;

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
    /// No quiet end: the opponent could take the capturing animal back, and the line did not
    /// answer it.
    NotQuiet,
    /// Won by the engine's measure, but the animals counted say an exchange.
    OnlyAnExchange,
    /// The engine sees a forced den entry the line cannot reach by unique moves: its point is
    /// not a material win.
    StopsShort,
    /// The blunder or the line did not replay from the puzzle's own position (history rules).
    DoesNotReplay,
    /// The engine's table was wanted for a game before the miner was done: try again later.
    Interrupted,
}

impl Rejection {
    pub const ALL: [Rejection; 9] = [
        Rejection::NoTurningPoint,
        Rejection::AlreadyDecided,
        Rejection::NotUnique,
        Rejection::NotDecisive,
        Rejection::NotQuiet,
        Rejection::OnlyAnExchange,
        Rejection::StopsShort,
        Rejection::DoesNotReplay,
        Rejection::Interrupted,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Rejection::NoTurningPoint => "no turning point",
            Rejection::AlreadyDecided => "already decided",
            Rejection::NotUnique => "solution not unique",
            Rejection::NotDecisive => "line not decisive",
            Rejection::NotQuiet => "no quiet end",
            Rejection::OnlyAnExchange => "only an exchange",
            Rejection::StopsShort => "stops short of a den",
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

    /// `puzzle`'s position and mistake mined again by the present rules: the puzzle as it is
    /// mined now (the same id: its position and mistake), or why it no longer holds.
    pub fn rejudge(&mut self, puzzle: &Puzzle) -> Result<Puzzle, Rejection> {
        self.interrupted = false;
        let position: Position = puzzle
            .position
            .parse()
            .map_err(|_| Rejection::DoesNotReplay)?;
        let blunder: Move = puzzle
            .blunder
            .parse()
            .map_err(|_| Rejection::DoesNotReplay)?;
        let game = Game::new(puzzle.rules.rules(), position);
        let found = self
            .turning_point(puzzle.rules, &game, blunder, puzzle.source)
            .unwrap_or(Err(Rejection::NoTurningPoint));
        if self.interrupted {
            return Err(Rejection::Interrupted);
        }
        found
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
        // The puzzle's own game: the history rules start at its position. What the solver
        // will see is judged there: in the game it came from, its history may have forbidden
        // a move (a den entry among them) that the puzzle's own game allows.
        let position = *game.position();
        let own = Game::new(ruleset.rules(), position);
        // Looked at again with more thought: not lost before, and lost by this move.
        if !self.a_real_mistake(&own, blunder, self.budget.solve)? {
            return Some(Err(Rejection::AlreadyDecided));
        }
        let mut fresh = own;
        if fresh.play(Turn::Move(blunder)).is_err() {
            return Some(Err(Rejection::DoesNotReplay));
        }
        let (solution, judged) = match self.solve(&position, fresh) {
            Ok(found) => found,
            Err(why) => return Some(Err(why)),
        };
        let mut puzzle = Puzzle {
            rules: ruleset,
            position: position.to_string(),
            blunder: blunder.to_string(),
            solution: solution.iter().map(Move::to_string).collect(),
            themes: Vec::new(),
            source,
            judged: Some(judged),
        };
        if puzzle.check().is_err() {
            return Some(Err(Rejection::DoesNotReplay));
        }
        puzzle.themes = themes::detect(&puzzle);
        Some(Ok(puzzle))
    }

    /// The line from `game` (the solver to move, `before` the position before the opponent's
    /// mistake): unique solver moves and the engine's best replies, ending on the solver's move
    /// at its point, and how that end was judged.
    fn solve(
        &mut self,
        before: &Position,
        mut game: Game,
    ) -> Result<(Vec<Move>, Judged), Rejection> {
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
                let judged = Judged {
                    chances_permille: 1000,
                    animals_up: animals_up(before, next.position(), solver),
                    den: true,
                };
                return Ok((line, judged));
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
        // A line that wins material ends where the material is safe: quiet moves after that
        // are no part of the puzzle, and an end the opponent can take back is none.
        last_solver_capture(&start, &line).ok_or(Rejection::NotDecisive)?;
        let end = quiet_end(&start, &line).ok_or(Rejection::NotQuiet)?;
        line.truncate(end + 1);
        let mut replay = start;
        for &m in &line {
            replay
                .play(Turn::Move(m))
                .map_err(|_| Rejection::DoesNotReplay)?;
        }
        // Judged there by the engine, with more thought…
        let (_, opponent_score) = self
            .best(&replay, nodes * JUDGE_FACTOR)
            .ok_or(Rejection::Interrupted)?;
        if matches!(opponent_score, Score::DenIn(n) if n < 0) {
            return Err(Rejection::StopsShort);
        }
        let chances = -winning_chances(opponent_score);
        if chances < DECISIVE {
            return Err(Rejection::NotDecisive);
        }
        // …and by the animals on the board, which no evaluation weighs.
        let up = animals_up(before, replay.position(), solver);
        if up < 1 {
            return Err(Rejection::OnlyAnExchange);
        }
        let judged = Judged {
            chances_permille: (chances * 1000.0).round() as i32,
            animals_up: up,
            den: false,
        };
        Ok((line, judged))
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
        if !wins_at_end(&game, &line) && quiet_end(&game, &line) != Some(line.len() - 1) {
            return Err("the line does not end at its point: a den, or material made safe".into());
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

/// The index in `line` (played from `game`) of its first quiet end: a solver move at or after
/// the solver's last capture after which the opponent cannot take the animal that made it
/// (where it stands then); an animal taken back in the line is answered, and the next solver
/// move may end it. `None` if no such move is in the line.
pub fn quiet_end(game: &Game, line: &[Move]) -> Option<usize> {
    let last_capture = last_solver_capture(game, line)?;
    let mut replay = game.clone();
    let mut capturer: Option<Square> = None;
    for (i, &m) in line.iter().enumerate() {
        let takes = replay.position().piece_at(m.to).is_some();
        if i % 2 == 0 {
            // A capture makes its taker the one to watch; that animal moving on takes it along.
            if takes || capturer == Some(m.from) {
                capturer = Some(m.to);
            }
        } else if capturer == Some(m.to) {
            capturer = None;
        }
        replay.play(Turn::Move(m)).ok()?;
        if i % 2 == 0 && i >= last_capture && replay.outcome().is_none() {
            let open = capturer.is_some_and(|sq| replay.legal_moves().iter().any(|o| o.to == sq));
            if !open {
                return Some(i);
            }
        }
        if i % 2 == 0 && wins(&replay, !replay.position().side_to_move()) {
            return Some(i);
        }
    }
    None
}

/// How many animals `side` is up by in `after`, less how many it was up by in `before`.
pub fn animals_up(before: &Position, after: &Position, side: Side) -> i32 {
    let balance = |p: &Position| {
        p.pieces()
            .map(|(_, piece)| if piece.side == side { 1 } else { -1 })
            .sum::<i32>()
    };
    balance(after) - balance(before)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn game_after(rules: Ruleset, position: &str, blunder: &str) -> (Position, Game) {
        let before: Position = position.parse().expect("a position");
        let mut game = Game::new(rules.rules(), before);
        game.play(Turn::Move(blunder.parse().expect("a move")))
            .expect("legal");
        (before, game)
    }

    fn moves(line: &[&str]) -> Vec<Move> {
        line.iter().map(|m| m.parse().expect("a move")).collect()
    }

    /// The rat takes the elephant on a3, where Red's cat (come to a2 in the line) takes it
    /// back at once: no quiet end, and counted, a rat for an elephant would be no win.
    #[test]
    fn a_capture_the_opponent_takes_back_is_no_quiet_end() {
        let (before, game) = game_after(
            Ruleset::Classic,
            "6t/ld3c1/2p1w1e/7/r6/7/E1WP1R1/1C3D1/T4L1 r 6 4",
            "f3f4",
        );
        let line = moves(&["a5a4", "b2a2", "a4a3"]);
        assert_eq!(last_solver_capture(&game, &line), Some(2));
        assert_eq!(quiet_end(&game, &line), None, "the cat takes the rat back");
        let mut end = game.clone();
        for &m in &line {
            end.play(Turn::Move(m)).expect("legal");
        }
        assert_eq!(animals_up(&before, end.position(), Side::Blue), 1);
        // The cat takes back: the exchange leaves Blue level.
        end.play(Turn::Move("a2a3".parse().expect("a move")))
            .expect("the recapture is legal");
        assert_eq!(animals_up(&before, end.position(), Side::Blue), 0);
    }

    /// A den entry is its own end.
    #[test]
    fn a_den_entry_ends_a_line() {
        let (_, game) = game_after(
            Ruleset::International,
            "7/7/7/7/7/7/7/3l3/E6 r 0 30",
            "a1a2",
        );
        let line = moves(&["d2d1"]);
        assert_eq!(quiet_end(&game, &line), Some(0));
        assert!(wins_at_end(&game, &line));
    }
}
