//! Seeded random play, the first bot and the driver of the property tests.

use super::game::Game;
use super::rng::SplitMix64;

/// Plays uniformly random legal actions from `pos` until the game is over
/// or `max_actions` have been played; calls `each` before every action with
/// the position and the legal list. Returns the actions played.
pub fn random_playout<G: Game>(
    game: &G,
    mut pos: G::Position,
    rng: &mut SplitMix64,
    max_actions: usize,
    mut each: impl FnMut(&G::Position, &[G::Action], G::Action),
) -> (G::Position, Vec<G::Action>) {
    let mut legal = Vec::new();
    let mut played = Vec::new();
    while played.len() < max_actions {
        game.legal_into(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        let action = legal[rng.below(legal.len())];
        each(&pos, &legal, action);
        game.apply(&mut pos, action);
        played.push(action);
    }
    (pos, played)
}
