//! Game review (issue 13): games download as JGN text that reads back to the same game, one
//! at a time or all of a player's.

use crate::common::*;
use jungle_rules::{GameResult, GameText};

async fn text_of(server: &TestServer, path: &str) -> (u16, String, Option<String>) {
    let response = reqwest::get(server.url(path)).await.expect("GET");
    let status = response.status().as_u16();
    let disposition = response
        .headers()
        .get("content-disposition")
        .map(|v| v.to_str().unwrap().to_owned());
    (status, response.text().await.unwrap(), disposition)
}

/// The stored game and its downloaded text agree: moves, result, final position.
async fn assert_round_trip(server: &TestServer, game: Uuid) -> GameText {
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    let (status, body, disposition) = text_of(server, &format!("/api/games/{game}.jgn")).await;
    assert_eq!(status, 200);
    assert_eq!(
        disposition.as_deref(),
        Some(format!("attachment; filename=\"jungle-{game}.jgn\"").as_str())
    );
    let text: GameText = body.parse().unwrap_or_else(|e| panic!("{e}\n{body}"));
    let moves: Vec<String> = text.turns.iter().map(|t| t.turn.to_string()).collect();
    assert_eq!(moves, record.moves);
    assert_eq!(text.tag("Rules"), Some(record.rules.name()));
    assert_eq!(text.tag("Red"), Some(record.players.red.name.as_str()));
    let expected = match record.winner {
        Some(Side::Red) => GameResult::RedWon,
        Some(Side::Blue) => GameResult::BlueWon,
        None if record.status == GameStatus::Finished => GameResult::Draw,
        None => GameResult::Unknown,
    };
    assert_eq!(text.result, expected);
    assert_eq!(text.tag("Termination"), record.reason.map(Reason::name));
    let replayed = text.replay().expect("the text replays");
    let archived = jungle_rules::Game::replay(
        record.rules.rules(),
        record.start.parse().unwrap(),
        record.moves.iter().map(|m| m.parse().unwrap()),
    )
    .unwrap();
    assert_eq!(replayed.position(), archived.position());
    text
}

async fn games_download_as_text_that_reads_back(db: Db) {
    let server = TestServer::start(db).await;
    // A per-move game: Red lets a turn run out (a pass), then the second timeout loses.
    let clock = ClockSpec::PerMove {
        move_s: 1,
        max_timeouts: 1,
        consecutive: false,
    };
    let (mut red, mut blue, game) =
        matched_pair(&server, seek(Ruleset::Daitou, clock, false)).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    expect_frame!(blue, ServerFrame::Moved { mv, .. } if mv == "pass");
    blue.mv(game, "a6a5").await;
    red.expect_over().await;
    let text = assert_round_trip(&server, game).await;
    assert!(text
        .turns
        .iter()
        .any(|t| t.turn == jungle_rules::Turn::Pass));
    assert_eq!(text.tag("TimeControl"), Some("1/move,1"));
    assert!(text.turns[0].clock_ms.is_some(), "clocks ride along");

    // A den win in every other ruleset, by the same players.
    let mut games = vec![game];
    for rules in [Ruleset::Classic, Ruleset::Strict, Ruleset::International] {
        red.send(seek(rules, fischer(300, 2), false)).await;
        blue.send(seek(rules, fischer(300, 2), false)).await;
        let (a, b) = (red.expect_game().await, blue.expect_game().await);
        assert_eq!(a.game, b.game);
        let (r, bl) = if a.you == Some(Side::Red) {
            (&mut red, &mut blue)
        } else {
            (&mut blue, &mut red)
        };
        play(r, bl, a.game, &DEN_WIN_AT_PLY_13).await;
        r.expect_over().await;
        let text = assert_round_trip(&server, a.game).await;
        assert_eq!(text.tag("Termination"), Some("den"));
        assert_eq!(text.tag("TimeControl"), Some("300+2"));
        games.push(a.game);
    }

    // All of a player's games in one file, newest first.
    let player = red.player_id();
    let (status, body, _) = text_of(&server, &format!("/api/players/{player}/games.jgn")).await;
    assert_eq!(status, 200);
    let texts: Vec<GameText> = body
        .split("\n\n[Event")
        .enumerate()
        .map(|(i, part)| {
            let part = if i == 0 {
                part.to_owned()
            } else {
                format!("[Event{part}")
            };
            part.parse().unwrap()
        })
        .collect();
    assert_eq!(texts.len(), games.len());
    let sites: Vec<String> = texts
        .iter()
        .map(|t| t.tag("Site").unwrap().to_owned())
        .collect();
    let newest_first: Vec<String> = games
        .iter()
        .rev()
        .map(|g| format!("http://{}/g/{g}", server.addr))
        .collect();
    assert_eq!(sites, newest_first);
    assert_eq!(
        text_of(&server, &format!("/api/games/{}.jgn", Uuid::new_v4()))
            .await
            .0,
        404
    );
    assert_eq!(text_of(&server, "/api/games/nonsense.jgn").await.0, 404);
    server.shutdown().await;
}

