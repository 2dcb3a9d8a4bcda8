use std::fmt;

use crate::Side;

/// The eight animals, weakest first so that `animal as u8 + 1` is its rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Animal {
    Rat = 0,
    Cat = 1,
    Dog = 2,
    Wolf = 3,
    Leopard = 4,
    Tiger = 5,
    Lion = 6,
    Elephant = 7,
}

impl Animal {
    /// Weakest first.
    pub const ALL: [Animal; 8] = [
        Animal::Rat,
        Animal::Cat,
        Animal::Dog,
        Animal::Wolf,
        Animal::Leopard,
        Animal::Tiger,
        Animal::Lion,
        Animal::Elephant,
    ];

    /// Fighting strength: Rat 1 … Elephant 8.
    #[inline]
    pub const fn rank(self) -> u8 {
        self as u8 + 1
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(index: usize) -> Animal {
        Animal::ALL[index]
    }

    /// The uppercase letter of position and move text: `E L T P W D C R`.
    pub const fn letter(self) -> char {
        match self {
            Animal::Rat => 'R',
            Animal::Cat => 'C',
            Animal::Dog => 'D',
            Animal::Wolf => 'W',
            Animal::Leopard => 'P',
            Animal::Tiger => 'T',
            Animal::Lion => 'L',
            Animal::Elephant => 'E',
        }
    }

    /// Reads a letter in either case.
    pub const fn from_letter(c: char) -> Option<Animal> {
        match c.to_ascii_uppercase() {
            'R' => Some(Animal::Rat),
            'C' => Some(Animal::Cat),
            'D' => Some(Animal::Dog),
            'W' => Some(Animal::Wolf),
            'P' => Some(Animal::Leopard),
            'T' => Some(Animal::Tiger),
            'L' => Some(Animal::Lion),
            'E' => Some(Animal::Elephant),
            _ => None,
        }
    }

    /// The Chinese character shown on the piece (鼠 猫 狗 狼 豹 虎 狮 象).
    pub const fn chinese(self) -> char {
        match self {
            Animal::Rat => '鼠',
            Animal::Cat => '猫',
            Animal::Dog => '狗',
            Animal::Wolf => '狼',
            Animal::Leopard => '豹',
            Animal::Tiger => '虎',
            Animal::Lion => '狮',
            Animal::Elephant => '象',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Animal::Rat => "rat",
            Animal::Cat => "cat",
            Animal::Dog => "dog",
            Animal::Wolf => "wolf",
            Animal::Leopard => "leopard",
            Animal::Tiger => "tiger",
            Animal::Lion => "lion",
            Animal::Elephant => "elephant",
        }
    }

    /// Lion and tiger may leap over the water.
    #[inline]
    pub const fn is_jumper(self) -> bool {
        matches!(self, Animal::Lion | Animal::Tiger)
    }
}

impl fmt::Display for Animal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An animal of one side: what stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Piece {
    pub side: Side,
    pub animal: Animal,
}

impl Piece {
    pub const fn new(side: Side, animal: Animal) -> Piece {
        Piece { side, animal }
    }

    /// Uppercase for Red, lowercase for Blue.
    pub const fn char(self) -> char {
        let upper = self.animal.letter();
        match self.side {
            Side::Red => upper,
            Side::Blue => upper.to_ascii_lowercase(),
        }
    }

    pub const fn from_char(c: char) -> Option<Piece> {
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Blue
        };
        match Animal::from_letter(c) {
            Some(animal) => Some(Piece { side, animal }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_run_from_rat_to_elephant() {
        let ranks: Vec<u8> = Animal::ALL.iter().map(|a| a.rank()).collect();
        assert_eq!(ranks, vec![1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn letters_round_trip_in_both_cases() {
        for animal in Animal::ALL {
            for side in Side::ALL {
                let piece = Piece::new(side, animal);
                assert_eq!(Piece::from_char(piece.char()), Some(piece));
            }
        }
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Piece::from_char('1'), None);
    }
}
