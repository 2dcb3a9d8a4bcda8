//! Game clocks. Pure: every call is given the time (`now`), so tests need no runtime.
//!
//! A side's clock runs from its second turn on; its first turn is covered by the abort timer.
//!
//! A correspondence clock (`Days`) keeps, per side, the time its turn may take: full at each
//! turn's start, more when the opponent gives a day. Its turns are counted by the wall clock,
//! so a restart charges the time the server was down ([`GameClock::charge_downtime`]).

use std::time::Duration;

use jungle_protocol::{ClockSpec, Clocks};
use jungle_rules::Side;
use std::time::Instant;

use crate::records::StoredClock;

/// Lag compensation as lichess does it: each move may be credited up to the player's quota of
/// network lag; the quota refills by a little each move, so a steady connection is always
/// compensated while nobody can bank unlimited time.
const LAG_QUOTA_GAIN: Duration = Duration::from_millis(100);
const LAG_QUOTA_MAX: Duration = Duration::from_millis(500);

#[derive(Clone, Debug)]
pub struct GameClock {
    spec: ClockSpec,
    /// Fischer time left per side; a correspondence turn's allowance per side (unused by
    /// per-move clocks).
    remaining: [Duration; 2],
    timeouts: [u32; 2],
    lag_quota: [Duration; 2],
    turn_started: Instant,
    /// Correspondence: each side's vacations from now on (sorted, apart), during which its
    /// turns do not run.
    pauses: [Vec<(Instant, Instant)>; 2],
}

/// What happens when the running turn's time is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// The side's flag fell (Fischer): it loses.
    Flag,
    /// The turn is passed on (per-move) and a timeout counted.
    Pass,
}

impl GameClock {
    pub fn new(spec: ClockSpec, now: Instant) -> GameClock {
        let base = match spec {
            ClockSpec::Fischer { base_s, .. } => Duration::from_secs(base_s.into()),
            ClockSpec::PerMove { .. } => Duration::ZERO,
            ClockSpec::Days { days } => days_of(days),
        };
        GameClock {
            spec,
            remaining: [base; 2],
            timeouts: [0; 2],
            lag_quota: [LAG_QUOTA_GAIN; 2],
            turn_started: now,
            pauses: Default::default(),
        }
    }

    /// The clock as saved after the last turn; the turn to come starts afresh at `now`, so the
    /// time the server was down is charged to nobody.
    pub fn restore(spec: ClockSpec, stored: StoredClock, now: Instant) -> GameClock {
        let mut clock = GameClock::new(spec, now);
        if let ClockSpec::Fischer { .. } | ClockSpec::Days { .. } = spec {
            clock.remaining = [
                Duration::from_millis(stored.red_ms.max(0) as u64),
                Duration::from_millis(stored.blue_ms.max(0) as u64),
            ];
        }
        clock.timeouts = [stored.red_timeouts as u32, stored.blue_timeouts as u32];
        clock
    }

    pub fn spec(&self) -> ClockSpec {
        self.spec
    }

    /// A correspondence turn that began `elapsed` ago by the wall clock (before a restart or
    /// a move to another node): the time is charged to the side to move.
    pub fn charge_downtime(&mut self, side: Side, elapsed: Duration) {
        if self.spec.is_correspondence() {
            let left = &mut self.remaining[side.index()];
            *left = left.saturating_sub(elapsed);
        }
    }

    /// `side`'s vacations (correspondence): its turns stand still during them.
    pub fn set_pauses(&mut self, side: Side, mut pauses: Vec<(Instant, Instant)>) {
        pauses.retain(|(from, until)| from < until);
        pauses.sort();
        self.pauses[side.index()] = pauses;
    }

    /// When `side`'s running turn ends: its time, pushed back by every vacation of its that
    /// overlaps the turn.
    fn deadline(&self, side: Side) -> Instant {
        let mut at = self.turn_started + self.remaining[side.index()];
        for &(from, until) in &self.pauses[side.index()] {
            let from = from.max(self.turn_started);
            if from < at && until > from {
                at += until - from;
            }
        }
        at
    }

    /// Whether `side`'s turn has more than its days (correspondence): a day was given.
    pub fn has_extra_time(&self, side: Side) -> bool {
        match self.spec {
            ClockSpec::Days { days } => self.remaining[side.index()] > days_of(days),
            _ => false,
        }
    }

    /// Gives `side` more time on its turn (correspondence): false for other clocks.
    pub fn give_time(&mut self, side: Side, extra: Duration) -> bool {
        if !self.spec.is_correspondence() {
            return false;
        }
        self.remaining[side.index()] += extra;
        true
    }

    pub fn turn_started(&self) -> Instant {
        self.turn_started
    }

