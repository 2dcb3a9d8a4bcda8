//! How many streams (or requests under way) each API token holds: a bound, so that one token
//! cannot hold the server's memory or a room's followers without end.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use uuid::Uuid;

/// Game streams one token may hold open at once (a bot playing many games).
pub const MAX_GAME_STREAMS: usize = 16;

/// Open streams by token. Cloning shares.
#[derive(Clone, Default)]
pub struct OpenStreams {
    by_token: Arc<Mutex<HashMap<Uuid, usize>>>,
}

/// Actions under way by token (one at a time): the same count, kept apart from the streams.
#[derive(Clone, Default)]
pub struct ActionsUnderWay(pub OpenStreams);

/// One open stream; the count goes down when it is dropped.
pub struct StreamHold {
    streams: OpenStreams,
    token: Uuid,
}

impl OpenStreams {
    /// A place for one more stream of `token`, if it holds fewer than `max`.
    pub fn open(&self, token: Uuid, max: usize) -> Option<StreamHold> {
        let mut by_token = self.by_token.lock().expect("streams lock");
        let open = by_token.entry(token).or_default();
        if *open >= max {
            return None;
        }
        *open += 1;
        Some(StreamHold {
            streams: self.clone(),
            token,
        })
    }
}

impl Drop for StreamHold {
    fn drop(&mut self) {
        let mut by_token = self.streams.by_token.lock().expect("streams lock");
        if let Some(open) = by_token.get_mut(&self.token) {
            *open -= 1;
            if *open == 0 {
                by_token.remove(&self.token);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_holds_at_most_its_places_and_gets_them_back() {
        let streams = OpenStreams::default();
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let first = streams.open(a, 1).expect("a first place");
        assert!(streams.open(a, 1).is_none(), "one at a time");
        assert!(streams.open(b, 1).is_some(), "another token is apart");
        drop(first);
        assert!(
            streams.open(a, 1).is_some(),
            "free again once the first ended"
        );
        let held: Vec<StreamHold> = (0..3).filter_map(|_| streams.open(a, 3)).collect();
        assert_eq!(held.len(), 3);
        assert!(streams.open(a, 3).is_none());
        drop(held);
        assert!(
            streams.by_token.lock().unwrap().is_empty(),
            "nothing kept for idle tokens"
        );
    }
}
