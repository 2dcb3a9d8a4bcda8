//! The standings as shown: lines in rank order, and what changed between two tables, so that a
//! page with 500 players redraws only the lines that moved.

use std::collections::{HashMap, HashSet};

use jungle_protocol::http::Standing;
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
            game: playing.get(&e.player).copied(),
            paused: paused.contains(&e.player),
            player: e.player,
            name: e.name,
            rating: e.rating,
            points: e.points,
            games: e.games,
            streak: e.streak,
        })
        .collect()
}

/// The lines of `new` that differ from the line of the same rank in `old` (or are new).
pub fn changed(old: &[Standing], new: &[Standing]) -> Vec<Standing> {
    new.iter()
        .enumerate()
        .filter(|(i, line)| old.get(*i) != Some(line))
        .map(|(_, line)| line.clone())
        .collect()
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
    fn lines_are_ranked_and_only_moved_lines_change() {
        let paused = HashSet::from([Uuid::from_u128(3)]);
        let playing = HashMap::from([(Uuid::from_u128(2), Uuid::from_u128(99))]);
        let before = lines(
            [entry(1, 4), entry(2, 2), entry(3, 0), entry(4, 0)],
            &paused,
            &playing,
        );
        assert_eq!(
            before
                .iter()
                .map(|l| (l.rank, l.name.as_str()))
                .collect::<Vec<_>>(),
            [(1, "p1"), (2, "p2"), (3, "p3"), (4, "p4")]
        );
        assert_eq!(before[1].game, Some(Uuid::from_u128(99)));
        assert!(before[2].paused && !before[3].paused);
        // p4 wins a game and passes p2: lines 2, 3 and 4 change, line 1 does not.
        let after = lines(
            [entry(1, 4), entry(2, 2), entry(3, 0), entry(4, 3)],
            &paused,
            &playing,
        );
        let moved = changed(&before, &after);
        assert_eq!(
            moved
                .iter()
                .map(|l| (l.rank, l.name.as_str()))
                .collect::<Vec<_>>(),
            [(2, "p4"), (3, "p2"), (4, "p3")]
        );
        assert!(changed(&after, &after).is_empty());
        // A newcomer is a changed line too.
        let more = lines(
            [
                entry(1, 4),
                entry(2, 2),
                entry(3, 0),
                entry(4, 3),
                entry(5, 0),
            ],
            &paused,
            &playing,
        );
        assert_eq!(changed(&after, &more).len(), 1);
    }
}
