//! Correspondence (issue 28): games over days. The clock and the session's rules for them
//! live with the other clocks (`jungle_game::clock`, `jungle_game::session`), and who may
//! start one with the rooms that start them (`jungle_rooms::correspondence`); here are the
//! list of games waiting for a player's move and the vacations that pause their clocks.

pub mod api;
pub mod vacation;

/// What the correspondence handlers take. The server gives it from its own state (`FromRef`); cloning shares.
#[derive(Clone)]
pub struct CorrespondenceState {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: std::sync::Arc<jungle_limits::Limits>,
    /// The origins a browser may act from.
    pub origins: std::sync::Arc<jungle_web::auth::Origins>,
    /// What a room needs, for the rooms this opens.
    pub room_ctx: std::sync::Arc<jungle_rooms::RoomContext>,
}
