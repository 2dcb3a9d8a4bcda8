//! Fair play (issue 23): while a game is in progress, neither its players nor anyone watching
//! gets our engine's output about its positions, by any path: the `analyse` frame with the
//! game's moves or a pasted, mirrored or colour-swapped position, a computer game from it, the
//! computer's own moves, whole-game analysis of another game through the same positions. A
//! player gets no engine at all while they play. Afterwards everything opens again.
//!
//! Long (about 600 lines): one scenario per way of asking the engine, sharing the live games they
//! set up.

use std::time::Duration;

use crate::common::*;
use jungle_rules::{Game, Position};

/// What the engine answered: the analysis, or the refusal's code.
pub(crate) async fn ask(
    client: &mut Client,
    position: Option<String>,
    moves: &[&str],
) -> Result<(), ErrorCode> {
    client
        .send(ClientFrame::Analyse {
            rules: Ruleset::Classic,
            position,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        })
        .await;
    loop {
        match tokio::time::timeout(WAIT, client.next())
            .await
            .expect("an answer in time")
        {
            Some(ServerFrame::Analysis { .. }) => return Ok(()),
            Some(ServerFrame::Error {
                code, game: None, ..
            }) => return Err(code),
            Some(_) => continue,
            None => panic!("closed while waiting for the engine"),
        }
    }
}

pub(crate) fn after(moves: &[&str]) -> Position {
    let mut game = Game::new(Ruleset::Classic.rules(), Position::start());
    for m in moves {
        game.play(m.parse().unwrap()).unwrap();
    }
    *game.position()
}

/// A position far from any game here: a lone lion each, Red to move.
const QUIET: &str = "6l/7/7/7/7/7/7/7/L6 r 0 20";

const OPENING: [&str; 4] = ["e3d3", "a9b9", "d3d4", "g9f9"];

/// Past the opening (nearness counts from the eighth ply): the opening, then Red's piece on
/// d4 walks on and two more of Blue's step out.
const MIDDLE: [&str; 8] = [
    "e3d3", "a9b9", "d3d4", "g9f9", "d4d5", "a7a6", "d5d6", "g7g6",
];

async fn the_engine_says_nothing_about_a_rated_game_in_progress(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &OPENING).await;
    let live = after(&OPENING);

    // The players: nothing about their game, and nothing at all while they play.
    assert_eq!(
        ask(&mut red, None, &OPENING).await,
        Err(ErrorCode::AnalysisUnavailable)
    );
    assert_eq!(
        ask(&mut blue, Some(live.to_string()), &[]).await,
        Err(ErrorCode::AnalysisUnavailable)
    );
    assert_eq!(
        ask(&mut red, Some(QUIET.into()), &[]).await,
        Err(ErrorCode::AnalysisUnavailable),
        "no engine on any board while playing"
    );
    red.send(ClientFrame::PlayComputer {
        rules: Ruleset::Classic,
        clock: fischer(300, 0),
        level: 8,
        color: ColorChoice::Red,
        position: None,
    })
    .await;
    red.expect_error(ErrorCode::AnalysisUnavailable).await;

    // A spectator (who could pass it on): the position by moves, pasted, mirrored, with the
    // colours swapped, and an earlier one of the game; and no computer game from it.
    let mut spectator = server.client(&server.player("Watcher").await).await;
    spectator.send(ClientFrame::Watch { game }).await;
    spectator.expect_game().await;
    for (what, position, moves) in [
        ("moves", None, &OPENING[..]),
        ("pasted", Some(live.to_string()), &[][..]),
        ("mirrored", Some(live.mirrored().to_string()), &[][..]),
        (
            "colours swapped",
            Some(live.colours_swapped().to_string()),
            &[][..],
        ),
        ("an earlier position", None, &OPENING[..2]),
    ] {
        assert_eq!(
            ask(&mut spectator, position, moves).await,
            Err(ErrorCode::AnalysisUnavailable),
            "{what}"
        );
    }
    spectator
        .send(computer_from(&live.to_string(), 8, ColorChoice::Blue))
        .await;
    spectator.expect_error(ErrorCode::AnalysisUnavailable).await;
    // Someone who is not watching is refused the same: it is the position that is closed.
    let mut stranger = server.client(&server.player("Stranger").await).await;
    assert_eq!(
        ask(&mut stranger, Some(live.to_string()), &[]).await,
        Err(ErrorCode::AnalysisUnavailable)
    );
    // Any other position, and the standard start, are open to them.
    assert_eq!(ask(&mut stranger, Some(QUIET.into()), &[]).await, Ok(()));
    assert_eq!(ask(&mut stranger, None, &[]).await, Ok(()));

    // Over: everything opens, to players and spectators.
    red.send(ClientFrame::Resign { game }).await;
    red.expect_over().await;
    blue.expect_over().await;
    assert_eq!(ask(&mut red, None, &OPENING).await, Ok(()));
    assert_eq!(
        ask(&mut spectator, Some(live.to_string()), &[]).await,
        Ok(())
    );
    assert_eq!(ask(&mut blue, Some(QUIET.into()), &[]).await, Ok(()));
    server.shutdown().await;
}

