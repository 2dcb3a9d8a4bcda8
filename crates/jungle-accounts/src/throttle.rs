//! Failed sign-ins, slowed so that guessing is hopeless and nobody can lock an owner out.
//!
//! - **Per address and account**: after [`FREE_FAILURES`] failures from one address on one
//!   account, each further attempt from that address on it waits longer (1 s, 2 s, 4 s, … up
//!   to 15 minutes). Others' failures never slow this pair; a success forgets its failures.
//!   An attempt from a device that signed in to the account before counts as that device's,
//!   not its address's: someone failing from the same address (a shared network) never slows
//!   the owner's own browser.
//! - **Per account, from unknown origins**: failures from addresses and devices that never
//!   signed in to the account spend a budget of [`ACCOUNT_BURST`], refilled one every
//!   [`ACCOUNT_REFILL`]. Once it is spent, unknown origins wait; the owner's usual devices and
//!   addresses never do, so a distributed attack cannot turn into a lock-out.
//! - **Per address, all accounts**: the `sign-in attempts` rate limit (docs/security.md).
//!
//! At most [`MAX_TRACKED`] keys of each kind are remembered; beyond that, those whose wait is
//! over are dropped first.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failures of one address on one account before any wait.
pub const FREE_FAILURES: u32 = 5;
pub const LONGEST_WAIT: Duration = Duration::from_secs(15 * 60);
/// Failures from unknown origins an account absorbs before they wait…
pub const ACCOUNT_BURST: u32 = 50;
/// …and how fast that budget comes back: 30 an hour.
pub const ACCOUNT_REFILL: Duration = Duration::from_secs(120);
const MAX_TRACKED: usize = 100_000;

/// Who makes an attempt: a device that signed in to the account before (its cookie's hash),
/// or else its address.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Requester {
    Address(IpAddr),
    Device(String),
}

impl From<IpAddr> for Requester {
    fn from(address: IpAddr) -> Requester {
        Requester::Address(jungle_limits::address_key(address))
    }
}

/// Whether the address or device of an attempt has signed in to the account before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Known,
    Unknown,
}

#[derive(Default)]
pub struct FailedSignIns {
    by_pair: Mutex<HashMap<(Requester, String), Failures>>,
    by_account: Mutex<HashMap<String, Budget>>,
}

struct Failures {
    count: u32,
    locked_until: Instant,
}

/// An account's budget of failures from unknown origins.
struct Budget {
    spent: f64,
    at: Instant,
}

impl Budget {
    /// The spent part after the refill since `at`.
    fn spent_at(&self, now: Instant) -> f64 {
        let refilled =
            now.saturating_duration_since(self.at).as_secs_f64() / ACCOUNT_REFILL.as_secs_f64();
        (self.spent - refilled).max(0.0)
    }
}

impl FailedSignIns {
    /// How long an attempt on `account` from `address` must still wait, if at all.
    pub fn wait(
        &self,
        address: impl Into<Requester>,
        account: &str,
        origin: Origin,
        now: Instant,
    ) -> Option<Duration> {
        let address = address.into();
        let pair = {
            let pairs = self.by_pair.lock().expect("sign-in lock");
            pairs
                .get(&(address, account.to_owned()))
                .map(|f| f.locked_until.saturating_duration_since(now))
                .filter(|wait| !wait.is_zero())
        };
        if pair.is_some() || origin == Origin::Known {
            return pair;
        }
        let accounts = self.by_account.lock().expect("sign-in lock");
        let spent = accounts.get(account)?.spent_at(now);
        (spent >= f64::from(ACCOUNT_BURST))
            .then(|| ACCOUNT_REFILL.mul_f64(spent - f64::from(ACCOUNT_BURST) + 1.0))
    }

