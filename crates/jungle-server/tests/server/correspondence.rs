//! Correspondence games (issue 28), black-box on both stores, with time as a value: the
//! server's time source is moved forward by days (`TimeSource::advance`), never waited for.
//! Moves across restarts, a day given, a disconnect that changes nothing, a deadline missed
//! that loses (and moves the correspondence rating, not the real-time one), a first move never
//! made that aborts; the waiting list; who may start one.

use std::time::Duration;

use crate::common::*;
use jungle_protocol::http::{PlayerProfile, WaitingGames};

const DAY: Duration = Duration::from_secs(86_400);
pub(crate) const THREE_DAYS: ClockSpec = ClockSpec::Days { days: 3 };
/// Eleven moves each that end nothing: the shuffles and the leopard's walk of
/// `DEN_WIN_AT_PLY_21`, stepping aside instead of into the den.
pub(crate) const LINE: [&str; 22] = [
    "g1f1", "a9b9", "a1b1", "g9f9", "f1g1", "b8b7", "b1a1", "f8e8", "e3d3", "b9a9", "d3d4", "f9g9",
    "d4d5", "b7b8", "d5d6", "e8f8", "d6d7", "a9b9", "d7d8", "g9f9", "d8e8", "f9g9",
];

/// A casual classic private room with `clock`, its host on Red.
fn casual_room(clock: ClockSpec) -> ClientFrame {
    ClientFrame::CreateRoom {
        rules: Ruleset::Classic,
        clock,
        rated: false,
        color: ColorChoice::Red,
        position: None,
    }
}

async fn waiting(server: &TestServer, player: &Player) -> WaitingGames {
    let response = reqwest::Client::new()
        .get(server.url("/api/account/games/waiting"))
        .bearer_auth(&player.token)
        .send()
        .await
        .expect("GET waiting");
    assert_eq!(response.status().as_u16(), 200);
    response.json().await.expect("a waiting list")
}

/// Comes back to `game` after a restart or a disconnect: its state as the player sees it.
pub(crate) async fn back_to(
    server: &TestServer,
    player: &Player,
    game: Uuid,
) -> (Client, GameState) {
    let mut client = server.client(player).await;
    client.send(ClientFrame::Watch { game }).await;
    let state = client.expect_game().await;
    (client, state)
}

fn close_to(ms: u64, expected: Duration) -> bool {
    ms.abs_diff(expected.as_millis() as u64) < 60_000
}

