//! The directors of the tournaments being run, by id, and the two facts that span tournaments:
//! which tournament each player is active in (one at a time, so that no one is paired twice at
//! once) and which players are in a tournament game now.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use jungle_protocol::http::Standing;
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use super::director::{Command, JoinError};
use jungle_rooms::Connection;

#[derive(Default)]
struct Inner {
    running: HashMap<Uuid, mpsc::Sender<Command>>,
    /// The latest standings each director published, for `GET /api/tournaments/{id}`.
    standings: HashMap<Uuid, Arc<Vec<Standing>>>,
    /// The tournament each player is active in (joined and not withdrawn).
    active_in: HashMap<Uuid, Uuid>,
    /// The tournament whose game each player is playing now.
    playing_in: HashMap<Uuid, Uuid>,
}

/// A cloneable handle on every director.
#[derive(Clone)]
pub struct Directors {
    inner: Arc<Mutex<Inner>>,
    /// The players, wherever their tabs are.
    players: jungle_rooms::reach::Players,
}

impl Directors {
    pub fn new(players: jungle_rooms::reach::Players) -> Directors {
        Directors {
            inner: Arc::default(),
            players,
        }
    }

    /// Reaching the players of a tournament (on every node).
    pub fn players(&self) -> &jungle_rooms::reach::Players {
        &self.players
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("directors lock")
    }

    pub(super) fn register(&self, id: Uuid, tx: mpsc::Sender<Command>) {
        self.lock().running.insert(id, tx);
    }

    /// A director's end: it forgets its tournament and whoever was active in it.
    pub(super) fn remove(&self, id: Uuid) {
        let mut inner = self.lock();
        inner.running.remove(&id);
        inner.standings.remove(&id);
        inner.active_in.retain(|_, t| *t != id);
        inner.playing_in.retain(|_, t| *t != id);
    }

    pub fn is_directed(&self, id: Uuid) -> bool {
        self.lock().running.contains_key(&id)
    }

    fn sender(&self, id: Uuid) -> Option<mpsc::Sender<Command>> {
        self.lock().running.get(&id).cloned()
    }

    pub(super) fn publish(&self, id: Uuid, standings: Arc<Vec<Standing>>) {
        self.lock().standings.insert(id, standings);
    }

    /// The standings a director published last, while it runs.
    pub fn standings(&self, id: Uuid) -> Option<Arc<Vec<Standing>>> {
        self.lock().standings.get(&id).cloned()
    }

    /// Marks `player` active in `id`; returns the tournament they were active in before, if
    /// another (which the caller withdraws them from).
    pub(super) fn set_active(&self, player: Uuid, id: Uuid) -> Option<Uuid> {
        self.lock()
            .active_in
            .insert(player, id)
            .filter(|before| *before != id)
    }

    pub(super) fn clear_active(&self, player: Uuid, id: Uuid) {
        let mut inner = self.lock();
        if inner.active_in.get(&player) == Some(&id) {
            inner.active_in.remove(&player);
        }
    }

    pub(super) fn set_playing(&self, player: Uuid, id: Option<Uuid>) {
        let mut inner = self.lock();
        match id {
            Some(id) => inner.playing_in.insert(player, id),
            None => inner.playing_in.remove(&player),
        };
    }

    /// The tournament whose game `player` is playing now, if any.
    pub fn playing_in(&self, player: Uuid) -> Option<Uuid> {
        self.lock().playing_in.get(&player).copied()
    }

    /// Asks the director of `id` to take `conn`'s player in. `None`: no director runs it.
    pub async fn join(
        &self,
        id: Uuid,
        conn: Connection,
        code: Option<String>,
        has_account: bool,
    ) -> Option<Result<(), JoinError>> {
        let tx = self.sender(id)?;
        let (reply, answer) = oneshot::channel();
        let command = Command::Join {
            conn,
            code,
            has_account,
            reply,
        };
        tx.send(command).await.ok()?;
        answer.await.ok()
    }

    /// Withdraws `player` from `id` (a pause); nothing if no director runs it.
    pub async fn withdraw(&self, id: Uuid, player: Uuid) {
        if let Some(tx) = self.sender(id) {
            let _ = tx.send(Command::Withdraw { player }).await;
        }
    }

    /// Follows the standings of `id` on `conn`; false if no director runs it.
    pub async fn watch(&self, id: Uuid, conn: Connection) -> bool {
        match self.sender(id) {
            Some(tx) => tx.send(Command::Watch { conn }).await.is_ok(),
            None => false,
        }
    }

    pub async fn unwatch(&self, id: Uuid, conn_id: u64) {
        if let Some(tx) = self.sender(id) {
            let _ = tx.send(Command::Unwatch { conn_id }).await;
        }
    }

    /// A tournament game ended (its points are already in the database). `absent`: the player
    /// who never made a first move, when it was aborted.
    pub async fn game_ended(&self, id: Uuid, game: Uuid, absent: Option<Uuid>) {
        if let Some(tx) = self.sender(id) {
            let _ = tx.send(Command::GameEnded { game, absent }).await;
        }
    }
}
