//! Every protocol error gets an `error` frame with a stable code and changes nothing.

mod common;

use common::*;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

async fn errors_before_and_at_hello(db: Db) {
    let server = TestServer::start(db).await;
    let mut c = server.raw_client().await;
    c.send(json!({"t": "seek", "rules": "classic", "clock": {"kind": "fischer", "base_s": 60, "inc_s": 0}, "rated": true})).await;
    c.expect_error("not_authenticated").await;
    c.send(json!({"t": "hello", "token": "forged"})).await;
    c.expect_error("bad_token").await;
    let p = server.player("Ann").await;
    c.send(json!({"t": "hello", "token": p.token})).await;
    c.expect("welcome").await;
    c.send(json!({"t": "hello", "token": p.token})).await;
    c.expect_error("already_authenticated").await;
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
        let error = c.expect_error("bad_frame").await;
        assert!(!error["message"].as_str().unwrap().is_empty());
    }
    c.send_raw(Message::binary(vec![1, 2, 3])).await;
    c.expect_error("binary_frame").await;
    let big = format!("{{\"t\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(5000));
    c.send_raw(Message::text(big)).await;
    c.expect_error("frame_too_large").await;
    c.send(json!({"t": "seek", "rules": "classic", "clock": {"kind": "fischer", "base_s": 0, "inc_s": 0}, "rated": true})).await;
    c.expect_error("bad_request").await;
    c.send(json!({"t": "join_room", "code": "NOPE42"})).await;
    c.expect_error("room_not_found").await;
    c.send(json!({"t": "watch", "game": uuid::Uuid::new_v4()}))
        .await;
    c.expect_error("unknown_game").await;
    c.send(json!({"t": "ping"})).await;
    c.expect("pong").await;
    server.shutdown().await;
}

async fn move_errors_change_nothing(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    blue.mv(&game, "a7a6").await;
    blue.expect_error("not_your_turn").await;
    red.mv(&game, "a3a5").await;
    let illegal = red.expect_error("illegal_move").await;
    assert!(
        illegal["message"].as_str().unwrap().contains("a3a5"),
        "{illegal}"
    );
    red.mv(&game, "c3c4").await;
    assert!(red.expect_error("illegal_move").await["message"]
        .as_str()
        .unwrap()
        .contains("water"));
    red.mv(&game, "a7a6").await;
    red.expect_error("illegal_move").await;
    red.mv(&game, "zz").await;
    red.expect_error("bad_move").await;
    red.mv(&game, "pass").await;
    red.expect_error("bad_move").await;
    // Someone else's game.
    let outsider = server.player("Mallory").await;
    let mut m = server.client(&outsider).await;
    m.mv(&game, "a3a4").await;
    m.expect_error("not_your_game").await;
    m.send(json!({"t": "resign", "game": game})).await;
    m.expect_error("not_your_game").await;
    m.mv(&uuid::Uuid::new_v4().to_string(), "a3a4").await;
    m.expect_error("unknown_game").await;
    // Nothing changed: the first real move is ply 1.
    red.mv(&game, "a3a4").await;
    assert_eq!(red.expect("moved").await["ply"], 1);
    red.send(json!({"t": "resign", "game": game})).await;
    red.expect("game_over").await;
    red.mv(&game, "a4a5").await;
    red.expect_error("game_over").await;
    red.send(json!({"t": "offer_draw", "game": game})).await;
    red.expect_error("game_over").await;
    let (_, record) = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record["moves"], json!(["a3a4"]));
    server.shutdown().await;
}

async fn seeking_twice_and_never_against_oneself(db: Db) {
    let server = TestServer::start(db).await;
    let p = server.player("Solo").await;
    let mut tab1 = server.client(&p).await;
    let mut tab2 = server.client(&p).await;
    let seek = json!({"t": "seek", "rules": "classic", "clock": {"kind": "fischer", "base_s": 60, "inc_s": 0}, "rated": true});
    tab1.send(seek.clone()).await;
    tab1.expect("seeking").await;
    tab2.send(seek).await;
    tab2.expect_error("already_seeking").await;
    tab1.send(json!({"t": "cancel_seek"})).await;
    tab1.expect("seek_cancelled").await;
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
    server.shutdown().await;
}

async fn foreign_origins_are_refused(db: Db) {
    let server = TestServer::start(db).await;
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{}/ws",
            server.addr
        ))
        .unwrap();
    request
        .headers_mut()
        .insert("origin", "https://evil.example".parse().unwrap());
    let refused = tokio_tungstenite::connect_async(request).await;
    assert!(refused.is_err(), "a foreign origin must be refused");
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{}/ws",
            server.addr
        ))
        .unwrap();
    request
        .headers_mut()
        .insert("origin", format!("http://{}", server.addr).parse().unwrap());
    assert!(
        tokio_tungstenite::connect_async(request).await.is_ok(),
        "our own origin is welcome"
    );
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
        let (status, body) = server.post("/api/players", json!({"name": name})).await;
        assert_eq!(status, 400, "{name:?}: {body}");
        assert!(body["error"].is_string());
    }
    let (status, _) = server.post("/api/players", json!({"nom": "x"})).await;
    assert_eq!(status, 400);
    let (status, _) = server
        .get(&format!("/api/players/{}", uuid::Uuid::new_v4()))
        .await;
    assert_eq!(status, 404);
    let (status, _) = server
        .get(&format!("/api/games/{}", uuid::Uuid::new_v4()))
        .await;
    assert_eq!(status, 404);
    let (status, _) = server.get("/api/leaderboard?rules=chess").await;
    assert_eq!(status, 400);
    let (status, _) = server.get("/healthz").await;
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

both_stores!(
    errors_before_and_at_hello,
    malformed_frames,
    move_errors_change_nothing,
    seeking_twice_and_never_against_oneself,
    flooding_closes_the_connection,
    foreign_origins_are_refused,
    bad_http_input,
);
