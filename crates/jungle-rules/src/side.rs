use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// One of the two players. Red sits on ranks 1–3 and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Side {
    Red = 0,
    Blue = 1,
}

impl Side {
    pub const ALL: [Side; 2] = [Side::Red, Side::Blue];

    /// 0 for Red, 1 for Blue: an index into per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used for the side to move in position text: `r` or `b`.
    pub const fn char(self) -> char {
        match self {
            Side::Red => 'r',
            Side::Blue => 'b',
        }
    }

    pub const fn from_char(c: char) -> Option<Side> {
        match c {
            'r' => Some(Side::Red),
            'b' => Some(Side::Blue),
            _ => None,
        }
    }

    /// The lowercase English name, as used in the CLI's JSON and on the wire.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text was not `red` or `blue`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSideError(pub String);

impl fmt::Display for ParseSideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown side {:?} (expected \"red\" or \"blue\")",
            self.0
        )
    }
}

impl std::error::Error for ParseSideError {}

impl FromStr for Side {
    type Err = ParseSideError;
    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        match s {
            "red" => Ok(Side::Red),
            "blue" => Ok(Side::Blue),
            _ => Err(ParseSideError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_swaps_sides() {
        assert_eq!(!Side::Red, Side::Blue);
        assert_eq!(!Side::Blue, Side::Red);
    }

    #[test]
    fn names_round_trip() {
        for side in Side::ALL {
            assert_eq!(side.name().parse::<Side>(), Ok(side));
            assert_eq!(Side::from_char(side.char()), Some(side));
        }
        assert!("green".parse::<Side>().is_err());
    }
}
