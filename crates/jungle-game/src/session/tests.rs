//! The game session on its own: no runtime, no store, time as a value.

use std::time::{Duration, Instant};

use jungle_protocol::{ClockSpec, ColorChoice, GameStatus, Reason};
use jungle_rules::{Side, Turn};
use proptest::prelude::*;
use uuid::Uuid;

use super::*;
use crate::rating::Glicko;

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

#[test]
fn draws_are_offered_declined_limited_and_agreed() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    assert_eq!(
        s.act(Side::Blue, Action::AcceptDraw, t0),
        Err(Refusal::NoDrawOffer)
    );
    assert_eq!(
        s.act(Side::Red, Action::OfferDraw, t0),
        Ok(vec![Event::DrawOffered { by: Side::Red }])
    );
    assert_eq!(
        s.act(Side::Red, Action::OfferDraw, t0),
        Ok(vec![]),
        "already"
    );
    assert_eq!(
        s.act(Side::Red, Action::DeclineDraw, t0),
        Err(Refusal::NoDrawOffer),
        "one's own offer is not declined"
    );
    assert_eq!(
        s.act(Side::Blue, Action::DeclineDraw, t0),
        Ok(vec![Event::DrawDeclined { by: Side::Blue }])
    );
    assert_eq!(s.draw_offer(), None);
    assert_eq!(
        s.act(Side::Red, Action::OfferDraw, t0),
        Err(Refusal::DrawOfferLimit { next: 20 })
    );
    s.act(Side::Blue, Action::OfferDraw, t0).unwrap();
    let events = s.act(Side::Red, Action::AcceptDraw, t0).unwrap();
    assert_eq!(ended(&events), Some((None, Reason::DrawAgreed)));
    assert_eq!(s.act(Side::Red, Action::OfferDraw, t0), Err(Refusal::Over));
}

#[test]
fn an_offer_lapses_when_the_other_side_moves_instead_of_answering() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    play(&mut s, Side::Red, "g3g4", t0);
    s.act(Side::Red, Action::OfferDraw, t0).unwrap();
    assert_eq!(s.draw_offer(), Some(Side::Red));
    play(&mut s, Side::Blue, "a7a6", t0);
    assert_eq!(s.draw_offer(), None);
    assert_eq!(
        s.act(Side::Red, Action::OfferDraw, t0),
        Err(Refusal::DrawOfferLimit { next: 21 }),
        "Red offered at ply 1"
    );
}

#[test]
fn crossing_offers_agree_a_draw() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    s.act(Side::Red, Action::OfferDraw, t0).unwrap();
    let events = s.act(Side::Blue, Action::OfferDraw, t0).unwrap();
    assert_eq!(ended(&events), Some((None, Reason::DrawAgreed)));
}

#[test]
fn the_ten_move_rule_decides_whether_ratings_change() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    let mut last = Vec::new();
    for (i, m) in DEN_WIN_AT_PLY_21.iter().enumerate() {
        let side = if i % 2 == 0 { Side::Red } else { Side::Blue };
        last = play(&mut s, side, m, t0);
    }
    assert!(matches!(
        last.as_slice(),
        [
            Event::Moved { .. },
            Event::Ended {
                apply_rating: true,
                reason: Reason::Den,
                plies: 21,
                ..
            }
        ]
    ));
    // Resigning at ply 20 is within the rule: no rating change.
    let mut s = matched(RAPID, true, t0);
    for (i, m) in DEN_WIN_AT_PLY_21[..20].iter().enumerate() {
        let side = if i % 2 == 0 { Side::Red } else { Side::Blue };
        play(&mut s, side, m, t0);
    }
    let events = s.act(Side::Red, Action::Resign, t0).unwrap();
    assert!(matches!(
        events.as_slice(),
        [Event::Ended {
            apply_rating: false,
            reason: Reason::Resign,
            winner: Some(Side::Blue),
            ..
        }]
    ));
    // Casual games never change ratings.
    let mut s = matched(RAPID, false, t0);
    for (i, m) in DEN_WIN_AT_PLY_21.iter().enumerate() {
        let side = if i % 2 == 0 { Side::Red } else { Side::Blue };
        last = play(&mut s, side, m, t0);
    }
    assert!(matches!(
        last[1],
        Event::Ended {
            apply_rating: false,
            ..
        }
    ));
}

