//! Tournaments (issue 15): creating and listing them over HTTP; arenas played out by simulated
//! players over the protocol (pairing, scoring with streaks, colours, the 10-move rule lifted);
//! private codes and the refusals; aborted games; a restart in the middle.
//!
//! Long (about 700 lines): the arena simulation's helpers (simulated players, the followed table)
//! serve every scenario here; the listing's tests are in `listing.rs`.

use std::collections::HashMap;
use std::time::Duration;

use crate::common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

mod listing;

async fn create(server: &TestServer, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .post(server.url("/api/tournaments"))
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let answer = request.send().await.unwrap();
    (
        answer.status().as_u16(),
        answer.json().await.unwrap_or(Value::Null),
    )
}

fn arena(name: &str) -> Value {
    json!({ "name": name, "rules": "classic", "clock": { "kind": "fischer", "base_s": 180, "inc_s": 2 }, "minutes": 30 })
}

async fn tournaments_are_made_listed_and_shown(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.account("Evening host").await;
    // The public list is for accounts; a guest may hold a private arena.
    let guest = server.player("Guest host").await;
    let (status, answer) = create(&server, Some(&guest.token), arena("Guest arena")).await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (403, Some("account_required"))
    );
    let mut guest_private = arena("Guests' club");
    guest_private["private"] = json!(true);
    assert_eq!(
        create(&server, Some(&guest.token), guest_private).await.0,
        201
    );
    let (status, made) = create(&server, Some(&host.token), arena("Evening arena")).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["code"], Value::Null, "public");
    let id: Uuid = made["id"].as_str().unwrap().parse().unwrap();
    let mut private = arena("Club night");
    private["private"] = json!(true);
    private["starts_at"] = json!("2099-01-01T00:00:00Z");
    let (status, _) = create(&server, Some(&host.token), private.clone()).await;
    assert_eq!(status, 400, "more than 30 days ahead");
    let soon = server_time_in(3600);
    private["starts_at"] = json!(soon);
    let (status, made) = create(&server, Some(&host.token), private).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["code"].as_str().map(str::len), Some(8));

    let listed: http::Tournaments = server.get("/api/tournaments").await;
    assert_eq!(listed.running.len(), 1, "the private one is not listed");
    assert_eq!(listed.running[0].name, "Evening arena");
    assert!(listed.upcoming.is_empty());
    let shown: http::Tournament = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(shown.status, http::TournamentStatus::Running);
    assert_eq!(
        (shown.rules, shown.rated, shown.private),
        (Ruleset::Classic, false, false)
    );
    assert!(shown.standings.is_empty());
    let length = jungle_game::time_text::parse_rfc3339(&shown.ends_at).unwrap()
        - jungle_game::time_text::parse_rfc3339(&shown.starts_at).unwrap();
    assert_eq!(length, 30 * 60_000);

    // Refusals change nothing.
    let mut bad_cases = Vec::new();
    for (key, value) in [
        ("minutes", json!(0)),
        ("minutes", json!(721)),
        ("name", json!("   ")),
        ("starts_at", json!("tomorrow")),
        (
            "clock",
            json!({ "kind": "fischer", "base_s": 0, "inc_s": 0 }),
        ),
    ] {
        let mut body = arena("Bad");
        body[key] = value;
        bad_cases.push(body);
    }
    for body in bad_cases {
        let (status, answer) = create(&server, Some(&host.token), body.clone()).await;
        assert_eq!(status, 400, "{body} → {answer}");
    }
    assert_eq!(create(&server, None, arena("Anonymous")).await.0, 401);
    // At most three to come or running per player.
    assert_eq!(
        create(&server, Some(&host.token), arena("Third")).await.0,
        201
    );
    let (status, answer) = create(&server, Some(&host.token), arena("Fourth")).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        server
            .get_status(&format!("/api/tournaments/{}", Uuid::new_v4()))
            .await
            .0,
        404
    );
    server.shutdown().await;
}

/// RFC 3339 for `seconds` from now, as the server reads it.
fn server_time_in(seconds: i64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    jungle_game::time_text::rfc3339(now + seconds * 1000)
}

