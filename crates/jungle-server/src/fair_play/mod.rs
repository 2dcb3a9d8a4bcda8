//! Fair play: our engine never helps anyone with a game in progress.
//!
//! - [`positions`]: every position of every game in play, by a key that a pasted, transposed,
//!   mirrored or colour-swapped board shares.
//! - [`FairPlay`]: the one check every way of asking the engine goes through (the `analyse`
//!   frame, whole-game analysis, a computer game from a set-up position, the computer's own
//!   moves, and whatever is added later). A player who plays a game against anyone but our
//!   computer gets no engine at all until it ends (lichess's rule: no engine on any board
//!   while playing); anyone else gets nothing about a position that stands in a game in
//!   progress, on this node or another.

pub mod assessment;
pub mod assessor;
pub mod positions;

use jungle_rules::{Game, Move, Position};
use uuid::Uuid;

pub use positions::{Among, GamePositions, LivePositions, Seats};

use crate::store::Store;

/// Why the engine says nothing. One wire code, `analysis_unavailable`, for all three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineClosed {
    #[error(
        "our engine is closed to you while you play a game: it opens again when the game ends"
    )]
    Playing,
    #[error(
        "this position stands in a game in progress: the engine shows it once that game is over"
    )]
    LivePosition,
    #[error("the games in progress cannot all be checked just now (a server is changing hands); try again in a few seconds")]
    Unsure,
}

/// The check in front of the engine. Cloning shares.
#[derive(Clone)]
pub struct FairPlay {
    positions: LivePositions,
    store: Store,
    others: crate::reach::OtherNodes,
}

impl FairPlay {
    pub fn new(
        positions: LivePositions,
        store: Store,
        others: crate::reach::OtherNodes,
    ) -> FairPlay {
        FairPlay {
            positions,
            store,
            others,
        }
    }

    /// This node's registry, which its rooms fill.
    pub fn positions(&self) -> &LivePositions {
        &self.positions
    }

    /// Refuses a player who is seated in a game in progress against anyone but our computer
    /// (on any node: the database knows every game's players).
    pub async fn not_playing(&self, player: Uuid) -> Result<(), EngineClosed> {
        match self.store.plays_someone(player).await {
            Ok(false) => Ok(()),
            Ok(true) => Err(EngineClosed::Playing),
            Err(e) => {
                tracing::error!(error = %e, "fair play: a player's games in progress");
                Err(EngineClosed::Unsure)
            }
        }
    }

    /// For each position, whether the engine must say nothing about it: it stands in a game
    /// in play among `among`, or near where a game between people stands now (see
    /// [`positions::NEAR`]), here or on another node.
    pub async fn closed(
        &self,
        positions: &[Position],
        among: Among,
    ) -> Result<Vec<bool>, EngineClosed> {
        let mut closed: Vec<bool> = positions
            .iter()
            .map(|p| self.positions.closes(p, among))
            .collect();
        if closed.iter().any(|c| !c) {
            let elsewhere = self.others.closed(positions, among).await?;
            for (here, there) in closed.iter_mut().zip(elsewhere) {
                *here |= there;
            }
        }
        Ok(closed)
    }

    /// Whether the engine may tell `asker` about `positions`: not while they play, and not
    /// about a position of a game in progress or near one.
    pub async fn may_show<'a>(
        &self,
        asker: Uuid,
        positions: impl IntoIterator<Item = &'a Position>,
    ) -> Result<(), EngineClosed> {
        self.not_playing(asker).await?;
        let positions: Vec<Position> = positions.into_iter().copied().collect();
        if positions.is_empty() {
            return Ok(());
        }
        if self
            .closed(&positions, Among::AllGames)
            .await?
            .contains(&true)
        {
            return Err(EngineClosed::LivePosition);
        }
        Ok(())
    }

    /// How much of the engine's line `pv` from `game` may be shown: it stops with the first
    /// move that leads into a position the engine must not speak of (nothing is said about
    /// what to play there).
    pub async fn visible_line(&self, game: &Game, pv: &[Move]) -> Result<usize, EngineClosed> {
        let mut position = *game.position();
        let mut reached = Vec::with_capacity(pv.len());
        for &m in pv {
            position.play_unchecked(m);
            reached.push(position);
        }
        let closed = self.closed(&reached, Among::AllGames).await?;
        Ok(closed
            .iter()
            .position(|&c| c)
            .map_or(pv.len(), |index| index + 1))
    }

    /// Whether `position` stands in a game between people, or near one (here or elsewhere):
    /// the computer then plays at random, so that a game against it is no oracle for theirs.
    /// Unsure counts as yes.
    pub async fn in_peoples_game(&self, position: &Position) -> bool {
        match self.closed(&[*position], Among::PeoplesGames).await {
            Ok(closed) => closed.contains(&true),
            Err(_) => true,
        }
    }
}
