//! The static evaluation of a Gateball position (`bots::Evaluate`): points,
//! plus each ball's progress toward its next target (its next gate, then
//! the Finish). The bots search on it; they roll their own dice
//! (`Game::chance_outcomes` for `power` and `tech`, `Game::resample`
//! elsewhere), never the position's.

use super::Gateball;
use super::position::{Place, Position, Team};
use crate::bots::Evaluate;

impl Evaluate for Gateball {
    fn evaluate(&self, pos: &Position, seat: usize) -> f64 {
        evaluate(self, pos, [Team::Red, Team::Blue][seat])
    }

    /// A ball's gate is 1 point; a few points is a clear lead.
    const EVAL_SCALE: f64 = 5.0;
}

/// Static value of `pos` for `me`: points, plus progress toward each
/// ball's next target (its next gate, then the Finish).
pub fn evaluate(game: &Gateball, pos: &Position, me: Team) -> f64 {
    if let Some(w) = pos.winner {
        use super::position::Winner;
        return match w {
            Winner::Team(t) if t == me => 1000.0,
            Winner::Team(_) => -1000.0,
            Winner::Draw => 0.0,
        };
    }
    (1..=10u8)
        .map(|n| {
            let b = pos.ball_state(n);
            let v = match b.place {
                Place::Goal => 5.0,
                Place::Waiting => 0.0,
                Place::Out(_) => f64::from(b.gates) - 0.3,
                Place::Court(s) => {
                    let target = if b.gates < 3 {
                        game.court.gates[usize::from(b.gates)].bottom
                    } else {
                        game.court.finish
                    };
                    let d = f64::from(s.col.abs_diff(target.col) + s.row.abs_diff(target.row));
                    let near = (1.0 - d / 24.0).max(0.0);
                    let weight = if b.gates < 3 { 0.8 } else { 1.6 };
                    f64::from(b.gates) + weight * near
                }
            };
            if Team::of_ball(n) == me { v } else { -v }
        })
        .sum()
}
