//! The HTTP API's requests and answers (`/api/…`), as JSON. See `docs/protocol.md`.
//!
//! Long (about 700 lines): a vocabulary, one type per HTTP body, read by lookup rather than in one
//! sitting.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{ClockSpec, GameStatus, RatingChange, Reason};
use jungle_rules::{Ruleset, Side};

/// `POST /api/players`: a guest player with this display name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPlayer {
    /// Absent: the server names the guest (`Guest-4821`); it can be changed later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `POST /api/players/me/name` (a guest's token as the bearer): a new display name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewName {
    pub name: String,
}

/// The answer to `POST /api/players`. The token signs in on the WebSocket; keep it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedPlayer {
    pub id: Uuid,
    pub name: String,
    pub token: String,
}

/// `POST /api/account` and `POST /api/session`: a username and a password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

/// The answer to `POST /api/account` (201).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedAccount {
    pub id: Uuid,
    pub username: String,
}

/// The answer to `POST /api/session` (200); the token also comes as the `jungle_session`
/// cookie. Programs sign in on the WebSocket with `hello{token}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedIn {
    pub id: Uuid,
    pub name: String,
    pub token: String,
}

/// One of the player's signed-in devices (`GET /api/sessions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    pub id: Uuid,
    /// The browser's own description of itself (User-Agent), cut to 120 characters.
    pub device: String,
    /// The address it signed in from, coarsely: `203.0.113.0/24`, `2001:db8:1::/48`.
    pub address: String,
    /// Milliseconds since 1970.
    pub created_at: i64,
    pub last_seen_at: i64,
    /// The session this request was made with.
    pub current: bool,
}

/// `GET /api/account/export`: everything the server keeps about the account holder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccountExport {
    pub profile: PlayerProfile,
    pub sessions: Vec<SessionInfo>,
    /// Every game, newest first (at most 10,000).
    pub games: Vec<GameSummary>,
    /// By ruleset name: the rating after each rated game, oldest first.
    pub rating_history: BTreeMap<String, Vec<RatingPoint>>,
    /// The e-mail address given, if any.
    #[serde(default)]
    pub mail: Option<MailSettings>,
    /// The lessons' exercises and practice games done (issue 29).
    #[serde(default)]
    pub learn: Vec<String>,
    /// Web Push (issue 52): the push services' addresses of the browsers subscribed, and what
    /// the account wants pushed.
    #[serde(default)]
    pub push: Option<PushExport>,
}

/// The Web Push part of an account's export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushExport {
    pub endpoints: Vec<String>,
    pub turns: bool,
    pub challenges: bool,
    pub tournaments: bool,
}

/// `GET /api/account/email` (and `PUT`'s answer): the address given, whether its link was
/// followed, whether mails about turns are wanted, and whether this server sends mail at all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailSettings {
    pub address: Option<String>,
    pub confirmed: bool,
    pub turn_mails: bool,
    pub mail_on: bool,
}

/// `GET /api/push` (and the answer of every change): Web Push for this account. The
/// browser subscribes with `public_key` (the server's VAPID key, base64url) as its
/// `applicationServerKey`; `subscriptions` counts the browsers subscribed; the rest is what
/// the account wants pushed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushView {
    pub public_key: String,
    pub subscriptions: usize,
    pub turns: bool,
    pub challenges: bool,
    pub tournaments: bool,
}

/// `POST /api/push/subscriptions`: a browser's `PushSubscription.toJSON()` as it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPushSubscription {
    pub endpoint: String,
    pub keys: PushSubscriptionKeys,
    /// Sent by browsers (usually `null`); not used: a push service that lets a subscription
    /// lapse answers 404 or 410, and it is forgotten then.
    #[serde(
        default,
        rename = "expirationTime",
        skip_serializing_if = "Option::is_none"
    )]
    pub expiration_time: Option<serde_json::Value>,
}

/// The keys of a subscription, base64url: the browser's P-256 public key and auth secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushSubscriptionKeys {
    pub p256dh: String,
    pub auth: String,
}

