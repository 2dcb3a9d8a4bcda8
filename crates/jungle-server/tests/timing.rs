//! Clocks, aborts, disconnects and restarts over real sockets, with short real durations.

mod common;

use common::*;
use serde_json::json;

async fn fischer_flag_loses(db: Db) {
    let server = TestServer::start(db).await;
    let seek = json!({"rules": "international", "clock": {"kind": "fischer", "base_s": 1, "inc_s": 0}, "rated": true});
    let (mut red, mut blue, game) = matched_pair(&server, seek).await;
    // First moves are untimed; from Red's second turn its clock runs.
    play(&mut red, &mut blue, &game, &["g3g4", "a7a6"]).await;
    let over = blue.expect("game_over").await;
    assert_eq!(over["reason"], "timeout");
    assert_eq!(over["winner"], "blue");
    server.shutdown().await;
}

async fn per_move_timeouts_pass_then_lose(db: Db) {
    let server = TestServer::start(db).await;
    let seek = json!({"rules": "classic", "clock": {"kind": "per_move", "move_s": 1, "max_timeouts": 1}, "rated": false});
    let (mut red, mut blue, game) = matched_pair(&server, seek).await;
    play(&mut red, &mut blue, &game, &["g3g4", "a7a6"]).await;
    // Red lets its turn run out: the server passes for it and counts a timeout.
    let pass = blue.expect("moved").await;
    assert_eq!(pass["mv"], "pass");
    assert_eq!(pass["clocks"]["red_timeouts"], 1);
    assert!(
        !pass["legal"].as_array().unwrap().is_empty(),
        "blue is to move after the pass"
    );
    blue.mv(&game, "a6a5").await;
    blue.expect("moved").await;
    // The second timeout exceeds the allowance of one.
    let over = red.expect("game_over").await;
    assert_eq!(over["reason"], "timeout");
    assert_eq!(over["winner"], "blue");
    server.shutdown().await;
}

async fn no_first_move_aborts(db: Db) {
    let server = TestServer::start_with(db, |c| c.abort_s = 1).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let over = blue.expect("game_over").await;
    assert_eq!(over["reason"], "aborted");
    assert_eq!(over["winner"], serde_json::Value::Null);
    assert_eq!(over["rated"], false);
    red.expect("game_over").await;
    let (_, record) = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record["status"], "aborted");
    server.shutdown().await;
}

async fn reconnect_within_grace_resumes(db: Db) {
    let server = TestServer::start_with(db, |c| c.disconnect_grace_s = 3).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, &game, &["g3g4", "a7a6"]).await;
    let red_player = red.player.clone().unwrap();
    drop(red);
    let away = blue.expect("presence").await;
    assert_eq!(away["side"], "red");
    assert_eq!(away["online"], false);
    let countdown = away["abandon_in_ms"].as_u64().unwrap();
    assert!(countdown > 1_000 && countdown <= 3_000, "{away}");
    let mut red = server.client(&red_player).await;
    let state = red.expect("game").await;
    assert_eq!(state["game"], game.as_str());
    assert_eq!(state["moves"], json!(["g3g4", "a7a6"]));
    assert_eq!(state["you"], "red");
    assert!(!state["legal"].as_array().unwrap().is_empty());
    let back = blue.expect("presence").await;
    assert_eq!(back["online"], true);
    play(&mut red, &mut blue, &game, &["g4g5"]).await;
    server.shutdown().await;
}

async fn staying_away_past_grace_loses(db: Db) {
    let server = TestServer::start_with(db, |c| c.disconnect_grace_s = 1).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, &game, &["g3g4", "a7a6"]).await;
    drop(red);
    let over = blue.expect("game_over").await;
    assert_eq!(over["reason"], "abandoned");
    assert_eq!(over["winner"], "blue");
    let (_, record) = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record["reason"], "abandoned");
    let blue_id = blue.player.as_ref().unwrap().id.clone();
    let (_, profile) = server.get(&format!("/api/players/{blue_id}")).await;
    assert_eq!(profile["stats"]["wins"], 1);
    server.shutdown().await;
}

async fn restart_mid_game_resumes(db: Db) {
    let mut server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, &game, &["g3g4", "a7a6", "g4g5"]).await;
    let (red_player, blue_player) = (red.player.clone().unwrap(), blue.player.clone().unwrap());
    let restart = server.restart();
    // Clients are told the server is going down.
    let (_, _, ()) = tokio::join!(
        async { assert_eq!(red.expect("shutdown").await["t"], "shutdown") },
        async { assert_eq!(blue.expect("shutdown").await["t"], "shutdown") },
        restart
    );
    let mut red = server.client(&red_player).await;
    let mut blue = server.client(&blue_player).await;
    let state = blue.expect("game").await;
    assert_eq!(state["game"], game.as_str());
    assert_eq!(state["moves"], json!(["g3g4", "a7a6", "g4g5"]));
    assert_eq!(state["turn"], "blue");
    assert!(
        state["clocks"]["blue_ms"].as_u64().unwrap() > 290_000,
        "{state}"
    );
    red.expect("game").await;
    play(&mut blue, &mut red, &game, &["a6a5"]).await;
    red.send(json!({"t": "resign", "game": game})).await;
    assert_eq!(blue.expect("game_over").await["reason"], "resign");
    let (_, record) = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record["moves"], json!(["g3g4", "a7a6", "g4g5", "a6a5"]));
    server.shutdown().await;
}

both_stores!(
    fischer_flag_loses,
    per_move_timeouts_pass_then_lose,
    no_first_move_aborts,
    reconnect_within_grace_resumes,
    staying_away_past_grace_loses,
    restart_mid_game_resumes,
);
