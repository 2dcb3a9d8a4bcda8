//! Abuse at small scale, against a real server: each attack gets its limit error, and a
//! legitimate player's play is unaffected.
//!
//! Long (about 650 lines): one short test per attack, kept together so that the limits of
//! docs/security.md are tried side by side.

use crate::common::*;

fn play_computer() -> ClientFrame {
    vs_computer(1, ColorChoice::Blue)
}

fn create_room() -> ClientFrame {
    ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock: fischer(300, 0),
        rated: false,
        color: ColorChoice::Random,
        position: None,
    }
}

/// At most three games against the computer in play per player, across connections; a game
/// that ends frees its place.
async fn computer_games_are_capped_per_player(db: Db) {
    let server = TestServer::start(db).await;
    let me = server.player("Greedy").await;
    let mut first = server.client(&me).await;
    let mut games = Vec::new();
    for _ in 0..3 {
        first.send(play_computer()).await;
        games.push(first.expect_game().await.game);
    }
    // From another connection of the same player, the fourth is refused.
    let mut second = server.client(&me).await;
    second.send(play_computer()).await;
    let message = second.expect_error(ErrorCode::LimitReached).await;
    assert!(
        message.contains("3 games against the computer"),
        "{message}"
    );
    // Another player is not affected.
    let mut other = server.client(&server.player("Other").await).await;
    other.send(play_computer()).await;
    assert_eq!(other.expect_game().await.status, GameStatus::Active);
    // Resigning one frees a place.
    first.send(ClientFrame::Resign { game: games[0] }).await;
    first.expect_over().await;
    second.send(play_computer()).await;
    // (The second connection also follows the player's games in play since it signed in.)
    let fresh =
        expect_frame!(second, ServerFrame::Game(state) if !games.contains(&state.game) => state);
    assert_eq!(fresh.status, GameStatus::Active);
    server.shutdown().await;
}

/// At most three private rooms waiting per player; a room whose game starts frees its place.
async fn waiting_rooms_are_capped_per_player(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.player("Host").await;
    let mut h = server.client(&host).await;
    let mut codes = Vec::new();
    for _ in 0..3 {
        h.send(create_room()).await;
        codes.push(expect_frame!(h, ServerFrame::Room { code, .. } => code));
    }
    h.send(create_room()).await;
    let message = h.expect_error(ErrorCode::LimitReached).await;
    assert!(message.contains("3 private rooms"), "{message}");
    // A guest takes one: its game starts, and the host may open another.
    let mut guest = server.client(&server.player("Guest").await).await;
    guest
        .send(ClientFrame::JoinRoom {
            code: codes[0].clone(),
        })
        .await;
    assert_eq!(guest.expect_game().await.status, GameStatus::Active);
    h.send(create_room()).await;
    expect_frame!(h, ServerFrame::Room { .. });
    h.send(create_room()).await;
    h.expect_error(ErrorCode::LimitReached).await;
    server.shutdown().await;
}

