//! The games and players API: guest players, profiles, games, the leaderboard, health and
//! metrics; exports ([`export`]) and the review of lines and imported games ([`review`]) beside
//! them, all in [`routes`].
//!
//! Long (about 650 lines): the public HTTP handlers for players, games and the leaderboard.

pub mod export;
pub mod review;

use jungle_web::client_addr::ClientAddr;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use jungle_protocol::http::{
    self, CreatedPlayer, GamePlayer, GamePlayers, GameSummary, Leaderboard, LeaderboardEntry,
    LiveGame, NewPlayer, PlayerProfile, GAMES_PER_PAGE,
};
use jungle_rules::Ruleset;
use serde::Deserialize;
use uuid::Uuid;

use jungle_store::StoreError;
use jungle_web::auth::{hash_token, new_token};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    BadName(#[from] NameError),
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error(transparent)]
    RateLimited(#[from] jungle_limits::RateLimited),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    ForeignOrigin(#[from] jungle_web::auth::ForeignOrigin),
    #[error("that room's game has started: it can be watched, not joined")]
    RoomStarted,
    #[error("the request's body is too large")]
    TooLarge,
    #[error("this needs a player's token")]
    NotSignedIn,
}

impl ApiError {
    /// A JSON body that did not read: too large for its route, or not what was expected.
    fn unreadable(e: axum::extract::rejection::JsonRejection, expected: &str) -> ApiError {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge
        } else {
            ApiError::BadRequest(format!("expected {expected}: {}", e.body_text()))
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, message) = match &self {
            ApiError::RateLimited(limited) => {
                let wait = limited.seconds().to_string();
                let body = Json(http::ApiError::new("rate_limited", self.to_string()));
                return (
                    StatusCode::TOO_MANY_REQUESTS,
                    [(header::RETRY_AFTER, wait)],
                    body,
                )
                    .into_response();
            }
            ApiError::BadRequest(m) => (StatusCode::BAD_REQUEST, m.clone()),
            ApiError::BadName(e) => {
                let body = http::ApiError::new(e.code(), e.to_string());
                return (StatusCode::BAD_REQUEST, Json(body)).into_response();
            }
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, self.to_string()),
            ApiError::ForeignOrigin(_) => (StatusCode::FORBIDDEN, self.to_string()),
            ApiError::RoomStarted => (StatusCode::CONFLICT, self.to_string()),
            ApiError::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, self.to_string()),
            ApiError::NotSignedIn => (StatusCode::UNAUTHORIZED, self.to_string()),
            ApiError::Store(e) => {
                tracing::error!(error = %e, "api request failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "something went wrong on our side".to_owned(),
                )
            }
        };
        let code = match &self {
            ApiError::NotFound(_) => "not_found",
            ApiError::Store(_) => "internal",
            ApiError::ForeignOrigin(_) => "foreign_origin",
            ApiError::RoomStarted => "room_started",
            ApiError::TooLarge => "too_large",
            ApiError::NotSignedIn => "not_signed_in",
            _ => "bad_request",
        };
        let body = http::ApiError::new(code, message);
        (status, Json(body)).into_response()
    }
}

/// Why a display name was refused; each has a stable code the client translates.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("the name is empty")]
    Empty,
    #[error("the name has {0} characters; at most 24 are allowed")]
    TooLong(usize),
    #[error("the name may hold letters, digits, spaces, _ and -, not {0:?}")]
    BadCharacter(char),
    #[error("the name may not hold blank-looking or invisible characters")]
    Blank,
    #[error("{0:?} is an account's name, or looks like one; choose another")]
    Taken(String),
    #[error("{0:?}: names starting with \"computer\" are the computer's; choose another")]
    Reserved(String),
}

impl NameError {
    pub fn code(&self) -> &'static str {
        match self {
            NameError::Empty => "name_empty",
            NameError::TooLong(_) => "name_too_long",
            NameError::BadCharacter(_) => "name_characters",
            NameError::Blank => "name_blank",
            NameError::Taken(_) => "name_taken",
            NameError::Reserved(_) => "name_reserved",
        }
    }
}

