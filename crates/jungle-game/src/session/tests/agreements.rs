//! Draws, takebacks, the ten-move rule, rematches, private rooms and the computer's seat.

use super::*;

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
fn a_slow_first_move_against_the_computer_is_not_called_off() {
    let t0 = Instant::now();
    let computer = SeatPlayer::computer(1, RatingRecord::from_glicko(Glicko::default(), 0));
    let (mut s, _) = GameSession::matched(
        settings(RAPID, false),
        None,
        human("Child"),
        computer.clone(),
        timing(),
        t0,
    );
    s.connect(Side::Red, t0);
    // Still reading the lesson's goal at twice the usual abort time.
    assert!(s.on_timer(t0 + timing().abort_after * 2).is_empty());
    assert_eq!(s.status(), GameStatus::Active);
    assert_eq!(
        s.abort_in(t0 + secs(60)),
        Some(FIRST_MOVE_AGAINST_THE_COMPUTER - secs(60))
    );
    let events = s.on_timer(t0 + FIRST_MOVE_AGAINST_THE_COMPUTER);
    assert_eq!(ended(&events), Some((None, Reason::Aborted)));
    // Leaving the page before the first move aborts it too, after the grace: no loss.
    let (mut s, _) = GameSession::matched(
        settings(RAPID, false),
        None,
        human("Child"),
        computer,
        timing(),
        t0,
    );
    s.connect(Side::Red, t0);
    s.disconnect(Side::Red, t0 + secs(5));
    let events = s.on_timer(t0 + secs(5) + GRACE);
    assert_eq!(ended(&events), Some((None, Reason::Aborted)));
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

#[test]
fn a_move_offering_a_draw_is_both_at_once_or_the_move_alone() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    let action = |text: &str| Action::MoveOfferingDraw {
        text: text.into(),
        lag: Duration::ZERO,
    };
    let events = s.act(Side::Red, action("a3a4"), t0).unwrap();
    assert!(matches!(events[0], Event::Moved { .. }), "{events:?}");
    assert_eq!(events[1..], [Event::DrawOffered { by: Side::Red }]);
    assert_eq!(s.draw_offer(), Some(Side::Red));
    // Blue plays on (the offer lapses) and Red offers again too soon: the move alone.
    play(&mut s, Side::Blue, "g7g6", t0);
    let events = s.act(Side::Red, action("a4a5"), t0).unwrap();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(s.draw_offer(), None);
    // An illegal move is refused whole: no offer either.
    assert!(s.act(Side::Blue, action("a1a9"), t0).is_err());
    assert_eq!(s.draw_offer(), None);
}

#[test]
fn wanting_a_draw_accepts_a_standing_offer_or_makes_one() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    assert_eq!(
        s.act(Side::Red, Action::WantDraw, t0),
        Ok(vec![Event::DrawOffered { by: Side::Red }])
    );
    assert_eq!(
        s.act(Side::Red, Action::WantDraw, t0),
        Ok(vec![Event::DrawOffered { by: Side::Red }]),
        "one's own offer, said again"
    );
    assert_eq!(s.draw_offer(), Some(Side::Red));
    let events = s.act(Side::Blue, Action::WantDraw, t0).unwrap();
    assert_eq!(ended(&events), Some((None, Reason::DrawAgreed)));
}

#[test]
fn wanting_a_takeback_answers_a_request_or_asks_one() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, false, t0);
    assert_eq!(
        s.act(Side::Red, Action::WantTakeback, t0),
        Err(Refusal::NothingToTakeBack)
    );
    play(&mut s, Side::Red, "g3g4", t0);
    assert_eq!(
        s.act(Side::Red, Action::WantTakeback, t0),
        Ok(vec![Event::TakebackOffered { by: Side::Red }])
    );
    let events = s.act(Side::Blue, Action::WantTakeback, t0).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::TakenBack { keep: 0, .. }]),
        "{events:?}"
    );
    assert_eq!(s.takeback_offer(), None);
    let mut rated = matched(RAPID, true, t0);
    play(&mut rated, Side::Red, "g3g4", t0);
    assert_eq!(
        rated.act(Side::Red, Action::WantTakeback, t0),
        Err(Refusal::TakebackRated)
    );
}

#[test]
fn victory_is_claimed_only_once_the_opponent_has_stayed_away_too_long() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, true, t0);
    play(&mut s, Side::Red, "g3g4", t0);
    play(&mut s, Side::Blue, "a7a6", t0);
    assert_eq!(
        s.act(Side::Red, Action::ClaimVictory, t0),
        Err(Refusal::OpponentHere)
    );
    s.disconnect(Side::Blue, t0);
    assert_eq!(
        s.act(Side::Red, Action::ClaimVictory, t0 + secs(20)),
        Err(Refusal::OpponentMayReturn { seconds: 10 })
    );
    assert_eq!(
        s.act(Side::Blue, Action::ClaimVictory, t0 + secs(20)),
        Err(Refusal::OpponentHere),
        "the one who left claims nothing"
    );
    let events = s.act(Side::Red, Action::ClaimVictory, t0 + GRACE).unwrap();
    assert_eq!(ended(&events), Some((Some(Side::Red), Reason::Abandoned)));
    assert_eq!(
        s.act(Side::Red, Action::ClaimVictory, t0 + GRACE),
        Err(Refusal::Over)
    );
    let mut by_days = matched(ClockSpec::Days { days: 3 }, true, t0);
    by_days.disconnect(Side::Blue, t0);
    assert_eq!(
        by_days.act(Side::Red, Action::ClaimVictory, t0 + secs(600)),
        Err(Refusal::NoClaimByDays)
    );
}

#[test]
fn a_takeback_is_asked_twice_a_move_at_most() {
    let t0 = Instant::now();
    let mut s = matched(RAPID, false, t0);
    play(&mut s, Side::Red, "g3g4", t0);
    s.act(Side::Red, Action::OfferTakeback, t0).unwrap();
    assert_eq!(
        s.act(Side::Red, Action::WantTakeback, t0),
        Ok(vec![Event::TakebackOffered { by: Side::Red }]),
        "one's own request, said again"
    );
    s.act(Side::Blue, Action::DeclineTakeback, t0).unwrap();
    s.act(Side::Red, Action::OfferTakeback, t0).unwrap();
    s.act(Side::Blue, Action::DeclineTakeback, t0).unwrap();
    assert_eq!(
        s.act(Side::Red, Action::OfferTakeback, t0),
        Err(Refusal::TakebackAskedThisTurn),
        "declined twice: not again before the next move"
    );
    play(&mut s, Side::Blue, "a7a6", t0);
    assert_eq!(
        s.act(Side::Red, Action::OfferTakeback, t0),
        Ok(vec![Event::TakebackOffered { by: Side::Red }])
    );
}
