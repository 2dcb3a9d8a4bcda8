use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub use jungle_protocol::http::LiveGame;
use uuid::Uuid;

use super::RoomHandle;

/// The rooms a player may hold only a few of at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HoldKind {
    /// A game against the computer, until it ends.
    ComputerGame,
    /// A private room waiting for its guest, until the game starts or the room expires.
    WaitingRoom,
}

/// A player's claim on one of their limited rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hold {
    pub player: Uuid,
    pub kind: HoldKind,
}

#[derive(Default)]
struct Index {
    rooms: HashMap<Uuid, Entry>,
    /// Private room codes to game ids.
    codes: HashMap<String, Uuid>,
    /// How many rooms each player holds of each kind (absent: none).
    holds: HashMap<Hold, usize>,
    /// Changes whenever the list of games in progress may have: the other nodes are sent it
    /// again only then.
    live_version: u64,
}

struct Entry {
    handle: RoomHandle,
    code: Option<String>,
    live: Option<LiveGame>,
    hold: Option<Hold>,
}

impl Index {
    fn live_games(&self) -> Vec<LiveGame> {
        self.rooms
            .values()
            .filter(|e| e.code.is_none())
            .filter_map(|e| e.live.clone())
            .collect()
    }

    fn release(&mut self, hold: Hold) {
        if let Some(count) = self.holds.get_mut(&hold) {
            *count -= 1;
            if *count == 0 {
                self.holds.remove(&hold);
            }
        }
    }
}

/// Finds rooms by id or code. One lock over one index; rooms add and remove themselves.
#[derive(Clone, Default)]
pub struct Rooms {
    index: Arc<Mutex<Index>>,
}

impl Rooms {
    /// Claims one of a player's rooms of a kind, if they hold fewer than `cap`; the claim goes
    /// with the room to [`Rooms::insert`]. `None` when they are at the cap.
    pub fn reserve(&self, hold: Hold, cap: usize) -> Option<Hold> {
        let mut index = self.index.lock().expect("room index lock");
        let count = index.holds.entry(hold).or_default();
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(hold)
    }

    /// Gives back a claim whose room was never opened.
    pub fn unreserve(&self, hold: Hold) {
        self.index.lock().expect("room index lock").release(hold);
    }

    /// Claims a room without a cap (a room restored at start-up, which was already allowed).
    pub fn reserve_always(&self, hold: Hold) -> Hold {
        let mut index = self.index.lock().expect("room index lock");
        *index.holds.entry(hold).or_default() += 1;
        hold
    }

    /// How many rooms of a kind a player holds.
    pub fn held(&self, player: Uuid, kind: HoldKind) -> usize {
        let index = self.index.lock().expect("room index lock");
        index
            .holds
            .get(&Hold { player, kind })
            .copied()
            .unwrap_or(0)
    }

    pub fn insert(&self, handle: RoomHandle, code: Option<String>, hold: Option<Hold>) {
        let mut index = self.index.lock().expect("room index lock");
        if let Some(code) = &code {
            index.codes.insert(code.clone(), handle.id);
        }
        let replaced = index.rooms.insert(
            handle.id,
            Entry {
                handle,
                code,
                live: None,
                hold,
            },
        );
        if replaced.is_some_and(|e| e.live.is_some()) {
            index.live_version += 1;
        }
    }

    /// Gives back a room's claim of this kind: its game started (a waiting room) or ended (a
    /// computer game).
    pub fn release(&self, id: Uuid, kind: HoldKind) {
        let mut index = self.index.lock().expect("room index lock");
        let Some(entry) = index.rooms.get_mut(&id) else {
            return;
        };
        if let Some(hold) = entry.hold.filter(|h| h.kind == kind) {
            entry.hold = None;
            index.release(hold);
        }
    }

    pub fn get(&self, id: Uuid) -> Option<RoomHandle> {
        let index = self.index.lock().expect("room index lock");
        index.rooms.get(&id).map(|e| e.handle.clone())
    }

    pub fn by_code(&self, code: &str) -> Option<RoomHandle> {
        let index = self.index.lock().expect("room index lock");
        let id = index.codes.get(code)?;
        index.rooms.get(id).map(|e| e.handle.clone())
    }

    pub fn code_taken(&self, code: &str) -> bool {
        self.index
            .lock()
            .expect("room index lock")
            .codes
            .contains_key(code)
    }

