//! Playing the computer: from the lobby, as a room seat, and as quick match's fallback.

mod common;

use common::*;
use serde_json::json;

async fn play_the_computer(db: Db) {
    let server = TestServer::start(db).await;
    let me = server.player("Human").await;
    let mut c = server.client(&me).await;
    c.send(json!({"t": "play_computer", "rules": "international", "clock": {"kind": "fischer", "base_s": 300, "inc_s": 0}, "level": 3, "color": "red"})).await;
    let state = loop {
        let state = c.expect("game").await;
        if state["status"] == "active" {
            break state;
        }
    };
    assert_eq!(state["you"], "red");
    assert_eq!(state["rated"], false, "computer games are casual");
    assert_eq!(state["blue"]["computer"], 3);
    assert_eq!(state["blue"]["online"], true);
    let game = state["game"].as_str().unwrap().to_owned();
    for (i, mv) in ["g3g4", "g4g5", "g5g6"].iter().enumerate() {
        c.mv(&game, mv).await;
        assert_eq!(c.expect("moved").await["mv"], *mv);
        let reply = c.expect("moved").await;
        assert_eq!(reply["ply"], 2 * i + 2, "the computer answered: {reply}");
        assert!(!reply["legal"].as_array().unwrap().is_empty());
    }
    c.send(json!({"t": "resign", "game": game})).await;
    let over = c.expect("game_over").await;
    assert_eq!(over["rated"], false);
    // The computer always takes a rematch.
    c.send(json!({"t": "rematch", "game": game})).await;
    let next = c.expect("game").await;
    assert_ne!(next["game"], game.as_str());
    assert_eq!(next["you"], "blue");
    assert_eq!(next["red"]["computer"], 3);
    // Moving first as Red, the computer opens the new game by itself.
    let opening = c.expect("moved").await;
    assert_eq!(opening["ply"], 1);
    let (_, record) = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(
        record["players"]["blue"]["computer"], 3,
        "records mark the computer"
    );
    server.shutdown().await;
}

async fn the_computer_takes_a_private_rooms_free_seat(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.player("Host").await;
    let mut h = server.client(&host).await;
    h.send(json!({"t": "create_room", "rules": "classic", "clock": {"kind": "fischer", "base_s": 60, "inc_s": 1}, "rated": true, "color": "blue"})).await;
    let waiting = h.expect("game").await;
    let game = waiting["game"].as_str().unwrap().to_owned();
    h.send(json!({"t": "add_computer", "game": game, "level": 1}))
        .await;
    let started = h.expect("game").await;
    assert_eq!(started["status"], "active");
    assert_eq!(started["rated"], false);
    assert_eq!(started["red"]["computer"], 1);
    // Red (the computer) moves first.
    let first = h.expect("moved").await;
    assert_eq!(first["ply"], 1);
    h.send(json!({"t": "add_computer", "game": game, "level": 2}))
        .await;
    h.expect_error("bad_request").await;
    server.shutdown().await;
}

async fn quick_match_falls_back_to_the_computer(db: Db) {
    let server = TestServer::start(db).await;
    let me = server.player("Lonely").await;
    let mut c = server.client(&me).await;
    c.send(json!({"t": "seek", "rules": "classic", "clock": {"kind": "fischer", "base_s": 180, "inc_s": 2}, "rated": true, "computer_after_s": 1})).await;
    c.expect("seeking").await;
    let state = c.expect("game").await;
    assert_eq!(state["rated"], false);
    let bot_side = if state["you"] == "red" { "blue" } else { "red" };
    assert!(state[bot_side]["computer"].as_u64().is_some(), "{state}");
    server.shutdown().await;
}

both_stores!(
    play_the_computer,
    the_computer_takes_a_private_rooms_free_seat,
    quick_match_falls_back_to_the_computer
);
