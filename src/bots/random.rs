//! The uniformly random bot: the baseline every other bot must beat.

use super::Bot;
use crate::games::ball::Ball;
use crate::games::ball::action::Action;
use crate::games::ball::position::Position;
use crate::kernel::rng::SplitMix64;

pub struct RandomBot {
    rng: SplitMix64,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: SplitMix64::new(seed),
        }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, _game: &Ball, _pos: &Position, legal: &[Action]) -> Action {
        legal[self.rng.below(legal.len())]
    }

    fn spec(&self) -> String {
        "random".into()
    }
}