/// Trims and checks a display name: 1–24 letters, digits, spaces, `_` or `-`.
pub fn validate_name(raw: &str) -> Result<String, NameError> {
    let name = raw.trim();
    let length = name.chars().count();
    if length == 0 {
        return Err(NameError::Empty);
    }
    if length > 24 {
        return Err(NameError::TooLong(length));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || *c == ' ' || *c == '_' || *c == '-'))
    {
        return Err(NameError::BadCharacter(bad));
    }
    if jungle_game::names::looks_blank(name) {
        return Err(NameError::Blank);
    }
    Ok(name.to_owned())
}

/// A guest's display name, checked: its form, and no look-alike of an account's name or the
/// computer's.
async fn guest_name(state: &ApiState, raw: &str) -> Result<String, ApiError> {
    let name = validate_name(raw)?;
    let keys = jungle_game::names::name_keys(&name);
    if keys
        .skeleton
        .starts_with(&jungle_game::names::name_keys("computer").skeleton)
    {
        return Err(NameError::Reserved(name).into());
    }
    if state.store.account_name_clashes(&keys).await? {
        return Err(NameError::Taken(name).into());
    }
    Ok(name)
}

/// A request about a guest's name: counted against the address (with guest creation), and
/// its body read.
fn guest_request<T>(
    state: &ApiState,
    client: std::net::IpAddr,
    body: Result<Json<T>, axum::extract::rejection::JsonRejection>,
) -> Result<T, ApiError> {
    state
        .limits
        .check(jungle_limits::Limited::NewGuest, None, client)?;
    let Json(body) = body.map_err(|e| ApiError::unreadable(e, "{\"name\": …}"))?;
    Ok(body)
}

/// `POST /api/players/me/name`: a guest changes their display name (an account's is its
/// username). Games already stored keep the name they were played under.
pub async fn rename_guest(
    State(state): State<ApiState>,
    ClientAddr(client): ClientAddr,
    headers: axum::http::HeaderMap,
    body: Result<Json<http::NewName>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<PlayerProfile>, ApiError> {
    jungle_web::auth::same_origin(&state.origins, &headers)?;
    let token = jungle_web::auth::presented_token(&headers).ok_or(ApiError::NotSignedIn)?;
    let guest = state
        .store
        .player_by_token_hash(&hash_token(&token))
        .await?
        .ok_or(ApiError::NotFound("player"))?;
    let body = guest_request(&state, client, body)?;
    let name = guest_name(&state, &body.name).await?;
    state.store.rename_guest(guest.id, &name).await?;
    player(State(state), Path(guest.id)).await
}

pub async fn create_player(
    State(state): State<ApiState>,
    ClientAddr(client): ClientAddr,
    body: Result<Json<NewPlayer>, axum::extract::rejection::JsonRejection>,
) -> Result<(StatusCode, Json<CreatedPlayer>), ApiError> {
    let body = guest_request(&state, client, body)?;
    let name = match &body.name {
        Some(name) => guest_name(&state, name).await?,
        None => {
            let mut digits = [0u8; 2];
            getrandom::fill(&mut digits).expect("system randomness");
            format!("Guest-{:04}", u16::from_le_bytes(digits) % 10_000)
        }
    };
    let token = new_token();
    let player = state
        .store
        .create_player(&name, &hash_token(&token))
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedPlayer {
            id: player.id,
            name: player.name,
            token,
        }),
    ))
}

pub async fn player(
    State(state): State<ApiState>,
    Path(id): Path<Uuid>,
) -> Result<Json<PlayerProfile>, ApiError> {
    let mut profile = state
        .store
        .profile(id)
        .await?
        .ok_or(ApiError::NotFound("player"))?;
    profile.online = state.online.is_online(id);
    Ok(Json(profile))
}

#[derive(Deserialize)]
pub struct GamesQuery {
    rules: Option<String>,
    page: Option<i64>,
}

