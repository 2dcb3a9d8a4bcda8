//! Direct challenges: one player invites an online player to a game with chosen settings. The
//! invitation reaches every tab of the player challenged; it ends when they accept (the game
//! starts for both), decline, the challenger takes it back or leaves, or after
//! [`CHALLENGE_TTL_S`] seconds. Bounded per player both ways, and a decline keeps the same
//! challenger away from the same player for a while.

pub mod bot_rules;
mod frames;
pub use frames::{handle_frame, ChallengeRefusal};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jungle_protocol::{
    ChallengeEnd, ChallengeInfo, ColorChoice, DeclineReason, PlayerInfo, ServerFrame,
    CHALLENGE_TTL_S,
};
use jungle_rules::Side;
use tokio::time::Instant;
use uuid::Uuid;

use crate::{frame_text, open, Connection, Outbound, RoomContext, RoomHandle};
use crate::{RoomSettings, SeatPlayer};

/// Challenges one player may have waiting for an answer at once.
pub const MAX_OUTGOING: usize = 3;
/// Challenges one player may be sent and not yet have answered.
pub const MAX_INCOMING: usize = 10;
/// After a decline, how long the same challenger must wait to challenge the same player again.
pub const DECLINE_COOLDOWN: Duration = Duration::from_secs(120);
/// Declines remembered at most (the oldest are forgotten first when full).
const DECLINES_KEPT: usize = 100_000;

/// Why a challenge could not be made or answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChallengeError {
    #[error("that player is not online")]
    Offline,
    #[error("you cannot challenge yourself")]
    Yourself,
    #[error(
        "you already have {MAX_OUTGOING} challenges waiting for an answer; wait or cancel one"
    )]
    TooManyOutgoing,
    #[error("that player has too many challenges to answer already; try again later")]
    TooManyIncoming,
    #[error("that player declined your last challenge; try again in {} s", .0.as_secs().max(1))]
    RecentlyDeclined(Duration),
    #[error("no such challenge is waiting for you")]
    Unknown,
    /// The target's setting, or a block either way. Said the same whichever it is.
    #[error("that player does not take challenges from you")]
    Refused,
    #[error(
        "a bot plays at most {} games a day against other bots",
        bot_rules::BOT_GAMES_A_DAY
    )]
    BotDailyLimit,
    #[error(
        "this bot aborted or lost on time {} times within {} minutes: it takes no new game until the oldest of those is that old",
        bot_rules::FAILURES_BEFORE_PAUSE,
        bot_rules::FAILURE_WINDOW.as_secs() / 60
    )]
    BotPaused,
}

impl ChallengeError {
    /// The wire code a client hears this refusal as.
    pub fn code(&self) -> jungle_protocol::ErrorCode {
        use jungle_protocol::ErrorCode;
        match self {
            ChallengeError::Offline | ChallengeError::Yourself => ErrorCode::PlayerOffline,
            ChallengeError::TooManyOutgoing | ChallengeError::TooManyIncoming => {
                ErrorCode::LimitReached
            }
            ChallengeError::RecentlyDeclined(_) => ErrorCode::RateLimited,
            ChallengeError::Unknown => ErrorCode::UnknownChallenge,
            ChallengeError::Refused => ErrorCode::ChallengeRefused,
            ChallengeError::BotDailyLimit | ChallengeError::BotPaused => ErrorCode::LimitReached,
        }
    }
}

struct Pending {
    info: ChallengeInfo,
    /// The connection that sent it: the game is entered there, and it closing cancels.
    from: Connection,
    settings: RoomSettings,
    expires: Instant,
}

#[derive(Default)]
struct Book {
    pending: HashMap<Uuid, Pending>,
    /// (challenger, challenged) → when the last decline lapses.
    declined: HashMap<(Uuid, Uuid), Instant>,
}

/// The pending challenges, shared by every connection. With several nodes the matcher's
/// node holds them all (the others forward challenge frames to it), and the bus reaches the
/// players wherever they are connected.
#[derive(Clone)]
pub struct Challenges {
    book: Arc<Mutex<Book>>,
    /// The players, wherever their tabs are.
    players: crate::reach::Players,
    /// Told of each challenge, for a player whose other devices may want to hear of it.
    notices: Arc<dyn crate::notices::PlayerNotices>,
}

impl Challenges {
    pub fn new(
        players: crate::reach::Players,
        notices: Arc<dyn crate::notices::PlayerNotices>,
    ) -> Challenges {
        Challenges {
            book: Arc::default(),
            players,
            notices,
        }
    }

    /// Whether `player` has a connection open on any node (other nodes as of the last beat).
    pub fn is_online(&self, player: Uuid) -> bool {
        self.players.is_online(player)
    }

    fn send(&self, player: Uuid, text: &axum::extract::ws::Utf8Bytes, except: Option<u64>) {
        self.players.send(player, text, except);
    }

