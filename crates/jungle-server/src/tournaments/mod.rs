//! Tournaments (issue 15, begun): [`arena`] holds the arena's pure arithmetic — points and
//! streaks, standings, pairing. The director task, storage and protocol are still to come.

pub mod arena;
