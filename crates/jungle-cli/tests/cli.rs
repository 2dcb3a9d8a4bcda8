//! The `jungle` command's contract, run as a black box.

use std::process::{Command, Output};

fn jungle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(args)
        .output()
        .expect("run jungle")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// A refusal: non-zero exit, nothing on stdout, one line on stderr mentioning `needle`.
fn assert_refused(args: &[&str], needle: &str) {
    let out = jungle(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(out.stdout.is_empty(), "{args:?} printed {:?}", out.stdout);
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
}

const START: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1";

#[test]
fn moves_lists_the_start_moves() {
    let text = stdout(&jungle(&["moves"]));
    let moves: Vec<&str> = text.lines().collect();
    assert_eq!(moves.len(), 24);
    assert!(moves.contains(&"a3a4") && moves.contains(&"g3g4"));
    let with_flags = stdout(&jungle(&[
        "moves",
        "--rules",
        "strict",
        "--position",
        START,
    ]));
    assert_eq!(with_flags, text);
}

#[test]
fn moves_of_a_finished_position_are_none() {
    let text = stdout(&jungle(&[
        "moves",
        "--position",
        "3L3/7/7/7/7/7/7/7/e6 b 0 5",
    ]));
    assert_eq!(text, "");
}

#[test]
fn perft_prints_the_count_last() {
    for (depth, count) in [("1", "24"), ("2", "576"), ("3", "12240"), ("4", "260099")] {
        let text = stdout(&jungle(&["perft", depth]));
        assert_eq!(text.lines().last(), Some(count));
    }
    let text = stdout(&jungle(&["perft", "--rules", "daitou", "--divide", "3"]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"12240"));
    let divided: u64 = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(divided, 12240);
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 24);
}

#[test]
fn replay_prints_one_json_line() {
    let text = stdout(&jungle(&["replay", "a3a4", "pass"]));
    assert_eq!(text.lines().count(), 1);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        json["position"],
        "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L r 2 2"
    );
    assert_eq!(json["outcome"], serde_json::Value::Null);
    assert_eq!(json["legal"].as_array().unwrap().len(), 23);
    assert!(json["legal"].as_array().unwrap().contains(&"a4a5".into()));
    // Keys come in the documented order.
    assert!(text.starts_with("{\"position\":"));
}

#[test]
fn replay_reports_the_outcome() {
    let text = stdout(&jungle(&[
        "replay",
        "--rules",
        "international",
        "--position",
        "2e4/3L3/7/7/7/7/7/7/7 r 0 30",
        "d8d9",
    ]));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["outcome"]["winner"], "red");
    assert_eq!(json["outcome"]["reason"], "den");
    assert_eq!(json["legal"], serde_json::json!([]));

    let text = stdout(&jungle(&[
        "replay",
        "--rules",
        "strict",
        "--position",
        "l6/7/7/7/7/7/7/7/6L b 99 60",
        "pass",
    ]));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["outcome"]["winner"], serde_json::Value::Null);
    assert_eq!(json["outcome"]["reason"], "no-capture");
}

