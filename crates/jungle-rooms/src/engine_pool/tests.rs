//! The pool's order: fairness between owners, live moves before analysis, and cancelled
//! searches never run. One table, so that everything after the first search waits in line;
//! the first search runs long enough (a level-8 search with a time budget) for the others to
//! queue behind it, and is then stopped by cancelling it.

use std::time::Duration;

use jungle_engine::{Level, Persona};
use jungle_rules::{Game, Rules};
use tokio::sync::oneshot;
use uuid::Uuid;

use super::*;

fn request(owner: Uuid, priority: Priority, level: u8, budget: Duration) -> SearchRequest {
    SearchRequest {
        owner,
        priority,
        persona: Persona::new(Level::new(level).unwrap(), 7),
        game: Game::new(Rules::INTERNATIONAL, jungle_rules::Position::start()),
        budget,
    }
}

/// A quick search (level 1 looks one ply deep).
fn quick(owner: Uuid, priority: Priority) -> SearchRequest {
    request(owner, priority, 1, Duration::from_secs(1))
}

/// Occupies the pool's one table until the returned ticket is cancelled.
async fn occupy(pool: &EnginePool, owner: Uuid) -> (SearchTicket, oneshot::Receiver<SearchAnswer>) {
    let long = pool.submit(request(owner, Priority::Live, 8, Duration::from_secs(60)));
    // The search has its table once the pool has nothing idle or left to make.
    for _ in 0..1000 {
        let started = {
            let state = pool.shared.lock().unwrap();
            state.idle.is_empty() && state.unmade == 0 && !state.running.is_empty()
        };
        if started {
            return long;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    panic!("the first search never started");
}

/// Waits for each answer and lists the labels in the order the pool served them.
async fn order_of(
    answers: Vec<(&'static str, oneshot::Receiver<SearchAnswer>)>,
) -> Vec<&'static str> {
    let mut served = Vec::new();
    for (label, answer) in answers {
        if let Ok(answer) = answer.await {
            served.push((answer.turn, label));
        }
    }
    served.sort();
    served.into_iter().map(|(_, label)| label).collect()
}

#[tokio::test]
async fn a_player_with_many_searches_does_not_hold_up_another() {
    let pool = EnginePool::new(1);
    let (flooder, victim) = (Uuid::new_v4(), Uuid::new_v4());
    let (first, _first_answer) = occupy(&pool, flooder).await;
    let (mut tickets, mut answers) = (Vec::new(), Vec::new());
    for label in ["flood 1", "flood 2", "flood 3"] {
        let (ticket, answer) = pool.submit(quick(flooder, Priority::Live));
        tickets.push(ticket);
        answers.push((label, answer));
    }
    tokio::time::sleep(Duration::from_millis(20)).await;
    let (ticket, answer) = pool.submit(quick(victim, Priority::Live));
    tickets.push(ticket);
    answers.push(("victim", answer));
    tokio::time::sleep(Duration::from_millis(20)).await;
    first.cancel();
    // The flooder's first search was running: the victim, who has had none, goes next.
    assert_eq!(
        order_of(answers).await,
        ["victim", "flood 1", "flood 2", "flood 3"]
    );
    drop(tickets);
}

#[tokio::test]
async fn live_moves_go_before_analysis() {
    let pool = EnginePool::new(1);
    let (first, _first_answer) = occupy(&pool, Uuid::new_v4()).await;
    let (analysis_ticket, analysis) = pool.submit(quick(Uuid::new_v4(), Priority::Analysis));
    tokio::time::sleep(Duration::from_millis(20)).await;
    let (live_ticket, live) = pool.submit(quick(Uuid::new_v4(), Priority::Live));
    tokio::time::sleep(Duration::from_millis(20)).await;
    first.cancel();
    assert_eq!(
        order_of(vec![("analysis", analysis), ("live", live)]).await,
        ["live", "analysis"]
    );
    drop((analysis_ticket, live_ticket));
}

#[tokio::test]
async fn a_cancelled_search_leaves_the_queue_unrun_and_a_running_one_stops() {
    let pool = EnginePool::new(1);
    let owner = Uuid::new_v4();
    let (first, first_answer) = occupy(&pool, owner).await;
    let (dropped, dropped_answer) = pool.submit(quick(owner, Priority::Live));
    let (kept, kept_answer) = pool.submit(quick(owner, Priority::Live));
    tokio::time::sleep(Duration::from_millis(20)).await;
    drop(dropped);
    // The running search had a minute; cancelling it ends it now, with no answer.
    drop(first);
    let stopped = tokio::time::timeout(Duration::from_secs(10), first_answer).await;
    assert!(
        matches!(stopped, Ok(Err(_))),
        "a cancelled search gives no answer"
    );
    assert!(
        dropped_answer.await.is_err(),
        "a dropped search is never answered"
    );
    let answer = kept_answer
        .await
        .expect("the search still wanted is answered");
    assert!(answer.choice.is_some());
    drop(kept);
    // Every table is back, and nobody is counted as running.
    let state = pool.shared.lock().unwrap();
    assert_eq!(state.idle.len(), 1);
    assert!(state.running.is_empty());
    assert_eq!(state.waiting(), 0);
}

#[tokio::test]
async fn many_games_share_the_pools_tables() {
    // Forty games at once on two tables: every one gets its move, and the pool still holds at
    // most two tables afterwards (a game holds none).
    let pool = EnginePool::new(2);
    let mut pending = Vec::new();
    for _ in 0..40 {
        pending.push(pool.submit(quick(Uuid::new_v4(), Priority::Live)));
    }
    for (ticket, answer) in pending {
        assert!(answer.await.expect("answered").choice.is_some());
        drop(ticket);
    }
    let state = pool.shared.lock().unwrap();
    assert_eq!(state.idle.len() + state.unmade, 2);
    assert!(state.running.is_empty());
}

#[test]
fn budgets_shrink_with_the_queue() {
    let two = Duration::from_secs(2);
    assert_eq!(
        shared_budget(two, 2, 0),
        two,
        "nobody waits: the whole budget"
    );
    assert_eq!(shared_budget(two, 2, 2), Duration::from_secs(1));
    assert_eq!(shared_budget(two, 2, 118), LEAST_BUDGET.max(two / 60));
    assert_eq!(shared_budget(two, 2, 100_000), LEAST_BUDGET);
    let short = Duration::from_millis(20);
    assert_eq!(shared_budget(short, 2, 50), short, "never more than asked");
}

/// A table lent for background work (the puzzle miner) is asked back the moment a live move
/// has to wait for it, and the move runs as soon as the borrower gives it back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lent_table_is_asked_back_when_a_live_move_waits() {
    let pool = EnginePool::new(1);
    let mut lease = pool.lend_background(Uuid::new_v4()).await;
    assert!(
        !lease.stop_flag().load(Ordering::Relaxed),
        "nobody waits yet"
    );
    let (_ticket, answer) = pool.submit(quick(Uuid::new_v4(), Priority::Live));
    // The borrower searches until told to stop: the live move's wait raises the flag.
    let borrowed = std::thread::spawn(move || {
        let game = Game::new(Rules::INTERNATIONAL, jungle_rules::Position::start());
        let moves = game.legal_moves().to_vec();
        let started = Instant::now();
        let searcher = lease.searcher();
        let limits = jungle_engine::Limits {
            depth: None,
            movetime: Some(Duration::from_secs(60)),
            nodes: None,
        };
        searcher.search_among(&game, &moves, limits, |_| {});
        let stopped = lease.stop_flag().load(Ordering::Relaxed);
        drop(lease);
        (stopped, started.elapsed())
    });
    let (stopped, searched) = tokio::task::spawn_blocking(move || borrowed.join().unwrap())
        .await
        .unwrap();
    assert!(stopped, "the lease was asked back");
    assert!(
        searched < Duration::from_secs(30),
        "the search stopped early"
    );
    let answer = tokio::time::timeout(Duration::from_secs(30), answer)
        .await
        .expect("the live move ran")
        .expect("an answer");
    assert!(answer.choice.is_some());
}
