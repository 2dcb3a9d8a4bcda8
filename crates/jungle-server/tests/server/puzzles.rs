//! Puzzles over the API (issue 27), black-box on both stores: the starter set is there on
//! day one; an account solves one and fails another and sees both ratings move, each puzzle
//! counts once; the server judges the moves, not the client's word; a guest solves unrated;
//! the day's puzzle is the day's; a player's history lists their attempts.

use crate::common::*;
use jungle_protocol::puzzles::{PuzzleHistory, PuzzleResult, PuzzleThemes, PuzzleView};
use serde_json::{json, Value};

/// The next puzzle for `token` (the starter set loads in the background: waited for).
async fn next(server: &TestServer, token: &str, query: &str) -> PuzzleView {
    for _ in 0..100 {
        let response = reqwest::Client::new()
            .get(server.url(&format!("/api/puzzles/next{query}")))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        if response.status().as_u16() == 200 {
            return response.json().await.unwrap();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no puzzle offered");
}

async fn attempt(server: &TestServer, token: &str, id: &str, body: Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(server.url(&format!("/api/puzzles/{id}/attempt")))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    (
        response.status().as_u16(),
        response.json().await.unwrap_or(Value::Null),
    )
}

/// The solver's moves of a puzzle: every other move of the line.
fn solver_moves(puzzle: &PuzzleView) -> Vec<String> {
    puzzle.solution.iter().step_by(2).cloned().collect()
}

async fn puzzles_are_solved_and_failed_and_both_ratings_move(db: Db) {
    let server = TestServer::start(db).await;
    let solver = server.account("Puzzler").await;
    let first = next(&server, &solver.token, "?rules=classic").await;
    assert_eq!(first.rules, Ruleset::Classic);
    assert_eq!(first.solution.len() % 2, 1);
    // Solved: the player's rating rises and the puzzle's falls.
    let (status, body) = attempt(
        &server,
        &solver.token,
        &first.id,
        json!({ "moves": solver_moves(&first), "win": true }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let solved: PuzzleResult = serde_json::from_value(body).unwrap();
    assert!(solved.win && solved.rated, "{solved:?}");
    assert!(solved.change > 0 && solved.rating > 1500, "{solved:?}");
    assert!(
        solved.puzzle_rating < first.rating,
        "{solved:?} {}",
        first.rating
    );
    // Once only: trying it again counts for nothing.
    let (_, again) = attempt(
        &server,
        &solver.token,
        &first.id,
        json!({ "moves": solver_moves(&first), "win": true }),
    )
    .await;
    assert_eq!(
        (again["rated"].as_bool(), again["change"].as_i64()),
        (Some(false), Some(0))
    );
    // Another, not the same one; failed: the moves decide, not the client's word.
    let second = next(&server, &solver.token, "?rules=classic").await;
    assert_ne!(second.id, first.id);
    let (_, body) = attempt(
        &server,
        &solver.token,
        &second.id,
        json!({ "moves": ["a1a1"], "win": true }),
    )
    .await;
    let failed: PuzzleResult = serde_json::from_value(body).unwrap();
    assert!(!failed.win && failed.rated, "{failed:?}");
    assert!(
        failed.change < 0 && failed.puzzle_rating > second.rating,
        "{failed:?}"
    );
    // The history lists both, newest first, with the ratings after each.
    let history: PuzzleHistory = server
        .get(&format!("/api/players/{}/puzzles", solver.id))
        .await;
    assert_eq!(history.attempts.len(), 2);
    assert_eq!(history.attempts[0].puzzle, second.id);
    assert!(!history.attempts[0].win && history.attempts[1].win);
    assert_eq!(history.ratings.len(), 1);
    assert_eq!(
        (history.ratings[0].attempts, history.ratings[0].wins),
        (2, 1)
    );
    assert_eq!(history.ratings[0].rating, failed.rating);

    // A guest solves, unrated.
    let guest = server.player("Guest puzzler").await;
    let theirs = next(&server, &guest.token, "?rules=strict").await;
    assert_eq!(theirs.rules, Ruleset::Strict);
    let (_, body) = attempt(
        &server,
        &guest.token,
        &theirs.id,
        json!({ "moves": solver_moves(&theirs), "win": true }),
    )
    .await;
    assert_eq!(
        (body["win"].as_bool(), body["rated"].as_bool()),
        (Some(true), Some(false))
    );

    // The day's puzzle is the same all day; by id, it is itself.
    let daily: PuzzleView = server.get("/api/puzzles/daily").await;
    let again: PuzzleView = server.get("/api/puzzles/daily").await;
    assert_eq!(daily.id, again.id);
    let by_id: PuzzleView = server.get(&format!("/api/puzzles/{}", daily.id)).await;
    assert_eq!(by_id, daily);

    // Refusals change nothing.
    assert_eq!(server.get_status("/api/puzzles/nosuchid").await.0, 404);
    assert_eq!(
        server.get_status("/api/puzzles/next?theme=sorcery").await.0,
        400
    );
    assert_eq!(
        server.get_status("/api/puzzles/next?rules=chess").await.0,
        400
    );
    let (status, _) = attempt(
        &server,
        &solver.token,
        &first.id,
        json!({ "moves": "a3a4" }),
    )
    .await;
    assert_eq!(status, 400);
    let many: Vec<String> = (0..40).map(|_| "a3a4".to_owned()).collect();
    let (status, _) = attempt(
        &server,
        &solver.token,
        &second.id,
        json!({ "moves": many, "win": true }),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = attempt(
        &server,
        "not-a-token",
        &first.id,
        json!({ "moves": [], "win": false }),
    )
    .await;
    assert_eq!(status, 401);
    // Moves past the line are no answer: refused, not passed over.
    let mut past = solver_moves(&second);
    past.push("a1a2".into());
    let (status, _) = attempt(
        &server,
        &solver.token,
        &second.id,
        json!({ "moves": past, "win": true }),
    )
    .await;
    assert_eq!(status, 400);
    server.shutdown().await;
}

both_stores!(puzzles_are_solved_and_failed_and_both_ratings_move);

/// What is no answer spends nothing: text that is no move, a body over the bound and a page
/// of another site are refused, and the player's first try still counts afterwards. And the
/// puzzles offered are any of those near the player's rating, not the same few for everyone.
async fn bad_attempts_spend_nothing_and_offers_vary(db: Db) {
    let server = TestServer::start(db).await;
    let solver = server.account("Careful").await;
    let puzzle = next(&server, &solver.token, "?rules=classic").await;
    for not_a_move in ["zz", "ａ1a2", "');--", "pass"] {
        let (status, body) = attempt(
            &server,
            &solver.token,
            &puzzle.id,
            json!({ "moves": [not_a_move], "win": true }),
        )
        .await;
        assert_eq!(status, 400, "{not_a_move}: {body}");
        assert_eq!(body["code"], "bad_request", "{body}");
    }
    let huge = "a".repeat(8 * 1024);
    let (status, body) = attempt(
        &server,
        &solver.token,
        &puzzle.id,
        json!({ "moves": [huge], "win": true }),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (413, Some("too_large")),
        "{body}"
    );
    let foreign = reqwest::Client::new()
        .post(server.url(&format!("/api/puzzles/{}/attempt", puzzle.id)))
        .bearer_auth(&solver.token)
        .header("Origin", "http://evil.example")
        .json(&json!({ "moves": solver_moves(&puzzle), "win": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status().as_u16(), 403);
    // None of those was a try: the real one is rated.
    let (status, body) = attempt(
        &server,
        &solver.token,
        &puzzle.id,
        json!({ "moves": solver_moves(&puzzle), "win": true }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let solved: PuzzleResult = serde_json::from_value(body).unwrap();
    assert!(solved.rated && solved.change > 0, "{solved:?}");

    // Offers: a browsing player who tries none is shown many different ones.
    let browser = server.account("Browser").await;
    let mut seen = std::collections::HashSet::new();
    for _ in 0..45 {
        seen.insert(next(&server, &browser.token, "?rules=classic").await.id);
    }
    // (About 30 expected from the some fifty classic puzzles shipped: drawn alike, some twice.)
    assert!(
        seen.len() > 20,
        "only {} different puzzles in 45",
        seen.len()
    );
    server.shutdown().await;
}

both_stores!(bad_attempts_spend_nothing_and_offers_vary);

/// A puzzle is the engine's word on each of its positions: while a game stands on one (one
/// against our computer started from the puzzle's board, found cold), the puzzle is neither
/// shown nor judged; once the game ends it is again.
async fn a_puzzle_standing_in_a_live_game_is_not_shown(db: Db) {
    let server = TestServer::start(db).await;
    let solver = server.player("Solver").await;
    let puzzle = next(&server, &solver.token, "?rules=classic").await;
    let mut board: jungle_rules::Game = jungle_rules::Game::new(
        Ruleset::Classic.rules(),
        puzzle.position.parse().expect("the puzzle's position"),
    );
    board
        .play(puzzle.blunder.parse().expect("the blunder"))
        .expect("a legal blunder");
    let (mut player, game) = computer_game_from(&server, "Board copier", &board).await;
    let by_id = reqwest::Client::new()
        .get(server.url(&format!("/api/puzzles/{}", puzzle.id)))
        .bearer_auth(&solver.token)
        .send()
        .await
        .unwrap();
    assert_eq!(by_id.status().as_u16(), 409);
    let body: Value = by_id.json().await.unwrap();
    assert_eq!(body["code"], "puzzle_in_play", "{body}");
    assert!(body.get("solution").is_none(), "{body}");
    assert_eq!(solve(&server, &solver, &puzzle).await, (409, None));
    player.send(ClientFrame::Resign { game }).await;
    player.expect_over().await;

    // Where the opponent is to reply, the line's next move is the engine's best defence:
    // the same (found cold: the day's puzzle read the computer's best reply for a player
    // whose game against it stood there).
    board
        .play(puzzle.solution[0].parse().expect("the solver's move"))
        .expect("a legal move");
    let (mut other, game) = computer_game_from(&server, "Reply reader", &board).await;
    assert_eq!(solve(&server, &solver, &puzzle).await, (409, None));
    other.send(ClientFrame::Resign { game }).await;
    other.expect_over().await;

    // A casual private room from that board, the computer given the free seat: the same game
    // as the computer's own, and the same answer.
    let mut host = server.client(&server.player("Room host").await).await;
    host.send(ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock: fischer(300, 3),
        rated: false,
        color: ColorChoice::Red,
        position: Some(board.position().to_string()),
    })
    .await;
    let game = expect_frame!(host, ServerFrame::Room { game, .. } => game);
    host.send(ClientFrame::AddComputer { game, level: 1 }).await;
    expect_frame!(host, ServerFrame::Game(s) if s.status == GameStatus::Active);
    assert_eq!(solve(&server, &solver, &puzzle).await, (409, None));
    host.send(ClientFrame::Resign { game }).await;
    host.expect_over().await;
    assert_eq!(solve(&server, &solver, &puzzle).await, (200, Some(true)));
    server.shutdown().await;
}

/// A new player's game against the computer from `board`.
async fn computer_game_from(
    server: &TestServer,
    name: &str,
    board: &jungle_rules::Game,
) -> (Client, Uuid) {
    let mut player = server.client(&server.player(name).await).await;
    let position = board.position().to_string();
    player
        .send(computer_from(&position, 1, ColorChoice::Red))
        .await;
    let game = player.expect_game().await.game;
    (player, game)
}

/// `solver` attempts `puzzle` with its solution: the status, and whether it was a win (none
/// when refused, with the refusal's code checked to be `puzzle_in_play`).
async fn solve(server: &TestServer, solver: &Player, puzzle: &PuzzleView) -> (u16, Option<bool>) {
    let (status, body) = attempt(
        server,
        &solver.token,
        &puzzle.id,
        json!({ "moves": solver_moves(puzzle), "win": true }),
    )
    .await;
    if status == 409 {
        assert_eq!(body["code"], "puzzle_in_play", "{body}");
    }
    (status, body["win"].as_bool())
}

both_stores!(a_puzzle_standing_in_a_live_game_is_not_shown);

/// The theme counts a page filters by (issue 53) count the puzzles dealt: each is a den entry
/// or wins material, and a theme counted is one the next puzzle of that theme has.
async fn theme_counts_count_what_a_filter_deals(db: Db) {
    let server = TestServer::start(db).await;
    let solver = server.account("Themer").await;
    next(&server, &solver.token, "?rules=strict").await;
    let counts: PuzzleThemes = server.get("/api/puzzles/themes?rules=strict").await;
    assert_eq!(counts.rules, Ruleset::Strict);
    assert!(counts.total > 20, "{counts:?}");
    let count = |name: &str| {
        counts
            .themes
            .iter()
            .find(|c| c.theme == name)
            .map_or(0, |c| c.count)
    };
    let dens: u64 = ["den1", "den2", "den3", "denLong"].map(count).iter().sum();
    assert_eq!(dens + count("material"), counts.total, "{counts:?}");
    assert!(
        dens * 5 >= counts.total,
        "den entries on a fifth at least: {counts:?}"
    );
    for theme in &counts.themes {
        assert!(theme.count > 0 && theme.count <= counts.total, "{counts:?}");
    }
    let rarest = counts
        .themes
        .iter()
        .min_by_key(|c| c.count)
        .expect("some theme");
    let found = next(
        &server,
        &solver.token,
        &format!("?rules=strict&theme={}", rarest.theme),
    )
    .await;
    assert!(found.themes.contains(&rarest.theme), "{found:?}");
    assert_eq!(
        server.get_status("/api/puzzles/themes?rules=chess").await.0,
        400
    );
    // A long name is not sent back whole.
    let long = "x".repeat(4_000);
    let (status, message) = server
        .get_status(&format!("/api/puzzles/themes?rules={long}"))
        .await;
    assert_eq!(status, 400);
    let message = message.expect("a message");
    assert!(message.len() < 200, "{message}");
}

both_stores!(theme_counts_count_what_a_filter_deals);
