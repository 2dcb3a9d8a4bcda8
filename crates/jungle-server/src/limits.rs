//! Rate limits that hold across connections: per player and per address (IPv6 counted by its
//! /64, the block one subscriber gets). A reconnect resets nothing. Each limit is a keyed GCRA
//! bucket (the `governor` crate); a periodic sweep forgets keys that are full again, so the
//! tables stay as small as the set of recently active clients.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use uuid::Uuid;

/// What a client asks for that is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limited {
    /// `POST /api/players`, per address.
    NewGuest,
    /// `create_room`, per player and per address.
    CreateRoom,
    /// `play_computer`, per player and per address.
    PlayComputer,
    /// `seek`, per player and per address.
    Seek,
    /// `join_room` lookups, per address; a code that finds no room costs `MISS_COST` more.
    JoinRoom,
    /// `POST /api/account` (a new account or a claimed guest: a password hash each), per address.
    NewAccount,
    /// `POST /api/session` attempts, per address (failures per account are slowed apart).
    SignIn,
    /// `GET /api/account/export`, per player (it reads every game).
    Export,
    /// `challenge`, per player and per address.
    Challenge,
    /// `POST /api/reports`, per player and per address.
    Report,
    /// `GET /api/players/{id}/games.jgn` (it reads every game of a player), per address.
    GamesExport,
    /// `analyse` (up to a second of an engine thread each), per player and per address.
    Analysis,
    /// `POST /api/lines` and `POST /api/games/import`, per address.
    Lines,
    /// `chat`, per player and per address.
    Chat,
    /// `POST /api/tournaments`, per player and per address.
    NewTournament,
    /// `join_tournament`, `withdraw` and `watch_tournament`, per player and per address.
    TournamentEntry,
    /// `analyse_game` that starts an analysis (a minute of engine time at most), per player
    /// and per address.
    GameAnalysis,
}

/// Extra cost of a `join_room` code that finds no room: guessing is what it limits.
const MISS_COST: u32 = 4;

/// A limit was reached; the client may try again after `retry_after`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too many requests of this kind; try again in {} s", .retry_after.as_secs().max(1))]
pub struct RateLimited {
    pub retry_after: Duration,
}

/// A burst of `burst`, then one more every `every`.
fn quota(burst: u32, every: Duration) -> Quota {
    Quota::with_period(every)
        .expect("a positive period")
        .allow_burst(NonZeroU32::new(burst).expect("a positive burst"))
}

pub struct Limits {
    enabled: bool,
    guests_per_address: DefaultKeyedRateLimiter<IpAddr>,
    rooms_per_player: DefaultKeyedRateLimiter<Uuid>,
    rooms_per_address: DefaultKeyedRateLimiter<IpAddr>,
    computer_per_player: DefaultKeyedRateLimiter<Uuid>,
    computer_per_address: DefaultKeyedRateLimiter<IpAddr>,
    seeks_per_player: DefaultKeyedRateLimiter<Uuid>,
    seeks_per_address: DefaultKeyedRateLimiter<IpAddr>,
    lookups_per_address: DefaultKeyedRateLimiter<IpAddr>,
    accounts_per_address: DefaultKeyedRateLimiter<IpAddr>,
    sign_ins_per_address: DefaultKeyedRateLimiter<IpAddr>,
    exports_per_player: DefaultKeyedRateLimiter<Uuid>,
    challenges_per_player: DefaultKeyedRateLimiter<Uuid>,
    challenges_per_address: DefaultKeyedRateLimiter<IpAddr>,
    reports_per_player: DefaultKeyedRateLimiter<Uuid>,
    reports_per_address: DefaultKeyedRateLimiter<IpAddr>,
    game_exports_per_address: DefaultKeyedRateLimiter<IpAddr>,
    analyses_per_player: DefaultKeyedRateLimiter<Uuid>,
    analyses_per_address: DefaultKeyedRateLimiter<IpAddr>,
    lines_per_address: DefaultKeyedRateLimiter<IpAddr>,
    game_analyses_per_player: DefaultKeyedRateLimiter<Uuid>,
    game_analyses_per_address: DefaultKeyedRateLimiter<IpAddr>,
    chat_per_player: DefaultKeyedRateLimiter<Uuid>,
    chat_per_address: DefaultKeyedRateLimiter<IpAddr>,
    tournaments_per_player: DefaultKeyedRateLimiter<Uuid>,
    tournaments_per_address: DefaultKeyedRateLimiter<IpAddr>,
    entries_per_player: DefaultKeyedRateLimiter<Uuid>,
    entries_per_address: DefaultKeyedRateLimiter<IpAddr>,
}