async fn a_game_over_days_keeps_its_deadlines(db: Db) {
    let mut server = TestServer::start(db).await;
    let (host, guest) = (server.account("Ren").await, server.account("Bo").await);
    let (mut red, mut blue, game) = private_game_between(&server, &host, &guest, THREE_DAYS).await;
    play(&mut red, &mut blue, game, &LINE[..2]).await;

    // Red's turn: listed for Red with its three days, not for Blue.
    let list = waiting(&server, &host).await;
    assert_eq!(list.in_progress, 1);
    assert_eq!(list.games.len(), 1);
    assert_eq!(list.games[0].id, game);
    assert_eq!(list.games[0].side, Side::Red);
    assert!(
        close_to(list.games[0].left_ms, 3 * DAY),
        "{:?}",
        list.games[0]
    );
    let theirs = waiting(&server, &guest).await;
    assert!(theirs.games.is_empty());
    assert_eq!(theirs.opponents_turn.len(), 1, "listed to reopen");
    assert_eq!(theirs.opponents_turn[0].side, Side::Blue);

    // A restart, and two days pass meanwhile: Red has one day left, exactly as stored.
    drop((red, blue));
    server.restart().await;
    server.config.time.advance(2 * DAY);
    let (mut red, state) = back_to(&server, &host, game).await;
    assert_eq!(state.status, GameStatus::Active);
    assert_eq!(state.moves, LINE[..2]);
    assert!(close_to(state.clocks.red_ms, DAY), "{:?}", state.clocks);
    assert!(state.red_away_ms.is_none() && state.blue_away_ms.is_none());
    let (mut blue, _) = back_to(&server, &guest, game).await;
    red.mv(game, LINE[2]).await;
    blue.expect_moved().await;

    // Red gives Blue a day: Blue's turn now ends in four days, and a restart keeps it.
    red.send(ClientFrame::GiveDay { game }).await;
    let given = expect_frame!(blue, ServerFrame::Game(state) => state);
    assert!(
        close_to(given.clocks.blue_ms, 4 * DAY),
        "{:?}",
        given.clocks
    );
    red.send(ClientFrame::GiveDay { game }).await;
    red.expect_error(ErrorCode::GiveDayUnavailable).await;
    blue.send(ClientFrame::GiveDay { game }).await;
    blue.expect_error(ErrorCode::GiveDayUnavailable).await;
    drop((red, blue));
    server.restart().await;
    server
        .config
        .time
        .advance(3 * DAY + Duration::from_secs(3600));
    let (mut blue, state) = back_to(&server, &guest, game).await;
    assert_eq!(state.status, GameStatus::Active, "the day given holds");
    assert!(state.day_given, "and is known to have been given");
    let (mut red, _) = back_to(&server, &host, game).await;
    red.send(ClientFrame::GiveDay { game }).await;
    red.expect_error(ErrorCode::GiveDayUnavailable).await;
    drop(red);
    assert!(
        close_to(state.clocks.blue_ms, DAY - Duration::from_secs(3600)),
        "{:?}",
        state.clocks
    );
    let list = waiting(&server, &guest).await;
    assert_eq!(list.games.len(), 1);
    assert!(close_to(
        list.games[0].left_ms,
        DAY - Duration::from_secs(3600)
    ));

    // Nobody abandons: Blue moves and leaves; a whole day later the game is still on.
    let (mut red, _) = back_to(&server, &host, game).await;
    blue.mv(game, LINE[3]).await;
    red.expect_moved().await;
    drop(blue);
    server.config.time.advance(DAY);
    let (_, state) = back_to(&server, &host, game).await;
    assert_eq!(state.status, GameStatus::Active);
    assert!(state.blue_away_ms.is_none(), "no abandon countdown");
    assert!(close_to(state.clocks.red_ms, 2 * DAY), "{:?}", state.clocks);

    // Past the ten moves below which nothing is rated, Red lets its deadline pass: Red loses
    // on time.
    let (mut red, _) = back_to(&server, &host, game).await;
    let (mut blue, _) = back_to(&server, &guest, game).await;
    play(&mut red, &mut blue, game, &LINE[4..]).await;
    server
        .config
        .time
        .advance(3 * DAY + Duration::from_secs(60));
    let over = blue.expect_over().await;
    assert_eq!(over.reason, Reason::Timeout);
    assert_eq!(over.winner, Some(Side::Blue));
    assert!(over.rated);
    assert!(over.rating_change.is_some());

    // The correspondence rating moved; the real-time one did not.
    let profile: PlayerProfile = server.get(&format!("/api/players/{}", guest.id)).await;
    let correspondence = &profile.correspondence_ratings["classic"];
    assert_eq!(correspondence.games, 1);
    assert!(correspondence.rating > 1500.0, "{correspondence:?}");
    assert_eq!(profile.ratings["classic"].games, 0);
    let history =
        |speed: &'static str| format!("/api/players/{}/ratings?rules=classic{speed}", guest.id);
    let points: Vec<http::RatingPoint> = server.get(&history("&speed=correspondence")).await;
    assert_eq!(points.len(), 1);
    let points: Vec<http::RatingPoint> = server.get(&history("")).await;
    assert!(points.is_empty());
    assert_eq!(waiting(&server, &host).await.in_progress, 0);
    server.shutdown().await;
}

/// `POST` or `DELETE /api/account/vacation`: the status and the answer.
async fn vacation(
    server: &TestServer,
    player: &Player,
    days: Option<i64>,
) -> (u16, serde_json::Value) {
    let client = reqwest::Client::new();
    let url = server.url("/api/account/vacation");
    let request = match days {
        Some(days) => client.post(url).json(&serde_json::json!({ "days": days })),
        None => client.delete(url),
    };
    let response = request
        .bearer_auth(&player.token)
        .send()
        .await
        .expect("vacation");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or_default())
}