    /// Sends a challenge from `from` to `to`; returns it as the challenger sees it.
    pub fn issue(
        &self,
        from: &Connection,
        to: PlayerInfo,
        settings: RoomSettings,
        color: ColorChoice,
    ) -> Result<ChallengeInfo, ChallengeError> {
        let challenger = from.player.id;
        if to.id == challenger {
            return Err(ChallengeError::Yourself);
        }
        if !self.is_online(to.id) {
            return Err(ChallengeError::Offline);
        }
        let now = Instant::now();
        let ttl = Duration::from_secs(CHALLENGE_TTL_S);
        let info = ChallengeInfo {
            id: Uuid::new_v4(),
            from: PlayerInfo {
                id: challenger,
                name: from.player.name.clone(),
            },
            to,
            rules: settings.rules,
            clock: settings.clock,
            rated: settings.rated,
            color,
            expires_in_ms: ttl.as_millis() as u64,
            from_title: from.player.bot.then(|| "BOT".to_owned()),
        };
        {
            let mut book = self.book.lock().expect("challenges lock");
            if let Some(&until) = book.declined.get(&(challenger, info.to.id)) {
                if until > now {
                    return Err(ChallengeError::RecentlyDeclined(until - now));
                }
            }
            let outgoing = book
                .pending
                .values()
                .filter(|p| p.info.from.id == challenger)
                .count();
            if outgoing >= MAX_OUTGOING {
                return Err(ChallengeError::TooManyOutgoing);
            }
            let incoming = book
                .pending
                .values()
                .filter(|p| p.info.to.id == info.to.id)
                .count();
            if incoming >= MAX_INCOMING {
                return Err(ChallengeError::TooManyIncoming);
            }
            book.pending.insert(
                info.id,
                Pending {
                    info: info.clone(),
                    from: from.clone(),
                    settings,
                    expires: now + ttl,
                },
            );
        }
        let notice = frame_text(&ServerFrame::Challenged {
            challenge: info.clone(),
        });
        self.send(info.to.id, &notice, None);
        self.notices
            .challenged(info.to.id, info.id, info.from.name.clone());
        let challenges = self.clone();
        let id = info.id;
        tokio::spawn(async move {
            tokio::time::sleep(ttl).await;
            challenges.end(id, ChallengeEnd::Expired, None);
        });
        Ok(info)
    }

    /// The challenges waiting for `player`'s answer, as they see them now (for a tab that
    /// opens after they were sent).
    pub fn incoming(&self, player: Uuid) -> Vec<ChallengeInfo> {
        self.waiting(|info| info.to.id == player)
    }

    /// The challenges `player` sent that wait for an answer.
    pub fn outgoing(&self, player: Uuid) -> Vec<ChallengeInfo> {
        self.waiting(|info| info.from.id == player)
    }

    fn waiting(&self, which: impl Fn(&ChallengeInfo) -> bool) -> Vec<ChallengeInfo> {
        let now = Instant::now();
        let book = self.book.lock().expect("challenges lock");
        book.pending
            .values()
            .filter(|p| which(&p.info))
            .map(|p| ChallengeInfo {
                expires_in_ms: p.expires.saturating_duration_since(now).as_millis() as u64,
                ..p.info.clone()
            })
            .collect()
    }

    /// The challenged player accepts: opens the game and sends the challenger's connection
    /// into it; the caller enters it for the accepting connection.
    pub async fn accept(
        &self,
        ctx: Arc<RoomContext>,
        id: Uuid,
        by: &Connection,
    ) -> Result<RoomHandle, AcceptError> {
        let pending = self
            .take(id, |p| p.info.to.id == by.player.id)
            .ok_or(AcceptError::Challenge(ChallengeError::Unknown))?;
        // Refused by the rules for bots, the challenge ends as declined.
        if let Err(e) = bot_rules::check_pair(
            &ctx.store,
            (pending.from.player.id, pending.from.player.bot),
            (by.player.id, by.player.bot),
        )
        .await
        {
            self.tell_ended(&pending, ChallengeEnd::Declined, None);
            return Err(e.into());
        }
        // Over days: both must be free to start one (accounts, under the cap).
        let game = Uuid::new_v4();
        let players = [pending.from.player.id, by.player.id];
        let clock = pending.settings.clock;
        if let Err(e) = crate::correspondence::claim_start(&ctx.store, game, &players, clock).await
        {
            self.tell_ended(&pending, ChallengeEnd::Declined, None);
            return Err(e.into());
        }
        let rules =
            jungle_game::rating::RatingPool::of(pending.settings.rules, pending.settings.clock);
        let challenger = SeatPlayer::human(
            pending.from.player.clone(),
            ctx.store.rating(pending.from.player.id, rules).await?,
        );
        let accepter = SeatPlayer::human(
            by.player.clone(),
            ctx.store.rating(by.player.id, rules).await?,
        );
        let (red, blue) = match open::side_for(pending.info.color).side {
            Side::Red => (challenger, accepter),
            Side::Blue => (accepter, challenger),
        };
        let room = open::matched(ctx, game, pending.settings, red, blue);
        let _ = pending.from.tx.try_send(Outbound::enter(room.clone()));
        self.tell_ended(&pending, ChallengeEnd::Accepted, Some(by.id));
        Ok(room)
    }

