//! Property tests over random games in every ruleset.

mod reference;

use jungle_rules::{Game, Position, Ruleset, Turn};
use proptest::prelude::*;

/// Plays a random walk from the start, choosing by `choices`; returns every position on the way.
fn walk(ruleset: Ruleset, choices: &[u8]) -> Vec<Position> {
    let rules = ruleset.rules();
    let mut position = Position::start();
    let mut seen = vec![position];
    for &choice in choices {
        let moves = position.legal_moves(&rules);
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(moves[choice as usize % moves.len()]);
        seen.push(position);
    }
    seen
}

fn any_ruleset() -> impl Strategy<Value = Ruleset> {
    prop::sample::select(Ruleset::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generator_agrees_with_the_reference(ruleset in any_ruleset(), choices in prop::collection::vec(any::<u8>(), 0..160)) {
        let rules = ruleset.rules();
        for position in walk(ruleset, &choices) {
            let mut fast: Vec<String> = position.legal_moves(&rules).iter().map(|m| m.to_string()).collect();
            fast.sort();
            prop_assert_eq!(&fast, &reference::legal_moves(&rules, &position), "{}", position);
            prop_assert_eq!(position.count_legal_moves(&rules), fast.len());
        }
    }

    #[test]
    fn format_then_parse_is_identity(ruleset in any_ruleset(), choices in prop::collection::vec(any::<u8>(), 0..160)) {
        for position in walk(ruleset, &choices) {
            let text = position.to_string();
            let parsed: Position = text.parse().unwrap();
            prop_assert_eq!(parsed, position);
            prop_assert_eq!(parsed.hash(), position.hash());
            prop_assert_eq!(parsed.to_string(), text);
        }
    }

    #[test]
    fn every_legal_move_plays_and_others_are_refused(ruleset in any_ruleset(), choices in prop::collection::vec(any::<u8>(), 0..120)) {
        let rules = ruleset.rules();
        for position in walk(ruleset, &choices) {
            let legal = position.legal_moves(&rules);
            for &m in &legal {
                prop_assert!(position.play(&rules, m).is_ok(), "{} {}", position, m);
            }
            // Every other from/to pair of the side to move's animals is refused.
            for (from, _) in position.pieces().filter(|(_, p)| p.side == position.side_to_move()) {
                for to in jungle_rules::Square::all() {
                    let m = jungle_rules::Move::new(from, to);
                    if !legal.contains(m) {
                        prop_assert!(position.play(&rules, m).is_err(), "{} {}", position, m);
                    }
                }
            }
        }
    }

    #[test]
    fn a_finished_game_has_no_moves(ruleset in any_ruleset(), choices in prop::collection::vec(any::<u8>(), 0..400)) {
        let mut game = Game::new(ruleset.rules(), Position::start());
        for &choice in &choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Now and then a pass, as the server plays for a timed-out player.
            let turn = if choice == 255 { Turn::Pass } else { Turn::Move(moves[choice as usize % moves.len()]) };
            game.play(turn).unwrap();
        }
        if game.outcome().is_some() {
            prop_assert!(game.legal_moves().is_empty());
            prop_assert!(game.play(Turn::Pass).is_err());
        } else {
            prop_assert!(!game.legal_moves().is_empty());
        }
        // The move list replays to the same game.
        let replayed = Game::replay(ruleset.rules(), Position::start(), game.turns()).unwrap();
        prop_assert_eq!(replayed, game);
    }
}

fn sorted_moves(
    position: &Position,
    rules: &jungle_rules::Rules,
    square: impl Fn(jungle_rules::Square) -> jungle_rules::Square,
) -> Vec<String> {
    let mut moves: Vec<String> = position
        .legal_moves(rules)
        .iter()
        .map(|m| format!("{}{}", square(m.from), square(m.to)))
        .collect();
    moves.sort();
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The board's symmetries are the rules' too: a mirrored or colour-swapped position has
    /// exactly the transformed moves, and all four share one symmetric hash.
    #[test]
    fn mirrored_and_colour_swapped_positions_play_alike(ruleset in any_ruleset(), choices in prop::collection::vec(any::<u8>(), 0..120)) {
        let rules = ruleset.rules();
        for position in walk(ruleset, &choices) {
            let mirrored = position.mirrored();
            let swapped = position.colours_swapped();
            prop_assert_eq!(mirrored.mirrored(), position);
            prop_assert_eq!(swapped.colours_swapped(), position);
            prop_assert_eq!(swapped.side_to_move(), !position.side_to_move());
            prop_assert_eq!(sorted_moves(&mirrored, &rules, |s| s), sorted_moves(&position, &rules, |s| s.mirrored()));
            prop_assert_eq!(sorted_moves(&swapped, &rules, |s| s), sorted_moves(&position, &rules, |s| s.flipped()));
            let key = position.symmetric_hash();
            prop_assert_eq!(mirrored.symmetric_hash(), key);
            prop_assert_eq!(swapped.symmetric_hash(), key);
            prop_assert_eq!(mirrored.colours_swapped().symmetric_hash(), key);
            prop_assert_eq!(position.board_outcome().map(|o| o.winner), mirrored.board_outcome().map(|o| o.winner));
            prop_assert_eq!(position.board_outcome().map(|o| o.winner.map(|w| !w)), swapped.board_outcome().map(|o| o.winner));
        }
    }
}

#[test]
fn the_start_turned_round_is_itself_with_blue_to_move() {
    let start = Position::start();
    let swapped = start.mirrored().colours_swapped();
    assert_eq!(swapped.to_string(), start.to_string().replace(" r ", " b "));
    assert_ne!(start.hash(), swapped.hash());
    assert_eq!(start.symmetric_hash(), swapped.symmetric_hash());
    let after: Position = start
        .play(&Ruleset::Classic.rules(), "a3a4".parse().unwrap())
        .unwrap();
    assert_ne!(after.symmetric_hash(), start.symmetric_hash());
}