/// The game's state as `player` sees it, once `ready` holds (rooms hear of vacations within
/// a second or two).
async fn state_once(
    server: &TestServer,
    player: &Player,
    game: Uuid,
    ready: impl Fn(&GameState) -> bool,
) -> GameState {
    let until = tokio::time::Instant::now() + WAIT;
    loop {
        let (_, state) = back_to(server, player, game).await;
        if ready(&state) {
            return state;
        }
        assert!(tokio::time::Instant::now() < until, "{:?}", state.clocks);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn a_vacation_stops_the_players_turns(db: Db) {
    let mut server = TestServer::start(db).await;
    let (host, guest) = (server.account("Sol").await, server.account("Ana").await);
    let (mut red, mut blue, game) =
        private_game_between(&server, &host, &guest, ClockSpec::Days { days: 1 }).await;
    play(&mut red, &mut blue, game, &LINE[..2]).await;
    drop((red, blue));

    // Red, to move with a day left, goes away for two: its turn now ends in three.
    let (status, view) = vacation(&server, &host, Some(2)).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["days_left"], 12);
    assert!(view["until_ms"].is_i64());
    let state = state_once(&server, &host, game, |s| close_to(s.clocks.red_ms, 3 * DAY)).await;
    assert_eq!(state.status, GameStatus::Active);
    let list = waiting(&server, &host).await;
    assert!(close_to(list.games[0].left_ms, 3 * DAY), "{:?}", list.games);
    // Two days pass (a restart among them): the vacation is over, Red's day is left.
    server.restart().await;
    server.config.time.advance(2 * DAY);
    let (mut red, state) = back_to(&server, &host, game).await;
    assert_eq!(state.status, GameStatus::Active, "nobody lost on vacation");
    assert!(close_to(state.clocks.red_ms, DAY), "{:?}", state.clocks);
    // Blue's turns were never paused.
    let (mut blue, _) = back_to(&server, &guest, game).await;
    red.mv(game, LINE[2]).await;
    let (_, state) = back_to(&server, &guest, game).await;
    assert!(close_to(state.clocks.blue_ms, DAY), "{:?}", state.clocks);
    // Fourteen days in any 365: twelve are left; one at a time; back early frees the rest.
    let (status, _) = vacation(&server, &guest, Some(15)).await;
    assert_eq!(status, 400);
    assert_eq!(vacation(&server, &host, Some(13)).await.0, 400);
    assert_eq!(vacation(&server, &host, Some(5)).await.0, 200);
    assert_eq!(
        vacation(&server, &host, Some(1)).await.0,
        400,
        "one at a time"
    );
    let (status, view) = vacation(&server, &host, None).await;
    assert_eq!(status, 200);
    assert!(view["until_ms"].is_null());
    assert_eq!(view["days_left"], 11, "a day begun is a day taken");
    blue.mv(game, LINE[3]).await;
    red.expect_moved().await;
    server.shutdown().await;
}

async fn a_first_move_never_made_aborts(db: Db) {
    let server = TestServer::start(db).await;
    let (host, guest) = (server.account("Ada").await, server.account("Lin").await);
    let (_red, mut blue, game) =
        private_game_between(&server, &host, &guest, ClockSpec::Days { days: 1 }).await;
    let list = waiting(&server, &host).await;
    assert_eq!(list.games.len(), 1, "Red's first move is due");
    server.config.time.advance(DAY + Duration::from_secs(1));
    let over = blue.expect_over().await;
    assert_eq!(over.status, GameStatus::Aborted);
    assert_eq!(over.reason, Reason::Aborted);
    assert_eq!(over.winner, None);
    let (_, state) = back_to(&server, &guest, game).await;
    assert_eq!(state.status, GameStatus::Aborted);
    server.shutdown().await;
}

/// `PUT`, `GET` or `DELETE /api/account/email` as `player`: the status and the answer.
async fn email(
    server: &TestServer,
    player: &Player,
    method: reqwest::Method,
    address: Option<&str>,
) -> (u16, serde_json::Value) {
    let mut request = reqwest::Client::new()
        .request(method, server.url("/api/account/email"))
        .bearer_auth(&player.token);
    if let Some(address) = address {
        request = request.json(&serde_json::json!({ "address": address }));
    }
    let response = request.send().await.expect("email");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or_default())
}

