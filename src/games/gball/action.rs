//! Actions in the notation (`docs/rules/gball-notation.md`, "Actions"): one line, a
//! lowercase verb and its arguments. Printing gives the canonical spelling
//! (players of `decline`/`receivers` in ascending id order); parsing takes
//! those lists in any order but refuses a repeated player or `none` with
//! players.

use std::fmt;

use super::board::{dir_name, parse_dir, parse_square, Sq};
use super::position::{bit, members, parse_id, Id};

/// A turn's way (G9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Way {
    Left,
    Right,
    None,
}

impl Way {
    pub fn name(self) -> &'static str {
        match self {
            Way::Left => "left",
            Way::Right => "right",
            Way::None => "none",
        }
    }
}

/// One decision. Players are indices (see `position::pid`), squares and
/// directions those of `board`, sets of players masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Place { player: u8, square: u8 },
    Move { player: u8, dir: u8 },
    Stay { player: u8 },
    Turn { actor: u8, target: u8, way: Way },
    Decline(u32),
    Receivers(u32),
    Block { blocker: u8, opponent: u8 },
    /// `catch none` is `Catch(None)`.
    Catch(Option<u8>),
    Aim(u8),
    Keep(u8),
    Throw { holder: u8, dir: u8 },
    Spin(u8),
    Handoff { holder: u8, to: u8 },
    /// A ruleset's variant's own action, offered where `stay PLAYER` is
    /// (a move decision): its `resolve`, then the player stays. `id` is
    /// its interned word (`script::variants::intern_action`).
    Variant { id: u8, player: u8 },
}

impl Action {
    pub fn verb(&self) -> &'static str {
        match self {
            Action::Place { .. } => "place",
            Action::Move { .. } => "move",
            Action::Stay { .. } => "stay",
            Action::Turn { .. } => "turn",
            Action::Decline(_) => "decline",
            Action::Receivers(_) => "receivers",
            Action::Block { .. } => "block",
            Action::Catch(_) => "catch",
            Action::Aim(_) => "aim",
            Action::Keep(_) => "keep",
            Action::Throw { .. } => "throw",
            Action::Spin(_) => "spin",
            Action::Handoff { .. } => "handoff",
            Action::Variant { id, .. } => crate::script::variants::action_name(*id),
        }
    }

    /// The pending `kind` the action answers.
    pub fn decision(&self) -> &'static str {
        match self {
            Action::Stay { .. } | Action::Variant { .. } => "move",
            Action::Keep(_) | Action::Throw { .. } | Action::Spin(_) | Action::Handoff { .. } => {
                "act"
            }
            a => a.verb(),
        }
    }
}

fn write_set(f: &mut fmt::Formatter<'_>, mask: u32) -> fmt::Result {
    if mask == 0 {
        return f.write_str(" none");
    }
    for p in members(mask) {
        write!(f, " {}", Id(p))?;
    }
    Ok(())
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Place { player, square } => write!(f, "place {} {}", Id(player), Sq(square)),
            Action::Move { player, dir } => write!(f, "move {} {}", Id(player), dir_name(dir)),
            Action::Stay { player } => write!(f, "stay {}", Id(player)),
            Action::Variant { id, player } => write!(
                f,
                "{} {}",
                crate::script::variants::action_name(id),
                Id(player)
            ),
            Action::Turn { actor, target, way } => {
                write!(f, "turn {} {} {}", Id(actor), Id(target), way.name())
            }
            Action::Decline(m) => {
                f.write_str("decline")?;
                write_set(f, m)
            }
            Action::Receivers(m) => {
                f.write_str("receivers")?;
                write_set(f, m)
            }
            Action::Block { blocker, opponent } => {
                write!(f, "block {} {}", Id(blocker), Id(opponent))
            }
            Action::Catch(None) => f.write_str("catch none"),
            Action::Catch(Some(p)) => write!(f, "catch {}", Id(p)),
            Action::Aim(d) => write!(f, "aim {}", dir_name(d)),
            Action::Keep(h) => write!(f, "keep {}", Id(h)),
            Action::Throw { holder, dir } => write!(f, "throw {} {}", Id(holder), dir_name(dir)),
            Action::Spin(h) => write!(f, "spin {}", Id(h)),
            Action::Handoff { holder, to } => write!(f, "handoff {} {}", Id(holder), Id(to)),
        }
    }
}

