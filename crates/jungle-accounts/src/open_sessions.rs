//! WebSockets signed in with a session, by session: signing a session out closes them at once,
//! not at their next reconnect.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;
use uuid::Uuid;

type Listeners = HashMap<Uuid, Vec<(u64, Arc<Notify>)>>;

#[derive(Clone, Default)]
pub struct OpenSessions {
    by_session: Arc<Mutex<Listeners>>,
    next_key: Arc<AtomicU64>,
}

/// A connection's place in the registry, given back when it drops.
pub struct Registration {
    registry: OpenSessions,
    session: Uuid,
    key: u64,
}

impl OpenSessions {
    /// `signed_out` is notified when `session` is signed out.
    pub fn register(&self, session: Uuid, signed_out: Arc<Notify>) -> Registration {
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        self.by_session
            .lock()
            .expect("open sessions lock")
            .entry(session)
            .or_default()
            .push((key, signed_out));
        Registration {
            registry: self.clone(),
            session,
            key,
        }
    }

    /// Tells every connection of `session` that it is signed out.
    pub fn sign_out(&self, session: Uuid) {
        let listeners = self
            .by_session
            .lock()
            .expect("open sessions lock")
            .remove(&session);
        for (_, notify) in listeners.into_iter().flatten() {
            notify.notify_one();
        }
    }

    /// Connections registered (for tests and metrics).
    pub fn len(&self) -> usize {
        let map = self.by_session.lock().expect("open sessions lock");
        map.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut map = self.registry.by_session.lock().expect("open sessions lock");
        if let Some(listeners) = map.get_mut(&self.session) {
            listeners.retain(|(key, _)| *key != self.key);
            if listeners.is_empty() {
                map.remove(&self.session);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn signing_out_notifies_that_sessions_connections_only() {
        let registry = OpenSessions::default();
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let (first, second, other) = (
            Arc::new(Notify::new()),
            Arc::new(Notify::new()),
            Arc::new(Notify::new()),
        );
        let _r1 = registry.register(a, first.clone());
        let _r2 = registry.register(a, second.clone());
        let r3 = registry.register(b, other.clone());
        registry.sign_out(a);
        first.notified().await;
        second.notified().await;
        assert_eq!(registry.len(), 1);
        drop(r3);
        assert!(
            registry.is_empty(),
            "a closed connection leaves nothing behind"
        );
    }
}
