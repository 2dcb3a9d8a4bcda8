//! Moderation's part of a game's end: a game with a player marked as an engine user moves
//! nobody's rating (from the mark on: what was rated before stays).

use sqlx::AnyConnection;

use super::{EndPart, Ending, PartDone, Verdict};

pub struct EngineUsersUnrated;

impl EndPart for EngineUsersUnrated {
    fn apply<'a>(
        &'a self,
        conn: &'a mut AnyConnection,
        ending: &'a Ending<'a>,
        verdict: &'a mut Verdict,
    ) -> PartDone<'a> {
        Box::pin(async move {
            if !verdict.ratings_move {
                return Ok(());
            }
            let [red, blue] = &ending.players;
            let marked = sqlx::query(
                "SELECT 1 AS one FROM players
                 WHERE id IN ($1, $2) AND engine_marked_at IS NOT NULL",
            )
            .bind(red)
            .bind(blue)
            .fetch_optional(&mut *conn)
            .await?;
            if marked.is_some() {
                verdict.ratings_move = false;
            }
            Ok(())
        })
    }
}
