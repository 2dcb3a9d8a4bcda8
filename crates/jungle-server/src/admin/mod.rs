//! `jungle-server admin …`: moderation for the operator, on the server's own database (the same
//! `--database-url`), beside a running server or not. Every action is written to the audit log
//! with the operating-system user who ran it. A ban reaches a running server within seconds
//! ([`crate::moderation`]); a rename shows in games started after it.

use std::fmt::Write as _;

use clap::Subcommand;
use uuid::Uuid;

use jungle_game::names::{name_keys, validate_username};
use jungle_store::{ModerationStoreError, NamedPlayer, Store, StoreError};
use jungle_web::auth::{hash_token, new_token};

/// How long a password-reset link works.
pub const RESET_LINK_HOURS: i64 = 24;

#[derive(Clone, Debug, Subcommand)]
pub enum Command {
    /// Moderation: bans, renames, password resets, sessions, reports, the audit log.
    #[command(subcommand)]
    Admin(AdminAction),
    /// Puzzles: mine them from self-play games (the starter set was made so).
    #[command(subcommand)]
    Puzzles(PuzzlesAction),
}

#[derive(Clone, Debug, Subcommand)]
pub enum PuzzlesAction {
    /// Mine puzzles from games our engine plays against itself; prints what it rejected.
    Mine(jungle_puzzles::mine::MineArgs),
    /// Keep the puzzles of a file that hold with more thought (how the shipped set is made).
    Recheck(jungle_puzzles::mine::RecheckArgs),
    /// Write each puzzle's themes again from its line (after the detector learns a theme).
    Themes(jungle_puzzles::mine::ThemesArgs),
    /// Mine each puzzle of a file again from its position and mistake, with the miner's
    /// present rules (a quiet end, a line to its point, two measures): what holds, with its
    /// line and judgement as mined now; the tally of rejections.
    Rejudge(jungle_puzzles::mine::ThemesArgs),
    /// Keep a file's puzzles (one ruleset's) in balance: no theme but `material` on more than
    /// a quarter, den entries on at least a fifth.
    Balance(jungle_puzzles::mine::ThemesArgs),
}

