//! The operator's recurring arenas (`--schedule`, repeatable): each is stored once per start,
//! a period ahead, so that the lobby shows the next one with its countdown. A schedule reads
//! `every=hourly,rules=classic,clock=3+2,minutes=55,name=Hourly classic` (see
//! docs/self-hosting.md); a restart or a second look creates nothing twice (the start is part
//! of a unique key).

use std::str::FromStr;
use std::time::Duration;

use jungle_protocol::ClockSpec;
use jungle_rules::Ruleset;
use uuid::Uuid;

use jungle_store::{now_ms, Store, StoreError, TournamentRecord};

/// The player the scheduled arenas are made by: not a person, never signs in.
pub fn organiser_id() -> Uuid {
    Uuid::from_u128(0x6a75_6e67_6c65_0000_0000_0000_0000_0100)
}

/// How often the schedules are looked at.
const LOOK_EVERY: Duration = Duration::from_secs(60);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Every {
    /// At `minute` past each hour.
    Hourly { minute: u32 },
    /// At `hour`:`minute` UTC each day.
    Daily { hour: u32, minute: u32 },
}

impl Every {
    fn period_ms(self) -> i64 {
        match self {
            Every::Hourly { .. } => 3_600_000,
            Every::Daily { .. } => 86_400_000,
        }
    }

    /// The first start at or after `now` (ms since the epoch, UTC).
    fn next_start(self, now: i64) -> i64 {
        let period = self.period_ms();
        let offset = match self {
            Every::Hourly { minute } => i64::from(minute) * 60_000,
            Every::Daily { hour, minute } => (i64::from(hour) * 60 + i64::from(minute)) * 60_000,
        };
        let base = now - (now - offset).rem_euclid(period);
        if base < now {
            base + period
        } else {
            base
        }
    }
}

/// One recurring arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub name: String,
    pub rules: Ruleset,
    pub clock: ClockSpec,
    pub every: Every,
    pub minutes: u32,
    pub rated: bool,
}

impl FromStr for Schedule {
    type Err = String;

    fn from_str(text: &str) -> Result<Schedule, String> {
        let (mut name, mut rules, mut clock, mut every, mut at, mut minutes, mut rated) =
            (None, None, None, None, None, None, true);
        for part in text.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{part:?}: expected key=value"))?;
            let value = value.trim();
            match key.trim() {
                "name" => name = Some(value.to_owned()),
                "rules" => rules = Some(value.parse::<Ruleset>().map_err(|e| e.to_string())?),
                "clock" => clock = Some(parse_clock(value)?),
                "every" => every = Some(value.to_owned()),
                "at" => at = Some(value.to_owned()),
                "minutes" => minutes = Some(value.parse::<u32>().map_err(|_| "minutes: a number")?),
                "rated" => rated = value != "false" && value != "no",
                other => return Err(format!("unknown key {other:?}")),
            }
        }
        let (hour, minute) = match at.as_deref() {
            None => (0, 0),
            Some(at) => match at.split_once(':') {
                Some((h, m)) => (
                    h.parse::<u32>().map_err(|_| "at: HH:MM")?,
                    m.parse::<u32>().map_err(|_| "at: HH:MM")?,
                ),
                None => (0, at.parse::<u32>().map_err(|_| "at: MM or HH:MM")?),
            },
        };
        if hour > 23 || minute > 59 {
            return Err("at: a time of day, HH:MM".into());
        }
        let every = match every.as_deref() {
            Some("hourly") => Every::Hourly { minute },
            Some("daily") => Every::Daily { hour, minute },
            _ => return Err("every: hourly or daily".into()),
        };
        let minutes = minutes.ok_or("minutes: how long each one runs")?;
        let longest = (every.period_ms() / 60_000) as u32;
        if !(1..=720.min(longest)).contains(&minutes) {
            return Err(format!("minutes: from 1 to {}", 720.min(longest)));
        }
        let rules = rules.ok_or("rules: classic, international, …")?;
        let clock = clock.ok_or("clock: such as 3+2 (minutes + seconds) or 30s (per move)")?;
        clock.validate().map_err(|e| e.to_string())?;
        let name = name.unwrap_or_else(|| format!("{} {}", rules.name(), clock_name(clock)));
        if !(1..=40).contains(&name.chars().count()) {
            return Err("name: 1 to 40 characters".into());
        }
        Ok(Schedule {
            name,
            rules,
            clock,
            every,
            minutes,
            rated,
        })
    }
}

