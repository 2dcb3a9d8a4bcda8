use super::*;
use crate::Move;

const SAMPLE: &str = r#"[Event "Rated classic game"]
[Site "https://jungle.example/g/1"]
[Date "2026.11.30"]
[Red "Ada"]
[Blue "Grace \"the admiral\""]
[RedRating "1523"]
[BlueRating "1490"]
[Rules "classic"]
[TimeControl "300+2"]
[Result "1-0"]
[Termination "den"]
[Annotator "someone"]

1. e3d3 {[%clk 0:04:58]} a9b9 {[%clk 0:04:59] a quiet move} 2. d3d4 pass 1-0
"#;

#[test]
fn a_written_game_reads_back_the_same() {
    let game: GameText = SAMPLE.parse().unwrap();
    assert_eq!(game.tag("Blue"), Some("Grace \"the admiral\""));
    assert_eq!(
        game.tag("Annotator"),
        Some("someone"),
        "unknown tags are kept"
    );
    assert_eq!(game.turns.len(), 4);
    assert_eq!(game.turns[0].clock_ms, Some(298_000));
    assert_eq!(game.turns[1].comment.as_deref(), Some("a quiet move"));
    assert_eq!(game.turns[3].turn, Turn::Pass);
    assert_eq!(game.result, GameResult::RedWon);
    let written = game.to_string();
    assert_eq!(written, SAMPLE, "tags in their order, movetext as written");
    assert_eq!(written.parse::<GameText>().unwrap(), game);
}

#[test]
fn what_people_paste_is_read() {
    let pasted = "\r\n  [Rules   \"strict\"]\r\n1.e3d3 a9b9\n2 d3d4 {thinking\nhard} 2... b9a9\t3. d4d5 {[%clk 1:02:03.4]}";
    let game: GameText = pasted.parse().unwrap();
    let moves: Vec<String> = game.turns.iter().map(|t| t.turn.to_string()).collect();
    assert_eq!(moves, ["e3d3", "a9b9", "d3d4", "b9a9", "d4d5"]);
    assert_eq!(game.turns[2].comment.as_deref(), Some("thinking hard"));
    assert_eq!(game.turns[4].clock_ms, Some(3_723_400));
    assert_eq!(game.result, GameResult::Unknown, "no result token: unknown");
    assert_eq!(game.ruleset(), Ok(Ruleset::Strict));
    // Moves alone, and an empty text, are games too.
    assert_eq!("a3a4".parse::<GameText>().unwrap().turns.len(), 1);
    assert_eq!("".parse::<GameText>().unwrap(), GameText::default());
    assert_eq!("1. ... a3a4 *".parse::<GameText>().unwrap().turns.len(), 1);
}

#[test]
fn bad_input_says_where_and_what() {
    use GameTextErrorKind as E;
    let expected = |found: &str| E::Expected {
        expected: "a move, a move number, a comment or a result",
        found: found.to_owned(),
    };
    let table: Vec<(&str, (usize, usize), GameTextErrorKind)> = vec![
        ("1. e3d3 x9", (1, 9), expected("x9")),
        ("1. e3d3\n  hello", (2, 3), expected("hello")),
        (
            "1. e3z3",
            (1, 4),
            E::BadMove {
                text: "e3z3".into(),
                error: "e3z3".parse::<Turn>().unwrap_err(),
            },
        ),
        ("1. e3d3 {no end", (1, 9), E::UnterminatedComment),
        ("[Red \"Ada]", (1, 6), E::UnterminatedString),
        (
            "[Red Ada]",
            (1, 6),
            E::Expected {
                expected: "a quoted tag value",
                found: "A".into(),
            },
        ),
        (
            "[\"x\"]",
            (1, 2),
            E::Expected {
                expected: "a tag name",
                found: "\"".into(),
            },
        ),
        (
            "[Red \"Ada\" x]",
            (1, 12),
            E::Expected {
                expected: "`]` closing the tag",
                found: "x".into(),
            },
        ),
        ("1. e3d3 [Red \"Ada\"]", (1, 9), E::TagAfterMoves),
        ("1. e3d3 1-0 a9b9", (1, 13), E::AfterResult("a9b9".into())),
        ("1-0 0-1", (1, 5), E::AfterResult("0-1".into())),
        ("e3d3 {[%clk 4:61]}", (1, 6), E::BadClock("4:61".into())),
        ("e3d3 }", (1, 6), expected("}")),
    ];
    for (text, (line, column), kind) in table {
        let error = text.parse::<GameText>().expect_err(text);
        assert_eq!(
            (error.line, error.column, &error.kind),
            (line, column, &kind),
            "{text:?}: {error}"
        );
        assert!(error
            .to_string()
            .starts_with(&format!("line {line}, column {column}: ")));
    }
}

