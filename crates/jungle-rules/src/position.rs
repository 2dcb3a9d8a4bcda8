//! A position: the board, whose turn it is, the counters the history rules need, and the moves that
//! can be made from it.
//!
//! Long (about 700 lines): the board's representation and the move generation that depends on it
//! belong together.

use std::fmt;

use crate::zobrist;
use crate::{Animal, Bitboard, Move, MoveList, Piece, Rules, Side, Square};

/// A board with its side to move and counters: everything the bare rules need, nothing of the
/// game's history. Cheap to copy, so search can copy-make.
///
/// ```
/// use jungle_rules::{Position, Rules};
///
/// let start = Position::start();
/// assert_eq!(start.legal_moves(&Rules::CLASSIC).len(), 24);
/// let next = start.play(&Rules::CLASSIC, "a3a4".parse()?)?;
/// assert_eq!(next.to_string(), "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; Square::COUNT],
    by_side: [Bitboard; 2],
    by_animal: [Bitboard; 8],
    side_to_move: Side,
    pub(crate) plies_since_capture: u32,
    pub(crate) move_number: u32,
    hash: u64,
}

/// How a game ended on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum EndReason {
    /// An animal entered the enemy den.
    Den,
    /// One side has no animals left.
    AllCaptured,
    /// The side to move has no legal move, and loses.
    NoMoves,
    /// Too many plies passed without a capture: a draw.
    NoCapture,
}

impl EndReason {
    /// The text used by the CLI and the wire protocol: `den`, `all-captured`, `no-moves`,
    /// `no-capture`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Den => "den",
            EndReason::AllCaptured => "all-captured",
            EndReason::NoMoves => "no-moves",
            EndReason::NoCapture => "no-capture",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is already over.
    GameOver,
    /// There is no animal on the from-square.
    EmptySquare(Square),
    /// The animal on the from-square belongs to the side not to move.
    NotYourAnimal(Square),
    /// The animal cannot make this move, for the reason given.
    Illegal(Move, Illegal),
    /// The move is forbidden by an anti-chase rule of the game's history.
    AntiChase(Move, AntiChaseRule),
}

/// Why a move of one's own animal breaks the board rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// Not one orthogonal step, nor a jump over the water by an animal allowed to make it.
    NotAStepOrJump,
    OwnDen,
    /// Only the rat may enter the water.
    Water,
    OccupiedByOwnAnimal,
    /// The target is an enemy animal this one may not capture there.
    CannotCapture,
    /// A rat in the water stands in the way of the jump.
    JumpBlocked,
}

