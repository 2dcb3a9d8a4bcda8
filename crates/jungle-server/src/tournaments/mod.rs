//! Tournaments (issue 15): arenas anyone can join, private ones among friends, and scheduled
//! ones the operator configures. With several nodes, one node directs each (a lease) and the
//! others forward its frames (`cluster::bus`).
//!
//! - [`arena`]: the arena's pure arithmetic — points and streaks, standings, pairing;
//! - [`table`]: the standings as shown, and what changed between two tables;
//! - [`director`]: one task per tournament being run — joins, pairings, game ends, live
//!   standings; [`registry`]: the directors by tournament, and who plays where;
//! - [`schedule`]: the operator's recurring arenas;
//! - [`api`]: the HTTP API (create, list, show).

pub mod api;
pub mod arena;
pub mod director;
pub mod registry;
pub mod schedule;
pub mod table;

pub use registry::Directors;
