//! What the writer remembers of the move log: for each game it logs turns for, the turns not
//! yet folded into `moves`, so that a game's end folds its own turns without reading the log.
//! Bounded by the log itself: a fold empties both.

use std::collections::HashMap;

use uuid::Uuid;

use crate::store::MoveRecord;

/// Turns logged since the last fold after which the writer folds the log again. A fold
/// writes each game's page of `moves` once for all its turns in it: the more turns a fold
/// takes per game, the less each costs; the log's length is also what a read of a game in
/// progress scans.
pub const FOLD_AFTER: usize = 16_384;

#[derive(Debug, Default)]
pub struct Unfolded {
    games: HashMap<Uuid, GameTurns>,
    /// Turns logged since the last fold.
    logged: usize,
    /// A commit failed, and what is remembered may be wrong: fold at the next chance.
    fold_due: bool,
}

#[derive(Debug)]
struct GameTurns {
    /// Every turn of the game in the log is in `turns`: the game started under this writer,
    /// or the log was folded since the writer first saw it. Otherwise (a game resumed or
    /// taken over from another node) its end reads its turns from the log.
    whole: bool,
    turns: Vec<MoveRecord>,
}

/// How a game's turns reach `moves` when it ends.
#[derive(Debug, PartialEq)]
pub enum EndFold {
    /// These turns, which are all of the game's in the log.
    Held(Vec<MoveRecord>),
    /// Those the log holds: the writer does not know them all.
    FromLog,
}

impl Unfolded {
    pub fn started(&mut self, game: Uuid) {
        self.games.insert(
            game,
            GameTurns {
                whole: true,
                turns: Vec::new(),
            },
        );
    }

    pub fn logged(&mut self, game: Uuid, turn: MoveRecord) {
        self.games
            .entry(game)
            .or_insert(GameTurns {
                whole: false,
                turns: Vec::new(),
            })
            .turns
            .push(turn);
        self.logged += 1;
    }

    /// Turns from `kept` on were deleted.
    pub fn taken_back(&mut self, game: Uuid, kept: usize) {
        if let Some(entry) = self.games.get_mut(&game) {
            entry.turns.retain(|t| t.ply < kept as i64);
        }
    }

    pub fn ended(&mut self, game: Uuid) -> EndFold {
        match self.games.remove(&game) {
            Some(entry) if entry.whole => EndFold::Held(entry.turns),
            _ => EndFold::FromLog,
        }
    }

    pub fn wants_fold(&self) -> bool {
        self.fold_due || self.logged >= FOLD_AFTER
    }

    /// The whole log was folded into `moves`. A game with no turn since the previous fold is
    /// forgotten (it may have gone to another node or stopped): should it log again, its end
    /// reads the log.
    pub fn folded(&mut self) {
        self.games.retain(|_, entry| !entry.turns.is_empty());
        for entry in self.games.values_mut() {
            entry.turns.clear();
            entry.whole = true;
        }
        self.logged = 0;
        self.fold_due = false;
    }

    /// A commit failed after some of its writes were remembered: nothing remembered is
    /// trusted until the next fold.
    pub fn forget(&mut self) {
        self.games.clear();
        self.fold_due = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(ply: i64) -> MoveRecord {
        MoveRecord {
            ply,
            mv: format!("a{ply}"),
            clock: Default::default(),
            blurred: false,
            played_at: 0,
        }
    }

    #[test]
    fn a_game_started_here_ends_with_the_turns_held_since_the_last_fold() {
        let game = Uuid::new_v4();
        let mut log = Unfolded::default();
        log.started(game);
        log.logged(game, turn(0));
        log.folded();
        log.logged(game, turn(1));
        log.logged(game, turn(2));
        log.logged(game, turn(3));
        log.taken_back(game, 2);
        assert_eq!(log.ended(game), EndFold::Held(vec![turn(1)]));
        // Once ended, it is forgotten.
        assert_eq!(log.ended(game), EndFold::FromLog);
    }

    #[test]
    fn a_game_taken_over_reads_the_log_until_a_fold_has_taken_the_rest() {
        let game = Uuid::new_v4();
        let mut log = Unfolded::default();
        log.logged(game, turn(7));
        assert_eq!(log.ended(game), EndFold::FromLog);
        log.logged(game, turn(8));
        log.folded();
        log.logged(game, turn(9));
        assert_eq!(log.ended(game), EndFold::Held(vec![turn(9)]));
    }

    #[test]
    fn a_game_silent_through_a_fold_is_forgotten_and_a_failed_commit_forgets_all() {
        let (quiet, busy) = (Uuid::new_v4(), Uuid::new_v4());
        let mut log = Unfolded::default();
        log.started(quiet);
        log.started(busy);
        log.logged(busy, turn(0));
        log.folded();
        log.logged(quiet, turn(0));
        assert_eq!(log.ended(quiet), EndFold::FromLog);
        log.logged(busy, turn(1));
        log.forget();
        assert!(log.wants_fold());
        assert_eq!(log.ended(busy), EndFold::FromLog);
    }

    #[test]
    fn the_log_asks_to_be_folded_once_long() {
        let game = Uuid::new_v4();
        let mut log = Unfolded::default();
        for ply in 0..FOLD_AFTER as i64 {
            assert!(!log.wants_fold());
            log.logged(game, turn(ply));
        }
        assert!(log.wants_fold());
        log.folded();
        assert!(!log.wants_fold());
    }
}
