//! Clocks, aborts, disconnects and restarts over real sockets, with short real durations.

use crate::common::*;

async fn fischer_flag_loses(db: Db) {
    let server = TestServer::start(db).await;
    let seek = seek(Ruleset::International, fischer(1, 0), true);
    let (mut red, mut blue, game) = matched_pair(&server, seek).await;
    // First moves are untimed; from Red's second turn its clock runs.
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    let over = blue.expect_over().await;
    assert_eq!(over.reason, Reason::Timeout);
    assert_eq!(over.winner, Some(Side::Blue));
    server.shutdown().await;
}

async fn per_move_timeouts_pass_then_lose(db: Db) {
    let server = TestServer::start(db).await;
    let clock = ClockSpec::PerMove {
        move_s: 1,
        max_timeouts: 1,
        consecutive: false,
    };
    let (mut red, mut blue, game) =
        matched_pair(&server, seek(Ruleset::Classic, clock, false)).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    // Red lets its turn run out: the server passes for it and counts a timeout.
    let (mv, clocks, legal) =
        expect_frame!(blue, ServerFrame::Moved { mv, clocks, legal, .. } => (mv, clocks, legal));
    assert_eq!(mv, "pass");
    assert_eq!(clocks.red_timeouts, 1);
    assert!(!legal.is_empty(), "blue is to move after the pass");
    blue.mv(game, "a6a5").await;
    blue.expect_moved().await;
    // The second timeout exceeds the allowance of one.
    let over = red.expect_over().await;
    assert_eq!(over.reason, Reason::Timeout);
    assert_eq!(over.winner, Some(Side::Blue));
    server.shutdown().await;
}

async fn no_first_move_aborts(db: Db) {
    let server = TestServer::start_with(db, |c| c.abort_s = 1).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let over = blue.expect_over().await;
    assert_eq!(over.reason, Reason::Aborted);
    assert_eq!(over.status, GameStatus::Aborted);
    assert_eq!(over.winner, None);
    assert!(!over.rated);
    red.expect_over().await;
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record.status, GameStatus::Aborted);
    // Red's first move never came: an abort on Red's record, none on Blue's.
    let red_profile: http::PlayerProfile = server
        .get(&format!("/api/players/{}", red.player_id()))
        .await;
    assert_eq!((red_profile.aborts, red_profile.disconnects), (1, 0));
    let blue_profile: http::PlayerProfile = server
        .get(&format!("/api/players/{}", blue.player_id()))
        .await;
    assert_eq!(blue_profile.aborts, 0);
    server.shutdown().await;
}

async fn reconnect_within_grace_resumes(db: Db) {
    let server = TestServer::start_with(db, |c| c.disconnect_grace_s = 3).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    let red_player = red.player.clone().unwrap();
    drop(red);
    let (side, countdown) = expect_frame!(
        blue,
        ServerFrame::Presence { side, online: false, abandon_in_ms, .. } => (side, abandon_in_ms)
    );
    assert_eq!(side, Side::Red);
    let countdown = countdown.expect("a countdown while away");
    assert!(countdown > 1_000 && countdown <= 3_000, "{countdown}");
    let mut red = server.client(&red_player).await;
    let state = red.expect_game().await;
    assert_eq!(state.game, game);
    assert_eq!(state.moves, ["g3g4", "a7a6"]);
    assert_eq!(state.you, Some(Side::Red));
    assert!(!state.legal.is_empty());
    let side = expect_frame!(blue, ServerFrame::Presence { side, online: true, .. } => side);
    assert_eq!(side, Side::Red);
    play(&mut red, &mut blue, game, &["g4g5"]).await;
    server.shutdown().await;
}

async fn staying_away_past_grace_loses(db: Db) {
    let server = TestServer::start_with(db, |c| c.disconnect_grace_s = 1).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    let red_player = red.player.clone().unwrap();
    drop(red);
    let over = blue.expect_over().await;
    assert_eq!(over.reason, Reason::Abandoned);
    assert_eq!(over.winner, Some(Side::Blue));
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record.reason, Some(Reason::Abandoned));
    let profile: http::PlayerProfile = server
        .get(&format!("/api/players/{}", blue.player_id()))
        .await;
    assert_eq!(profile.stats.wins, 1);
    assert_eq!((profile.disconnects, profile.aborts), (0, 0));
    // The one who left has a disconnect on record, shown to others from their next game on.
    let leaver = red_player.id;
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{leaver}")).await;
    assert_eq!((profile.disconnects, profile.aborts), (1, 0));
    let mut red = server.client(&red_player).await;
    red.send(ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock: fischer(300, 0),
        rated: true,
        color: ColorChoice::Red,
        position: None,
    })
    .await;
    let waiting = red.expect_game().await;
    assert_eq!(waiting.red.unwrap().disconnects, 1);
    server.shutdown().await;
}

async fn restart_mid_game_resumes(db: Db) {
    let mut server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6", "g4g5"]).await;
    let (red_player, blue_player) = (red.player.clone().unwrap(), blue.player.clone().unwrap());
    let restart = server.restart();
    // Clients are told the server is going down.
    let (_, _, ()) = tokio::join!(
        async { expect_frame!(red, ServerFrame::Shutdown) },
        async { expect_frame!(blue, ServerFrame::Shutdown) },
        restart
    );
    let mut red = server.client(&red_player).await;
    let mut blue = server.client(&blue_player).await;
    let state = blue.expect_game().await;
    assert_eq!(state.game, game);
    assert_eq!(state.moves, ["g3g4", "a7a6", "g4g5"]);
    assert_eq!(state.turn, Side::Blue);
    assert!(state.clocks.blue_ms > 290_000, "{:?}", state.clocks);
    red.expect_game().await;
    play(&mut blue, &mut red, game, &["a6a5"]).await;
    red.send(ClientFrame::Resign { game }).await;
    assert_eq!(blue.expect_over().await.reason, Reason::Resign);
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record.moves, ["g3g4", "a7a6", "g4g5", "a6a5"]);
    server.shutdown().await;
}

both_stores!(
    fischer_flag_loses,
    per_move_timeouts_pass_then_lose,
    no_first_move_aborts,
    reconnect_within_grace_resumes,
    staying_away_past_grace_loses,
    restart_mid_game_resumes,
);
