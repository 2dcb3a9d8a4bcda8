//! One game, played by the engine: the game stream read to its end, the engine asked for a
//! move on each of our turns, the move posted. A stream that breaks is opened again (the
//! first line of a game stream is the whole game, so nothing is missed).

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::api::{Api, ApiError};
use super::engine::{position_line, Engine, Think};

/// A game the event stream announced.
#[derive(Clone, Debug)]
pub struct GameStart {
    pub id: String,
    pub red: bool,
    pub rules: String,
}

/// Times a broken game stream is opened again before the game is left to the server.
const REOPENS: u32 = 10;

/// Plays `game` to its end.
pub async fn play(api: Arc<Api>, engine_command: String, game: GameStart, overhead_ms: u64) {
    let mut engine = match Engine::start(&engine_command, &game.rules).await {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("jungle bot: game {}: {e}; giving the game up", game.id);
            give_up(&api, &game.id).await;
            return;
        }
    };
    let mut reopens = 0;
    let mut played_at: Option<usize> = None;
    'stream: loop {
        let path = format!("/api/bot/game/stream/{}", game.id);
        let mut lines = match api.stream(&path).await {
            Ok(lines) => lines,
            Err(ApiError::Refused { status: 404, .. }) => break,
            Err(e) => {
                eprintln!("jungle bot: game {}: {e}", game.id);
                reopens += 1;
                if reopens > REOPENS {
                    break;
                }
                tokio::time::sleep(Duration::from_secs(u64::from(reopens.min(5)))).await;
                continue;
            }
        };
        let mut initial: Option<String> = None;
        let mut clock = Value::Null;
        while let Some(line) = lines.next().await {
            let state = match line["type"].as_str() {
                Some("gameFull") => {
                    initial = line["initialPosition"].as_str().map(str::to_owned);
                    clock = line["clock"].clone();
                    line["state"].clone()
                }
                Some("gameState") => line,
                _ => continue,
            };
            if state["status"] != "started" {
                println!(
                    "jungle bot: game {} over: {} (winner: {})",
                    game.id,
                    state["status"].as_str().unwrap_or("?"),
                    state["winner"].as_str().unwrap_or("none")
                );
                break 'stream;
            }
            let moves: Vec<&str> = state["moves"]
                .as_str()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            let red_to_move = moves.len().is_multiple_of(2);
            if red_to_move != game.red || played_at == Some(moves.len()) {
                continue;
            }
            let think = think(&clock, &state, game.red, overhead_ms);
            let position = position_line(initial.as_deref(), &moves);
            match engine.best_move(&position, &think, game.red).await {
                Ok(Some(mv)) => {
                    played_at = Some(moves.len());
                    let path = format!("/api/bot/game/{}/move/{mv}", game.id);
                    if let Err(e) = api.post(&path, &[]).await {
                        eprintln!(
                            "jungle bot: game {}: the move {mv} was refused: {e}",
                            game.id
                        );
                    }
                }
                Ok(None) => {}
                Err(e) => {
                    eprintln!("jungle bot: game {}: {e}; giving the game up", game.id);
                    give_up(&api, &game.id).await;
                    break 'stream;
                }
            }
        }
        reopens += 1;
        if reopens > REOPENS {
            eprintln!(
                "jungle bot: game {}: its stream keeps breaking; left",
                game.id
            );
            break;
        }
        println!(
            "jungle bot: game {}: its stream ended; opening it again",
            game.id
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    engine.quit().await;
}

/// An engine that cannot play ends its game at once rather than let the clock run down:
/// aborted if it is still allowed, else resigned.
async fn give_up(api: &Api, game: &str) {
    if api
        .post(&format!("/api/bot/game/{game}/abort"), &[])
        .await
        .is_err()
    {
        let _ = api.post(&format!("/api/bot/game/{game}/resign"), &[]).await;
    }
}

/// What the engine thinks with, from the game's clock and its last state; `overhead_ms` is
/// kept back from our time for the network.
pub fn think(clock: &Value, state: &Value, red: bool, overhead_ms: u64) -> Think {
    let ms = |v: &Value| v.as_u64().unwrap_or(0);
    let keep_back = |time: u64| time.saturating_sub(overhead_ms).max(50);
    if clock["kind"] == "per_move" {
        return Think::MoveTime(keep_back(ms(&clock["perMove"])));
    }
    let (mut rtime, mut btime) = (ms(&state["rtime"]), ms(&state["btime"]));
    if red {
        rtime = keep_back(rtime);
    } else {
        btime = keep_back(btime);
    }
    Think::Clocks {
        rtime,
        btime,
        rinc: ms(&state["rinc"]),
        binc: ms(&state["binc"]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn our_clock_is_kept_back_by_the_overhead() {
        let clock = json!({ "kind": "fischer", "initial": 60_000, "increment": 1_000 });
        let state = json!({ "rtime": 30_000, "btime": 20_000, "rinc": 1_000, "binc": 1_000 });
        assert_eq!(
            think(&clock, &state, false, 300),
            Think::Clocks {
                rtime: 30_000,
                btime: 19_700,
                rinc: 1_000,
                binc: 1_000
            }
        );
        let per_move = json!({ "kind": "per_move", "perMove": 10_000 });
        assert_eq!(think(&per_move, &state, true, 300), Think::MoveTime(9_700));
        let nearly_out = json!({ "rtime": 100, "btime": 0 });
        assert_eq!(
            think(&clock, &nearly_out, true, 300),
            Think::Clocks {
                rtime: 50,
                btime: 0,
                rinc: 0,
                binc: 0
            }
        );
    }
}
