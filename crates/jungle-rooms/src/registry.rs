use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

pub use jungle_protocol::http::LiveGame;
use tokio::sync::{mpsc, Notify};
use uuid::Uuid;

use super::{RoomCommand, RoomHandle};

/// The rooms a player may hold only a few of at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HoldKind {
    /// A game against the computer, until it ends.
    ComputerGame,
    /// A private room waiting for its guest, until the game starts or the room expires.
    WaitingRoom,
}

/// A player's claim on one of their limited rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hold {
    pub player: Uuid,
    pub kind: HoldKind,
}

#[derive(Default)]
struct Index {
    rooms: HashMap<Uuid, Entry>,
    /// Private room codes to game ids.
    codes: HashMap<String, Uuid>,
    /// How many rooms each player holds of each kind (absent: none).
    holds: HashMap<Hold, usize>,
    /// Changes whenever the list of games in progress may have: the other nodes are sent it
    /// again only then.
    live_version: u64,
    /// When each sleeping game's clock runs out (the games' time), earliest first.
    alarms: BTreeSet<(Instant, Uuid)>,
}

struct Entry {
    room: Slot,
    code: Option<String>,
    /// Its game is in play here: this node renews its lease, asleep or awake.
    in_play: bool,
    /// Its game as the list of games in progress shows it (games over days are not listed).
    listed: Option<LiveGame>,
    hold: Option<Hold>,
}

/// A room runs as a task, or sleeps with only what must stay in memory.
enum Slot {
    Awake(RoomHandle),
    Asleep(Box<Asleep>),
}

impl Index {
    fn live_games(&self) -> Vec<LiveGame> {
        self.rooms
            .values()
            .filter(|e| e.code.is_none())
            .filter_map(|e| e.listed.clone())
            .collect()
    }

    fn release(&mut self, hold: Hold) {
        if let Some(count) = self.holds.get_mut(&hold) {
            *count -= 1;
            if *count == 0 {
                self.holds.remove(&hold);
            }
        }
    }

    fn remove(&mut self, id: Uuid) {
        if let Some(entry) = self.rooms.remove(&id) {
            if entry.listed.is_some() {
                self.live_version += 1;
            }
            if let Some(code) = entry.code {
                self.codes.remove(&code);
            }
            if let Some(hold) = entry.hold {
                self.release(hold);
            }
            if let Slot::Asleep(asleep) = entry.room {
                if let Some(at) = asleep.deadline {
                    self.alarms.remove(&(at, id));
                }
            }
        }
    }
}

/// What stays in memory of a game over days while it sleeps.
pub(crate) struct Asleep {
    /// Its positions, still registered (none for a room that keeps them to itself, whose are
    /// never registered).
    pub(crate) positions: Option<crate::fair_play::GamePositions>,
    /// When its clock runs out, in the games' time: it wakes then.
    pub(crate) deadline: Option<Instant>,
}

/// How games sleep here: after how long with nobody in them, and what wakes one (its room
/// resumed from the database with the queue its new handle sends to).
pub(crate) struct SleepPolicy {
    pub after: Duration,
    pub wake: Box<Wake>,
}

/// Starts a woken room: its handle, the queue that handle sends to, and what stayed of it.
pub(crate) type Wake = dyn Fn(RoomHandle, mpsc::Receiver<RoomCommand>, Box<Asleep>) + Send + Sync;

/// Finds rooms by id or code. One lock over one index; rooms add and remove themselves.
///
/// A game over days with nobody in it sleeps (see [`crate::asleep`]): its task and state
/// leave memory, and [`Rooms::get`] wakes it. Everything that reaches a room goes through
/// `get`, so nobody needs to know whether it slept.
#[derive(Clone, Default)]
pub struct Rooms {
    index: Arc<Mutex<Index>>,
    /// Set once, where the server is assembled; until then no room sleeps.
    sleep: Arc<OnceLock<SleepPolicy>>,
    /// Rung when a sleeping game's alarm may be earlier than the ringer's.
    alarm_changed: Arc<Notify>,
}

