use std::fmt;
use std::str::FromStr;

/// The points on which versions of Jungle disagree. Build one from a [`Ruleset`] preset.
///
/// ```
/// use jungle_rules::{Rules, Ruleset};
///
/// let strict: Rules = Ruleset::Strict.rules();
/// assert!(strict.trapped_cannot_capture);
/// assert_eq!(strict.no_capture_draw_plies, 100);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// An animal standing in an enemy trap cannot capture anything (it is always rank 0 when
    /// attacked, in every ruleset).
    pub trapped_cannot_capture: bool,
    /// A rat of the jumper's own side in the water also blocks a jump, not only an enemy rat.
    pub own_rat_blocks_jump: bool,
    /// The tiger may jump over the water along files as well as along ranks (the lion always may).
    pub tiger_jumps_vertically: bool,
    /// A rat in the water and a rat on land may capture each other.
    pub rat_captures_across_water: bool,
    /// The game is drawn once this many plies pass without a capture (a pass counts as a ply).
    pub no_capture_draw_plies: u32,
    /// The 7-3 and 17-5 anti-chase rules apply (see [`Game`](crate::Game)).
    pub anti_chase: bool,
    /// The cycle rule of the PC online game applies: after a sequence of turns played three
    /// times in a row that came back to its position, its first turn may not be played again
    /// (see [`Game`](crate::Game)).
    pub cycle_rule: bool,
}

/// The four named rulesets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Ruleset {
    /// The PC online game 野兽争霸 (seeds 000, 002, 003).
    #[default]
    Classic,
    /// The stricter site rules of seed 001.
    Strict,
    /// The 大头 mobile game (seed 003).
    Daitou,
    /// English-language sites and the strongest engines.
    International,
}

impl Ruleset {
    pub const ALL: [Ruleset; 4] = [
        Ruleset::Classic,
        Ruleset::Strict,
        Ruleset::Daitou,
        Ruleset::International,
    ];

    pub const fn rules(self) -> Rules {
        match self {
            Ruleset::Classic => Rules::CLASSIC,
            Ruleset::Strict => Rules::STRICT,
            Ruleset::Daitou => Rules::DAITOU,
            Ruleset::International => Rules::INTERNATIONAL,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Classic => "classic",
            Ruleset::Strict => "strict",
            Ruleset::Daitou => "daitou",
            Ruleset::International => "international",
        }
    }
}

impl Rules {
    pub const CLASSIC: Rules = Rules {
        trapped_cannot_capture: false,
        own_rat_blocks_jump: false,
        tiger_jumps_vertically: true,
        rat_captures_across_water: true,
        no_capture_draw_plies: 200,
        anti_chase: true,
        cycle_rule: true,
    };
    pub const STRICT: Rules = Rules {
        trapped_cannot_capture: true,
        own_rat_blocks_jump: true,
        tiger_jumps_vertically: true,
        rat_captures_across_water: false,
        no_capture_draw_plies: 100,
        anti_chase: false,
        cycle_rule: false,
    };
    pub const DAITOU: Rules = Rules {
        trapped_cannot_capture: false,
        own_rat_blocks_jump: true,
        tiger_jumps_vertically: false,
        rat_captures_across_water: false,
        no_capture_draw_plies: 200,
        anti_chase: true,
        cycle_rule: false,
    };
    pub const INTERNATIONAL: Rules = Rules {
        trapped_cannot_capture: false,
        own_rat_blocks_jump: true,
        tiger_jumps_vertically: true,
        rat_captures_across_water: false,
        no_capture_draw_plies: 200,
        anti_chase: false,
        cycle_rule: false,
    };
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::CLASSIC
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Not one of `classic`, `strict`, `daitou`, `international`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRulesetError(pub String);

impl fmt::Display for ParseRulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown ruleset {:?} (expected classic, strict, daitou or international)",
            self.0
        )
    }
}

impl std::error::Error for ParseRulesetError {}

impl FromStr for Ruleset {
    type Err = ParseRulesetError;
    fn from_str(s: &str) -> Result<Ruleset, ParseRulesetError> {
        Ruleset::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| ParseRulesetError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in Ruleset::ALL {
            assert_eq!(r.name().parse::<Ruleset>(), Ok(r));
        }
        assert!("Classic".parse::<Ruleset>().is_err());
    }

    #[test]
    fn presets_differ_as_the_table_says() {
        let [c, s, d, i] = Ruleset::ALL.map(Ruleset::rules);
        assert!(s.trapped_cannot_capture && !c.trapped_cannot_capture);
        assert!(!c.own_rat_blocks_jump && s.own_rat_blocks_jump && d.own_rat_blocks_jump);
        assert!(!d.tiger_jumps_vertically && i.tiger_jumps_vertically);
        assert!(c.rat_captures_across_water && !i.rat_captures_across_water);
        assert_eq!(
            [c, s, d, i].map(|r| r.no_capture_draw_plies),
            [200, 100, 200, 200]
        );
        assert_eq!(
            [c, s, d, i].map(|r| r.anti_chase),
            [true, false, true, false]
        );
        assert_eq!(
            [c, s, d, i].map(|r| r.cycle_rule),
            [true, false, false, false]
        );
    }
}
