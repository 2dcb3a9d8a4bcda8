//! What rooms, the lobby, challenges, fair play and tournament directors ask of the other
//! nodes, and the one `match` on whether there are any. The cluster answers through the traits
//! here (it implements them; these crates never name it), so a feature never asks whether a
//! cluster exists and the rooms never depend on it:
//!
//! - [`Players`]: reaching a player (who is online, a frame for every tab, entering a game);
//! - [`Claims`]: what a node holds while it runs something (a game's lease, a room's code, a
//!   tournament's direction).
//!
//! Fair play's own question to the other nodes is `fair_play::OtherNodes`.
//!
//! The request handlers' questions (a game's room, matchmaking) are the server's `reach`.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use futures_util::future::BoxFuture;
use uuid::Uuid;

use crate::online::Online;
use crate::RoomHandle;

/// A player's tabs on the other nodes, as the cluster last heard of them.
pub trait PlayersElsewhere: Send + Sync {
    fn is_online_elsewhere(&self, player: Uuid) -> bool;
    /// `text` for every tab of `player` on the other nodes (but the connection `except`).
    fn send_elsewhere(&self, player: Uuid, text: &Utf8Bytes, except: Option<u64>);
    /// Every tab of `player` on the other nodes enters `game` (run on this node).
    fn enter_elsewhere(&self, player: Uuid, game: Uuid);
}

/// What the cluster holds for this node.
pub trait ClaimsElsewhere: Send + Sync {
    /// Takes or keeps a game's lease.
    fn hold_game(&self, game: Uuid) -> BoxFuture<'_, Held>;
    /// A room's code, findable from every node while the room lives (`open`), or no more.
    fn share_code<'a>(&'a self, code: &'a str, game: Uuid, open: bool) -> BoxFuture<'a, ()>;
    /// Takes or keeps the direction of a tournament; false if another node directs it.
    fn direct(&self, tournament: Uuid) -> BoxFuture<'_, bool>;
}

/// Reaching a player, wherever their tabs are. Cloning shares.
#[derive(Clone)]
pub struct Players {
    online: Online,
    elsewhere: Option<Arc<dyn PlayersElsewhere>>,
}

impl Players {
    pub fn new(online: Online, elsewhere: Option<Arc<dyn PlayersElsewhere>>) -> Players {
        Players { online, elsewhere }
    }

    /// Whether `player` has a connection open on any node (other nodes as of the last beat).
    pub fn is_online(&self, player: Uuid) -> bool {
        match &self.elsewhere {
            None => self.online.is_online(player),
            Some(elsewhere) => {
                self.online.is_online(player) || elsewhere.is_online_elsewhere(player)
            }
        }
    }

    /// `text` for every tab of `player`, on every node (but the connection `except`).
    pub fn send(&self, player: Uuid, text: &Utf8Bytes, except: Option<u64>) {
        self.online.send(player, text, except);
        if let Some(elsewhere) = &self.elsewhere {
            elsewhere.send_elsewhere(player, text, except);
        }
    }

    /// Every tab of `player`, on every node, enters `room` (run here).
    pub fn enter(&self, player: Uuid, room: &RoomHandle) {
        self.online.enter(player, room);
        if let Some(elsewhere) = &self.elsewhere {
            elsewhere.enter_elsewhere(player, room.id);
        }
    }

    pub fn local(&self) -> &Online {
        &self.online
    }
}

/// Whether this node may run a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// It holds the game's lease (or there is nobody else to hold it).
    Here,
    /// Another node does: this one must not run it.
    Elsewhere,
    /// Redis did not answer: play on (the lease keeper takes it when Redis is back).
    Unknown,
}

/// What a node holds while it runs something: nothing to hold with one node. Cloning shares.
#[derive(Clone)]
pub struct Claims {
    elsewhere: Option<Arc<dyn ClaimsElsewhere>>,
}

impl Claims {
    pub fn new(elsewhere: Option<Arc<dyn ClaimsElsewhere>>) -> Claims {
        Claims { elsewhere }
    }

    /// The lease of a game about to run here, taken from its first moment (before its row is
    /// written), so that no other node mistakes it for an orphan.
    pub async fn hold_game(&self, game: Uuid) -> Held {
        match &self.elsewhere {
            None => Held::Here,
            Some(elsewhere) => elsewhere.hold_game(game).await,
        }
    }

    /// A room's code, findable from every node while the room lives (`open`), or no more.
    pub async fn share_code(&self, code: &str, game: Uuid, open: bool) {
        if let Some(elsewhere) = &self.elsewhere {
            elsewhere.share_code(code, game, open).await;
        }
    }

    /// Takes or keeps the direction of a tournament; false if another node directs it.
    pub async fn direct(&self, tournament: Uuid) -> bool {
        match &self.elsewhere {
            None => true,
            Some(elsewhere) => elsewhere.direct(tournament).await,
        }
    }
}
