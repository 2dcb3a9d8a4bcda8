//! Bots' challenges, chat, aborts and the pause they earn, and arenas for bots.

use super::*;

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
    // Listed as lichess lists them (berserk's `challenges.get_mine`).
    let (status, mine) = call(
        &server,
        reqwest::Method::GET,
        "/api/challenge",
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(mine["out"][0]["id"], sent["id"], "{mine}");
    assert_eq!(mine["in"], json!([]));
    person
        .send(ClientFrame::DeclineChallenge {
            id: challenge.id,
            reason: Some(jungle_protocol::DeclineReason::TooSlow),
        })
        .await;
    let declined = events.next().await.unwrap();
    assert_eq!(declined["type"], "challengeDeclined", "{declined}");
    assert_eq!(declined["challenge"]["declineReason"], "tooSlow");
    // Asking again at once: the wait after a decline, said as every wait is.
    let again = reqwest::Client::new()
        .post(server.url(&format!("/api/challenge/{username}")))
        .bearer_auth(&token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 429);
    let wait: u64 = again.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=120).contains(&wait), "{wait}");
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
            // Read back as lichess answers it (berserk's `board.get_game_chat`).
            let (status, lines) = call(
                &server,
                reqwest::Method::GET,
                &format!("/api/bot/game/{game}/chat"),
                &token,
                None,
            )
            .await;
            assert_eq!(status, 200);
            assert_eq!(lines[0]["text"], "good luck", "{lines}");
            assert!(lines[0]["user"].as_str().is_some(), "{lines}");
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

/// Issue 50: the event stream says something at least every 7 s, whatever its games do. The
/// moves of a game it follows make no line there, and each used to put its keep-alive off
/// again: while a game moved, the stream went silent and a client reading it with lichess-bot's
/// 15 s timeout hung up.
async fn the_event_stream_keeps_talking_while_a_game_moves(db: Db) {
    let server = TestServer::start(db).await;
    let (bot_player, token) = bot(&server, "Chatty").await;
    let response = reqwest::Client::new()
        .get(server.url("/api/stream/event"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    // Every chunk's arrival, read as it comes.
    let arrivals = std::sync::Arc::new(std::sync::Mutex::new(vec![std::time::Instant::now()]));
    let seen = arrivals.clone();
    let reader = tokio::spawn(async move {
        let mut response = response;
        while let Ok(Some(_)) = response.chunk().await {
            seen.lock().unwrap().push(std::time::Instant::now());
        }
    });
    let person_player = server.player("Mover").await;
    let mut person = server.client(&person_player).await;
    person
        .send(ClientFrame::Challenge {
            to: bot_player.id,
            rules: Ruleset::Classic,
            clock: fischer(300, 3),
            rated: false,
            color: ColorChoice::Red,
        })
        .await;
    let id =
        expect_frame!(person, ServerFrame::ChallengeSent { challenge } => challenge.id).to_string();
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
    // A move every 0.7 s for about 15 s, the person's and the bot's in turn.
    let moving = std::time::Instant::now();
    for (ply, mv) in SHUFFLE.iter().enumerate() {
        if ply % 2 == 0 {
            person.mv(game, mv).await;
            person.expect_moved().await;
        } else {
            let path = format!("/api/bot/game/{game}/move/{mv}");
            let (status, answer) = call(&server, reqwest::Method::POST, &path, &token, None).await;
            assert_eq!(status, 200, "{mv}: {answer}");
            person.expect_moved().await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    }
    let moved_for = moving.elapsed();
    assert!(
        moved_for > std::time::Duration::from_secs(15),
        "{moved_for:?}"
    );
    let arrivals = arrivals.lock().unwrap().clone();
    let longest = arrivals
        .windows(2)
        .map(|pair| pair[1] - pair[0])
        .chain(std::iter::once(arrivals.last().unwrap().elapsed()))
        .max()
        .unwrap();
    assert!(
        longest <= std::time::Duration::from_millis(8_500),
        "the stream was silent for {longest:?} while the game moved"
    );
    reader.abort();
    server.shutdown().await;
}

/// Twenty-two moves that end nothing: the shuffles and the leopard's walk, stepping aside
/// instead of into the den.
const SHUFFLE: [&str; 22] = [
    "g1f1", "a9b9", "a1b1", "g9f9", "f1g1", "b8b7", "b1a1", "f8e8", "e3d3", "b9a9", "d3d4", "f9g9",
    "d4d5", "b7b8", "d5d6", "e8f8", "d6d7", "a9b9", "d7d8", "g9f9", "d8e8", "f9g9",
];

both_stores!(
    a_bot_challenges_over_http_and_picks_its_games_up_again,
    a_bot_chats_aborts_and_is_paused_after_repeated_aborts,
    bots_meet_in_an_arena_for_bots,
    the_event_stream_keeps_talking_while_a_game_moves,
);
