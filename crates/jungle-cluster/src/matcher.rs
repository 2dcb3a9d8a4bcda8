//! Matchmaking and challenges across nodes: one node holds the matcher's lock (taken over by
//! another when it lapses) and runs the lobby and the challenges for all; the others forward
//! seeks, accepts, cancels and challenge frames to it, and send their waiting seeks again to a
//! new matcher (the old one's pools died with it). The matcher publishes its seek list each
//! beat for every node's `GET /api/seeks`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;
use uuid::Uuid;

use super::followers::Followers;
use super::outbox::Outboxes;
use super::wire::{Message, RemoteConn, SeekSpec, ToMatcher};
use super::{Cluster, ClusterError};
use jungle_rooms::lobby::Lobby;
use jungle_rooms::{Connection, RoomSettings};
use jungle_store::RatingRecord;

/// This node's end of matchmaking across nodes. Cloning shares.
#[derive(Clone)]
pub struct Matching {
    cluster: Cluster,
    outboxes: Outboxes,
    followers: Followers,
    /// This node's lobby: the cluster's while this node is the matcher.
    lobby: Lobby,
    /// Seeks of connections here waiting at another node's matcher.
    seeking: Arc<Mutex<HashMap<u64, (Connection, SeekSpec)>>>,
    /// The matcher as last seen.
    matcher: Arc<Mutex<Option<String>>>,
}

impl Matching {
    pub fn start(
        cluster: Cluster,
        outboxes: Outboxes,
        followers: Followers,
        lobby: Lobby,
        shutdown: watch::Receiver<bool>,
    ) -> Matching {
        let matching = Matching {
            cluster,
            outboxes,
            followers,
            lobby,
            seeking: Arc::default(),
            matcher: Arc::default(),
        };
        tokio::spawn(matching.clone().keep_matcher(shutdown));
        matching
    }

    /// Every beat: hold (or take) the matcher's lock; the matcher publishes its seek list.
    /// When another node becomes the matcher, this node's waiting seeks go to it.
    async fn keep_matcher(self, shutdown: watch::Receiver<bool>) {
        let mut beats = super::Beats::new(shutdown);
        while beats.next().await {
            let matcher = match self.cluster.hold_matcher().await {
                Ok(matcher) => matcher,
                Err(e) => {
                    tracing::warn!(error = %e, "the matcher's lock");
                    continue;
                }
            };
            if matcher == self.cluster.node() {
                let list = self.lobby.list().await;
                if let Err(e) = self.cluster.publish_seeks(&list).await {
                    tracing::warn!(error = %e, "publishing the seek list");
                }
            }
            let changed = {
                let mut seen = self.matcher.lock().expect("matcher lock");
                let changed = seen.as_deref().is_some_and(|before| before != matcher);
                *seen = Some(matcher.clone());
                changed
            };
            if changed {
                tracing::info!(%matcher, "a new matcher: waiting seeks go to it");
                let waiting: Vec<(Connection, SeekSpec)> = self
                    .seeking
                    .lock()
                    .expect("matcher lock")
                    .values()
                    .cloned()
                    .collect();
                for (conn, spec) in waiting {
                    self.send_seek(&matcher, &conn, spec);
                }
            }
        }
    }

    /// The matcher, if it is another node (`None`: this node, or nobody yet).
    async fn elsewhere(&self) -> Result<Option<String>, ClusterError> {
        let matcher = self.cluster.matcher().await?;
        Ok(matcher.filter(|m| m != self.cluster.node()))
    }

    /// The matcher as of now, or as last seen while Redis is away.
    async fn current(&self) -> Option<String> {
        match self.cluster.matcher().await {
            Ok(Some(matcher)) => Some(matcher),
            _ => self.matcher.lock().expect("matcher lock").clone(),
        }
    }

    fn remote(&self, conn: &Connection) -> RemoteConn {
        RemoteConn::of(conn, self.cluster.node())
    }

