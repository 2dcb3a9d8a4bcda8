use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::config::Config;
use crate::metrics::Metrics;
use jungle_rooms::lobby::Lobby;
use jungle_rooms::{RoomContext, Rooms};
use jungle_store::Store;

/// Everything a request handler may need, behind one pointer: every connection's task and
/// session hold it, and a copy of the whole (two kilobytes of handles) in each was a third of
/// an idle connection's memory.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }
}

/// Each feature's handlers take their own state, not all of this one.
impl axum::extract::FromRef<AppState> for jungle_puzzles::PuzzlesState {
    fn from_ref(state: &AppState) -> Self {
        state.puzzles.clone()
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] shares. Each field is a handle of its own, cloned where a task needs it.
pub struct Shared {
    /// Rate limits per player and per address, across connections.
    pub limits: Arc<jungle_limits::Limits>,
    /// The database pool: players, archives, ratings (reads; writes of games go through rooms).
    pub store: Store,
    /// The registry of live rooms by game id and code: the one shared index; rooms own the rest.
    pub rooms: Rooms,
    /// The matchmaking task's queue: it alone owns the seek pools.
    pub lobby: Lobby,
    /// What each room needs (the writer, the registry, timings), shared by new rooms.
    pub room_ctx: Arc<RoomContext>,
    /// The origins allowed to open a WebSocket, fixed at start.
    pub origins: Arc<jungle_web::auth::Origins>,
    /// Flips to true on shutdown; connections and rooms watch it.
    pub shutdown: watch::Receiver<bool>,
    /// Renders /metrics.
    pub metrics: Metrics,
    /// Settings read at start; never changed.
    pub config: Arc<Config>,
    /// The base of room links, without a trailing slash.
    pub public_url: Arc<str>,
    /// Connections per address (shared with the accept loop), for WebSockets that arrive
    /// through a trusted proxy and so were not counted when accepted.
    pub per_address: IpLimits,
    /// Password hashing on a bounded set of threads.
    pub hasher: crate::accounts::passwords::Hasher,
    /// Open WebSockets by account session, to close them when it is signed out.
    pub open_sessions: crate::accounts::open_sessions::OpenSessions,
    /// Failed sign-ins per account, for growing waits.
    pub failed_sign_ins: Arc<crate::accounts::throttle::FailedSignIns>,
    /// Signed-in WebSockets by player: who can be challenged, whom a ban disconnects.
    pub online: jungle_rooms::online::Online,
    /// Mails: confirmations, and a correspondence player's turn (off unless configured).
    pub mailer: jungle_mail::Mailer,
    /// What the puzzles' handlers take.
    pub puzzles: jungle_puzzles::PuzzlesState,
    /// The tournaments directed on this node, and who plays in them.
    pub directors: crate::tournaments::Directors,
    /// Direct challenges waiting for an answer.
    pub challenges: jungle_rooms::challenges::Challenges,
    /// Whole-game analyses running, one per player and per game.
    pub game_analyses: crate::game_analysis::Running,
    /// Where is it: the rooms, matchmaking and players on this node or another.
    pub reach: crate::reach::Reach,
    /// The Bot and Board APIs' open streams, per token.
    pub bot_streams: crate::bot_api::streams::OpenStreams,
    /// The Bot and Board APIs' actions under way, per token (one at a time).
    pub bot_actions: crate::bot_api::streams::ActionsUnderWay,
    /// The Bot and Board APIs' event streams, one per token.
    pub event_streams: crate::bot_api::event_stream::EventStreams,
}

/// Counts open connections per address.
#[derive(Clone)]
pub struct IpLimits {
    max: usize,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One connection's place in the count, given back on drop.
pub struct IpSlot {
    ip: IpAddr,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl IpLimits {
    pub fn new(max: usize) -> IpLimits {
        IpLimits {
            max,
            counts: Arc::default(),
        }
    }

    /// A place for a connection from `ip` (IPv6 counted by /64, like the rate limits).
    pub fn acquire(&self, ip: IpAddr) -> Option<IpSlot> {
        let ip = jungle_limits::address_key(ip);
        let mut counts = self.counts.lock().expect("ip limit lock");
        let count = counts.entry(ip).or_default();
        if *count >= self.max {
            metrics::counter!("jungle_connections_refused_total").increment(1);
            return None;
        }
        *count += 1;
        Some(IpSlot {
            ip,
            counts: self.counts.clone(),
        })
    }
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().expect("ip limit lock");
        if let Some(count) = counts.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}