#[test]
fn replay_applies_the_cycle_rule_of_classic_only() {
    let round = [
        "a3a4", "a9a8", "g3g4", "g9g8", "a4a3", "a8a9", "g4g3", "g8g9",
    ];
    let legal = |rules: &str| -> Vec<String> {
        let mut args = vec!["replay", "--rules", rules];
        for _ in 0..3 {
            args.extend(round);
        }
        let line: serde_json::Value = serde_json::from_str(&stdout(&jungle(&args))).unwrap();
        assert_eq!(line["position"], START.replace(" 0 1", " 24 13"));
        line["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect()
    };
    let classic = legal("classic");
    let international = legal("international");
    assert!(international.contains(&"a3a4".to_owned()));
    let mut expected = international.clone();
    expected.retain(|m| m != "a3a4");
    assert_eq!(classic, expected, "every legal move but a3a4");
    // Playing it is refused with the rule's name.
    let mut args = vec!["replay", "--rules", "classic"];
    for _ in 0..3 {
        args.extend(round);
    }
    args.push("a3a4");
    assert_refused(&args, "cycle rule");
}

#[test]
fn bad_input_is_refused_with_one_line() {
    assert_refused(&["moves", "--rules", "chess"], "unknown ruleset \"chess\"");
    assert_refused(&["moves", "--position", "nonsense"], "--position");
    assert_refused(
        &["moves", "--position", "7/7/7/7/1E5/7/7/7/7 r 0 1"],
        "in the water",
    );
    assert_refused(&["replay", "a3a4", "a4a5x"], "move 2 (\"a4a5x\")");
    assert_refused(&["replay", "a3a5"], "move 1 (\"a3a5\"): illegal move a3a5");
    assert_refused(&["replay", "a7a6"], "belongs to the side not to move");
    assert_refused(
        &[
            "replay",
            "--position",
            "2e4/3L3/7/7/7/7/7/7/7 r 0 30",
            "d8d9",
            "c9c8",
        ],
        "the game is over",
    );
    assert_refused(&["perft", "deep"], "deep");
    assert_refused(&["fly"], "fly");
}

#[test]
fn bestmove_prints_the_move_last() {
    let text = stdout(&jungle(&[
        "bestmove",
        "--rules",
        "international",
        "--position",
        "2e4/3L3/7/7/7/7/7/7/7 r 0 30",
        "--movetime",
        "100",
    ]));
    assert_eq!(text.lines().last(), Some("d8d9"));
    assert!(
        text.lines().any(|l| l.starts_with("info depth 1 ")),
        "{text}"
    );
    let weak = stdout(&jungle(&["bestmove", "--level", "1", "--movetime", "10"]));
    let m = weak.lines().last().unwrap();
    let legal = stdout(&jungle(&["moves"]));
    assert!(legal.lines().any(|l| l == m), "{m} is a legal start move");
    assert_refused(&["bestmove", "--level", "9"], "levels run from 1 to 8");
    assert_refused(
        &["bestmove", "--position", "3L3/7/7/7/7/7/7/7/e6 b 0 5"],
        "the game is over",
    );
}

#[test]
fn selfplay_prints_the_score() {
    let text = stdout(&jungle(&[
        "selfplay",
        "--a",
        "2",
        "--b",
        "greedy",
        "--games",
        "2",
        "--movetime",
        "5",
    ]));
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("score A (level 2) vs B (greedy): "),
        "{last}"
    );
    assert!(last.contains("/2 ("), "{last}");
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 2);
    assert_refused(
        &["selfplay", "--a", "0", "--b", "1"],
        "expected a level from 1 to 8, or greedy",
    );
}

/// `jungle uci` with piped input and output.
fn spawn_uci() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["uci", "--rules", "international"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn uci_loop_answers() {
    use std::io::Write;
    let mut child = spawn_uci();
    let script = "uci\nisready\nucinewgame\nposition startpos moves g3g4 a7a6\ngo movetime 50\nposition fen 2e4/3L3/7/7/7/7/7/7/7 r 0 30\ngo wtime 1000 btime 1000\nposition startpos moves a3a9\nquit\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(&"uciok") && lines.contains(&"readyok"),
        "{text}"
    );
    let bestmoves: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .copied()
        .collect();
    assert_eq!(bestmoves.len(), 2, "{text}");
    assert_eq!(bestmoves[1], "bestmove d8d9");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    assert!(
        lines.iter().any(|l| l.starts_with("info string error")),
        "a bad position is reported"
    );
}

