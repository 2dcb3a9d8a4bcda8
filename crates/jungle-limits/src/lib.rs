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

/// What a client asks for that is limited. Each has its rules in [`RULES`], and its line in
/// docs/security.md's table of rates, under [`Limited::name`] (a test holds the two equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limited {
    /// `POST /api/players`, and a guest's `POST /api/players/me/name`.
    NewGuest,
    /// `create_room`.
    CreateRoom,
    /// `play_computer`, `add_computer`, and a rematch against the computer.
    PlayComputer,
    /// `seek` and `accept_seek`.
    Seek,
    /// `join_room` lookups; a code that finds no room costs `MISS_COST` more.
    JoinRoom,
    /// `POST /api/account` (a new account or a claimed guest: a password hash each).
    NewAccount,
    /// `POST /api/session` attempts (failures are slowed apart, per address and account).
    SignIn,
    /// A password asked again: `POST /api/account/password`, `DELETE /api/account`.
    PasswordConfirm,
    /// `GET /api/account/export` (it reads every game).
    Export,
    /// `PUT /api/account/settings`.
    Settings,
    /// `PUT` and `DELETE /api/account/blocks/{player}`.
    Blocks,
    /// `challenge`.
    Challenge,
    /// `POST /api/reports`.
    Report,
    /// `GET /api/players/{id}/games.jgn` (it reads every game of a player).
    GamesExport,
    /// `analyse` (up to a second of an engine thread each).
    Analysis,
    /// `POST /api/lines` and `POST /api/games/import`.
    Lines,
    /// `chat`.
    Chat,
    /// `takeback` (asking; answering is free).
    Takeback,
    /// `rematch` between people (against the computer it counts as `play_computer`).
    Rematch,
    /// `POST /api/tournaments`.
    NewTournament,
    /// `join_tournament`, `withdraw` and `watch_tournament`.
    TournamentEntry,
    /// `analyse_game` that starts an analysis (a minute of engine time at most).
    GameAnalysis,
    /// `POST /api/tokens`, `DELETE /api/tokens/{id}` and `POST /api/bot/account/upgrade`.
    ApiTokens,
    /// A game's stream and actions over the Bot and Board APIs.
    BotRequests,
    /// Reading puzzles: the next, one by id, the day's, a player's history.
    Puzzles,
    /// `POST /api/puzzles/{id}/attempt`.
    PuzzleAttempts,
    /// Reading one's correspondence settings and games: `GET /api/account/games/waiting` (the
    /// header's badge asks about once a minute), `GET /api/account/vacation`,
    /// `GET /api/account/email`.
    CorrespondenceReads,
    /// `GET`, `POST`, `DELETE /api/account/vacation`.
    Vacation,
    /// `GET`, `PUT`, `DELETE /api/account/email` (a `PUT` mails a confirmation link).
    Mail,
    /// The links in mails: `/api/mail/confirm`, `/api/mail/unsubscribe`.
    MailLinks,
    /// Web Push: `GET /api/push`, `POST`, `DELETE /api/push/subscriptions`,
    /// `PUT /api/push/settings`.
    Push,
    /// The lessons: `GET /api/learn`, `POST /api/learn/try`, `POST /api/learn/practice/{id}/judge`
    /// and `GET /api/account/learn`.
    Learn,
    /// `POST /api/account/learn` (a guest's progress brought into the account).
    LearnProgress,
    /// `GET /api/games/{id}` and `.jgn` of a game in progress: its turns are read from the
    /// move log by a scan (about a millisecond).
    LiveGameReads,
    /// A WebSocket opened (`/ws`): the flood limit is per connection, so without this a
    /// client that reconnects before it runs out would start each time with a full bucket.
    SocketOpens,
    /// A request presenting a token that names nobody, on any route: each is a guess.
    TokenMisses,
}

