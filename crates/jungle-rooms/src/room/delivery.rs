//! What members are sent: the game's frames rendered once and handed to each connection,
//! and refusals to the one that asked.

use super::*;

impl Room {
    pub(super) fn view(&self) -> View<'_> {
        View {
            id: self.id,
            session: &self.session,
            seq: self.seq,
            now: self.now(),
        }
    }

    pub(super) fn live_summary(&self) -> LiveGame {
        let seat = |side: Side| self.session.seat(side).map(|s| &s.who);
        let settings = self.session.settings();
        LiveGame {
            id: self.id,
            rules: settings.rules,
            clock: settings.clock,
            rated: settings.rated,
            red: seat(Side::Red)
                .map(|w| w.player.name.clone())
                .unwrap_or_default(),
            blue: seat(Side::Blue)
                .map(|w| w.player.name.clone())
                .unwrap_or_default(),
            red_rating: seat(Side::Red)
                .map(|w| w.rating.glicko().shown())
                .unwrap_or_default(),
            blue_rating: seat(Side::Blue)
                .map(|w| w.rating.glicko().shown())
                .unwrap_or_default(),
            red_id: seat(Side::Red).map(|w| w.player.id),
            blue_id: seat(Side::Blue).map(|w| w.player.id),
            red_title: seat(Side::Red).and_then(|w| w.player.bot.then(|| "BOT".to_owned())),
            blue_title: seat(Side::Blue).and_then(|w| w.player.bot.then(|| "BOT".to_owned())),
        }
    }

    pub(super) fn broadcast_moved(
        &self,
        turn: jungle_rules::Turn,
        ply: usize,
        captured: Option<jungle_rules::Animal>,
    ) {
        let view = self.view();
        let to_move = self.session.game().position().side_to_move();
        // Serialized twice at most: once without legal moves, once with them for the side to
        // move; the frame is built once.
        let mut frame = view.moved(turn, ply, captured, None);
        let plain = frame_text(&frame);
        let mut with_legal = None;
        self.deliver_each(|member| {
            Some(
                if self.session.side_of(member.conn.player.id) == Some(to_move) {
                    with_legal
                        .get_or_insert_with(|| {
                            if let ServerFrame::Moved { legal, .. } = &mut frame {
                                *legal = self.session.legal_for(Some(to_move));
                            }
                            frame_text(&frame)
                        })
                        .clone()
                } else {
                    plain.clone()
                },
            )
        });
    }

    /// Every member gets the whole state, as their seat sees it (serialized once per seat).
    pub(super) fn deliver_states(&self) {
        let view = self.view();
        let mut by_seat: [Option<Utf8Bytes>; 3] = Default::default();
        self.deliver_each(|member| {
            let you = self.session.side_of(member.conn.player.id);
            let slot = you.map_or(2, Side::index);
            Some(
                by_seat[slot]
                    .get_or_insert_with(|| view.game_frame(you))
                    .clone(),
            )
        });
    }

    /// Sends each member the text `pick` gives it (if any): members here at once; members on
    /// other nodes one message per node and text, however many there are there.
    pub(super) fn deliver_each(&self, mut pick: impl FnMut(&Member) -> Option<Utf8Bytes>) {
        let mut elsewhere: Vec<(&Arc<dyn crate::Fanout>, Utf8Bytes, Vec<u64>)> = Vec::new();
        for member in &self.members {
            let Some(text) = pick(member) else {
                continue;
            };
            let Some(fanout) = &member.conn.remote else {
                self.deliver(&member.conn, text);
                continue;
            };
            let group = elsewhere
                .iter_mut()
                .find(|(f, t, _)| f.node() == fanout.node() && t.as_str() == text.as_str());
            match group {
                Some((_, _, conns)) => conns.push(member.conn.id),
                None => elsewhere.push((fanout, text, vec![member.conn.id])),
            }
        }
        for (fanout, text, conns) in elsewhere {
            fanout.frames(conns, &text);
        }
    }

    /// Broadcasts the game's next event, built from its id and new sequence number.
    pub(super) fn broadcast_next(&mut self, frame: impl FnOnce(Uuid, u64) -> ServerFrame) {
        self.seq += 1;
        self.broadcast(&frame(self.id, self.seq));
    }

    pub(super) fn broadcast(&self, frame: &ServerFrame) {
        let text = frame_text(frame);
        self.deliver_each(|_| Some(text.clone()));
    }

    pub(super) fn deliver(&self, conn: &Connection, text: Utf8Bytes) {
        if !conn.send_text(text) {
            metrics::counter!("jungle_frames_dropped_total").increment(1);
            conn.too_slow.notify_one();
        }
    }

    pub(super) fn refuse_with(&self, conn_id: u64, text: Utf8Bytes) {
        if let Some(member) = self.members.iter().find(|m| m.conn.id == conn_id) {
            self.deliver(&member.conn, text);
        }
    }

    pub(super) fn refuse(&self, conn_id: u64, refusal: &Refusal) {
        if let Some(member) = self.members.iter().find(|m| m.conn.id == conn_id) {
            let text = error_text(refusal.code(), &refusal.to_string(), Some(self.id));
            self.deliver(&member.conn, text);
        }
    }
}
