//! The Bot and Board APIs (issue 26), black-box: personal API tokens made and deleted with a
//! session, kept apart from sessions both ways, and an account that becomes a bot.

use crate::common::*;
use jungle_protocol::bot::ApiTokenInfo;
use serde_json::{json, Value};

mod berserk;
mod board;
mod bots;

async fn tokens_are_made_listed_and_deleted_and_never_a_session(db: Db) {
    let server = TestServer::start(db).await;
    let (_, _, session) = signed_in(&server, "Author").await;
    let made = new_token(&server, &session, &["bot:play", "challenge:write"]).await;
    assert_eq!(made.token.len(), 64);

    // Listed without the secret.
    let (status, listed) = call(&server, reqwest::Method::GET, "/api/tokens", &session, None).await;
    assert_eq!(status, 200);
    let listed: Vec<ApiTokenInfo> = serde_json::from_value(listed).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, made.id);
    assert_eq!(listed[0].scopes, ["bot:play", "challenge:write"]);
    assert!(!serde_json::to_string(&listed)
        .unwrap()
        .contains(&made.token));

    // A token is no session: it neither lists tokens nor signs in on the socket.
    let (status, body) = call(
        &server,
        reqwest::Method::GET,
        "/api/tokens",
        &made.token,
        None,
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("not_signed_in"))
    );
    // A body past the API's bound is refused as such.
    let big = json!({ "description": "x".repeat(5_000), "scopes": ["bot:play"] });
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        "/api/tokens",
        &session,
        Some(big),
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (413, Some("too_large")));
    let mut socket = server.raw_client().await;
    socket
        .send(ClientFrame::Hello {
            token: made.token.clone(),
        })
        .await;
    socket.expect_error(ErrorCode::BadToken).await;
    // And a session is no token on the bot endpoints.
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        "/api/bot/account/upgrade",
        &session,
        None,
    )
    .await;
    assert_eq!(status, 401);

    // Bad requests change nothing.
    for body in [
        json!({ "description": "", "scopes": ["bot:play"] }),
        json!({ "description": "x".repeat(101), "scopes": ["bot:play"] }),
        json!({ "description": "ok", "scopes": [] }),
        json!({ "description": "ok", "scopes": ["admin"] }),
        json!({ "description": "ok" }),
    ] {
        let (status, answer) = call(
            &server,
            reqwest::Method::POST,
            "/api/tokens",
            &session,
            Some(body.clone()),
        )
        .await;
        assert_eq!(status, 400, "{body} → {answer}");
    }
    let (_, listed) = call(&server, reqwest::Method::GET, "/api/tokens", &session, None).await;
    assert_eq!(listed.as_array().unwrap().len(), 1);

    // Deleting a token ends the streams it holds open, at once.
    let board = new_token(&server, &session, &["board:play"]).await;
    let mut events = Lines::open(&server, "/api/stream/event", &board.token).await;
    let path = format!("/api/tokens/{}", board.id);
    let (status, _) = call(&server, reqwest::Method::DELETE, &path, &session, None).await;
    assert_eq!(status, 204);
    let ended = tokio::time::timeout(std::time::Duration::from_secs(3), events.next()).await;
    assert!(
        matches!(ended, Ok(None)),
        "the event stream ended before its next keep-alive: {ended:?}"
    );

    // Nobody deletes another's token; its owner does, and it stops working at once.
    let (_, _, other) = signed_in(&server, "Other").await;
    let path = format!("/api/tokens/{}", made.id);
    let (status, _) = call(&server, reqwest::Method::DELETE, &path, &other, None).await;
    assert_eq!(status, 404);
    let (status, _) = call(&server, reqwest::Method::DELETE, &path, &session, None).await;
    assert_eq!(status, 204);
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        "/api/bot/account/upgrade",
        &made.token,
        None,
    )
    .await;
    assert_eq!(status, 401);
    server.shutdown().await;
}

async fn an_account_that_has_played_nothing_becomes_a_bot_for_good(db: Db) {
    let server = TestServer::start(db).await;
    let (player, _, session) = signed_in(&server, "Engine").await;
    let board_only = new_token(&server, &session, &["board:play"]).await;
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        "/api/bot/account/upgrade",
        &board_only.token,
        None,
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("missing_scope"))
    );
    let bot = new_token(&server, &session, &["bot:play"]).await;
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        "/api/bot/account/upgrade",
        &bot.token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", player.id)).await;
    assert_eq!(profile.title.as_deref(), Some("BOT"));
    // A bot plays through the Bot API only: its session does not sign in on the socket (no
    // pools, rooms or arenas of people).
    let mut socket = server.raw_client().await;
    socket
        .send(ClientFrame::Hello {
            token: session.clone(),
        })
        .await;
    socket.expect_error(ErrorCode::BotAccount).await;
    // Again: still a bot, nothing else.
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        "/api/bot/account/upgrade",
        &bot.token,
        None,
    )
    .await;
    assert_eq!(status, 200);

    // An account with a game behind it stays a person.
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &["e3d3"]).await;
    let red_player = red.player.clone().expect("signed in");
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", red_player.id)).await;
    let username = profile.username.expect("an account");
    let session: http::SignedIn = reqwest::Client::new()
        .post(server.url("/api/session"))
        .json(&http::Credentials {
            username,
            password: PASSWORD.into(),
        })
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = new_token(&server, &session.token, &["bot:play"]).await;
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        "/api/bot/account/upgrade",
        &token.token,
        None,
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("bot_upgrade_refused"))
    );
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", red_player.id)).await;
    assert_eq!(profile.title, None);
    server.shutdown().await;
}

