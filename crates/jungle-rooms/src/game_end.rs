//! The port through which a room tells the rest of the server that its game ended: the room
//! knows no tournament, assessor or mailer, only listeners given to it at assembly
//! (`lib.rs`), each of which decides what the end means for its own domain.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use jungle_game::ended::GameEnded;

/// What a listener returns: done once the news is handed over (queued, not acted on).
pub type Heard<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// Hears every game's end on this node, after the end is durable, once.
pub trait GameEndListener: Send + Sync + 'static {
    /// Hands the news over; it must not wait on anything slow (the room waits for it).
    fn game_ended<'a>(&'a self, ended: &'a GameEnded) -> Heard<'a>;
}

/// The listeners, in the order they hear each end.
pub type GameEndListeners = Arc<[Arc<dyn GameEndListener>]>;
