//! Whole-game analysis: every position of a finished game evaluated by our engine with a small
//! budget each, stored once, and each turn marked by the winning chances its mover gave away.
//! Bounded: one analysis at a time per player and per game, at most [`MAX_PLIES`] positions,
//! [`PER_POSITION`] each, on the engine pool behind every live move.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jungle_engine::{Level, Persona};
use jungle_protocol::{EngineScore, Mark, ServerFrame};
use jungle_rules::{Game, Position, Side};
use uuid::Uuid;

use jungle_rooms::engine_pool::{EnginePool, Priority, SearchRequest};
use jungle_rooms::fair_play::{FairPlay, Standing};
use jungle_rooms::{frame_text, Connection, Outbound};
use jungle_store::{GameRecord, Store};

/// Thinking time for each position.
pub const PER_POSITION: Duration = Duration::from_millis(100);
/// Positions analysed at most (a longer game's later turns go unjudged).
pub const MAX_PLIES: usize = 600;

/// Drops in the mover's winning chances (percentage points) that earn each mark.
pub const INACCURACY: f64 = 10.0;
pub const MISTAKE: f64 = 20.0;
pub const BLUNDER: f64 = 30.0;

/// Red's winning chances (0–100) for a score from Red's point of view: a logistic curve on
/// centi-animals (a dog up is about 68 %), certainty for a den entry.
pub fn red_chances(score: EngineScore) -> f64 {
    match score {
        EngineScore::DenIn(n) if n > 0 => 100.0,
        EngineScore::DenIn(_) => 0.0,
        EngineScore::Cp(cp) => 100.0 / (1.0 + (-f64::from(cp) / 400.0).exp()),
    }
}

/// The mark of each turn: `evals` has one more entry than `movers`.
pub fn marks(evals: &[EngineScore], movers: &[Side]) -> Vec<Option<Mark>> {
    movers
        .iter()
        .enumerate()
        .map(|(i, mover)| {
            let (before, after) = (red_chances(evals[i]), red_chances(*evals.get(i + 1)?));
            let lost = match mover {
                Side::Red => before - after,
                Side::Blue => after - before,
            };
            if lost >= BLUNDER {
                Some(Mark::Blunder)
            } else if lost >= MISTAKE {
                Some(Mark::Mistake)
            } else if lost >= INACCURACY {
                Some(Mark::Inaccuracy)
            } else {
                None
            }
        })
        .collect()
}

/// Who is analysing what now.
#[derive(Clone, Default)]
pub struct Running {
    inner: Arc<Mutex<(HashSet<Uuid>, HashSet<Uuid>)>>,
}

/// A claim on a player's and a game's one analysis, given back on drop.
pub struct Claim {
    running: Running,
    player: Uuid,
    game: Uuid,
}

impl Running {
    /// Claims the analysis of `game` for `player`; `None` if either is already busy.
    pub fn claim(&self, player: Uuid, game: Uuid) -> Option<Claim> {
        let mut sets = self.inner.lock().expect("analysis lock");
        if sets.0.contains(&player) || sets.1.contains(&game) {
            return None;
        }
        sets.0.insert(player);
        sets.1.insert(game);
        Some(Claim {
            running: self.clone(),
            player,
            game,
        })
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut sets = self.running.inner.lock().expect("analysis lock");
        sets.0.remove(&self.player);
        sets.1.remove(&self.game);
    }
}

/// The stored analysis of `game`, as a frame, if there is one (positions that stand in a
/// game in progress masked).
pub async fn stored(
    store: &Store,
    fair_play: &FairPlay,
    game: Uuid,
    asker: Uuid,
) -> Result<Option<ServerFrame>, AnalysisError> {
    let Some(json) = store.game_evals(game).await? else {
        return Ok(None);
    };
    let evals: Vec<EngineScore> = serde_json::from_str(&json)
        .map_err(|e| jungle_store::StoreError::Corrupt(format!("game_evals: {e}")))?;
    let Some(record) = store.game(game).await? else {
        return Ok(None);
    };
    Ok(Some(frame(fair_play, &record, evals, asker).await?))
}

