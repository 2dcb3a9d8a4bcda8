//! How many streams each API token holds open: a bound, so that one token cannot hold the
//! server's memory or a room's followers without end.

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
