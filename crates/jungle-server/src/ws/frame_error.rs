//! Why a client frame was refused: one enum, mapped to a wire code and message in one place
//! (the WebSocket handlers, and the services answering frames forwarded by other nodes).
//! Internal failures are logged here and never sent.

use axum::extract::ws::Utf8Bytes;
use jungle_protocol::{ClockSpecError, ErrorCode, MAX_FRAME_BYTES};
use uuid::Uuid;

use jungle_rooms::challenges::ChallengeRefusal;
use jungle_rooms::error_text;
use jungle_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("frames are limited to {MAX_FRAME_BYTES} bytes")]
    TooLarge,
    #[error("this protocol uses text frames of JSON")]
    Binary,
    #[error("unreadable frame: {0}")]
    Unreadable(#[from] serde_json::Error),
    #[error("send hello with your token first")]
    NotAuthenticated,
    #[error("this connection is already signed in")]
    AlreadyAuthenticated,
    #[error("unknown token: create a player first")]
    BadToken,
    #[error("{0}")]
    BadClock(#[from] ClockSpecError),
    #[error("level must be from 1 to 8")]
    BadLevel(Option<Uuid>),
    #[error("no open room has the code {0}")]
    RoomNotFound(String),
    #[error("no such game")]
    UnknownGame(Uuid),
    #[error("you do not play in this game")]
    NotYourGame(Uuid),
    #[error("the game is over")]
    GameOver(Uuid),
    #[error(transparent)]
    RateLimited(#[from] jungle_limits::RateLimited),
    #[error(
        "a connection follows at most {} games at once; unwatch one first",
        super::MAX_FOLLOWED
    )]
    TooManyFollowed,
    #[error("{}", at_cap_message(.0))]
    AtCap(jungle_rooms::open::AtCap),
    #[error("rated games are for accounts: keep this player with a username and a password (your games and ratings stay), or play casual")]
    AccountRequired,
    #[error(transparent)]
    Correspondence(#[from] jungle_rooms::correspondence::StartRefusal),
    #[error(transparent)]
    Challenge(#[from] jungle_rooms::challenges::ChallengeError),
    #[error(
        "rated games are for accounts, and that player is a guest: challenge them to a casual game"
    )]
    OpponentNeedsAccount,
    #[error("{0}")]
    BadPosition(String),
    #[error("{0}")]
    BadChat(&'static str),
    #[error("the game is still in play; it can be analysed once it is over")]
    GameInPlay(Uuid),
    #[error("an analysis of yours, or of this game, is already running; it answers when done")]
    AnalysisRunning,
    #[error("this player is banned: {0}")]
    Banned(String),
    #[error("a bot account plays through the Bot API (docs/bot-api.md), not here")]
    BotAccount,
    #[error("{0}")]
    Tournament(jungle_tournaments::director::JoinError),
    #[error(transparent)]
    EngineClosed(#[from] jungle_rooms::fair_play::EngineClosed),
    #[error("matchmaking is unavailable for a moment; games in progress go on; try again shortly")]
    Unavailable(jungle_cluster::ClusterError),
    #[error("something went wrong on our side; please try again")]
    Store(#[from] StoreError),
    /// A refusal of a request about one game (its whole analysis), said with the game's id so
    /// that the page waiting for it hears it.
    #[error("{0}")]
    AboutGame(Box<FrameError>, Uuid),
}

impl From<jungle_tournaments::director::JoinError> for FrameError {
    fn from(e: jungle_tournaments::director::JoinError) -> Self {
        match e {
            jungle_tournaments::director::JoinError::Store(e) => FrameError::Store(e),
            other => FrameError::Tournament(other),
        }
    }
}

impl From<crate::game_analysis::AnalysisError> for FrameError {
    fn from(e: crate::game_analysis::AnalysisError) -> Self {
        match e {
            crate::game_analysis::AnalysisError::Store(e) => e.into(),
            crate::game_analysis::AnalysisError::Closed(e) => e.into(),
        }
    }
}

impl From<ChallengeRefusal> for FrameError {
    fn from(e: ChallengeRefusal) -> Self {
        match e {
            ChallengeRefusal::BadClock(e) => e.into(),
            ChallengeRefusal::AccountRequired => FrameError::AccountRequired,
            ChallengeRefusal::OpponentNeedsAccount => FrameError::OpponentNeedsAccount,
            ChallengeRefusal::Challenge(e) => e.into(),
            ChallengeRefusal::Correspondence(e) => e.into(),
            ChallengeRefusal::Store(e) => e.into(),
        }
    }
}

fn at_cap_message(at_cap: &jungle_rooms::open::AtCap) -> String {
    let cap = at_cap.cap;
    match at_cap.kind {
        jungle_rooms::HoldKind::ComputerGame => {
            format!("you already have {cap} games against the computer in play; finish one first")
        }
        jungle_rooms::HoldKind::WaitingRoom => format!(
            "you already have {cap} private rooms waiting for a guest; use or leave one first"
        ),
    }
}

impl FrameError {
    pub fn code(&self) -> ErrorCode {
        match self {
            FrameError::TooLarge => ErrorCode::FrameTooLarge,
            FrameError::Binary => ErrorCode::BinaryFrame,
            FrameError::Unreadable(_) => ErrorCode::BadFrame,
            FrameError::NotAuthenticated => ErrorCode::NotAuthenticated,
            FrameError::AlreadyAuthenticated => ErrorCode::AlreadyAuthenticated,
            FrameError::BadToken => ErrorCode::BadToken,
            FrameError::BadClock(_) | FrameError::BadLevel(_) => ErrorCode::BadRequest,
            FrameError::RoomNotFound(_) => ErrorCode::RoomNotFound,
            FrameError::UnknownGame(_) => ErrorCode::UnknownGame,
            FrameError::NotYourGame(_) => ErrorCode::NotYourGame,
            FrameError::GameOver(_) => ErrorCode::GameOver,
            FrameError::AtCap(_) | FrameError::TooManyFollowed => ErrorCode::LimitReached,
            FrameError::Correspondence(refusal) => refusal.code(),
            FrameError::AccountRequired | FrameError::OpponentNeedsAccount => {
                ErrorCode::AccountRequired
            }
            FrameError::Challenge(e) => e.code(),
            FrameError::Banned(_) => ErrorCode::Banned,
            FrameError::BotAccount => ErrorCode::BotAccount,
            FrameError::Unavailable(_) => ErrorCode::Unavailable,
            FrameError::EngineClosed(_) => ErrorCode::AnalysisUnavailable,
            FrameError::Tournament(e) => e.code(),
            FrameError::BadPosition(_) => ErrorCode::BadPosition,
            FrameError::BadChat(_) => ErrorCode::BadChat,
            FrameError::GameInPlay(_) => ErrorCode::GameNotStarted,
            FrameError::AnalysisRunning => ErrorCode::LimitReached,
            FrameError::RateLimited(_) => ErrorCode::RateLimited,
            FrameError::Store(_) => ErrorCode::Internal,
            FrameError::AboutGame(refusal, _) => refusal.code(),
        }
    }

    /// The game the refusal concerns, if any.
    pub fn game(&self) -> Option<Uuid> {
        match self {
            FrameError::BadLevel(game) => *game,
            FrameError::UnknownGame(game)
            | FrameError::GameInPlay(game)
            | FrameError::NotYourGame(game)
            | FrameError::GameOver(game)
            | FrameError::AboutGame(_, game) => Some(*game),
            _ => None,
        }
    }

    /// The `error` frame the client gets.
    pub fn to_frame(&self) -> Utf8Bytes {
        if let FrameError::Store(e) = self {
            tracing::error!(error = %e, "request failed");
        }
        if let FrameError::AboutGame(refusal, game) = self {
            if let FrameError::Store(e) = refusal.as_ref() {
                tracing::error!(error = %e, %game, "request failed");
            }
        }
        if let FrameError::Unavailable(e) = self {
            tracing::warn!(error = %e, "a seek refused: Redis out of reach");
        }
        error_text(self.code(), &self.to_string(), self.game())
    }
}
