//! A tournament's part of a game's end: the points and streaks of a tournament game, scored
//! in the transaction that ends it, so exactly once. The server gives it to the store at
//! assembly (`jungle_store::GameEnd::with`); a game not in a tournament, or already scored,
//! changes nothing.

use jungle_game::arena::{self, Outcome};
use jungle_protocol::GameStatus;
use jungle_rules::Side;
use jungle_store::{EndPart, Ending, FinishRecord, PartDone, StoreError, Verdict};
use sqlx::{AnyConnection, Row};

/// Scores a tournament game as it ends.
pub struct TournamentScored;

impl EndPart for TournamentScored {
    fn apply<'a>(
        &'a self,
        conn: &'a mut AnyConnection,
        ending: &'a Ending<'a>,
        _: &'a mut Verdict,
    ) -> PartDone<'a> {
        Box::pin(score_pairing(conn, ending.finish))
    }
}

/// Scores a tournament game that just ended, in the transaction that ends it; a game not
/// in a tournament, or already scored, changes nothing.
async fn score_pairing(conn: &mut AnyConnection, finish: &FinishRecord) -> Result<(), StoreError> {
    let game = finish.game.to_string();
    let Some(pairing) = sqlx::query(
        "SELECT tg.tournament_id, tg.red_id, tg.blue_id, g.red_rating, g.blue_rating
         FROM tournament_games tg JOIN games g ON g.id = tg.game_id
         WHERE tg.game_id = $1 AND tg.scored = 0",
    )
    .bind(game.clone())
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(());
    };
    let tournament: String = pairing.try_get("tournament_id")?;
    let seats = [
        (
            Side::Red,
            pairing.try_get::<String, _>("red_id")?,
            pairing.try_get::<i64, _>("blue_rating")?,
        ),
        (
            Side::Blue,
            pairing.try_get::<String, _>("blue_id")?,
            pairing.try_get::<i64, _>("red_rating")?,
        ),
    ];
    let mut points = [0i64; 2];
    for (i, (side, player, opponent_rating)) in seats.iter().enumerate() {
        let outcome = match (finish.status, finish.winner) {
            (GameStatus::Aborted, _) => Outcome::Aborted,
            (_, None) => Outcome::Draw,
            (_, Some(winner)) if winner == *side => Outcome::Win,
            (_, Some(_)) => Outcome::Loss,
        };
        let row = sqlx::query(
            "SELECT streak FROM tournament_entries WHERE tournament_id = $1 AND player_id = $2",
        )
        .bind(tournament.clone())
        .bind(player.clone())
        .fetch_optional(&mut *conn)
        .await?;
        let streak = match row {
            Some(r) => r.try_get::<i64, _>("streak")? as u32,
            None => continue,
        };
        let (got, streak) = arena::scored(outcome, streak);
        let played = i64::from(outcome != Outcome::Aborted);
        sqlx::query(
            "UPDATE tournament_entries SET points = points + $1, streak = $2,
                 games = games + $3, wins = wins + $4, losses = losses + $5,
                 opponents_rating = opponents_rating + $6
             WHERE tournament_id = $7 AND player_id = $8",
        )
        .bind(i64::from(got))
        .bind(i64::from(streak))
        .bind(played)
        .bind(i64::from(outcome == Outcome::Win))
        .bind(i64::from(outcome == Outcome::Loss))
        .bind(played * opponent_rating)
        .bind(tournament.clone())
        .bind(player.clone())
        .execute(&mut *conn)
        .await?;
        points[i] = i64::from(got);
    }
    sqlx::query(
        "UPDATE tournament_games SET scored = 1, red_points = $1, blue_points = $2
         WHERE game_id = $3",
    )
    .bind(points[0])
    .bind(points[1])
    .bind(game)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
