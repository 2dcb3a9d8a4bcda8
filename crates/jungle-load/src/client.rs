//! One simulated player: signs in, seeks, plays random legal moves at the chosen pace, asks for a
//! rematch after each game, and stops at the deadline.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use jungle_protocol::{ClientFrame, ClockSpec, ServerFrame, Uuid};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

/// The clock of the load's games: long enough that no flag falls during a run.
pub const LOAD_CLOCK: ClockSpec = ClockSpec::Fischer {
    base_s: 3 * 3600,
    inc_s: 0,
};

/// How a simulated player finds its games.
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    /// Seek in the pool, and ask for a rematch after each game.
    Seek,
    /// Join this arena: the director pairs it. Like the browser, it follows the standings
    /// from the tournament's page until its first game opens; one player in four goes back
    /// to the standings after each game (the others wait on the finished game's page for the
    /// next one to open by itself).
    Tournament(Uuid),
}

#[derive(Clone, Copy, Debug)]
pub enum Pace {
    FlatOut,
    /// Think this long on average after the opponent's move (uniformly between half and one
    /// and a half times it, so that games do not move in lockstep) before answering.
    Every(Duration),
}

/// Counters and the latency histogram shared by every simulated player.
pub struct Shared {
    rules: String,
    pub moves: AtomicU64,
    pub errors: AtomicU64,
    pub games_started: AtomicU64,
    pub games_finished: AtomicU64,
    /// When the last move of each game was sent, for the opponent to time its arrival.
    sent: Mutex<HashMap<Uuid, Arc<AtomicU64>>>,
    epoch: Instant,
    latency: Mutex<Histogram<u64>>,
    /// The same latencies since the last progress line, to show when a tail happened.
    window: Mutex<Histogram<u64>>,
    /// The games spectators watch (`--spectators`), and their moves' times.
    pub watching: Arc<crate::spectators::Watching>,
}

impl Shared {
    pub fn new(rules: String, watched_games: usize) -> Shared {
        Shared {
            rules,
            moves: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            games_started: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            sent: Mutex::new(HashMap::new()),
            epoch: Instant::now(),
            latency: Mutex::new(micros_histogram()),
            window: Mutex::new(micros_histogram()),
            watching: Arc::new(crate::spectators::Watching::new(watched_games)),
        }
    }

    fn slot(&self, game: Uuid) -> Arc<AtomicU64> {
        self.sent
            .lock()
            .expect("sent lock")
            .entry(game)
            .or_default()
            .clone()
    }

    pub fn now_us(&self) -> u64 {
        self.epoch.elapsed().as_micros() as u64
    }

    /// Counts a move, with its latency when it was timed. Both under the latency lock, so that
    /// a measurement window (see [`Shared::start_window`]) sees each move with its sample or not
    /// at all.
    fn record_move(&self, micros: Option<u64>) {
        let mut latency = self.latency.lock().expect("latency lock");
        if let Some(micros) = micros {
            let _ = latency.record(micros.max(1));
            let _ = self
                .window
                .lock()
                .expect("latency lock")
                .record(micros.max(1));
        }
        self.moves.fetch_add(1, Ordering::Relaxed);
    }

    /// The latencies recorded since the last call.
    pub fn take_window(&self) -> Histogram<u64> {
        let mut window = self.window.lock().expect("latency lock");
        let taken = window.clone();
        window.reset();
        taken
    }

    /// Starts measuring: forgets the latencies so far and returns the moves counted so far.
    pub fn start_window(&self) -> u64 {
        let mut latency = self.latency.lock().expect("latency lock");
        latency.reset();
        self.moves.load(Ordering::Relaxed)
    }

    /// The moves counted so far and the latencies since the window started, read together.
    pub fn end_window(&self) -> (u64, Histogram<u64>) {
        let latency = self.latency.lock().expect("latency lock");
        (self.moves.load(Ordering::Relaxed), latency.clone())
    }
}

fn micros_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("histogram bounds")
}

struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// How one simulated player behaves.
#[derive(Clone, Copy, Debug)]
pub struct Behaviour {
    pub pace: Pace,
    pub mode: Mode,
    /// Resign instead of moving once a game has this many turns (so that games end).
    pub resign_at: Option<usize>,
}

pub async fn run(
    url: String,
    token: String,
    shared: Arc<Shared>,
    behaviour: Behaviour,
    stop_at: Instant,
    idle: bool,
) {
    if let Err(e) = play(&url, &token, &shared, behaviour, stop_at, idle).await {
        shared.errors.fetch_add(1, Ordering::Relaxed);
        eprintln!("client error: {e}");
    }
}