/// `GET /api/players/{id}/games?page=N&rules=R`: a page of [`GAMES_PER_PAGE`] games, newest
/// first, of one ruleset or all.
pub async fn player_games(
    State(state): State<ApiState>,
    Path(id): Path<Uuid>,
    Query(q): Query<GamesQuery>,
    headers: axum::http::HeaderMap,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    state
        .store
        .player(id)
        .await?
        .ok_or(ApiError::NotFound("player"))?;
    let rules =
        match q.rules.as_deref().filter(|r| !r.is_empty()) {
            Some(name) => Some(name.parse().map_err(|e: jungle_rules::ParseRulesetError| {
                ApiError::BadRequest(e.to_string())
            })?),
            None => None,
        };
    let page = q.page.unwrap_or(1);
    if !(1..=10_000).contains(&page) {
        return Err(ApiError::BadRequest("page must be from 1 to 10000".into()));
    }
    let offset = (page - 1) * GAMES_PER_PAGE;
    // A private room's game in play is listed to its own player only.
    let own = jungle_web::identity::player_of(&state.store, &headers)
        .await?
        .is_some_and(|p| p.id == id);
    let games = state
        .store
        .player_games(id, rules, offset, GAMES_PER_PAGE, own)
        .await?;
    Ok(Json(games))
}

/// A stored game the request may see: not a private game in play unless the request is one
/// of its players'.
pub async fn visible_game(
    state: &ApiState,
    id: Uuid,
    headers: &axum::http::HeaderMap,
    client: std::net::IpAddr,
) -> Result<jungle_store::GameRecord, ApiError> {
    let header = state
        .store
        .game_without_moves(id)
        .await?
        .ok_or(ApiError::NotFound("game"))?;
    // A game in progress has its latest turns in the move log, which is scanned.
    if header.status == jungle_protocol::GameStatus::Active {
        state
            .limits
            .check(jungle_limits::Limited::LiveGameReads, None, client)?;
    }
    let record = state.store.with_moves(header).await?;
    if record.private_in_play() {
        let viewer = jungle_web::identity::player_of(&state.store, headers)
            .await?
            .map(|p| p.id);
        if viewer != Some(record.red) && viewer != Some(record.blue) {
            return Err(ApiError::NotFound("game"));
        }
    }
    Ok(record)
}

#[derive(Deserialize)]
pub struct LeaderboardQuery {
    rules: Option<String>,
    /// The bots' leaderboard in place of the people's.
    bots: Option<bool>,
    /// A rating history: `correspondence` for games over days (else games in one sitting).
    speed: Option<String>,
}

/// `GET /api/players/{id}/ratings?rules=…[&speed=correspondence]`: the rating after each
/// rated game (the last 500).
pub async fn rating_history(
    State(state): State<ApiState>,
    Path(id): Path<Uuid>,
    Query(q): Query<LeaderboardQuery>,
) -> Result<Json<Vec<jungle_protocol::http::RatingPoint>>, ApiError> {
    let rules = ruleset_of(&q)?;
    let correspondence = match q.speed.as_deref() {
        None | Some("real_time") => false,
        Some("correspondence") => true,
        Some(_) => {
            return Err(ApiError::BadRequest(
                "speed is real_time or correspondence".into(),
            ))
        }
    };
    let pool = jungle_game::rating::RatingPool {
        rules,
        correspondence,
    };
    let points = state.store.rating_history(id, pool, 500).await?;
    Ok(Json(
        points
            .into_iter()
            .map(|(at, rating)| jungle_protocol::http::RatingPoint { at, rating })
            .collect(),
    ))
}

/// `GET /api/users/{username}`: an account's profile, found by its username.
pub async fn account_profile(
    State(state): State<ApiState>,
    Path(username): Path<String>,
) -> Result<Json<PlayerProfile>, ApiError> {
    let id = state
        .store
        .player_by_username(&username)
        .await?
        .ok_or(ApiError::NotFound("player"))?;
    player(State(state), Path(id)).await
}

fn ruleset_of(q: &LeaderboardQuery) -> Result<Ruleset, ApiError> {
    q.rules
        .as_deref()
        .unwrap_or("classic")
        .parse()
        .map_err(|e: jungle_rules::ParseRulesetError| ApiError::BadRequest(e.to_string()))
}

pub async fn leaderboard(
    State(state): State<ApiState>,
    Query(q): Query<LeaderboardQuery>,
) -> Result<Json<Leaderboard>, ApiError> {
    let rules = ruleset_of(&q)?;
    let entries = |rows: Vec<(jungle_store::PlayerRecord, jungle_store::RatingRecord)>| {
        rows.into_iter()
            .map(|(p, r)| LeaderboardEntry {
                id: p.id,
                name: p.name,
                rating: r.rating.round() as i64,
                deviation: r.deviation.round() as i64,
                provisional: r.provisional,
                games: r.games,
            })
            .collect()
    };
    // Bots are ranked apart from people (`bots=true`), never among them.
    let bots = q.bots.unwrap_or(false);
    let players = entries(state.store.leaderboard(rules, 100, false, bots).await?);
    let provisional = entries(state.store.leaderboard(rules, 50, true, bots).await?);
    Ok(Json(Leaderboard {
        rules,
        players,
        provisional,
    }))
}