/// Red moves and leaves the game; once Blue sees Red gone, Blue answers: Red's turn, away.
pub(crate) async fn red_moves_and_leaves(
    mut red: Client,
    blue: &mut Client,
    game: Uuid,
    moves: [&str; 2],
) {
    red.mv(game, moves[0]).await;
    blue.expect_moved().await;
    drop(red);
    expect_frame!(
        blue,
        ServerFrame::Presence {
            side: Side::Red,
            online: false,
            ..
        }
    );
    blue.mv(game, moves[1]).await;
}

async fn link(server: &TestServer, path: &str, token: &str) -> u16 {
    let url = server.url(&format!("{path}?token={token}"));
    let answer = reqwest::get(url).await.expect("GET");
    // A mail's link is followed by a person in a browser: a page, whether it worked or not.
    let kind = answer.headers()[reqwest::header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    let status = answer.status().as_u16();
    let body = answer.text().await.unwrap();
    assert!(kind.starts_with("text/html"), "{status} {kind}: {body}");
    assert!(body.starts_with("<!doctype html>"), "{status}: {body}");
    status
}

/// Mails about turns: only to a confirmed address, only when the player is not at the
/// board, once a turn, and never after the unsubscribe link.
async fn a_mail_comes_when_it_is_your_turn(db: Db) {
    let sink = SmtpSink::start().await;
    let server = TestServer::start_with(db, |c| c.smtp_url = Some(sink.url.clone())).await;
    let (host, guest) = (server.account("Ren").await, server.account("Bo").await);

    // An address given is sent its confirmation link, and nothing else until it is followed.
    let (status, view) = email(
        &server,
        &host,
        reqwest::Method::PUT,
        Some("ren@example.org"),
    )
    .await;
    assert_eq!(status, 202, "{view}");
    assert_eq!(view["confirmed"], false);
    let confirmation = sink.wait_for(1).await.remove(0);
    assert_eq!(confirmation.to, ["ren@example.org"]);
    let token = confirmation
        .link_param("/api/mail/confirm", "token")
        .expect("a confirmation link");
    let (status, _) = email(&server, &host, reqwest::Method::PUT, Some("not an address")).await;
    assert_eq!(status, 400);

    let (red, mut blue, game) = private_game_between(&server, &host, &guest, THREE_DAYS).await;
    red_moves_and_leaves(red, &mut blue, game, [LINE[0], LINE[1]]).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.mails().len(), 1, "nothing to an unconfirmed address");

    // Confirmed (a link works once): the next turn of Red's, away, is mailed once.
    assert_eq!(link(&server, "/api/mail/confirm", &token).await, 200);
    assert_eq!(link(&server, "/api/mail/confirm", &token).await, 404);
    let (red, _) = back_to(&server, &host, game).await;
    red_moves_and_leaves(red, &mut blue, game, [LINE[2], LINE[3]]).await;
    let turn = sink.wait_for(2).await.remove(1);
    assert_eq!(turn.to, ["ren@example.org"]);
    assert!(turn.text.contains(&format!("/g/{game}")), "{}", turn.text);
    assert!(
        turn.text.contains("Bo"),
        "the opponent is named: {}",
        turn.text
    );
    let unsubscribe = turn
        .link_param("/api/mail/unsubscribe", "token")
        .expect("an unsubscribe link");
    // Blue, at the board, is never mailed (nor has an address).
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(sink.mails().len(), 2);

    // Unsubscribed without signing in: no more mails about turns.
    assert_eq!(
        link(&server, "/api/mail/unsubscribe", &unsubscribe).await,
        200
    );
    let (red, _) = back_to(&server, &host, game).await;
    red_moves_and_leaves(red, &mut blue, game, [LINE[4], LINE[5]]).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.mails().len(), 2, "unsubscribed");
    let (_, view) = email(&server, &host, reqwest::Method::GET, None).await;
    assert_eq!(view["turn_mails"], false);
    assert_eq!(view["confirmed"], true);

    // The address is the player's to take back.
    let (status, _) = email(&server, &host, reqwest::Method::DELETE, None).await;
    assert_eq!(status, 204);
    let (_, view) = email(&server, &host, reqwest::Method::GET, None).await;
    assert!(view["address"].is_null(), "{view}");
    // A guest gives none.
    let passer = server.player("Passer").await;
    let (status, _) = email(
        &server,
        &passer,
        reqwest::Method::PUT,
        Some("p@example.org"),
    )
    .await;
    assert_eq!(status, 400);
    server.shutdown().await;
}