impl Limited {
    /// Its name in docs/security.md's table of rates.
    pub const fn name(self) -> &'static str {
        match self {
            Limited::NewGuest => "guest creation",
            Limited::CreateRoom => "create_room",
            Limited::PlayComputer => "play_computer",
            Limited::Seek => "seek",
            Limited::JoinRoom => "join_room lookups",
            Limited::NewAccount => "account creation",
            Limited::SignIn => "sign-in attempts",
            Limited::PasswordConfirm => "password asked again",
            Limited::Export => "data export",
            Limited::Settings => "settings",
            Limited::Blocks => "blocks",
            Limited::Challenge => "challenge",
            Limited::Report => "reports",
            Limited::GamesExport => "games.jgn",
            Limited::Analysis => "analyse",
            Limited::Lines => "lines and imports",
            Limited::Chat => "chat",
            Limited::Takeback => "takeback",
            Limited::Rematch => "rematch",
            Limited::NewTournament => "new tournament",
            Limited::TournamentEntry => "tournament entry",
            Limited::GameAnalysis => "analyse_game",
            Limited::ApiTokens => "api tokens",
            Limited::BotRequests => "bot and board requests",
            Limited::LiveGameReads => "live game reads",
            Limited::Puzzles => "puzzles",
            Limited::PuzzleAttempts => "puzzle attempts",
            Limited::CorrespondenceReads => "correspondence reads",
            Limited::Vacation => "vacation",
            Limited::Mail => "mail",
            Limited::MailLinks => "mail links",
            Limited::Push => "push",
            Limited::Learn => "learn",
            Limited::LearnProgress => "learn progress",
            Limited::SocketOpens => "websockets opened",
            Limited::TokenMisses => "tokens that name nobody",
        }
    }
}

/// Whom a rule counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Per {
    Player,
    Address,
}

impl Per {
    pub const fn name(self) -> &'static str {
        match self {
            Per::Player => "player",
            Per::Address => "address",
        }
    }
}

/// One limit: a burst of `burst`, then one more every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub what: Limited,
    pub per: Per,
    pub burst: u32,
    pub every: Duration,
}

const fn rule(what: Limited, per: Per, burst: u32, every_ms: u64) -> Rule {
    Rule {
        what,
        per,
        burst,
        every: Duration::from_millis(every_ms),
    }
}

const S: u64 = 1_000;
const MIN: u64 = 60_000;

