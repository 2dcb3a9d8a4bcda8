//! A game's actions over the Bot and Board APIs: `POST /api/{bot,board}/game/{id}/move/{move}`
//! (`?offeringDraw=true` offers a draw with it), `/resign`, `/draw/{yes|no}` and
//! `/takeback/{yes|no}`, `/abort` and `/chat`. Each is the socket's action, taken through a short-lived connection of
//! the player's to the game's room (on whichever node runs it), and answered when the room has
//! answered: 200 once it happened, 400 with the reason when the room refused (nothing changed).
//! A move's time is charged as any move's is, from when the room takes it.

use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::Json;
use jungle_protocol::ServerFrame;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::mpsc;
use uuid::Uuid;

use super::game_stream::{player_of, Api};
use super::holder::connection;
use super::BotApiError;
use crate::BotApiState;
use jungle_limits::Limited;
use jungle_rooms::{Action, Instruction, JoinIntent, Outbound, RoomCommand};
use jungle_web::client_addr::ClientAddr;

/// How long an action waits for the room's answer.
const ANSWER: Duration = Duration::from_secs(5);
/// The longest move text read (`a3a4`, `pass`).
const MAX_MOVE: usize = 8;

#[derive(Deserialize)]
pub struct MoveQuery {
    #[serde(default, rename = "offeringDraw")]
    offering_draw: bool,
}

pub async fn bot_move(
    state: State<BotApiState>,
    client: ClientAddr,
    headers: HeaderMap,
    Path((game, mv)): Path<(Uuid, String)>,
    query: Query<MoveQuery>,
) -> Result<Json<Value>, BotApiError> {
    play(state, client, headers, game, mv, query, Api::Bot).await
}

pub async fn board_move(
    state: State<BotApiState>,
    client: ClientAddr,
    headers: HeaderMap,
    Path((game, mv)): Path<(Uuid, String)>,
    query: Query<MoveQuery>,
) -> Result<Json<Value>, BotApiError> {
    play(state, client, headers, game, mv, query, Api::Board).await
}

async fn play(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    game: Uuid,
    mv: String,
    Query(query): Query<MoveQuery>,
    api: Api,
) -> Result<Json<Value>, BotApiError> {
    // Read here, so that text that is no move is told so (and never echoed at length).
    if mv.is_empty() || mv.len() > MAX_MOVE {
        return Err(BotApiError::BadRequest(
            "that is no move: a move reads like a3a4".into(),
        ));
    }
    let mv = mv.to_ascii_lowercase();
    if mv == "pass" {
        return Err(BotApiError::BadRequest(
            "pass is played by the server, for a turn whose time ran out".into(),
        ));
    }
    if let Err(e) = mv.parse::<jungle_rules::Move>() {
        return Err(BotApiError::BadRequest(e.to_string()));
    }
    // A draw offered with the move is one action: the opponent sees both at once.
    let action = if query.offering_draw {
        Action::MoveOfferingDraw {
            text: mv,
            lag: Duration::ZERO,
        }
    } else {
        Action::Move {
            text: mv,
            lag: Duration::ZERO,
            blurred: false,
        }
    };
    act(&state, client, &headers, game, vec![action], api).await
}

/// `resign`, `draw/yes`, `draw/no`, `takeback/yes`, `takeback/no`.
fn action_named(name: &str) -> Option<Action> {
    Some(match name {
        "resign" => Action::Resign,
        "abort" => Action::Abort,
        "draw/yes" => Action::AcceptDraw,
        "draw/no" => Action::DeclineDraw,
        "takeback/yes" => Action::AcceptTakeback,
        "takeback/no" => Action::DeclineTakeback,
        _ => return None,
    })
}

macro_rules! named_action {
    ($name:ident, $path:literal, $api:expr) => {
        pub async fn $name(
            State(state): State<BotApiState>,
            ClientAddr(client): ClientAddr,
            headers: HeaderMap,
            Path(game): Path<Uuid>,
        ) -> Result<Json<Value>, BotApiError> {
            let action = action_named($path).expect("a known action");
            act(&state, client, &headers, game, vec![action], $api).await
        }
    };
}

