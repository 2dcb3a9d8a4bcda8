//! The bus between nodes: Redis pub/sub, one channel per node. A connection on one node that
//! follows a game run by another talks to it through a proxy room here; the owner sees it as a
//! member like any other, whose frames a forwarder publishes back to the connection's node.
//! The owner still commits before it sends (the room is unchanged), and every game frame
//! carries its sequence number, so a follower that misses one asks for the state again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, watch, Notify};
use uuid::Uuid;

use super::{Cluster, BEAT};
use crate::lobby::Lobby;
use crate::rooms::{Action, Connection, JoinIntent, Outbound, RoomCommand, RoomHandle, Rooms};
use crate::store::PlayerRecord;

fn remote_player(conn: &Connection) -> RemotePlayer {
    RemotePlayer {
        id: conn.player.id,
        name: conn.player.name.clone(),
        disconnects: conn.player.disconnects,
        addr: Some(conn.addr),
    }
}

/// What one node tells another.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
enum Message {
    /// To a game's owner: a connection on `node` follows the game (and takes a seat if asked).
    Join {
        game: Uuid,
        node: String,
        conn: u64,
        player: RemotePlayer,
        take_seat: bool,
    },
    Leave {
        game: Uuid,
        conn: u64,
    },
    Act {
        game: Uuid,
        conn: u64,
        player: Uuid,
        act: RemoteAct,
    },
    Chat {
        game: Uuid,
        conn: u64,
        preset: Option<String>,
        text: Option<String>,
    },
    /// To the matcher: a connection on `node` seeks a game (its rating is read there).
    Seek {
        node: String,
        conn: u64,
        player: RemotePlayer,
        seek: SeekSpec,
    },
    /// To the matcher: the connection's seek is withdrawn (`answer`: tell it).
    Cancel {
        conn: u64,
        answer: bool,
    },
    /// To the matcher: a connection on `node` takes a listed seek.
    Accept {
        node: String,
        conn: u64,
        player: RemotePlayer,
        seek: Uuid,
        has_account: bool,
    },
    /// To the matcher (which holds every challenge): a challenge frame of a connection on
    /// `node`, already past that node's limits.
    ChallengeFrame {
        node: String,
        conn: u64,
        player: RemotePlayer,
        frame: jungle_protocol::ClientFrame,
    },
    /// To the matcher: that connection closed (its challenges are cancelled).
    ChallengerGone {
        conn: u64,
    },
    /// To the matcher: a tab of `player` opened on `node`; the challenges waiting for them.
    Incoming {
        node: String,
        conn: u64,
        player: RemotePlayer,
    },
    /// To a node where `player` is connected: a frame for every tab there (but `except`).
    PlayerFrame {
        player: Uuid,
        text: String,
        except: Option<u64>,
    },
    /// To a node where `player` is connected: their tabs there enter `game` (a pairing), run
    /// by `owner` (named, since its lease may not be taken yet).
    PlayerEnter {
        player: Uuid,
        game: Uuid,
        owner: String,
    },
    /// To a tournament's director node: a tournament frame of a connection on `node`.
    TournamentFrame {
        node: String,
        conn: u64,
        player: RemotePlayer,
        has_account: bool,
        frame: jungle_protocol::ClientFrame,
    },
    /// To a connection's node: a frame for it.
    Frame {
        conn: u64,
        text: String,
    },
    /// To a connection's node: it should enter this game, run by `owner` (a match, an
    /// accepted challenge, a rematch: just opened there, maybe before its lease is taken).
    Enter {
        conn: u64,
        game: Uuid,
        owner: String,
    },
    /// To a connection's node: the game's room refused its join.
    Refused {
        conn: u64,
        game: Uuid,
        text: String,
    },
}

/// A seek's settings, as it crosses the bus.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SeekSpec {
    rules: jungle_rules::Ruleset,
    clock: jungle_protocol::ClockSpec,
    rated: bool,
    computer_after_ms: Option<u64>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct RemotePlayer {
    id: Uuid,
    name: String,
    disconnects: i64,
    /// The client's address, for the limits the owner counts.
    #[serde(default)]
    addr: Option<std::net::IpAddr>,
}

/// A player's action, as it crosses the bus.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
enum RemoteAct {
    Move {
        text: String,
        lag_ms: u64,
        #[serde(default)]
        blurred: bool,
    },
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Rematch,
    OfferTakeback,
    AcceptTakeback,
    DeclineTakeback,
    AddComputer {
        level: u8,
    },
}

