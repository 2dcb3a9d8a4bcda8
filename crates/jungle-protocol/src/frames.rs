//! The WebSocket frames, one serde enum per direction (`ClientFrame`, `ServerFrame`), and the types
//! they carry.
//!
//! Long (about 800 lines): a vocabulary, one type per frame, read by lookup rather than in one
//! sitting.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::ClockSpec;
use jungle_rules::{Animal, Ruleset, Side};

/// Which colour the host of a private room takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    Red,
    Blue,
    Random,
}

/// What a client may send.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientFrame {
    /// Must be the first frame: authenticates the connection as a player.
    Hello {
        token: String,
    },
    /// Enter the matchmaking pool for these settings.
    Seek {
        rules: Ruleset,
        clock: ClockSpec,
        rated: bool,
        /// After this many seconds without a human opponent, play the computer instead
        /// (a casual game at a level near the player's rating). Absent: wait for a human.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        computer_after_s: Option<u32>,
    },
    CancelSeek,
    /// Take a seek listed in the lobby (`GET /api/seeks`): the game starts for both.
    AcceptSeek {
        seek: Uuid,
    },
    /// Open a private room; the answer is a `room` frame with its code and link.
    CreateRoom {
        rules: Ruleset,
        clock: ClockSpec,
        rated: bool,
        color: ColorChoice,
        /// A set-up starting position (the board editor's); absent: the initial one. Games
        /// from a set-up position are casual.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<String>,
    },
    /// Play the engine at `level` (1–8): a new room (with a code, so friends can watch) whose
    /// other seat is the computer. Computer games are casual.
    PlayComputer {
        rules: Ruleset,
        clock: ClockSpec,
        level: u8,
        color: ColorChoice,
        /// A set-up starting position; absent: the initial one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<String>,
    },
    /// The host of a waiting private room gives the free seat to the computer.
    AddComputer {
        game: Uuid,
        level: u8,
    },
    /// Take the free seat of a private room, or watch it when both seats are taken.
    JoinRoom {
        code: String,
    },
    /// Follow a game (as a spectator, or as its player after a reconnect).
    Watch {
        game: Uuid,
    },
    /// Stop following a game.
    Unwatch {
        game: Uuid,
    },
    /// Play a move such as `a3a4`. `blur`: the tab lost focus since this player's previous
    /// move (a fair-play signal; absent means no).
    Move {
        game: Uuid,
        mv: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        blur: bool,
    },
    Resign {
        game: Uuid,
    },
    /// End the game unplayed, before your first move, on your turn (see `AbortUnavailable`).
    Abort {
        game: Uuid,
    },
    OfferDraw {
        game: Uuid,
    },
    AcceptDraw {
        game: Uuid,
    },
    DeclineDraw {
        game: Uuid,
    },
    /// Ask for a new game with colours swapped; starts once both players ask.
    Rematch {
        game: Uuid,
    },
    /// Give the opponent one more day on their turn (correspondence; see `GiveDayUnavailable`).
    GiveDay {
        game: Uuid,
    },
    /// Say something in a game: players to each other, spectators among themselves. Either a
    /// preset phrase (one of [`CHAT_PRESETS`], shown in each reader's language) or free text
    /// of at most [`MAX_CHAT_CHARS`] characters.
    Chat {
        game: Uuid,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        preset: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// Ask to take back your last move (casual games; the computer always agrees).
    Takeback {
        game: Uuid,
    },
    AcceptTakeback {
        game: Uuid,
    },
    DeclineTakeback {
        game: Uuid,
    },
    /// Ask our engine about the position after `moves` from `position` (the initial position
    /// when absent), under `rules`; answered by `analysis`. A new request replaces the
    /// connection's unanswered one.
    Analyse {
        rules: Ruleset,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<String>,
        #[serde(default)]
        moves: Vec<String>,
    },
    /// Evaluate every turn of a finished game (once; later requests read the stored result);
    /// answered by `game_analysis`.
    AnalyseGame {
        game: Uuid,
    },
    /// Challenge an online player to a game with these settings (`color`: the challenger's).
    /// They have [`CHALLENGE_TTL_S`] seconds to accept.
    Challenge {
        to: Uuid,
        rules: Ruleset,
        clock: ClockSpec,
        rated: bool,
        color: ColorChoice,
    },
    /// The challenged player accepts: the game starts for both.
    AcceptChallenge {
        id: Uuid,
    },
    DeclineChallenge {
        id: Uuid,
        /// Why, for the challenger (absent: no reason given).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<DeclineReason>,
    },
    /// The challenger takes their challenge back.
    CancelChallenge {
        id: Uuid,
    },
    /// Join an arena (a private one needs its `code`), or come back after withdrawing. The
    /// answer is `tournament_entry`; pairings arrive as `game` frames. Joining also follows the
    /// standings, as `watch_tournament` does.
    JoinTournament {
        id: Uuid,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
    /// Stop being paired (a pause: the points stay, and `join_tournament` comes back). A game
    /// in progress is played out.
    Withdraw {
        id: Uuid,
    },
    /// Follow a tournament's standings: a full `tournament_standings` now, then the lines that
    /// change. A connection follows one tournament at a time; this replaces the previous one.
    WatchTournament {
        id: Uuid,
    },
    /// Stop following a tournament's standings.
    UnwatchTournament {
        id: Uuid,
    },
    Ping,
}

/// An engine score from the side to move's point of view: `{"cp": N}` in centi-animals (a dog
/// is about 300), or `{"den_in": N}`, its own moves to a den entry (negative: the opponent's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineScore {
    Cp(i32),
    DenIn(i32),
}