/// The history rules: 7-3 and 17-5 ([`Rules::anti_chase`]) and the cycle rule
/// ([`Rules::cycle_rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AntiChaseRule {
    /// The same animal entered the same square 3 times in its side's last 7 turns.
    SevenThree,
    /// The same animal moved alone for 17 turns within at most 5 squares.
    SeventeenFive,
    /// The cycle rule: a sequence of turns was played three times in a row and came back to its
    /// position; its first turn may not be played a fourth time.
    Cycle,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::EmptySquare(sq) => write!(f, "there is no animal on {sq}"),
            PlayError::NotYourAnimal(sq) => {
                write!(f, "the animal on {sq} belongs to the side not to move")
            }
            PlayError::Illegal(m, why) => {
                let reason = match why {
                    Illegal::NotAStepOrJump => {
                        "it is neither one orthogonal step nor a jump this animal may make"
                    }
                    Illegal::OwnDen => "no animal may enter its own den",
                    Illegal::Water => "only the rat may enter the water",
                    Illegal::OccupiedByOwnAnimal => {
                        "the target square holds an animal of the same side"
                    }
                    Illegal::CannotCapture => {
                        "this animal may not capture the one on the target square"
                    }
                    Illegal::JumpBlocked => "a rat in the water blocks the jump",
                };
                write!(f, "illegal move {m}: {reason}")
            }
            PlayError::AntiChase(m, rule) => {
                let why = match rule {
                    AntiChaseRule::SevenThree => "the 7-3 anti-chase rule",
                    AntiChaseRule::SeventeenFive => "the 17-5 anti-chase rule",
                    AntiChaseRule::Cycle => {
                        "the cycle rule (the same turns were played three times in a row; \
                         the player who began them must vary)"
                    }
                };
                write!(f, "illegal move {m}: forbidden by {why}")
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// A jump over one lake: where it lands and which water squares it crosses.
#[derive(Clone, Copy)]
struct Jump {
    to: Square,
    over: Bitboard,
    along_file: bool,
}

/// Up to two jumps from each square (d4–d6 can leap both lakes).
const JUMPS: [[Option<Jump>; 2]; Square::COUNT] = {
    let mut table = [[None; 2]; Square::COUNT];
    // Along files b, c, e, f between ranks 3 and 7, over ranks 4–6.
    let files = [1u8, 2, 4, 5];
    let mut i = 0;
    while i < files.len() {
        let file = files[i];
        let over = Bitboard(
            1 << (3 * 7 + file as u64) | 1 << (4 * 7 + file as u64) | 1 << (5 * 7 + file as u64),
        );
        let low = Square::new_unchecked(2 * 7 + file);
        let high = Square::new_unchecked(6 * 7 + file);
        table[low.index()][0] = Some(Jump {
            to: high,
            over,
            along_file: true,
        });
        table[high.index()][0] = Some(Jump {
            to: low,
            over,
            along_file: true,
        });
        i += 1;
    }
    // Along ranks 4–6: a↔d over b, c and d↔g over e, f.
    let mut rank = 3u8;
    while rank <= 5 {
        let base = rank * 7;
        let a = Square::new_unchecked(base);
        let d = Square::new_unchecked(base + 3);
        let g = Square::new_unchecked(base + 6);
        let west = Bitboard(0b110 << base);
        let east = Bitboard(0b110000 << base);
        table[a.index()][0] = Some(Jump {
            to: d,
            over: west,
            along_file: false,
        });
        table[d.index()][0] = Some(Jump {
            to: a,
            over: west,
            along_file: false,
        });
        table[d.index()][1] = Some(Jump {
            to: g,
            over: east,
            along_file: false,
        });
        table[g.index()][0] = Some(Jump {
            to: d,
            over: east,
            along_file: false,
        });
        rank += 1;
    }
    table
};

/// Where generated moves go: a list, or a counter for perft's bulk counting.
trait MoveSink {
    /// Every square of `targets` is a legal destination from `from`.
    fn add_all(&mut self, from: Square, targets: Bitboard);
    fn add(&mut self, m: Move);
}

impl MoveSink for MoveList {
    #[inline]
    fn add_all(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move { from, to });
        }
    }
    #[inline]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

struct Counter(usize);

impl MoveSink for Counter {
    #[inline]
    fn add_all(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
    #[inline]
    fn add(&mut self, _m: Move) {
        self.0 += 1;
    }
}

impl Position {
    /// The standard starting position, Red to move.
    pub fn start() -> Position {
        use Animal::*;
        let red = [
            ("a1", Tiger),
            ("g1", Lion),
            ("b2", Cat),
            ("f2", Dog),
            ("a3", Elephant),
            ("c3", Wolf),
            ("e3", Leopard),
            ("g3", Rat),
        ];
        let mut position = Position::empty(Side::Red);
        for (name, animal) in red {
            let sq: Square = name.parse().expect("valid square");
            let turned = Square::new_unchecked((Square::COUNT - 1 - sq.index()) as u8);
            position.put(sq, Piece::new(Side::Red, animal));
            position.put(turned, Piece::new(Side::Blue, animal));
        }
        position
    }

    pub(crate) fn empty(side_to_move: Side) -> Position {
        Position {
            board: [None; Square::COUNT],
            by_side: [Bitboard::EMPTY; 2],
            by_animal: [Bitboard::EMPTY; 8],
            side_to_move,
            plies_since_capture: 0,
            move_number: 1,
            hash: match side_to_move {
                Side::Red => 0,
                Side::Blue => zobrist::BLUE_TO_MOVE,
            },
        }
    }

    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.by_side[piece.side.index()] |= sq.bitboard();
        self.by_animal[piece.animal.index()] |= sq.bitboard();
        self.hash ^= zobrist::piece_key(piece.side, piece.animal, sq);
    }

