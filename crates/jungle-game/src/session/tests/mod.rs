//! The game session on its own: no runtime, no store, time as a value.

use std::time::{Duration, Instant};

use jungle_protocol::{ClockSpec, ColorChoice, ErrorCode, GameStatus, Reason};
use jungle_rules::{Ruleset, Side, Turn};
use proptest::prelude::*;
use uuid::Uuid;

use super::*;
use crate::rating::Glicko;
use crate::records::{PlayerRecord, RatingRecord};

const GRACE: Duration = Duration::from_secs(30);
const ABORT: Duration = Duration::from_secs(30);

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn timing() -> Timing {
    Timing::new(GRACE, ABORT)
}

fn human(name: &str) -> SeatPlayer {
    SeatPlayer::human(
        PlayerRecord {
            id: Uuid::new_v4(),
            name: name.into(),
            disconnects: 0,
            bot: false,
        },
        RatingRecord::from_glicko(Glicko::default(), 0),
    )
}

fn settings(clock: ClockSpec, rated: bool) -> RoomSettings {
    RoomSettings {
        rules: Ruleset::Classic,
        clock,
        rated,
    }
}

const RAPID: ClockSpec = ClockSpec::Fischer {
    base_s: 60,
    inc_s: 0,
};

/// A matched game with both players connected, at `t0`.
fn matched(clock: ClockSpec, rated: bool, t0: Instant) -> GameSession {
    let (mut s, started) = GameSession::matched(
        settings(clock, rated),
        None,
        human("Red"),
        human("Blue"),
        timing(),
        t0,
    );
    assert_eq!(started, vec![Event::Started]);
    s.connect(Side::Red, t0);
    s.connect(Side::Blue, t0);
    s
}

fn mv(text: &str) -> Action {
    Action::Move {
        text: text.into(),
        lag: Duration::ZERO,
        blurred: false,
    }
}

fn play(s: &mut GameSession, side: Side, text: &str, at: Instant) -> Vec<Event> {
    s.act(side, mv(text), at)
        .unwrap_or_else(|r| panic!("{text}: {r}"))
}

fn ended(events: &[Event]) -> Option<(Option<Side>, Reason)> {
    events.iter().find_map(|e| match e {
        Event::Ended { winner, reason, .. } => Some((*winner, *reason)),
        _ => None,
    })
}

/// Red walks its leopard into Blue's den at ply 21, after each side shuffles harmlessly.
const DEN_WIN_AT_PLY_21: [&str; 21] = [
    "g1f1", "a9b9", "a1b1", "g9f9", "f1g1", "b8b7", "b1a1", "f8e8", "e3d3", "b9a9", "d3d4", "f9g9",
    "d4d5", "b7b8", "d5d6", "e8f8", "d6d7", "a9b9", "d7d8", "g9f9", "d8d9",
];

#[test]
fn a_move_is_checked_played_and_reported() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    assert_eq!(s.act(Side::Blue, mv("a7a6"), t0), Err(Refusal::NotYourTurn));
    assert!(matches!(
        s.act(Side::Red, mv("zz"), t0),
        Err(Refusal::BadMove(_))
    ));
    assert_eq!(
        s.act(Side::Red, mv("pass"), t0),
        Err(Refusal::PassIsTheServers)
    );
    let refused = s.act(Side::Red, mv("a3a5"), t0).unwrap_err();
    assert_eq!(refused.code(), ErrorCode::IllegalMove);
    assert_eq!(s.game().ply_count(), 0, "refusals change nothing");
    let events = play(&mut s, Side::Red, "g3g4", t0 + secs(1));
    assert!(matches!(
        events.as_slice(),
        [Event::Moved {
            ply: 0,
            captured: None,
            ..
        }]
    ));
    assert_eq!(s.game().position().side_to_move(), Side::Blue);
}

