//! Gateball's `setup:` lines of scenario files (`crate::scenario`): edits
//! of the start position.
//!
//! ```text
//! game: gateball
//! setup:
//!   place 1 K4 1        # ball 1 on K4 with 1 gate; or out:SPACE, goal, waiting
//!   ball 1              # the ball whose play it is (phase shot)
//!   turn 2              # the turn (T3.3)
//!   queue 1 1 3 2 2     # die values rolled before the generator's (T4.6)
//!   rng 7               # the generator's state (T4.5)
//! ```

use super::position::{Place, Position};
use super::space::Space;
use crate::kernel::rng::SplitMix64;

/// One `setup:` line.
pub fn edit(pos: &mut Position, line: &str) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |s: &str, what: &str, max: u64| {
        s.parse::<u64>()
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| format!("`{s}` is not {what}"))
    };
    let ball = |s: &str| {
        number(s, "a ball number 1-10", 10).and_then(|n| {
            if n == 0 {
                Err(format!("`{s}` is not a ball number 1-10"))
            } else {
                Ok(n as u8)
            }
        })
    };
    let space = |s: &str| Space::parse(s).ok_or_else(|| format!("`{s}` is not a space name"));
    match words.as_slice() {
        ["place", n, place, gates] => {
            let n = ball(n)?;
            let gates = number(gates, "a number of gates 0-3", 3)? as u8;
            let place = match *place {
                "goal" => Place::Goal,
                "waiting" => Place::Waiting,
                p => match p.strip_prefix("out:") {
                    Some(s) => Place::Out(space(s)?),
                    None => Place::Court(space(p)?),
                },
            };
            let b = pos.ball_mut(n);
            b.place = place;
            b.gates = gates;
        }
        ["ball", n] => pos.ball = ball(n)?,
        ["turn", t] => pos.turn = number(t, "a turn 1-6", 6)?.max(1) as u8,
        ["queue", dice @ ..] if !dice.is_empty() => {
            for d in dice {
                let d = number(d, "a die value 1-6", 6)?;
                if d == 0 {
                    return Err("`0` is not a die value 1-6".into());
                }
                pos.dice_queue.push_back(d as u8);
            }
        }
        ["rng", seed] => pos.rng = SplitMix64::new(number(seed, "a seed", u64::MAX)?),
        _ => {
            return Err(format!(
                "`{line}`: expected `place N SPACE|out:SPACE|goal|waiting GATES`, `ball N`, \
`turn T`, `queue D …` or `rng SEED`"
            ));
        }
    }
    Ok(())
}
