//! Games from start to end over real WebSockets, on both stores.

mod common;

use common::*;
use serde_json::json;

async fn matchmade_game_to_a_den_win_updates_ratings(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let (last, moves) = DEN_WIN_AT_PLY_21.split_last().unwrap();
    play(&mut red, &mut blue, &game, moves).await;
    red.mv(&game, last).await;
    for client in [&mut red, &mut blue] {
        let over = client.expect("game_over").await;
        assert_eq!(over["winner"], "red");
        assert_eq!(over["reason"], "den");
        assert_eq!(over["rated"], true);
        assert!(over["rating_change"]["red"].as_i64().unwrap() > 0, "{over}");
        assert!(
            over["rating_change"]["blue"].as_i64().unwrap() < 0,
            "{over}"
        );
    }
    let red_id = red.player.as_ref().unwrap().id.clone();
    let blue_id = blue.player.as_ref().unwrap().id.clone();
    let (status, profile) = server.get(&format!("/api/players/{red_id}")).await;
    assert_eq!(status, 200);
    assert_eq!(profile["ratings"]["classic"]["games"], 1);
    assert!(profile["ratings"]["classic"]["rating"].as_f64().unwrap() > 1500.0);
    assert_eq!(profile["ratings"]["classic"]["provisional"], true);
    assert_eq!(profile["stats"]["wins"], 1);
    let (_, loser) = server.get(&format!("/api/players/{blue_id}")).await;
    assert_eq!(loser["stats"]["losses"], 1);
    assert!(loser["ratings"]["classic"]["rating"].as_f64().unwrap() < 1500.0);
    let (status, record) = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(status, 200);
    assert_eq!(record["moves"].as_array().unwrap().len(), 21);
    assert_eq!(record["reason"], "den");
    assert_eq!(record["winner"], "red");
    let (_, board) = server.get("/api/leaderboard?rules=classic").await;
    assert_eq!(board["players"][0]["id"], red_id.as_str());
    server.shutdown().await;
}

async fn ten_move_rule_keeps_ratings(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, &game, &DEN_WIN_AT_PLY_13[..12]).await;
    red.mv(&game, DEN_WIN_AT_PLY_13[12]).await;
    let over = blue.expect("game_over").await;
    assert_eq!(over["reason"], "den");
    assert_eq!(over["rated"], false);
    assert_eq!(over["rating_change"], serde_json::Value::Null);
    let red_id = red.player.as_ref().unwrap().id.clone();
    let (_, profile) = server.get(&format!("/api/players/{red_id}")).await;
    assert_eq!(profile["ratings"]["classic"]["games"], 0);
    assert_eq!(profile["stats"]["games"], 1, "the game is recorded");
    server.shutdown().await;
}

