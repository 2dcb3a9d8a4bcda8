//! `jungle bot`: the bridge between the Bot API (docs/bot-api.md) and any engine that speaks
//! our engine protocol (`jungle uci`, docs/cli.md). It keeps the event stream open, accepts
//! the challenges its filter allows (declining the others with the reason), plays each game
//! with its own engine process, several at once, and picks its games up again after a
//! restart (the event stream announces the games in progress first).

mod api;
mod config;
mod engine;
mod game;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use api::Api;
use config::Challenge;
pub use config::Filter;
use game::GameStart;

/// The bridge's settings.
#[derive(clap::Args)]
pub struct BotArgs {
    /// The server, as http(s)://host[:port].
    #[arg(long, env = "JUNGLE_URL")]
    url: String,
    /// A bot:play token of a bot account (better given as JUNGLE_TOKEN: a command line is
    /// seen by everyone on the machine).
    #[arg(long, env = "JUNGLE_TOKEN", hide_env_values = true)]
    token: String,
    /// The engine's command, run by the shell once per game: it speaks our engine protocol.
    #[arg(long)]
    engine: String,
    /// The challenge filter, a JSON file (docs/bot-api.md); everything accepted without one.
    #[arg(long)]
    config: Option<PathBuf>,
    /// An arena for bots to join (its id; repeat for several), again at each reconnection.
    /// A private one's code follows a colon: ID:CODE.
    #[arg(long = "arena")]
    arenas: Vec<String>,
}

/// The longest wait between two attempts to open the event stream.
const LONGEST_WAIT: Duration = Duration::from_secs(60);

pub fn run(args: BotArgs) -> Result<(), String> {
    let filter = match &args.config {
        Some(path) => Filter::read(path)?,
        None => Filter::default(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(bridge(args, filter))
}

async fn bridge(args: BotArgs, filter: Filter) -> Result<(), String> {
    let api = Arc::new(Api::new(&args.url, &args.token));
    let playing: Arc<Mutex<HashSet<String>>> = Arc::default();
    let mut wait = Duration::from_secs(1);
    loop {
        match api.stream("/api/stream/event").await {
            Ok(mut events) => {
                println!("jungle bot: connected to {}", args.url);
                wait = Duration::from_secs(1);
                join_arenas(&api, &args.arenas).await;
                while let Some(event) = events.next().await {
                    on_event(&api, &args.engine, &filter, &playing, event).await;
                }
                println!("jungle bot: the event stream ended; connecting again");
            }
            // A token that is wrong will not become right: stop and say so.
            Err(api::ApiError::Refused {
                status: status @ (401 | 403),
                message,
                ..
            }) => {
                return Err(format!(
                    "the server refused the token ({status}): {message}"
                ))
            }
            Err(e) => eprintln!("jungle bot: opening the event stream: {e}"),
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(LONGEST_WAIT);
    }
}

/// Joins each arena (the event stream is open: the pairings reach it). Being in one already
/// is no failure.
async fn join_arenas(api: &Api, arenas: &[String]) {
    for arena in arenas {
        let (id, code) = match arena.split_once(':') {
            Some((id, code)) => (id, Some(code)),
            None => (arena.as_str(), None),
        };
        let form: Vec<(&str, &str)> = code.map(|c| ("password", c)).into_iter().collect();
        match api.post(&format!("/api/tournament/{id}/join"), &form).await {
            Ok(_) => println!("jungle bot: in the arena {id}"),
            Err(e) => eprintln!("jungle bot: joining the arena {id}: {e}"),
        }
    }
}

async fn on_event(
    api: &Arc<Api>,
    engine: &str,
    filter: &Filter,
    playing: &Arc<Mutex<HashSet<String>>>,
    event: Value,
) {
    match event["type"].as_str() {
        Some("challenge") => {
            let Ok(challenge) = serde_json::from_value::<Challenge>(event["challenge"].clone())
            else {
                return;
            };
            let now = playing.lock().expect("games lock").len();
            let (path, form) = match filter.judge(&challenge, now) {
                Ok(()) => (format!("/api/challenge/{}/accept", challenge.id), None),
                Err(reason) => (
                    format!("/api/challenge/{}/decline", challenge.id),
                    Some(reason),
                ),
            };
            let form: Vec<(&str, &str)> = form.map(|r| ("reason", r)).into_iter().collect();
            match api.post(&path, &form).await {
                Ok(_) => println!(
                    "jungle bot: challenge from {}: {}",
                    challenge.challenger.name,
                    form.first().map_or("accepted", |(_, r)| r)
                ),
                Err(e) => eprintln!("jungle bot: answering a challenge: {e}"),
            }
        }
        Some("gameStart") => {
            let game = &event["game"];
            let Some(id) = game["id"].as_str().map(str::to_owned) else {
                return;
            };
            if !playing.lock().expect("games lock").insert(id.clone()) {
                return;
            }
            let start = GameStart {
                id: id.clone(),
                red: game["color"] == "red",
                rules: game["rules"].as_str().unwrap_or("classic").to_owned(),
            };
            println!(
                "jungle bot: game {id} ({}, {}) against {}",
                start.rules,
                if start.red { "red" } else { "blue" },
                game["opponent"]["name"].as_str().unwrap_or("?")
            );
            let (api, engine, playing) = (api.clone(), engine.to_owned(), playing.clone());
            let overhead = filter.move_overhead_ms;
            tokio::spawn(async move {
                game::play(api, engine, start, overhead).await;
                playing.lock().expect("games lock").remove(&id);
            });
        }
        _ => {}
    }
}
