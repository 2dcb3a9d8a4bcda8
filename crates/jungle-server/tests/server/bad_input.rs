//! Forged, replayed, out-of-order and oversized input against a live server: each gets a clear
//! error and changes nothing. Frames here are raw JSON on purpose: they are what a hostile or
//! broken client sends, which the protocol's types cannot express.

use crate::common::*;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

async fn forged_replayed_and_out_of_order(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    // A replayed move: the second copy is out of turn.
    red.mv(game, "g3g4").await;
    red.expect_moved().await;
    red.mv(game, "g3g4").await;
    red.expect_error(ErrorCode::NotYourTurn).await;
    blue.expect_moved().await;
    // Acting for the other player from one's own connection is impossible: the server knows
    // who each connection is, whatever a frame claims.
    red.send_json(json!({"t": "move", "game": game, "mv": "a7a6", "player": blue.player_id()}))
        .await;
    red.expect_error(ErrorCode::NotYourTurn).await;
    red.send_json(json!({"t": "resign", "game": game, "side": "blue"}))
        .await;
    let over = blue.expect_over().await;
    assert_eq!(
        over.winner,
        Some(Side::Blue),
        "the resignation was Red's own"
    );
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
        c.send_json(frame).await;
        c.expect_error(ErrorCode::BadFrame).await;
    }
    c.send(seek(Ruleset::Classic, fischer(4_000_000_000, 0), true))
        .await;
    c.expect_error(ErrorCode::BadRequest).await;
    c.mv(game, &"a".repeat(3000)).await;
    c.expect_error(ErrorCode::NotYourGame).await;
    c.send_raw(Message::text("\u{0}\u{1}garbage")).await;
    c.expect_error(ErrorCode::BadFrame).await;
    // Still healthy afterwards.
    c.send(ClientFrame::Ping).await;
    expect_frame!(c, ServerFrame::Pong);
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record.moves, ["g3g4"]);
    server.shutdown().await;
}

/// Every `/api/` refusal is JSON, even where the framework itself refuses a request it cannot
/// read (found by a cold test: a path that is no id answered plain text).
async fn api_refusals_are_json(db: Db) {
    let server = TestServer::start(db).await;
    let client = reqwest::Client::new();
    for (method, path) in [
        (reqwest::Method::GET, "/api/players/xyz"),
        (reqwest::Method::GET, "/api/tournaments/xyz"),
        (reqwest::Method::GET, "/api/tournaments?page=abc"),
        (reqwest::Method::PUT, "/api/account/blocks/not-a-uuid"),
        (reqwest::Method::GET, "/api/games/not-a-uuid"),
        (
            reqwest::Method::GET,
            "/api/games/00000000-0000-0000-0000-000000000000",
        ),
        (reqwest::Method::GET, "/api/leaderboard?rules=chess"),
        (reqwest::Method::GET, "/api/nosuchroute"),
        (reqwest::Method::POST, "/api/nosuchroute"),
        (reqwest::Method::GET, "/api/"),
        (reqwest::Method::GET, "/api"),
        (reqwest::Method::DELETE, "/api/players"),
        (reqwest::Method::PATCH, "/api/leaderboard"),
        (reqwest::Method::POST, "/api/players"),
    ] {
        let answer = client
            .request(method, server.url(path))
            .send()
            .await
            .unwrap();
        let status = answer.status().as_u16();
        let kind = answer
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let body: serde_json::Value = answer.json().await.expect(path);
        assert!((400..500).contains(&status), "{path}: {status}");
        assert!(kind.starts_with("application/json"), "{path}: {kind}");
        // One shape for every refusal: a stable code and a sentence.
        assert!(
            body["code"].as_str().is_some_and(|c| !c.is_empty())
                && body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{path}: {body}"
        );
    }
    server.shutdown().await;
}

async fn names_with_markup_are_refused_and_stored_names_are_data(db: Db) {
    let server = TestServer::start(db).await;
    let (status, error) = server
        .post_json(
            "/api/players",
            json!({"name": "<img src=x onerror=alert(1)>"}),
        )
        .await;
    assert_eq!(status, 400, "{error:?}");
    let (status, error) = server
        .post_json("/api/players", json!({"name": "'; DROP TABLE games; --"}))
        .await;
    assert_eq!(status, 400, "{error:?}");
    let player = server.player("O-Neil_2 X").await;
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", player.id)).await;
    assert_eq!(profile.name, "O-Neil_2 X");
    let (status, _) = server.get_status("/api/players/not-a-uuid").await;
    assert_eq!(status, 400);
    server.shutdown().await;
}

both_stores!(
    api_refusals_are_json,
    forged_replayed_and_out_of_order,
    names_with_markup_are_refused_and_stored_names_are_data
);
