//! Ratings' part of a game's end: Glicko-2 for both players in the game's rating pool (its
//! ruleset's real-time one, or its correspondence one), each new rating in their history, and
//! the change kept with the game.

use jungle_game::rating::{self, Glicko};
use jungle_protocol::RatingChange;
use sqlx::{AnyConnection, Row};

use super::{EndPart, Ending, PartDone, Verdict};
use crate::{now_ms, StoreError};

pub struct RatingsMoved;

impl EndPart for RatingsMoved {
    fn apply<'a>(
        &'a self,
        conn: &'a mut AnyConnection,
        ending: &'a Ending<'a>,
        verdict: &'a mut Verdict,
    ) -> PartDone<'a> {
        Box::pin(async move {
            if verdict.ratings_move {
                verdict.rating_change = Some(rate_both(conn, ending).await?);
            }
            Ok(())
        })
    }
}

async fn rate_both(
    conn: &mut AnyConnection,
    ending: &Ending<'_>,
) -> Result<RatingChange, StoreError> {
    let [red_id, blue_id] = &ending.players;
    let pool = &ending.rating_pool;
    let (red_old, red_games) = rating_in_tx(conn, red_id, pool).await?;
    let (blue_old, blue_games) = rating_in_tx(conn, blue_id, pool).await?;
    let (red_new, blue_new) = rating::rate(red_old, blue_old, ending.finish.winner);
    write_rating(conn, red_id, pool, red_new, red_games + 1).await?;
    write_rating(conn, blue_id, pool, blue_new, blue_games + 1).await?;
    for (player, rating) in [(red_id, red_new), (blue_id, blue_new)] {
        sqlx::query(
            "INSERT INTO rating_history (player_id, game_id, ruleset, rating, at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (player_id, game_id) DO NOTHING",
        )
        .bind(player)
        .bind(ending.id.clone())
        .bind(pool)
        .bind(rating.rating)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
    }
    let change = RatingChange {
        red: red_new.shown() - red_old.shown(),
        blue: blue_new.shown() - blue_old.shown(),
    };
    sqlx::query(
        "UPDATE games SET rating_applied = 1, red_change = $1, blue_change = $2 WHERE id = $3",
    )
    .bind(change.red as i64)
    .bind(change.blue as i64)
    .bind(ending.id.clone())
    .execute(&mut *conn)
    .await?;
    Ok(change)
}

async fn rating_in_tx(
    conn: &mut AnyConnection,
    player: &str,
    ruleset: &str,
) -> Result<(Glicko, i64), StoreError> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games FROM ratings WHERE player_id = $1 AND ruleset = $2",
    )
    .bind(player)
    .bind(ruleset)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(match row {
        Some(r) => (
            Glicko {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
            },
            r.try_get("games")?,
        ),
        None => (Glicko::default(), 0),
    })
}

async fn write_rating(
    conn: &mut AnyConnection,
    player: &str,
    ruleset: &str,
    g: Glicko,
    games: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO ratings (player_id, ruleset, rating, deviation, volatility, games, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (player_id, ruleset) DO UPDATE SET rating = excluded.rating,
            deviation = excluded.deviation, volatility = excluded.volatility,
            games = excluded.games, updated_at = excluded.updated_at",
    )
    .bind(player)
    .bind(ruleset)
    .bind(g.rating)
    .bind(g.deviation)
    .bind(g.volatility)
    .bind(games)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}