    /// The challenged player declines (saying why, or not): the challenger is told, and waits
    /// before asking again.
    pub fn decline(
        &self,
        id: Uuid,
        by: &Connection,
        why: Option<DeclineReason>,
    ) -> Result<(), ChallengeError> {
        let pending = self
            .take(id, |p| p.info.to.id == by.player.id)
            .ok_or(ChallengeError::Unknown)?;
        {
            let mut book = self.book.lock().expect("challenges lock");
            let now = Instant::now();
            if book.declined.len() >= DECLINES_KEPT {
                book.declined.retain(|_, until| *until > now);
                if book.declined.len() >= DECLINES_KEPT {
                    book.declined.clear();
                }
            }
            book.declined.insert(
                (pending.info.from.id, pending.info.to.id),
                now + DECLINE_COOLDOWN,
            );
        }
        self.tell(&pending, ChallengeEnd::Declined, why, None);
        Ok(())
    }

    /// The challenger takes a challenge back.
    pub fn cancel(&self, id: Uuid, by: &Connection) -> Result<(), ChallengeError> {
        let pending = self
            .take(id, |p| p.info.from.id == by.player.id)
            .ok_or(ChallengeError::Unknown)?;
        self.tell_ended(&pending, ChallengeEnd::Cancelled, None);
        Ok(())
    }

    /// The connection `conn_id` closed: its challenges are cancelled.
    pub fn connection_gone(&self, conn_id: u64) {
        let gone: Vec<Pending> = {
            let mut book = self.book.lock().expect("challenges lock");
            let ids: Vec<Uuid> = book
                .pending
                .values()
                .filter(|p| p.from.id == conn_id)
                .map(|p| p.info.id)
                .collect();
            ids.iter()
                .filter_map(|id| book.pending.remove(id))
                .collect()
        };
        for pending in gone {
            self.tell_ended(&pending, ChallengeEnd::Cancelled, Some(conn_id));
        }
    }