/// The next frame within `wait`, or `None` (timed out or closed).
async fn next_within(client: &mut Client, wait: Duration) -> Option<ServerFrame> {
    let read = async {
        loop {
            match client.ws.next().await? {
                Ok(Message::Text(text)) => return serde_json::from_str(&text).ok(),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => continue,
            }
        }
    };
    tokio::time::timeout(wait, read).await.ok().flatten()
}

/// Frames until one matches `pick`, within `wait` in all.
async fn wait_for<T>(
    client: &mut Client,
    wait: Duration,
    mut pick: impl FnMut(&ServerFrame) -> Option<T>,
) -> T {
    let until = tokio::time::Instant::now() + wait;
    loop {
        let left = until.saturating_duration_since(tokio::time::Instant::now());
        let frame = next_within(client, left)
            .await
            .expect("the frame awaited came in time");
        if let Some(found) = pick(&frame) {
            return found;
        }
    }
}

fn join(id: Uuid, code: Option<&str>) -> ClientFrame {
    ClientFrame::JoinTournament {
        id,
        code: code.map(str::to_owned),
    }
}

async fn create_id(server: &TestServer, token: &str, body: Value) -> (Uuid, Option<String>) {
    let (status, made) = create(server, Some(token), body).await;
    assert_eq!(status, 201, "{made}");
    (
        made["id"].as_str().unwrap().parse().unwrap(),
        made["code"].as_str().map(str::to_owned),
    )
}

/// What one simulated player saw of the arena.
#[derive(Debug, Default)]
struct Played {
    /// (game, colour, opponent, won) in the order the games ended.
    games: Vec<(Uuid, Side, Uuid, Option<bool>)>,
}

/// Plays every tournament game it is given until the tournament is over: each game is the den
/// walk of `DEN_WIN_AT_PLY_13` (Red wins at ply 13, within the 10-move rule), each side
/// playing its own half. Checks that no game comes while another is in play.
async fn simulated_player(mut client: Client, tournament: Uuid) -> Played {
    let me = client.player_id();
    let mut played = Played::default();
    let mut current: Option<(Uuid, Side, Uuid)> = None;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(150);
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        assert!(!left.is_zero(), "the arena ended in time");
        let Some(frame) = next_within(&mut client, left).await else {
            panic!("the connection stayed open");
        };
        let to_play = match frame {
            ServerFrame::Game(state) if state.tournament == Some(tournament) => {
                if state.status != GameStatus::Active {
                    continue;
                }
                let side = state.you.expect("a tournament game is the player's own");
                let opponent = match side {
                    Side::Red => state.blue.as_ref().unwrap().id,
                    Side::Blue => state.red.as_ref().unwrap().id,
                };
                assert_ne!(opponent, me, "paired with oneself");
                if let Some((game, ..)) = current {
                    assert_eq!(game, state.game, "a second game while one is in play");
                }
                current = Some((state.game, side, opponent));
                (state.turn == side).then_some((state.game, state.moves.len()))
            }
            ServerFrame::Moved {
                game, ply, turn, ..
            } => match current {
                Some((current_game, side, _)) if current_game == game && turn == side => {
                    Some((game, ply))
                }
                _ => None,
            },
            ServerFrame::GameOver {
                game,
                winner,
                rated,
                rating_change,
                ..
            } => {
                if let Some((current_game, side, opponent)) = current {
                    if current_game == game {
                        assert!(rated, "a rated tournament game rates, even by ply 13");
                        assert!(rating_change.is_some());
                        played
                            .games
                            .push((game, side, opponent, winner.map(|w| w == side)));
                        current = None;
                    }
                }
                None
            }
            ServerFrame::TournamentStandings { id, status, .. }
                if id == tournament && status == http::TournamentStatus::Finished =>
            {
                assert!(current.is_none(), "finished with a game in play");
                return played;
            }
            _ => None,
        };
        if let Some((game, ply)) = to_play {
            if ply < DEN_WIN_AT_PLY_13.len() {
                client.mv(game, DEN_WIN_AT_PLY_13[ply]).await;
            }
        }
    }
}

