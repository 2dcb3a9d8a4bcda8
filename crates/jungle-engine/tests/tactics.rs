//! The engine sees the game's decisive tactics, in every ruleset, and respects the history rules.

use std::time::Duration;

use jungle_engine::{Engine, Level, Limits, Searcher, MATE};
use jungle_rules::{Game, Position, Ruleset, Turn};

fn best(ruleset: Ruleset, fen: &str, level: Level) -> String {
    let game = Game::new(ruleset.rules(), fen.parse::<Position>().unwrap());
    let mut engine = Engine::with_seed(ruleset.rules(), level, 7);
    engine
        .best_move(&game, Duration::from_millis(300))
        .unwrap()
        .to_string()
}

#[test]
fn enters_the_den_when_it_can() {
    for ruleset in Ruleset::ALL {
        assert_eq!(
            best(ruleset, "2e4/3L3/7/7/7/7/7/7/6t r 0 30", Level::MAX),
            "d8d9",
            "{ruleset}"
        );
    }
}

#[test]
fn captures_an_intruder_next_to_its_den() {
    // Blue's rat stands in Red's trap d2, a step from Red's den: Red's cat must take it.
    for ruleset in Ruleset::ALL {
        assert_eq!(
            best(ruleset, "l6/7/7/7/7/7/7/3rC2/7 r 0 30", Level::MAX),
            "e2d2",
            "{ruleset}"
        );
    }
}

#[test]
fn sees_a_den_entry_two_moves_ahead() {
    // Red's lion reaches Blue's den in two steps; Blue's only animal is far away.
    let game = Game::new(
        Ruleset::International.rules(),
        "6e/7/3L3/7/7/7/7/7/7 r 0 30".parse().unwrap(),
    );
    let mut searcher = Searcher::new(*game.rules(), 8);
    let limits = Limits {
        depth: Some(5),
        movetime: None,
        nodes: None,
    };
    let (choice, info) = searcher.search(&game, limits, |_| {});
    assert_eq!(choice.unwrap().to_string(), "d7d8");
    assert!(
        info.unwrap().score > MATE - 10,
        "a forced win is scored as one"
    );
}

#[test]
fn only_plays_moves_the_history_rules_allow() {
    let mut game = Game::new(
        Ruleset::Classic.rules(),
        "7/6c/7/7/3L3/7/7/7/7 r 0 1".parse().unwrap(),
    );
    for t in [
        "d5d6", "g8g7", "d6d5", "g7g8", "d5d6", "g8g7", "d6d5", "g7g8", "d5d6", "g8g7", "d6d5",
        "g7g8",
    ] {
        game.play(t.parse::<Turn>().unwrap()).unwrap();
    }
    assert!(!game.legal_moves().contains("d5d6".parse().unwrap()));
    for level in 1..=8 {
        let mut engine = Engine::with_seed(*game.rules(), Level::new(level).unwrap(), 3);
        let m = engine.best_move(&game, Duration::from_millis(50)).unwrap();
        assert!(game.legal_moves().contains(m), "level {level} chose {m}");
    }
}

#[test]
fn every_level_finishes_a_game_with_legal_moves() {
    for level in [1, 4, 6] {
        let rules = Ruleset::Daitou.rules();
        let mut game = Game::new(rules, Position::start());
        let mut engines = [
            Engine::with_seed(rules, Level::new(level).unwrap(), 1),
            Engine::with_seed(rules, Level::new(level).unwrap(), 2),
        ];
        while game.outcome().is_none() && game.ply_count() < 300 {
            let side = game.position().side_to_move().index();
            let m = engines[side]
                .best_move(&game, Duration::from_millis(5))
                .unwrap();
            game.play(Turn::Move(m)).unwrap();
        }
        assert!(game.ply_count() > 0);
    }
}
