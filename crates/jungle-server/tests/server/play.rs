//! Games from start to end over real WebSockets, on both stores.

use crate::common::*;

async fn matchmade_game_to_a_den_win_updates_ratings(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let (last, moves) = DEN_WIN_AT_PLY_21.split_last().unwrap();
    play(&mut red, &mut blue, game, moves).await;
    red.mv(game, last).await;
    for client in [&mut red, &mut blue] {
        let over = client.expect_over().await;
        assert_eq!(over.winner, Some(Side::Red));
        assert_eq!(over.reason, Reason::Den);
        assert_eq!(over.status, GameStatus::Finished);
        assert!(over.rated);
        let change = over.rating_change.expect("a rating change");
        assert!(change.red > 0 && change.blue < 0, "{change:?}");
    }
    let red_id = red.player_id();
    let blue_id = blue.player_id();
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{red_id}")).await;
    let classic = profile.ratings["classic"];
    assert_eq!(classic.games, 1);
    assert!(classic.rating > 1500.0);
    assert!(classic.provisional);
    assert_eq!(profile.stats.wins, 1);
    let loser: http::PlayerProfile = server.get(&format!("/api/players/{blue_id}")).await;
    assert_eq!(loser.stats.losses, 1);
    assert!(loser.ratings["classic"].rating < 1500.0);
    let record: http::GameRecord = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(record.moves.len(), 21);
    assert_eq!(record.reason, Some(Reason::Den));
    assert_eq!(record.winner, Some(Side::Red));
    assert_eq!(record.result, "red");
    // The history shows both ratings as they stood when the game began: provisional ("1500?").
    let games: Vec<http::GameSummary> = server.get(&format!("/api/players/{red_id}/games")).await;
    assert_eq!((games[0].red_rating, games[0].blue_rating), (1500, 1500));
    assert!(games[0].red_provisional && games[0].blue_provisional);
    let mut later = server.client(&server.player("Later").await).await;
    later.send(ClientFrame::Watch { game }).await;
    let archived = later.expect_game().await;
    assert!(archived.red.expect("red").provisional);
    assert!(archived.blue.expect("blue").provisional);
    // One game leaves both ratings provisional: not ranked yet.
    let board: http::Leaderboard = server.get("/api/leaderboard?rules=classic").await;
    assert!(board.players.is_empty(), "{:?}", board.players);
    // Each player's rating after the game is kept for their chart, once.
    let history: Vec<http::RatingPoint> = server
        .get(&format!("/api/players/{red_id}/ratings?rules=classic"))
        .await;
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].rating, classic.rating);
    let none: Vec<http::RatingPoint> = server
        .get(&format!("/api/players/{red_id}/ratings?rules=strict"))
        .await;
    assert!(none.is_empty());
    // Accounts are found by username, ignoring case.
    let by_name: http::PlayerProfile = server
        .get(&format!("/api/users/{}", profile.name.to_uppercase()))
        .await;
    assert_eq!(by_name.id, red_id);
    server.shutdown().await;
}

async fn ten_move_rule_keeps_ratings(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &DEN_WIN_AT_PLY_13[..12]).await;
    red.mv(game, DEN_WIN_AT_PLY_13[12]).await;
    let over = blue.expect_over().await;
    assert_eq!(over.reason, Reason::Den);
    assert!(!over.rated);
    assert_eq!(over.rating_change, None);
    let profile: http::PlayerProfile = server
        .get(&format!("/api/players/{}", red.player_id()))
        .await;
    assert_eq!(profile.ratings["classic"].games, 0);
    assert_eq!(profile.stats.games, 1, "the game is recorded");
    server.shutdown().await;
}

