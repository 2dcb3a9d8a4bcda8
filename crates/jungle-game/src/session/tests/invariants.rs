//! The session's invariants under random play (proptest).

use super::*;

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
        6 => (0..2usize, 0..11u8, any::<u16>()).prop_map(|(seat, kind, pick)| Step::Act { seat, kind, pick }),
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
        7 => Action::WantDraw,
        8 => Action::WantTakeback,
        9 => Action::ClaimVictory,
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
