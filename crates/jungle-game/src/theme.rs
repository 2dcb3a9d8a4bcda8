//! A puzzle's theme: what it teaches, by its name on the wire. Which themes a puzzle has is
//! read from its line ([`crate::themes`]).

use serde::{Deserialize, Serialize};

/// The themes, by their names on the wire (and in the client's words: `theme.<name>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Theme {
    /// The solver's move enters the den: in one move, two, three, or more.
    Den1,
    Den2,
    Den3,
    DenLong,
    /// The line wins material, not the game at once.
    Material,
    /// The solver takes an animal standing in the solver's own trap.
    TrapCapture,
    /// The solver's rat takes the elephant.
    RatCapturesElephant,
    /// The solver's lion or tiger jumps over the river.
    RiverJump,
    /// The solver's rat steps into the water and so stops a jump the opponent could make.
    RiverBlock,
    /// The solver jumps over water where a rat stood earlier in the puzzle (the blocker left
    /// or was taken).
    RiverUnblocked,
    /// The opponent threatens to enter the solver's den next move; the first move stops it.
    Defence,
    /// The solver takes an animal of a higher rank than the taker.
    HigherCapture,
    /// Few animals left: six or fewer on the board.
    Endgame,
    /// Four solver moves or more.
    Long,
}

impl Theme {
    pub const ALL: [Theme; 14] = [
        Theme::Den1,
        Theme::Den2,
        Theme::Den3,
        Theme::DenLong,
        Theme::Material,
        Theme::TrapCapture,
        Theme::RatCapturesElephant,
        Theme::RiverJump,
        Theme::RiverBlock,
        Theme::RiverUnblocked,
        Theme::Defence,
        Theme::HigherCapture,
        Theme::Endgame,
        Theme::Long,
    ];

    /// The name on the wire and in URLs (`den1`, `trapCapture`, …).
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .expect("a theme names itself")
    }

    /// A den entry, in however many moves.
    pub fn is_den(self) -> bool {
        matches!(
            self,
            Theme::Den1 | Theme::Den2 | Theme::Den3 | Theme::DenLong
        )
    }

    pub fn from_name(name: &str) -> Option<Theme> {
        serde_json::from_value(serde_json::Value::String(name.to_owned())).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for theme in Theme::ALL {
            assert_eq!(Theme::from_name(&theme.name()), Some(theme));
        }
        assert_eq!(Theme::Den1.name(), "den1");
        assert_eq!(Theme::RatCapturesElephant.name(), "ratCapturesElephant");
    }
}
