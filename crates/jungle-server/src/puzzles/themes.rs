//! A puzzle's themes, read from its line by replaying it (issue 27), never set by hand: how
//! it wins (the den in 1, 2, 3 or more; material), what happens on the way (a capture in a
//! trap, the rat taking the elephant, a jump over the river, a capture of a higher-ranked
//! animal), and what kind of position it is (an endgame, a long line).

use jungle_rules::{Animal, EndReason, Game, Move, Side, Turn};
use serde::{Deserialize, Serialize};

use super::puzzle::Puzzle;

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
    /// The solver takes an animal of a higher rank than the taker.
    HigherCapture,
    /// Few animals left: six or fewer on the board.
    Endgame,
    /// Four solver moves or more.
    Long,
}

impl Theme {
    pub const ALL: [Theme; 11] = [
        Theme::Den1,
        Theme::Den2,
        Theme::Den3,
        Theme::DenLong,
        Theme::Material,
        Theme::TrapCapture,
        Theme::RatCapturesElephant,
        Theme::RiverJump,
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

    pub fn from_name(name: &str) -> Option<Theme> {
        serde_json::from_value(serde_json::Value::String(name.to_owned())).ok()
    }
}

/// The themes of `puzzle`, found by replaying its line (empty if it does not replay).
pub fn detect(puzzle: &Puzzle) -> Vec<Theme> {
    let Ok(mut game) = puzzle.start() else {
        return Vec::new();
    };
    let solver = game.position().side_to_move();
    let mut themes = Vec::new();
    if game.position().pieces().count() <= 6 {
        themes.push(Theme::Endgame);
    }
    for (i, text) in puzzle.solution.iter().enumerate() {
        let Ok(mv) = text.parse::<Move>() else {
            return Vec::new();
        };
        if i % 2 == 0 {
            themes.extend(move_themes(&game, solver, mv));
        }
        if game.play(Turn::Move(mv)).is_err() {
            return Vec::new();
        }
    }
    let moves = puzzle.solver_moves();
    match game.outcome() {
        Some(o) if o.reason == EndReason::Den && o.winner == Some(solver) => {
            themes.push(match moves {
                1 => Theme::Den1,
                2 => Theme::Den2,
                3 => Theme::Den3,
                _ => Theme::DenLong,
            })
        }
        _ => themes.push(Theme::Material),
    }
    if moves >= 4 {
        themes.push(Theme::Long);
    }
    themes.sort();
    themes.dedup();
    themes
}

/// What one solver move shows.
fn move_themes(game: &Game, solver: Side, mv: Move) -> Vec<Theme> {
    let position = game.position();
    let (Some(mover), taken) = (position.piece_at(mv.from), position.piece_at(mv.to)) else {
        return Vec::new();
    };
    let mut themes = Vec::new();
    if mover.animal.is_jumper() && crosses_water(mv) {
        themes.push(Theme::RiverJump);
    }
    if let Some(taken) = taken.filter(|t| t.side != solver) {
        if mv.to.trap_owner() == Some(solver) {
            themes.push(Theme::TrapCapture);
        }
        if mover.animal == Animal::Rat && taken.animal == Animal::Elephant {
            themes.push(Theme::RatCapturesElephant);
        }
        if taken.animal.rank() > mover.animal.rank() {
            themes.push(Theme::HigherCapture);
        }
    }
    themes
}

/// A move of more than one square: only a jump over the river is.
fn crosses_water(mv: Move) -> bool {
    let (from, to) = (mv.from, mv.to);
    from.file().abs_diff(to.file()) + from.rank().abs_diff(to.rank()) > 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Ruleset;

    #[test]
    fn names_round_trip() {
        for theme in Theme::ALL {
            assert_eq!(Theme::from_name(&theme.name()), Some(theme));
        }
        assert_eq!(Theme::Den1.name(), "den1");
        assert_eq!(Theme::RatCapturesElephant.name(), "ratCapturesElephant");
    }

    #[test]
    fn a_den_entry_in_one_in_an_endgame() {
        let puzzle = Puzzle {
            rules: Ruleset::International,
            position: "7/7/7/7/7/7/7/3l3/E6 r 0 30".into(),
            blunder: "a1a2".into(),
            solution: vec!["d2d1".into()],
            themes: Vec::new(),
            source: None,
        };
        assert_eq!(detect(&puzzle), vec![Theme::Den1, Theme::Endgame]);
    }
}
