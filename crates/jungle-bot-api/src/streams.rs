//! How many streams (or requests under way) each API token holds: a bound, so that one token
//! cannot hold the server's memory or a room's followers without end.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use uuid::Uuid;

/// Game streams one token may hold open at once (a bot playing many games).
pub const MAX_GAME_STREAMS: usize = 16;

/// Open streams by token, and how to end them when their token is deleted. Cloning shares.
#[derive(Clone, Default)]
pub struct OpenStreams {
    by_token: Arc<Mutex<HashMap<Uuid, usize>>>,
    revoked: Arc<Mutex<HashMap<Uuid, tokio::sync::watch::Sender<bool>>>>,
}

/// Actions one token may have under way and waiting their turn at once.
pub const MAX_ACTIONS_QUEUED: usize = 8;

/// How long an action waits for its token's turn before it is refused.
const TURN_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Actions by token, taken one at a time in the order they came: a client that sends several
/// at once (lichess's clients do not wait for each other, nor retry) is served in turn, up to
/// [`MAX_ACTIONS_QUEUED`]. Cloning shares.
#[derive(Clone, Default)]
pub struct ActionsUnderWay {
    by_token: Arc<Mutex<HashMap<Uuid, TokenQueue>>>,
}

/// One token's turn and how many actions hold or wait for it.
struct TokenQueue {
    turn: Arc<tokio::sync::Mutex<()>>,
    queued: usize,
}

/// The token's turn, held while its action is under way.
pub struct ActionTurn {
    _turn: tokio::sync::OwnedMutexGuard<()>,
    _place: QueuePlace,
}

/// A place in a token's queue; given back when dropped.
struct QueuePlace {
    actions: ActionsUnderWay,
    token: Uuid,
}

impl ActionsUnderWay {
    /// Waits for `token`'s turn: `None` when too many of its actions are queued already, or
    /// the turn did not come in time.
    pub async fn turn(&self, token: Uuid) -> Option<ActionTurn> {
        let (turn, place) = {
            let mut by_token = self.by_token.lock().expect("actions lock");
            let queue = by_token.entry(token).or_insert_with(|| TokenQueue {
                turn: Arc::default(),
                queued: 0,
            });
            if queue.queued >= MAX_ACTIONS_QUEUED {
                return None;
            }
            queue.queued += 1;
            let place = QueuePlace {
                actions: self.clone(),
                token,
            };
            (queue.turn.clone(), place)
        };
        let turn = tokio::time::timeout(TURN_WAIT, turn.lock_owned())
            .await
            .ok()?;
        Some(ActionTurn {
            _turn: turn,
            _place: place,
        })
    }
}

impl Drop for QueuePlace {
    fn drop(&mut self) {
        let mut by_token = self.actions.by_token.lock().expect("actions lock");
        if let Some(queue) = by_token.get_mut(&self.token) {
            queue.queued -= 1;
            if queue.queued == 0 {
                by_token.remove(&self.token);
            }
        }
    }
}

/// One open stream; the count goes down when it is dropped.
pub struct StreamHold {
    streams: OpenStreams,
    token: Uuid,
    /// Turns true when the token is deleted.
    pub revoked: tokio::sync::watch::Receiver<bool>,
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
        let revoked = self
            .revoked
            .lock()
            .expect("revocations lock")
            .entry(token)
            .or_insert_with(|| tokio::sync::watch::channel(false).0)
            .subscribe();
        Some(StreamHold {
            streams: self.clone(),
            token,
            revoked,
        })
    }

    /// `token` was deleted: its open streams end.
    pub fn revoke(&self, token: Uuid) {
        if let Some(revoked) = self.revoked.lock().expect("revocations lock").get(&token) {
            revoked.send_replace(true);
        }
    }
}

impl Drop for StreamHold {
    fn drop(&mut self) {
        let mut by_token = self.streams.by_token.lock().expect("streams lock");
        if let Some(open) = by_token.get_mut(&self.token) {
            *open -= 1;
            if *open == 0 {
                by_token.remove(&self.token);
                let mut revoked = self.streams.revoked.lock().expect("revocations lock");
                revoked.remove(&self.token);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_tokens_actions_take_turns_up_to_a_bound() {
        let actions = ActionsUnderWay::default();
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let first = actions.turn(a).await.expect("the first goes at once");
        assert!(actions.turn(b).await.is_some(), "another token is apart");
        // The second waits for the first, and goes when it ends.
        let waiting = tokio::spawn({
            let actions = actions.clone();
            async move { actions.turn(a).await.is_some() }
        });
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        assert!(!waiting.is_finished(), "waits its turn");
        drop(first);
        assert!(waiting.await.unwrap(), "its turn came");
        // Held too long: a waiter gives up; too many at once: refused at once.
        let held = actions.turn(a).await.unwrap();
        assert!(actions.turn(a).await.is_none(), "the turn never came");
        let queued: Vec<_> = (1..MAX_ACTIONS_QUEUED)
            .map(|_| {
                let actions = actions.clone();
                tokio::spawn(async move { actions.turn(a).await.map(|_| ()) })
            })
            .collect();
        tokio::task::yield_now().await;
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        assert!(
            actions.turn(a).await.is_none(),
            "a ninth is refused without waiting"
        );
        drop(held);
        for waiter in queued {
            assert!(waiter.await.unwrap().is_some(), "served in turn");
        }
        assert!(
            actions.by_token.lock().unwrap().is_empty(),
            "nothing kept for idle tokens"
        );
    }

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
        assert!(streams.revoked.lock().unwrap().is_empty());
    }

    #[test]
    fn a_deleted_tokens_streams_hear_it() {
        let streams = OpenStreams::default();
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let (first, second, other) = (
            streams.open(a, 3).unwrap(),
            streams.open(a, 3).unwrap(),
            streams.open(b, 3).unwrap(),
        );
        streams.revoke(a);
        assert!(*first.revoked.borrow() && *second.revoked.borrow());
        assert!(!*other.revoked.borrow(), "another token's streams go on");
    }
}
