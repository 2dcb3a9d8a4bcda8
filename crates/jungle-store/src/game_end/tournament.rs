//! A tournament's part of a game's end: the points and streaks of a tournament game, scored
//! in the transaction that ends it, so exactly once.

use sqlx::AnyConnection;

use super::{EndPart, Ending, PartDone, Verdict};

pub struct TournamentScored;

impl EndPart for TournamentScored {
    fn apply<'a>(
        &'a self,
        conn: &'a mut AnyConnection,
        ending: &'a Ending<'a>,
        _: &'a mut Verdict,
    ) -> PartDone<'a> {
        Box::pin(crate::tournaments::score_pairing(conn, ending.finish))
    }
}
