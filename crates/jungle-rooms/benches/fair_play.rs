//! What fair play's check costs per position asked about, with 10 to 10,000 games in play
//! (issue 49: it must not grow with them). `cargo bench -p jungle-rooms --bench fair_play`
//! prints one line per size: the lookup of a board in no game, and of one in a game.

use std::time::Instant;

use jungle_rooms::fair_play::{Among, GamePositions, LivePositions, Seats};
use jungle_rules::{Game, Position, Rules};
use uuid::Uuid;

/// A game of `plies` random legal moves (a fixed seed: the same games each run).
fn random_game(plies: usize, seed: &mut u64) -> Game {
    let mut game = Game::new(Rules::CLASSIC, Position::start());
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let m = moves.get((*seed % moves.len() as u64) as usize).copied();
        match m {
            Some(m) if game.play(m.into()).is_ok() => {}
            _ => break,
        }
    }
    game
}

fn main() {
    let far: Position = "6l/7/7/7/7/7/7/7/L6 r 0 20".parse().expect("a position");
    for games in [10usize, 1_000, 10_000] {
        let live = LivePositions::default();
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        let mut held = Vec::with_capacity(games);
        let mut last = Position::start();
        for n in 0..games {
            let game = random_game(10 + n % 60, &mut seed);
            let seats = if n % 4 == 0 {
                Seats::WithComputer
            } else {
                Seats::People
            };
            let mut positions = GamePositions::new(live.clone(), Uuid::new_v4(), seats);
            positions.follow(&game);
            last = *game.position();
            held.push(positions);
        }
        let asks = 200_000u32;
        let started = Instant::now();
        for _ in 0..asks {
            std::hint::black_box(live.standing(std::hint::black_box(&far), Among::AllGames));
        }
        let open_ns = started.elapsed().as_nanos() / u128::from(asks);
        let started = Instant::now();
        for _ in 0..asks {
            std::hint::black_box(live.standing(std::hint::black_box(&last), Among::AllGames));
        }
        let closed_ns = started.elapsed().as_nanos() / u128::from(asks);
        println!(
            "{games:>6} games in play ({} keys): a board in none {open_ns} ns, a board in one {closed_ns} ns",
            live.len()
        );
    }
}
