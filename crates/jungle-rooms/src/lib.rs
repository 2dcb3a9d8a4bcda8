//! The rooms: one task per game owning it, reached through a cloneable [`RoomHandle`], and
//! what games start from and run beside. The [`Rooms`] registry finds a room by game id or
//! room code; nothing else is shared. Below the features (tournaments, puzzles, the Bot API…),
//! which it never names: it tells them of a game's end through [`game_end`], and reaches the
//! other nodes through [`reach`]'s traits, which the cluster implements.
//!
//! - [`room`]: the task around a `jungle_game::session::GameSession`: persist, render,
//!   broadcast (the session itself is pure and lives in `jungle-game`);
//! - [`view`]: the frames a session is shown as; [`chat_line`]: what may be said;
//! - [`computer`]: the computer opponent, its seat and its searches in the [`engine_pool`];
//! - [`open`]: every way a room is opened, and room codes; [`registry`]: rooms by id and code;
//! - [`lobby`]: seeks and matchmaking on one node; [`challenges`]: one player invites another;
//! - [`online`]: this node's connected players;
//! - [`fair_play`]: the check in front of the engine, and the assessment of finished games;
//! - [`correspondence`]: who may start a game over days; [`asleep`]: games over days with
//!   nobody in them leave memory until their next event; [`time_source`]: the time games see.

pub mod asleep;
pub mod challenges;
pub mod chat_line;
pub mod computer;
pub mod correspondence;
pub mod engine_pool;
pub mod fair_play;
pub mod game_end;
pub mod lobby;
pub mod notices;
pub mod online;
pub mod open;
pub mod reach;
mod registry;
mod room;
pub mod time_source;
pub mod view;

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, Notify};
use uuid::Uuid;

use jungle_store::PlayerRecord;
pub use registry::{Hold, HoldKind, LiveGame, Rooms};

#[cfg(test)]
mod tests;
pub use jungle_game::session::{Action, RoomSettings, SeatPlayer, Timing};
pub use room::{Room, RoomContext};
pub use view::{error_text, frame_text};

/// What a connection's task receives: text to send (every frame), or, rarely, something to do.
/// Both boxed, so that an `Outbound` is 16 bytes: a connection's queue is allocated 32 entries
/// a block, one block for an idle connection and two for a busy one, for the connection's life
/// (with the text inline, 32 bytes, that was a kilobyte a block). The box is one small
/// allocation per frame and recipient, freed when written.
#[derive(Debug)]
pub enum Outbound {
    Text(Box<Utf8Bytes>),
    /// Rare.
    Do(Box<Instruction>),
}

/// What a room, the lobby or another node asks of a connection besides sending it text.
#[derive(Debug)]
pub enum Instruction {
    /// A room this connection should join (a matchmade game or a rematch started).
    Enter(RoomHandle),
    /// The room refused this connection's join (a private game it may not see): it is no
    /// longer followed, and the client hears `text`.
    Refused { game: Uuid, text: Utf8Bytes },
    /// The room of `game` stopped here without ending the game: another node runs it now (it
    /// took the game's lease while this one could not renew it). The connection follows the
    /// game there, without closing.
    Moved { game: Uuid },
}

impl Outbound {
    pub fn text(text: Utf8Bytes) -> Outbound {
        Outbound::Text(Box::new(text))
    }

    pub fn enter(room: RoomHandle) -> Outbound {
        Outbound::Do(Box::new(Instruction::Enter(room)))
    }

    pub fn refused(game: Uuid, text: Utf8Bytes) -> Outbound {
        Outbound::Do(Box::new(Instruction::Refused { game, text }))
    }

    pub fn moved(game: Uuid) -> Outbound {
        Outbound::Do(Box::new(Instruction::Moved { game }))
    }
}

// Every connection's queue allocates its first block of 32 slots when it is made, so each
// byte of `Outbound` is 32 bytes of every socket, idle or not (issue 30): two boxes make 16
// bytes, where the text inline made 32 and a room handle or a game id beside it 56.
const _: () = assert!(std::mem::size_of::<Outbound>() <= 16);

/// Where frames for members on another node go: that node's outbox, which takes one message
/// for many of its connections (a room sends each frame once per node, not once per member).
pub trait Fanout: Send + Sync + std::fmt::Debug {
    /// The node the members are on.
    fn node(&self) -> &str;
    /// How long a move takes from this node to that one and back (the opponent's move going
    /// there, the answer coming here): credited to a player there as network lag.
    fn round_trip(&self) -> std::time::Duration;
    /// `text` for these connections of that node.
    fn frames(&self, conns: Vec<u64>, text: &Utf8Bytes);
}

