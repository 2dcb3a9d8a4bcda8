//! Tournaments (issue 15, begun): [`arena`] holds the arena's pure arithmetic — points and
//! streaks, standings, pairing; [`api`] creates and shows tournaments. The director that joins,
//! pairs and scores players over the WebSocket is still to come.

pub mod api;
pub mod arena;
