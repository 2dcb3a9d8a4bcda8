//! Games as JGN text (docs/notation.md): one game (`GET /api/games/{id}.jgn`) or all of a
//! player's (`GET /api/players/{id}/games.jgn`), the latter streamed a page at a time so that a
//! player's 100,000 games never sit in memory together.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use jungle_protocol::{ClockSpec, GameStatus};
use jungle_rules::{GameResult, GameText, Position, Side, TextTurn, Turn};
use uuid::Uuid;

use crate::api::ApiError;
use crate::api::ApiState;
use jungle_limits::Limited;
use jungle_store::{GameRecord, Store};
use jungle_web::client_addr::ClientAddr;

/// Games read from the database per step of a player's export.
const PAGE: i64 = 100;

/// `300+2`, `30/move,3`, `30/move,1,consecutive`, `3d/move`.
pub fn time_control(clock: ClockSpec) -> String {
    match clock {
        ClockSpec::Fischer { base_s, inc_s } => format!("{base_s}+{inc_s}"),
        ClockSpec::PerMove {
            move_s,
            max_timeouts,
            consecutive,
        } => {
            let run = if consecutive { ",consecutive" } else { "" };
            format!("{move_s}/move,{max_timeouts}{run}")
        }
        ClockSpec::Days { days } => format!("{days}d/move"),
    }
}

/// A stored game as JGN, with each mover's clock after each turn.
pub fn game_text(record: &GameRecord, public_url: &str) -> GameText {
    let mut text = GameText::default();
    let kind = if record.rated { "Rated" } else { "Casual" };
    text.set_tag("Event", &format!("{kind} {} game", record.rules.name()));
    text.set_tag("Site", &format!("{public_url}/g/{}", record.id));
    let (y, m, d, _) = jungle_game::time_text::utc(record.created_at);
    text.set_tag("Date", &format!("{y:04}.{m:02}.{d:02}"));
    text.set_tag("Red", &record.red_name);
    text.set_tag("Blue", &record.blue_name);
    text.set_tag("RedRating", &record.red_rating.to_string());
    text.set_tag("BlueRating", &record.blue_rating.to_string());
    text.set_tag("Rules", record.rules.name());
    text.set_tag("TimeControl", &time_control(record.clock));
    text.result = match (record.status, record.reason) {
        (GameStatus::Finished, Some(_)) => GameResult::from_winner(record.winner),
        // Aborted games have no winner and are not draws.
        _ => GameResult::Unknown,
    };
    if let Some(reason) = record.reason {
        text.set_tag("Termination", reason.name());
    }
    let start: Position = record.start.parse().unwrap_or_default();
    if start != Position::default() {
        text.set_tag("FEN", &record.start);
    }
    let mut mover = start.side_to_move();
    for stored in &record.moves {
        let Ok(turn) = stored.mv.parse::<Turn>() else {
            tracing::error!(game = %record.id, mv = %stored.mv, "a stored move does not read");
            break;
        };
        let left = match mover {
            Side::Red => stored.clock.red_ms,
            Side::Blue => stored.clock.blue_ms,
        };
        text.turns.push(TextTurn {
            turn,
            clock_ms: u64::try_from(left).ok(),
            comment: None,
        });
        mover = !mover;
    }
    text
}

fn jgn_response(body: Body, filename: &str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// `GET /api/games/{id}.jgn`: one game.
pub async fn game(
    state: &ApiState,
    id: Uuid,
    headers: &axum::http::HeaderMap,
    client: std::net::IpAddr,
) -> Result<Response, ApiError> {
    let record = crate::api::visible_game(state, id, headers, client).await?;
    let text = game_text(&record, &state.public_url).to_string();
    Ok(jgn_response(Body::from(text), &format!("jungle-{id}.jgn")))
}

/// `GET /api/players/{id}/games.jgn`: every game of a player, newest first, one after another
/// with a blank line between them, read from the database a page at a time as the client reads.
pub async fn player_games(
    State(state): State<ApiState>,
    ClientAddr(client): ClientAddr,
    Path(id): Path<Uuid>,
) -> Result<Response, ApiError> {
    state.limits.check(Limited::GamesExport, None, client)?;
    state
        .store
        .player(id)
        .await?
        .ok_or(ApiError::NotFound("player"))?;
    let pages = futures_util::stream::unfold(
        Some((state.store.clone(), state.public_url.clone(), None)),
        move |cursor| async move {
            let (store, public_url, after) = cursor?;
            match page_of_games(&store, id, after, &public_url).await {
                Ok((text, Some(next))) => Some((Ok(text), Some((store, public_url, Some(next))))),
                Ok((text, None)) => Some((Ok(text), None)),
                Err(e) => {
                    // The status line is gone by now: the stream is cut short and logged.
                    tracing::error!(error = %e, player = %id, "game export failed");
                    Some((Err(std::io::Error::other("export failed")), None))
                }
            }
        },
    );
    Ok(jgn_response(
        Body::from_stream(pages),
        &format!("jungle-{id}.jgn"),
    ))
}

/// One page of a player's games as text, and the key of the last one if more may follow.
async fn page_of_games(
    store: &Store,
    player: Uuid,
    after: Option<(i64, Uuid)>,
    public_url: &str,
) -> Result<(String, Option<(i64, Uuid)>), jungle_store::StoreError> {
    let keys = store.player_game_keys(player, after, PAGE).await?;
    let mut text = String::new();
    for &(_, game) in &keys {
        if let Some(record) = store.game(game).await? {
            text.push_str(&game_text(&record, public_url).to_string());
            text.push('\n');
        }
    }
    let next = (keys.len() as i64 == PAGE).then(|| keys[keys.len() - 1]);
    Ok((text, next))
}

/// The answer of `GET /api/games/{id}` or `GET /api/games/{id}.jgn`.
pub async fn game_or_text(
    State(state): State<ApiState>,
    ClientAddr(client): ClientAddr,
    Path(name): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let (id, text) = match name.strip_suffix(".jgn") {
        Some(id) => (id, true),
        None => (name.as_str(), false),
    };
    let id: Uuid = id.parse().map_err(|_| ApiError::NotFound("game"))?;
    if text {
        game(&state, id, &headers, client).await
    } else {
        crate::api::game(State(state), Path(id), headers, client)
            .await
            .map(IntoResponse::into_response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_as_the_notation_says() {
        assert_eq!(
            time_control(ClockSpec::Fischer {
                base_s: 300,
                inc_s: 2
            }),
            "300+2"
        );
        let per_move = |consecutive| ClockSpec::PerMove {
            move_s: 30,
            max_timeouts: 3,
            consecutive,
        };
        assert_eq!(time_control(per_move(false)), "30/move,3");
        assert_eq!(time_control(per_move(true)), "30/move,3,consecutive");
        assert_eq!(time_control(ClockSpec::Days { days: 3 }), "3d/move");
    }
}