/// `DELETE /api/push/subscriptions`: the browser that unsubscribed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GonePushSubscription {
    pub endpoint: String,
}

/// `PUT /api/push/settings`: what to push from now on; a field left out is unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushSettingsChange {
    #[serde(default)]
    pub turns: Option<bool>,
    #[serde(default)]
    pub challenges: Option<bool>,
    #[serde(default)]
    pub tournaments: Option<bool>,
}

/// What a push carries, encrypted for the browser (RFC 8291): the service worker shows it as
/// a notification (`tag` replaces an older one of the same), and a tap opens `url`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushMessage {
    /// `turn`, `challenge` or `tournament`.
    pub kind: String,
    pub title: String,
    pub body: String,
    /// A path on this site: `/g/<game>`.
    pub url: String,
    pub tag: String,
}

/// `PUT /api/account/email`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewMailAddress {
    pub address: String,
}

/// `POST /api/account/password`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasswordChange {
    pub current: String,
    pub new: String,
}

/// `DELETE /api/account`: the password, once more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountDeletion {
    pub password: String,
}

/// A refused account request: a stable code (`bad_username`, `bad_password`, `username_taken`,
/// `already_an_account`, `bad_credentials`, `rate_limited`, `not_signed_in`) and a sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountError {
    pub error: String,
    pub message: String,
    /// The code again, under the name every refusal has.
    #[serde(default)]
    pub code: String,
}

impl AccountError {
    pub fn new(code: &str, message: impl Into<String>) -> AccountError {
        AccountError {
            error: code.to_owned(),
            message: message.into(),
            code: code.to_owned(),
        }
    }
}

/// A player's rating in one ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    /// Too few games for the rating to be trusted (shown with a `?`).
    pub provisional: bool,
    pub games: i64,
}

/// Results over a player's finished games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    /// Games lost on time.
    pub timeouts: i64,
    /// Games lost by leaving.
    pub abandons: i64,
}

/// `GET /api/players/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerProfile {
    pub id: Uuid,
    pub name: String,
    /// The account's username; `null` for a guest (and the computer).
    #[serde(default)]
    pub username: Option<String>,
    /// By ruleset name (`classic`, …): every ruleset is present.
    pub ratings: BTreeMap<String, Rating>,
    /// Correspondence ratings by ruleset name, apart from the real-time ones: every ruleset is
    /// present.
    #[serde(default)]
    pub correspondence_ratings: BTreeMap<String, Rating>,
    pub stats: Stats,
    /// Games lost by leaving and not coming back within the grace period (seed 002's 断线次数);
    /// games against the computer do not count.
    pub disconnects: i64,
    /// Games aborted because this player's first move never came; not against the computer.
    pub aborts: i64,
    /// Whether the player has a connection open now (so can be challenged).
    #[serde(default)]
    pub online: bool,
    /// Banned by the operator: hidden from leaderboards, cannot play.
    #[serde(default)]
    pub banned: bool,
    /// The engine level when this player is the computer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<u8>,
    /// `BOT` for a bot account (one that plays through the Bot API); absent for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// When the player first came, in Unix milliseconds.
    #[serde(default)]
    pub created_at: i64,
}

/// A line of `GET /api/players/{id}/games`, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub id: Uuid,
    pub rules: Ruleset,
    pub red: Uuid,
    pub blue: Uuid,
    pub status: GameStatus,
    pub winner: Option<Side>,
    pub reason: Option<Reason>,
    pub plies: i64,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds; `None` while in progress.
    #[serde(default)]
    pub ended_at: Option<i64>,
    pub clock: ClockSpec,
    pub rated: bool,
    /// The players' names and their ratings as the game began.
    pub red_name: String,
    pub blue_name: String,
    pub red_rating: i32,
    pub blue_rating: i32,
    /// Whether each of those ratings was still provisional (shown "1500?").
    #[serde(default)]
    pub red_provisional: bool,
    #[serde(default)]
    pub blue_provisional: bool,
    /// What the game did to each rating, when it moved them.
    #[serde(default)]
    pub rating_change: Option<RatingChange>,
    /// Each player's title (`BOT`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub red_title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blue_title: Option<String>,
}

