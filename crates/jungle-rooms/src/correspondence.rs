//! Who may start a game over days (issue 28): accounts, at most
//! [`WaitingGames::MAX_IN_PROGRESS`] in progress. [`may_start`] is the early answer (offering a
//! seek, opening a room); [`claim_start`] is the one that holds, asked by every way a game
//! starts (a room's join or rematch, a seek taken, a challenge accepted) with the game's id:
//! the store counts and claims in one step, so starts at once cannot pass the cap (issue 49).

use jungle_protocol::http::WaitingGames;
use jungle_protocol::{ClockSpec, ErrorCode};
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

impl StartRefusal {
    /// The wire code a client hears this refusal as.
    pub fn code(&self) -> ErrorCode {
        match self {
            StartRefusal::NeedsAccount => ErrorCode::AccountRequired,
            StartRefusal::TooMany => ErrorCode::LimitReached,
            StartRefusal::Store(_) => ErrorCode::Internal,
        }
    }
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

/// Claims a place under the cap for each of `players` in `game`, which starts next with
/// `clock`: all of them or none. Nothing to claim for a real-time game.
pub async fn claim_start(
    store: &Store,
    game: Uuid,
    players: &[Uuid],
    clock: ClockSpec,
) -> Result<(), StartRefusal> {
    if !clock.is_correspondence() {
        return Ok(());
    }
    let failed = |e: StoreError| {
        tracing::error!(error = %e, "claiming a correspondence game's places");
        StartRefusal::Store(e)
    };
    for &player in players {
        if !store.has_account(player).await.map_err(failed)? {
            return Err(StartRefusal::NeedsAccount);
        }
    }
    let cap = i64::from(WaitingGames::MAX_IN_PROGRESS);
    match store
        .claim_correspondence_start(game, players, cap, jungle_store::now_ms())
        .await
        .map_err(failed)?
    {
        None => Ok(()),
        Some(_full) => Err(StartRefusal::TooMany),
    }
}
