//! Loops that could slip past a limit (issue 23), rerun: each new game, stored row or hashed
//! password a loop can repeat meets its limit, per player and per address.

use std::time::{Duration, Instant};

use crate::common::*;

/// What a bucket of `burst`, refilled one every `every`, lets through in `elapsed` (and one
/// more for the refill under way).
fn at_most(burst: u32, every: Duration, elapsed: Duration) -> u32 {
    burst + (elapsed.as_millis() / every.as_millis()) as u32 + 1
}

/// Resigns `game` and asks for a rematch; the new game's id, or the refusal's code.
async fn resign_and_rematch(client: &mut Client, game: Uuid) -> Result<Uuid, ErrorCode> {
    client.send(ClientFrame::Resign { game }).await;
    client.expect_over().await;
    client.send(ClientFrame::Rematch { game }).await;
    loop {
        match client.next().await.expect("an answer") {
            ServerFrame::Game(state) if state.game != game => return Ok(state.game),
            ServerFrame::Error { code, .. } => return Err(code),
            _ => {}
        }
    }
}

/// Against the computer a rematch is a new computer game: the same limits as
/// `play_computer` (10 for a player, then 1 per 10 s; 30 for an address).
async fn resign_and_rematch_against_the_computer_meets_its_limit(db: Db) {
    let server = TestServer::start(db).await;
    let started = Instant::now();
    let mut games = 0;
    let mut refused_at_address = false;
    for n in 0..5 {
        let mut client = server
            .client(&server.player(&format!("Looper {n}")).await)
            .await;
        client.send(vs_computer(1, ColorChoice::Red)).await;
        let first = client.next_game_or_error().await.map(|s| s.game);
        let Ok(mut game) = first else {
            assert_eq!(first, Err(ErrorCode::RateLimited));
            refused_at_address = true;
            break;
        };
        games += 1;
        let mut this_player = 1;
        loop {
            match resign_and_rematch(&mut client, game).await {
                Ok(next) => {
                    game = next;
                    games += 1;
                    this_player += 1;
                }
                Err(code) => {
                    assert_eq!(code, ErrorCode::RateLimited);
                    break;
                }
            }
            let cap = at_most(10, Duration::from_secs(10), started.elapsed());
            assert!(this_player <= cap, "a player's burst is 10");
        }
        assert!(this_player >= 10 || games >= 30, "{n}: {this_player} games");
    }
    assert!(refused_at_address);
    let cap = at_most(30, Duration::from_secs(2), started.elapsed());
    assert!(
        (30..=cap).contains(&games),
        "an address's burst is 30: {games}"
    );
    server.shutdown().await;
}

/// Between people a rematch is limited too (10 for a player, then 1 per 10 s).
async fn rematches_between_people_are_limited(db: Db) {
    let server = TestServer::start(db).await;
    let started = Instant::now();
    let (mut red, mut blue, mut game) =
        matched_pair(&server, seek(Ruleset::Classic, fischer(60, 0), false)).await;
    let mut rematches = 0;
    let refused = loop {
        red.send(ClientFrame::Resign { game }).await;
        red.expect_over().await;
        blue.expect_over().await;
        red.send(ClientFrame::Rematch { game }).await;
        blue.send(ClientFrame::Rematch { game }).await;
        match (
            red.next_game_or_error().await,
            blue.next_game_or_error().await,
        ) {
            (Ok(next), Ok(same)) => {
                assert_eq!(next.game, same.game);
                game = next.game;
                rematches += 1;
            }
            (Err(code), _) | (_, Err(code)) => break code,
        }
        assert!(rematches <= at_most(10, Duration::from_secs(10), started.elapsed()));
    };
    assert_eq!(refused, ErrorCode::RateLimited);
    assert!(rematches >= 10);
    server.shutdown().await;
}

/// Each takeback rewrites stored turns: 10 for a player, then 1 per 5 s.
async fn takebacks_against_the_computer_are_limited(db: Db) {
    let server = TestServer::start(db).await;
    let started = Instant::now();
    let mut me = server.client(&server.player("Undoer").await).await;
    me.send(vs_computer(1, ColorChoice::Red)).await;
    let game = me.expect_game().await.game;
    let mut taken_back = 0;
    let refused = loop {
        me.mv(game, "a3a4").await;
        // Our move, then the computer's.
        me.expect_moved().await;
        me.expect_moved().await;
        me.send(ClientFrame::Takeback { game }).await;
        match me.next_game_or_error().await {
            Ok(_) => taken_back += 1,
            Err(code) => break code,
        }
        assert!(taken_back <= at_most(10, Duration::from_secs(5), started.elapsed()));
    };
    assert_eq!(refused, ErrorCode::RateLimited);
    assert!(taken_back >= 10);
    server.shutdown().await;
}

/// Giving the free seat to the computer is a computer game: it counts as `play_computer`.
async fn add_computer_counts_as_play_computer(db: Db) {
    let server = TestServer::start(db).await;
    let mut me = server.client(&server.player("Host").await).await;
    for _ in 0..10 {
        me.send(ClientFrame::CreateRoom {
            rules: Ruleset::Classic,
            clock: fischer(300, 0),
            rated: false,
            color: ColorChoice::Red,
            position: None,
        })
        .await;
        let game = expect_frame!(me, ServerFrame::Room { game, .. } => game);
        me.send(ClientFrame::AddComputer { game, level: 1 }).await;
        expect_frame!(me, ServerFrame::Game(state) if state.game == game && state.status == GameStatus::Active);
        me.send(ClientFrame::Resign { game }).await;
        me.expect_over().await;
    }
    me.send(vs_computer(1, ColorChoice::Red)).await;
    me.expect_error(ErrorCode::RateLimited).await;
    server.shutdown().await;
}

