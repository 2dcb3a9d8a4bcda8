//! Accounts (issue 12): a guest made permanent keeps everything, signs in from another device,
//! and nothing secret is stored in clear; sign-ins are limited; look-alike names are refused.

use crate::common::*;
use serde_json::Value;

/// `POST path` with a JSON body and an optional bearer token: the status and the JSON answer.
async fn post(
    server: &TestServer,
    path: &str,
    body: &impl serde::Serialize,
    bearer: Option<&str>,
) -> (u16, Value, reqwest::header::HeaderMap) {
    let mut request = reqwest::Client::new().post(server.url(path)).json(body);
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("POST");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let json = response.json().await.unwrap_or(Value::Null);
    (status, json, headers)
}

fn credentials(username: &str, password: &str) -> http::Credentials {
    http::Credentials {
        username: username.into(),
        password: password.into(),
    }
}

const PASSWORD: &str = "correct horse battery";

async fn a_guest_made_permanent_keeps_everything_on_a_second_device(db: Db) {
    let server = TestServer::start(db).await;
    let guest = server.player("Ada").await;
    // A game in progress as a guest.
    let mut first = server.client(&guest).await;
    first.send(vs_computer(1, ColorChoice::Red)).await;
    let game = expect_frame!(first, ServerFrame::Game(state) if state.status == GameStatus::Active => state.game);

    let (status, answer, _) = post(
        &server,
        "/api/account",
        &credentials("Lovelace", PASSWORD),
        Some(&guest.token),
    )
    .await;
    assert_eq!(status, 201, "{answer}");
    let created: http::CreatedAccount = serde_json::from_value(answer).unwrap();
    assert_eq!(created.id, guest.id, "the same player");
    assert_eq!(created.username, "Lovelace");
    // The browser it was made in stays signed in.
    let again = server.client(&guest).await;
    assert_eq!(again.player_id(), guest.id);

    // A second device signs in, and is the same player with the same unfinished game.
    let (status, answer, headers) = post(
        &server,
        "/api/session",
        &credentials("lovelace", PASSWORD),
        None,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let signed_in: http::SignedIn = serde_json::from_value(answer).unwrap();
    assert_eq!(signed_in.id, guest.id);
    assert_eq!(signed_in.name, "Lovelace");
    let cookie = headers["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with("jungle_session="), "{cookie}");
    for part in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(part), "{cookie}");
    }
    let device = Player {
        id: signed_in.id,
        token: signed_in.token.clone(),
    };
    let mut second = raw_client(server.addr).await;
    second
        .send(ClientFrame::Hello {
            token: device.token.clone(),
        })
        .await;
    let games = expect_frame!(second, ServerFrame::Welcome { player, games, .. } if player.id == guest.id => games);
    assert_eq!(games, vec![game]);
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", guest.id)).await;
    assert_eq!(profile.name, "Lovelace");
    assert_eq!(profile.username.as_deref(), Some("Lovelace"));

    // A claimed guest cannot be claimed again.
    let (status, answer, _) = post(
        &server,
        "/api/account",
        &credentials("Other", PASSWORD),
        Some(&guest.token),
    )
    .await;
    assert_eq!(status, 401, "the guest token is a session now: {answer}");

    // Signing out ends the session: its token no longer signs in.
    let response = reqwest::Client::new()
        .delete(server.url("/api/session"))
        .bearer_auth(&device.token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 204);
    let mut third = raw_client(server.addr).await;
    third
        .send(ClientFrame::Hello {
            token: device.token.clone(),
        })
        .await;
    third.expect_error(ErrorCode::BadToken).await;
    server.shutdown().await;
}