/// The key of an address: IPv4 as it is, IPv6 by its /64.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let segments = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(
                segments[0],
                segments[1],
                segments[2],
                segments[3],
                0,
                0,
                0,
                0,
            ))
        }
    }
}

impl Limits {
    /// The limits of docs/security.md; `enabled: false` (`--no-rate-limits`) lets everything
    /// through, for load tests from one address.
    pub fn new(enabled: bool) -> Limits {
        let secs = Duration::from_secs;
        Limits {
            enabled,
            guests_per_address: RateLimiter::dashmap(quota(30, secs(60))),
            rooms_per_player: RateLimiter::dashmap(quota(10, secs(10))),
            rooms_per_address: RateLimiter::dashmap(quota(30, secs(2))),
            computer_per_player: RateLimiter::dashmap(quota(10, secs(10))),
            computer_per_address: RateLimiter::dashmap(quota(30, secs(2))),
            seeks_per_player: RateLimiter::dashmap(quota(20, secs(3))),
            seeks_per_address: RateLimiter::dashmap(quota(60, Duration::from_millis(500))),
            lookups_per_address: RateLimiter::dashmap(quota(20, secs(1))),
            accounts_per_address: RateLimiter::dashmap(quota(20, secs(30))),
            sign_ins_per_address: RateLimiter::dashmap(quota(20, secs(10))),
            exports_per_player: RateLimiter::dashmap(quota(3, secs(600))),
            challenges_per_player: RateLimiter::dashmap(quota(10, secs(15))),
            challenges_per_address: RateLimiter::dashmap(quota(30, secs(5))),
            reports_per_player: RateLimiter::dashmap(quota(5, secs(720))),
            reports_per_address: RateLimiter::dashmap(quota(20, secs(180))),
            game_exports_per_address: RateLimiter::dashmap(quota(5, secs(60))),
            analyses_per_player: RateLimiter::dashmap(quota(20, secs(2))),
            analyses_per_address: RateLimiter::dashmap(quota(40, secs(1))),
            lines_per_address: RateLimiter::dashmap(quota(60, Duration::from_millis(250))),
            game_analyses_per_player: RateLimiter::dashmap(quota(5, secs(600))),
            game_analyses_per_address: RateLimiter::dashmap(quota(10, secs(300))),
            chat_per_player: RateLimiter::dashmap(quota(5, secs(2))),
            chat_per_address: RateLimiter::dashmap(quota(30, Duration::from_millis(500))),
            tournaments_per_player: RateLimiter::dashmap(quota(5, secs(720))),
            tournaments_per_address: RateLimiter::dashmap(quota(20, secs(180))),
            entries_per_player: RateLimiter::dashmap(quota(20, secs(3))),
            entries_per_address: RateLimiter::dashmap(quota(60, secs(1))),
        }
    }

