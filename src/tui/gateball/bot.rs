//! The bot seats' one call into the bots (`crate::bots`): the app calls
//! [`choose`] only from `App::bot_choose`.

use crate::games::gateball::Gateball;
use crate::games::gateball::action::Action;
use crate::games::gateball::position::Position;
use crate::kernel::rng::SplitMix64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Random,
    Greedy,
}

impl Level {
    pub fn parse(spec: &str) -> Result<Level, String> {
        match spec {
            "random" => Ok(Level::Random),
            "greedy" => Ok(Level::Greedy),
            _ => Err(format!(
                "unknown Gateball bot `{spec}` (known: random, greedy)"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
        }
    }
}

/// Picks one legal action of `pos` (which must not be over), the bot
/// seeded from `rng`.
pub fn choose(game: &Gateball, pos: &Position, level: Level, rng: &mut SplitMix64) -> Action {
    let legal = game.legal(pos);
    let mut bot =
        crate::bots::from_spec::<Gateball>(level.name(), rng.next_u64()).expect("a known bot");
    bot.choose(game, pos, &legal)
}
