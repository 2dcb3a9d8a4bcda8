//! Correspondence (issue 28): games over days. The clock and the session's rules for them
//! live with the other clocks (`jungle_game::clock`, `jungle_game::session`), and who may
//! start one with the rooms that start them (`jungle_rooms::correspondence`); here are the
//! list of games waiting for a player's move and the vacations that pause their clocks.

pub mod api;
pub mod vacation;
