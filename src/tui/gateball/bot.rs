//! The bot seats' one call into the Gateball bots.
//!
//! **Stand-in.** `crate::bots::gateball` (with `choose` and `Level`) is
//! being written on another branch. Until it lands, this file holds a
//! minimal private stand-in with the same signature: both levels pick a
//! uniformly random legal action. When the real module is here, replace
//! everything below this comment with
//!
//! ```ignore
//! pub use crate::bots::gateball::{Level, choose};
//! ```
//!
//! and nothing else in the board changes: the app calls [`choose`] only
//! from `App::bot_choose`.

use crate::gateball::Gateball;
use crate::gateball::action::Action;
use crate::gateball::position::Position;
use crate::kernel::rng::SplitMix64;

/// How strong a bot seat plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Random,
    Greedy,
}

/// Picks one legal action of `pos` (which must not be over). Stand-in:
/// uniform over the canonical legal list at both levels.
pub fn choose(game: &Gateball, pos: &Position, level: Level, rng: &mut SplitMix64) -> Action {
    let _ = level;
    let legal = game.legal(pos);
    assert!(!legal.is_empty(), "a bot was asked in a finished game");
    legal[rng.below(legal.len())]
}