    /// A connection here seeks: at this node's lobby if it is the matcher, else at the
    /// matcher's. Refused while Redis is away: it could meet nobody, or someone twice.
    pub async fn seek(
        &self,
        conn: Connection,
        settings: RoomSettings,
        rating: RatingRecord,
        computer_after: Option<Duration>,
    ) -> Result<(), ClusterError> {
        let Some(matcher) = self.elsewhere().await? else {
            self.lobby
                .seek(conn, settings, rating, computer_after)
                .await;
            return Ok(());
        };
        let spec = SeekSpec {
            rules: settings.rules,
            clock: settings.clock,
            rated: settings.rated,
            computer_after_ms: computer_after.map(|d| d.as_millis() as u64),
        };
        let mut seeking = self.seeking.lock().expect("matcher lock");
        if seeking
            .insert(conn.id, (conn.clone(), spec.clone()))
            .is_none()
        {
            self.followers.add(&conn);
        }
        drop(seeking);
        self.send_seek(&matcher, &conn, spec);
        Ok(())
    }

    fn send_seek(&self, matcher: &str, conn: &Connection, seek: SeekSpec) {
        let message = ToMatcher::Seek {
            conn: self.remote(conn),
            seek,
        };
        self.outboxes.message(matcher, Message::Matcher(message));
    }

    /// A seek matched or ended at the matcher: it no longer waits there.
    pub fn seek_over(&self, conn: u64) {
        if self
            .seeking
            .lock()
            .expect("matcher lock")
            .remove(&conn)
            .is_some()
        {
            self.followers.remove(conn);
        }
    }

    /// A connection here withdraws its seek, wherever it waits; `answer: false` means the
    /// connection is closing.
    pub async fn cancel(&self, conn: u64, answer: bool) {
        self.lobby.cancel(conn, answer).await;
        let remote = self.seeking.lock().expect("matcher lock").remove(&conn);
        if remote.is_some() {
            self.followers.remove(conn);
            if let Some(matcher) = self.current().await {
                let message = ToMatcher::Cancel { conn, answer };
                self.outboxes.message(&matcher, Message::Matcher(message));
            }
        }
    }

    /// A connection here takes a listed seek (the list is the matcher's).
    pub async fn accept(&self, conn: Connection, seek: Uuid, has_account: bool) {
        match self.current().await.filter(|m| m != self.cluster.node()) {
            None => self.lobby.accept(conn, seek, has_account).await,
            Some(matcher) => {
                // Followed until the game it starts is entered (or the refusal comes).
                self.followers.add(&conn);
                let message = ToMatcher::Accept {
                    conn: self.remote(&conn),
                    seek,
                    has_account,
                };
                self.outboxes.message(&matcher, Message::Matcher(message));
            }
        }
    }

    /// The seeks waiting at the matcher.
    pub async fn seeks(&self) -> Vec<jungle_protocol::http::OpenSeek> {
        match self.current().await {
            Some(matcher) if matcher != self.cluster.node() => {
                self.cluster.published_seeks().await.unwrap_or_default()
            }
            _ => self.lobby.list().await,
        }
    }

    /// A challenge frame of a connection here: sent to the matcher if it is another node
    /// (true; its answers come back as frames), else handled here (false).
    pub async fn forward_challenge(
        &self,
        conn: &Connection,
        frame: jungle_protocol::ClientFrame,
    ) -> Result<bool, ClusterError> {
        let Some(matcher) = self.elsewhere().await? else {
            return Ok(false);
        };
        self.followers.add(conn);
        let message = ToMatcher::Challenge {
            conn: self.remote(conn),
            frame,
        };
        self.outboxes.message(&matcher, Message::Matcher(message));
        Ok(true)
    }

    /// A connection here closed: the matcher cancels its challenges.
    pub async fn connection_gone(&self, conn: u64) {
        self.followers.gone(conn);
        if let Ok(Some(matcher)) = self.elsewhere().await {
            let message = ToMatcher::ConnectionGone { conn };
            self.outboxes.message(&matcher, Message::Matcher(message));
        }
    }

    /// A tab opened here: the challenges waiting for its player at the matcher.
    pub async fn tab_opened(&self, conn: &Connection) {
        if let Ok(Some(matcher)) = self.elsewhere().await {
            self.followers.add(conn);
            let message = ToMatcher::Incoming {
                conn: self.remote(conn),
            };
            self.outboxes.message(&matcher, Message::Matcher(message));
        }
    }
}
