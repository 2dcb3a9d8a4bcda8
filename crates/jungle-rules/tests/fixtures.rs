//! Data-driven rule tests: `fixtures/legal-moves.txt` and `fixtures/perft.txt`.

mod reference;

use jungle_rules::{Position, Ruleset};

/// Splits a fixture file into blocks of `key: value` lines, skipping comments.
fn blocks(text: &str) -> Vec<Vec<(String, String)>> {
    let mut blocks = Vec::new();
    let mut current = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !current.is_empty() {
                blocks.push(std::mem::take(&mut current));
            }
            continue;
        }
        let (key, value) = line.split_once(':').expect("key: value line");
        current.push((key.trim().to_owned(), value.trim().to_owned()));
    }
    if !current.is_empty() {
        blocks.push(current);
    }
    blocks
}

fn field<'a>(block: &'a [(String, String)], key: &str) -> &'a str {
    block
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("block lacks {key}: {block:?}"))
}

fn rulesets(block: &[(String, String)]) -> Vec<Ruleset> {
    field(block, "rules")
        .split_whitespace()
        .map(|r| r.parse().expect("ruleset name"))
        .collect()
}

#[test]
fn legal_move_fixtures() {
    let text = include_str!("fixtures/legal-moves.txt");
    let mut checked = 0;
    for block in blocks(text) {
        let position: Position = field(&block, "position").parse().expect("fixture position");
        let mut expected: Vec<String> = match field(&block, "moves") {
            "-" => Vec::new(),
            list => list.split_whitespace().map(str::to_owned).collect(),
        };
        expected.sort();
        for ruleset in rulesets(&block) {
            let rules = ruleset.rules();
            let mut got: Vec<String> = position
                .legal_moves(&rules)
                .iter()
                .map(|m| m.to_string())
                .collect();
            got.sort();
            assert_eq!(got, expected, "{ruleset} {position}");
            assert_eq!(
                reference::legal_moves(&rules, &position),
                expected,
                "reference generator, {ruleset} {position}"
            );
            assert_eq!(position.count_legal_moves(&rules), expected.len());
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} fixture cases ran");
}

#[test]
fn perft_fixtures() {
    let text = include_str!("fixtures/perft.txt");
    let mut checked = 0;
    for block in blocks(text) {
        let position: Position = field(&block, "position").parse().expect("fixture position");
        for ruleset in rulesets(&block) {
            for (key, value) in &block {
                let Some(depth) = key.strip_prefix("perft ") else {
                    continue;
                };
                let depth: u32 = depth.parse().expect("depth");
                // Deep counts are for the release-mode benchmark; keep debug test runs quick.
                if depth > 4 {
                    continue;
                }
                let expected: u64 = value.parse().expect("count");
                if depth <= 3 {
                    assert_eq!(
                        reference::perft(&ruleset.rules(), &position, depth),
                        expected,
                        "reference perft {depth}, {ruleset} {position}"
                    );
                }
                assert_eq!(
                    position.perft(&ruleset.rules(), depth),
                    expected,
                    "{ruleset} perft {depth} of {position}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} perft cases ran");
}