/// `GET /api/seeks`: the seeks waiting in the lobby, longest-waiting first.
pub async fn open_seeks(State(state): State<ApiState>) -> Json<Vec<http::OpenSeek>> {
    Json(state.reach.open_seeks().await)
}

/// The games in progress: this node's, or every node's as they last published them.
/// The longest room code a link may carry (the client's route allows as many).
const MAX_ROOM_CODE: usize = 12;

/// `GET /api/rooms/{code}`: what a room link's visitor is invited to. Looking a code up counts
/// as a `join_room` lookup of the address, and a code that names no waiting room costs as a
/// wrong guess there does, so that the page is no faster a way to guess codes than the socket.
pub async fn room_invite(
    State(state): State<ApiState>,
    ClientAddr(client): ClientAddr,
    Path(code): Path<String>,
) -> Result<Json<http::RoomInvite>, ApiError> {
    state
        .limits
        .check(jungle_limits::Limited::JoinRoom, None, client)?;
    let code = code.trim().to_ascii_uppercase();
    let readable = !code.is_empty()
        && code.len() <= MAX_ROOM_CODE
        && code.bytes().all(|b| b.is_ascii_alphanumeric());
    let room = match readable {
        true => state.store.waiting_room_by_code(&code).await?,
        false => None,
    };
    let Some(room) = room else {
        // A room whose game is under way: its link lets one watch (no guess: no charge).
        if readable && state.reach.room_by_code(&code).await.is_some() {
            return Err(ApiError::RoomStarted);
        }
        state.limits.charge_miss(client);
        return Err(ApiError::NotFound("room"));
    };
    let host = state
        .store
        .player(room.host)
        .await?
        .ok_or(ApiError::NotFound("room"))?;
    let pool = jungle_game::rating::RatingPool::of(room.ruleset, room.clock);
    let rating = state.store.rating(room.host, pool).await?;
    Ok(Json(http::RoomInvite {
        code: room.code,
        host_id: host.id,
        host: host.name,
        host_rating: rating.rating.round() as i32,
        host_provisional: rating.provisional,
        rules: room.ruleset,
        clock: room.clock,
        rated: room.rated,
        host_colour: room.color,
        start: room.start,
    }))
}

pub async fn live_games(State(state): State<ApiState>) -> Json<Vec<LiveGame>> {
    Json(state.reach.live_games().await)
}

pub async fn game(
    State(state): State<ApiState>,
    Path(id): Path<Uuid>,
    headers: axum::http::HeaderMap,
    client: std::net::IpAddr,
) -> Result<Json<http::GameRecord>, ApiError> {
    let record = visible_game(&state, id, &headers, client).await?;
    let player = |id: Uuid, name: &str, rating: i32| GamePlayer {
        id,
        name: name.to_owned(),
        rating,
        computer: jungle_game::computer::bot_level(id),
    };
    // The replay: each turn's position and capture, played again here (the rules are fast; a
    // game of 300 turns takes well under a millisecond).
    let replay = jungle_game::replay::as_far_as_it_goes(&record);
    let positions: Vec<String> = replay.positions().skip(1).map(|p| p.to_string()).collect();
    let captures: Vec<_> = replay.history().iter().map(|t| t.captured).collect();
    let clocks = record
        .moves
        .iter()
        .map(|m| http::ClockAfter {
            red_ms: m.clock.red_ms.max(0) as u64,
            blue_ms: m.clock.blue_ms.max(0) as u64,
        })
        .collect();
    let result = match (record.winner, record.reason) {
        (Some(side), _) => side.name(),
        (None, Some(_)) => "draw",
        (None, None) => "",
    };
    Ok(Json(http::GameRecord {
        id: record.id,
        rules: record.rules,
        clock: record.clock,
        rated: record.rated,
        players: GamePlayers {
            red: player(record.red, &record.red_name, record.red_rating),
            blue: player(record.blue, &record.blue_name, record.blue_rating),
        },
        start: record.start.clone(),
        moves: record.moves.iter().map(|m| m.mv.clone()).collect(),
        status: record.status,
        result: result.to_owned(),
        winner: record.winner,
        reason: record.reason,
        rating_applied: record.rating_applied,
        rating_change: record.rating_change,
        created_at: record.created_at,
        ended_at: record.ended_at,
        positions,
        captures,
        clocks,
    }))
}

