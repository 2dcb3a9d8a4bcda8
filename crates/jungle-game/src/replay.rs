//! Moves as text played again through the rules: the one way the server turns a stored game
//! (or a client's list of moves) into a [`Game`]. One answer to a move that does not play:
//! [`Stopped`] holds the game as far as it went and names the move and the fault, so that each
//! caller chooses between going on with what replayed (a replay page) and refusing (a game to
//! resume).

use jungle_rules::{Game, Position, Ruleset, Turn};

use crate::records::GameRecord;

/// A replay that stopped before its end.
#[derive(Debug)]
pub struct Stopped {
    /// The game up to the move that did not play (boxed: a game is large, a stop rare).
    pub game: Box<Game>,
    /// That move's place, from 0, and its text.
    pub index: usize,
    pub text: String,
    pub reason: String,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "move {} ({:?}): {}",
            self.index + 1,
            self.text,
            self.reason
        )
    }
}

/// Plays `texts` (`a3a4`, `pass`) from `start` under `rules`.
pub fn play_texts<'a>(
    rules: Ruleset,
    start: Position,
    texts: impl IntoIterator<Item = &'a str>,
) -> Result<Game, Stopped> {
    let mut game = Game::new(rules.rules(), start);
    for (index, text) in texts.into_iter().enumerate() {
        let played = text
            .parse::<Turn>()
            .map_err(|e| e.to_string())
            .and_then(|turn| game.play(turn).map_err(|e| e.to_string()));
        if let Err(reason) = played {
            return Err(Stopped {
                game: Box::new(game),
                index,
                text: text.to_owned(),
                reason,
            });
        }
    }
    Ok(game)
}

/// A stored game replayed. A stored move that does not play is corruption (every one was
/// legal when it was played): it is logged here, once for every caller.
pub fn stored_game(record: &GameRecord) -> Result<Game, Stopped> {
    let start = match record.start.parse::<Position>() {
        Ok(start) => start,
        Err(e) => {
            tracing::error!(game = %record.id, error = %e, "a stored start position does not read");
            return Err(Stopped {
                game: Box::new(Game::new(record.rules.rules(), Position::start())),
                index: 0,
                text: record.start.clone(),
                reason: format!("start position: {e}"),
            });
        }
    };
    play_texts(record.rules, start, record.moves.iter().map(|m| m.mv.as_str())).inspect_err(
        |stopped| tracing::error!(game = %record.id, fault = %stopped, "a stored move does not replay"),
    )
}

/// The game as far as it replays (for showing a stored game whatever befell it).
pub fn as_far_as_it_goes(record: &GameRecord) -> Game {
    stored_game(record).unwrap_or_else(|stopped| *stopped.game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_that_does_not_play_stops_the_replay_and_is_named() {
        let game = play_texts(Ruleset::Classic, Position::start(), ["a3a4", "g7g6"]).unwrap();
        assert_eq!(game.ply_count(), 2);
        let stopped =
            play_texts(Ruleset::Classic, Position::start(), ["a3a4", "a4a5", "x"]).unwrap_err();
        assert_eq!(stopped.index, 1, "Red cannot move twice");
        assert_eq!(stopped.game.ply_count(), 1);
        assert!(stopped.to_string().starts_with("move 2 (\"a4a5\")"));
        let unreadable = play_texts(Ruleset::Classic, Position::start(), ["zz"]).unwrap_err();
        assert_eq!(unreadable.index, 0);
    }
}