/// Guests from one address: a burst of 30, then HTTP 429 with Retry-After.
async fn guest_creation_is_limited_per_address(db: Db) {
    let server = TestServer::start(db).await;
    for _ in 0..30 {
        server.player("Sock").await;
    }
    let response = reqwest::Client::new()
        .post(server.url("/api/players"))
        .json(&http::NewPlayer {
            name: Some("Sock".into()),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 429);
    let wait: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let body: http::ApiError = response.json().await.unwrap();
    assert!(body.error.contains("try again"), "{}", body.error);
    server.shutdown().await;
}

/// Reading a game in progress over HTTP scans the move log: a burst of 120 an address (and
/// 1 per 100 ms), then 429; an ended game's reads are not counted.
async fn live_game_reads_are_limited_per_address(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let http = reqwest::Client::new();
    let read = |path: String| {
        let http = http.clone();
        let url = server.url(&path);
        async move { http.get(url).send().await.unwrap().status().as_u16() }
    };
    let mut served = 0;
    while served < 1_000 {
        let path = if served % 2 == 0 {
            format!("/api/games/{game}")
        } else {
            format!("/api/games/{game}.jgn")
        };
        match read(path).await {
            200 => served += 1,
            status => {
                assert_eq!(status, 429);
                break;
            }
        }
    }
    assert!((120..1_000).contains(&served), "{served} reads served");
    // The export shares the bucket: refused too, once the token that 100 ms of a slow machine
    // may have refilled since is spent.
    let mut refused = false;
    for _ in 0..5 {
        if read(format!("/api/games/{game}.jgn")).await == 429 {
            refused = true;
            break;
        }
    }
    assert!(refused, "the export is limited with the rest");
    red.send(ClientFrame::Resign { game }).await;
    red.expect_over().await;
    blue.expect_over().await;
    assert_eq!(read(format!("/api/games/{game}")).await, 200);
    assert_eq!(read(format!("/api/games/{game}.jgn")).await, 200);
    server.shutdown().await;
}

/// Guessing room codes: a found room costs one lookup, a miss five; past the burst the guesser
/// gets `rate_limited` (and a reconnect changes nothing), while the connection stays usable.
async fn room_code_guesses_are_limited_across_connections(db: Db) {
    let server = TestServer::start(db).await;
    let guesser = server.player("Guesser").await;
    let mut c = server.client(&guesser).await;
    let mut refused = 0;
    for i in 0..30 {
        c.send(ClientFrame::JoinRoom {
            code: format!("ZZZZZZ{i:02}"),
        })
        .await;
        let code = expect_frame!(c, ServerFrame::Error { code, .. } => code);
        match code {
            ErrorCode::RoomNotFound => assert_eq!(refused, 0, "misses come first"),
            ErrorCode::RateLimited => refused += 1,
            other => panic!("{other:?}"),
        }
    }
    assert!(
        refused >= 25,
        "a burst of 20 lookups buys only 4 misses: {refused}"
    );
    c.send(ClientFrame::Ping).await;
    expect_frame!(c, ServerFrame::Pong);
    let mut again = server.client(&guesser).await;
    again
        .send(ClientFrame::JoinRoom {
            code: "ZZZZZZZZ".into(),
        })
        .await;
    again.expect_error(ErrorCode::RateLimited).await;
    server.shutdown().await;
}

/// Idle connections hold a place only until the header timeout; over the global cap a new
/// connection is told the server is full, and /healthz answers again once the idle ones are gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_closed_and_the_cap_holds() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start_with(Db::Sqlite, |c| {
        c.header_timeout_s = 1;
        c.max_connections = Some(40);
        c.max_connections_per_ip = 1_000;
    })
    .await;
    let mut idle = Vec::new();
    for _ in 0..40 {
        idle.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let mut answer = vec![0u8; 256];
    let mut over = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    over.write_all(b"GET /api/leaderboard HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let n = over.read(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer[..n]);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    // A health checker still hears that the server lives.
    let mut health = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    health
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let n = health.read(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer[..n]);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    // The idle connections are closed by the server after the header timeout.
    for socket in &mut idle {
        let read = tokio::time::timeout(WAIT, socket.read(&mut answer)).await;
        assert!(matches!(read, Ok(Ok(0)) | Ok(Err(_))), "closed: {read:?}");
    }
    let started = std::time::Instant::now();
    let (status, _) = server.get_status("/healthz").await;
    assert_eq!(status, 200);
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    server.shutdown().await;
}

/// A connection follows at most 32 games; unwatching one makes room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_follows_a_bounded_number_of_games() {
    // Rate limits off: this test opens 33 rooms from one address to reach the cap.
    let server = TestServer::start_with(Db::Sqlite, |c| c.no_rate_limits = true).await;
    // Games against the computer (a private room's waiting game is not watched by id).
    let mut games = Vec::new();
    for h in 0..11 {
        let mut host = server
            .client(&server.player(&format!("Host {h}")).await)
            .await;
        for _ in 0..3 {
            host.send(play_computer()).await;
            games.push(host.expect_game().await.game);
        }
    }
    let mut fan = server.client(&server.player("Fan").await).await;
    for &game in &games[..32] {
        fan.send(ClientFrame::Watch { game }).await;
        let seen = expect_frame!(fan, ServerFrame::Game(state) => state.game);
        assert_eq!(seen, game);
    }
    fan.send(ClientFrame::Watch { game: games[32] }).await;
    let message = fan.expect_error(ErrorCode::LimitReached).await;
    assert!(message.contains("at most 32 games"), "{message}");
    // At the cap a private room still answers as no game at all, as an unknown id does:
    // the cap tells nobody it exists.
    let mut host = server.client(&server.player("Private").await).await;
    let (_, hidden) = open_private_room(&mut host, fischer(300, 2), false).await;
    for game in [hidden, Uuid::new_v4()] {
        fan.send(ClientFrame::Watch { game }).await;
        fan.expect_error(ErrorCode::UnknownGame).await;
    }
    // Watching one already followed is fine; unwatching one makes room.
    fan.send(ClientFrame::Watch { game: games[0] }).await;
    expect_frame!(fan, ServerFrame::Game(_));
    fan.send(ClientFrame::Unwatch { game: games[0] }).await;
    fan.send(ClientFrame::Watch { game: games[32] }).await;
    let seen = expect_frame!(fan, ServerFrame::Game(state) => state.game);
    assert_eq!(seen, games[32]);
    server.shutdown().await;
}

