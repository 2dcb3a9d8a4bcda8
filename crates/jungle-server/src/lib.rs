//! The Jungle Arena server: it speaks HTTP and WebSocket and assembles the crates below it (the
//! rooms, the cluster, each feature), in one place and in order: [`Server::start`].
//!
//! [`Server::start`] runs one on the configured address (port 0 for tests) and returns a handle
//! with the bound address and a graceful [`Server::shutdown`]. The route table is
//! `routes.rs`; what each feature's handlers take is given by [`state`].

pub mod admin;
pub mod api;
pub mod assets;
pub mod config;
pub mod game_analysis;
pub mod http_server;
mod idle_watch;
pub mod ip_limits;
pub mod metrics;
pub mod moderation;
mod receiving;
mod request_body;
mod routes;
pub mod security_headers;
pub mod state;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::routing::get;
use axum::Router;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use config::Config;
use ip_limits::IpLimits;
use jungle_rooms::lobby::Lobby;
use jungle_rooms::{open, RoomContext, Rooms, Timing};
use jungle_store::persist::{self, Persister};
use jungle_store::{Store, StoreError};
use jungle_web::auth::Origins;
use state::AppState;

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("could not open the database: {0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Cluster(#[from] jungle_cluster::ClusterError),
    #[error("could not listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("mail: {0}")]
    Mail(String),
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    serving: JoinHandle<()>,
    /// The `/metrics` server, when it has an address of its own.
    metrics_serving: Option<JoinHandle<()>>,
    metrics_addr: Option<SocketAddr>,
    writer: persist::Writer,
    store: Store,
    rooms: Rooms,
    cluster: Option<jungle_cluster::Cluster>,
}

/// Connections the kernel holds for us before we accept them, at most (it caps this at its
/// `somaxconn`). Under a flood of connections (slowloris, thousands a second) the usual 128
/// filled up, and an honest client's connection was dropped and tried again a second later.
const LISTEN_BACKLOG: u32 = 4096;

/// The server's listening socket on `addr`.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server takes its port back at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

