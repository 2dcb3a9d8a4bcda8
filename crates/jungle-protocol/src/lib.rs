//! The WebSocket protocol of Jungle Arena, shared by the server, the load generator and the tests,
//! and the HTTP API's answers ([`http`]).
//!
//! Every frame is a JSON object with a type field `"t"` and flat fields; see `docs/protocol.md`.
//!
//! ```
//! use jungle_protocol::{ClientFrame, ServerFrame};
//!
//! let frame: ClientFrame = serde_json::from_str(r#"{"t":"move","game":"6f1c1f0e-3c4d-4e3f-8a7b-1c2d3e4f5a6b","mv":"a3a4"}"#)?;
//! assert!(matches!(frame, ClientFrame::Move { .. }));
//! assert_eq!(serde_json::to_string(&ServerFrame::Pong)?, r#"{"t":"pong"}"#);
//! # Ok::<(), serde_json::Error>(())
//! ```

pub mod bot;
mod clock;
mod frames;
pub mod http;
pub mod learn;
pub mod puzzles;

pub use clock::{ClockSpec, ClockSpecError};
pub use frames::*;
pub use jungle_rules::{Ruleset, Side};
pub use uuid::Uuid;

/// Frames larger than this are refused (the server closes such a socket).
pub const MAX_FRAME_BYTES: usize = 4 * 1024;

#[cfg(test)]
mod tests;