/// Issue 49: tokens that name nobody, on the routes for players and accounts as on the Bot
/// API: an address's misses run out after a burst, and its tokens are then refused `429`
/// unlooked. A guest's real token on a route for accounts only is no miss; another address,
/// and a real token there, are not held back.
async fn tokens_that_name_nobody_are_soon_refused_unlooked(db: Db) {
    let server = TestServer::start_with(db, |c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let guest = server.player("Honest guest").await;
    let client = reqwest::Client::new();
    let ask = |token: String, address: &'static str| {
        client
            .get(server.url("/api/tokens"))
            .header("X-Forwarded-For", address)
            .bearer_auth(token)
            .send()
    };
    // A guest's own token asks what only an account may, again and again: refused, no miss.
    for _ in 0..40 {
        let status = ask(guest.token.clone(), "198.51.100.7")
            .await
            .unwrap()
            .status();
        assert_eq!(status.as_u16(), 401);
    }
    let mut statuses = Vec::new();
    for _ in 0..60 {
        let guess = jungle_web::auth::new_token();
        statuses.push(ask(guess, "203.0.113.9").await.unwrap().status().as_u16());
    }
    let looked_up = statuses.iter().filter(|s| **s == 401).count();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!(looked_up + refused, 60, "{statuses:?}");
    assert!(
        looked_up <= 30,
        "{looked_up} guesses looked up: {statuses:?}"
    );
    assert!(refused >= 30, "{statuses:?}");
    let answer = ask(jungle_web::auth::new_token(), "203.0.113.9")
        .await
        .unwrap();
    assert!(answer.headers().contains_key("retry-after"));
    // The guest, from its own address, is answered as before.
    let status = ask(guest.token.clone(), "198.51.100.7")
        .await
        .unwrap()
        .status();
    assert_eq!(status.as_u16(), 401, "looked up: a guest has no tokens");
    server.shutdown().await;
}

both_stores!(
    computer_games_are_capped_per_player,
    waiting_rooms_are_capped_per_player,
    guest_creation_is_limited_per_address,
    room_code_guesses_are_limited_across_connections,
    live_game_reads_are_limited_per_address,
    tokens_that_name_nobody_are_soon_refused_unlooked,
);

/// `POST /api/players` as if through a proxy that saw `client`: the status.
async fn new_guest_via(server: &TestServer, client: &str) -> u16 {
    reqwest::Client::new()
        .post(server.url("/api/players"))
        .header("x-forwarded-for", client)
        .json(&http::NewPlayer {
            name: Some("Proxied".into()),
        })
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// A WebSocket as if through a proxy that saw `client`: whether it opened.
async fn socket_via(
    server: &TestServer,
    client: &str,
) -> Option<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
> {
    connect_with_header(server.addr, "x-forwarded-for", client)
        .await
        .ok()
}

/// Without `--trusted-proxy`, a client's `X-Forwarded-For` changes nothing: it cannot buy
/// itself fresh limits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forwarded_for_header_from_anyone_else_is_ignored() {
    let server = TestServer::start(Db::Sqlite).await;
    for i in 0..30 {
        assert_eq!(new_guest_via(&server, &format!("10.0.0.{i}")).await, 201);
    }
    assert_eq!(new_guest_via(&server, "10.9.9.9").await, 429);
    server.shutdown().await;
}