impl RemoteAct {
    fn from_action(action: &Action) -> Option<RemoteAct> {
        Some(match action {
            Action::Move { text, lag, blurred } => RemoteAct::Move {
                text: text.clone(),
                lag_ms: lag.as_millis() as u64,
                blurred: *blurred,
            },
            Action::Resign => RemoteAct::Resign,
            Action::OfferDraw => RemoteAct::OfferDraw,
            Action::AcceptDraw => RemoteAct::AcceptDraw,
            Action::DeclineDraw => RemoteAct::DeclineDraw,
            Action::Rematch => RemoteAct::Rematch,
            Action::OfferTakeback => RemoteAct::OfferTakeback,
            Action::AcceptTakeback => RemoteAct::AcceptTakeback,
            Action::DeclineTakeback => RemoteAct::DeclineTakeback,
            // Seating the computer crosses as its own command, with a level.
            Action::AddComputer(_) => return None,
        })
    }

    fn into_command(self, conn_id: u64, player: Uuid) -> Option<RoomCommand> {
        let action = match self {
            RemoteAct::Move {
                text,
                lag_ms,
                blurred,
            } => Action::Move {
                text,
                lag: Duration::from_millis(lag_ms.min(1_000)),
                blurred,
            },
            RemoteAct::Resign => Action::Resign,
            RemoteAct::OfferDraw => Action::OfferDraw,
            RemoteAct::AcceptDraw => Action::AcceptDraw,
            RemoteAct::DeclineDraw => Action::DeclineDraw,
            RemoteAct::Rematch => Action::Rematch,
            RemoteAct::OfferTakeback => Action::OfferTakeback,
            RemoteAct::AcceptTakeback => Action::AcceptTakeback,
            RemoteAct::DeclineTakeback => Action::DeclineTakeback,
            RemoteAct::AddComputer { level } => {
                return Some(RoomCommand::AddComputer {
                    conn_id,
                    player,
                    level: jungle_engine::Level::new(level)?,
                })
            }
        };
        Some(RoomCommand::Act {
            conn_id,
            player,
            action,
        })
    }
}

/// This node's end of the bus.
#[derive(Clone)]
pub struct Bus {
    cluster: Cluster,
    rooms: Rooms,
    /// This node's matchmaking task: the cluster's while this node is the matcher.
    lobby: Lobby,
    store: crate::store::Store,
    /// Connections here that follow games run elsewhere, or seek at the matcher, by id.
    followers: Arc<Mutex<HashMap<u64, Connection>>>,
    /// Seeks of connections here waiting at another node's matcher: sent again if the matcher
    /// changes (its pools die with it).
    seeking: Arc<Mutex<HashMap<u64, (Connection, SeekSpec)>>>,
    /// The matcher as last seen.
    matcher: Arc<Mutex<Option<String>>>,
    /// Who is connected here, and (refreshed each beat) on which other nodes.
    online: crate::online::Online,
    elsewhere: Arc<Mutex<HashMap<Uuid, Vec<String>>>>,
    challenges: crate::challenges::Challenges,
    ctx: Arc<crate::rooms::RoomContext>,
}

/// What a bus needs of its node.
pub struct Node {
    pub rooms: Rooms,
    pub lobby: Lobby,
    pub online: crate::online::Online,
    pub challenges: crate::challenges::Challenges,
    pub ctx: Arc<crate::rooms::RoomContext>,
}

impl Bus {
    /// Starts listening on this node's channel, and contending for the matcher's lock.
    pub fn start(cluster: Cluster, node: Node, shutdown: watch::Receiver<bool>) -> Bus {
        let bus = Bus {
            cluster,
            rooms: node.rooms,
            lobby: node.lobby,
            store: node.ctx.store.clone(),
            followers: Arc::default(),
            seeking: Arc::default(),
            matcher: Arc::default(),
            online: node.online,
            elsewhere: Arc::default(),
            challenges: node.challenges.clone(),
            ctx: node.ctx,
        };
        node.challenges.across(bus.clone());
        tokio::spawn(bus.clone().listen(shutdown.clone()));
        tokio::spawn(bus.clone().keep_matcher(shutdown));
        bus
    }