async fn the_engine_analyses_any_position_on_request(db: Db) {
    let server = TestServer::start(db).await;
    let player = server.player("Student").await;
    let mut c = server.client(&player).await;
    // A den entry in one: found, and called so.
    c.send(ClientFrame::Analyse {
        rules: Ruleset::International,
        position: Some("2e4/3L3/7/7/7/7/7/7/7 r 0 30".into()),
        moves: vec![],
    })
    .await;
    let (best, score, pv, depth) = expect_frame!(c, ServerFrame::Analysis { best, score, pv, depth, .. } => (best, score, pv, depth));
    assert_eq!(best.as_deref(), Some("d8d9"));
    assert_eq!(score, Some(jungle_protocol::EngineScore::DenIn(1)));
    assert_eq!(pv.first().map(String::as_str), Some("d8d9"));
    assert!(depth >= 1);
    // After moves from the start: a material score, the position analysed named.
    c.send(ClientFrame::Analyse {
        rules: Ruleset::Classic,
        position: None,
        moves: vec!["e3d3".into(), "a9b9".into()],
    })
    .await;
    let (position, score) =
        expect_frame!(c, ServerFrame::Analysis { position, score, .. } => (position, score));
    assert!(
        matches!(score, Some(jungle_protocol::EngineScore::Cp(_))),
        "{score:?}"
    );
    assert!(
        position.contains(" r "),
        "Red to move after two turns: {position}"
    );
    // A finished position has nothing to analyse; bad input changes nothing.
    c.send(ClientFrame::Analyse {
        rules: Ruleset::International,
        position: Some("2eL3/7/7/7/7/7/7/7/7 b 1 30".into()),
        moves: vec![],
    })
    .await;
    let best = expect_frame!(c, ServerFrame::Analysis { best, .. } => best);
    assert_eq!(best, None);
    c.send(ClientFrame::Analyse {
        rules: Ruleset::Classic,
        position: None,
        moves: vec!["e3e9".into()],
    })
    .await;
    let message = c.expect_error(ErrorCode::BadPosition).await;
    assert!(message.starts_with("move 1 (\"e3e9\")"), "{message}");
    c.send(ClientFrame::Analyse {
        rules: Ruleset::Classic,
        position: Some("not a position".into()),
        moves: vec![],
    })
    .await;
    c.expect_error(ErrorCode::BadPosition).await;
    server.shutdown().await;
}

async fn lines_and_imports_are_laid_out_by_the_server(db: Db) {
    let server = TestServer::start(db).await;
    let client = reqwest::Client::new();
    let post =
        |path: &str, body: serde_json::Value| client.post(server.url(path)).json(&body).send();
    let answer = post(
        "/api/lines",
        serde_json::json!({ "rules": "classic", "moves": ["e3d3", "a9b9", "d3d4"] }),
    )
    .await
    .unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let line: http::Line = answer.json().await.unwrap();
    assert_eq!(line.positions.len(), 3);
    assert_eq!(line.captures, vec![None, None, None]);
    assert!(!line.legal.is_empty());
    assert_eq!(line.outcome, None);
    let answer = post(
        "/api/lines",
        serde_json::json!({ "rules": "classic", "moves": ["e3d3", "e3d3"] }),
    )
    .await
    .unwrap();
    assert_eq!(answer.status().as_u16(), 400);
    let refusal: http::AccountError = answer.json().await.unwrap();
    assert_eq!(refusal.error, "bad_move");
    assert!(
        refusal.message.starts_with("move 2 (e3d3)"),
        "{}",
        refusal.message
    );

    // An imported text: the same game, its tags and result; a bad text says where.
    let text = "[Rules \"international\"]\n[FEN \"2e4/3L3/7/7/7/7/7/7/7 r 0 30\"]\n[Red \"Ada\"]\n\n1. d8d9 1-0";
    let answer = post("/api/games/import", serde_json::json!({ "text": text }))
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let line: http::Line = answer.json().await.unwrap();
    assert_eq!(line.rules, Ruleset::International);
    assert_eq!(line.moves, ["d8d9"]);
    assert_eq!(
        line.outcome.as_ref().map(|o| o.reason.as_str()),
        Some("den")
    );
    assert_eq!(line.result.as_deref(), Some("1-0"));
    assert!(line.tags.contains(&("Red".to_owned(), "Ada".to_owned())));
    let answer = post(
        "/api/games/import",
        serde_json::json!({ "text": "1. e3d3 x9" }),
    )
    .await
    .unwrap();
    let refusal: http::AccountError = answer.json().await.unwrap();
    assert_eq!(refusal.error, "bad_text");
    assert!(
        refusal.message.starts_with("line 1, column 9"),
        "{}",
        refusal.message
    );
    // Too large to read.
    let huge = "1. e3d3 a9b9 ".repeat(6000);
    let answer = post("/api/games/import", serde_json::json!({ "text": huge }))
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 413);
    server.shutdown().await;
}

