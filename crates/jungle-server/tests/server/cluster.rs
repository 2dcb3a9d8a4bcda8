//! Several nodes over Redis (issue 16, begun): two server processes on one PostgreSQL and the
//! Redis at 127.0.0.1:6379. A node that is killed or drained hands its games to the other,
//! with every acknowledged move and fair clocks.
//!
//! Long (about 800 lines): scenarios on node processes, sharing the helpers that start, kill and
//! read nodes.

use std::time::{Duration, Instant};

use crate::common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_nodes_are_matched_and_a_spectator_on_a_third_sees_every_move() {
    let url = fresh_database(Db::Postgres).await;
    let (a, b, c) = (node(&url, "a"), node(&url, "b"), node(&url, "c"));
    // Let the nodes settle who matches (the first beat).
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let alice = create_account(a.addr, "Alice").await;
    let bob = create_account(b.addr, "Bob").await;
    let mut on_a = signed_in_client(a.addr, &alice).await;
    let mut on_b = signed_in_client(b.addr, &bob).await;
    on_a.send(classic_seek()).await;
    wait_seeking(&mut on_a).await;
    // One seek per player holds across nodes: Alice seeking again from node B is refused.
    let mut alice_on_b = signed_in_client(b.addr, &alice).await;
    alice_on_b.send(classic_seek()).await;
    alice_on_b.expect_error(ErrorCode::AlreadySeeking).await;
    drop(alice_on_b);
    // The seek list is the matcher's on every node (published each beat).
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let listed: Vec<http::OpenSeek> = reqwest::get(format!("http://{}/api/seeks", c.addr))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if listed.len() == 1 {
            break;
        }
        assert!(
            Instant::now() < until,
            "the seek is listed on node C: {listed:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    on_b.send(classic_seek()).await;
    let ga = on_a.expect_game().await;
    let gb = on_b.expect_game().await;
    assert_eq!(ga.game, gb.game);
    let game = ga.game;
    let (red, mut blue) = if ga.you == Some(Side::Red) {
        (on_a, on_b)
    } else {
        (on_b, on_a)
    };
    let _ = &mut blue;
    // A spectator on node C.
    let mut fan = signed_in_client(c.addr, &create_player(c.addr, "Fan").await).await;
    fan.send(ClientFrame::Watch { game }).await;
    let seen = fan.expect_game().await;
    assert_eq!((seen.game, seen.you), (game, None));
    let mut red = red;
    // Every node lists the game in progress (each publishes its own every beat).
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let live: Vec<http::LiveGame> = reqwest::get(format!("http://{}/api/games/live", c.addr))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if live.iter().any(|g| g.id == game) {
            break;
        }
        assert!(
            Instant::now() < until,
            "node C lists the game run by another node"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for (i, mv) in DEN_WIN_AT_PLY_21.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut red, &mut blue)
        } else {
            (&mut blue, &mut red)
        };
        mover.mv(game, mv).await;
        let echo = expect_move(mover, game).await;
        assert_eq!(echo, (mv.to_string(), i + 1));
        assert_eq!(expect_move(other, game).await, (mv.to_string(), i + 1));
        assert_eq!(
            expect_move(&mut fan, game).await,
            (mv.to_string(), i + 1),
            "the spectator sees every move"
        );
    }
    for client in [&mut red, &mut blue, &mut fan] {
        let over = client.expect_over().await;
        assert_eq!((over.winner, over.reason), (Some(Side::Red), Reason::Den));
    }
    // Each node has measured the bus's round trip to the others it sent to (the owner credits
    // it to a player elsewhere): pings go every beat.
    for (addr, name) in [(a.addr, "a"), (b.addr, "b"), (c.addr, "c")] {
        let until = Instant::now() + Duration::from_secs(5);
        while metric_value(addr, "jungle_bus_round_trip_seconds").await == 0.0 {
            assert!(Instant::now() < until, "node {name} measured a round trip");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    drop((a, b, c));
    drop_database(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_room_opened_on_one_node_is_joined_by_its_code_on_another() {
    let url = fresh_database(Db::Postgres).await;
    let (a, b) = (node(&url, "a"), node(&url, "b"));
    let mut host = signed_in_client(a.addr, &create_player(a.addr, "Host").await).await;
    host.send(ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock: fischer(300, 2),
        rated: false,
        color: ColorChoice::Red,
        position: None,
    })
    .await;
    let (code, game) = expect_frame!(host, ServerFrame::Room { code, game, .. } => (code, game));
    let waiting = host.expect_game().await;
    assert_eq!(waiting.status, GameStatus::Waiting);
    let mut guest = signed_in_client(b.addr, &create_player(b.addr, "Guest").await).await;
    // A wrong code finds nothing on any node.
    guest
        .send(ClientFrame::JoinRoom {
            code: "ZZZZZZZZ".into(),
        })
        .await;
    guest.expect_error(ErrorCode::RoomNotFound).await;
    guest
        .send(ClientFrame::JoinRoom {
            code: code.to_lowercase(),
        })
        .await;
    let seen = guest.expect_game().await;
    assert_eq!(
        (seen.game, seen.you, seen.status),
        (game, Some(Side::Blue), GameStatus::Active)
    );
    let started = host.expect_game().await;
    assert_eq!((started.game, started.status), (game, GameStatus::Active));
    play(&mut host, &mut guest, game, &["g3g4", "a7a6"]).await;
    drop((a, b));
    drop_database(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_reaches_a_player_on_another_node_who_accepts_it() {
    let url = fresh_database(Db::Postgres).await;
    let (a, b) = (node(&url, "a"), node(&url, "b"));
    let challenger = create_player(a.addr, "Challenger").await;
    let target = create_player(b.addr, "Target").await;
    let mut from = signed_in_client(a.addr, &challenger).await;
    let mut to = signed_in_client(b.addr, &target).await;
    // Who is online on the other node is known within a beat or two.
    let until = Instant::now() + Duration::from_secs(6);
    let sent = challenge_once_online(&mut from, target.id, until).await;
    let received = expect_frame!(to, ServerFrame::Challenged { challenge } => challenge);
    assert_eq!((received.id, received.from.id), (sent.id, challenger.id));
    // A second tab of the target, on node A, hears of it too.
    let mut second_tab = signed_in_client(a.addr, &target).await;
    let seen = expect_frame!(second_tab, ServerFrame::Challenged { challenge } => challenge);
    assert_eq!(seen.id, sent.id);
    to.send(ClientFrame::AcceptChallenge { id: sent.id }).await;
    let on_b = to.expect_game().await;
    let on_a = from.expect_game().await;
    assert_eq!(on_a.game, on_b.game);
    assert_eq!((on_a.you, on_b.you), (Some(Side::Red), Some(Side::Blue)));
    play(&mut from, &mut to, on_a.game, &["g3g4", "a7a6"]).await;
    drop((a, b));
    drop_database(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_other_nodes_join_a_tournament_are_paired_and_scored() {
    let url = fresh_database(Db::Postgres).await;
    let (a, b, c) = (node(&url, "a"), node(&url, "b"), node(&url, "c"));
    let host = create_account(a.addr, "Host").await;
    let made: http::TournamentCreated = reqwest::Client::new()
        .post(format!("http://{}/api/tournaments", a.addr))
        .bearer_auth(&host.token)
        .json(
            &serde_json::json!({ "name": "Three-node arena", "rules": "classic",
            "clock": { "kind": "fischer", "base_s": 300, "inc_s": 2 }, "minutes": 30 }),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = made.id;
    let (p1, p2) = (
        create_player(b.addr, "On B").await,
        create_player(c.addr, "On C").await,
    );
    let mut on_b = signed_in_client(b.addr, &p1).await;
    let mut on_c = signed_in_client(c.addr, &p2).await;
    // Who is online on the other nodes is known within a beat or two.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    for client in [&mut on_b, &mut on_c] {
        client
            .send(ClientFrame::JoinTournament { id, code: None })
            .await;
    }
    let mut states = Vec::new();
    for client in [&mut on_b, &mut on_c] {
        let state = loop {
            match client.next().await {
                Some(ServerFrame::Game(state)) if state.tournament == Some(id) => break state,
                Some(ServerFrame::Error { code, message, .. }) => panic!("{code:?}: {message}"),
                Some(_) => {}
                None => panic!("closed"),
            }
        };
        states.push(state);
    }
    let game = states[0].game;
    assert_eq!(
        states[1].game, game,
        "paired together, the game run by node A"
    );
    let (mut red, mut blue, red_id) = if states[0].you == Some(Side::Red) {
        (on_b, on_c, p1.id)
    } else {
        (on_c, on_b, p2.id)
    };
    for (i, mv) in DEN_WIN_AT_PLY_13.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut red, &mut blue)
        } else {
            (&mut blue, &mut red)
        };
        mover.mv(game, mv).await;
        assert_eq!(expect_move(mover, game).await.0, *mv);
        assert_eq!(expect_move(other, game).await.0, *mv);
    }
    // Scored once on the director's node, seen from any node.
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let shown: http::Tournament =
            reqwest::get(format!("http://{}/api/tournaments/{id}", c.addr))
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
        let winner = shown.standings.iter().find(|l| l.score.player == red_id);
        if winner.is_some_and(|l| l.score.points == 2) {
            break;
        }
        assert!(
            Instant::now() < until,
            "the win is scored: {:?}",
            shown.standings
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    drop((a, b, c));
    drop_database(&url).await;
}

/// Waits for the `seeking` answer (a seek accepted into a pool, on whichever node matches).
async fn wait_seeking(client: &mut Client) {
    loop {
        match client.next().await {
            Some(ServerFrame::Seeking { .. }) => return,
            Some(ServerFrame::Error { code, message, .. }) => panic!("{code:?}: {message}"),
            _ => {}
        }
    }
}

/// The next `moved` of `game`, skipping presence changes: (move, turns played).
async fn expect_move(client: &mut Client, game: Uuid) -> (String, usize) {
    loop {
        match client.next().await {
            Some(ServerFrame::Moved {
                game: g, mv, ply, ..
            }) if g == game => return (mv, ply),
            Some(
                ServerFrame::Moved { .. } | ServerFrame::Presence { .. } | ServerFrame::Game(_),
            ) => {}
            other => panic!("expected a move, got {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_with_redis_is_refused() {
    let mut config = jungle_server::Config::for_tests("sqlite::memory:");
    config.redis_url = Some(REDIS.into());
    let refused = jungle_server::Server::start(config).await;
    let error = refused.err().expect("refused").to_string();
    assert!(error.contains("PostgreSQL"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_game_is_adopted_with_every_acknowledged_move() {
    let url = fresh_database(Db::Postgres).await;
    let a = node(&url, "a");
    let b = node(&url, "b");
    let (mut red, mut blue, game) = matched_pair_at(a.addr, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6", "g4g5", "a6a5"]).await;
    let (red_player, blue_player) = (red.player.clone().unwrap(), blue.player.clone().unwrap());
    let before = red.expect_game_state_clocks(game).await;
    drop((red, blue));
    a.kill();
    let killed = Instant::now();
    let (mut red, state) = back_in_game(b.addr, &red_player, game).await;
    let adopted = killed.elapsed();
    assert!(
        adopted < Duration::from_secs(8),
        "adopted after {adopted:?}"
    );
    assert_eq!(state.moves, ["g3g4", "a7a6", "g4g5", "a6a5"]);
    // The outage is charged to nobody: the clocks are as stored after the last turn.
    for (now, then) in [
        (state.clocks.red_ms, before.0),
        (state.clocks.blue_ms, before.1),
    ] {
        assert!(
            now + 1_500 >= then,
            "clock {now} ms against {then} ms before the kill"
        );
    }
    let (mut blue, _) = back_in_game(b.addr, &blue_player, game).await;
    play(&mut red, &mut blue, game, &["g5g6"]).await;
    assert_eq!(
        adopted_count(b.addr).await,
        1,
        "/metrics counts the adoption"
    );
    eprintln!("adopted after {adopted:?}");
    drop(b);
    drop_database(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draining_a_node_moves_its_game_without_ending_it() {
    let url = fresh_database(Db::Postgres).await;
    let a = node(&url, "a");
    let b = node(&url, "b");
    let (mut red, mut blue, game) = matched_pair_at(a.addr, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    let (red_player, blue_player) = (red.player.clone().unwrap(), blue.player.clone().unwrap());
    // SIGTERM: the clients are told to reconnect, the game is left to the other node.
    a.terminate();
    assert!(matches!(
        red.next().await,
        Some(ServerFrame::Shutdown) | None
    ));
    let drained = Instant::now();
    let (mut red, state) = back_in_game(b.addr, &red_player, game).await;
    assert_eq!(state.status, GameStatus::Active);
    assert_eq!(state.moves, ["g3g4", "a7a6"]);
    let (mut blue, _) = back_in_game(b.addr, &blue_player, game).await;
    eprintln!("moved after {:?}", drained.elapsed());
    play(&mut red, &mut blue, game, &["g4g5", "a6a5"]).await;
    drop(b);
    drop_database(&url).await;
}

/// A game over days keeps its lease on its node, awake or asleep (issue 49): no other node
/// takes it for an orphan while nobody is in it, and a player on another node wakes it where
/// it sleeps and plays on. (Its lease was once renewed only while it was listed, and games
/// over days are not listed: every other node adopted it within seconds, and two ran it.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_days_asleep_on_its_node_stays_there() {
    let url = fresh_database(Db::Postgres).await;
    let args = ["--redis-url", REDIS, "--idle-game-s", "1"];
    let a = ServerProcess::start_with_args(&url, &[&args[..], &["--node-id", "a"]].concat());
    let b = ServerProcess::start_with_args(&url, &[&args[..], &["--node-id", "b"]].concat());
    let (host, guest) = (
        create_account(a.addr, "Host").await,
        create_account(a.addr, "Guest").await,
    );
    let mut red = signed_in_client(a.addr, &host).await;
    let (code, game) = open_private_room(&mut red, ClockSpec::Days { days: 3 }, true).await;
    red.expect_game().await;
    let mut blue = signed_in_client(a.addr, &guest).await;
    blue.send(ClientFrame::JoinRoom { code }).await;
    blue.expect_game().await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    drop((red, blue));
    let until = Instant::now() + Duration::from_secs(10);
    while metric(a.addr, "jungle_games_asleep").await != 1 {
        assert!(Instant::now() < until, "the game sleeps on node A");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Three leases' time: an unrenewed lease would have lapsed and been seen free twice.
    tokio::time::sleep(3 * jungle_cluster::LEASE).await;
    assert_eq!(adopted_count(b.addr).await, 0, "node B took nothing");
    assert_eq!(metric(a.addr, "jungle_games_asleep").await, 1);
    // Blue comes back through node B: the game wakes on node A, and the move is played there.
    let (mut blue, state) = back_in_game(b.addr, &guest, game).await;
    assert_eq!(state.moves, ["g3g4", "a7a6"]);
    let (mut red, _) = back_in_game(a.addr, &host, game).await;
    play(&mut red, &mut blue, game, &["g4g5"]).await;
    assert_eq!(metric(a.addr, "jungle_games_asleep").await, 0);
    assert_eq!(adopted_count(b.addr).await, 0);
    drop((a, b));
    drop_database(&url).await;
}

async fn adopted_count(addr: std::net::SocketAddr) -> u64 {
    metric(addr, "jungle_games_adopted_total").await
}

/// A node's metric, 0 when it has none yet.
async fn metric(addr: std::net::SocketAddr, name: &str) -> u64 {
    metric_value(addr, name).await as u64
}

/// A node's metric as it reads, 0.0 when it has none yet.
async fn metric_value(addr: std::net::SocketAddr, name: &str) -> f64 {
    let text = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find(|l| l.starts_with(name))
        .and_then(|l| l.split_whitespace().nth(1))
        .map_or(0.0, |n| n.parse().unwrap())
}

/// A bot whose streams and actions all go to node A plays a game that node B runs: the
/// challenge from a person on B reaches its event stream, its game stream on A follows every
/// move made on B, its moves over HTTP on A are played on B, and the end reaches both streams.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_streams_on_one_node_follow_its_game_run_by_another() {
    let url = fresh_database(Db::Postgres).await;
    // B first: it takes matchmaking (and so the challenges, whose games it runs).
    let b = node(&url, "b");
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let a = node(&url, "a");
    let (bot_player, token) = bot(&a, "Remote engine").await;
    let mut events = Lines::open(&a, "/api/stream/event", &token).await;
    let person = create_player(b.addr, "Person on B").await;
    let mut client = signed_in_client(b.addr, &person).await;
    let until = Instant::now() + Duration::from_secs(8);
    challenge_once_online(&mut client, bot_player.id, until).await;
    let incoming = events.next().await.unwrap();
    assert_eq!(incoming["type"], "challenge", "{incoming}");
    let id = incoming["challenge"]["id"].as_str().unwrap().to_owned();
    // Online as B sees it too (berserk's `bots.get_online_bots`).
    let online: String = reqwest::get(format!("http://{}/api/bot/online", b.addr))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(online.contains(&bot_player.id.to_string()), "{online}");
    // Listed on A, though B holds the challenges (berserk's `challenges.get_mine`).
    let (status, mine) = call(&a, reqwest::Method::GET, "/api/challenge", &token, None).await;
    assert_eq!(status, 200);
    assert_eq!(mine["in"][0]["id"], id.as_str(), "{mine}");
    let accept = format!("/api/challenge/{id}/accept");
    let (status, body) = call(&a, reqwest::Method::POST, &accept, &token, None).await;
    assert_eq!(status, 200, "{body}");
    let game = client.expect_game().await.game;
    let start = events.next().await.unwrap();
    assert_eq!(
        (start["type"].as_str(), start["game"]["id"].as_str()),
        (Some("gameStart"), Some(game.to_string().as_str()))
    );
    // The game runs on B, not on A where the bot's streams are (each node counts its own
    // games at its next beat).
    let until = Instant::now() + Duration::from_secs(4);
    let owned = loop {
        let owned = (
            metric(b.addr, "jungle_games_owned").await,
            metric(a.addr, "jungle_games_owned").await,
        );
        if owned.0 + owned.1 == 1 || Instant::now() > until {
            break owned;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(owned, (1, 0), "the game runs on B");
    let mut lines = Lines::open(&a, &format!("/api/bot/game/stream/{game}"), &token).await;
    assert_eq!(lines.next().await.unwrap()["type"], "gameFull");
    for (ply, mv) in DEN_WIN_AT_PLY_21.iter().take(6).enumerate() {
        if ply % 2 == 0 {
            client.mv(game, mv).await;
        } else {
            let path = format!("/api/bot/game/{game}/move/{mv}");
            let (status, body) = call(&a, reqwest::Method::POST, &path, &token, None).await;
            assert_eq!(status, 200, "{mv}: {body}");
        }
        client.expect_moved().await;
        let seen = lines.next().await.unwrap();
        assert_eq!(
            seen["moves"].as_str().unwrap().split(' ').count(),
            ply + 1,
            "{seen}"
        );
    }
    let resign = format!("/api/bot/game/{game}/resign");
    let (status, _) = call(&a, reqwest::Method::POST, &resign, &token, None).await;
    assert_eq!(status, 200);
    let over = client.expect_over().await;
    assert_eq!(
        (over.winner, over.reason),
        (Some(Side::Red), Reason::Resign)
    );
    let end = lines.next().await.unwrap();
    assert_eq!(end["status"], "resign", "{end}");
    assert_eq!(lines.next().await, None);
    assert_eq!(events.next().await.unwrap()["type"], "gameFinish");
    drop((a, b));
    drop_database(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_restart_during_play_loses_nothing() {
    let url = fresh_database(Db::Postgres).await;
    let mut redis = PrivateRedis::start();
    let redis_url = redis.url();
    let a = ServerProcess::start_with_args(&url, &["--redis-url", &redis_url, "--node-id", "a"]);
    let b = ServerProcess::start_with_args(&url, &["--redis-url", &redis_url, "--node-id", "b"]);
    let (mut red, mut blue, game) = matched_pair_at(a.addr, classic_seek()).await;
    // A spectator on node B follows the game (run by A) over the bus.
    let mut fan = signed_in_client(b.addr, &create_player(b.addr, "Fan").await).await;
    fan.send(ClientFrame::Watch { game }).await;
    assert_eq!(fan.expect_game().await.you, None);
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    // Redis goes away (and comes back empty): the game goes on, its moves in PostgreSQL;
    // a new seek is refused with a clear error meanwhile.
    redis.stop();
    play(&mut red, &mut blue, game, &["g4g5", "a6a5"]).await;
    let mut seeker = signed_in_client(b.addr, &create_player(b.addr, "Seeker").await).await;
    seeker
        .send(seek(Ruleset::Classic, fischer(300, 3), false))
        .await;
    seeker.expect_error(ErrorCode::Unavailable).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    redis.restart();
    // The owner takes its lease again before the other node could call the game an orphan.
    tokio::time::sleep(Duration::from_secs(4)).await;
    play(&mut red, &mut blue, game, &["g5g6"]).await;
    // The spectator missed the moves made while Redis was away; once it is back, the whole
    // state comes again.
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, fan.next()).await {
            Ok(Some(ServerFrame::Game(state))) if state.moves.len() >= 4 => break,
            Ok(Some(_)) => {}
            other => panic!("the spectator resynced: {other:?}"),
        }
    }
    assert_eq!(
        adopted_count(b.addr).await,
        0,
        "nobody adopted a game its owner runs"
    );
    let record: http::GameRecord = reqwest::get(format!("http://{}/api/games/{game}", a.addr))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(record.moves.len(), 5);
    drop((a, b));
    drop_database(&url).await;
}

/// Fair play across nodes: a position of a game run by node A is closed to the engine for
/// someone asking on node B (who need not follow the game at all); other positions are open,
/// and so is the game's once it ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_on_one_node_says_nothing_about_a_game_run_by_another() {
    let url = fresh_database(Db::Postgres).await;
    let (a, b) = (node(&url, "a"), node(&url, "b"));
    // Both nodes publish themselves, and each sees the other.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let (mut red, mut blue, game) =
        matched_pair_at(a.addr, seek(Ruleset::Classic, fischer(300, 3), false)).await;
    play(&mut red, &mut blue, game, &["e3d3", "a9b9"]).await;
    let record: http::GameRecord = reqwest::get(format!("http://{}/api/games/{game}", b.addr))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let live = record.positions.last().unwrap().clone();
    let mut stranger = signed_in_client(b.addr, &create_player(b.addr, "Stranger").await).await;
    let mut ask = async |position: &str| {
        stranger
            .send(ClientFrame::Analyse {
                rules: Ruleset::Classic,
                position: Some(position.to_owned()),
                moves: Vec::new(),
            })
            .await;
        loop {
            match stranger.next().await {
                Some(ServerFrame::Analysis { .. }) => return None,
                Some(ServerFrame::Error { code, .. }) => return Some(code),
                Some(_) => {}
                None => panic!("closed"),
            }
        }
    };
    assert_eq!(ask(&live).await, Some(ErrorCode::AnalysisUnavailable));
    assert_eq!(ask("6l/7/7/7/7/7/7/7/L6 r 0 20").await, None);
    red.send(ClientFrame::Resign { game }).await;
    red.expect_over().await;
    assert_eq!(ask(&live).await, None);
    drop((a, b));
    drop_database(&url).await;
}

/// Blocks and challenge settings hold across nodes: a challenge sent through one node to a
/// player on another obeys the target's setting and blocks (the node that holds the
/// challenges reads them from the database).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_through_another_node_obeys_the_targets_settings() {
    let url = fresh_database(Db::Postgres).await;
    let (a, b) = (node(&url, "a"), node(&url, "b"));
    let challenger = create_account(a.addr, "Challenger").await;
    let target = create_account(b.addr, "Target").await;
    let mut from = signed_in_client(a.addr, &challenger).await;
    let _to = signed_in_client(b.addr, &target).await;
    let challenge = ClientFrame::Challenge {
        to: target.id,
        rules: Ruleset::Classic,
        clock: fischer(300, 2),
        rated: false,
        color: ColorChoice::Red,
    };
    let settings = |policy: &str| {
        reqwest::Client::new()
            .put(format!("http://{}/api/account/settings", b.addr))
            .bearer_auth(&target.token)
            .json(&serde_json::json!({ "challenges": policy }))
            .send()
    };
    assert_eq!(settings("nobody").await.unwrap().status().as_u16(), 200);
    // Until the target is seen online on node A's side, the answer is player_offline.
    let until = Instant::now() + Duration::from_secs(6);
    loop {
        from.send(challenge.clone()).await;
        match from.next().await {
            Some(ServerFrame::Error {
                code: ErrorCode::ChallengeRefused,
                ..
            }) => break,
            Some(ServerFrame::Error {
                code: ErrorCode::PlayerOffline,
                ..
            }) => {
                assert!(Instant::now() < until, "the target is seen online");
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            other => panic!("{other:?}"),
        }
    }
    // Open to everyone, but blocking the challenger (a block made through node B).
    assert_eq!(settings("everyone").await.unwrap().status().as_u16(), 200);
    let blocked = reqwest::Client::new()
        .put(format!(
            "http://{}/api/account/blocks/{}",
            b.addr, challenger.id
        ))
        .bearer_auth(&target.token)
        .send()
        .await
        .unwrap();
    assert_eq!(blocked.status().as_u16(), 204);
    from.send(challenge).await;
    from.expect_error(ErrorCode::ChallengeRefused).await;
    drop((a, b));
    drop_database(&url).await;
}

/// Runs `redis-cli` against a test's own Redis.
fn redis_cli(redis: &PrivateRedis, args: &[&str]) -> String {
    let out = std::process::Command::new("redis-cli")
        .arg("-p")
        .arg(redis.port.to_string())
        .args(args)
        .output()
        .expect("redis-cli runs (the Redis package is a test prerequisite)");
    assert!(out.status.success(), "redis-cli {args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Waits (up to `within`) for the whole state of `game` with `plies` moves on a socket that
/// must stay open.
async fn state_again(client: &mut Client, game: Uuid, plies: usize, within: Duration) {
    let until = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(until, client.next_or_close()).await {
            Ok(Some(ServerFrame::Game(state))) if state.game == game => {
                assert_eq!(state.status, GameStatus::Active);
                if state.moves.len() == plies {
                    return;
                }
            }
            Ok(Some(_)) => {}
            Ok(None) => panic!("the socket stayed open"),
            Err(_) => panic!("the game's state came again within {within:?}"),
        }
    }
}

/// Redis restarts empty (here: is emptied) while the game's owner cannot reach it for a
/// moment; its commands wait rather than fail, so it sees no outage. The other node, which
/// sees the game's lease gone, must not take a game its owner still runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_emptied_while_the_owner_is_cut_off_leaves_the_game_with_its_owner() {
    let url = fresh_database(Db::Postgres).await;
    let redis = PrivateRedis::start();
    let relay = Relay::to(redis.port).await;
    let a = ServerProcess::start_with_args(&url, &["--redis-url", &relay.url(), "--node-id", "a"]);
    let b = ServerProcess::start_with_args(&url, &["--redis-url", &redis.url(), "--node-id", "b"]);
    let (mut red, mut blue, game) = matched_pair_at(a.addr, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    // Both nodes long settled, as in production.
    tokio::time::sleep(Duration::from_secs(5)).await;
    relay.pause(true);
    redis_cli(&redis, &["FLUSHALL"]);
    tokio::time::sleep(Duration::from_secs(3)).await;
    relay.pause(false);
    // Long enough for the other node to have adopted the game twice over had it not waited.
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert_eq!(
        adopted_count(b.addr).await,
        0,
        "nobody adopted a game its owner runs"
    );
    play(&mut red, &mut blue, game, &["g4g5", "a6a5"]).await;
    drop((a, b));
    drop_database(&url).await;
}

/// A node that finds its game's lease taken (it stalled past the lease) stops running the
/// game; its players, whose sockets are on that node, follow the game to whichever node runs
/// it next without reconnecting, and play on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_follow_a_game_taken_from_their_node_without_reconnecting() {
    let url = fresh_database(Db::Postgres).await;
    let redis = PrivateRedis::start();
    let a = ServerProcess::start_with_args(&url, &["--redis-url", &redis.url(), "--node-id", "a"]);
    let b = ServerProcess::start_with_args(&url, &["--redis-url", &redis.url(), "--node-id", "b"]);
    let (mut red, mut blue, game) = matched_pair_at(a.addr, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    let keys = redis_cli(&redis, &["--scan", "--pattern", &format!("*game:{game}")]);
    let key = keys
        .lines()
        .next()
        .expect("the game's lease")
        .trim()
        .to_owned();
    assert_eq!(redis_cli(&redis, &["GET", &key]).trim(), "a");
    // Node B "holds" it for a lease's time: A gives the game up at its next beat.
    redis_cli(&redis, &["SET", &key, "b", "PX", "3000"]);
    state_again(&mut red, game, 2, Duration::from_secs(25)).await;
    state_again(&mut blue, game, 2, Duration::from_secs(5)).await;
    play(&mut red, &mut blue, game, &["g4g5", "a6a5"]).await;
    let record: http::GameRecord = reqwest::get(format!("http://{}/api/games/{game}", b.addr))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(record.moves, ["g3g4", "a7a6", "g4g5", "a6a5"]);
    drop((a, b));
    drop_database(&url).await;
}

/// What a node publishes of itself each beat (its games in progress, its players) is sent
/// whole only when it changed, and renewed otherwise; when Redis loses it (emptied), the
/// node publishes it whole again: the other node lists the game again and reaches the
/// player again within a few beats.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_in_progress_and_who_is_online_come_back_after_redis_is_emptied() {
    let url = fresh_database(Db::Postgres).await;
    let redis = PrivateRedis::start();
    let a = ServerProcess::start_with_args(&url, &["--redis-url", &redis.url(), "--node-id", "a"]);
    let b = ServerProcess::start_with_args(&url, &["--redis-url", &redis.url(), "--node-id", "b"]);
    let (mut red, mut blue, game) = matched_pair_at(a.addr, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    let challenger = create_player(b.addr, "Challenger").await;
    let mut from = signed_in_client(b.addr, &challenger).await;
    // Several beats with nothing new: both are only renewed by now.
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(lists(b.addr, game).await, "node B lists the game run by A");
    redis_cli(&redis, &["FLUSHALL"]);
    let until = Instant::now() + Duration::from_secs(8);
    while !lists(b.addr, game).await {
        assert!(Instant::now() < until, "node B lists the game again");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // A challenge through B to a player whose only socket is on A reaches them.
    challenge_once_online(&mut from, red.player_id(), until).await;
    let challenged = expect_frame!(red, ServerFrame::Challenged { challenge } => challenge);
    assert_eq!(challenged.from.id, challenger.id);
    drop((a, b));
    drop_database(&url).await;
}

async fn lists(addr: std::net::SocketAddr, game: uuid::Uuid) -> bool {
    let live: Vec<http::LiveGame> = reqwest::get(format!("http://{addr}/api/games/live"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    live.iter().any(|g| g.id == game)
}

/// Sends a casual challenge to `to` until `to` is seen online (who is online on another node is
/// known within a beat or two), up to `until`; the challenge sent.
async fn challenge_once_online(
    from: &mut Client,
    to: uuid::Uuid,
    until: Instant,
) -> jungle_protocol::ChallengeInfo {
    loop {
        from.send(ClientFrame::Challenge {
            to,
            rules: Ruleset::Classic,
            clock: fischer(300, 2),
            rated: false,
            color: ColorChoice::Red,
        })
        .await;
        match from.next().await {
            Some(ServerFrame::ChallengeSent { challenge }) => return challenge,
            Some(ServerFrame::Error {
                code: ErrorCode::PlayerOffline,
                ..
            }) => {
                assert!(Instant::now() < until, "the player is seen online");
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            other => panic!("{other:?}"),
        }
    }
}