    /// Every beat: hold (or take) the matcher's lock; the matcher publishes its seek list.
    /// When another node becomes the matcher, this node's waiting seeks go to it.
    async fn keep_matcher(self, mut shutdown: watch::Receiver<bool>) {
        let mut beat = tokio::time::interval(BEAT);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = beat.tick() => {}
                _ = shutdown.changed() => return,
            }
            let matcher = match self.cluster.hold_matcher().await {
                Ok(matcher) => matcher,
                Err(e) => {
                    tracing::warn!(error = %e, "the matcher's lock");
                    continue;
                }
            };
            // Who is online where: this node's players for the others, theirs for us.
            if let Err(e) = self
                .cluster
                .publish_players(&self.online.player_ids())
                .await
            {
                tracing::warn!(error = %e, "publishing who is online here");
            }
            if let Ok(elsewhere) = self.cluster.players_elsewhere().await {
                *self.elsewhere.lock().expect("bus lock") = elsewhere;
            }
            if matcher == self.cluster.node() {
                let list = self.lobby.list().await;
                if let Err(e) = self.cluster.publish_seeks(&list).await {
                    tracing::warn!(error = %e, "publishing the seek list");
                }
            }
            let changed = {
                let mut seen = self.matcher.lock().expect("bus lock");
                let changed = seen.as_deref().is_some_and(|before| before != matcher);
                *seen = Some(matcher.clone());
                changed
            };
            if changed {
                tracing::info!(%matcher, "a new matcher: waiting seeks go to it");
                let waiting: Vec<(Connection, SeekSpec)> = self
                    .seeking
                    .lock()
                    .expect("bus lock")
                    .values()
                    .cloned()
                    .collect();
                for (conn, spec) in waiting {
                    self.send_seek(&matcher, &conn, spec).await;
                }
            }
        }
    }

    /// A connection here seeks: in this node's lobby if it is the matcher, else at the
    /// matcher's, over the bus. Refused while Redis is out of reach: the seek could meet
    /// nobody (or meet someone twice).
    pub async fn seek(
        &self,
        conn: Connection,
        settings: crate::rooms::RoomSettings,
        rating: crate::store::RatingRecord,
        computer_after: Option<Duration>,
    ) -> Result<(), super::ClusterError> {
        let matcher = self.cluster.matcher().await?;
        if matcher.as_deref().is_none_or(|m| m == self.cluster.node()) {
            self.lobby
                .seek(conn, settings, rating, computer_after)
                .await;
            return Ok(());
        }
        let spec = SeekSpec {
            rules: settings.rules,
            clock: settings.clock,
            rated: settings.rated,
            computer_after_ms: computer_after.map(|d| d.as_millis() as u64),
        };
        self.follow(&conn);
        self.seeking
            .lock()
            .expect("bus lock")
            .insert(conn.id, (conn.clone(), spec.clone()));
        self.send_seek(matcher.as_deref().unwrap_or_default(), &conn, spec)
            .await;
        Ok(())
    }

    async fn send_seek(&self, matcher: &str, conn: &Connection, seek: SeekSpec) {
        let message = Message::Seek {
            node: self.cluster.node().to_owned(),
            conn: conn.id,
            player: remote_player(conn),
            seek,
        };
        self.publish(matcher, &message).await;
    }

    /// Frames for `conn` from other nodes are delivered to it from now on.
    fn follow(&self, conn: &Connection) {
        let mut followers = self.followers.lock().expect("bus lock");
        followers.insert(conn.id, conn.clone());
        metrics::gauge!("jungle_bus_followers").set(followers.len() as f64);
    }

    fn unfollow(&self, conns: &[u64]) {
        let mut followers = self.followers.lock().expect("bus lock");
        for conn in conns {
            followers.remove(conn);
        }
        metrics::gauge!("jungle_bus_followers").set(followers.len() as f64);
    }

    /// Whether `player` has a connection on any node (other nodes as of the last beat).
    pub fn is_online(&self, player: Uuid) -> bool {
        self.online.is_online(player)
            || self
                .elsewhere
                .lock()
                .expect("bus lock")
                .contains_key(&player)
    }

    /// Sends `text` to every tab of `player`, on every node (but the connection `except`).
    pub fn send_to_player(
        &self,
        player: Uuid,
        text: &axum::extract::ws::Utf8Bytes,
        except: Option<u64>,
    ) {
        self.online.send(player, text, except);
        let message = Message::PlayerFrame {
            player,
            text: text.to_string(),
            except,
        };
        self.publish_where(player, message);
    }

    /// Sends every tab of `player` on other nodes into `game` (run here).
    pub fn enter_player(&self, player: Uuid, game: Uuid) {
        let owner = self.cluster.node().to_owned();
        self.publish_where(
            player,
            Message::PlayerEnter {
                player,
                game,
                owner,
            },
        );
    }

    /// Publishes `message` to every other node where `player` is connected, without waiting.
    fn publish_where(&self, player: Uuid, message: Message) {
        let nodes = self
            .elsewhere
            .lock()
            .expect("bus lock")
            .get(&player)
            .cloned()
            .unwrap_or_default();
        for node in nodes {
            let (bus, message) = (self.clone(), message.clone());
            tokio::spawn(async move { bus.publish(&node, &message).await });
        }
    }

    /// A tournament frame of a connection here, for a tournament another node directs: sent
    /// there (true); false when no node directs it (the caller answers).
    pub async fn forward_tournament(
        &self,
        conn: &Connection,
        id: Uuid,
        has_account: bool,
        frame: jungle_protocol::ClientFrame,
    ) -> Result<bool, super::ClusterError> {
        let Some(director) = self.cluster.director(id).await? else {
            return Ok(false);
        };
        if director == self.cluster.node() {
            return Ok(false);
        }
        self.follow(conn);
        let message = Message::TournamentFrame {
            node: self.cluster.node().to_owned(),
            conn: conn.id,
            player: remote_player(conn),
            has_account,
            frame,
        };
        self.publish(&director, &message).await;
        Ok(true)
    }

    /// A challenge frame of a connection here: handled here if this node is the matcher
    /// (false), else sent to the matcher (true), whose answers come back as frames.
    pub async fn forward_challenge(
        &self,
        conn: &Connection,
        frame: jungle_protocol::ClientFrame,
    ) -> Result<bool, super::ClusterError> {
        let matcher = self.cluster.matcher().await?;
        let Some(matcher) = matcher.filter(|m| m != self.cluster.node()) else {
            return Ok(false);
        };
        self.follow(conn);
        let message = Message::ChallengeFrame {
            node: self.cluster.node().to_owned(),
            conn: conn.id,
            player: remote_player(conn),
            frame,
        };
        self.publish(&matcher, &message).await;
        Ok(true)
    }

    /// A connection here closed: the matcher cancels its challenges.
    pub async fn challenger_gone(&self, conn_id: u64) {
        if let Ok(Some(matcher)) = self.cluster.matcher().await {
            if matcher != self.cluster.node() {
                self.publish(&matcher, &Message::ChallengerGone { conn: conn_id })
                    .await;
            }
        }
    }

    /// A tab opened here: the challenges waiting for its player at the matcher.
    pub async fn ask_incoming(&self, conn: &Connection) {
        if let Ok(Some(matcher)) = self.cluster.matcher().await {
            if matcher != self.cluster.node() {
                self.follow(conn);
                let message = Message::Incoming {
                    node: self.cluster.node().to_owned(),
                    conn: conn.id,
                    player: remote_player(conn),
                };
                self.publish(&matcher, &message).await;
            }
        }
    }

    /// A connection here withdraws its seek (wherever it waits).
    /// `answer: false` means the connection is closing: it is forgotten here too.
    pub async fn cancel(&self, conn_id: u64, answer: bool) {
        self.lobby.cancel(conn_id, answer).await;
        if !answer {
            self.unfollow(&[conn_id]);
        }
        let remote = self.seeking.lock().expect("bus lock").remove(&conn_id);
        if remote.is_some() {
            if let Some(matcher) = self.current_matcher().await {
                self.publish(
                    &matcher,
                    &Message::Cancel {
                        conn: conn_id,
                        answer,
                    },
                )
                .await;
            }
        }
    }

    /// A connection here takes a listed seek (the list is the matcher's).
    pub async fn accept(&self, conn: Connection, seek: Uuid, has_account: bool) {
        let matcher = self.current_matcher().await;
        if matcher.as_deref().is_none_or(|m| m == self.cluster.node()) {
            self.lobby.accept(conn, seek, has_account).await;
            return;
        }
        self.follow(&conn);
        let message = Message::Accept {
            node: self.cluster.node().to_owned(),
            conn: conn.id,
            player: remote_player(&conn),
            seek,
            has_account,
        };
        self.publish(matcher.as_deref().unwrap_or_default(), &message)
            .await;
    }

    /// The seeks waiting at the matcher.
    pub async fn seeks(&self) -> Vec<jungle_protocol::http::OpenSeek> {
        match self.current_matcher().await {
            Some(m) if m != self.cluster.node() => {
                self.cluster.published_seeks().await.unwrap_or_default()
            }
            _ => self.lobby.list().await,
        }
    }

    async fn current_matcher(&self) -> Option<String> {
        match self.cluster.matcher().await {
            Ok(Some(matcher)) => Some(matcher),
            _ => self.matcher.lock().expect("bus lock").clone(),
        }
    }

    fn channel(&self, node: &str) -> String {
        format!("{}node:{node}", self.cluster.prefix)
    }

    async fn publish(&self, node: &str, message: &Message) {
        let payload = serde_json::to_string(message).expect("bus messages serialize");
        let sent: Result<i64, _> = redis::cmd("PUBLISH")
            .arg(self.channel(node))
            .arg(payload)
            .query_async(&mut self.cluster.redis.clone())
            .await;
        match sent {
            Ok(_) => metrics::counter!("jungle_bus_messages_total", "way" => "out").increment(1),
            Err(e) => {
                metrics::counter!("jungle_cluster_errors_total").increment(1);
                tracing::warn!(error = %e, "a bus message was not sent");
            }
        }
    }

    /// Subscribes to this node's channel, and again after any break.
    async fn listen(self, mut shutdown: watch::Receiver<bool>) {
        let channel = self.channel(self.cluster.node());
        loop {
            let subscribed = async {
                let mut pubsub = self.cluster.client.get_async_pubsub().await?;
                pubsub.subscribe(&channel).await?;
                Ok::<_, redis::RedisError>(pubsub)
            };
            let mut pubsub = match subscribed.await {
                Ok(pubsub) => pubsub,
                Err(e) => {
                    tracing::warn!(error = %e, "bus: cannot subscribe; trying again");
                    tokio::select! {
                        _ = tokio::time::sleep(BEAT) => continue,
                        _ = shutdown.changed() => return,
                    }
                }
            };
            let mut messages = pubsub.on_message();
            loop {
                tokio::select! {
                    message = messages.next() => match message {
                        Some(message) => {
                            metrics::counter!("jungle_bus_messages_total", "way" => "in").increment(1);
                            match message.get_payload::<String>().ok().and_then(|p| serde_json::from_str(&p).ok()) {
                                Some(message) => self.receive(message).await,
                                None => tracing::warn!("bus: a message that does not read"),
                            }
                        }
                        None => break,
                    },
                    _ = shutdown.changed() => return,
                }
            }
        }
    }

    async fn receive(&self, message: Message) {
        match message {
            Message::Join {
                game,
                node,
                conn,
                player,
                take_seat,
            } => {
                let Some(room) = self.rooms.get(game) else {
                    return;
                };
                let connection = self.remote_connection(node, conn, player);
                let intent = if take_seat {
                    JoinIntent::TakeSeat
                } else {
                    JoinIntent::Watch
                };
                room.send(RoomCommand::Join {
                    conn: connection,
                    intent,
                })
                .await;
            }
            Message::Leave { game, conn } => {
                if let Some(room) = self.rooms.get(game) {
                    room.send(RoomCommand::Leave { conn_id: conn }).await;
                }
            }
            Message::Act {
                game,
                conn,
                player,
                act,
            } => {
                if let (Some(room), Some(command)) =
                    (self.rooms.get(game), act.into_command(conn, player))
                {
                    room.send(command).await;
                }
            }
            Message::Chat {
                game,
                conn,
                preset,
                text,
            } => {
                if let Some(room) = self.rooms.get(game) {
                    let command = RoomCommand::Chat {
                        conn_id: conn,
                        preset,
                        text,
                    };
                    room.send(command).await;
                }
            }
            Message::Seek {
                node,
                conn,
                player,
                seek,
            } => {
                let settings = crate::rooms::RoomSettings {
                    rules: seek.rules,
                    clock: seek.clock,
                    rated: seek.rated,
                };
                let rating = match self.store.rating(player.id, seek.rules).await {
                    Ok(rating) => rating,
                    Err(e) => {
                        tracing::error!(error = %e, "a remote seeker's rating");
                        return;
                    }
                };
                let connection = self.remote_connection(node, conn, player);
                let after = seek.computer_after_ms.map(Duration::from_millis);
                self.lobby.seek(connection, settings, rating, after).await;
            }
            Message::Cancel { conn, answer } => self.lobby.cancel(conn, answer).await,
            Message::Accept {
                node,
                conn,
                player,
                seek,
                has_account,
            } => {
                let connection = self.remote_connection(node, conn, player);
                self.lobby.accept(connection, seek, has_account).await;
            }
            Message::ChallengeFrame {
                node,
                conn,
                player,
                frame,
            } => {
                let connection = self.remote_connection(node, conn, player);
                let answer = crate::ws::challenge_frame(
                    &self.store,
                    &self.challenges,
                    &self.ctx,
                    &connection,
                    frame,
                )
                .await;
                match answer {
                    Ok(Some(text)) => {
                        connection.send_text(text);
                    }
                    Ok(None) => {}
                    Err(e) => {
                        connection.send_text(e.to_frame());
                    }
                }
            }
            Message::ChallengerGone { conn } => self.challenges.connection_gone(conn),
            Message::Incoming { node, conn, player } => {
                let player_id = player.id;
                let connection = self.remote_connection(node, conn, player);
                for challenge in self.challenges.incoming(player_id) {
                    let frame = jungle_protocol::ServerFrame::Challenged { challenge };
                    connection.send_text(crate::rooms::frame_text(&frame));
                }
            }
            Message::PlayerEnter {
                player,
                game,
                owner,
            } => {
                let room = self.room_on(game, owner);
                self.online.enter(player, &room);
            }
            Message::TournamentFrame {
                node,
                conn,
                player,
                has_account,
                frame,
            } => {
                let connection = self.remote_connection(node, conn, player);
                if let Some(text) =
                    crate::ws::tournament_frame(&self.ctx, &connection, has_account, frame).await
                {
                    connection.send_text(text);
                }
            }
            Message::PlayerFrame {
                player,
                text,
                except,
            } => {
                self.online.send(player, &text.into(), except);
            }
            Message::Frame { conn, text } => {
                let follower = self.followers.lock().expect("bus lock").get(&conn).cloned();
                if let Some(follower) = follower {
                    follower.send_text(text.into());
                }
            }
            Message::Refused { conn, game, text } => {
                let follower = self.followers.lock().expect("bus lock").get(&conn).cloned();
                if let Some(follower) = follower {
                    let _ = follower.tx.try_send(Outbound::Refused {
                        game,
                        text: text.into(),
                    });
                }
            }
            Message::Enter { conn, game, owner } => {
                // A seek matched (or a rematch began): no longer waiting at the matcher.
                self.seeking.lock().expect("bus lock").remove(&conn);
                let follower = self.followers.lock().expect("bus lock").get(&conn).cloned();
                if let Some(follower) = follower {
                    let room = self.room_on(game, owner);
                    let _ = follower.tx.try_send(Outbound::Enter(room));
                }
            }
        }
    }

    /// A member of a room here whose socket is on `node`: what the room sends it is published
    /// there, in order.
    fn remote_connection(&self, node: String, conn: u64, player: RemotePlayer) -> Connection {
        let (tx, mut rx) = mpsc::channel::<Outbound>(256);
        let bus = self.clone();
        tokio::spawn(async move {
            while let Some(out) = rx.recv().await {
                let message = match out {
                    Outbound::Text(text) => Message::Frame {
                        conn,
                        text: text.to_string(),
                    },
                    // Rooms a remote member is sent into were opened here.
                    Outbound::Enter(room) => Message::Enter {
                        conn,
                        game: room.id,
                        owner: bus.cluster.node().to_owned(),
                    },
                    Outbound::Refused { game, text } => Message::Refused {
                        conn,
                        game,
                        text: text.to_string(),
                    },
                };
                bus.publish(&node, &message).await;
            }
        });
        Connection {
            id: conn,
            player: PlayerRecord {
                id: player.id,
                name: player.name,
                disconnects: player.disconnects,
            },
            tx,
            too_slow: Arc::new(Notify::new()),
            addr: player
                .addr
                .unwrap_or(std::net::Ipv4Addr::UNSPECIFIED.into()),
        }
    }

    /// The room of `game`: here if this node runs it, else a proxy to the node that does.
    pub async fn room(&self, game: Uuid) -> Option<RoomHandle> {
        if let Some(room) = self.rooms.get(game) {
            return Some(room);
        }
        let owner = self.cluster.owner(game).await.ok()??;
        if owner == self.cluster.node() {
            return None;
        }
        Some(self.proxy(game, owner))
    }

    /// The room of `game`, which `owner` runs: here, or a proxy to it.
    fn room_on(&self, game: Uuid, owner: String) -> RoomHandle {
        match self.rooms.get(game) {
            Some(room) => room,
            None => self.proxy(game, owner),
        }
    }

    /// The room a code names: here, or a proxy to the node it was opened on.
    pub async fn room_by_code(&self, code: &str) -> Option<RoomHandle> {
        if let Some(room) = self.rooms.by_code(code) {
            return Some(room);
        }
        let (game, node) = self.cluster.code(code).await.ok()??;
        if node == self.cluster.node() {
            return None;
        }
        // A game that moved since is found by its lease; a waiting room has none.
        let owner = match self.cluster.owner(game).await {
            Ok(Some(owner)) => owner,
            _ => node,
        };
        Some(self.proxy(game, owner))
    }

    /// A room handle whose commands go to `owner` over the bus. Every beat it checks who runs
    /// the game: after a move to another node, or after Redis was away, its connections join
    /// again (and get the whole state).
    fn proxy(&self, game: Uuid, owner: String) -> RoomHandle {
        let (tx, mut rx) = mpsc::channel::<RoomCommand>(64);
        let bus = self.clone();
        tokio::spawn(async move {
            let mut owner = owner;
            let mut redis_was_away = false;
            let mut members: Vec<(Connection, bool)> = Vec::new();
            let mut beat = tokio::time::interval(BEAT);
            beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    command = rx.recv() => match command {
                        Some(command) => bus.forward(game, &owner, command, &mut members).await,
                        None => break,
                    },
                    _ = beat.tick() => match bus.cluster.owner(game).await {
                        // Joining again answers with the whole state: after the game moved,
                        // or after Redis was away (frames may have been lost meanwhile).
                        Ok(Some(now)) => {
                            let moved = now != owner && now != bus.cluster.node();
                            if moved {
                                owner = now;
                            }
                            if moved || redis_was_away {
                                for (conn, take_seat) in &members {
                                    bus.publish(&owner, &bus.join_message(game, conn, *take_seat)).await;
                                }
                            }
                            redis_was_away = false;
                        }
                        Ok(None) => {}
                        Err(_) => redis_was_away = true,
                    }
                }
            }
            let gone: Vec<u64> = members.iter().map(|(conn, _)| conn.id).collect();
            bus.unfollow(&gone);
        });
        RoomHandle::new(game, tx)
    }

    fn join_message(&self, game: Uuid, conn: &Connection, take_seat: bool) -> Message {
        Message::Join {
            game,
            node: self.cluster.node().to_owned(),
            conn: conn.id,
            player: remote_player(conn),
            take_seat,
        }
    }

    async fn forward(
        &self,
        game: Uuid,
        owner: &str,
        command: RoomCommand,
        members: &mut Vec<(Connection, bool)>,
    ) {
        let message = match command {
            RoomCommand::Join { conn, intent } => {
                let take_seat = intent == JoinIntent::TakeSeat;
                self.follow(&conn);
                let message = self.join_message(game, &conn, take_seat);
                members.push((conn, take_seat));
                message
            }
            RoomCommand::Leave { conn_id } => {
                members.retain(|(c, _)| c.id != conn_id);
                self.unfollow(&[conn_id]);
                Message::Leave {
                    game,
                    conn: conn_id,
                }
            }
            RoomCommand::Act {
                conn_id,
                player,
                action,
            } => match RemoteAct::from_action(&action) {
                Some(act) => Message::Act {
                    game,
                    conn: conn_id,
                    player,
                    act,
                },
                None => return,
            },
            RoomCommand::AddComputer {
                conn_id,
                player,
                level,
            } => Message::Act {
                game,
                conn: conn_id,
                player,
                act: RemoteAct::AddComputer { level: level.get() },
            },
            RoomCommand::Chat {
                conn_id,
                preset,
                text,
            } => Message::Chat {
                game,
                conn: conn_id,
                preset,
                text,
            },
            // The owner's own business.
            RoomCommand::ComputerMove { .. }
            | RoomCommand::Banned { .. }
            | RoomCommand::Relinquish => return,
        };
        self.publish(owner, &message).await;
    }
}