/// How bad a turn was, by the winning chances its mover gave away (docs/protocol.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// Who hears a chat line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    Players,
    Spectators,
}

/// The preset chat phrases, by key; each client shows them in its own language.
pub const CHAT_PRESETS: [&str; 6] = [
    "hello",
    "good_luck",
    "well_played",
    "thanks",
    "good_game",
    "oops",
];
/// Longest free-text chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 140;

/// Seconds a challenge waits for its answer.
pub const CHALLENGE_TTL_S: u64 = 60;

/// A pending challenge, as both players see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeInfo {
    pub id: Uuid,
    pub from: PlayerInfo,
    pub to: PlayerInfo,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    /// The challenger's colour.
    pub color: ColorChoice,
    /// Milliseconds left to answer.
    pub expires_in_ms: u64,
    /// The challenger's title: `BOT` for a bot account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_title: Option<String>,
}

/// Why a challenge is declined: lichess's list, by its names (`tooFast`, `noBot`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DeclineReason {
    Generic,
    Later,
    TooFast,
    TooSlow,
    TimeControl,
    Rated,
    Casual,
    Standard,
    NoBot,
    OnlyBot,
}

/// How a challenge ended without a game (or with one: `accepted`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEnd {
    Accepted,
    Declined,
    /// The challenger took it back, or left.
    Cancelled,
    /// Nobody answered in time.
    Expired,
}

/// A player as others see them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerInfo {
    pub id: Uuid,
    pub name: String,
}

/// A seat in a game: who sits there and with what rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    pub id: Uuid,
    pub name: String,
    pub rating: i32,
    pub provisional: bool,
    /// The engine level when this seat is the computer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<u8>,
    /// Whether the player has at least one live connection to the game.
    pub online: bool,
    /// The player's disconnect count (games lost by leaving), as players see it before a game.
    #[serde(default)]
    pub disconnects: i64,
    /// `BOT` for a bot account; absent for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// Both clocks. Times are what remains, in milliseconds, at the moment the frame was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    pub red_ms: u64,
    pub blue_ms: u64,
    /// Whose clock is running, if any.
    pub running: Option<Side>,
    /// Timeouts counted so far (per-move clocks).
    pub red_timeouts: u32,
    pub blue_timeouts: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// A private room waiting for its second player.
    Waiting,
    Active,
    Finished,
    Aborted,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    Den,
    AllCaptured,
    NoMoves,
    NoCapture,
    Resign,
    DrawAgreed,
    Timeout,
    Abandoned,
    Aborted,
    /// The operator banned the losing player while the game ran.
    Banned,
}

impl Reason {
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Den => "den",
            Reason::AllCaptured => "all-captured",
            Reason::NoMoves => "no-moves",
            Reason::NoCapture => "no-capture",
            Reason::Resign => "resign",
            Reason::DrawAgreed => "draw-agreed",
            Reason::Timeout => "timeout",
            Reason::Abandoned => "abandoned",
            Reason::Aborted => "aborted",
            Reason::Banned => "banned",
        }
    }

    pub fn from_name(name: &str) -> Option<Reason> {
        [
            Reason::Den,
            Reason::AllCaptured,
            Reason::NoMoves,
            Reason::NoCapture,
            Reason::Resign,
            Reason::DrawAgreed,
            Reason::Timeout,
            Reason::Abandoned,
            Reason::Aborted,
            Reason::Banned,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }
}