/// Behind a trusted proxy, limits and connection caps count the client the proxy names, so
/// players behind one proxy do not share one allowance.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_limits_count_each_client() {
    let server = TestServer::start_with(Db::Sqlite, |c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.max_connections_per_ip = 2;
    })
    .await;
    for _ in 0..30 {
        assert_eq!(new_guest_via(&server, "203.0.113.1").await, 201);
    }
    assert_eq!(new_guest_via(&server, "203.0.113.1").await, 429);
    // A client's own entries to the left of the proxy's prove nothing.
    assert_eq!(
        new_guest_via(&server, "198.51.100.1, 203.0.113.1").await,
        429
    );
    assert_eq!(new_guest_via(&server, "203.0.113.2").await, 201);
    // Two sockets per client address; the proxy's own address is not capped as one client.
    let first = socket_via(&server, "203.0.113.1").await;
    let second = socket_via(&server, "203.0.113.1").await;
    assert!(first.is_some() && second.is_some());
    assert!(
        socket_via(&server, "203.0.113.1").await.is_none(),
        "a third socket from one client is refused"
    );
    let others: Vec<_> = futures_util::future::join_all(
        (0..4).map(|i| socket_via(&server, if i < 2 { "203.0.113.7" } else { "203.0.113.8" })),
    )
    .await;
    assert!(
        others.iter().all(Option::is_some),
        "other clients still connect"
    );
    // A place is given back when its socket closes.
    drop(first);
    let mut reopened = None;
    for _ in 0..50 {
        reopened = socket_via(&server, "203.0.113.1").await;
        if reopened.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(reopened.is_some());
    drop((second, others, reopened));
    server.shutdown().await;
}

/// Opening WebSockets is limited per address: the flood limit is per connection, so a client
/// that reconnected as often as it liked would start each time with a full bucket. A burst of
/// 120, then HTTP 429 `rate_limited` with `Retry-After`, before any upgrade; another address is
/// not held back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_openings_are_limited_per_address() {
    use tokio_tungstenite::tungstenite::Error;
    let server = TestServer::start_with(Db::Sqlite, |c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.max_connections_per_ip = 1_000;
    })
    .await;
    let started = std::time::Instant::now();
    let mut open = Vec::new();
    let refused = loop {
        match connect_with_header(server.addr, "x-forwarded-for", "203.0.113.5").await {
            Ok(socket) => open.push(socket),
            Err(refused) => break refused,
        }
        assert!(open.len() < 400, "openings are never refused");
    };
    // One more opening every 500 ms after the burst.
    let refilled = (started.elapsed().as_millis() / 500) as usize + 1;
    assert!(
        (120..=120 + refilled).contains(&open.len()),
        "{} opened in {:?}",
        open.len(),
        started.elapsed()
    );
    match refused {
        Error::Http(response) => {
            assert_eq!(response.status().as_u16(), 429);
            assert!(response.headers().contains_key("retry-after"));
            let body = response
                .body()
                .as_ref()
                .map(|body| String::from_utf8_lossy(&body[..]).into_owned())
                .unwrap_or_default();
            assert!(body.contains("rate_limited"), "{body}");
        }
        other => panic!("refused as HTTP 429, not {other:?}"),
    }
    assert!(
        socket_via(&server, "203.0.113.6").await.is_some(),
        "another address still connects"
    );
    drop(open);
    server.shutdown().await;
}

/// A listener on an IPv6 socket that takes IPv4 too sees IPv4 clients as `::ffff:a.b.c.d`:
/// each is still counted by its own IPv4 address, so one client spending its limit leaves the
/// others theirs (counted by the mapped form's /64, they all shared one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ipv4_clients_of_a_dual_stack_listener_have_limits_of_their_own() {
    let server = TestServer::start_with(Db::Sqlite, |c| {
        c.addr = "[::ffff:127.0.0.1]:0".parse().unwrap();
    })
    .await;
    assert!(server.addr.is_ipv6(), "listening on an IPv6 socket");
    let url = format!("http://127.0.0.1:{}/api/players", server.addr.port());
    let new_guest_from = |client: &'static str| {
        let url = url.clone();
        async move {
            reqwest::Client::builder()
                .local_address(client.parse::<std::net::IpAddr>().unwrap())
                .build()
                .unwrap()
                .post(url)
                .json(&http::NewPlayer {
                    name: Some("Dual".into()),
                })
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    for _ in 0..30 {
        assert_eq!(new_guest_from("127.0.0.2").await, 201);
    }
    assert_eq!(new_guest_from("127.0.0.2").await, 429);
    assert_eq!(
        new_guest_from("127.0.0.3").await,
        201,
        "another IPv4 client is not held back"
    );
    server.shutdown().await;
}

