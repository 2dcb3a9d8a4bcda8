use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use crate::{Side, Square};

/// A set of squares, one bit per square (bit = square index).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

const fn mask_of(squares: &[(u8, u8)]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < squares.len() {
        let (file, rank) = squares[i];
        mask |= 1 << (rank * 7 + file);
        i += 1;
    }
    mask
}

const ALL_SQUARES: u64 = (1 << 63) - 1;
const FILE_A: u64 = {
    let mut mask = 0;
    let mut rank = 0;
    while rank < 9 {
        mask |= 1 << (rank * 7);
        rank += 1;
    }
    mask
};
const FILE_G: u64 = FILE_A << 6;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(ALL_SQUARES);

    /// The two lakes: b4–c6 and e4–f6.
    pub const WATER: Bitboard = Bitboard(mask_of(&[
        (1, 3),
        (2, 3),
        (1, 4),
        (2, 4),
        (1, 5),
        (2, 5),
        (4, 3),
        (5, 3),
        (4, 4),
        (5, 4),
        (4, 5),
        (5, 5),
    ]));

    const RED_TRAPS: Bitboard = Bitboard(mask_of(&[(2, 0), (4, 0), (3, 1)]));
    const BLUE_TRAPS: Bitboard = Bitboard(mask_of(&[(2, 8), (4, 8), (3, 7)]));

    /// The three traps around a side's den.
    #[inline]
    pub const fn trap(side: Side) -> Bitboard {
        match side {
            Side::Red => Bitboard::RED_TRAPS,
            Side::Blue => Bitboard::BLUE_TRAPS,
        }
    }

    pub const TRAPS: Bitboard = Bitboard(Bitboard::RED_TRAPS.0 | Bitboard::BLUE_TRAPS.0);

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The squares one orthogonal step away.
    #[inline]
    pub const fn neighbours(sq: Square) -> Bitboard {
        NEIGHBOURS[sq.index()]
    }

    /// Shifts every square one step in each direction at once, staying on the board.
    const fn spread(self) -> Bitboard {
        let b = self.0;
        let up = b << 7;
        let down = b >> 7;
        let left = (b & !FILE_A) >> 1;
        let right = (b & !FILE_G) << 1;
        Bitboard((up | down | left | right) & ALL_SQUARES)
    }

    /// The lowest square of a non-empty set.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }
}

const NEIGHBOURS: [Bitboard; 63] = {
    let mut table = [Bitboard::EMPTY; 63];
    let mut i = 0;
    while i < 63 {
        table[i] = Bitboard(1 << i).spread();
        i += 1;
    }
    table
};

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_SQUARES)
    }
}

/// Draws the set as a 7×9 grid, rank 9 on top, `x` for members.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..Square::RANKS).rev() {
            for file in 0..Square::FILES {
                let sq = Square::from_coords(file, rank).expect("on the board");
                f.write_str(if self.contains(sq) { "x" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let names = |b: Bitboard| b.map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(Bitboard::neighbours(sq("a1"))), ["b1", "a2"]);
        assert_eq!(names(Bitboard::neighbours(sq("g1"))), ["f1", "g2"]);
        assert_eq!(names(Bitboard::neighbours(sq("a9"))), ["a8", "b9"]);
        assert_eq!(names(Bitboard::neighbours(sq("g5"))), ["g4", "f5", "g6"]);
        assert_eq!(
            names(Bitboard::neighbours(sq("d5"))),
            ["d4", "c5", "e5", "d6"]
        );
    }

    #[test]
    fn iteration_visits_each_member_once() {
        let b = Bitboard::WATER;
        assert_eq!(b.count(), 12);
        assert_eq!(b.collect::<Vec<_>>().len(), 12);
        assert_eq!(Bitboard::ALL.count(), 63);
        assert_eq!((!Bitboard::ALL), Bitboard::EMPTY);
    }
}
