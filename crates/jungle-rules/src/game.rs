use crate::{
    Animal, AntiChaseRule, Bitboard, EndReason, Move, MoveList, Outcome, PlayError, Position,
    Rules, Turn,
};

/// A game in progress: the position, every turn played since the start, and the outcome once
/// there is one. Applies every rule, the history rules (7-3, 17-5) and the no-capture draw
/// included. This is what a server keeps per room.
///
/// ```
/// use jungle_rules::{Game, Position, Rules, Turn};
///
/// let mut game = Game::new(Rules::CLASSIC, Position::start());
/// game.play("g3g4".parse()?)?;
/// game.play(Turn::Pass)?;
/// assert_eq!(game.turns().map(|t| t.to_string()).collect::<Vec<_>>(), ["g3g4", "pass"]);
/// assert!(game.outcome().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    start: Position,
    position: Position,
    history: Vec<PlayedTurn>,
    /// The Zobrist hash (animals and side to move) of the position after each turn, for the
    /// cycle rule; `hashes[i]` follows turn `i`.
    hashes: Vec<u64>,
    outcome: Option<Outcome>,
    /// The legal moves now, history rules applied: worked out once per turn, because a server
    /// asks for them several times a move (to check it, to judge the end, to tell the players).
    legal: MoveList,
}

/// One turn of a game's history, with what the history rules need to know about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayedTurn {
    pub turn: Turn,
    /// The animal that moved; `None` for a pass.
    pub animal: Option<Animal>,
    /// The enemy animal it captured, if any.
    pub captured: Option<Animal>,
}

/// How many of the mover's own turns each anti-chase rule looks back over.
const SEVEN_THREE_WINDOW: usize = 7;
const SEVEN_THREE_LIMIT: usize = 3;
const SEVENTEEN_FIVE_WINDOW: usize = 17;
const SEVENTEEN_FIVE_SQUARES: u32 = 5;

impl Game {
    /// A game from `start` with an empty history. The outcome is already set if `start` is over
    /// (a den entered, a side without animals, no legal move, or the no-capture limit reached).
    pub fn new(rules: Rules, start: Position) -> Game {
        let mut game = Game {
            rules,
            start,
            position: start,
            history: Vec::new(),
            hashes: Vec::new(),
            outcome: None,
            legal: MoveList::new(),
        };
        game.judge();
        game
    }

    /// Replays `turns` from `start`, stopping at the first that cannot be played with its index.
    pub fn replay(
        rules: Rules,
        start: Position,
        turns: impl IntoIterator<Item = Turn>,
    ) -> Result<Game, (usize, PlayError)> {
        let mut game = Game::new(rules, start);
        for (index, turn) in turns.into_iter().enumerate() {
            game.play(turn).map_err(|e| (index, e))?;
        }
        Ok(game)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn history(&self) -> &[PlayedTurn] {
        &self.history
    }

    /// The turns played, in order: the game's move list.
    pub fn turns(&self) -> impl Iterator<Item = Turn> + '_ {
        self.history.iter().map(|t| t.turn)
    }