    /// Marks a room's game as in progress (`Some`) or not (`None`).
    pub fn set_live(&self, id: Uuid, live: Option<LiveGame>) {
        let mut index = self.index.lock().expect("room index lock");
        if let Some(entry) = index.rooms.get_mut(&id) {
            entry.live = live;
            index.live_version += 1;
        }
    }

    pub fn remove(&self, id: Uuid) {
        let mut index = self.index.lock().expect("room index lock");
        if let Some(entry) = index.rooms.remove(&id) {
            if entry.live.is_some() {
                index.live_version += 1;
            }
            if let Some(code) = entry.code {
                index.codes.remove(&code);
            }
            if let Some(hold) = entry.hold {
                index.release(hold);
            }
        }
    }

    /// The games in progress anyone may find: games of rooms with a code (private rooms and
    /// computer games) are watched through their link, not listed.
    pub fn live_games(&self) -> Vec<LiveGame> {
        let index = self.index.lock().expect("room index lock");
        index.live_games()
    }

    /// [`Rooms::live_games`] with the version of that list; `None` if it is still `seen`.
    pub fn live_games_since(&self, seen: Option<u64>) -> Option<(u64, Vec<LiveGame>)> {
        let index = self.index.lock().expect("room index lock");
        if seen == Some(index.live_version) {
            return None;
        }
        Some((index.live_version, index.live_games()))
    }

    /// The ids of every game in progress here (their leases are this node's to renew).
    pub fn live_ids(&self) -> Vec<Uuid> {
        let index = self.index.lock().expect("room index lock");
        index
            .rooms
            .iter()
            .filter(|(_, e)| e.live.is_some())
            .map(|(id, _)| *id)
            .collect()
    }

    /// The rooms this node holds a lease for: games in progress and private rooms waiting for
    /// their guest (either is adopted by another node when this one is gone).
    pub fn leased_ids(&self) -> Vec<Uuid> {
        let index = self.index.lock().expect("room index lock");
        index
            .rooms
            .iter()
            .filter(|(_, e)| {
                e.live.is_some() || e.hold.is_some_and(|h| h.kind == HoldKind::WaitingRoom)
            })
            .map(|(id, _)| *id)
            .collect()
    }

    /// Every room here that has a code, with its code.
    pub fn codes(&self) -> Vec<(String, Uuid)> {
        let index = self.index.lock().expect("room index lock");
        index
            .codes
            .iter()
            .map(|(code, game)| (code.clone(), *game))
            .collect()
    }

    pub fn live_count(&self) -> usize {
        let index = self.index.lock().expect("room index lock");
        index.rooms.values().filter(|e| e.live.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle() -> RoomHandle {
        let (tx, _rx) = tokio::sync::mpsc::channel(1);
        RoomHandle {
            id: Uuid::new_v4(),
            tx,
        }
    }

    #[test]
    fn holds_are_capped_and_given_back_once() {
        let rooms = Rooms::default();
        let player = Uuid::new_v4();
        let hold = Hold {
            player,
            kind: HoldKind::ComputerGame,
        };
        let mut opened = Vec::new();
        for _ in 0..3 {
            let claim = rooms.reserve(hold, 3).expect("under the cap");
            let room = handle();
            rooms.insert(room.clone(), None, Some(claim));
            opened.push(room.id);
        }
        assert_eq!(rooms.reserve(hold, 3), None, "at the cap");
        assert_eq!(rooms.held(player, HoldKind::WaitingRoom), 0, "kinds apart");
        // A game that ends gives its claim back, once; removing its room later changes nothing.
        rooms.release(opened[0], HoldKind::ComputerGame);
        rooms.release(opened[0], HoldKind::ComputerGame);
        assert_eq!(rooms.held(player, HoldKind::ComputerGame), 2);
        rooms.remove(opened[0]);
        assert_eq!(rooms.held(player, HoldKind::ComputerGame), 2);
        // A room removed while it still holds its claim gives it back.
        rooms.remove(opened[1]);
        assert_eq!(rooms.held(player, HoldKind::ComputerGame), 1);
        // Releasing another kind does nothing.
        rooms.release(opened[2], HoldKind::WaitingRoom);
        assert_eq!(rooms.held(player, HoldKind::ComputerGame), 1);
    }
}
