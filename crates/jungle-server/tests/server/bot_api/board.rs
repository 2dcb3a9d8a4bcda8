//! Games over the Board and Bot APIs against a person on the socket.

use super::*;

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
    // One state: the move with its offer standing (issue 50: never the move alone first).
    let offered = lines.next().await.unwrap();
    assert_eq!(offered["moves"], "e3d3 a9b9 d3d4");
    assert_eq!(offered["drawOffer"], "red");
    assert_eq!(offered["wdraw"], true);
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
    // The last move and the end, in one state (issue 50: never "started" for a finished game).
    let end = lines.next().await.unwrap();
    assert_eq!(end["moves"].as_str().unwrap().split(' ').count(), 21);
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

both_stores!(
    a_game_played_over_the_board_api_against_the_socket,
    a_rated_game_between_a_person_and_a_bot,
    a_board_seek_lasts_as_long_as_its_answer,
);

/// `POST /api/board/seek` (berserk's `board.seek`): the seek waits in the pool, listed, while
/// its answer is open; a client that closes the answer takes the seek back. Without an event
/// stream (where the game would start) it is refused, and a bot does not seek.
async fn a_board_seek_lasts_as_long_as_its_answer(db: Db) {
    let server = TestServer::start(db).await;
    let (_, _, session) = signed_in(&server, "Seeker").await;
    let token = new_token(&server, &session, &["board:play"]).await.token;
    let seek = || {
        reqwest::Client::new()
            .post(server.url("/api/board/seek"))
            .bearer_auth(&token)
            .form(&[("rated", "false"), ("time", "5"), ("increment", "3")])
            .send()
    };
    let refused = seek().await.unwrap();
    assert_eq!(refused.status().as_u16(), 400);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "no_event_stream", "{body}");
    let _events = Lines::open(&server, "/api/stream/event", &token).await;
    let answer = seek().await.unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let listed: Vec<jungle_protocol::http::OpenSeek> = server.get("/api/seeks").await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    // A second at once is refused, and leaves the first waiting.
    let second = seek().await.unwrap();
    assert_eq!(second.status().as_u16(), 400);
    let body: Value = second.json().await.unwrap();
    assert_eq!(body["code"], "already_seeking", "{body}");
    let listed: Vec<jungle_protocol::http::OpenSeek> = server.get("/api/seeks").await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    drop(answer);
    let gone = tokio::time::Instant::now();
    loop {
        let listed: Vec<jungle_protocol::http::OpenSeek> = server.get("/api/seeks").await;
        if listed.is_empty() {
            break;
        }
        assert!(
            gone.elapsed() < std::time::Duration::from_secs(10),
            "the seek outlived its answer"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (_, bot_token) = bot(&server, "Engine").await;
    let (status, body) = call(
        &server,
        reqwest::Method::POST,
        "/api/board/seek",
        &bot_token,
        Some(json!({ "time": 5, "increment": 3 })),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    server.shutdown().await;
}