#[test]
fn a_missing_first_move_aborts_the_game() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    assert_eq!(s.next_deadline(), Some(t0 + ABORT));
    assert!(s.on_timer(t0 + secs(29)).is_empty());
    let events = s.on_timer(t0 + secs(30));
    assert_eq!(ended(&events), Some((None, Reason::Aborted)));
    assert_eq!(s.status(), GameStatus::Aborted);
    // Blue, too, must move in time: its abort timer starts when Red's move is seen.
    let mut s = matched(RAPID, true, t0);
    play(&mut s, Side::Red, "g3g4", t0 + secs(10));
    s.turn_visible(t0 + secs(10));
    assert!(s.on_timer(t0 + secs(39)).is_empty());
    assert_eq!(
        ended(&s.on_timer(t0 + secs(40))),
        Some((None, Reason::Aborted))
    );
}

#[test]
fn the_flag_falls_when_the_time_is_spent() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    play(&mut s, Side::Red, "g3g4", t0);
    play(&mut s, Side::Blue, "a7a6", t0);
    assert_eq!(s.running_side(), Some(Side::Red));
    assert_eq!(s.next_deadline(), Some(t0 + secs(60)));
    assert!(s.on_timer(t0 + secs(59)).is_empty());
    assert_eq!(
        ended(&s.on_timer(t0 + secs(60))),
        Some((Some(Side::Blue), Reason::Timeout))
    );
    let stopped = s.clocks(t0 + secs(61));
    assert_eq!(
        (stopped.red_ms, stopped.running),
        (0, None),
        "a fallen flag shows no time"
    );
}

#[test]
fn a_player_aborts_only_on_their_turn_before_their_first_move() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    // Blue waits for Red's first move: not Blue's to abort (the automatic abort is).
    assert_eq!(
        s.act(Side::Blue, Action::Abort, t0).unwrap_err(),
        Refusal::AbortTooLate
    );
    play(&mut s, Side::Red, "g3g4", t0 + secs(2));
    // Red has moved: too late for Red; Blue's first move is due, so Blue may.
    assert_eq!(
        s.act(Side::Red, Action::Abort, t0 + secs(3)).unwrap_err(),
        Refusal::AbortTooLate
    );
    let events = s.act(Side::Blue, Action::Abort, t0 + secs(4)).unwrap();
    assert_eq!(ended(&events), Some((None, Reason::Aborted)));
    assert_eq!(
        s.act(Side::Blue, Action::Abort, t0 + secs(5)).unwrap_err(),
        Refusal::Over
    );
}

#[test]
fn no_abort_once_both_have_moved() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, false, t0);
    play(&mut s, Side::Red, "g3g4", t0 + secs(2));
    play(&mut s, Side::Blue, "a7a6", t0 + secs(5));
    assert_eq!(
        s.act(Side::Red, Action::Abort, t0 + secs(6)).unwrap_err(),
        Refusal::AbortTooLate
    );
}

#[test]
fn the_clocks_stop_where_they_stood_when_the_game_ends() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, false, t0);
    play(&mut s, Side::Red, "g3g4", t0 + secs(2));
    play(&mut s, Side::Blue, "a7a6", t0 + secs(5));
    // First moves are untimed. Red thinks 4 s, then Blue resigns: Red's clock shows the 4 s
    // spent, not what it read at the last move.
    let events = s.act(Side::Blue, Action::Resign, t0 + secs(9)).unwrap();
    assert_eq!(ended(&events), Some((Some(Side::Red), Reason::Resign)));
    for later in [9, 10, 100] {
        let clocks = s.clocks(t0 + secs(later));
        assert_eq!(clocks.running, None);
        assert_eq!(
            (clocks.red_ms, clocks.blue_ms),
            (56_000, 60_000),
            "at {later} s"
        );
    }
}

#[test]
fn a_move_arriving_after_the_flag_loses_on_time() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    play(&mut s, Side::Red, "g3g4", t0);
    play(&mut s, Side::Blue, "a7a6", t0);
    let events = play(&mut s, Side::Red, "g4g5", t0 + secs(61));
    assert_eq!(ended(&events), Some((Some(Side::Blue), Reason::Timeout)));
    assert_eq!(s.game().ply_count(), 2, "the late move is not played");
}

