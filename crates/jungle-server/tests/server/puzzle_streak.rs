//! Puzzle Streak over the API (issue 51), black-box on both stores: puzzles of rising
//! difficulty until the first mistake; the server judges each answer; an answer sent twice
//! counts once; the best score is kept; bad requests change nothing.

use crate::common::*;
use jungle_protocol::puzzles::{PuzzleView, StreakView};
use serde_json::{json, Value};

async fn call(
    server: &TestServer,
    token: &str,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .request(method, server.url(path))
        .bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    (
        response.status().as_u16(),
        response.json().await.unwrap_or(Value::Null),
    )
}

/// A new streak (the starter set loads in the background: waited for).
async fn start(server: &TestServer, token: &str) -> StreakView {
    for _ in 0..100 {
        let (status, body) = call(
            server,
            token,
            reqwest::Method::POST,
            "/api/puzzles/streak?rules=classic",
            None,
        )
        .await;
        if status == 200 {
            return serde_json::from_value(body).unwrap();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no streak started");
}

async fn answer(server: &TestServer, token: &str, puzzle: &str, moves: &[String]) -> (u16, Value) {
    call(
        server,
        token,
        reqwest::Method::POST,
        "/api/puzzles/streak/answer",
        Some(json!({ "puzzle": puzzle, "moves": moves })),
    )
    .await
}

fn solver_moves(puzzle: &PuzzleView) -> Vec<String> {
    puzzle.solution.iter().step_by(2).cloned().collect()
}

/// A legal move of the solver's that is not the solution's first: the first of the other
/// moves `/api/lines` lists after the blunder that does not win at once.
async fn wrong_move(server: &TestServer, puzzle: &PuzzleView) -> String {
    let line: Value = reqwest::Client::new()
        .post(server.url("/api/lines"))
        .json(&json!({ "rules": "classic", "start": puzzle.position, "moves": [puzzle.blunder] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for candidate in line["legal"].as_array().unwrap() {
        let candidate = candidate.as_str().unwrap();
        if candidate == puzzle.solution[0] {
            continue;
        }
        let after: Value = reqwest::Client::new()
            .post(server.url("/api/lines"))
            .json(&json!({ "rules": "classic", "start": puzzle.position, "moves": [puzzle.blunder, candidate] }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if after["outcome"]["winner"] != json!(puzzle.solver) {
            return candidate.to_owned();
        }
    }
    panic!("no wrong move in {}", puzzle.id);
}

async fn a_streak_climbs_until_the_first_mistake_and_keeps_the_best(db: Db) {
    let server = TestServer::start(db).await;
    let guest = server.player("Streaker").await;
    let token = guest.token.as_str();
    let mut view = start(&server, token).await;
    assert_eq!((view.score, view.best, view.over), (0, 0, false));
    let mut seen = Vec::new();
    for solved in 1..=3 {
        let puzzle = view.puzzle.clone().expect("a puzzle to solve");
        if let Some(last) = seen.last() {
            let last: &PuzzleView = last;
            assert!(
                puzzle.rating >= last.rating,
                "rising: {} after {}",
                puzzle.rating,
                last.rating
            );
        }
        assert!(
            seen.iter().all(|p: &PuzzleView| p.id != puzzle.id),
            "never the same puzzle twice"
        );
        let (status, body) = answer(&server, token, &puzzle.id, &solver_moves(&puzzle)).await;
        assert_eq!(status, 200, "{body}");
        view = serde_json::from_value(body).unwrap();
        assert_eq!((view.score, view.over), (solved, false));
        // Sent twice (a retried request): counted once, the streak as it stands.
        let (status, again) = answer(&server, token, &puzzle.id, &solver_moves(&puzzle)).await;
        assert_eq!(status, 200);
        assert_eq!(
            serde_json::from_value::<StreakView>(again).unwrap().score,
            solved
        );
        seen.push(puzzle);
    }
    // A reload finds the streak where it was.
    let (_, body) = call(
        &server,
        token,
        reqwest::Method::GET,
        "/api/puzzles/streak?rules=classic",
        None,
    )
    .await;
    let reloaded: StreakView = serde_json::from_value(body).unwrap();
    assert_eq!(
        (reloaded.score, reloaded.puzzle.as_ref().map(|p| &p.id)),
        (3, view.puzzle.as_ref().map(|p| &p.id))
    );
    // Bad answers change nothing.
    let puzzle = view.puzzle.clone().unwrap();
    for bad in [
        json!({ "puzzle": puzzle.id, "moves": "a3a4" }),
        json!({ "puzzle": puzzle.id, "moves": ["zz99"] }),
    ] {
        let (status, _) = call(
            &server,
            token,
            reqwest::Method::POST,
            "/api/puzzles/streak/answer",
            Some(bad),
        )
        .await;
        assert_eq!(status, 400);
    }
    let (status, _) = answer(&server, token, &puzzle.id, &[]).await;
    assert_eq!(status, 400, "no moves is no answer");
    let (status, _) = answer(&server, "not-a-token", &puzzle.id, &solver_moves(&puzzle)).await;
    assert_eq!(status, 401);
    let (status, _) = reqwest::Client::new()
        .post(server.url("/api/puzzles/streak/answer"))
        .bearer_auth(token)
        .header("Origin", "http://evil.example")
        .json(&json!({ "puzzle": puzzle.id, "moves": solver_moves(&puzzle) }))
        .send()
        .await
        .map(|r| (r.status().as_u16(), ()))
        .unwrap();
    assert_eq!(status, 403);
    // The first mistake ends it: the score stands as the best.
    let wrong = wrong_move(&server, &puzzle).await;
    let (status, body) = answer(&server, token, &puzzle.id, &[wrong]).await;
    assert_eq!(status, 200, "{body}");
    let over: StreakView = serde_json::from_value(body).unwrap();
    assert_eq!(
        (over.score, over.best, over.over, over.puzzle),
        (3, 3, true, None)
    );
    let (status, _) = answer(&server, token, &puzzle.id, &solver_moves(&puzzle)).await;
    assert_eq!(status, 400, "no streak runs any more");
    // A worse streak later keeps the best.
    let fresh = start(&server, token).await;
    assert_eq!((fresh.score, fresh.best), (0, 3));
    let first = fresh.puzzle.unwrap();
    let wrong = wrong_move(&server, &first).await;
    let (_, body) = answer(&server, token, &first.id, &[wrong]).await;
    let over: StreakView = serde_json::from_value(body).unwrap();
    assert_eq!((over.score, over.best), (0, 3));
    let (_, body) = call(
        &server,
        token,
        reqwest::Method::GET,
        "/api/puzzles/streak?rules=classic",
        None,
    )
    .await;
    let idle: StreakView = serde_json::from_value(body).unwrap();
    assert_eq!((idle.score, idle.best, idle.puzzle), (0, 3, None));
    server.shutdown().await;
}

both_stores!(a_streak_climbs_until_the_first_mistake_and_keeps_the_best);