impl From<jungle_rules::EndReason> for Reason {
    fn from(reason: jungle_rules::EndReason) -> Reason {
        match reason {
            jungle_rules::EndReason::Den => Reason::Den,
            jungle_rules::EndReason::AllCaptured => Reason::AllCaptured,
            jungle_rules::EndReason::NoMoves => Reason::NoMoves,
            jungle_rules::EndReason::NoCapture => Reason::NoCapture,
        }
    }
}

/// Rating points each side gained (negative: lost).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    pub red: i32,
    pub blue: i32,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub winner: Option<Side>,
    pub reason: Reason,
    /// Whether ratings changed (false for casual games and games that ended within 10 moves).
    pub rated: bool,
    pub rating_change: Option<RatingChange>,
}

/// The animals each side has lost.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Captured {
    pub red: Vec<Animal>,
    pub blue: Vec<Animal>,
}

impl Captured {
    /// From a game's history: each capture is a loss of the side that did not move.
    pub fn from_game(game: &jungle_rules::Game) -> Captured {
        let mut captured = Captured::default();
        let mut mover = game.start().side_to_move();
        for turn in game.history() {
            if let Some(animal) = turn.captured {
                match mover {
                    Side::Red => captured.blue.push(animal),
                    Side::Blue => captured.red.push(animal),
                }
            }
            mover = !mover;
        }
        captured
    }
}

