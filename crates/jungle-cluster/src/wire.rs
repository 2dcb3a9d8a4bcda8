//! What one node tells another over the bus, typed by whom it is for (as lila-ws's `ipc`):
//! the node that runs a game (its owner), a node where connections follow games or are
//! online, the matcher, a tournament's director.
//!
//! On the wire a message is a tag byte and its body: `F` for frames to some of the node's
//! connections (the hot path: the connection ids, a newline, then the frame's own text,
//! untouched), `J` for anything else as JSON.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use jungle_rooms::{Action, Connection};
use jungle_store::PlayerRecord;

/// A connection of another node, as the owner or the matcher sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RemoteConn {
    pub id: u64,
    pub node: String,
    pub player: Uuid,
    pub name: String,
    pub disconnects: i64,
    /// A bot account's connection (its seat carries the title BOT).
    #[serde(default)]
    pub bot: bool,
    /// The client's address, for the limits the receiving node counts.
    pub addr: std::net::IpAddr,
}

impl RemoteConn {
    pub fn of(conn: &Connection, node: &str) -> RemoteConn {
        RemoteConn {
            id: conn.id,
            node: node.to_owned(),
            player: conn.player.id,
            name: conn.player.name.clone(),
            disconnects: conn.player.disconnects,
            bot: conn.player.bot,
            addr: conn.addr,
        }
    }

    pub fn player_record(&self) -> PlayerRecord {
        PlayerRecord {
            id: self.player,
            name: self.name.clone(),
            disconnects: self.disconnects,
            bot: self.bot,
        }
    }
}

/// To the node that runs a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum ToOwner {
    /// A connection follows the game (and takes the free seat if asked).
    Join {
        game: Uuid,
        conn: RemoteConn,
        take_seat: bool,
    },
    Leave {
        game: Uuid,
        conn: u64,
    },
    /// An action on the player's seat; the owner checks it again like a local one.
    Act {
        game: Uuid,
        conn: u64,
        player: Uuid,
        action: Action,
    },
    AddComputer {
        game: Uuid,
        conn: u64,
        player: Uuid,
        level: u8,
    },
    Chat {
        game: Uuid,
        conn: u64,
        preset: Option<String>,
        text: Option<String>,
    },
}

/// To a node where connections follow games, wait at the matcher, or are online.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum ToFollowers {
    /// The connection should enter `game`, run by `owner` (a match, an accepted challenge, a
    /// rematch, a pairing: just opened there, maybe before its lease is taken).
    Enter {
        conn: u64,
        game: Uuid,
        owner: String,
    },
    /// The game's room refused the connection's join.
    Refused { conn: u64, game: Uuid, text: String },
    /// A tournament's director refused the connection's join for a wrong private code: the
    /// guess is charged to its address here, then `text` (the refusal) shown.
    WrongCode { conn: u64, text: String },
    /// Frames for this node's followers of `game` were lost (Redis was away too long): each
    /// joins again and gets the whole state.
    Resync { game: Option<Uuid> },
    /// A frame for every tab of `player` here (but `except`).
    PlayerFrame {
        player: Uuid,
        text: String,
        except: Option<u64>,
    },
    /// Every tab of `player` here enters `game`, run by `owner` (a tournament pairing).
    PlayerEnter {
        player: Uuid,
        game: Uuid,
        owner: String,
    },
}

/// A seek's settings, as it crosses the bus.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeekSpec {
    pub rules: jungle_rules::Ruleset,
    pub clock: jungle_protocol::ClockSpec,
    pub rated: bool,
    pub computer_after_ms: Option<u64>,
}

/// To the node that runs matchmaking and holds the challenges.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum ToMatcher {
    Seek {
        conn: RemoteConn,
        seek: SeekSpec,
    },
    /// The connection's seek is withdrawn (`answer`: tell it).
    Cancel {
        conn: u64,
        answer: bool,
    },
    Accept {
        conn: RemoteConn,
        seek: Uuid,
        has_account: bool,
    },
    /// A challenge frame, already past the sending node's limits.
    Challenge {
        conn: RemoteConn,
        frame: jungle_protocol::ClientFrame,
    },
    /// The connection closed: its challenges are cancelled.
    ConnectionGone {
        conn: u64,
    },
    /// A tab opened: the challenges waiting for its player.
    Incoming {
        conn: RemoteConn,
    },
}

/// To the node directing a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum ToDirector {
    Frame {
        conn: RemoteConn,
        has_account: bool,
        frame: jungle_protocol::ClientFrame,
    },
}

/// To a node as such: the bus's own upkeep, and news of an adoption (each sent apart from other
/// messages, see [`Envelope::is_upkeep`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum ToNode {
    /// Answer `from` with a pong carrying `sent` back (the sender's own clock, in
    /// microseconds: nothing is compared across machines).
    Ping { from: String, sent: u64 },
    /// The answer to this node's ping of `sent`, from `from`.
    Pong { from: String, sent: u64 },
    /// `owner` has just adopted `game`: followers of it here follow it there now.
    Adopted { game: Uuid, owner: String },
}

/// Any message, by whom it is for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum Message {
    Owner(ToOwner),
    Followers(ToFollowers),
    Matcher(ToMatcher),
    Director(ToDirector),
    Node(ToNode),
}

/// A message as it is published: frames in their raw form, the rest as JSON.
#[derive(Clone, Debug, PartialEq)]
pub enum Envelope {
    /// One frame's text for these connections of the receiving node.
    Frames {
        conns: Vec<u64>,
        text: String,
    },
    Message(Message),
}

