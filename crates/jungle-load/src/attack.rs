//! `--attack`: issue 11's attacks at full size, against a server on this machine, each bounded
//! in count and time and reporting what the server did as one JSON line. The same attacks at
//! small scale, with assertions, are `crates/jungle-server/tests/abuse.rs`.
//!
//! - `idle-tcp`: opens `--count` TCP connections from many loopback addresses that never send
//!   a byte and holds them, while asking `/healthz` once a second; reports the slowest answer
//!   and when the server had closed them all (at most 90 s).
//! - `guess-codes`: one player guesses `--count` private-room codes, reconnecting every 90
//!   frames (under the frame-flood limit); reports how many found a room, missed, or were
//!   refused with `rate_limited` (at most 120 s).
//! - `slow-requests`: issue 49's soak of stalled bodies and header slowlorises for
//!   `--duration` seconds (slow_requests.rs).

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use jungle_protocol::{ClientFrame, ErrorCode, ServerFrame};
use serde_json::json;
use tokio::io::AsyncReadExt;
use tokio_tungstenite::tungstenite::Message;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Attack {
    IdleTcp,
    GuessCodes,
    SlowRequests,
}

pub async fn run(
    attack: Attack,
    url: &str,
    http: &str,
    count: usize,
    duration: Duration,
    server_pid: Option<u32>,
) -> Result<(), String> {
    let report = match attack {
        Attack::IdleTcp => idle_tcp(http, count).await?,
        Attack::GuessCodes => guess_codes(url, http, count).await?,
        Attack::SlowRequests => {
            crate::slow_requests::run(http, count, duration, server_pid).await?
        }
    };
    println!("{report}");
    Ok(())
}

async fn idle_tcp(http: &str, count: usize) -> Result<serde_json::Value, String> {
    let addr: std::net::SocketAddr = http
        .trim_start_matches("http://")
        .parse()
        .map_err(|e| format!("idle-tcp needs an IPv4 address and port: {e}"))?;
    // From many loopback addresses (127.0.1.x), 50 each, under the per-address cap: as from a
    // botnet, so that the global cap and the header timeout are what is tried. `/healthz` is
    // asked from 127.0.0.1, as a health checker elsewhere would.
    let mut sockets = Vec::with_capacity(count);
    let mut refused = 0;
    for i in 0..count {
        let source = std::net::Ipv4Addr::new(127, 0, 1, (i / 50 % 250) as u8 + 1);
        let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
        socket
            .bind((source, 0).into())
            .map_err(|e| format!("binding {source}: {e}"))?;
        match socket.connect(addr).await {
            Ok(socket) => sockets.push(socket),
            Err(_) => refused += 1,
        }
    }
    let opened = Instant::now();
    // Each socket's task ends when the server closes it.
    let mut closers = tokio::task::JoinSet::new();
    for mut socket in sockets {
        closers.spawn(async move {
            let mut byte = [0u8; 256];
            loop {
                match socket.read(&mut byte).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {} // a refusal's 503/429, then the close
                }
            }
        });
    }
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .map_err(|e| e.to_string())?;
    let mut slowest_healthz = Duration::ZERO;
    let mut healthz_failures = 0;
    let deadline = opened + Duration::from_secs(90);
    let mut all_closed_after = None;
    while Instant::now() < deadline {
        let asked = Instant::now();
        match client.get(format!("{http}/healthz")).send().await {
            Ok(r) if r.status().is_success() => {}
            _ => healthz_failures += 1,
        }
        slowest_healthz = slowest_healthz.max(asked.elapsed());
        let tick = tokio::time::sleep(Duration::from_secs(1));
        tokio::pin!(tick);
        loop {
            tokio::select! {
                _ = &mut tick => break,
                done = closers.join_next() => if done.is_none() {
                    all_closed_after.get_or_insert(opened.elapsed());
                    tick.as_mut().await;
                    break;
                },
            }
        }
        if all_closed_after.is_some() {
            break;
        }
    }
    Ok(json!({
        "attack": "idle-tcp",
        "connections": count,
        "refused_at_connect": refused,
        "slowest_healthz_ms": slowest_healthz.as_millis() as u64,
        "healthz_failures": healthz_failures,
        "all_closed_after_s": all_closed_after.map(|d| d.as_secs_f64()),
        "still_open": closers.len(),
    }))
}

async fn guess_codes(url: &str, http: &str, count: usize) -> Result<serde_json::Value, String> {
    let token = crate::create_players(http, 1).await?.remove(0);
    let ws_url = format!("{}/ws", url.trim_end_matches('/'));
    let started = Instant::now();
    let deadline = started + Duration::from_secs(120);
    let (mut found, mut missed, mut limited, mut other, mut connections) = (0, 0, 0, 0, 0);
    // Random codes over the rooms' own alphabet, as a guesser would send.
    const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let mut guesses = (0..count).map(move |_| {
        (0..8)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                ALPHABET[(seed % ALPHABET.len() as u64) as usize] as char
            })
            .collect::<String>()
    });
    let mut sent_total = 0;
    'connections: while sent_total < count && Instant::now() < deadline {
        let (mut ws, _) = tokio_tungstenite::connect_async(&ws_url)
            .await
            .map_err(|e| format!("connecting: {e}"))?;
        connections += 1;
        let hello = ClientFrame::Hello {
            token: token.clone(),
        };
        let text = |frame: &ClientFrame| Message::text(serde_json::to_string(frame).expect("json"));
        ws.send(text(&hello)).await.map_err(|e| e.to_string())?;
        let batch: Vec<String> = guesses.by_ref().take(90).collect();
        for code in &batch {
            if ws
                .send(text(&ClientFrame::JoinRoom { code: code.clone() }))
                .await
                .is_err()
            {
                continue 'connections;
            }
        }
        sent_total += batch.len();
        let mut answers = 0;
        while answers < batch.len() {
            let next = tokio::time::timeout(Duration::from_secs(5), ws.next()).await;
            let Ok(Some(Ok(Message::Text(text)))) = next else {
                break;
            };
            match serde_json::from_str::<ServerFrame>(&text) {
                Ok(ServerFrame::Error { code, .. }) => {
                    answers += 1;
                    match code {
                        ErrorCode::RoomNotFound => missed += 1,
                        ErrorCode::RateLimited => limited += 1,
                        _ => other += 1,
                    }
                }
                Ok(ServerFrame::Room { .. }) | Ok(ServerFrame::Game(_)) => {
                    answers += 1;
                    found += 1;
                }
                _ => {}
            }
        }
        let _ = ws.close(None).await;
    }
    Ok(json!({
        "attack": "guess-codes",
        "guesses_sent": sent_total,
        "connections": connections,
        "seconds": (started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        "found_a_room": found,
        "room_not_found": missed,
        "rate_limited": limited,
        "other_errors": other,
    }))
}
