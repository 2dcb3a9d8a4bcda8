use super::*;

fn entry(n: u128, rating: i32) -> Entry {
    Entry::new(Uuid::from_u128(n), format!("p{n}"), rating)
}

#[test]
fn wins_score_two_and_a_streak_doubles_them_until_a_game_is_not_won() {
    let mut e = entry(1, 1500);
    let other = Uuid::from_u128(2);
    let scored: Vec<u32> = [
        Outcome::Win,
        Outcome::Win,
        Outcome::Win,
        Outcome::Win,
        Outcome::Draw,
        Outcome::Win,
        Outcome::Win,
        Outcome::Win,
        Outcome::Loss,
        Outcome::Win,
    ]
    .into_iter()
    .map(|o| e.score(o, other, 1500, Side::Red))
    .collect();
    assert_eq!(scored, [2, 2, 4, 4, 1, 2, 2, 4, 0, 2]);
    assert_eq!(e.points, 23);
    assert_eq!((e.games, e.wins, e.losses), (10, 8, 1));
    // An aborted game scores nothing, counts no game, and leaves the streak (it was never played).
    let mut f = entry(3, 1500);
    f.score(Outcome::Win, other, 1500, Side::Red);
    f.score(Outcome::Win, other, 1500, Side::Blue);
    assert!(f.on_fire());
    assert_eq!(f.score(Outcome::Aborted, other, 1500, Side::Red), 0);
    assert_eq!((f.points, f.games, f.on_fire()), (4, 2, true));
}

#[test]
fn standings_break_ties_by_performance() {
    let (mut a, mut b, mut c) = (entry(1, 1500), entry(2, 1500), entry(3, 1500));
    // a and b both win once; a's opponent was stronger.
    a.score(Outcome::Win, c.player, 1900, Side::Red);
    b.score(Outcome::Win, c.player, 1300, Side::Red);
    c.score(Outcome::Draw, a.player, 1500, Side::Blue);
    let mut table = vec![c.clone(), b.clone(), a.clone()];
    standings(&mut table);
    let order: Vec<&str> = table.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(order, ["p1", "p2", "p3"]);
}

#[test]
fn neighbours_meet_unless_they_just_met() {
    let mut entries: Vec<Entry> = (0..4).map(|n| entry(n, 1500)).collect();
    assert_eq!(sorted(pair(&entries, &[0, 1, 2, 3])), [(0, 1), (2, 3)]);
    // 0 and 1 just played: 0 meets 2, 1 meets 3.
    let (p0, p1) = (entries[0].player, entries[1].player);
    entries[0].recent.push_back(p1);
    entries[1].recent.push_back(p0);
    assert_eq!(sorted(pair(&entries, &[0, 1, 2, 3])), [(0, 2), (1, 3)]);
}

#[test]
fn an_odd_player_waits_and_nobody_is_paired_twice_or_with_themself() {
    let entries: Vec<Entry> = (0..1001)
        .map(|n| entry(n, 1000 + (n as i32 * 37) % 900))
        .collect();
    let waiting: Vec<usize> = (0..1001).collect();
    let pairs = pair(&entries, &waiting);
    assert_eq!(pairs.len(), 500);
    let mut seen = std::collections::HashSet::new();
    for (a, b) in pairs {
        assert_ne!(a, b);
        assert!(seen.insert(a) && seen.insert(b), "{a} or {b} paired twice");
    }
    assert_eq!(pair(&entries, &[7]), []);
}

#[test]
fn nobody_plays_a_colour_three_times_running_when_it_can_be_avoided() {
    let (mut a, mut b) = (entry(1, 1500), entry(2, 1500));
    let x = Uuid::from_u128(9);
    a.score(Outcome::Draw, x, 1500, Side::Red);
    a.score(Outcome::Draw, x, 1500, Side::Red);
    assert_eq!(
        colours(&a, &b, true),
        (b.player, a.player),
        "a had red twice: blue now"
    );
    b.score(Outcome::Draw, x, 1500, Side::Blue);
    b.score(Outcome::Draw, x, 1500, Side::Blue);
    assert_eq!(colours(&a, &b, true), (b.player, a.player));
    // Two who both had red twice would collide: such a pair costs more than any other.
    let (mut c, d) = (entry(3, 1500), entry(4, 1500));
    c.score(Outcome::Draw, x, 1500, Side::Red);
    c.score(Outcome::Draw, x, 1500, Side::Red);
    assert!(pair_cost(&a, 0, &c, 1) > pair_cost(&a, 0, &d, 3));
    // Otherwise the colour played less often over the tournament comes next.
    let (mut e, mut f) = (entry(5, 1500), entry(6, 1500));
    for colour in [Side::Red, Side::Blue, Side::Red] {
        e.paired(x, colour);
    }
    f.paired(x, Side::Red);
    f.paired(x, Side::Blue);
    assert_eq!(
        colours(&e, &f, true),
        (f.player, e.player),
        "e had more reds"
    );
    assert_eq!(colours(&f, &e, false), (f.player, e.player));
    // Even, the one who played blue last takes red.
    let mut g = entry(7, 1500);
    g.paired(x, Side::Blue);
    g.paired(x, Side::Red);
    assert_eq!(colours(&f, &g, false), (f.player, g.player));
}

fn sorted(mut pairs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    for p in &mut pairs {
        if p.0 > p.1 {
            *p = (p.1, p.0);
        }
    }
    pairs.sort_unstable();
    pairs
}
