//! What a game's end means for a tournament: its points are already stored with the end (in
//! the same transaction); the director is told so it reads them back, re-pairs the players and
//! pauses one who never played.

use jungle_game::ended::GameEnded;
use jungle_protocol::Reason;
use uuid::Uuid;

use super::Directors;
use jungle_rooms::game_end::{GameEndListener, Heard};

impl GameEndListener for Directors {
    fn game_ended<'a>(&'a self, ended: &'a GameEnded) -> Heard<'a> {
        Box::pin(async move {
            if let Some(tournament) = ended.tournament {
                self.game_ended(tournament, ended.game, absent(ended)).await;
            }
        })
    }
}

/// The player the tournament pauses for a game they never played: the side that never moved
/// of an aborted game, or one who resigned before their first move (else a pair resigning at
/// once would fill the tournament with games).
pub fn absent(ended: &GameEnded) -> Option<Uuid> {
    let side = match ended.reason {
        Reason::Aborted => Some(ended.to_move),
        Reason::Resign => ended
            .winner
            .map(|winner| !winner)
            .filter(|&loser| !ended.has_moved(loser)),
        _ => None,
    }?;
    // A seat nobody took (none in a tournament game) pauses nobody.
    Some(ended.player(side)).filter(|id| !id.is_nil())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_protocol::GameStatus;
    use jungle_rules::Side;

    fn ended(reason: Reason, winner: Option<Side>, moved: [bool; 2], to_move: Side) -> GameEnded {
        GameEnded {
            game: Uuid::from_u128(1),
            rated: true,
            status: GameStatus::Finished,
            winner,
            reason,
            tournament: Some(Uuid::from_u128(2)),
            players: [Uuid::from_u128(10), Uuid::from_u128(11)],
            moved,
            to_move,
        }
    }

    #[test]
    fn who_never_played_is_paused_and_nobody_else() {
        let (red, blue) = (Uuid::from_u128(10), Uuid::from_u128(11));
        // Aborted: the side to move never made its first move.
        let aborted = ended(Reason::Aborted, None, [true, false], Side::Blue);
        assert_eq!(absent(&aborted), Some(blue));
        // Resigned before a first move: the loser is absent; after one, nobody.
        let early = ended(Reason::Resign, Some(Side::Blue), [false, false], Side::Red);
        assert_eq!(absent(&early), Some(red));
        let played = ended(Reason::Resign, Some(Side::Blue), [true, true], Side::Red);
        assert_eq!(absent(&played), None);
        // Any other end pauses nobody.
        let den = ended(Reason::Den, Some(Side::Red), [true, false], Side::Blue);
        assert_eq!(absent(&den), None);
    }
}
