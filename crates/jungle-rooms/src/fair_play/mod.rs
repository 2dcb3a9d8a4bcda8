//! Fair play: our engine is never the easy oracle for a game in progress (the threat model is
//! in docs/security.md: open engines exist, so what the server adds is that it does not help,
//! and the assessment that detects).
//!
//! - [`positions`]: every position of every game in play, by a key that a pasted, transposed,
//!   mirrored or colour-swapped board shares: one lookup per question.
//! - [`FairPlay`]: the one check every way of asking the engine goes through (the `analyse`
//!   frame, whole-game analysis, a computer game from a set-up position, the computer's own
//!   moves, puzzles, and whatever is added later). A player who plays a game in one sitting
//!   against anyone but our computer gets no engine at all until it ends (lichess's rule: no
//!   engine on any board while playing); anyone else, a player of games over days included,
//!   gets nothing about a position that stands in a game in progress, on this node or
//!   another, and everything else.

pub mod assessor;
pub mod engine_marks;
mod other_nodes;
pub mod positions;

use jungle_rules::{Game, Move, Position};
use uuid::Uuid;

pub use other_nodes::{OtherNodes, PositionsElsewhere};
pub use positions::{Among, GamePositions, LivePositions, Seats, Standing};

use jungle_store::Store;

/// Why the engine says nothing. One wire code, `analysis_unavailable`, for all three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineClosed {
    #[error(
        "our engine is closed to you while you play a game in one sitting: it opens again when the game ends"
    )]
    Playing,
    #[error(
        "this position stands in a game in progress: the engine shows it once that game is over"
    )]
    LivePosition,
    #[error("the games in progress cannot all be checked just now (a server is changing hands); try again in a few seconds")]
    Unsure,
}

/// Boards analysed for a player kept for the assessment, the latest first.
pub const ANALYSED_BOARDS_KEPT: i64 = 500;
/// At most this many boards of one question are noted (a whole game's analysis: spread over
/// the game).
const NOTED_AT_ONCE: usize = 100;

/// The check in front of the engine. Cloning shares.
#[derive(Clone)]
pub struct FairPlay {
    positions: LivePositions,
    store: Store,
    others: OtherNodes,
}

/// Who asks the engine.
#[derive(Clone, Copy, Debug)]
pub struct Asker {
    pub player: Uuid,
    pub addr: std::net::IpAddr,
}

impl Asker {
    pub fn of(conn: &crate::Connection) -> Asker {
        Asker {
            player: conn.player.id,
            addr: conn.addr,
        }
    }
}

impl FairPlay {
    pub fn new(positions: LivePositions, store: Store, others: OtherNodes) -> FairPlay {
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

    /// Refuses a player who is seated in a game in one sitting in progress against anyone but
    /// our computer (on any node: the database knows every game's players). Games over days
    /// close only their own positions: a player who has one for weeks keeps the analysis
    /// board for everything else.
    pub async fn not_playing(&self, player: Uuid) -> Result<(), EngineClosed> {
        match self.store.plays_in_one_sitting(player).await {
            Ok(false) => Ok(()),
            Ok(true) => Err(EngineClosed::Playing),
            Err(e) => {
                tracing::error!(error = %e, "fair play: a player's games in progress");
                Err(EngineClosed::Unsure)
            }
        }
    }

    /// How each position stands to the games in play among `among`, here and on the other
    /// nodes (the closest of the answers).
    pub async fn standings(
        &self,
        positions: &[Position],
        among: Among,
    ) -> Result<Vec<Standing>, EngineClosed> {
        let mut standings: Vec<Standing> = positions
            .iter()
            .map(|p| self.positions.standing(p, among))
            .collect();
        if standings.iter().any(|s| *s != Standing::Closed) {
            let elsewhere = self.others.standings(positions, among).await?;
            for (here, there) in standings.iter_mut().zip(elsewhere) {
                *here = (*here).max(there);
            }
        }
        Ok(standings)
    }

    /// For each position, whether the engine must say nothing about it: it stands in a game
    /// in play among `among`, here or on another node.
    pub async fn closed(
        &self,
        positions: &[Position],
        among: Among,
    ) -> Result<Vec<bool>, EngineClosed> {
        let standings = self.standings(positions, among).await?;
        Ok(standings.iter().map(|s| *s == Standing::Closed).collect())
    }

    /// Whether the engine may tell `asker` about `positions` now: not while they play a game
    /// in one sitting, not about a position of a game in progress.
    pub async fn may_show<'a>(
        &self,
        asker: Asker,
        positions: impl IntoIterator<Item = &'a Position>,
    ) -> Result<(), EngineClosed> {
        self.may_show_among(asker, positions, Among::AllGames).await
    }

