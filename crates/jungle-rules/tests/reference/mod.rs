//! An independent, deliberately naive move generator written straight from docs/rules.md,
//! with no bitboards and no shared code beyond the public vocabulary types. The crate's fast
//! generator must agree with it everywhere.

use jungle_rules::{Animal, Move, Piece, Position, Rules, Side, Square};

fn water(file: i32, rank: i32) -> bool {
    (3..=5).contains(&rank) && matches!(file, 1 | 2 | 4 | 5)
}

fn trap_of(file: i32, rank: i32) -> Option<Side> {
    match (file, rank) {
        (2, 0) | (4, 0) | (3, 1) => Some(Side::Red),
        (2, 8) | (4, 8) | (3, 7) => Some(Side::Blue),
        _ => None,
    }
}

fn den_of(file: i32, rank: i32) -> Option<Side> {
    match (file, rank) {
        (3, 0) => Some(Side::Red),
        (3, 8) => Some(Side::Blue),
        _ => None,
    }
}

fn at(p: &Position, file: i32, rank: i32) -> Option<Piece> {
    p.piece_at(Square::from_coords(file as u8, rank as u8).unwrap())
}

fn may_capture(rules: &Rules, a: Piece, af: (i32, i32), d: Piece, df: (i32, i32)) -> bool {
    let a_water = water(af.0, af.1);
    let d_water = water(df.0, df.1);
    if a_water != d_water {
        return a.animal == Animal::Rat
            && d.animal == Animal::Rat
            && rules.rat_captures_across_water;
    }
    if rules.trapped_cannot_capture && trap_of(af.0, af.1) == Some(d.side) {
        return false;
    }
    if trap_of(df.0, df.1) == Some(a.side) {
        return true;
    }
    if a.animal == Animal::Elephant && d.animal == Animal::Rat {
        return false;
    }
    if a.animal == Animal::Rat && d.animal == Animal::Elephant {
        return true;
    }
    a.animal.rank() >= d.animal.rank()
}

/// The legal moves by the board rules, as sorted text.
#[allow(dead_code)]
pub fn legal_moves(rules: &Rules, p: &Position) -> Vec<String> {
    let mut counts = [0; 2];
    let mut in_den = false;
    for file in 0..7 {
        for rank in 0..9 {
            if let Some(piece) = at(p, file, rank) {
                counts[piece.side as usize] += 1;
                if den_of(file, rank) == Some(!piece.side) {
                    in_den = true;
                }
            }
        }
    }
    if in_den || counts[0] == 0 || counts[1] == 0 {
        return Vec::new();
    }
    let us = p.side_to_move();
    let mut out = Vec::new();
    for file in 0..7 {
        for rank in 0..9 {
            let Some(piece) = at(p, file, rank) else {
                continue;
            };
            if piece.side != us {
                continue;
            }
            let mut push = |tf: i32, tr: i32| {
                let from = Square::from_coords(file as u8, rank as u8).unwrap();
                let to = Square::from_coords(tf as u8, tr as u8).unwrap();
                out.push(Move::new(from, to).to_string());
            };
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (tf, tr) = (file + df, rank + dr);
                if !(0..7).contains(&tf) || !(0..9).contains(&tr) {
                    continue;
                }
                if den_of(tf, tr) == Some(us) || (water(tf, tr) && piece.animal != Animal::Rat) {
                    continue;
                }
                match at(p, tf, tr) {
                    None => push(tf, tr),
                    Some(other) if other.side == us => {}
                    Some(other) => {
                        if may_capture(rules, piece, (file, rank), other, (tf, tr)) {
                            push(tf, tr)
                        }
                    }
                }
            }
            let jumps = matches!(piece.animal, Animal::Lion | Animal::Tiger);
            if !jumps || water(file, rank) {
                continue;
            }
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if dr != 0 && piece.animal == Animal::Tiger && !rules.tiger_jumps_vertically {
                    continue;
                }
                let (mut tf, mut tr) = (file + df, rank + dr);
                let mut crossed = 0;
                let mut blocked = false;
                while (0..7).contains(&tf) && (0..9).contains(&tr) && water(tf, tr) {
                    if let Some(other) = at(p, tf, tr) {
                        if other.side != us || rules.own_rat_blocks_jump {
                            blocked = true;
                        }
                    }
                    crossed += 1;
                    tf += df;
                    tr += dr;
                }
                if crossed == 0 || blocked || !(0..7).contains(&tf) || !(0..9).contains(&tr) {
                    continue;
                }
                match at(p, tf, tr) {
                    None => push(tf, tr),
                    Some(other) if other.side == us => {}
                    Some(other) => {
                        if may_capture(rules, piece, (file, rank), other, (tf, tr)) {
                            push(tf, tr)
                        }
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// Perft over the reference generator (slow; for small depths).
#[allow(dead_code)]
pub fn perft(rules: &Rules, p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(rules, p)
        .iter()
        .map(|text| {
            let m: Move = text.parse().unwrap();
            perft(rules, &p.play(rules, m).unwrap(), depth - 1)
        })
        .sum()
}
