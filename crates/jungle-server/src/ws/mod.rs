//! The WebSocket endpoint, in three layers:
//! - [`transport`]: the socket itself: origin and per-address checks, size limits, the flood
//!   limit, pings and lag, and the closing handshake;
//! - [`session`]: one signed-in connection: sign-in, parsing, dispatch, and the rooms it follows;
//! - [`handlers`]: one function per client frame; [`analysis`]: the `analyse` frame;
//!   [`tournaments`]: the tournament frames.
//!
//! Errors are one typed enum, [`crate::ws::frame_error::FrameError`], mapped to a wire code in one
//! place (the services that answer frames from other nodes use it too).

pub mod analysis;
pub mod frame_error;
mod handlers;
mod session;
mod tournaments;
mod transport;

pub use frame_error::FrameError;
pub use handlers::MAX_FOLLOWED;
pub use transport::upgrade;

/// What a WebSocket connection takes: one pointer, since every connection's task holds it for
/// its whole life (the services inline would be a few hundred bytes a connection, more where
/// the task's future keeps copies). The server builds it once and gives it by `FromRef`.
#[derive(Clone)]
pub struct WsState(std::sync::Arc<WsServices>);

impl WsState {
    pub fn new(services: WsServices) -> WsState {
        WsState(std::sync::Arc::new(services))
    }
}

impl std::ops::Deref for WsState {
    type Target = WsServices;

    fn deref(&self) -> &WsServices {
        &self.0
    }
}

/// The services a WebSocket connection reaches.
pub struct WsServices {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: std::sync::Arc<jungle_limits::Limits>,
    /// The origins a browser may act from.
    pub origins: std::sync::Arc<jungle_web::auth::Origins>,
    /// The base of links, without a trailing slash.
    pub public_url: std::sync::Arc<str>,
    /// Settings read at start.
    pub config: std::sync::Arc<crate::config::Config>,
    /// Flips to true on shutdown.
    pub shutdown: tokio::sync::watch::Receiver<bool>,
    /// Connections per address.
    pub per_address: crate::ip_limits::IpLimits,
    /// What a room needs, for the rooms this opens.
    pub room_ctx: std::sync::Arc<jungle_rooms::RoomContext>,
    /// The players connected to this node.
    pub online: jungle_rooms::online::Online,
    /// Where a game, a room or a seek is, on this node or another.
    pub reach: jungle_cluster::reach::Reach,
    /// Direct challenges waiting for an answer.
    pub challenges: jungle_rooms::challenges::Challenges,
    /// The tournaments directed on this node.
    pub directors: jungle_tournaments::Directors,
    /// Open WebSockets by account session.
    pub open_sessions: jungle_accounts::open_sessions::OpenSessions,
    /// Whole-game analyses running.
    pub game_analyses: crate::game_analysis::Running,
}
