//! Turns at the password hasher, fair across whoever waits (issue 49). A plain first-come
//! queue let 200 wrong sign-ins from ten addresses keep the owner's right one waiting 7 s.
//! Here an owner (a device or address that signed in to the account before, or a signed-in
//! session) goes first; everybody else waits by address, and the addresses take turns, so
//! an address with a hundred waiting delays another's one by one hash, not a hundred.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// Whose turn is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    /// The account's owner, as far as we know: served before anyone else.
    Owner,
    /// Anyone else, from this address (IPv6 by /64, as the rate limits count).
    Address(IpAddr),
}

impl Lane {
    pub fn of(client: IpAddr) -> Lane {
        Lane::Address(jungle_limits::address_key(client))
    }
}

/// At most `slots` turns at once; the next goes to an owner if one waits, else to the
/// address after the last one served.
#[derive(Clone)]
pub struct FairQueue {
    state: Arc<Mutex<State>>,
}

struct State {
    free: usize,
    owners: VecDeque<oneshot::Sender<Turn>>,
    by_address: HashMap<IpAddr, VecDeque<oneshot::Sender<Turn>>>,
    /// Addresses with someone waiting, in the order they are served.
    rotation: VecDeque<IpAddr>,
}

/// A turn: given back (to the next in line) when dropped.
pub struct Turn {
    queue: Option<FairQueue>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(queue) = self.queue.take() {
            queue.hand_on();
        }
    }
}

impl FairQueue {
    pub fn new(slots: usize) -> FairQueue {
        FairQueue {
            state: Arc::new(Mutex::new(State {
                free: slots.max(1),
                owners: VecDeque::new(),
                by_address: HashMap::new(),
                rotation: VecDeque::new(),
            })),
        }
    }

    /// Waits for a turn in `lane`.
    pub async fn turn(&self, lane: Lane) -> Turn {
        let waiting = {
            let mut guard = self.state.lock().expect("fair queue lock");
            let state = &mut *guard;
            if state.free > 0 {
                state.free -= 1;
                return Turn {
                    queue: Some(self.clone()),
                };
            }
            let (tx, rx) = oneshot::channel();
            match lane {
                Lane::Owner => state.owners.push_back(tx),
                Lane::Address(address) => {
                    let line = state.by_address.entry(address).or_default();
                    if line.is_empty() {
                        state.rotation.push_back(address);
                    }
                    line.push_back(tx);
                }
            }
            rx
        };
        match waiting.await {
            Ok(turn) => turn,
            // The queue hands a turn to every waiter it removes; it is never dropped with
            // waiters while a `FairQueue` (held here) lives.
            Err(_) => unreachable!("a waiter is always handed a turn"),
        }
    }

    /// A turn ended: the next waiter gets it, or it is free again.
    fn hand_on(&self) {
        let mut state = self.state.lock().expect("fair queue lock");
        loop {
            let Some(next) = next_waiter(&mut state) else {
                state.free += 1;
                return;
            };
            let turn = Turn {
                queue: Some(self.clone()),
            };
            match next.send(turn) {
                Ok(()) => return,
                // The waiter gave up (its request ended): its turn goes to the next, without
                // handing on twice (the returned turn must not run its drop).
                Err(mut unused) => unused.queue = None,
            }
        }
    }
}

fn next_waiter(state: &mut State) -> Option<oneshot::Sender<Turn>> {
    if let Some(owner) = state.owners.pop_front() {
        return Some(owner);
    }
    let address = state.rotation.pop_front()?;
    let line = state
        .by_address
        .get_mut(&address)
        .expect("rotated addresses wait");
    let next = line.pop_front().expect("rotated addresses wait");
    if line.is_empty() {
        state.by_address.remove(&address);
    } else {
        state.rotation.push_back(address);
    }
    Some(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn address(last: u8) -> Lane {
        Lane::of(IpAddr::from([10, 0, 0, last]))
    }

    /// The order in which queued waiters are served, one slot, the first turn held meanwhile.
    async fn served_order(lanes: Vec<(Lane, &'static str)>) -> Vec<&'static str> {
        let queue = FairQueue::new(1);
        let held = queue.turn(address(99)).await;
        let served = Arc::new(Mutex::new(Vec::new()));
        let mut waiters = Vec::new();
        for (lane, name) in lanes {
            let (queue, served) = (queue.clone(), served.clone());
            waiters.push(tokio::spawn(async move {
                let _turn = queue.turn(lane).await;
                served.lock().unwrap().push(name);
                tokio::time::sleep(Duration::from_millis(1)).await;
            }));
            // Queued in this order.
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        drop(held);
        for waiter in waiters {
            waiter.await.unwrap();
        }
        let order = served.lock().unwrap().clone();
        order
    }

    #[tokio::test(start_paused = true)]
    async fn addresses_take_turns_and_the_owner_goes_first() {
        let attacker = address(1);
        let order = served_order(vec![
            (attacker, "a1"),
            (attacker, "a2"),
            (attacker, "a3"),
            (address(2), "b1"),
            (attacker, "a4"),
            (Lane::Owner, "owner"),
            (address(3), "c1"),
        ])
        .await;
        assert_eq!(order, ["owner", "a1", "b1", "c1", "a2", "a3", "a4"]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiter_that_gives_up_passes_its_turn_on() {
        let queue = FairQueue::new(1);
        let held = queue.turn(address(1)).await;
        let gave_up = {
            let queue = queue.clone();
            tokio::spawn(async move { queue.turn(address(2)).await })
        };
        let patient = {
            let queue = queue.clone();
            tokio::spawn(async move { queue.turn(address(3)).await })
        };
        tokio::time::sleep(Duration::from_millis(1)).await;
        gave_up.abort();
        let _ = gave_up.await;
        drop(held);
        let turn = tokio::time::timeout(Duration::from_secs(1), patient)
            .await
            .expect("the next waiter is served")
            .unwrap();
        drop(turn);
        // And every slot is free again.
        let _again = tokio::time::timeout(Duration::from_secs(1), queue.turn(address(4)))
            .await
            .expect("free");
    }
}