/// Fifty games over days at most, checked for whoever sits down, host or guest, and for
/// joins at the same moment; the computer never takes a seat over days.
async fn fifty_games_over_days_at_most(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let many = server.account("Many").await;
    let mut m = server.client(&many).await;
    let (early_room, _) = open_private_room(&mut m, THREE_DAYS, false).await;
    m.expect_game().await;
    // Fifty-one hosts open a room over days each; Many takes the seats of all at once.
    let mut hosts = Vec::new();
    let mut codes = Vec::new();
    for _ in 0..51 {
        let host = server.account("Host").await;
        let mut h = server.client(&host).await;
        let (code, _) = open_private_room(&mut h, THREE_DAYS, false).await;
        codes.push(code);
        hosts.push(h);
    }
    // Three tabs (a tab follows 32 games at most) joining side by side, each a room at a
    // time (a burst of whole game states would overflow a tab's queue).
    let mut tabs = vec![m, server.client(&many).await, server.client(&many).await];
    let runs = tabs.iter_mut().enumerate().map(|(t, tab)| {
        let codes: Vec<String> = codes.iter().skip(t).step_by(3).cloned().collect();
        async move {
            let (mut seated, mut refused) = (0, 0);
            for code in codes {
                tab.send(ClientFrame::JoinRoom { code }).await;
                loop {
                    match tab.next().await.expect("an answer to each join") {
                        ServerFrame::Game(state) if state.you.is_some() => {
                            seated += 1;
                            break;
                        }
                        ServerFrame::Error { code, .. } => {
                            assert_eq!(code, ErrorCode::LimitReached);
                            refused += 1;
                            // Then the state, as a spectator's.
                            expect_frame!(tab, ServerFrame::Game(state) if state.you.is_none());
                            break;
                        }
                        _ => {}
                    }
                }
            }
            (seated, refused)
        }
    });
    let counts = futures_util::future::join_all(runs).await;
    let seated: usize = counts.iter().map(|c| c.0).sum();
    let refused: usize = counts.iter().map(|c| c.1).sum();
    assert_eq!((seated, refused), (50, 1));
    assert_eq!(waiting(&server, &many).await.in_progress, 50);
    // A room Many opened before is not joined now that Many is at the cap, and Many opens
    // no other.
    let guest = server.account("Late").await;
    let mut g = server.client(&guest).await;
    g.send(ClientFrame::JoinRoom { code: early_room }).await;
    g.expect_error(ErrorCode::LimitReached).await;
    let mut many_tab = tabs.remove(0);
    many_tab.send(casual_room(THREE_DAYS)).await;
    many_tab.expect_error(ErrorCode::LimitReached).await;
    let (code, game) = open_private_room(&mut g, THREE_DAYS, false).await;
    drop(code);
    g.send(ClientFrame::AddComputer { game, level: 3 }).await;
    g.expect_error(ErrorCode::BadRequest).await;
    server.shutdown().await;
}

/// A bot challenges an account over HTTP to a game over days; the game is one.
async fn a_bot_challenges_over_days(db: Db) {
    let server = TestServer::start(db).await;
    let (_, token) = bot(&server, "Slowbot").await;
    let person = server.account("Pen").await;
    let username = server
        .get::<http::PlayerProfile>(&format!("/api/players/{}", person.id))
        .await
        .username
        .expect("an account");
    let mut p = server.client(&person).await;
    let mut events = Lines::open(&server, "/api/stream/event", &token).await;
    let (status, sent) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/challenge/{username}"),
        &token,
        Some(serde_json::json!({ "clock": { "days": 3 }, "color": "red" })),
    )
    .await;
    assert_eq!(status, 200, "{sent}");
    let challenge = expect_frame!(p, ServerFrame::Challenged { challenge } => challenge);
    assert_eq!(challenge.clock, THREE_DAYS);
    p.send(ClientFrame::AcceptChallenge { id: challenge.id })
        .await;
    let state = p.expect_game().await;
    assert_eq!(state.clock, THREE_DAYS);
    let start = loop {
        let event = events.next().await.expect("an event");
        if event["type"] == "gameStart" {
            break event;
        }
    };
    assert_eq!(start["game"]["id"], state.game.to_string());
    let (status, _) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/challenge/{username}"),
        &token,
        Some(serde_json::json!({ "clock": { "days": 4 } })),
    )
    .await;
    assert_eq!(status, 400, "days as the clocks allow");
    server.shutdown().await;
}