async fn an_account_holds_at_most_twenty_tokens(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let (_, _, session) = signed_in(&server, "Hoarder").await;
    for _ in 0..20 {
        new_token(&server, &session, &["board:play"]).await;
    }
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        "/api/tokens",
        &session,
        Some(json!({ "description": "one more", "scopes": ["board:play"] })),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("too_many_tokens"))
    );
    server.shutdown().await;
}

/// Guessing tokens, or flooding the database with lookups of bad ones (issue 49: 2,932 in
/// 0.8 s from one address): an address's requests count before the token is looked up, and a
/// token that names nobody costs more. The owner of a real token, from another address, plays on.
async fn bad_tokens_from_one_address_are_soon_refused_unlooked(db: Db) {
    let server = TestServer::start_with(db, |c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let (_, _, session) = signed_in(&server, "Owner").await;
    let made = new_token(&server, &session, &["board:play"]).await;
    let client = reqwest::Client::new();
    let ask = |token: String, address: &'static str| {
        client
            .get(server.url("/api/stream/event"))
            .header("X-Forwarded-For", address)
            .bearer_auth(token)
            .send()
    };
    let mut statuses = Vec::new();
    for _ in 0..60 {
        let guess = jungle_web::auth::new_token();
        statuses.push(ask(guess, "203.0.113.9").await.unwrap().status().as_u16());
    }
    let unauthorized = statuses.iter().filter(|s| **s == 401).count();
    let limited = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!(unauthorized + limited, 60, "{statuses:?}");
    assert!(
        unauthorized <= 30,
        "{unauthorized} guesses looked up: {statuses:?}"
    );
    assert!(limited >= 30, "{statuses:?}");
    // The real token, from its owner's address, is answered.
    let owner = ask(made.token.clone(), "198.51.100.4").await.unwrap();
    assert_eq!(
        owner.status().as_u16(),
        200,
        "the owner's event stream opens"
    );
    drop(owner);
    server.shutdown().await;
}

/// Issue 50: what lichess's clients ask at start. `GET /api/account` tells a token's holder
/// who it is (berserk's `account.get`), `GET /api/user/{name}` shows anyone an account
/// (`users.get_public_data`), and `POST /api/token/test` says whom each token names, a
/// guess among them counted as a miss of the address's.
async fn a_bot_learns_who_it_is_as_on_lichess(db: Db) {
    let server = TestServer::start(db).await;
    let (player, token) = bot(&server, "Selfaware").await;
    let (status, me) = call(&server, reqwest::Method::GET, "/api/account", &token, None).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["id"], player.id.to_string());
    let username = me["username"].as_str().unwrap().to_owned();
    assert!(username.starts_with("Selfaware"), "{me}");
    assert_eq!(me["title"], "BOT");
    assert_eq!(me["perfs"]["classic"]["rating"], 1500, "{me}");
    assert!(me["perfs"]["classicCorrespondence"]["prov"]
        .as_bool()
        .unwrap());
    let (status, shown) = call(
        &server,
        reqwest::Method::GET,
        &format!("/api/user/{username}"),
        "",
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(shown["id"], me["id"]);
    let (status, _) = call(
        &server,
        reqwest::Method::GET,
        "/api/user/nobody_here",
        "",
        None,
    )
    .await;
    assert_eq!(status, 404);
    // Online while its event stream is open (berserk's `bots.get_online_bots`).
    let online = |server: &TestServer| {
        let url = server.url("/api/bot/online?nb=10");
        async move { reqwest::get(url).await.unwrap().text().await.unwrap() }
    };
    assert!(!online(&server).await.contains(&player.id.to_string()));
    let events = Lines::open(&server, "/api/stream/event", &token).await;
    let listed = online(&server).await;
    let line: Value = serde_json::from_str(listed.lines().next().expect("a line")).unwrap();
    assert_eq!(line["id"], player.id.to_string(), "{listed}");
    assert_eq!(line["title"], "BOT");
    drop(events);
    // Without a token, or with one that names nobody: 401.
    let (status, _) = call(&server, reqwest::Method::GET, "/api/account", "", None).await;
    assert_eq!(status, 401);

    let guess = jungle_web::auth::new_token();
    let tested: Value = reqwest::Client::new()
        .post(server.url("/api/token/test"))
        .body(format!("{token},{guess}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(tested[&token]["userId"], player.id.to_string(), "{tested}");
    assert!(tested[&token]["scopes"]
        .as_str()
        .unwrap()
        .contains("bot:play"));
    assert!(tested[&guess].is_null());
    let many = vec![guess.as_str(); 21].join(",");
    let too_many = reqwest::Client::new()
        .post(server.url("/api/token/test"))
        .body(many)
        .send()
        .await
        .unwrap();
    assert_eq!(too_many.status().as_u16(), 400);
    server.shutdown().await;
}

both_stores!(
    tokens_are_made_listed_and_deleted_and_never_a_session,
    an_account_that_has_played_nothing_becomes_a_bot_for_good,
    an_account_holds_at_most_twenty_tokens,
    bad_tokens_from_one_address_are_soon_refused_unlooked,
    a_bot_learns_who_it_is_as_on_lichess,
);
