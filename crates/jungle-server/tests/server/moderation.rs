//! Direct challenges, reports, bans and the other `jungle-server admin` commands, display
//! settings and paged game lists (issue 12), against a real server; admin commands run as the
//! real binary on the same database, as an operator would run them.

use crate::common::*;
use serde_json::{json, Value};

/// A sign-in by username and password: its status and its answer.
async fn signed_in(server: &TestServer, username: &str, password: &str) -> (u16, Value) {
    let answer = sign_in(server.addr, username, password, None, None).await;
    let status = answer.status().as_u16();
    (status, answer.json().await.unwrap_or(Value::Null))
}

/// Runs `jungle-server --database-url URL admin ARGS…` as the operator `test-operator`.
async fn admin(server: &TestServer, args: &[&str]) -> (bool, String) {
    let url = server.config.database_url.clone();
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jungle-server"))
            .args([
                "--database-url",
                &url,
                "--public-url",
                "https://jungle.example",
            ])
            .arg("admin")
            .args(&args)
            .env("USER", "test-operator")
            .env_remove("SUDO_USER")
            .env("RUST_LOG", "warn")
            .output()
            .expect("the server binary runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), text)
    })
    .await
    .unwrap()
}

fn challenge(to: Uuid, rated: bool) -> ClientFrame {
    ClientFrame::Challenge {
        to,
        rules: Ruleset::Classic,
        clock: fischer(300, 3),
        rated,
        color: ColorChoice::Red,
    }
}

async fn challenges_reach_every_tab_and_start_a_game(db: Db) {
    let server = TestServer::start(db).await;
    let alice = server.account_named("Alice").await;
    let bob = server.account_named("Bob").await;
    let mut a = server.client(&alice).await;
    let mut b1 = server.client(&bob).await;
    let mut b2 = server.client(&bob).await;
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", bob.id)).await;
    assert!(profile.online, "Bob has tabs open");

    a.send(challenge(bob.id, true)).await;
    let sent = expect_frame!(a, ServerFrame::ChallengeSent { challenge } => challenge);
    assert_eq!(sent.to.id, bob.id);
    assert!(sent.expires_in_ms > 55_000 && sent.expires_in_ms <= 60_000);
    for tab in [&mut b1, &mut b2] {
        let got = expect_frame!(tab, ServerFrame::Challenged { challenge } => challenge);
        assert_eq!((got.id, got.from.id, got.rated), (sent.id, alice.id, true));
        assert_eq!(got.color, ColorChoice::Red);
    }
    // A tab opened now hears of it too.
    let mut b3 = server.client(&bob).await;
    expect_frame!(b3, ServerFrame::Challenged { challenge } if challenge.id == sent.id);
    drop(b3);

    // Nobody else answers it, and Bob cannot take back what Alice sent.
    let carol = server.player("Carol").await;
    let mut c = server.client(&carol).await;
    c.send(ClientFrame::AcceptChallenge { id: sent.id }).await;
    c.expect_error(ErrorCode::UnknownChallenge).await;
    b1.send(ClientFrame::CancelChallenge { id: sent.id }).await;
    b1.expect_error(ErrorCode::UnknownChallenge).await;

    b2.send(ClientFrame::AcceptChallenge { id: sent.id }).await;
    let bob_game = b2.expect_game().await;
    assert_eq!(bob_game.you, Some(Side::Blue), "Alice chose red");
    assert!(bob_game.rated);
    assert_eq!(bob_game.status, GameStatus::Active);
    expect_frame!(a, ServerFrame::ChallengeEnded { id, reason: jungle_protocol::ChallengeEnd::Accepted, .. } if id == sent.id);
    let alice_game = a.expect_game().await;
    assert_eq!(
        (alice_game.game, alice_game.you),
        (bob_game.game, Some(Side::Red))
    );
    expect_frame!(b1, ServerFrame::ChallengeEnded { id, reason: jungle_protocol::ChallengeEnd::Accepted, .. } if id == sent.id);

    // A decline tells both; asking again at once is refused for a while.
    a.send(challenge(bob.id, false)).await;
    let second = expect_frame!(a, ServerFrame::ChallengeSent { challenge } => challenge);
    expect_frame!(b1, ServerFrame::Challenged { challenge } if challenge.id == second.id);
    b1.send(ClientFrame::DeclineChallenge {
        id: second.id,
        reason: None,
    })
    .await;
    expect_frame!(a, ServerFrame::ChallengeEnded { id, reason: jungle_protocol::ChallengeEnd::Declined, .. } if id == second.id);
    expect_frame!(b2, ServerFrame::ChallengeEnded { id, reason: jungle_protocol::ChallengeEnd::Declined, .. } if id == second.id);
    a.send(challenge(bob.id, false)).await;
    a.expect_error(ErrorCode::RateLimited).await;

    // Guests play casual only; nobody challenges the offline or themselves.
    c.send(challenge(bob.id, true)).await;
    c.expect_error(ErrorCode::AccountRequired).await;
    a.send(challenge(carol.id, true)).await;
    a.expect_error(ErrorCode::AccountRequired).await;
    let dave = server.player("Dave").await;
    c.send(challenge(dave.id, false)).await;
    c.expect_error(ErrorCode::PlayerOffline).await;
    c.send(challenge(carol.id, false)).await;
    c.expect_error(ErrorCode::PlayerOffline).await;

    // A challenger who leaves takes the challenge along.
    c.send(challenge(bob.id, false)).await;
    let third = expect_frame!(c, ServerFrame::ChallengeSent { challenge } => challenge);
    expect_frame!(b1, ServerFrame::Challenged { challenge } if challenge.id == third.id);
    drop(c);
    expect_frame!(b1, ServerFrame::ChallengeEnded { id, reason: jungle_protocol::ChallengeEnd::Cancelled, .. } if id == third.id);
    server.shutdown().await;
}

