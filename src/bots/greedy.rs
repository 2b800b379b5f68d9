//! The one-ply greedy bot: plays the action whose resulting position the
//! game's evaluation ([`Evaluate`]) likes best for the seat to move.
//!
//! A seat may play several actions in a row (BALL's turn, B4.2), so greedy
//! judges each action from the mover's point of view and keeps acting
//! while something improves on the position as it stands; it plays a
//! pass ([`Evaluate::is_pass`]) only when no other action is strictly
//! better than doing nothing. Strict improvement also rules out endless
//! loops of free actions (BALL's 0-AP hand-offs, B8.1): the value rises
//! with every action, so no position repeats within a turn.
//!
//! **Dice.** When an action rolls before anyone decides again and the
//! game lists the rolls ([`Game::chance_outcomes`]), its value is the
//! expectation over them, and where a roll hands the choice back to the
//! same seat (Gateball: `power`, then the shot on the roll, T4.3), the
//! value of that roll is the best reply's. Any other die an action rolls
//! is drawn from the bot's own generator, never the position's
//! ([`Game::resample`]).
//!
//! Ties are broken by the seeded generator, so a seed fixes the games.

use std::any::Any;

use super::{Bot, Evaluate, chance_rng};
use crate::kernel::game::{Chance, Outcomes, Seat};
use crate::kernel::rng::SplitMix64;

/// Values closer than this are a tie (the evaluation is a sum of a few
/// dozen terms; rounding must not decide between equal actions).
const EPS: f64 = 1e-9;

pub struct GreedyBot {
    rng: SplitMix64,
    dice: SplitMix64,
    /// The last decision's [`Scratch`], kept for the next: a bot is
    /// asked thousands of times a match, and the buffers' positions
    /// hold allocations of their own. `Any` because the bot's type names
    /// no game.
    scratch: Option<Box<dyn Any>>,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: SplitMix64::new(seed),
            dice: chance_rng(seed),
            scratch: None,
        }
    }

    /// The value for `me` of playing `a` in `pos`.
    fn value<G: Evaluate>(
        &mut self,
        game: &G,
        pos: &G::Position,
        a: G::Action,
        me: Seat,
        s: &mut Scratch<G>,
    ) -> f64 {
        match game.chance_outcomes(pos, a, &mut s.outcomes) {
            Chance::Sure => {
                // The draw `after` makes, made after the action rather
                // than before: no die was rolled, so the position is the
                // same, and so is the bot's generator.
                let next = &mut s.outcomes.as_mut_slice()[0].1;
                game.resample(next, &mut self.dice);
                game.evaluate(next, me)
            }
            Chance::Listed => {
                let Scratch {
                    outcomes,
                    legal,
                    next,
                } = s;
                outcomes
                    .as_slice()
                    .iter()
                    .map(|(p, rolled)| p * self.after_roll(game, rolled, me, legal, next))
                    .sum()
            }
            Chance::Sampled => self.after(game, pos, a, me, &mut s.next),
        }
    }

    /// The evaluation after `a`, any die it rolls drawn by the bot.
    fn after<G: Evaluate>(
        &mut self,
        game: &G,
        pos: &G::Position,
        a: G::Action,
        me: Seat,
        next: &mut Option<G::Position>,
    ) -> f64 {
        let next = crate::kernel::game::copy_into(next, pos);
        game.resample(next, &mut self.dice);
        game.apply(next, a);
        game.evaluate(next, me)
    }

    /// A rolled position: the best reply's value when `me` chooses next.
    fn after_roll<G: Evaluate>(
        &mut self,
        game: &G,
        pos: &G::Position,
        me: Seat,
        legal: &mut Vec<G::Action>,
        next: &mut Option<G::Position>,
    ) -> f64 {
        if game.to_move(pos) != Some(me) {
            return game.evaluate(pos, me);
        }
        let mut best = f64::NEG_INFINITY;
        let dice = &mut self.dice;
        game.children(
            pos,
            legal,
            next,
            &mut |next| game.resample(next, dice),
            &mut |_, next| best = best.max(game.evaluate(next, me)),
        );
        best
    }
}

/// The buffers one decision reuses for every action it weighs: a search
/// of a G-ball list copies a position per action, and allocating each
/// copy cost as much as playing the action.
struct Scratch<G: Evaluate> {
    outcomes: Outcomes<G::Position>,
    legal: Vec<G::Action>,
    next: Option<G::Position>,
}

impl<G: Evaluate> Bot<G> for GreedyBot {
    fn choose(&mut self, game: &G, pos: &G::Position, legal: &[G::Action]) -> G::Action {
        let me = game
            .to_move(pos)
            .expect("a bot is asked only while the game goes on");
        let mut scratch: Box<Scratch<G>> = self
            .scratch
            .take()
            .and_then(|b| b.downcast().ok())
            .unwrap_or_else(|| {
                Box::new(Scratch {
                    outcomes: Outcomes::new(),
                    legal: Vec::new(),
                    next: None,
                })
            });
        let mut best: Option<(f64, G::Action)> = None;
        let mut ties = 0usize;
        let mut pass = None;
        for &a in legal {
            if game.is_pass(a) {
                pass = Some(a);
                continue;
            }
            let v = self.value(game, pos, a, me, &mut scratch);
            match best {
                Some((b, _)) if v < b - EPS => {}
                Some((b, _)) if v <= b + EPS => {
                    // Reservoir sampling: each tied action equally likely.
                    ties += 1;
                    if self.rng.below(ties) == 0 {
                        best = Some((b, a));
                    }
                }
                _ => {
                    best = Some((v, a));
                    ties = 1;
                }
            }
        }
        self.scratch = Some(scratch);
        match (best, pass) {
            (Some((_, a)), None) => a,
            (Some((v, a)), Some(_)) if v > game.evaluate(pos, me) + EPS => a,
            (_, Some(p)) => p,
            (None, None) => unreachable!("the legal list is never empty"),
        }
    }

    fn spec(&self) -> String {
        "greedy".into()
    }
}