/// A seated player whose connection sends but never reads: once the server's sends to it stop
/// completing (kernel buffers full), the connection is dropped within the send timeout and
/// the player counts as away, so the opponent's abandonment countdown starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_dropped_and_counts_as_away() {
    use futures_util::SinkExt;
    use tokio::io::AsyncReadExt;
    // A small send buffer, so that a few dozen answers fill it (the default is 128 KiB).
    let server = TestServer::start_with(Db::Sqlite, |c| c.send_buffer_kib = 16).await;
    let host = server.player("Host").await;
    let mut h = server.client(&host).await;
    h.send(ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock: fischer(300, 0),
        rated: false,
        color: ColorChoice::Blue,
        position: None,
    })
    .await;
    let code = expect_frame!(h, ServerFrame::Room { code, .. } => code);
    let reader = server.player("Never Reads").await;
    let stuck_before = counter(&server, "jungle_connections_stuck_total").await;

    // A small receive window, so that the server's sends back up after a few kilobytes.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{}/ws", server.addr), stream)
        .await
        .unwrap();
    use tokio_tungstenite::tungstenite::Message;
    let frame = |f: ClientFrame| Message::text(serde_json::to_string(&f).unwrap());
    ws.send(frame(ClientFrame::Hello {
        token: reader.token.clone(),
    }))
    .await
    .unwrap();
    ws.send(frame(ClientFrame::JoinRoom { code }))
        .await
        .unwrap();
    let game =
        expect_frame!(h, ServerFrame::Game(state) if state.status == GameStatus::Active => state);
    // Ask for the full game again and again (within the frame-flood limit): each answer is a
    // kilobyte the client never takes.
    for _ in 0..90 {
        ws.send(frame(ClientFrame::Watch { game: game.game }))
            .await
            .unwrap();
    }
    // The server gives up on it: the opponent sees the reader go away.
    let started = std::time::Instant::now();
    let away = expect_frame!(h, ServerFrame::Presence { side: Side::Red, online: false, abandon_in_ms, .. } => abandon_in_ms);
    assert!(away.is_some(), "the countdown runs");
    assert!(started.elapsed() < WAIT);
    // And the socket is closed: reading now drains what was buffered, then ends.
    let mut stream = ws.into_inner();
    let mut drained = 0usize;
    let mut buffer = vec![0u8; 64 * 1024];
    let ended = tokio::time::timeout(WAIT, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the server closed the connection");
    // Metrics are per process, and other tests run beside this one: it counts what it adds.
    let stuck = counter(&server, "jungle_connections_stuck_total").await;
    assert!(stuck > stuck_before, "{stuck_before} → {stuck}");
    // 90 answers of about a kilobyte were asked for; most were never sent.
    assert!(drained < 60 * 1024, "{drained} bytes reached the client");
    server.shutdown().await;
}

