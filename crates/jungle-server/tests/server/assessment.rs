//! Fair-play signals (issue 23): after rated games in which one side is our engine (steady
//! move times, the tab often away) and the other a weak player with uneven, human-like times,
//! the assessment flags the engine's side and not its opponents, and the moderators' queue in
//! `jungle-server admin` shows it.

use std::time::Duration;

use crate::common::*;
use jungle_engine::{Engine, Level};
use jungle_rules::{Game, Position, Turn};
use jungle_server::admin::{self, AdminAction};
use jungle_store::Store;

/// Plies after which the weak side resigns, so a game stays short.
const MAX_PLIES: usize = 40;
/// Human-like thinking times (ms), taken in a scrambled order.
const HUMAN_MS: [u64; 8] = [80, 450, 150, 1100, 250, 60, 700, 320];
/// The engine answers after the same time every move.
const ENGINE_MS: u64 = 300;

/// One rated game played out: the engine account hosts a rated private room, the weak one
/// joins by its code.
async fn one_game(server: &TestServer, machine: &Player, human: &Player, seed: u64) {
    let mut host = server.client(machine).await;
    host.send(ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock: fischer(600, 5),
        rated: true,
        color: ColorChoice::Random,
        position: None,
    })
    .await;
    let code = expect_frame!(host, ServerFrame::Room { code, .. } => code);
    let mut guest = server.client(human).await;
    guest.send(ClientFrame::JoinRoom { code }).await;
    let state = guest.expect_game().await;
    let game = state.game;
    expect_frame!(host, ServerFrame::Game(s) if s.status == GameStatus::Active);
    let engine_side = if state.you == Some(Side::Red) {
        Side::Blue
    } else {
        Side::Red
    };
    let rules = Ruleset::Classic.rules();
    let mut strong = Engine::with_seed(rules, Level::MAX, seed);
    let mut weak = Engine::with_seed(rules, Level::new(3).unwrap(), seed + 1);
    let mut board = Game::new(rules, Position::start());
    let mut engine_moves = 0;
    while board.outcome().is_none() {
        let mover = board.position().side_to_move();
        if board.ply_count() >= MAX_PLIES {
            guest.send(ClientFrame::Resign { game }).await;
            break;
        }
        let started = tokio::time::Instant::now();
        let (choice, wait, engine) = if mover == engine_side {
            let choice = strong.best_move(&board, Duration::from_millis(60));
            (choice, ENGINE_MS, true)
        } else {
            let choice = weak.best_move(&board, Duration::from_millis(60));
            let pick = (seed as usize * 7 + board.ply_count() * 5) % HUMAN_MS.len();
            (choice, HUMAN_MS[pick], false)
        };
        let choice = choice.expect("a move");
        tokio::time::sleep_until(started + Duration::from_millis(wait)).await;
        let client = if engine { &mut host } else { &mut guest };
        // The engine's player switches to another window before every other move.
        let blur = engine && engine_moves % 2 == 1;
        if engine {
            engine_moves += 1;
        }
        client
            .send(ClientFrame::Move {
                game,
                mv: choice.to_string(),
                blur,
            })
            .await;
        client.expect_moved().await;
        let other = if engine { &mut guest } else { &mut host };
        other.expect_moved().await;
        board.play(Turn::Move(choice)).unwrap();
    }
    host.expect_over().await;
}

async fn the_engine_side_is_flagged_and_its_opponents_are_not(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let machine = create_account(server.addr, "Machine").await;
    let humans = [
        create_account(server.addr, "Hana").await,
        create_account(server.addr, "Ivo").await,
        create_account(server.addr, "Jun").await,
        create_account(server.addr, "Kofi").await,
    ];
    // Two at a time: a player keeps at most three private rooms waiting.
    for (pair, two) in humans.chunks(2).enumerate() {
        let games = two
            .iter()
            .enumerate()
            .map(|(i, human)| one_game(&server, &machine, human, 11 + (2 * pair + i) as u64));
        futures_util::future::join_all(games).await;
    }

    let store = Store::open_for_command(&server.config.database_url)
        .await
        .unwrap();
    let machine_id = machine.id;
    // Assessed in the background, behind live moves: wait for all four games.
    let until = tokio::time::Instant::now() + Duration::from_secs(60);
    let rows = loop {
        let rows = store.assessments(machine_id, 10).await.unwrap();
        if rows.len() == humans.len() {
            break rows;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "every game assessed: {rows:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(rows.iter().any(|r| r.signals.blurs > 0), "{rows:?}");
    assert!(
        rows.iter()
            .all(|r| r.signals.time_cv.is_none_or(|cv| cv < 0.25)),
        "{rows:?}"
    );
    let queue = store.review_queue(false, 100).await.unwrap();
    assert!(
        queue.iter().any(|line| line.player == machine_id),
        "the engine's side is queued: {queue:?}"
    );
    for human in &humans {
        assert!(
            !queue.iter().any(|line| line.player == human.id),
            "{} is not queued: {queue:?}",
            human.id
        );
        for row in store.assessments(human.id, 10).await.unwrap() {
            assert!(
                row.verdict <= jungle_game::assessment::Verdict::UnlikelyCheating,
                "{row:?}"
            );
        }
    }
    // The operator sees it in `jungle-server admin`.
    let shown = admin::run(
        &store,
        "http://localhost",
        AdminAction::Queue { all: false },
    )
    .await
    .unwrap();
    let machine_name = store
        .review_queue(false, 100)
        .await
        .unwrap()
        .into_iter()
        .find(|l| l.player == machine_id)
        .unwrap()
        .name;
    assert!(shown.contains(&machine_name), "{shown}");
    let table = admin::run(
        &store,
        "http://localhost",
        AdminAction::Assessment {
            name: machine_name.clone(),
            games: 30,
        },
    )
    .await
    .unwrap();
    eprintln!("{shown}\n{table}");
    for human in &humans {
        let line = admin::run(
            &store,
            "http://localhost",
            AdminAction::Assessment {
                name: human.id.to_string(),
                games: 30,
            },
        )
        .await
        .unwrap();
        eprintln!("{line}");
    }
    assert!(table.contains("record over 4 games"), "{table}");
    // Marked: taken off the queue, and their next rated game moves nobody's rating.
    admin::run(
        &store,
        "http://localhost",
        AdminAction::Mark {
            name: machine_name.clone(),
            reason: "engine moves".into(),
        },
    )
    .await
    .unwrap();
    assert!(store
        .review_queue(false, 100)
        .await
        .unwrap()
        .iter()
        .all(|l| l.player != machine_id));
    let before: http::PlayerProfile = server.get(&format!("/api/players/{}", humans[0].id)).await;
    one_game(&server, &machine, &humans[0], 99).await;
    let after: http::PlayerProfile = server.get(&format!("/api/players/{}", humans[0].id)).await;
    assert_eq!(
        before.ratings, after.ratings,
        "a game against a marked player changes no rating"
    );
    store.close().await;
    server.shutdown().await;
}

both_stores!(the_engine_side_is_flagged_and_its_opponents_are_not);
