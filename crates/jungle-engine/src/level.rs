//! Playing strength: levels 1–8 trade search depth and deliberate noise for strength.

use std::time::Duration;

use jungle_rules::{Game, Move, Rules};

use crate::search::{Info, Limits, Searcher};

/// 1 (weakest) to 8 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);

    pub fn new(level: u8) -> Option<Level> {
        (1..=8).contains(&level).then_some(Level(level))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    /// Not a level players choose: takes the best-looking move one ply deep, with no noise.
    /// The yardstick of `jungle selfplay --a 8 --b greedy`.
    pub const GREEDY: Level = Level(0);

    /// Fixed depth and noise (in centi-animals) for levels 1–5; levels 6–8 search by time.
    fn style(self) -> Style {
        match self.0 {
            0 => Style::Noisy { depth: 1, noise: 0 },
            1 => Style::Noisy {
                depth: 1,
                noise: 500,
            },
            2 => Style::Noisy {
                depth: 1,
                noise: 150,
            },
            3 => Style::Noisy {
                depth: 2,
                noise: 100,
            },
            4 => Style::Noisy {
                depth: 3,
                noise: 50,
            },
            5 => Style::Noisy {
                depth: 4,
                noise: 15,
            },
            6 => Style::Deep { max_depth: 5 },
            7 => Style::Deep { max_depth: 7 },
            _ => Style::Deep { max_depth: 64 },
        }
    }
}

enum Style {
    Noisy { depth: u32, noise: i32 },
    Deep { max_depth: u32 },
}

/// How one level plays: its depth, its noise and its own random state, apart from the tables
/// it searches with. A server keeps a persona per game (a few bytes) and lends it a
/// [`Searcher`] per move, so memory follows the number of search threads, not of games.
#[derive(Clone, Debug)]
pub struct Persona {
    level: Level,
    rng: u64,
}

impl Persona {
    /// The same seed gives the same choices (tests and reproducible matches).
    pub fn new(level: Level, seed: u64) -> Persona {
        Persona {
            level,
            rng: seed | 1,
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// Table size that lets this level play at full strength.
    pub fn table_megabytes(&self) -> usize {
        if self.level >= Level(6) {
            32
        } else {
            4
        }
    }

    fn noise(&mut self, amplitude: i32) -> i32 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        if amplitude == 0 {
            return 0;
        }
        (self.rng % (2 * amplitude as u64 + 1)) as i32 - amplitude
    }

    /// The move to play in `game` within `budget` (levels 6–8 use it; the weaker ones are
    /// quick anyway), searched with `searcher`, which is switched to the game's rules first.
    /// `on_info` hears each finished depth of a deep search.
    pub fn think(
        &mut self,
        searcher: &mut Searcher,
        game: &Game,
        budget: Duration,
        on_info: impl FnMut(&Info),
    ) -> Option<Move> {
        searcher.set_rules(*game.rules());
        match self.level.style() {
            Style::Noisy { depth, noise } => {
                let scored = searcher.score_root_moves(game, depth);
                let mut best: Option<(Move, i32)> = None;
                for (m, score) in scored {
                    // Winning and losing lines keep their meaning; noise only blurs judgement.
                    let blurred = score + self.noise(noise);
                    if best.is_none_or(|(_, b)| blurred > b) {
                        best = Some((m, blurred));
                    }
                }
                best.map(|(m, _)| m)
            }
            Style::Deep { max_depth } => {
                let limits = Limits {
                    depth: Some(max_depth),
                    movetime: Some(budget),
                    nodes: None,
                };
                searcher.search(game, limits, on_info).0
            }
        }
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("level", &self.persona.level)
            .finish_non_exhaustive()
    }
}

/// A player at one level with tables of its own, kept between moves of a game (the command
/// line's engine; the server shares tables between games, see [`Persona`]).
pub struct Engine {
    searcher: Searcher,
    persona: Persona,
}

impl Engine {
    pub fn new(rules: Rules, level: Level) -> Engine {
        Engine::with_seed(rules, level, 0x5eed_1234_abcd_0001)
    }

    /// The same seed gives the same choices (tests and reproducible matches).
    pub fn with_seed(rules: Rules, level: Level, seed: u64) -> Engine {
        let persona = Persona::new(level, seed);
        Engine {
            searcher: Searcher::new(rules, persona.table_megabytes()),
            persona,
        }
    }

    pub fn level(&self) -> Level {
        self.persona.level
    }

    pub fn searcher(&mut self) -> &mut Searcher {
        &mut self.searcher
    }

    /// The move to play within `budget` (levels 6–8 use it; the weaker ones are quick anyway).
    pub fn best_move(&mut self, game: &Game, budget: Duration) -> Option<Move> {
        self.think(game, budget, |_| {})
    }

    /// Like [`best_move`](Self::best_move), reporting each finished depth.
    pub fn think(
        &mut self,
        game: &Game,
        budget: Duration,
        on_info: impl FnMut(&Info),
    ) -> Option<Move> {
        self.persona
            .think(&mut self.searcher, game, budget, on_info)
    }
}

/// Thinking time for one move from the clock: a share of what is left plus most of the
/// increment, never more than a fifth of the remaining time.
pub fn budget_from_clock(remaining: Duration, increment: Duration) -> Duration {
    let share = remaining / 30 + increment * 4 / 5;
    share.min(remaining / 5).max(Duration::from_millis(20))
}
