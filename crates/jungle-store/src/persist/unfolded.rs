//! What the writer remembers of the move log (SQLite): each game's turns it logged and has not
//! yet put into `moves`, with their rows in the log. From that it folds the log a few games at
//! a time after each commit, never all at once: a game is folded once its oldest turn in the
//! log is [`FOLD_AFTER`] rows old, so each fold writes a game's page of `moves` once for all
//! the turns it made meanwhile, and the rows below every turn still held are deleted from the
//! log's start.

use std::collections::{BTreeSet, HashMap};

use uuid::Uuid;

use crate::MoveRecord;

/// How many rows old a game's oldest logged turn gets before the game is folded. The more
/// turns a fold takes per game, the less each costs; the log's length (about this) is what a
/// read of a game in progress scans.
pub const FOLD_AFTER: i64 = 16_384;
/// Rows deleted from the log's start at a time, at least.
const CLEAR_STEP: i64 = 1_024;

#[derive(Debug)]
pub struct Unfolded {
    /// Each game's held turns, with their rows in the log, oldest first.
    games: HashMap<Uuid, Vec<(i64, MoveRecord)>>,
    /// Each game's oldest held row: the order in which games come due.
    oldest: BTreeSet<(i64, Uuid)>,
    /// Every turn in the log that is not in `moves` is held here. False from a failed commit
    /// (whose turns were remembered but not stored) until the whole log is folded.
    trusted: bool,
    /// The newest row logged.
    newest: i64,
    /// Rows below this were deleted from the log.
    cleared_below: i64,
}

/// How a game's turns reach `moves` when it ends.
#[derive(Debug, PartialEq)]
pub enum EndFold {
    /// These turns, which are all of the game's in the log and not in `moves`.
    Held(Vec<MoveRecord>),
    /// Those the log holds: the writer does not know them all.
    FromLog,
}

impl Unfolded {
    /// `folded`: the log was just folded whole (the writer starts that way).
    pub fn new(folded: bool) -> Unfolded {
        Unfolded {
            games: HashMap::new(),
            oldest: BTreeSet::new(),
            trusted: folded,
            newest: 0,
            cleared_below: 0,
        }
    }

    /// A turn committed to the log as row `row`.
    pub fn logged(&mut self, game: Uuid, row: i64, turn: MoveRecord) {
        if row <= self.cleared_below {
            // A takeback deleted the log's last rows and emptied it (every row left is at or
            // above `cleared_below`), so SQLite numbers rows from 1 again.
            self.cleared_below = 0;
            self.newest = row;
        }
        self.newest = self.newest.max(row);
        if !self.trusted {
            return;
        }
        let turns = self.games.entry(game).or_default();
        if turns.is_empty() {
            self.oldest.insert((row, game));
        }
        turns.push((row, turn));
    }

    /// Turns from `kept` on were deleted.
    pub fn taken_back(&mut self, game: Uuid, kept: usize) {
        let Some(turns) = self.games.get_mut(&game) else {
            return;
        };
        let first = turns.first().map(|(row, _)| *row);
        turns.retain(|(_, t)| t.ply < kept as i64);
        if turns.is_empty() {
            self.games.remove(&game);
            if let Some(row) = first {
                self.oldest.remove(&(row, game));
            }
        }
    }

    pub fn ended(&mut self, game: Uuid) -> EndFold {
        if !self.trusted {
            return EndFold::FromLog;
        }
        EndFold::Held(self.take(game))
    }

    fn take(&mut self, game: Uuid) -> Vec<MoveRecord> {
        let turns = self.games.remove(&game).unwrap_or_default();
        if let Some((row, _)) = turns.first() {
            self.oldest.remove(&(*row, game));
        }
        turns.into_iter().map(|(_, t)| t).collect()
    }

    /// The turns of every game now due, sorted by game: they go into `moves` next.
    pub fn due(&mut self) -> Vec<(Uuid, MoveRecord)> {
        let mut due = Vec::new();
        while let Some(&(row, game)) = self.oldest.first() {
            if row > self.newest - FOLD_AFTER {
                break;
            }
            due.extend(self.take(game).into_iter().map(|t| (game, t)));
        }
        due.sort_by_key(|(game, t)| (*game, t.ply));
        due
    }

