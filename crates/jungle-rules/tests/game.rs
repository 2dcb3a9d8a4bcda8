//! Game-level rules: how games end and in which order, passes, the 7-3 and 17-5 anti-chase
//! rules and the cycle rule of classic.

use jungle_rules::{
    AntiChaseRule, EndReason, Game, Illegal, Move, Outcome, PlayError, Position, Rules, Ruleset,
    Side, Turn,
};

fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

fn turn(text: &str) -> Turn {
    text.parse().unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn play_all(game: &mut Game, turns: &[&str]) {
    for t in turns {
        game.play(turn(t)).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
}

fn won(side: Side, reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        winner: Some(side),
        reason,
    })
}

#[test]
fn entering_the_den_wins_for_the_mover() {
    let mut game = Game::new(Rules::CLASSIC, pos("2e4/3L3/7/7/7/7/7/7/7 r 0 30"));
    game.play(turn("d8d9")).unwrap();
    assert_eq!(game.outcome(), won(Side::Red, EndReason::Den));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.play(turn("c9c8")), Err(PlayError::GameOver));
    assert_eq!(game.play(Turn::Pass), Err(PlayError::GameOver));
}

#[test]
fn capturing_the_last_animal_wins() {
    let mut game = Game::new(Rules::CLASSIC, pos("7/7/7/7/7/7/7/1rE4/7 b 0 1"));
    game.play(turn("b2c2")).unwrap();
    assert_eq!(game.outcome(), won(Side::Blue, EndReason::AllCaptured));
}

#[test]
fn a_side_left_without_a_move_loses() {
    // Blue's wolf shuts Red's only animal, the cat on a1, in behind Blue's dog.
    let mut game = Game::new(Rules::INTERNATIONAL, pos("7/7/7/7/7/7/7/dw5/C6 b 0 1"));
    assert!(game.outcome().is_none());
    game.play(turn("b2b1")).unwrap();
    assert_eq!(game.outcome(), won(Side::Blue, EndReason::NoMoves));
    // A game may also start in such a position.
    let stuck = Game::new(Rules::INTERNATIONAL, pos("7/7/7/7/7/7/7/d6/Cw5 r 0 1"));
    assert_eq!(stuck.outcome(), won(Side::Blue, EndReason::NoMoves));
}

#[test]
fn no_capture_draw_comes_at_each_rulesets_limit() {
    for ruleset in Ruleset::ALL {
        let limit = ruleset.rules().no_capture_draw_plies;
        let before = pos(&format!("l6/7/7/7/7/7/7/7/6L r {} 60", limit - 2));
        let mut game = Game::new(ruleset.rules(), before);
        game.play(turn("g1g2")).unwrap();
        assert_eq!(game.outcome(), None, "{ruleset}");
        game.play(turn("a9a8")).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: None,
                reason: EndReason::NoCapture
            }),
            "{ruleset}"
        );
    }
}

#[test]
fn a_capture_resets_the_no_capture_count() {
    let mut game = Game::new(Rules::STRICT, pos("l6/7/7/7/7/7/7/1rE4/6L b 98 60"));
    game.play(turn("b2c2")).unwrap();
    assert_eq!(game.position().plies_since_capture(), 0);
    assert_eq!(game.outcome(), None);
}

#[test]
fn den_and_no_moves_come_before_the_draw() {
    let mut game = Game::new(Rules::STRICT, pos("2e4/3L3/7/7/7/7/7/7/7 r 99 30"));
    game.play(turn("d8d9")).unwrap();
    assert_eq!(game.outcome(), won(Side::Red, EndReason::Den));

    let mut game = Game::new(Rules::STRICT, pos("7/7/7/7/7/7/7/dw5/C6 b 99 1"));
    game.play(turn("b2b1")).unwrap();
    assert_eq!(game.outcome(), won(Side::Blue, EndReason::NoMoves));
}

#[test]
fn a_pass_counts_as_a_ply() {
    let mut game = Game::new(Rules::CLASSIC, Position::start());
    game.play(Turn::Pass).unwrap();
    assert_eq!(game.position().side_to_move(), Side::Blue);
    assert_eq!(game.position().plies_since_capture(), 1);
    assert_eq!(game.position().move_number(), 1);
    game.play(Turn::Pass).unwrap();
    assert_eq!(game.position().move_number(), 2);
    assert_eq!(
        game.position().to_string(),
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 2 2"
    );

    let mut near_draw = Game::new(Rules::CLASSIC, pos("l6/7/7/7/7/7/7/7/6L b 199 60"));
    near_draw.play(Turn::Pass).unwrap();
    assert_eq!(
        near_draw.outcome().map(|o| o.reason),
        Some(EndReason::NoCapture)
    );
}

