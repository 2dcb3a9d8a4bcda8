//! The tournament frames: join, withdraw, and following the standings. The director of the
//! tournament decides; these check the limits and find it.

use jungle_protocol::ServerFrame;
use uuid::Uuid;

use super::session::{Reply, Session};
use crate::ws::frame_error::FrameError;
use jungle_limits::Limited;
use jungle_rooms::{frame_text, Connection};
use jungle_tournaments::director::{ms_left, status_at, JoinError};

impl Session {
    /// A frame about a tournament another node directs goes there; true if it went.
    async fn forwarded(
        &mut self,
        conn: &Connection,
        id: Uuid,
        frame: jungle_protocol::ClientFrame,
    ) -> Result<bool, FrameError> {
        if self.state.directors.is_directed(id) {
            return Ok(false);
        }
        let has_account = self.state.store.has_account(conn.player.id).await?;
        let went = self
            .state
            .reach
            .director_elsewhere(conn, id, has_account, frame)
            .await
            .map_err(FrameError::Unavailable)?;
        Ok(went)
    }

    pub(super) async fn join_tournament(
        &mut self,
        conn: &Connection,
        id: Uuid,
        code: Option<String>,
    ) -> Reply {
        self.limit(Limited::TournamentEntry, conn)?;
        let frame = jungle_protocol::ClientFrame::JoinTournament {
            id,
            code: code.clone(),
        };
        if self.forwarded(conn, id, frame).await? {
            self.watching = Some(id);
            return Ok(None);
        }
        let has_account = self.state.store.has_account(conn.player.id).await?;
        let directors = self.state.directors.clone();
        match directors.join(id, conn.clone(), code, has_account).await {
            Some(Ok(())) => {
                self.follow_tournament(conn, id).await;
                Ok(None)
            }
            Some(Err(JoinError::Code)) => {
                // Guessing codes is what the lookup limit is for, as for private rooms.
                self.state.limits.charge_miss(self.ip);
                Err(JoinError::Code.into())
            }
            Some(Err(e)) => Err(e.into()),
            None => Err(self.not_directed(id).await.into()),
        }
    }

    pub(super) async fn withdraw(&mut self, conn: &Connection, id: Uuid) -> Reply {
        self.limit(Limited::TournamentEntry, conn)?;
        if self
            .forwarded(conn, id, jungle_protocol::ClientFrame::Withdraw { id })
            .await?
        {
            return Ok(None);
        }
        let directors = &self.state.directors;
        if directors.is_directed(id) {
            directors.withdraw(id, conn.player.id).await;
            return Ok(None);
        }
        match self.not_directed(id).await {
            JoinError::Over => Ok(Some(frame_text(&ServerFrame::TournamentEntry {
                id,
                active: false,
            }))),
            other => Err(other.into()),
        }
    }

    pub(super) async fn watch_tournament(&mut self, conn: &Connection, id: Uuid) -> Reply {
        self.limit(Limited::TournamentEntry, conn)?;
        let frame = jungle_protocol::ClientFrame::WatchTournament { id };
        if self.forwarded(conn, id, frame).await? {
            self.watching = Some(id);
            return Ok(None);
        }
        if self.state.directors.is_directed(id) {
            self.follow_tournament(conn, id).await;
            if self.watching == Some(id) {
                return Ok(None);
            }
        }
        // Over: the final standings, once.
        let t = self
            .state
            .store
            .tournament(id)
            .await?
            .ok_or(FrameError::from(JoinError::Unknown))?;
        let ranked =
            jungle_tournaments::api::standings(&self.state.store, &self.state.directors, &t)
                .await?;
        let now = jungle_store::now_ms();
        // Numbered by rank: a table that no longer changes.
        let lines: Vec<_> = (0u32..)
            .zip(&ranked)
            .map(|(n, s)| jungle_game::table::live_line(n, s))
            .collect();
        Ok(Some(frame_text(&ServerFrame::TournamentStandings {
            id,
            seq: 0,
            full: true,
            status: status_at(&t, now),
            ms_left: ms_left(&t, now),
            players: lines.len() as u32,
            order: Some((0..lines.len() as u32).collect()),
            lines,
        })))
    }

    pub(super) async fn unwatch_tournament(&mut self, conn: &Connection, id: Uuid) -> Reply {
        if self.watching == Some(id) {
            self.watching = None;
            let frame = jungle_protocol::ClientFrame::UnwatchTournament { id };
            if !self.forwarded(conn, id, frame).await.unwrap_or(false) {
                self.state.directors.unwatch(id, conn.id).await;
            }
        }
        Ok(None)
    }

    /// Follows `id`'s standings on this connection, leaving the one followed before.
    async fn follow_tournament(&mut self, conn: &Connection, id: Uuid) {
        let directors = self.state.directors.clone();
        if let Some(before) = self.watching.filter(|before| *before != id) {
            directors.unwatch(before, conn.id).await;
        }
        self.watching = directors.watch(id, conn.clone()).await.then_some(id);
    }

    /// Why a tournament no director runs cannot be joined: it is over, or it does not exist.
    async fn not_directed(&self, id: Uuid) -> JoinError {
        match self.state.store.tournament(id).await {
            Ok(Some(_)) => JoinError::Over,
            Ok(None) => JoinError::Unknown,
            Err(e) => JoinError::Store(e),
        }
    }
}