/// A player's rating after one rated game (`GET /api/players/{id}/ratings?rules=…`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// Unix milliseconds.
    pub at: i64,
    pub rating: f64,
}

/// A game in progress, as `GET /api/games/live` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveGame {
    pub id: Uuid,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    pub red: String,
    pub blue: String,
    pub red_rating: i32,
    pub blue_rating: i32,
    /// The players' ids, for links to their profiles.
    #[serde(default)]
    pub red_id: Option<Uuid>,
    #[serde(default)]
    pub blue_id: Option<Uuid>,
    /// Each player's title (`BOT`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub red_title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blue_title: Option<String>,
}

/// One line of the leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    pub id: Uuid,
    pub name: String,
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
    pub games: i64,
}

/// `GET /api/leaderboard?rules=…`: best ratings first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leaderboard {
    pub rules: Ruleset,
    /// Settled ratings, best first (at most 100).
    pub players: Vec<LeaderboardEntry>,
    /// Ratings still provisional, best first (at most 50): listed apart, not ranked.
    #[serde(default)]
    pub provisional: Vec<LeaderboardEntry>,
}

/// A player of a recorded game, with the rating they started it with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamePlayer {
    pub id: Uuid,
    pub name: String,
    pub rating: i32,
    /// The engine level when this seat was the computer.
    pub computer: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamePlayers {
    pub red: GamePlayer,
    pub blue: GamePlayer,
}

/// `GET /api/games/{id}`: a game as recorded, live or finished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub id: Uuid,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    pub players: GamePlayers,
    /// The starting position, and every turn since (`a3a4`, `pass`).
    pub start: String,
    pub moves: Vec<String>,
    pub status: GameStatus,
    /// `red`, `blue`, `draw`, or empty while the game goes on.
    pub result: String,
    pub winner: Option<Side>,
    pub reason: Option<Reason>,
    pub rating_applied: bool,
    pub rating_change: Option<RatingChange>,
    /// Unix milliseconds.
    pub created_at: i64,
    pub ended_at: Option<i64>,
    /// For replay, one entry per turn: the position after it,
    #[serde(default)]
    pub positions: Vec<String>,
    /// the enemy animal it captured (`null` when none),
    #[serde(default)]
    pub captures: Vec<Option<jungle_rules::Animal>>,
    /// and both clocks after it (empty for games stored without clocks).
    #[serde(default)]
    pub clocks: Vec<ClockAfter>,
}

/// Both sides' remaining time after a turn, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockAfter {
    pub red_ms: u64,
    pub blue_ms: u64,
}

/// A refusal of the players', games' and tournaments' API: a stable `code` a client
/// translates (`name_empty`, `name_too_long`, `name_characters`, `name_blank`, `name_taken`,
/// `bad_request`, `not_found`, `rate_limited`, `internal`) and a sentence, `message`; `error`
/// is the sentence too (its older name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default)]
    pub message: String,
}

impl ApiError {
    pub fn new(code: &str, message: impl Into<String>) -> ApiError {
        let message = message.into();
        ApiError {
            error: message.clone(),
            code: Some(code.to_owned()),
            message,
        }
    }
}

/// `POST /api/reports`: report a player to the operator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewReport {
    pub player: Uuid,
    /// One of [`REPORT_REASONS`].
    pub reason: String,
    /// The reporter's own words, at most [`MAX_REPORT_DETAILS`] characters.
    #[serde(default)]
    pub details: String,
    /// The game the report is about, if any; the reported player must have played in it.
    #[serde(default)]
    pub game: Option<Uuid>,
}