#[test]
fn illegal_moves_are_refused_precisely_and_change_nothing() {
    let mut game = Game::new(Rules::CLASSIC, Position::start());
    let before = game.clone();
    assert_eq!(
        game.play(turn("d4d5")),
        Err(PlayError::EmptySquare(mv("d4d5").from))
    );
    assert_eq!(
        game.play(turn("a7a6")),
        Err(PlayError::NotYourAnimal(mv("a7a6").from))
    );
    assert_eq!(
        game.play(turn("a3a5")),
        Err(PlayError::Illegal(mv("a3a5"), Illegal::NotAStepOrJump))
    );
    assert_eq!(
        game.play(turn("c3c4")),
        Err(PlayError::Illegal(mv("c3c4"), Illegal::Water))
    );
    assert_eq!(
        game.play(turn("b2a2"))
            .and(game.play(turn("a7a6")))
            .and(game.play(turn("a2a1"))),
        Err(PlayError::Illegal(mv("a2a1"), Illegal::OccupiedByOwnAnimal))
    );
    let mut fresh = before.clone();
    assert_eq!(fresh.play(turn("b2b3")), Ok(()));
    assert_ne!(fresh, before);
}

/// Red's lion shuttles d5–d6 while Blue's cat shuttles g8–g7.
const SHUTTLE: [&str; 12] = [
    "d5d6", "g8g7", "d6d5", "g7g8", "d5d6", "g8g7", "d6d5", "g7g8", "d5d6", "g8g7", "d6d5", "g7g8",
];

#[test]
fn seven_three_forbids_a_fourth_entry() {
    for ruleset in [Ruleset::Classic, Ruleset::Daitou] {
        let mut game = Game::new(ruleset.rules(), pos("7/6c/7/7/3L3/7/7/7/7 r 0 1"));
        play_all(&mut game, &SHUTTLE);
        assert_eq!(
            game.play(turn("d5d6")),
            Err(PlayError::AntiChase(mv("d5d6"), AntiChaseRule::SevenThree))
        );
        let legal = game.legal_moves();
        assert!(!legal.contains(mv("d5d6")));
        assert!(legal.contains(mv("d5d4")) && legal.contains(mv("d5g5")));
        // d5 was entered three times too, until those entries leave the 7-turn window.
        play_all(&mut game, &["d5d4", "g8f8"]);
        assert!(!game.legal_moves().contains(mv("d4d5")));
        play_all(&mut game, &["d4d3", "f8f7", "d3d4", "f7f8"]);
        assert!(game.legal_moves().contains(mv("d4d5")));
    }
}

#[test]
fn rulesets_without_anti_chase_allow_the_shuttle() {
    for ruleset in [Ruleset::Strict, Ruleset::International] {
        let mut game = Game::new(ruleset.rules(), pos("7/6c/7/7/3L3/7/7/7/7 r 0 1"));
        play_all(&mut game, &SHUTTLE);
        assert_eq!(game.play(turn("d5d6")), Ok(()), "{ruleset}");
    }
}

#[test]
fn seven_three_spares_a_chased_animal() {
    // Blue's lion on a5 could jump and take Red's lion on d5: Red's lion is being chased.
    let start = pos("7/6c/7/7/l2L3/7/7/7/7 r 0 1");
    let mut game = Game::new(Rules::DAITOU, start);
    play_all(&mut game, &SHUTTLE);
    assert_eq!(game.play(turn("d5d6")), Ok(()));
    // Classic's cycle rule has no such exemption: the shuttle went round three times.
    let mut game = Game::new(Rules::CLASSIC, start);
    play_all(&mut game, &SHUTTLE);
    assert_eq!(
        game.play(turn("d5d6")),
        Err(PlayError::AntiChase(mv("d5d6"), AntiChaseRule::Cycle))
    );
}

#[test]
fn seven_three_spares_an_animal_that_entered_a_trap() {
    let start = pos("7/6c/7/7/7/3L3/7/7/7 r 0 1");
    let blue = ["g8g7", "g7g8", "g8g7", "g7g8", "g8g7", "g7g8"];
    let with_trap = ["d4d3", "d3d2", "d2d3", "d3d4", "d4d3", "d3d4"];
    let without = ["d4d3", "d3d4", "d4d3", "d3d4", "d4d3", "d3d4"];
    let interleave = |red: [&'static str; 6]| -> Vec<&'static str> {
        red.iter()
            .zip(blue.iter())
            .flat_map(|(r, b)| [*r, *b])
            .collect()
    };
    let mut game = Game::new(Rules::CLASSIC, start);
    play_all(&mut game, &interleave(without));
    assert_eq!(
        game.play(turn("d4d3")),
        Err(PlayError::AntiChase(mv("d4d3"), AntiChaseRule::SevenThree))
    );
    let mut game = Game::new(Rules::CLASSIC, start);
    play_all(&mut game, &interleave(with_trap));
    assert_eq!(game.play(turn("d4d3")), Ok(()));
}

/// Seventeen turns of a lion walking round a square of four, for each side.
fn round_trips(red_cycle: [&'static str; 4], blue_cycle: [&'static str; 4]) -> Vec<&'static str> {
    (0..17)
        .flat_map(|i| [red_cycle[i % 4], blue_cycle[i % 4]])
        .collect()
}

