//! `jungle`: the rules from the command line. Other tools depend on its output exactly; see
//! `docs/cli.md`.

use std::io::{self, Write};
use std::process::ExitCode;

mod bot;
mod engine_cmds;
mod uci;

use clap::{Parser, Subcommand};
use jungle_rules::{Game, Position, Rules, Ruleset, Turn};
use serde::Serialize;

#[derive(Parser)]
#[command(
    name = "jungle",
    version,
    about = "Jungle (斗兽棋) rules on the command line"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct Setup {
    /// Ruleset: classic, strict, daitou or international.
    #[arg(long = "rules", default_value = "classic")]
    ruleset: String,
    /// Position text (FEN-like); the standard start when absent.
    #[arg(long)]
    position: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Lists the legal moves of a bare position (no history rules, no draw rule), one per line.
    Moves {
        #[command(flatten)]
        setup: Setup,
    },
    /// Counts the leaves of the move tree DEPTH plies deep; the count is the last line.
    Perft {
        #[command(flatten)]
        setup: Setup,
        /// Also print each first move with its own count.
        #[arg(long)]
        divide: bool,
        depth: u32,
    },
    /// Plays MOVEs (a move such as a3a4, or pass) with every rule applied; prints one JSON line.
    Replay {
        #[command(flatten)]
        setup: Setup,
        #[arg(allow_hyphen_values = true)]
        moves: Vec<String>,
    },
    /// Reads one game in JGN (docs/notation.md) from FILE, or standard input without one, and
    /// prints the same JSON line as `replay` for its final position.
    Pgn { file: Option<std::path::PathBuf> },
    /// Asks the engine for a move: progress lines, then the move as the last line.
    Bestmove {
        #[command(flatten)]
        setup: Setup,
        /// Thinking time in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// Strength from 1 to 8.
        #[arg(long, default_value_t = 8)]
        level: u8,
    },
    /// Analyses the position after MOVEs at full strength: one JSON line with the best move,
    /// the score (`cp` or `den_in`, for the side to move), the line and the depth.
    Analyse {
        #[command(flatten)]
        setup: Setup,
        /// Moves played from the position first.
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// Thinking time in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
    },
    /// Plays engine levels against each other, colours alternating, and prints the score.
    Selfplay {
        #[arg(long = "rules", default_value = "classic")]
        ruleset: String,
        /// Player A: a level from 1 to 8, or greedy.
        #[arg(long)]
        a: String,
        /// Player B: a level from 1 to 8, or greedy.
        #[arg(long)]
        b: String,
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// Thinking time per move for levels 6-8, in milliseconds.
        #[arg(long, default_value_t = 100)]
        movetime: u64,
    },
    /// Connects an engine to a Jungle Arena server's Bot API as a bot (docs/bot-api.md).
    Bot(bot::BotArgs),
    /// A UCI-style engine loop on standard input and output.
    Uci {
        #[arg(long = "rules", default_value = "classic")]
        ruleset: String,
        #[arg(long, default_value_t = 8)]
        level: u8,
    },
}

fn ruleset(name: &str) -> Result<Rules, String> {
    name.parse::<Ruleset>()
        .map(Ruleset::rules)
        .map_err(|e| format!("--rules: {e}"))
}

impl Setup {
    fn resolve(&self) -> Result<(Rules, Position), String> {
        let ruleset: Ruleset = self.ruleset.parse().map_err(|e| format!("--rules: {e}"))?;
        let position = match &self.position {
            None => Position::start(),
            Some(text) => text
                .parse()
                .map_err(|e| format!("--position {text:?}: {e}"))?,
        };
        Ok((ruleset.rules(), position))
    }
}

#[derive(Serialize)]
struct ReplayReport {
    position: String,
    legal: Vec<String>,
    outcome: Option<OutcomeReport>,
}

#[derive(Serialize)]
struct OutcomeReport {
    winner: Option<&'static str>,
    reason: &'static str,
}

