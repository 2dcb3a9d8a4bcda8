//! Who is in the room: joining (seated, watching, or admitted by a private room's code),
//! leaving, and the seat a connection speaks for.

use super::*;

impl Room {
    /// The side of the member on connection `conn_id`, who must be `player`; a stranger is
    /// told they do not play here.
    pub(super) fn seated_member(&self, conn_id: u64, player: Uuid) -> Option<Side> {
        let side = self
            .members
            .iter()
            .any(|m| m.conn.id == conn_id && m.conn.player.id == player)
            .then(|| self.session.side_of(player))
            .flatten();
        if side.is_none() {
            self.refuse(conn_id, &Refusal::NotYourGame);
        }
        side
    }

    /// A private room's game is watched only through its code or link until it is over: by
    /// its players, and by those who came in with the code.
    pub(super) fn may_watch(&mut self, player: Uuid, intent: JoinIntent) -> bool {
        if intent == JoinIntent::TakeSeat {
            self.admitted.insert(player);
        }
        let private_in_play = self.session.is_private()
            && matches!(
                self.session.status(),
                GameStatus::Waiting | GameStatus::Active
            );
        !private_in_play
            || self.session.side_of(player).is_some()
            || self.admitted.contains(&player)
    }

    pub(super) async fn join(&mut self, conn: Connection, intent: JoinIntent) {
        if !self.may_watch(conn.player.id, intent) {
            // As if there were no such game: its id tells a stranger nothing.
            let text = error_text(
                jungle_protocol::ErrorCode::UnknownGame,
                "no such game",
                Some(self.id),
            );
            let _ = conn.tx.try_send(Outbound::refused(self.id, text));
            return;
        }
        if let Some(member) = self.members.iter().find(|m| m.conn.id == conn.id) {
            let you = self.session.side_of(member.conn.player.id);
            self.deliver(&member.conn, self.view().game_frame(you));
            return;
        }
        let mut events = Vec::new();
        let mut side = self.session.side_of(conn.player.id);
        let mut may_sit = true;
        if side.is_none()
            && intent == JoinIntent::TakeSeat
            && self.session.status() == GameStatus::Waiting
        {
            // A room over days seats an account under the cap (the host too, who may have
            // started others meanwhile); anyone else watches. The store claims both places
            // for this game at once, so that starts at once cannot pass the cap together.
            let clock = self.session.settings().clock;
            let host = self.session.seat(Side::Red).map(|s| s.who.player.id);
            let players: Vec<Uuid> = std::iter::once(conn.player.id).chain(host).collect();
            let store = &self.ctx.store;
            if let Err(refusal) =
                crate::correspondence::claim_start(store, self.id, &players, clock).await
            {
                may_sit = false;
                let text = error_text(refusal.code(), &refusal.to_string(), Some(self.id));
                self.deliver(&conn, text);
            }
        }
        if side.is_none()
            && may_sit
            && intent == JoinIntent::TakeSeat
            && self.session.status() == GameStatus::Waiting
        {
            let rules = self.session.settings().rules;
            let guest = SeatPlayer::human(
                conn.player.clone(),
                self.rating(conn.player.id, rules).await,
            );
            match self.session.seat_guest(guest, self.now()) {
                Ok((guest_side, started)) => {
                    side = Some(guest_side);
                    events = started;
                }
                Err(refusal) => tracing::debug!(%refusal, "seat taken meanwhile; watching"),
            }
        }
        if let Some(side) = side {
            events.extend(self.session.connect(side, self.now()));
        }
        self.members.push(Member { conn: conn.clone() });
        if !events.contains(&Event::Started) {
            // A start shows everybody the full state; otherwise only the newcomer needs it.
            self.deliver(&conn, self.view().game_frame(side));
        }
        // What was said on the newcomer's channel so far, but by those they block.
        let channel = self.channel_of(&conn);
        let blocked = if self.chat.iter().any(|(on, _, _)| *on == channel) {
            Box::pin(self.ctx.store.blocked_ids(conn.player.id))
                .await
                .unwrap_or_default()
        } else {
            Default::default()
        };
        for (said_on, by, line) in &self.chat {
            if *said_on == channel && !blocked.contains(by) {
                self.deliver(&conn, line.clone());
            }
        }
        self.apply(events).await;
    }

    pub(super) async fn leave(&mut self, conn_id: u64) {
        let Some(index) = self.members.iter().position(|m| m.conn.id == conn_id) else {
            return;
        };
        let member = self.members.swap_remove(index);
        if let Some(side) = self.session.side_of(member.conn.player.id) {
            let events = self.session.disconnect(side, self.now());
            self.apply(events).await;
        }
    }

    /// A player's rating in `rules` (by correspondence if this game is), or a new player's
    /// when the store cannot say.
    pub(super) async fn rating(&self, player: Uuid, rules: jungle_rules::Ruleset) -> RatingRecord {
        let pool = jungle_game::rating::RatingPool::of(rules, self.session.settings().clock);
        self.ctx
            .store
            .rating(player, pool)
            .await
            .unwrap_or_else(|e| {
                tracing::error!(error = %e, "rating lookup failed; using a new player's");
                RatingRecord::from_glicko(jungle_game::rating::Glicko::default(), 0)
            })
    }
}
