//! Where is it? The one seam between the features and the cluster: the room of a game, a
//! room by its code, matchmaking, a player's tabs, challenges, a tournament's director. Each
//! question is one `match` on whether other nodes exist; no feature asks that itself.
//!
//! - [`Players`]: reaching a player (who is online, a frame for every tab, entering a game),
//!   for the services that need it (challenges, tournament directors);
//! - [`Claims`]: what a node holds while it runs something (a game's lease, a room's code, a
//!   tournament's direction), for rooms and directors;
//! - [`OtherNodes`]: fair play's question to the other nodes;
//! - [`Reach`]: everything else, for the request handlers.

use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use uuid::Uuid;

use crate::cluster::across::Across;
use crate::cluster::presence::Presence;
use crate::cluster::ClusterError;
use crate::lobby::Lobby;
use crate::online::Online;
use crate::rooms::{Connection, RoomHandle, RoomSettings, Rooms};
use jungle_store::RatingRecord;

/// Reaching a player, wherever their tabs are. Cloning shares.
#[derive(Clone)]
pub struct Players {
    online: Online,
    elsewhere: Option<Presence>,
}

impl Players {
    pub fn new(online: Online, elsewhere: Option<Presence>) -> Players {
        Players { online, elsewhere }
    }

    /// Whether `player` has a connection open on any node (other nodes as of the last beat).
    pub fn is_online(&self, player: Uuid) -> bool {
        match &self.elsewhere {
            None => self.online.is_online(player),
            Some(presence) => self.online.is_online(player) || presence.is_online_elsewhere(player),
        }
    }

    /// `text` for every tab of `player`, on every node (but the connection `except`).
    pub fn send(&self, player: Uuid, text: &Utf8Bytes, except: Option<u64>) {
        self.online.send(player, text, except);
        if let Some(presence) = &self.elsewhere {
            presence.send_elsewhere(player, text, except);
        }
    }