/// `3+2`: three minutes and two seconds a move; `30s`: thirty seconds a turn, the fourth
/// timeout loses (the classic per-move clock).
fn parse_clock(text: &str) -> Result<ClockSpec, String> {
    if let Some((base, inc)) = text.split_once('+') {
        let base: f64 = base.parse().map_err(|_| "clock: minutes+seconds")?;
        let inc: u32 = inc.parse().map_err(|_| "clock: minutes+seconds")?;
        return Ok(ClockSpec::Fischer {
            base_s: (base * 60.0).round() as u32,
            inc_s: inc,
        });
    }
    if let Some(seconds) = text.strip_suffix('s') {
        let move_s: u32 = seconds.parse().map_err(|_| "clock: 30s")?;
        return Ok(ClockSpec::PerMove {
            move_s,
            max_timeouts: 3,
            consecutive: false,
        });
    }
    Err(format!(
        "clock {text:?}: such as 3+2 (minutes + seconds) or 30s (per move)"
    ))
}

fn clock_name(clock: ClockSpec) -> String {
    match clock {
        ClockSpec::Fischer { base_s, inc_s } if base_s % 60 == 0 => {
            format!("{}+{inc_s}", base_s / 60)
        }
        ClockSpec::Fischer { base_s, inc_s } => format!("{base_s}s+{inc_s}"),
        ClockSpec::PerMove { move_s, .. } => format!("{move_s}s"),
        ClockSpec::Days { days } => format!("{days}d"),
    }
}

impl Schedule {
    /// The occurrence to store at `now`: the next start (within one period).
    pub fn next(&self, now: i64) -> (TournamentRecord, String) {
        let starts_at = self.every.next_start(now);
        let record = TournamentRecord {
            id: Uuid::new_v4(),
            name: self.name.clone(),
            rules: self.rules,
            clock: self.clock,
            rated: self.rated,
            starts_at,
            ends_at: starts_at + i64::from(self.minutes) * 60_000,
            code: None,
            created_by: organiser_id(),
            bots: false,
        };
        let key = format!(
            "{}|{}|{}|{}",
            self.name,
            self.rules.name(),
            clock_name(self.clock),
            starts_at
        );
        (record, key)
    }
}

/// Creates the organiser's player row if it is missing.
pub async fn ensure_organiser(store: &Store) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO NOTHING",
    )
    .bind(organiser_id().to_string())
    .bind("Jungle Arena")
    // Not a SHA-256 hex string: no token signs in as the organiser.
    .bind("organiser")
    .bind(now_ms())
    .execute(store.pool())
    .await?;
    Ok(())
}

/// Stores each schedule's next arena, now and every minute, and starts directing the new ones.
pub async fn run(
    schedules: Vec<Schedule>,
    ctx: std::sync::Arc<jungle_rooms::RoomContext>,
    directors: super::Directors,
    online: jungle_rooms::online::Online,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    if schedules.is_empty() {
        return;
    }
    let mut look = tokio::time::interval(LOOK_EVERY);
    loop {
        tokio::select! {
            _ = look.tick() => {}
            _ = shutdown.changed() => return,
        }
        for schedule in &schedules {
            let (record, key) = schedule.next(now_ms());
            match ctx.store.create_scheduled_tournament(&record, &key).await {
                Ok(true) => match super::director::load(&ctx.store, record).await {
                    Ok(loaded) => super::director::start(
                        ctx.clone(),
                        directors.clone(),
                        online.clone(),
                        loaded,
                    ),
                    Err(e) => tracing::error!(error = %e, "a scheduled arena did not load"),
                },
                Ok(false) => {}
                Err(e) => tracing::error!(error = %e, "a scheduled arena was not stored"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_read_and_find_their_next_start() {
        let s: Schedule = "every=hourly,rules=classic,clock=3+2,minutes=55"
            .parse()
            .unwrap();
        assert_eq!(s.name, "classic 3+2");
        assert_eq!(
            s.clock,
            ClockSpec::Fischer {
                base_s: 180,
                inc_s: 2
            }
        );
        assert!(s.rated);
        // 2026-11-30 18:20 UTC → 19:00.
        let now = 1_796_061_600_000 + 20 * 60_000;
        let (record, key) = s.next(now);
        assert_eq!(record.starts_at, 1_796_061_600_000 + 3_600_000);
        assert_eq!(record.ends_at - record.starts_at, 55 * 60_000);
        // Looking again finds the same start, so the same key.
        assert_eq!(s.next(now + 60_000).1, key);
        let daily: Schedule = "name=Daily international,every=daily,at=18:00,rules=international,clock=5+3,minutes=120,rated=false"
            .parse()
            .unwrap();
        assert!(!daily.rated);
        let (record, _) = daily.next(now);
        assert_eq!(record.starts_at, 1_796_061_600_000 + 86_400_000);
        // Exactly at a start, that start.
        assert_eq!(daily.every.next_start(1_796_061_600_000), 1_796_061_600_000);
        for bad in [
            "every=weekly,rules=classic,clock=3+2,minutes=55",
            "every=hourly,rules=classic,clock=3+2,minutes=90",
            "every=hourly,rules=chess,clock=3+2,minutes=55",
            "every=hourly,rules=classic,clock=fast,minutes=55",
            "every=daily,at=25:00,rules=classic,clock=3+2,minutes=55",
        ] {
            assert!(bad.parse::<Schedule>().is_err(), "{bad}");
        }
    }
}