/// Applies `tournament_standings` frames (lines by number, the order when it changes) until the
/// tournament is finished; the table as (player, points, games, streak), best first. Checks
/// that the frames come in sequence.
async fn follow_table(mut client: Client, tournament: Uuid) -> Vec<(Uuid, u32, u32, u32)> {
    let mut lines: HashMap<u32, jungle_protocol::StandingLine> = HashMap::new();
    let mut order: Vec<u32> = Vec::new();
    let mut seq = None;
    loop {
        let frame = next_within(&mut client, Duration::from_secs(150))
            .await
            .expect("standings until the end");
        let ServerFrame::TournamentStandings {
            id,
            seq: at,
            full,
            status,
            lines: changed,
            order: new_order,
            players,
            ..
        } = frame
        else {
            continue;
        };
        assert_eq!(id, tournament);
        if let (Some(before), false) = (seq, full) {
            assert_eq!(at, before + 1, "no gap");
        }
        seq = Some(at);
        if full {
            lines.clear();
        }
        for line in changed {
            lines.insert(line.n, line);
        }
        if let Some(new_order) = new_order {
            order = new_order;
        }
        assert_eq!(order.len(), players as usize);
        if status == http::TournamentStatus::Finished {
            return order
                .iter()
                .map(|n| {
                    let l = &lines[n];
                    (
                        l.score.player,
                        l.score.points,
                        l.score.games,
                        l.score.streak,
                    )
                })
                .collect();
        }
    }
}

/// The points a sequence of results scores: 2 a win, 1 a draw, and 4 a win after two wins in
/// a row.
fn arena_points(results: &[Option<bool>]) -> u32 {
    let (mut points, mut streak) = (0, 0);
    for result in results {
        match result {
            Some(true) => {
                points += if streak >= 2 { 4 } else { 2 };
                streak += 1;
            }
            Some(false) => streak = 0,
            None => {
                points += 1;
                streak = 0;
            }
        }
    }
    points
}

async fn an_arena_is_played_out_and_every_game_scored_once(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let host = server.account("Host").await;
    let mut body = arena("Quick arena");
    body["minutes"] = json!(1);
    body["rated"] = json!(true);
    body["clock"] = json!({ "kind": "fischer", "base_s": 30, "inc_s": 0 });
    let (id, _) = create_id(&server, &host.token, body).await;
    let mut tasks = Vec::new();
    let mut ids = Vec::new();
    for n in 0..6 {
        let player = server.account(&format!("Arena player {n}")).await;
        let mut client = server.client(&player).await;
        client.send(join(id, None)).await;
        wait_for(&mut client, WAIT, |f| match f {
            ServerFrame::TournamentEntry { id: t, active } if *t == id => Some(*active),
            _ => None,
        })
        .await
        .then_some(())
        .expect("active once joined");
        ids.push(player.id);
        tasks.push(tokio::spawn(simulated_player(client, id)));
    }
    // A spectator follows the table from its frames alone.
    let mut spectator = server.client(&server.player("Spectator").await).await;
    spectator.send(ClientFrame::WatchTournament { id }).await;
    let follower = tokio::spawn(follow_table(spectator, id));
    let mut results: HashMap<Uuid, Played> = HashMap::new();
    for (player, task) in ids.iter().zip(tasks) {
        results.insert(*player, task.await.unwrap());
    }
    let shown: http::Tournament = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(shown.status, http::TournamentStatus::Finished);
    assert_eq!(shown.standings.len(), 6);
    let mut games_seen = HashMap::new();
    for line in &shown.standings {
        let played = &results[&line.score.player];
        let outcomes: Vec<Option<bool>> = played.games.iter().map(|g| g.3).collect();
        assert!(
            played.games.len() >= 3,
            "{}: {} games",
            line.score.name,
            played.games.len()
        );
        assert_eq!(
            line.score.games as usize,
            played.games.len(),
            "{}",
            line.score.name
        );
        assert_eq!(
            line.score.points,
            arena_points(&outcomes),
            "{}: {outcomes:?}",
            line.score.name
        );
        for (game, side, opponent, _) in &played.games {
            // Both players saw each game, with opposite colours.
            if let Some((other_side, other)) = games_seen.insert(*game, (*side, line.score.player))
            {
                assert_eq!((other_side, other), (!*side, *opponent));
            }
        }
        // Colours balance: never the same colour three times running when avoidable; with
        // six players someone else is always free, so it never happens.
        let colours: Vec<Side> = played.games.iter().map(|g| g.1).collect();
        let reds = colours.iter().filter(|c| **c == Side::Red).count() as i64;
        assert!(
            (2 * reds - colours.len() as i64).abs() <= 2,
            "{}: {colours:?}",
            line.score.name
        );
        assert!(
            !colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
            "{}: {colours:?}",
            line.score.name
        );
    }
    // The standings are in rank order, by points; the spectator's table, rebuilt from the
    // changes it was sent, is the same.
    assert!(shown
        .standings
        .windows(2)
        .all(|w| w[0].score.points >= w[1].score.points));
    let rebuilt = follower.await.unwrap();
    let expected: Vec<(Uuid, u32, u32, u32)> = shown
        .standings
        .iter()
        .map(|l| {
            (
                l.score.player,
                l.score.points,
                l.score.games,
                l.score.streak,
            )
        })
        .collect();
    assert_eq!(rebuilt, expected);
    assert_eq!(
        shown.standings.iter().map(|l| l.rank).collect::<Vec<_>>(),
        (1..=6).collect::<Vec<_>>()
    );
    // Each game counted once in the ratings too: one rating change per game and player.
    let mut db = <sqlx::AnyConnection as sqlx::Connection>::connect(&server.config.database_url)
        .await
        .unwrap();
    let rated: i64 = sqlx::Row::get(
        &sqlx::query(
            "SELECT COUNT(*) AS n FROM rating_history h JOIN tournament_games tg ON tg.game_id = h.game_id
             WHERE tg.tournament_id = $1",
        )
        .bind(id.to_string())
        .fetch_one(&mut db)
        .await
        .unwrap(),
        "n",
    );
    assert_eq!(rated as usize, 2 * games_seen.len());
    server.shutdown().await;
}