    /// Every tab of `player`, on every node, enters `room` (run here).
    pub fn enter(&self, player: Uuid, room: &RoomHandle) {
        self.online.enter(player, room);
        if let Some(presence) = &self.elsewhere {
            presence.enter_elsewhere(player, room.id);
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
    cluster: Option<crate::cluster::Cluster>,
}

impl Claims {
    pub fn new(cluster: Option<crate::cluster::Cluster>) -> Claims {
        Claims { cluster }
    }

    /// The lease of a game about to run here, taken from its first moment (before its row is
    /// written), so that no other node mistakes it for an orphan.
    pub async fn hold_game(&self, game: Uuid) -> Held {
        let Some(cluster) = &self.cluster else {
            return Held::Here;
        };
        match cluster.renew(&[game]).await {
            Ok(lost) if lost.is_empty() => Held::Here,
            Ok(_) => Held::Elsewhere,
            Err(e) => {
                tracing::warn!(%game, error = %e, "game lease not taken");
                Held::Unknown
            }
        }
    }

    /// A room's code, findable from every node while the room lives (`open`), or no more.
    pub async fn share_code(&self, code: &str, game: Uuid, open: bool) {
        let Some(cluster) = &self.cluster else {
            return;
        };
        let shared = match open {
            true => cluster.set_code(code, game).await,
            false => cluster.forget_code(code, game).await,
        };
        if let Err(e) = shared {
            tracing::warn!(%game, error = %e, "room code not shared");
        }
    }

    /// Takes or keeps the direction of a tournament; false if another node directs it.
    pub async fn direct(&self, tournament: Uuid) -> bool {
        match &self.cluster {
            None => true,
            // Redis away: direct on (a lease nobody renews lapses, and is taken back).
            Some(cluster) => !matches!(cluster.direct(tournament).await, Ok(false)),
        }
    }
}

/// Fair play's question to the other nodes: does one of their games close the engine on
/// these positions? With one node, none does.
#[derive(Clone)]
pub struct OtherNodes {
    peers: Option<crate::cluster::positions::Peers>,
}

impl OtherNodes {
    pub fn new(peers: Option<crate::cluster::positions::Peers>) -> OtherNodes {
        OtherNodes { peers }
    }

    pub async fn standings(
        &self,
        positions: &[jungle_rules::Position],
        among: crate::fair_play::Among,
    ) -> Result<Vec<crate::fair_play::Standing>, crate::fair_play::EngineClosed> {
        match &self.peers {
            None => Ok(vec![crate::fair_play::Standing::Open; positions.len()]),
            Some(peers) => peers.standings(positions, among).await,
        }
    }
}

/// The rest of "where is it", for the request handlers. Cloning shares.
#[derive(Clone)]
pub struct Reach {
    rooms: Rooms,
    lobby: Lobby,
    challenges: crate::challenges::Challenges,
    across: Option<Across>,
}

impl Reach {
    pub fn new(
        rooms: Rooms,
        lobby: Lobby,
        challenges: crate::challenges::Challenges,
        across: Option<Across>,
    ) -> Reach {
        Reach {
            rooms,
            lobby,
            challenges,
            across,
        }
    }

    /// The room of a game in progress: here, or the way to the node that runs it.
    pub async fn room(&self, game: Uuid) -> Option<RoomHandle> {
        match &self.across {
            None => self.rooms.get(game),
            Some(across) => across.room(game).await,
        }
    }

    /// The room of a game the database says is in progress, even while it changes nodes
    /// (see [`crate::cluster::across::Across::room_in_progress`]).
    pub async fn room_in_progress(&self, game: Uuid) -> Option<RoomHandle> {
        match &self.across {
            None => self.rooms.get(game),
            Some(across) => Some(across.room_in_progress(game).await),
        }
    }

    /// The room a code names: here, or wherever it was opened.
    pub async fn room_by_code(&self, code: &str) -> Option<RoomHandle> {
        match &self.across {
            None => self.rooms.by_code(code),
            Some(across) => across.room_by_code(code).await,
        }
    }

    /// A connection seeks a game: in this node's lobby, or the cluster's matcher's.
    pub async fn seek(
        &self,
        conn: Connection,
        settings: RoomSettings,
        rating: RatingRecord,
        computer_after: Option<Duration>,
    ) -> Result<(), ClusterError> {
        match &self.across {
            None => {
                self.lobby
                    .seek(conn, settings, rating, computer_after)
                    .await;
                Ok(())
            }
            Some(across) => {
                across
                    .matching
                    .seek(conn, settings, rating, computer_after)
                    .await
            }
        }
    }

    /// A connection's seek is withdrawn (`answer`: tell it).
    pub async fn cancel_seek(&self, conn_id: u64, answer: bool) {
        match &self.across {
            None => self.lobby.cancel(conn_id, answer).await,
            Some(across) => across.matching.cancel(conn_id, answer).await,
        }
    }

    /// A connection takes a listed seek.
    pub async fn accept_seek(&self, conn: Connection, seek: Uuid, has_account: bool) {
        match &self.across {
            None => self.lobby.accept(conn, seek, has_account).await,
            Some(across) => across.matching.accept(conn, seek, has_account).await,
        }
    }

    /// The seeks waiting (the matcher's).
    pub async fn open_seeks(&self) -> Vec<jungle_protocol::http::OpenSeek> {
        match &self.across {
            None => self.lobby.list().await,
            Some(across) => across.matching.seeks().await,
        }
    }

    /// Every game in progress (each node's, as it last published them).
    pub async fn live_games(&self) -> Vec<crate::rooms::LiveGame> {
        match &self.across {
            None => self.rooms.live_games(),
            Some(across) => match across.cluster.live_games().await {
                Ok(games) => games,
                Err(_) => self.rooms.live_games(),
            },
        }
    }

    /// A challenge frame: handled where the challenges are held. `Ok(true)`: it went to
    /// another node, whose answers come back as frames.
    pub async fn challenge_elsewhere(
        &self,
        conn: &Connection,
        frame: jungle_protocol::ClientFrame,
    ) -> Result<bool, ClusterError> {
        match &self.across {
            None => Ok(false),
            Some(across) => across.matching.forward_challenge(conn, frame).await,
        }
    }

    /// A tournament frame for a tournament another node directs: sent there (true).
    pub async fn director_elsewhere(
        &self,
        conn: &Connection,
        tournament: Uuid,
        has_account: bool,
        frame: jungle_protocol::ClientFrame,
    ) -> Result<bool, ClusterError> {
        match &self.across {
            None => Ok(false),
            Some(across) => {
                across
                    .to_director(conn, tournament, has_account, frame)
                    .await
            }
        }
    }

    /// A tab opened: the challenges waiting for its player (at the matcher's node too).
    pub async fn tab_opened(&self, conn: &Connection) {
        if let Some(across) = &self.across {
            across.matching.tab_opened(conn).await;
        }
    }

    /// A connection closed: its challenges, its seek and whatever followed it elsewhere.
    pub async fn connection_gone(&self, conn_id: u64) {
        self.challenges.connection_gone(conn_id);
        if let Some(across) = &self.across {
            across.matching.connection_gone(conn_id).await;
        }
        // Last: the seek, here or at the matcher.
        self.cancel_seek(conn_id, false).await;
    }
}
