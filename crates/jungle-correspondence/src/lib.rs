//! Correspondence and mail (issue 28): games over days. The clock and the session's rules for
//! them live with the other clocks (`jungle_game::clock`, `jungle_game::session`), who may
//! start one with the rooms that start them (`jungle_rooms::correspondence`), and the mailer in
//! `jungle-mail`; here are the games waiting for a player's move ([`waiting`]), the vacations
//! that pause their clocks ([`vacation`]) and a player's mail address ([`mail_address`]: give
//! one, confirm it by its link, take it back, unsubscribe without signing in).
//!
//! A feature that wires itself: [`routes`], [`start`], and the states its handlers take.

pub mod mail_address;
pub mod vacation;
pub mod waiting;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::get;
use axum::Router;
use tokio::sync::watch;

/// What the waiting list and the vacations take. The server gives it from its own state
/// (`FromRef`); cloning shares.
#[derive(Clone)]
pub struct CorrespondenceState {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: Arc<jungle_limits::Limits>,
    /// The origins a browser may act from.
    pub origins: Arc<jungle_web::auth::Origins>,
    /// The rooms' context, for the time games see (tests move it by days).
    pub room_ctx: Arc<jungle_rooms::RoomContext>,
}

/// What the mail address handlers take. The server gives it from its own state (`FromRef`);
/// cloning shares.
#[derive(Clone)]
pub struct MailState {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: Arc<jungle_limits::Limits>,
    /// The origins a browser may act from.
    pub origins: Arc<jungle_web::auth::Origins>,
    /// Mails (off unless configured).
    pub mailer: jungle_mail::Mailer,
}

/// The routes, for a router whose state gives both states.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    CorrespondenceState: FromRef<S>,
    MailState: FromRef<S>,
{
    Router::new()
        .route("/api/account/games/waiting", get(waiting::waiting))
        .route(
            "/api/account/vacation",
            get(vacation::show)
                .post(vacation::start)
                .delete(vacation::end),
        )
        .route(
            "/api/account/email",
            get(mail_address::show)
                .put(mail_address::set)
                .delete(mail_address::remove),
        )
        .route("/api/mail/confirm", get(mail_address::confirm))
        .route(
            "/api/mail/unsubscribe",
            get(mail_address::unsubscribe).post(mail_address::unsubscribe),
        )
}

/// At the server's start: every node tells its rooms of the vacations that begin.
pub fn start(
    store: jungle_store::Store,
    rooms: jungle_rooms::Rooms,
    shutdown: watch::Receiver<bool>,
) {
    tokio::spawn(vacation::tell_rooms(store, rooms, shutdown));
}
