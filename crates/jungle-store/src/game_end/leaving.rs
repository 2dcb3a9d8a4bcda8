//! Leaving's part of a game's end: who lost by leaving, or never made a first move.

use jungle_protocol::Reason;
use jungle_rules::Side;
use sqlx::AnyConnection;
use uuid::Uuid;

use super::{EndPart, Ending, PartDone, Verdict};
use crate::{FinishRecord, StoreError};

pub struct LeavingCounted;

impl EndPart for LeavingCounted {
    fn apply<'a>(
        &'a self,
        conn: &'a mut AnyConnection,
        ending: &'a Ending<'a>,
        _: &'a mut Verdict,
    ) -> PartDone<'a> {
        let [red, blue] = &ending.players;
        Box::pin(count_leaving(conn, ending.finish, [red, blue]))
    }
}

/// Seed 002's 断线次数, in the transaction that records the end (so once per game): a game lost
/// by leaving adds one to the loser's `disconnects`; a game aborted because a first move never
/// came adds one to `aborts` of the side that was to make it. Games against the computer count
/// for neither.
async fn count_leaving(
    conn: &mut AnyConnection,
    finish: &FinishRecord,
    [red_id, blue_id]: [&str; 2],
) -> Result<(), StoreError> {
    let (column, culprit) = match (finish.reason, finish.winner) {
        (Reason::Abandoned, Some(winner)) => ("disconnects", !winner),
        // Aborts happen before each side's first move: at ply 0 Red's, at ply 1 Blue's.
        (Reason::Aborted, _) if finish.plies % 2 == 0 => ("aborts", Side::Red),
        (Reason::Aborted, _) => ("aborts", Side::Blue),
        _ => return Ok(()),
    };
    let against_computer = [red_id, blue_id].iter().any(|id| {
        id.parse::<Uuid>()
            .is_ok_and(|id| jungle_game::computer::bot_level(id).is_some())
    });
    if against_computer {
        return Ok(());
    }
    let player = match culprit {
        Side::Red => red_id,
        Side::Blue => blue_id,
    };
    sqlx::query(&format!(
        "UPDATE players SET {column} = {column} + 1 WHERE id = $1"
    ))
    .bind(player)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
