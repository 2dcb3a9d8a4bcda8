//! A puzzle's themes, read from its line by replaying it (issue 27), never set by hand: how
//! it wins (the den in 1, 2, 3 or more; material), what happens on the way (a capture in a
//! trap, the rat taking the elephant, a jump over the river, a rat blocking a jump, a jump
//! over water a rat had blocked, a capture of a higher-ranked animal), and what kind of
//! position it is (a defence, an endgame, a long line). Which jumps a rat blocks differs by
//! ruleset, so the blocking themes ask the rules crate which moves are legal, never the
//! board's geometry alone.

use crate::puzzle::Puzzle;
pub use crate::theme::Theme;
use jungle_rules::{Animal, EndReason, Game, Move, Position, Rules, Side, Square, Turn};

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
    // Every position of the puzzle so far, the one before the opponent's move included:
    // where rats stood in the water before a jump.
    let mut seen: Vec<Position> = game.positions().collect();
    for (i, text) in puzzle.solution.iter().enumerate() {
        let Ok(mv) = text.parse::<Move>() else {
            return Vec::new();
        };
        if i % 2 == 0 {
            themes.extend(move_themes(&game, solver, mv));
            if is_river_block(game.rules(), game.position(), mv) {
                themes.push(Theme::RiverBlock);
            }
            if is_unblocked_jump(game.rules(), game.position(), mv, &seen) {
                themes.push(Theme::RiverUnblocked);
            }
            if i == 0 && is_defence(game.rules(), game.position(), solver, mv) {
                themes.push(Theme::Defence);
            }
        }
        if game.play(Turn::Move(mv)).is_err() {
            return Vec::new();
        }
        seen.push(*game.position());
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

/// The opponent's moves in `position` as if the solver passed.
fn opponent_moves(rules: &Rules, position: &Position) -> Vec<Move> {
    let mut theirs = *position;
    theirs.pass();
    theirs.legal_moves(rules).as_slice().to_vec()
}

/// The solver's rat steps into the water, and a jump the opponent could make before (with
/// the jumper still standing where it was) is no longer legal.
fn is_river_block(rules: &Rules, position: &Position, mv: Move) -> bool {
    let is_rat = position
        .piece_at(mv.from)
        .is_some_and(|p| p.animal == Animal::Rat);
    if !is_rat || !mv.to.is_water() {
        return false;
    }
    let Ok(after) = position.play(rules, mv) else {
        return false;
    };
    let jumps_after = after.legal_moves(rules);
    opponent_moves(rules, position).into_iter().any(|jump| {
        crosses_water(jump)
            && between(jump).contains(&mv.to)
            && after.piece_at(jump.from) == position.piece_at(jump.from)
            && !jumps_after.contains(jump)
    })
}

/// The solver jumps over water where, in a position seen earlier in the puzzle, a rat stood
/// and the same jump was not legal: the way was blocked and is open now. (Whether a rat of
/// one's own side blocks depends on the ruleset, so the rules decide, not the board alone.)
fn is_unblocked_jump(rules: &Rules, position: &Position, mv: Move, seen: &[Position]) -> bool {
    let jumper = position.piece_at(mv.from);
    if !jumper.is_some_and(|p| p.animal.is_jumper()) || !crosses_water(mv) {
        return false;
    }
    let path = between(mv);
    seen.iter().any(|earlier| {
        let rat_in_the_way = path.iter().any(|sq| {
            earlier
                .piece_at(*sq)
                .is_some_and(|p| p.animal == Animal::Rat)
        });
        let mut solver_to_move = *earlier;
        if solver_to_move.side_to_move() != position.side_to_move() {
            solver_to_move.pass();
        }
        rat_in_the_way
            && earlier.piece_at(mv.from) == jumper
            && solver_to_move.check_move(rules, mv).is_err()
    })
}

/// The opponent could enter the solver's den if the solver passed, and the solver's first
/// move does not win at once: it has to hold first.
fn is_defence(rules: &Rules, position: &Position, solver: Side, mv: Move) -> bool {
    let den = Square::den(solver);
    if mv.to == Square::den(!solver) {
        return false;
    }
    opponent_moves(rules, position)
        .iter()
        .any(|threat| threat.to == den)
}

/// The squares strictly between a straight move's ends.
fn between(mv: Move) -> Vec<Square> {
    let (from, to) = (mv.from, mv.to);
    let mut squares = Vec::new();
    if from.file() == to.file() {
        let (lo, hi) = (from.rank().min(to.rank()), from.rank().max(to.rank()));
        squares.extend((lo + 1..hi).filter_map(|r| Square::from_coords(from.file(), r)));
    } else if from.rank() == to.rank() {
        let (lo, hi) = (from.file().min(to.file()), from.file().max(to.file()));
        squares.extend((lo + 1..hi).filter_map(|f| Square::from_coords(f, from.rank())));
    }
    squares
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Ruleset;

    /// A plain den entry: nothing threatened, no rat moving, so no defence and no block.
    #[test]
    fn a_den_entry_in_one_in_an_endgame() {
        let puzzle = Puzzle {
            rules: Ruleset::International,
            position: "7/7/7/7/7/7/7/3l3/E6 r 0 30".into(),
            blunder: "a1a2".into(),
            solution: vec!["d2d1".into()],
            themes: Vec::new(),
            source: None,
            judged: None,
        };
        assert_eq!(detect(&puzzle), vec![Theme::Den1, Theme::Endgame]);
    }

    fn puzzle(json: &str) -> Puzzle {
        serde_json::from_str(json).expect("a puzzle")
    }

    /// Blue's lion steps next to red's den into red's trap: red must take it (and can,
    /// since a trapped lion is weak).
    #[test]
    fn parrying_a_den_threat_is_a_defence() {
        let p = puzzle(
            r#"{"rules":"classic","position":"4c2/3d1t1/4L2/E2p3/r5e/3PR2/T6/2W1D2/1l5 b 0 23",
                "blunder":"b1c1","solution":["c2c1"],"themes":[]}"#,
        );
        let themes = detect(&p);
        assert!(themes.contains(&Theme::Defence), "{themes:?}");
        assert!(themes.contains(&Theme::TrapCapture), "{themes:?}");
    }

    /// Blue's rat swims into the river in front of red's lion, which could jump before; the
    /// same line under every ruleset where it is mined.
    #[test]
    fn a_rat_swimming_into_a_jumps_path_blocks_it() {
        for rules in ["daitou", "international", "strict"] {
            let p = puzzle(&format!(
                r#"{{"rules":"{rules}","position":"1d5/4t2/3wce1/T2pR2/2rl3/3P3/1EW1D2/2C1L2/7 r 82 42",
                    "blunder":"c2d2","solution":["c5c6","c3c2","d5d4"],"themes":[]}}"#
            ));
            let themes = detect(&p);
            assert!(themes.contains(&Theme::RiverBlock), "{rules}: {themes:?}");
            assert!(!themes.contains(&Theme::Defence), "{rules}: {themes:?}");
        }
    }

    /// Red's rat swims from f5 to e5, out of the way of blue's tiger on f7, which jumps to f3.
    #[test]
    fn a_jump_the_opponents_rat_no_longer_blocks_is_unblocked() {
        let p = puzzle(
            r#"{"rules":"classic","position":"4c2/2p4/ld1w1t1/1r4e/5R1/6L/1EW1P2/T2CD2/7 r 26 14",
                "blunder":"f5e5","solution":["f7f3","e3d3","f3e3","e2e1","e3d3"],"themes":[]}"#,
        );
        let themes = detect(&p);
        assert!(themes.contains(&Theme::RiverUnblocked), "{themes:?}");
        assert!(themes.contains(&Theme::RiverJump), "{themes:?}");
    }

    /// Classic lets a jumper pass over its own rat: a jump beside one's own rat was never
    /// blocked.
    #[test]
    fn a_jump_over_ones_own_rat_was_never_blocked() {
        let p = puzzle(
            r#"{"rules":"classic","position":"7/2dp3/3lw1t/3P3/2rWR2/7/2E1T2/3C3/7 b 1 103",
                "blunder":"d7d6","solution":["e3e7"],"themes":[]}"#,
        );
        let themes = detect(&p);
        assert!(themes.contains(&Theme::RiverJump), "{themes:?}");
        assert!(!themes.contains(&Theme::RiverUnblocked), "{themes:?}");
    }

    /// Squares between a jump's ends, both ways along a file and a rank.
    #[test]
    fn between_a_jumps_ends() {
        let names = |m: &str| -> Vec<&str> {
            between(m.parse().expect("a move"))
                .iter()
                .map(|s| s.name())
                .collect()
        };
        assert_eq!(names("b3b7"), ["b4", "b5", "b6"]);
        assert_eq!(names("b7b3"), ["b4", "b5", "b6"]);
        assert_eq!(names("a4d4"), ["b4", "c4"]);
        assert!(names("a4a5").is_empty());
    }
}