async fn play(
    url: &str,
    token: &str,
    shared: &Shared,
    behaviour: Behaviour,
    stop_at: Instant,
    idle: bool,
) -> Result<(), String> {
    let Behaviour {
        pace,
        mode,
        resign_at,
    } = behaviour;
    // tungstenite zero-fills its whole read buffer on every read; at the default 128 KiB that
    // memset was over half of this generator's CPU, and frames here are a few hundred bytes.
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let send = |frame: &ClientFrame| {
        Message::text(serde_json::to_string(frame).expect("frames serialize"))
    };
    ws.send(send(&ClientFrame::Hello {
        token: token.to_owned(),
    }))
    .await
    .map_err(|e| e.to_string())?;
    if let (false, Mode::Tournament(id)) = (idle, mode) {
        ws.send(send(&ClientFrame::JoinTournament { id, code: None }))
            .await
            .map_err(|e| e.to_string())?;
    } else if !idle {
        let rules = shared.rules.parse().map_err(|e| format!("{e}"))?;
        let clock = LOAD_CLOCK;
        ws.send(send(&ClientFrame::Seek {
            rules,
            clock,
            rated: false,
            computer_after_s: None,
        }))
        .await
        .map_err(|e| e.to_string())?;
    }
    let mut rng = Xorshift(
        token.bytes().fold(0x9e37_79b9_7f4a_7c15, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        }) | 1,
    );
    let mut game: Option<(Uuid, Arc<AtomicU64>)> = None;
    let goes_back = rng.next(4) == 0;
    // Games end at different lengths, as they do: from `resign_at` to twice that.
    let resign_at = resign_at.map(|at| at + rng.next(at.max(1)));
    let mut pending: Option<(Instant, String)> = None;
    // Moves in the current game so far (spectators time each move by this count).
    let mut moves_so_far = 0usize;
    loop {
        let wake = pending
            .as_ref()
            .map_or(stop_at, |(at, _)| (*at).min(stop_at));
        tokio::select! {
            message = ws.next() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(frame))) => {
                        return Err(format!("server closed the socket: {}", frame.map_or("no reason".into(), |f| format!("{} {}", f.code, f.reason))));
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return Err(format!("socket: {e}")),
                    None => return Err("server closed the socket".into()),
                };
                let frame: ServerFrame = serde_json::from_str(&text).map_err(|e| format!("frame {text}: {e}"))?;
                match frame {
                    ServerFrame::Game(state) => {
                        if game.as_ref().map(|(id, _)| *id) != Some(state.game) {
                            shared.games_started.fetch_add(1, Ordering::Relaxed);
                            if let Mode::Tournament(id) = mode {
                                // The browser leaves the standings for the game's page.
                                ws.send(send(&ClientFrame::UnwatchTournament { id })).await.map_err(|e| e.to_string())?;
                            }
                        }
                        shared.watching.game_started(state.game);
                        game = Some((state.game, shared.slot(state.game)));
                        moves_so_far = state.moves.len();
                        pending = choose(&state.legal, &mut rng, pace);
                    }
                    ServerFrame::Moved { game: id, legal, ply, .. } => {
                        if game.as_ref().is_some_and(|(current, _)| *current == id) {
                            moves_so_far += 1;
                        }
                        if let Some((current, slot)) = &game {
                            if *current == id && !legal.is_empty() {
                                let sent = slot.load(Ordering::Relaxed);
                                let latency =
                                    (sent > 0).then(|| shared.now_us().saturating_sub(sent));
                                shared.record_move(latency);
                                if resign_at.is_some_and(|at| ply >= at) {
                                    ws.send(send(&ClientFrame::Resign { game: id })).await.map_err(|e| e.to_string())?;
                                    pending = None;
                                } else {
                                    pending = choose(&legal, &mut rng, pace);
                                }
                            }
                        }
                    }
                    ServerFrame::GameOver { game: id, .. } => {
                        shared.games_finished.fetch_add(1, Ordering::Relaxed);
                        pending = None;
                        if Instant::now() < stop_at {
                            let next = match mode {
                                Mode::Seek => Some(ClientFrame::Rematch { game: id }),
                                // Back to the standings until the next pairing.
                                Mode::Tournament(id) => goes_back.then_some(ClientFrame::WatchTournament { id }),
                            };
                            if let Some(next) = next {
                                ws.send(send(&next)).await.map_err(|e| e.to_string())?;
                            }
                        }
                    }
                    ServerFrame::Error { code, message, .. } => {
                        shared.errors.fetch_add(1, Ordering::Relaxed);
                        eprintln!("server error {code:?}: {message}");
                    }
                    _ => {}
                }
            }
            _ = tokio::time::sleep_until(wake) => {
                if Instant::now() >= stop_at {
                    let _ = ws.close(None).await;
                    return Ok(());
                }
                if let (Some((id, slot)), Some((_, mv))) = (&game, pending.take()) {
                    slot.store(shared.now_us(), Ordering::Relaxed);
                    if shared.watching.is_watched(*id) {
                        shared.watching.sent(*id, moves_so_far, shared.now_us());
                    }
                    ws.send(send(&ClientFrame::Move { game: *id, mv, blur: false })).await.map_err(|e| e.to_string())?;
                }
            }
        }
    }
}

fn choose(legal: &[String], rng: &mut Xorshift, pace: Pace) -> Option<(Instant, String)> {
    if legal.is_empty() {
        return None;
    }
    let delay = match pace {
        Pace::FlatOut => Duration::ZERO,
        Pace::Every(mean) => mean.mul_f64(0.5 + rng.next(1001) as f64 / 1000.0),
    };
    Some((Instant::now() + delay, legal[rng.next(legal.len())].clone()))
}