    /// Challenges waiting (for tests and metrics).
    pub fn len(&self) -> usize {
        self.book.lock().expect("challenges lock").pending.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn end(&self, id: Uuid, how: ChallengeEnd, except: Option<u64>) {
        if let Some(pending) = self.take(id, |_| true) {
            self.tell_ended(&pending, how, except);
        }
    }

    fn take(&self, id: Uuid, allowed: impl Fn(&Pending) -> bool) -> Option<Pending> {
        let mut book = self.book.lock().expect("challenges lock");
        if !book.pending.get(&id).is_some_and(allowed) {
            return None;
        }
        book.pending.remove(&id)
    }

    /// Tells both sides (every tab of the challenged, the challenger's connection) that the
    /// challenge is over, except the connection `except` that ended it itself.
    fn tell_ended(&self, pending: &Pending, how: ChallengeEnd, except: Option<u64>) {
        self.tell(pending, how, None, except);
    }

    fn tell(
        &self,
        pending: &Pending,
        how: ChallengeEnd,
        why: Option<DeclineReason>,
        except: Option<u64>,
    ) {
        let text = frame_text(&ServerFrame::ChallengeEnded {
            id: pending.info.id,
            reason: how,
            decline_reason: why,
        });
        self.send(pending.info.to.id, &text, except);
        if Some(pending.from.id) != except {
            pending.from.send_text(text);
        }
    }
}

/// Why accepting failed: the challenge, or the database (for the players' ratings).
#[derive(Debug, thiserror::Error)]
pub enum AcceptError {
    #[error(transparent)]
    Challenge(#[from] ChallengeError),
    /// A challenge over days that one of the two may not start now.
    #[error(transparent)]
    Correspondence(#[from] crate::correspondence::StartRefusal),
    #[error(transparent)]
    Store(#[from] jungle_store::StoreError),
}

impl From<bot_rules::BotRuleError> for AcceptError {
    fn from(e: bot_rules::BotRuleError) -> Self {
        match e {
            bot_rules::BotRuleError::Refused(e) => AcceptError::Challenge(e),
            bot_rules::BotRuleError::Store(e) => AcceptError::Store(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outbound;
    use jungle_protocol::ClockSpec;
    use jungle_rules::Ruleset;
    use jungle_store::PlayerRecord;
    use tokio::sync::{mpsc, Notify};

    fn connection(id: u64, player: Uuid) -> (Connection, mpsc::Receiver<Outbound>) {
        let (tx, rx) = mpsc::channel(16);
        let conn = Connection {
            id,
            player: PlayerRecord {
                id: player,
                name: format!("p{id}"),
                disconnects: 0,
                bot: false,
            },
            tx,
            too_slow: Arc::new(Notify::new()),
            addr: std::net::Ipv4Addr::LOCALHOST.into(),
            remote: None,
        };
        (conn, rx)
    }

    fn settings() -> RoomSettings {
        RoomSettings {
            rules: Ruleset::Classic,
            clock: ClockSpec::Fischer {
                base_s: 60,
                inc_s: 0,
            },
            rated: false,
        }
    }

    fn received(rx: &mut mpsc::Receiver<Outbound>) -> Vec<ServerFrame> {
        let mut frames = Vec::new();
        while let Ok(Outbound::Text(text)) = rx.try_recv() {
            frames.push(serde_json::from_str(&text).unwrap());
        }
        frames
    }

    fn info(conn: &Connection) -> PlayerInfo {
        PlayerInfo {
            id: conn.player.id,
            name: conn.player.name.clone(),
        }
    }

    /// The challenges told to the services that reach players away (mail, push).
    #[derive(Default)]
    struct Heard(Mutex<Vec<(Uuid, Uuid, String)>>);

    impl crate::notices::PlayerNotices for Heard {
        fn challenged(&self, player: Uuid, id: Uuid, from: String) {
            self.0.lock().unwrap().push((player, id, from));
        }
    }

    #[tokio::test(start_paused = true)]
    async fn an_unanswered_challenge_expires_after_a_minute_and_tells_both() {
        let online = crate::online::Online::default();
        let heard = Arc::new(Heard::default());
        let challenges = Challenges::new(
            crate::reach::Players::new(online.clone(), None),
            heard.clone(),
        );
        let (from, mut from_rx) = connection(1, Uuid::new_v4());
        let (to, mut to_rx) = connection(2, Uuid::new_v4());
        let _entry = online.register(&to, Arc::new(Notify::new()));
        let sent = challenges
            .issue(&from, info(&to), settings(), ColorChoice::Random)
            .unwrap();
        assert!(matches!(
            &received(&mut to_rx)[..],
            [ServerFrame::Challenged { .. }]
        ));
        assert_eq!(
            *heard.0.lock().unwrap(),
            vec![(to.player.id, sent.id, from.player.name.clone())],
            "a push service may tell the player's other devices"
        );
        tokio::time::sleep(Duration::from_secs(CHALLENGE_TTL_S - 1)).await;
        assert_eq!(challenges.len(), 1, "still waiting at 59 s");
        assert_eq!(challenges.incoming(to.player.id)[0].expires_in_ms, 1000);
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(challenges.is_empty());
        let ended = ServerFrame::ChallengeEnded {
            id: sent.id,
            reason: ChallengeEnd::Expired,
            decline_reason: None,
        };
        assert_eq!(received(&mut from_rx), vec![ended.clone()]);
        assert_eq!(received(&mut to_rx), vec![ended]);
    }

    #[tokio::test(start_paused = true)]
    async fn challenges_are_bounded_each_way() {
        let online = crate::online::Online::default();
        let challenges = Challenges::new(
            crate::reach::Players::new(online.clone(), None),
            Arc::new(crate::notices::NoNotices),
        );
        let target = Uuid::new_v4();
        let (to, _to_rx) = connection(100, target);
        let _entry = online.register(&to, Arc::new(Notify::new()));
        let (eager, _rx) = connection(1, Uuid::new_v4());
        for _ in 0..MAX_OUTGOING {
            challenges
                .issue(&eager, info(&to), settings(), ColorChoice::Red)
                .unwrap();
        }
        assert_eq!(
            challenges.issue(&eager, info(&to), settings(), ColorChoice::Red),
            Err(ChallengeError::TooManyOutgoing)
        );
        let mut keep = Vec::new();
        for n in 0..(MAX_INCOMING - MAX_OUTGOING) as u64 {
            let (other, rx) = connection(10 + n, Uuid::new_v4());
            challenges
                .issue(&other, info(&to), settings(), ColorChoice::Red)
                .unwrap();
            keep.push(rx);
        }
        let (late, _rx) = connection(99, Uuid::new_v4());
        assert_eq!(
            challenges.issue(&late, info(&to), settings(), ColorChoice::Red),
            Err(ChallengeError::TooManyIncoming)
        );
        // Leaving cancels the leaver's own, and frees room for others.
        challenges.connection_gone(eager.id);
        assert_eq!(challenges.len(), MAX_INCOMING - MAX_OUTGOING);
        assert!(challenges
            .issue(&late, info(&to), settings(), ColorChoice::Red)
            .is_ok());
    }
}
