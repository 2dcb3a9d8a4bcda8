//! The follower's side of a game another node runs: one proxy per game on this node, shared
//! by every local connection that follows it. It sends their joins and actions to the owner
//! (frames come back straight to the connections, by the inbox) and follows the game when it
//! changes hands: every beat one watcher asks Redis who holds the lease of every game this
//! node follows (one round trip, not one a game) and tells each proxy; when another node took
//! the game over (the owner died or drained), or Redis was away, every member joins again and
//! gets the whole state. When the game moved to *this* node, the members join the room here and the
//! proxy forwards to it from then on: nobody's socket has to close for failover. The node
//! that adopts a game does not leave this to the beat: it tells its own proxy and the other
//! live nodes at once ([`Proxies::adopted_here`], [`Proxies::owner_is`]); the beat remains the
//! fallback (a node it did not reach, a proxy with news still unread).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, watch};
use uuid::Uuid;

use super::followers::Followers;
use super::outbox::Outboxes;
use super::wire::{Message, RemoteConn, ToNode, ToOwner};
use super::Cluster;
use jungle_rooms::{Connection, JoinIntent, RoomCommand, RoomHandle, Rooms};

/// Every proxy of this node, by game. Cloning shares.
#[derive(Clone)]
pub struct Proxies {
    cluster: Cluster,
    outboxes: Outboxes,
    followers: Followers,
    rooms: Rooms,
    by_game: Arc<Mutex<HashMap<Uuid, Entry>>>,
}

/// A proxy as the watcher reaches it.
struct Entry {
    handle: RoomHandle,
    news: mpsc::Sender<Lease>,
    /// What the proxy was last told: it hears again only when that changes.
    told: Option<Lease>,
}

/// What the watcher found of a game's lease at a beat.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Lease {
    Held(String),
    Free,
    RedisAway,
}

impl Proxies {
    pub fn new(
        cluster: Cluster,
        outboxes: Outboxes,
        followers: Followers,
        rooms: Rooms,
        shutdown: watch::Receiver<bool>,
    ) -> Proxies {
        let proxies = Proxies {
            cluster,
            outboxes,
            followers,
            rooms,
            by_game: Arc::default(),
        };
        tokio::spawn(proxies.clone().watch_leases(shutdown));
        proxies
    }

    /// Every beat, who holds each followed game's lease, for its proxy.
    async fn watch_leases(self, shutdown: watch::Receiver<bool>) {
        let mut beats = super::Beats::new(shutdown);
        while beats.next().await {
            let games: Vec<Uuid> = self
                .by_game
                .lock()
                .expect("proxies lock")
                .keys()
                .copied()
                .collect();
            if games.is_empty() {
                continue;
            }
            let found: Vec<Lease> = match self.cluster.owners(&games).await {
                Ok(owners) => owners
                    .into_iter()
                    .map(|owner| owner.map_or(Lease::Free, Lease::Held))
                    .collect(),
                Err(_) => games.iter().map(|_| Lease::RedisAway).collect(),
            };
            let here = self.cluster.node();
            let mut by_game = self.by_game.lock().expect("proxies lock");
            for (game, lease) in games.iter().zip(found) {
                let Some(entry) = by_game.get_mut(game) else {
                    continue;
                };
                // News only: a quiet game wakes nobody. A game held here is told each beat
                // until its proxy has handed its members to the room (which may still be
                // registering itself).
                let held_here = matches!(&lease, Lease::Held(node) if node == here);
                if entry.told.as_ref() == Some(&lease) && !held_here {
                    continue;
                }
                // A proxy that has not read the last news yet hears at the next beat.
                if entry.news.try_send(lease.clone()).is_ok() {
                    entry.told = Some(lease);
                }
            }
        }
    }