impl Envelope {
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Envelope::Frames { conns, text } => {
                let mut out = Vec::with_capacity(text.len() + 24 * conns.len() + 2);
                out.push(b'F');
                for (i, conn) in conns.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(conn.to_string().as_bytes());
                }
                out.push(b'\n');
                out.extend_from_slice(text.as_bytes());
                out
            }
            Envelope::Message(message) => {
                let mut out = vec![b'J'];
                serde_json::to_writer(&mut out, message).expect("bus messages serialize");
                out
            }
        }
    }

    /// A message to a node as such (pings, their answers, news of an adoption): sent apart
    /// from the rest, so that a node of an older version loses only it.
    pub fn is_upkeep(&self) -> bool {
        matches!(self, Envelope::Message(Message::Node(_)))
    }

    /// Several envelopes in one published message, in order: `B`, then each as its length
    /// (4 bytes, big-endian) and its bytes. One alone is sent as itself.
    pub fn encode_all<E: std::borrow::Borrow<Envelope>>(envelopes: &[E]) -> Vec<u8> {
        if let [one] = envelopes {
            return one.borrow().encode();
        }
        let mut out = vec![b'B'];
        for envelope in envelopes {
            let bytes = envelope.borrow().encode();
            out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
            out.extend_from_slice(&bytes);
        }
        out
    }

    /// The envelopes of one published message that read, in order, and how many parts did
    /// not (a message a newer node knows and this one does not: the rest is still delivered).
    /// `None` if the message as a whole is not ours.
    pub fn decode_all(bytes: &[u8]) -> Option<(Vec<Envelope>, usize)> {
        let Some((b'B', mut rest)) = bytes.split_first() else {
            return Envelope::decode(bytes).map(|one| (vec![one], 0));
        };
        let (mut envelopes, mut unread) = (Vec::new(), 0);
        while !rest.is_empty() {
            let (len, after) = rest.split_at_checked(4)?;
            let len = u32::from_be_bytes(len.try_into().ok()?) as usize;
            let (bytes, after) = after.split_at_checked(len)?;
            match Envelope::decode(bytes) {
                Some(envelope) => envelopes.push(envelope),
                None => unread += 1,
            }
            rest = after;
        }
        Some((envelopes, unread))
    }

    /// `None` for bytes no node of ours wrote.
    pub fn decode(bytes: &[u8]) -> Option<Envelope> {
        match bytes.split_first()? {
            (b'F', rest) => {
                let newline = rest.iter().position(|&b| b == b'\n')?;
                let (ids, text) = (&rest[..newline], &rest[newline + 1..]);
                let conns = std::str::from_utf8(ids)
                    .ok()?
                    .split(',')
                    .map(|id| id.parse().ok())
                    .collect::<Option<Vec<u64>>>()?;
                let text = String::from_utf8(text.to_vec()).ok()?;
                Some(Envelope::Frames { conns, text })
            }
            (b'J', rest) => serde_json::from_slice(rest).ok().map(Envelope::Message),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_read_back_as_written() {
        let frames = Envelope::Frames {
            conns: vec![1, u64::MAX],
            text: r#"{"t":"moved","mv":"a3a4"}"#.into(),
        };
        assert_eq!(Envelope::decode(&frames.encode()), Some(frames.clone()));
        let act = Envelope::Message(Message::Owner(ToOwner::Act {
            game: Uuid::nil(),
            conn: 7,
            player: Uuid::nil(),
            action: Action::Move {
                text: "a3a4".into(),
                lag: std::time::Duration::from_millis(40),
                blurred: true,
            },
        }));
        assert_eq!(Envelope::decode(&act.encode()), Some(act.clone()));
        assert_eq!(Envelope::decode(b"Xnonsense"), None);
        assert_eq!(Envelope::decode(b"F12,x\n{}"), None);
        let ping = Envelope::Message(Message::Node(ToNode::Ping {
            from: "n1".into(),
            sent: 12_345,
        }));
        assert_eq!(Envelope::decode(&ping.encode()), Some(ping.clone()));
        assert!(ping.is_upkeep() && !act.is_upkeep() && !frames.is_upkeep());
        let adopted = Envelope::Message(Message::Node(ToNode::Adopted {
            game: Uuid::nil(),
            owner: "n2".into(),
        }));
        assert_eq!(Envelope::decode(&adopted.encode()), Some(adopted.clone()));
        assert!(adopted.is_upkeep(), "news of an adoption goes alone too");
        let both = vec![frames.clone(), act.clone()];
        assert_eq!(
            Envelope::decode_all(&Envelope::encode_all(&both)),
            Some((both, 0))
        );
        let one = vec![frames.clone()];
        assert_eq!(Envelope::encode_all(&one), frames.encode());
        assert_eq!(Envelope::decode_all(&frames.encode()), Some((one, 0)));
        // A length past the end reads as nothing; a single part that is not ours too.
        assert_eq!(Envelope::decode_all(b"B\0\0\0\x09F1\n{}"), None);
        assert_eq!(Envelope::decode_all(b"Xnonsense"), None);
        // A part this node does not know (a newer node's) is skipped, the rest delivered.
        let mut mixed = vec![b'B'];
        for part in [
            frames.encode(),
            br#"J{"to":"later","k":"new"}"#.to_vec(),
            act.encode(),
        ] {
            mixed.extend_from_slice(&(part.len() as u32).to_be_bytes());
            mixed.extend_from_slice(&part);
        }
        assert_eq!(
            Envelope::decode_all(&mixed),
            Some((vec![frames.clone(), act.clone()], 1))
        );
    }
}
