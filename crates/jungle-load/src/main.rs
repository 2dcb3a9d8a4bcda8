//! `jungle-load`: opens real WebSocket games against a Jungle Arena server on this machine and
//! plays random legal moves, then prints throughput, move round-trip latency (a move sent → the
//! opponent's `moved` received), errors and the server's resident memory as one JSON line.
//!
//! It only targets loopback addresses: it is a benchmark for our own machines, not a weapon.

mod attack;
mod client;
mod engine_load;
mod slow_requests;
mod spectators;

use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use client::{Behaviour, Mode, Pace, Shared};
use jungle_protocol::Uuid;
use serde_json::json;
use tokio::sync::Semaphore;

#[derive(Parser, Debug, Clone)]
#[command(
    name = "jungle-load",
    about = "Load generator for Jungle Arena (loopback only)"
)]
pub struct Args {
    /// WebSocket URL of the server, e.g. ws://127.0.0.1:8080 (loopback addresses only).
    #[arg(long, default_value = "ws://127.0.0.1:8080")]
    url: String,
    /// More nodes of the same cluster: players are spread over `--url` and these in turn
    /// (one player on each, so that most games span two nodes).
    #[arg(long = "also-url")]
    also_urls: Vec<String>,
    /// Concurrent games (two sockets each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Moves per second in each game.
    #[arg(long, conflicts_with = "flat_out")]
    moves_per_s: Option<f64>,
    /// Move as soon as it is your turn.
    #[arg(long)]
    flat_out: bool,
    /// Seconds of measured play, after the warm-up.
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Seconds of play before measuring: every game starts within the first seconds, so the
    /// server first works through a burst of starts and first moves that no steady load has.
    #[arg(long, default_value_t = 10)]
    warmup: u64,
    /// Extra connections that sign in and then sit idle.
    #[arg(long, default_value_t = 0)]
    idle_sockets: usize,
    /// Extra connections that each watch one of the first `--watched-games` games, timing each
    /// move until the last of them has it.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
    /// The games the spectators share between them.
    #[arg(long, default_value_t = 1)]
    watched_games: usize,
    /// The server's process id (it runs on this machine): its CPU time and memory are read from
    /// /proc, which works for builds whose /metrics do not report them.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Ruleset of the games.
    #[arg(long, default_value = "classic")]
    rules: String,
    /// Instead of games, one of issue 11's attacks (see attack.rs), bounded by `--count`.
    #[arg(long, value_enum)]
    attack: Option<attack::Attack>,
    /// Connections (`idle-tcp`, `slow-requests`) or guesses (`guess-codes`) of an attack.
    #[arg(long, default_value_t = 1_500)]
    count: usize,
    /// Instead of games between players: this many players each playing the computer (the
    /// server needs `--no-rate-limits`: they all come from this one address).
    #[arg(long)]
    computer_games: Option<usize>,
    /// The computer's level in `--computer-games`.
    #[arg(long, default_value_t = 3)]
    level: u8,
    /// With `--computer-games`: connections asking for analyses back to back meanwhile.
    #[arg(long, default_value_t = 0)]
    analysts: usize,
    /// Instead of seeking, all the players (`--games` × 2) join one arena made for the run
    /// (casual, the games' clock, long enough for the run): the director pairs them.
    #[arg(long)]
    tournament: bool,
    /// Resign instead of moving once a game has this many turns, so that games end and new
    /// ones start (rematches, or the arena's next pairings) during the run.
    #[arg(long)]
    resign_at: Option<usize>,
}

/// `--tournament`: makes the arena every player joins; its id.
async fn create_arena(http: &str, token: &str, args: &Args) -> Result<Uuid, String> {
    // Pairing stops before the end (two minutes for this clock): the run fits before that.
    let minutes = (args.warmup + args.duration + 120).div_ceil(60) as u32 + 1;
    let body = jungle_protocol::http::NewTournament {
        name: "jungle-load arena".into(),
        rules: args.rules.parse().map_err(|e| format!("{e}"))?,
        clock: client::LOAD_CLOCK,
        minutes,
        starts_at: None,
        rated: false,
        private: false,
        bots: false,
    };
    let response = reqwest::Client::new()
        .post(format!("{http}/api/tournaments"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!(
            "making the arena: {} {}",
            response.status(),
            response.text().await.unwrap_or_default()
        ));
    }
    let made: jungle_protocol::http::TournamentCreated =
        response.json().await.map_err(|e| e.to_string())?;
    Ok(made.id)
}

