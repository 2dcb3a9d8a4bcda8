//! The content test: every lesson plays as it says under the rules crate.

use std::collections::HashSet;

use jungle_protocol::learn::{Goal, Text, Verdict};
use jungle_rules::{Animal, Game, Move, Position, Turn};

use super::content::{Board, Expect};
use super::{chapters, Exercise};

fn each_text(text: &Text, at: &str) {
    for (lang, value) in [
        ("en", &text.en),
        ("zh", &text.zh),
        ("zh-Hant", &text.zh_hant),
    ] {
        assert!(!value.trim().is_empty(), "{at}: the {lang} text is empty");
    }
}

fn all_exercises() -> Vec<&'static Exercise> {
    chapters()
        .iter()
        .flat_map(|c| &c.lessons)
        .flat_map(|l| &l.exercises)
        .collect()
}

fn legal(game: &Game, mv: &str, at: &str) -> bool {
    let mv: Move = mv
        .parse()
        .unwrap_or_else(|e| panic!("{at}: {mv} is not a move: {e}"));
    game.check(Turn::Move(mv)).is_ok()
}

fn play(game: &mut Game, turn: &str, at: &str) {
    let parsed: Turn = turn.parse().unwrap_or_else(|e| panic!("{at}: {turn}: {e}"));
    game.play(parsed)
        .unwrap_or_else(|e| panic!("{at}: {turn} is not legal here: {e}"));
}

fn check_expect(game: &Game, expect: &Expect, at: &str) {
    let last = game.history().last().expect("a move was played");
    if let Some(letter) = expect.captures {
        let wanted = Animal::from_letter(letter).unwrap_or_else(|| panic!("{at}: {letter}"));
        assert_eq!(last.captured, Some(wanted), "{at}: the answer captures");
    }
    if let Some(ends) = &expect.ends {
        let outcome = game
            .outcome()
            .unwrap_or_else(|| panic!("{at}: the answer ends the game"));
        assert_eq!(outcome.reason.name(), ends, "{at}: how the game ends");
        if ends != "no-capture" {
            let mover = !game.position().side_to_move();
            assert_eq!(outcome.winner, Some(mover), "{at}: the mover wins");
        }
    }
    if expect.goes_on {
        assert!(game.outcome().is_none(), "{at}: the game goes on");
    }
}

/// Every answer of every step, with the scripted replies, as the rules play them; and every
/// claim about the first step.
fn check_board(exercise: &Exercise, board: &Board) {
    let id = &exercise.id;
    let start = exercise
        .start()
        .unwrap_or_else(|e| panic!("{id} does not set up: {e}"));
    assert!(
        start.outcome().is_none(),
        "{id}: the game is not over before"
    );
    assert!(!board.steps.is_empty(), "{id}: a board asks for a move");
    // The position text the client is shown reads back as the same position.
    let shown: Position = start.position().to_string().parse().unwrap();
    assert_eq!(&shown, start.position(), "{id}");
    for mv in &board.illegal {
        assert!(!legal(&start, mv, id), "{id}: {mv} is claimed illegal");
    }
    for mv in &board.wrong {
        assert!(legal(&start, mv, id), "{id}: {mv} is claimed legal");
        assert!(!board.steps[0].accepts(mv), "{id}: {mv} is claimed wrong");
        let judged = exercise.judge(std::slice::from_ref(mv)).unwrap();
        assert_eq!(judged.verdict, Verdict::Wrong, "{id}: {mv} judged");
    }
    // Each step: every accepted answer is legal and, the last, does what it claims.
    let mut game = start.clone();
    let mut taken = Vec::new();
    for (at, step) in board.steps.iter().enumerate() {
        let at_step = format!("{id} step {}", at + 1);
        assert!(!step.accept.is_empty(), "{at_step}: no answer");
        let answers: Vec<String> = if step.accept.iter().any(|a| a == "any") {
            assert_eq!(step.accept.len(), 1, "{at_step}: \"any\" stands alone");
            game.legal_moves().iter().map(|m| m.to_string()).collect()
        } else {
            step.accept.clone()
        };
        assert!(!answers.is_empty(), "{at_step}: some move is legal");
        let last = at + 1 == board.steps.len();
        for answer in &answers {
            assert!(
                legal(&game, answer, &at_step),
                "{at_step}: {answer} is legal"
            );
            let mut after = game.clone();
            play(&mut after, answer, &at_step);
            let mut moves = taken.clone();
            moves.push(answer.clone());
            let judged = exercise.judge(&moves).unwrap();
            if last {
                assert_eq!(judged.verdict, Verdict::Done, "{at_step}: {answer} judged");
                if let Some(expect) = &board.expect {
                    check_expect(&after, expect, &format!("{at_step}: {answer}"));
                }
            } else {
                assert_eq!(judged.verdict, Verdict::Continue, "{at_step}: judged");
                assert!(after.outcome().is_none(), "{at_step}: the game goes on");
                assert!(step.reply.is_some(), "{at_step}: a reply is scripted");
            }
        }
        if !last {
            assert!(
                board.steps[at + 1].accept.iter().all(|a| a != "any"),
                "{at_step}: only a last step may take any move"
            );
            let first = answers[0].clone();
            play(&mut game, &first, &at_step);
            let reply = step.reply.as_deref().expect("checked");
            play(&mut game, reply, &format!("{at_step} reply"));
            assert!(
                game.outcome().is_none(),
                "{at_step}: the reply ends nothing"
            );
            taken.push(first);
        } else {
            assert!(
                step.reply.is_none(),
                "{at_step}: no reply after the last step"
            );
        }
    }
    if let Some(contrast) = &board.contrast {
        let rules = board.rules;
        assert_ne!(contrast.rules, rules, "{id}: a contrast is another ruleset");
        each_text(&contrast.text, &format!("{id} contrast"));
        let there = exercise.start_under(contrast.rules).unwrap();
        assert!(
            !contrast.legal.is_empty()
                || !contrast.illegal.is_empty()
                || !contrast.ends_here_only.is_empty(),
            "{id}: a contrast claims something"
        );
        for mv in &contrast.legal {
            assert!(
                legal(&there, mv, id),
                "{id}: {mv} legal under {}",
                contrast.rules
            );
            assert!(!legal(&start, mv, id), "{id}: {mv} is what changes");
        }
        for mv in &contrast.illegal {
            assert!(
                !legal(&there, mv, id),
                "{id}: {mv} illegal under {}",
                contrast.rules
            );
            assert!(legal(&start, mv, id), "{id}: {mv} is what changes");
        }
        for mv in &contrast.ends_here_only {
            let mut here = start.clone();
            play(&mut here, mv, id);
            assert!(here.outcome().is_some(), "{id}: {mv} ends the game here");
            let mut elsewhere = there.clone();
            play(&mut elsewhere, mv, id);
            assert!(
                elsewhere.outcome().is_none(),
                "{id}: {mv} does not end it under {}",
                contrast.rules
            );
        }
    }
}

