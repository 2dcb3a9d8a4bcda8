//! The WebSocket endpoint, in three layers:
//! - [`transport`]: the socket itself: origin and per-address checks, size limits, the flood
//!   limit, pings and lag, and the closing handshake;
//! - [`session`]: one signed-in connection: sign-in, parsing, dispatch, and the rooms it follows;
//! - [`handlers`]: one function per client frame; [`analysis`]: the `analyse` frame;
//!   [`tournaments`]: the tournament frames.
//!
//! Errors are one typed enum, [`FrameError`], mapped to a wire code in one place.

pub mod analysis;
mod error;
mod handlers;
mod session;
mod tournaments;
mod transport;

pub use error::FrameError;
pub use handlers::challenge_frame;
pub use tournaments::tournament_frame;
pub use transport::upgrade;