/// `--computer-games`: the computer's replies and analyses timed, as one JSON line.
async fn run_engine_load(args: &Args, http: &str, games: usize) -> Result<(), String> {
    let tokens = create_players(http, games + args.analysts).await?;
    let measures = Arc::new(engine_load::Measures::default());
    let ws_url = format!("{}/ws", args.url.trim_end_matches('/'));
    let now = tokio::time::Instant::now();
    let measure_from = now + Duration::from_secs(args.warmup);
    let stop_at = measure_from + Duration::from_secs(args.duration);
    let think = match args.moves_per_s {
        Some(rate) if rate > 0.0 => Duration::from_secs_f64(1.0 / rate),
        _ => Duration::from_secs(1),
    };
    let mut tasks = Vec::new();
    for (i, token) in tokens.into_iter().enumerate() {
        let (url, measures) = (ws_url.clone(), measures.clone());
        tasks.push(if i < games {
            tokio::spawn(engine_load::computer_player(
                url,
                token,
                args.level,
                think,
                measure_from,
                stop_at,
                measures,
            ))
        } else {
            tokio::spawn(engine_load::analyst(
                url,
                token,
                measure_from,
                stop_at,
                measures,
            ))
        });
    }
    for task in tasks {
        let _ = task.await;
    }
    let report = json!({
        "computer_games": games,
        "level": args.level,
        "analysts": args.analysts,
        "seconds": args.duration,
        "computer_reply_ms": engine_load::summary(&measures.computer),
        "analysis_ms": engine_load::summary(&measures.analysis),
        "errors": measures.errors.load(Ordering::Relaxed),
        "server_rss_kib": server_rss_kib(http).await,
    });
    println!("{report}");
    Ok(())
}

fn http_base(ws_url: &str) -> Result<String, String> {
    let rest = ws_url
        .strip_prefix("ws://")
        .ok_or("only ws:// URLs are supported (a loopback server needs no TLS)")?;
    let host_port = rest.split('/').next().unwrap_or(rest);
    let host = host_port.rsplit_once(':').map_or(host_port, |(h, _)| h);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if !loopback {
        return Err(format!(
            "{host} is not a loopback address; jungle-load only targets this machine"
        ));
    }
    Ok(format!("http://{host_port}"))
}

async fn create_players(http: &str, count: usize) -> Result<Vec<String>, String> {
    let client = reqwest::Client::new();
    let limit = Arc::new(Semaphore::new(32));
    let mut tasks = Vec::with_capacity(count);
    for i in 0..count {
        let client = client.clone();
        let url = format!("{http}/api/players");
        let permit = limit.clone().acquire_owned().await.expect("semaphore open");
        tasks.push(tokio::spawn(async move {
            let _permit = permit;
            let response = client
                .post(url)
                .json(&jungle_protocol::http::NewPlayer {
                    name: Some(format!("load {i}")),
                })
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let created: jungle_protocol::http::CreatedPlayer =
                response.json().await.map_err(|e| e.to_string())?;
            Ok::<_, String>(created.token)
        }));
    }
    let mut tokens = Vec::with_capacity(count);
    for task in tasks {
        tokens.push(task.await.map_err(|e| e.to_string())??);
    }
    Ok(tokens)
}

