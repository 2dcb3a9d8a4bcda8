#![no_main]
//! Any text either parses into a position whose text parses back to the same position, or is
//! refused with an error: never a panic.

use jungle_rules::{Position, Ruleset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(position) = text.parse::<Position>() {
        let formatted = position.to_string();
        let again: Position = formatted.parse().expect("formatted text parses");
        assert_eq!(again, position);
        assert_eq!(again.to_string(), formatted);
        for ruleset in Ruleset::ALL {
            let rules = ruleset.rules();
            let moves = position.legal_moves(&rules);
            assert_eq!(moves.len(), position.count_legal_moves(&rules));
            for &m in &moves {
                position.play(&rules, m).expect("a listed move plays");
            }
        }
    }
});
