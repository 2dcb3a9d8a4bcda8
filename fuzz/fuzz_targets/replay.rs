#![no_main]
//! A move list as the CLI's `replay` and the server receive it: each move either plays (and was
//! listed as legal) or is refused and changes nothing.

use jungle_rules::{Game, Position, Ruleset, Turn};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let ruleset = Ruleset::ALL[selector as usize % Ruleset::ALL.len()];
    let mut game = Game::new(ruleset.rules(), Position::start());
    for word in text.split_whitespace().take(400) {
        let Ok(turn) = word.parse::<Turn>() else {
            continue;
        };
        let before = game.clone();
        let listed = match turn {
            Turn::Move(m) => game.legal_moves().contains(m),
            Turn::Pass => game.outcome().is_none(),
        };
        match game.play(turn) {
            Ok(()) => assert!(listed, "{turn} played but was not listed"),
            Err(_) => {
                assert!(!listed, "{turn} was listed but refused");
                assert_eq!(game, before, "a refused move changed the game");
            }
        }
        if game.outcome().is_some() {
            assert!(game.legal_moves().is_empty());
        }
    }
});