/// The full state of a game, as one recipient sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    pub game: Uuid,
    /// The game's event sequence number as of this state: the next event about the game
    /// carries `seq + 1`. A client that sees a gap asks for a full state again (`watch`).
    pub seq: u64,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub rated: bool,
    /// The private room's code, for room games.
    pub code: Option<String>,
    pub red: Option<Seat>,
    pub blue: Option<Seat>,
    /// Which side the recipient plays; `None` for a spectator.
    pub you: Option<Side>,
    /// The starting position and every turn since (`a3a4`, `pass`).
    pub start: String,
    pub moves: Vec<String>,
    pub position: String,
    pub turn: Side,
    pub clocks: Clocks,
    /// The animals each side has lost, in the order they were taken.
    #[serde(default)]
    pub captured: Captured,
    /// The side whose draw offer is pending, if any.
    pub draw_offer: Option<Side>,
    /// The side whose takeback request is pending, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback_offer: Option<Side>,
    pub status: GameStatus,
    pub result: Option<GameResult>,
    /// Milliseconds until a disconnected player's game is forfeited, per side.
    pub red_away_ms: Option<u64>,
    pub blue_away_ms: Option<u64>,
    /// The legal moves, when it is the recipient's turn; empty otherwise.
    pub legal: Vec<String>,
    /// Milliseconds the side to move has left to make its first move before the game is
    /// aborted; absent once both sides have moved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abort_in_ms: Option<u64>,
    /// While a private room waits for its guest, the colour its host chose (`random` stays
    /// `random` until the guest arrives and the sides are drawn); the host sits on `red` until
    /// then whatever they chose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_colour: Option<ColorChoice>,
    /// The tournament this game belongs to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<Uuid>,
    /// Correspondence: the side to move was given a day this turn (`give_day` waits for the
    /// next one).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub day_given: bool,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerFrame {
    /// `hello` succeeded. `games` are the player's unfinished games (each follows as a `game`).
    Welcome {
        player: PlayerInfo,
        games: Vec<Uuid>,
        /// The version of the browser client this server serves: a page of another version
        /// reloads itself between games (a deploy happened while it was open).
        #[serde(default)]
        client: String,
    },
    /// The player is in the pool; `pool` counts the players waiting for the same settings.
    Seeking {
        rules: Ruleset,
        clock: ClockSpec,
        rated: bool,
        pool: usize,
    },
    SeekCancelled,
    /// A private room was created: share `url` (or read out `code`).
    Room {
        code: String,
        url: String,
        game: Uuid,
    },
    /// The full state: on start, on join, on watch and on every reconnect.
    Game(Box<GameState>),
    /// A turn was played (`mv` is a move or `pass`), with everything that follows from it, so
    /// that a client applies it without knowing any rule.
    Moved {
        game: Uuid,
        seq: u64,
        mv: String,
        ply: usize,
        position: String,
        /// The side to move now.
        turn: Side,
        /// The enemy animal the move captured; absent when none (as in most moves: every move
        /// frame goes to every player and spectator, so absent fields save bytes).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        captured: Option<Animal>,
        /// `active`, or `finished` when this turn ended the game (a `game_over` follows).
        status: GameStatus,
        /// The side whose draw offer is still pending after this turn; absent when none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        draw_offer: Option<Side>,
        clocks: Clocks,
        /// The recipient's legal moves when it is now their turn; empty otherwise.
        legal: Vec<String>,
        /// As in `game`: the time the side now to move has left for its first move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        abort_in_ms: Option<u64>,
    },
    DrawOffered {
        game: Uuid,
        seq: u64,
        by: Side,
    },
    DrawDeclined {
        game: Uuid,
        seq: u64,
        by: Side,
    },
    /// A line of chat, on the recipient's channel (players do not see spectators' lines).
    ChatLine {
        game: Uuid,
        channel: ChatChannel,
        from: PlayerInfo,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        preset: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A player asks to take back their last move.
    TakebackOffered {
        game: Uuid,
        seq: u64,
        by: Side,
    },
    TakebackDeclined {
        game: Uuid,
        seq: u64,
        by: Side,
    },
    /// A player asked for a rematch.
    RematchOffered {
        game: Uuid,
        seq: u64,
        by: Side,
    },
    /// A player's connection state changed. `abandon_in_ms` counts down while they are away.
    Presence {
        game: Uuid,
        seq: u64,
        side: Side,
        online: bool,
        abandon_in_ms: Option<u64>,
    },
    GameOver {
        game: Uuid,
        seq: u64,
        /// `finished` or `aborted`.
        status: GameStatus,
        winner: Option<Side>,
        reason: Reason,
        rated: bool,
        rating_change: Option<RatingChange>,
        /// Both clocks as they stood at the end (none running).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks: Option<Clocks>,
    },
    Error {
        code: ErrorCode,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        game: Option<Uuid>,
    },
    /// The engine's view of the position of an `analyse`: the best move, its line and the
    /// depth reached; `best` and `score` are absent when the game is over there.
    Analysis {
        /// The position analysed (after the request's moves).
        position: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        best: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score: Option<EngineScore>,
        pv: Vec<String>,
        depth: u32,
    },
    /// Every position of a finished game evaluated: `evals[i]` after `i` turns, from Red's
    /// point of view; `marks[i]` judges turn `i + 1` (its mover's loss of winning chances).
    /// An eval is `null` (and the marks beside it too) while its position stands in a game
    /// in progress: the engine says nothing about those until they end.
    GameAnalysis {
        game: Uuid,
        evals: Vec<Option<EngineScore>>,
        marks: Vec<Option<Mark>>,
    },
    /// Your challenge was delivered (to every tab the player has open).
    ChallengeSent {
        challenge: ChallengeInfo,
    },
    /// Someone challenges you: answer with `accept_challenge` or `decline_challenge`.
    Challenged {
        challenge: ChallengeInfo,
    },
    /// A challenge you sent or received is over; on `accepted` the game follows as `game`.
    ChallengeEnded {
        id: Uuid,
        reason: ChallengeEnd,
        /// Why it was declined, when the challenged player said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decline_reason: Option<DeclineReason>,
    },
    /// Your place in a tournament: `active` while you are paired, false once withdrawn (by
    /// you, or because you let a tournament game be aborted).
    TournamentEntry {
        id: Uuid,
        active: bool,
    },
    /// A tournament's standings, as lines keyed by each player's number in the tournament
    /// (`n`, fixed when they join) and the ranking as a list of those numbers. `full`: every
    /// line and the ranking; else only the lines whose content changed since `seq - 1`, and
    /// `order` only when the ranking changed (a client that sees a gap sends
    /// `watch_tournament` again). A player moving up shifts others' ranks without resending
    /// their lines.
    TournamentStandings {
        id: Uuid,
        seq: u64,
        full: bool,
        status: crate::http::TournamentStatus,
        /// Milliseconds until it starts (upcoming) or ends (running); 0 once finished.
        ms_left: u64,
        /// How many players the table has.
        players: u32,
        lines: Vec<StandingLine>,
        /// The players' numbers, best first.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        order: Option<Vec<u32>>,
    },
    Pong,
    /// The server is going down; reconnect after a moment (games resume).
    Shutdown,
}

