//! Practice games (issue 29): the player plays the computer at level 1 from a chapter's
//! position (an ordinary `play_computer` game), then asks whether it reached the goal. The
//! stored game is judged here, move by move, by the rules.

use jungle_protocol::learn::Goal;
use jungle_rules::{Animal, EndReason, Game, Position, Side, Turn};
use uuid::Uuid;

use super::Practice;
use jungle_store::GameRecord;

/// Why a game cannot be judged for a practice.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotThePractice {
    #[error("that game is not yours")]
    NotYours,
    #[error("that game is not this practice: it must be against the computer at level 1, from the practice's position, in its ruleset, on its side")]
    OtherGame,
    #[error("that game's moves do not replay")]
    Unreadable,
}

/// The player's moves it took to reach the goal, or `None` if the game has not (yet, or in
/// time).
pub fn judge(
    practice: &Practice,
    record: &GameRecord,
    player: Uuid,
) -> Result<Option<u32>, NotThePractice> {
    let side = if record.red == player {
        Side::Red
    } else if record.blue == player {
        Side::Blue
    } else {
        return Err(NotThePractice::NotYours);
    };
    let computer = if side == Side::Red {
        record.blue
    } else {
        record.red
    };
    let start: Position = record
        .start
        .parse()
        .map_err(|_| NotThePractice::Unreadable)?;
    let wanted: Position = practice
        .position
        .parse()
        .map_err(|_| NotThePractice::Unreadable)?;
    if side != practice.side
        || record.rules != practice.rules
        || jungle_game::computer::bot_level(computer) != Some(1)
        || start != wanted
    {
        return Err(NotThePractice::OtherGame);
    }
    let mut game = Game::new(practice.rules.rules(), start);
    let within = match practice.goal {
        Goal::Den { within } | Goal::Capture { within, .. } => within,
    };
    let mut own_moves = 0u32;
    for stored in &record.moves {
        let turn: Turn = stored.mv.parse().map_err(|_| NotThePractice::Unreadable)?;
        let mover = game.position().side_to_move();
        game.play(turn).map_err(|_| NotThePractice::Unreadable)?;
        if mover != side || matches!(turn, Turn::Pass) {
            continue;
        }
        own_moves += 1;
        if own_moves > within {
            return Ok(None);
        }
        if reached(&game, practice.goal, side) {
            return Ok(Some(own_moves));
        }
    }
    Ok(None)
}

/// Whether the turn just played by `side` reached the goal.
fn reached(game: &Game, goal: Goal, side: Side) -> bool {
    match goal {
        Goal::Den { .. } => game
            .outcome()
            .is_some_and(|o| o.winner == Some(side) && o.reason == EndReason::Den),
        Goal::Capture { animal, .. } => {
            let wanted = Animal::from_letter(animal.to_ascii_uppercase());
            let last = game.history().last();
            wanted.is_some() && last.and_then(|t| t.captured) == wanted
        }
    }
}