/// Games against the computer at full strength, flooded: one player's 200 requests over two
/// connections open three games; 40 players with three level-8 games each (120 games, on a
/// server of their own so its memory can be read) add well under 100 MiB, since engine tables
/// belong to the pool's threads and not to games; `/healthz` keeps answering within a second;
/// and a victim's level-1 game gets the computer's move after at most the searches already
/// running, not after the whole queue (120 searches of 2 s on two threads: a minute).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_flood_costs_little_memory_and_delays_nobody() {
    use std::time::{Duration, Instant};
    let url = fresh_database(Db::Sqlite).await;
    // The 40 players stand for 40 addresses: the per-address rate limits are off, the
    // per-player caps are not.
    let server = ServerProcess::start_with_args(&url, &["--no-rate-limits"]);
    let level_8 = |clock| ClientFrame::PlayComputer {
        rules: Ruleset::Classic,
        clock,
        level: 8,
        color: ColorChoice::Blue,
        position: None,
    };
    // 60 s a side: the computer thinks 2 s a move.
    let clock = fischer(60, 0);

    // One player, 200 requests from four connections (each within the frame-flood limit):
    // three games, the rest refused.
    let attacker = create_player(server.addr, "Attacker").await;
    let mut connections = Vec::new();
    for _ in 0..4 {
        connections.push(signed_in_client(server.addr, &attacker).await);
    }
    for _ in 0..50 {
        for c in &mut connections {
            c.send(level_8(clock)).await;
        }
    }
    let mut opened = std::collections::HashSet::new();
    let mut refused = 0;
    for c in &mut connections {
        // Everything the server says, until it has been quiet for a while.
        while let Ok(frame) = tokio::time::timeout(Duration::from_millis(500), c.next()).await {
            match frame.expect("the connection stays open") {
                ServerFrame::Game(state) => {
                    opened.insert(state.game);
                }
                ServerFrame::Error { code, .. } => {
                    assert!(
                        matches!(code, ErrorCode::LimitReached | ErrorCode::RateLimited),
                        "{code:?}"
                    );
                    refused += 1;
                }
                _ => {}
            }
        }
    }
    assert_eq!(opened.len(), 3, "three games at most");
    assert_eq!(refused, 197);

    let before = server.resident_bytes();
    let mut flooders = Vec::new();
    for i in 0..40 {
        let player = create_player(server.addr, &format!("Flooder {i}")).await;
        let mut c = signed_in_client(server.addr, &player).await;
        for _ in 0..3 {
            c.send(level_8(clock)).await;
            expect_frame!(c, ServerFrame::Game(state) if state.status == GameStatus::Active);
        }
        flooders.push(c);
    }

    // The victim's game: the computer (level 1) moves first.
    let victim = create_player(server.addr, "Victim").await;
    let mut v = signed_in_client(server.addr, &victim).await;
    v.send(vs_computer(1, ColorChoice::Blue)).await;
    let game = expect_frame!(v, ServerFrame::Game(state) if state.status == GameStatus::Active => state.game);
    let started = Instant::now();
    let healthz = format!("http://{}/healthz", server.addr);
    let health = tokio::spawn(async move {
        let mut slowest = Duration::ZERO;
        for _ in 0..10 {
            let asked = Instant::now();
            let status = reqwest::get(&healthz).await.map(|r| r.status().as_u16());
            assert!(matches!(status, Ok(200)), "{status:?}");
            slowest = slowest.max(asked.elapsed());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        slowest
    });
    expect_frame!(v, ServerFrame::Moved { game: g, ply: 1, .. } if g == game);
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(8),
        "the victim waited {waited:?} for the computer's move"
    );
    let slowest = health.await.unwrap();
    assert!(
        slowest < Duration::from_secs(1),
        "/healthz took {slowest:?}"
    );
    let grown = server.resident_bytes().saturating_sub(before);
    assert!(
        grown < 100 * 1024 * 1024,
        "120 games against the computer grew the server by {} MiB",
        grown / (1024 * 1024)
    );
    drop(flooders);
    server.kill();
    drop_database(&url).await;
}

