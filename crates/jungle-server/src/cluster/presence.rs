//! Who is online on which node: each beat a node publishes the players connected to it and
//! reads the others', so that a challenge, a pairing or a tournament's table reaches a player
//! wherever their tabs are.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::watch;
use uuid::Uuid;

use super::outbox::Outboxes;
use super::wire::{Message, ToFollowers};
use super::Cluster;
use crate::online::Online;

/// Players on the other nodes, as of the last beat. Cloning shares.
#[derive(Clone)]
pub struct Presence {
    cluster: Cluster,
    outboxes: Outboxes,
    online: Online,
    elsewhere: Arc<Mutex<HashMap<Uuid, Vec<String>>>>,
}

impl Presence {
    pub fn start(
        cluster: Cluster,
        outboxes: Outboxes,
        online: Online,
        shutdown: watch::Receiver<bool>,
    ) -> Presence {
        let presence = Presence {
            cluster,
            outboxes,
            online,
            elsewhere: Arc::default(),
        };
        tokio::spawn(presence.clone().beat(shutdown));
        presence
    }

    async fn beat(self, shutdown: watch::Receiver<bool>) {
        let mut beats = super::Beats::new(shutdown);
        while beats.next().await {
            if let Err(e) = self
                .cluster
                .publish_players(&self.online.player_ids())
                .await
            {
                tracing::warn!(error = %e, "publishing who is online here");
            }
            if let Ok(elsewhere) = self.cluster.players_elsewhere().await {
                *self.elsewhere.lock().expect("presence lock") = elsewhere;
            }
        }
    }

    /// The other nodes where `player` has a connection.
    fn nodes_of(&self, player: Uuid) -> Vec<String> {
        self.elsewhere
            .lock()
            .expect("presence lock")
            .get(&player)
            .cloned()
            .unwrap_or_default()
    }

    pub fn is_online_elsewhere(&self, player: Uuid) -> bool {
        self.elsewhere
            .lock()
            .expect("presence lock")
            .contains_key(&player)
    }

    /// `text` for every tab of `player` on the other nodes (but the connection `except`).
    pub fn send_elsewhere(&self, player: Uuid, text: &Utf8Bytes, except: Option<u64>) {
        for node in self.nodes_of(player) {
            let frame = ToFollowers::PlayerFrame {
                player,
                text: text.to_string(),
                except,
            };
            self.outboxes.message(&node, Message::Followers(frame));
        }
    }

    /// Every tab of `player` on the other nodes enters `game`, run here.
    pub fn enter_elsewhere(&self, player: Uuid, game: Uuid) {
        for node in self.nodes_of(player) {
            let enter = ToFollowers::PlayerEnter {
                player,
                game,
                owner: self.cluster.node().to_owned(),
            };
            self.outboxes.message(&node, Message::Followers(enter));
        }
    }
}