/// Connection ids, unique across nodes too: a random high half per process, then a count.
pub fn next_connection_id() -> u64 {
    static NEXT: std::sync::OnceLock<std::sync::atomic::AtomicU64> = std::sync::OnceLock::new();
    NEXT.get_or_init(|| {
        let mut bytes = [0u8; 4];
        getrandom::fill(&mut bytes).expect("system randomness");
        std::sync::atomic::AtomicU64::new(u64::from(u32::from_le_bytes(bytes)) << 32 | 1)
    })
    .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// A way to reach one WebSocket connection.
#[derive(Clone, Debug)]
pub struct Connection {
    /// Unique per connection, so two tabs of one player stay apart.
    pub id: u64,
    pub player: PlayerRecord,
    pub tx: mpsc::Sender<Outbound>,
    /// Rung when a room finds this connection's queue full: the connection closes itself.
    pub too_slow: Arc<Notify>,
    /// The client's address, as its limits count it (a room limits what only it can tell
    /// apart, such as a rematch against the computer).
    pub addr: std::net::IpAddr,
    /// For a connection of another node: its node's outbox, which frames take instead of
    /// `tx` (which still carries the rest, in order with them).
    pub remote: Option<Arc<dyn Fanout>>,
}

impl Connection {
    /// Sends without waiting: a connection too slow to take its frames is dropped by its own
    /// task (the room never waits for a socket).
    pub fn send_text(&self, text: Utf8Bytes) -> bool {
        match &self.remote {
            Some(remote) => {
                remote.frames(vec![self.id], &text);
                true
            }
            None => self.tx.try_send(Outbound::text(text)).is_ok(),
        }
    }
}

/// How a connection enters a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinIntent {
    /// Follow the game: as its player if seated there, else as a spectator.
    Watch,
    /// Take the free seat of a private room, or watch if there is none.
    TakeSeat,
}

/// Large fields are boxed: a room's queue is allocated in blocks of 32 commands, each as large
/// as the largest variant, and every room holds two of them for its whole life (measured at
/// 3,000 games: 136-byte commands made 8.7 KiB a room).
#[derive(Debug)]
pub enum RoomCommand {
    Join {
        conn: Box<Connection>,
        intent: JoinIntent,
    },
    Leave {
        conn_id: u64,
    },
    /// The computer's answer to its search number `search`, from the engine pool.
    ComputerMove {
        search: u64,
        choice: Option<jungle_rules::Move>,
        persona: jungle_engine::Persona,
    },
    /// A player acts on their seat (`player` must be the connection's).
    Act {
        conn_id: u64,
        player: Uuid,
        action: Box<Action>,
    },
    /// A chat line from a member's connection, already checked.
    Chat {
        conn_id: u64,
        line: Box<chat_line::ChatLine>,
    },
    /// The operator banned `player`: their game in progress is lost by `banned`.
    Banned {
        player: Uuid,
    },
    /// `player`'s vacations changed: a game over days reads them again.
    Vacation {
        player: Uuid,
    },
    /// The host of a waiting room gives the free seat to the computer.
    AddComputer {
        conn_id: u64,
        player: Uuid,
        level: jungle_engine::Level,
    },
    /// Another node holds this game's lease now: stop here without ending the game.
    Relinquish,
    /// To a proxy of a game run elsewhere: frames for its members were lost; they join again
    /// (rooms ignore it).
    Rejoin,
}

const _: () = assert!(std::mem::size_of::<RoomCommand>() <= 40);

/// A cloneable handle to a room's task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    pub id: Uuid,
    tx: mpsc::Sender<RoomCommand>,
}

/// How many commands may wait for a room before senders wait in turn.
const ROOM_QUEUE: usize = 256;

impl RoomHandle {
    /// A room's queue: the handle that sends to it, and the end its task reads.
    pub(crate) fn channel(id: Uuid) -> (RoomHandle, mpsc::Receiver<RoomCommand>) {
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        (RoomHandle { id, tx }, rx)
    }

    /// How many handles on this room exist, this one included.
    pub(crate) fn senders(&self) -> usize {
        self.tx.strong_count()
    }

    /// A handle on a task that takes room commands (a room, or a proxy to one elsewhere).
    pub fn new(id: Uuid, tx: mpsc::Sender<RoomCommand>) -> RoomHandle {
        RoomHandle { id, tx }
    }

    /// Sends a command, waiting if the room is busy. False if the room has closed.
    pub async fn send(&self, command: RoomCommand) -> bool {
        self.tx.send(command).await.is_ok()
    }

    /// Sends without waiting; false if the room's queue is full or it has closed.
    pub fn try_send(&self, command: RoomCommand) -> bool {
        self.tx.try_send(command).is_ok()
    }

    /// Sends without waiting; a full queue gives the command back (a closed room drops it).
    // The command comes back whole to be sent later, as tokio's own `try_send` gives it back.
    #[allow(clippy::result_large_err)]
    pub fn try_send_back(&self, command: RoomCommand) -> Result<(), RoomCommand> {
        match self.tx.try_send(command) {
            Err(mpsc::error::TrySendError::Full(command)) => Err(command),
            _ => Ok(()),
        }
    }

    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}