async fn joining_is_refused_with_a_code_of_its_own(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let host = server.account("Club host").await;
    let mut private = arena("Club night");
    private["private"] = json!(true);
    let (club, code) = create_id(&server, &host.token, private).await;
    let code = code.expect("a private tournament has a code");
    let (open, _) = create_id(&server, &host.token, arena("Open arena")).await;
    let mut rated = arena("Rated arena");
    rated["rated"] = json!(true);
    let (rated, _) = create_id(&server, &host.token, rated).await;

    let guest = server.player("Guest player").await;
    let mut client = server.client(&guest).await;
    client.send(join(club, None)).await;
    client.expect_error(ErrorCode::TournamentCode).await;
    client.send(join(club, Some("AAAAAAAA"))).await;
    client.expect_error(ErrorCode::TournamentCode).await;
    client.send(join(rated, None)).await;
    client.expect_error(ErrorCode::AccountRequired).await;
    client.send(join(Uuid::new_v4(), None)).await;
    client.expect_error(ErrorCode::UnknownTournament).await;
    // Nobody joined by any of these.
    let shown: http::Tournament = server.get(&format!("/api/tournaments/{club}")).await;
    assert!(shown.standings.is_empty());

    // The code, in any case, lets in; a second join is refused.
    client.send(join(club, Some(&code.to_lowercase()))).await;
    wait_for(&mut client, WAIT, |f| match f {
        ServerFrame::TournamentEntry { id, active: true } if *id == club => Some(()),
        _ => None,
    })
    .await;
    client.send(join(club, Some(&code))).await;
    client.expect_error(ErrorCode::AlreadyJoined).await;

    // Joining another pauses this one (one tournament at a time)…
    let mut other = server.client(&server.player("Other player").await).await;
    other.send(join(open, None)).await;
    client.send(join(open, None)).await;
    wait_for(&mut client, WAIT, |f| match f {
        ServerFrame::TournamentEntry { id, active: false } if *id == club => Some(()),
        _ => None,
    })
    .await;
    // …and the two in the open arena are paired.
    let game = wait_for(&mut client, Duration::from_secs(15), |f| match f {
        ServerFrame::Game(state) if state.tournament == Some(open) => Some(state.game),
        _ => None,
    })
    .await;
    // While that game is in play, the club is out of reach.
    client.send(join(club, Some(&code))).await;
    client.expect_error(ErrorCode::InTournamentGame).await;
    let _ = game;

    // A tournament that is over refuses everyone (made over by hand, then a restart).
    let mut server = server;
    let mut db = <sqlx::AnyConnection as sqlx::Connection>::connect(&server.config.database_url)
        .await
        .unwrap();
    drop(client);
    drop(other);
    sqlx::query("UPDATE tournaments SET starts_at = starts_at - 7200000, ends_at = starts_at - 3600000 WHERE id = $1")
        .bind(rated.to_string())
        .execute(&mut db)
        .await
        .unwrap();
    server.restart().await;
    let mut client = server.client(&guest).await;
    client.send(join(rated, None)).await;
    client.expect_error(ErrorCode::TournamentOver).await;
    server.shutdown().await;
}

