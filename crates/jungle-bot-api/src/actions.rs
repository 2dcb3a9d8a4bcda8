//! A game's actions over the Bot and Board APIs: `POST /api/{bot,board}/game/{id}/move/{move}`
//! (`?offeringDraw=true` offers a draw with it), `/resign`, `/draw/{yes|no}` and
//! `/takeback/{yes|no}` (yes accepts, or offers when nothing stands), `/abort`,
//! `/claim-victory`, `/claim-draw` and `/chat`. Each is the socket's action, taken through a short-lived connection of
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
    /// Read as [`answer_word`] reads yes and no, so Python's `True` is true.
    #[serde(default, rename = "offeringDraw")]
    offering_draw: Option<String>,
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
    let offering_draw = match query.offering_draw.as_deref() {
        None | Some("") => false,
        Some(word) => answer_word(word)
            .map_err(|_| BotApiError::BadRequest("offeringDraw is true or false".to_owned()))?,
    };
    // A draw offered with the move is one action: the opponent sees both at once.
    let action = if offering_draw {
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

/// The actions named by their path alone.
fn action_named(name: &str) -> Option<Action> {
    Some(match name {
        "resign" => Action::Resign,
        "abort" => Action::Abort,
        "claim-victory" => Action::ClaimVictory,
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
named_action!(bot_claim_victory, "claim-victory", Api::Bot);
named_action!(board_resign, "resign", Api::Board);
named_action!(board_abort, "abort", Api::Board);
named_action!(board_claim_victory, "claim-victory", Api::Board);

/// lichess's answer words in `draw/{answer}` and `takeback/{answer}`: `yes` or `no` (and the
/// `true`/`false`, `1`/`0` its routes read as the same).
fn answer_word(word: &str) -> Result<bool, BotApiError> {
    match word.to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" => Ok(true),
        "no" | "false" | "0" => Ok(false),
        _ => Err(BotApiError::BadRequest(
            "the answer is yes or no".to_owned(),
        )),
    }
}

/// `draw/yes` accepts the opponent's offer or makes one (as lichess's); `draw/no` declines.
fn draw_action(yes: bool) -> Action {
    if yes {
        Action::WantDraw
    } else {
        Action::DeclineDraw
    }
}

/// `takeback/yes` accepts the opponent's request or asks one; `takeback/no` declines.
fn takeback_action(yes: bool) -> Action {
    if yes {
        Action::WantTakeback
    } else {
        Action::DeclineTakeback
    }
}

macro_rules! answer_action {
    ($name:ident, $to_action:ident, $api:expr) => {
        pub async fn $name(
            State(state): State<BotApiState>,
            ClientAddr(client): ClientAddr,
            headers: HeaderMap,
            Path((game, answer)): Path<(Uuid, String)>,
        ) -> Result<Json<Value>, BotApiError> {
            let action = $to_action(answer_word(&answer)?);
            act(&state, client, &headers, game, vec![action], $api).await
        }
    };
}

answer_action!(bot_draw, draw_action, Api::Bot);
answer_action!(bot_takeback, takeback_action, Api::Bot);
answer_action!(board_draw, draw_action, Api::Board);
answer_action!(board_takeback, takeback_action, Api::Board);

/// `claim-draw`: lichess's draw for the one left behind. Here a player who leaves a game in
/// play loses it by abandonment when their time to come back runs out, with no claim asked
/// (docs/decisions.md); a draw is agreed with `draw/yes`.
async fn claim_draw(
    state: &BotApiState,
    client: std::net::IpAddr,
    headers: &HeaderMap,
    game: Uuid,
    api: Api,
) -> Result<Json<Value>, BotApiError> {
    let holder = player_of(state, headers, api, client).await?;
    state
        .limits
        .check_player(Limited::BotRequests, holder.player.id)?;
    // Said only to a player of the game, as every action is.
    let me = holder.player.id;
    let Some(_) = state
        .store
        .game(game)
        .await?
        .filter(|g| g.red == me || g.blue == me)
    else {
        return Err(BotApiError::NotFound("game in progress"));
    };
    Err(BotApiError::Refused(
        "there is no draw to claim: an opponent who stays away past their time to come back \
         loses by abandonment, unasked (claim-victory says so at once); agree a draw with \
         draw/yes"
            .to_owned(),
    ))
}

pub async fn bot_claim_draw(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(game): Path<Uuid>,
) -> Result<Json<Value>, BotApiError> {
    claim_draw(&state, client, &headers, game, Api::Bot).await
}

pub async fn board_claim_draw(
    State(state): State<BotApiState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    Path(game): Path<Uuid>,
) -> Result<Json<Value>, BotApiError> {
    claim_draw(&state, client, &headers, game, Api::Board).await
}

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
    // One action at a time per token: a program that fires several at once is served in turn.
    let _turn = state
        .bot_actions
        .turn(holder.token)
        .await
        .ok_or(BotApiError::OneAtATime)?;
    // A claim of victory the server already granted (the game ended by the opponent's
    // abandonment at the moment the claim was due) is answered as granted.
    let claiming = matches!(actions.as_slice(), [Said::Act(Action::ClaimVictory)]);
    let Some(room) = state.reach.room_in_progress(game).await else {
        return if claiming {
            claim_granted_before(state, game, holder.player.id).await
        } else {
            Err(BotApiError::NotFound("game in progress"))
        };
    };
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
    let mut granted = false;
    match wait(&mut frames, game, &Expect::State).await {
        Ok(Seen::State {
            seated,
            abandoned_by,
        }) if seated.contains(&holder.player.id) => {
            granted = claiming && abandoned_by.is_some_and(|left| left != holder.player.id);
        }
        Ok(_) => answer = Err(BotApiError::NotFound("game in progress")),
        Err(e) => answer = Err(e),
    }
    // A claim the room closed on since it was looked up: the stored end answers.
    if claiming && matches!(answer, Err(BotApiError::NotFound(_))) {
        answer = claim_granted_before(state, game, holder.player.id)
            .await
            .map(|_| ());
    }
    for action in actions {
        if granted {
            break;
        }
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

/// A claim of victory in a game no longer in play: granted if it ended by the opponent's
/// abandonment (the server ruled it at the moment the claim was due), else not found.
async fn claim_granted_before(
    state: &BotApiState,
    game: Uuid,
    me: Uuid,
) -> Result<Json<Value>, BotApiError> {
    let record = state
        .store
        .game(game)
        .await?
        .filter(|g| g.red == me || g.blue == me)
        .ok_or(BotApiError::NotFound("game in progress"))?;
    let winner = match record.winner {
        Some(jungle_rules::Side::Red) => Some(record.red),
        Some(jungle_rules::Side::Blue) => Some(record.blue),
        None => None,
    };
    if record.reason == Some(jungle_protocol::Reason::Abandoned) && winner == Some(me) {
        Ok(Json(json!({ "ok": true })))
    } else {
        Err(BotApiError::Refused("the game is over".to_owned()))
    }
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
    /// `abandoned_by`: the player who lost the game by leaving it, if it ended so.
    State {
        seated: Vec<Uuid>,
        abandoned_by: Option<Uuid>,
    },
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
                let abandoned_by = state
                    .result
                    .as_ref()
                    .filter(|r| r.reason == jungle_protocol::Reason::Abandoned)
                    .and_then(|r| r.winner)
                    .and_then(|winner| match winner {
                        jungle_rules::Side::Red => state.blue.as_ref(),
                        jungle_rules::Side::Blue => state.red.as_ref(),
                    })
                    .map(|loser| loser.id);
                return Ok(Seen::State {
                    seated,
                    abandoned_by,
                });
            }
            (
                Expect::Event,
                ServerFrame::Moved { game: g, .. }
                | ServerFrame::GameOver { game: g, .. }
                | ServerFrame::DrawOffered { game: g, .. }
                | ServerFrame::DrawDeclined { game: g, .. }
                | ServerFrame::TakebackOffered { game: g, .. }
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
