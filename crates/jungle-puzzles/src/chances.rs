//! Winning chances: a search score as a number from -1 (lost) to 1 (won), so that "clearly
//! better" means the same in the middle game and near the end (lichess-puzzler compares moves
//! this way). A den entry or any forced win is 1; material follows a logistic curve on which
//! a dog's worth (about 300 centi-animals) is about half the way to a win.

use jungle_engine::Score;

/// How steeply material turns into chances.
const STEEPNESS: f64 = 0.004;

/// `score`, from the side to move's view, as winning chances in [-1, 1].
pub fn winning_chances(score: Score) -> f64 {
    match score {
        Score::DenIn(n) if n > 0 => 1.0,
        Score::DenIn(_) => -1.0,
        Score::Cp(cp) => 2.0 / (1.0 + (-STEEPNESS * f64::from(cp)).exp()) - 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_run_from_lost_to_won() {
        assert_eq!(winning_chances(Score::DenIn(3)), 1.0);
        assert_eq!(winning_chances(Score::DenIn(-2)), -1.0);
        assert_eq!(winning_chances(Score::Cp(0)), 0.0);
        let dog = winning_chances(Score::Cp(300));
        assert!((0.45..0.6).contains(&dog), "{dog}");
        assert!((winning_chances(Score::Cp(-300)) + dog).abs() < 1e-9);
        assert!(winning_chances(Score::Cp(2000)) > 0.99);
    }
}