    #[inline]
    fn remove(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = None;
        self.by_side[piece.side.index()] = self.by_side[piece.side.index()].without(sq);
        self.by_animal[piece.animal.index()] = self.by_animal[piece.animal.index()].without(sq);
        self.hash ^= zobrist::piece_key(piece.side, piece.animal, sq);
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// Plies since the last capture, which count toward the no-capture draw.
    #[inline]
    pub fn plies_since_capture(&self) -> u32 {
        self.plies_since_capture
    }

    /// Starts at 1 and grows after each of Blue's turns.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The squares of one side's animals.
    #[inline]
    pub fn occupied_by(&self, side: Side) -> Bitboard {
        self.by_side[side.index()]
    }

    /// Where this animal of this side stands, if it is still on the board.
    #[inline]
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        (self.by_side[piece.side.index()] & self.by_animal[piece.animal.index()]).first()
    }

    /// Every animal on the board with its square.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// A Zobrist hash of the animals and the side to move, kept incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The same position seen in the mirror of the d-file (a3 ↔ g3): every rule treats it
    /// alike, so its best moves are the mirrored ones.
    pub fn mirrored(&self) -> Position {
        self.transformed(Square::mirrored, false)
    }

    /// The same position with the colours exchanged: the board turned over rank 5, every
    /// Red animal Blue and every Blue one Red, and the other side to move. No rule favours a
    /// colour, so it is the same game for the other player.
    pub fn colours_swapped(&self) -> Position {
        self.transformed(Square::flipped, true)
    }

    fn transformed(&self, square: impl Fn(Square) -> Square, swap: bool) -> Position {
        let side_to_move = if swap {
            !self.side_to_move
        } else {
            self.side_to_move
        };
        let mut turned = Position::empty(side_to_move);
        for (sq, piece) in self.pieces() {
            let side = if swap { !piece.side } else { piece.side };
            turned.put(square(sq), Piece::new(side, piece.animal));
        }
        turned.plies_since_capture = self.plies_since_capture;
        turned.move_number = self.move_number;
        turned
    }

    /// One key for a position and its three equals under the board's symmetries (mirrored,
    /// colours swapped, both): the least of their hashes. Two positions with the same key are
    /// the same game, whichever way the board is turned.
    pub fn symmetric_hash(&self) -> u64 {
        let mirrored = self.mirrored();
        [
            self.hash,
            mirrored.hash,
            self.colours_swapped().hash,
            mirrored.colours_swapped().hash,
        ]
        .into_iter()
        .min()
        .expect("four hashes")
    }

    /// How far apart two boards are, by their animals: 2 for an animal on another square, 1 for
    /// one on only one of the boards (captured, or added), 0 for one on the same square. A move
    /// changes it by 2 (3 with a capture), so boards within two turns of each other are at most
    /// 6 apart. The side to move is not counted.
    pub fn board_distance(&self, other: &Position) -> u32 {
        let mut distance = 0;
        for side in Side::ALL {
            for animal in Animal::ALL {
                let piece = Piece::new(side, animal);
                distance += match (self.square_of(piece), other.square_of(piece)) {
                    (Some(a), Some(b)) if a == b => 0,
                    (Some(_), Some(_)) => 2,
                    (None, None) => 0,
                    _ => 1,
                };
            }
        }
        distance
    }

    /// The game's end as the board alone shows it: an animal in the enemy den, or a side
    /// with no animals. ("No legal move" and the no-capture draw are for [`Game`](crate::Game).)
    pub fn board_outcome(&self) -> Option<Outcome> {
        let mover = !self.side_to_move;
        for side in [mover, self.side_to_move] {
            if !(self.occupied_by(side) & Square::den(!side).bitboard()).is_empty() {
                return Some(Outcome {
                    winner: Some(side),
                    reason: EndReason::Den,
                });
            }
        }
        for side in [self.side_to_move, mover] {
            if self.occupied_by(side).is_empty() {
                return Some(Outcome {
                    winner: Some(!side),
                    reason: EndReason::AllCaptured,
                });
            }
        }
        None
    }