    /// Rows of the log below the returned one are all in `moves` and may go, once that is
    /// worth a statement. The newest row always stays, so that row numbers keep rising.
    pub fn clearable(&self) -> Option<i64> {
        if !self.trusted {
            return None;
        }
        let held = self.oldest.first().map_or(self.newest, |(row, _)| *row);
        let below = held.min(self.newest);
        (below - self.cleared_below >= CLEAR_STEP).then_some(below)
    }

    pub fn cleared(&mut self, below: i64) {
        self.cleared_below = below;
    }

    /// Whether the whole log must be folded: a commit failed.
    pub fn wants_whole_fold(&self) -> bool {
        !self.trusted
    }

    /// The whole log was folded into `moves` and emptied (its rows number from 1 again).
    pub fn folded_whole(&mut self) {
        *self = Unfolded::new(true);
    }

    /// A commit failed after some of its turns were remembered: nothing remembered is
    /// trusted until the whole log is folded.
    pub fn forget(&mut self) {
        self.games.clear();
        self.oldest.clear();
        self.trusted = false;
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
    fn a_game_ends_with_the_turns_not_yet_folded() {
        let game = Uuid::new_v4();
        let mut log = Unfolded::new(true);
        for ply in 0..4 {
            log.logged(game, ply + 1, turn(ply));
        }
        log.taken_back(game, 2);
        assert_eq!(log.ended(game), EndFold::Held(vec![turn(0), turn(1)]));
        assert_eq!(
            log.ended(game),
            EndFold::Held(vec![]),
            "nothing is held twice"
        );
    }

    #[test]
    fn games_come_due_by_their_oldest_turn_and_the_log_clears_below_what_is_held() {
        let (early, late, other) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let mut log = Unfolded::new(true);
        log.logged(early, 1, turn(0));
        log.logged(late, 2, turn(0));
        log.logged(early, 3, turn(1));
        assert!(log.due().is_empty());
        for row in 4..=FOLD_AFTER + 1 {
            log.logged(other, row, turn(row));
        }
        // Only `early`'s oldest turn is old enough: both its turns go; `late`'s stays.
        assert_eq!(log.due(), vec![(early, turn(0)), (early, turn(1))]);
        assert_eq!(log.clearable(), None, "row 2 is held");
        assert_eq!(log.ended(late), EndFold::Held(vec![turn(0)]));
        assert!(log.due().is_empty());
        assert_eq!(log.clearable(), None, "row 4 is held");
        log.logged(other, FOLD_AFTER + 10, turn(0));
        assert_eq!(log.due().len() as i64, FOLD_AFTER - 2 + 1);
        // Nothing is held: every row but the newest may go.
        assert_eq!(log.clearable(), Some(FOLD_AFTER + 10));
        log.cleared(FOLD_AFTER + 10);
        assert_eq!(log.clearable(), None);
    }

    #[test]
    fn rows_numbered_from_one_again_after_a_takeback_emptied_the_log_are_folded_and_cleared() {
        let game = Uuid::new_v4();
        let mut log = Unfolded::new(true);
        for row in 1..=2 * FOLD_AFTER {
            log.logged(game, row, turn(row));
            log.due();
        }
        let below = log.clearable().expect("rows to clear");
        log.cleared(below);
        // The last rows are taken back, and the log is empty: numbering starts again.
        log.taken_back(game, 0);
        log.logged(game, 1, turn(0));
        assert!(log.due().is_empty(), "a new turn is not due at once");
        for row in 2..=FOLD_AFTER + CLEAR_STEP + 1 {
            log.logged(game, row, turn(row));
        }
        assert!(!log.due().is_empty());
        assert!(log.clearable().is_some(), "the log is cleared again");
    }

    #[test]
    fn a_failed_commit_makes_every_end_read_the_log_until_a_whole_fold() {
        let game = Uuid::new_v4();
        let mut log = Unfolded::new(true);
        log.logged(game, 1, turn(0));
        log.forget();
        assert!(log.wants_whole_fold());
        log.logged(game, 2, turn(1));
        assert_eq!(log.ended(game), EndFold::FromLog);
        assert_eq!(log.clearable(), None);
        log.folded_whole();
        assert!(!log.wants_whole_fold());
        log.logged(game, 1, turn(2));
        assert_eq!(log.ended(game), EndFold::Held(vec![turn(2)]));
    }
}
