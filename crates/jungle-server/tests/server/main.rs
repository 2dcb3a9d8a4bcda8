//! The server's black-box tests: a real server on 127.0.0.1:0 (or a node's process) with
//! either store, reached only through `jungle-protocol` over WebSocket and HTTP. One test
//! binary, one module per feature: each file of its own was a binary of its own, and a change
//! anywhere in the server relinked all 27 of them (matklad's "Delete Cargo Integration Tests").

#[macro_use]
mod common;

mod abuse;
mod accounts;
mod assessment;
mod bad_input;
mod blocks;
mod bot_api;
mod chat;
mod cluster;
mod computer;
mod correspondence;
mod docs;
mod durability;
mod failover;
mod fair_play;
mod faults;
mod learn;
mod loops;
mod moderation;
mod play;
mod private;
mod protocol_errors;
mod push;
mod puzzle_streak;
mod puzzles;
mod review;
mod self_hosting;
mod sign_in;
mod takeback;
mod timing;
mod tournaments;
mod walls;
