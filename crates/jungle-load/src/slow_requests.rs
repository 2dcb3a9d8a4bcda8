//! `--attack slow-requests`: issue 49's soak. `--count` connections at once from 50 loopback
//! addresses (127.0.2.1–50), half sending most of a request body and then nothing, half a
//! header slowloris (a byte every two seconds), each opening a new connection as soon as the
//! server closes its last, for `--duration` seconds. Meanwhile a new player (from 127.0.3.x,
//! a fresh address each time, so no per-address limit of the attackers' is theirs) opens the
//! page and gets a guest every second. A connection the server refuses as it begins (over a
//! cap) is tried again a second later. Reports the server's memory at rest, at its most during
//! the attack and a minute after, and the slowest new player, as one JSON line.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const ADDRESSES: usize = 50;
/// A connection closed this soon was refused, not held.
const REFUSED_WITHIN: Duration = Duration::from_millis(500);

#[derive(Default)]
struct Counts {
    connections: AtomicU64,
    refused_at_connect: AtomicU64,
    answered_408: AtomicU64,
    answered_other: AtomicU64,
    closed_silently: AtomicU64,
}

pub async fn run(
    http: &str,
    count: usize,
    duration: Duration,
    server_pid: Option<u32>,
) -> Result<serde_json::Value, String> {
    let addr: SocketAddr = http
        .trim_start_matches("http://")
        .parse()
        .map_err(|e| format!("slow-requests needs an IPv4 address and port: {e}"))?;
    // At rest after some use (a fresh process has touched less than a server that served a
    // page): a few new players, then quiet.
    for probe in 0..20 {
        new_player(http, 250 + probe).await?;
    }
    tokio::time::sleep(Duration::from_secs(10)).await;
    let resting = rss_kib(server_pid);
    let counts = Arc::new(Counts::default());
    let stop_at = Instant::now() + duration;
    let mut attackers = tokio::task::JoinSet::new();
    for i in 0..count {
        let source = Ipv4Addr::new(127, 0, 2, (i % ADDRESSES) as u8 + 1);
        let counts = counts.clone();
        let stalled_body = i % 2 == 0;
        attackers.spawn(async move {
            while Instant::now() < stop_at {
                let attempt = async {
                    if stalled_body {
                        stall_a_body(source, addr, &counts).await
                    } else {
                        trickle_headers(source, addr, &counts).await
                    }
                };
                let opened = Instant::now();
                if tokio::time::timeout_at(stop_at.into(), attempt)
                    .await
                    .is_err()
                {
                    return;
                }
                // Refused as it began (over a cap): try again in a second, as a tool that
                // means to hold connections does. Reconnecting as fast as the machine allows
                // is another attack, a flood of connections, which this soak does not measure.
                if opened.elapsed() < REFUSED_WITHIN {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        });
        // Not all in the same instant: as a botnet's connections arrive.
        if i % 100 == 99 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let mut peak = resting;
    let mut newcomers = Vec::new();
    let mut failures = 0u64;
    let mut probe = 20usize;
    while Instant::now() < stop_at {
        let tick = Instant::now();
        match new_player(http, probe).await {
            Ok(took) => newcomers.push(took),
            Err(_) => failures += 1,
        }
        probe += 1;
        peak = peak.max(rss_kib(server_pid));
        tokio::time::sleep(Duration::from_secs(1).saturating_sub(tick.elapsed())).await;
    }
    attackers.shutdown().await;
    // A minute of rest, a new player now and then.
    let mut back_at_rest_after = None;
    let ended = Instant::now();
    let mut after = rss_kib(server_pid);
    while ended.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_secs(5)).await;
        if new_player(http, probe).await.is_err() {
            failures += 1;
        }
        probe += 1;
        after = rss_kib(server_pid);
        if back_at_rest_after.is_none() && after <= resting + resting / 5 {
            back_at_rest_after = Some(ended.elapsed().as_secs());
        }
    }
    newcomers.sort();
    let quantile = |q: f64| {
        newcomers
            .get(((newcomers.len() as f64 - 1.0) * q).round() as usize)
            .map(|d| d.as_millis() as u64)
    };
    let mib = |kib: u64| (kib as f64 / 1024.0 * 10.0).round() / 10.0;
    Ok(json!({
        "attack": "slow-requests",
        "connections_at_once": count,
        "seconds": duration.as_secs(),
        "connections_made": counts.connections.load(Ordering::Relaxed),
        "refused_at_connect": counts.refused_at_connect.load(Ordering::Relaxed),
        "answered_408": counts.answered_408.load(Ordering::Relaxed),
        "answered_other": counts.answered_other.load(Ordering::Relaxed),
        "closed_without_answer": counts.closed_silently.load(Ordering::Relaxed),
        "new_players": newcomers.len(),
        "new_player_failures": failures,
        "new_player_p50_ms": quantile(0.5),
        "new_player_p99_ms": quantile(0.99),
        "new_player_slowest_ms": quantile(1.0),
        "rss_resting_mib": server_pid.map(|_| mib(resting)),
        "rss_peak_mib": server_pid.map(|_| mib(peak)),
        "rss_60s_after_mib": server_pid.map(|_| mib(after)),
        "back_within_20pct_of_rest_after_s": back_at_rest_after,
    }))
}

async fn connect_from(
    source: Ipv4Addr,
    addr: SocketAddr,
) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind((source, 0).into())?;
    socket.connect(addr).await
}

