//! An analysis of one position: the best move, its line, the depth reached and a score a
//! person can read — centi-animals, or how many moves to a den entry.

use std::time::Duration;

use jungle_rules::{Game, Move};

use crate::search::{Limits, Searcher, MATE};

/// Scores beyond this are won or lost games, not material.
const DECIDED: i32 = MATE - 500;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-animals (a dog is about 300).
    Cp(i32),
    /// The side to move enters the den (or otherwise wins) in this many of its own moves;
    /// negative: the opponent does, in that many of theirs.
    DenIn(i32),
}

impl Score {
    /// Reads a search score: within 500 of [`MATE`] it counts plies to the end.
    pub fn from_search(score: i32) -> Score {
        if score > DECIDED {
            let plies = MATE - score;
            Score::DenIn((plies + 1) / 2)
        } else if score < -DECIDED {
            let plies = MATE + score;
            Score::DenIn(-(plies / 2).max(1))
        } else {
            Score::Cp(score)
        }
    }
}

/// What the engine found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub best: Move,
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    pub depth: u32,
}

/// Analyses the game's position for at most `budget` (and at least one full ply). `None` when
/// the game is over.
pub fn analyse(searcher: &mut Searcher, game: &Game, budget: Duration) -> Option<Analysis> {
    if game.outcome().is_some() {
        return None;
    }
    searcher.set_rules(*game.rules());
    let limits = Limits {
        depth: None,
        movetime: Some(budget),
        nodes: None,
    };
    let (best, info) = searcher.search(game, limits, |_| {});
    let (best, info) = (best?, info?);
    let pv = if info.pv.first() == Some(&best) {
        info.pv
    } else {
        vec![best]
    };
    Some(Analysis {
        best,
        score: Score::from_search(info.score),
        pv,
        depth: info.depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Rules;

    #[test]
    fn a_den_entry_in_one_is_found_and_called_so() {
        let game = Game::new(
            Rules::INTERNATIONAL,
            "2e4/3L3/7/7/7/7/7/7/7 r 0 30".parse().unwrap(),
        );
        let mut searcher = Searcher::new(Rules::INTERNATIONAL, 1);
        let analysis = analyse(&mut searcher, &game, Duration::from_millis(200)).unwrap();
        assert_eq!(analysis.best.to_string(), "d8d9");
        assert_eq!(analysis.score, Score::DenIn(1));
        assert_eq!(analysis.pv[0], analysis.best);
        assert!(analysis.depth >= 1);
    }

    #[test]
    fn scores_read_as_people_count() {
        assert_eq!(Score::from_search(120), Score::Cp(120));
        assert_eq!(Score::from_search(MATE - 1), Score::DenIn(1));
        assert_eq!(Score::from_search(MATE - 3), Score::DenIn(2));
        assert_eq!(Score::from_search(-(MATE - 2)), Score::DenIn(-1));
        assert_eq!(Score::from_search(-(MATE - 4)), Score::DenIn(-2));
    }

    #[test]
    fn a_finished_game_has_no_analysis() {
        let game = Game::new(
            Rules::INTERNATIONAL,
            "2eL3/7/7/7/7/7/7/7/7 b 1 30".parse().unwrap(),
        );
        assert!(game.outcome().is_some());
        let mut searcher = Searcher::new(Rules::INTERNATIONAL, 1);
        assert_eq!(
            analyse(&mut searcher, &game, Duration::from_millis(50)),
            None
        );
    }
}
