//! Private means private (issue 23): a private room's game is listed only to its players and
//! watched only through its link or code until it ends; then it is a finished game like any
//! other.

use crate::common::*;

async fn status_of(server: &TestServer, path: &str, token: Option<&str>) -> u16 {
    let mut request = reqwest::Client::new().get(server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap().status().as_u16()
}

async fn listed(server: &TestServer, player: Uuid, token: Option<&str>) -> Vec<Uuid> {
    let mut request =
        reqwest::Client::new().get(server.url(&format!("/api/players/{player}/games")));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let games: Vec<http::GameSummary> = request.send().await.unwrap().json().await.unwrap();
    games.into_iter().map(|g| g.id).collect()
}

async fn a_private_game_is_seen_only_through_its_code_until_it_ends(db: Db) {
    let server = TestServer::start(db).await;
    let host_player = server.player("Host").await;
    let mut host = server.client(&host_player).await;
    let (code, game) = open_private_room(&mut host, fischer(300, 2), false).await;
    let mut guest = server.client(&server.player("Guest").await).await;
    guest
        .send(ClientFrame::JoinRoom { code: code.clone() })
        .await;
    guest.expect_game().await;
    play(&mut host, &mut guest, game, &["e3d3", "a9b9"]).await;

    // A stranger with the id: no such game, by the socket or over HTTP.
    let stranger_player = server.player("Stranger").await;
    let mut stranger = server.client(&stranger_player).await;
    stranger.send(ClientFrame::Watch { game }).await;
    stranger.expect_error(ErrorCode::UnknownGame).await;
    for path in [
        format!("/api/games/{game}"),
        format!("/api/games/{game}.jgn"),
    ] {
        assert_eq!(
            status_of(&server, &path, Some(&stranger_player.token)).await,
            404,
            "{path}"
        );
        assert_eq!(status_of(&server, &path, None).await, 404, "{path}");
        assert_eq!(
            status_of(&server, &path, Some(&host_player.token)).await,
            200,
            "{path}"
        );
    }
    assert!(!listed(&server, host_player.id, None).await.contains(&game));
    assert!(
        !listed(&server, host_player.id, Some(&stranger_player.token))
            .await
            .contains(&game)
    );
    assert!(
        listed(&server, host_player.id, Some(&host_player.token))
            .await
            .contains(&game),
        "its own player sees it in their list"
    );
    let live: Vec<http::LiveGame> = server.get("/api/games/live").await;
    assert!(live.iter().all(|g| g.id != game));

    // A friend given the code watches, and may come back by the game's id.
    let friend_player = server.player("Friend").await;
    let mut friend = server.client(&friend_player).await;
    friend.send(ClientFrame::JoinRoom { code }).await;
    let seen = friend.expect_game().await;
    assert_eq!((seen.game, seen.you, seen.moves.len()), (game, None, 2));
    let mut friend_again = server.client(&friend_player).await;
    friend_again.send(ClientFrame::Watch { game }).await;
    assert_eq!(friend_again.expect_game().await.game, game);

    // Over: a finished game like any other.
    host.send(ClientFrame::Resign { game }).await;
    host.expect_over().await;
    stranger.send(ClientFrame::Watch { game }).await;
    let state = stranger.expect_game().await;
    assert_eq!((state.game, state.status), (game, GameStatus::Finished));
    assert_eq!(
        status_of(&server, &format!("/api/games/{game}"), None).await,
        200
    );
    assert!(listed(&server, host_player.id, None).await.contains(&game));
    server.shutdown().await;
}

/// A private room still waiting for its guest answers a stranger who has its id exactly as
/// an id of nothing does, whatever they send.
async fn a_waiting_room_is_no_game_to_a_stranger(db: Db) {
    let server = TestServer::start(db).await;
    let mut host = server.client(&server.player("Host").await).await;
    let (_, waiting) = open_private_room(&mut host, fischer(300, 2), false).await;
    let mut stranger = server.client(&server.player("Stranger").await).await;
    for game in [waiting, Uuid::new_v4()] {
        for frame in [
            ClientFrame::Watch { game },
            ClientFrame::Move {
                game,
                mv: "e3d3".into(),
                blur: false,
            },
            ClientFrame::Resign { game },
            ClientFrame::OfferDraw { game },
            ClientFrame::AcceptDraw { game },
            ClientFrame::DeclineDraw { game },
            ClientFrame::Rematch { game },
            ClientFrame::Takeback { game },
            ClientFrame::AcceptTakeback { game },
            ClientFrame::DeclineTakeback { game },
            ClientFrame::Chat {
                game,
                preset: None,
                text: Some("hello".into()),
            },
            ClientFrame::AddComputer { game, level: 3 },
            ClientFrame::AnalyseGame { game },
        ] {
            let sent = format!("{frame:?}");
            stranger.send(frame).await;
            let code = expect_frame!(stranger, ServerFrame::Error { code, .. } => code);
            assert_eq!(code, ErrorCode::UnknownGame, "{sent}");
        }
    }
    server.shutdown().await;
}

/// A room link's visitor learns who invites them to what before taking the seat (issue 25):
/// the host, the ruleset, the clock and the host's colour, while the room waits; once the game
/// started the link invites nobody, and a made-up code is a miss charged as on the socket.
async fn a_room_link_says_who_invites_to_what_while_the_room_waits(db: Db) {
    let server = TestServer::start(db).await;
    let host_player = server.player("Ada Lovelace").await;
    let mut host = server.client(&host_player).await;
    let (code, game) = open_private_room(&mut host, fischer(300, 3), false).await;
    // Anyone with the link, with no player yet and in any case of the code.
    let invite: http::RoomInvite = server
        .get(&format!("/api/rooms/{}", code.to_lowercase()))
        .await;
    assert_eq!(invite.code, code);
    assert_eq!(invite.host, "Ada Lovelace");
    assert_eq!(invite.host_id, host_player.id);
    assert_eq!(invite.host_rating, 1500);
    assert!(invite.host_provisional);
    assert_eq!(invite.rules, Ruleset::Classic);
    assert_eq!(invite.clock, fischer(300, 3));
    assert!(!invite.rated);
    assert_eq!(invite.host_colour, ColorChoice::Red);
    assert_eq!(invite.start, None);

    let mut guest = server.client(&server.player("Guest").await).await;
    guest
        .send(ClientFrame::JoinRoom { code: code.clone() })
        .await;
    guest.expect_game().await;
    play(&mut host, &mut guest, game, &["e3d3"]).await;
    // The seat is taken: the link lets one watch.
    let (status, error) = server.get_status(&format!("/api/rooms/{code}")).await;
    assert_eq!(status, 409, "{error:?}");
    for wrong in ["NOSUCHRM", "a b", "%2E%2E", "TOOLONGFORACODE1"] {
        let (status, _) = server.get_status(&format!("/api/rooms/{wrong}")).await;
        assert_eq!(status, 404, "{wrong}");
    }
    server.shutdown().await;
}

/// Guessing codes through the page is no cheaper than through the socket: misses cost the
/// address five lookups each and soon answer 429.
async fn room_links_cannot_be_guessed_faster_than_codes(db: Db) {
    let server = TestServer::start(db).await;
    let mut statuses = Vec::new();
    for i in 0..12 {
        statuses.push(
            server
                .get_status(&format!("/api/rooms/ZZZZZZ{i:02}"))
                .await
                .0,
        );
    }
    assert_eq!(statuses[0], 404);
    assert!(
        statuses.iter().filter(|&&s| s == 429).count() >= 6,
        "misses are limited: {statuses:?}"
    );
    server.shutdown().await;
}

/// The host closes a room nobody has joined yet (`resign` while it waits): its link names no
/// room from then on, and the host's place for rooms is free again.
async fn a_host_closes_a_waiting_room(db: Db) {
    let server = TestServer::start(db).await;
    let host_player = server.player("Host").await;
    let mut host = server.client(&host_player).await;
    let mut codes = Vec::new();
    for _ in 0..3 {
        codes.push(open_private_room(&mut host, fischer(300, 3), false).await);
    }
    // At the cap, a fourth is refused until one goes.
    host.send(ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock: fischer(300, 3),
        rated: false,
        color: ColorChoice::Red,
        position: None,
    })
    .await;
    expect_frame!(host, ServerFrame::Error { .. });
    let (code, game) = codes.remove(0);
    host.send(ClientFrame::Resign { game }).await;
    // The link invites to nothing now, on the socket and over HTTP.
    let mut closed = false;
    for _ in 0..50 {
        if server.get_status(&format!("/api/rooms/{code}")).await.0 == 404 {
            closed = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(closed, "the room closed");
    let mut guest = server.client(&server.player("Guest").await).await;
    guest.send(ClientFrame::JoinRoom { code }).await;
    guest.expect_error(ErrorCode::RoomNotFound).await;
    open_private_room(&mut host, fischer(300, 3), false).await;
    server.shutdown().await;
}

both_stores!(
    a_host_closes_a_waiting_room,
    a_private_game_is_seen_only_through_its_code_until_it_ends,
    a_waiting_room_is_no_game_to_a_stranger,
    a_room_link_says_who_invites_to_what_while_the_room_waits,
    room_links_cannot_be_guessed_faster_than_codes
);
