//! Where is it? The seam between the request handlers and the cluster: the room of a game, a
//! room by its code, matchmaking, challenges, a tournament's director. Each question is one
//! `match` on whether other nodes exist; no feature asks that itself. What the rooms ask of
//! the other nodes (a player's tabs, leases, fair play's positions) is
//! `jungle_rooms::reach`, answered by the cluster through its traits.

use std::time::Duration;

use uuid::Uuid;

use crate::across::Across;
use crate::ClusterError;
use jungle_rooms::lobby::Lobby;
use jungle_rooms::{Connection, RoomHandle, RoomSettings, Rooms};
use jungle_store::RatingRecord;

/// The rest of "where is it", for the request handlers. Cloning shares.
#[derive(Clone)]
pub struct Reach {
    rooms: Rooms,
    lobby: Lobby,
    challenges: jungle_rooms::challenges::Challenges,
    across: Option<Across>,
}

impl Reach {
    pub fn new(
        rooms: Rooms,
        lobby: Lobby,
        challenges: jungle_rooms::challenges::Challenges,
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
    /// (see [`crate::across::Across::room_in_progress`]).
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
    pub async fn live_games(&self) -> Vec<jungle_rooms::LiveGame> {
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
