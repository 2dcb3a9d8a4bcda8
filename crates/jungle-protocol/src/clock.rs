use serde::{Deserialize, Serialize};

/// A game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClockSpec {
    /// Base time plus an increment after each timed move; running out loses.
    Fischer { base_s: u32, inc_s: u32 },
    /// A fixed time for each turn; a turn that runs out is passed, and a player with more than
    /// `max_timeouts` timeouts loses. With `consecutive`, only an unbroken run of timeouts counts
    /// (the daitou way); otherwise all of them do (the classic way).
    PerMove {
        move_s: u32,
        max_timeouts: u32,
        #[serde(default)]
        consecutive: bool,
    },
    /// Correspondence: each turn may take up to `days` days (from its start, by the wall
    /// clock); running out loses. No passed turns, no abandonment: players are away most of
    /// the time.
    Days { days: u32 },
}

/// A time control outside the bounds the server accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockSpecError(pub &'static str);

impl std::fmt::Display for ClockSpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for ClockSpecError {}

impl ClockSpec {
    /// Classic online style: 30 s a turn, the fourth timeout loses.
    pub const CLASSIC_PER_MOVE: ClockSpec = ClockSpec::PerMove {
        move_s: 30,
        max_timeouts: 3,
        consecutive: false,
    };
    /// The daitou mobile game: 30 s a turn, two timeouts in a row lose.
    pub const DAITOU_PER_MOVE: ClockSpec = ClockSpec::PerMove {
        move_s: 30,
        max_timeouts: 1,
        consecutive: true,
    };

    /// The days a correspondence turn may take.
    pub const DAYS_ALLOWED: [u32; 6] = [1, 2, 3, 5, 7, 14];

    /// A game over days rather than in one sitting.
    pub fn is_correspondence(&self) -> bool {
        matches!(self, ClockSpec::Days { .. })
    }

    /// Refuses clocks that make no sense or would keep a game alive for days.
    pub fn validate(&self) -> Result<(), ClockSpecError> {
        match *self {
            ClockSpec::Fischer { base_s, inc_s } => {
                // With no base, the first timed turn would start at zero and lose at once,
                // whatever the increment.
                if base_s == 0 {
                    return Err(ClockSpecError(
                        "a Fischer clock needs a base time of at least 1 second",
                    ));
                }
                if base_s > 3 * 3600 || inc_s > 180 {
                    return Err(ClockSpecError(
                        "a Fischer clock allows at most 3 hours base and 180 s increment",
                    ));
                }
            }
            ClockSpec::PerMove {
                move_s,
                max_timeouts,
                ..
            } => {
                if !(1..=600).contains(&move_s) {
                    return Err(ClockSpecError("move_s must be from 1 to 600 seconds"));
                }
                if max_timeouts > 10 {
                    return Err(ClockSpecError("max_timeouts must be at most 10"));
                }
            }
            ClockSpec::Days { days } => {
                if !Self::DAYS_ALLOWED.contains(&days) {
                    return Err(ClockSpecError("days must be 1, 2, 3, 5, 7 or 14"));
                }
            }
        }
        Ok(())
    }
}
