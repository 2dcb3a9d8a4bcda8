use std::sync::Arc;

use axum::extract::FromRef;
use tokio::sync::watch;

use crate::config::Config;
use crate::metrics::Metrics;
use jungle_rooms::lobby::Lobby;
use jungle_rooms::{RoomContext, Rooms};
use jungle_store::Store;

/// Everything a request handler may need, behind one pointer: every connection's task and
/// session hold it, and a copy of the whole (two kilobytes of handles) in each was a third of
/// an idle connection's memory.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }
}

/// Each feature's handlers take their own state, not all of this one.
impl FromRef<AppState> for jungle_puzzles::PuzzlesState {
    fn from_ref(state: &AppState) -> Self {
        state.puzzles.clone()
    }
}

impl FromRef<AppState> for jungle_accounts::AccountsState {
    fn from_ref(state: &AppState) -> Self {
        jungle_accounts::AccountsState {
            store: state.store.clone(),
            limits: state.limits.clone(),
            origins: state.origins.clone(),
            public_url: state.public_url.clone(),
            mail_on: state.mailer.is_on(),
            hasher: state.hasher.clone(),
            open_sessions: state.open_sessions.clone(),
            failed_sign_ins: state.failed_sign_ins.clone(),
        }
    }
}

impl FromRef<AppState> for crate::api::ApiState {
    fn from_ref(state: &AppState) -> Self {
        crate::api::ApiState {
            store: state.store.clone(),
            limits: state.limits.clone(),
            origins: state.origins.clone(),
            public_url: state.public_url.clone(),
            metrics: state.metrics.clone(),
            online: state.online.clone(),
            reach: state.reach.clone(),
            rooms: state.rooms.clone(),
        }
    }
}

impl FromRef<AppState> for jungle_bot_api::BotApiState {
    fn from_ref(state: &AppState) -> Self {
        // Built once, at the first request; each then shares it.
        let services = || jungle_bot_api::BotApiServices {
            store: state.store.clone(),
            limits: state.limits.clone(),
            origins: state.origins.clone(),
            chat: state.config.chat,
            shutdown: state.shutdown.clone(),
            room_ctx: state.room_ctx.clone(),
            online: state.online.clone(),
            reach: state.reach.clone(),
            challenges: state.challenges.clone(),
            directors: state.directors.clone(),
            bot_streams: state.bot_streams.clone(),
            bot_actions: state.bot_actions.clone(),
            event_streams: state.event_streams.clone(),
        };
        state
            .bot_api
            .get_or_init(|| jungle_bot_api::BotApiState::new(services()))
            .clone()
    }
}

impl FromRef<AppState> for jungle_correspondence::CorrespondenceState {
    fn from_ref(state: &AppState) -> Self {
        jungle_correspondence::CorrespondenceState {
            store: state.store.clone(),
            limits: state.limits.clone(),
            origins: state.origins.clone(),
            room_ctx: state.room_ctx.clone(),
        }
    }
}

impl FromRef<AppState> for jungle_learn::LearnState {
    fn from_ref(state: &AppState) -> Self {
        jungle_learn::LearnState {
            store: state.store.clone(),
            limits: state.limits.clone(),
        }
    }
}

impl FromRef<AppState> for jungle_correspondence::MailState {
    fn from_ref(state: &AppState) -> Self {
        jungle_correspondence::MailState {
            store: state.store.clone(),
            limits: state.limits.clone(),
            origins: state.origins.clone(),
            mailer: state.mailer.clone(),
        }
    }
}

impl FromRef<AppState> for jungle_web_push::PushState {
    fn from_ref(state: &AppState) -> Self {
        jungle_web_push::PushState {
            store: state.store.clone(),
            limits: state.limits.clone(),
            origins: state.origins.clone(),
            pusher: state.pusher.clone(),
        }
    }
}

impl FromRef<AppState> for jungle_tournaments::TournamentsState {
    fn from_ref(state: &AppState) -> Self {
        jungle_tournaments::TournamentsState {
            store: state.store.clone(),
            limits: state.limits.clone(),
            origins: state.origins.clone(),
            room_ctx: state.room_ctx.clone(),
            rooms: state.rooms.clone(),
            online: state.online.clone(),
            directors: state.directors.clone(),
        }
    }
}

