//! Gateball bots: `random` (uniform over the legal list) and `greedy`
//! (expectimax one shot deep on a static evaluation). Gateball has dice, so
//! the greedy bot chooses `power` or `tech` by the average, over every
//! roll, of the best move that roll would allow (T4.3: the type is chosen
//! before the dice, the move after).

use crate::games::gateball::Gateball;
use crate::games::gateball::action::Action;
use crate::games::gateball::apply;
use crate::games::gateball::position::{Phase, Place, Position, ShotKind, Team};
use crate::games::gateball::rules;
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

/// Picks one legal action of `pos` (which must not be over).
pub fn choose(game: &Gateball, pos: &Position, level: Level, rng: &mut SplitMix64) -> Action {
    let legal = game.legal(pos);
    assert!(
        !legal.is_empty(),
        "a bot was asked to move in a finished game"
    );
    match level {
        Level::Random => legal[rng.below(legal.len())],
        Level::Greedy => greedy(game, pos, &legal, rng),
    }
}

fn greedy(game: &Gateball, pos: &Position, legal: &[Action], rng: &mut SplitMix64) -> Action {
    let me = Team::of_ball(pos.ball);
    let scored: Vec<(f64, Action)> = legal
        .iter()
        .map(|&a| {
            let v = match a {
                Action::Power => expected_shot(game, pos, ShotKind::Power, me),
                Action::Tech => expected_shot(game, pos, ShotKind::Tech, me),
                _ => after(game, pos, a, me),
            };
            (v, a)
        })
        .collect();
    let best = scored
        .iter()
        .map(|(v, _)| *v)
        .fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<Action> = scored
        .iter()
        .filter(|(v, _)| *v >= best - 1e-9)
        .map(|&(_, a)| a)
        .collect();
    ties[rng.below(ties.len())]
}

/// The value for `me` after applying `a` (dice drawn inside, e.g. for the
/// spark, come from the position's own generator).
fn after(game: &Gateball, pos: &Position, a: Action, me: Team) -> f64 {
    let mut next = pos.clone();
    apply::apply(game, &mut next, a, &mut ());
    evaluate(game, &next, me)
}

/// The average over every roll of the best move's value (T5.7: a roll
/// with no move loses the shot).
fn expected_shot(game: &Gateball, pos: &Position, kind: ShotKind, me: Team) -> f64 {
    let rolls: Vec<Vec<u8>> = match kind {
        ShotKind::Power => (1..=6)
            .flat_map(|a| (1..=6).map(move |b| vec![a, b]))
            .collect(),
        ShotKind::Tech => (1..=6).map(|d| vec![d]).collect(),
    };
    let lost = {
        let mut next = pos.clone();
        apply::end_play(game, &mut next, &mut ());
        evaluate(game, &next, me)
    };
    let total: f64 = rolls
        .iter()
        .map(|dice| {
            let mut rolled = pos.clone();
            rolled.phase = Phase::Move;
            rolled.shot = Some(kind);
            rolled.dice = dice.clone();
            let mut best = f64::NEG_INFINITY;
            let mut moves = Vec::new();
            rules::moves(game, &rolled, &mut |m, _| moves.push(m));
            for m in moves {
                best = best.max(after(game, &rolled, Action::Shot(m), me));
            }
            if best.is_finite() { best } else { lost }
        })
        .sum();
    total / rolls.len() as f64
}

/// Static value of `pos` for `me`: points, plus progress toward each
/// ball's next target (its next gate, then the Finish).
pub fn evaluate(game: &Gateball, pos: &Position, me: Team) -> f64 {
    if let Some(w) = pos.winner {
        use crate::games::gateball::position::Winner;
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
