//! The arena's arithmetic, pure: points with streaks, standings with their tie-break, and the
//! pairing of whoever is waiting. No runtime, no store (issue 15).
//!
//! - **Points**: a win 2, a draw 1, a loss 0. After two wins in a row each further win scores
//!   double (4) until a game is not won; an aborted game scores nothing and leaves the streak as it was.
//! - **Standings**: by points, then by performance rating (the opponents' average rating plus
//!   400 × (wins − losses) / games), then by fewer games, then by name.
//! - **Pairing**: the waiting players, sorted by standing, are cut into windows of
//!   [`WINDOW`] neighbours; within each window the pairs are chosen by an exact minimum-cost
//!   matching (a dynamic programme over subsets), the cost of a pair being
//!   [`pair_cost`]. Neighbours in the standings meet, close ratings meet, a rematch of one of
//!   the last two opponents costs a great deal, and so does a pair that cannot be given
//!   colours without someone playing the same colour three times running. A window of 10
//!   costs about 10,000 steps (docs/benchmarks.md has the timings).

use std::collections::VecDeque;

use jungle_rules::Side;
use uuid::Uuid;

/// Players paired together at most, by standing: the exact matching's reach.
pub const WINDOW: usize = 10;
/// Opponents remembered per player, to avoid rematches.
pub const RECENT_OPPONENTS: usize = 2;

/// How a finished tournament game ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
    /// Aborted: a first move never made. Scores nothing either way.
    Aborted,
}

/// One player's record in an arena.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub player: Uuid,
    pub name: String,
    pub rating: i32,
    pub points: u32,
    /// Wins in a row right now.
    pub streak: u32,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    /// The sum of the opponents' ratings, for the performance rating.
    pub opponents_rating: i64,
    /// The last opponents, newest last.
    pub recent: VecDeque<Uuid>,
    /// The colours played, newest last (the last three are enough).
    pub colours: VecDeque<Side>,
    /// Games played as Blue less games played as Red, over the whole tournament.
    pub blue_surplus: i32,
}

impl Entry {
    pub fn new(player: Uuid, name: String, rating: i32) -> Entry {
        Entry {
            player,
            name,
            rating,
            points: 0,
            streak: 0,
            games: 0,
            wins: 0,
            losses: 0,
            opponents_rating: 0,
            recent: VecDeque::new(),
            colours: VecDeque::new(),
            blue_surplus: 0,
        }
    }

    /// Points for a game just finished, added to the record; returns them.
    pub fn score(
        &mut self,
        outcome: Outcome,
        opponent: Uuid,
        opponent_rating: i32,
        colour: Side,
    ) -> u32 {
        let (points, streak) = scored(outcome, self.streak);
        self.streak = streak;
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Loss => self.losses += 1,
            Outcome::Draw | Outcome::Aborted => {}
        }
        if outcome != Outcome::Aborted {
            self.games += 1;
            self.opponents_rating += i64::from(opponent_rating);
            self.points += points;
        }
        self.paired(opponent, colour);
        points
    }

    /// Remembers a pairing: the opponent (to avoid rematches) and the colour.
    pub fn paired(&mut self, opponent: Uuid, colour: Side) {
        self.recent.push_back(opponent);
        if self.recent.len() > RECENT_OPPONENTS {
            self.recent.pop_front();
        }
        self.colours.push_back(colour);
        if self.colours.len() > 3 {
            self.colours.pop_front();
        }
        self.blue_surplus += match colour {
            Side::Blue => 1,
            Side::Red => -1,
        };
    }

    /// Takes the scores of `stored` (as the database has them after a game), keeping what
    /// only the director remembers: the recent opponents and colours.
    pub fn take_scores(&mut self, stored: &Entry) {
        let (recent, colours) = (
            std::mem::take(&mut self.recent),
            std::mem::take(&mut self.colours),
        );
        *self = Entry {
            recent,
            colours,
            blue_surplus: self.blue_surplus,
            ..stored.clone()
        };
    }

    /// Whether the last two games were both played as `colour`.
    pub fn twice(&self, colour: Side) -> bool {
        self.colours.len() >= 2 && self.colours.iter().rev().take(2).all(|c| *c == colour)
    }

    /// The opponents' average rating plus 400 × (wins − losses) / games; the own rating before
    /// any game.
    pub fn performance(&self) -> f64 {
        if self.games == 0 {
            return f64::from(self.rating);
        }
        let games = f64::from(self.games);
        self.opponents_rating as f64 / games
            + 400.0 * (f64::from(self.wins) - f64::from(self.losses)) / games
    }

    /// Whether the player is on a streak (their next win scores double).
    pub fn on_fire(&self) -> bool {
        self.streak >= 2
    }
}

/// The points a game scores for a player whose streak (wins in a row) stood at `streak`.
pub fn points_for(outcome: Outcome, streak: u32) -> u32 {
    match outcome {
        Outcome::Win if streak >= 2 => 4,
        Outcome::Win => 2,
        Outcome::Draw => 1,
        Outcome::Loss | Outcome::Aborted => 0,
    }
}

