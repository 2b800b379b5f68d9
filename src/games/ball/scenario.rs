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
//!   ep DEF 3
//!   card-used DEF second-wind 1
//! ```
//!
//! `ep TEAM N` sets a coach's EP (B11.2); `card-used TEAM CARD GAME
//! [TURN]` records that the coach played a use-limited card GAME times
//! this game and TURN times this turn (default 0): the position's
//! `cards_used` record, which the ruleset then checks names one of the
//! coach's use-limited cards (B11.6).

use super::board::Sq;
use super::piece::{PieceId, Team};
use super::position::{BallState, Phase, Position, Stack};

/// One `setup:` line.
pub fn edit(pos: &mut Position, line: &str) -> Result<(), String> {
    edit_with(pos, line, &super::params::Layout::default())
}

/// [`edit`] with the ruleset's own data: `var NAME [WHO] VALUE` sets a
/// variant's counter (its `state`), so a scenario can start where a house
/// rule's counters matter.
pub fn edit_with(
    pos: &mut Position,
    line: &str,
    layout: &super::params::Layout,
) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if let ["var", name, rest @ ..] = words.as_slice() {
        return set_var(pos, name, rest, layout);
    }
    let t: Vec<&str> = line.split_whitespace().collect();
    let piece = |s: &str| PieceId::parse(s).ok_or_else(|| format!("`{s}` is not a piece id"));
    let square = |s: &str| Sq::parse(s).map_err(|e| e.describe(s));
    // Out of range is an error, never wrapped: `action 258` is not 2 AP.
    let number = |s: &str, what: &str, max: u16| match s.parse::<u32>() {
        Ok(n) if n <= u32::from(max) => Ok(n as u16),
        Ok(n) => Err(format!("{what} {n} is out of range 0-{max}")),
        Err(_) => Err(format!("`{s}` is not a number")),
    };
    let small = |s: &str, what: &str| number(s, what, 255).map(|n| n as u8);
    match t.as_slice() {
        ["turn", turn, team, phase, ap] => {
            pos.turn = number(turn, "turn", u16::MAX)?;
            pos.to_move = Team::parse(team).ok_or_else(|| format!("`{team}` is not ATK or DEF"))?;
            pos.phase = match *phase {
                "action" => Phase::Action,
                "release" => Phase::Release,
                _ => return Err(format!("`{phase}` is not action or release")),
            };
            pos.ap = small(ap, "AP")?;
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
            let formed = number(formed, "formed turn", u16::MAX)?;
            if !pos.stacks.insert(Stack {
                at,
                top,
                bottom,
                formed,
            }) {
                return Err(
                    "an eighth stack: a position has at most 7 (B7.1: 14 pieces, two a stack)"
                        .into(),
                );
            }
        }
        ["score", atk, def] => pos.score = [small(atk, "score")?, small(def, "score")?],
        ["ep", team, n] => {
            let team = Team::parse(team).ok_or_else(|| format!("`{team}` is not ATK or DEF"))?;
            pos.ep[team as usize] = number(n, "EP", 9999)?.into();
        }
        ["card-used", team, card, uses @ ..] if (1..=2).contains(&uses.len()) => {
            let team = Team::parse(team).ok_or_else(|| format!("`{team}` is not ATK or DEF"))?;
            if !super::action::is_card_id(card) {
                return Err(format!("`{card}` is not a card id"));
            }
            let card = super::action::CardId::intern(card)?;
            let game = small(uses[0], "uses this game")?;
            let turn = match uses.get(1) {
                Some(t) => small(t, "uses this turn")?,
                None => 0,
            };
            if turn > game {
                return Err(format!(
                    "{turn} uses this turn but {game} this game: a turn's plays are the game's too"
                ));
            }
            if !pos.card_uses.set(super::position::CardUse {
                team,
                card,
                game,
                turn,
            }) {
                return Err("the position records at most 16 use-limited cards (B11.6)".into());
            }
        }
        _ => {
            return Err(format!(
                "`{line}`: expected `turn N TEAM PHASE AP`, `place PIECE SQUARE [down] [restricted]`, \
`ball held PIECE`, `ball loose SQUARE`, `stack SQUARE TOP BOTTOM FORMED`, `score ATK DEF`, `ep TEAM N`, \
`card-used TEAM CARD GAME [TURN]` or `var NAME [PIECE|TEAM] VALUE`"
            ));
        }
    }
    Ok(())
}


/// `var NAME [WHO] VALUE`: a counter of the ruleset's variants.
fn set_var(
    pos: &mut Position,
    name: &str,
    rest: &[&str],
    layout: &super::params::Layout,
) -> Result<(), String> {
    use super::params::Scope;
    let decl = layout.counter(name).map_err(|e| format!("`var {name}`: {e}"))?;
    let (who, value) = match (decl.scope, rest) {
        (Scope::Game, [v]) => (0, v),
        (Scope::Team, [t, v]) => (
            Team::parse(t).ok_or_else(|| format!("`{t}` is not ATK or DEF"))? as usize,
            v,
        ),
        (Scope::Piece, [p, v]) => (
            PieceId::parse(p)
                .ok_or_else(|| format!("`{p}` is not a piece id"))?
                .0 as usize,
            v,
        ),
        (scope, _) => {
            return Err(format!(
                "`var {name}` is a {} counter: `var {name} {}VALUE`",
                scope.name(),
                match scope {
                    Scope::Game => "",
                    Scope::Team => "TEAM ",
                    Scope::Piece => "PIECE ",
                }
            ));
        }
    };
    pos.vars[decl.slot + who] = value
        .parse::<i16>()
        .map_err(|_| format!("`{value}` is not a whole number -32768..32767"))?;
    Ok(())
}