/// Whole-game analysis of a finished game leaves out the positions another game is passing
/// through now; and a player in a game gets none at all.
async fn whole_game_analysis_leaves_out_live_positions(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    // A finished casual game through the opening.
    let (mut red, mut blue, finished) =
        matched_pair(&server, seek(Ruleset::Classic, fischer(300, 3), false)).await;
    play(&mut red, &mut blue, finished, &OPENING).await;
    red.send(ClientFrame::Resign { game: finished }).await;
    red.expect_over().await;
    blue.expect_over().await;
    // Another game now stands two plies into the same opening.
    let (mut red2, mut blue2, live) = matched_pair(&server, classic_seek()).await;
    play(&mut red2, &mut blue2, live, &OPENING[..2]).await;

    let mut reader = server.client(&server.player("Reader").await).await;
    reader
        .send(ClientFrame::AnalyseGame { game: finished })
        .await;
    let (evals, marks) = expect_frame!(reader, ServerFrame::GameAnalysis { game: g, evals, marks } if g == finished => (evals, marks));
    assert_eq!(evals.len(), OPENING.len() + 1);
    assert!(evals[0].is_some(), "the standard start is everybody's");
    assert!(evals[1].is_none() && evals[2].is_none(), "{evals:?}");
    assert!(evals[3].is_some() && evals[4].is_some(), "{evals:?}");
    assert!(marks[0].is_none() && marks[1].is_none() && marks[2].is_none());
    // A player of the live game gets no analysis of any game meanwhile.
    red2.send(ClientFrame::AnalyseGame { game: finished }).await;
    red2.expect_error(ErrorCode::AnalysisUnavailable).await;
    // Once it ends, the stored analysis is whole again.
    blue2.send(ClientFrame::Resign { game: live }).await;
    blue2.expect_over().await;
    red2.send(ClientFrame::AnalyseGame { game: finished }).await;
    let evals = expect_frame!(red2, ServerFrame::GameAnalysis { game: g, evals, .. } if g == finished => evals);
    assert!(evals.iter().all(Option::is_some), "{evals:?}");
    server.shutdown().await;
}

