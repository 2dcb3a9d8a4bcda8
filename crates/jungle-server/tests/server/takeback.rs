//! Takebacks (issue 14): in casual games a player may ask to take back their last move; the
//! opponent agrees or not (the computer always agrees); never in rated games.

use crate::common::*;

/// The game as the server keeps it.
async fn stored_moves(server: &TestServer, game: Uuid) -> Vec<String> {
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    record.moves
}

async fn a_takeback_is_asked_answered_and_kept(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) =
        matched_pair(&server, seek(Ruleset::Classic, fischer(300, 3), false)).await;
    // Nothing of Blue's to take back yet.
    blue.send(ClientFrame::Takeback { game }).await;
    blue.expect_error(ErrorCode::TakebackUnavailable).await;
    play(&mut red, &mut blue, game, &["e3d3", "a9b9"]).await;
    // Red asks (its move and Blue's reply go); Blue declines; Red asks again, once only.
    red.send(ClientFrame::Takeback { game }).await;
    expect_frame!(blue, ServerFrame::TakebackOffered { by: Side::Red, .. });
    red.send(ClientFrame::Takeback { game }).await;
    red.expect_error(ErrorCode::TakebackPending).await;
    blue.send(ClientFrame::DeclineTakeback { game }).await;
    expect_frame!(red, ServerFrame::TakebackDeclined { by: Side::Blue, .. });
    red.send(ClientFrame::Takeback { game }).await;
    expect_frame!(blue, ServerFrame::TakebackOffered { .. });
    // Only the one asked may answer.
    red.send(ClientFrame::AcceptTakeback { game }).await;
    red.expect_error(ErrorCode::TakebackUnavailable).await;
    blue.send(ClientFrame::AcceptTakeback { game }).await;
    for client in [&mut red, &mut blue] {
        let state =
            expect_frame!(client, ServerFrame::Game(state) if state.moves.is_empty() => state);
        assert_eq!(state.turn, Side::Red);
        assert_eq!(state.takeback_offer, None);
    }
    assert!(
        stored_moves(&server, game).await.is_empty(),
        "the undone turns are gone for good"
    );
    // Play goes on from there, and a different move is fine.
    play(&mut red, &mut blue, game, &["g3f3", "a7a6"]).await;
    // Asking on one's own turn after the opponent moved takes back two turns; asking right
    // after one's own move, one.
    blue.send(ClientFrame::Takeback { game }).await;
    expect_frame!(red, ServerFrame::TakebackOffered { by: Side::Blue, .. });
    red.send(ClientFrame::AcceptTakeback { game }).await;
    let state = expect_frame!(blue, ServerFrame::Game(state) if state.moves.len() == 1 => state);
    assert_eq!(state.moves, ["g3f3"]);
    assert_eq!(stored_moves(&server, game).await, ["g3f3"]);
    server.shutdown().await;
}

async fn the_computer_agrees_and_rated_games_never_take_back(db: Db) {
    let server = TestServer::start(db).await;
    let me = server.player("Learner").await;
    let mut c = server.client(&me).await;
    c.send(vs_computer(1, ColorChoice::Red)).await;
    let game = c.expect_game().await.game;
    c.mv(game, "e3d3").await;
    // The computer's reply.
    expect_frame!(c, ServerFrame::Moved { ply: 2, .. });
    c.send(ClientFrame::Takeback { game }).await;
    let state = expect_frame!(c, ServerFrame::Game(state) if state.moves.is_empty() => state);
    assert_eq!(state.turn, Side::Red, "back to the start, my move");
    // It plays on as usual.
    c.mv(game, "g3f3").await;
    expect_frame!(c, ServerFrame::Moved { ply: 2, .. });

    let (mut red, mut blue, rated) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, rated, &["e3d3"]).await;
    red.send(ClientFrame::Takeback { game: rated }).await;
    red.expect_error(ErrorCode::TakebackUnavailable).await;
    server.shutdown().await;
}

both_stores!(
    a_takeback_is_asked_answered_and_kept,
    the_computer_agrees_and_rated_games_never_take_back,
);