async fn private_room_with_a_spectator(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.player("Host").await;
    let guest = server.player("Guest").await;
    let fan = server.player("Fan").await;
    let mut h = server.client(&host).await;
    h.send(ClientFrame::CreateRoom {
        rules: Ruleset::Daitou,
        clock: ClockSpec::DAITOU_PER_MOVE,
        rated: false,
        color: ColorChoice::Blue,
        position: None,
    })
    .await;
    let (code, url) = expect_frame!(h, ServerFrame::Room { code, url, .. } => (code, url));
    assert_eq!(code.len(), 8);
    assert!(url.ends_with(&format!("/r/{code}")));
    let waiting = h.expect_game().await;
    assert_eq!(waiting.status, GameStatus::Waiting);
    let game = waiting.game;

    let mut g = server.client(&guest).await;
    g.send(ClientFrame::JoinRoom {
        code: code.to_lowercase(),
    })
    .await;
    let started = g.expect_game().await;
    assert_eq!(started.status, GameStatus::Active);
    assert_eq!(started.you, Some(Side::Red), "the host chose blue");
    assert_eq!(started.rules, Ruleset::Daitou);
    assert_eq!(started.legal.len(), 24);
    let host_view = h.expect_game().await;
    assert_eq!(host_view.you, Some(Side::Blue));
    assert!(host_view.legal.is_empty());
    // A private game is watched through its link, not listed for strangers.
    let live: Vec<http::LiveGame> = server.get("/api/games/live").await;
    assert!(live.iter().all(|g| g.id != game), "{live:?}");

    let mut f = server.client(&fan).await;
    f.send(ClientFrame::JoinRoom { code: code.clone() }).await;
    let watching = f.expect_game().await;
    assert_eq!(watching.you, None);
    assert_eq!(watching.status, GameStatus::Active);

    g.mv(game, "a3a4").await;
    let (seen, legal) = f.expect_moved_legal().await;
    assert_eq!(seen, "a3a4");
    assert!(legal.is_empty(), "spectators get no legal moves");
    let (_, host_legal) = h.expect_moved_legal().await;
    assert!(!host_legal.is_empty(), "blue is to move");

    f.mv(game, "a7a6").await;
    f.expect_error(ErrorCode::NotYourGame).await;
    f.send(ClientFrame::Resign { game }).await;
    f.expect_error(ErrorCode::NotYourGame).await;

    h.send(ClientFrame::Resign { game }).await;
    let over = f.expect_over().await;
    assert_eq!(over.winner, Some(Side::Red));
    assert_eq!(over.reason, Reason::Resign);
    server.shutdown().await;
}

async fn draw_offer_decline_and_accept(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g1f1", "a9b9"]).await;
    red.send(ClientFrame::OfferDraw { game }).await;
    let by = expect_frame!(blue, ServerFrame::DrawOffered { by, .. } => by);
    assert_eq!(by, Side::Red);
    blue.send(ClientFrame::DeclineDraw { game }).await;
    let by = expect_frame!(red, ServerFrame::DrawDeclined { by, .. } => by);
    assert_eq!(by, Side::Blue);
    red.send(ClientFrame::OfferDraw { game }).await;
    red.expect_error(ErrorCode::DrawOfferLimit).await;
    blue.send(ClientFrame::AcceptDraw { game }).await;
    blue.expect_error(ErrorCode::NoDrawOffer).await;
    // An offer lapses when the opponent moves instead of answering, and the frame says so.
    blue.send(ClientFrame::OfferDraw { game }).await;
    expect_frame!(red, ServerFrame::DrawOffered { .. });
    red.mv(game, "f1g1").await;
    let offer = expect_frame!(blue, ServerFrame::Moved { draw_offer, .. } => draw_offer);
    assert_eq!(offer, None);
    blue.send(ClientFrame::AcceptDraw { game }).await;
    blue.expect_error(ErrorCode::NoDrawOffer).await;
    // A fresh game for the accept path:
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    blue.send(ClientFrame::OfferDraw { game }).await;
    expect_frame!(red, ServerFrame::DrawOffered { .. });
    red.send(ClientFrame::AcceptDraw { game }).await;
    for client in [&mut red, &mut blue] {
        let over = client.expect_over().await;
        assert_eq!(over.reason, Reason::DrawAgreed);
        assert_eq!(over.winner, None);
    }
    server.shutdown().await;
}

async fn resign_ends_the_game(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    play(&mut red, &mut blue, game, &["g3g4"]).await;
    red.send(ClientFrame::Resign { game }).await;
    let over = blue.expect_over().await;
    assert_eq!(over.winner, Some(Side::Blue));
    assert_eq!(over.reason, Reason::Resign);
    red.mv(game, "g4g5").await;
    red.expect_error(ErrorCode::GameOver).await;
    server.shutdown().await;
}