    /// True when a den is entered or a side has no animals: such a position has no moves.
    #[inline]
    fn is_board_over(&self) -> bool {
        let in_dens = (self.by_side[Side::Red.index()] & Square::den(Side::Blue).bitboard())
            | (self.by_side[Side::Blue.index()] & Square::den(Side::Red).bitboard());
        !in_dens.is_empty() || self.by_side[0].is_empty() || self.by_side[1].is_empty()
    }

    /// Whether `attacker` on `from` may capture `defender` on `to` by the board rules alone.
    #[inline]
    fn can_capture(
        rules: &Rules,
        attacker: Piece,
        from: Square,
        defender: Animal,
        to: Square,
    ) -> bool {
        if from.is_water() != to.is_water() {
            return rules.rat_captures_across_water
                && attacker.animal == Animal::Rat
                && defender == Animal::Rat;
        }
        if rules.trapped_cannot_capture && Bitboard::trap(!attacker.side).contains(from) {
            return false;
        }
        if Bitboard::trap(attacker.side).contains(to) {
            return true;
        }
        match (attacker.animal, defender) {
            (Animal::Rat, Animal::Elephant) => true,
            (Animal::Elephant, Animal::Rat) => false,
            (a, d) => a >= d,
        }
    }

    /// The destinations of one animal by the board rules: steps, then jumps.
    #[inline]
    fn generate_for<S: MoveSink>(&self, rules: &Rules, from: Square, piece: Piece, sink: &mut S) {
        let us = piece.side;
        let own = self.by_side[us.index()];
        let enemy = self.by_side[(!us).index()];
        let mut steps = Bitboard::neighbours(from) & !own & !Square::den(us).bitboard();
        if piece.animal != Animal::Rat {
            steps &= !Bitboard::WATER;
        }
        sink.add_all(from, steps & !enemy);
        for to in steps & enemy {
            let defender = self.board[to.index()]
                .expect("enemy square is occupied")
                .animal;
            if Self::can_capture(rules, piece, from, defender, to) {
                sink.add(Move { from, to });
            }
        }
        if piece.animal.is_jumper() {
            self.generate_jumps(rules, from, piece, sink);
        }
    }

    #[inline]
    fn generate_jumps<S: MoveSink>(&self, rules: &Rules, from: Square, piece: Piece, sink: &mut S) {
        let own = self.by_side[piece.side.index()];
        for jump in JUMPS[from.index()].into_iter().flatten() {
            if self.jump_refusal(rules, piece, from, jump, own).is_none() {
                sink.add(Move { from, to: jump.to });
            }
        }
    }

    /// Why this jump may not be made, or `None` when it may.
    #[inline]
    fn jump_refusal(
        &self,
        rules: &Rules,
        piece: Piece,
        from: Square,
        jump: Jump,
        own: Bitboard,
    ) -> Option<Illegal> {
        if jump.along_file && piece.animal == Animal::Tiger && !rules.tiger_jumps_vertically {
            return Some(Illegal::NotAStepOrJump);
        }
        let mut blockers = self.by_animal[Animal::Rat.index()];
        if !rules.own_rat_blocks_jump {
            blockers &= !own;
        }
        if !(jump.over & blockers).is_empty() {
            return Some(Illegal::JumpBlocked);
        }
        if own.contains(jump.to) {
            return Some(Illegal::OccupiedByOwnAnimal);
        }
        match self.board[jump.to.index()] {
            Some(defender) if !Self::can_capture(rules, piece, from, defender.animal, jump.to) => {
                Some(Illegal::CannotCapture)
            }
            _ => None,
        }
    }

    fn generate<S: MoveSink>(&self, rules: &Rules, sink: &mut S) {
        if self.is_board_over() {
            return;
        }
        for from in self.by_side[self.side_to_move.index()] {
            let piece = self.board[from.index()].expect("own square is occupied");
            self.generate_for(rules, from, piece, sink);
        }
    }