/// Every rate limit. docs/security.md lists the same, line for line.
pub const RULES: &[Rule] = &[
    rule(Limited::NewGuest, Per::Address, 30, MIN),
    rule(Limited::CreateRoom, Per::Player, 10, 10 * S),
    rule(Limited::CreateRoom, Per::Address, 30, 2 * S),
    rule(Limited::PlayComputer, Per::Player, 10, 10 * S),
    rule(Limited::PlayComputer, Per::Address, 30, 2 * S),
    rule(Limited::Seek, Per::Player, 20, 3 * S),
    rule(Limited::Seek, Per::Address, 60, 500),
    rule(Limited::JoinRoom, Per::Address, 20, S),
    rule(Limited::NewAccount, Per::Address, 20, 30 * S),
    rule(Limited::SignIn, Per::Address, 20, 10 * S),
    rule(Limited::PasswordConfirm, Per::Player, 5, MIN),
    rule(Limited::PasswordConfirm, Per::Address, 20, 10 * S),
    rule(Limited::Export, Per::Player, 3, 10 * MIN),
    rule(Limited::Settings, Per::Player, 30, 2 * S),
    rule(Limited::Settings, Per::Address, 60, S),
    rule(Limited::Blocks, Per::Player, 30, 2 * S),
    rule(Limited::Blocks, Per::Address, 60, S),
    rule(Limited::Challenge, Per::Player, 10, 15 * S),
    rule(Limited::Challenge, Per::Address, 30, 5 * S),
    rule(Limited::Report, Per::Player, 5, 12 * MIN),
    rule(Limited::Report, Per::Address, 20, 3 * MIN),
    rule(Limited::GamesExport, Per::Address, 5, MIN),
    rule(Limited::Analysis, Per::Player, 20, 2 * S),
    rule(Limited::Analysis, Per::Address, 40, S),
    rule(Limited::Lines, Per::Address, 60, 250),
    rule(Limited::Chat, Per::Player, 5, 2 * S),
    rule(Limited::Chat, Per::Address, 30, 500),
    rule(Limited::Takeback, Per::Player, 10, 5 * S),
    rule(Limited::Takeback, Per::Address, 30, 2 * S),
    rule(Limited::Rematch, Per::Player, 10, 10 * S),
    rule(Limited::Rematch, Per::Address, 30, 2 * S),
    rule(Limited::NewTournament, Per::Player, 5, 12 * MIN),
    rule(Limited::NewTournament, Per::Address, 20, 3 * MIN),
    rule(Limited::TournamentEntry, Per::Player, 20, 3 * S),
    rule(Limited::TournamentEntry, Per::Address, 60, S),
    rule(Limited::GameAnalysis, Per::Player, 5, 10 * MIN),
    rule(Limited::GameAnalysis, Per::Address, 10, 5 * MIN),
    rule(Limited::ApiTokens, Per::Player, 10, MIN),
    rule(Limited::ApiTokens, Per::Address, 30, 20 * S),
    rule(Limited::BotRequests, Per::Player, 60, 100),
    rule(Limited::BotRequests, Per::Address, 120, 50),
    rule(Limited::LiveGameReads, Per::Address, 120, 100),
    rule(Limited::Puzzles, Per::Player, 60, 500),
    rule(Limited::Puzzles, Per::Address, 240, 100),
    rule(Limited::PuzzleAttempts, Per::Player, 30, 2 * S),
    rule(Limited::PuzzleAttempts, Per::Address, 120, 500),
    rule(Limited::CorrespondenceReads, Per::Player, 30, 2 * S),
    rule(Limited::CorrespondenceReads, Per::Address, 120, 500),
    rule(Limited::Vacation, Per::Player, 10, 60 * S),
    rule(Limited::Vacation, Per::Address, 30, 10 * S),
    rule(Limited::Mail, Per::Player, 5, 600 * S),
    rule(Limited::Mail, Per::Address, 10, 600 * S),
    rule(Limited::MailLinks, Per::Address, 30, 2 * S),
    rule(Limited::Push, Per::Player, 20, 30 * S),
    rule(Limited::Push, Per::Address, 60, 10 * S),
    rule(Limited::Learn, Per::Player, 120, 500),
    rule(Limited::Learn, Per::Address, 240, 250),
    rule(Limited::LearnProgress, Per::Player, 10, 10 * S),
    rule(Limited::LearnProgress, Per::Address, 30, 2 * S),
    rule(Limited::SocketOpens, Per::Address, 120, 500),
    rule(Limited::TokenMisses, Per::Address, 24, 250),
];

/// Extra cost of a guess that missed (a `join_room` code that finds no room, a Bot API token
/// that names nobody): guessing is what it limits.
const MISS_COST: u32 = 4;

/// A limit was reached; the client may try again after `retry_after`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too many requests of this kind; try again in {} s", self.seconds())]
pub struct RateLimited {
    pub retry_after: Duration,
}

impl RateLimited {
    /// The wait in whole seconds, rounded up (a `Retry-After` of 1 for a wait of 1.9 s would
    /// send the client back too soon).
    pub fn seconds(&self) -> u64 {
        (self.retry_after.as_secs_f64().ceil() as u64).max(1)
    }
}

/// A burst of `burst`, then one more every `every`.
fn quota(burst: u32, every: Duration) -> Quota {
    Quota::with_period(every)
        .expect("a positive period")
        .allow_burst(NonZeroU32::new(burst).expect("a positive burst"))
}

enum Keyed {
    Player(DefaultKeyedRateLimiter<Uuid>),
    Address(DefaultKeyedRateLimiter<IpAddr>),
}

pub struct Limits {
    enabled: bool,
    /// One limiter per rule, in [`RULES`]' order.
    limiters: Vec<(Rule, Keyed)>,
    /// Addresses out of [`Limited::TokenMisses`], until when: their tokens are not looked up
    /// meanwhile. Only addresses that missed that often are here; the sweep forgets them.
    refused_tokens: std::sync::Mutex<std::collections::HashMap<IpAddr, std::time::Instant>>,
}