/// One of the server's own figures from its /metrics page.
async fn server_metric(http: &str, name: &str) -> Option<f64> {
    let text = reqwest::get(format!("{http}/metrics"))
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Where the server's CPU time and memory are read: its /metrics, or /proc for a process id.
#[derive(Clone)]
enum ServerStats {
    Metrics(String),
    Proc(u32),
}

impl ServerStats {
    async fn rss_kib(&self) -> Option<u64> {
        match self {
            ServerStats::Metrics(http) => {
                let bytes = server_metric(http, "process_resident_memory_bytes").await?;
                Some((bytes / 1024.0) as u64)
            }
            ServerStats::Proc(pid) => {
                let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
                let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
                line.split_whitespace().nth(1)?.parse().ok()
            }
        }
    }

    /// CPU time so far (user and system), in seconds.
    async fn cpu_s(&self) -> Option<CpuTime> {
        match self {
            ServerStats::Metrics(http) => Some(CpuTime {
                total_s: server_metric(http, "process_cpu_seconds_total").await?,
                kernel_s: None,
            }),
            ServerStats::Proc(pid) => {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                let after = &stat[stat.rfind(')')? + 2..];
                let mut fields = after.split_whitespace().skip(11);
                let user: f64 = fields.next()?.parse().ok()?;
                let system: f64 = fields.next()?.parse().ok()?;
                // Clock ticks: 100 a second on Linux (USER_HZ).
                Some(CpuTime {
                    total_s: (user + system) / 100.0,
                    kernel_s: Some(system / 100.0),
                })
            }
        }
    }
}

/// A process's CPU time so far. The kernel's share (system time: sockets, wake-ups, `fsync`)
/// is known only from /proc, not from /metrics.
#[derive(Clone, Copy)]
struct CpuTime {
    total_s: f64,
    kernel_s: Option<f64>,
}

impl CpuTime {
    /// Microseconds per move between two readings: all of it, and the kernel's share.
    fn per_move(
        before: Option<CpuTime>,
        after: Option<CpuTime>,
        moves: u64,
    ) -> (Option<f64>, Option<f64>) {
        match (before, after) {
            (Some(before), Some(after)) if moves > 0 => {
                let per_move = |s: f64| (s * 1e6 / moves as f64).round();
                let kernel = match (before.kernel_s, after.kernel_s) {
                    (Some(b), Some(a)) => Some(per_move(a - b)),
                    _ => None,
                };
                (Some(per_move(after.total_s - before.total_s)), kernel)
            }
            _ => (None, None),
        }
    }
}

async fn server_rss_kib(http: &str) -> Option<u64> {
    ServerStats::Metrics(http.to_owned()).rss_kib().await
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
    match run(args).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jungle-load: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), String> {
    let http = http_base(&args.url)?;
    if let Some(which) = args.attack {
        rlimit::increase_nofile_limit(args.count as u64 + 256)
            .map_err(|e| format!("raising the open-file limit: {e}"))?;
        let duration = Duration::from_secs(args.duration);
        let count = args.count.min(200_000);
        return attack::run(which, &args.url, &http, count, duration, args.server_pid).await;
    }
    if let Some(games) = args.computer_games {
        rlimit::increase_nofile_limit((games + args.analysts) as u64 + 256)
            .map_err(|e| format!("raising the open-file limit: {e}"))?;
        return run_engine_load(&args, &http, games.min(5_000)).await;
    }
    let sockets = (args.games * 2 + args.idle_sockets + args.spectators) as u64;
    // One descriptor per socket, plus a margin for the runtime and the HTTP client.
    let limit = rlimit::increase_nofile_limit(sockets + 256)
        .map_err(|e| format!("raising the open-file limit: {e}"))?;
    if limit < sockets + 64 {
        return Err(format!(
            "{sockets} sockets need more than this process's open-file limit of {limit}; raise it (ulimit -Hn)"
        ));
    }
    let pace = match (args.flat_out, args.moves_per_s) {
        (true, _) => Pace::FlatOut,
        (false, Some(r)) if r > 0.0 => Pace::Every(Duration::from_secs_f64(1.0 / r)),
        (false, _) => Pace::Every(Duration::from_secs(1)),
    };
    let stats = match args.server_pid {
        Some(pid) => ServerStats::Proc(pid),
        None => ServerStats::Metrics(http.clone()),
    };
    // The server's memory before this run's sockets: what they add is theirs.
    let rss_before = stats.rss_kib().await;
    let players = args.games * 2 + args.idle_sockets;
    eprintln!("creating {} players…", players + args.spectators);
    let mut tokens = create_players(&http, players + args.spectators).await?;
    let spectator_tokens = tokens.split_off(players);
    let watched = if args.spectators > 0 {
        args.watched_games.clamp(1, args.games.max(1))
    } else {
        0
    };
    let shared = Arc::new(Shared::new(args.rules.clone(), watched));
    let mode = match args.tournament {
        true => Mode::Tournament(create_arena(&http, &tokens[0], &args).await?),
        false => Mode::Seek,
    };
    let mut ws_urls = vec![format!("{}/ws", args.url.trim_end_matches('/'))];
    for url in &args.also_urls {
        http_base(url)?;
        ws_urls.push(format!("{}/ws", url.trim_end_matches('/')));
    }
    let started = Instant::now();
    let stop_at = tokio::time::Instant::now() + Duration::from_secs(args.duration + args.warmup);
    let mut tasks = Vec::new();
    for (i, token) in tokens.into_iter().enumerate() {
        let idle = i >= args.games * 2;
        tasks.push(tokio::spawn(client::run(
            ws_urls[i % ws_urls.len()].clone(),
            token,
            shared.clone(),
            Behaviour {
                pace,
                mode,
                resign_at: args.resign_at,
            },
            stop_at,
            idle,
        )));
        if i % 200 == 199 {
            // Pace the connection storm a little.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    for (index, token) in spectator_tokens.into_iter().enumerate() {
        let (url, shared) = (ws_urls[index % ws_urls.len()].clone(), shared.clone());
        let (watching, clock) = (shared.watching.clone(), shared.clone());
        tasks.push(tokio::spawn(async move {
            if let Err(e) =
                spectators::spectate(url, token, index, watching, || clock.now_us(), stop_at).await
            {
                shared.errors.fetch_add(1, Ordering::Relaxed);
                eprintln!("spectator error: {e}");
            }
        }));
        if index % 200 == 199 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let progress = {
        let shared = shared.clone();
        tokio::spawn(async move {
            let mut last = 0;
            let mut tick = tokio::time::interval(Duration::from_secs(5));
            tick.tick().await;
            loop {
                tick.tick().await;
                let moves = shared.moves.load(Ordering::Relaxed);
                let window = shared.take_window();
                eprintln!(
                    "t={:>4}s games started={} moves={} ({}/s) p99={:.1}ms max={:.1}ms errors={}",
                    started.elapsed().as_secs(),
                    shared.games_started.load(Ordering::Relaxed) / 2,
                    moves,
                    (moves - last) / 5,
                    window.value_at_quantile(0.99) as f64 / 1000.0,
                    window.max() as f64 / 1000.0,
                    shared.errors.load(Ordering::Relaxed)
                );
                last = moves;
            }
        })
    };
    // Measure over the steady part: from when the games are under way until the end.
    tokio::time::sleep_until(stop_at - Duration::from_secs(args.duration)).await;
    let measure_from = Instant::now();
    // Starts still under way would count their work (sign-ins, pairing) against the moves.
    let games_started_before_window = shared.games_started.load(Ordering::Relaxed) / 2;
    let cpu_before = stats.cpu_s().await;
    let moves_before = shared.start_window();
    shared.watching.start_window();
    tokio::time::sleep_until(stop_at - Duration::from_millis(200)).await;
    let elapsed = measure_from.elapsed().as_secs_f64();
    let (moves_now, latency) = shared.end_window();
    let cpu_after = stats.cpu_s().await;
    let moves = moves_now - moves_before;
    let rss = stats.rss_kib().await;
    let spectated = shared.watching.latencies();
    progress.abort();
    for task in tasks {
        let _ = task.await;
    }
    let ms = |q: f64| latency.value_at_quantile(q) as f64 / 1000.0;
    let (cpu_per_move, kernel_per_move) = CpuTime::per_move(cpu_before, cpu_after, moves);
    let report = json!({
        "games": args.games,
        "tournament": args.tournament,
        "nodes": 1 + args.also_urls.len(),
        "resign_at": args.resign_at,
        "idle_sockets": args.idle_sockets,
        "pace": match pace { Pace::FlatOut => "flat-out".to_owned(), Pace::Every(d) => format!("{:.2} moves/s per game", 1.0 / d.as_secs_f64()) },
        "seconds": (elapsed * 10.0).round() / 10.0,
        "moves": moves,
        "moves_per_s": (moves as f64 / elapsed).round(),
        "latency_ms": { "p50": ms(0.5), "p99": ms(0.99), "p99.9": ms(0.999), "max": latency.max() as f64 / 1000.0, "samples": latency.len() },
        "errors": shared.errors.load(Ordering::Relaxed),
        // Each game is seen by both of its players.
        "games_started": shared.games_started.load(Ordering::Relaxed) / 2,
        "games_started_before_window": games_started_before_window,
        "games_finished": shared.games_finished.load(Ordering::Relaxed) / 2,
        "server_rss_kib": rss,
        "server_rss_kib_before": rss_before,
        "server_rss_kib_per_socket": rss.map(|r| r / (args.games as u64 * 2 + args.idle_sockets as u64).max(1)),
        // What this run's games and sockets added, each: the games' sockets count with the
        // games; idle sockets alone are measured with `--games 0`.
        "server_rss_kib_per_game": match (rss, rss_before, args.games) {
            (Some(after), Some(before), games) if games > 0 => Some(after.saturating_sub(before) as f64 / games as f64),
            _ => None,
        },
        "server_rss_kib_per_idle_socket": match (rss, rss_before, args.games, args.idle_sockets) {
            (Some(after), Some(before), 0, idle) if idle > 0 => Some(after.saturating_sub(before) as f64 / idle as f64),
            _ => None,
        },
        // Server CPU time (user and system) over the measured window, per move made in it.
        "server_cpu_us_per_move": cpu_per_move,
        // Of it, the kernel's (with --server-pid only).
        "server_kernel_us_per_move": kernel_per_move,
        "spectators": shared.watching.spectators(),
        "spectator_last_ms": {
            "p50": spectated.value_at_quantile(0.5) as f64 / 1000.0,
            "p99": spectated.value_at_quantile(0.99) as f64 / 1000.0,
            "max": spectated.max() as f64 / 1000.0,
            "samples": spectated.len(),
        },
    });
    println!("{report}");
    Ok(())
}