    /// The legal moves by the board rules alone (no history rules): none once a den is entered or
    /// a side has no animals.
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        self.generate(rules, &mut list);
        list
    }

    /// The number of [`legal_moves`](Self::legal_moves), without listing them.
    pub fn count_legal_moves(&self, rules: &Rules) -> usize {
        let mut counter = Counter(0);
        self.generate(rules, &mut counter);
        counter.0
    }

    /// Whether some enemy animal could capture the animal on `sq` by the board rules, were it the
    /// enemy's turn. Used by the 7-3 rule's exception for a chased animal.
    pub fn is_attacked(&self, rules: &Rules, sq: Square) -> bool {
        let Some(target) = self.piece_at(sq) else {
            return false;
        };
        let mut enemy_to_move = *self;
        enemy_to_move.side_to_move = !target.side;
        self.occupied_by(!target.side)
            .any(|from| enemy_to_move.check_move(rules, Move::new(from, sq)).is_ok())
    }

    /// Explains why `m` is not legal here, or returns `Ok` when it is.
    pub fn check_move(&self, rules: &Rules, m: Move) -> Result<(), PlayError> {
        if self.is_board_over() {
            return Err(PlayError::GameOver);
        }
        let piece = self
            .piece_at(m.from)
            .ok_or(PlayError::EmptySquare(m.from))?;
        if piece.side != self.side_to_move {
            return Err(PlayError::NotYourAnimal(m.from));
        }
        let illegal = |why| Err(PlayError::Illegal(m, why));
        let own = self.by_side[piece.side.index()];
        if Bitboard::neighbours(m.from).contains(m.to) {
            if m.to == Square::den(piece.side) {
                return illegal(Illegal::OwnDen);
            }
            if m.to.is_water() && piece.animal != Animal::Rat {
                return illegal(Illegal::Water);
            }
            if own.contains(m.to) {
                return illegal(Illegal::OccupiedByOwnAnimal);
            }
            if let Some(defender) = self.piece_at(m.to) {
                if !Self::can_capture(rules, piece, m.from, defender.animal, m.to) {
                    return illegal(Illegal::CannotCapture);
                }
            }
            return Ok(());
        }
        let jump = JUMPS[m.from.index()]
            .into_iter()
            .flatten()
            .find(|j| j.to == m.to && piece.animal.is_jumper());
        match jump {
            None => illegal(Illegal::NotAStepOrJump),
            Some(jump) => match self.jump_refusal(rules, piece, m.from, jump, own) {
                None => Ok(()),
                Some(why) => illegal(why),
            },
        }
    }

    /// Plays a legal move, returning the new position, or says precisely why it is not legal.
    pub fn play(&self, rules: &Rules, m: Move) -> Result<Position, PlayError> {
        self.check_move(rules, m)?;
        let mut next = *self;
        next.play_unchecked(m);
        Ok(next)
    }

    /// Plays a move known to be legal (from [`legal_moves`](Self::legal_moves)). Returns the
    /// captured animal, if any.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Option<Animal> {
        let piece = self.board[m.from.index()].expect("a legal move starts on an animal");
        let captured = self.board[m.to.index()];
        if let Some(victim) = captured {
            self.remove(m.to, victim);
        }
        self.remove(m.from, piece);
        self.put(m.to, piece);
        self.plies_since_capture = match captured {
            Some(_) => 0,
            None => self.plies_since_capture.saturating_add(1),
        };
        self.end_turn();
        captured.map(|p| p.animal)
    }

    /// Passes the turn without moving (a timed-out turn the server passes on).
    pub fn pass(&mut self) {
        self.plies_since_capture = self.plies_since_capture.saturating_add(1);
        self.end_turn();
    }

    #[inline]
    fn end_turn(&mut self) {
        if self.side_to_move == Side::Blue {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.side_to_move = !self.side_to_move;
        self.hash ^= zobrist::BLUE_TO_MOVE;
    }

    /// Counts the leaf nodes of the move tree `depth` plies deep (bare board rules, no history
    /// rules, no draw). The last ply is bulk-counted.
    pub fn perft(&self, rules: &Rules, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(rules) as u64,
            _ => self
                .legal_moves(rules)
                .iter()
                .map(|&m| {
                    let mut child = *self;
                    child.play_unchecked(m);
                    child.perft(rules, depth - 1)
                })
                .sum(),
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
