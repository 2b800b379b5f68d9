//! BALL's `setup:` lines of scenario files (`crate::scenario`): edits of
//! the start position, in the notation's words.
//!
//! ```text
//! setup:
//!   turn 3 ATK action 2
//!   place DEF3 K9
//!   place DEF1 J10 down
//!   ball held ATK5
//!   stack H8 DEF2 ATK2 2
//!   score 1 0
//! ```

use super::board::Sq;
use super::piece::{PieceId, Team};
use super::position::{BallState, Phase, Position, Stack};

/// One `setup:` line.
pub fn edit(pos: &mut Position, line: &str) -> Result<(), String> {
    let t: Vec<&str> = line.split_whitespace().collect();
    let piece = |s: &str| PieceId::parse(s).ok_or_else(|| format!("`{s}` is not a piece id"));
    let square = |s: &str| Sq::parse(s).map_err(|e| e.describe(s));
    let number = |s: &str| {
        s.parse::<u16>()
            .map_err(|_| format!("`{s}` is not a number"))
    };
    match t.as_slice() {
        ["turn", turn, team, phase, ap] => {
            pos.turn = number(turn)?;
            pos.to_move = Team::parse(team).ok_or_else(|| format!("`{team}` is not ATK or DEF"))?;
            pos.phase = match *phase {
                "action" => Phase::Action,
                "release" => Phase::Release,
                _ => return Err(format!("`{phase}` is not action or release")),
            };
            pos.ap = number(ap)? as u8;
        }
        ["place", id, at, flags @ ..] => {
            let id = piece(id)?;
            let p = pos.piece_mut(id);
            p.at = square(at)?;
            p.down = false;
            p.restricted = false;
            for f in flags {
                match *f {
                    "down" => p.down = true,
                    "restricted" => p.restricted = true,
                    _ => return Err(format!("`{f}`: a piece flag is down or restricted")),
                }
            }
        }
        ["ball", "held", id] => pos.ball = BallState::Held(piece(id)?),
        ["ball", "loose", at] => pos.ball = BallState::Loose(square(at)?),
        ["stack", at, top, bottom, formed] => {
            let at = square(at)?;
            let (top, bottom) = (piece(top)?, piece(bottom)?);
            pos.piece_mut(top).at = at;
            pos.piece_mut(bottom).at = at;
            pos.stacks.insert(Stack {
                at,
                top,
                bottom,
                formed: number(formed)?,
            });
        }
        ["score", atk, def] => pos.score = [number(atk)? as u8, number(def)? as u8],
        _ => {
            return Err(format!(
                "`{line}`: expected `turn N TEAM PHASE AP`, `place PIECE SQUARE [down] [restricted]`, \
`ball held PIECE`, `ball loose SQUARE`, `stack SQUARE TOP BOTTOM FORMED` or `score ATK DEF`"
            ));
        }
    }
    Ok(())
}

