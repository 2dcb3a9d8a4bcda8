use std::fmt;
use std::str::FromStr;

use crate::{Bitboard, Side};

/// One of the 63 squares: files `a`–`g`, ranks `1`–`9`, Red's den at d1.
///
/// The index is `rank * 7 + file`, both counted from zero, so a1 is 0 and g9 is 62.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const FILES: u8 = 7;
    pub const RANKS: u8 = 9;
    pub const COUNT: usize = 63;

    /// `None` for an index of 63 or more.
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < Square::COUNT {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The caller promises `index < 63`.
    #[inline]
    pub(crate) const fn new_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < Square::COUNT);
        Square(index)
    }

    /// File 0–6 (a–g) and rank 0–8 (1–9).
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < Square::FILES && rank < Square::RANKS {
            Some(Square(rank * Square::FILES + file))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for file a … 6 for file g.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % Square::FILES
    }

    /// 0 for rank 1 … 8 for rank 9.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / Square::FILES
    }

    #[inline]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// Every square, a1 first, g9 last.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Square::COUNT as u8).map(Square)
    }

    #[inline]
    pub const fn is_water(self) -> bool {
        Bitboard::WATER.contains(self)
    }

    /// The side whose trap this is, if it is one.
    pub const fn trap_owner(self) -> Option<Side> {
        if Bitboard::trap(Side::Red).contains(self) {
            Some(Side::Red)
        } else if Bitboard::trap(Side::Blue).contains(self) {
            Some(Side::Blue)
        } else {
            None
        }
    }

    /// The side whose den this is, if it is one.
    pub const fn den_owner(self) -> Option<Side> {
        if self.0 == Square::den(Side::Red).0 {
            Some(Side::Red)
        } else if self.0 == Square::den(Side::Blue).0 {
            Some(Side::Blue)
        } else {
            None
        }
    }

    /// The square in the same rank on the other side of the d-file (a3 ↔ g3). The board
    /// (water, traps, dens) looks the same in this mirror.
    pub const fn mirrored(self) -> Square {
        Square(self.rank() * Square::FILES + (Square::FILES - 1 - self.file()))
    }

    /// The square in the same file on the other side of rank 5 (a1 ↔ a9): in this mirror
    /// Red's water, traps and den stand where Blue's were.
    pub const fn flipped(self) -> Square {
        Square((Square::RANKS - 1 - self.rank()) * Square::FILES + self.file())
    }

    /// d1 for Red, d9 for Blue.
    pub const fn den(side: Side) -> Square {
        match side {
            Side::Red => Square(3),
            Side::Blue => Square(8 * 7 + 3),
        }
    }
}

/// Every square's name, two bytes each in index order: `a1b1…g1a2…g9`.
const NAMES: [u8; 126] = {
    let mut names = [0u8; 126];
    let mut i = 0;
    while i < 63 {
        names[2 * i] = b'a' + (i % 7) as u8;
        names[2 * i + 1] = b'1' + (i / 7) as u8;
        i += 1;
    }
    names
};

impl Square {
    /// The square's name, such as `"c7"`: the text `Display` writes, without formatting
    /// machinery (the server writes a few dozen of these per relayed move).
    ///
    /// ```
    /// use jungle_rules::Square;
    /// assert_eq!(Square::from_coords(2, 6).unwrap().name(), "c7");
    /// ```
    pub fn name(self) -> &'static str {
        let at = 2 * self.index();
        std::str::from_utf8(&NAMES[at..at + 2]).expect("square names are ASCII")
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Square text is a file letter `a`–`g` then a rank digit `1`–`9`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid square {:?} (expected a1 … g9)", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(s.to_owned());
        match s.as_bytes() {
            [file @ b'a'..=b'g', rank @ b'1'..=b'9'] => {
                Square::from_coords(file - b'a', rank - b'1').ok_or_else(err)
            }
            _ => Err(err()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_for_every_square() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        let corners = [(0, 0, "a1"), (6, 0, "g1"), (0, 8, "a9"), (6, 8, "g9")];
        for (file, rank, name) in corners {
            assert_eq!(Square::from_coords(file, rank).unwrap().name(), name);
        }
        for bad in ["", "a", "h1", "a0", "a10", "A1", "a1 "] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn terrain_matches_the_board() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(Square::den(Side::Red), sq("d1"));
        assert_eq!(Square::den(Side::Blue), sq("d9"));
        for w in [
            "b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6",
        ] {
            assert!(sq(w).is_water(), "{w}");
        }
        assert_eq!(Square::all().filter(|s| s.is_water()).count(), 12);
        for t in ["c1", "e1", "d2"] {
            assert_eq!(sq(t).trap_owner(), Some(Side::Red));
        }
        for t in ["c9", "e9", "d8"] {
            assert_eq!(sq(t).trap_owner(), Some(Side::Blue));
        }
        assert_eq!(sq("d5").trap_owner(), None);
        assert_eq!(sq("d1").den_owner(), Some(Side::Red));
        assert_eq!(sq("d9").den_owner(), Some(Side::Blue));
    }
}