    /// The proxy of `game`, which `owner` runs (made if there is none yet). With no owner
    /// (the game is in progress but no node holds it: its node drained or died and another is
    /// taking it over) the proxy keeps its members until a node does, then joins them there.
    pub fn to(&self, game: Uuid, owner: Option<String>) -> RoomHandle {
        let mut by_game = self.by_game.lock().expect("proxies lock");
        if let Some(entry) = by_game.get(&game).filter(|e| !e.handle.is_closed()) {
            return entry.handle.clone();
        }
        let (tx, rx) = mpsc::channel(256);
        let (news, news_rx) = mpsc::channel(1);
        let handle = RoomHandle::new(game, tx);
        by_game.insert(
            game,
            Entry {
                handle: handle.clone(),
                news,
                // A proxy made for a known owner knows it already.
                told: owner.clone().map(Lease::Held),
            },
        );
        let proxy = Proxy {
            game,
            owner,
            here: None,
            members: Vec::new(),
            shared: self.clone(),
        };
        tokio::spawn(proxy.run(rx, news_rx));
        handle
    }

    /// This node has just taken `game` over (its room is registered): the proxy's members
    /// join the room now, not at the watcher's next beat (the side to move's clock runs from
    /// the adoption on), and so do the followers on `peers`, told at once.
    pub fn adopted_here<'a>(&self, game: Uuid, peers: impl IntoIterator<Item = &'a String>) {
        let here = self.cluster.node();
        self.owner_is(game, here);
        for peer in peers.into_iter().filter(|p| p.as_str() != here) {
            let news = ToNode::Adopted {
                game,
                owner: here.to_owned(),
            };
            self.outboxes.message(peer, Message::Node(news));
        }
    }

    /// `owner` runs `game` now (it has just adopted it): this node's proxy of it, if any,
    /// follows it there without waiting for the watcher's next beat.
    pub fn owner_is(&self, game: Uuid, owner: &str) {
        let mut by_game = self.by_game.lock().expect("proxies lock");
        if let Some(entry) = by_game.get_mut(&game) {
            let lease = Lease::Held(owner.to_owned());
            if entry.news.try_send(lease.clone()).is_ok() {
                entry.told = Some(lease);
            }
        }
    }

    /// Frames for this node's followers were lost: every proxy's members join again.
    pub fn resync(&self, game: Option<Uuid>) {
        let proxies: Vec<RoomHandle> = self
            .by_game
            .lock()
            .expect("proxies lock")
            .iter()
            .filter(|(id, _)| game.is_none_or(|g| g == **id))
            .map(|(_, entry)| entry.handle.clone())
            .collect();
        for proxy in proxies {
            let _ = proxy.try_send(RoomCommand::Rejoin);
        }
    }

    fn forget(&self, game: Uuid) {
        let mut by_game = self.by_game.lock().expect("proxies lock");
        if by_game.get(&game).is_some_and(|e| e.handle.is_closed()) {
            by_game.remove(&game);
        }
    }
}

struct Proxy {
    game: Uuid,
    /// The node running the game; `None` while no node holds it.
    owner: Option<String>,
    /// The room, once the game runs on this node.
    here: Option<RoomHandle>,
    members: Vec<(Connection, JoinIntent)>,
    shared: Proxies,
}

impl Proxy {
    async fn run(mut self, mut rx: mpsc::Receiver<RoomCommand>, mut news: mpsc::Receiver<Lease>) {
        let mut redis_was_away = false;
        loop {
            tokio::select! {
                command = rx.recv() => match command {
                    // Frames to this node were lost.
                    Some(RoomCommand::Rejoin) => self.join_again().await,
                    Some(command) => {
                        let leaving = matches!(command, RoomCommand::Leave { .. });
                        self.forward(command).await;
                        // The last member gone: nothing left to follow.
                        if leaving && self.members.is_empty() && rx.is_empty() {
                            break;
                        }
                    }
                    None => break,
                },
                Some(lease) = news.recv() => {
                    self.left_here();
                    if self.here.is_some() {
                        continue;
                    }
                    match lease {
                        Lease::Held(now) if now == self.shared.cluster.node() => self.moved_here().await,
                        Lease::Held(now) => {
                            if self.owner.as_ref() != Some(&now) || redis_was_away {
                                self.owner = Some(now);
                                self.join_again().await;
                            }
                            redis_was_away = false;
                        }
                        // No owner: the game waits to be adopted (or is over).
                        Lease::Free => {}
                        Lease::RedisAway => redis_was_away = true,
                    }
                }
            }
        }
        drop(rx);
        if self.here.is_none() {
            for (conn, _) in &self.members {
                self.shared.followers.remove(conn.id);
            }
        }
        self.shared.forget(self.game);
    }

