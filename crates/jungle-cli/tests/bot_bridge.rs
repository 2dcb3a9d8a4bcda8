//! `jungle bot` (issue 26), black-box: two bots, each run by its own bridge with our engine
//! (`jungle uci`), play a whole rated game against each other on a real server, on both
//! stores; one bridge is killed in the middle and started again, and picks its game up.

#[path = "../../jungle-server/tests/server/common/mod.rs"]
mod common;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::*;
use serde_json::{json, Value};

/// A bridge running our engine at level 1 for the bot with `token`.
fn bridge(server: &TestServer, token: &str) -> Child {
    bridge_with(server, token, &[])
}

fn bridge_with(server: &TestServer, token: &str, extra: &[&str]) -> Child {
    let jungle = env!("CARGO_BIN_EXE_jungle");
    Command::new(jungle)
        .args(["bot", "--url", &server.url(""), "--engine"])
        .arg(format!("{jungle} uci --level 1"))
        .args(extra)
        .env("JUNGLE_TOKEN", token)
        .stdin(Stdio::null())
        .spawn()
        .expect("the bridge starts")
}

/// Kills the bridges even when the test fails half-way.
struct Bridges(Vec<Child>);

impl Drop for Bridges {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

async fn username(server: &TestServer, player: &Player) -> String {
    server
        .get::<http::PlayerProfile>(&format!("/api/players/{}", player.id))
        .await
        .username
        .expect("an account")
}

/// The game's stored record, as anyone may read it.
async fn record(server: &TestServer, game: &str) -> Value {
    server.get(&format!("/api/games/{game}")).await
}

async fn two_bridged_bots_play_a_whole_rated_game(db: Db) {
    let server = TestServer::start(db).await;
    let (alpha, alpha_token) = bot(&server, "Alpha").await;
    let (beta, beta_token) = bot(&server, "Beta").await;
    let mut bridges = Bridges(vec![
        bridge(&server, &alpha_token),
        bridge(&server, &beta_token),
    ]);
    // Alpha challenges Beta through its bridge's event stream, once the bridges are up.
    let beta_name = username(&server, &beta).await;
    let body = json!({ "rated": true, "clock": { "limit": 120, "increment": 1 }, "color": "red" });
    let mut tries = 0;
    loop {
        let (status, answer) = call(
            &server,
            reqwest::Method::POST,
            &format!("/api/challenge/{beta_name}"),
            &alpha_token,
            Some(body.clone()),
        )
        .await;
        if status == 200 {
            break;
        }
        tries += 1;
        // Not yet connected: no event stream, or Beta not yet online.
        assert!(
            tries < 100,
            "the challenge was never sent: {status} {answer}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Beta's bridge accepts; the game begins.
    let game = loop {
        let games: Vec<http::GameSummary> = server
            .get(&format!("/api/players/{}/games", alpha.id))
            .await;
        if let Some(game) = games.first() {
            assert_eq!((game.red, game.blue, game.rated), (alpha.id, beta.id, true));
            break game.id.to_string();
        }
        tries += 1;
        assert!(tries < 200, "Beta's bridge never accepted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // A few moves in, Beta's bridge dies and comes back: its game is picked up again.
    let waited = std::time::Instant::now();
    while record(&server, &game).await["moves"]
        .as_array()
        .map_or(0, Vec::len)
        < 6
    {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "no moves played"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let beta_bridge = &mut bridges.0[1];
    beta_bridge.kill().unwrap();
    beta_bridge.wait().unwrap();
    bridges.0[1] = bridge(&server, &beta_token);
    // Played to the end by both engines.
    let finished = loop {
        let seen = record(&server, &game).await;
        if seen["status"] != "active" {
            break seen;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(240),
            "the game did not end: {} moves",
            seen["moves"].as_array().map_or(0, Vec::len)
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let reason = finished["reason"].as_str().unwrap_or("").to_owned();
    assert_eq!(finished["status"], "finished", "{finished}");
    assert!(
        !["abandoned", "timeout", "aborted", "resign"].contains(&reason.as_str()),
        "played out, not given up: {reason}"
    );
    assert!(finished["moves"].as_array().unwrap().len() > 6);
    // Rated for both, on the bots' leaderboard.
    for player in [&alpha, &beta] {
        let profile: http::PlayerProfile = server.get(&format!("/api/players/{}", player.id)).await;
        assert_eq!(profile.title.as_deref(), Some("BOT"));
        assert_eq!(profile.ratings["classic"].games, 1, "{}", player.id);
    }
    drop(bridges);
    server.shutdown().await;
}

/// Two bridges told to join an arena for bots play the games its director pairs.
async fn bridged_bots_play_in_their_arena(db: Db) {
    let server = TestServer::start(db).await;
    let host = server.account("Organiser").await;
    let id = bots_arena(&server, &host, 60).await;
    let mut bridges = Bridges(Vec::new());
    for name in ["Gamma", "Delta"] {
        let (_, token) = bot(&server, name).await;
        bridges
            .0
            .push(bridge_with(&server, &token, &["--arena", &id]));
    }
    let waited = std::time::Instant::now();
    loop {
        let shown: http::Tournament = server.get(&format!("/api/tournaments/{id}")).await;
        let played: u32 = shown.standings.iter().map(|s| s.score.games).sum();
        // Both entered, and their first game, played out, counted for both.
        if shown.standings.len() == 2 && played >= 2 {
            break;
        }
        assert!(waited.elapsed() < Duration::from_secs(120), "{shown:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    drop(bridges);
    server.shutdown().await;
}

/// Longer than the bridge waits in silence before it takes a stream for dead (30 s).
const LONGER_THAN_SILENCE: Duration = Duration::from_secs(40);

/// A bridged bot plays a person on a 10-minute clock who takes two seconds a move, for longer
/// than the bridge's read timeout: its event stream and its game stream stay open throughout
/// (issue 50: the event stream went silent while a game moved, and the bridge reconnected
/// every 30 s).
async fn a_bridged_game_of_ten_minutes_keeps_its_streams(db: Db) {
    use jungle_protocol::{ClientFrame, ServerFrame};
    let server = TestServer::start(db).await;
    let (_, token) = bot(&server, "Patient").await;
    let person = server.account("Walker").await;
    let walker = username(&server, &person).await;
    let mut client = server.client(&person).await;
    let jungle = env!("CARGO_BIN_EXE_jungle");
    let mut child = Command::new(jungle)
        .args(["bot", "--url", &server.url(""), "--engine"])
        .arg(format!("{jungle} uci --level 1"))
        .env("JUNGLE_TOKEN", &token)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the bridge starts");
    let said = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(said).unwrap_or_default());
    let mut bridges = Bridges(vec![child]);
    let started = std::time::Instant::now();
    let mut games = 0;
    // Games follow one another until the time is up: a game the bot wins early is no failure.
    while started.elapsed() < LONGER_THAN_SILENCE {
        let body =
            json!({ "rated": false, "clock": { "limit": 600, "increment": 0 }, "color": "blue" });
        let mut tries = 0;
        while call(
            &server,
            reqwest::Method::POST,
            &format!("/api/challenge/{walker}"),
            &token,
            Some(body.clone()),
        )
        .await
        .0 != 200
        {
            tries += 1;
            assert!(tries < 100, "the bridge never came online");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let id = expect_frame!(client, ServerFrame::Challenged { challenge } => challenge.id);
        client.send(ClientFrame::AcceptChallenge { id }).await;
        let state = client.expect_game().await;
        let game = state.game;
        games += 1;
        let mut legal = state.legal;
        loop {
            tokio::time::sleep(Duration::from_secs(2)).await;
            if started.elapsed() >= LONGER_THAN_SILENCE {
                client.send(ClientFrame::Resign { game }).await;
                client.expect_over().await;
                break;
            }
            client.mv(game, &legal[0]).await;
            // Our move, then the bot's, with the moves we may play next.
            let over = loop {
                match client.next().await.expect("the game goes on") {
                    ServerFrame::Moved {
                        legal: next,
                        turn: jungle_rules::Side::Red,
                        ..
                    } => {
                        legal = next;
                        break false;
                    }
                    ServerFrame::GameOver { .. } => break true,
                    _ => {}
                }
            };
            if over {
                break;
            }
        }
    }
    // Stopped, so that all it said can be read.
    let mut child = bridges.0.pop().expect("the bridge");
    let _ = child.kill();
    let _ = child.wait();
    let said = reader.join().unwrap();
    assert_eq!(
        said.matches("jungle bot: connected to").count(),
        1,
        "one event stream for {games} games over {:?}:\n{said}",
        started.elapsed()
    );
    assert!(
        !said.contains("connecting again") && !said.contains("opening it again"),
        "no stream was opened again:\n{said}"
    );
    drop(bridges);
    server.shutdown().await;
}

both_stores!(
    two_bridged_bots_play_a_whole_rated_game,
    bridged_bots_play_in_their_arena
);

mod a_bridged_game_of_ten_minutes {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        super::a_bridged_game_of_ten_minutes_keeps_its_streams(super::Db::Sqlite).await;
    }
}