    /// Every position of the game so far, the start first and the current one last (one more
    /// than the turns played).
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        let mut position = self.start;
        std::iter::once(position).chain(self.history.iter().map(move |played| {
            match played.turn {
                Turn::Move(m) => {
                    position.play_unchecked(m);
                }
                Turn::Pass => position.pass(),
            }
            position
        }))
    }

    /// Plies played since the start of this game.
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    /// The moves the side to move may make, history rules applied; empty once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        self.legal
    }

    fn generate_legal_moves(&self) -> MoveList {
        let mut moves = self.position.legal_moves(&self.rules);
        if self.rules.anti_chase || self.rules.cycle_rule {
            moves.retain(|m| self.anti_chase_violation(m).is_none());
        }
        moves
    }

    /// Whether `turn` may be played now, with the precise reason when not. A pass is always
    /// allowed while the game goes on (the server plays it for a timed-out player).
    pub fn check(&self, turn: Turn) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let Turn::Move(m) = turn else {
            return Ok(());
        };
        if self.legal.contains(m) {
            return Ok(());
        }
        // Not legal: work out precisely why.
        self.position.check_move(&self.rules, m)?;
        match self.anti_chase_violation(m) {
            Some(rule) => Err(PlayError::AntiChase(m, rule)),
            None => Err(PlayError::Illegal(m, crate::Illegal::NotAStepOrJump)),
        }
    }

    /// Plays a move, or a pass, and updates the outcome. Refuses with a precise error and changes
    /// nothing when the move is not legal.
    pub fn play(&mut self, turn: Turn) -> Result<(), PlayError> {
        self.check(turn)?;
        let played = match turn {
            Turn::Pass => {
                self.position.pass();
                PlayedTurn {
                    turn,
                    animal: None,
                    captured: None,
                }
            }
            Turn::Move(m) => {
                let animal = self.position.piece_at(m.from).map(|p| p.animal);
                let captured = self.position.play_unchecked(m);
                PlayedTurn {
                    turn,
                    animal,
                    captured,
                }
            }
        };
        self.history.push(played);
        self.hashes.push(self.position.hash());
        self.judge();
        Ok(())
    }

    /// Works out the legal moves and the end, checked in the order the rules give: den, all
    /// captured, no legal move, no capture.
    fn judge(&mut self) {
        self.legal = MoveList::new();
        self.outcome = self.position.board_outcome();
        if self.outcome.is_some() {
            return;
        }
        let legal = self.generate_legal_moves();
        if legal.is_empty() {
            self.outcome = Some(Outcome {
                winner: Some(!self.position.side_to_move()),
                reason: EndReason::NoMoves,
            });
        } else if self.position.plies_since_capture() >= self.rules.no_capture_draw_plies {
            self.outcome = Some(Outcome {
                winner: None,
                reason: EndReason::NoCapture,
            });
        } else {
            self.legal = legal;
        }
    }

    /// The side to move's own previous turns, most recent first.
    fn mover_turns(&self) -> impl Iterator<Item = &PlayedTurn> {
        self.history.iter().rev().skip(1).step_by(2)
    }

    /// Which history rule of this game's rules, if any, forbids `m` (a move legal on the bare
    /// board).
    pub fn anti_chase_violation(&self, m: Move) -> Option<AntiChaseRule> {
        let animal = self.position.piece_at(m.from)?.animal;
        if self.rules.anti_chase {
            if self.breaks_seven_three(animal, m) {
                return Some(AntiChaseRule::SevenThree);
            }
            if self.breaks_seventeen_five(animal, m) {
                return Some(AntiChaseRule::SeventeenFive);
            }
        }
        if self.rules.cycle_rule && self.breaks_cycle(m) {
            return Some(AntiChaseRule::Cycle);
        }
        None
    }

    /// The cycle rule: for some even `k ≥ 2`, the last `3k` turns are one `k`-turn sequence
    /// played three times in a row, the position (animals and side to move) is the one of `k`
    /// turns ago, and `m` is that sequence's first turn, which the side to move played. A
    /// sequence that begins with a pass forbids nothing.
    fn breaks_cycle(&self, m: Move) -> bool {
        let n = self.history.len();
        let now = self.position.hash();
        (2..=n / 3).step_by(2).any(|k| {
            let first = &self.history[n - k];
            first.turn == Turn::Move(m)
                && self.hash_after(n - k) == now
                && (0..k).all(|i| {
                    let turn = self.history[n - k + i].turn;
                    self.history[n - 2 * k + i].turn == turn
                        && self.history[n - 3 * k + i].turn == turn
                })
        })
    }

    /// The position's hash after `turns` turns of this game (0: the start).
    fn hash_after(&self, turns: usize) -> u64 {
        match turns {
            0 => self.start.hash(),
            t => self.hashes[t - 1],
        }
    }

    /// 7-3: `animal` entered `m.to` at least 3 times in the mover's last 7 turns, did not enter a
    /// trap in them, and is not being chased where it stands.
    fn breaks_seven_three(&self, animal: Animal, m: Move) -> bool {
        let mut entries = 0;
        for played in self.mover_turns().take(SEVEN_THREE_WINDOW) {
            let Some(mv) = played.turn.as_move() else {
                continue;
            };
            if played.animal != Some(animal) {
                continue;
            }
            if Bitboard::TRAPS.contains(mv.to) {
                return false;
            }
            if mv.to == m.to {
                entries += 1;
            }
        }
        entries >= SEVEN_THREE_LIMIT && !self.position.is_attacked(&self.rules, m.from)
    }

    /// 17-5: the mover's last 17 turns all moved `animal`, within at most 5 squares (the first
    /// from-square and every to-square) and never into a trap; it may not enter those squares.
    fn breaks_seventeen_five(&self, animal: Animal, m: Move) -> bool {
        let mut squares = Bitboard::EMPTY;
        let mut count = 0;
        let mut earliest_from = None;
        for played in self.mover_turns().take(SEVENTEEN_FIVE_WINDOW) {
            let Some(mv) = played.turn.as_move() else {
                return false;
            };
            if played.animal != Some(animal) || Bitboard::TRAPS.contains(mv.to) {
                return false;
            }
            squares = squares.with(mv.to);
            earliest_from = Some(mv.from);
            count += 1;
        }
        let Some(first_from) = earliest_from else {
            return false;
        };
        squares = squares.with(first_from);
        count == SEVENTEEN_FIVE_WINDOW
            && squares.count() <= SEVENTEEN_FIVE_SQUARES
            && squares.contains(m.to)
    }
}