#[test]
fn every_chapter_reads_and_every_text_is_in_every_language() {
    let mut ids = HashSet::new();
    assert!(chapters().len() >= 8);
    for chapter in chapters() {
        each_text(&chapter.title, &chapter.id);
        each_text(&chapter.summary, &chapter.id);
        assert!(!chapter.lessons.is_empty(), "{}", chapter.id);
        assert!(ids.insert(chapter.id.clone()), "{} twice", chapter.id);
        for lesson in &chapter.lessons {
            each_text(&lesson.title, &lesson.id);
            assert!(ids.insert(lesson.id.clone()), "{} twice", lesson.id);
            assert!(!lesson.exercises.is_empty(), "{}", lesson.id);
            for exercise in &lesson.exercises {
                assert!(ids.insert(exercise.id.clone()), "{} twice", exercise.id);
                assert!(exercise.id.len() <= super::api::MAX_ID, "{}", exercise.id);
                each_text(&exercise.intro, &exercise.id);
                each_text(&exercise.goal, &exercise.id);
                each_text(&exercise.why, &exercise.id);
                if let Some(hint) = exercise.board.as_ref().and_then(|b| b.hint.as_ref()) {
                    each_text(hint, &exercise.id);
                }
            }
        }
        for practice in &chapter.practice {
            assert!(ids.insert(practice.id.clone()), "{} twice", practice.id);
            each_text(&practice.text, &practice.id);
            each_text(&practice.why, &practice.id);
        }
    }
    // The catalogue is computed without a panic.
    assert_eq!(super::catalogue().chapters.len(), chapters().len());
}

#[test]
fn every_exercise_plays_as_it_says_under_its_rules() {
    let mut boards = 0;
    for exercise in all_exercises() {
        match &exercise.board {
            Some(board) => {
                check_board(exercise, board);
                boards += 1;
            }
            None => {
                let judged = exercise.judge(&[]).unwrap();
                assert_eq!(judged.verdict, Verdict::Done, "{}", exercise.id);
            }
        }
    }
    assert!(boards >= 30, "{boards} exercises on a board");
}

#[test]
fn every_practice_starts_a_game_with_a_goal_in_reach() {
    for practice in chapters().iter().flat_map(|c| &c.practice) {
        let position: Position = practice
            .position
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", practice.id));
        assert_eq!(position.side_to_move(), practice.side, "{}", practice.id);
        let game = Game::new(practice.rules.rules(), position);
        assert!(game.outcome().is_none(), "{}", practice.id);
        assert!(!game.legal_moves().is_empty(), "{}", practice.id);
        match practice.goal {
            Goal::Den { within } => assert!((1..=20).contains(&within)),
            Goal::Capture { animal, within } => {
                assert!((1..=20).contains(&within));
                let piece = Animal::from_letter(animal).expect("an animal's letter");
                let enemy = jungle_rules::Piece::new(!practice.side, piece);
                assert!(
                    position.square_of(enemy).is_some(),
                    "{}: the animal to capture is on the board",
                    practice.id
                );
            }
        }
    }
}

#[test]
fn the_ruleset_differences_have_an_exercise_each() {
    let contrasts: Vec<_> = all_exercises()
        .into_iter()
        .filter_map(|e| {
            e.board
                .as_ref()
                .and_then(|b| b.contrast.as_ref().map(|c| (b, c)))
        })
        .collect();
    // Trap, jump blocking, who jumps, rat against rat, the draw count, anti-chase, cycle.
    assert!(contrasts.len() >= 7, "{} contrasts", contrasts.len());
}

#[test]
fn a_try_is_judged_step_by_step_and_refuses_what_does_not_read() {
    let exercise = all_exercises()
        .into_iter()
        .find(|e| e.board.as_ref().is_some_and(|b| b.steps.len() >= 2))
        .expect("an exercise of several steps");
    let board = exercise.board.as_ref().unwrap();
    let first = board.steps[0].accept[0].clone();
    let judged = exercise.judge(std::slice::from_ref(&first)).unwrap();
    assert_eq!(judged.verdict, Verdict::Continue);
    assert!(judged.reply.is_some());
    assert!(exercise.judge(&[]).is_err(), "a board takes a move");
    let too_many = vec![first.clone(); board.steps.len() + 1];
    assert!(exercise.judge(&too_many).is_err());
    assert!(exercise.judge(&["nonsense".to_owned()]).is_err());
}
