//! The Bot and Board APIs (issue 26), black-box: personal API tokens made and deleted with a
//! session, kept apart from sessions both ways, and an account that becomes a bot.

use crate::common::*;
use jungle_protocol::bot::ApiTokenInfo;
use serde_json::{json, Value};

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

/// A person on the socket plays a rated game against another who plays it from their own
/// client over the Board API: the game stream's first line is the whole game, each change
/// follows, an illegal move changes nothing, a draw offer is declined and the HTTP player
/// resigns; the stream ends with the game.
async fn a_game_played_over_the_board_api_against_the_socket(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) =
        matched_pair(&server, seek(Ruleset::Classic, fischer(300, 3), true)).await;
    let red_player = red.player.clone().expect("signed in");
    let session = session_for(&server, &red_player).await;
    let token = new_token(&server, &session, &["board:play"]).await.token;
    // Not a bot: the Bot API is not this account's.
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/bot/game/{game}/resign"),
        &token,
        None,
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("missing_scope"))
    );

    let mut lines = Lines::open(&server, &format!("/api/board/game/stream/{game}"), &token).await;
    let full = lines.next().await.unwrap();
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["id"], game.to_string());
    assert_eq!(full["rules"], "classic");
    assert_eq!(full["rated"], true);
    assert_eq!(
        full["clock"],
        json!({ "kind": "fischer", "initial": 300_000, "increment": 3_000 })
    );
    assert_eq!(full["red"]["id"], red_player.id.to_string());
    assert_eq!(full["red"]["title"], Value::Null);
    assert_eq!(full["state"]["moves"], "");
    assert_eq!(full["state"]["status"], "started");

    // A move over HTTP reaches the socket and the stream.
    let path = |what: &str| format!("/api/board/game/{game}/{what}");
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        &path("move/e3d3"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(blue.expect_moved().await.0, "e3d3");
    red.expect_moved().await;
    let state = lines.next().await.unwrap();
    assert_eq!(
        (state["type"].as_str(), state["moves"].as_str()),
        (Some("gameState"), Some("e3d3"))
    );
    assert!(state["rtime"].as_u64().unwrap() <= 303_000);

    // Not our turn, then a move that is no move: refused, nothing changed.
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        &path("move/d3d4"),
        &token,
        None,
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("refused")),
        "{body}"
    );
    blue.mv(game, "a9b9").await;
    blue.expect_moved().await;
    red.expect_moved().await;
    assert_eq!(lines.next().await.unwrap()["moves"], "e3d3 a9b9");
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        &path("move/a1a9"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        &path("move/not%20a%20move"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 400);

    // The socket's player offers a draw; the HTTP player declines it.
    blue.send(ClientFrame::OfferDraw { game }).await;
    expect_frame!(blue, ServerFrame::DrawOffered { .. });
    expect_frame!(red, ServerFrame::DrawOffered { .. });
    assert_eq!(lines.next().await.unwrap()["drawOffer"], "blue");
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        &path("draw/no"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    expect_frame!(blue, ServerFrame::DrawDeclined { .. });
    assert_eq!(lines.next().await.unwrap()["drawOffer"], Value::Null);

    // A move that offers a draw with it, then the resignation.
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        &format!("{}?offeringDraw=true", path("move/d3d4")),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(lines.next().await.unwrap()["moves"], "e3d3 a9b9 d3d4");
    assert_eq!(lines.next().await.unwrap()["drawOffer"], "red");
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        &path("resign"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200);
    let over = blue.expect_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Side::Blue), Reason::Resign)
    );
    let last = lines.next().await.unwrap();
    assert_eq!(
        (last["status"].as_str(), last["winner"].as_str()),
        (Some("resign"), Some("blue"))
    );
    assert_eq!(lines.next().await, None, "the stream ends with the game");

    // Another player's token reads nothing of this game; actions on a finished game are refused.
    let (_, _, stranger_session) = signed_in(&server, "Stranger").await;
    let stranger = new_token(&server, &stranger_session, &["board:play"])
        .await
        .token;
    let (status, _) = call(
        &server,
        reqwest::Method::GET,
        &format!("/api/board/game/stream/{game}"),
        &stranger,
        None,
    )
    .await;
    assert_eq!(status, 404);
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        &path("resign"),
        &token,
        None,
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("refused")),
        "{body}"
    );
    server.shutdown().await;
}

