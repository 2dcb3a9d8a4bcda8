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