    async fn forward(&mut self, command: RoomCommand) {
        self.left_here();
        if let Some(room) = &self.here {
            if let RoomCommand::Join { conn, intent } = &command {
                if !self.members.iter().any(|(c, _)| c.id == conn.id) {
                    self.members.push(((**conn).clone(), *intent));
                }
            }
            if let RoomCommand::Leave { conn_id } = &command {
                self.members.retain(|(c, _)| c.id != *conn_id);
            }
            room.send(command).await;
            return;
        }
        let game = self.game;
        let message = match command {
            RoomCommand::Join { conn, intent } => {
                let join = self.join(&conn, intent);
                if !self.members.iter().any(|(c, _)| c.id == conn.id) {
                    self.shared.followers.add(&conn);
                    self.members.push((*conn, intent));
                }
                join
            }
            RoomCommand::Leave { conn_id } => {
                if self.members.iter().any(|(c, _)| c.id == conn_id) {
                    self.members.retain(|(c, _)| c.id != conn_id);
                    self.shared.followers.remove(conn_id);
                }
                ToOwner::Leave {
                    game,
                    conn: conn_id,
                }
            }
            RoomCommand::Act {
                conn_id,
                player,
                action,
            } => ToOwner::Act {
                game,
                conn: conn_id,
                player,
                action: *action,
            },
            RoomCommand::AddComputer {
                conn_id,
                player,
                level,
            } => ToOwner::AddComputer {
                game,
                conn: conn_id,
                player,
                level: level.get(),
            },
            RoomCommand::Chat { conn_id, line } => ToOwner::Chat {
                game,
                conn: conn_id,
                preset: line.preset,
                text: line.text,
            },
            // The owner's own business.
            RoomCommand::ComputerMove { .. }
            | RoomCommand::Banned { .. }
            | RoomCommand::Vacation { .. }
            | RoomCommand::Relinquish
            | RoomCommand::Rejoin => return,
        };
        match &self.owner {
            Some(owner) => self.shared.outboxes.message(owner, Message::Owner(message)),
            // Members join once a node holds the game; what else they send meanwhile (they
            // have not had the game's state yet) is dropped.
            None => tracing::debug!(game = %self.game, "no node holds this game yet: dropped"),
        }
    }

    fn join(&self, conn: &Connection, intent: JoinIntent) -> ToOwner {
        ToOwner::Join {
            game: self.game,
            conn: RemoteConn::of(conn, self.shared.cluster.node()),
            take_seat: intent == JoinIntent::TakeSeat,
        }
    }

    /// Every member joins the owner again: the whole state comes back to each.
    async fn join_again(&mut self) {
        if let Some(room) = &self.here {
            for (conn, intent) in &self.members {
                room.send(RoomCommand::Join {
                    conn: Box::new(conn.clone()),
                    intent: *intent,
                })
                .await;
            }
            return;
        }
        let Some(owner) = &self.owner else {
            return;
        };
        for (conn, intent) in &self.members {
            let join = self.join(conn, *intent);
            self.shared.outboxes.message(owner, Message::Owner(join));
        }
    }

    /// The room here stopped without ending the game (another node took its lease): the
    /// members follow it from this node again, wherever the lease says it runs.
    fn left_here(&mut self) {
        if self.here.as_ref().is_none_or(|room| !room.is_closed()) {
            return;
        }
        self.here = None;
        self.owner = None;
        for (conn, _) in &self.members {
            self.shared.followers.add(conn);
        }
        // The next beat's news names the new owner (told again, though it may not have changed).
        if let Some(entry) = self
            .shared
            .by_game
            .lock()
            .expect("proxies lock")
            .get_mut(&self.game)
        {
            entry.told = None;
        }
    }

    /// This node adopted the game: its members join the room here.
    async fn moved_here(&mut self) {
        let Some(room) = self.shared.rooms.get(self.game) else {
            // Being resumed: the room registers itself in a moment.
            return;
        };
        tracing::info!(game = %self.game, members = self.members.len(), "the game moved here: its followers join it");
        for (conn, _) in &self.members {
            self.shared.followers.remove(conn.id);
        }
        self.here = Some(room);
        self.join_again().await;
    }
}
