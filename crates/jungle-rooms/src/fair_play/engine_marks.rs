//! Fair play's part of a game's end: a game with a player the moderators marked as an engine
//! user moves nobody's rating (from the mark on: what was rated before stays). Run in the
//! transaction that stores the end, before the store's ratings part (the server gives it to
//! the store at assembly, `jungle_store::GameEnd::with`).

use jungle_store::{EndPart, Ending, PartDone, Verdict};
use sqlx::AnyConnection;

/// Keeps the ratings still when a player of the game is marked.
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