    /// Whether `asker` may start a game against our computer from `start`: not while they
    /// play, not where a game between people stands now. It is the test the computer's own
    /// moves pass one by one
    /// ([`FairPlay::computer_may_answer`]): a position that only games against the computer
    /// stand in (a lesson's practice, which many learners play at once), or that a game
    /// between people has left behind, tells nobody anything about a game in progress.
    pub async fn may_start_computer_game(
        &self,
        asker: Asker,
        start: &Position,
    ) -> Result<(), EngineClosed> {
        self.may_show_among(asker, [start], Among::PeoplesGamesNow)
            .await
    }

    async fn may_show_among<'a>(
        &self,
        asker: Asker,
        positions: impl IntoIterator<Item = &'a Position>,
        among: Among,
    ) -> Result<(), EngineClosed> {
        let positions: Vec<Position> = positions.into_iter().copied().collect();
        match self.standing_for(asker.player, &positions, among).await? {
            Standing::Open => {
                self.note_analysed(asker.player, &positions).await;
                Ok(())
            }
            Standing::Closed => Err(EngineClosed::LivePosition),
        }
    }

    /// [`FairPlay::may_show`] asked again about a question already let through (an answer
    /// ready after the games moved on).
    pub async fn still_may_show<'a>(
        &self,
        asker: Uuid,
        positions: impl IntoIterator<Item = &'a Position>,
    ) -> Result<(), EngineClosed> {
        match self.standing_for(asker, positions, Among::AllGames).await? {
            Standing::Closed => Err(EngineClosed::LivePosition),
            Standing::Open => Ok(()),
        }
    }

    /// The closest standing of `positions` among `among` for `asker`, who must not be playing.
    async fn standing_for<'a>(
        &self,
        asker: Uuid,
        positions: impl IntoIterator<Item = &'a Position>,
        among: Among,
    ) -> Result<Standing, EngineClosed> {
        self.not_playing(asker).await?;
        let positions: Vec<Position> = positions.into_iter().copied().collect();
        if positions.is_empty() {
            return Ok(Standing::Open);
        }
        let standings = self.standings(&positions, among).await?;
        Ok(standings.into_iter().max().unwrap_or(Standing::Open))
    }

    /// Notes the boards the engine is about to tell `player` about, when a game over days of
    /// theirs is in progress (a player in a game in one sitting is told nothing): once that
    /// game ends, the assessment counts those that resemble its positions. What an engine
    /// answers about boards near a live one is the one trace left of recovering its move
    /// from them. A failure to note is logged, and the answer still goes.
    pub async fn note_analysed(&self, player: Uuid, positions: &[Position]) {
        match self.store.correspondence_in_progress(player).await {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(error = %e, "fair play: a player's games over days");
                return;
            }
        }
        let every = positions.len().div_ceil(NOTED_AT_ONCE).max(1);
        for position in positions.iter().step_by(every) {
            let board = position.to_string();
            let noted = self
                .store
                .record_analysed_board(player, &board, ANALYSED_BOARDS_KEPT)
                .await;
            if let Err(e) = noted {
                tracing::warn!(error = %e, "fair play: noting an analysed board");
                return;
            }
        }
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

    /// Whether the computer may search `position` in its game: not where a game between
    /// people stands now. Unsure counts as no.
    pub async fn computer_may_answer(&self, position: &Position) -> bool {
        matches!(
            self.standings(&[*position], Among::PeoplesGamesNow).await,
            Ok(standings) if standings[0] == Standing::Open
        )
    }

    /// Whether `position` is where a game between people stands now (here or elsewhere): the
    /// computer then plays at random, so that a game against it is no oracle for theirs.
    /// Unsure counts as yes.
    pub async fn in_peoples_game(&self, position: &Position) -> bool {
        match self.closed(&[*position], Among::PeoplesGamesNow).await {
            Ok(closed) => closed.contains(&true),
            Err(_) => true,
        }
    }
}