async fn two_tabs_of_one_player(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let red_player = red.player.clone().unwrap();
    let mut red_tab = server.client(&red_player).await;
    let state = red_tab.expect_game().await;
    assert_eq!(state.you, Some(Side::Red));
    assert_eq!(state.game, game);
    // A move from the second tab reaches the first tab and the opponent.
    red_tab.mv(game, "a3a4").await;
    assert_eq!(red_tab.expect_moved().await.0, "a3a4");
    assert_eq!(red.expect_moved().await.0, "a3a4");
    assert_eq!(blue.expect_moved().await.0, "a3a4");
    blue.mv(game, "a7a6").await;
    assert_eq!(blue.expect_moved().await.0, "a7a6");
    assert_eq!(red_tab.expect_moved().await.0, "a7a6");
    assert_eq!(red.expect_moved().await.0, "a7a6");
    // Closing one tab leaves the player online through the other.
    drop(red_tab);
    red.mv(game, "a4a5").await;
    assert_eq!(blue.expect_moved().await.0, "a4a5");
    server.shutdown().await;
}

async fn rematch_swaps_colours(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    red.send(ClientFrame::Resign { game }).await;
    red.expect_over().await;
    blue.expect_over().await;
    red.send(ClientFrame::Rematch { game }).await;
    let by = expect_frame!(blue, ServerFrame::RematchOffered { by, .. } => by);
    assert_eq!(by, Side::Red);
    blue.send(ClientFrame::Rematch { game }).await;
    let for_old_red = red.expect_game().await;
    let for_old_blue = blue.expect_game().await;
    assert_ne!(for_old_red.game, game);
    assert_eq!(for_old_red.game, for_old_blue.game);
    assert_eq!(for_old_red.you, Some(Side::Blue));
    assert_eq!(for_old_blue.you, Some(Side::Red));
    assert_eq!(for_old_blue.status, GameStatus::Active);
    server.shutdown().await;
}

/// Issue 51: once a finished game's room has closed (here by a restart), its players still
/// open it as theirs (their colour, for the client's orientation and no report of oneself);
/// anyone else as a spectator.
async fn ones_own_finished_game_stays_ones_own(db: Db) {
    let mut server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let red_player = red.player.clone().expect("signed in");
    let blue_player = blue.player.clone().expect("signed in");
    blue.send(ClientFrame::Resign { game }).await;
    red.expect_over().await;
    blue.expect_over().await;
    drop((red, blue));
    server.restart().await;
    for (player, side) in [
        (&red_player, Some(Side::Red)),
        (&blue_player, Some(Side::Blue)),
    ] {
        let mut again = server.client(player).await;
        again.send(ClientFrame::Watch { game }).await;
        let state = again.expect_game().await;
        assert_eq!(
            (state.you, state.seq),
            (side, 0),
            "the archive, as its player's"
        );
        assert_eq!(state.status, GameStatus::Finished);
        assert!(state.legal.is_empty());
    }
    let mut fan = server.client(&server.player("Fan").await).await;
    fan.send(ClientFrame::Watch { game }).await;
    assert_eq!(fan.expect_game().await.you, None);
    server.shutdown().await;
}

async fn spectators_list_and_watch_live_games(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let live: Vec<http::LiveGame> = server.get("/api/games/live").await;
    let listed = live.iter().find(|g| g.id == game).expect("listed");
    // The players' ids come along, for links to their profiles.
    let mut ids = [listed.red_id, listed.blue_id];
    ids.sort();
    let mut players = [Some(red.player_id()), Some(blue.player_id())];
    players.sort();
    assert_eq!(ids, players);
    let fan = server.player("Fan").await;
    let mut f = server.client(&fan).await;
    play(&mut red, &mut blue, game, &["g3g4"]).await;
    f.send(ClientFrame::Watch { game }).await;
    let state = f.expect_game().await;
    assert_eq!(state.moves, ["g3g4"]);
    assert_eq!(state.you, None);
    let names = [state.red.unwrap().name, state.blue.unwrap().name];
    assert!(
        // Rated players are accounts, named by their usernames (`Alice7`).
        names.iter().any(|n| n.starts_with("Alice")) && names.iter().any(|n| n.starts_with("Bob")),
        "{names:?}"
    );
    blue.mv(game, "a7a6").await;
    assert_eq!(f.expect_moved().await.0, "a7a6");
    server.shutdown().await;
}