#[test]
fn tournament_games_lift_the_ten_move_rule_and_allow_no_takeback_or_rematch() {
    let t0 = Instant::now();
    let tournament = Some(uuid::Uuid::from_u128(7));
    // Rated: a resignation at ply 2 still rates.
    let mut s = matched(RAPID, true, t0).in_tournament(tournament);
    play(&mut s, Side::Red, DEN_WIN_AT_PLY_21[0], t0);
    play(&mut s, Side::Blue, DEN_WIN_AT_PLY_21[1], t0);
    let events = s.act(Side::Red, Action::Resign, t0).unwrap();
    assert!(matches!(
        events.as_slice(),
        [Event::Ended {
            apply_rating: true,
            plies: 2,
            ..
        }]
    ));
    assert_eq!(
        s.act(Side::Red, Action::Rematch, t0),
        Err(Refusal::RematchTournament)
    );
    // Casual: still no rating; an aborted game never rates.
    let mut s = matched(RAPID, false, t0).in_tournament(tournament);
    play(&mut s, Side::Red, DEN_WIN_AT_PLY_21[0], t0);
    assert_eq!(
        s.act(Side::Red, Action::OfferTakeback, t0),
        Err(Refusal::TakebackTournament)
    );
    let events = s.act(Side::Blue, Action::Resign, t0).unwrap();
    assert!(matches!(
        events.as_slice(),
        [Event::Ended {
            apply_rating: false,
            ..
        }]
    ));
    let mut s = matched(RAPID, true, t0).in_tournament(tournament);
    let events = s.on_timer(t0 + timing().abort_after);
    assert!(matches!(
        events.as_slice(),
        [Event::Ended {
            reason: Reason::Aborted,
            apply_rating: false,
            ..
        }]
    ));
}

#[test]
fn a_rematch_needs_both_players_once_and_swaps_colours() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    assert_eq!(
        s.act(Side::Red, Action::Rematch, t0),
        Err(Refusal::RematchUnavailable)
    );
    s.act(Side::Red, Action::Resign, t0).unwrap();
    let red_player = s.seat(Side::Red).unwrap().who.clone();
    assert_eq!(
        s.act(Side::Red, Action::Rematch, t0),
        Ok(vec![Event::RematchOffered { by: Side::Red }])
    );
    assert_eq!(s.act(Side::Red, Action::Rematch, t0), Ok(vec![]));
    let events = s.act(Side::Blue, Action::Rematch, t0).unwrap();
    match events.as_slice() {
        [Event::RematchOffered { by: Side::Blue }, Event::RematchAgreed { blue, .. }] => {
            assert_eq!(*blue, red_player)
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        s.act(Side::Blue, Action::Rematch, t0),
        Err(Refusal::RematchUnavailable)
    );
}

#[test]
fn the_computer_always_wants_a_rematch() {
    let t0 = Instant::now();
    let computer = SeatPlayer::computer(3, RatingRecord::from_glicko(Glicko::default(), 0));
    let (mut s, _) = GameSession::matched(
        settings(RAPID, false),
        None,
        human("Ada"),
        computer,
        timing(),
        t0,
    );
    assert_eq!(s.computer_to_move(), None, "Red, the human, moves first");
    play(&mut s, Side::Red, "g3g4", t0);
    assert_eq!(s.computer_to_move(), Some((Side::Blue, 3)));
    s.act(Side::Red, Action::Resign, t0).unwrap();
    assert_eq!(s.computer_to_move(), None);
    let events = s.act(Side::Red, Action::Rematch, t0).unwrap();
    assert!(matches!(events.last(), Some(Event::RematchAgreed { .. })));
}