async fn who_may_start_a_game_over_days(db: Db) {
    let server = TestServer::start(db).await;
    // A guest may not: its games would outlive its cookie.
    let guest = server.player("Passer").await;
    let mut g = server.client(&guest).await;
    g.send(casual_room(THREE_DAYS)).await;
    g.expect_error(ErrorCode::AccountRequired).await;
    // Nor against the computer, nor with a clock of days not offered.
    let account = server.account("Kai").await;
    let mut a = server.client(&account).await;
    a.send(ClientFrame::PlayComputer {
        rules: Ruleset::Classic,
        clock: THREE_DAYS,
        level: 1,
        color: ColorChoice::Red,
        position: None,
    })
    .await;
    a.expect_error(ErrorCode::BadRequest).await;
    a.send(casual_room(ClockSpec::Days { days: 4 })).await;
    a.expect_error(ErrorCode::BadRequest).await;
    // A seek over days is listed and never paired by itself: two such seeks stay apart.
    let other = server.account("Mei").await;
    let mut o = server.client(&other).await;
    let days_seek = seek(Ruleset::Classic, THREE_DAYS, true);
    a.send(days_seek.clone()).await;
    expect_frame!(a, ServerFrame::Seeking { .. });
    o.send(days_seek).await;
    expect_frame!(o, ServerFrame::Seeking { .. });
    let listed: Vec<jungle_protocol::http::OpenSeek> = server.get("/api/seeks").await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    // Taking one from the list starts the game.
    let mine = listed
        .iter()
        .find(|s| s.player.id == account.id)
        .expect("listed");
    o.send(ClientFrame::AcceptSeek { seek: mine.id }).await;
    let state = o.expect_game().await;
    assert_eq!(state.clock, THREE_DAYS);
    assert_eq!(a.expect_game().await.game, state.game);
    // A game over days leaves its players the analysis board (issue 49): only its own
    // positions are closed (fair_play.rs tries them).
    a.send(ClientFrame::Analyse {
        rules: Ruleset::Classic,
        position: None,
        moves: vec!["a3a4".into()],
    })
    .await;
    expect_frame!(a, ServerFrame::Analysis { .. });
    // A game over days does not hold its players back from one in one sitting.
    let (x, y) = (server.account("Xu").await, server.account("Yan").await);
    let (mut cx, mut cy) = (server.client(&x).await, server.client(&y).await);
    let quick = seek(Ruleset::Classic, fischer(60, 0), false);
    a.send(quick.clone()).await;
    expect_frame!(a, ServerFrame::Seeking { .. });
    cx.send(quick).await;
    let quick_game = cx.expect_game().await;
    assert_eq!(quick_game.clock, fischer(60, 0));
    assert_eq!(a.expect_game().await.game, quick_game.game);
    cy.send(ClientFrame::Ping).await;
    server.shutdown().await;
}

