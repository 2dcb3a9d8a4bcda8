//! Which challenges the bridge accepts: a filter read from a JSON file (`--config`), every
//! field optional. A challenge it refuses is declined with the reason from lichess's list that
//! says why, so the challenger knows what to send instead.

use serde::Deserialize;

/// The filter. Without a file: every ruleset, rated and casual, bots and people, any clock,
/// four games at once.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Filter {
    /// Rulesets accepted (`classic`, `strict`, `daitou`, `international`).
    pub rules: Vec<String>,
    pub rated: bool,
    pub casual: bool,
    /// Opponents accepted: other bots, people.
    pub bots: bool,
    pub people: bool,
    /// A Fischer clock's starting time accepted, in seconds.
    pub min_initial_s: u64,
    pub max_initial_s: u64,
    pub max_increment_s: u64,
    /// Whether clocks per move are accepted, and their bounds in seconds.
    pub per_move: bool,
    pub min_per_move_s: u64,
    pub max_per_move_s: u64,
    /// Games played at once; a challenge beyond is declined `later`.
    pub max_games: usize,
    /// Milliseconds kept back from the clock for the network, per move.
    pub move_overhead_ms: u64,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            rules: ["classic", "strict", "daitou", "international"]
                .map(str::to_owned)
                .to_vec(),
            rated: true,
            casual: true,
            bots: true,
            people: true,
            min_initial_s: 0,
            max_initial_s: 3 * 3600,
            max_increment_s: 180,
            per_move: true,
            min_per_move_s: 1,
            max_per_move_s: 3 * 86_400,
            max_games: 4,
            move_overhead_ms: 300,
        }
    }
}

/// A challenge as the event stream tells it, the parts the filter reads.
#[derive(Clone, Debug, Deserialize)]
pub struct Challenge {
    pub id: String,
    pub rules: String,
    pub rated: bool,
    pub clock: serde_json::Value,
    pub challenger: Challenger,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Challenger {
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
}

impl Filter {
    pub fn read(path: &std::path::Path) -> Result<Filter, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--config {}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("--config {}: {e}", path.display()))
    }

    /// `Ok` to accept `challenge` with `playing` games under way; else the decline reason.
    pub fn judge(&self, challenge: &Challenge, playing: usize) -> Result<(), &'static str> {
        if !self.rules.contains(&challenge.rules) {
            return Err("standard");
        }
        match (challenge.rated, self.rated, self.casual) {
            (true, false, _) => return Err("casual"),
            (false, _, false) => return Err("rated"),
            _ => {}
        }
        let bot = challenge.challenger.title.as_deref() == Some("BOT");
        if bot && !self.bots {
            return Err("noBot");
        }
        if !bot && !self.people {
            return Err("onlyBot");
        }
        let seconds = |field: &str| challenge.clock[field].as_u64().map(|ms| ms / 1000);
        match challenge.clock["kind"].as_str() {
            Some("fischer") => {
                let initial = seconds("initial").unwrap_or(0);
                let increment = seconds("increment").unwrap_or(0);
                if initial + 40 * increment < self.min_initial_s {
                    return Err("tooFast");
                }
                if initial > self.max_initial_s || increment > self.max_increment_s {
                    return Err("tooSlow");
                }
            }
            Some("per_move") if self.per_move => {
                let per_move = seconds("perMove").unwrap_or(0);
                if per_move < self.min_per_move_s {
                    return Err("tooFast");
                }
                if per_move > self.max_per_move_s {
                    return Err("tooSlow");
                }
            }
            _ => return Err("timeControl"),
        }
        if playing >= self.max_games {
            return Err("later");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn challenge(rules: &str, rated: bool, clock: serde_json::Value, bot: bool) -> Challenge {
        serde_json::from_value(json!({
            "id": "c1",
            "rules": rules,
            "rated": rated,
            "clock": clock,
            "challenger": { "name": "x", "title": if bot { Some("BOT") } else { None } },
        }))
        .unwrap()
    }

    fn fischer(initial_s: u64, inc_s: u64) -> serde_json::Value {
        json!({ "kind": "fischer", "initial": initial_s * 1000, "increment": inc_s * 1000 })
    }

    #[test]
    fn the_default_takes_everything_up_to_its_games_at_once() {
        let filter = Filter::default();
        let c = challenge("daitou", true, fischer(300, 3), true);
        assert_eq!(filter.judge(&c, 0), Ok(()));
        assert_eq!(filter.judge(&c, 4), Err("later"));
        let per_move = json!({ "kind": "per_move", "perMove": 86_400_000 });
        assert_eq!(
            filter.judge(&challenge("classic", false, per_move, false), 0),
            Ok(())
        );
    }

    #[test]
    fn each_refusal_says_why() {
        let filter: Filter = serde_json::from_value(json!({
            "rules": ["classic"], "rated": false, "bots": false,
            "min_initial_s": 60, "max_initial_s": 600, "per_move": false,
        }))
        .unwrap();
        let judge = |c: Challenge| filter.judge(&c, 0);
        assert_eq!(
            judge(challenge("strict", false, fischer(300, 0), false)),
            Err("standard")
        );
        assert_eq!(
            judge(challenge("classic", true, fischer(300, 0), false)),
            Err("casual")
        );
        assert_eq!(
            judge(challenge("classic", false, fischer(300, 0), true)),
            Err("noBot")
        );
        assert_eq!(
            judge(challenge("classic", false, fischer(15, 0), false)),
            Err("tooFast")
        );
        assert_eq!(
            judge(challenge("classic", false, fischer(900, 0), false)),
            Err("tooSlow")
        );
        let per_move = json!({ "kind": "per_move", "perMove": 30_000 });
        assert_eq!(
            judge(challenge("classic", false, per_move, false)),
            Err("timeControl")
        );
        assert_eq!(
            judge(challenge("classic", false, fischer(60, 2), false)),
            Ok(())
        );
    }

    #[test]
    fn an_unknown_field_is_an_error_not_a_silent_default() {
        assert!(serde_json::from_value::<Filter>(json!({ "max_game": 2 })).is_err());
    }
}