/// Every frame about a game carries the next sequence number, so a client notices a gap; a
/// `game` frame tells where the sequence stands.
async fn events_are_numbered_without_gaps(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let fan = server.player("Fan").await;
    let mut f = server.client(&fan).await;
    f.send(ClientFrame::Watch { game }).await;
    let mut seq = f.expect_game().await.seq;
    play(&mut red, &mut blue, game, &["g3g4", "a7a6"]).await;
    red.send(ClientFrame::OfferDraw { game }).await;
    blue.send(ClientFrame::DeclineDraw { game }).await;
    red.send(ClientFrame::Resign { game }).await;
    loop {
        let frame = f.next().await.expect("the spectator follows");
        let (next, done) = match frame {
            ServerFrame::Moved { seq, .. }
            | ServerFrame::DrawOffered { seq, .. }
            | ServerFrame::DrawDeclined { seq, .. }
            | ServerFrame::Presence { seq, .. } => (seq, false),
            ServerFrame::GameOver { seq, .. } => (seq, true),
            other => panic!("unexpected {other:?}"),
        };
        assert_eq!(next, seq + 1, "no gap and no repeat");
        seq = next;
        if done {
            break;
        }
    }
    // Asking again gives the state as of the last event.
    f.send(ClientFrame::Watch { game }).await;
    assert_eq!(f.expect_game().await.seq, seq);
    server.shutdown().await;
}

/// A move's frame carries what follows from it: whose turn, the status and the capture.
async fn moved_frames_carry_turn_status_and_capture(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    // Red's rat walks up the g-file and takes Blue's elephant on g7 (the rat takes the
    // elephant) while Blue's lion shuffles.
    let walk = ["g3g4", "a9b9", "g4g5", "b9a9", "g5g6", "a9b9"];
    play(&mut red, &mut blue, game, &walk).await;
    red.mv(game, "g6g7").await;
    let (turn, status, captured) = expect_frame!(blue, ServerFrame::Moved { turn, status, captured, .. } => (turn, status, captured));
    assert_eq!(turn, Side::Blue);
    assert_eq!(status, GameStatus::Active);
    assert_eq!(captured, Some(jungle_rules::Animal::Elephant));
    blue.send(ClientFrame::Watch { game }).await;
    let state = blue.expect_game().await;
    assert_eq!(state.captured.blue, [jungle_rules::Animal::Elephant]);
    assert!(state.captured.red.is_empty());
    server.shutdown().await;
}

/// Classic's cycle rule over the protocol: after the same eight turns three times, Red is not
/// offered the move that would begin them again, and playing it is refused with the reason.
async fn the_cycle_rule_holds_in_classic_games(db: Db) {
    let server = TestServer::start(db).await;
    let (mut red, mut blue, game) = matched_pair(&server, classic_seek()).await;
    let round = [
        "a3a4", "a9a8", "g3g4", "g9g8", "a4a3", "a8a9", "g4g3", "g8g9",
    ];
    let turns: Vec<&str> = (0..3).flat_map(|_| round).collect();
    play(&mut red, &mut blue, game, &turns[..23]).await;
    blue.mv(game, turns[23]).await;
    let (_, legal) = red.expect_moved_legal().await;
    assert!(!legal.is_empty());
    assert!(!legal.contains(&"a3a4".to_owned()), "{legal:?}");
    assert!(legal.contains(&"g3g4".to_owned()));
    red.mv(game, "a3a4").await;
    let message = red.expect_error(ErrorCode::IllegalMove).await;
    assert!(message.contains("cycle rule"), "{message}");
    // Varying is allowed.
    red.mv(game, "g3g4").await;
    assert_eq!(red.expect_moved().await, ("g3g4".to_owned(), 25));
    server.shutdown().await;
}

