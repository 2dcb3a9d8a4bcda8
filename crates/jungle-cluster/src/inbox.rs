//! This node's inbox: its Redis channel, subscribed again after any break. Each message is
//! decoded and handed to the service it is for (a room's queue, the lobby, the challenges, a
//! director, the connections here); the inbox itself never waits for the database or a full
//! queue, so one slow service never stalls the messages of the others.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::watch;

use super::followers::Followers;
use super::matcher::Matching;
use super::members::remote_member;
use super::outbox::Outboxes;
use super::proxy::Proxies;
use super::round_trip;
use super::wire::{Envelope, Message, ToDirector, ToFollowers, ToMatcher, ToNode, ToOwner};
use super::{Cluster, BEAT};
use jungle_rooms::{frame_text, JoinIntent, Outbound, RoomCommand, RoomContext, RoomHandle};

/// What the inbox delivers to.
#[derive(Clone)]
pub struct Services {
    pub outboxes: Outboxes,
    /// The games this node is taking over, which hold what reaches them meanwhile.
    pub adopting: super::adopting::Adopting,
    pub followers: Followers,
    pub proxies: Proxies,
    pub matching: Matching,
    pub lobby: jungle_rooms::lobby::Lobby,
    pub challenges: jungle_rooms::challenges::Challenges,
    pub online: jungle_rooms::online::Online,
    pub ctx: Arc<RoomContext>,
    pub directors: jungle_tournaments::Directors,
}

pub fn start(cluster: Cluster, services: Services, shutdown: watch::Receiver<bool>) {
    tokio::spawn(listen(cluster, services, shutdown));
}

async fn listen(cluster: Cluster, services: Services, mut shutdown: watch::Receiver<bool>) {
    let channel = cluster.node_channel(cluster.node());
    loop {
        let subscribed = async {
            let mut pubsub = cluster.client.get_async_pubsub().await?;
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
                    Some(message) => match Envelope::decode_all(message.get_payload_bytes()) {
                        Some((envelopes, unread)) => {
                            metrics::counter!("jungle_bus_messages_total", "way" => "in")
                                .increment(envelopes.len() as u64);
                            if unread > 0 {
                                metrics::counter!("jungle_bus_unread_total").increment(unread as u64);
                                tracing::warn!(unread, "bus: parts of a message that do not read (a node of another version?)");
                            }
                            for envelope in envelopes {
                                deliver(&cluster, &services, envelope);
                            }
                        }
                        None => tracing::warn!("bus: a message that does not read"),
                    },
                    None => break,
                },
                _ = shutdown.changed() => return,
            }
        }
        // Frames may have been lost while the subscription was down: followers resync.
        services.proxies.resync(None);
    }
}

fn deliver(cluster: &Cluster, services: &Services, envelope: Envelope) {
    match envelope {
        Envelope::Frames { conns, text } => {
            let text: axum::extract::ws::Utf8Bytes = text.into();
            for conn in conns {
                if let Some(follower) = services.followers.get(conn) {
                    follower.send_text(text.clone());
                }
            }
        }
        Envelope::Message(Message::Owner(message)) => to_owner(cluster, services, message),
        Envelope::Message(Message::Followers(message)) => to_followers(services, message),
        Envelope::Message(Message::Matcher(message)) => to_matcher(cluster, services, message),
        Envelope::Message(Message::Director(message)) => to_director(cluster, services, message),
        Envelope::Message(Message::Node(message)) => to_node(cluster, services, message),
    }
}

fn to_node(cluster: &Cluster, services: &Services, message: ToNode) {
    match message {
        ToNode::Ping { from, sent } => {
            let pong = ToNode::Pong {
                from: cluster.node().to_owned(),
                sent,
            };
            services.outboxes.message(&from, Message::Node(pong));
        }
        ToNode::Pong { from, sent } => {
            if let Some(measured) = round_trip::since(sent) {
                services.outboxes.round_trips.record(&from, measured);
            }
        }
        ToNode::Adopted { game, owner } => services.proxies.owner_is(game, &owner),
    }
}

fn to_owner(cluster: &Cluster, services: &Services, message: ToOwner) {
    let (game, command) = match message {
        ToOwner::Join {
            game,
            conn,
            take_seat,
        } => {
            let conn = remote_member(conn, &services.outboxes, cluster.node());
            let intent = if take_seat {
                JoinIntent::TakeSeat
            } else {
                JoinIntent::Watch
            };
            let conn = Box::new(conn);
            (game, RoomCommand::Join { conn, intent })
        }
        ToOwner::Leave { game, conn } => (game, RoomCommand::Leave { conn_id: conn }),
        ToOwner::Act {
            game,
            conn,
            player,
            action,
        } => {
            let action = Box::new(action);
            let command = RoomCommand::Act {
                conn_id: conn,
                player,
                action,
            };
            (game, command)
        }
        ToOwner::AddComputer {
            game,
            conn,
            player,
            level,
        } => {
            let Some(level) = jungle_engine::Level::new(level) else {
                return;
            };
            let command = RoomCommand::AddComputer {
                conn_id: conn,
                player,
                level,
            };
            (game, command)
        }
        ToOwner::Chat {
            game,
            conn,
            preset,
            text,
        } => {
            let line = Box::new(jungle_rooms::chat_line::ChatLine { preset, text });
            (
                game,
                RoomCommand::Chat {
                    conn_id: conn,
                    line,
                },
            )
        }
    };
    // To the room here, held while this node is taking the game over, or dropped.
    services.adopting.deliver(game, command);
}