    /// Counts a failed attempt on `account` from `address`.
    pub fn failed(
        &self,
        address: impl Into<Requester>,
        account: &str,
        origin: Origin,
        now: Instant,
    ) {
        let address = address.into();
        {
            let mut pairs = self.by_pair.lock().expect("sign-in lock");
            let key = (address, account.to_owned());
            if pairs.len() >= MAX_TRACKED && !pairs.contains_key(&key) {
                pairs.retain(|_, f| f.locked_until > now);
            }
            if pairs.len() < MAX_TRACKED || pairs.contains_key(&key) {
                let entry = pairs.entry(key).or_insert(Failures {
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
        }
        if origin == Origin::Unknown {
            let mut accounts = self.by_account.lock().expect("sign-in lock");
            if accounts.len() >= MAX_TRACKED && !accounts.contains_key(account) {
                accounts.retain(|_, b| b.spent_at(now) > 0.0);
                if accounts.len() >= MAX_TRACKED {
                    return;
                }
            }
            let budget = accounts.entry(account.to_owned()).or_insert(Budget {
                spent: 0.0,
                at: now,
            });
            budget.spent = budget.spent_at(now) + 1.0;
            budget.at = now;
        }
    }

    /// A success from `address` forgets that pair's failures (not the account's budget: an
    /// attack on it may still be under way).
    pub fn succeeded(&self, address: impl Into<Requester>, account: &str) {
        let address = address.into();
        self.by_pair
            .lock()
            .expect("sign-in lock")
            .remove(&(address, account.to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn one_address_waits_longer_and_longer_and_others_do_not() {
        let throttle = FailedSignIns::default();
        let now = Instant::now();
        let attacker = ip("203.0.113.9");
        for _ in 0..4 {
            throttle.failed(attacker, "ada", Origin::Unknown, now);
            assert_eq!(throttle.wait(attacker, "ada", Origin::Unknown, now), None);
        }
        let mut waits = Vec::new();
        for _ in 0..4 {
            throttle.failed(attacker, "ada", Origin::Unknown, now);
            waits.push(
                throttle
                    .wait(attacker, "ada", Origin::Unknown, now)
                    .unwrap()
                    .as_secs(),
            );
        }
        assert_eq!(waits, [1, 2, 4, 8]);
        assert_eq!(
            throttle.wait(ip("198.51.100.1"), "ada", Origin::Unknown, now),
            None,
            "another address is not slowed by this one's failures"
        );
        assert_eq!(throttle.wait(attacker, "bob", Origin::Unknown, now), None);
        for _ in 0..30 {
            throttle.failed(attacker, "ada", Origin::Unknown, now);
        }
        assert_eq!(
            throttle.wait(attacker, "ada", Origin::Unknown, now),
            Some(LONGEST_WAIT)
        );
        throttle.succeeded(attacker, "ada");
        assert_eq!(throttle.wait(attacker, "ada", Origin::Known, now), None);
    }

    #[test]
    fn a_distributed_attack_never_slows_the_owner_s_known_origins() {
        let throttle = FailedSignIns::default();
        let now = Instant::now();
        // Each address fails only a few times: no pair is slowed, but the account's budget
        // for unknown origins is spent.
        for n in 0..ACCOUNT_BURST {
            let address = ip(&format!("10.0.{}.{}", n / 200, n % 200 + 1));
            throttle.failed(address, "ada", Origin::Unknown, now);
        }
        let stranger = ip("192.0.2.200");
        let wait = throttle
            .wait(stranger, "ada", Origin::Unknown, now)
            .unwrap();
        assert!(wait <= ACCOUNT_REFILL && !wait.is_zero(), "{wait:?}");
        assert_eq!(
            throttle.wait(ip("192.0.2.1"), "ada", Origin::Known, now),
            None,
            "the owner's usual device or address"
        );
        assert_eq!(throttle.wait(stranger, "bob", Origin::Unknown, now), None);
        // Someone on the owner's own address (a shared network) fails there: that address
        // waits, the owner's browser, known by its device cookie, does not.
        let home = ip("192.0.2.1");
        for _ in 0..10 {
            throttle.failed(home, "ada", Origin::Known, now);
        }
        assert!(throttle.wait(home, "ada", Origin::Known, now).is_some());
        let browser = Requester::Device("hash of the owner's device".into());
        assert_eq!(throttle.wait(browser, "ada", Origin::Known, now), None);
        // The budget comes back with time.
        let later = now + ACCOUNT_REFILL * 2;
        assert_eq!(throttle.wait(stranger, "ada", Origin::Unknown, later), None);
    }
}