/// A shared room link outlives a restart: same code, same game, the host's settings and
/// colour; once the game starts the room is no longer stored as waiting.
async fn private_room_survives_a_restart(db: Db) {
    let mut server = TestServer::start(db).await;
    let host = server.account("Host").await;
    let guest = server.account("Guest").await;
    let mut h = server.client(&host).await;
    h.send(ClientFrame::CreateRoom {
        rules: Ruleset::International,
        clock: fischer(300, 2),
        rated: true,
        color: ColorChoice::Blue,
        position: None,
    })
    .await;
    let (code, game) = expect_frame!(h, ServerFrame::Room { code, game, .. } => (code, game));
    h.expect_game().await;
    drop(h);

    server.restart().await;

    let mut g = server.client(&guest).await;
    g.send(ClientFrame::JoinRoom { code: code.clone() }).await;
    let started = g.expect_game().await;
    assert_eq!(started.game, game, "the same game id");
    assert_eq!(started.status, GameStatus::Active);
    assert_eq!(started.rules, Ruleset::International);
    assert!(started.rated);
    assert_eq!(started.clock, fischer(300, 2));
    assert_eq!(started.you, Some(Side::Red), "the host chose blue");
    assert!(
        started.blue.unwrap().name.starts_with("Host"),
        "the host's username"
    );

    // The host comes back to the started game.
    let mut h = server.client(&host).await;
    let resumed = h.expect_game().await;
    assert_eq!(resumed.game, game);
    assert_eq!(resumed.you, Some(Side::Blue));

    // Started, the room is a game like any other: another restart resumes it, and the code
    // does not open a second waiting room.
    g.mv(game, "a3a4").await;
    h.expect_moved().await;
    server.restart().await;
    let fan = server.player("Fan").await;
    let mut f = server.client(&fan).await;
    f.send(ClientFrame::JoinRoom { code }).await;
    let watching = f.expect_game().await;
    assert_eq!(watching.status, GameStatus::Active);
    assert_eq!(watching.you, None, "a spectator, not a guest");
    assert_eq!(watching.moves, ["a3a4"]);
    server.shutdown().await;
}

both_stores!(
    a_listed_seek_is_taken_with_a_click,
    a_guest_plays_at_once_and_names_themself_later,
    a_quick_match_shows_both_players_online,
    matchmade_game_to_a_den_win_updates_ratings,
    ten_move_rule_keeps_ratings,
    private_room_with_a_spectator,
    private_room_survives_a_restart,
    draw_offer_decline_and_accept,
    resign_ends_the_game,
    two_tabs_of_one_player,
    rematch_swaps_colours,
    ones_own_finished_game_stays_ones_own,
    spectators_list_and_watch_live_games,
    events_are_numbered_without_gaps,
    moved_frames_carry_turn_status_and_capture,
    the_cycle_rule_holds_in_classic_games,
);

/// Issue 14: after a quick match each player sees the other online: by the first `game`
/// frame, or by a `presence` frame that follows it (before anything else happens).
async fn a_quick_match_shows_both_players_online(db: Db) {
    let server = TestServer::start(db).await;
    for _ in 0..5 {
        let a = server.player("Ann").await;
        let b = server.player("Ben").await;
        let (mut ca, mut cb) = (server.client(&a).await, server.client(&b).await);
        let quick = seek(Ruleset::Classic, fischer(300, 3), false);
        ca.send(quick.clone()).await;
        expect_frame!(ca, ServerFrame::Seeking { .. });
        cb.send(quick).await;
        let mut beliefs = Vec::new();
        for client in [&mut ca, &mut cb] {
            let state = client.expect_game().await;
            let me = state.you.expect("seated");
            let other = if me == Side::Red {
                state.blue.clone()
            } else {
                state.red.clone()
            };
            beliefs.push((
                client.player_id(),
                !me,
                other.expect("both seated").online,
                state.game,
            ));
        }
        // Red moves: by its echo, every frame sent before it has arrived.
        let game = beliefs[0].3;
        if beliefs[0].1 == Side::Blue {
            ca.mv(game, "e3d3").await;
        } else {
            cb.mv(game, "e3d3").await;
        }
        for (index, client) in [&mut ca, &mut cb].into_iter().enumerate() {
            let (_, other, mut online, _) = beliefs[index];
            loop {
                match client.next().await.expect("open") {
                    ServerFrame::Presence {
                        side, online: now, ..
                    } if side == other => online = now,
                    ServerFrame::Moved { .. } => break,
                    _ => {}
                }
            }
            assert!(online, "player {index} sees {other:?} offline");
        }
    }
    server.shutdown().await;
}