async fn look_alike_and_reserved_usernames_are_refused(db: Db) {
    let server = TestServer::start(db).await;
    let (status, _, _) = post(&server, "/api/account", &credentials("Ada", PASSWORD), None).await;
    assert_eq!(status, 201);
    for (name, expected) in [
        ("ada", 409),
        ("ADA", 409),
        ("Аda", 400), // Cyrillic А: not ASCII
        ("admin", 409),
        ("Computer8", 409),
        ("1ada", 400),
    ] {
        let (status, answer, _) =
            post(&server, "/api/account", &credentials(name, PASSWORD), None).await;
        assert_eq!(status, expected, "{name}: {answer}");
        let code = answer["error"].as_str().unwrap();
        assert!(
            ["username_taken", "bad_username"].contains(&code),
            "{name}: {answer}"
        );
    }
    let (status, _, _) = post(
        &server,
        "/api/account",
        &credentials("AdaI", PASSWORD),
        None,
    )
    .await;
    assert_eq!(status, 201);
    let (status, _, _) = post(
        &server,
        "/api/account",
        &credentials("Adal", PASSWORD),
        None,
    )
    .await;
    assert_eq!(status, 409, "Adal looks like AdaI");
    // Weak passwords.
    for weak in ["short", "password1", "Ada12345"] {
        let (status, answer, _) =
            post(&server, "/api/account", &credentials("Grace", weak), None).await;
        if weak == "Ada12345" {
            assert_eq!(status, 201, "{answer}");
        } else {
            assert_eq!(
                (status, answer["error"].as_str()),
                (400, Some("bad_password"))
            );
        }
    }
    // A guest cannot take an account's name, or a blank-looking one.
    for name in ["ada", "𝐀𝐝𝐚", "\u{3164}"] {
        let (status, _) = server
            .post_json("/api/players", serde_json::json!({ "name": name }))
            .await;
        assert_eq!(status, 400, "{name:?}");
    }
    server.shutdown().await;
}

async fn wrong_passwords_are_answered_alike_and_slowed(db: Db) {
    let server = TestServer::start(db).await;
    new_account(&server, "Grace").await;
    let (unknown_status, unknown, _) = post(
        &server,
        "/api/session",
        &credentials("Nobody", PASSWORD),
        None,
    )
    .await;
    let (wrong_status, wrong, _) = post(
        &server,
        "/api/session",
        &credentials("Grace", "not the password"),
        None,
    )
    .await;
    assert_eq!((unknown_status, wrong_status), (401, 401));
    assert_eq!(
        unknown, wrong,
        "an unknown user and a wrong password look the same"
    );
    assert_eq!(wrong["error"], "bad_credentials");
    // After a few failures, attempts are refused for a while, growing with each failure.
    let mut refused_after = None;
    for attempt in 2..=10 {
        let (status, _, _) = post(
            &server,
            "/api/session",
            &credentials("Grace", "not the password"),
            None,
        )
        .await;
        if status == 429 {
            refused_after = Some(attempt);
            break;
        }
        assert_eq!(status, 401);
    }
    assert!(matches!(refused_after, Some(6..=10)), "{refused_after:?}");
    // Now even the right password waits.
    let (status, answer, headers) = post(
        &server,
        "/api/session",
        &credentials("Grace", PASSWORD),
        None,
    )
    .await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(answer["error"], "rate_limited");
    assert!(headers.contains_key("retry-after"));
    // Another account is not affected.
    new_account(&server, "Hopper").await;
    let (status, _, _) = post(
        &server,
        "/api/session",
        &credentials("Hopper", PASSWORD),
        None,
    )
    .await;
    assert_eq!(status, 200);
    server.shutdown().await;
}

/// A new account (no guest behind it).
async fn new_account(server: &TestServer, username: &str) {
    let (status, answer, _) = post(
        server,
        "/api/account",
        &credentials(username, PASSWORD),
        None,
    )
    .await;
    assert_eq!(status, 201, "{answer}");
}

/// The sessions listed to the holder of `token`.
async fn sessions_of(server: &TestServer, token: &str) -> (u16, Value) {
    call(server, reqwest::Method::GET, "/api/sessions", token, None).await
}