    /// Counts one request of `what` from `player` (when signed in) at address `ip`.
    pub fn check(
        &self,
        what: Limited,
        player: Option<Uuid>,
        ip: IpAddr,
    ) -> Result<(), RateLimited> {
        if !self.enabled {
            return Ok(());
        }
        let address = address_key(ip);
        let by_player = |limiter: &DefaultKeyedRateLimiter<Uuid>| match player {
            Some(player) => check(limiter, &player),
            None => Ok(()),
        };
        match what {
            Limited::NewGuest => check(&self.guests_per_address, &address),
            Limited::CreateRoom => {
                by_player(&self.rooms_per_player)?;
                check(&self.rooms_per_address, &address)
            }
            Limited::PlayComputer => {
                by_player(&self.computer_per_player)?;
                check(&self.computer_per_address, &address)
            }
            Limited::Seek => {
                by_player(&self.seeks_per_player)?;
                check(&self.seeks_per_address, &address)
            }
            Limited::JoinRoom => check(&self.lookups_per_address, &address),
            Limited::NewAccount => check(&self.accounts_per_address, &address),
            Limited::SignIn => check(&self.sign_ins_per_address, &address),
            Limited::Export => by_player(&self.exports_per_player),
            Limited::Challenge => {
                by_player(&self.challenges_per_player)?;
                check(&self.challenges_per_address, &address)
            }
            Limited::GamesExport => check(&self.game_exports_per_address, &address),
            Limited::Lines => check(&self.lines_per_address, &address),
            Limited::NewTournament => {
                by_player(&self.tournaments_per_player)?;
                check(&self.tournaments_per_address, &address)
            }
            Limited::TournamentEntry => {
                by_player(&self.entries_per_player)?;
                check(&self.entries_per_address, &address)
            }
            Limited::Chat => {
                by_player(&self.chat_per_player)?;
                check(&self.chat_per_address, &address)
            }
            Limited::GameAnalysis => {
                by_player(&self.game_analyses_per_player)?;
                check(&self.game_analyses_per_address, &address)
            }
            Limited::Analysis => {
                by_player(&self.analyses_per_player)?;
                check(&self.analyses_per_address, &address)
            }
            Limited::Report => {
                by_player(&self.reports_per_player)?;
                check(&self.reports_per_address, &address)
            }
        }
    }

    /// A `join_room` code found no room: the guess costs more.
    pub fn charge_miss(&self, ip: IpAddr) {
        if self.enabled {
            let cost = NonZeroU32::new(MISS_COST).expect("positive");
            let _ = self.lookups_per_address.check_key_n(&address_key(ip), cost);
        }
    }

    /// Forgets keys whose buckets are full again (nothing to remember about them).
    pub fn sweep(&self) {
        self.guests_per_address.retain_recent();
        self.rooms_per_player.retain_recent();
        self.rooms_per_address.retain_recent();
        self.computer_per_player.retain_recent();
        self.computer_per_address.retain_recent();
        self.seeks_per_player.retain_recent();
        self.seeks_per_address.retain_recent();
        self.lookups_per_address.retain_recent();
        self.accounts_per_address.retain_recent();
        self.sign_ins_per_address.retain_recent();
        self.exports_per_player.retain_recent();
        self.challenges_per_player.retain_recent();
        self.challenges_per_address.retain_recent();
        self.reports_per_player.retain_recent();
        self.reports_per_address.retain_recent();
        self.game_exports_per_address.retain_recent();
        self.analyses_per_player.retain_recent();
        self.analyses_per_address.retain_recent();
        self.lines_per_address.retain_recent();
        self.game_analyses_per_player.retain_recent();
        self.game_analyses_per_address.retain_recent();
        self.chat_per_player.retain_recent();
        self.chat_per_address.retain_recent();
        self.tournaments_per_player.retain_recent();
        self.tournaments_per_address.retain_recent();
        self.entries_per_player.retain_recent();
        self.entries_per_address.retain_recent();
        self.guests_per_address.shrink_to_fit();
        self.rooms_per_player.shrink_to_fit();
        self.rooms_per_address.shrink_to_fit();
        self.computer_per_player.shrink_to_fit();
        self.computer_per_address.shrink_to_fit();
        self.seeks_per_player.shrink_to_fit();
        self.seeks_per_address.shrink_to_fit();
        self.lookups_per_address.shrink_to_fit();
        self.accounts_per_address.shrink_to_fit();
        self.sign_ins_per_address.shrink_to_fit();
        self.exports_per_player.shrink_to_fit();
        self.challenges_per_player.shrink_to_fit();
        self.challenges_per_address.shrink_to_fit();
        self.reports_per_player.shrink_to_fit();
        self.reports_per_address.shrink_to_fit();
        self.game_exports_per_address.shrink_to_fit();
        self.analyses_per_player.shrink_to_fit();
        self.analyses_per_address.shrink_to_fit();
        self.lines_per_address.shrink_to_fit();
        self.game_analyses_per_player.shrink_to_fit();
        self.game_analyses_per_address.shrink_to_fit();
        self.chat_per_player.shrink_to_fit();
        self.chat_per_address.shrink_to_fit();
        self.tournaments_per_player.shrink_to_fit();
        self.tournaments_per_address.shrink_to_fit();
        self.entries_per_player.shrink_to_fit();
        self.entries_per_address.shrink_to_fit();
    }