async fn a_ban_ends_games_signs_out_and_is_audited(db: Db) {
    let server = TestServer::start(db).await;
    let alice = server.account_named("Alice").await;
    let bob = server.account_named("Bob").await;
    let mut a = server.client(&alice).await;
    let mut b = server.client(&bob).await;
    a.send(challenge(bob.id, true)).await;
    let sent = expect_frame!(a, ServerFrame::ChallengeSent { challenge } => challenge);
    b.send(ClientFrame::AcceptChallenge { id: sent.id }).await;
    let game = b.expect_game().await.game;
    a.expect_game().await;
    play(&mut a, &mut b, game, &["e3d3", "a9b9"]).await;

    let (ok, out) = admin(&server, &["ban", "alice", "--reason", "engine use"]).await;
    assert!(ok, "{out}");
    assert!(out.contains("banned Alice"), "{out}");
    // The running server notices: Alice is disconnected, and Bob wins by `banned`.
    let over = b.expect_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Side::Blue), Reason::Banned)
    );
    assert_eq!(a.expect_close().await, Some(4001));
    let (status, answer) = signed_in(&server, "Alice", PASSWORD).await;
    assert_eq!((status, answer["error"].as_str()), (403, Some("banned")));
    assert!(answer["message"].as_str().unwrap().contains("engine use"));
    // Her old session is gone; a wrong password still says only that.
    let mut again = server.raw_client().await;
    again
        .send(ClientFrame::Hello {
            token: alice.token.clone(),
        })
        .await;
    again.expect_error(ErrorCode::BadToken).await;
    let (status, _) = signed_in(&server, "Alice", "not her password").await;
    assert_eq!(status, 401);
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", alice.id)).await;
    assert!(profile.banned);

    // A banned guest is told why when they connect.
    let carol = server.player("Carol").await;
    let (ok, out) = admin(&server, &["ban", &carol.id.to_string(), "--reason", "spam"]).await;
    assert!(ok, "{out}");
    let mut c = server.raw_client().await;
    c.send(ClientFrame::Hello {
        token: carol.token.clone(),
    })
    .await;
    let message = c.expect_error(ErrorCode::Banned).await;
    assert!(message.contains("spam"), "{message}");

    let (ok, out) = admin(&server, &["unban", "ALICE"]).await;
    assert!(ok, "{out}");
    assert_eq!(signed_in(&server, "Alice", PASSWORD).await.0, 200);
    let (ok, out) = admin(&server, &["unban", "alice"]).await;
    assert!(!ok && out.contains("not banned"), "{out}");
    let (ok, out) = admin(&server, &["ban", "nobody", "--reason", "x"]).await;
    assert!(!ok && out.contains("no player"), "{out}");

    // Renames, and the sessions an operator may look at.
    let (ok, out) = admin(&server, &["rename", "bob", "Robert"]).await;
    assert!(ok, "{out}");
    assert_eq!(server.get_status("/api/users/robert").await.0, 200);
    assert_eq!(server.get_status("/api/users/bob").await.0, 404);
    let (ok, out) = admin(&server, &["rename", "robert", "Alice"]).await;
    assert!(!ok && out.contains("taken"), "{out}");
    let (ok, out) = admin(&server, &["sessions", "Robert"]).await;
    assert!(ok && out.starts_with("1 sessions of Robert"), "{out}");

    let (ok, log) = admin(&server, &["audit"]).await;
    assert!(ok, "{log}");
    for action in ["ban", "unban", "rename", "sessions"] {
        assert!(
            log.lines()
                .any(|l| l.contains("test-operator") && l.contains(&format!("  {action}  "))),
            "{action} missing from the audit log:\n{log}"
        );
    }
    assert!(log.contains("engine use"));
    server.shutdown().await;
}

