//! `jungle uci`: a UCI-style loop on stdin/stdout, for matches against other engines.
//!
//! `uci` → `id …` and `uciok`; `isready` → `readyok`; `ucinewgame`; `setoption name Level
//! value 1-8`; `setoption name Rules value classic|strict|daitou|international` (a new game under
//! those rules); `position startpos|fen FEN [moves …]`; `go movetime N`, `go wtime N btime N [winc N binc N]`, `go depth N` or
//! `go infinite` → `info …` lines, then `bestmove a3a4`; `stop` ends a search early (its best
//! move so far); `isready` is answered during a search; `quit`.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use jungle_engine::{budget_from_clock, Engine, Level, Limits};
use jungle_rules::{Game, Position, Rules, Ruleset, Side, Turn};

/// What the loop waits for: a line of input, its end, or a search's result.
enum Event {
    Line(String),
    InputEnded,
    Searched(Box<Engine>, String),
}

pub fn run(mut ruleset: Ruleset, mut level: Level) -> Result<(), String> {
    let mut rules = ruleset.rules();
    // The weaker levels blur their judgement with noise: a seed of its own for each run, so
    // that two games against the same level are not one game twice.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        ^ u64::from(std::process::id()).rotate_left(32);
    // Lines are read on a thread of their own, so that `stop`, `isready` and `quit` are heard
    // while a search runs.
    let (events_tx, events) = mpsc::channel::<Event>();
    let input_tx = events_tx.clone();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if input_tx.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = input_tx.send(Event::InputEnded);
    });
    let mut out = std::io::stdout();
    let mut engine = Engine::with_seed(rules, level, seed);
    let mut game = Game::new(rules, Position::start());
    // Lines that arrived during a search and wait for it to end (a GUI should not send them
    // then, but a piped script does).
    let mut pending: VecDeque<String> = VecDeque::new();
    loop {
        let line = match pending.pop_front() {
            Some(line) => line,
            None => match events.recv() {
                Ok(Event::Line(line)) => line,
                _ => break,
            },
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") => format!(
                "id name Jungle Arena engine\nid author Jungle Arena developers\noption name Level type spin default {} min 1 max 8\noption name Rules type combo default {} var classic var strict var daitou var international\nuciok\n",
                level.get(),
                ruleset
            ),
            Some("isready") => "readyok\n".into(),
            Some("ucinewgame") => {
                engine.searcher().clear();
                game = Game::new(rules, Position::start());
                String::new()
            }
            Some("setoption") => match option(&words).as_ref().map(|(n, v)| (n.as_str(), *v)) {
                Some(("level", value)) => match value.parse().ok().and_then(Level::new) {
                    Some(new) => {
                        level = new;
                        engine = Engine::with_seed(rules, level, seed);
                        String::new()
                    }
                    None => "info string Level is 1 to 8\n".into(),
                },
                Some(("rules", value)) => match value.parse::<Ruleset>() {
                    Ok(new) => {
                        ruleset = new;
                        rules = ruleset.rules();
                        engine = Engine::with_seed(rules, level, seed);
                        game = Game::new(rules, Position::start());
                        String::new()
                    }
                    Err(e) => format!("info string Rules: {e}\n"),
                },
                _ => "info string the options are Level (1-8) and Rules\n".into(),
            },
            Some("position") => match parse_position(rules, &words[1..]) {
                Ok(g) => {
                    game = g;
                    String::new()
                }
                Err(e) => format!("info string error: {e}\n"),
            },
            Some("go") => {
                let words: Vec<String> = words[1..].iter().map(|w| w.to_string()).collect();
                let (back, reply) = search_while_listening(
                    engine,
                    game.clone(),
                    words,
                    (&events_tx, &events),
                    &mut pending,
                    &mut out,
                )?;
                engine = back;
                reply
            }
            Some("stop") => String::new(),
            Some("quit") => break,
            Some(other) => format!("info string unknown command {other}\n"),
            None => String::new(),
        };
        write(&mut out, &reply)?;
    }
    Ok(())
}

/// `setoption name NAME value VALUE`: the name in lower case, and the value.
fn option<'a>(words: &[&'a str]) -> Option<(String, &'a str)> {
    let name = words.iter().position(|w| w.eq_ignore_ascii_case("name"))?;
    let value = words.iter().position(|w| w.eq_ignore_ascii_case("value"))?;
    let name = words.get(name + 1..value)?.join(" ").to_ascii_lowercase();
    Some((name, words.get(value + 1)?))
}

fn write(out: &mut std::io::Stdout, text: &str) -> Result<(), String> {
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())
}

