//! A challenge as it is asked over HTTP: in lichess's shape, as its clients send it (berserk
//! sends JSON with flat keys and `null` for what it leaves unset: `clock.limit`,
//! `clock.increment`, `days`, `color`, `variant`, `fen`; lichess documents a form with the
//! same keys), or in ours (`clock: {limit, increment}`, `{per_move}` or `{days}`, `rules`,
//! `color`). Both read into one [`Asked`]; a body that does not read changes nothing and
//! spends nothing.

use axum::http::{header, HeaderMap};
use jungle_protocol::{ClockSpec, ColorChoice, Ruleset};
use serde_json::{Map, Value};

use super::BotApiError;

/// What a challenge body asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    pub rated: bool,
    pub clock: ClockSpec,
    pub rules: Ruleset,
    pub color: ColorChoice,
}

/// Reads a challenge body, JSON or a form by its content type.
pub fn read(headers: &HeaderMap, body: &[u8]) -> Result<Asked, BotApiError> {
    asked(&fields_of(headers, body)?)
}

/// What a seek asks for (lichess's `POST /api/board/seek`, as berserk's `board.seek` sends
/// it: a form of `rated`, `time` in minutes, `increment` in seconds, `variant`, `color` and
/// `ratingRange`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sought {
    pub rated: bool,
    pub clock: ClockSpec,
    pub rules: Ruleset,
}

/// Reads a seek body, a form or JSON by its content type. `color` and `ratingRange` read but
/// change nothing: the pool pairs by rating and gives each game's colours (docs/bot-api.md).
pub fn read_seek(headers: &HeaderMap, body: &[u8]) -> Result<Sought, BotApiError> {
    let fields = fields_of(headers, body)?;
    if number(&fields, "days")?.is_some() {
        return Err(bad(
            "days: a seek over days is made in the lobby, on the web; over the Board API, challenge a player",
        ));
    }
    let minutes = number(&fields, "time")?.ok_or_else(|| bad("time: the clock's minutes"))?;
    let clock = ClockSpec::Fischer {
        base_s: minutes.saturating_mul(60),
        inc_s: number(&fields, "increment")?.unwrap_or(0),
    };
    Ok(Sought {
        rated: boolean(&fields, "rated")?.unwrap_or(false),
        clock,
        rules: ruleset(&fields)?,
    })
}

/// What `POST /api/challenge/ai` asks for (berserk's `challenges.create_ai`): a challenge's
/// clock, ruleset and colour, and the computer's `level` (1 to 8, as lichess's).
pub fn read_ai(headers: &HeaderMap, body: &[u8]) -> Result<(Asked, u8), BotApiError> {
    let fields = fields_of(headers, body)?;
    let level = number(&fields, "level")?.unwrap_or(1);
    let level = u8::try_from(level)
        .ok()
        .filter(|l| (1..=8).contains(l))
        .ok_or_else(|| bad("level: 1 to 8"))?;
    Ok((asked(&fields)?, level))
}

/// A body's fields, JSON or a form by its content type.
fn fields_of(headers: &HeaderMap, body: &[u8]) -> Result<Map<String, Value>, BotApiError> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let fields = if is_json {
        match serde_json::from_slice::<Value>(body) {
            Ok(Value::Object(fields)) => flat(fields),
            Ok(_) => return Err(bad("a challenge is a JSON object")),
            Err(e) => return Err(bad(&format!("the body does not read as JSON: {e}"))),
        }
    } else {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body)
            .map_err(|e| bad(&format!("the form does not read: {e}")))?;
        pairs
            .into_iter()
            .map(|(key, value)| (key, Value::String(value)))
            .collect()
    };
    Ok(fields)
}

fn bad(why: &str) -> BotApiError {
    BotApiError::BadRequest(why.to_owned())
}

