//! lichess's own Python client, berserk (pinned in `tests/berserk/requirements.txt`), against a
//! real server (issue 50): a bot and two people, written with berserk's unchanged methods only,
//! play whole games in every ruleset and use every method that makes sense here
//! (`tests/berserk/conformance.py` says what each scenario does). This side starts the server,
//! makes the accounts and tokens, and gives the script legal lines of play, since the script
//! knows no rules of Jungle.
//!
//! The Python with berserk installed is `$JUNGLE_BERSERK_PYTHON` (`./scripts/test` makes it);
//! in CI its absence fails the test, elsewhere it is skipped with a word on stderr.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use jungle_rules::{Game, Position, Ruleset, Side};
use serde_json::{json, Value};

use crate::common::*;

/// The Python to run the script with, or `None` (outside CI) when there is none.
fn python() -> Option<PathBuf> {
    match std::env::var_os("JUNGLE_BERSERK_PYTHON") {
        Some(path) => Some(PathBuf::from(path)),
        None if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("JUNGLE_BERSERK_PYTHON is not set: run ./scripts/test, which installs berserk")
        }
        None => {
            eprintln!(
                "skipped: JUNGLE_BERSERK_PYTHON is not set (./scripts/test installs berserk)"
            );
            None
        }
    }
}

/// A small generator, so that each run plays the same lines.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A line of legal moves in `rules` from the start that ends the game with a winner, at least
/// `at_least` plies long: random moves, but a move that wins at once is always taken.
fn decisive_line(rules: Ruleset, at_least: usize) -> (Vec<String>, &'static str, &'static str) {
    for seed in 1..10_000u64 {
        let mut random = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut game = Game::new(rules.rules(), Position::start());
        let mut moves = Vec::new();
        while game.outcome().is_none() && moves.len() < 300 {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mover = game.position().side_to_move();
            let winning = legal.iter().copied().find(|&m| {
                let mut after = game.clone();
                after.play(m.into()).is_ok()
                    && after.outcome().is_some_and(|o| o.winner == Some(mover))
            });
            let pick = winning.unwrap_or_else(|| legal[random.below(legal.len())]);
            game.play(pick.into()).expect("a legal move");
            moves.push(pick.to_string());
        }
        let Some(outcome) = game.outcome() else {
            continue;
        };
        let Some(winner) = outcome.winner else {
            continue;
        };
        if moves.len() < at_least {
            continue;
        }
        let reason = jungle_protocol::Reason::from(outcome.reason).name();
        let winner = match winner {
            Side::Red => "red",
            Side::Blue => "blue",
        };
        return (moves, reason, winner);
    }
    panic!("no decisive line in {rules:?}");
}

/// Runs `scenario` of the script against `server`, as the bot `bot` and the people.
async fn run(server: &TestServer, scenario: &str, python: PathBuf, budget: Duration) {
    let (_, bot_token) = bot(server, "Berserker").await;
    let (_, quitter_token) = bot(server, "Quitter").await;
    let person = |name: &'static str| async move {
        let (_, _, session) = signed_in(server, name).await;
        new_token(server, &session, &["board:play", "challenge:write"])
            .await
            .token
    };
    let (ada, bea) = (person("Ada").await, person("Bea").await);
    let lines: serde_json::Map<String, Value> = Ruleset::ALL
        .iter()
        .map(|&rules| {
            let (moves, status, winner) = decisive_line(rules, 20);
            (
                rules.name().to_owned(),
                json!({ "moves": moves, "status": status, "winner": winner }),
            )
        })
        .collect();
    let config = json!({
        "base_url": server.url("/"),
        "bot": { "token": bot_token },
        "quitter": { "token": quitter_token },
        "ada": { "token": ada },
        "bea": { "token": bea },
        "lines": lines,
        "ten_plies": 16,
    });
    let dir = std::env::temp_dir().join(format!("berserk-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let config_path = dir.join("config.json");
    std::fs::write(&config_path, config.to_string()).unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/berserk/conformance.py");
    let child = tokio::process::Command::new(python)
        .arg(script)
        .arg(scenario)
        .arg(&config_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("python runs");
    let output = tokio::time::timeout(budget, child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("the berserk scenario {scenario} ran past {budget:?}"))
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let said = String::from_utf8_lossy(&output.stdout);
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "berserk scenario {scenario} failed:\n{said}\n{errors}"
    );
    assert!(said.contains("ok:"), "it checked something:\n{said}");
}

/// Every berserk Bot, Board and Challenges method that makes sense here, every ruleset.
async fn berserk_plays_whole_games_unchanged(db: Db) {
    let Some(python) = python() else { return };
    // Rate limits are exercised elsewhere; here a whole afternoon of games is played at once
    // from one address. The time to come back is short, so that victory is claimed soon.
    let server = TestServer::start_with(db, |c| {
        c.no_rate_limits = true;
        c.disconnect_grace_s = 3;
    })
    .await;
    run(&server, "whole", python, Duration::from_secs(400)).await;
    server.shutdown().await;
}

/// A bot that reads its event stream with lichess-bot's 15 s read timeout plays ten games in
/// a row, each longer than that, and never has to reconnect; the rate limits are on.
async fn berserk_bot_plays_ten_games_on_one_event_stream(db: Db) {
    let Some(python) = python() else { return };
    let server = TestServer::start(db).await;
    run(&server, "ten", python, Duration::from_secs(400)).await;
    server.shutdown().await;
}

both_stores!(berserk_plays_whole_games_unchanged);

mod ten_games {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        super::berserk_bot_plays_ten_games_on_one_event_stream(crate::common::Db::Sqlite).await;
    }
}