/// Runs `go` on a search thread while answering `isready` and obeying `stop` and `quit` (which
/// also waits its turn), keeping other lines for afterwards. Returns the engine and the
/// search's output. Input ending stops an infinite search, which nobody could stop otherwise.
fn search_while_listening(
    mut engine: Engine,
    game: Game,
    words: Vec<String>,
    (events_tx, events): (&mpsc::Sender<Event>, &mpsc::Receiver<Event>),
    pending: &mut VecDeque<String>,
    out: &mut std::io::Stdout,
) -> Result<(Engine, String), String> {
    let stop = Arc::new(AtomicBool::new(false));
    let infinite = words.iter().any(|w| w == "infinite");
    engine.searcher().set_stop_flag(Some(stop.clone()));
    let done = events_tx.clone();
    std::thread::spawn(move || {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let reply = go(&mut engine, &game, &words);
        engine.searcher().set_stop_flag(None);
        let _ = done.send(Event::Searched(Box::new(engine), reply));
    });
    let mut input_ended = false;
    loop {
        match events.recv() {
            Ok(Event::Searched(engine, reply)) => {
                if input_ended {
                    // For the loop, after the lines kept meanwhile.
                    let _ = events_tx.send(Event::InputEnded);
                }
                return Ok((*engine, reply));
            }
            Ok(Event::Line(line)) => match line.split_whitespace().next() {
                Some("stop") => stop.store(true, Ordering::Relaxed),
                Some("isready") => write(out, "readyok\n")?,
                Some("quit") => {
                    // Ends this search now; the lines before it still run, then `quit`.
                    stop.store(true, Ordering::Relaxed);
                    pending.push_back(line);
                }
                _ => pending.push_back(line),
            },
            Ok(Event::InputEnded) => {
                input_ended = true;
                if infinite {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            // The search thread holds a sender until it answers, so this cannot happen.
            Err(_) => return Err("the search thread vanished".into()),
        }
    }
}

fn parse_position(rules: Rules, words: &[&str]) -> Result<Game, String> {
    let (start, rest) = match words.first().copied() {
        Some("startpos") => (Position::start(), &words[1..]),
        Some("fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            let text = words[1..end].join(" ");
            (text.parse().map_err(|e| format!("{e}"))?, &words[end..])
        }
        _ => return Err("expected startpos or fen".into()),
    };
    let moves = match rest.first().copied() {
        Some("moves") => &rest[1..],
        _ => &[][..],
    };
    let mut game = Game::new(rules, start);
    for text in moves {
        let turn: Turn = text.parse().map_err(|e| format!("{e}"))?;
        game.play(turn).map_err(|e| format!("{text}: {e}"))?;
    }
    Ok(game)
}

fn value(words: &[&str], key: &str) -> Option<u64> {
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1)?.parse().ok()
}

fn go(engine: &mut Engine, game: &Game, words: &[&str]) -> String {
    let mut out = String::new();
    if game.outcome().is_some() || game.legal_moves().is_empty() {
        out.push_str("bestmove (none)\n");
        return out;
    }
    let red = game.position().side_to_move() == Side::Red;
    let budget = if let Some(ms) = value(words, "movetime") {
        Duration::from_millis(ms)
    } else if let (Some(wtime), Some(btime)) = (value(words, "wtime"), value(words, "btime")) {
        let (time, inc) = if red {
            (wtime, value(words, "winc").unwrap_or(0))
        } else {
            (btime, value(words, "binc").unwrap_or(0))
        };
        budget_from_clock(Duration::from_millis(time), Duration::from_millis(inc))
    } else {
        Duration::from_secs(1)
    };
    let depth = value(words, "depth").map(|d| d as u32);
    let choice = if depth.is_some() || words.contains(&"infinite") {
        // A fixed depth, or none at all: `infinite` runs until `stop`.
        let limits = Limits {
            depth,
            movetime: None,
            nodes: None,
        };
        engine
            .searcher()
            .search(game, limits, |info| out.push_str(&info_line(info)))
            .0
    } else {
        engine.think(game, budget, |info| out.push_str(&info_line(info)))
    };
    match choice {
        Some(m) => out.push_str(&format!("bestmove {m}\n")),
        None => out.push_str("bestmove (none)\n"),
    }
    out
}

fn info_line(info: &jungle_engine::Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let score = if info.score.abs() > jungle_engine::MATE - 500 {
        let plies = jungle_engine::MATE - info.score.abs();
        format!(
            "mate {}",
            if info.score > 0 {
                (plies + 1) / 2
            } else {
                -(plies + 1) / 2
            }
        )
    } else {
        format!("cp {}", info.score)
    };
    format!(
        "info depth {} score {score} nodes {} time {} nps {} pv {}\n",
        info.depth,
        info.nodes,
        info.elapsed.as_millis(),
        (info.nodes as f64 / info.elapsed.as_secs_f64().max(1e-6)) as u64,
        pv.join(" ")
    )
}
