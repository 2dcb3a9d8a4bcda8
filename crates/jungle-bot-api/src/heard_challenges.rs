//! The challenges an event stream has heard of that still wait for an answer: what
//! `GET /api/challenge` lists. Challenges are held by one node (the matcher, with several);
//! their news reach the player's stream wherever it is open, so the stream's record is right
//! on every node, where the node's own book would be empty on all but one.

use std::collections::BTreeMap;

use jungle_protocol::{ChallengeInfo, ServerFrame};
use tokio::time::Instant;
use uuid::Uuid;

/// Challenges one stream remembers at most (a player has a handful waiting: docs/security.md).
const MOST_HEARD: usize = 64;

/// The waiting challenges one stream has heard of.
#[derive(Default)]
pub struct HeardChallenges {
    waiting: BTreeMap<Uuid, Heard>,
}

struct Heard {
    info: ChallengeInfo,
    /// Sent by the stream's player (else sent to them).
    outgoing: bool,
    /// When it expires, unanswered.
    until: Instant,
}

impl HeardChallenges {
    /// Whether `frame` is one [`hear`](Self::hear) takes note of (a game's moves are not).
    pub fn concerns(frame: &ServerFrame) -> bool {
        matches!(
            frame,
            ServerFrame::ChallengeSent { .. }
                | ServerFrame::Challenged { .. }
                | ServerFrame::ChallengeEnded { .. }
        )
    }

    /// Takes note of a frame the stream heard.
    pub fn hear(&mut self, frame: &ServerFrame, now: Instant) {
        let (info, outgoing) = match frame {
            ServerFrame::ChallengeSent { challenge } => (challenge, true),
            ServerFrame::Challenged { challenge } => (challenge, false),
            ServerFrame::ChallengeEnded { id, .. } => {
                self.waiting.remove(id);
                return;
            }
            _ => return,
        };
        self.waiting.retain(|_, heard| heard.until > now);
        if self.waiting.len() >= MOST_HEARD && !self.waiting.contains_key(&info.id) {
            return;
        }
        let until = now + std::time::Duration::from_millis(info.expires_in_ms);
        self.waiting.insert(
            info.id,
            Heard {
                info: info.clone(),
                outgoing,
                until,
            },
        );
    }

    /// The challenges still waiting: (sent to the player, sent by them), their time left as
    /// of `now`.
    pub fn waiting(&self, now: Instant) -> (Vec<ChallengeInfo>, Vec<ChallengeInfo>) {
        let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
        for heard in self.waiting.values().filter(|h| h.until > now) {
            let mut info = heard.info.clone();
            info.expires_in_ms = (heard.until - now).as_millis() as u64;
            if heard.outgoing {
                outgoing.push(info);
            } else {
                incoming.push(info);
            }
        }
        (incoming, outgoing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_protocol::{ChallengeEnd, ClockSpec, ColorChoice, PlayerInfo, Ruleset};

    fn challenge(expires_in_ms: u64) -> ChallengeInfo {
        let player = |name: &str| PlayerInfo {
            id: Uuid::new_v4(),
            name: name.into(),
        };
        ChallengeInfo {
            id: Uuid::new_v4(),
            from: player("Ada"),
            to: player("Bea"),
            rules: Ruleset::Classic,
            clock: ClockSpec::Fischer {
                base_s: 300,
                inc_s: 3,
            },
            rated: false,
            color: ColorChoice::Random,
            expires_in_ms,
            from_title: None,
        }
    }

    #[test]
    fn challenges_are_listed_until_they_end_or_expire() {
        let now = Instant::now();
        let mut heard = HeardChallenges::default();
        let (sent, received, lapsing) = (challenge(60_000), challenge(60_000), challenge(1_000));
        heard.hear(
            &ServerFrame::ChallengeSent {
                challenge: sent.clone(),
            },
            now,
        );
        heard.hear(
            &ServerFrame::Challenged {
                challenge: received.clone(),
            },
            now,
        );
        heard.hear(
            &ServerFrame::Challenged {
                challenge: lapsing.clone(),
            },
            now,
        );
        let (incoming, outgoing) = heard.waiting(now + std::time::Duration::from_secs(2));
        assert_eq!(outgoing.iter().map(|c| c.id).collect::<Vec<_>>(), [sent.id]);
        assert_eq!(
            incoming.iter().map(|c| c.id).collect::<Vec<_>>(),
            [received.id]
        );
        assert_eq!(
            incoming[0].expires_in_ms, 58_000,
            "time left as of the asking"
        );
        heard.hear(
            &ServerFrame::ChallengeEnded {
                id: sent.id,
                reason: ChallengeEnd::Declined,
                decline_reason: None,
            },
            now,
        );
        assert!(
            heard.waiting(now).1.is_empty(),
            "an answered challenge waits no more"
        );
        for _ in 0..2 * MOST_HEARD {
            heard.hear(
                &ServerFrame::Challenged {
                    challenge: challenge(60_000),
                },
                now,
            );
        }
        assert_eq!(heard.waiting(now).0.len(), MOST_HEARD, "bounded");
    }
}