#[test]
fn a_private_room_seats_its_guest_on_the_other_colour_and_starts() {
    let t0 = Instant::now();
    let host = human("Host");
    let mut s = GameSession::private(
        settings(RAPID, true),
        "ABC234".into(),
        host.clone(),
        HostColour {
            chosen: ColorChoice::Blue,
            side: Side::Blue,
        },
        Duration::ZERO,
        timing(),
        t0,
    );
    assert_eq!(s.status(), GameStatus::Waiting);
    assert_eq!(s.host_colour(), Some(ColorChoice::Blue), "shown as chosen");
    assert_eq!(
        s.side_of(host.player.id),
        Some(Side::Red),
        "on Red until then"
    );
    assert_eq!(
        s.act(Side::Red, Action::OfferDraw, t0),
        Err(Refusal::NotStarted)
    );
    let (guest_side, events) = s.seat_guest(human("Guest"), t0 + secs(5)).unwrap();
    assert_eq!(guest_side, Side::Red);
    assert_eq!(events, vec![Event::Started]);
    assert_eq!(s.side_of(host.player.id), Some(Side::Blue));
    assert_eq!(s.status(), GameStatus::Active);
    assert_eq!(
        s.seat_guest(human("Late"), t0).unwrap_err(),
        Refusal::RoomFull
    );
    assert_eq!(s.next_deadline(), Some(t0 + secs(5) + ABORT));
}

#[test]
fn the_host_gets_the_side_chosen_for_them() {
    let t0 = Instant::now();
    for coin in Side::ALL {
        let host = human("Host");
        let mut s = GameSession::private(
            settings(RAPID, true),
            "ABC234".into(),
            host.clone(),
            HostColour {
                chosen: ColorChoice::Random,
                side: coin,
            },
            Duration::ZERO,
            timing(),
            t0,
        );
        s.seat_guest(human("Guest"), t0).unwrap();
        assert_eq!(s.side_of(host.player.id), Some(coin));
    }
}

#[test]
fn an_unjoined_room_closes_after_its_lifetime_less_the_time_waited() {
    let t0 = Instant::now();
    let mut s = GameSession::private(
        settings(RAPID, true),
        "ABC234".into(),
        human("Host"),
        HostColour {
            chosen: ColorChoice::Red,
            side: Side::Red,
        },
        secs(50 * 60),
        timing(),
        t0,
    );
    assert!(s.on_timer(t0 + secs(599)).is_empty());
    assert_eq!(
        s.on_timer(t0 + secs(600)),
        vec![Event::Closed {
            expired_unjoined: true
        }]
    );
    assert!(s.is_closed());
    assert_eq!(s.next_deadline(), None);
}

#[test]
fn adding_the_computer_makes_the_game_casual_and_starts_it() {
    let t0 = Instant::now();
    let mut s = GameSession::private(
        settings(RAPID, true),
        "ABC234".into(),
        human("Host"),
        HostColour {
            chosen: ColorChoice::Red,
            side: Side::Red,
        },
        Duration::ZERO,
        timing(),
        t0,
    );
    let computer = SeatPlayer::computer(5, RatingRecord::from_glicko(Glicko::default(), 0));
    let events = s
        .act(Side::Red, Action::AddComputer(computer.clone()), t0)
        .unwrap();
    assert_eq!(events, vec![Event::Started]);
    assert!(!s.settings().rated);
    assert_eq!(s.computer_level(), Some(5));
    assert_eq!(
        s.act(Side::Red, Action::AddComputer(computer), t0),
        Err(Refusal::RoomFull)
    );
}

#[test]
fn a_finished_game_lingers_then_closes() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    s.act(Side::Blue, Action::Resign, t0).unwrap();
    s.set_rating_change(None);
    assert_eq!(s.next_deadline(), Some(t0 + secs(300)));
    assert_eq!(
        s.on_timer(t0 + secs(300)),
        vec![Event::Closed {
            expired_unjoined: false
        }]
    );
    assert_eq!(
        s.status(),
        GameStatus::Finished,
        "the result stays readable"
    );
    assert_eq!(s.result().unwrap().winner, Some(Side::Red));
}

