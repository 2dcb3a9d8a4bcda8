use super::*;
use serde_json::json;

fn client(value: serde_json::Value) -> Result<ClientFrame, serde_json::Error> {
    serde_json::from_value(value)
}

#[test]
fn client_frames_read_as_documented() {
    let game = Uuid::nil();
    assert_eq!(
        client(json!({"t": "hello", "token": "abc"})).unwrap(),
        ClientFrame::Hello {
            token: "abc".into()
        }
    );
    assert_eq!(
        client(json!({"t": "seek", "rules": "daitou", "clock": {"kind": "per_move", "move_s": 30, "max_timeouts": 1, "consecutive": true}, "rated": true})).unwrap(),
        ClientFrame::Seek { rules: Ruleset::Daitou, clock: ClockSpec::DAITOU_PER_MOVE, rated: true, computer_after_s: None }
    );
    assert_eq!(
        client(json!({"t": "create_room", "rules": "classic", "clock": {"kind": "fischer", "base_s": 180, "inc_s": 2}, "rated": false, "color": "random"})).unwrap(),
        ClientFrame::CreateRoom {
            rules: Ruleset::Classic,
            clock: ClockSpec::Fischer { base_s: 180, inc_s: 2 },
            rated: false,
            color: ColorChoice::Random,
            position: None,
        }
    );
    assert_eq!(
        client(json!({"t": "move", "game": game, "mv": "a3a4"})).unwrap(),
        ClientFrame::Move {
            game,
            mv: "a3a4".into(),
            blur: false
        }
    );
    assert_eq!(
        client(json!({"t": "move", "game": game, "mv": "a3a4", "blur": true})).unwrap(),
        ClientFrame::Move {
            game,
            mv: "a3a4".into(),
            blur: true
        }
    );
    for t in ["cancel_seek", "ping"] {
        assert!(client(json!({ "t": t })).is_ok(), "{t}");
    }
    for t in [
        "resign",
        "abort",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "rematch",
        "watch",
        "unwatch",
    ] {
        assert!(client(json!({ "t": t, "game": game })).is_ok(), "{t}");
    }
    assert!(client(json!({"t": "join_room", "code": "ABCD"})).is_ok());
}

#[test]
fn bad_client_frames_are_refused() {
    assert!(client(json!({"t": "fly"})).is_err());
    assert!(client(json!({"t": "hello"})).is_err());
    assert!(client(json!({"t": "hello", "token": 5})).is_err());
    assert!(client(json!({"token": "x"})).is_err());
    assert!(client(json!({"t": "move", "game": "not-a-uuid", "mv": "a3a4"})).is_err());
    assert!(client(json!({"t": "seek", "rules": "chess", "clock": {"kind": "fischer", "base_s": 1, "inc_s": 0}, "rated": true})).is_err());
    // Unknown extra fields are ignored, so clients may add their own (a request id, say).
    assert!(client(json!({"t": "ping", "extra": 1})).is_ok());
}

#[test]
fn server_frames_are_flat_objects_with_t() {
    let frame = ServerFrame::Error {
        code: ErrorCode::NotYourTurn,
        message: "wait".into(),
        game: None,
    };
    assert_eq!(
        serde_json::to_value(&frame).unwrap(),
        json!({"t": "error", "code": "not_your_turn", "message": "wait"})
    );
    let over = ServerFrame::GameOver {
        game: Uuid::nil(),
        seq: 7,
        status: GameStatus::Finished,
        winner: Some(Side::Red),
        reason: Reason::AllCaptured,
        rated: true,
        rating_change: Some(RatingChange { red: 12, blue: -12 }),
        clocks: None,
    };
    let value = serde_json::to_value(&over).unwrap();
    assert_eq!(value["t"], "game_over");
    assert_eq!(value["reason"], "all-captured");
    assert_eq!(value["winner"], "red");
    assert_eq!(value["rating_change"]["blue"], -12);
    assert_eq!(value["seq"], 7);
    assert_eq!(value["status"], "finished");
    let back: ServerFrame = serde_json::from_value(value).unwrap();
    assert_eq!(back, over);
}

#[test]
fn reasons_have_stable_names() {
    for name in [
        "den",
        "all-captured",
        "no-moves",
        "no-capture",
        "resign",
        "draw-agreed",
        "timeout",
        "abandoned",
        "aborted",
    ] {
        let reason = Reason::from_name(name).unwrap();
        assert_eq!(reason.name(), name);
        assert_eq!(serde_json::to_value(reason).unwrap(), name);
    }
}

#[test]
fn clock_bounds() {
    assert!(ClockSpec::CLASSIC_PER_MOVE.validate().is_ok());
    assert!(ClockSpec::Fischer {
        base_s: 0,
        inc_s: 0
    }
    .validate()
    .is_err());
    assert!(
        ClockSpec::Fischer {
            base_s: 0,
            inc_s: 5
        }
        .validate()
        .is_err(),
        "no base loses on the first timed turn"
    );
    assert!(ClockSpec::Fischer {
        base_s: 1,
        inc_s: 0
    }
    .validate()
    .is_ok());
    assert!(ClockSpec::Fischer {
        base_s: 999_999,
        inc_s: 0
    }
    .validate()
    .is_err());
    assert!(ClockSpec::PerMove {
        move_s: 0,
        max_timeouts: 3,
        consecutive: false
    }
    .validate()
    .is_err());
}

#[test]
fn moved_carries_what_follows_from_the_move() {
    let moved = ServerFrame::Moved {
        game: Uuid::nil(),
        seq: 3,
        mv: "a7a6".into(),
        ply: 1,
        position: "x".into(),
        turn: Side::Red,
        captured: Some(jungle_rules::Animal::Rat),
        status: GameStatus::Active,
        draw_offer: None,
        clocks: Clocks {
            red_ms: 1,
            blue_ms: 2,
            running: None,
            red_timeouts: 0,
            blue_timeouts: 0,
        },
        legal: vec![],
        abort_in_ms: None,
    };
    let value = serde_json::to_value(&moved).unwrap();
    assert_eq!(value["captured"], "rat");
    assert_eq!(value["turn"], "red");
    assert_eq!(value["status"], "active");
    assert!(value.get("draw_offer").is_none(), "absent when none");
    assert_eq!(serde_json::from_value::<ServerFrame>(value).unwrap(), moved);
}

#[test]
fn captured_animals_are_the_losses_of_the_side_that_did_not_move() {
    use jungle_rules::{Animal, Game, Position, Ruleset};
    // Red's rat beside Blue's cat: Red takes it? A rat cannot take a cat; Blue's cat takes the rat.
    let start: Position = "7/7/7/7/7/7/7/7/Rc5 b 0 1".parse().unwrap();
    let mut game = Game::new(Ruleset::Classic.rules(), start);
    game.play("b1a1".parse().unwrap()).unwrap();
    let captured = Captured::from_game(&game);
    assert_eq!(captured.red, vec![Animal::Rat]);
    assert!(captured.blue.is_empty());
}