pub async fn healthz(State(state): State<ApiState>) -> Response {
    if state.store.ping().await {
        (StatusCode::OK, "ok").into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "database unreachable").into_response()
    }
}

pub async fn metrics(State(state): State<ApiState>) -> Response {
    metrics::gauge!("jungle_live_rooms_indexed").set(state.rooms.live_count() as f64);
    metrics::gauge!("jungle_games_asleep").set(state.rooms.asleep_count() as f64);
    if let Some(bytes) = resident_memory_bytes() {
        metrics::gauge!("process_resident_memory_bytes").set(bytes as f64);
    }
    if let Some(seconds) = cpu_seconds() {
        // Prometheus's usual name; a gauge here, read as a counter (it only grows).
        metrics::gauge!("process_cpu_seconds_total").set(seconds);
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
        .into_response()
}

/// The CPU time this process has used, user and system, in seconds, from /proc (Linux only):
/// what a benchmark divides by the moves it made.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces: the fields are counted after its closing parenthesis
    // (utime and stime are the 14th and 15th fields, the 12th and 13th after it).
    let after = &stat[stat.rfind(')')? + 2..];
    let mut fields = after.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (ticks > 0).then(|| (user + system) as f64 / ticks as f64)
}

/// This process's resident memory, from /proc (Linux only).
fn resident_memory_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(validate_name("  Ada Lovelace "), Ok("Ada Lovelace".into()));
        assert_eq!(validate_name(" "), Err(NameError::Empty));
        assert_eq!(validate_name("小明_2-x"), Ok("小明_2-x".into()));
        assert!(validate_name("").is_err());
        assert!(validate_name("   ").is_err());
        assert!(validate_name(&"x".repeat(25)).is_err());
        assert!(validate_name("<script>").is_err());
        assert!(validate_name("Robert'); DROP TABLE players;--").is_err());
    }
}

/// What the games and players API takes (and the exports). The server gives it from its own state (`FromRef`); cloning shares.
#[derive(Clone)]
pub struct ApiState {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: std::sync::Arc<jungle_limits::Limits>,
    /// The origins a browser may act from.
    pub origins: std::sync::Arc<jungle_web::auth::Origins>,
    /// The base of links, without a trailing slash.
    pub public_url: std::sync::Arc<str>,
    /// Renders /metrics.
    pub metrics: crate::metrics::Metrics,
    /// The players connected to this node.
    pub online: jungle_rooms::online::Online,
    /// Where a game, a room or a seek is, on this node or another.
    pub reach: jungle_cluster::reach::Reach,
    /// The rooms of this node, by game and code.
    pub rooms: jungle_rooms::Rooms,
}

/// The games and players API (with the exports and the review of lines), for a router whose
/// state gives an [`ApiState`].
pub fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    ApiState: axum::extract::FromRef<S>,
{
    use axum::extract::DefaultBodyLimit;
    use axum::routing::{get, post};
    use jungle_protocol::http::MAX_LINE_BYTES;
    axum::Router::new()
        .route("/api/players", post(create_player))
        .route("/api/players/me/name", post(rename_guest))
        .route("/api/players/{id}", get(player))
        .route("/api/players/{id}/games", get(player_games))
        .route("/api/players/{id}/ratings", get(rating_history))
        .route("/api/users/{username}", get(account_profile))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/games/live", get(live_games))
        .route("/api/rooms/{code}", get(room_invite))
        .route("/api/seeks", get(open_seeks))
        .route("/api/games/{id}", get(export::game_or_text))
        .route("/api/players/{id}/games.jgn", get(export::player_games))
        .route(
            "/api/lines",
            post(review::line).layer(DefaultBodyLimit::max(MAX_LINE_BYTES)),
        )
        .route(
            "/api/games/import",
            post(review::import).layer(DefaultBodyLimit::max(MAX_LINE_BYTES)),
        )
}
