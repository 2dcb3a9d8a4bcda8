//! Position text: ranks 9 down to 1 separated by `/`, files a→g, digits for runs of empty
//! squares; then the side to move, plies since the last capture, and the move number.

use std::fmt;
use std::str::FromStr;

use crate::{Animal, Piece, Position, Side, Square};

/// Why position text was refused: what was wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// Not four space-separated fields.
    FieldCount(usize),
    /// The board field does not have nine ranks.
    RankCount(usize),
    /// A rank (1–9) does not describe exactly seven squares.
    RankLength {
        rank: u8,
    },
    /// A character that is neither an animal letter nor a digit 1–7, or two digits in a row.
    BadCharacter {
        rank: u8,
        found: char,
    },
    SideToMove(String),
    PliesSinceCapture(String),
    MoveNumber(String),
    /// Only a rat may stand in the water.
    AnimalInWater {
        square: Square,
        piece: Piece,
    },
    /// No animal may stand in its own den.
    AnimalInOwnDen {
        square: Square,
        piece: Piece,
    },
    /// Each side has one of each animal.
    DuplicateAnimal {
        piece: Piece,
    },
    /// At least one animal must be on the board.
    EmptyBoard,
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParsePositionError::*;
        let side = |p: &Piece| match p.side {
            Side::Red => "Red",
            Side::Blue => "Blue",
        };
        match self {
            FieldCount(n) => write!(
                f,
                "position needs 4 fields (board, side to move, plies since capture, move number), found {n}"
            ),
            RankCount(n) => write!(f, "board needs 9 ranks separated by '/', found {n}"),
            RankLength { rank } => write!(f, "rank {rank} does not describe exactly 7 squares"),
            BadCharacter { rank, found } => write!(
                f,
                "rank {rank}: unexpected {found:?} (expected an animal letter ELTPWDCR/eltpwdcr or a digit 1-7, no two digits in a row)"
            ),
            SideToMove(s) => write!(f, "side to move {s:?} must be r or b"),
            PliesSinceCapture(s) => {
                write!(f, "plies since capture {s:?} must be a whole number")
            }
            MoveNumber(s) => write!(f, "move number {s:?} must be a whole number from 1"),
            AnimalInWater { square, piece } => write!(
                f,
                "{} {} on {square} is in the water, where only a rat may go",
                side(piece),
                piece.animal
            ),
            AnimalInOwnDen { square, piece } => write!(
                f,
                "{} {} on {square} stands in its own den",
                side(piece),
                piece.animal
            ),
            DuplicateAnimal { piece } => {
                write!(f, "{} has more than one {}", side(piece), piece.animal)
            }
            EmptyBoard => write!(f, "there are no animals on the board"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        let [board, side, plies, number] = fields[..] else {
            return Err(ParsePositionError::FieldCount(fields.len()));
        };
        let pieces = parse_board(board)?;
        let side_to_move = match side {
            "r" => Side::Red,
            "b" => Side::Blue,
            _ => return Err(ParsePositionError::SideToMove(side.to_owned())),
        };
        let plies_since_capture = parse_number(plies)
            .ok_or_else(|| ParsePositionError::PliesSinceCapture(plies.to_owned()))?;
        let move_number = parse_number(number)
            .filter(|&n| n >= 1)
            .ok_or_else(|| ParsePositionError::MoveNumber(number.to_owned()))?;
        Position::from_parts(&pieces, side_to_move, plies_since_capture, move_number)
    }
}

/// Digits only: `u32::from_str` would also take a leading `+`.
fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_board(board: &str) -> Result<Vec<(Square, Piece)>, ParsePositionError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != Square::RANKS as usize {
        return Err(ParsePositionError::RankCount(ranks.len()));
    }
    let mut pieces = Vec::new();
    for (row, text) in ranks.iter().enumerate() {
        let rank = Square::RANKS - 1 - row as u8;
        let rank_name = rank + 1;
        let mut file = 0u8;
        let mut last_was_digit = false;
        for c in text.chars() {
            let bad = ParsePositionError::BadCharacter {
                rank: rank_name,
                found: c,
            };
            if let Some(run) = c.to_digit(10) {
                if !(1..=7).contains(&run) || last_was_digit {
                    return Err(bad);
                }
                file += run as u8;
                last_was_digit = true;
            } else {
                let piece = Piece::from_char(c).ok_or(bad)?;
                let square = Square::from_coords(file, rank)
                    .ok_or(ParsePositionError::RankLength { rank: rank_name })?;
                pieces.push((square, piece));
                file += 1;
                last_was_digit = false;
            }
            if file > Square::FILES {
                return Err(ParsePositionError::RankLength { rank: rank_name });
            }
        }
        if file != Square::FILES {
            return Err(ParsePositionError::RankLength { rank: rank_name });
        }
    }
    Ok(pieces)
}

