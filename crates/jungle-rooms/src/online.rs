//! Who is online: each signed-in WebSocket, by player. A challenge reaches every tab of the
//! player challenged; a ban closes every connection of the player banned.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::Notify;
use uuid::Uuid;

use crate::Connection;

struct Open {
    conn: Connection,
    /// Notified to close the connection (the player was banned).
    close: Arc<Notify>,
}

#[derive(Default)]
struct ByPlayer {
    players: HashMap<Uuid, Vec<Open>>,
    /// Changes whenever a player comes online or goes (not for a player's further tabs):
    /// the other nodes read who is online here again only when it changed.
    version: u64,
}

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
        let mut online = self.players.lock().expect("online lock");
        let tabs = online.players.entry(conn.player.id).or_default();
        let first = tabs.is_empty();
        tabs.push(Open {
            conn: conn.clone(),
            close,
        });
        if first {
            online.version += 1;
        }
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
            .players
            .contains_key(&player)
    }

    /// Sends `text` to every connection of `player` (but `except`); how many took it.
    pub fn send(&self, player: Uuid, text: &Utf8Bytes, except: Option<u64>) -> usize {
        let players = self.players.lock().expect("online lock");
        players
            .players
            .get(&player)
            .into_iter()
            .flatten()
            .filter(|open| Some(open.conn.id) != except)
            .filter(|open| open.conn.send_text(text.clone()))
            .count()
    }

    /// The player as their newest connection signed in (name included), if online.
    pub fn player(&self, player: Uuid) -> Option<jungle_store::PlayerRecord> {
        let players = self.players.lock().expect("online lock");
        players
            .players
            .get(&player)
            .and_then(|list| list.last())
            .map(|open| open.conn.player.clone())
    }

    /// Sends every connection of `player` into `room` (a tournament pairing); how many took it.
    pub fn enter(&self, player: Uuid, room: &crate::RoomHandle) -> usize {
        let players = self.players.lock().expect("online lock");
        players
            .players
            .get(&player)
            .into_iter()
            .flatten()
            .filter(|open| {
                open.conn
                    .tx
                    .try_send(crate::Outbound::enter(room.clone()))
                    .is_ok()
            })
            .count()
    }

    /// Closes every connection of `player`.
    pub fn close_all(&self, player: Uuid) {
        let players = self.players.lock().expect("online lock");
        for open in players.players.get(&player).into_iter().flatten() {
            open.close.notify_one();
        }
    }

    /// Every player with a connection here, with the version of that set (for the other
    /// nodes' view of who is online); `None` if it is still `seen`.
    pub fn player_ids_since(&self, seen: Option<u64>) -> Option<(u64, Vec<Uuid>)> {
        let online = self.players.lock().expect("online lock");
        if seen == Some(online.version) {
            return None;
        }
        Some((online.version, online.players.keys().copied().collect()))
    }

    /// Players online (for tests and metrics).
    pub fn players(&self) -> usize {
        self.players.lock().expect("online lock").players.len()
    }
}

impl Drop for OnlineEntry {
    fn drop(&mut self) {
        let mut online = self.online.players.lock().expect("online lock");
        if let Some(list) = online.players.get_mut(&self.player) {
            list.retain(|open| open.conn.id != self.conn_id);
            if list.is_empty() {
                online.players.remove(&self.player);
                online.version += 1;
            }
        }
    }
}
