//! Playing the computer: from the lobby, as a room seat, and as quick match's fallback.

use crate::common::*;

async fn play_the_computer(db: Db) {
    let server = TestServer::start(db).await;
    let me = server.player("Human").await;
    let mut c = server.client(&me).await;
    c.send(ClientFrame::PlayComputer {
        rules: Ruleset::International,
        clock: fischer(300, 0),
        level: 3,
        color: ColorChoice::Red,
        position: None,
    })
    .await;
    let state = c.expect_game().await;
    assert_eq!(state.status, GameStatus::Active);
    assert_eq!(state.you, Some(Side::Red));
    assert!(!state.rated, "computer games are casual");
    assert!(state.code.is_some(), "friends can watch through its code");
    let computer = state.blue.expect("the computer's seat");
    assert_eq!(computer.computer, Some(3));
    assert!(computer.online);
    let game = state.game;
    for (i, mv) in ["g3g4", "g4g5", "g5g6"].iter().enumerate() {
        c.mv(game, mv).await;
        assert_eq!(c.expect_moved().await.0, *mv);
        let (answer, ply, legal) =
            expect_frame!(c, ServerFrame::Moved { mv, ply, legal, .. } => (mv, ply, legal));
        assert_eq!(ply, 2 * i + 2, "the computer answered {answer}");
        assert!(!legal.is_empty());
    }
    c.send(ClientFrame::Resign { game }).await;
    assert!(!c.expect_over().await.rated);
    // The computer always takes a rematch.
    c.send(ClientFrame::Rematch { game }).await;
    let next = c.expect_game().await;
    assert_ne!(next.game, game);
    assert_eq!(next.you, Some(Side::Blue));
    assert_eq!(next.red.unwrap().computer, Some(3));
    // Moving first as Red, the computer opens the new game by itself.
    assert_eq!(c.expect_moved().await.1, 1);
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(
        record.players.blue.computer,
        Some(3),
        "records mark the computer"
    );
    server.shutdown().await;
}

async fn a_level_out_of_range_is_refused(db: Db) {
    let server = TestServer::start(db).await;
    let mut c = server.client(&server.player("Human").await).await;
    for level in [0, 9, 255] {
        c.send(ClientFrame::PlayComputer {
            rules: Ruleset::Classic,
            clock: fischer(300, 0),
            level,
            color: ColorChoice::Random,
            position: None,
        })
        .await;
        c.expect_error(ErrorCode::BadRequest).await;
    }
    server.shutdown().await;
}

async fn the_computer_takes_a_private_rooms_free_seat(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.account("Host").await;
    let mut h = server.client(&host).await;
    h.send(ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock: fischer(60, 1),
        rated: true,
        color: ColorChoice::Blue,
        position: None,
    })
    .await;
    let game = h.expect_game().await.game;
    h.send(ClientFrame::AddComputer { game, level: 1 }).await;
    let started = h.expect_game().await;
    assert_eq!(started.status, GameStatus::Active);
    assert!(!started.rated);
    assert_eq!(started.red.unwrap().computer, Some(1));
    // Red (the computer) moves first.
    assert_eq!(h.expect_moved().await.1, 1);
    h.send(ClientFrame::AddComputer { game, level: 2 }).await;
    h.expect_error(ErrorCode::BadRequest).await;
    server.shutdown().await;
}

async fn quick_match_falls_back_to_the_computer(db: Db) {
    let server = TestServer::start(db).await;
    let me = server.account("Lonely").await;
    let mut c = server.client(&me).await;
    c.send(ClientFrame::Seek {
        rules: Ruleset::Classic,
        clock: fischer(180, 2),
        rated: true,
        computer_after_s: Some(1),
    })
    .await;
    expect_frame!(c, ServerFrame::Seeking { .. });
    let state = c.expect_game().await;
    assert!(!state.rated);
    let computer = match state.you {
        Some(Side::Red) => state.blue,
        _ => state.red,
    };
    assert!(computer.unwrap().computer.is_some());
    server.shutdown().await;
}

/// Leaving a game against the computer puts nothing on the player's record.
async fn leaving_the_computer_is_no_disconnect(db: Db) {
    let server = TestServer::start_with(db, |c| c.disconnect_grace_s = 1).await;
    let me = server.player("Quitter").await;
    let mut c = server.client(&me).await;
    c.send(vs_computer(1, ColorChoice::Red)).await;
    let game = c.expect_game().await.game;
    c.mv(game, "g3g4").await;
    c.expect_moved().await;
    c.expect_moved().await;
    // A spectator sees the game end when the player does not come back.
    let mut fan = server.client(&server.player("Fan").await).await;
    fan.send(ClientFrame::Watch { game }).await;
    drop(c);
    assert_eq!(fan.expect_over().await.reason, Reason::Abandoned);
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", me.id)).await;
    assert_eq!((profile.disconnects, profile.aborts), (0, 0));
    server.shutdown().await;
}

/// Issue 14: a draw offered to the computer is answered; early in a game, it plays on.
async fn the_computer_answers_a_draw_offer(db: Db) {
    let server = TestServer::start(db).await;
    let me = server.player("Peacemaker").await;
    let mut c = server.client(&me).await;
    c.send(vs_computer(1, ColorChoice::Red)).await;
    let game = c.expect_game().await.game;
    c.send(ClientFrame::OfferDraw { game }).await;
    let by = expect_frame!(c, ServerFrame::DrawDeclined { by, .. } => by);
    assert_eq!(by, Side::Blue, "the computer declined");
    server.shutdown().await;
}

both_stores!(
    the_computer_answers_a_draw_offer,
    leaving_the_computer_is_no_disconnect,
    play_the_computer,
    a_level_out_of_range_is_refused,
    the_computer_takes_a_private_rooms_free_seat,
    quick_match_falls_back_to_the_computer
);
