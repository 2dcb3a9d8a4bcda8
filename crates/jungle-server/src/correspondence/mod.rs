//! Correspondence (issue 28): games over days. The clock and the session's rules for them
//! live with the other clocks (`rooms::clock`, `rooms::session`); here is what belongs to
//! correspondence alone: who may start one (accounts, at most
//! [`WaitingGames::MAX_IN_PROGRESS`] in progress) and the list of games waiting for a
//! player's move.

pub mod api;
pub mod vacation;

use jungle_protocol::http::WaitingGames;
use jungle_protocol::ClockSpec;
use uuid::Uuid;

use jungle_store::{Store, StoreError};

/// Why a player may not start another correspondence game.
#[derive(Debug, thiserror::Error)]
pub enum StartRefusal {
    #[error("games over days are for accounts: keep this player with a username and a password (your games stay), or play in one sitting")]
    NeedsAccount,
    #[error(
        "at most {} correspondence games at once: finish one first",
        WaitingGames::MAX_IN_PROGRESS
    )]
    TooMany,
    /// Logged where it happens; the client hears only that it failed.
    #[error("something went wrong on our side; try again shortly")]
    Store(StoreError),
}

/// Whether `player` may sit down to a game with `clock`: any real-time game, and a
/// correspondence one for an account under the cap.
pub async fn may_start(store: &Store, player: Uuid, clock: ClockSpec) -> Result<(), StartRefusal> {
    if !clock.is_correspondence() {
        return Ok(());
    }
    let failed = |e: StoreError| {
        tracing::error!(error = %e, "may a player start a correspondence game");
        StartRefusal::Store(e)
    };
    if !store.has_account(player).await.map_err(failed)? {
        return Err(StartRefusal::NeedsAccount);
    }
    let in_progress = store
        .correspondence_in_progress(player)
        .await
        .map_err(failed)?;
    if in_progress >= i64::from(WaitingGames::MAX_IN_PROGRESS) {
        return Err(StartRefusal::TooMany);
    }
    Ok(())
}
