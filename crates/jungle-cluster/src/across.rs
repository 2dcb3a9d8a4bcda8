//! The cluster's answers to "where is it": the parts of this node that reach the others,
//! brought together for [`crate::reach`], the one place that asks whether there are others.

use uuid::Uuid;

use super::followers::Followers;
use super::matcher::Matching;
use super::outbox::Outboxes;
use super::presence::Presence;
use super::proxy::Proxies;
use super::wire::{Message, RemoteConn, ToDirector};
use super::{Cluster, ClusterError};
use jungle_rooms::{Connection, RoomHandle, Rooms};

/// Cloning shares.
#[derive(Clone)]
pub struct Across {
    pub cluster: Cluster,
    pub outboxes: Outboxes,
    pub followers: Followers,
    pub proxies: Proxies,
    pub presence: Presence,
    pub matching: Matching,
    rooms: Rooms,
}

impl Across {
    pub fn start(
        cluster: Cluster,
        outboxes: Outboxes,
        presence: Presence,
        rooms: Rooms,
        lobby: jungle_rooms::lobby::Lobby,
        shutdown: tokio::sync::watch::Receiver<bool>,
    ) -> Across {
        let followers = Followers::default();
        let proxies = Proxies::new(
            cluster.clone(),
            outboxes.clone(),
            followers.clone(),
            rooms.clone(),
            shutdown.clone(),
        );
        super::outbox::ping_used_links(cluster.clone(), outboxes.clone(), shutdown.clone());
        let matching = Matching::start(
            cluster.clone(),
            outboxes.clone(),
            followers.clone(),
            lobby,
            shutdown,
        );
        Across {
            cluster,
            outboxes,
            followers,
            proxies,
            presence,
            matching,
            rooms,
        }
    }

    /// The room of `game`: here if this node runs it, else the proxy to the node that does.
    pub async fn room(&self, game: Uuid) -> Option<RoomHandle> {
        if let Some(room) = self.rooms.get(game) {
            return Some(room);
        }
        let owner = self.cluster.owner(game).await.ok()??;
        if owner == self.cluster.node() {
            return None;
        }
        Some(self.proxies.to(game, Some(owner)))
    }

    /// The room of a game the database says is in progress: as [`Across::room`], or while no
    /// node holds it (between a drain giving its games up, or a node's death, and another
    /// node adopting them) a proxy that joins whoever takes it, so a player who reconnects in
    /// that window is not left outside their game.
    pub async fn room_in_progress(&self, game: Uuid) -> RoomHandle {
        match self.room(game).await {
            Some(room) => room,
            None => self.proxies.to(game, None),
        }
    }

    /// The room a code names: here, or the proxy to the node it was opened on.
    pub async fn room_by_code(&self, code: &str) -> Option<RoomHandle> {
        if let Some(room) = self.rooms.by_code(code) {
            return Some(room);
        }
        let (game, node) = self.cluster.code(code).await.ok()??;
        // A room that moved since (its node died or drained) is found by its lease.
        let owner = match self.cluster.owner(game).await {
            Ok(Some(owner)) => owner,
            _ => node,
        };
        if owner == self.cluster.node() {
            // Closed here, or being adopted here this moment.
            return None;
        }
        Some(self.proxies.to(game, Some(owner)))
    }

    /// A tournament frame of a connection here, for a tournament another node directs: sent
    /// there (true); false when no other node directs it (the caller answers).
    pub async fn to_director(
        &self,
        conn: &Connection,
        tournament: Uuid,
        has_account: bool,
        frame: jungle_protocol::ClientFrame,
    ) -> Result<bool, ClusterError> {
        let Some(director) = self.cluster.director(tournament).await? else {
            return Ok(false);
        };
        if director == self.cluster.node() {
            return Ok(false);
        }
        self.followers.add(conn);
        let message = ToDirector::Frame {
            conn: RemoteConn::of(conn, self.cluster.node()),
            has_account,
            frame,
        };
        self.outboxes.message(&director, Message::Director(message));
        Ok(true)
    }
}
