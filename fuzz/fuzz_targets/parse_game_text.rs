#![no_main]
//! Pasted game texts: any text either parses into a game whose written form reads back to the
//! same turns, result and text, or is refused with a located error; never a panic. A parsed
//! game is also replayed (which may refuse a move, but not panic).

use jungle_rules::GameText;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<GameText>() {
        Ok(game) => {
            let written = game.to_string();
            let again: GameText = written.parse().expect("written games parse");
            assert_eq!(again.turns, game.turns);
            assert_eq!(again.result, game.result);
            assert_eq!(again.to_string(), written);
            let _ = game.replay();
        }
        Err(error) => {
            assert!(error.line >= 1 && error.column >= 1);
            let _ = error.to_string();
        }
    }
});