impl FromRef<AppState> for crate::ws::WsState {
    fn from_ref(state: &AppState) -> Self {
        // Built once, at the first connection; each connection then shares it.
        let services = || crate::ws::WsServices {
            store: state.store.clone(),
            limits: state.limits.clone(),
            origins: state.origins.clone(),
            public_url: state.public_url.clone(),
            config: state.config.clone(),
            shutdown: state.shutdown.clone(),
            per_address: state.per_address.clone(),
            room_ctx: state.room_ctx.clone(),
            online: state.online.clone(),
            reach: state.reach.clone(),
            challenges: state.challenges.clone(),
            directors: state.directors.clone(),
            open_sessions: state.open_sessions.clone(),
            game_analyses: state.game_analyses.clone(),
        };
        state
            .ws
            .get_or_init(|| crate::ws::WsState::new(services()))
            .clone()
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] shares. Each field is a handle of its own, cloned where a task needs it.
pub struct Shared {
    /// Rate limits per player and per address, across connections.
    pub limits: Arc<jungle_limits::Limits>,
    /// The database pool: players, archives, ratings (reads; writes of games go through rooms).
    pub store: Store,
    /// The registry of live rooms by game id and code: the one shared index; rooms own the rest.
    pub rooms: Rooms,
    /// The matchmaking task's queue: it alone owns the seek pools.
    pub lobby: Lobby,
    /// What each room needs (the writer, the registry, timings), shared by new rooms.
    pub room_ctx: Arc<RoomContext>,
    /// The origins allowed to open a WebSocket, fixed at start.
    pub origins: Arc<jungle_web::auth::Origins>,
    /// Flips to true on shutdown; connections and rooms watch it.
    pub shutdown: watch::Receiver<bool>,
    /// Renders /metrics.
    pub metrics: Metrics,
    /// Settings read at start; never changed.
    pub config: Arc<Config>,
    /// The base of room links, without a trailing slash.
    pub public_url: Arc<str>,
    /// Connections per address (shared with the accept loop), for WebSockets that arrive
    /// through a trusted proxy and so were not counted when accepted.
    pub per_address: crate::ip_limits::IpLimits,
    /// Password hashing on a bounded set of threads.
    pub hasher: jungle_accounts::passwords::Hasher,
    /// Open WebSockets by account session, to close them when it is signed out.
    pub open_sessions: jungle_accounts::open_sessions::OpenSessions,
    /// Failed sign-ins per account, for growing waits.
    pub failed_sign_ins: Arc<jungle_accounts::throttle::FailedSignIns>,
    /// Signed-in WebSockets by player: who can be challenged, whom a ban disconnects.
    pub online: jungle_rooms::online::Online,
    /// Mails: confirmations, and a correspondence player's turn (off unless configured).
    pub mailer: jungle_mail::Mailer,
    /// Web Push: a turn over days, a challenge, a tournament about to start.
    pub pusher: jungle_web_push::Pusher,
    /// What the Bot API takes, built at its first request.
    pub bot_api: std::sync::OnceLock<jungle_bot_api::BotApiState>,
    /// What a WebSocket connection takes, built at the first.
    pub ws: std::sync::OnceLock<crate::ws::WsState>,
    /// What the puzzles' handlers take.
    pub puzzles: jungle_puzzles::PuzzlesState,
    /// The tournaments directed on this node, and who plays in them.
    pub directors: jungle_tournaments::Directors,
    /// Direct challenges waiting for an answer.
    pub challenges: jungle_rooms::challenges::Challenges,
    /// Whole-game analyses running, one per player and per game.
    pub game_analyses: crate::game_analysis::Running,
    /// Where is it: the rooms, matchmaking and players on this node or another.
    pub reach: jungle_cluster::reach::Reach,
    /// The Bot and Board APIs' open streams, per token.
    pub bot_streams: jungle_bot_api::streams::OpenStreams,
    /// The Bot and Board APIs' actions under way, per token (one at a time).
    pub bot_actions: jungle_bot_api::streams::ActionsUnderWay,
    /// The Bot and Board APIs' event streams, one per token.
    pub event_streams: jungle_bot_api::event_stream::EventStreams,
}