/// Signs `username` in as a new device: its session token.
async fn device(server: &TestServer, username: &str, password: &str) -> String {
    let (status, answer, _) = post(
        server,
        "/api/session",
        &credentials(username, password),
        None,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    answer["token"].as_str().unwrap().to_owned()
}

/// A WebSocket signed in with a session token, past its welcome.
async fn signed_in_as(server: &TestServer, token: &str) -> Client {
    let mut client = raw_client(server.addr).await;
    client
        .send(ClientFrame::Hello {
            token: token.to_owned(),
        })
        .await;
    expect_frame!(client, ServerFrame::Welcome { .. });
    client
}

async fn sessions_are_listed_and_signed_out_everywhere(db: Db) {
    // Two dozen sign-ins from one address: past the per-address limit, which is not tried here.
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    new_account(&server, "Grace").await;
    let laptop = device(&server, "Grace", PASSWORD).await;
    let phone = device(&server, "Grace", PASSWORD).await;
    let (status, list) = sessions_of(&server, &laptop).await;
    assert_eq!(status, 200);
    let sessions: Vec<http::SessionInfo> = serde_json::from_value(list).unwrap();
    assert_eq!(sessions.len(), 2);
    assert_eq!(sessions.iter().filter(|s| s.current).count(), 1);
    assert!(sessions.iter().all(|s| s.address == "127.0.0.0/24"));
    let phone_session = sessions.iter().find(|s| !s.current).unwrap().id;

    // The phone is connected; the laptop signs it out, and its socket closes at once.
    let mut on_phone = signed_in_as(&server, &phone).await;
    let path = format!("/api/sessions/{phone_session}");
    let (status, _) = call(&server, reqwest::Method::DELETE, &path, &laptop, None).await;
    assert_eq!(status, 204);
    assert_eq!(on_phone.expect_close().await, Some(4001));
    let mut again = raw_client(server.addr).await;
    again.send(ClientFrame::Hello { token: phone }).await;
    again.expect_error(ErrorCode::BadToken).await;
    // Nobody signs out a session that is not theirs.
    new_account(&server, "Mallory").await;
    let mallory = device(&server, "Mallory", PASSWORD).await;
    let (_, list) = sessions_of(&server, &laptop).await;
    let laptop_session = list[0]["id"].as_str().unwrap().to_owned();
    let path = format!("/api/sessions/{laptop_session}");
    let (status, _) = call(&server, reqwest::Method::DELETE, &path, &mallory, None).await;
    assert_eq!(status, 404);
    let (status, _) = sessions_of(&server, &laptop).await;
    assert_eq!(status, 200, "still signed in");

    // An account holds at most 20 sessions: the least recently used end first.
    for _ in 0..19 {
        device(&server, "Mallory", PASSWORD).await;
    }
    let (_, list) = sessions_of(&server, &mallory).await;
    assert_eq!(list.as_array().unwrap().len(), 20);
    let (status, _) = sessions_of(&server, &mallory).await;
    assert_eq!(status, 200);
    let newest = device(&server, "Mallory", PASSWORD).await;
    let (_, list) = sessions_of(&server, &newest).await;
    assert_eq!(list.as_array().unwrap().len(), 20);

    // A new password signs out every other session.
    let tablet = device(&server, "Grace", PASSWORD).await;
    let mut on_tablet = signed_in_as(&server, &tablet).await;
    let change = serde_json::json!({ "current": PASSWORD, "new": "a much better secret" });
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        "/api/account/password",
        &laptop,
        Some(change),
    )
    .await;
    assert_eq!(status, 204);
    assert_eq!(on_tablet.expect_close().await, Some(4001));
    let (status, _, _) = post(
        &server,
        "/api/session",
        &credentials("Grace", PASSWORD),
        None,
    )
    .await;
    assert_eq!(status, 401, "the old password no longer works");
    device(&server, "Grace", "a much better secret").await;
    server.shutdown().await;
}

