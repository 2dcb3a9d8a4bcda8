//! A room's chat: who speaks on which channel, the lines kept for latecomers, and the cap on
//! what one player may store in one game.

use super::*;

impl Room {
    /// The channel of a member: players talk to players, everyone else to the spectators.
    pub(super) fn channel_of(&self, conn: &Connection) -> ChatChannel {
        match self.session.side_of(conn.player.id) {
            Some(_) => ChatChannel::Players,
            None => ChatChannel::Spectators,
        }
    }

    /// A line from a member (checked by its handler): stored, then told to its channel.
    pub(super) async fn chat(
        &mut self,
        conn_id: u64,
        preset: Option<String>,
        text: Option<String>,
    ) {
        let Some(member) = self.members.iter().find(|m| m.conn.id == conn_id) else {
            return;
        };
        let from = member.conn.player.clone();
        if !self.said.contains_key(&from.id) {
            // What they said before a restart counts too.
            let before = self.ctx.store.chat_count(self.id, from.id).await;
            self.said.insert(from.id, before.unwrap_or(0));
        }
        let member = self
            .members
            .iter()
            .find(|m| m.conn.id == conn_id)
            .expect("found above");
        let said = self.said.entry(from.id).or_default();
        if *said >= CHAT_LINES_PER_PLAYER {
            let text = error_text(
                jungle_protocol::ErrorCode::LimitReached,
                &format!("at most {CHAT_LINES_PER_PLAYER} chat lines a game"),
                Some(self.id),
            );
            self.deliver(&member.conn, text);
            return;
        }
        *said += 1;
        let channel = self.channel_of(&member.conn);
        let record = jungle_store::ChatRecord {
            game: self.id,
            channel: match channel {
                ChatChannel::Players => "players",
                ChatChannel::Spectators => "spectators",
            },
            player: from.id,
            preset: preset.clone(),
            text: text.clone(),
        };
        if let Err(e) = self.ctx.persister.write(Write::Chat(record)).await {
            tracing::error!(game = %self.id, error = %e, "a chat line could not be stored");
            return;
        }
        let line = frame_text(&ServerFrame::ChatLine {
            game: self.id,
            channel,
            from: jungle_protocol::PlayerInfo {
                id: from.id,
                name: from.name,
            },
            preset,
            text,
        });
        // Nobody hears a player they block.
        let listeners: Vec<Uuid> = self
            .members
            .iter()
            .filter(|m| self.channel_of(&m.conn) == channel && m.conn.player.id != from.id)
            .map(|m| m.conn.player.id)
            .collect();
        let blockers = self
            .ctx
            .store
            .blockers_of(from.id, &listeners)
            .await
            .unwrap_or_default();
        self.deliver_each(|member| {
            (self.channel_of(&member.conn) == channel && !blockers.contains(&member.conn.player.id))
                .then(|| line.clone())
        });
        if self.chat.len() >= CHAT_KEPT {
            self.chat.remove(0);
        }
        self.chat.push((channel, from.id, line));
    }
}

impl Room {
    /// A room that starts again (a restart, an adoption, a game woken from sleep): the latest
    /// lines said, for those who join, as the room before showed them.
    pub(super) async fn recall_chat(&mut self) {
        let lines = match self.ctx.store.recent_chat(self.id, CHAT_KEPT).await {
            Ok(lines) => lines,
            Err(e) => {
                tracing::warn!(game = %self.id, error = %e, "the chat so far could not be read");
                return;
            }
        };
        self.chat = lines
            .into_iter()
            .map(|(record, name)| {
                let channel = match record.channel {
                    "players" => ChatChannel::Players,
                    _ => ChatChannel::Spectators,
                };
                let line = frame_text(&ServerFrame::ChatLine {
                    game: self.id,
                    channel,
                    from: jungle_protocol::PlayerInfo {
                        id: record.player,
                        name,
                    },
                    preset: record.preset,
                    text: record.text,
                });
                (channel, record.player, line)
            })
            .collect();
    }
}
