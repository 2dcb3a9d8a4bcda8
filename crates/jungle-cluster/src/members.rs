//! The owner's side of a member on another node: a [`Connection`] whose frames go to that
//! node's outbox (a room sends one message per node for all its members there), and whose
//! other messages (enter a game, a refused join, a text sent by a service) are carried in
//! order by a small forwarder.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, Notify};

use super::outbox::Outboxes;
use super::wire::{Envelope, Message, RemoteConn, ToFollowers};
use jungle_rooms::{Connection, Fanout, Instruction, Outbound};

/// Frames for connections of one other node.
#[derive(Debug)]
struct NodeFanout {
    node: String,
    outboxes: Outboxes,
}

impl std::fmt::Debug for Outboxes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Outboxes")
    }
}

impl Fanout for NodeFanout {
    fn node(&self) -> &str {
        &self.node
    }

    fn round_trip(&self) -> std::time::Duration {
        self.outboxes.round_trips.of(&self.node)
    }

    fn frames(&self, conns: Vec<u64>, text: &Utf8Bytes) {
        let envelope = Envelope::Frames {
            conns,
            text: text.to_string(),
        };
        self.outboxes.send(&self.node, envelope);
    }
}

/// The connection `remote`, of another node, as a member of a room or a seeker here. `owner`
/// is this node (named in the games it sends the connection into).
pub fn remote_member(remote: RemoteConn, outboxes: &Outboxes, owner: &str) -> Connection {
    let (tx, mut rx) = mpsc::channel::<Outbound>(256);
    let fanout = Arc::new(NodeFanout {
        node: remote.node.clone(),
        outboxes: outboxes.clone(),
    });
    let (conn, node, owner, outboxes) = (
        remote.id,
        remote.node.clone(),
        owner.to_owned(),
        outboxes.clone(),
    );
    tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            let envelope = match out {
                Outbound::Text(text) => Envelope::Frames {
                    conns: vec![conn],
                    text: text.to_string(),
                },
                Outbound::Do(instruction) => match *instruction {
                    // Rooms a remote member is sent into were opened here.
                    Instruction::Enter(room) => {
                        Envelope::Message(Message::Followers(ToFollowers::Enter {
                            conn,
                            game: room.id,
                            owner: owner.clone(),
                        }))
                    }
                    Instruction::Refused { game, text } => {
                        Envelope::Message(Message::Followers(ToFollowers::Refused {
                            conn,
                            game,
                            text: text.to_string(),
                        }))
                    }
                    // Not sent to members elsewhere: their node's proxy follows the lease
                    // itself.
                    Instruction::Moved { .. } => continue,
                },
            };
            outboxes.send(&node, envelope);
        }
    });
    Connection {
        id: remote.id,
        player: remote.player_record(),
        tx,
        too_slow: Arc::new(Notify::new()),
        addr: remote.addr,
        remote: Some(fanout),
    }
}