async fn an_aborted_game_scores_nothing_and_pauses_the_absent_player(db: Db) {
    let server = TestServer::start_with(db, |c| {
        c.no_rate_limits = true;
        c.abort_s = 2;
    })
    .await;
    let host = server.account("Host").await;
    let (id, _) = create_id(&server, &host.token, arena("Sleepy arena")).await;
    let mut a = server.client(&server.player("Awake").await).await;
    let mut b = server.client(&server.player("Asleep").await).await;
    a.send(join(id, None)).await;
    b.send(join(id, None)).await;
    let state = wait_for(&mut a, Duration::from_secs(15), |f| match f {
        ServerFrame::Game(state) if state.tournament == Some(id) => Some(state.clone()),
        _ => None,
    })
    .await;
    // Red never moves: the game is aborted and Red is paused.
    let red = state.red.as_ref().unwrap().id;
    let (mut red_client, _) = if red == a.player_id() { (a, b) } else { (b, a) };
    wait_for(&mut red_client, Duration::from_secs(10), |f| match f {
        ServerFrame::TournamentEntry {
            id: t,
            active: false,
        } if *t == id => Some(()),
        _ => None,
    })
    .await;
    // The standings (sent live, and shown by the API) mark Red paused.
    let lines = wait_for(&mut red_client, Duration::from_secs(5), |f| match f {
        ServerFrame::TournamentStandings { lines, .. }
            if lines
                .iter()
                .any(|l| l.score.player == red && l.score.paused) =>
        {
            Some(lines.clone())
        }
        _ => None,
    })
    .await;
    assert!(!lines.is_empty());
    let shown: http::Tournament = server.get(&format!("/api/tournaments/{id}")).await;
    for line in &shown.standings {
        assert_eq!(
            (line.score.points, line.score.games),
            (0, 0),
            "{}",
            line.score.name
        );
        assert_eq!(
            line.score.paused,
            line.score.player == red,
            "{}",
            line.score.name
        );
    }
    // Coming back is a join.
    red_client.send(join(id, None)).await;
    wait_for(&mut red_client, WAIT, |f| match f {
        ServerFrame::TournamentEntry {
            id: t,
            active: true,
        } if *t == id => Some(()),
        _ => None,
    })
    .await;
    server.shutdown().await;
}