/// A whole rated game between a person on the socket and a bot on the HTTP API: the person
/// challenges the bot from its profile, the bot hears it on its event stream and accepts, the
/// game starts for both, the bot plays from its game stream, declines a draw, and loses; its
/// event stream hears the end, and both ratings moved.
async fn a_rated_game_between_a_person_and_a_bot(db: Db) {
    let server = TestServer::start(db).await;
    let (bot_player, token) = bot(&server, "Engine").await;
    let mut events = Lines::open(&server, "/api/stream/event", &token).await;
    // The bot is online while its event stream is open: a person can challenge it.
    let person_player = create_account(server.addr, "Person").await;
    let mut person = server.client(&person_player).await;
    person
        .send(ClientFrame::Challenge {
            to: bot_player.id,
            rules: Ruleset::Classic,
            clock: fischer(300, 3),
            rated: true,
            color: ColorChoice::Red,
        })
        .await;
    expect_frame!(person, ServerFrame::ChallengeSent { .. });
    let challenge = events.next().await.unwrap();
    assert_eq!(challenge["type"], "challenge", "{challenge}");
    assert_eq!(challenge["challenge"]["rated"], true);
    assert_eq!(
        challenge["challenge"]["challenger"]["id"],
        person_player.id.to_string()
    );
    let id = challenge["challenge"]["id"].as_str().unwrap().to_owned();
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/challenge/{id}/accept"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let state = person.expect_game().await;
    let game = state.game;
    assert_eq!(state.you, Some(Side::Red));
    let start = events.next().await.unwrap();
    assert_eq!(start["type"], "gameStart", "{start}");
    assert_eq!(start["game"]["id"], game.to_string());
    assert_eq!(start["game"]["color"], "blue");
    assert_eq!(start["game"]["rated"], true);

    // The lobby's list of games in progress names the bot with its title.
    let live: Vec<http::LiveGame> = server.get("/api/games/live").await;
    let listed = live.iter().find(|g| g.id == game).expect("listed");
    assert_eq!(
        (listed.red_title.as_deref(), listed.blue_title.as_deref()),
        (None, Some("BOT"))
    );
    let mut lines = Lines::open(&server, &format!("/api/bot/game/stream/{game}"), &token).await;
    let full = lines.next().await.unwrap();
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["blue"]["title"], "BOT");
    assert_eq!(full["red"]["title"], Value::Null);
    let (last, moves) = DEN_WIN_AT_PLY_21.split_last().unwrap();
    for (i, mv) in moves.iter().enumerate() {
        if i % 2 == 0 {
            person.mv(game, mv).await;
            person.expect_moved().await;
        } else {
            let (status, body) = call(
                &server,
                reqwest::Method::POST,
                &format!("/api/bot/game/{game}/move/{mv}"),
                &token,
                None,
            )
            .await;
            assert_eq!(status, 200, "{mv}: {body}");
            person.expect_moved().await;
        }
        let seen = lines.next().await.unwrap();
        assert_eq!(seen["moves"].as_str().unwrap().split(' ').count(), i + 1);
        if i == 10 {
            // The person offers a draw; the bot declines it.
            person.send(ClientFrame::OfferDraw { game }).await;
            expect_frame!(person, ServerFrame::DrawOffered { .. });
            assert_eq!(lines.next().await.unwrap()["drawOffer"], "red");
            let (status, _) = call(
                &server,
                reqwest::Method::POST,
                &format!("/api/bot/game/{game}/draw/no"),
                &token,
                None,
            )
            .await;
            assert_eq!(status, 200);
            expect_frame!(person, ServerFrame::DrawDeclined { .. });
            assert_eq!(lines.next().await.unwrap()["drawOffer"], Value::Null);
        }
    }
    person.mv(game, last).await;
    let over = person.expect_over().await;
    assert_eq!(
        (over.winner, over.reason, over.rated),
        (Some(Side::Red), Reason::Den, true)
    );
    let change = over.rating_change.expect("rated for both");
    assert!(change.red > 0 && change.blue < 0, "{change:?}");
    // The last move, then the end.
    assert_eq!(
        lines.next().await.unwrap()["moves"]
            .as_str()
            .unwrap()
            .split(' ')
            .count(),
        21
    );
    let end = lines.next().await.unwrap();
    assert_eq!(
        (end["status"].as_str(), end["winner"].as_str()),
        (Some("den"), Some("red"))
    );
    assert_eq!(lines.next().await, None);
    let finish = events.next().await.unwrap();
    assert_eq!(finish["type"], "gameFinish", "{finish}");
    assert_eq!(finish["game"]["winner"], "red");
    // So does the person's list of games.
    let games: Vec<http::GameSummary> = server
        .get(&format!("/api/players/{}/games", person_player.id))
        .await;
    assert_eq!(games[0].blue_title.as_deref(), Some("BOT"));
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", bot_player.id)).await;
    assert_eq!(profile.title.as_deref(), Some("BOT"));
    assert!(profile.ratings["classic"].rating < 1500.0);
    assert_eq!(profile.ratings["classic"].games, 1);
    // Ranked apart: on the bots' leaderboard, not the people's.
    let people: http::Leaderboard = server.get("/api/leaderboard?rules=classic").await;
    let bots: http::Leaderboard = server.get("/api/leaderboard?rules=classic&bots=true").await;
    let listed = |board: &http::Leaderboard, id: Uuid| {
        board
            .players
            .iter()
            .chain(&board.provisional)
            .any(|e| e.id == id)
    };
    assert!(!listed(&people, bot_player.id) && listed(&bots, bot_player.id));
    assert!(listed(&people, person_player.id) && !listed(&bots, person_player.id));
    // A spectator's view of the finished game shows the title.
    let mut fan = server.client(&server.player("Fan").await).await;
    fan.send(ClientFrame::Watch { game }).await;
    let seen = fan.expect_game().await;
    assert_eq!(seen.blue.expect("blue").title.as_deref(), Some("BOT"));
    assert_eq!(seen.red.expect("red").title, None);
    server.shutdown().await;
}

