//! Games our engine plays against itself at mixed levels, for a new site's puzzles (issue 27:
//! `--selfplay N`). Each game opens with two random plies (so that the deterministic levels do
//! not replay one game), then a weaker level meets a stronger one; the weaker one's slips are
//! what the miner looks for. The openings and the levels are seeded by the game's number; the
//! moves after them depend on the thinking time, so they vary a little from machine to machine.

use std::time::Duration;

use jungle_engine::{Engine, Level};
use jungle_rules::{Game, Position, Ruleset, Turn};

/// The longest self-play game, in plies (the no-capture rule ends most far sooner).
const MAX_PLIES: usize = 400;

/// Self-play game number `n` under `ruleset`: its start and turns.
pub fn game(ruleset: Ruleset, n: u64) -> (Position, Vec<Turn>) {
    let rules = ruleset.rules();
    let seed = 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(n + 1) ^ 0x2545_f491_4f6c_dd1d;
    // Levels 2–5 against 4–7: mistakes of every size, punished or not.
    let weak = Level::new(2 + (seed % 4) as u8).expect("a level");
    let strong = Level::new(4 + ((seed >> 8) % 4) as u8).expect("a level");
    let (red, blue) = if seed & (1 << 20) == 0 {
        (weak, strong)
    } else {
        (strong, weak)
    };
    let mut engines = [
        Engine::with_seed(rules, red, seed),
        Engine::with_seed(rules, blue, seed.rotate_left(17)),
    ];
    let mut game = Game::new(rules, Position::start());
    let mut random = seed | 1;
    for _ in 0..2 {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        let moves = game.legal_moves();
        let m = moves[(random % moves.len() as u64) as usize];
        game.play(Turn::Move(m)).expect("a legal move");
    }
    while game.outcome().is_none() && game.ply_count() < MAX_PLIES {
        let side = game.position().side_to_move().index();
        // A short, fixed think: the stronger levels search deeper in the same time anyway.
        let Some(m) = engines[side].best_move(&game, Duration::from_millis(20)) else {
            break;
        };
        if game.play(Turn::Move(m)).is_err() {
            break;
        }
    }
    (*game.start(), game.turns().collect())
}
