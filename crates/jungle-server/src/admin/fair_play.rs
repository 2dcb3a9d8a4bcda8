//! The fair-play commands' tables: the moderators' queue, and one player's assessments.

use std::fmt::Write as _;

use super::{when, AdminError};
use jungle_game::assessment::{Record, Signals};
use jungle_store::{NamedPlayer, Store};

/// `admin queue`.
pub async fn queue(store: &Store, all: bool, out: &mut String) -> Result<(), AdminError> {
    let lines = store.review_queue(all, 500).await?;
    if lines.is_empty() {
        out.push_str("the fair-play queue is empty\n");
    }
    for line in lines {
        let _ = writeln!(
            out,
            "{}  {:<20}  {:<17}  {}{}\n    {}",
            when(line.queued_at),
            line.name,
            line.verdict.name(),
            line.player,
            if line.marked { "  [marked]" } else { "" },
            line.reason,
        );
    }
    Ok(())
}

/// `admin assessment NAME`: a line per game, newest first, then the record.
pub async fn assessment(
    store: &Store,
    player: &NamedPlayer,
    games: i64,
    out: &mut String,
) -> Result<(), AdminError> {
    let rows = store.assessments(player.id, games.clamp(1, 1_000)).await?;
    let marked = store.engine_marked_at(player.id).await?;
    let _ = writeln!(
        out,
        "{} ({}): {} assessed games{}",
        player.name,
        player.id,
        rows.len(),
        marked
            .map(|at| format!(", marked {}", when(at)))
            .unwrap_or_default()
    );
    let _ = writeln!(
        out,
        "{:<17} {:<36} {:<4} {:>5} {:>6} {:>7} {:>6} {:>5} {:>5} {:>5}  verdict",
        "assessed", "game", "side", "moves", "engine", "loss cp", "CV", "fast", "blurs", "like"
    );
    for row in &rows {
        let s = &row.signals;
        let _ = writeln!(
            out,
            "{:<17} {:<36} {:<4} {:>5} {:>5.0}% {:>7.1} {:>6} {:>5} {:>5} {:>5}  {}",
            when(row.assessed_at),
            row.game,
            row.side.name(),
            s.moves,
            100.0 * s.match_share(),
            s.loss_cp,
            s.time_cv.map_or("-".to_owned(), |cv| format!("{cv:.2}")),
            s.fast_moves,
            s.blurs,
            s.resembling,
            row.verdict.name()
        );
    }
    let signals: Vec<Signals> = rows.iter().map(|r| r.signals.clone()).collect();
    let record = Record::of(&signals);
    let _ = writeln!(
        out,
        "record over {} games ({} moves): {:.0}% engine moves, {:.1} cp lost a move, CV {}, {} blurs, {} games with many analysed boards like them, {} suspicious games: {}",
        record.games,
        record.moves,
        100.0 * f64::from(record.matched) / f64::from(record.moves.max(1)),
        record.loss_cp,
        record.time_cv.map_or("-".to_owned(), |cv| format!("{cv:.2}")),
        record.blurs,
        record.resembling_games,
        record.suspicious_games,
        record.verdict().name()
    );
    Ok(())
}
