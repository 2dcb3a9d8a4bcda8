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

/// The other nodes' positions, when there are other nodes.
pub type Peers = crate::cluster::positions::Peers;

/// The check in front of the engine. Cloning shares.
#[derive(Clone)]
pub struct FairPlay {
    positions: LivePositions,
    store: Store,
    peers: Option<Peers>,
}

impl FairPlay {
    pub fn new(positions: LivePositions, store: Store, peers: Option<Peers>) -> FairPlay {
        FairPlay {
            positions,
            store,
            peers,
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

    /// For each key, whether it stands in a game in play among `among`, here or elsewhere.
    pub async fn live(&self, keys: &[u64], among: Among) -> Result<Vec<bool>, EngineClosed> {
        let mut live: Vec<bool> = keys
            .iter()
            .map(|key| self.positions.holds_any(std::slice::from_ref(key), among))
            .collect();
        if let Some(peers) = &self.peers {
            if live.iter().any(|l| !l) {
                let remote = peers.live(keys, among).await?;
                for (here, there) in live.iter_mut().zip(remote) {
                    *here |= there;
                }
            }
        }
        Ok(live)
    }

    /// Whether the engine may tell `asker` about `positions`: not while they play, and not
    /// about a position of a game in progress.
    pub async fn may_show<'a>(
        &self,
        asker: Uuid,
        positions: impl IntoIterator<Item = &'a Position>,
    ) -> Result<(), EngineClosed> {
        self.not_playing(asker).await?;
        let keys: Vec<u64> = positions.into_iter().filter_map(positions::key).collect();
        if keys.is_empty() {
            return Ok(());
        }
        if self.live(&keys, Among::AllGames).await?.contains(&true) {
            return Err(EngineClosed::LivePosition);
        }
        Ok(())
    }

    /// How much of the engine's line `pv` from `game` may be shown: it stops with the first
    /// move that leads into a position of a game in progress (nothing is said about what to
    /// play there).
    pub async fn visible_line(&self, game: &Game, pv: &[Move]) -> Result<usize, EngineClosed> {
        let mut position = *game.position();
        let mut keys = Vec::with_capacity(pv.len());
        for &m in pv {
            position.play_unchecked(m);
            keys.push(positions::key(&position));
        }
        let asked: Vec<u64> = keys.iter().flatten().copied().collect();
        let live = self.live(&asked, Among::AllGames).await?;
        let mut live = live.into_iter();
        for (index, key) in keys.iter().enumerate() {
            if key.is_some() && live.next() == Some(true) {
                return Ok(index + 1);
            }
        }
        Ok(pv.len())
    }

    /// Whether `position` stands in a game between people (here or elsewhere): the computer
    /// then plays as a beginner, so that a game against it is no oracle for theirs. Unsure
    /// counts as yes.
    pub async fn in_peoples_game(&self, position: &Position) -> bool {
        let Some(key) = positions::key(position) else {
            return false;
        };
        match self.live(&[key], Among::PeoplesGames).await {
            Ok(live) => live.contains(&true),
            Err(_) => true,
        }
    }
}