async fn a_whole_game_is_evaluated_once_and_kept(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) =
        matched_pair(&server, seek(Ruleset::Classic, fischer(300, 2), false)).await;
    // Not while it is in play: its players get no engine at all (fair play), anyone else is
    // told it is not over.
    red.send(ClientFrame::AnalyseGame { game }).await;
    red.expect_error(ErrorCode::AnalysisUnavailable).await;
    let mut watcher = server.client(&server.player("Watcher").await).await;
    watcher.send(ClientFrame::AnalyseGame { game }).await;
    watcher.expect_error(ErrorCode::GameNotStarted).await;
    play(&mut red, &mut blue, game, &DEN_WIN_AT_PLY_13).await;
    red.expect_over().await;
    red.send(ClientFrame::AnalyseGame { game }).await;
    // A second request while it runs is refused, not queued.
    red.send(ClientFrame::AnalyseGame { game }).await;
    red.expect_error(ErrorCode::LimitReached).await;
    let (evals, marks) = expect_frame!(red, ServerFrame::GameAnalysis { game: g, evals, marks } if g == game => (evals, marks));
    assert_eq!(evals.len(), 14, "the start and each of 13 turns");
    assert_eq!(marks.len(), 13);
    use jungle_protocol::EngineScore;
    assert_eq!(evals[13], Some(EngineScore::DenIn(1)), "Red has won");
    assert_eq!(
        evals[12],
        Some(EngineScore::DenIn(1)),
        "one step from the den, Red to move"
    );
    // Blue's last turns let Red walk in: at least one is marked.
    assert!(
        marks.iter().skip(1).step_by(2).any(Option::is_some),
        "{marks:?}"
    );
    // Kept: anyone asking again gets it at once, the same.
    blue.send(ClientFrame::AnalyseGame { game }).await;
    let again = expect_frame!(blue, ServerFrame::GameAnalysis { evals, .. } => evals);
    assert_eq!(again, evals);
    server.shutdown().await;
}

async fn games_start_from_a_set_up_position(db: Db) {
    let mut server = TestServer::start(db).await;
    let setup = "2e4/3L3/7/7/7/7/7/7/7 r 0 30";
    let host = server.player("Setter").await;
    let mut h = server.client(&host).await;
    let room = |position: &str, rated: bool| ClientFrame::CreateRoom {
        rules: Ruleset::International,
        clock: fischer(300, 0),
        rated,
        color: ColorChoice::Red,
        position: Some(position.to_owned()),
    };
    // Refused: rated, over before it begins, or breaking a rule of placement.
    h.send(room(setup, true)).await;
    h.expect_error(ErrorCode::BadPosition).await;
    h.send(room("2eL3/7/7/7/7/7/7/7/7 b 1 30", false)).await;
    h.expect_error(ErrorCode::BadPosition).await;
    h.send(room("2e4/3L3/7/7/7/7/7/7/L6 r 0 30", false)).await;
    let message = h.expect_error(ErrorCode::BadPosition).await;
    assert!(message.starts_with("position: "), "{message}");
    // A room from the set-up position survives a restart, and its game starts there.
    h.send(room(setup, false)).await;
    let code = expect_frame!(h, ServerFrame::Room { code, .. } => code);
    drop(h);
    server.restart().await;
    let guest = server.player("Guest").await;
    let mut g = server.client(&guest).await;
    g.send(ClientFrame::JoinRoom { code }).await;
    let state =
        expect_frame!(g, ServerFrame::Game(state) if state.status == GameStatus::Active => state);
    assert_eq!(state.start, setup);
    assert_eq!(state.position, setup);
    assert!(!state.rated);
    // Against the computer too.
    let mut again = server.client(&host).await;
    again
        .send(ClientFrame::PlayComputer {
            rules: Ruleset::International,
            clock: fischer(300, 0),
            level: 1,
            color: ColorChoice::Red,
            position: Some(setup.to_owned()),
        })
        .await;
    let state = expect_frame!(again, ServerFrame::Game(state) if state.start == setup => state);
    assert!(state.legal.contains(&"d8d9".to_owned()));
    again.mv(state.game, "d8d9").await;
    let over = again.expect_over().await;
    assert_eq!((over.winner, over.reason), (Some(Side::Red), Reason::Den));
    // Its text carries the position.
    let (_, text, _) = text_of(&server, &format!("/api/games/{}.jgn", state.game)).await;
    let parsed: GameText = text.parse().unwrap();
    assert_eq!(parsed.tag("FEN"), Some(setup));
    assert_eq!(
        parsed.replay().unwrap().outcome().map(|o| o.winner),
        Some(Some(Side::Red))
    );
    server.shutdown().await;
}

both_stores!(
    games_download_as_text_that_reads_back,
    games_start_from_a_set_up_position,
    a_whole_game_is_evaluated_once_and_kept,
    the_engine_analyses_any_position_on_request,
    lines_and_imports_are_laid_out_by_the_server,
);
