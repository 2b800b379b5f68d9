//! The board's log in plain words: each event of the notation's log
//! (`event.rs`, the contract for tools) said as a playtester reads it.
//! `tackle RED1 5 BLU5 3 RED1` means nothing to a person at the board;
//! "RED1 beats BLU5 in the tackle, 5 to 3" does. The notation's line
//! stays in the records and on the command line; this is only the
//! board's wording.

use super::Gball;
use super::board::{Sq, dir_name};
use super::event::{Event, Foul, Injury, RollKind};
use super::position::{Id, Misses, Status, Winner};

/// A direction in words a person reads: `north-east (NE)`.
fn heading(d: u8) -> String {
    let word = match dir_name(d) {
        "N" => "north",
        "NE" => "north-east",
        "E" => "east",
        "SE" => "south-east",
        "S" => "south",
        "SW" => "south-west",
        "W" => "west",
        "NW" => "north-west",
        _ => "nowhere",
    };
    word.to_string()
}

/// The event in plain words, `None` for events the log line of the
/// action already says (`act`).
pub fn plain(g: &Gball, e: &Event) -> Option<String> {
    Some(match *e {
        Event::Act(_) => return None,
        Event::Auto(a) => format!("{a} (the only choice, made for you: G5.4)"),
        Event::Roll {
            kind,
            subject,
            value,
        } => {
            let who = subject.map(|p| Id(p).to_string()).unwrap_or_default();
            match kind {
                RollKind::Coin => format!("the coin toss: {value}"),
                RollKind::Entry => format!("the entry die: {value}"),
                RollKind::Catch => format!("{who} rolls {value} to catch"),
                RollKind::Tackle => format!("{who} rolls {value} in the tackle"),
                RollKind::Injury => format!("{who} rolls {value} for the injury"),
                RollKind::Games => format!("{who} rolls {value} for the games he misses"),
                RollKind::Foul => format!("{who} rolls {value}: was it a foul?"),
                RollKind::Wallwalk => {
                    format!("{who} fumbled on the wall and rolls {value} (1-3: off for the point)")
                }
                RollKind::Accident => format!("{who} fumbled and rolls {value} for an accidental turn"),
                RollKind::Pick => format!("a die of {value} picks which tackler takes the fumble"),
                RollKind::Fumble => format!("{who} rolls {value}: which way the fumbled ball flies"),
            }
        }
        Event::Coin(t) => format!("the coin makes {t} the home team"),
        Event::NewPoint(t) => format!("a new point: {t} is at home"),
        Event::Concede(t) => format!("{t} has nobody to field and concedes the point"),
        Event::Entry { square, dir } => {
            format!("the ball comes in on {} flying {}", Sq(square), heading(dir))
        }
        Event::Turn(n) => format!("turn {n} of the point"),
        Event::Phase { phase, initiative } => {
            format!("phase {phase}: {initiative} has the initiative")
        }
        Event::Ball { from, to, dir } => format!(
            "the ball flies {} → {}, now {}",
            Sq(from),
            Sq(to),
            heading(dir)
        ),
        Event::Moved { player, from, to } => {
            format!("{} goes {} → {}", Id(player), Sq(from), Sq(to))
        }
        Event::Tackle {
            x,
            rx,
            y,
            ry,
            winner,
        } => match winner {
            Some(w) => {
                let (loser, hi, lo) = if w == x { (y, rx, ry) } else { (x, ry, rx) };
                format!(
                    "tackle {} v {}: {} beats {}, {hi} to {lo} (a star tackler adds 1)",
                    Id(x),
                    Id(y),
                    Id(w),
                    Id(loser)
                )
            }
            None => format!(
                "tackle {} v {}: {rx} all, a fumble: nobody wins (G8.1)",
                Id(x),
                Id(y)
            ),
        },
        Event::Injury(p, i) => match i {
            Injury::Stunned => format!("{} is stunned", Id(p)),
            Injury::Minor => format!("{} has a minor injury", Id(p)),
            Injury::Serious => format!("{} is seriously injured", Id(p)),
            Injury::Severe => format!("{} is severely injured", Id(p)),
        },
        Event::Games(p, m) => match m {
            Misses::Games(n) => format!(
                "{} will miss {}",
                Id(p),
                crate::diagnostic::plural(n, "game")
            ),
            Misses::Season => format!("{} is out for the season", Id(p)),
            Misses::Retired => format!("{} has to retire", Id(p)),
            Misses::None => format!("{} misses no games", Id(p)),
        },
        Event::Foul(p, f) => match f {
            Foul::None => format!("no foul by {}", Id(p)),
            Foul::Foul => format!("{} fouled", Id(p)),
            Foul::Serious => format!("{} fouled seriously", Id(p)),
        },
        Event::Out(p, s, c) => {
            let how = match s {
                Status::Point => "off for the rest of the point",
                Status::Sinbin => "sent to the sin bin",
                Status::Set => "off for the rest of the set",
                Status::Match => "off for the rest of the match",
                Status::None => "back",
            };
            let why = match c {
                super::event::OutCause::Injury => "injured",
                super::event::OutCause::Foul => "for the foul",
                super::event::OutCause::Wallwalk => "for wall-walking",
                super::event::OutCause::Ganging => "for ganging (team-mates alike on one square)",
            };
            format!("{} is {how}, {why}", Id(p))
        }
        Event::Halt => "the receivers fumbled their contest: nobody catches (G8.5)".into(),
        Event::Fumble(d) => format!("the carrier fumbles: the ball flies off {}", heading(d)),
        Event::Catch { player, total, ok } => {
            let need = g.params.catch_target;
            if ok {
                format!("{} catches the ball ({total}, needs {need})", Id(player))
            } else {
                format!("{} misses the catch ({total}, needs {need})", Id(player))
            }
        }
        Event::Turned(p, d) => format!("{} now faces {}", Id(p), heading(d)),
        Event::Star(p, c) => {
            let what = match c {
                'J' => "jumper",
                'C' => "catcher",
                _ => "tackler",
            };
            format!("{} earns a star: {what} ({c})", Id(p))
        }
        Event::Score(p, sq) => format!("{} scores on {}!", Id(p), Sq(sq)),
        Event::Dead => "the point is dead: nobody scores it (G3.5)".into(),
        Event::Set(t) => format!("{t} wins the set"),
        Event::Match(Winner::Team(t)) => format!("{t} wins the match"),
        Event::Match(Winner::Draw) => "the match is a draw".into(),
    })
}