impl ServerFrame {
    /// The game and event number of a numbered game event (`moved`, the offers, `presence`,
    /// `game_over`); `None` for every other frame, the `game` state included.
    pub fn game_event(&self) -> Option<(Uuid, u64)> {
        match self {
            ServerFrame::Moved { game, seq, .. }
            | ServerFrame::DrawOffered { game, seq, .. }
            | ServerFrame::DrawDeclined { game, seq, .. }
            | ServerFrame::TakebackOffered { game, seq, .. }
            | ServerFrame::TakebackDeclined { game, seq, .. }
            | ServerFrame::RematchOffered { game, seq, .. }
            | ServerFrame::Presence { game, seq, .. }
            | ServerFrame::GameOver { game, seq, .. } => Some((*game, *seq)),
            _ => None,
        }
    }
}

/// A player's line in a live tournament table: `n` is their number in the tournament (their
/// place in the `order` of a `tournament_standings` frame gives their rank); `{n, player, name,
/// …}` on the wire.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingLine {
    pub n: u32,
    #[serde(flatten)]
    pub score: crate::http::PlayerScore,
}

/// Stable error codes: clients branch on these, people read the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, not an object, an unknown type, a missing or ill-typed field.
    BadFrame,
    /// A binary frame: this protocol is text.
    BinaryFrame,
    FrameTooLarge,
    /// Anything but `hello` before a successful `hello`.
    NotAuthenticated,
    BadToken,
    AlreadyAuthenticated,
    /// Settings the server does not accept (clock bounds and the like).
    BadRequest,
    UnknownGame,
    RoomNotFound,
    /// The game is not one you play.
    NotYourGame,
    NotYourTurn,
    /// Move text that is not a move.
    BadMove,
    IllegalMove,
    GameOver,
    GameNotStarted,
    AlreadySeeking,
    NoDrawOffer,
    DrawOfferLimit,
    RematchUnavailable,
    /// A takeback in a rated game, with no move of yours to take back, or answering none.
    TakebackUnavailable,
    /// A takeback is already asked for in this game.
    TakebackPending,
    /// An abort after your first move, or on your opponent's turn (resign instead).
    AbortUnavailable,
    /// A day given in a game that is not by correspondence, on your own turn, before the first
    /// move, or twice in one turn.
    GiveDayUnavailable,
    /// A claim of victory (Bot and Board APIs) while the opponent is here, still has time to
    /// come back, or in a game over days.
    ClaimUnavailable,
    /// The seek taken is no longer waiting (or is your own).
    SeekGone,
    /// A chat line that is empty, too long, holds control characters, names an unknown preset,
    /// or is free text on a server that allows presets only.
    BadChat,
    /// The player already has as many rooms of this kind as allowed (games against the computer
    /// in play, private rooms waiting).
    LimitReached,
    /// Rated games are for accounts: a guest makes theirs permanent with `POST /api/account`.
    AccountRequired,
    /// An `analyse` whose position does not read, or whose moves cannot be played.
    BadPosition,
    /// The player challenged is not online (or is you).
    PlayerOffline,
    /// The player challenged takes no challenges from you (their setting, or a block).
    ChallengeRefused,
    /// No pending challenge with this id is yours to answer or cancel.
    UnknownChallenge,
    /// The operator banned this player; the message says why.
    Banned,
    /// A bot account signed in on the socket: bots play through the Bot API only.
    BotAccount,
    /// Joining an arena for bots as a person (people may watch it).
    BotsOnly,
    RateLimited,
    /// No tournament has this id.
    UnknownTournament,
    /// The tournament is over: nobody joins it any more.
    TournamentOver,
    /// A private tournament, and the code is missing or wrong.
    TournamentCode,
    /// You are already in this tournament (and not withdrawn).
    AlreadyJoined,
    /// You are playing a game of another tournament: finish it first.
    InTournamentGame,
    /// The tournament has as many players as it takes.
    TournamentFull,
    /// Our engine says nothing here: you are playing a game (no engine on any board until it
    /// ends), the position stands in a game in progress, or that cannot be checked just now.
    AnalysisUnavailable,
    /// Matchmaking is out of reach for a moment (several nodes, and their Redis is away);
    /// games in progress go on. Try again shortly.
    Unavailable,
    /// Something went wrong on our side; details are in the server's log.
    Internal,
}
