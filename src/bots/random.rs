//! The uniformly random bot: the baseline every other bot must beat.

use super::Bot;
use crate::kernel::game::Game;
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

impl<G: Game> Bot<G> for RandomBot {
    fn choose(&mut self, _game: &G, _pos: &G::Position, legal: &[G::Action]) -> G::Action {
        legal[self.rng.below(legal.len())]
    }

    fn spec(&self) -> String {
        "random".into()
    }
}