async fn private_room_with_a_spectator(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.player("Host").await;
    let guest = server.player("Guest").await;
    let fan = server.player("Fan").await;
    let mut h = server.client(&host).await;
    h.send(json!({"t": "create_room", "rules": "daitou", "clock": {"kind": "per_move", "move_s": 30, "max_timeouts": 1, "consecutive": true}, "rated": false, "color": "blue"})).await;
    let room = h.expect("room").await;
    let code = room["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 6);
    assert!(room["url"]
        .as_str()
        .unwrap()
        .ends_with(&format!("/r/{code}")));
    let waiting = h.expect("game").await;
    assert_eq!(waiting["status"], "waiting");
    let game = waiting["game"].as_str().unwrap().to_owned();

    let mut g = server.client(&guest).await;
    g.send(json!({"t": "join_room", "code": code.to_lowercase()}))
        .await;
    let started = g.expect("game").await;
    assert_eq!(started["status"], "active");
    assert_eq!(started["you"], "red", "the host chose blue");
    assert_eq!(started["rules"], "daitou");
    assert_eq!(started["legal"].as_array().unwrap().len(), 24);
    let host_view = h.expect("game").await;
    assert_eq!(host_view["you"], "blue");
    assert_eq!(host_view["legal"], json!([]));

    let mut f = server.client(&fan).await;
    f.send(json!({"t": "join_room", "code": code})).await;
    let watching = f.expect("game").await;
    assert_eq!(watching["you"], serde_json::Value::Null);
    assert_eq!(watching["status"], "active");

    g.mv(&game, "a3a4").await;
    let seen = f.expect("moved").await;
    assert_eq!(seen["mv"], "a3a4");
    assert_eq!(seen["legal"], json!([]), "spectators get no legal moves");
    let host_moved = h.expect("moved").await;
    assert!(
        !host_moved["legal"].as_array().unwrap().is_empty(),
        "blue is to move"
    );

    f.mv(&game, "a7a6").await;
    f.expect_error("not_your_game").await;
    f.send(json!({"t": "resign", "game": game})).await;
    f.expect_error("not_your_game").await;

    h.send(json!({"t": "resign", "game": game})).await;
    let over = f.expect("game_over").await;
    assert_eq!(over["winner"], "red");
    assert_eq!(over["reason"], "resign");
    server.shutdown().await;
}

async fn draw_offer_decline_and_accept(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, &game, &["g1f1", "a9b9"]).await;
    red.send(json!({"t": "offer_draw", "game": game})).await;
    let offered = blue.expect("draw_offered").await;
    assert_eq!(offered["by"], "red");
    blue.send(json!({"t": "decline_draw", "game": game})).await;
    let declined = red.expect("draw_declined").await;
    assert_eq!(declined["by"], "blue");
    red.send(json!({"t": "offer_draw", "game": game})).await;
    red.expect_error("draw_offer_limit").await;
    blue.send(json!({"t": "accept_draw", "game": game})).await;
    blue.expect_error("no_draw_offer").await;
    // An offer lapses when the opponent moves instead of answering.
    blue.send(json!({"t": "offer_draw", "game": game})).await;
    red.expect("draw_offered").await;
    play(&mut red, &mut blue, &game, &["f1g1"]).await;
    blue.send(json!({"t": "accept_draw", "game": game})).await;
    blue.expect_error("no_draw_offer").await;
    // Blue has offered at ply 2; Red's own next offer is allowed from ply 22. Blue's from 22 too.
    // A fresh game for the accept path:
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    blue.send(json!({"t": "offer_draw", "game": game})).await;
    red.expect("draw_offered").await;
    red.send(json!({"t": "accept_draw", "game": game})).await;
    for client in [&mut red, &mut blue] {
        let over = client.expect("game_over").await;
        assert_eq!(over["reason"], "draw-agreed");
        assert_eq!(over["winner"], serde_json::Value::Null);
    }
    server.shutdown().await;
}

async fn resign_ends_the_game(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, &game, &["g3g4"]).await;
    red.send(json!({"t": "resign", "game": game})).await;
    let over = blue.expect("game_over").await;
    assert_eq!(over["winner"], "blue");
    assert_eq!(over["reason"], "resign");
    red.mv(&game, "g4g5").await;
    red.expect_error("game_over").await;
    server.shutdown().await;
}

async fn two_tabs_of_one_player(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let red_player = red.player.clone().unwrap();
    let mut red_tab = server.client(&red_player).await;
    let state = red_tab.expect("game").await;
    assert_eq!(state["you"], "red");
    assert_eq!(state["game"], game.as_str());
    // A move from the second tab reaches the first tab and the opponent.
    red_tab.mv(&game, "a3a4").await;
    assert_eq!(red_tab.expect("moved").await["mv"], "a3a4");
    assert_eq!(red.expect("moved").await["mv"], "a3a4");
    assert_eq!(blue.expect("moved").await["mv"], "a3a4");
    blue.mv(&game, "a7a6").await;
    assert_eq!(blue.expect("moved").await["mv"], "a7a6");
    assert_eq!(red_tab.expect("moved").await["mv"], "a7a6");
    assert_eq!(red.expect("moved").await["mv"], "a7a6");
    // Closing one tab leaves the player online through the other.
    drop(red_tab);
    red.mv(&game, "a4a5").await;
    assert_eq!(blue.expect("moved").await["mv"], "a4a5");
    server.shutdown().await;
}

