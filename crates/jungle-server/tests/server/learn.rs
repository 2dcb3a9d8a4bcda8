//! Learn to play (issue 29) over HTTP: the catalogue, tries judged by the server, an
//! account's progress (a guest's is not stored), and a practice game against the computer
//! judged from the stored game.

use crate::common::*;
use jungle_protocol::learn::{
    Catalogue, JudgePractice, PracticeVerdict, PracticeView, Progress, Try, TryAnswer, Verdict,
};

async fn attempt(
    addr: std::net::SocketAddr,
    token: Option<&str>,
    exercise: &str,
    moves: &[&str],
) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(format!("http://{addr}/api/learn/try"))
        .json(&Try {
            exercise: exercise.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        });
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

async fn judged(
    addr: std::net::SocketAddr,
    token: Option<&str>,
    exercise: &str,
    moves: &[&str],
) -> TryAnswer {
    let response = attempt(addr, token, exercise, moves).await;
    assert_eq!(response.status(), 200, "{exercise} {moves:?}");
    response.json().await.unwrap()
}

async fn progress(addr: std::net::SocketAddr, token: &str) -> reqwest::Response {
    reqwest::Client::new()
        .get(format!("http://{addr}/api/account/learn"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
}

async fn catalogue(addr: std::net::SocketAddr) -> Catalogue {
    reqwest::get(format!("http://{addr}/api/learn"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn lessons_are_judged_by_the_server(db: Db) {
    let server = TestServer::start(db).await;
    let addr = server.addr;
    let catalogue = catalogue(addr).await;
    assert_eq!(catalogue.chapters.len(), 8);
    let water = catalogue
        .chapters
        .iter()
        .flat_map(|c| &c.lessons)
        .flat_map(|l| &l.exercises)
        .find(|e| e.id == "board-water")
        .expect("the lesson on water");
    let board = water.board.as_ref().unwrap();
    assert_eq!(board.steps, 3);
    // The legal targets come from the server; the answer does not.
    assert!(board.legal.contains(&"c3b3".to_owned()));
    assert!(
        !board.legal.contains(&"c3c4".to_owned()),
        "the dog cannot swim"
    );
    let shown = serde_json::to_string(&catalogue).unwrap();
    assert!(!shown.contains("\"accept\""), "no answers in the catalogue");

    // A guest walks the dog around the river: a wrong move, an illegal one, then the path.
    let guest = create_player(addr, "Learner").await;
    let token = Some(guest.token.as_str());
    let wrong = judged(addr, token, "board-water", &["c3d3"]).await;
    assert_eq!(wrong.verdict, Verdict::Wrong);
    assert!(wrong.hint.is_some());
    assert_eq!(wrong.position, board.position, "a wrong move is taken back");
    let illegal = judged(addr, token, "board-water", &["c3c4"]).await;
    assert_eq!(illegal.verdict, Verdict::Illegal);
    let on = judged(addr, token, "board-water", &["c3b3"]).await;
    assert_eq!(on.verdict, Verdict::Continue);
    assert_eq!(on.reply.as_deref(), Some("g9g8"));
    assert!(on.legal.contains(&"b3a3".to_owned()));
    let done = judged(addr, token, "board-water", &["c3b3", "b3a3", "a3a4"]).await;
    assert_eq!(done.verdict, Verdict::Done);
    assert!(!done.recorded, "a guest's progress stays in the browser");
    // Bad input changes nothing and says why.
    for (exercise, moves, status) in [
        ("board-water", vec!["c3b3", "b3a3", "a3a4", "a4a5"], 400),
        ("board-water", vec![], 400),
        ("board-water", vec!["nonsense"], 400),
        ("no-such-exercise", vec!["c3b3"], 404),
    ] {
        let response = attempt(addr, token, exercise, &moves).await;
        assert_eq!(response.status(), status, "{exercise} {moves:?}");
    }

    // An account's progress is stored, once per exercise, and in the export.
    let ada = create_account(addr, "Ada").await;
    let mine = Some(ada.token.as_str());
    let done = judged(addr, mine, "captures-lower", &["a5a6"]).await;
    assert_eq!(done.verdict, Verdict::Done);
    assert!(done.recorded);
    judged(addr, mine, "captures-lower", &["a5a6"]).await;
    let read = judged(addr, mine, "board-read", &[]).await;
    assert_eq!(
        read.verdict,
        Verdict::Done,
        "a reading card is done once read"
    );
    let stored: Progress = progress(addr, &ada.token).await.json().await.unwrap();
    assert_eq!(stored.done, ["captures-lower", "board-read"]);
    // A guest's progress brought in: known ids only.
    let brought = reqwest::Client::new()
        .post(format!("http://{addr}/api/account/learn"))
        .bearer_auth(&ada.token)
        .json(&Progress {
            done: vec!["board-water".into(), "made-up".into()],
        })
        .send()
        .await
        .unwrap();
    assert_eq!(brought.status(), 400);
    let brought: Progress = reqwest::Client::new()
        .post(format!("http://{addr}/api/account/learn"))
        .bearer_auth(&ada.token)
        .json(&Progress {
            done: vec!["board-water".into(), "captures-lower".into()],
        })
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(brought.done.len(), 3);
    assert_eq!(
        progress(addr, &guest.token).await.status(),
        400,
        "accounts only"
    );
    let export: http::AccountExport = reqwest::Client::new()
        .get(format!("http://{addr}/api/account/export"))
        .bearer_auth(&ada.token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(export.learn.len(), 3);
    server.shutdown().await;
}

async fn a_practice_game_is_judged_from_the_stored_game(db: Db) {
    let server = TestServer::start(db).await;
    let addr = server.addr;
    let practice = catalogue(addr)
        .await
        .chapters
        .iter()
        .flat_map(|c| &c.practice)
        .find(|p| p.id == "practice-den")
        .expect("the den practice")
        .clone();
    let ada = create_account(addr, "Ada").await;
    let mut c = signed_in_client(addr, &ada).await;
    let game = start_practice(&mut c, &practice).await;
    // Another learner plays the same practice meanwhile: a lesson's position is everyone's.
    let eve = create_account(addr, "Eve").await;
    let mut e = signed_in_client(addr, &eve).await;
    assert_ne!(
        start_practice(&mut e, &practice).await,
        game,
        "a game of Eve's own"
    );
    let judge = |token: String, game| async move {
        reqwest::Client::new()
            .post(format!(
                "http://{addr}/api/learn/practice/practice-den/judge"
            ))
            .bearer_auth(token)
            .json(&JudgePractice { game })
            .send()
            .await
            .unwrap()
    };
    // Not reached yet.
    let verdict: PracticeVerdict = judge(ada.token.clone(), game).await.json().await.unwrap();
    assert!(!verdict.reached);
    // The lion walks up the d-file. It must cross the trap on d8, where Blue's cat, if it came
    // to e8 in time, takes it (the computer's level-1 play is random enough to do it now and
    // then): then Ada resigns and plays the practice again, a few times at most.
    let mut game = game;
    let mut attempts = 0;
    while !lion_walks_in(&mut c, game).await {
        attempts += 1;
        assert!(
            attempts < 6,
            "the cat took the lion in {attempts} games running"
        );
        c.send(ClientFrame::Resign { game }).await;
        c.expect_over().await;
        game = start_practice(&mut c, &practice).await;
    }
    let verdict: PracticeVerdict = judge(ada.token.clone(), game).await.json().await.unwrap();
    assert_eq!(verdict.moves, Some(4));
    assert!(verdict.reached && verdict.recorded);
    let stored: Progress = progress(addr, &ada.token).await.json().await.unwrap();
    assert_eq!(stored.done, ["practice-den"]);
    // Someone else's game, or another practice's, is not judged.
    let bob = create_account(addr, "Bob").await;
    assert_eq!(judge(bob.token.clone(), game).await.status(), 400);
    let other = reqwest::Client::new()
        .post(format!(
            "http://{addr}/api/learn/practice/practice-win/judge"
        ))
        .bearer_auth(&ada.token)
        .json(&JudgePractice { game })
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 400);
    server.shutdown().await;
}

/// Starts a practice game against the computer (level 1, as the client does), as Red.
async fn start_practice(c: &mut Client, practice: &PracticeView) -> Uuid {
    c.send(ClientFrame::PlayComputer {
        rules: practice.rules,
        clock: fischer(600, 5),
        level: 1,
        color: ColorChoice::Red,
        position: Some(practice.position.clone()),
    })
    .await;
    c.expect_game().await.game
}

/// Plays the lion up the d-file into the den; false if the computer took it on the way.
async fn lion_walks_in(c: &mut Client, game: Uuid) -> bool {
    for mv in ["d5d6", "d6d7", "d7d8", "d8d9"] {
        c.mv(game, mv).await;
        let (played, _) = c.expect_moved().await;
        assert_eq!(played, mv);
        if mv == "d8d9" {
            return true;
        }
        let captured = expect_frame!(c, ServerFrame::Moved { captured, .. } => captured);
        if captured.is_some() {
            return false;
        }
    }
    unreachable!("the line ends in the den")
}

both_stores!(
    lessons_are_judged_by_the_server,
    a_practice_game_is_judged_from_the_stored_game
);