#[test]
fn a_resumed_game_counts_both_humans_away_from_the_restart() {
    let t0 = Instant::now();
    let mut game = Game::new(Ruleset::Classic.rules(), jungle_rules::Position::start());
    game.play("g3g4".parse().unwrap()).unwrap();
    game.play("a7a6".parse().unwrap()).unwrap();
    let clock = GameClock::new(RAPID, t0);
    let mut s = GameSession::resumed(
        settings(RAPID, true),
        None,
        game,
        clock,
        [human("Red"), human("Blue")],
        timing(),
        t0,
    );
    assert!(!s.seat(Side::Red).unwrap().online());
    assert!(s.on_timer(t0 + secs(29)).is_empty());
    s.connect(Side::Blue, t0 + secs(5));
    // Blue is back; Red, away since the restart, is now left behind: counted from Blue's return.
    assert!(s.on_timer(t0 + secs(34)).is_empty());
    assert_eq!(
        ended(&s.on_timer(t0 + secs(35))),
        Some((Some(Side::Blue), Reason::Abandoned))
    );
}

// ---- the invariants, under random play ---------------------------------------------------

#[derive(Clone, Debug)]
enum Step {
    /// A seat (0 red, 1 blue) acts; `pick` chooses among the legal moves, or an illegal one.
    Act {
        seat: usize,
        kind: u8,
        pick: u16,
    },
    Connect(usize),
    Disconnect(usize),
    /// Time passes, and the timers run.
    Wait(u16),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0..2usize, 0..8u8, any::<u16>()).prop_map(|(seat, kind, pick)| Step::Act { seat, kind, pick }),
        1 => (0..2usize).prop_map(Step::Connect),
        1 => (0..2usize).prop_map(Step::Disconnect),
        2 => (0..40_000u16).prop_map(Step::Wait),
    ]
}

fn action(s: &GameSession, kind: u8, pick: u16) -> Action {
    match kind {
        0..=2 => {
            let legal = s.game().legal_moves();
            let text = if legal.is_empty() || pick.is_multiple_of(10) {
                ["a1a1", "pass", "d1d9", "zz"][pick as usize % 4].to_owned()
            } else {
                legal[pick as usize % legal.len()].to_string()
            };
            Action::Move {
                text,
                lag: Duration::from_millis(u64::from(pick % 700)),
                blurred: pick.is_multiple_of(3),
            }
        }
        3 => Action::Resign,
        4 => Action::OfferDraw,
        5 => Action::AcceptDraw,
        6 => Action::DeclineDraw,
        _ => Action::Rematch,
    }
}

fn check_events(s: &GameSession, before: &GameSession, events: &[Event], ended_count: &mut usize) {
    let mut replay = before.game().clone();
    for event in events {
        match event {
            Event::Moved { turn, clock, .. } => {
                assert!(clock.red_ms >= 0 && clock.blue_ms >= 0, "{clock:?}");
                // Every turn is legal in the ruleset, history rules included, where it was played.
                replay
                    .check(*turn)
                    .unwrap_or_else(|e| panic!("{turn} was not legal: {e}"));
                replay.play(*turn).unwrap();
            }
            Event::Ended { .. } => *ended_count += 1,
            _ => {}
        }
    }
    assert_eq!(replay.position(), s.game().position());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_play_keeps_the_invariants(
        clock in prop_oneof![Just(RAPID), Just(ClockSpec::CLASSIC_PER_MOVE), Just(ClockSpec::Fischer { base_s: 5, inc_s: 1 })],
        steps in prop::collection::vec(step(), 1..120),
    ) {
        let t0 = Instant::now();
        let mut now = t0;
        let mut s = matched(clock, true, t0);
        let mut ended_count = 0;
        for step in steps {
            let before = s.clone();
            let outcome = match step {
                Step::Act { seat, kind, pick } => {
                    let side = Side::ALL[seat];
                    s.act(side, action(&s, kind, pick), now)
                }
                Step::Connect(seat) => Ok(s.connect(Side::ALL[seat], now)),
                Step::Disconnect(seat) => Ok(s.disconnect(Side::ALL[seat], now)),
                Step::Wait(ms) => {
                    now += Duration::from_millis(u64::from(ms));
                    Ok(s.on_timer(now))
                }
            };
            match outcome {
                Ok(events) => check_events(&s, &before, &events, &mut ended_count),
                Err(_) => {
                    // A refusal changes nothing.
                    prop_assert_eq!(s.game(), before.game());
                    prop_assert_eq!(s.result(), before.result());
                    prop_assert_eq!(s.draw_offer(), before.draw_offer());
                }
            }
            // The result is set exactly once, and never changes after.
            prop_assert!(ended_count <= 1);
            prop_assert_eq!(ended_count == 1, s.result().is_some());
            if let Some(result) = before.result() {
                prop_assert_eq!(s.result().map(|r| (r.winner, r.reason)), Some((result.winner, result.reason)));
                prop_assert_eq!(s.game(), before.game(), "a finished game takes no turn");
            }
            // Clocks never go below zero, and no deadline lies in the past after the timers ran.
            let clocks = s.clocks(now);
            prop_assert!(clocks.red_ms <= 3_600_000 && clocks.blue_ms <= 3_600_000);
            if matches!(step, Step::Wait(_)) {
                prop_assert!(s.next_deadline().is_none_or(|d| d > now));
            }
        }
    }
}

