//! `POST /api/challenge/ai` (lichess's; berserk's `challenges.create_ai`): a casual game
//! against our engine, as the web's **Play the computer** opens one, with the same checks
//! (at most three in play, none while playing a person in one sitting, none over days). The
//! game starts at once and is heard on the player's event stream as `gameStart`.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use jungle_game::session::{RoomSettings, SeatPlayer};
use jungle_limits::Limited;
use jungle_rooms::{open, Instruction, Outbound};
use jungle_web::client_addr::ClientAddr;
use serde_json::{json, Value};

use super::challenge_body;
use super::holder::playing_holder;
use super::BotApiError;
use crate::BotApiState;

pub async fn create(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Value>, BotApiError> {
    let holder = playing_holder(&state, &headers, client).await?;
    let (asked, level) = challenge_body::read_ai(&headers, &body)?;
    if asked.clock.is_correspondence() {
        return Err(BotApiError::BadRequest(
            "days: the computer plays in one sitting, on a clock".to_owned(),
        ));
    }
    asked
        .clock
        .validate()
        .map_err(|e| BotApiError::BadRequest(e.to_string()))?;
    state
        .limits
        .check(Limited::PlayComputer, Some(holder.player.id), client)?;
    let conn = state
        .event_streams
        .connection_for(holder.token, holder.player.id)
        .ok_or(BotApiError::NoEventStream)?;
    let start = jungle_rules::Position::start();
    // Our engine: not while the player is in a game against a person in one sitting.
    state
        .room_ctx
        .fair_play
        .may_start_computer_game(jungle_rooms::fair_play::Asker::of(&conn), &start)
        .await
        .map_err(|e| BotApiError::Refused(e.to_string()))?;
    let pool = jungle_game::rating::RatingPool::of(asked.rules, asked.clock);
    let rating = state.store.rating(holder.player.id, pool).await?;
    let human = SeatPlayer::human(conn.player.clone(), rating);
    let settings = RoomSettings {
        rules: asked.rules,
        clock: asked.clock,
        rated: false,
    };
    let level = jungle_engine::Level::new(level).expect("read as 1 to 8");
    let room = open::computer_game(
        state.room_ctx.clone(),
        settings,
        human,
        level,
        asked.color,
        start,
    )
    .await
    .map_err(|cap| {
        BotApiError::Refused(format!(
            "at most {} games against the computer in play at once",
            cap.cap
        ))
    })?;
    let game = room.id;
    // The event stream follows the game, and says gameStart.
    let _ = conn
        .tx
        .try_send(Outbound::Do(Box::new(Instruction::Enter(room))));
    Ok(Json(json!({
        "id": game,
        "rules": asked.rules,
        "rated": false,
        "level": level.get(),
    })))
}