/// Issue 49: starts and vacations asked at once pass no cap. Ten challenges over days accepted
/// at once from ten tabs, five games below the cap: exactly five start. Ten vacations of 14
/// days asked at once: exactly one is taken.
async fn caps_hold_against_requests_at_once(db: Db) {
    let server = TestServer::start_with(db, |c| {
        c.no_rate_limits = true;
        c.max_connections_per_ip = 1_000;
    })
    .await;
    let busy = server.account("Busy").await;
    // 45 games in progress: hosts' rooms over days, joined one by one (a tab follows at most
    // 32 games, so a fresh tab every 15).
    let mut joiner = server.client(&busy).await;
    for i in 0..45 {
        if i % 15 == 0 {
            joiner = server.client(&busy).await;
        }
        let host = server.account("Host").await;
        let mut h = server.client(&host).await;
        let (code, _) = open_private_room(&mut h, THREE_DAYS, false).await;
        joiner.send(ClientFrame::JoinRoom { code }).await;
        expect_frame!(joiner, ServerFrame::Game(state) if state.you.is_some());
        // A game over days goes on without its players connected.
        drop(h);
    }
    drop(joiner);
    assert_eq!(waiting(&server, &busy).await.in_progress, 45);
    let mut tabs = Vec::new();
    for _ in 0..10 {
        tabs.push(server.client(&busy).await);
    }
    let mut challengers = Vec::new();
    let mut ids = Vec::new();
    for _ in 0..10 {
        let challenger = server.account("Challenger").await;
        let mut c = server.client(&challenger).await;
        c.send(ClientFrame::Challenge {
            to: busy.id,
            rules: Ruleset::Classic,
            clock: THREE_DAYS,
            rated: false,
            color: ColorChoice::Random,
        })
        .await;
        expect_frame!(c, ServerFrame::ChallengeSent { .. });
        let received = expect_frame!(tabs[0], ServerFrame::Challenged { challenge } => challenge);
        ids.push(received.id);
        challengers.push(c);
    }
    // Each tab accepts its own challenge, all at once.
    for (tab, &id) in tabs.iter_mut().zip(&ids) {
        tab.send(ClientFrame::AcceptChallenge { id }).await;
    }
    let answers = tabs.iter_mut().map(|tab| async move {
        loop {
            match tab.next().await.expect("an answer to each acceptance") {
                ServerFrame::Game(state) if state.you.is_some() => return true,
                ServerFrame::Error { code, .. } => {
                    assert_eq!(code, ErrorCode::LimitReached);
                    return false;
                }
                _ => {}
            }
        }
    });
    let started = futures_util::future::join_all(answers).await;
    let started = started.iter().filter(|&&s| s).count();
    assert_eq!(started, 5, "exactly the places left under the cap");
    assert_eq!(waiting(&server, &busy).await.in_progress, 50);
    // Ten vacations at once: one is taken, the others are told one runs.
    let asks = (0..10).map(|_| vacation(&server, &busy, Some(14)));
    let answers = futures_util::future::join_all(asks).await;
    let taken = answers.iter().filter(|(status, _)| *status == 200).count();
    assert_eq!(taken, 1, "{answers:?}");
    assert!(answers
        .iter()
        .all(|(status, _)| [200, 400].contains(status)));
    let (_, view) = answers.iter().find(|(status, _)| *status == 200).unwrap();
    assert_eq!(view["days_left"], 0, "fourteen days taken, once: {view}");
    assert!(view["until_ms"].is_i64(), "{view}");
    server.shutdown().await;
}

