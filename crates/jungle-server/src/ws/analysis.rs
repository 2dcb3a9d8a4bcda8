//! The `analyse` frame: our engine's view of a position, on the engine pool behind every live
//! game's move. A connection has at most one analysis waiting; a new request replaces it.

use std::time::Duration;

use jungle_engine::{Level, Persona};
use jungle_protocol::{Ruleset, ServerFrame};
use jungle_rules::{Game, Position};

use super::session::{Reply, Session};
use crate::ws::frame_error::FrameError;
use jungle_limits::Limited;
use jungle_rooms::engine_pool::{Priority, SearchRequest};
use jungle_rooms::{frame_text, Connection, Outbound};

/// The most an analysis thinks: about a second of one core (less when the pool is busy).
pub const ANALYSIS_BUDGET: Duration = Duration::from_millis(1000);

/// A position from its text and moves, with the first fault named.
pub fn position_after(
    rules: Ruleset,
    position: Option<&str>,
    moves: &[String],
) -> Result<Game, FrameError> {
    let start: Position = match position {
        Some(text) => text
            .parse()
            .map_err(|e| FrameError::BadPosition(format!("position: {e}")))?,
        None => Position::default(),
    };
    jungle_game::replay::play_texts(rules, start, moves.iter().map(String::as_str))
        .map_err(|stopped| FrameError::BadPosition(stopped.to_string()))
}

impl Session {
    /// `analyse`: refused while the asker plays a game, or when the position stands in a game
    /// in progress; the engine's line is cut where it would enter one.
    pub(super) async fn analyse(
        &mut self,
        conn: &Connection,
        rules: Ruleset,
        position: Option<String>,
        moves: Vec<String>,
    ) -> Reply {
        self.limit(Limited::Analysis, conn)?;
        let game = position_after(rules, position.as_deref(), &moves)?;
        let fen = game.position().to_string();
        if game.outcome().is_some() {
            return Ok(Some(frame_text(&ServerFrame::Analysis {
                position: fen,
                best: None,
                score: None,
                pv: Vec::new(),
                depth: 0,
            })));
        }
        let fair_play = self.state.room_ctx.fair_play.clone();
        fair_play
            .may_show(jungle_rooms::fair_play::Asker::of(conn), [game.position()])
            .await?;
        let request = SearchRequest {
            owner: conn.player.id,
            priority: Priority::Analysis,
            // Analyses run at full strength; the persona only fills the request.
            persona: Persona::new(Level::MAX, 1),
            game: game.clone(),
            budget: ANALYSIS_BUDGET,
        };
        let (ticket, answer) = self.state.room_ctx.engines.submit(request);
        // The one waiting before is dropped, which takes it off the queue or stops it.
        self.analysis = Some(ticket);
        let tx = conn.tx.clone();
        let asker = conn.player.id;
        tokio::spawn(async move {
            let Ok(answer) = answer.await else { return };
            let Some(analysis) = answer.analysis else {
                return;
            };
            // Games move on while the engine thinks: asked again at the answer.
            let shown = match fair_play.still_may_show(asker, [game.position()]).await {
                Ok(()) => fair_play.visible_line(&game, &analysis.pv).await,
                Err(closed) => Err(closed),
            };
            let text = match shown {
                Ok(shown) => frame_text(&ServerFrame::Analysis {
                    position: fen,
                    best: Some(analysis.best.to_string()),
                    score: Some(jungle_rooms::engine_pool::wire_score(analysis.score)),
                    pv: analysis.pv[..shown]
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
                    depth: analysis.depth,
                }),
                Err(closed) => FrameError::from(closed).to_frame(),
            };
            let _ = tx.try_send(Outbound::text(text));
        });
        Ok(None)
    }

    /// `analyse_game`: the stored evaluation of a finished game, or a new one started; not
    /// while the asker plays, and without the positions that stand in a game in progress.
    pub(super) async fn analyse_game(&mut self, conn: &Connection, game: uuid::Uuid) -> Reply {
        let store = &self.state.store;
        let fair_play = &self.state.room_ctx.fair_play;
        fair_play.not_playing(conn.player.id).await?;
        if let Some(frame) =
            crate::game_analysis::stored(store, fair_play, game, conn.player.id).await?
        {
            return Ok(Some(frame_text(&frame)));
        }
        let record = store
            .game(game)
            .await?
            .ok_or(FrameError::UnknownGame(game))?;
        if record.private_in_play() {
            // A stranger may not even learn it exists; its players are closed above.
            return Err(FrameError::UnknownGame(game));
        }
        if record.status == jungle_protocol::GameStatus::Active
            || record.status == jungle_protocol::GameStatus::Waiting
        {
            return Err(FrameError::GameInPlay(game));
        }
        self.limit(Limited::GameAnalysis, conn)?;
        let claim = self
            .state
            .game_analyses
            .claim(conn.player.id, game)
            .ok_or(FrameError::AnalysisRunning)?;
        crate::game_analysis::start(
            self.state.room_ctx.engines.clone(),
            fair_play.clone(),
            store.clone(),
            record,
            conn.clone(),
            claim,
        );
        Ok(None)
    }
}