/// `{"clock": {"limit": 300}}` as `{"clock.limit": 300}`, one level down (ours nests the
/// clock; lichess's keys are flat); `null` as absent.
fn flat(fields: Map<String, Value>) -> Map<String, Value> {
    let mut flat = Map::new();
    for (key, value) in fields {
        match value {
            Value::Null => {}
            Value::Object(inner) => {
                for (name, value) in inner {
                    if !value.is_null() {
                        flat.insert(format!("{key}.{name}"), value);
                    }
                }
            }
            value => {
                flat.insert(key, value);
            }
        }
    }
    flat
}

/// lichess's `variant` (its `standard` is our default ruleset) or our `rules`.
fn ruleset(fields: &Map<String, Value>) -> Result<Ruleset, BotApiError> {
    let named = match text(fields, "variant")? {
        Some(variant) => Some(variant),
        None => text(fields, "rules")?,
    };
    match named {
        None | Some("standard") => Ok(Ruleset::Classic),
        Some(name) => Ruleset::ALL
            .into_iter()
            .find(|r| r.name() == name.to_ascii_lowercase())
            .ok_or_else(|| {
                bad("variant: standard (classic), classic, strict, daitou or international")
            }),
    }
}

/// A whole number, written as one (JSON) or as text (a form).
fn number(fields: &Map<String, Value>, key: &str) -> Result<Option<u32>, BotApiError> {
    let Some(value) = fields.get(key) else {
        return Ok(None);
    };
    let read = match value {
        Value::Number(n) => n.as_u64(),
        Value::String(text) if text.is_empty() => return Ok(None),
        Value::String(text) => text.trim().parse::<u64>().ok(),
        _ => None,
    };
    read.and_then(|n| u32::try_from(n).ok())
        .map(Some)
        .ok_or_else(|| bad(&format!("{key}: a whole number")))
}

/// `true` or `false`, written as JSON or as text in any case (`True` from a Python form).
fn boolean(fields: &Map<String, Value>, key: &str) -> Result<Option<bool>, BotApiError> {
    match fields.get(key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(Value::String(text)) => match text.to_ascii_lowercase().as_str() {
            "true" => Ok(Some(true)),
            "false" | "" => Ok(Some(false)),
            _ => Err(bad(&format!("{key}: true or false"))),
        },
        Some(_) => Err(bad(&format!("{key}: true or false"))),
    }
}

fn text<'a>(fields: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, BotApiError> {
    match fields.get(key) {
        None => Ok(None),
        Some(Value::String(text)) if text.is_empty() => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(bad(&format!("{key}: text"))),
    }
}

