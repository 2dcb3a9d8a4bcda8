//! `--spectators N`: connections that each watch one of the first `--watched-games` games and
//! time every move from when its mover sent it until the *last* of that game's spectators has
//! it (issue 30). A move is keyed by the game and the number of moves before it, which the
//! mover and each spectator count the same way whatever the protocol's ply numbering.

use std::collections::HashMap;
use std::sync::Mutex;

use futures_util::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use jungle_protocol::{ClientFrame, ServerFrame, Uuid};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

/// The watched games and their moves in flight.
pub struct Watching {
    wanted: usize,
    state: Mutex<State>,
    /// Move sent → the last spectator had it, in microseconds.
    latency: Mutex<Histogram<u64>>,
}

#[derive(Default)]
struct State {
    /// The watched games, in the order they started, with their spectators' count.
    games: Vec<(Uuid, usize)>,
    /// (game, moves before it) → when the mover sent it.
    sent: HashMap<(Uuid, usize), u64>,
    /// (game, moves before it) → how many spectators have it.
    seen: HashMap<(Uuid, usize), usize>,
}

impl Watching {
    pub fn new(wanted: usize) -> Watching {
        Watching {
            wanted,
            state: Mutex::default(),
            latency: Mutex::new(
                Histogram::new_with_bounds(1, 60_000_000, 3).expect("histogram bounds"),
            ),
        }
    }

    /// A game started: watched if fewer than wanted are.
    pub fn game_started(&self, game: Uuid) {
        let mut state = self.state.lock().expect("watching lock");
        if state.games.len() < self.wanted && !state.games.iter().any(|(g, _)| *g == game) {
            state.games.push((game, 0));
        }
    }

    /// Whether moves of `game` are timed.
    pub fn is_watched(&self, game: Uuid) -> bool {
        let state = self.state.lock().expect("watching lock");
        state.games.iter().any(|(g, _)| *g == game)
    }

    /// The mover of a watched game sends the move that follows `before` moves.
    pub fn sent(&self, game: Uuid, before: usize, at_us: u64) {
        let mut state = self.state.lock().expect("watching lock");
        state.sent.insert((game, before), at_us);
    }

    /// The `index`-th spectator's game, once enough games have started; counts it in.
    fn assign(&self, index: usize) -> Option<Uuid> {
        let mut state = self.state.lock().expect("watching lock");
        if state.games.len() < self.wanted {
            return None;
        }
        let at = index % state.games.len();
        state.games[at].1 += 1;
        Some(state.games[at].0)
    }

    /// A spectator has the move that follows `before` moves of `game`.
    fn seen(&self, game: Uuid, before: usize, now_us: u64) {
        let mut state = self.state.lock().expect("watching lock");
        let watchers = state
            .games
            .iter()
            .find(|(g, _)| *g == game)
            .map_or(0, |(_, n)| *n);
        let count = {
            let count = state.seen.entry((game, before)).or_default();
            *count += 1;
            *count
        };
        if count < watchers {
            return;
        }
        state.seen.remove(&(game, before));
        if let Some(sent) = state.sent.remove(&(game, before)) {
            let micros = now_us.saturating_sub(sent).max(1);
            let _ = self.latency.lock().expect("latency lock").record(micros);
        }
    }

    /// Forgets the times so far (the measured window starts).
    pub fn start_window(&self) {
        self.latency.lock().expect("latency lock").reset();
    }

    pub fn latencies(&self) -> Histogram<u64> {
        self.latency.lock().expect("latency lock").clone()
    }

    /// Spectators counted in, in all.
    pub fn spectators(&self) -> usize {
        let state = self.state.lock().expect("watching lock");
        state.games.iter().map(|(_, n)| n).sum()
    }
}

/// One spectator: signs in, waits for its game, watches it until `stop_at`.
pub async fn spectate(
    url: String,
    token: String,
    index: usize,
    watching: std::sync::Arc<Watching>,
    // The run's clock, shared with the movers, whose sending times it is compared with.
    now_us: impl Fn() -> u64,
    stop_at: Instant,
) -> Result<(), String> {
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(&url, Some(config), true)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let send = |frame: &ClientFrame| {
        Message::text(serde_json::to_string(frame).expect("frames serialize"))
    };
    ws.send(send(&ClientFrame::Hello { token }))
        .await
        .map_err(|e| e.to_string())?;
    let game = loop {
        if let Some(game) = watching.assign(index) {
            break game;
        }
        if Instant::now() >= stop_at {
            return Ok(());
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    ws.send(send(&ClientFrame::Watch { game }))
        .await
        .map_err(|e| e.to_string())?;
    // Moves seen so far: from the whole state, then one per `moved`.
    let mut moves: Option<usize> = None;
    loop {
        let message = tokio::select! {
            message = ws.next() => message,
            _ = tokio::time::sleep_until(stop_at) => {
                let _ = ws.close(None).await;
                return Ok(());
            }
        };
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(frame))) => {
                return Err(format!(
                    "spectator closed: {}",
                    frame.map_or("no reason".into(), |f| format!("{} {}", f.code, f.reason))
                ))
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(format!("spectator socket: {e}")),
            None => return Err("spectator socket closed".into()),
        };
        match serde_json::from_str::<ServerFrame>(&text) {
            Ok(ServerFrame::Game(state)) if state.game == game => moves = Some(state.moves.len()),
            Ok(ServerFrame::Moved { game: id, .. }) if id == game => {
                if let Some(before) = moves {
                    watching.seen(game, before, now_us());
                    moves = Some(before + 1);
                }
            }
            Ok(ServerFrame::Error { message, .. }) => return Err(format!("spectator: {message}")),
            Ok(_) => {}
            Err(e) => return Err(format!("frame {text}: {e}")),
        }
    }
}
