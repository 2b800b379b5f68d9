//! Bots: deterministic players for the board, self-play and the balance
//! lab. A bot sees the game, the position and its legal list, and picks
//! one action; given the same seed and the same positions it picks the
//! same actions.
//!
//! - `random` — uniform over the legal list: the baseline.
//! - `greedy` — one ply on the static evaluation of [`eval`].
//! - `mcts`, `mcts:N` — UCT search of N iterations (default
//!   [`mcts::DEFAULT_ITERATIONS`]) on the same evaluation.

pub mod eval;
pub mod gateball;
mod greedy;
pub mod mcts;
mod random;

pub use greedy::GreedyBot;
pub use mcts::MctsBot;
pub use random::RandomBot;

use crate::games::ball::Ball;
use crate::games::ball::action::Action;
use crate::games::ball::position::Position;

pub trait Bot {
    /// Picks one action of `legal`, which is `game.legal(pos)` and never
    /// empty.
    fn choose(&mut self, game: &Ball, pos: &Position, legal: &[Action]) -> Action;

    /// The spec that builds this bot again (`random`, `mcts:2000` …), for
    /// match records and reports.
    fn spec(&self) -> String;
}

/// The bot specs `from_spec` understands, for `--help` texts.
pub const SPECS: &str = "random, greedy, mcts, mcts:N (N iterations a decision, 1-1000000)";

/// The largest `mcts:N` budget accepted: far past any useful strength, low
/// enough that a typo cannot make one decision take hours.
pub const MAX_MCTS_ITERATIONS: u32 = 1_000_000;

/// Builds a bot from its spec, e.g. `random`, `mcts:500`.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    match spec {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "greedy" => Ok(Box::new(GreedyBot::new(seed))),
        "mcts" => Ok(Box::new(MctsBot::new(seed, mcts::DEFAULT_ITERATIONS))),
        _ => {
            if let Some(n) = spec.strip_prefix("mcts:") {
                return match n.parse::<u32>() {
                    Ok(n) if (1..=MAX_MCTS_ITERATIONS).contains(&n) => {
                        Ok(Box::new(MctsBot::new(seed, n)))
                    }
                    _ => Err(format!(
                        "bot `{spec}`: the budget must be a whole number of iterations, 1-{MAX_MCTS_ITERATIONS}"
                    )),
                };
            }
            Err(format!("unknown bot `{spec}` (known: {SPECS})"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_build_and_round_trip() {
        for spec in ["random", "greedy", "mcts", "mcts:50"] {
            assert_eq!(from_spec(spec, 0).unwrap().spec(), spec);
        }
        // The default budget written out is the same bot.
        let n = mcts::DEFAULT_ITERATIONS;
        assert_eq!(from_spec(&format!("mcts:{n}"), 0).unwrap().spec(), "mcts");
        for bad in [
            "",
            "mcts:",
            "mcts:0",
            "mcts:-1",
            "mcts:x",
            "mcts:99999999999",
            "Random",
        ] {
            assert!(from_spec(bad, 0).is_err(), "{bad}");
        }
    }
}
