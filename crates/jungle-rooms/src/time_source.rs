//! The server's time as games see it: tokio's clock (so tests that pause time move it too)
//! plus an offset that is zero in production. A black-box test of a correspondence game
//! moves the offset by days ([`TimeSource::advance`]) instead of waiting; rooms wake when it
//! moves and find their deadlines passed, and the wall-clock times stored with turns move
//! with it, so a restart in the middle reads them consistently.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;

#[derive(Clone, Debug)]
pub struct TimeSource {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    offset_ms: AtomicU64,
    /// Bumped at each move of the offset: rooms re-arm their timers.
    moved: watch::Sender<u64>,
}

impl Default for TimeSource {
    fn default() -> Self {
        TimeSource {
            inner: Arc::new(Inner {
                offset_ms: AtomicU64::new(0),
                moved: watch::channel(0).0,
            }),
        }
    }
}

impl TimeSource {
    fn offset(&self) -> Duration {
        Duration::from_millis(self.inner.offset_ms.load(Ordering::Acquire))
    }

    /// Now, for sessions and clocks.
    pub fn instant(&self) -> Instant {
        tokio::time::Instant::now().into_std() + self.offset()
    }

    /// Now by the wall clock, Unix milliseconds: what is stored with turns and games.
    pub fn wall_ms(&self) -> i64 {
        jungle_store::now_ms() + self.offset().as_millis() as i64
    }

    /// The tokio instant at which this source's `at` comes.
    pub fn timer_at(&self, at: Instant) -> tokio::time::Instant {
        let real = at.checked_sub(self.offset()).unwrap_or(at);
        tokio::time::Instant::from_std(real)
    }

    /// Resolves when the offset moves (never, in production).
    pub fn moves(&self) -> watch::Receiver<u64> {
        self.inner.moved.subscribe()
    }

    /// Moves time forward by `by` for every game of this server: for tests and simulations
    /// only; a production server never calls it.
    pub fn advance(&self, by: Duration) {
        self.inner
            .offset_ms
            .fetch_add(by.as_millis() as u64, Ordering::AcqRel);
        self.inner.moved.send_modify(|n| *n += 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn advancing_moves_both_clocks_and_is_heard() {
        let time = TimeSource::default();
        let mut moves = time.moves();
        let (instant, wall) = (time.instant(), time.wall_ms());
        time.advance(Duration::from_secs(86_400));
        assert!(time.instant() - instant >= Duration::from_secs(86_400));
        assert!(time.wall_ms() - wall >= 86_400_000);
        assert!(moves.has_changed().expect("open"));
        moves.changed().await.expect("heard");
        // A deadline a day on comes now in tokio's time.
        let due = time.timer_at(instant + Duration::from_secs(86_400));
        assert!(due <= tokio::time::Instant::now());
    }
}