#[test]
fn seventeen_five_confines_a_lone_walker() {
    let red = ["g1g2", "g2f2", "f2f1", "f1g1"];
    let blue = ["a9a8", "a8b8", "b8b9", "b9a9"];
    // Daitou: in classic the cycle rule stops the walk after three laps (see the cycle tests).
    for ruleset in [Ruleset::Daitou] {
        let mut game = Game::new(ruleset.rules(), pos("l6/7/7/7/7/7/7/7/6L r 0 1"));
        play_all(&mut game, &round_trips(red, blue));
        for forbidden in ["g2f2", "g2g1"] {
            assert_eq!(
                game.play(turn(forbidden)),
                Err(PlayError::AntiChase(
                    mv(forbidden),
                    AntiChaseRule::SeventeenFive
                )),
                "{ruleset}"
            );
        }
        assert_eq!(game.play(turn("g2g3")), Ok(()));
    }
    let mut free = Game::new(Rules::INTERNATIONAL, pos("l6/7/7/7/7/7/7/7/6L r 0 1"));
    play_all(&mut free, &round_trips(red, blue));
    assert_eq!(free.play(turn("g2f2")), Ok(()));
}

#[test]
fn seventeen_five_spares_a_walk_through_a_trap() {
    // Red's lion walks f1 e1 e2 f2: e1 is one of Red's own traps.
    let red = ["f1e1", "e1e2", "e2f2", "f2f1"];
    let blue = ["a9a8", "a8b8", "b8b9", "b9a9"];
    let mut game = Game::new(Rules::DAITOU, pos("l6/7/7/7/7/7/7/7/5L1 r 0 1"));
    play_all(&mut game, &round_trips(red, blue));
    assert_eq!(game.play(turn("e1e2")), Ok(()));
}

#[test]
fn seventeen_five_needs_seventeen_moves_of_one_animal() {
    let red = ["g1g2", "g2f2", "f2f1", "f1g1"];
    let blue = ["a9a8", "a8b8", "b8b9", "b9a9"];
    // Red walks two rounds, passes once (a timed-out turn), then walks two more rounds.
    let red_turns: Vec<&str> = (0..8)
        .map(|i| red[i % 4])
        .chain(["pass"])
        .chain((0..8).map(|i| red[i % 4]))
        .collect();
    let mut game = Game::new(Rules::CLASSIC, pos("l6/7/7/7/7/7/7/7/6L r 0 1"));
    for (i, r) in red_turns.iter().enumerate() {
        play_all(&mut game, &[r, blue[i % 4]]);
    }
    assert_eq!(game.ply_count(), 34);
    assert!(game.anti_chase_violation(mv("g1g2")).is_none());
    assert_eq!(game.play(turn("g1g2")), Ok(()));
}

#[test]
fn positions_run_from_the_start_to_the_current_one() {
    let mut game = Game::new(Rules::CLASSIC, Position::start());
    play_all(&mut game, &["a3a4", "pass", "a4a5"]);
    let positions: Vec<Position> = game.positions().collect();
    assert_eq!(positions.len(), 4);
    assert_eq!(positions[0], Position::start());
    assert_eq!(positions[3], *game.position());
    assert_eq!(positions[2].side_to_move(), Side::Red);
    assert_eq!(
        positions[1],
        Position::start().play(&Rules::CLASSIC, mv("a3a4")).unwrap()
    );
}

#[test]
fn board_distance_counts_animals_moved_taken_or_added() {
    let start = Position::start();
    assert_eq!(start.board_distance(&start), 0);
    let one = start.play(&Rules::CLASSIC, mv("a3a4")).unwrap();
    assert_eq!(start.board_distance(&one), 2, "one animal moved");
    let two = one.play(&Rules::CLASSIC, mv("g7g6")).unwrap();
    assert_eq!(start.board_distance(&two), 4);
    // A lone lion each, and the same with Red's lion gone.
    let lions = pos("6l/7/7/7/7/7/7/7/L6 r 0 20");
    let one_lion = pos("6l/7/7/7/7/7/7/7/7 r 0 20");
    assert_eq!(lions.board_distance(&one_lion), 1);
    let other_side = pos("6l/7/7/7/7/7/7/7/L6 b 0 20");
    assert_eq!(
        lions.board_distance(&other_side),
        0,
        "the side to move is not counted"
    );
}