#[test]
fn uci_stop_ends_an_infinite_search_and_isready_is_answered_during_it() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = spawn_uci();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap()).lines();
    // From the start an infinite search would run for hours: only `stop` can end it.
    input
        .write_all(b"position startpos\ngo infinite\nisready\n")
        .unwrap();
    input.flush().unwrap();
    let first = output.next().unwrap().unwrap();
    assert_eq!(first, "readyok", "answered while the search runs");
    std::thread::sleep(std::time::Duration::from_millis(200));
    input.write_all(b"stop\n").unwrap();
    input.flush().unwrap();
    let bestmove = output
        .by_ref()
        .map(|l| l.unwrap())
        .find(|l| l.starts_with("bestmove "))
        .expect("a best move after stop");
    let mv = bestmove.trim_start_matches("bestmove ");
    let start = jungle_rules::Game::new(
        jungle_rules::Rules::INTERNATIONAL,
        jungle_rules::Position::start(),
    );
    assert!(
        start.legal_moves().iter().any(|m| m.to_string() == mv),
        "{bestmove} is legal from the start"
    );
    input.write_all(b"quit\n").unwrap();
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn uci_input_ending_stops_an_infinite_search() {
    use std::io::Write;
    let mut child = spawn_uci();
    let mut input = child.stdin.take().unwrap();
    input
        .write_all(b"position startpos\ngo infinite\n")
        .unwrap();
    // Nobody is left to send `stop`: the search ends with the input, and so does the loop.
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}

/// `jungle pgn` with `text` on standard input (no FILE).
fn pgn_stdin(text: &str) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .arg("pgn")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("jungle runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn pgn_prints_the_replay_line_of_the_final_position() {
    let text = "[Rules \"international\"]\n[FEN \"2e4/3L3/7/7/7/7/7/7/7 r 0 30\"]\n\n1. d8d9 1-0\n";
    let out = pgn_stdin(text);
    assert!(out.status.success());
    let replayed = jungle(&[
        "replay",
        "--rules",
        "international",
        "--position",
        "2e4/3L3/7/7/7/7/7/7/7 r 0 30",
        "d8d9",
    ]);
    assert_eq!(stdout(&out), stdout(&replayed), "the same line as replay");
    assert!(stdout(&out).contains("\"reason\":\"den\""));
    // From a file, with no Rules tag: classic.
    let path = std::env::temp_dir().join(format!("jungle-pgn-{}.jgn", std::process::id()));
    std::fs::write(&path, "1. e3d3 {[%clk 0:04:58]} a9b9\n2... \n").unwrap();
    let out = jungle(&["pgn", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(stdout(&out), stdout(&jungle(&["replay", "e3d3", "a9b9"])));
}

#[test]
fn pgn_refuses_bad_text_with_where() {
    for (text, needle) in [
        ("1. e3d3 x9", "line 1, column 9: expected a move"),
        ("1. e3d3 a9b9 2. d3d9", "turn 3 (move 2)"),
        ("[Rules \"chess\"]", "Rules tag: unknown ruleset"),
    ] {
        let out = pgn_stdin(text);
        assert!(!out.status.success(), "{text}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{text}: {err}");
    }
}

#[test]
fn analyse_finds_the_den_entry_and_prints_one_json_line() {
    let out = jungle(&[
        "analyse",
        "--rules",
        "international",
        "--position",
        "2e4/3L3/7/7/7/7/7/7/7 r 0 30",
        "--movetime",
        "200",
    ]);
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(line["best"], "d8d9");
    assert_eq!(line["score"], serde_json::json!({ "den_in": 1 }));
    assert_eq!(line["pv"][0], "d8d9");
    assert!(line["depth"].as_u64().unwrap() >= 1);
    // After moves, from the start: a material score and a line starting with the best move.
    let out = jungle(&["analyse", "--moves", "e3d3", "a9b9", "--movetime", "100"]);
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(line["score"]["cp"].is_i64(), "{line}");
    assert_eq!(line["pv"][0], line["best"]);
    assert_refused(&["analyse", "--moves", "e3e9"], "move 1 (\"e3e9\")");
    assert_refused(
        &[
            "analyse",
            "--rules",
            "international",
            "--position",
            "2eL3/7/7/7/7/7/7/7/7 b 1 30",
        ],
        "the game is over",
    );
}
