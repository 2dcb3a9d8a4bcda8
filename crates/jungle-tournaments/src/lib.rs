//! Tournaments (issue 15): arenas anyone can join, private ones among friends, and scheduled
//! ones the operator configures. With several nodes, one node directs each (a lease, taken
//! through `jungle_rooms::reach::Claims`) and the others forward its frames to it (the server's
//! `reach`). The arena's pure arithmetic (points, streaks, pairing) and the standings as shown
//! are `jungle-game`'s `arena` and `table`.
//!
//! - [`director`]: one task per tournament being run — joins, pairings, game ends, live
//!   standings; [`registry`]: the directors by tournament, and who plays where;
//! - [`schedule`]: the operator's recurring arenas;
//! - [`scoring`]: a game's points, in the transaction that ends it (a part of the store's
//!   `GameEnd`);
//! - [`api`]: the HTTP API (create, list, show; [`routes`]); [`frames`]: frames forwarded by
//!   other nodes; [`game_end`]: a game's end, heard by the directors.

pub mod api;
pub mod director;
pub mod frames;
pub mod game_end;
pub mod registry;
pub mod schedule;
pub mod scoring;

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

/// The tournaments' routes, for a router whose state gives a [`TournamentsState`].
pub fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    TournamentsState: axum::extract::FromRef<S>,
{
    use axum::routing::get;
    axum::Router::new()
        .route("/api/tournaments", get(api::list).post(api::create))
        .route("/api/tournaments/{id}", get(api::one))
}
