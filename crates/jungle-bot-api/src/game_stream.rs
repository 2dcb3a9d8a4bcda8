//! `GET /api/bot/game/stream/{id}` and `GET /api/board/game/stream/{id}`: one game as
//! newline-delimited JSON for as long as the client reads (game_view.rs says what each line
//! is), with an empty line every 7 s to keep it open. The stream follows the game's room as a
//! connection of the player's, on whichever node runs it; it ends with the game, when the
//! client goes, or when the client stops reading (a stuck reader is dropped, not buffered for).

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use jungle_protocol::ServerFrame;
use uuid::Uuid;

use super::game_view::GameView;
use super::holder::{connection, holder};
use super::ndjson;
use super::streams::MAX_GAME_STREAMS;
use super::BotApiError;
use crate::BotApiState;
use jungle_limits::Limited;
use jungle_rooms::{JoinIntent, Outbound, RoomCommand};
use jungle_web::client_addr::ClientAddr;

/// Frames from the room the stream may hold before it counts as too slow.
const FRAMES: usize = 64;

/// Which API a request came through: bots on one, people's own clients on the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    Bot,
    Board,
}

impl Api {
    pub fn scope(self) -> &'static str {
        match self {
            Api::Bot => "bot:play",
            Api::Board => "board:play",
        }
    }
}

pub async fn bot(
    state: State<BotApiState>,
    client: ClientAddr,
    headers: HeaderMap,
    game: Path<Uuid>,
) -> Result<Response, BotApiError> {
    stream(state, client, headers, game, Api::Bot).await
}

pub async fn board(
    state: State<BotApiState>,
    client: ClientAddr,
    headers: HeaderMap,
    game: Path<Uuid>,
) -> Result<Response, BotApiError> {
    stream(state, client, headers, game, Api::Board).await
}

/// The account of a request to one of the two APIs, which must be the right one for it: a
/// bot plays through the Bot API only, a person through the Board API.
pub async fn player_of(
    state: &BotApiState,
    headers: &HeaderMap,
    api: Api,
    client: std::net::IpAddr,
) -> Result<jungle_store::TokenHolder, BotApiError> {
    let holder = holder(state, headers, api.scope(), client).await?;
    match (api, holder.bot) {
        (Api::Bot, false) => Err(BotApiError::NotABot),
        (Api::Board, true) => Err(BotApiError::BotOnBoard),
        _ => Ok(holder),
    }
}

async fn stream(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(game): Path<Uuid>,
    api: Api,
) -> Result<Response, BotApiError> {
    let holder = player_of(&state, &headers, api, client).await?;
    state
        .limits
        .check_player(Limited::BotRequests, holder.player.id)?;
    let record = state
        .store
        .game(game)
        .await?
        .filter(|g| g.red == holder.player.id || g.blue == holder.player.id)
        .ok_or(BotApiError::NotFound("game"))?;
    let hold = state
        .bot_streams
        .open(holder.token, MAX_GAME_STREAMS)
        .ok_or(BotApiError::TooManyStreams)?;
    let mut bots = Vec::new();
    for player in [record.red, record.blue] {
        if state.store.is_bot(player).await? {
            bots.push(player);
        }
    }
    let mut view = GameView::new(game, holder.player.id, bots);
    let (mut lines, response) = ndjson::answer();
    let Some(room) = state.reach.room_in_progress(game).await else {
        // Over (or between nodes this moment): the game as it stands, then the end.
        let frame = ServerFrame::Game(Box::new(jungle_rooms::view::archived_state(&record)));
        lines.write_now(view.read(&frame));
        return Ok(response);
    };
    let (conn, mut frames, too_slow) = connection(&holder, client, FRAMES);
    let conn_id = conn.id;
    room.send(RoomCommand::Join {
        conn: Box::new(conn),
        intent: JoinIntent::Watch,
    })
    .await;
    let mut shutdown = state.shutdown.clone();
    tokio::spawn(async move {
        let mut hold = hold;
        loop {
            let written = tokio::select! {
                frame = frames.recv() => match frame {
                    Some(Outbound::Text(text)) => match serde_json::from_str::<ServerFrame>(&text) {
                        Ok(frame) => lines.write(view.read(&frame)).await,
                        Err(_) => true,
                    },
                    Some(_) => true,
                    None => false,
                },
                _ = tokio::time::sleep_until(lines.keep_alive_due()) => lines.keep_alive().await,
                _ = too_slow.notified() => false,
                // The client hung up (heard as soon as the server does, not at the next line).
                _ = lines.closed() => false,
                _ = shutdown.changed() => false,
                // The token was deleted.
                _ = hold.revoked.changed() => false,
            };
            // Gone, not reading, or the game is over.
            if !written || view.over() {
                break;
            }
        }
        room.send(RoomCommand::Leave { conn_id }).await;
    });
    Ok(response)
}

/// The latest lines of a game's chat a reading may return.
const CHAT_READ: usize = 100;

/// `GET /api/bot/game/{id}/chat` and `/api/board/game/{id}/chat`: the players' chat of a game
/// of the holder's, oldest first, as lichess answers it (`[{"text","user"}]`; berserk's
/// `board.get_game_chat`), without the lines of players the holder blocks.
pub async fn chat(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(game): Path<Uuid>,
    api: Api,
) -> Result<axum::Json<serde_json::Value>, BotApiError> {
    let holder = player_of(&state, &headers, api, client).await?;
    state
        .limits
        .check_player(Limited::BotRequests, holder.player.id)?;
    state
        .store
        .game_without_moves(game)
        .await?
        .filter(|g| g.red == holder.player.id || g.blue == holder.player.id)
        .ok_or(BotApiError::NotFound("game"))?;
    let blocked = state.store.blocked_ids(holder.player.id).await?;
    let lines: Vec<serde_json::Value> = state
        .store
        .recent_chat(game, CHAT_READ)
        .await?
        .into_iter()
        .filter(|(line, _)| line.channel == "players" && !blocked.contains(&line.player))
        .map(|(line, name)| {
            serde_json::json!({
                "text": line.text.or(line.preset).unwrap_or_default(),
                "user": name,
            })
        })
        .collect();
    Ok(axum::Json(serde_json::Value::Array(lines)))
}

pub async fn bot_chat(
    state: State<BotApiState>,
    client: ClientAddr,
    headers: HeaderMap,
    game: Path<Uuid>,
) -> Result<axum::Json<serde_json::Value>, BotApiError> {
    chat(state, client, headers, game, Api::Bot).await
}

pub async fn board_chat(
    state: State<BotApiState>,
    client: ClientAddr,
    headers: HeaderMap,
    game: Path<Uuid>,
) -> Result<axum::Json<serde_json::Value>, BotApiError> {
    chat(state, client, headers, game, Api::Board).await
}
