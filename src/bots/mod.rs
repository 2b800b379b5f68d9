//! Bots: deterministic players for the boards, self-play and the balance
//! lab, written once for every game. A bot sees the game, the position
//! and its legal list, and picks one action; given the same seed and the
//! same positions it picks the same actions.
//!
//! - `random` — uniform over the legal list: the baseline.
//! - `greedy` — one ply on the game's own evaluation ([`Evaluate`]); over
//!   a roll of the dice, the expectation (see [`greedy`]).
//! - `mcts`, `mcts:N` — UCT search of N iterations (default
//!   [`mcts::DEFAULT_ITERATIONS`]) on the same evaluation.
//!
//! **No clairvoyance.** A position holds its future dice (so that games
//! replay exactly); a bot never plans on them: before it looks ahead it
//! replaces them with draws from its own generator
//! ([`Game::resample`](crate::kernel::game::Game::resample)), seeded from
//! its own seed, so two positions that differ only in dice nobody has
//! rolled get the same answer.

mod greedy;
pub mod mcts;
mod random;

pub use greedy::GreedyBot;
pub use mcts::MctsBot;
pub use random::RandomBot;

use crate::kernel::game::{Game, Seat};

/// A game's static evaluation, which `greedy` and `mcts` search on. Each
/// game implements it in its own folder (`games/*/eval.rs`).
pub trait Evaluate: Game {
    /// The value of `pos` for `seat`, in the game's "points": positive is
    /// good for `seat`, and the other seat's value is its negation.
    fn evaluate(&self, pos: &Self::Position, seat: Seat) -> f64;

    /// A value that makes a clear edge: `mcts` reads `value / EVAL_SCALE`
    /// through a logistic as a win probability (1 scale ≈ 73 %).
    const EVAL_SCALE: f64;

    /// An action that gives up the rest of the seat's turn (BALL's
    /// `end`): `greedy` plays it only when nothing strictly improves on
    /// the position as it stands.
    fn is_pass(&self, _action: Self::Action) -> bool {
        false
    }
}

pub trait Bot<G: Game> {
    /// Picks one action of `legal`, which is the legal list of `pos` and
    /// never empty.
    fn choose(&mut self, game: &G, pos: &G::Position, legal: &[G::Action]) -> G::Action;

    /// The spec that builds this bot again (`random`, `mcts:2000` …), for
    /// match records and reports.
    fn spec(&self) -> String;
}

/// The bot specs `from_spec` understands, for `--help` texts.
pub const SPECS: &str = "random, greedy, mcts, mcts:N (N iterations a decision, 1-1000000)";

/// The largest `mcts:N` budget accepted: far past any useful strength, low
/// enough that a typo cannot make one decision take hours.
pub const MAX_MCTS_ITERATIONS: u32 = 1_000_000;

/// Checks a spec without building a bot.
pub fn check_spec(spec: &str) -> Result<(), String> {
    parse(spec).map(|_| ())
}

enum Kind {
    Random,
    Greedy,
    Mcts(u32),
}

fn parse(spec: &str) -> Result<Kind, String> {
    match spec {
        "random" => Ok(Kind::Random),
        "greedy" => Ok(Kind::Greedy),
        "mcts" => Ok(Kind::Mcts(mcts::DEFAULT_ITERATIONS)),
        _ => {
            if let Some(n) = spec.strip_prefix("mcts:") {
                return match n.parse::<u32>() {
                    Ok(n) if (1..=MAX_MCTS_ITERATIONS).contains(&n) => Ok(Kind::Mcts(n)),
                    _ => Err(format!(
                        "bot `{spec}`: the budget must be a whole number of iterations, 1-{MAX_MCTS_ITERATIONS}"
                    )),
                };
            }
            Err(format!("unknown bot `{spec}` (known: {SPECS})"))
        }
    }
}

/// Builds a bot from its spec, e.g. `random`, `mcts:500`.
pub fn from_spec<G: Evaluate>(spec: &str, seed: u64) -> Result<Box<dyn Bot<G>>, String> {
    Ok(match parse(spec)? {
        Kind::Random => Box::new(RandomBot::new(seed)),
        Kind::Greedy => Box::new(GreedyBot::new(seed)),
        Kind::Mcts(n) => Box::new(MctsBot::new(seed, n)),
    })
}

/// A generator for a bot's own dice, apart from the one that breaks its
/// ties, so that a game without chance plays exactly as if it had none.
pub(crate) fn chance_rng(seed: u64) -> crate::kernel::rng::SplitMix64 {
    crate::kernel::rng::SplitMix64::new(seed ^ 0xD1CE_D1CE_D1CE_D1CE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ball::Ball;

    #[test]
    fn specs_build_and_round_trip() {
        for spec in ["random", "greedy", "mcts", "mcts:50"] {
            assert_eq!(from_spec::<Ball>(spec, 0).unwrap().spec(), spec);
        }
        // The default budget written out is the same bot.
        let n = mcts::DEFAULT_ITERATIONS;
        assert_eq!(
            from_spec::<Ball>(&format!("mcts:{n}"), 0).unwrap().spec(),
            "mcts"
        );
        for bad in [
            "",
            "mcts:",
            "mcts:0",
            "mcts:-1",
            "mcts:x",
            "mcts:99999999999",
            "Random",
        ] {
            assert!(from_spec::<Ball>(bad, 0).is_err(), "{bad}");
            assert!(check_spec(bad).is_err(), "{bad}");
        }
    }
}
