//! Bots: deterministic players for the board, self-play and the balance
//! lab. A bot sees the game, the position and its legal list, and picks
//! one action; given the same seed and the same positions it picks the
//! same actions.

mod random;

pub use random::RandomBot;

use crate::ball::Ball;
use crate::ball::action::Action;
use crate::ball::position::Position;

pub trait Bot {
    /// Picks one action of `legal`, which is `game.legal(pos)` and never
    /// empty.
    fn choose(&mut self, game: &Ball, pos: &Position, legal: &[Action]) -> Action;

    /// The spec that builds this bot again (`random`, `mcts:2000` …), for
    /// match records and reports.
    fn spec(&self) -> String;
}

/// The bot specs `from_spec` understands, for `--help` texts.
pub const SPECS: &str = "random";

/// Builds a bot from its spec, e.g. `random`.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    match spec {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        _ => Err(format!("unknown bot `{spec}` (known: {SPECS})")),
    }
}
