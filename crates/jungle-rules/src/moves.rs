use std::fmt;
use std::str::FromStr;

use crate::Square;

/// An animal's move from one square to another: a step, or a lion's or tiger's jump.
///
/// Text is from-square then to-square: `a3a4`, `f3f7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.from.name())?;
        f.write_str(self.to.name())
    }
}

/// Move text that is not two squares, such as `a3a4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid move {:?} (expected from-square then to-square, such as a3a4, or pass)",
            self.0
        )
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError(s.to_owned());
        if s.len() != 4 || !s.is_ascii() {
            return Err(err());
        }
        let from = s[..2].parse().map_err(|_| err())?;
        let to = s[2..].parse().map_err(|_| err())?;
        Ok(Move { from, to })
    }
}

/// What a player did with a turn: moved an animal, or (when the server passes a timed-out turn on)
/// nothing. Text is a move or the token `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    Move(Move),
    Pass,
}

impl Turn {
    pub const fn as_move(self) -> Option<Move> {
        match self {
            Turn::Move(m) => Some(m),
            Turn::Pass => None,
        }
    }
}

impl From<Move> for Turn {
    fn from(m: Move) -> Turn {
        Turn::Move(m)
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Move(m) => m.fmt(f),
            Turn::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Turn {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Turn, ParseMoveError> {
        if s == "pass" {
            Ok(Turn::Pass)
        } else {
            s.parse().map(Turn::Move)
        }
    }
}

#[cfg(feature = "serde")]
mod serde_text {
    //! Moves and turns travel as their text (`"a3a4"`, `"pass"`), the same as everywhere else.
    use super::{Move, Turn};
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Move {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }
    impl<'de> Deserialize<'de> for Move {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            text.parse().map_err(D::Error::custom)
        }
    }
    impl Serialize for Turn {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }
    impl<'de> Deserialize<'de> for Turn {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Turn, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            text.parse().map_err(D::Error::custom)
        }
    }
}

/// The most moves any position can have: eight animals with at most four steps each, plus the
/// lion's and tiger's jumps (at most two each). 48 leaves room.
pub const MAX_MOVES: usize = 48;

/// A fixed-capacity list of moves, so that move generation never allocates.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub const fn new() -> MoveList {
        const NONE: Move = Move {
            from: Square::new_unchecked(0),
            to: Square::new_unchecked(0),
        };
        MoveList {
            moves: [NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. Panics if the list is full (no position has that many moves).
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// For reordering in place (an engine sorts its moves).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

/// Equal when the same moves are listed in the same order (the unused tail does not count).
impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_and_turn_text_round_trips() {
        for text in ["a3a4", "f3f7", "g9a1"] {
            assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
            assert_eq!(text.parse::<Turn>().unwrap().to_string(), text);
        }
        assert_eq!("pass".parse::<Turn>(), Ok(Turn::Pass));
        for bad in ["", "a3", "a3a", "a3a44", "h1a1", "pass", "a3-a4", "é3a4"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }

    #[test]
    fn retain_keeps_order() {
        let mut list = MoveList::new();
        for t in ["a1a2", "a2a3", "a3a4"] {
            list.push(t.parse().unwrap());
        }
        list.retain(|m| m.to.to_string() != "a3");
        let texts: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        assert_eq!(texts, ["a1a2", "a3a4"]);
    }
}