    /// How many keys all limits remember (for tests and metrics).
    pub fn tracked_keys(&self) -> usize {
        self.guests_per_address.len()
            + self.rooms_per_player.len()
            + self.rooms_per_address.len()
            + self.computer_per_player.len()
            + self.computer_per_address.len()
            + self.seeks_per_player.len()
            + self.seeks_per_address.len()
            + self.lookups_per_address.len()
            + self.accounts_per_address.len()
            + self.sign_ins_per_address.len()
            + self.exports_per_player.len()
            + self.challenges_per_player.len()
            + self.challenges_per_address.len()
            + self.reports_per_player.len()
            + self.reports_per_address.len()
            + self.game_exports_per_address.len()
            + self.analyses_per_player.len()
            + self.analyses_per_address.len()
            + self.lines_per_address.len()
            + self.game_analyses_per_player.len()
            + self.game_analyses_per_address.len()
            + self.chat_per_player.len()
            + self.chat_per_address.len()
            + self.tournaments_per_player.len()
            + self.tournaments_per_address.len()
            + self.entries_per_player.len()
            + self.entries_per_address.len()
    }
}

fn check<K: std::hash::Hash + Eq + Clone>(
    limiter: &DefaultKeyedRateLimiter<K>,
    key: &K,
) -> Result<(), RateLimited> {
    limiter.check_key(key).map_err(|not_until| {
        metrics::counter!("jungle_rate_limited_total").increment(1);
        RateLimited {
            retry_after: not_until.wait_time_from(DefaultClock::default().now()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusal_with_a_wait_and_players_apart() {
        let limits = Limits::new(true);
        let ip: IpAddr = "192.0.2.7".parse().unwrap();
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        for _ in 0..10 {
            limits.check(Limited::PlayComputer, Some(a), ip).unwrap();
        }
        let refused = limits
            .check(Limited::PlayComputer, Some(a), ip)
            .unwrap_err();
        assert!(refused.retry_after > Duration::from_secs(8));
        assert!(refused.retry_after <= Duration::from_secs(10));
        assert!(refused.to_string().contains("try again in"));
        limits
            .check(Limited::PlayComputer, Some(b), ip)
            .expect("another player has a bucket of their own");
    }

    #[test]
    fn ipv6_is_counted_by_its_64_and_misses_cost_more() {
        let limits = Limits::new(true);
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let other_host: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        assert_eq!(address_key(one), address_key(other_host));
        // 20 lookups in a burst; misses spend 5 each, so 4 misses use the whole burst.
        for _ in 0..4 {
            limits.check(Limited::JoinRoom, None, one).unwrap();
            limits.charge_miss(one);
        }
        assert!(limits.check(Limited::JoinRoom, None, other_host).is_err());
        let elsewhere: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert!(limits.check(Limited::JoinRoom, None, elsewhere).is_ok());
    }

    #[test]
    fn fresh_players_from_one_address_share_its_limit() {
        // Guests are cheap, so a per-player limit alone would not hold a flood back.
        let limits = Limits::new(true);
        let ip: IpAddr = "198.51.100.4".parse().unwrap();
        for what in [Limited::PlayComputer, Limited::Seek] {
            let admitted = (0..200)
                .take_while(|_| limits.check(what, Some(Uuid::new_v4()), ip).is_ok())
                .count();
            let burst = if what == Limited::Seek { 60 } else { 30 };
            assert_eq!(admitted, burst, "{what:?}");
        }
    }

    #[test]
    fn disabled_limits_let_everything_through() {
        let limits = Limits::new(false);
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        for _ in 0..1_000 {
            limits.check(Limited::NewGuest, None, ip).unwrap();
        }
        assert_eq!(limits.tracked_keys(), 0);
    }
}
