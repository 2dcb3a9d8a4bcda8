//! Static evaluation, from the side to move's point of view, in centi-animals (a dog is ~300).

use jungle_rules::{Animal, Bitboard, Position, Rules, Side, Square};

/// What each animal is worth. The rat is worth more than its rank: it alone threatens the
/// elephant, swims, and blocks the lion's and tiger's jumps.
pub const VALUE: [i32; 8] = [
    450,  // rat
    250,  // cat
    300,  // dog
    350,  // wolf
    500,  // leopard
    850,  // tiger
    950,  // lion
    1050, // elephant
];

/// Steps (orthogonal distance) from a square to a side's target den.
fn den_distance(sq: Square, target: Side) -> i32 {
    let den = Square::den(target);
    (sq.file() as i32 - den.file() as i32).abs() + (sq.rank() as i32 - den.rank() as i32).abs()
}

/// How much an animal of `side` on `sq` gains from being close to the enemy den.
fn advance_bonus(animal: Animal, side: Side, sq: Square) -> i32 {
    let distance = den_distance(sq, !side);
    let weight = match animal {
        Animal::Rat => 6,
        Animal::Cat | Animal::Dog => 8,
        Animal::Wolf | Animal::Leopard => 10,
        Animal::Tiger | Animal::Lion => 12,
        Animal::Elephant => 9,
    };
    // Grows sharply in the last few steps: an animal at the den's door is a standing threat.
    let closeness = (12 - distance).max(0);
    weight * closeness + if distance <= 2 { 60 } else { 0 } + if distance == 1 { 120 } else { 0 }
}

pub fn evaluate(position: &Position, rules: &Rules) -> i32 {
    let us = position.side_to_move();
    let mut score = [0i32; 2];
    for side in Side::ALL {
        let own = position.occupied_by(side);
        for sq in own {
            let piece = position.piece_at(sq).expect("occupied");
            let mut value = VALUE[piece.animal.index()] + advance_bonus(piece.animal, side, sq);
            if piece.animal == Animal::Rat && sq.is_water() {
                // A swimming rat is safe from all but rats and closes the jump lanes.
                value += 40;
            }
            if Bitboard::trap(!side).contains(sq) {
                // Standing in an enemy trap: next to its den, but anyone may take it.
                value += 80;
            }
            score[side.index()] += value;
        }
        // Defenders near the own den when enemies approach.
        let enemies_near = position
            .occupied_by(!side)
            .filter(|&sq| den_distance(sq, side) <= 3)
            .count() as i32;
        if enemies_near > 0 {
            let defenders = own.filter(|&sq| den_distance(sq, side) <= 2).count() as i32;
            score[side.index()] += 25 * defenders.min(enemies_near + 1) - 35 * enemies_near;
        }
    }
    let mobility = position.count_legal_moves(rules) as i32;
    score[us.index()] - score[(!us).index()] + 2 * mobility
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_balanced_but_for_mobility() {
        let start = Position::start();
        let score = evaluate(&start, &Rules::CLASSIC);
        assert!(score.abs() < 100, "{score}");
    }

    #[test]
    fn an_extra_lion_is_good() {
        let with: Position = "l6/7/7/7/7/7/7/7/L5T r 0 1".parse().unwrap();
        assert!(evaluate(&with, &Rules::CLASSIC) > 500);
    }
}