/// The bot challenges over HTTP; the person declines on the socket; the bot's stream hears
/// it. A restarted bot (a new event stream) hears of its game in progress first.
async fn a_bot_challenges_over_http_and_picks_its_games_up_again(db: Db) {
    let server = TestServer::start(db).await;
    let (_, token) = bot(&server, "Challenger").await;
    let person_player = create_account(server.addr, "Target").await;
    let username = server
        .get::<http::PlayerProfile>(&format!("/api/players/{}", person_player.id))
        .await
        .username
        .unwrap();
    let mut person = server.client(&person_player).await;
    // Without an event stream, nobody would hear the answer.
    let body =
        json!({ "rated": false, "clock": { "limit": 300, "increment": 3 }, "color": "blue" });
    let (status, answer) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/challenge/{username}"),
        &token,
        Some(body.clone()),
    )
    .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (400, Some("no_event_stream"))
    );
    let mut events = Lines::open(&server, "/api/stream/event", &token).await;
    let (status, sent) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/challenge/{username}"),
        &token,
        Some(body.clone()),
    )
    .await;
    assert_eq!(status, 200, "{sent}");
    let challenge = expect_frame!(person, ServerFrame::Challenged { challenge } => challenge);
    assert_eq!(sent["id"], challenge.id.to_string());
    person
        .send(ClientFrame::DeclineChallenge {
            id: challenge.id,
            reason: Some(jungle_protocol::DeclineReason::TooSlow),
        })
        .await;
    let declined = events.next().await.unwrap();
    assert_eq!(declined["type"], "challengeDeclined", "{declined}");
    assert_eq!(declined["challenge"]["declineReason"], "tooSlow");
    // A bad clock changes nothing.
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/challenge/{username}"),
        &token,
        Some(json!({ "clock": {} })),
    )
    .await;
    assert_eq!(status, 400);

    // The person challenges back; the bot accepts; then the bot "restarts".
    let bot_id = challenge.from.id;
    person
        .send(ClientFrame::Challenge {
            to: bot_id,
            rules: Ruleset::Classic,
            clock: fischer(300, 3),
            rated: false,
            color: ColorChoice::Red,
        })
        .await;
    expect_frame!(person, ServerFrame::ChallengeSent { .. });
    let incoming = events.next().await.unwrap();
    let id = incoming["challenge"]["id"].as_str().unwrap().to_owned();
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/challenge/{id}/accept"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200);
    let game = person.expect_game().await.game;
    assert_eq!(events.next().await.unwrap()["type"], "gameStart");
    drop(events);
    let mut again = Lines::open(&server, "/api/stream/event", &token).await;
    let start = again.next().await.unwrap();
    assert_eq!(
        (start["type"].as_str(), start["game"]["id"].as_str()),
        (Some("gameStart"), Some(game.to_string().as_str()))
    );
    // The bot declines another's challenge, saying why (a form, as lichess-bot sends it): the
    // person reads the reason.
    let mut speedy = server.client(&server.player("Speedy").await).await;
    speedy
        .send(ClientFrame::Challenge {
            to: bot_id,
            rules: Ruleset::Classic,
            clock: fischer(15, 0),
            rated: false,
            color: ColorChoice::Random,
        })
        .await;
    expect_frame!(speedy, ServerFrame::ChallengeSent { .. });
    let incoming = again.next().await.unwrap();
    let id = incoming["challenge"]["id"].as_str().unwrap().to_owned();
    let declined = reqwest::Client::new()
        .post(server.url(&format!("/api/challenge/{id}/decline")))
        .bearer_auth(&token)
        .form(&[("reason", "tooFast")])
        .send()
        .await
        .unwrap();
    assert_eq!(declined.status().as_u16(), 200);
    let why =
        expect_frame!(speedy, ServerFrame::ChallengeEnded { decline_reason, .. } => decline_reason);
    assert_eq!(why, Some(jungle_protocol::DeclineReason::TooFast));
    server.shutdown().await;
}

