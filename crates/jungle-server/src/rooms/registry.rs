use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub use jungle_protocol::http::LiveGame;
use uuid::Uuid;

use super::RoomHandle;

#[derive(Default)]
struct Index {
    rooms: HashMap<Uuid, Entry>,
    /// Private room codes to game ids.
    codes: HashMap<String, Uuid>,
}

struct Entry {
    handle: RoomHandle,
    code: Option<String>,
    live: Option<LiveGame>,
}

/// Finds rooms by id or code. One lock over one index; rooms add and remove themselves.
#[derive(Clone, Default)]
pub struct Rooms {
    index: Arc<Mutex<Index>>,
}

impl Rooms {
    pub fn insert(&self, handle: RoomHandle, code: Option<String>) {
        let mut index = self.index.lock().expect("room index lock");
        if let Some(code) = &code {
            index.codes.insert(code.clone(), handle.id);
        }
        index.rooms.insert(
            handle.id,
            Entry {
                handle,
                code,
                live: None,
            },
        );
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
        }
    }

    pub fn remove(&self, id: Uuid) {
        let mut index = self.index.lock().expect("room index lock");
        if let Some(entry) = index.rooms.remove(&id) {
            if let Some(code) = entry.code {
                index.codes.remove(&code);
            }
        }
    }

    /// The games in progress anyone may find: games of rooms with a code (private rooms and
    /// computer games) are watched through their link, not listed.
    pub fn live_games(&self) -> Vec<LiveGame> {
        let index = self.index.lock().expect("room index lock");
        index
            .rooms
            .values()
            .filter(|e| e.code.is_none())
            .filter_map(|e| e.live.clone())
            .collect()
    }

    pub fn live_count(&self) -> usize {
        let index = self.index.lock().expect("room index lock");
        index.rooms.values().filter(|e| e.live.is_some()).count()
    }
}
