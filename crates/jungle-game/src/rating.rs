//! Glicko-2 ratings, lichess-flavoured: 1500 start, deviation 500 (kept within 45–500),
//! volatility 0.09, τ 0.75; provisional while the deviation is 110 or more.
//! The maths is the `skillratings` crate's.

use jungle_rules::Side;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

pub const START_RATING: f64 = 1500.0;
pub const MAX_DEVIATION: f64 = 500.0;
pub const MIN_DEVIATION: f64 = 45.0;
pub const START_VOLATILITY: f64 = 0.09;
pub const TAU: f64 = 0.75;
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Which rating a game moves: one per ruleset for games in one sitting, another for games by
/// correspondence (as lichess rates speeds apart: a player's days-per-move strength says
/// little of their blitz).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RatingPool {
    pub rules: jungle_rules::Ruleset,
    pub correspondence: bool,
}

/// What follows a ruleset's name in a correspondence rating's key.
const CORRESPONDENCE_SUFFIX: &str = "-correspondence";

impl RatingPool {
    pub fn of(rules: jungle_rules::Ruleset, clock: jungle_protocol::ClockSpec) -> RatingPool {
        RatingPool {
            rules,
            correspondence: clock.is_correspondence(),
        }
    }

    /// The key its rows are stored under (ratings and their history): the ruleset's name for
    /// real time, `classic-correspondence` and so on for correspondence.
    pub fn key(self) -> String {
        if self.correspondence {
            format!("{}{CORRESPONDENCE_SUFFIX}", self.rules.name())
        } else {
            self.rules.name().to_owned()
        }
    }

    pub fn from_key(key: &str) -> Option<RatingPool> {
        let (name, correspondence) = match key.strip_suffix(CORRESPONDENCE_SUFFIX) {
            Some(name) => (name, true),
            None => (key, false),
        };
        Some(RatingPool {
            rules: name.parse().ok()?,
            correspondence,
        })
    }
}

/// A ruleset alone names its real-time rating.
impl From<jungle_rules::Ruleset> for RatingPool {
    fn from(rules: jungle_rules::Ruleset) -> RatingPool {
        RatingPool {
            rules,
            correspondence: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Glicko {
    fn default() -> Glicko {
        Glicko {
            rating: START_RATING,
            deviation: MAX_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

impl Glicko {
    pub fn is_provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating as shown to people: a whole number.
    pub fn shown(&self) -> i32 {
        self.rating.round() as i32
    }

    fn to_crate(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_crate(r: Glicko2Rating) -> Glicko {
        Glicko {
            rating: r.rating,
            deviation: r.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: r.volatility,
        }
    }
}

/// Both players' new ratings after one game (`winner` `None` for a draw).
pub fn rate(red: Glicko, blue: Glicko, winner: Option<Side>) -> (Glicko, Glicko) {
    let outcome = match winner {
        Some(Side::Red) => Outcomes::WIN,
        Some(Side::Blue) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::default()
    };
    let (r, b) = glicko2(&red.to_crate(), &blue.to_crate(), &outcome, &config);
    (Glicko::from_crate(r), Glicko::from_crate(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_between_newcomers_moves_both_by_the_same_amount() {
        let (red, blue) = rate(Glicko::default(), Glicko::default(), Some(Side::Red));
        assert!(red.rating > 1500.0 && blue.rating < 1500.0);
        assert!((red.rating - 1500.0 - (1500.0 - blue.rating)).abs() < 1e-6);
        assert!(red.deviation < MAX_DEVIATION);
        assert!(red.is_provisional());
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating() {
        let (red, blue) = rate(Glicko::default(), Glicko::default(), None);
        assert!((red.rating - 1500.0).abs() < 1e-6 && (blue.rating - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn deviation_stays_within_bounds() {
        let mut red = Glicko::default();
        let mut blue = Glicko::default();
        for i in 0..500 {
            let winner = if i % 2 == 0 {
                Some(Side::Red)
            } else {
                Some(Side::Blue)
            };
            (red, blue) = rate(red, blue, winner);
        }
        assert!(red.deviation >= MIN_DEVIATION && red.deviation < PROVISIONAL_DEVIATION);
        assert!(!red.is_provisional());
    }
}
