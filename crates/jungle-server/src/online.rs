//! Who is online: each signed-in WebSocket, by player. A challenge reaches every tab of the
//! player challenged; a ban closes every connection of the player banned.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::Notify;
use uuid::Uuid;

use crate::rooms::Connection;

struct Open {
    conn: Connection,
    /// Notified to close the connection (the player was banned).
    close: Arc<Notify>,
}

type ByPlayer = HashMap<Uuid, Vec<Open>>;

#[derive(Clone, Default)]
pub struct Online {
    players: Arc<Mutex<ByPlayer>>,
}

/// A connection's place among its player's, given back when it drops.
pub struct OnlineEntry {
    online: Online,
    player: Uuid,
    conn_id: u64,
}

impl Online {
    /// Counts `conn` as online until the entry is dropped; `close` is notified to end it.
    pub fn register(&self, conn: &Connection, close: Arc<Notify>) -> OnlineEntry {
        self.players
            .lock()
            .expect("online lock")
            .entry(conn.player.id)
            .or_default()
            .push(Open {
                conn: conn.clone(),
                close,
            });
        OnlineEntry {
            online: self.clone(),
            player: conn.player.id,
            conn_id: conn.id,
        }
    }

    pub fn is_online(&self, player: Uuid) -> bool {
        self.players
            .lock()
            .expect("online lock")
            .contains_key(&player)
    }

    /// Sends `text` to every connection of `player` (but `except`); how many took it.
    pub fn send(&self, player: Uuid, text: &Utf8Bytes, except: Option<u64>) -> usize {
        let players = self.players.lock().expect("online lock");
        players
            .get(&player)
            .into_iter()
            .flatten()
            .filter(|open| Some(open.conn.id) != except)
            .filter(|open| open.conn.send_text(text.clone()))
            .count()
    }

    /// The player as their newest connection signed in (name included), if online.
    pub fn player(&self, player: Uuid) -> Option<crate::store::PlayerRecord> {
        let players = self.players.lock().expect("online lock");
        players
            .get(&player)
            .and_then(|list| list.last())
            .map(|open| open.conn.player.clone())
    }

    /// Sends every connection of `player` into `room` (a tournament pairing); how many took it.
    pub fn enter(&self, player: Uuid, room: &crate::rooms::RoomHandle) -> usize {
        let players = self.players.lock().expect("online lock");
        players
            .get(&player)
            .into_iter()
            .flatten()
            .filter(|open| {
                open.conn
                    .tx
                    .try_send(crate::rooms::Outbound::Enter(room.clone()))
                    .is_ok()
            })
            .count()
    }

    /// Closes every connection of `player`.
    pub fn close_all(&self, player: Uuid) {
        let players = self.players.lock().expect("online lock");
        for open in players.get(&player).into_iter().flatten() {
            open.close.notify_one();
        }
    }

    /// Every player with a connection here (for the other nodes' view of who is online).
    pub fn player_ids(&self) -> Vec<Uuid> {
        self.players
            .lock()
            .expect("online lock")
            .keys()
            .copied()
            .collect()
    }

    /// Players online (for tests and metrics).
    pub fn players(&self) -> usize {
        self.players.lock().expect("online lock").len()
    }
}

impl Drop for OnlineEntry {
    fn drop(&mut self) {
        let mut players = self.online.players.lock().expect("online lock");
        if let Some(list) = players.get_mut(&self.player) {
            list.retain(|open| open.conn.id != self.conn_id);
            if list.is_empty() {
                players.remove(&self.player);
            }
        }
    }
}