named_action!(bot_resign, "resign", Api::Bot);
named_action!(bot_abort, "abort", Api::Bot);
named_action!(bot_draw_yes, "draw/yes", Api::Bot);
named_action!(bot_draw_no, "draw/no", Api::Bot);
named_action!(bot_takeback_yes, "takeback/yes", Api::Bot);
named_action!(bot_takeback_no, "takeback/no", Api::Bot);
named_action!(board_resign, "resign", Api::Board);
named_action!(board_abort, "abort", Api::Board);
named_action!(board_draw_yes, "draw/yes", Api::Board);
named_action!(board_draw_no, "draw/no", Api::Board);
named_action!(board_takeback_yes, "takeback/yes", Api::Board);
named_action!(board_takeback_no, "takeback/no", Api::Board);

/// The body of `/chat`, as a form (as lichess-bot sends it) or as JSON.
#[derive(Deserialize)]
pub struct ChatBody {
    /// `player` (the default) or `spectator`.
    #[serde(default)]
    room: Option<String>,
    text: String,
}

pub async fn bot_chat(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(game): Path<Uuid>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, BotApiError> {
    chat(&state, client, &headers, game, &body, Api::Bot).await
}

pub async fn board_chat(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(game): Path<Uuid>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, BotApiError> {
    chat(&state, client, &headers, game, &body, Api::Board).await
}

/// A player's line to the players' chat of their game. The spectators' room is not a
/// player's to write in while the game is on (a player's own room is the players' chat).
async fn chat(
    state: &BotApiState,
    client: std::net::IpAddr,
    headers: &HeaderMap,
    game: Uuid,
    body: &[u8],
    api: Api,
) -> Result<Json<Value>, BotApiError> {
    let body: ChatBody = super::form_or_json(headers, body)?;
    match body.room.as_deref() {
        // lichess's name, and the one our streams once wrote (`players`).
        None | Some("player") | Some("players") => {}
        Some("spectator") | Some("spectators") => {
            return Err(BotApiError::BadRequest(
                "a player writes in the player room; the spectators' room is the spectators'"
                    .to_owned(),
            ))
        }
        Some(_) => {
            return Err(BotApiError::BadRequest(
                "room is player or spectator".to_owned(),
            ))
        }
    }
    let line = jungle_rooms::chat_line::check(state.chat, None, Some(body.text))
        .map_err(|reason| BotApiError::BadRequest(reason.to_owned()))?;
    let said = Said::Chat {
        preset: line.preset,
        text: line.text,
    };
    take_turns(state, client, headers, game, vec![said], api).await
}

/// What a request asks of the room: actions of the game, or a chat line.
enum Said {
    Act(Action),
    Chat {
        preset: Option<String>,
        text: Option<String>,
    },
}

/// Takes `actions` in `game` for the token's player, one after another, each answered by the
/// room before the next.
async fn act(
    state: &BotApiState,
    client: std::net::IpAddr,
    headers: &HeaderMap,
    game: Uuid,
    actions: Vec<Action>,
    api: Api,
) -> Result<Json<Value>, BotApiError> {
    let said = actions.into_iter().map(Said::Act).collect();
    take_turns(state, client, headers, game, said, api).await
}

async fn take_turns(
    state: &BotApiState,
    client: std::net::IpAddr,
    headers: &HeaderMap,
    game: Uuid,
    actions: Vec<Said>,
    api: Api,
) -> Result<Json<Value>, BotApiError> {
    let holder = player_of(state, headers, api, client).await?;
    state
        .limits
        .check_player(Limited::BotRequests, holder.player.id)?;
    if actions.iter().any(|said| matches!(said, Said::Chat { .. })) {
        // A line over HTTP counts as one on the socket.
        state
            .limits
            .check(Limited::Chat, Some(holder.player.id), client)?;
    }
    // One action at a time per token: a program that fires many at once waits its turn.
    let _turn = state
        .bot_actions
        .0
        .open(holder.token, 1)
        .ok_or(BotApiError::OneAtATime)?;
    let room = state
        .reach
        .room_in_progress(game)
        .await
        .ok_or(BotApiError::NotFound("game in progress"))?;
    // Room for the game's state and the chat lines a latecomer is shown, before the answer.
    let (conn, mut frames, _) = connection(&holder, client, 160);
    let conn_id = conn.id;
    room.send(RoomCommand::Join {
        conn: Box::new(conn),
        intent: JoinIntent::Watch,
    })
    .await;
    let mut answer = Ok(());
    // The room answers the join with the game's state first; a player of another game, or
    // none, is refused there.
    match wait(&mut frames, game, &Expect::State).await {
        Ok(Seen::State { seated }) if seated.contains(&holder.player.id) => {}
        Ok(_) => answer = Err(BotApiError::NotFound("game in progress")),
        Err(e) => answer = Err(e),
    }
    for action in actions {
        if answer.is_err() {
            break;
        }
        let (command, expect) = match action {
            Said::Act(action) => (
                RoomCommand::Act {
                    conn_id,
                    player: holder.player.id,
                    action: Box::new(action),
                },
                Expect::Event,
            ),
            Said::Chat { preset, text } => (
                RoomCommand::Chat {
                    conn_id,
                    line: Box::new(jungle_rooms::chat_line::ChatLine {
                        preset: preset.clone(),
                        text: text.clone(),
                    }),
                },
                Expect::Line {
                    from: holder.player.id,
                    preset,
                    text,
                },
            ),
        };
        room.send(command).await;
        answer = wait(&mut frames, game, &expect).await.map(|_| ());
    }
    room.send(RoomCommand::Leave { conn_id }).await;
    answer.map(|()| Json(json!({ "ok": true })))
}

/// What a wait is for.
enum Expect {
    /// The game's state, the room's answer to a join.
    State,
    /// An event of the game: an action taken.
    Event,
    /// This line of ours in the chat (the lines a latecomer is shown come before it).
    Line {
        from: Uuid,
        preset: Option<String>,
        text: Option<String>,
    },
}

/// What the room said that ends a wait.
enum Seen {
    State { seated: Vec<Uuid> },
    Event,
}

/// The room's next answer about `game` that is the one `expect`ed, or its refusal. Other
/// frames (the chat lines shown to a latecomer, the opponent's news) are passed over.
async fn wait(
    frames: &mut mpsc::Receiver<Outbound>,
    game: Uuid,
    expect: &Expect,
) -> Result<Seen, BotApiError> {
    let deadline = tokio::time::Instant::now() + ANSWER;
    loop {
        let frame = match tokio::time::timeout_at(deadline, frames.recv()).await {
            Ok(Some(Outbound::Text(text))) => serde_json::from_str::<ServerFrame>(&text).ok(),
            Ok(Some(Outbound::Do(instruction))) => match *instruction {
                Instruction::Refused { .. } => {
                    return Err(BotApiError::NotFound("game in progress"))
                }
                Instruction::Enter(_) => None,
                // The game changed nodes before it answered: the bot asks again.
                Instruction::Moved { .. } => return Err(BotApiError::NoAnswer),
            },
            Ok(None) | Err(_) => return Err(BotApiError::NoAnswer),
        };
        let Some(frame) = frame else { continue };
        match (expect, frame) {
            (_, ServerFrame::Error { message, .. }) => return Err(BotApiError::Refused(message)),
            (Expect::State, ServerFrame::Game(state)) if state.game == game => {
                let seated = [&state.red, &state.blue]
                    .into_iter()
                    .flatten()
                    .map(|s| s.id)
                    .collect();
                return Ok(Seen::State { seated });
            }
            (
                Expect::Event,
                ServerFrame::Moved { game: g, .. }
                | ServerFrame::GameOver { game: g, .. }
                | ServerFrame::DrawOffered { game: g, .. }
                | ServerFrame::DrawDeclined { game: g, .. }
                | ServerFrame::TakebackDeclined { game: g, .. },
            ) if g == game => return Ok(Seen::Event),
            // A takeback taken: the whole state again.
            (Expect::Event, ServerFrame::Game(state)) if state.game == game => {
                return Ok(Seen::Event)
            }
            (
                Expect::Line {
                    from: me,
                    preset: said_preset,
                    text: said_text,
                },
                ServerFrame::ChatLine {
                    game: g,
                    from,
                    preset,
                    text,
                    ..
                },
            ) if g == game && from.id == *me && preset == *said_preset && text == *said_text => {
                return Ok(Seen::Event)
            }
            _ => {}
        }
    }
}
