//! The engine under load (issue 13): players each in a game against the computer, answering
//! its moves at a human pace, while "analysts" keep asking for analyses back to back. Measures
//! the computer's reply (our move's echo → its move) and each analysis's answer, so a run with
//! and without analysts shows whether analysis delays the games (it should not: live moves go
//! first in the engine pool).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use jungle_protocol::{ClientFrame, ClockSpec, ColorChoice, ServerFrame};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// Positions the analysts ask about, in turn: the start and a few turns into a game.
const LINES: [&[&str]; 5] = [
    &[],
    &["e3d3"],
    &["e3d3", "a9b9"],
    &["e3d3", "a9b9", "d3d4"],
    &["e3d3", "a9b9", "d3d4", "g9f9"],
];

#[derive(Default)]
pub struct Measures {
    pub computer: Mutex<Option<Histogram<u64>>>,
    pub analysis: Mutex<Option<Histogram<u64>>>,
    pub errors: std::sync::atomic::AtomicU64,
}

fn record(slot: &Mutex<Option<Histogram<u64>>>, micros: u64) {
    let mut slot = slot.lock().expect("histogram lock");
    let histogram = slot.get_or_insert_with(|| {
        Histogram::new_with_bounds(1, 120_000_000, 3).expect("histogram bounds")
    });
    let _ = histogram.record(micros.max(1));
}

pub fn summary(slot: &Mutex<Option<Histogram<u64>>>) -> serde_json::Value {
    let slot = slot.lock().expect("histogram lock");
    match slot.as_ref() {
        None => serde_json::Value::Null,
        Some(h) => {
            let ms = |q: f64| (h.value_at_quantile(q) as f64 / 100.0).round() / 10.0;
            serde_json::json!({ "p50": ms(0.5), "p99": ms(0.99), "max": (h.max() as f64 / 100.0).round() / 10.0, "samples": h.len() })
        }
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn signed_in(url: &str, token: &str) -> Result<Socket, String> {
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    send(
        &mut ws,
        &ClientFrame::Hello {
            token: token.to_owned(),
        },
    )
    .await?;
    Ok(ws)
}

async fn send(ws: &mut Socket, frame: &ClientFrame) -> Result<(), String> {
    let text = serde_json::to_string(frame).expect("frames serialize");
    ws.send(Message::text(text))
        .await
        .map_err(|e| e.to_string())
}

/// Reads the next server frame before `until`; `None` at the deadline.
async fn next(ws: &mut Socket, until: Instant) -> Result<Option<ServerFrame>, String> {
    loop {
        let message = tokio::select! {
            m = ws.next() => m,
            _ = tokio::time::sleep_until(until) => return Ok(None),
        };
        match message {
            Some(Ok(Message::Text(text))) => {
                return serde_json::from_str(&text)
                    .map(Some)
                    .map_err(|e| format!("{e}: {text}"))
            }
            Some(Ok(Message::Close(_))) | None => return Err("server closed the socket".into()),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.to_string()),
        }
    }
}

/// One player against the computer at `level`, moving `think` after each of its moves; a new
/// game when one ends. Counts from `measure_from` on.
pub async fn computer_player(
    url: String,
    token: String,
    level: u8,
    think: Duration,
    measure_from: Instant,
    stop_at: Instant,
    measures: Arc<Measures>,
) {
    if let Err(e) =
        play_computer(&url, &token, level, think, measure_from, stop_at, &measures).await
    {
        measures
            .errors
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        eprintln!("computer player: {e}");
    }
}

async fn play_computer(
    url: &str,
    token: &str,
    level: u8,
    think: Duration,
    measure_from: Instant,
    stop_at: Instant,
    measures: &Measures,
) -> Result<(), String> {
    let mut ws = signed_in(url, token).await?;
    let new_game = ClientFrame::PlayComputer {
        rules: jungle_protocol::Ruleset::Classic,
        clock: ClockSpec::Fischer {
            base_s: 3 * 3600,
            inc_s: 0,
        },
        level,
        color: ColorChoice::Red,
        position: None,
    };
    send(&mut ws, &new_game).await?;
    // Our move's echo arrived at this instant: the computer's reply is timed from it.
    let mut echoed: Option<Instant> = None;
    let mut pick = 0usize;
    while let Some(frame) = next(&mut ws, stop_at).await? {
        let (game, legal) = match frame {
            ServerFrame::Game(state) if state.status == jungle_protocol::GameStatus::Active => {
                (state.game, state.legal)
            }
            ServerFrame::Moved { game, legal, .. } => {
                if legal.is_empty() {
                    echoed = Some(Instant::now());
                    continue;
                }
                if let Some(at) = echoed.take() {
                    if at >= measure_from {
                        record(&measures.computer, at.elapsed().as_micros() as u64);
                    }
                }
                (game, legal)
            }
            ServerFrame::GameOver { .. } => {
                send(&mut ws, &new_game).await?;
                continue;
            }
            ServerFrame::Error { message, .. } => return Err(message),
            _ => continue,
        };
        if legal.is_empty() {
            continue;
        }
        tokio::time::sleep(think).await;
        pick = pick.wrapping_mul(31).wrapping_add(7);
        let mv = legal[pick % legal.len()].clone();
        send(
            &mut ws,
            &ClientFrame::Move {
                game,
                mv,
                blur: false,
            },
        )
        .await?;
    }
    Ok(())
}

/// Asks for analyses back to back until `stop_at`.
pub async fn analyst(
    url: String,
    token: String,
    measure_from: Instant,
    stop_at: Instant,
    measures: Arc<Measures>,
) {
    let run = async {
        let mut ws = signed_in(&url, &token).await?;
        let mut turn = 0;
        loop {
            let moves = LINES[turn % LINES.len()]
                .iter()
                .map(|m| m.to_string())
                .collect();
            turn += 1;
            let asked = Instant::now();
            send(
                &mut ws,
                &ClientFrame::Analyse {
                    rules: jungle_protocol::Ruleset::Classic,
                    position: None,
                    moves,
                },
            )
            .await?;
            loop {
                match next(&mut ws, stop_at).await? {
                    None => return Ok::<(), String>(()),
                    Some(ServerFrame::Analysis { .. }) => break,
                    Some(ServerFrame::Error { message, .. }) => return Err(message),
                    Some(_) => continue,
                }
            }
            if asked >= measure_from {
                record(&measures.analysis, asked.elapsed().as_micros() as u64);
            }
        }
    };
    if let Err(e) = run.await {
        measures
            .errors
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        eprintln!("analyst: {e}");
    }
}