async fn rematch_swaps_colours(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    red.send(json!({"t": "resign", "game": game})).await;
    red.expect("game_over").await;
    blue.expect("game_over").await;
    red.send(json!({"t": "rematch", "game": game})).await;
    assert_eq!(blue.expect("rematch_offered").await["by"], "red");
    blue.send(json!({"t": "rematch", "game": game})).await;
    let for_old_red = red.expect("game").await;
    let for_old_blue = blue.expect("game").await;
    assert_ne!(for_old_red["game"], game.as_str());
    assert_eq!(for_old_red["game"], for_old_blue["game"]);
    assert_eq!(for_old_red["you"], "blue");
    assert_eq!(for_old_blue["you"], "red");
    assert_eq!(for_old_blue["status"], "active");
    server.shutdown().await;
}

async fn spectators_list_and_watch_live_games(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let (_, live) = server.get("/api/games/live").await;
    assert!(
        live.as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == game.as_str()),
        "{live}"
    );
    let fan = server.player("Fan").await;
    let mut f = server.client(&fan).await;
    play(&mut red, &mut blue, &game, &["g3g4"]).await;
    f.send(json!({"t": "watch", "game": game})).await;
    let state = f.expect("game").await;
    assert_eq!(state["moves"], json!(["g3g4"]));
    assert_eq!(state["you"], serde_json::Value::Null);
    let names = [
        state["red"]["name"].as_str().unwrap(),
        state["blue"]["name"].as_str().unwrap(),
    ];
    assert!(
        names.contains(&"Alice") && names.contains(&"Bob"),
        "{names:?}"
    );
    blue.mv(&game, "a7a6").await;
    assert_eq!(f.expect("moved").await["mv"], "a7a6");
    server.shutdown().await;
}

/// A shared room link outlives a restart: same code, same game, the host's settings and
/// colour; once the game starts the room is no longer stored as waiting.
async fn private_room_survives_a_restart(db: Db) {
    let mut server = TestServer::start(db).await;
    let host = server.player("Host").await;
    let guest = server.player("Guest").await;
    let mut h = server.client(&host).await;
    h.send(json!({"t": "create_room", "rules": "international", "clock": {"kind": "fischer", "base_s": 300, "inc_s": 2}, "rated": true, "color": "blue"})).await;
    let room = h.expect("room").await;
    let code = room["code"].as_str().unwrap().to_owned();
    let game = room["game"].as_str().unwrap().to_owned();
    h.expect("game").await;
    drop(h);

    server.restart().await;

    let mut g = server.client(&guest).await;
    g.send(json!({"t": "join_room", "code": code})).await;
    let started = g.expect("game").await;
    assert_eq!(started["game"], game.as_str(), "the same game id");
    assert_eq!(started["status"], "active");
    assert_eq!(started["rules"], "international");
    assert_eq!(started["rated"], true);
    assert_eq!(started["clock"]["base_s"], 300);
    assert_eq!(started["you"], "red", "the host chose blue");
    assert_eq!(started["blue"]["name"], "Host");

    // The host comes back to the started game.
    let mut h = server.client(&host).await;
    let resumed = h.expect("game").await;
    assert_eq!(resumed["game"], game.as_str());
    assert_eq!(resumed["you"], "blue");

    // Started, the room is a game like any other: another restart resumes it, and the code
    // does not open a second waiting room.
    g.mv(&game, "a3a4").await;
    h.expect("moved").await;
    server.restart().await;
    let fan = server.player("Fan").await;
    let mut f = server.client(&fan).await;
    f.send(json!({"t": "join_room", "code": code})).await;
    let watching = f.expect("game").await;
    assert_eq!(watching["status"], "active");
    assert_eq!(
        watching["you"],
        serde_json::Value::Null,
        "a spectator, not a guest"
    );
    assert_eq!(watching["moves"], json!(["a3a4"]));
    server.shutdown().await;
}

both_stores!(
    matchmade_game_to_a_den_win_updates_ratings,
    ten_move_rule_keeps_ratings,
    private_room_with_a_spectator,
    private_room_survives_a_restart,
    draw_offer_decline_and_accept,
    resign_ends_the_game,
    two_tabs_of_one_player,
    rematch_swaps_colours,
    spectators_list_and_watch_live_games,
);
