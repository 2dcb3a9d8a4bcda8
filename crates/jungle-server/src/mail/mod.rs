//! A player's mail address over HTTP (issue 28): give one, confirm it by its link, take it
//! back, unsubscribe without signing in. The mailer itself is `jungle-mail`.

pub mod api;

/// What the mail address handlers take. The server gives it from its own state (`FromRef`); cloning shares.
#[derive(Clone)]
pub struct MailState {
    /// The database.
    pub store: jungle_store::Store,
    /// Rate limits per player and per address.
    pub limits: std::sync::Arc<jungle_limits::Limits>,
    /// The origins a browser may act from.
    pub origins: std::sync::Arc<jungle_web::auth::Origins>,
    /// Mails (off unless configured).
    pub mailer: jungle_mail::Mailer,
}
