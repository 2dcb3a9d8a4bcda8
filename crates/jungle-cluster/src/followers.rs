//! The connections of this node that another node may send to (they follow a game it runs,
//! seek at its matcher, or wait for a challenge it holds), by id: where the inbox delivers. A
//! connection can be here for several reasons at once (two games elsewhere, and a seek): each
//! `add` is matched by one `remove`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use jungle_rooms::Connection;

/// Cloning shares.
#[derive(Clone, Default)]
pub struct Followers {
    by_id: Arc<Mutex<HashMap<u64, (Connection, usize)>>>,
}

impl Followers {
    pub fn add(&self, conn: &Connection) {
        let mut by_id = self.by_id.lock().expect("followers lock");
        by_id.entry(conn.id).or_insert_with(|| (conn.clone(), 0)).1 += 1;
        metrics::gauge!("jungle_bus_followers").set(by_id.len() as f64);
    }

    pub fn remove(&self, conn: u64) {
        let mut by_id = self.by_id.lock().expect("followers lock");
        if let Some((_, reasons)) = by_id.get_mut(&conn) {
            *reasons -= 1;
            if *reasons == 0 {
                by_id.remove(&conn);
            }
        }
        metrics::gauge!("jungle_bus_followers").set(by_id.len() as f64);
    }

    /// Forgets a connection that closed, whatever it was here for.
    pub fn gone(&self, conn: u64) {
        let mut by_id = self.by_id.lock().expect("followers lock");
        by_id.remove(&conn);
        metrics::gauge!("jungle_bus_followers").set(by_id.len() as f64);
    }

    pub fn get(&self, conn: u64) -> Option<Connection> {
        self.by_id
            .lock()
            .expect("followers lock")
            .get(&conn)
            .map(|(conn, _)| conn.clone())
    }
}