/// Most of a sign-up's body (just under the route's limit), then silence until the server
/// closes the connection.
async fn stall_a_body(source: Ipv4Addr, addr: SocketAddr, counts: &Counts) {
    let Ok(mut socket) = connect_from(source, addr).await else {
        counts.refused_at_connect.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(200)).await;
        return;
    };
    counts.connections.fetch_add(1, Ordering::Relaxed);
    let head = "POST /api/account HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                Content-Length: 4090\r\n\r\n";
    let sent = async {
        socket.write_all(head.as_bytes()).await?;
        socket.write_all(&[b' '; 4000]).await
    };
    if sent.await.is_err() {
        counts.closed_silently.fetch_add(1, Ordering::Relaxed);
        return;
    }
    record_answer(&mut socket, counts).await;
}

/// A request's first line, then a header a byte every two seconds, never ending.
async fn trickle_headers(source: Ipv4Addr, addr: SocketAddr, counts: &Counts) {
    let Ok(socket) = connect_from(source, addr).await else {
        counts.refused_at_connect.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(200)).await;
        return;
    };
    counts.connections.fetch_add(1, Ordering::Relaxed);
    let (mut reading, mut writing) = socket.into_split();
    let trickle = async move {
        if writing
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
            .await
            .is_err()
        {
            return;
        }
        loop {
            tokio::time::sleep(Duration::from_secs(2)).await;
            if writing.write_all(b"X").await.is_err() {
                return;
            }
        }
    };
    tokio::select! {
        _ = trickle => counts.closed_silently.fetch_add(1, Ordering::Relaxed),
        _ = record_answer(&mut reading, counts) => 0,
    };
}

/// Reads until the server closes the connection, counting what it answered.
async fn record_answer(socket: &mut (impl AsyncReadExt + Unpin), counts: &Counts) {
    let mut answer = Vec::new();
    let mut chunk = [0u8; 512];
    loop {
        match socket.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) if answer.len() < 64 => answer.extend_from_slice(&chunk[..n]),
            Ok(_) => {}
        }
    }
    let counter = if answer.is_empty() {
        &counts.closed_silently
    } else if answer.starts_with(b"HTTP/1.1 408") {
        &counts.answered_408
    } else {
        &counts.answered_other
    };
    counter.fetch_add(1, Ordering::Relaxed);
}

/// A new player: the page, then a guest, on fresh connections from a fresh address.
async fn new_player(http: &str, probe: usize) -> Result<Duration, String> {
    let source = Ipv4Addr::new(127, 0, 3, (probe % 250) as u8 + 1);
    let client = reqwest::Client::builder()
        .local_address(Some(source.into()))
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let page = client
        .get(format!("{http}/"))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !page.status().is_success() {
        return Err(format!("the page: {}", page.status()));
    }
    page.bytes().await.map_err(|e| e.to_string())?;
    let guest = client
        .post(format!("{http}/api/players"))
        .json(&json!({}))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if guest.status().as_u16() != 201 {
        return Err(format!("a guest: {}", guest.status()));
    }
    Ok(started.elapsed())
}

/// The server's resident memory, in KiB (0 without its pid).
fn rss_kib(pid: Option<u32>) -> u64 {
    let Some(pid) = pid else { return 0 };
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmRSS:"))
                .and_then(|line| line.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