/// Asking the password again (a change, a deletion) hashes each time: 5 for a player, then
/// 1 a minute, whatever the answer.
async fn asking_the_password_again_is_limited(db: Db) {
    let server = TestServer::start(db).await;
    let me = create_account(server.addr, "Forgetful").await;
    let http = reqwest::Client::new();
    let mut statuses = Vec::new();
    for _ in 0..7 {
        let answer = http
            .post(server.url("/api/account/password"))
            .bearer_auth(&me.token)
            .json(&serde_json::json!({ "current": "not my password", "new": "another good password" }))
            .send()
            .await
            .unwrap();
        statuses.push(answer.status().as_u16());
    }
    assert_eq!(statuses, [401, 401, 401, 401, 401, 429, 429]);
    server.shutdown().await;
}

/// Settings are one row, but a loop of writes is still a loop: 30, then 1 per 2 s.
async fn settings_writes_are_limited(db: Db) {
    let server = TestServer::start(db).await;
    let me = create_account(server.addr, "Fiddler").await;
    let http = reqwest::Client::new();
    let mut accepted = 0;
    for n in 0..40 {
        let answer = http
            .put(server.url("/api/account/settings"))
            .bearer_auth(&me.token)
            .json(&serde_json::json!({ "muted": n % 2 == 0 }))
            .send()
            .await
            .unwrap();
        match answer.status().as_u16() {
            200 => accepted += 1,
            429 => {
                assert!(answer.headers().contains_key("retry-after"));
                break;
            }
            other => panic!("{other}"),
        }
    }
    assert_eq!(accepted, 30);
    server.shutdown().await;
}

/// Chat lines are stored with the game: the rate limit bounds a minute, and a cap of 200 lines
/// a player bounds a game however long it lasts (rate limits off here to reach it quickly).
async fn chat_lines_a_game_are_capped_per_player(db: Db) {
    let mut server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let (talker, other) = (server.player("Talker").await, server.player("Other").await);
    let mut a = server.client(&talker).await;
    let mut b = server.client(&other).await;
    a.send(seek(Ruleset::Classic, fischer(600, 0), false)).await;
    expect_frame!(a, ServerFrame::Seeking { .. });
    b.send(seek(Ruleset::Classic, fischer(600, 0), false)).await;
    let game = a.expect_game().await.game;
    b.expect_game().await;
    // Three tabs of the talker, each well within the flood limit of one connection.
    let mut tabs = vec![a];
    for _ in 0..2 {
        let mut tab = server.client(&talker).await;
        tab.send(ClientFrame::Watch { game }).await;
        tab.expect_game().await;
        tabs.push(tab);
    }
    let line = |n: usize| ClientFrame::Chat {
        game,
        preset: None,
        text: Some(format!("line {n}")),
    };
    for n in 0..200 {
        let tab = &mut tabs[n % 3];
        tab.send(line(n)).await;
        expect_frame!(tab, ServerFrame::ChatLine { text: Some(t), .. } if *t == format!("line {n}"));
    }
    tabs[0].send(line(200)).await;
    tabs[0].expect_error(ErrorCode::LimitReached).await;
    // The count is the stored lines': a restart does not reset it.
    drop(tabs);
    drop(b);
    server.restart().await;
    let mut b = server.client(&other).await;
    b.send(ClientFrame::Watch { game }).await;
    b.expect_game().await;
    let mut tab = server.client(&talker).await;
    tab.send(ClientFrame::Watch { game }).await;
    tab.expect_game().await;
    tab.send(line(201)).await;
    tab.expect_error(ErrorCode::LimitReached).await;
    let mut tabs = vec![tab];
    let mut second = server.client(&talker).await;
    second.send(ClientFrame::Watch { game }).await;
    second.expect_game().await;
    tabs.push(second);
    // The other player still speaks.
    b.send(ClientFrame::Chat {
        game,
        preset: Some("hello".into()),
        text: None,
    })
    .await;
    let said = expect_frame!(tabs[1], ServerFrame::ChatLine { preset: Some(p), .. } => p);
    assert_eq!(said, "hello");
    server.shutdown().await;
}

/// Quick match with the computer as a fallback opens a computer game: it counts as a
/// `play_computer` (found by a cold test: a seek-and-resign loop made 20 games in 0.1 s).
async fn a_seek_falling_back_to_the_computer_counts_as_play_computer(db: Db) {
    let server = TestServer::start(db).await;
    let mut me = server.client(&server.player("Fallback").await).await;
    let fallback = ClientFrame::Seek {
        rules: Ruleset::Classic,
        clock: fischer(60, 0),
        rated: false,
        computer_after_s: Some(0),
    };
    let started = Instant::now();
    let mut games = 0;
    let refused = loop {
        me.send(fallback.clone()).await;
        match me.next_game_or_error().await {
            Ok(state) => {
                games += 1;
                me.send(ClientFrame::Resign { game: state.game }).await;
                me.expect_over().await;
            }
            Err(code) => break code,
        }
        assert!(games <= at_most(10, Duration::from_secs(10), started.elapsed()));
    };
    assert_eq!(refused, ErrorCode::RateLimited);
    assert!(games >= 10);
    server.shutdown().await;
}

both_stores!(
    a_seek_falling_back_to_the_computer_counts_as_play_computer,
    chat_lines_a_game_are_capped_per_player,
    resign_and_rematch_against_the_computer_meets_its_limit,
    rematches_between_people_are_limited,
    takebacks_against_the_computer_are_limited,
    add_computer_counts_as_play_computer,
    asking_the_password_again_is_limited,
    settings_writes_are_limited,
);