/// A game's points and the streak after it, for a player whose streak stood at `streak`. An
/// aborted game was never played: it leaves the streak as it was.
pub fn scored(outcome: Outcome, streak: u32) -> (u32, u32) {
    let after = match outcome {
        Outcome::Win => streak + 1,
        Outcome::Draw | Outcome::Loss => 0,
        Outcome::Aborted => streak,
    };
    (points_for(outcome, streak), after)
}

/// The standings: best first.
pub fn standings(entries: &mut [Entry]) {
    entries.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.performance().total_cmp(&a.performance()))
            .then(a.games.cmp(&b.games))
            .then(a.name.cmp(&b.name))
    });
}

/// What pairing two waiting players costs: lower is better.
pub fn pair_cost(a: &Entry, rank_a: usize, b: &Entry, rank_b: usize) -> u64 {
    let ranks = rank_a.abs_diff(rank_b) as u64 * 10;
    let ratings = a.rating.abs_diff(b.rating) as u64 / 10;
    let rematch = if a.recent.contains(&b.player) || b.recent.contains(&a.player) {
        10_000
    } else {
        0
    };
    // Colours: a pair where both have just played the same colour twice cannot be balanced.
    let colours = if (a.twice(Side::Red) && b.twice(Side::Red))
        || (a.twice(Side::Blue) && b.twice(Side::Blue))
    {
        5_000
    } else {
        0
    };
    ranks + ratings + rematch + colours
}

/// The colours for a pair: `(red, blue)`. Whoever played red twice running takes blue (and the
/// other way round); else whoever has played Blue more often over the tournament takes red;
/// else whoever played Blue last; else `coin`.
pub fn colours(a: &Entry, b: &Entry, coin: bool) -> (Uuid, Uuid) {
    let a_red = if a.twice(Side::Red) || b.twice(Side::Blue) {
        false
    } else if a.twice(Side::Blue) || b.twice(Side::Red) {
        true
    } else if a.blue_surplus != b.blue_surplus {
        a.blue_surplus > b.blue_surplus
    } else if a.colours.back() != b.colours.back() {
        a.colours.back() == Some(&Side::Blue) || b.colours.back() == Some(&Side::Red)
    } else {
        coin
    };
    if a_red {
        (a.player, b.player)
    } else {
        (b.player, a.player)
    }
}

/// Pairs the `waiting` players (indexes into `entries`, which are in standing order): pairs of
/// entry indexes. With an odd count, one waits for the next round.
pub fn pair(entries: &[Entry], waiting: &[usize]) -> Vec<(usize, usize)> {
    let mut waiting = waiting.to_vec();
    waiting.sort_unstable();
    let mut pairs = Vec::with_capacity(waiting.len() / 2);
    for window in waiting.chunks(WINDOW) {
        pairs.extend(match_window(entries, window));
    }
    pairs
}

/// The cheapest set of pairs in a window (at most [`WINDOW`] players; one left out if odd),
/// exactly: a dynamic programme over the subsets still to pair.
fn match_window(entries: &[Entry], window: &[usize]) -> Vec<(usize, usize)> {
    let n = window.len();
    if n < 2 {
        return Vec::new();
    }
    let cost = |i: usize, j: usize| {
        pair_cost(
            &entries[window[i]],
            window[i],
            &entries[window[j]],
            window[j],
        )
    };
    let full = (1usize << n) - 1;
    // best[mask]: the least cost to pair the players of `mask` (one may stay out when odd).
    let mut best = vec![u64::MAX; 1 << n];
    let mut choice = vec![(usize::MAX, usize::MAX); 1 << n];
    best[0] = 0;
    for mask in 1..=full {
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        // The lowest player stays out (allowed once, when the count is odd)…
        if !mask.count_ones().is_multiple_of(2)
            && best[rest] != u64::MAX
            && rest.count_ones().is_multiple_of(2)
        {
            best[mask] = best[rest];
            choice[mask] = (i, usize::MAX);
        }
        // …or is paired with another.
        let mut others = rest;
        while others != 0 {
            let j = others.trailing_zeros() as usize;
            others &= others - 1;
            let sub = rest & !(1 << j);
            if best[sub] == u64::MAX {
                continue;
            }
            let total = best[sub] + cost(i, j);
            if total < best[mask] {
                best[mask] = total;
                choice[mask] = (i, j);
            }
        }
    }
    let mut pairs = Vec::new();
    let mut mask = full;
    while mask != 0 {
        let (i, j) = choice[mask];
        if j == usize::MAX {
            mask &= !(1 << i);
        } else {
            pairs.push((window[i], window[j]));
            mask &= !(1 << i) & !(1 << j);
        }
    }
    pairs
}

#[cfg(test)]
mod tests;
