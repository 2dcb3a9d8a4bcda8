//! Every protocol error gets an `error` frame with a stable code and changes nothing. Raw frames
//! appear only where the input is malformed on purpose.

use crate::common::*;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

async fn errors_before_and_at_hello(db: Db) {
    let server = TestServer::start(db).await;
    let mut c = server.raw_client().await;
    c.send(seek(Ruleset::Classic, fischer(60, 0), true)).await;
    c.expect_error(ErrorCode::NotAuthenticated).await;
    c.send(ClientFrame::Hello {
        token: "forged".into(),
    })
    .await;
    c.expect_error(ErrorCode::BadToken).await;
    let p = server.player("Ann").await;
    let hello = ClientFrame::Hello {
        token: p.token.clone(),
    };
    c.send(hello.clone()).await;
    expect_frame!(c, ServerFrame::Welcome { .. });
    c.send(hello).await;
    c.expect_error(ErrorCode::AlreadyAuthenticated).await;
    server.shutdown().await;
}

async fn malformed_frames(db: Db) {
    let server = TestServer::start(db).await;
    let p = server.player("Ann").await;
    let mut c = server.client(&p).await;
    for raw in [
        "not json",
        "[1,2]",
        "{\"t\":\"fly\"}",
        "{\"t\":\"move\"}",
        "{\"t\":\"move\",\"game\":5,\"mv\":\"a3a4\"}",
        "{}",
    ] {
        c.send_raw(Message::text(raw)).await;
        let message = c.expect_error(ErrorCode::BadFrame).await;
        assert!(!message.is_empty());
    }
    c.send_raw(Message::binary(vec![1, 2, 3])).await;
    c.expect_error(ErrorCode::BinaryFrame).await;
    let big = format!("{{\"t\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(5000));
    c.send_raw(Message::text(big)).await;
    c.expect_error(ErrorCode::FrameTooLarge).await;
    c.send(seek(Ruleset::Classic, fischer(0, 0), true)).await;
    c.expect_error(ErrorCode::BadRequest).await;
    c.send(ClientFrame::JoinRoom {
        code: "NOPE42".into(),
    })
    .await;
    c.expect_error(ErrorCode::RoomNotFound).await;
    c.send(ClientFrame::Watch {
        game: Uuid::new_v4(),
    })
    .await;
    c.expect_error(ErrorCode::UnknownGame).await;
    c.send(ClientFrame::Ping).await;
    expect_frame!(c, ServerFrame::Pong);
    server.shutdown().await;
}

async fn move_errors_change_nothing(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    blue.mv(game, "a7a6").await;
    blue.expect_error(ErrorCode::NotYourTurn).await;
    red.mv(game, "a3a5").await;
    let illegal = red.expect_error(ErrorCode::IllegalMove).await;
    assert!(illegal.contains("a3a5"), "{illegal}");
    red.mv(game, "c3c4").await;
    assert!(red
        .expect_error(ErrorCode::IllegalMove)
        .await
        .contains("water"));
    red.mv(game, "a7a6").await;
    red.expect_error(ErrorCode::IllegalMove).await;
    red.mv(game, "zz").await;
    red.expect_error(ErrorCode::BadMove).await;
    red.mv(game, "pass").await;
    red.expect_error(ErrorCode::BadMove).await;
    // Someone else's game.
    let outsider = server.player("Mallory").await;
    let mut m = server.client(&outsider).await;
    m.mv(game, "a3a4").await;
    m.expect_error(ErrorCode::NotYourGame).await;
    m.send(ClientFrame::Resign { game }).await;
    m.expect_error(ErrorCode::NotYourGame).await;
    m.mv(Uuid::new_v4(), "a3a4").await;
    m.expect_error(ErrorCode::UnknownGame).await;
    // Nothing changed: the first real move is ply 1.
    red.mv(game, "a3a4").await;
    assert_eq!(red.expect_moved().await.1, 1);
    red.send(ClientFrame::Resign { game }).await;
    red.expect_over().await;
    red.mv(game, "a4a5").await;
    red.expect_error(ErrorCode::GameOver).await;
    red.send(ClientFrame::OfferDraw { game }).await;
    red.expect_error(ErrorCode::GameOver).await;
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record.moves, ["a3a4"]);
    server.shutdown().await;
}

async fn seeking_twice_and_never_against_oneself(db: Db) {
    let server = TestServer::start(db).await;
    let p = server.account("Solo").await;
    let mut tab1 = server.client(&p).await;
    let mut tab2 = server.client(&p).await;
    let seek = seek(Ruleset::Classic, fischer(60, 0), true);
    tab1.send(seek.clone()).await;
    expect_frame!(tab1, ServerFrame::Seeking { .. });
    tab2.send(seek).await;
    tab2.expect_error(ErrorCode::AlreadySeeking).await;
    tab1.send(ClientFrame::CancelSeek).await;
    expect_frame!(tab1, ServerFrame::SeekCancelled);
    server.shutdown().await;
}

