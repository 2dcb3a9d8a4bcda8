//! Failed sign-ins per account: after a few, each further attempt waits longer (1 s, 2 s, 4 s,
//! … up to 15 minutes), whatever address it comes from. A success forgets the failures.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failures allowed before any wait.
const FREE_FAILURES: u32 = 5;
const LONGEST_WAIT: Duration = Duration::from_secs(15 * 60);
/// Accounts remembered at most; beyond it, entries whose wait is over are dropped first.
const MAX_TRACKED: usize = 100_000;

#[derive(Default)]
pub struct FailedSignIns {
    by_account: Mutex<HashMap<String, Failures>>,
}

struct Failures {
    count: u32,
    locked_until: Instant,
}

impl FailedSignIns {
    /// How long `account` must still wait before trying again, if at all.
    pub fn wait(&self, account: &str, now: Instant) -> Option<Duration> {
        let map = self.by_account.lock().expect("sign-in lock");
        map.get(account)
            .map(|f| f.locked_until.saturating_duration_since(now))
            .filter(|wait| !wait.is_zero())
    }

    /// Counts a failed attempt on `account`.
    pub fn failed(&self, account: &str, now: Instant) {
        let mut map = self.by_account.lock().expect("sign-in lock");
        if map.len() >= MAX_TRACKED && !map.contains_key(account) {
            map.retain(|_, f| f.locked_until > now);
            if map.len() >= MAX_TRACKED {
                return;
            }
        }
        let entry = map.entry(account.to_owned()).or_insert(Failures {
            count: 0,
            locked_until: now,
        });
        entry.count += 1;
        if entry.count >= FREE_FAILURES {
            let doublings = (entry.count - FREE_FAILURES).min(20);
            let wait = (Duration::from_secs(1) * 2u32.pow(doublings)).min(LONGEST_WAIT);
            entry.locked_until = now + wait;
        }
    }

    pub fn succeeded(&self, account: &str) {
        self.by_account
            .lock()
            .expect("sign-in lock")
            .remove(account);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_grow_after_a_few_failures_and_success_forgets() {
        let throttle = FailedSignIns::default();
        let now = Instant::now();
        for _ in 0..4 {
            throttle.failed("ada", now);
            assert_eq!(throttle.wait("ada", now), None);
        }
        let mut waits = Vec::new();
        for _ in 0..4 {
            throttle.failed("ada", now);
            waits.push(throttle.wait("ada", now).unwrap().as_secs());
        }
        assert_eq!(waits, [1, 2, 4, 8]);
        assert_eq!(throttle.wait("bob", now), None, "accounts apart");
        for _ in 0..30 {
            throttle.failed("ada", now);
        }
        assert_eq!(throttle.wait("ada", now), Some(LONGEST_WAIT));
        throttle.succeeded("ada");
        assert_eq!(throttle.wait("ada", now), None);
    }
}