async fn a_restart_mid_tournament_loses_nothing(db: Db) {
    let mut server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let host = server.account("Host").await;
    let (id, _) = create_id(&server, &host.token, arena("Restarted arena")).await;
    let before: http::Tournament = server.get(&format!("/api/tournaments/{id}")).await;
    let (pa, pb) = (server.player("First").await, server.player("Second").await);
    let (mut a, mut b) = (server.client(&pa).await, server.client(&pb).await);
    a.send(join(id, None)).await;
    b.send(join(id, None)).await;
    let state = wait_for(&mut a, Duration::from_secs(15), |f| match f {
        ServerFrame::Game(state) if state.tournament == Some(id) => Some(state.clone()),
        _ => None,
    })
    .await;
    let game = state.game;
    wait_for(&mut b, WAIT, |f| match f {
        ServerFrame::Game(s) if s.game == game => Some(()),
        _ => None,
    })
    .await;
    let (mut red, mut blue) = if state.you == Some(Side::Red) {
        (a, b)
    } else {
        (b, a)
    };
    play(&mut red, &mut blue, game, &DEN_WIN_AT_PLY_13[..4]).await;
    drop((red, blue));
    server.restart().await;
    // Both come back to the game, which is still the tournament's, and finish it.
    let (mut a, mut b) = (server.client(&pa).await, server.client(&pb).await);
    for client in [&mut a, &mut b] {
        let state = wait_for(client, WAIT, |f| match f {
            ServerFrame::Game(s) if s.game == game => Some(s.clone()),
            _ => None,
        })
        .await;
        assert_eq!(state.tournament, Some(id));
        assert_eq!(state.moves.len(), 4);
    }
    let red_id = state.red.as_ref().unwrap().id;
    let (mut red, mut blue) = if red_id == pa.id { (a, b) } else { (b, a) };
    // They rejoin to be paired again after it (the entry stays active through a restart).
    for (i, mv) in DEN_WIN_AT_PLY_13.iter().enumerate().skip(4) {
        let mover = if i % 2 == 0 { &mut red } else { &mut blue };
        mover.mv(game, mv).await;
        wait_for(mover, WAIT, |f| match f {
            ServerFrame::Moved { game: g, ply, .. } if *g == game && *ply == i + 1 => Some(()),
            _ => None,
        })
        .await;
    }
    wait_for(&mut red, WAIT, |f| match f {
        ServerFrame::GameOver { game: g, .. } if *g == game => Some(()),
        _ => None,
    })
    .await;
    // Scored once, the end time unmoved, and the two paired again.
    let next = wait_for(&mut red, Duration::from_secs(15), |f| match f {
        ServerFrame::Game(s) if s.tournament == Some(id) && s.game != game => Some(s.game),
        _ => None,
    })
    .await;
    assert_ne!(next, game);
    let after: http::Tournament = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(after.ends_at, before.ends_at);
    let points: HashMap<Uuid, (u32, u32)> = after
        .standings
        .iter()
        .map(|l| (l.score.player, (l.score.points, l.score.games)))
        .collect();
    assert_eq!(points[&red_id], (2, 1));
    let blue_id = if red_id == pa.id { pb.id } else { pa.id };
    assert_eq!(points[&blue_id], (0, 1));
    server.shutdown().await;
}

/// Resigning a tournament game before one's first move pauses the resigner, like a game
/// aborted: a pair resigning at once, again and again, would fill the tournament with games
/// (found by a cold test). Pairings of one player are 20 s apart at least.
async fn resigning_before_moving_pauses_the_resigner(db: Db) {
    let server = TestServer::start_with(db, |c| c.no_rate_limits = true).await;
    let host = server.player("Host").await;
    let mut body = arena("Quick quitters");
    body["private"] = json!(true);
    let (id, code) = create_id(&server, &host.token, body).await;
    let mut a = server.client(&server.player("Quitter").await).await;
    let mut b = server.client(&server.player("Stayer").await).await;
    a.send(join(id, code.as_deref())).await;
    b.send(join(id, code.as_deref())).await;
    let state = wait_for(&mut a, Duration::from_secs(15), |f| match f {
        ServerFrame::Game(state) if state.tournament == Some(id) => Some(state.clone()),
        _ => None,
    })
    .await;
    // Whoever is Blue resigns before moving.
    let blue = state.blue.as_ref().unwrap().id;
    let (mut quitter, mut stayer) = if blue == a.player_id() {
        (a, b)
    } else {
        (b, a)
    };
    quitter.send(ClientFrame::Resign { game: state.game }).await;
    wait_for(&mut quitter, WAIT, |f| match f {
        ServerFrame::TournamentEntry {
            id: t,
            active: false,
        } if *t == id => Some(()),
        _ => None,
    })
    .await;
    // The other is not paused, and is not paired again at once.
    let again = next_within(&mut stayer, Duration::from_secs(6)).await;
    let repaired = matches!(again, Some(ServerFrame::Game(ref s)) if s.tournament == Some(id) && s.game != state.game);
    assert!(!repaired, "{again:?}");
    server.shutdown().await;
}

both_stores!(
    resigning_before_moving_pauses_the_resigner,
    tournaments_are_made_listed_and_shown,
    an_arena_is_played_out_and_every_game_scored_once,
    joining_is_refused_with_a_code_of_its_own,
    an_aborted_game_scores_nothing_and_pauses_the_absent_player,
    a_restart_mid_tournament_loses_nothing,
);
