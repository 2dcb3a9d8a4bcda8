//! Iterative-deepening negamax with alpha-beta (principal variation search), a transposition
//! table, move ordering (table move, den entries, captures by value, killers, history),
//! quiescence on captures and den threats, and a den-threat extension.
//!
//! The search runs on `Position` (copy-make, Zobrist keys); the history rules (7-3, 17-5) are
//! applied at the root, where the game's legal moves come from `Game`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use jungle_rules::{Bitboard, Game, Move, MoveList, Position, Rules, Square};

use crate::eval::{evaluate, VALUE};
use crate::tt::{pack, unpack, Bound, Entry, Table};

pub const MATE: i32 = 30_000;
const MAX_PLY: usize = 96;
const INF: i32 = 32_000;
/// How much shallower the null-move search looks.
const NULL_REDUCTION: i32 = 2;

/// How long and how deep to search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
}

/// Reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

pub struct Searcher {
    rules: Rules,
    tt: Table,
    killers: [[u16; 2]; MAX_PLY],
    history: Box<[[i32; 64]; 64]>,
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stopped: bool,
    /// Time and node limits only apply once the first iteration is complete, so a move is
    /// always chosen with at least a one-ply look, however slow the machine.
    may_stop: bool,
    /// False right after a null move, so two never follow each other.
    null_allowed: bool,
    /// Zobrist keys of the game so far and the current search path, for repetitions.
    path: Vec<u64>,
    /// Raised from another thread to end the search early (UCI `stop`).
    stop_flag: Option<Arc<AtomicBool>>,
}

impl Searcher {
    pub fn new(rules: Rules, tt_megabytes: usize) -> Searcher {
        Searcher {
            rules,
            tt: Table::new(tt_megabytes),
            killers: [[0; 2]; MAX_PLY],
            history: Box::new([[0; 64]; 64]),
            nodes: 0,
            deadline: None,
            node_limit: None,
            stopped: false,
            may_stop: false,
            null_allowed: true,
            path: Vec::new(),
            stop_flag: None,
        }
    }