/// The one JSON line of `replay` and `pgn`: the final position, its legal moves, the outcome.
fn replay_line(game: &Game) -> Result<String, String> {
    let report = ReplayReport {
        position: game.position().to_string(),
        legal: game.legal_moves().iter().map(|m| m.to_string()).collect(),
        outcome: game.outcome().map(|o| OutcomeReport {
            winner: o.winner.map(|s| s.name()),
            reason: o.reason.name(),
        }),
    };
    let line = serde_json::to_string(&report).map_err(|e| e.to_string())?;
    Ok(format!("{line}\n"))
}

fn run(command: Command) -> Result<String, String> {
    let mut out = String::new();
    match command {
        Command::Moves { setup } => {
            let (rules, position) = setup.resolve()?;
            for m in &position.legal_moves(&rules) {
                out.push_str(&format!("{m}\n"));
            }
        }
        Command::Perft {
            setup,
            divide,
            depth,
        } => {
            let (rules, position) = setup.resolve()?;
            if divide && depth > 0 {
                let mut total = 0;
                for &m in &position.legal_moves(&rules) {
                    let mut child = position;
                    child.play_unchecked(m);
                    let count = child.perft(&rules, depth - 1);
                    total += count;
                    out.push_str(&format!("{m}: {count}\n"));
                }
                out.push_str(&format!("\n{total}\n"));
            } else {
                out.push_str(&format!("{}\n", position.perft(&rules, depth)));
            }
        }
        Command::Replay { setup, moves } => {
            let (rules, position) = setup.resolve()?;
            let mut game = Game::new(rules, position);
            for (index, text) in moves.iter().enumerate() {
                let number = index + 1;
                let turn: Turn = text
                    .parse()
                    .map_err(|e| format!("move {number} ({text:?}): {e}"))?;
                game.play(turn)
                    .map_err(|e| format!("move {number} ({text:?}): {e}"))?;
            }
            out.push_str(&replay_line(&game)?);
        }
        Command::Pgn { file } => {
            let text = match &file {
                Some(path) => {
                    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?
                }
                None => io::read_to_string(io::stdin()).map_err(|e| format!("stdin: {e}"))?,
            };
            let name = file
                .as_ref()
                .map_or_else(|| "stdin".to_owned(), |p| p.display().to_string());
            let parsed: jungle_rules::GameText =
                text.parse().map_err(|e| format!("{name}: {e}"))?;
            let game = parsed.replay().map_err(|e| format!("{name}: {e}"))?;
            out.push_str(&replay_line(&game)?);
        }
        Command::Bestmove {
            setup,
            movetime,
            level,
        } => {
            let (rules, position) = setup.resolve()?;
            out = engine_cmds::bestmove(rules, position, movetime, engine_cmds::level(level)?)?;
        }
        Command::Analyse {
            setup,
            moves,
            movetime,
        } => {
            let (rules, position) = setup.resolve()?;
            out = engine_cmds::analyse(rules, position, &moves, movetime)?;
        }
        Command::Selfplay {
            ruleset: name,
            a,
            b,
            games,
            movetime,
        } => {
            let rules = ruleset(&name)?;
            out = engine_cmds::selfplay(
                rules,
                engine_cmds::player(&a)?,
                engine_cmds::player(&b)?,
                games,
                movetime,
            )?;
        }
        Command::Bot(args) => bot::run(args)?,
        Command::Uci {
            ruleset: name,
            level,
        } => {
            let rules = name.parse().map_err(|e| format!("--rules: {e}"))?;
            uci::run(rules, engine_cmds::level(level)?)?;
        }
    }
    Ok(out)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line, as scripts expect: clap's first line names the problem.
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            eprintln!("jungle: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    match run(cli.command) {
        Ok(out) => {
            let mut stdout = io::stdout().lock();
            if stdout
                .write_all(out.as_bytes())
                .and_then(|_| stdout.flush())
                .is_err()
            {
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("jungle: {message}");
            ExitCode::FAILURE
        }
    }
}