/// Issue 49: many accounts asking to confirm one stranger's address (however they spell it)
/// get it three mails a day in all; the fourth is refused and sends nothing.
async fn an_inbox_gets_few_confirmations_whoever_asks(db: Db) {
    let sink = SmtpSink::start().await;
    let server = TestServer::start_with(db, |c| {
        c.smtp_url = Some(sink.url.clone());
        c.no_rate_limits = true;
    })
    .await;
    let spellings = [
        "victim@example.org",
        "Victim@Example.org",
        "victim+1@example.org",
        "VICTIM+spam@example.org",
        "victim+2@example.org",
    ];
    let mut statuses = Vec::new();
    for spelling in spellings {
        let asker = server.account("Asker").await;
        let (status, _) = email(&server, &asker, reqwest::Method::PUT, Some(spelling)).await;
        statuses.push(status);
    }
    assert_eq!(statuses, [202, 202, 202, 429, 429]);
    // Quoted spellings of the same inbox are no way around it.
    for spelling in ["\"victim\"@example.org", "\"v\\ictim\"@example.org"] {
        let asker = server.account("Asker").await;
        let (status, _) = email(&server, &asker, reqwest::Method::PUT, Some(spelling)).await;
        assert_eq!(status, 400, "{spelling}");
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(sink.mails().len(), 3);
    // Another inbox is not held back by it.
    let other = server.account("Other").await;
    let (status, _) = email(
        &server,
        &other,
        reqwest::Method::PUT,
        Some("me@example.org"),
    )
    .await;
    assert_eq!(status, 202);
    server.shutdown().await;
}

/// Issue 49: a game over days with nobody in it leaves memory. Its room sleeps once both
/// players have gone for the idle time (not while anyone is in it); its positions stay closed
/// to the engine; the next event brings it back with its moves, clocks and chat; and its clock
/// still ends it while it sleeps.
async fn an_idle_game_over_days_sleeps_and_comes_back(db: Db) {
    let server = TestServer::start_with(db, |c| {
        c.idle_game_s = 1;
        c.no_rate_limits = true;
    })
    .await;
    let (host, guest) = (server.account("Ren").await, server.account("Bo").await);
    let (mut red, mut blue, game) = private_game_between(&server, &host, &guest, THREE_DAYS).await;
    play(&mut red, &mut blue, game, &LINE[..10]).await;
    red.send(ClientFrame::Chat {
        game,
        preset: None,
        text: Some("until tomorrow".into()),
    })
    .await;
    expect_frame!(blue, ServerFrame::ChatLine { text, .. } if text.as_deref() == Some("until tomorrow"));

    // Someone in it keeps it awake.
    drop(blue);
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(server.games_asleep(), 0, "Red is still in it");
    drop(red);
    server.until_asleep(1).await;

    // Asleep, its board is still closed to the engine.
    let live = crate::fair_play::after(&LINE[..10]);
    let mut stranger = server.client(&server.account("Kai").await).await;
    assert_eq!(
        crate::fair_play::ask(&mut stranger, Some(live.to_string()), &[]).await,
        Err(ErrorCode::AnalysisUnavailable)
    );

    // A day later Red comes back: the game wakes as it was, a day charged to Red's clock,
    // the chat still there.
    server.config.time.advance(DAY);
    let (mut red, state) = back_to(&server, &host, game).await;
    assert_eq!(server.games_asleep(), 0);
    assert_eq!(state.status, GameStatus::Active);
    assert_eq!(state.moves, LINE[..10]);
    assert!(close_to(state.clocks.red_ms, 2 * DAY), "{:?}", state.clocks);
    expect_frame!(red, ServerFrame::ChatLine { text, .. } if text.as_deref() == Some("until tomorrow"));
    let (mut blue, _) = back_to(&server, &guest, game).await;
    red.mv(game, LINE[10]).await;
    assert_eq!(blue.expect_moved().await.0, LINE[10]);

    // It sleeps again, and Blue lets the three days pass: the game ends by Blue's clock
    // without anyone coming back.
    drop((red, blue));
    server.until_asleep(1).await;
    server
        .config
        .time
        .advance(3 * DAY + Duration::from_secs(60));
    let mut ended = None;
    for _ in 0..100 {
        let response = reqwest::get(server.url(&format!("/api/games/{game}")))
            .await
            .expect("GET the game");
        if response.status().as_u16() == 200 {
            let record: http::GameRecord = response.json().await.expect("a game");
            if record.status != GameStatus::Active {
                ended = Some(record);
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ended = ended.expect("the game ended by its clock");
    assert_eq!(ended.reason, Some(Reason::Timeout));
    assert_eq!(ended.winner, Some(Side::Red));
    assert_eq!(server.games_asleep(), 0, "an ended game is forgotten");
    assert_eq!(
        crate::fair_play::ask(&mut stranger, Some(live.to_string()), &[]).await,
        Ok(()),
        "its positions are open again"
    );
    server.shutdown().await;
}

both_stores!(
    a_game_over_days_keeps_its_deadlines,
    a_first_move_never_made_aborts,
    a_vacation_stops_the_players_turns,
    a_mail_comes_when_it_is_your_turn,
    fifty_games_over_days_at_most,
    a_bot_challenges_over_days,
    who_may_start_a_game_over_days,
    caps_hold_against_requests_at_once,
    an_inbox_gets_few_confirmations_whoever_asks,
    an_idle_game_over_days_sleeps_and_comes_back,
);