    /// A flag another thread may raise to end the search: it then returns its best move so
    /// far, as with a spent time budget (still after at least one full iteration).
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop_flag = flag;
    }

    /// Searches under `rules` from now on; the tables are cleared when they change, since
    /// what they hold was judged under other rules.
    pub fn set_rules(&mut self, rules: Rules) {
        if self.rules != rules {
            self.rules = rules;
            self.clear();
        }
    }

    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|row| row.fill(0));
    }

    /// Searches the game's position; `on_info` hears each finished depth. Returns the best
    /// move (`None` only when the game is over) and the last info.
    pub fn search(
        &mut self,
        game: &Game,
        limits: Limits,
        on_info: impl FnMut(&Info),
    ) -> (Option<Move>, Option<Info>) {
        let moves = game.legal_moves().to_vec();
        self.search_among(game, &moves, limits, on_info)
    }

    /// Searches as [`Searcher::search`] does, choosing only among `moves` at the root (legal
    /// moves of the game): the best move other than one already known, say, to tell whether
    /// the best is the only good one. `(None, None)` when `moves` is empty.
    pub fn search_among(
        &mut self,
        game: &Game,
        moves: &[Move],
        limits: Limits,
        mut on_info: impl FnMut(&Info),
    ) -> (Option<Move>, Option<Info>) {
        let started = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.may_stop = false;
        self.deadline = limits.movetime.map(|t| started + t);
        self.node_limit = limits.nodes;
        self.killers = [[0; 2]; MAX_PLY];
        self.path = replay_keys(game);
        let mut root_moves: Vec<Move> = moves.to_vec();
        if root_moves.is_empty() {
            return (None, None);
        }
        let position = *game.position();
        let mut best = root_moves[0];
        let mut last_info = None;
        let max_depth = limits.depth.unwrap_or(64).clamp(1, MAX_PLY as u32 - 8);
        for depth in 1..=max_depth {
            let mut alpha = -INF;
            let beta = INF;
            let mut best_this = None;
            for (i, &m) in root_moves.iter().enumerate() {
                let mut child = position;
                child.play_unchecked(m);
                self.path.push(child.hash());
                let score = if i == 0 {
                    -self.negamax(&child, depth as i32 - 1, -beta, -alpha, 1)
                } else {
                    let probe = -self.negamax(&child, depth as i32 - 1, -alpha - 1, -alpha, 1);
                    if probe > alpha && !self.stopped {
                        -self.negamax(&child, depth as i32 - 1, -beta, -alpha, 1)
                    } else {
                        probe
                    }
                };
                self.path.pop();
                if self.stopped {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best_this = Some(m);
                }
            }
            // A partial iteration still counts if its first (previous best) move was searched.
            if let Some(m) = best_this {
                best = m;
                root_moves.retain(|&x| x != m);
                root_moves.insert(0, m);
            }
            if self.stopped {
                break;
            }
            let info = Info {
                depth,
                score: alpha,
                nodes: self.nodes,
                elapsed: started.elapsed(),
                pv: self.principal_variation(&position, best),
            };
            on_info(&info);
            last_info = Some(info);
            self.may_stop = true;
            if alpha.abs() > MATE - 200 {
                break;
            }
            if let Some(deadline) = self.deadline {
                // Another iteration takes several times longer than this one: do not start it late.
                let now = Instant::now();
                if now >= deadline || (deadline - now) < started.elapsed() / 2 {
                    break;
                }
            }
        }
        (Some(best), last_info)
    }

    /// Scores every root move at a fixed depth (for the weaker levels, which add noise).
    pub fn score_root_moves(&mut self, game: &Game, depth: u32) -> Vec<(Move, i32)> {
        self.nodes = 0;
        self.stopped = false;
        self.may_stop = false;
        self.deadline = None;
        self.node_limit = None;
        self.path = replay_keys(game);
        let position = *game.position();
        game.legal_moves()
            .iter()
            .map(|&m| {
                let mut child = position;
                child.play_unchecked(m);
                self.path.push(child.hash());
                let score = -self.negamax(&child, depth as i32 - 1, -INF, INF, 1);
                self.path.pop();
                (m, score)
            })
            .collect()
    }

    fn principal_variation(&self, position: &Position, first: Move) -> Vec<Move> {
        let mut pv = vec![first];
        let mut pos = *position;
        pos.play_unchecked(first);
        let mut seen = vec![pos.hash()];
        while pv.len() < 16 {
            let Some(entry) = self.tt.probe(pos.hash()) else {
                break;
            };
            let Some(m) = unpack(entry.best) else { break };
            if !pos.legal_moves(&self.rules).contains(m) {
                break;
            }
            pos.play_unchecked(m);
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            pv.push(m);
        }
        pv
    }

    fn check_stop(&mut self) {
        if self.nodes & 2047 != 0 || !self.may_stop {
            return;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.node_limit.is_some_and(|n| self.nodes >= n)
            || self
                .stop_flag
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
    }

    /// Counts the node and answers at once when the search must stop (0) or the position is
    /// finished (its score).
    fn enter_node(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return Some(0);
        }
        self.terminal(pos, ply)
    }

    /// The score of a finished position for the side to move, if it is finished.
    fn terminal(&self, pos: &Position, ply: usize) -> Option<i32> {
        if let Some(outcome) = pos.board_outcome() {
            return Some(match outcome.winner {
                Some(side) if side == pos.side_to_move() => MATE - ply as i32,
                Some(_) => -(MATE - ply as i32),
                None => 0,
            });
        }
        if pos.plies_since_capture() >= self.rules.no_capture_draw_plies {
            return Some(0);
        }
        // A position met before with the same side to move: treat the cycle as a draw.
        let key = pos.hash();
        let len = self.path.len();
        if len >= 5
            && self.path[..len - 1]
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .any(|&k| k == key)
        {
            return Some(0);
        }
        None
    }

    /// An enemy animal in one of our traps stands next to our den: it wins next move.
    fn den_threatened(pos: &Position) -> bool {
        let us = pos.side_to_move();
        !(pos.occupied_by(!us) & Bitboard::trap(us)).is_empty()
    }

    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(pos, &self.rules);
        }
        if depth <= 0 {
            if Self::den_threatened(pos) && ply < MAX_PLY / 2 {
                depth = 1;
            } else {
                return self.quiesce(pos, alpha, beta, ply);
            }
        }
        let key = pos.hash();
        let mut tt_move = 0;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = entry.best;
            if entry.depth as i32 >= depth {
                let score = from_tt(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        // Null move: if passing still leaves us at or above beta, a real move will too. Not
        // under a den threat (passing would lose at once), not twice in a row, not near mates.
        let null_window = beta < MATE - 500 && alpha > -(MATE - 500);
        if depth >= 3
            && null_window
            && self.null_allowed
            && !Self::den_threatened(pos)
            && evaluate(pos, &self.rules) >= beta
        {
            let mut passed = *pos;
            passed.pass();
            self.path.push(passed.hash());
            self.null_allowed = false;
            let score = -self.negamax(
                &passed,
                depth - 1 - NULL_REDUCTION,
                -beta,
                -beta + 1,
                ply + 1,
            );
            self.null_allowed = true;
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return beta;
            }
        }
        let mut moves = pos.legal_moves(&self.rules);
        if moves.is_empty() {
            return -(MATE - ply as i32);
        }
        let scores = self.order(pos, &moves, tt_move, ply);
        sort_by_scores(&mut moves, scores);
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = moves[0];
        for (i, &m) in moves.iter().enumerate() {
            let mut child = *pos;
            let captured = pos.piece_at(m.to).is_some();
            child.play_unchecked(m);
            self.path.push(child.hash());
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves are searched one ply shallower first.
                let reduce = if i >= 4 && depth >= 3 && !captured {
                    1
                } else {
                    0
                };
                let mut s = -self.negamax(&child, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1);
                if s > alpha && !self.stopped {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !captured {
                    let code = pack(m);
                    if self.killers[ply][0] != code {
                        self.killers[ply][1] = self.killers[ply][0];
                        self.killers[ply][0] = code;
                    }
                    self.history[m.from.index()][m.to.index()] += depth * depth;
                }
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(Entry {
            key,
            best: pack(best_move),
            score: to_tt(best, ply),
            depth: depth as i8,
            bound,
        });
        best
    }

    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        let us = pos.side_to_move();
        let enemy_den = Square::den(!us);
        let threatened = Self::den_threatened(pos);
        // Under a den threat only a capture (or our own den entry) saves us: no standing pat.
        let stand = if threatened {
            -(MATE - ply as i32 - 1)
        } else {
            evaluate(pos, &self.rules)
        };
        if stand >= beta {
            return stand;
        }
        if ply >= MAX_PLY - 2 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = pos.legal_moves(&self.rules);
        moves.retain(|m| m.to == enemy_den || pos.piece_at(m.to).is_some());
        let scores = self.order(pos, &moves, 0, ply);
        sort_by_scores(&mut moves, scores);
        let mut best = stand;
        for &m in moves.iter() {
            let mut child = *pos;
            child.play_unchecked(m);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    fn order(
        &self,
        pos: &Position,
        moves: &MoveList,
        tt_move: u16,
        ply: usize,
    ) -> [i32; jungle_rules::MAX_MOVES] {
        let mut scores = [0i32; jungle_rules::MAX_MOVES];
        let enemy_den = Square::den(!pos.side_to_move());
        for (i, &m) in moves.iter().enumerate() {
            let code = pack(m);
            scores[i] = if code == tt_move {
                10_000_000
            } else if m.to == enemy_den {
                9_000_000
            } else if let Some(victim) = pos.piece_at(m.to) {
                let attacker = pos.piece_at(m.from).map_or(0, |p| p.animal.rank() as i32);
                1_000_000 + VALUE[victim.animal.index()] * 16 - attacker
            } else if self.killers[ply][0] == code {
                900_000
            } else if self.killers[ply][1] == code {
                800_000
            } else {
                self.history[m.from.index()][m.to.index()].min(700_000)
            };
        }
        scores
    }
}

/// Insertion sort, best first: lists are short and this allocates nothing.
fn sort_by_scores(moves: &mut MoveList, mut scores: [i32; jungle_rules::MAX_MOVES]) {
    let slice = moves.as_mut_slice();
    for i in 1..slice.len() {
        let mut j = i;
        while j > 0 && scores[j - 1] < scores[j] {
            scores.swap(j - 1, j);
            slice.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Mate scores are stored relative to the node, so they stay right wherever they are found.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE - 500 {
        score + ply as i32
    } else if score < -(MATE - 500) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE - 500 {
        score - ply as i32
    } else if score < -(MATE - 500) {
        score + ply as i32
    } else {
        score
    }
}

/// The Zobrist keys of every position of the game so far (for repetition detection).
fn replay_keys(game: &Game) -> Vec<u64> {
    let mut pos = *game.start();
    let mut keys = vec![pos.hash()];
    for turn in game.turns() {
        match turn.as_move() {
            Some(m) => {
                pos.play_unchecked(m);
            }
            None => pos.pass(),
        }
        keys.push(pos.hash());
    }
    keys
}