fn asked(fields: &Map<String, Value>) -> Result<Asked, BotApiError> {
    let limit = number(fields, "clock.limit")?;
    let increment = number(fields, "clock.increment")?;
    let per_move = number(fields, "clock.per_move")?;
    let days = match number(fields, "days")? {
        Some(days) => Some(days),
        None => number(fields, "clock.days")?,
    };
    let clock = match (limit, increment, per_move, days) {
        (Some(base_s), inc, None, None) => ClockSpec::Fischer {
            base_s,
            inc_s: inc.unwrap_or(0),
        },
        (None, None, Some(move_s), None) => ClockSpec::PerMove {
            move_s,
            max_timeouts: 3,
            consecutive: false,
        },
        (None, None, None, Some(days)) => ClockSpec::Days { days },
        (None, None, None, None) => {
            return Err(bad(
                "a clock (clock.limit and clock.increment, in seconds) or days: games without a clock are not played here",
            ))
        }
        _ => {
            return Err(bad(
                "one of: clock.limit (and clock.increment) in seconds, clock.per_move, or days",
            ))
        }
    };
    let rules = ruleset(fields)?;
    // Red moves first, as White does.
    let color = match text(fields, "color")?
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("random") => ColorChoice::Random,
        Some("white") | Some("red") => ColorChoice::Red,
        Some("black") | Some("blue") => ColorChoice::Blue,
        Some(_) => return Err(bad("color: white (red), black (blue) or random")),
    };
    if text(fields, "fen")?.is_some() {
        return Err(bad(
            "fen: challenges from a set-up position are not offered here (a private room is)",
        ));
    }
    Ok(Asked {
        rated: boolean(fields, "rated")?.unwrap_or(false),
        clock,
        rules,
        color,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(body: &str) -> Result<Asked, BotApiError> {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, "application/json".parse().unwrap());
        read(&headers, body.as_bytes())
    }

    fn form(body: &str) -> Result<Asked, BotApiError> {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            "application/x-www-form-urlencoded".parse().unwrap(),
        );
        read(&headers, body.as_bytes())
    }

    #[test]
    fn berserk_s_seek_reads() {
        // As berserk 0.14.0's `board.seek(5, 3, rated=True, variant="daitou")` sends it.
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            "application/x-www-form-urlencoded".parse().unwrap(),
        );
        let body = b"rated=true&time=5&increment=3&variant=daitou&color=random&ratingRange=";
        assert_eq!(
            read_seek(&headers, body).unwrap(),
            Sought {
                rated: true,
                clock: ClockSpec::Fischer {
                    base_s: 300,
                    inc_s: 3
                },
                rules: Ruleset::Daitou,
            }
        );
        assert!(
            read_seek(&headers, b"rated=false&increment=3").is_err(),
            "no time"
        );
        assert!(read_seek(&headers, b"time=5&variant=chess960").is_err());
        assert!(
            read_seek(&headers, b"days=3").is_err(),
            "over days: the lobby"
        );
    }

    #[test]
    fn berserk_s_body_reads() {
        // As berserk 0.14.0's `challenges.create(name, True, clock_limit=300,
        // clock_increment=3)` sends it: every key, `null` for those unset.
        let asked = json(
            r#"{"rated": true, "clock.limit": 300, "clock.increment": 3, "days": null, "color": null, "variant": null, "fen": null}"#,
        )
        .unwrap();
        assert_eq!(
            asked,
            Asked {
                rated: true,
                clock: ClockSpec::Fischer {
                    base_s: 300,
                    inc_s: 3
                },
                rules: Ruleset::Classic,
                color: ColorChoice::Random,
            }
        );
        let days = json(
            r#"{"rated": false, "clock.limit": null, "clock.increment": null, "days": 3, "color": "black", "variant": "standard", "fen": null}"#,
        )
        .unwrap();
        assert_eq!(days.clock, ClockSpec::Days { days: 3 });
        assert_eq!(days.color, ColorChoice::Blue);
    }

    #[test]
    fn lichess_s_form_and_ours_read_alike() {
        let from_form =
            form("rated=True&clock.limit=180&clock.increment=2&color=white&variant=strict")
                .unwrap();
        let ours = json(
            r#"{"rated": true, "clock": {"limit": 180, "increment": 2}, "color": "red", "rules": "strict"}"#,
        )
        .unwrap();
        assert_eq!(from_form, ours);
        assert_eq!(
            json(r#"{"clock": {"per_move": 30}}"#).unwrap().clock,
            ClockSpec::PerMove {
                move_s: 30,
                max_timeouts: 3,
                consecutive: false
            }
        );
        assert_eq!(form("days=7").unwrap().clock, ClockSpec::Days { days: 7 });
    }

    #[test]
    fn what_cannot_be_played_is_refused_saying_why() {
        for body in [
            r#"{"rated": false}"#,
            r#"{"clock.limit": 300, "days": 3}"#,
            r#"{"clock.limit": -5}"#,
            r#"{"clock.limit": 300, "variant": "chess960"}"#,
            r#"{"clock.limit": 300, "color": "green"}"#,
            r#"{"clock.limit": 300, "fen": "7/7/7/7/7/7/7/7/7 r"}"#,
            r#"{"clock.limit": 300, "rated": "maybe"}"#,
            r#"[1, 2]"#,
        ] {
            assert!(json(body).is_err(), "{body}");
        }
    }
}
