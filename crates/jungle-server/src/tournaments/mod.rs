//! Tournaments (issue 15): arenas anyone can join, private ones among friends, and scheduled
//! ones the operator configures. With several nodes, one node directs each (a lease) and the
//! others forward its frames to it ([`crate::reach`]).
//!
//! - [`arena`]: the arena's pure arithmetic — points and streaks, standings, pairing;
//! - [`table`]: the standings as shown, and what changed between two tables;
//! - [`director`]: one task per tournament being run — joins, pairings, game ends, live
//!   standings; [`registry`]: the directors by tournament, and who plays where;
//! - [`schedule`]: the operator's recurring arenas;
//! - [`api`]: the HTTP API (create, list, show); [`frames`]: frames forwarded by other nodes.

pub mod api;
pub mod director;
pub mod frames;
pub mod game_end;
pub mod registry;
pub mod schedule;

pub use registry::Directors;

/// What the tournaments' handlers take. The server gives it from its own state (`FromRef`); cloning shares.
#[derive(Clone)]
pub struct TournamentsState {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: std::sync::Arc<jungle_limits::Limits>,
    /// The origins a browser may act from.
    pub origins: std::sync::Arc<jungle_web::auth::Origins>,
    /// What a room needs, for the rooms this opens.
    pub room_ctx: std::sync::Arc<jungle_rooms::RoomContext>,
    /// The rooms of this node, by game and code.
    pub rooms: jungle_rooms::Rooms,
    /// The players connected to this node.
    pub online: jungle_rooms::online::Online,
    /// The tournaments directed on this node.
    pub directors: Directors,
}