#[test]
fn a_takeback_replays_the_game_without_the_undone_turns() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, false, t0);
    // Red's lion shuffles (a 7-3 / cycle-prone pattern) and Blue captures nothing: counters grow.
    let turns = ["g1f1", "a9b9", "f1g1", "b9a9", "g1f1", "a9b9"];
    for (i, text) in turns.iter().enumerate() {
        let side = if i % 2 == 0 { Side::Red } else { Side::Blue };
        play(&mut s, side, text, t0 + secs(i as u64 + 1));
    }
    // Red, to move, asks: its last turn and Blue's reply go.
    assert_eq!(
        s.act(Side::Red, Action::OfferTakeback, t0 + secs(10))
            .unwrap(),
        vec![Event::TakebackOffered { by: Side::Red }]
    );
    let events = s
        .act(Side::Blue, Action::AcceptTakeback, t0 + secs(11))
        .unwrap();
    let undone: Vec<Turn> = ["g1f1", "a9b9"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(events, vec![Event::TakenBack { keep: 4, undone }]);
    // The game is exactly the four turns played again: position, counters, history rules.
    let prefix: Vec<Turn> = turns[..4].iter().map(|t| t.parse().unwrap()).collect();
    let again = Game::replay(
        Ruleset::Classic.rules(),
        jungle_rules::Position::start(),
        prefix,
    )
    .unwrap();
    assert_eq!(
        s.game().position().to_string(),
        again.position().to_string()
    );
    assert_eq!(
        s.game().legal_moves().to_vec(),
        again.legal_moves().to_vec()
    );
    assert_eq!(s.takeback_offer(), None);
    // Rated games never.
    let mut rated = matched(RAPID, true, t0);
    play(&mut rated, Side::Red, "e3d3", t0 + secs(1));
    assert_eq!(
        rated.act(Side::Red, Action::OfferTakeback, t0 + secs(2)),
        Err(Refusal::TakebackRated)
    );
}

/// The host of a private room nobody joined closes it by resigning: the room ends as an
/// unjoined room does when it expires (its code is let go), with no game to record.
#[test]
fn a_host_closes_a_room_nobody_joined() {
    let t0 = Instant::now();
    let host = human("Host");
    let mut s = GameSession::private(
        settings(RAPID, false),
        "ABC234".into(),
        host.clone(),
        HostColour {
            chosen: ColorChoice::Red,
            side: Side::Red,
        },
        Duration::ZERO,
        timing(),
        t0,
    );
    let events = s.act(Side::Red, Action::Resign, t0 + secs(3)).unwrap();
    assert_eq!(
        events,
        vec![Event::Closed {
            expired_unjoined: true
        }]
    );
    assert!(s.is_closed());
    assert!(
        s.seat_guest(human("Late"), t0 + secs(4)).is_err(),
        "nobody sits down in a closed room"
    );
}