    /// When the running turn (a timed one) runs out, and what then happens.
    pub fn expiry(&self, side: Side) -> (Instant, Expiry) {
        match self.spec {
            ClockSpec::Fischer { .. } => (
                self.turn_started + self.remaining[side.index()],
                Expiry::Flag,
            ),
            ClockSpec::PerMove { move_s, .. } => (
                self.turn_started + Duration::from_secs(move_s.into()),
                Expiry::Pass,
            ),
            ClockSpec::Days { .. } => (self.deadline(side), Expiry::Flag),
        }
    }

    /// Charges the mover for its turn, less lag compensation, and starts the next turn.
    /// Returns false if the mover's time had already run out (Fischer).
    pub fn record_move(&mut self, side: Side, timed: bool, lag: Duration, now: Instant) -> bool {
        let i = side.index();
        let mut within_time = true;
        if timed {
            let credit = lag.min(self.lag_quota[i]);
            self.lag_quota[i] = (self.lag_quota[i] - credit + LAG_QUOTA_GAIN).min(LAG_QUOTA_MAX);
            let spent = now
                .saturating_duration_since(self.turn_started)
                .saturating_sub(credit);
            match self.spec {
                ClockSpec::Fischer { inc_s, .. } => {
                    if spent >= self.remaining[i] {
                        self.remaining[i] = Duration::ZERO;
                        within_time = false;
                    } else {
                        self.remaining[i] =
                            self.remaining[i] - spent + Duration::from_secs(inc_s.into());
                    }
                }
                ClockSpec::PerMove { consecutive, .. } => {
                    if consecutive {
                        self.timeouts[i] = 0;
                    }
                }
                ClockSpec::Days { .. } => within_time = now < self.deadline(side),
            }
        }
        // A correspondence side's next turn has its full time again.
        if let ClockSpec::Days { days } = self.spec {
            if within_time {
                self.remaining[i] = days_of(days);
            }
        }
        if within_time {
            self.turn_started = now;
        }
        within_time
    }

    /// Counts a timed-out turn. Returns true when the side has now exceeded its allowance.
    pub fn record_timeout(&mut self, side: Side, now: Instant) -> bool {
        self.timeouts[side.index()] += 1;
        self.turn_started = now;
        match self.spec {
            ClockSpec::PerMove { max_timeouts, .. } => self.timeouts[side.index()] > max_timeouts,
            ClockSpec::Fischer { .. } | ClockSpec::Days { .. } => true,
        }
    }

    /// Restarts the running turn (after a game starts or resumes).
    pub fn restart_turn(&mut self, now: Instant) {
        self.turn_started = now;
    }

    /// Both clocks as they stand at `now`. `running` is the side whose timed turn it is.
    pub fn snapshot(&self, running: Option<Side>, now: Instant) -> Clocks {
        let spent = now.saturating_duration_since(self.turn_started);
        let left = |side: Side| -> u64 {
            if self.spec.is_correspondence() && running == Some(side) {
                return self
                    .deadline(side)
                    .saturating_duration_since(now)
                    .as_millis() as u64;
            }
            let full = match self.spec {
                ClockSpec::Fischer { .. } | ClockSpec::Days { .. } => self.remaining[side.index()],
                ClockSpec::PerMove { move_s, .. } => Duration::from_secs(move_s.into()),
            };
            let left = if running == Some(side) {
                full.saturating_sub(spent)
            } else {
                full
            };
            left.as_millis() as u64
        };
        Clocks {
            red_ms: left(Side::Red),
            blue_ms: left(Side::Blue),
            running,
            red_timeouts: self.timeouts[0],
            blue_timeouts: self.timeouts[1],
        }
    }

    /// What is saved with each turn.
    pub fn stored(&self) -> StoredClock {
        StoredClock {
            red_ms: self.remaining[0].as_millis() as i64,
            blue_ms: self.remaining[1].as_millis() as i64,
            red_timeouts: self.timeouts[0] as i64,
            blue_timeouts: self.timeouts[1] as i64,
        }
    }
}

