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
use jungle_rooms::online::Online;

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

    /// Each beat: who is online here, published whole only when it changed (else its time
    /// to live is renewed; see [`super::Published`]), and who is online elsewhere, read again
    /// only from the nodes that published theirs whole since.
    async fn beat(self, shutdown: watch::Receiver<bool>) {
        let mut beats = super::Beats::new(shutdown);
        // Names each publication of this process's: a restarted node counts from 1 again.
        let run = Uuid::new_v4().simple().to_string();
        let mut published = super::Published::default();
        let mut known = HashMap::new();
        // After a failed read the view of the others is made again from what is read next.
        let mut remake = false;
        while beats.next().await {
            if let Err(e) = self.publish(&run, &mut published).await {
                published.failed();
                tracing::warn!(error = %e, "publishing who is online here");
            }
            match self.cluster.players_elsewhere(&mut known).await {
                Ok(changed) if changed || remake => {
                    remake = false;
                    let mut elsewhere: HashMap<Uuid, Vec<String>> = HashMap::new();
                    for (node, (_, players)) in &known {
                        for player in players {
                            elsewhere.entry(*player).or_default().push(node.clone());
                        }
                    }
                    *self.elsewhere.lock().expect("presence lock") = elsewhere;
                }
                Ok(_) => {}
                // Read whole at the next beat.
                Err(_) => {
                    known.clear();
                    remake = true;
                }
            }
        }
    }

    async fn publish(
        &self,
        run: &str,
        published: &mut super::Published,
    ) -> Result<(), super::ClusterError> {
        // Whole when changed, or gone from Redis.
        let (version, players) = match self.online.player_ids_since(published.seen()) {
            Some(changed) => changed,
            None if self.cluster.publish_players(None).await? => return Ok(()),
            None => self
                .online
                .player_ids_since(None)
                .expect("a version is never None"),
        };
        let name = format!("{run}:{}", published.next_name());
        self.cluster
            .publish_players(Some((&name, &players)))
            .await?;
        published.published(version);
        Ok(())
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
