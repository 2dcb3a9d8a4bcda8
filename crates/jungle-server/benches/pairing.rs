//! How long the arena takes to pair a round of waiting players (issue 15's bound: 1,000 in
//! under 50 ms). `cargo bench -p jungle-server --bench pairing` prints one line per size.

use std::time::Instant;

use jungle_game::arena::{pair, standings, Entry, Outcome};
use jungle_rules::Side;
use uuid::Uuid;

fn main() {
    for players in [100usize, 1_000, 2_000] {
        // A tournament some way in: scores, streaks, recent opponents and colours all set.
        let mut entries: Vec<Entry> = (0..players)
            .map(|n| {
                Entry::new(
                    Uuid::from_u128(n as u128 + 1),
                    format!("p{n}"),
                    1000 + (n as i32 * 7919) % 1200,
                )
            })
            .collect();
        for round in 0..5u32 {
            for (n, entry) in entries.iter_mut().enumerate() {
                let outcome = match (n as u32 + round) % 3 {
                    0 => Outcome::Win,
                    1 => Outcome::Draw,
                    _ => Outcome::Loss,
                };
                let opponent = Uuid::from_u128(((n + 1) % players) as u128 + 1);
                let colour = if (n as u32 + round).is_multiple_of(2) {
                    Side::Red
                } else {
                    Side::Blue
                };
                entry.score(outcome, opponent, 1500, colour);
            }
        }
        standings(&mut entries);
        let waiting: Vec<usize> = (0..players).collect();
        let runs = 20;
        let started = Instant::now();
        let mut paired = 0;
        for _ in 0..runs {
            paired = pair(&entries, &waiting).len();
        }
        let each = started.elapsed() / runs;
        println!(
            "pairing {players} waiting players: {paired} pairs in {:.2} ms",
            each.as_secs_f64() * 1000.0
        );
    }
}