#[test]
fn any_text_is_read_or_refused_without_a_panic() {
    // A cheap stand-in for the fuzz target: every prefix of awkward inputs.
    let awkward = "[A \"\\\"]{[%clk 99999:00:00]} 1...e3d3{}}{ 1/2-1/2 * ]\"é漢\u{0}";
    for end in awkward.char_indices().map(|(i, _)| i) {
        let _ = awkward[..end].parse::<GameText>();
    }
    // Found by the fuzz target: a `{` inside a comment, with line breaks, read and written
    // twice, must read the same.
    for text in ["1{{\nό4ό00003.3\n10}0", "e3d3 {a {b} c}"] {
        let Ok(game) = text.parse::<GameText>() else {
            continue;
        };
        let written = game.to_string();
        let again: GameText = written.parse().unwrap();
        assert_eq!(again.to_string(), written, "{text:?}");
    }
}

#[test]
fn a_game_from_a_custom_position_with_passes_round_trips() {
    let start: Position = "2e4/3L3/7/7/7/7/7/7/7 r 0 30".parse().unwrap();
    let rules = Ruleset::International.rules();
    let game = Game::replay(
        rules,
        start,
        ["d8c8".parse().unwrap(), Turn::Pass, "c8d8".parse().unwrap()],
    )
    .unwrap();
    let text = GameText::from_game(&game, Ruleset::International);
    assert_eq!(text.tag("FEN"), Some("2e4/3L3/7/7/7/7/7/7/7 r 0 30"));
    let again: GameText = text.to_string().parse().unwrap();
    let replayed = again.replay().unwrap();
    assert_eq!(replayed.position(), game.position());
    assert_eq!(
        replayed.turns().collect::<Vec<_>>(),
        game.turns().collect::<Vec<_>>()
    );
    // The initial position writes no FEN tag.
    let plain = GameText::from_game(&Game::new(rules, Position::default()), Ruleset::Classic);
    assert_eq!(plain.tag("FEN"), None);
}

#[test]
fn replay_errors_name_the_turn() {
    let text: GameText = "[Rules \"classic\"] 1. e3d3 a9b9 2. d3d9".parse().unwrap();
    let error = text.replay().unwrap_err();
    assert!(
        matches!(error, ReplayTextError::Turn { index: 2, .. }),
        "{error}"
    );
    assert!(
        error.to_string().starts_with("turn 3 (move 2): "),
        "{error}"
    );
    let bad_rules: GameText = "[Rules \"chess\"]".parse().unwrap();
    assert!(matches!(bad_rules.replay(), Err(ReplayTextError::Rules(_))));
}

proptest::proptest! {
    /// Random games in every ruleset, with passes, clocks and comments: written, read back and
    /// replayed, they are the same game.
    #[test]
    fn random_games_round_trip(seed in proptest::prelude::any::<u64>(), plies in 0usize..120, rules in 0usize..4) {
        let ruleset = Ruleset::ALL[rules];
        let mut game = Game::new(ruleset.rules(), Position::default());
        let mut state = seed | 1;
        let mut next = move || { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state };
        let mut text_turns = Vec::new();
        for _ in 0..plies {
            if game.outcome().is_some() { break; }
            let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
            let turn = if legal.is_empty() || next() % 10 == 0 { Turn::Pass } else { Turn::Move(legal[next() as usize % legal.len()]) };
            if game.play(turn).is_err() { continue; }
            let mut entry = TextTurn::new(turn);
            if next() % 3 == 0 { entry.clock_ms = Some(next() % 10_000_000 / 1000 * 1000); }
            if next() % 7 == 0 { entry.comment = Some(format!("note {}", next() % 100)); }
            text_turns.push(entry);
        }
        let mut text = GameText::from_game(&game, ruleset);
        text.turns = text_turns;
        text.set_tag("Red", "Ada \\ \"A\"");
        let read: GameText = text.to_string().parse().unwrap();
        proptest::prop_assert_eq!(read.to_string(), text.to_string());
        proptest::prop_assert_eq!(&read.turns, &text.turns);
        proptest::prop_assert_eq!(read.result, text.result);
        let replayed = read.replay().unwrap();
        proptest::prop_assert_eq!(replayed.position(), game.position());
        proptest::prop_assert_eq!(replayed.outcome(), game.outcome());
    }
}
