//! The cycle rule of classic (seed 002, 双方走棋出现循环反复达三次以上，首先走棋的人如不变着作认输论处):
//! after the same sequence of turns has been played three times in a row and has come back to
//! its position, the player who began it may not begin it again. Fixtures for cycles of 2, 4 and
//! 8 turns, through a trap, with passes, together with 7-3, and under the other rulesets.

use jungle_rules::{AntiChaseRule, Game, Move, PlayError, Position, Rules, Ruleset, Turn};

fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn repeated(sequence: &[&'static str], times: usize) -> Vec<&'static str> {
    (0..times).flat_map(|_| sequence.iter().copied()).collect()
}

fn game_after(rules: Rules, start: Position, turns: &[&str]) -> Game {
    let turns = turns.iter().map(|t| t.parse::<Turn>().unwrap());
    Game::replay(rules, start, turns).unwrap_or_else(|(i, e)| panic!("turn {i}: {e}"))
}

/// The legal moves, as text, that the bare board allows but the game does not.
fn forbidden(game: &Game) -> Vec<String> {
    let bare = game.position().legal_moves(game.rules());
    let legal = game.legal_moves();
    bare.iter()
        .filter(|m| !legal.contains(**m))
        .map(|m| m.to_string())
        .collect()
}

/// The example: both sides shuttle two animals each, from the start.
const EIGHT: [&str; 8] = [
    "a3a4", "a9a8", "g3g4", "g9g8", "a4a3", "a8a9", "g4g3", "g8g9",
];

#[test]
fn an_eight_turn_cycle_played_three_times_forbids_its_first_move() {
    let before = game_after(
        Rules::CLASSIC,
        Position::start(),
        &repeated(&EIGHT, 3)[..23],
    );
    assert!(
        forbidden(&before).is_empty(),
        "nothing is forbidden before the third round ends"
    );
    let game = game_after(Rules::CLASSIC, Position::start(), &repeated(&EIGHT, 3));
    assert_eq!(game.ply_count(), 24);
    assert_eq!(
        forbidden(&game),
        ["a3a4"],
        "every other legal move stays legal"
    );
    assert_eq!(
        game.check("a3a4".parse().unwrap()),
        Err(PlayError::AntiChase(mv("a3a4"), AntiChaseRule::Cycle))
    );
    let message = game.check("a3a4".parse().unwrap()).unwrap_err().to_string();
    assert!(message.contains("cycle rule"), "{message}");
    // Varying lifts it: once Red plays something else, the repetition is broken.
    let mut varied = game.clone();
    varied.play("g3g4".parse().unwrap()).unwrap();
    varied.play("a9a8".parse().unwrap()).unwrap();
    assert!(forbidden(&varied).is_empty());
}

#[test]
fn two_rounds_are_not_enough() {
    let game = game_after(Rules::CLASSIC, Position::start(), &repeated(&EIGHT, 2));
    assert!(forbidden(&game).is_empty());
}

#[test]
fn the_other_rulesets_forbid_nothing() {
    for ruleset in [Ruleset::Strict, Ruleset::Daitou, Ruleset::International] {
        let game = game_after(ruleset.rules(), Position::start(), &repeated(&EIGHT, 3));
        assert!(game.legal_moves().contains(mv("a3a4")), "{ruleset}");
    }
}

#[test]
fn a_four_turn_cycle_through_a_trap_is_caught_where_7_3_is_not() {
    // Red's lion steps into its own trap e1 and back; Blue's lion shuttles a9-a8. The 7-3 rule
    // spares an animal that entered a trap, so daitou allows the fourth entry; classic's cycle
    // rule does not.
    let start = pos("l6/7/7/7/7/7/7/4L2/7 r 0 1");
    let cycle = ["e2e1", "a9a8", "e1e2", "a8a9"];
    let classic = game_after(Rules::CLASSIC, start, &repeated(&cycle, 3));
    assert_eq!(forbidden(&classic), ["e2e1"]);
    let daitou = game_after(Rules::DAITOU, start, &repeated(&cycle, 3));
    assert!(daitou.legal_moves().contains(mv("e2e1")));
}

#[test]
fn a_cycle_that_7_3_also_forbids_reports_7_3() {
    // Red's lion shuttles d5-d6, Blue's cat g8-g7: a four-turn cycle, and the fourth entry of d6.
    let start = pos("7/6c/7/7/3L3/7/7/7/7 r 0 1");
    let cycle = ["d5d6", "g8g7", "d6d5", "g7g8"];
    let game = game_after(Rules::CLASSIC, start, &repeated(&cycle, 3));
    assert_eq!(
        game.check("d5d6".parse().unwrap()),
        Err(PlayError::AntiChase(mv("d5d6"), AntiChaseRule::SevenThree))
    );
    assert!(!game.legal_moves().contains(mv("d5d6")));
}

#[test]
fn a_cycle_with_passes() {
    // Red moves and Blue's turns time out: the position comes back every four turns.
    let start = pos("l6/7/7/7/7/7/7/4L2/7 r 0 1");
    let cycle = ["e2f2", "pass", "f2e2", "pass"];
    let game = game_after(Rules::CLASSIC, start, &repeated(&cycle, 3));
    assert_eq!(forbidden(&game), ["e2f2"]);
    // A cycle whose first turn is a pass forbids nothing: Red passes, Blue shuttles.
    let start = pos("l6/7/7/7/7/7/7/4L2/7 r 0 1");
    let cycle = ["pass", "a9a8", "pass", "a8a9"];
    let game = game_after(Rules::CLASSIC, start, &repeated(&cycle, 3));
    assert!(forbidden(&game).is_empty());
}

#[test]
fn a_two_turn_cycle_is_two_passes_and_forbids_nothing() {
    // A move always changes the board, so only two passes come back to the position in two turns.
    let game = game_after(
        Rules::CLASSIC,
        Position::start(),
        &repeated(&["pass", "pass"], 3),
    );
    assert!(forbidden(&game).is_empty());
}

#[test]
fn the_blue_side_is_held_to_it_too() {
    // Red passes first; then both shuttle: the sequence begins with Blue's move.
    let start = pos("l6/7/7/7/7/7/7/4L2/7 b 0 1");
    let cycle = ["a9a8", "e2f2", "a8a9", "f2e2"];
    let game = game_after(Rules::CLASSIC, start, &repeated(&cycle, 3));
    assert_eq!(forbidden(&game), ["a9a8"]);
}

#[test]
fn a_player_left_without_a_move_loses() {
    // Red's only animal, a cat in the corner, shuttles a1-a2 against Blue's lion: after three
    // rounds the cat may not begin the round again, and b1 is held by a stronger Blue dog,
    // so Red has no move left and loses by no-moves.
    let start = pos("l6/7/7/7/7/7/7/7/Cd5 r 0 1");
    let cycle = ["a1a2", "a9a8", "a2a1", "a8a9"];
    let game = game_after(Rules::CLASSIC, start, &repeated(&cycle, 3));
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(jungle_rules::Side::Blue));
    assert_eq!(outcome.reason, jungle_rules::EndReason::NoMoves);
}
