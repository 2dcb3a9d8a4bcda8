//! `bestmove` and `selfplay`: the engine from the command line.

use std::time::Duration;

use jungle_engine::{Engine, Level};
use jungle_rules::{Game, Position, Rules, Turn};

pub fn level(n: u8) -> Result<Level, String> {
    Level::new(n).ok_or_else(|| format!("--level {n}: levels run from 1 to 8"))
}

/// A selfplay player: a level 1-8, or `greedy` (one ply, no noise).
pub fn player(text: &str) -> Result<Level, String> {
    if text == "greedy" {
        return Ok(Level::GREEDY);
    }
    text.parse::<u8>()
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| format!("player {text:?}: expected a level from 1 to 8, or greedy"))
}

fn describe(level: Level) -> String {
    if level == Level::GREEDY {
        "greedy".into()
    } else {
        format!("level {}", level.get())
    }
}

/// Prints the engine's progress, then the chosen move as the last line.
pub fn bestmove(
    rules: Rules,
    position: Position,
    movetime_ms: u64,
    level: Level,
) -> Result<String, String> {
    let game = Game::new(rules, position);
    if game.outcome().is_some() {
        return Err("the game is over: there is no move to choose".into());
    }
    let mut engine = Engine::new(rules, level);
    let mut out = String::new();
    let choice = engine.think(&game, Duration::from_millis(movetime_ms), |info| {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        out.push_str(&format!(
            "info depth {} score cp {} nodes {} time {} nps {} pv {}\n",
            info.depth,
            info.score,
            info.nodes,
            info.elapsed.as_millis(),
            (info.nodes as f64 / info.elapsed.as_secs_f64().max(1e-6)) as u64,
            pv.join(" ")
        ));
    });
    let m = choice.ok_or("no legal move")?;
    out.push_str(&format!("{m}\n"));
    Ok(out)
}

/// Plays `games` games between two levels, colours alternating, and prints the score.
pub fn selfplay(
    rules: Rules,
    a: Level,
    b: Level,
    games: u32,
    movetime_ms: u64,
) -> Result<String, String> {
    let mut out = String::new();
    let (mut a_points, mut wins, mut losses, mut draws) = (0.0, 0, 0, 0);
    for i in 0..games {
        let a_is_red = i % 2 == 0;
        let seed = 0x1234_5678 ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut engine_a = Engine::with_seed(rules, a, seed);
        let mut engine_b = Engine::with_seed(rules, b, seed.rotate_left(17));
        let mut game = Game::new(rules, Position::start());
        // Each pair of games (one per colour) opens with the same two random plies, so that
        // deterministic levels do not replay one game a hundred times.
        let mut opening =
            0x2545_f491_4f6c_dd1d_u64 ^ (i as u64 / 2).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2 {
            opening ^= opening << 13;
            opening ^= opening >> 7;
            opening ^= opening << 17;
            let moves = game.legal_moves();
            let m = moves[(opening % moves.len() as u64) as usize];
            game.play(Turn::Move(m)).map_err(|e| e.to_string())?;
        }
        // A generous cap: the no-capture rule ends long games anyway.
        while game.outcome().is_none() && game.ply_count() < 600 {
            let red_to_move = game.position().side_to_move() == jungle_rules::Side::Red;
            let engine = if red_to_move == a_is_red {
                &mut engine_a
            } else {
                &mut engine_b
            };
            let m = engine
                .best_move(&game, Duration::from_millis(movetime_ms))
                .ok_or("the engine found no move in an unfinished game")?;
            game.play(Turn::Move(m))
                .map_err(|e| format!("engine played an illegal move: {e}"))?;
        }
        let winner = game.outcome().and_then(|o| o.winner);
        let a_side = if a_is_red {
            jungle_rules::Side::Red
        } else {
            jungle_rules::Side::Blue
        };
        let result = match winner {
            Some(w) if w == a_side => {
                wins += 1;
                a_points += 1.0;
                "1-0"
            }
            Some(_) => {
                losses += 1;
                "0-1"
            }
            None => {
                draws += 1;
                a_points += 0.5;
                "½-½"
            }
        };
        let reason = game
            .outcome()
            .map_or("move cap".to_owned(), |o| o.reason.to_string());
        out.push_str(&format!(
            "game {:>3}: A ({}) {} B: {result} by {reason} in {} plies\n",
            i + 1,
            if a_is_red { "red" } else { "blue" },
            "vs",
            game.ply_count()
        ));
    }
    out.push_str(&format!(
        "score A ({}) vs B ({}): {a_points}/{games} (+{wins} -{losses} ={draws})\n",
        describe(a),
        describe(b)
    ));
    Ok(out)
}

/// The one JSON line of `analyse`.
#[derive(serde::Serialize)]
pub struct AnalysisLine {
    pub best: String,
    pub score: ScoreJson,
    pub pv: Vec<String>,
    pub depth: u32,
}

/// `{"cp": N}` or `{"den_in": N}`, from the side to move's point of view.
#[derive(serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreJson {
    Cp(i32),
    DenIn(i32),
}

impl From<jungle_engine::Score> for ScoreJson {
    fn from(score: jungle_engine::Score) -> ScoreJson {
        match score {
            jungle_engine::Score::Cp(n) => ScoreJson::Cp(n),
            jungle_engine::Score::DenIn(n) => ScoreJson::DenIn(n),
        }
    }
}

/// Plays `moves` from `position`, then analyses for `movetime_ms`: one JSON line.
pub fn analyse(
    rules: Rules,
    position: Position,
    moves: &[String],
    movetime_ms: u64,
) -> Result<String, String> {
    let mut game = Game::new(rules, position);
    for (index, text) in moves.iter().enumerate() {
        let turn: Turn = text
            .parse()
            .map_err(|e| format!("move {} ({text:?}): {e}", index + 1))?;
        game.play(turn)
            .map_err(|e| format!("move {} ({text:?}): {e}", index + 1))?;
    }
    // The server's table size: the same strength as the analysis board.
    let mut searcher = jungle_engine::Searcher::new(rules, 32);
    let analysis = jungle_engine::analyse(
        &mut searcher,
        &game,
        Duration::from_millis(movetime_ms.max(1)),
    )
    .ok_or("the game is over: there is nothing to analyse")?;
    let line = AnalysisLine {
        best: analysis.best.to_string(),
        score: analysis.score.into(),
        pv: analysis.pv.iter().map(|m| m.to_string()).collect(),
        depth: analysis.depth,
    };
    serde_json::to_string(&line)
        .map(|l| format!("{l}\n"))
        .map_err(|e| e.to_string())
}