#[test]
fn per_move_turns_are_passed_until_the_fourth_timeout() {
    let t0 = Instant::now();
    let mut s = matched(ClockSpec::CLASSIC_PER_MOVE, true, t0);
    play(&mut s, Side::Red, "g3g4", t0);
    play(&mut s, Side::Blue, "a7a6", t0);
    let mut now = t0;
    for round in 1..=3u32 {
        now += secs(30);
        let events = s.on_timer(now);
        match events.as_slice() {
            [Event::Moved {
                turn: Turn::Pass,
                clock,
                ..
            }] => assert_eq!(clock.red_timeouts, i64::from(round)),
            other => panic!("expected a pass, got {other:?}"),
        }
        let shuffle = ["g9g8", "g8g9", "g9g8"][round as usize - 1];
        play(&mut s, Side::Blue, shuffle, now);
    }
    now += secs(30);
    assert_eq!(
        ended(&s.on_timer(now)),
        Some((Some(Side::Blue), Reason::Timeout))
    );
}

#[test]
fn a_late_timer_call_passes_each_due_turn_once() {
    let t0 = Instant::now();
    let mut s = matched(ClockSpec::CLASSIC_PER_MOVE, true, t0);
    play(&mut s, Side::Red, "g3g4", t0);
    play(&mut s, Side::Blue, "a7a6", t0);
    // Woken 95 s late: Red's turn ran out at 30 s, Blue's at 60 s, Red's again at 90 s.
    let events = s.on_timer(t0 + secs(95));
    let passes = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Moved {
                    turn: Turn::Pass,
                    ..
                }
            )
        })
        .count();
    assert_eq!(passes, 3);
    assert_eq!(s.clocks(t0 + secs(95)).red_timeouts, 2);
}

/// A long game (10 minutes a side) in which both have made their first move, both present.
fn after_first_moves(t0: Instant) -> GameSession {
    let mut s = matched(
        ClockSpec::Fischer {
            base_s: 600,
            inc_s: 0,
        },
        true,
        t0,
    );
    play(&mut s, Side::Red, "g3g4", t0);
    play(&mut s, Side::Blue, "a7a6", t0);
    s
}

#[test]
fn leaving_for_longer_than_the_grace_period_loses() {
    let t0 = Instant::now();
    let mut s = after_first_moves(t0);
    assert_eq!(
        s.disconnect(Side::Blue, t0),
        vec![Event::Presence { side: Side::Blue }]
    );
    assert_eq!(s.abandon_in(Side::Blue, t0 + secs(1)), Some(secs(29)));
    assert!(s.on_timer(t0 + secs(29)).is_empty());
    assert_eq!(
        ended(&s.on_timer(t0 + secs(30))),
        Some((Some(Side::Red), Reason::Abandoned))
    );
}

#[test]
fn nobody_abandons_while_both_are_away_and_a_return_restarts_the_count() {
    let t0 = Instant::now();
    let mut s = after_first_moves(t0);
    s.disconnect(Side::Blue, t0);
    s.disconnect(Side::Red, t0 + secs(10));
    assert!(
        s.on_timer(t0 + secs(100)).is_empty(),
        "nobody was left behind"
    );
    let events = s.connect(Side::Red, t0 + secs(100));
    assert_eq!(
        events,
        vec![
            Event::Presence { side: Side::Red },
            Event::Presence { side: Side::Blue }
        ]
    );
    assert!(s.on_timer(t0 + secs(129)).is_empty());
    assert_eq!(
        ended(&s.on_timer(t0 + secs(130))),
        Some((Some(Side::Red), Reason::Abandoned))
    );
}

#[test]
fn a_second_tab_keeps_the_player_present() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    assert!(s.connect(Side::Red, t0).is_empty(), "already shown online");
    assert!(s.disconnect(Side::Red, t0).is_empty(), "one tab is left");
    assert!(s.seat(Side::Red).unwrap().online());
}

#[test]
fn the_first_connection_of_a_matched_player_is_announced() {
    let t0 = Instant::now();
    let (mut s, _) = GameSession::matched(
        settings(RAPID, true),
        None,
        human("Red"),
        human("Blue"),
        timing(),
        t0,
    );
    assert!(!s.seat(Side::Blue).unwrap().online());
    assert_eq!(
        s.connect(Side::Blue, t0),
        vec![Event::Presence { side: Side::Blue }]
    );
}

mod agreements;
mod invariants;