/// What a report may be about.
pub const REPORT_REASONS: [&str; 5] = ["cheating", "abuse", "name", "stalling", "other"];
/// Longest `details` of a report, in characters.
pub const MAX_REPORT_DETAILS: usize = 500;

/// `201` answer of `POST /api/reports`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportCreated {
    pub id: Uuid,
}

/// An account's display settings (`GET`/`PUT /api/account/settings`), kept with the account so
/// they follow it to every device. Unknown keys are refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisplaySettings {
    /// `en` or `zh`; absent: the browser's choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Sounds off.
    #[serde(default)]
    pub muted: bool,
    /// Show square names (a–g, 1–9) around the board.
    #[serde(default = "yes")]
    pub coordinates: bool,
    /// `light` or `dark`; absent: as the system says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    /// The board's colours: `wood` (absent) or `meadow`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// How animals are drawn: `pictures`, `glyphs` (the Chinese characters) or `both`;
    /// absent: as the language prefers (pictures in English, characters in Chinese).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<String>,
    /// Who may challenge this account: `everyone` (absent), `accounts` (no guests) or
    /// `nobody`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenges: Option<String>,
}

/// A player an account blocks, as `GET /api/account/blocks` lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blocked {
    pub id: Uuid,
    pub name: String,
}

fn yes() -> bool {
    true
}

impl Default for DisplaySettings {
    fn default() -> Self {
        DisplaySettings {
            language: None,
            muted: false,
            coordinates: true,
            theme: None,
            board: None,
            pieces: None,
            challenges: None,
        }
    }
}

/// `POST /api/account/reset`: use a one-time reset link's token to choose a new password.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PasswordReset {
    pub token: String,
    pub password: String,
}

/// Games per page of `GET /api/players/{id}/games?page=N`.
pub const GAMES_PER_PAGE: i64 = 20;

/// `POST /api/lines`: a position and moves to play from it (the analysis board).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineRequest {
    pub rules: Ruleset,
    /// The starting position; the initial one when absent.
    #[serde(default)]
    pub start: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

/// `POST /api/games/import`: a game in JGN (docs/notation.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportRequest {
    pub text: String,
}

/// A line of play as the analysis board shows it: every position on the way, what each turn
/// captured, and the legal moves and outcome at its end. An import adds the game's tags.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub rules: Ruleset,
    pub start: String,
    pub moves: Vec<String>,
    /// The position after each turn.
    pub positions: Vec<String>,
    pub captures: Vec<Option<jungle_rules::Animal>>,
    /// The legal moves at the end of the line (none once the game is over).
    pub legal: Vec<String>,
    pub outcome: Option<LineOutcome>,
    /// The imported game's tag pairs, in order; empty for `POST /api/lines`.
    #[serde(default)]
    pub tags: Vec<(String, String)>,
    /// The imported game's result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// How the rules end a line: the winner (`null`: drawn) and why (`den`, `all-captured`,
/// `no-moves`, `no-capture`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineOutcome {
    pub winner: Option<Side>,
    pub reason: String,
}

/// Longest game text or line request the server reads, in bytes.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// A seek waiting in the lobby (`GET /api/seeks`), for anyone to take with `accept_seek`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenSeek {
    pub id: Uuid,
    pub player: crate::PlayerInfo,
    pub rating: i32,
    pub provisional: bool,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
}

/// `POST /api/tournaments`: a new arena.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewTournament {
    /// 1–40 characters.
    pub name: String,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    /// How long it runs, 1–720.
    pub minutes: u32,
    /// RFC 3339; absent: now.
    #[serde(default)]
    pub starts_at: Option<String>,
    #[serde(default)]
    pub rated: bool,
    /// Only holders of its code may join.
    #[serde(default)]
    pub private: bool,
    /// For bots only: bot accounts join it over the Bot API, people may watch.
    #[serde(default)]
    pub bots: bool,
}

/// `201` answer of `POST /api/tournaments`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentCreated {
    pub id: Uuid,
    /// The join code of a private tournament; `null` for a public one.
    pub code: Option<String>,
}