async fn sessions_expire_and_accounts_can_be_deleted(db: Db) {
    let server = TestServer::start(db).await;
    let guest = server.player("Katherine").await;
    let mut c = server.client(&guest).await;
    c.send(vs_computer(1, ColorChoice::Red)).await;
    let game = expect_frame!(c, ServerFrame::Game(state) if state.status == GameStatus::Active => state.game);
    c.send(ClientFrame::Resign { game }).await;
    c.expect_over().await;
    post(
        &server,
        "/api/account",
        &credentials("Katherine", PASSWORD),
        Some(&guest.token),
    )
    .await;
    // A session unused for longer than 30 days no longer signs in.
    let old = device(&server, "Katherine", PASSWORD).await;
    let mut db = <sqlx::AnyConnection as sqlx::Connection>::connect(&server.config.database_url)
        .await
        .unwrap();
    sqlx::query("UPDATE sessions SET last_seen_at = 0 WHERE token_hash = $1")
        .bind(jungle_web::auth::hash_token(&old))
        .execute(&mut db)
        .await
        .unwrap();
    let mut expired = raw_client(server.addr).await;
    expired.send(ClientFrame::Hello { token: old }).await;
    expired.expect_error(ErrorCode::BadToken).await;

    // The account's data, as one document: the game is there, no secret is.
    let token = device(&server, "Katherine", PASSWORD).await;
    let (status, export) = call(
        &server,
        reqwest::Method::GET,
        "/api/account/export",
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{export}");
    let text = export.to_string();
    let export: http::AccountExport = serde_json::from_value(export).unwrap();
    assert_eq!(export.profile.username.as_deref(), Some("Katherine"));
    assert_eq!(export.games.len(), 1);
    assert_eq!(export.games[0].id, game);
    assert!(export.sessions.iter().any(|s| s.current));
    for secret in ["argon2", token.as_str(), guest.token.as_str(), PASSWORD] {
        assert!(!text.contains(secret), "the export holds {secret:?}");
    }
    for _ in 0..2 {
        call(
            &server,
            reqwest::Method::GET,
            "/api/account/export",
            &token,
            None,
        )
        .await;
    }
    let (status, _) = call(
        &server,
        reqwest::Method::GET,
        "/api/account/export",
        &token,
        None,
    )
    .await;
    assert_eq!(status, 429, "three exports per ten minutes");

    // Deleting needs the password; then the games stay under an anonymous name.
    let wrong = serde_json::json!({ "password": "not it at all" });
    let (status, _) = call(
        &server,
        reqwest::Method::DELETE,
        "/api/account",
        &token,
        Some(wrong),
    )
    .await;
    assert_eq!(status, 401);
    let right = serde_json::json!({ "password": PASSWORD });
    let (status, _) = call(
        &server,
        reqwest::Method::DELETE,
        "/api/account",
        &token,
        Some(right),
    )
    .await;
    assert_eq!(status, 204);
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    let names = serde_json::to_string(&record).unwrap();
    assert!(names.contains("Deleted player"), "{names}");
    assert!(!names.contains("Katherine"), "{names}");
    let (status, _, _) = post(
        &server,
        "/api/session",
        &credentials("Katherine", PASSWORD),
        None,
    )
    .await;
    assert_eq!(status, 401);
    let mut gone = raw_client(server.addr).await;
    gone.send(ClientFrame::Hello { token: guest.token }).await;
    gone.expect_error(ErrorCode::BadToken).await;
    // The name is free again.
    let (status, _, _) = post(
        &server,
        "/api/account",
        &credentials("Katherine", PASSWORD),
        None,
    )
    .await;
    assert_eq!(status, 201);
    server.shutdown().await;
}

/// No password or token is stored in clear: the whole SQLite file (and its log) is searched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_holds_no_secret_in_clear() {
    let server = TestServer::start(Db::Sqlite).await;
    let guest = server.player("Secretive").await;
    post(
        &server,
        "/api/account",
        &credentials("Secretive", PASSWORD),
        Some(&guest.token),
    )
    .await;
    let (_, answer, _) = post(
        &server,
        "/api/session",
        &credentials("Secretive", PASSWORD),
        None,
    )
    .await;
    let session_token = answer["token"].as_str().unwrap().to_owned();
    let path = server
        .config
        .database_url
        .strip_prefix("sqlite://")
        .unwrap()
        .to_owned();
    let mut bytes = Vec::new();
    for suffix in ["", "-wal"] {
        if let Ok(mut file) = std::fs::read(format!("{path}{suffix}")) {
            bytes.append(&mut file);
        }
    }
    assert!(!bytes.is_empty());
    for secret in [PASSWORD, guest.token.as_str(), session_token.as_str()] {
        let found = bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
        assert!(!found, "{secret:?} is stored in clear");
    }
    server.shutdown().await;
}

both_stores!(
    a_guest_made_permanent_keeps_everything_on_a_second_device,
    look_alike_and_reserved_usernames_are_refused,
    wrong_passwords_are_answered_alike_and_slowed,
    sessions_are_listed_and_signed_out_everywhere,
    sessions_expire_and_accounts_can_be_deleted,
);