/// The bot, Red, chats (as lichess-bot does, a form) and aborts before its first move; a
/// bot that aborts three times within the hour takes no new game for a while, on either
/// side of a challenge.
async fn a_bot_chats_aborts_and_is_paused_after_repeated_aborts(db: Db) {
    let server = TestServer::start(db).await;
    let (bot_player, token) = bot(&server, "Aborter").await;
    let mut events = Lines::open(&server, "/api/stream/event", &token).await;
    let person_player = create_account(server.addr, "Patient").await;
    let mut person = server.client(&person_player).await;
    for round in 0..3 {
        person
            .send(ClientFrame::Challenge {
                to: bot_player.id,
                rules: Ruleset::Classic,
                clock: fischer(300, 3),
                rated: false,
                color: ColorChoice::Blue,
            })
            .await;
        expect_frame!(person, ServerFrame::ChallengeSent { .. });
        let incoming = events.next().await.unwrap();
        let id = incoming["challenge"]["id"].as_str().unwrap().to_owned();
        let (status, body) = call(
            &server,
            reqwest::Method::POST,
            &format!("/api/challenge/{id}/accept"),
            &token,
            None,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let game = person.expect_game().await.game;
        assert_eq!(events.next().await.unwrap()["type"], "gameStart");
        if round == 0 {
            let chat = reqwest::Client::new()
                .post(server.url(&format!("/api/bot/game/{game}/chat")))
                .bearer_auth(&token)
                .form(&[("room", "player"), ("text", "good luck")])
                .send()
                .await
                .unwrap();
            assert_eq!(chat.status().as_u16(), 200);
            let text = expect_frame!(person, ServerFrame::ChatLine { text, .. } => text);
            assert_eq!(text.as_deref(), Some("good luck"));
            for (room, text) in [("spectator", "hello"), ("player", ""), ("lobby", "hi")] {
                let refused = reqwest::Client::new()
                    .post(server.url(&format!("/api/bot/game/{game}/chat")))
                    .bearer_auth(&token)
                    .form(&[("room", room), ("text", text)])
                    .send()
                    .await
                    .unwrap();
                assert_eq!(refused.status().as_u16(), 400, "{room} {text:?}");
            }
            // A refusal after a chat line is still a refusal (the lines shown on joining are
            // not the answer), and a second line is said and answered.
            let illegal = format!("/api/bot/game/{game}/move/a3a9");
            let (status, body) = call(&server, reqwest::Method::POST, &illegal, &token, None).await;
            assert_eq!(
                (status, body["code"].as_str()),
                (400, Some("refused")),
                "{body}"
            );
            // Text that is no move, or a pass, is told so before the game hears of it.
            for text in ["zz99", "pass", "a3a4a5a6a7"] {
                let path = format!("/api/bot/game/{game}/move/{text}");
                let (status, body) =
                    call(&server, reqwest::Method::POST, &path, &token, None).await;
                assert_eq!(
                    (status, body["code"].as_str()),
                    (400, Some("bad_request")),
                    "{text}"
                );
                assert!(body["message"].as_str().unwrap().len() < 200);
            }
            let again = reqwest::Client::new()
                .post(server.url(&format!("/api/bot/game/{game}/chat")))
                .bearer_auth(&token)
                .json(&json!({ "room": "player", "text": "good luck" }))
                .send()
                .await
                .unwrap();
            assert_eq!(again.status().as_u16(), 200);
            // The person, waiting for Red's first move, may not abort: it is not their turn.
            person.send(ClientFrame::Abort { game }).await;
            person.expect_error(ErrorCode::AbortUnavailable).await;
        }
        let (status, body) = call(
            &server,
            reqwest::Method::POST,
            &format!("/api/bot/game/{game}/abort"),
            &token,
            None,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let over = person.expect_over().await;
        assert_eq!((over.winner, over.reason), (None, Reason::Aborted));
        assert_eq!(events.next().await.unwrap()["type"], "gameFinish");
    }
    // Paused: the person's challenge is refused, and so is the bot's own.
    person
        .send(ClientFrame::Challenge {
            to: bot_player.id,
            rules: Ruleset::Classic,
            clock: fischer(300, 3),
            rated: false,
            color: ColorChoice::Blue,
        })
        .await;
    let message = person.expect_error(ErrorCode::LimitReached).await;
    assert!(message.contains("aborted or lost on time"), "{message}");
    let username = server
        .get::<http::PlayerProfile>(&format!("/api/players/{}", person_player.id))
        .await
        .username
        .unwrap();
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/challenge/{username}"),
        &token,
        Some(json!({ "clock": { "limit": 300, "increment": 3 } })),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"]
        .as_str()
        .unwrap()
        .contains("aborted or lost on time"));
    server.shutdown().await;
}

/// An arena for bots: a person makes it, bots join it over HTTP (a person cannot), the
/// director pairs them as it pairs people, their event streams hear the game, and the
/// winner's points show in the standings.
async fn bots_meet_in_an_arena_for_bots(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.account("Arena host").await;
    let id = bots_arena(&server, &host, 180).await;
    let shown: http::Tournament = server.get(&format!("/api/tournaments/{id}")).await;
    assert!(shown.bots);
    // People watch; they do not join.
    let mut person = server.client(&host).await;
    person
        .send(ClientFrame::JoinTournament {
            id: id.parse().unwrap(),
            code: None,
        })
        .await;
    person.expect_error(ErrorCode::BotsOnly).await;

    let mut bots = Vec::new();
    for name in ["Engine A", "Engine B"] {
        let (player, token) = bot(&server, name).await;
        let join = format!("/api/tournament/{id}/join");
        let (status, body) = call(&server, reqwest::Method::POST, &join, &token, None).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("no_event_stream"))
        );
        let events = Lines::open(&server, "/api/stream/event", &token).await;
        bots.push((player, token, events));
    }
    // Already at a game of their own (a challenge), the two join: the arena does not pair
    // them until it is over.
    let b_name = server
        .get::<http::PlayerProfile>(&format!("/api/players/{}", bots[1].0.id))
        .await
        .username
        .unwrap();
    let body = json!({ "clock": { "limit": 300, "increment": 3 } });
    let path = format!("/api/challenge/{b_name}");
    let (status, sent) = call(
        &server,
        reqwest::Method::POST,
        &path,
        &bots[0].1,
        Some(body),
    )
    .await;
    assert_eq!(status, 200, "{sent}");
    let incoming = bots[1].2.next().await.unwrap();
    let accept = format!(
        "/api/challenge/{}/accept",
        incoming["challenge"]["id"].as_str().unwrap()
    );
    assert_eq!(
        call(&server, reqwest::Method::POST, &accept, &bots[1].1, None)
            .await
            .0,
        200
    );
    let mut outside = String::new();
    for (_, _, events) in &mut bots {
        let start = events.next().await.unwrap();
        assert_eq!(start["type"], "gameStart", "{start}");
        outside = start["game"]["id"].as_str().unwrap().to_owned();
    }
    for (_, token, _) in &bots {
        let join = format!("/api/tournament/{id}/join");
        let (status, body) = call(&server, reqwest::Method::POST, &join, token, None).await;
        assert_eq!(status, 200, "{body}");
    }
    let quiet = bots[0]
        .2
        .next_within(std::time::Duration::from_millis(2_500))
        .await;
    assert_eq!(quiet, None, "not paired while at another game");
    let resign = format!("/api/bot/game/{outside}/resign");
    assert_eq!(
        call(&server, reqwest::Method::POST, &resign, &bots[0].1, None)
            .await
            .0,
        200
    );
    for (_, _, events) in &mut bots {
        assert_eq!(events.next().await.unwrap()["type"], "gameFinish");
    }
    // Paired within a tick or two: each stream hears the game, one as Red, one as Blue.
    let mut game = String::new();
    let mut red = None;
    for (i, (_, _, events)) in bots.iter_mut().enumerate() {
        let start = events.next().await.unwrap();
        assert_eq!(start["type"], "gameStart", "{start}");
        game = start["game"]["id"].as_str().unwrap().to_owned();
        if start["game"]["color"] == "red" {
            red = Some(i);
        }
    }
    let red = red.expect("one plays Red");
    let blue = 1 - red;
    for (ply, mv) in DEN_WIN_AT_PLY_21.iter().take(4).enumerate() {
        let token = &bots[if ply % 2 == 0 { red } else { blue }].1;
        let path = format!("/api/bot/game/{game}/move/{mv}");
        let (status, body) = call(&server, reqwest::Method::POST, &path, token, None).await;
        assert_eq!(status, 200, "{mv}: {body}");
    }
    let resign = format!("/api/bot/game/{game}/resign");
    let (status, _) = call(&server, reqwest::Method::POST, &resign, &bots[red].1, None).await;
    assert_eq!(status, 200);
    for (_, _, events) in &mut bots {
        assert_eq!(events.next().await.unwrap()["type"], "gameFinish");
    }
    // The winner's points, in the standings everyone reads.
    let winner = bots[blue].0.id;
    let waited = std::time::Instant::now();
    loop {
        let shown: http::Tournament = server.get(&format!("/api/tournaments/{id}")).await;
        let line = shown.standings.iter().find(|s| s.score.player == winner);
        if line.is_some_and(|l| l.score.points > 0) {
            assert_eq!(shown.standings[0].score.player, winner);
            break;
        }
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(10),
            "{shown:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    server.shutdown().await;
}

both_stores!(
    tokens_are_made_listed_and_deleted_and_never_a_session,
    an_account_that_has_played_nothing_becomes_a_bot_for_good,
    an_account_holds_at_most_twenty_tokens,
    a_game_played_over_the_board_api_against_the_socket,
    a_rated_game_between_a_person_and_a_bot,
    a_bot_challenges_over_http_and_picks_its_games_up_again,
    a_bot_chats_aborts_and_is_paused_after_repeated_aborts,
    bots_meet_in_an_arena_for_bots
);