impl Position {
    /// Builds a position from its pieces, refusing placements that cannot arise in a game.
    pub fn from_parts(
        pieces: &[(Square, Piece)],
        side_to_move: Side,
        plies_since_capture: u32,
        move_number: u32,
    ) -> Result<Position, ParsePositionError> {
        let mut seen = [[false; 8]; 2];
        for &(square, piece) in pieces {
            if square.is_water() && piece.animal != Animal::Rat {
                return Err(ParsePositionError::AnimalInWater { square, piece });
            }
            if square.den_owner() == Some(piece.side) {
                return Err(ParsePositionError::AnimalInOwnDen { square, piece });
            }
            let slot = &mut seen[piece.side.index()][piece.animal.index()];
            if *slot {
                return Err(ParsePositionError::DuplicateAnimal { piece });
            }
            *slot = true;
        }
        if pieces.is_empty() {
            return Err(ParsePositionError::EmptyBoard);
        }
        let mut position = Position::empty(side_to_move);
        for &(square, piece) in pieces {
            position.put(square, piece);
        }
        position.plies_since_capture = plies_since_capture;
        position.move_number = move_number;
        Ok(position)
    }
}

impl fmt::Display for Position {
    /// Gathers the placement in a buffer and writes it at once: the server formats the
    /// position of every relayed move, and per-character `write!` was most of that cost.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The placement: 63 squares at most and 8 slashes.
        let mut placement = [0u8; 72];
        let mut len = 0;
        for rank in (0..Square::RANKS).rev() {
            let mut empty = 0;
            for file in 0..Square::FILES {
                let square = Square::from_coords(file, rank).expect("on the board");
                match self.piece_at(square) {
                    Some(piece) => {
                        if empty > 0 {
                            placement[len] = b'0' + empty;
                            len += 1;
                            empty = 0;
                        }
                        placement[len] = piece.char() as u8;
                        len += 1;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                placement[len] = b'0' + empty;
                len += 1;
            }
            if rank > 0 {
                placement[len] = b'/';
                len += 1;
            }
        }
        f.write_str(std::str::from_utf8(&placement[..len]).expect("FEN is ASCII"))?;
        write!(
            f,
            " {} {} {}",
            self.side_to_move().char(),
            self.plies_since_capture(),
            self.move_number()
        )
    }
}

#[cfg(feature = "serde")]
mod serde_text {
    use super::Position;
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Position {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }

    impl<'de> Deserialize<'de> for Position {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            text.parse().map_err(D::Error::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1";

    #[test]
    fn start_text_round_trips() {
        let p: Position = START.parse().unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(p.to_string(), START);
    }

    fn err(text: &str) -> ParsePositionError {
        text.parse::<Position>().unwrap_err()
    }

    #[test]
    fn malformed_text_is_refused_with_the_reason() {
        use ParsePositionError::*;
        assert_eq!(err(""), FieldCount(0));
        assert_eq!(err("l5t/1d3c1 r 0 1"), RankCount(2));
        assert_eq!(
            err("l6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1"),
            RankLength { rank: 9 }
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4L r 0 1"),
            RankLength { rank: 1 }
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X r 0 1"),
            BadCharacter {
                rank: 1,
                found: 'X'
            }
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/34/7/7/E1W1P1R/1C3D1/T5L r 0 1"),
            BadCharacter {
                rank: 6,
                found: '4'
            }
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x 0 1"),
            SideToMove("x".into())
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r -1 1"),
            PliesSinceCapture("-1".into())
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 0"),
            MoveNumber("0".into())
        );
        assert_eq!(err("7/7/7/7/7/7/7/7/7 r 0 1"), EmptyBoard);
    }

    #[test]
    fn impossible_positions_are_refused() {
        use ParsePositionError::*;
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(
            err("7/7/7/7/1E5/7/7/7/7 r 0 1"),
            AnimalInWater {
                square: sq("b5"),
                piece: Piece::new(Side::Red, Animal::Elephant)
            }
        );
        assert!("7/7/7/7/1R5/7/7/7/7 r 0 1".parse::<Position>().is_ok());
        assert_eq!(
            err("3c3/7/7/7/7/7/7/7/7 r 0 1"),
            AnimalInOwnDen {
                square: sq("d9"),
                piece: Piece::new(Side::Blue, Animal::Cat)
            }
        );
        // An animal in the enemy's den is a finished game, not an impossible one.
        assert!("3C3/7/7/7/7/7/7/7/d6 b 0 1".parse::<Position>().is_ok());
        assert_eq!(
            err("7/7/7/7/7/7/7/7/3D3 r 0 1"),
            AnimalInOwnDen {
                square: sq("d1"),
                piece: Piece::new(Side::Red, Animal::Dog)
            }
        );
        assert_eq!(
            err("7/7/7/7/7/7/7/7/R5R r 0 1"),
            DuplicateAnimal {
                piece: Piece::new(Side::Red, Animal::Rat)
            }
        );
    }
}
