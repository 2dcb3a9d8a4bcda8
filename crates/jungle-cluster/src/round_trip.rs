//! How long the bus takes to each peer node and back, measured by a ping every beat.
//!
//! A player on another node than their game's owner loses time between nodes twice a turn:
//! the opponent's move reaches them through the owner's outbox, Redis and their node's inbox,
//! and their answer comes back the same way (each outbox lingers a little on a busy link to
//! send more at once). The owner's clock would charge both to them. A ping goes exactly that
//! way, lingering where a move would, so the owner credits a move from another node with the
//! smoothed round trip to that node, as it credits a connection's own network lag: within the
//! lag quota every move has ([`jungle_game::clock`]), so a credit never exceeds what any
//! player may be given.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A round trip is credited up to this (one measured during a Redis outage, when the outbox
/// held the ping for seconds, says nothing about the next move).
const MOST: Duration = Duration::from_millis(100);

/// The smoothed round trip to each peer. Cloning shares.
#[derive(Clone, Default)]
pub struct RoundTrips {
    by_node: Arc<Mutex<HashMap<String, Duration>>>,
}

impl RoundTrips {
    /// The round trip to `node` to credit a move from there: zero until one was measured.
    pub fn of(&self, node: &str) -> Duration {
        self.by_node
            .lock()
            .expect("round trips lock")
            .get(node)
            .copied()
            .unwrap_or_default()
    }

    /// A ping to `node` came back after `measured`: a quarter of it counts, so that one slow
    /// answer moves the figure a little (as a connection's lag is smoothed).
    pub fn record(&self, node: &str, measured: Duration) {
        let measured = measured.min(MOST);
        let mut by_node = self.by_node.lock().expect("round trips lock");
        let smoothed = match by_node.get(node) {
            Some(&before) => (before * 3 + measured) / 4,
            None => measured,
        };
        by_node.insert(node.to_owned(), smoothed);
        show(&by_node);
    }

    /// A link that ended (nothing sent there for a long time): its figure goes with it.
    pub fn forget(&self, node: &str) {
        let mut by_node = self.by_node.lock().expect("round trips lock");
        by_node.remove(node);
        show(&by_node);
    }
}

/// The longest round trip to a peer, in `/metrics` (one figure, however many nodes come and go).
fn show(by_node: &HashMap<String, Duration>) {
    let longest = by_node.values().max().copied().unwrap_or_default();
    metrics::gauge!("jungle_bus_round_trip_seconds").set(longest.as_secs_f64());
}

/// This process's clock for pings, in microseconds: a ping carries it out and back, and only
/// this process reads it.
pub fn now_micros() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_micros() as u64
}

/// What a ping's answer says: how long ago it was sent (`None` for a time not yet reached).
pub fn since(sent: u64) -> Option<Duration> {
    now_micros().checked_sub(sent).map(Duration::from_micros)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_are_smoothed_capped_and_zero_until_measured() {
        let trips = RoundTrips::default();
        assert_eq!(trips.of("n2"), Duration::ZERO);
        trips.record("n2", Duration::from_millis(20));
        assert_eq!(
            trips.of("n2"),
            Duration::from_millis(20),
            "the first counts whole"
        );
        trips.record("n2", Duration::from_millis(60));
        assert_eq!(
            trips.of("n2"),
            Duration::from_millis(30),
            "a quarter of the next"
        );
        trips.record("n2", Duration::from_secs(5));
        assert_eq!(
            trips.of("n2"),
            (Duration::from_millis(30) * 3 + MOST) / 4,
            "an outage's answer counts as the most"
        );
        assert_eq!(trips.of("n3"), Duration::ZERO, "each node its own");
        trips.forget("n2");
        assert_eq!(trips.of("n2"), Duration::ZERO, "forgotten with its link");
    }

    #[test]
    fn a_ping_reads_back_as_the_time_since_it_was_sent() {
        let sent = now_micros();
        std::thread::sleep(Duration::from_millis(2));
        assert!(since(sent).unwrap() >= Duration::from_millis(2));
        assert_eq!(since(now_micros() + 1_000_000), None);
    }
}