/// Reads one action. The message names the action and what is wrong.
pub fn parse(text: &str) -> Result<Action, String> {
    let bad = |why: String| Err(format!("malformed action `{text}`: {why}"));
    if text.len() > 200 {
        return Err("malformed action: longer than 200 bytes".into());
    }
    let words: Vec<&str> = text.split(' ').collect();
    if text.is_empty() || words.iter().any(|w| w.is_empty()) {
        return bad("words are separated by single spaces, with none before or after".into());
    }
    let args = &words[1..];
    let count = |n: usize| -> Result<(), String> {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!(
                "malformed action `{text}`: `{}` takes {n} argument{}",
                words[0],
                if n == 1 { "" } else { "s" }
            ))
        }
    };
    let player = |s: &str| -> Result<u8, String> {
        parse_id(s).ok_or_else(|| {
            format!("malformed action `{text}`: `{s}` is not a player (RED1–RED9, BLU1–BLU9)")
        })
    };
    let dir = |s: &str| -> Result<u8, String> {
        parse_dir(s).ok_or_else(|| {
            format!("malformed action `{text}`: `{s}` is not a direction (N NE E SE S SW W NW)")
        })
    };
    let set = |max: usize| -> Result<u32, String> {
        if args.is_empty() {
            return Err(format!(
                "malformed action `{text}`: `{}` takes `none` or players",
                words[0]
            ));
        }
        if args == ["none"] {
            return Ok(0);
        }
        let mut m = 0u32;
        for a in args {
            if *a == "none" {
                return Err(format!(
                    "malformed action `{text}`: `none` cannot be written with players"
                ));
            }
            let p = player(a)?;
            if m & bit(p) != 0 {
                return Err(format!("malformed action `{text}`: {a} is repeated"));
            }
            m |= bit(p);
        }
        if args.len() > max {
            return Err(format!(
                "malformed action `{text}`: `{}` names at most {max} players",
                words[0]
            ));
        }
        Ok(m)
    };
    Ok(match words[0] {
        "place" => {
            count(2)?;
            let square = parse_square(args[1]).ok_or_else(|| {
                format!("malformed action `{text}`: `{}` is not a square (A1–K6)", args[1])
            })?;
            Action::Place {
                player: player(args[0])?,
                square,
            }
        }
        "move" => {
            count(2)?;
            Action::Move {
                player: player(args[0])?,
                dir: dir(args[1])?,
            }
        }
        "stay" => {
            count(1)?;
            Action::Stay {
                player: player(args[0])?,
            }
        }
        "turn" => {
            count(3)?;
            let way = match args[2] {
                "left" => Way::Left,
                "right" => Way::Right,
                "none" => Way::None,
                w => return bad(format!("`{w}` is not a turn (left, right, none)")),
            };
            Action::Turn {
                actor: player(args[0])?,
                target: player(args[1])?,
                way,
            }
        }
        "decline" => Action::Decline(set(9)?),
        "receivers" => Action::Receivers(set(2)?),
        "block" => {
            count(2)?;
            Action::Block {
                blocker: player(args[0])?,
                opponent: player(args[1])?,
            }
        }
        "catch" => {
            count(1)?;
            if args[0] == "none" {
                Action::Catch(None)
            } else {
                Action::Catch(Some(player(args[0])?))
            }
        }
        "aim" => {
            count(1)?;
            Action::Aim(dir(args[0])?)
        }
        "keep" => {
            count(1)?;
            Action::Keep(player(args[0])?)
        }
        "throw" => {
            count(2)?;
            Action::Throw {
                holder: player(args[0])?,
                dir: dir(args[1])?,
            }
        }
        "spin" => {
            count(1)?;
            Action::Spin(player(args[0])?)
        }
        "handoff" => {
            count(2)?;
            Action::Handoff {
                holder: player(args[0])?,
                to: player(args[1])?,
            }
        }
        v => {
            return bad(format!(
                "unknown verb `{v}` (place move stay turn decline receivers block catch aim \
                 keep throw spin handoff)"
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_canonical_sets() {
        for text in [
            "place BLU3 K4",
            "move RED2 SE",
            "stay RED5",
            "turn RED1 BLU5 left",
            "turn BLU4 BLU4 none",
            "decline BLU2 RED4",
            "decline none",
            "receivers BLU1 BLU3",
            "block RED5 BLU3",
            "catch RED1",
            "catch none",
            "aim NW",
            "keep RED1",
            "throw RED1 E",
            "spin BLU2",
            "handoff BLU2 BLU4",
        ] {
            assert_eq!(parse(text).unwrap().to_string(), text);
        }
        assert_eq!(
            parse("decline RED4 RED2").unwrap().to_string(),
            "decline RED2 RED4"
        );
        for bad in [
            "decline RED2 RED2",
            "decline none RED2",
            "receivers RED1 RED2 RED3",
            "move RED2 se",
            "move  RED2 SE",
            "Move RED2 SE",
            "place RED1 L1",
            "catch",
            "throw RED1",
            "turn RED1 RED1 back",
            "stay RED0",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