/// The computer is our engine too: in a position of a game between people it plays a random
/// legal move rather than its best, so a game against it is no oracle.
async fn the_computer_does_not_play_the_best_move_in_a_live_position(db: Db) {
    let _alone = COMPUTER_GAMES.lock().await;
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &MIDDLE).await;
    // The computer plays its best where the game between people has been (that tells its
    // players nothing now): a computer game along the same first moves is not masked.
    let masked_before = masked_moves(&server).await;
    let mut follower = server.client(&server.player("Same opening").await).await;
    follower.send(vs_computer(8, ColorChoice::Red)).await;
    let state = follower.expect_game().await;
    follower.mv(state.game, MIDDLE[0]).await;
    expect_frame!(follower, ServerFrame::Moved { ply: 2, .. });
    assert_eq!(
        masked_moves(&server).await,
        masked_before,
        "a position left behind is open"
    );
    // The live board, one Blue move before it stands (Red to move there): the spectator,
    // Blue, makes that move, and the computer, Red, would search the live board itself.
    let live = after(&MIDDLE);
    assert_eq!(live.side_to_move(), Side::Red);
    let rules = Ruleset::Classic.rules();
    let mut blue_to_move = live;
    blue_to_move.pass();
    let board_of = |p: &Position| p.to_string().split(' ').next().unwrap().to_owned();
    let (step, before) = blue_to_move
        .legal_moves(&rules)
        .iter()
        .find_map(|m| {
            if blue_to_move.piece_at(m.to).is_some() {
                return None; // a capture cannot be undone
            }
            let mut before = blue_to_move.play(&rules, *m).ok()?;
            before.pass();
            let back: jungle_rules::Move = format!("{}{}", m.to, m.from).parse().ok()?;
            let again = before.play(&rules, back).ok()?;
            (board_of(&again) == board_of(&live)).then_some((back, before))
        })
        .expect("a quiet Blue step");
    let mut spectator = server.client(&server.player("Oracle seeker").await).await;
    spectator
        .send(computer_from(&before.to_string(), 8, ColorChoice::Blue))
        .await;
    let state = spectator.expect_game().await;
    assert_eq!(state.you, Some(Side::Blue));
    spectator.mv(state.game, &step.to_string()).await;
    let masked = async {
        while masked_moves(&server).await == masked_before {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    tokio::time::timeout(WAIT, masked)
        .await
        .expect("the computer's move in the live position was masked");
    // And it did move.
    expect_frame!(spectator, ServerFrame::Moved { ply: 2, .. });
    server.shutdown().await;
}

/// Held by the tests here that play the computer: `/metrics` is one per process, and one
/// test's masked moves must not be counted by another (each counts what it adds).
static COMPUTER_GAMES: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The computer's moves played at random for fair play, as `/metrics` counts them.
async fn masked_moves(server: &TestServer) -> u64 {
    let metrics = reqwest::get(server.url("/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    metrics
        .lines()
        .find(|l| l.starts_with("jungle_fair_play_masked_moves_total"))
        .and_then(|l| l.split_whitespace().nth(1))
        .map_or(0, |n| n.parse::<f64>().unwrap() as u64)
}

/// A tournament game is closed to the engine in the same way, for its players and spectators.
async fn a_tournament_game_is_closed_to_the_engine(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let host = create_account(server.addr, "Host").await;
    let made: serde_json::Value = reqwest::Client::new()
        .post(server.url("/api/tournaments"))
        .bearer_auth(&host.token)
        .json(
            &serde_json::json!({ "name": "Fair arena", "rules": "classic",
            "clock": { "kind": "fischer", "base_s": 180, "inc_s": 2 }, "minutes": 30 }),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id: Uuid = made["id"].as_str().expect("made").parse().unwrap();
    let mut a = server
        .client(&create_account(server.addr, "Ann").await)
        .await;
    let mut b = server
        .client(&create_account(server.addr, "Ben").await)
        .await;
    for client in [&mut a, &mut b] {
        client
            .send(ClientFrame::JoinTournament { id, code: None })
            .await;
    }
    let state =
        expect_frame!(a, ServerFrame::Game(state) if state.tournament == Some(id) => *state);
    expect_frame!(b, ServerFrame::Game(state) if state.tournament == Some(id));
    let game = state.game;
    let (mut red, mut blue) = if state.you == Some(Side::Red) {
        (a, b)
    } else {
        (b, a)
    };
    play(&mut red, &mut blue, game, &OPENING[..2]).await;
    let live = after(&OPENING[..2]);
    assert_eq!(
        ask(&mut blue, None, &OPENING[..2]).await,
        Err(ErrorCode::AnalysisUnavailable)
    );
    let mut spectator = server.client(&server.player("Rail bird").await).await;
    spectator.send(ClientFrame::Watch { game }).await;
    spectator.expect_game().await;
    assert_eq!(
        ask(&mut spectator, Some(live.to_string()), &[]).await,
        Err(ErrorCode::AnalysisUnavailable)
    );
    red.send(ClientFrame::Resign { game }).await;
    red.expect_over().await;
    assert_eq!(
        ask(&mut spectator, Some(live.to_string()), &[]).await,
        Ok(())
    );
    server.shutdown().await;
}

/// Issue 49: only a live board itself is closed (however it is pasted), by its key. A board a
/// move away is answered: closing near boards stopped no engine at home, walked every game per
/// question, and a vote over boards a little further found the live move anyway
/// (docs/decisions.md, "Fair play without near boards").
async fn only_a_live_board_itself_is_closed(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &NEAR_LIVE).await;
    let live = after(&NEAR_LIVE);
    let mut stranger = server.client(&server.player("Stranger").await).await;
    for pasted in [live, live.mirrored(), live.colours_swapped()] {
        assert_eq!(
            ask(&mut stranger, Some(pasted.to_string()), &[]).await,
            Err(ErrorCode::AnalysisUnavailable)
        );
    }
    let rules = Ruleset::Classic.rules();
    for m in live.legal_moves(&rules).iter().take(3) {
        let child = live.play(&rules, *m).unwrap();
        assert_eq!(
            ask(&mut stranger, Some(child.to_string()), &[]).await,
            Ok(()),
            "{m}"
        );
    }
    red.send(ClientFrame::Resign { game }).await;
    red.expect_over().await;
    assert_eq!(
        ask(&mut stranger, Some(live.to_string()), &[]).await,
        Ok(())
    );
    server.shutdown().await;
}

/// Nine plies: the rat walks to g4, the tigers out and (Red's) back.
const NEAR_LIVE: [&str; 9] = [
    "e3d3", "e7d7", "d3d4", "a7a6", "g3g4", "g7g6", "a1b1", "g9f9", "b1a1",
];

/// Issue 49: a player whose only game in progress is over days keeps the analysis board and
/// the whole-game analysis of finished games, except on that game's own positions (weeks
/// without analysis locked an honest player out, and "Evaluate every move" hung).
async fn a_player_over_days_keeps_the_analysis_board(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    // A finished game to analyse.
    let (mut a, mut b, finished) = matched_pair(&server, classic_seek()).await;
    play(&mut a, &mut b, finished, &OPENING).await;
    a.send(ClientFrame::Resign { game: finished }).await;
    a.expect_over().await;
    // A game over days in progress.
    let host = server.account("Slow red").await;
    let guest = server.account("Slow blue").await;
    let days = ClockSpec::Days { days: 3 };
    let (mut red, mut blue, game) = private_game_between(&server, &host, &guest, days).await;
    play(&mut red, &mut blue, game, &NEAR_LIVE).await;
    let live = after(&NEAR_LIVE);
    for player in [&mut red, &mut blue] {
        assert_eq!(ask(player, None, &[]).await, Ok(()), "the start");
        assert_eq!(ask(player, Some(QUIET.into()), &[]).await, Ok(()));
        assert_eq!(ask(player, None, &["a3a4"]).await, Ok(()));
        assert_eq!(
            ask(player, Some(live.to_string()), &[]).await,
            Err(ErrorCode::AnalysisUnavailable),
            "its own game's board"
        );
        assert_eq!(
            ask(player, None, &NEAR_LIVE[..5]).await,
            Err(ErrorCode::AnalysisUnavailable),
            "a board its game passed"
        );
    }
    red.send(ClientFrame::AnalyseGame { game: finished }).await;
    let evals = expect_frame!(red, ServerFrame::GameAnalysis { game: g, evals, .. } if g == finished => evals);
    assert_eq!(evals.len(), OPENING.len() + 1);
    // A player in a game in one sitting gets no engine at all, and the refusal of a whole
    // game's analysis names the game, so that the page waiting for it stops waiting.
    let (mut quick, _other, _) = matched_pair(&server, classic_seek()).await;
    assert_eq!(
        ask(&mut quick, Some(QUIET.into()), &[]).await,
        Err(ErrorCode::AnalysisUnavailable)
    );
    quick
        .send(ClientFrame::AnalyseGame { game: finished })
        .await;
    let (code, about) = expect_frame!(quick, ServerFrame::Error { code, game, .. } => (code, game));
    assert_eq!(
        (code, about),
        (ErrorCode::AnalysisUnavailable, Some(finished))
    );
    server.shutdown().await;
}

/// Also found cold: ways to our engine for someone who sits in a game against a person.
async fn a_player_gets_no_computer_by_a_side_door(db: Db) {
    let _alone = COMPUTER_GAMES.lock().await;
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let ada = create_account(server.addr, "Ada").await;
    let mut a = server.client(&ada).await;
    // A computer game of Ada's, finished before she sits down to play a person.
    a.send(vs_computer(1, ColorChoice::Red)).await;
    let finished = a.expect_game().await.game;
    a.send(ClientFrame::Resign { game: finished }).await;
    a.expect_over().await;
    let mut b = server
        .client(&create_account(server.addr, "Bob").await)
        .await;
    a.send(classic_seek()).await;
    expect_frame!(a, ServerFrame::Seeking { .. });
    b.send(classic_seek()).await;
    let game = expect_frame!(a, ServerFrame::Game(s) if s.game != finished => s.game);
    b.expect_game().await;
    // A rematch of the computer game: refused while the game against a person goes on.
    a.send(ClientFrame::Rematch { game: finished }).await;
    a.expect_error(ErrorCode::AnalysisUnavailable).await;
    // Quick match with the computer as a fallback: refused too.
    a.send(ClientFrame::Seek {
        rules: Ruleset::Classic,
        clock: fischer(300, 3),
        rated: false,
        computer_after_s: Some(0),
    })
    .await;
    a.expect_error(ErrorCode::AnalysisUnavailable).await;
    a.send(ClientFrame::Resign { game }).await;
    a.expect_over().await;
    server.shutdown().await;
}

/// Issue 49: a casual private room over days closes its own board to its players (only a
/// game's positions close the engine to a player over days, and such a room once registered
/// none: its players had the engine on their live board). Strangers are refused it too.
async fn a_casual_game_over_days_closes_its_board_to_its_players(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let host = server.account("Casual red").await;
    let guest = server.account("Casual blue").await;
    let mut red = server.client(&host).await;
    let days = ClockSpec::Days { days: 3 };
    let (code, game) = open_private_room(&mut red, days, false).await;
    red.expect_game().await;
    let mut blue = server.client(&guest).await;
    blue.send(ClientFrame::JoinRoom { code }).await;
    expect_frame!(blue, ServerFrame::Game(s) if s.status == GameStatus::Active);
    play(&mut red, &mut blue, game, &MIDDLE[..6]).await;
    let live = after(&MIDDLE[..6]);
    for player in [&mut red, &mut blue] {
        assert_eq!(
            ask(player, Some(live.to_string()), &[]).await,
            Err(ErrorCode::AnalysisUnavailable)
        );
        assert_eq!(ask(player, Some(QUIET.into()), &[]).await, Ok(()));
    }
    server.shutdown().await;
}

/// A casual private game's positions are not registered (a refusal would tell a stranger
/// what is played there); to a stranger the game does not exist, whatever they send.
async fn a_private_game_tells_a_stranger_nothing(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let mut host = server.client(&server.player("Host").await).await;
    let (code, game) = open_private_room(&mut host, fischer(300, 3), false).await;
    let mut guest = server.client(&server.player("Guest").await).await;
    guest.send(ClientFrame::JoinRoom { code }).await;
    guest.expect_game().await;
    let moves = ["e3d3", "e7d7", "d3d4", "a7a6"];
    play(&mut host, &mut guest, game, &moves).await;
    let mut stranger = server.client(&server.player("Prober").await).await;
    assert_eq!(
        ask(&mut stranger, None, &moves).await,
        Ok(()),
        "not registered"
    );
    // Watching is refused, and refused watching follows nothing: every other frame about
    // the game is answered as if there were no such game.
    stranger.send(ClientFrame::Watch { game }).await;
    stranger.expect_error(ErrorCode::UnknownGame).await;
    for frame in [
        ClientFrame::Chat {
            game,
            preset: Some("hello".into()),
            text: None,
        },
        ClientFrame::Resign { game },
        ClientFrame::AnalyseGame { game },
    ] {
        stranger.send(frame.clone()).await;
        let code = expect_frame!(stranger, ServerFrame::Error { code, .. } => code);
        assert_eq!(code, ErrorCode::UnknownGame, "{frame:?}");
    }
    server.shutdown().await;
}

/// A game against the computer may start where only games against the computer stand: the
/// computer plays those positions itself, and they tell nobody about a game between people (a
/// lesson's practice is played by many learners at once). Where people play, it may not.
async fn a_computer_game_starts_where_only_computer_games_stand(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let mut ann = server.client(&server.player("Ann").await).await;
    ann.send(computer_from(QUIET, 1, ColorChoice::Red)).await;
    let first = ann.expect_game().await.game;
    let mut ben = server.client(&server.player("Ben").await).await;
    ben.send(computer_from(QUIET, 1, ColorChoice::Red)).await;
    assert_ne!(ben.expect_game().await.game, first, "a game of Ben's own");
    // Where two people play now, no computer game starts.
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &OPENING).await;
    let mut cid = server.client(&server.player("Cid").await).await;
    cid.send(computer_from(
        &after(&OPENING).to_string(),
        1,
        ColorChoice::Red,
    ))
    .await;
    cid.expect_error(ErrorCode::AnalysisUnavailable).await;
    server.shutdown().await;
}

/// Issue 49: the boards our engine answered a player while a game over days of theirs was in
/// play, that resemble that game's positions, are counted in its assessment once it ends (the
/// trace of recovering a live move from near boards); a board far from it, or the start, is
/// not.
async fn analysed_boards_like_a_game_over_days_are_counted(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let host = server.account("Studious red").await;
    let guest = server.account("Plain blue").await;
    let days = ClockSpec::Days { days: 3 };
    let (mut red, mut blue, game) = private_game_between(&server, &host, &guest, days).await;
    play(&mut red, &mut blue, game, &NEAR_LIVE).await;
    let live = after(&NEAR_LIVE);
    let rules = Ruleset::Classic.rules();
    let near: Vec<Position> = live
        .legal_moves(&rules)
        .iter()
        .flat_map(|m| {
            let child = live.play(&rules, *m).unwrap();
            let grandchildren: Vec<Position> = child
                .legal_moves(&rules)
                .iter()
                .map(|n| child.play(&rules, *n).unwrap())
                .collect();
            grandchildren
        })
        .filter(|p| p.board_distance(&live) > 0)
        .take(12)
        .collect();
    assert_eq!(near.len(), 12);
    for board in &near {
        assert_eq!(ask(&mut red, Some(board.to_string()), &[]).await, Ok(()));
    }
    assert_eq!(ask(&mut red, Some(QUIET.into()), &[]).await, Ok(()));
    assert_eq!(ask(&mut red, None, &[]).await, Ok(()));
    assert_eq!(ask(&mut blue, Some(QUIET.into()), &[]).await, Ok(()));
    red.send(ClientFrame::Resign { game }).await;
    red.expect_over().await;
    let store = jungle_store::Store::open_for_command(&server.config.database_url)
        .await
        .unwrap();
    let until = tokio::time::Instant::now() + Duration::from_secs(60);
    let rows = loop {
        let mut rows = store.assessments(host.id, 1).await.unwrap();
        rows.extend(store.assessments(guest.id, 1).await.unwrap());
        if rows.len() == 2 {
            break rows;
        }
        assert!(tokio::time::Instant::now() < until, "assessed: {rows:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let counted = |player: Uuid| {
        rows.iter()
            .find(|r| r.player == player)
            .map(|r| r.signals.resembling)
    };
    assert_eq!(counted(host.id), Some(12), "{rows:?}");
    assert_eq!(counted(guest.id), Some(0), "{rows:?}");
    server.shutdown().await;
}

both_stores!(
    only_a_live_board_itself_is_closed,
    analysed_boards_like_a_game_over_days_are_counted,
    a_player_over_days_keeps_the_analysis_board,
    a_computer_game_starts_where_only_computer_games_stand,
    a_player_gets_no_computer_by_a_side_door,
    a_private_game_tells_a_stranger_nothing,
    a_casual_game_over_days_closes_its_board_to_its_players,
    a_tournament_game_is_closed_to_the_engine,
    the_engine_says_nothing_about_a_rated_game_in_progress,
    whole_game_analysis_leaves_out_live_positions,
    the_computer_does_not_play_the_best_move_in_a_live_position,
);
