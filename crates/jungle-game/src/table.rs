//! The standings as shown: lines in rank order, and what changed between two tables. Live
//! tables are sent as lines keyed by each player's number in the tournament plus the ranking
//! as a list of numbers, so that a player moving up does not resend the lines it passes: a
//! page with 500 players redraws only what changed, and a change costs the network little.

use std::collections::{HashMap, HashSet};

use jungle_protocol::http::{PlayerScore, Standing};
use jungle_protocol::StandingLine;
use uuid::Uuid;

use super::arena::{self, Entry};

/// The standings of `entries`, ranked; `paused` are withdrawn, `playing` maps a player to the
/// game they are in.
pub fn lines(
    entries: impl IntoIterator<Item = Entry>,
    paused: &HashSet<Uuid>,
    playing: &HashMap<Uuid, Uuid>,
) -> Vec<Standing> {
    let mut entries: Vec<Entry> = entries.into_iter().collect();
    arena::standings(&mut entries);
    entries
        .into_iter()
        .enumerate()
        .map(|(i, e)| Standing {
            rank: i as u32 + 1,
            score: PlayerScore {
                game: playing.get(&e.player).copied(),
                paused: paused.contains(&e.player),
                player: e.player,
                name: e.name,
                rating: e.rating,
                points: e.points,
                games: e.games,
                streak: e.streak,
            },
        })
        .collect()
}

/// A ranked line as a live line, under the player's number `n`.
pub fn live_line(n: u32, s: &Standing) -> StandingLine {
    StandingLine {
        n,
        score: s.score.clone(),
    }
}

/// What followers were last sent: every line by number, and the ranking.
#[derive(Debug, Default)]
pub struct Shown {
    pub lines: Vec<StandingLine>,
    pub order: Vec<u32>,
}

/// What changed: the lines whose content did, and the ranking if it did.
#[derive(Debug, PartialEq)]
pub struct Change {
    pub lines: Vec<StandingLine>,
    pub order: Option<Vec<u32>>,
}

impl Shown {
    /// Takes the new table (`ranked`, best first, and each player's number) and returns what
    /// changed, if anything.
    pub fn update(&mut self, ranked: &[Standing], numbers: &HashMap<Uuid, u32>) -> Option<Change> {
        let mut lines = vec![None; ranked.len()];
        let mut order = Vec::with_capacity(ranked.len());
        for s in ranked {
            let n = numbers[&s.score.player];
            order.push(n);
            if let Some(slot) = lines.get_mut(n as usize) {
                *slot = Some(live_line(n, s));
            }
        }
        let lines: Vec<StandingLine> = lines.into_iter().flatten().collect();
        let changed: Vec<StandingLine> = lines
            .iter()
            .filter(|line| self.lines.get(line.n as usize) != Some(line))
            .cloned()
            .collect();
        let order = (order != self.order).then_some(order);
        if changed.is_empty() && order.is_none() {
            return None;
        }
        self.lines = lines;
        if let Some(order) = &order {
            self.order.clone_from(order);
        }
        Some(Change {
            lines: changed,
            order,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: u128, points: u32) -> Entry {
        let mut e = Entry::new(Uuid::from_u128(n), format!("p{n}"), 1500);
        e.points = points;
        e
    }

    #[test]
    fn lines_are_ranked_and_a_rise_resends_one_line_and_the_order() {
        let paused = HashSet::from([Uuid::from_u128(3)]);
        let playing = HashMap::from([(Uuid::from_u128(2), Uuid::from_u128(99))]);
        let numbers: HashMap<Uuid, u32> = (1..=5)
            .map(|i| (Uuid::from_u128(i), i as u32 - 1))
            .collect();
        let before = lines(
            [entry(1, 4), entry(2, 2), entry(3, 0), entry(4, 0)],
            &paused,
            &playing,
        );
        assert_eq!(
            before
                .iter()
                .map(|l| (l.rank, l.score.name.as_str()))
                .collect::<Vec<_>>(),
            [(1, "p1"), (2, "p2"), (3, "p3"), (4, "p4")]
        );
        assert_eq!(before[1].score.game, Some(Uuid::from_u128(99)));
        assert!(before[2].score.paused && !before[3].score.paused);
        let mut shown = Shown::default();
        let first = shown.update(&before, &numbers).unwrap();
        assert_eq!(first.lines.len(), 4);
        assert_eq!(first.order, Some(vec![0, 1, 2, 3]));
        assert_eq!(shown.update(&before, &numbers), None, "nothing changed");
        // p4 wins a game and passes p2 and p3: one line and the order change, not the lines
        // passed.
        let after = lines(
            [entry(1, 4), entry(2, 2), entry(3, 0), entry(4, 3)],
            &paused,
            &playing,
        );
        let change = shown.update(&after, &numbers).unwrap();
        assert_eq!(
            change
                .lines
                .iter()
                .map(|l| (l.n, l.score.points))
                .collect::<Vec<_>>(),
            [(3, 3)]
        );
        assert_eq!(change.order, Some(vec![0, 3, 1, 2]));
        // A point that changes no rank: one line, no order.
        let more = lines(
            [entry(1, 5), entry(2, 2), entry(3, 0), entry(4, 3)],
            &paused,
            &playing,
        );
        let change = shown.update(&more, &numbers).unwrap();
        assert_eq!((change.lines.len(), change.order), (1, None));
        // A newcomer is a new line and a new order.
        let joined = lines(
            [
                entry(1, 5),
                entry(2, 2),
                entry(3, 0),
                entry(4, 3),
                entry(5, 0),
            ],
            &paused,
            &playing,
        );
        let change = shown.update(&joined, &numbers).unwrap();
        assert_eq!(change.lines.iter().map(|l| l.n).collect::<Vec<_>>(), [4]);
        assert_eq!(change.order.map(|o| o.len()), Some(5));
    }
}