/// Issue 14: a visitor plays at once under a name the server gives, and changes it later.
async fn a_guest_plays_at_once_and_names_themself_later(db: Db) {
    let server = TestServer::start(db).await;
    let client = reqwest::Client::new();
    let answer = client
        .post(server.url("/api/players"))
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 201);
    let created: http::CreatedPlayer = answer.json().await.unwrap();
    assert!(
        created.name.starts_with("Guest-") && created.name.len() == 10,
        "{}",
        created.name
    );
    let rename = |name: &str| {
        client
            .post(server.url("/api/players/me/name"))
            .bearer_auth(&created.token)
            .json(&serde_json::json!({ "name": name }))
            .send()
    };
    let answer = rename("  Ada of the Jungle ").await.unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", created.id)).await;
    assert_eq!(profile.name, "Ada of the Jungle");
    for (name, code) in [
        ("", "name_empty"),
        ("Computer level 9", "name_reserved"),
        ("Computer Bob", "name_reserved"),
        ("<b>", "name_characters"),
    ] {
        let answer = rename(name).await.unwrap();
        assert_eq!(answer.status().as_u16(), 400, "{name}");
        let refusal: http::ApiError = answer.json().await.unwrap();
        assert_eq!(refusal.code.as_deref(), Some(code), "{name}");
    }
    // Nobody renames another: without a token, it is asked for; with one that names nobody,
    // there is no one to rename.
    let answer = client
        .post(server.url("/api/players/me/name"))
        .json(&serde_json::json!({ "name": "Intruder" }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 401);
    let refusal: http::ApiError = answer.json().await.unwrap();
    assert_eq!(refusal.code.as_deref(), Some("not_signed_in"));
    let answer = client
        .post(server.url("/api/players/me/name"))
        .bearer_auth("no-such-token")
        .json(&serde_json::json!({ "name": "Intruder" }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 404);
    server.shutdown().await;
}

/// Issue 14: the lobby lists waiting seeks, and anyone may take one.
async fn a_listed_seek_is_taken_with_a_click(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.player("Waiting Host").await;
    let mut h = server.client(&host).await;
    // Rated needs accounts; this one is casual, and far from anyone's rating window.
    h.send(seek(Ruleset::Strict, fischer(600, 5), false)).await;
    expect_frame!(h, ServerFrame::Seeking { .. });
    let listed: Vec<http::OpenSeek> = server.get("/api/seeks").await;
    assert_eq!(listed.len(), 1);
    let open = &listed[0];
    assert_eq!(
        (open.player.id, open.rules, open.rated),
        (host.id, Ruleset::Strict, false)
    );
    // Not one's own.
    h.send(ClientFrame::AcceptSeek { seek: open.id }).await;
    h.expect_error(ErrorCode::SeekGone).await;
    let taker = server.player("Taker").await;
    let mut t = server.client(&taker).await;
    t.send(ClientFrame::AcceptSeek { seek: open.id }).await;
    let (a, b) = (h.expect_game().await, t.expect_game().await);
    assert_eq!(a.game, b.game);
    assert_eq!((a.rules, a.clock), (Ruleset::Strict, fischer(600, 5)));
    let listed: Vec<http::OpenSeek> = server.get("/api/seeks").await;
    assert!(listed.is_empty(), "taken seeks leave the list");
    // Taken already: gone.
    let late = server.player("Late").await;
    let mut l = server.client(&late).await;
    l.send(ClientFrame::AcceptSeek { seek: open.id }).await;
    l.expect_error(ErrorCode::SeekGone).await;
    // A guest cannot take a rated seek.
    let account = create_account(server.addr, "Ranked").await;
    let mut r = server.client(&account).await;
    r.send(seek(Ruleset::Classic, fischer(600, 5), true)).await;
    expect_frame!(r, ServerFrame::Seeking { .. });
    let listed: Vec<http::OpenSeek> = server.get("/api/seeks").await;
    l.send(ClientFrame::AcceptSeek { seek: listed[0].id }).await;
    l.expect_error(ErrorCode::AccountRequired).await;
    server.shutdown().await;
}