/// Players are named by username (any case) or, for guests, by player id.
#[derive(Clone, Debug, Subcommand)]
pub enum AdminAction {
    /// Ban a player: signs them out everywhere, ends their games in progress as losses by
    /// `banned`, and hides them from the leaderboards.
    Ban {
        name: String,
        /// Shown to the player when they try to play.
        #[arg(long)]
        reason: String,
    },
    /// Lift a ban.
    Unban { name: String },
    /// Give an account a new username.
    Rename { name: String, new_username: String },
    /// Print a one-time link with which the account holder chooses a new password.
    ResetPassword { name: String },
    /// List a player's signed-in devices.
    Sessions { name: String },
    /// List players' reports, newest first: the open ones, or all.
    Reports {
        #[arg(long)]
        all: bool,
    },
    /// Mark a report dealt with.
    ResolveReport { id: Uuid },
    /// Show the audit log, newest first.
    Audit {
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Fair play: the players whose games or record look like engine play, strongest first.
    Queue {
        /// Cleared lines too.
        #[arg(long)]
        all: bool,
    },
    /// Fair play: a player's assessment in each of their latest rated games, and their record.
    Assessment {
        name: String,
        #[arg(long, default_value_t = 30)]
        games: i64,
    },
    /// Mark a player as an engine user: from now on their rated games change nobody's rating,
    /// and they leave the leaderboards. Their queue line is closed.
    Mark {
        name: String,
        #[arg(long)]
        reason: String,
    },
    /// Lift an engine mark.
    Unmark { name: String },
    /// Take a player off the fair-play queue: looked at, nothing found.
    Clear { name: String },
}

mod fair_play;

#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("no player is called {0:?} (give a username or a player id)")]
    NoSuchPlayer(String),
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<ModerationStoreError> for AdminError {
    fn from(e: ModerationStoreError) -> Self {
        match e {
            ModerationStoreError::Store(e) => AdminError::Store(e),
            other => AdminError::Refused(other.to_string()),
        }
    }
}

/// Who ran the command, for the audit log.
fn operator() -> String {
    let user = std::env::var("SUDO_USER")
        .or_else(|_| std::env::var("USER"))
        .unwrap_or_else(|_| "unknown".to_owned());
    user.chars().take(64).collect()
}

fn when(ms: i64) -> String {
    jungle_game::time_text::utc_minutes(ms)
}

async fn find(store: &Store, name: &str) -> Result<NamedPlayer, AdminError> {
    store
        .named_player(name, &name_keys(name))
        .await?
        .ok_or_else(|| AdminError::NoSuchPlayer(name.to_owned()))
}

/// The account `name` means; a guest has no username or password to act on.
async fn find_account(store: &Store, name: &str) -> Result<NamedPlayer, AdminError> {
    let player = find(store, name).await?;
    if player.username.is_none() {
        return Err(AdminError::Refused(format!(
            "{} is a guest: only accounts have a username and a password",
            player.name
        )));
    }
    Ok(player)
}

/// Runs one admin action; returns what to print.
pub async fn run(
    store: &Store,
    public_url: &str,
    action: AdminAction,
) -> Result<String, AdminError> {
    let operator = operator();
    let mut out = String::new();
    match action {
        AdminAction::Ban { name, reason } => {
            let reason = reason.trim();
            if reason.is_empty() || reason.chars().count() > 200 {
                return Err(AdminError::Refused(
                    "give a reason of 1 to 200 characters".into(),
                ));
            }
            let player = find(store, &name).await?;
            let sessions = store.ban(player.id, reason, &operator).await?;
            let _ = writeln!(
                out,
                "banned {} ({}); {sessions} sessions ended; a running server ends their games within seconds",
                player.name, player.id
            );
        }
        AdminAction::Unban { name } => {
            let player = find(store, &name).await?;
            if !player.banned {
                return Err(AdminError::Refused(format!(
                    "{} is not banned",
                    player.name
                )));
            }
            store.unban(player.id, &operator).await?;
            let _ = writeln!(out, "unbanned {} ({})", player.name, player.id);
        }
        AdminAction::Rename { name, new_username } => {
            let player = find_account(store, &name).await?;
            let username =
                validate_username(&new_username).map_err(|e| AdminError::Refused(e.to_string()))?;
            store
                .rename(player.id, &username, &name_keys(&username), &operator)
                .await?;
            let _ = writeln!(out, "renamed {} to {username}", player.name);
        }
        AdminAction::ResetPassword { name } => {
            let player = find_account(store, &name).await?;
            let token = new_token();
            let expires = jungle_store::now_ms() + RESET_LINK_HOURS * 3_600_000;
            store
                .create_password_reset(player.id, &hash_token(&token), expires, &operator)
                .await?;
            let _ = writeln!(
                out,
                "one-time link for {} (works once, until {}):\n{}/reset/{token}",
                player.name,
                when(expires),
                public_url.trim_end_matches('/')
            );
        }
        AdminAction::Sessions { name } => {
            let player = find(store, &name).await?;
            let sessions = store.sessions(player.id).await?;
            store
                .audit(&operator, "sessions", Some(player.id), "")
                .await?;
            let _ = writeln!(out, "{} sessions of {}", sessions.len(), player.name);
            for s in sessions {
                let _ = writeln!(
                    out,
                    "{}  last seen {}  from {}  {}",
                    s.id,
                    when(s.last_seen_at),
                    s.address,
                    s.device
                );
            }
        }
        AdminAction::Reports { all } => {
            let reports = store.reports(all, 200).await?;
            if reports.is_empty() {
                out.push_str("no reports\n");
            }
            for r in reports {
                let _ = writeln!(
                    out,
                    "{}  {}  {} reports {} ({}) for {}{}{}{}",
                    r.id,
                    when(r.created_at),
                    r.reporter,
                    r.reported,
                    r.reported_id,
                    r.reason,
                    r.game.map(|g| format!("  game {g}")).unwrap_or_default(),
                    if r.details.is_empty() {
                        String::new()
                    } else {
                        format!("\n    {:?}", r.details)
                    },
                    if r.resolved { "  [resolved]" } else { "" },
                );
            }
        }
        AdminAction::ResolveReport { id } => {
            if !store.resolve_report(id, &operator).await? {
                return Err(AdminError::Refused(format!("no open report {id}")));
            }
            let _ = writeln!(out, "report {id} resolved");
        }
        AdminAction::Queue { all } => fair_play::queue(store, all, &mut out).await?,
        AdminAction::Assessment { name, games } => {
            let player = find(store, &name).await?;
            fair_play::assessment(store, &player, games, &mut out).await?;
        }
        AdminAction::Mark { name, reason } => {
            let reason = reason.trim();
            if reason.is_empty() || reason.chars().count() > 200 {
                return Err(AdminError::Refused(
                    "give a reason of 1 to 200 characters".into(),
                ));
            }
            let player = find(store, &name).await?;
            store.mark_engine(player.id, reason, &operator).await?;
            let _ = writeln!(
                out,
                "marked {} ({}): their rated games from now on move nobody's rating; they leave the leaderboards",
                player.name, player.id
            );
        }
        AdminAction::Unmark { name } => {
            let player = find(store, &name).await?;
            if store.engine_marked_at(player.id).await?.is_none() {
                return Err(AdminError::Refused(format!(
                    "{} is not marked",
                    player.name
                )));
            }
            store.unmark_engine(player.id, &operator).await?;
            let _ = writeln!(out, "unmarked {} ({})", player.name, player.id);
        }
        AdminAction::Clear { name } => {
            let player = find(store, &name).await?;
            if !store.clear_review(player.id, &operator).await? {
                return Err(AdminError::Refused(format!(
                    "{} is not in the fair-play queue",
                    player.name
                )));
            }
            let _ = writeln!(out, "cleared {} from the fair-play queue", player.name);
        }
        AdminAction::Audit { limit } => {
            for a in store.audit_log(limit.clamp(1, 10_000)).await? {
                let _ = writeln!(
                    out,
                    "{}  {}  {}  {}  {}",
                    when(a.at),
                    a.operator,
                    a.action,
                    a.player.map(|p| p.to_string()).unwrap_or_default(),
                    a.detail
                );
            }
        }
    }
    Ok(out)
}