/// The key of an address: IPv4 as it is, IPv6 by its /64. An IPv4 address written as IPv6
/// (`::ffff:1.2.3.4`, as a dual-stack listener such as `[::]:8080` sees IPv4 peers) is its
/// IPv4 address: by its /64, every IPv4 client would share one key, so one client could spend
/// every IPv4 client's limits.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        v4 @ IpAddr::V4(_) => v4,
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
    /// The limits of [`RULES`]; `enabled: false` (`--no-rate-limits`) lets everything
    /// through, for load tests from one address.
    pub fn new(enabled: bool) -> Limits {
        let limiters = RULES
            .iter()
            .map(|&rule| {
                let quota = quota(rule.burst, rule.every);
                let keyed = match rule.per {
                    Per::Player => Keyed::Player(RateLimiter::dashmap(quota)),
                    Per::Address => Keyed::Address(RateLimiter::dashmap(quota)),
                };
                (rule, keyed)
            })
            .collect();
        Limits {
            enabled,
            limiters,
            refused_tokens: Default::default(),
        }
    }

    /// Counts one request of `what` from `player` (when signed in) at address `ip`: per
    /// player first, then per address.
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
        for (_, keyed) in self.limiters.iter().filter(|(r, _)| r.what == what) {
            match (keyed, player) {
                (Keyed::Player(limiter), Some(player)) => check(what, limiter, &player)?,
                (Keyed::Player(_), None) => {}
                (Keyed::Address(limiter), _) => check(what, limiter, &address)?,
            }
        }
        Ok(())
    }

    /// `what`, counted for `player` alone (an action of theirs taken while they are away, such
    /// as the computer's move in their game).
    pub fn check_player(&self, what: Limited, player: Uuid) -> Result<(), RateLimited> {
        if !self.enabled {
            return Ok(());
        }
        for (_, keyed) in self.limiters.iter().filter(|(r, _)| r.what == what) {
            if let Keyed::Player(limiter) = keyed {
                check(what, limiter, &player)?;
            }
        }
        Ok(())
    }

    /// A `join_room` code found no room: the guess costs more.
    pub fn charge_miss(&self, ip: IpAddr) {
        self.charge_guess(Limited::JoinRoom, ip);
    }

    /// Whether a token from `ip` may be looked up: not while the address is out of
    /// [`Limited::TokenMisses`] (its tokens named nobody too often).
    pub fn token_lookup(&self, ip: IpAddr) -> Result<(), RateLimited> {
        if !self.enabled {
            return Ok(());
        }
        let refused = self.refused_tokens.lock().expect("refused tokens lock");
        let now = std::time::Instant::now();
        match refused.get(&address_key(ip)) {
            Some(&until) if until > now => Err(RateLimited {
                retry_after: until - now,
            }),
            _ => Ok(()),
        }
    }

    /// A token from `ip` named nobody: one of the address's misses. Out of them, its next
    /// tokens are refused unlooked until the bucket has one again.
    pub fn token_missed(&self, ip: IpAddr) {
        if !self.enabled {
            return;
        }
        if let Err(limited) = self.check(Limited::TokenMisses, None, ip) {
            let until = std::time::Instant::now() + limited.retry_after;
            self.refused_tokens
                .lock()
                .expect("refused tokens lock")
                .insert(address_key(ip), until);
        }
    }

    /// A guess of `what` from `ip` missed (a code, a token): it costs [`MISS_COST`] more of
    /// the address's budget.
    pub fn charge_guess(&self, what: Limited, ip: IpAddr) {
        if !self.enabled {
            return;
        }
        for (rule, keyed) in &self.limiters {
            if let Keyed::Address(limiter) = keyed {
                if rule.what == what {
                    // One at a time, as far as the budget goes: asked for all at once, a
                    // bucket holding fewer refuses and charges nothing, and a miss then cost
                    // no more than a find.
                    let key = address_key(ip);
                    for _ in 0..MISS_COST {
                        if limiter.check_key(&key).is_err() {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Forgets keys whose buckets are full again (nothing to remember about them).
    pub fn sweep(&self) {
        let now = std::time::Instant::now();
        self.refused_tokens
            .lock()
            .expect("refused tokens lock")
            .retain(|_, until| *until > now);
        for (_, keyed) in &self.limiters {
            match keyed {
                Keyed::Player(limiter) => {
                    limiter.retain_recent();
                    limiter.shrink_to_fit();
                }
                Keyed::Address(limiter) => {
                    limiter.retain_recent();
                    limiter.shrink_to_fit();
                }
            }
        }
    }

    /// How many keys all limits remember (for tests and metrics).
    pub fn tracked_keys(&self) -> usize {
        self.limiters
            .iter()
            .map(|(_, keyed)| match keyed {
                Keyed::Player(limiter) => limiter.len(),
                Keyed::Address(limiter) => limiter.len(),
            })
            .sum()
    }
}

fn check<K: std::hash::Hash + Eq + Clone>(
    what: Limited,
    limiter: &DefaultKeyedRateLimiter<K>,
    key: &K,
) -> Result<(), RateLimited> {
    limiter.check_key(key).map_err(|not_until| {
        // By limit, so an operator sees which one refuses.
        metrics::counter!("jungle_rate_limited_total", "limit" => what.name()).increment(1);
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
    fn a_miss_spends_what_is_left_when_less_than_its_cost_is() {
        let limits = Limits::new(true);
        let ip: IpAddr = "192.0.2.7".parse().unwrap();
        // Two lookups left of the burst: a miss takes both (it used to take none, the bucket
        // holding fewer than it asked for).
        let burst = 120;
        for _ in 0..burst - 2 {
            limits.check(Limited::BotRequests, None, ip).unwrap();
        }
        limits.charge_guess(Limited::BotRequests, ip);
        assert!(limits.check(Limited::BotRequests, None, ip).is_err());
    }

    #[test]
    fn tokens_from_an_address_that_missed_too_often_are_refused_unlooked() {
        let limits = Limits::new(true);
        let ip: IpAddr = "192.0.2.9".parse().unwrap();
        for _ in 0..24 {
            assert!(limits.token_lookup(ip).is_ok());
            limits.token_missed(ip);
        }
        assert!(
            limits.token_lookup(ip).is_ok(),
            "the 24th miss spent the last one"
        );
        limits.token_missed(ip);
        let refused = limits.token_lookup(ip).expect_err("out of misses");
        assert!(refused.retry_after <= Duration::from_millis(250));
        let other: IpAddr = "192.0.2.10".parse().unwrap();
        assert!(limits.token_lookup(other).is_ok());
    }

    #[test]
    fn an_ipv4_address_written_as_ipv6_is_its_ipv4_address() {
        let key = |ip: &str| address_key(ip.parse().unwrap());
        assert_eq!(key("::ffff:192.0.2.1"), key("192.0.2.1"));
        assert_ne!(key("::ffff:192.0.2.1"), key("::ffff:192.0.2.2"));
        let limits = Limits::new(true);
        for _ in 0..30 {
            limits
                .check(Limited::NewGuest, None, "::ffff:192.0.2.1".parse().unwrap())
                .unwrap();
        }
        assert!(limits
            .check(Limited::NewGuest, None, "192.0.2.1".parse().unwrap())
            .is_err());
        limits
            .check(Limited::NewGuest, None, "::ffff:192.0.2.2".parse().unwrap())
            .expect("another IPv4 client on a dual-stack listener has limits of its own");
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

    /// docs/security.md's table of rates, as the code has it: the same lines, no more.
    #[test]
    fn the_documented_rates_are_the_code_s() {
        let doc = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/security.md"
        ));
        let table = doc
            .split("## Rates, across connections")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("docs/security.md has its table of rates");
        let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("| `")).collect();
        let spell = |every: Duration| {
            let ms = every.as_millis();
            if ms.is_multiple_of(60_000) {
                format!("{} min", ms / 60_000)
            } else if ms.is_multiple_of(1_000) {
                format!("{} s", ms / 1_000)
            } else {
                format!("{ms} ms")
            }
        };
        for rule in RULES {
            let line = format!(
                "| `{}` | {} | {}, then 1 per {} |",
                rule.what.name(),
                rule.per.name(),
                rule.burst,
                spell(rule.every)
            );
            assert!(
                rows.iter().any(|row| row.starts_with(&line)),
                "docs/security.md lacks {line}"
            );
        }
        assert_eq!(
            rows.len(),
            RULES.len(),
            "docs/security.md lists a rate the code does not have"
        );
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
