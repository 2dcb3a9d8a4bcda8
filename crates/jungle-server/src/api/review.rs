//! The analysis board's HTTP side: a pasted game read (`POST /api/games/import`), and any line
//! of play from any position laid out turn by turn (`POST /api/lines`). The client knows no
//! rules; these do the playing. Both are bounded in size and limited per address.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use jungle_protocol::http::{self, ImportRequest, Line, LineOutcome, LineRequest};
use jungle_rules::{Game, GameText, Position, Ruleset, Turn};

use jungle_limits::{Limited, RateLimited};
use jungle_web::client_addr::ClientAddr;

/// Turns a line may hold: longer than any game the server plays (a draw comes at 200 plies
/// without a capture), short enough to lay out in a blink.
pub const MAX_LINE_TURNS: usize = 2000;

#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("{0}")]
    BadBody(String),
    /// The text is not JGN; the message gives the line and column.
    #[error("{0}")]
    BadText(String),
    #[error("{0}")]
    BadPosition(String),
    #[error("{0}")]
    BadMove(String),
    #[error("a line holds at most {MAX_LINE_TURNS} turns")]
    TooLong,
    #[error("requests here are limited to {} bytes", http::MAX_LINE_BYTES)]
    TooLarge,
    #[error(transparent)]
    RateLimited(#[from] RateLimited),
}

impl IntoResponse for LineError {
    fn into_response(self) -> Response {
        let (status, code) = match &self {
            LineError::BadBody(_) | LineError::TooLong => (StatusCode::BAD_REQUEST, "bad_request"),
            LineError::BadText(_) => (StatusCode::BAD_REQUEST, "bad_text"),
            LineError::BadPosition(_) => (StatusCode::BAD_REQUEST, "bad_position"),
            LineError::BadMove(_) => (StatusCode::BAD_REQUEST, "bad_move"),
            LineError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            LineError::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
        };
        let body = Json(http::AccountError::new(code, self.to_string()));
        match self {
            LineError::RateLimited(limited) => {
                let wait = limited.seconds().to_string();
                (status, [(axum::http::header::RETRY_AFTER, wait)], body).into_response()
            }
            _ => (status, body).into_response(),
        }
    }
}

/// A body that did not read: too large, or not the JSON expected.
fn unreadable(e: JsonRejection) -> LineError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        LineError::TooLarge
    } else {
        LineError::BadBody(e.body_text())
    }
}

/// Plays `turns` from `start` and lays the line out.
fn lay_out(rules: Ruleset, start: Position, turns: &[Turn]) -> Result<Line, LineError> {
    if turns.len() > MAX_LINE_TURNS {
        return Err(LineError::TooLong);
    }
    let mut game = Game::new(rules.rules(), start);
    let mut positions = Vec::with_capacity(turns.len());
    let mut captures = Vec::with_capacity(turns.len());
    for (index, &turn) in turns.iter().enumerate() {
        game.play(turn)
            .map_err(|e| LineError::BadMove(format!("move {} ({turn}): {e}", index + 1)))?;
        positions.push(game.position().to_string());
        captures.push(game.history().last().and_then(|t| t.captured));
    }
    Ok(Line {
        rules,
        start: start.to_string(),
        moves: turns.iter().map(ToString::to_string).collect(),
        positions,
        captures,
        legal: game.legal_moves().iter().map(ToString::to_string).collect(),
        outcome: game.outcome().map(|o| LineOutcome {
            winner: o.winner,
            reason: o.reason.name().to_owned(),
        }),
        tags: Vec::new(),
        result: None,
    })
}

/// `POST /api/lines`.
pub async fn line(
    State(state): State<crate::api::ApiState>,
    ClientAddr(client): ClientAddr,
    body: Result<Json<LineRequest>, JsonRejection>,
) -> Result<Json<Line>, LineError> {
    state.limits.check(Limited::Lines, None, client)?;
    let Json(request) = body.map_err(unreadable)?;
    let start = match &request.start {
        Some(text) => text
            .parse()
            .map_err(|e| LineError::BadPosition(format!("{e}")))?,
        None => Position::default(),
    };
    if request.moves.len() > MAX_LINE_TURNS {
        return Err(LineError::TooLong);
    }
    let turns = request
        .moves
        .iter()
        .enumerate()
        .map(|(i, text)| {
            text.parse()
                .map_err(|e| LineError::BadMove(format!("move {} ({text:?}): {e}", i + 1)))
        })
        .collect::<Result<Vec<Turn>, _>>()?;
    Ok(Json(lay_out(request.rules, start, &turns)?))
}

/// `POST /api/games/import`: a game's text read and played.
pub async fn import(
    State(state): State<crate::api::ApiState>,
    ClientAddr(client): ClientAddr,
    body: Result<Json<ImportRequest>, JsonRejection>,
) -> Result<Json<Line>, LineError> {
    state.limits.check(Limited::Lines, None, client)?;
    let Json(request) = body.map_err(unreadable)?;
    let text: GameText = request
        .text
        .parse()
        .map_err(|e: jungle_rules::ParseGameTextError| LineError::BadText(e.to_string()))?;
    let rules = text
        .ruleset()
        .map_err(|e| LineError::BadText(format!("Rules tag: {e}")))?;
    let start = text
        .start()
        .map_err(|e| LineError::BadPosition(format!("FEN tag: {e}")))?;
    let turns: Vec<Turn> = text.turns.iter().map(|t| t.turn).collect();
    let mut line = lay_out(rules, start, &turns)?;
    line.tags = text.tags.clone();
    line.result = Some(text.result.token().to_owned());
    Ok(Json(line))
}
