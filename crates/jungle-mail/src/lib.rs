//! E-mail (issue 28): "your turn" in a correspondence game, to accounts that gave an address
//! and confirmed it by its link (the confirmation is the one mail an unconfirmed address ever
//! gets). At most one mail per game and turn, at most [`DAILY_CAP`] a day per player, each with
//! an unsubscribe link that works without signing in. Off unless `--smtp-url` is given. Plain
//! SMTP to a relay the operator runs (a local MTA or a relay container): TLS to the world is
//! the relay's business. Mails go out in the background; a failed one is logged, not retried
//! (a turn's mail is a courtesy, never a promise).

use std::sync::Arc;

use lettre::message::{header::ContentType, Mailbox};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use uuid::Uuid;

use jungle_store::Store;

/// Mails about turns a player gets in a day at most.
pub const DAILY_CAP: i64 = 20;

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("this server sends no mail")]
    Off,
    #[error("bad address: {0}")]
    Address(String),
    #[error("could not send: {0}")]
    Send(String),
}

/// Sends the server's mails; cheap to clone. Does nothing when mail is off.
#[derive(Clone, Default)]
pub struct Mailer {
    inner: Option<Arc<Inner>>,
}

struct Inner {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: String,
    store: Store,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer")
            .field("on", &self.inner.is_some())
            .finish()
    }
}

impl Mailer {
    /// From `--smtp-url smtp://host[:port]` and `--mail-from`; off without a URL.
    pub fn new(
        smtp_url: Option<&str>,
        from: &str,
        public_url: &str,
        store: Store,
    ) -> Result<Mailer, String> {
        let Some(url) = smtp_url else {
            return Ok(Mailer::default());
        };
        let rest = url
            .strip_prefix("smtp://")
            .ok_or_else(|| format!("--smtp-url {url:?}: only smtp://host[:port] (a relay)"))?;
        let (host, port) = match rest.trim_end_matches('/').rsplit_once(':') {
            Some((host, port)) => (
                host,
                port.parse::<u16>()
                    .map_err(|_| format!("--smtp-url {url:?}: bad port"))?,
            ),
            None => (rest.trim_end_matches('/'), 25),
        };
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(port)
            .timeout(Some(std::time::Duration::from_secs(20)))
            .build();
        let from = from
            .parse::<Mailbox>()
            .map_err(|e| format!("--mail-from {from:?}: {e}"))?;
        Ok(Mailer {
            inner: Some(Arc::new(Inner {
                transport,
                from,
                public_url: public_url.trim_end_matches('/').to_owned(),
                store,
            })),
        })
    }

    pub fn is_on(&self) -> bool {
        self.inner.is_some()
    }

    /// The site's base URL, for links in mails.
    pub fn public_url(&self) -> Option<&str> {
        self.inner.as_ref().map(|i| i.public_url.as_str())
    }

    /// Sends one plain-text mail.
    pub async fn send(&self, to: &str, subject: &str, body: String) -> Result<(), MailError> {
        let inner = self.inner.as_ref().ok_or(MailError::Off)?;
        let to: Mailbox = to
            .parse()
            .map_err(|e: lettre::address::AddressError| MailError::Address(e.to_string()))?;
        let message = Message::builder()
            .from(inner.from.clone())
            .to(to)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(body)
            .map_err(|e| MailError::Send(e.to_string()))?;
        inner
            .transport
            .send(message)
            .await
            .map_err(|e| MailError::Send(e.to_string()))?;
        Ok(())
    }

    /// It became `player`'s turn at `ply` of correspondence `game` against `opponent`: one
    /// mail, in the background, if they asked for it and none went for this turn.
    pub fn your_turn(&self, player: Uuid, game: Uuid, ply: usize, opponent: String) {
        let Some(inner) = self.inner.clone() else {
            return;
        };
        let mailer = self.clone();
        tokio::spawn(async move {
            let token = jungle_web::auth::new_token();
            let hash = jungle_web::auth::hash_token(&token);
            let claimed = inner
                .store
                .claim_turn_mail(player, game, ply as i64, &hash, DAILY_CAP)
                .await;
            let address = match claimed {
                Ok(Some(address)) => address,
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!(error = %e, "a turn's mail");
                    return;
                }
            };
            let base = &inner.public_url;
            let body = format!(
                "It is your move against {opponent} in your correspondence game.\n\n\
                 Play it: {base}/g/{game}\n\n\
                 --\nNo more mails like this one: {base}/api/mail/unsubscribe?token={token}\n"
            );
            let subject = format!("Your move against {opponent}");
            if let Err(e) = mailer.send(&address, &subject, body).await {
                tracing::warn!(error = %e, %player, "a turn's mail was not sent");
            }
        });
    }
}

/// The rooms say whose turn it is in a game over days; the mailer decides whether a mail goes.
impl jungle_rooms::notices::PlayerNotices for Mailer {
    fn your_turn(&self, player: Uuid, game: Uuid, ply: usize, opponent: String) {
        Mailer::your_turn(self, player, game, ply, opponent)
    }
}