async fn reports_are_bounded_and_reset_links_work_once(db: Db) {
    let server = TestServer::start(db).await;
    let alice = server.account_named("Alice").await;
    let bob = server.account_named("Bob").await;
    let post = reqwest::Method::POST;
    let report = |details: &str| json!({ "player": bob.id, "reason": "abuse", "details": details });

    let (status, answer) = call(
        &server,
        post.clone(),
        "/api/reports",
        &alice.token,
        Some(report("rude after every game")),
    )
    .await;
    assert_eq!(status, 201, "{answer}");
    let (status, answer) = call(
        &server,
        post.clone(),
        "/api/reports",
        &alice.token,
        Some(report("again")),
    )
    .await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (409, Some("already_reported"))
    );
    let checks = [
        (json!({ "player": alice.id, "reason": "abuse" }), 400),
        (json!({ "player": bob.id, "reason": "ugly" }), 400),
        (report(&"x".repeat(501)), 400),
        (json!({ "player": Uuid::new_v4(), "reason": "abuse" }), 404),
        (
            json!({ "player": bob.id, "reason": "abuse", "game": Uuid::new_v4() }),
            400,
        ),
    ];
    for (body, expected) in checks {
        let (status, answer) = call(
            &server,
            post.clone(),
            "/api/reports",
            &alice.token,
            Some(body.clone()),
        )
        .await;
        assert_eq!(status, expected, "{body} → {answer}");
    }
    let (status, _) = call(&server, post.clone(), "/api/reports", "", Some(report("x"))).await;
    assert_eq!(status, 401);

    let (ok, out) = admin(&server, &["reports"]).await;
    assert!(
        ok && out.contains("Alice reports Bob") && out.contains("abuse"),
        "{out}"
    );
    assert!(out.contains("rude after every game"), "{out}");
    let id = out.split_whitespace().next().unwrap().to_owned();
    let (ok, out) = admin(&server, &["resolve-report", &id]).await;
    assert!(ok, "{out}");
    let (_, out) = admin(&server, &["reports"]).await;
    assert_eq!(out.trim(), "no reports");
    let (status, _) = call(
        &server,
        post.clone(),
        "/api/reports",
        &alice.token,
        Some(report("still rude")),
    )
    .await;
    assert_eq!(status, 201, "a resolved report does not block a new one");

    // A reset link: Bob's open tab is signed out, the new password works, the link only once.
    let mut b = server.client(&bob).await;
    let (ok, out) = admin(&server, &["reset-password", "bob"]).await;
    assert!(ok, "{out}");
    let link = out
        .lines()
        .find(|l| l.starts_with("https://jungle.example/reset/"))
        .expect("a link");
    let token = link.rsplit('/').next().unwrap().to_owned();
    let reset = |password: &str| json!({ "token": token, "password": password });
    let (status, answer) = call(
        &server,
        post.clone(),
        "/api/account/reset",
        "",
        Some(reset("short")),
    )
    .await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (400, Some("bad_password"))
    );
    let (status, answer) = call(
        &server,
        post.clone(),
        "/api/account/reset",
        "",
        Some(reset("a brand new secret")),
    )
    .await;
    assert_eq!(status, 204, "{answer}");
    assert_eq!(b.expect_close().await, Some(4001));
    assert_eq!(signed_in(&server, "Bob", PASSWORD).await.0, 401);
    assert_eq!(signed_in(&server, "Bob", "a brand new secret").await.0, 200);
    let (status, answer) = call(
        &server,
        post.clone(),
        "/api/account/reset",
        "",
        Some(reset("another new secret")),
    )
    .await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (400, Some("bad_reset_link"))
    );
    let guest = server.player("Guest").await;
    let (ok, out) = admin(&server, &["reset-password", &guest.id.to_string()]).await;
    assert!(!ok && out.contains("guest"), "{out}");
    server.shutdown().await;
}