async fn flooding_closes_the_connection(db: Db) {
    let server = TestServer::start(db).await;
    let p = server.player("Flood").await;
    let mut c = server.client(&p).await;
    for _ in 0..150 {
        if futures_util::SinkExt::send(&mut c.ws, Message::text("{\"t\":\"ping\"}"))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut pongs = 0;
    let code = loop {
        match tokio::time::timeout(WAIT, futures_util::StreamExt::next(&mut c.ws))
            .await
            .expect("closed in time")
        {
            Some(Ok(Message::Text(t))) if t.contains("pong") => pongs += 1,
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            Some(Err(_)) | None => break None,
        }
    };
    assert_eq!(code, Some(1008));
    assert!(
        (90..=101).contains(&pongs),
        "{pongs} pongs before the close"
    );
    // WebSocket pings are answered by the transport, so they count too.
    let mut c = server.client(&p).await;
    for _ in 0..150 {
        if futures_util::SinkExt::send(&mut c.ws, Message::Ping(vec![7; 125].into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let code = loop {
        match tokio::time::timeout(WAIT, futures_util::StreamExt::next(&mut c.ws))
            .await
            .expect("closed in time")
        {
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            Some(Err(_)) | None => break None,
        }
    };
    assert_eq!(code, Some(1008), "a ping flood is closed like any other");
    server.shutdown().await;
}

async fn foreign_origins_are_refused(db: Db) {
    let server = TestServer::start(db).await;
    let refused = connect_with_header(server.addr, "origin", "https://evil.example").await;
    assert!(refused.is_err(), "a foreign origin must be refused");
    let own = format!("http://{}", server.addr);
    assert!(
        connect_with_header(server.addr, "origin", &own)
            .await
            .is_ok(),
        "our own origin is welcome"
    );
    // An Origin that is not plain text is refused, not taken for a missing one. (Sent by hand:
    // a WebSocket client library will not send such a header.)
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut request = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: https://",
        server.addr
    )
    .into_bytes();
    request.extend_from_slice(b"\xe9vil.example\r\n\r\n");
    tcp.write_all(&request).await.unwrap();
    let mut answer = vec![0u8; 64];
    let n = tokio::time::timeout(WAIT, tcp.read(&mut answer))
        .await
        .expect("an answer")
        .unwrap();
    let status_line = String::from_utf8_lossy(&answer[..n]);
    assert!(status_line.starts_with("HTTP/1.1 403"), "{status_line}");
    server.shutdown().await;
}

async fn bad_http_input(db: Db) {
    let server = TestServer::start(db).await;
    for name in [
        "",
        "   ",
        "<script>alert(1)</script>",
        "x'; DROP TABLE players; --",
        &"n".repeat(25),
    ] {
        let (status, error) = server
            .post_json("/api/players", json!({ "name": name }))
            .await;
        assert_eq!(status, 400, "{name:?}: {error:?}");
        assert!(error.is_some_and(|e| !e.is_empty()));
    }
    let (status, _) = server.post_json("/api/players", json!({"nom": "x"})).await;
    assert_eq!(status, 400);
    let (status, error) = server
        .get_status(&format!("/api/players/{}", Uuid::new_v4()))
        .await;
    assert_eq!((status, error.as_deref()), (404, Some("player not found")));
    let (status, _) = server
        .get_status(&format!("/api/games/{}", Uuid::new_v4()))
        .await;
    assert_eq!(status, 404);
    let (status, _) = server.get_status("/api/leaderboard?rules=chess").await;
    assert_eq!(status, 400);
    let (status, _) = server.get_status("/healthz").await;
    assert_eq!(status, 200);
    let metrics = reqwest::get(server.url("/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains("jungle_"), "{metrics}");
    server.shutdown().await;
}

/// With `--metrics-addr`, `/metrics` leaves the public address for its own.
async fn metrics_can_be_served_apart(db: Db) {
    let server = TestServer::start_with(db, |c| {
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
    })
    .await;
    let (status, _) = server.get_status("/metrics").await;
    assert_eq!(status, 404, "not on the public address");
    let apart = server.metrics_addr().expect("bound");
    let text = reqwest::get(format!("http://{apart}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("jungle_"), "{text}");
    server.shutdown().await;
}

both_stores!(
    metrics_can_be_served_apart,
    errors_before_and_at_hello,
    malformed_frames,
    move_errors_change_nothing,
    seeking_twice_and_never_against_oneself,
    flooding_closes_the_connection,
    foreign_origins_are_refused,
    bad_http_input,
);

/// A `hello` that fails on our side (here the players' table is away) is answered `internal`
/// and the socket closed with 1013, so the client reconnects and says hello again; left open,
/// it would refuse every frame while the player's games went on. A bad token keeps its socket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_that_fails_on_our_side_closes_the_socket_to_be_tried_again() {
    let server = TestServer::start(Db::Sqlite).await;
    let ada = server.player("Ada").await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&server.config.database_url)
        .await
        .unwrap();
    let rename = |from: &'static str, to: &'static str| {
        let pool = pool.clone();
        async move {
            sqlx::query(&format!("ALTER TABLE {from} RENAME TO {to}"))
                .execute(&pool)
                .await
                .unwrap();
        }
    };
    rename("players", "players_away").await;
    let mut c = server.raw_client().await;
    c.send(ClientFrame::Hello {
        token: ada.token.clone(),
    })
    .await;
    c.expect_error(ErrorCode::Internal).await;
    // (Bounded as a whole: the server's pings would keep a per-frame wait alive for long.)
    let closed = tokio::time::timeout(std::time::Duration::from_secs(10), c.expect_close())
        .await
        .expect("the socket is closed");
    assert_eq!(closed, Some(1013));
    rename("players_away", "players").await;
    let mut again = server.raw_client().await;
    again
        .send(ClientFrame::Hello {
            token: ada.token.clone(),
        })
        .await;
    expect_frame!(again, ServerFrame::Welcome { .. });
    // A token nobody has is the client's fault: told so, its socket stays.
    let mut stranger = server.raw_client().await;
    stranger
        .send(ClientFrame::Hello {
            token: "no such token".into(),
        })
        .await;
    stranger.expect_error(ErrorCode::BadToken).await;
    stranger.send(ClientFrame::Ping).await;
    stranger.expect_error(ErrorCode::NotAuthenticated).await;
    pool.close().await;
    server.shutdown().await;
}