/// The players of a mask, `RED1 and RED3`.
fn names(mask: u32) -> String {
    let ids: Vec<String> = super::position::members(mask)
        .map(|p| Id(p).to_string())
        .collect();
    match ids.len() {
        0 => "nobody".into(),
        1 => ids[0].clone(),
        n => format!("{} and {}", ids[..n - 1].join(", "), ids[n - 1]),
    }
}

/// Plain words for an action whose notation is terse (`turn BLU2 BLU2
/// none`, `decline none`), said after its log line; `None` for actions
/// the notation already says plainly (`move RED2 SE`, `keep RED1`).
pub fn action(before: &super::position::Position, a: super::action::Action) -> Option<String> {
    use super::action::{Action, Way};
    let team = before.pending.map(|p| p.team().name()).unwrap_or("-");
    Some(match a {
        Action::Turn {
            actor,
            target,
            way: Way::None,
        } => {
            if actor == target {
                format!("{} keeps his facing", Id(actor))
            } else {
                format!("{} leaves the beaten {} facing as he was", Id(actor), Id(target))
            }
        }
        Action::Turn { actor, target, way } => {
            let how = match way {
                Way::Left => "45° to the left",
                Way::Right => "45° to the right",
                Way::None => "not at all",
            };
            if actor == target {
                format!("{} turns {how}", Id(actor))
            } else {
                format!("{} turns the beaten {} {how}", Id(actor), Id(target))
            }
        }
        Action::Decline(m) => format!("{team}: {} stays out of the tackle", names(m)),
        Action::Receivers(m) => format!("{team}: {} will try for the ball", names(m)),
        Action::Block { blocker, opponent } => {
            format!("{} blocks {}", Id(blocker), Id(opponent))
        }
        Action::Catch(None) => format!("{team} lets the ball go"),
        Action::Aim(d) => format!("{team} knocks the ball {}", heading(d)),
        _ => return None,
    })
}