async fn settings_follow_the_account_and_game_lists_page(db: Db) {
    let server = TestServer::start(db).await;
    let alice = server.account_named("Alice").await;
    let put = reqwest::Method::PUT;
    let get = reqwest::Method::GET;
    let (status, settings) = call(
        &server,
        get.clone(),
        "/api/account/settings",
        &alice.token,
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(settings, json!({ "muted": false, "coordinates": true }));
    let chosen = json!({ "language": "zh", "muted": true, "coordinates": false, "pieces": "both" });
    let (status, _) = call(
        &server,
        put.clone(),
        "/api/account/settings",
        &alice.token,
        Some(chosen.clone()),
    )
    .await;
    assert_eq!(status, 200);
    // Another device sees the same.
    let (_, session) = signed_in(&server, "Alice", PASSWORD).await;
    let other = session["token"].as_str().unwrap();
    let (_, settings) = call(&server, get.clone(), "/api/account/settings", other, None).await;
    assert_eq!(settings, chosen);
    for bad in [
        json!({ "language": "fr" }),
        json!({ "theme": "purple" }),
        json!({ "board": "marble" }),
        json!({ "pieces": "emoji" }),
        json!({ "sparkles": true }),
        json!("loud"),
    ] {
        let (status, _) = call(
            &server,
            put.clone(),
            "/api/account/settings",
            &alice.token,
            Some(bad.clone()),
        )
        .await;
        assert_eq!(status, 400, "{bad}");
    }
    let guest = server.player("Guest").await;
    let (status, _) = call(
        &server,
        get.clone(),
        "/api/account/settings",
        &guest.token,
        None,
    )
    .await;
    assert_eq!(status, 401, "settings are an account's");

    // Three games in two rulesets; the list filters by ruleset and pages.
    let mut c = server.client(&guest).await;
    for rules in [Ruleset::Classic, Ruleset::Strict, Ruleset::Classic] {
        c.send(ClientFrame::PlayComputer {
            rules,
            clock: fischer(300, 0),
            level: 1,
            color: ColorChoice::Red,
            position: None,
        })
        .await;
        let game = c.expect_game().await.game;
        c.send(ClientFrame::Resign { game }).await;
        c.expect_over().await;
    }
    let path = |q: &str| format!("/api/players/{}/games{q}", guest.id);
    let all: Vec<http::GameSummary> = server.get(&path("")).await;
    assert_eq!(all.len(), 3);
    assert!(
        all.windows(2).all(|w| w[0].created_at >= w[1].created_at),
        "newest first"
    );
    let strict: Vec<http::GameSummary> = server.get(&path("?rules=strict")).await;
    assert_eq!(strict.len(), 1);
    assert_eq!(strict[0].rules, Ruleset::Strict);
    let second_page: Vec<http::GameSummary> = server.get(&path("?page=2")).await;
    assert!(second_page.is_empty());
    assert_eq!(server.get_status(&path("?page=0")).await.0, 400);
    assert_eq!(server.get_status(&path("?rules=chess")).await.0, 400);
    server.shutdown().await;
}

both_stores!(
    challenges_reach_every_tab_and_start_a_game,
    a_ban_ends_games_signs_out_and_is_audited,
    reports_are_bounded_and_reset_links_work_once,
    settings_follow_the_account_and_game_lists_page,
);