/// Why a whole-game analysis is not sent.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error(transparent)]
    Store(#[from] jungle_store::StoreError),
    #[error(transparent)]
    Closed(#[from] jungle_rooms::fair_play::EngineClosed),
}

/// The frame of a game's analysis, with the evaluations of positions that stand in a game in
/// progress or near where one between people stands now (and the marks of the turns beside
/// them) left out. Near counts as closed here, not as a question within the budget a single
/// board spends: a stored game can be made up on the spot (two accounts of one person play a
/// private room from any position, each candidate move of a live game played and taken
/// back in turn), and one game's analysis would otherwise answer hundreds of near boards at
/// once, for free.
async fn frame(
    fair_play: &FairPlay,
    record: &GameRecord,
    evals: Vec<EngineScore>,
    asker: Uuid,
) -> Result<ServerFrame, jungle_rooms::fair_play::EngineClosed> {
    let positions: Vec<Position> = jungle_game::replay::stored_game(record)
        .map(|game| game.positions().take(evals.len()).collect())
        .unwrap_or_default();
    let mut hidden: Vec<bool> = fair_play
        .standings(&positions, jungle_rooms::fair_play::Among::AllGames)
        .await?
        .into_iter()
        .map(|standing| standing != Standing::Open)
        .collect();
    // Past the positions that replay: nothing to show them against.
    hidden.resize(evals.len(), true);
    let shown: Vec<Position> = positions
        .iter()
        .zip(&hidden)
        .filter(|(_, hidden)| !**hidden)
        .map(|(position, _)| *position)
        .collect();
    fair_play.note_analysed(asker, &shown).await;
    let movers = movers(record);
    let marks = marks(
        &evals,
        &movers[..movers.len().min(evals.len().saturating_sub(1))],
    )
    .into_iter()
    .enumerate()
    .map(|(i, mark)| mark.filter(|_| !hidden[i] && !hidden.get(i + 1).copied().unwrap_or(true)))
    .collect();
    let evals = evals
        .into_iter()
        .zip(&hidden)
        .map(|(eval, hidden)| (!hidden).then_some(eval))
        .collect();
    Ok(ServerFrame::GameAnalysis {
        game: record.id,
        evals,
        marks,
    })
}

/// Who moved each turn of a stored game.
fn movers(record: &GameRecord) -> Vec<Side> {
    let start: Position = record.start.parse().unwrap_or_default();
    let mut side = start.side_to_move();
    record
        .moves
        .iter()
        .map(|_| {
            let mover = side;
            side = !side;
            mover
        })
        .collect()
}

/// Analyses every position of `record` (in the background), stores the result and sends it
/// to `conn`. The claim is held until it is done.
pub fn start(
    engines: EnginePool,
    fair_play: FairPlay,
    store: Store,
    record: GameRecord,
    conn: Connection,
    claim: Claim,
) {
    tokio::spawn(async move {
        let _claim = claim;
        let Ok(replayed) = jungle_game::replay::stored_game(&record) else {
            tracing::error!(game = %record.id, "a finished game whose moves do not replay");
            return;
        };
        let mut evals = Vec::with_capacity(record.moves.len() + 1);
        let mut game = Game::new(*replayed.rules(), *replayed.start());
        let mut turns = replayed.turns();
        loop {
            let Some(score) = evaluate(&engines, conn.player.id, &game).await else {
                // The pool dropped the search (the server is stopping): the page waiting for
                // the analysis is told, not left waiting.
                let text = jungle_rooms::error_text(
                    jungle_protocol::ErrorCode::Internal,
                    "the analysis was interrupted; try again shortly",
                    Some(record.id),
                );
                let _ = conn.tx.try_send(Outbound::text(text));
                return;
            };
            evals.push(score);
            if evals.len() > MAX_PLIES {
                break;
            }
            match turns.next() {
                Some(turn) if game.play(turn).is_ok() => {}
                _ => break,
            }
        }
        let json = serde_json::to_string(&evals).expect("scores serialize");
        if let Err(e) = store.save_game_evals(record.id, &json).await {
            tracing::error!(error = %e, game = %record.id, "could not store a game's analysis");
        }
        // The asker may have sat down to a game meanwhile: then nothing is sent.
        let shown = match fair_play.not_playing(conn.player.id).await {
            Ok(()) => frame(&fair_play, &record, evals, conn.player.id).await,
            Err(closed) => Err(closed),
        };
        let text = match shown {
            Ok(frame) => frame_text(&frame),
            Err(closed) => jungle_rooms::error_text(
                jungle_protocol::ErrorCode::AnalysisUnavailable,
                &closed.to_string(),
                Some(record.id),
            ),
        };
        let _ = conn.tx.try_send(Outbound::text(text));
    });
}

/// One position's score from Red's point of view; `None` if the pool dropped the search.
async fn evaluate(engines: &EnginePool, owner: Uuid, game: &Game) -> Option<EngineScore> {
    let red_to_move = game.position().side_to_move() == Side::Red;
    let flip = |s: EngineScore| match s {
        _ if red_to_move => s,
        EngineScore::Cp(n) => EngineScore::Cp(-n),
        EngineScore::DenIn(n) => EngineScore::DenIn(-n),
    };
    if let Some(outcome) = game.outcome() {
        // Over: a den entry "in 0" for the winner, even for a draw.
        return Some(match outcome.winner {
            Some(Side::Red) => EngineScore::DenIn(1),
            Some(Side::Blue) => EngineScore::DenIn(-1),
            None => EngineScore::Cp(0),
        });
    }
    let request = SearchRequest {
        owner,
        priority: Priority::Analysis,
        persona: Persona::new(Level::MAX, 1),
        game: game.clone(),
        budget: PER_POSITION,
    };
    let (_ticket, answer) = engines.submit(request);
    let analysis = answer.await.ok()?.analysis?;
    Some(flip(jungle_rooms::engine_pool::wire_score(analysis.score)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_are_marked_by_the_chances_their_mover_gave_away() {
        let evals = [
            EngineScore::Cp(0),
            // Red's chances after each turn: 51, 76 (Blue gave away 24 points), 59 (Red
            // gave back 16), then Blue finds a den entry (its own gain).
            EngineScore::Cp(20),
            EngineScore::Cp(450),
            EngineScore::Cp(150),
            EngineScore::DenIn(-2),
        ];
        let movers = [Side::Red, Side::Blue, Side::Red, Side::Blue];
        let marks = marks(&evals, &movers);
        assert_eq!(marks[0], None);
        assert_eq!(marks[1], Some(Mark::Mistake));
        assert_eq!(marks[2], Some(Mark::Inaccuracy));
        assert_eq!(marks[3], None, "Blue's own gain is no mistake");
        assert_eq!(red_chances(EngineScore::DenIn(3)), 100.0);
        assert!((red_chances(EngineScore::Cp(0)) - 50.0).abs() < 1e-9);
    }
}
