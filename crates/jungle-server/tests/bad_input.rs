//! Forged, replayed, out-of-order and oversized input against a live server: each gets a clear
//! error and changes nothing.

mod common;

use common::*;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

async fn forged_replayed_and_out_of_order(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    // A replayed move: the second copy is out of turn.
    red.mv(&game, "g3g4").await;
    red.expect("moved").await;
    red.mv(&game, "g3g4").await;
    red.expect_error("not_your_turn").await;
    blue.expect("moved").await;
    // Acting for the other player from one's own connection is impossible: the server knows
    // who each connection is, whatever a frame claims.
    red.send(json!({"t": "move", "game": game, "mv": "a7a6", "player": blue.player.as_ref().unwrap().id})).await;
    red.expect_error("not_your_turn").await;
    red.send(json!({"t": "resign", "game": game, "side": "blue"}))
        .await;
    let over = blue.expect("game_over").await;
    assert_eq!(over["winner"], "blue", "the resignation was Red's own");
    // Huge numbers and wrong types are refused before they reach any game.
    let mut c = server.client(&server.player("Probe").await).await;
    for frame in [
        json!({"t": "seek", "rules": "classic", "clock": {"kind": "fischer", "base_s": 1e30, "inc_s": 0}, "rated": true}),
        json!({"t": "seek", "rules": "classic", "clock": {"kind": "fischer", "base_s": -5, "inc_s": 0}, "rated": true}),
        json!({"t": "seek", "rules": "classic", "clock": {"kind": "per_move", "move_s": "30", "max_timeouts": 3}, "rated": true}),
        json!({"t": "seek", "rules": ["classic"], "clock": null, "rated": "yes"}),
        json!({"t": "move", "game": game, "mv": ["a3a4"]}),
        json!({"t": 42}),
    ] {
        c.send(frame).await;
        c.expect_error("bad_frame").await;
    }
    c.send(json!({"t": "seek", "rules": "classic", "clock": {"kind": "fischer", "base_s": 4_000_000_000u64, "inc_s": 0}, "rated": true})).await;
    c.expect_error("bad_request").await;
    c.send(json!({"t": "move", "game": game, "mv": "a".repeat(3000)}))
        .await;
    c.expect_error("not_your_game").await;
    c.send_raw(Message::text("\u{0}\u{1}garbage")).await;
    c.expect_error("bad_frame").await;
    // Still healthy afterwards.
    c.send(json!({"t": "ping"})).await;
    c.expect("pong").await;
    let (_, record) = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record["moves"], json!(["g3g4"]));
    server.shutdown().await;
}

async fn names_with_markup_are_refused_and_stored_names_are_data(db: Db) {
    let server = TestServer::start(db).await;
    let (status, body) = server
        .post(
            "/api/players",
            json!({"name": "<img src=x onerror=alert(1)>"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = server
        .post("/api/players", json!({"name": "'; DROP TABLE games; --"}))
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = server
        .post("/api/players", json!({"name": "O-Neil_2 X"}))
        .await;
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap();
    let (_, profile) = server.get(&format!("/api/players/{id}")).await;
    assert_eq!(profile["name"], "O-Neil_2 X");
    let (status, _) = server.get("/api/players/not-a-uuid").await;
    assert_eq!(status, 400);
    server.shutdown().await;
}

both_stores!(
    forged_replayed_and_out_of_order,
    names_with_markup_are_refused_and_stored_names_are_data
);