/// A tournament's place in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatus {
    Upcoming,
    Running,
    Finished,
}

/// What the standings say of one player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerScore {
    pub player: Uuid,
    pub name: String,
    pub rating: i32,
    pub points: u32,
    pub games: u32,
    /// Wins in a row now: from two on, the next win scores double.
    pub streak: u32,
    /// The tournament game the player is in now, to watch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<Uuid>,
    /// Withdrawn (paused): not paired until they join again.
    #[serde(default)]
    pub paused: bool,
}

/// A line of the standings, best first: `{rank, player, name, …}` on the wire.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// 1 for the leader.
    #[serde(default)]
    pub rank: u32,
    #[serde(flatten)]
    pub score: PlayerScore,
}

/// `GET /api/tournaments/{id}` (and each line of `GET /api/tournaments`, whose standings are
/// empty).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    pub id: Uuid,
    pub name: String,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    pub private: bool,
    pub status: TournamentStatus,
    /// RFC 3339, UTC.
    pub starts_at: String,
    pub ends_at: String,
    pub players: u32,
    pub standings: Vec<Standing>,
    /// One of the operator's scheduled arenas (listed first).
    #[serde(default)]
    pub official: bool,
    /// For bots only.
    #[serde(default)]
    pub bots: bool,
}

/// `GET /api/tournaments?page=N`: the operator's scheduled arenas first (every one, on every
/// page), then the players' public ones by players and start time, [`TOURNAMENTS_PAGE`] a
/// page; `total` counts the players' ones to come or running, so nothing is cut unseen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tournaments {
    pub upcoming: Vec<Tournament>,
    pub running: Vec<Tournament>,
    /// The most recent 20 (first page only).
    pub finished: Vec<Tournament>,
    #[serde(default)]
    pub page: u32,
    #[serde(default)]
    pub pages: u32,
    #[serde(default)]
    pub total: u32,
}

/// Players' tournaments listed a page.
pub const TOURNAMENTS_PAGE: u32 = 50;

/// `GET /api/rooms/{code}`: a private room still waiting for its guest, as the visitor of its
/// link sees it before taking the seat ("Ada invites you to a game of classic, 5+3"). A room
/// whose game started, that expired, or that never was answers 404 `not_found` alike.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomInvite {
    pub code: String,
    pub host_id: Uuid,
    pub host: String,
    /// The host's rating in the room's ruleset, and whether it is still provisional.
    pub host_rating: i32,
    pub host_provisional: bool,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    /// The colour the host chose: the guest plays the other, or the sides are drawn.
    pub host_colour: crate::ColorChoice,
    /// A set-up starting position; `None` for the initial one.
    pub start: Option<String>,
}

/// A correspondence game where it is the reader's turn (`GET /api/account/games/waiting`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaitingGame {
    pub id: Uuid,
    pub rules: Ruleset,
    pub clock: crate::ClockSpec,
    pub rated: bool,
    /// The reader's side.
    pub side: Side,
    pub opponent: WaitingOpponent,
    /// Plies played so far.
    pub plies: u32,
    /// When the turn runs out, Unix milliseconds (shown in the reader's local time).
    pub deadline_ms: i64,
    /// Time left at the moment of the answer, milliseconds (0 when already past).
    pub left_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaitingOpponent {
    pub id: Uuid,
    pub name: String,
}

/// The reader's correspondence games: those waiting for their move, most urgent first, and how
/// many are in progress in all (at most [`WaitingGames::MAX_IN_PROGRESS`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaitingGames {
    pub games: Vec<WaitingGame>,
    pub in_progress: u32,
    /// The others in progress, waiting for the opponent's move (their deadline), soonest
    /// first: to open them again, or give a day.
    #[serde(default)]
    pub opponents_turn: Vec<WaitingGame>,
}

impl WaitingGames {
    /// Correspondence games a player may have in progress at once.
    pub const MAX_IN_PROGRESS: u32 = 50;
}