impl Server {
    /// Opens the database (running migrations), resumes unfinished games, and starts serving.
    pub async fn start(config: Config) -> Result<Server, ServerError> {
        let metrics = metrics::Metrics::install();
        let cluster = match &config.redis_url {
            Some(url) => Some(
                jungle_cluster::Cluster::connect(url, config.node_id.clone(), &config.database_url)
                    .await?,
            ),
            None => None,
        };
        // A game's end runs, in the transaction that stores it, the store's own parts and each
        // domain's, in this order: tournament points, then fair play's rule that a marked
        // engine user's games move no rating (before the store's ratings part).
        let game_end = jungle_store::GameEnd::with(vec![
            Arc::new(jungle_tournaments::scoring::TournamentScored),
            Arc::new(jungle_rooms::fair_play::engine_marks::EngineUsersUnrated),
        ]);
        let store = Store::open(&config.database_url)
            .await?
            .with_game_end(game_end);
        store.ensure_computer_players().await?;
        let listener = listen(config.addr).map_err(|source| ServerError::Bind {
            addr: config.addr,
            source,
        })?;
        let addr = listener.local_addr().map_err(|source| ServerError::Bind {
            addr: config.addr,
            source,
        })?;
        let public_url: Arc<str> = config.public_url(addr).into();
        let mailer = jungle_mail::Mailer::new(
            config.smtp_url.as_deref(),
            &config.mail_from,
            &public_url,
            store.clone(),
        )
        .map_err(ServerError::Mail)?;
        let pusher = jungle_web_push::Pusher::start(
            store.clone(),
            jungle_web_push::PusherConfig {
                public_url: public_url.to_string(),
                allow_loopback_endpoints: config.push_loopback_endpoints,
            },
        )
        .await?;
        // Whose move it is over days, a challenge, a tournament about to start: mail and push
        // each decide what goes.
        let notices: Arc<dyn jungle_rooms::notices::PlayerNotices> =
            Arc::new(jungle_rooms::notices::AllNotices(vec![
                Arc::new(mailer.clone()),
                Arc::new(pusher.clone()),
            ]));
        let (shutdown_tx, shutdown_rx) = watch::channel(false);
        // Turns a stop left in the move log join their games before any game resumes.
        let folded = store.fold_move_log().await?;
        if folded > 0 {
            tracing::info!(turns = folded, "the move log was folded");
        }
        let (persister, writer) = Persister::start(store.clone());
        let rooms = Rooms::default();
        let live_positions = jungle_rooms::fair_play::LivePositions::default();
        let peers = cluster.clone().map(|c| {
            jungle_cluster::positions::Peers::start(c, live_positions.clone(), shutdown_rx.clone())
        });
        // Engine searches share the machine with the server: at most one thread per core.
        let engines = jungle_rooms::engine_pool::EnginePool::new(
            std::thread::available_parallelism().map_or(2, |n| n.get()),
        );
        let limits = Arc::new(jungle_limits::Limits::new(!config.no_rate_limits));
        // One straight line: the cluster, its outboxes, reaching players, the services, and
        // last the inbox that delivers to them.
        let online = jungle_rooms::online::Online::default();
        let outboxes = cluster.clone().map(jungle_cluster::outbox::Outboxes::new);
        let presence = cluster.clone().zip(outboxes.clone()).map(|(c, o)| {
            jungle_cluster::presence::Presence::start(c, o, online.clone(), shutdown_rx.clone())
        });
        let players = jungle_cluster::seams::players(online.clone(), presence.clone());
        // A game's end, once durable, is heard by the tournaments (points are already stored;
        // re-pairing, pausing who never played) and by fair play (the assessment).
        let directors = jungle_tournaments::Directors::new(players.clone());
        let assessor = jungle_rooms::fair_play::assessor::Assessor::start(
            engines.clone(),
            store.clone(),
            shutdown_rx.clone(),
        );
        let game_end: jungle_rooms::game_end::GameEndListeners =
            Arc::new([Arc::new(directors.clone()) as _, Arc::new(assessor) as _]);
        let room_ctx = Arc::new(RoomContext {
            fair_play: jungle_rooms::fair_play::FairPlay::new(
                live_positions,
                store.clone(),
                jungle_cluster::seams::other_nodes(peers),
            ),
            limits: limits.clone(),
            game_end,
            persister,
            engines,
            rooms: rooms.clone(),
            store: store.clone(),
            timing: Timing::new(config.disconnect_grace(), config.abort_after()),
            shutdown: shutdown_rx.clone(),
            claims: jungle_cluster::seams::claims(cluster.clone()),
            time: config.time.clone(),
            notices: notices.clone(),
        });
        jungle_rooms::asleep::let_games_sleep(&room_ctx, config.idle_game());
        jungle_tournaments::schedule::ensure_organiser(&store).await?;
        jungle_puzzles::start(
            store.clone(),
            room_ctx.engines.clone(),
            !config.no_puzzle_mining,
            shutdown_rx.clone(),
        );
        match &cluster {
            None => {
                open::resume_all(&room_ctx).await?;
                open::restore_all_waiting(&room_ctx).await?;
                jungle_tournaments::director::direct_all(&room_ctx, &directors, &online).await?;
                tokio::spawn(jungle_tournaments::schedule::run(
                    config.schedules.clone(),
                    room_ctx.clone(),
                    directors.clone(),
                    online.clone(),
                    shutdown_rx.clone(),
                ));
            }
            // Games in progress, waiting private rooms and tournaments are taken on by
            // whichever node finds them without a lease (the lease keeper, started with the
            // inbox below).
            Some(cluster) => {
                tracing::info!(node = cluster.node(), "joining the cluster");
                // Every node looks; the first to store an arena directs it.
                tokio::spawn(jungle_tournaments::schedule::run(
                    config.schedules.clone(),
                    room_ctx.clone(),
                    directors.clone(),
                    online.clone(),
                    shutdown_rx.clone(),
                ));
            }
        }
        let lobby = Lobby::start(room_ctx.clone(), shutdown_rx.clone());
        tokio::spawn(sweep_limits(limits.clone(), shutdown_rx.clone()));
        jungle_correspondence::start(store.clone(), rooms.clone(), shutdown_rx.clone());
        tokio::spawn(moderation::apply_bans(
            store.clone(),
            rooms.clone(),
            online.clone(),
            shutdown_rx.clone(),
        ));
        let challenges = jungle_rooms::challenges::Challenges::new(players, notices);
        let across = cluster
            .clone()
            .zip(outboxes)
            .zip(presence)
            .map(|((c, o), p)| {
                jungle_cluster::across::Across::start(
                    c,
                    o,
                    p,
                    rooms.clone(),
                    lobby.clone(),
                    shutdown_rx.clone(),
                )
            });
        if let (Some(cluster), Some(across)) = (&cluster, &across) {
            let adopting = jungle_cluster::adopting::Adopting::new(rooms.clone());
            let services = jungle_cluster::inbox::Services {
                adopting: adopting.clone(),
                outboxes: across.outboxes.clone(),
                followers: across.followers.clone(),
                proxies: across.proxies.clone(),
                matching: across.matching.clone(),
                lobby: lobby.clone(),
                challenges: challenges.clone(),
                online: online.clone(),
                ctx: room_ctx.clone(),
                directors: directors.clone(),
            };
            jungle_cluster::inbox::start(cluster.clone(), services, shutdown_rx.clone());
            tokio::spawn(jungle_cluster::leases::keep(
                cluster.clone(),
                room_ctx.clone(),
                directors.clone(),
                online.clone(),
                across.proxies.clone(),
                adopting,
                shutdown_rx.clone(),
            ));
        }
        let reach = jungle_cluster::reach::Reach::new(
            rooms.clone(),
            lobby.clone(),
            challenges.clone(),
            across,
        );
        let origins = Arc::new(Origins::new(&config.allowed_origins, &public_url));
        let puzzles = jungle_puzzles::PuzzlesState {
            store: store.clone(),
            limits: limits.clone(),
            origins: origins.clone(),
            fair_play: room_ctx.fair_play.clone(),
            theme_counts: Default::default(),
        };
        let state = AppState::new(state::Shared {
            reach,
            puzzles,
            ws: Default::default(),
            bot_api: Default::default(),
            bot_streams: Default::default(),
            bot_actions: Default::default(),
            event_streams: Default::default(),
            challenges,
            game_analyses: Default::default(),
            online,
            limits,
            store: store.clone(),
            rooms: rooms.clone(),
            lobby,
            room_ctx,
            directors,
            mailer,
            pusher,
            origins,
            shutdown: shutdown_rx.clone(),
            metrics,
            public_url,
            config: Arc::new(config.clone()),
            per_address: IpLimits::new(config.max_connections_per_ip),
            // Two hashes at once: 2 × 19 MiB, and sign-ins queue instead of taking the cores.
            hasher: jungle_accounts::passwords::Hasher::new(2),
            failed_sign_ins: Arc::default(),
            open_sessions: Default::default(),
        });
        let mut metrics_bound = None;
        let metrics_serving = match config.metrics_addr {
            Some(metrics_addr) => {
                let bind_error = |source| ServerError::Bind {
                    addr: metrics_addr,
                    source,
                };
                let listener = tokio::net::TcpListener::bind(metrics_addr)
                    .await
                    .map_err(bind_error)?;
                let metrics_addr = listener.local_addr().map_err(bind_error)?;
                metrics_bound = Some(metrics_addr);
                let app = Router::new()
                    .route("/metrics", get(api::metrics))
                    .with_state(state.clone());
                let mut stop = shutdown_rx.clone();
                tracing::info!(addr = %metrics_addr, "metrics served apart");
                Some(tokio::spawn(async move {
                    let serve = axum::serve(listener, app).with_graceful_shutdown(async move {
                        let _ = stop.wait_for(|down| *down).await;
                    });
                    if let Err(e) = serve.await {
                        tracing::error!(error = %e, "the metrics server stopped with an error");
                    }
                }))
            }
            None => None,
        };
        let public_metrics = metrics_serving.is_none();
        let per_address = state.per_address.clone();
        let app = routes::router(
            state,
            assets::Assets::new(config.static_dir.as_deref()),
            public_metrics,
        );
        let limits = http_server::ConnectionLimits {
            max_total: config.max_connections(),
            per_address,
            header_timeout: config.header_timeout(),
            trusted_proxies: jungle_web::client_addr::TrustedProxies::new(
                config.trusted_proxies.clone(),
            ),
            send_buffer: config.send_buffer_kib * 1024,
        };
        tracing::info!(max_connections = limits.max_total, "connection caps");
        let serving = tokio::spawn(http_server::serve(listener, app, limits, shutdown_rx));
        tracing::info!(%addr, "jungle arena listening");
        Ok(Server {
            addr,
            shutdown: shutdown_tx,
            serving,
            metrics_serving,
            metrics_addr: metrics_bound,
            writer,
            store,
            rooms,
            cluster,
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Games in progress here whose room sleeps (see `jungle_rooms::asleep`); `/metrics`
    /// shows it as `jungle_games_asleep`.
    pub fn games_asleep(&self) -> usize {
        self.rooms.asleep_count()
    }

    /// Where `/metrics` is served when it has an address of its own (`--metrics-addr`).
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
    }

    /// Stops accepting, tells every client, lets rooms finish their writes, and waits until
    /// everything acknowledged is in the database.
    pub async fn shutdown(self) {
        // The games and waiting rooms this node runs: once their writes are committed, another
        // node adopts them.
        let owned = self.rooms.leased_ids();
        let _ = self.shutdown.send(true);
        if tokio::time::timeout(Duration::from_secs(10), self.serving)
            .await
            .is_err()
        {
            tracing::warn!("connections did not close within 10 s");
        }
        if let Some(metrics) = self.metrics_serving {
            let _ = tokio::time::timeout(Duration::from_secs(5), metrics).await;
        }
        // Rooms stop on the signal and hand their last writes over; then the writer commits
        // what is queued and stops (other tasks may still hold a handle to it).
        let until = tokio::time::Instant::now() + Duration::from_secs(5);
        while !self.rooms.running_ids().is_empty() && tokio::time::Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if !self.writer.close(Duration::from_secs(30)).await {
            tracing::error!("the database writer did not drain within 30 s");
        }
        if let Some(cluster) = &self.cluster {
            match cluster.release(&owned).await {
                Ok(()) => tracing::info!(games = owned.len(), "drained: leases given up"),
                Err(e) => tracing::warn!(error = %e, "leases not given up; they expire"),
            }
            if let Err(e) = cluster.leave().await {
                tracing::warn!(error = %e, "could not say this node left; its key lapses");
            }
        }
        self.store.close().await;
        tracing::info!("stopped");
    }

    /// Waits until a shutdown is requested by Ctrl-C or SIGTERM, then shuts down.
    pub async fn run_until_signal(self) {
        wait_for_signal().await;
        tracing::info!("shutting down");
        self.shutdown().await;
    }
}

/// Forgets rate-limit keys whose buckets are full again, once a minute, so the tables hold only
/// recently active clients.
async fn sweep_limits(limits: Arc<jungle_limits::Limits>, mut shutdown: watch::Receiver<bool>) {
    let mut every = tokio::time::interval(Duration::from_secs(60));
    loop {
        tokio::select! {
            _ = every.tick() => {
                limits.sweep();
                ::metrics::gauge!("jungle_rate_limit_keys").set(limits.tracked_keys() as f64);
            }
            _ = shutdown.changed() => break,
        }
    }
}

async fn wait_for_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("signal handler");
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}
