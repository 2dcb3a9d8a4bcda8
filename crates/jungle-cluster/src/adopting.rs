//! Games this node is taking over. Between taking a game's lease and its room running here
//! the database is read (the game, its players, their ratings and vacations), and the other
//! nodes may meanwhile learn the new owner from the lease itself and send it their members'
//! joins. A join that found no room was dropped, and the news of the adoption that followed
//! named the owner the member's node already knew, so it never joined again: a player back in
//! that moment got their `welcome` and then no `game` frame (issue 49). Now what reaches a
//! game being taken over here is held, in order, and handed to its room once it runs.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use uuid::Uuid;

use jungle_rooms::{RoomCommand, RoomHandle, Rooms};

/// Commands held for one game being taken over, at most (beyond, they are dropped: its
/// members join again at the next change they hear of).
const MOST_HELD: usize = 512;

/// Cloning shares.
#[derive(Clone)]
pub struct Adopting {
    rooms: Rooms,
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    /// How many games are being taken over: while none is, commands go straight to rooms.
    under_way: AtomicUsize,
    held: Mutex<HashMap<Uuid, Vec<RoomCommand>>>,
}

impl Adopting {
    pub fn new(rooms: Rooms) -> Adopting {
        Adopting {
            rooms,
            inner: Arc::default(),
        }
    }

    /// This node holds `game`'s lease now and is about to run it: what reaches it is held
    /// until the returned takeover ends (when it is dropped).
    pub fn begin(&self, game: Uuid) -> Takeover {
        let mut held = self.inner.held.lock().expect("adopting lock");
        if held.insert(game, Vec::new()).is_none() {
            self.inner.under_way.fetch_add(1, Ordering::AcqRel);
        }
        Takeover {
            adopting: self.clone(),
            game,
        }
    }

    /// `command` from another node for `game`: to its room here, held while the game is
    /// being taken over here, else dropped (the game runs elsewhere, or is over).
    pub fn deliver(&self, game: Uuid, command: RoomCommand) {
        // The inbox delivers one message at a time, so a command that goes straight to a room
        // here never passes one held before it.
        if self.inner.under_way.load(Ordering::Acquire) == 0 {
            if let Some(room) = self.rooms.get(game) {
                to_room(room, command);
            }
            return;
        }
        let mut held = self.inner.held.lock().expect("adopting lock");
        match held.get_mut(&game) {
            Some(queue) if queue.len() < MOST_HELD => queue.push(command),
            Some(_) => metrics::counter!("jungle_bus_dropped_total").increment(1),
            None => {
                if let Some(room) = self.rooms.get(game) {
                    to_room(room, command);
                }
            }
        }
    }

    /// The takeover of `game` ended: what was held goes to its room if it runs here now (in
    /// order, before anything newer), or is dropped.
    fn end(&self, game: Uuid) {
        let mut held = self.inner.held.lock().expect("adopting lock");
        let Some(commands) = held.remove(&game) else {
            return;
        };
        self.inner.under_way.fetch_sub(1, Ordering::AcqRel);
        match self.rooms.get(game) {
            Some(room) => {
                for command in commands {
                    to_room(room.clone(), command);
                }
            }
            None if !commands.is_empty() => {
                tracing::debug!(%game, dropped = commands.len(), "not taken over: held commands dropped");
            }
            None => {}
        }
    }
}

/// A game being taken over here, until this is dropped.
pub struct Takeover {
    adopting: Adopting,
    game: Uuid,
}

impl Drop for Takeover {
    fn drop(&mut self) {
        self.adopting.end(self.game);
    }
}

/// Hands a command to a room of this node without waiting: a full queue is waited for on a
/// task of its own (order among a room's commands from one node is kept by the room's queue
/// once they are in it; a full queue is rare, a room busy for seconds).
fn to_room(room: RoomHandle, command: RoomCommand) {
    if let Err(command) = room.try_send_back(command) {
        tokio::spawn(async move {
            room.send(command).await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn what_reaches_a_game_being_taken_over_waits_for_its_room() {
        let rooms = Rooms::default();
        let adopting = Adopting::new(rooms.clone());
        let game = Uuid::new_v4();
        // Not here, not being taken over: dropped.
        adopting.deliver(game, RoomCommand::Leave { conn_id: 1 });
        let takeover = adopting.begin(game);
        // Taken over, its room not running yet (the database is being read): held.
        adopting.deliver(game, RoomCommand::Leave { conn_id: 2 });
        adopting.deliver(game, RoomCommand::Leave { conn_id: 3 });
        let (tx, mut queue) = tokio::sync::mpsc::channel(8);
        rooms.insert(RoomHandle::new(game, tx), None, None);
        // Its room runs; the takeover is not over: still held, behind the others.
        adopting.deliver(game, RoomCommand::Leave { conn_id: 4 });
        assert!(queue.try_recv().is_err());
        drop(takeover);
        adopting.deliver(game, RoomCommand::Leave { conn_id: 5 });
        let mut seen = Vec::new();
        while let Ok(RoomCommand::Leave { conn_id }) = queue.try_recv() {
            seen.push(conn_id);
        }
        assert_eq!(seen, [2, 3, 4, 5]);
    }

    #[tokio::test]
    async fn a_takeover_that_fails_drops_what_it_held() {
        let rooms = Rooms::default();
        let adopting = Adopting::new(rooms.clone());
        let game = Uuid::new_v4();
        drop(adopting.begin(game));
        assert_eq!(adopting.inner.under_way.load(Ordering::Acquire), 0);
        let takeover = adopting.begin(game);
        adopting.deliver(game, RoomCommand::Leave { conn_id: 1 });
        drop(takeover);
        assert!(adopting.inner.held.lock().unwrap().is_empty());
        assert_eq!(adopting.inner.under_way.load(Ordering::Acquire), 0);
    }
}
