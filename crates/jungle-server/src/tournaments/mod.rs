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
