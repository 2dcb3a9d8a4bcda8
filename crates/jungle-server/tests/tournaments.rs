//! Tournaments (issue 15, begun): creating and listing them over HTTP.

mod common;

use common::*;
use serde_json::{json, Value};

async fn create(server: &TestServer, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .post(server.url("/api/tournaments"))
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let answer = request.send().await.unwrap();
    (
        answer.status().as_u16(),
        answer.json().await.unwrap_or(Value::Null),
    )
}

fn arena(name: &str) -> Value {
    json!({ "name": name, "rules": "classic", "clock": { "kind": "fischer", "base_s": 180, "inc_s": 2 }, "minutes": 30 })
}

async fn tournaments_are_made_listed_and_shown(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.player("Organiser").await;
    let (status, made) = create(&server, Some(&host.token), arena("Evening arena")).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["code"], Value::Null, "public");
    let id: Uuid = made["id"].as_str().unwrap().parse().unwrap();
    let mut private = arena("Club night");
    private["private"] = json!(true);
    private["starts_at"] = json!("2099-01-01T00:00:00Z");
    let (status, _) = create(&server, Some(&host.token), private.clone()).await;
    assert_eq!(status, 400, "more than 30 days ahead");
    let soon = server_time_in(3600);
    private["starts_at"] = json!(soon);
    let (status, made) = create(&server, Some(&host.token), private).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["code"].as_str().map(str::len), Some(8));

    let listed: http::Tournaments = server.get("/api/tournaments").await;
    assert_eq!(listed.running.len(), 1, "the private one is not listed");
    assert_eq!(listed.running[0].name, "Evening arena");
    assert!(listed.upcoming.is_empty());
    let shown: http::Tournament = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(shown.status, http::TournamentStatus::Running);
    assert_eq!(
        (shown.rules, shown.rated, shown.private),
        (Ruleset::Classic, false, false)
    );
    assert!(shown.standings.is_empty());
    let length = jungle_server::time_text::parse_rfc3339(&shown.ends_at).unwrap()
        - jungle_server::time_text::parse_rfc3339(&shown.starts_at).unwrap();
    assert_eq!(length, 30 * 60_000);

    // Refusals change nothing.
    let mut bad_cases = Vec::new();
    for (key, value) in [
        ("minutes", json!(0)),
        ("minutes", json!(721)),
        ("name", json!("   ")),
        ("starts_at", json!("tomorrow")),
        ("rated", json!(true)),
        (
            "clock",
            json!({ "kind": "fischer", "base_s": 0, "inc_s": 0 }),
        ),
    ] {
        let mut body = arena("Bad");
        body[key] = value;
        bad_cases.push(body);
    }
    for body in bad_cases {
        let (status, answer) = create(&server, Some(&host.token), body.clone()).await;
        assert_eq!(status, 400, "{body} → {answer}");
    }
    assert_eq!(create(&server, None, arena("Anonymous")).await.0, 401);
    // At most three to come or running per player.
    assert_eq!(
        create(&server, Some(&host.token), arena("Third")).await.0,
        201
    );
    let (status, answer) = create(&server, Some(&host.token), arena("Fourth")).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        server
            .get_status(&format!("/api/tournaments/{}", Uuid::new_v4()))
            .await
            .0,
        404
    );
    server.shutdown().await;
}

/// RFC 3339 for `seconds` from now, as the server reads it.
fn server_time_in(seconds: i64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    jungle_server::time_text::rfc3339(now + seconds * 1000)
}

both_stores!(tournaments_are_made_listed_and_shown);