impl Rooms {
    fn lock(&self) -> std::sync::MutexGuard<'_, Index> {
        self.index.lock().expect("room index lock")
    }

    /// Claims one of a player's rooms of a kind, if they hold fewer than `cap`; the claim goes
    /// with the room to [`Rooms::insert`]. `None` when they are at the cap.
    pub fn reserve(&self, hold: Hold, cap: usize) -> Option<Hold> {
        let mut index = self.lock();
        let count = index.holds.entry(hold).or_default();
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(hold)
    }

    /// Gives back a claim whose room was never opened.
    pub fn unreserve(&self, hold: Hold) {
        self.lock().release(hold);
    }

    /// Claims a room without a cap (a room restored at start-up, which was already allowed).
    pub fn reserve_always(&self, hold: Hold) -> Hold {
        let mut index = self.lock();
        *index.holds.entry(hold).or_default() += 1;
        hold
    }

    /// How many rooms of a kind a player holds.
    pub fn held(&self, player: Uuid, kind: HoldKind) -> usize {
        let index = self.lock();
        index
            .holds
            .get(&Hold { player, kind })
            .copied()
            .unwrap_or(0)
    }

    pub fn insert(&self, handle: RoomHandle, code: Option<String>, hold: Option<Hold>) {
        let mut index = self.lock();
        let id = handle.id;
        if let Some(code) = &code {
            index.codes.insert(code.clone(), id);
        }
        let entry = Entry {
            room: Slot::Awake(handle),
            code,
            in_play: false,
            listed: None,
            hold,
        };
        if index
            .rooms
            .insert(id, entry)
            .is_some_and(|e| e.listed.is_some())
        {
            index.live_version += 1;
        }
    }

    /// Gives back a room's claim of this kind: its game started (a waiting room) or ended (a
    /// computer game).
    pub fn release(&self, id: Uuid, kind: HoldKind) {
        let mut index = self.lock();
        let Some(entry) = index.rooms.get_mut(&id) else {
            return;
        };
        if let Some(hold) = entry.hold.filter(|h| h.kind == kind) {
            entry.hold = None;
            index.release(hold);
        }
    }

    /// The room of a game here, woken if it sleeps (its handle takes commands at once; they
    /// wait while the room is read back from the database).
    pub fn get(&self, id: Uuid) -> Option<RoomHandle> {
        let mut index = self.lock();
        let entry = index.rooms.get_mut(&id)?;
        if let Slot::Awake(handle) = &entry.room {
            return Some(handle.clone());
        }
        let (handle, queue) = RoomHandle::channel(id);
        let Slot::Asleep(asleep) = std::mem::replace(&mut entry.room, Slot::Awake(handle.clone()))
        else {
            unreachable!("an entry not awake is asleep");
        };
        if let Some(at) = asleep.deadline {
            index.alarms.remove(&(at, id));
        }
        drop(index);
        let policy = self.sleep.get().expect("a room sleeps only under a policy");
        (policy.wake)(handle.clone(), queue, asleep);
        Some(handle)
    }

    pub fn by_code(&self, code: &str) -> Option<RoomHandle> {
        let id = *self.lock().codes.get(code)?;
        self.get(id)
    }

    /// Whether a game's room is here, awake or asleep (without waking it).
    pub fn contains(&self, id: Uuid) -> bool {
        self.lock().rooms.contains_key(&id)
    }

    pub fn code_taken(&self, code: &str) -> bool {
        self.lock().codes.contains_key(code)
    }

    /// Marks a room's game as in play here or not, and how the list of games in progress
    /// shows it (`None`: not listed).
    pub fn set_live(&self, id: Uuid, in_play: bool, listed: Option<LiveGame>) {
        let mut index = self.lock();
        if let Some(entry) = index.rooms.get_mut(&id) {
            entry.in_play = in_play;
            entry.listed = listed;
            index.live_version += 1;
        }
    }

    pub fn remove(&self, id: Uuid) {
        self.lock().remove(id);
    }

    /// Another node holds this game's lease now. A sleeping room is simply forgotten (there is
    /// nothing of it running here); a running one is returned, to be told to stop.
    pub fn relinquish(&self, id: Uuid) -> Option<RoomHandle> {
        let mut index = self.lock();
        match &index.rooms.get(&id)?.room {
            Slot::Awake(handle) => Some(handle.clone()),
            Slot::Asleep(_) => {
                index.remove(id);
                None
            }
        }
    }

    /// The games in progress anyone may find: games of rooms with a code (private rooms and
    /// computer games) are watched through their link, not listed.
    pub fn live_games(&self) -> Vec<LiveGame> {
        self.lock().live_games()
    }

    /// [`Rooms::live_games`] with the version of that list; `None` if it is still `seen`.
    pub fn live_games_since(&self, seen: Option<u64>) -> Option<(u64, Vec<LiveGame>)> {
        let index = self.lock();
        if seen == Some(index.live_version) {
            return None;
        }
        Some((index.live_version, index.live_games()))
    }

    /// The ids of every game in progress whose room is running here (a shutdown waits for
    /// them to hand over their last writes; a sleeping one has none).
    pub fn running_ids(&self) -> Vec<Uuid> {
        let index = self.lock();
        index
            .rooms
            .iter()
            .filter(|(_, e)| e.in_play && matches!(e.room, Slot::Awake(_)))
            .map(|(id, _)| *id)
            .collect()
    }

    /// The rooms this node holds a lease for: games in progress, asleep or not, and private
    /// rooms waiting for their guest (either is adopted by another node when this one is gone).
    pub fn leased_ids(&self) -> Vec<Uuid> {
        let index = self.lock();
        index
            .rooms
            .iter()
            .filter(|(_, e)| e.in_play || e.hold.is_some_and(|h| h.kind == HoldKind::WaitingRoom))
            .map(|(id, _)| *id)
            .collect()
    }

    /// Every room here that has a code, with its code.
    pub fn codes(&self) -> Vec<(String, Uuid)> {
        let index = self.lock();
        index
            .codes
            .iter()
            .map(|(code, game)| (code.clone(), *game))
            .collect()
    }

    /// Games in progress here, asleep or not.
    pub fn live_count(&self) -> usize {
        self.lock().rooms.values().filter(|e| e.in_play).count()
    }

    /// Games in progress here that sleep.
    pub fn asleep_count(&self) -> usize {
        let index = self.lock();
        index
            .rooms
            .values()
            .filter(|e| matches!(e.room, Slot::Asleep(_)))
            .count()
    }

    // ---- sleep ----------------------------------------------------------------------------

    /// From now on, rooms may sleep under `policy` (once; later calls change nothing).
    pub(crate) fn let_sleep(&self, policy: SleepPolicy) {
        let _ = self.sleep.set(policy);
    }

    /// How long a room that may sleep waits with nobody in it first; `None`: rooms never sleep.
    pub(crate) fn sleep_after(&self) -> Option<Duration> {
        self.sleep.get().map(|policy| policy.after)
    }

    /// Puts a running room to sleep, if nothing can reach it meanwhile: its handle here is
    /// the last one (nobody holds another to send with, and none is handed out while the
    /// index is locked), and `queue_empty` says nothing waits in its queue. Otherwise the
    /// room keeps running and gets `asleep` back.
    pub(crate) fn sleep(
        &self,
        id: Uuid,
        queue_empty: impl FnOnce() -> bool,
        asleep: Box<Asleep>,
    ) -> Result<(), Box<Asleep>> {
        if self.sleep.get().is_none() {
            return Err(asleep);
        }
        let mut index = self.lock();
        let Some(entry) = index.rooms.get_mut(&id) else {
            return Err(asleep);
        };
        let reachable = match &entry.room {
            Slot::Awake(handle) => handle.senders() > 1 || !queue_empty(),
            Slot::Asleep(_) => true,
        };
        if reachable || !entry.in_play {
            return Err(asleep);
        }
        let deadline = asleep.deadline;
        entry.room = Slot::Asleep(asleep);
        if let Some(at) = deadline {
            index.alarms.insert((at, id));
        }
        drop(index);
        self.alarm_changed.notify_one();
        Ok(())
    }

    /// A room woken for nothing (the database could not be read): asleep again, to be woken
    /// by its next event or at `retry`. Commands sent meanwhile were refused as to a closed
    /// room.
    pub(crate) fn sleep_again(&self, id: Uuid, mut asleep: Box<Asleep>, retry: Instant) {
        let mut index = self.lock();
        let Some(entry) = index.rooms.get_mut(&id) else {
            return;
        };
        asleep.deadline = Some(asleep.deadline.map_or(retry, |at| at.min(retry)));
        let at = asleep.deadline.expect("set above");
        entry.room = Slot::Asleep(asleep);
        index.alarms.insert((at, id));
        drop(index);
        self.alarm_changed.notify_one();
    }

    /// The earliest alarm of a sleeping game (the games' time).
    pub(crate) fn next_alarm(&self) -> Option<Instant> {
        self.lock().alarms.first().map(|(at, _)| *at)
    }

    /// Resolves when an alarm may have come earlier than [`Rooms::next_alarm`] said.
    pub(crate) async fn alarm_changed(&self) {
        self.alarm_changed.notified().await;
    }

    /// The sleeping games whose alarm is due at `now`, taken off the alarms.
    pub(crate) fn due(&self, now: Instant) -> Vec<Uuid> {
        let mut index = self.lock();
        let mut due = Vec::new();
        while let Some(&(at, id)) = index.alarms.first() {
            if at > now {
                break;
            }
            index.alarms.pop_first();
            due.push(id);
        }
        due
    }

    /// Forgets every sleeping game (the node stops: whoever runs them next reads them from
    /// the database).
    pub(crate) fn forget_sleepers(&self) {
        let mut index = self.lock();
        let asleep: Vec<Uuid> = index
            .rooms
            .iter()
            .filter(|(_, e)| matches!(e.room, Slot::Asleep(_)))
            .map(|(id, _)| *id)
            .collect();
        for id in asleep {
            index.remove(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle() -> RoomHandle {
        let (tx, _rx) = tokio::sync::mpsc::channel(1);
        RoomHandle {
            id: Uuid::new_v4(),
            tx,
        }
    }

    fn asleep(deadline: Option<Instant>) -> Box<Asleep> {
        Box::new(Asleep {
            positions: None,
            deadline,
        })
    }

    type Woken = Arc<Mutex<Vec<(RoomHandle, mpsc::Receiver<RoomCommand>)>>>;

    /// Rooms that may sleep; what wakes one is recorded.
    fn sleepy_rooms() -> (Rooms, Woken) {
        let rooms = Rooms::default();
        let woken: Woken = Default::default();
        let record = woken.clone();
        rooms.let_sleep(SleepPolicy {
            after: Duration::from_secs(1),
            wake: Box::new(move |handle, queue, _| {
                record.lock().unwrap().push((handle, queue));
            }),
        });
        (rooms, woken)
    }

    #[test]
    fn a_room_sleeps_only_when_nothing_can_reach_it() {
        let (rooms, woken) = sleepy_rooms();
        let (handle, mut queue) = RoomHandle::channel(Uuid::new_v4());
        let id = handle.id;
        rooms.insert(handle.clone(), None, None);
        assert!(
            rooms.sleep(id, || queue.is_empty(), asleep(None)).is_err(),
            "not in play"
        );
        rooms.set_live(id, true, None);
        assert!(
            rooms.sleep(id, || queue.is_empty(), asleep(None)).is_err(),
            "someone holds a handle to send with"
        );
        drop(handle);
        assert!(rooms.get(id).unwrap().try_send(RoomCommand::Rejoin));
        assert!(
            rooms.sleep(id, || queue.is_empty(), asleep(None)).is_err(),
            "a command waits"
        );
        queue.try_recv().unwrap();
        assert!(rooms.sleep(id, || queue.is_empty(), asleep(None)).is_ok());
        assert_eq!(rooms.asleep_count(), 1);
        assert!(rooms.contains(id) && woken.lock().unwrap().is_empty());
        assert_eq!(rooms.leased_ids(), [id], "its lease is still renewed");
        assert!(
            rooms.running_ids().is_empty(),
            "a shutdown does not wait for it"
        );
        assert_eq!(rooms.live_count(), 1);
    }

    #[test]
    fn get_wakes_a_sleeping_room_on_a_new_queue() {
        let (rooms, woken) = sleepy_rooms();
        let (handle, queue) = RoomHandle::channel(Uuid::new_v4());
        let id = handle.id;
        rooms.insert(handle, Some("CODE2345".into()), None);
        rooms.set_live(id, true, None);
        assert!(rooms.sleep(id, || queue.is_empty(), asleep(None)).is_ok());
        drop(queue);
        // By its code too; once: the second asks find it awake.
        let room = rooms.by_code("CODE2345").expect("found by its code");
        assert!(room.try_send(RoomCommand::Rejoin));
        assert!(rooms.get(id).unwrap().try_send(RoomCommand::Rejoin));
        let mut woken = woken.lock().unwrap();
        assert_eq!(woken.len(), 1);
        let (handle, queue) = &mut woken[0];
        assert_eq!(handle.id, id);
        assert!(matches!(queue.try_recv(), Ok(RoomCommand::Rejoin)));
        assert!(matches!(queue.try_recv(), Ok(RoomCommand::Rejoin)));
        assert_eq!(rooms.asleep_count(), 0);
    }

    #[test]
    fn alarms_come_due_in_order_and_a_lost_lease_forgets_a_sleeper() {
        let (rooms, woken) = sleepy_rooms();
        let now = Instant::now();
        let mut ids = Vec::new();
        for (i, after) in [30u64, 10, 20].into_iter().enumerate() {
            let (handle, queue) = RoomHandle::channel(Uuid::new_v4());
            let id = handle.id;
            rooms.insert(handle, None, None);
            rooms.set_live(id, true, None);
            let at = now + Duration::from_secs(after);
            assert!(rooms
                .sleep(id, || queue.is_empty(), asleep(Some(at)))
                .is_ok());
            ids.push(id);
            assert_eq!(rooms.asleep_count(), i + 1);
        }
        assert_eq!(rooms.next_alarm(), Some(now + Duration::from_secs(10)));
        assert!(rooms.due(now + Duration::from_secs(5)).is_empty());
        assert_eq!(rooms.due(now + Duration::from_secs(20)), [ids[1], ids[2]]);
        assert_eq!(rooms.next_alarm(), Some(now + Duration::from_secs(30)));
        // Another node took the last one's lease: forgotten, not woken.
        assert!(rooms.relinquish(ids[0]).is_none());
        assert!(!rooms.contains(ids[0]));
        assert_eq!(rooms.next_alarm(), None);
        assert!(woken.lock().unwrap().is_empty());
        // At a shutdown the others are forgotten too.
        rooms.forget_sleepers();
        assert_eq!(rooms.asleep_count(), 0);
        assert!(rooms.leased_ids().is_empty());
    }

    #[test]
    fn holds_are_capped_and_given_back_once() {
        let rooms = Rooms::default();
        let player = Uuid::new_v4();
        let hold = Hold {
            player,
            kind: HoldKind::ComputerGame,
        };
        let mut opened = Vec::new();
        for _ in 0..3 {
            let claim = rooms.reserve(hold, 3).expect("under the cap");
            let room = handle();
            rooms.insert(room.clone(), None, Some(claim));
            opened.push(room.id);
        }
        assert_eq!(rooms.reserve(hold, 3), None, "at the cap");
        assert_eq!(rooms.held(player, HoldKind::WaitingRoom), 0, "kinds apart");
        // A game that ends gives its claim back, once; removing its room later changes nothing.
        rooms.release(opened[0], HoldKind::ComputerGame);
        rooms.release(opened[0], HoldKind::ComputerGame);
        assert_eq!(rooms.held(player, HoldKind::ComputerGame), 2);
        rooms.remove(opened[0]);
        assert_eq!(rooms.held(player, HoldKind::ComputerGame), 2);
        // A room removed while it still holds its claim gives it back.
        rooms.remove(opened[1]);
        assert_eq!(rooms.held(player, HoldKind::ComputerGame), 1);
        // Releasing another kind does nothing.
        rooms.release(opened[2], HoldKind::WaitingRoom);
        assert_eq!(rooms.held(player, HoldKind::ComputerGame), 1);
    }
}