/// A counter of `/metrics`, 0 before it is first counted.
async fn counter(server: &TestServer, name: &str) -> f64 {
    let text = reqwest::get(server.url("/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with([' ', '{']))
        .and_then(|l| l.rsplit(' ').next())
        .map_or(0.0, |n| n.parse().unwrap())
}

/// Sends `head` then `body` on a fresh connection and returns all the server says before it
/// closes the connection (or `WAIT` runs out).
async fn raw_exchange(
    server: &TestServer,
    head: &str,
    body: &[u8],
    trickle: Option<std::time::Duration>,
) -> (String, std::time::Duration) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let (mut reading, mut writing) = socket.into_split();
    let started = std::time::Instant::now();
    writing.write_all(head.as_bytes()).await.unwrap();
    let body = body.to_vec();
    let sender = tokio::spawn(async move {
        match trickle {
            None => {
                let _ = writing.write_all(&body).await;
            }
            Some(pause) => {
                for byte in body {
                    if writing.write_all(&[byte]).await.is_err() {
                        break;
                    }
                    tokio::time::sleep(pause).await;
                }
            }
        }
        // Holds the connection open (sending nothing more) until the server closes it.
        writing
    });
    let mut answer = Vec::new();
    let read = tokio::time::timeout(WAIT, reading.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the server closed the connection in time");
    sender.abort();
    (
        String::from_utf8_lossy(&answer).into_owned(),
        started.elapsed(),
    )
}

/// A body that stops, or trickles, is answered 408 once the deadline after its headers passes,
/// and its connection is closed: it cannot hold a place (or the memory of a body) for long.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_body_is_answered_408_and_its_connection_closed() {
    let server = TestServer::start_with(Db::Sqlite, |c| c.header_timeout_s = 1).await;
    let head = "POST /api/account HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                Content-Length: 3000\r\n\r\n";
    // Most of the body, then nothing.
    let (answer, took) = raw_exchange(&server, head, &[b' '; 2900], None).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"too_slow\""), "{answer}");
    assert!(took < std::time::Duration::from_secs(4), "{took:?}");
    // A byte every 50 ms keeps the connection busy but does not move the deadline.
    let (answer, took) = raw_exchange(
        &server,
        head,
        &[b' '; 3000],
        Some(std::time::Duration::from_millis(50)),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(took < std::time::Duration::from_secs(4), "{took:?}");
    // A body sent at once is read as ever.
    let body = br#"{"username":"prompt","password":"a fine long password"}"#;
    let head = format!(
        "POST /api/account HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let (answer, _) = raw_exchange(&server, &head, body, None).await;
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    server.shutdown().await;
}

/// Every route has a body limit, the smallest for what anyone may send before signing in; a
/// body over it is `413 too_large`, not a parse error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_over_a_routes_limit_are_too_large() {
    let server = TestServer::start(Db::Sqlite).await;
    let http = reqwest::Client::new();
    let long_name = format!(r#"{{"name":"{}"}}"#, "x".repeat(5 * 1024));
    let guest = server.player("Guest").await;
    let member = server.account_named("member").await;
    for (path, body, token) in [
        ("/api/players", long_name.clone(), None),
        ("/api/account", long_name.clone(), None),
        ("/api/session", long_name.clone(), None),
        (
            "/api/players/me/name",
            long_name.clone(),
            Some(&guest.token),
        ),
        ("/api/reports", long_name, Some(&member.token)),
    ] {
        let mut request = http.post(server.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 413, "{path}");
        let refusal: serde_json::Value = response.json().await.unwrap();
        assert_eq!(refusal["code"], "too_large", "{path}: {refusal}");
        // Said in words, as every refusal is, not in the framework's.
        assert!(
            refusal["error"] == "the body is too large" || refusal["message"] != refusal["code"],
            "{path}: {refusal}"
        );
    }
    // A body of megabytes is refused after the limit's worth, its answer given before the
    // rest is read (so the connection closes under a client still sending).
    let head = "POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                Content-Length: 3000000\r\n\r\n";
    let (answer, _) = raw_exchange(&server, head, &[b'x'; 64 * 1024], None).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"too_large\""), "{answer}");
    // Under the limit the same route reads the body.
    let response = http
        .post(server.url("/api/players"))
        .json(&serde_json::json!({"name": "Fits"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    server.shutdown().await;
}

/// An address may have only a few requests half sent at once: the ninth head begun (or the
/// ninth body on its way) while eight stall is refused at once, not held for the timeout;
/// once they are gone, the address is served as ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_has_few_requests_half_sent_at_once() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start_with(Db::Sqlite, |c| c.header_timeout_s = 5).await;
    let started = std::time::Instant::now();
    let mut stalled = Vec::new();
    for _ in 0..8 {
        let mut socket = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        socket.write_all(b"GET /api/leaderboard HT").await.unwrap();
        stalled.push(socket);
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let mut ninth = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    ninth.write_all(b"GET /api/leaderboard HT").await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(WAIT, ninth.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "closed at once");
    assert!(started.elapsed() < std::time::Duration::from_secs(3));
    // Eight bodies on their way: the ninth is told so, before a byte of it is read.
    let head = "POST /api/account HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                Content-Length: 3000\r\n\r\n";
    // The stalled heads gone, their places are free.
    drop(stalled);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let mut bodies = Vec::new();
    for _ in 0..8 {
        let mut socket = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        socket.write_all(head.as_bytes()).await.unwrap();
        socket.write_all(&[b' '; 100]).await.unwrap();
        bodies.push(socket);
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let (answer, took) = raw_exchange(&server, head, &[b' '; 100], None).await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(took < std::time::Duration::from_secs(3), "{took:?}");
    drop(bodies);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let (status, _) = server.get_status("/api/leaderboard").await;
    assert_eq!(status, 200);
    server.shutdown().await;
}