/// `days` days.
pub fn days_of(days: u32) -> Duration {
    Duration::from_secs(u64::from(days) * 86_400)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLITZ: ClockSpec = ClockSpec::Fischer {
        base_s: 10,
        inc_s: 2,
    };

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn fischer_charges_thinking_time_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(BLITZ, t0);
        assert!(clock.record_move(Side::Red, true, Duration::ZERO, t0 + secs(3)));
        let snap = clock.snapshot(Some(Side::Blue), t0 + secs(3));
        assert_eq!(snap.red_ms, 9_000);
        assert_eq!(snap.blue_ms, 10_000);
        assert_eq!(
            clock.snapshot(Some(Side::Blue), t0 + secs(7)).blue_ms,
            6_000
        );
    }

    #[test]
    fn untimed_first_turns_cost_nothing() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(BLITZ, t0);
        assert!(clock.record_move(Side::Red, false, Duration::ZERO, t0 + secs(25)));
        assert_eq!(clock.snapshot(None, t0 + secs(25)).red_ms, 10_000);
    }

    #[test]
    fn the_flag_falls_at_zero() {
        let t0 = Instant::now();
        let clock = GameClock::new(BLITZ, t0);
        let (at, what) = clock.expiry(Side::Red);
        assert_eq!(what, Expiry::Flag);
        assert_eq!(at - t0, secs(10));
        let mut late = clock.clone();
        assert!(!late.record_move(Side::Red, true, Duration::ZERO, t0 + secs(11)));
    }

    #[test]
    fn lag_is_credited_up_to_the_quota() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(BLITZ, t0);
        // 300 ms of claimed lag, but only the 100 ms starting quota is credited.
        let at = t0 + Duration::from_millis(1_000);
        clock.record_move(Side::Red, true, Duration::from_millis(300), at);
        assert_eq!(clock.snapshot(None, at).red_ms, 10_000 - 900 + 2_000);
    }

    #[test]
    fn per_move_timeouts_count_and_consecutive_ones_reset() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(ClockSpec::CLASSIC_PER_MOVE, t0);
        for _ in 0..3 {
            assert!(!clock.record_timeout(Side::Red, t0));
        }
        assert!(
            clock.record_timeout(Side::Red, t0),
            "the fourth timeout loses"
        );

        let mut daitou = GameClock::new(ClockSpec::DAITOU_PER_MOVE, t0);
        assert!(!daitou.record_timeout(Side::Blue, t0));
        daitou.record_move(Side::Blue, true, Duration::ZERO, t0);
        assert!(
            !daitou.record_timeout(Side::Blue, t0),
            "a move resets the run"
        );
        assert!(daitou.record_timeout(Side::Blue, t0), "two in a row lose");
    }

    #[test]
    fn restore_keeps_the_saved_times() {
        let t0 = Instant::now();
        let stored = StoredClock {
            red_ms: 4_000,
            blue_ms: 7_500,
            red_timeouts: 0,
            blue_timeouts: 0,
        };
        let clock = GameClock::restore(BLITZ, stored, t0);
        let snap = clock.snapshot(Some(Side::Red), t0 + secs(1));
        assert_eq!((snap.red_ms, snap.blue_ms), (3_000, 7_500));
    }

    const THREE_DAYS: ClockSpec = ClockSpec::Days { days: 3 };

    #[test]
    fn a_correspondence_turn_has_its_days_afresh_and_runs_out_by_the_flag() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(THREE_DAYS, t0);
        let (at, what) = clock.expiry(Side::Red);
        assert_eq!((at - t0, what), (days_of(3), Expiry::Flag));
        // Red took two days; its next turn has three again, and Blue's runs from now.
        let t1 = t0 + days_of(2);
        assert!(clock.record_move(Side::Red, true, Duration::ZERO, t1));
        let snap = clock.snapshot(Some(Side::Blue), t1 + secs(60));
        assert_eq!(snap.red_ms, 3 * 86_400_000);
        assert_eq!(snap.blue_ms, 3 * 86_400_000 - 60_000);
        assert_eq!(clock.expiry(Side::Blue).0, t1 + days_of(3));
        // Too late is too late.
        let mut late = clock.clone();
        assert!(!late.record_move(Side::Blue, true, Duration::ZERO, t1 + days_of(3)));
    }

    #[test]
    fn a_day_given_and_downtime_charged_move_the_deadline() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(THREE_DAYS, t0);
        assert!(clock.give_time(Side::Blue, days_of(1)));
        assert_eq!(clock.expiry(Side::Blue).0, t0 + days_of(4));
        clock.charge_downtime(Side::Blue, days_of(1) + secs(5));
        assert_eq!(clock.expiry(Side::Blue).0, t0 + days_of(3) - secs(5));
        let mut blitz = GameClock::new(BLITZ, t0);
        assert!(
            !blitz.give_time(Side::Red, days_of(1)),
            "real-time clocks take none"
        );
        blitz.charge_downtime(Side::Red, secs(5));
        assert_eq!(blitz.expiry(Side::Red).0, t0 + secs(10), "nor any downtime");
    }

    #[test]
    fn a_vacation_stops_the_turn_it_overlaps() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(THREE_DAYS, t0);
        // Two days of vacation starting a day in: the turn ends two days later.
        clock.set_pauses(Side::Red, vec![(t0 + days_of(1), t0 + days_of(3))]);
        assert_eq!(clock.expiry(Side::Red).0, t0 + days_of(5));
        assert_eq!(
            clock.snapshot(Some(Side::Red), t0 + days_of(2)).red_ms,
            3 * 86_400_000
        );
        // Blue's turns are Blue's.
        assert_eq!(clock.expiry(Side::Blue).0, t0 + days_of(3));
        // A move at day 4 is in time; a vacation after a deadline changes nothing.
        assert!(clock
            .clone()
            .record_move(Side::Red, true, Duration::ZERO, t0 + days_of(4)));
        clock.set_pauses(Side::Red, vec![(t0 + days_of(4), t0 + days_of(6))]);
        assert_eq!(clock.expiry(Side::Red).0, t0 + days_of(3));
    }
}
