//! The one-ply greedy bot: plays the action whose resulting position the
//! evaluation ([`super::eval`]) likes best for the coach to move.
//!
//! A turn is several actions of the same coach (B4.2), so greedy judges
//! each action from the mover's point of view and keeps acting while
//! something improves on the position as it stands; it plays `end` only
//! when no other action is strictly better than doing nothing. Strict
//! improvement also rules out endless 0-AP hand-off loops (B8.1): the
//! value rises with every action, so no position repeats within a turn.
//! Ties are broken by the seeded generator, so a seed fixes the games.

use super::Bot;
use super::eval::evaluate;
use crate::games::ball::Ball;
use crate::games::ball::action::Action;
use crate::games::ball::position::Position;
use crate::kernel::game::Game;
use crate::kernel::rng::SplitMix64;

/// Values closer than this are a tie (the evaluation is a sum of a few
/// dozen terms; rounding must not decide between equal actions).
const EPS: f64 = 1e-9;

pub struct GreedyBot {
    rng: SplitMix64,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: SplitMix64::new(seed),
        }
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, game: &Ball, pos: &Position, legal: &[Action]) -> Action {
        let me = pos.to_move;
        let mut best: Option<(f64, Action)> = None;
        let mut ties = 0usize;
        let mut has_end = false;
        for &a in legal {
            if a == Action::End {
                has_end = true;
                continue;
            }
            let mut next = *pos;
            game.apply(&mut next, a);
            let v = evaluate(&next, &game.params, me);
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
        match best {
            Some((v, a)) if !has_end || v > evaluate(pos, &game.params, me) + EPS => a,
            Some((_, a)) if !has_end => a,
            _ => Action::End,
        }
    }

    fn spec(&self) -> String {
        "greedy".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ball::action::parse;

    /// Greedy takes a touchdown when one is on the board.
    #[test]
    fn takes_the_touchdown() {
        let game = Ball::default();
        let mut pos = game.start();
        // Put ATK to move with its holder one step from DEF's end zone.
        game.play(&mut pos, parse("end").unwrap(), &mut ()).unwrap();
        let holder =
            crate::games::ball::piece::PieceId::new(crate::games::ball::piece::Team::Atk, 5);
        pos.piece_mut(holder).at = crate::games::ball::board::Sq::parse("B14").unwrap();
        let legal = game.legal(&pos);
        let a = GreedyBot::new(1).choose(&game, &pos, &legal);
        assert_eq!(a.to_string().split(' ').next(), Some("move"));
        let mut next = pos;
        game.apply(&mut next, a);
        assert_eq!(
            next.score[crate::games::ball::piece::Team::Atk as usize],
            1,
            "{a}"
        );
    }

    /// With nothing to gain (only `end` and worse actions), greedy ends.
    #[test]
    fn ends_when_nothing_improves() {
        let game = Ball::default();
        let mut pos = game.start();
        pos.ap = 0; // only hand-offs (none here: ATK has the ball) and `end`
        let legal = game.legal(&pos);
        assert_eq!(legal, vec![Action::End]);
        assert_eq!(GreedyBot::new(0).choose(&game, &pos, &legal), Action::End);
    }

    #[test]
    fn same_seed_same_choices() {
        let game = Ball::default();
        let pos = game.start();
        let legal = game.legal(&pos);
        let a: Vec<Action> = (0..5)
            .map(|_| GreedyBot::new(9).choose(&game, &pos, &legal))
            .collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
    }
}
