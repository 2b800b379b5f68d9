//! Rulesets: which rules a game is played by. A ruleset names the
//! parameters, and (with card mode) the EP table, variants and cards.
//!
//! Every command takes `--ruleset NAME|FILE`; bots, the board and the
//! balance lab build their games from a `Ruleset`, one `Ball` per thread
//! (a game with scripts holds a Lua state, which is not `Send`).

use crate::ball::Ball;
use crate::ball::params::Params;
use crate::kernel::hash::fingerprint;

/// A loaded, validated ruleset. Plain data: `Send`, cheap to clone.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub name: String,
    pub params: Params,
    /// Everything the ruleset's behaviour depends on, for the fingerprint.
    source: String,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ruleset `{name}`: {problem}")]
pub struct RulesetError {
    pub name: String,
    pub problem: String,
}

impl Ruleset {
    /// `ball.md` as decided, with the B12 defaults.
    pub fn standard() -> Ruleset {
        Ruleset {
            name: "standard".into(),
            params: Params::default(),
            source: format!("{:?}", Params::default()),
        }
    }

    /// Loads a ruleset by name (shipped under `rulesets/`) or path.
    pub fn load(spec: &str) -> Result<Ruleset, RulesetError> {
        match spec {
            "standard" => Ok(Ruleset::standard()),
            _ => Err(RulesetError {
                name: spec.into(),
                problem: "unknown ruleset (shipped: standard)".into(),
            }),
        }
    }

    /// 16 hex digits that change whenever anything the rules depend on
    /// changes: match records carry it to detect stale replays.
    pub fn fingerprint(&self) -> String {
        fingerprint(self.source.as_bytes())
    }

    /// A fresh game under this ruleset.
    pub fn game(&self) -> Ball {
        Ball::new(self.params.clone())
    }
}
