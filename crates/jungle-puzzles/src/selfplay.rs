//! Games our engine plays against itself at mixed levels, for a new site's puzzles (issue 27:
//! `--selfplay N`). A game opens with two random plies (so that the deterministic levels do
//! not replay one game), then a weaker level meets a stronger one; the weaker one's slips are
//! what the miner looks for. The openings and the levels are seeded by the game's number; the
//! moves after them depend on the thinking time, so they vary a little from machine to machine.
//!
//! Games from the opening rarely reach an endgame still undecided, nor leave a den entry in
//! one, a rat blocking a jump or a threat to parry: most are decided by a capture in the
//! middle game. For those motifs (issue 53) a game may start instead from a random endgame:
//! two or three animals a side, anywhere they may stand, levels closer together.

use std::time::Duration;

use jungle_engine::{Engine, Level};
use jungle_rules::{Animal, Game, Piece, Position, Ruleset, Side, Square, Turn};

/// The longest self-play game, in plies (the no-capture rule ends most far sooner).
const MAX_PLIES: usize = 400;

/// Numbers drawn from a game's seed (xorshift: enough for openings and placements).
struct Draw(u64);

impl Draw {
    fn new(seed: u64) -> Draw {
        Draw(seed | 1)
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn seed_of(n: u64, salt: u64) -> u64 {
    0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(n + 1) ^ salt
}

/// Self-play game number `n` under `ruleset`, from the opening: its start and turns.
pub fn game(ruleset: Ruleset, n: u64) -> (Position, Vec<Turn>) {
    let seed = seed_of(n, 0x2545_f491_4f6c_dd1d);
    // Levels 2–5 against 4–7: mistakes of every size, punished or not.
    let weak = 2 + (seed % 4) as u8;
    let strong = 4 + ((seed >> 8) % 4) as u8;
    let mut game = Game::new(ruleset.rules(), Position::start());
    let mut draw = Draw::new(seed);
    for _ in 0..2 {
        let moves = game.legal_moves();
        let m = moves[draw.below(moves.len())];
        game.play(Turn::Move(m)).expect("a legal move");
    }
    play_out(game, weak, strong, seed)
}

/// Self-play game number `n` under `ruleset`, from a random endgame: two or three animals a
/// side on squares they may stand on (no den, a rat alone in the water), Red to move, neither
/// side able to enter a den at once; levels 1–5 against 2–6.
pub fn endgame(ruleset: Ruleset, n: u64) -> (Position, Vec<Turn>) {
    let seed = endgame_seed(ruleset, n);
    // Level 1 among the weak: a den entry in one is left only by a side that does not take
    // an animal standing in its own trap next to its den, which no searching level misses.
    let weak = 1 + (seed % 5) as u8;
    let strong = 2 + ((seed >> 8) % 5) as u8;
    let start = endgame_start(ruleset, n);
    play_out(Game::new(ruleset.rules(), start), weak, strong, seed)
}

/// Endgame `n` of each ruleset is its own (the rulesets' sets would share puzzles otherwise).
fn endgame_seed(ruleset: Ruleset, n: u64) -> u64 {
    let salt = 0x6a09_e667_f3bc_c908_u64.rotate_left(8 * ruleset as u32);
    seed_of(n, salt)
}

/// The start of endgame `n`.
fn endgame_start(ruleset: Ruleset, n: u64) -> Position {
    let seed = endgame_seed(ruleset, n);
    // Drawn apart from the levels, which use the seed's low bits.
    let mut draw = Draw::new(seed.rotate_left(29));
    let rules = ruleset.rules();
    loop {
        let mut pieces: Vec<(Square, Piece)> = Vec::new();
        for side in [Side::Red, Side::Blue] {
            let mut animals = Animal::ALL.to_vec();
            for _ in 0..2 + draw.below(2) {
                let animal = animals.remove(draw.below(animals.len()));
                let square = loop {
                    let sq = Square::new(draw.below(Square::COUNT) as u8).expect("a square");
                    let taken = pieces.iter().any(|(at, _)| *at == sq);
                    let fits =
                        sq.den_owner().is_none() && (!sq.is_water() || animal == Animal::Rat);
                    if fits && !taken {
                        break sq;
                    }
                };
                pieces.push((square, Piece::new(side, animal)));
            }
        }
        let Ok(position) = Position::from_parts(&pieces, Side::Red, 0, 1) else {
            continue;
        };
        // Not over before it starts: no den entry for either side in one.
        let mut passed = position;
        passed.pass();
        let den_in_one = |p: &Position| {
            p.legal_moves(&rules)
                .iter()
                .any(|m| m.to.den_owner() == Some(!p.side_to_move()))
        };
        if !den_in_one(&position) && !den_in_one(&passed) {
            return position;
        }
    }
}

/// Plays `game` out between `weak` and `strong` levels (which side each is drawn from
/// `seed`): its start and turns.
fn play_out(mut game: Game, weak: u8, strong: u8, seed: u64) -> (Position, Vec<Turn>) {
    let (weak, strong) = (
        Level::new(weak).expect("a level"),
        Level::new(strong).expect("a level"),
    );
    let (red, blue) = if seed & (1 << 20) == 0 {
        (weak, strong)
    } else {
        (strong, weak)
    };
    let rules = *game.rules();
    let mut engines = [
        Engine::with_seed(rules, red, seed),
        Engine::with_seed(rules, blue, seed.rotate_left(17)),
    ];
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A random endgame is a position a game can hold, with few animals, not over at once,
    /// and the same for the same number.
    #[test]
    fn random_endgames_are_small_sound_and_repeatable() {
        let mut differ = std::collections::HashSet::new();
        for n in 0..200 {
            let start = endgame_start(Ruleset::International, n);
            assert_eq!(start, endgame_start(Ruleset::International, n), "game {n}");
            let count = start.pieces().count();
            assert!((4..=6).contains(&count), "game {n}: {count} animals");
            let parsed: Position = start.to_string().parse().expect("its text reads back");
            assert_eq!(parsed, start);
            let game = Game::new(Ruleset::International.rules(), start);
            assert!(game.outcome().is_none(), "game {n}");
            differ.insert(start.to_string());
        }
        assert_eq!(differ.len(), 200, "every number its own endgame");
    }
}