/// A game run by `owner`: its room here, or this node's proxy to it.
fn room_on(services: &Services, game: uuid::Uuid, owner: String) -> RoomHandle {
    match services.ctx.rooms.get(game) {
        Some(room) => room,
        None => services.proxies.to(game, Some(owner)),
    }
}

fn to_followers(services: &Services, message: ToFollowers) {
    match message {
        ToFollowers::Enter { conn, game, owner } => {
            // A seek matched (or a rematch began): no longer waiting at the matcher.
            services.matching.seek_over(conn);
            if let Some(follower) = services.followers.get(conn) {
                let room = room_on(services, game, owner);
                let _ = follower.tx.try_send(Outbound::enter(room));
            }
        }
        ToFollowers::Refused { conn, game, text } => {
            if let Some(follower) = services.followers.get(conn) {
                let _ = follower.tx.try_send(Outbound::refused(game, text.into()));
            }
        }
        ToFollowers::WrongCode { conn, text } => {
            if let Some(follower) = services.followers.get(conn) {
                // Guessing codes meets the lookup limit of the guesser's own node.
                services.ctx.limits.charge_miss(follower.addr);
                follower.send_text(text.into());
            }
        }
        ToFollowers::Resync { game } => services.proxies.resync(game),
        ToFollowers::PlayerFrame {
            player,
            text,
            except,
        } => {
            services.online.send(player, &text.into(), except);
        }
        ToFollowers::PlayerEnter {
            player,
            game,
            owner,
        } => {
            let room = room_on(services, game, owner);
            services.online.enter(player, &room);
        }
    }
}

fn to_matcher(cluster: &Cluster, services: &Services, message: ToMatcher) {
    let owner = cluster.node().to_owned();
    let member = |conn| remote_member(conn, &services.outboxes, &owner);
    match message {
        ToMatcher::Seek { conn, seek } => {
            let (player, conn) = (conn.player, member(conn));
            let services = services.clone();
            // The seeker's rating is read off the inbox.
            tokio::spawn(async move {
                let rating = match services
                    .ctx
                    .store
                    .rating(
                        player,
                        jungle_game::rating::RatingPool::of(seek.rules, seek.clock),
                    )
                    .await
                {
                    Ok(rating) => rating,
                    Err(e) => {
                        tracing::error!(error = %e, "a remote seeker's rating");
                        return;
                    }
                };
                let settings = jungle_rooms::RoomSettings {
                    rules: seek.rules,
                    clock: seek.clock,
                    rated: seek.rated,
                };
                let after = seek.computer_after_ms.map(Duration::from_millis);
                services.lobby.seek(conn, settings, rating, after).await;
            });
        }
        ToMatcher::Cancel { conn, answer } => {
            let lobby = services.lobby.clone();
            tokio::spawn(async move { lobby.cancel(conn, answer).await });
        }
        ToMatcher::Accept {
            conn,
            seek,
            has_account,
        } => {
            let (lobby, conn) = (services.lobby.clone(), member(conn));
            tokio::spawn(async move { lobby.accept(conn, seek, has_account).await });
        }
        ToMatcher::Challenge { conn, frame } => {
            let (services, conn) = (services.clone(), member(conn));
            tokio::spawn(async move {
                let answer = jungle_rooms::challenges::handle_frame(
                    &services.ctx.store,
                    &services.challenges,
                    &services.ctx,
                    &conn,
                    frame,
                )
                .await;
                match answer {
                    Ok(Some(text)) => {
                        conn.send_text(text);
                    }
                    Ok(None) => {}
                    Err(e) => {
                        conn.send_text(e.to_frame());
                    }
                }
            });
        }
        ToMatcher::ConnectionGone { conn } => services.challenges.connection_gone(conn),
        ToMatcher::Incoming { conn } => {
            let player = conn.player;
            let conn = member(conn);
            for challenge in services.challenges.incoming(player) {
                let frame = jungle_protocol::ServerFrame::Challenged { challenge };
                conn.send_text(frame_text(&frame));
            }
        }
    }
}

fn to_director(cluster: &Cluster, services: &Services, message: ToDirector) {
    let ToDirector::Frame {
        conn,
        has_account,
        frame,
    } = message;
    use jungle_tournaments::frames::{handle_remote, RemoteAnswer};
    let node = conn.node.clone();
    let conn = remote_member(conn, &services.outboxes, cluster.node());
    let (directors, outboxes) = (services.directors.clone(), services.outboxes.clone());
    tokio::spawn(async move {
        match handle_remote(&directors, &conn, has_account, frame).await {
            RemoteAnswer::Nothing => {}
            RemoteAnswer::Refused(text) => {
                conn.send_text(text);
            }
            RemoteAnswer::WrongCode(text) => {
                let message = ToFollowers::WrongCode {
                    conn: conn.id,
                    text: text.to_string(),
                };
                outboxes.message(&node, Message::Followers(message));
            }
        }
    });
}
