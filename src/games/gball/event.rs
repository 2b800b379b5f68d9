//! The event log (`docs/rules/gball-notation.md`, "Events"): one line per event, in
//! the order things happen. Events are small `Copy` values so that the hot
//! path, whose sink is `()`, builds nothing it then throws away.

use std::fmt;

use super::Team;
use super::action::Action;
use super::board::{Sq, dir_name};
use super::position::{Id, Misses, Status, Winner};

/// The kinds of die (G14.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollKind {
    Coin,
    Entry,
    Catch,
    Tackle,
    Injury,
    Games,
    Foul,
    Wallwalk,
    Accident,
    Pick,
    Fumble,
}

impl RollKind {
    pub fn name(self) -> &'static str {
        match self {
            RollKind::Coin => "coin",
            RollKind::Entry => "entry",
            RollKind::Catch => "catch",
            RollKind::Tackle => "tackle",
            RollKind::Injury => "injury",
            RollKind::Games => "games",
            RollKind::Foul => "foul",
            RollKind::Wallwalk => "wallwalk",
            RollKind::Accident => "accident",
            RollKind::Pick => "pick",
            RollKind::Fumble => "fumble",
        }
    }
}

/// Why a player got a status (the last word of `out`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutCause {
    Injury,
    Foul,
    Wallwalk,
    Ganging,
}

impl OutCause {
    pub fn name(self) -> &'static str {
        match self {
            OutCause::Injury => "injury",
            OutCause::Foul => "foul",
            OutCause::Wallwalk => "wallwalk",
            OutCause::Ganging => "ganging",
        }
    }
}

/// G13.1's injury results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Injury {
    Stunned,
    Minor,
    Serious,
    Severe,
}

/// G13.2's foul results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    None,
    Foul,
    Serious,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    Act(Action),
    Auto(Action),
    /// `subject` is a player, or `None` for `-`.
    Roll {
        kind: RollKind,
        subject: Option<u8>,
        value: u32,
    },
    Coin(Team),
    NewPoint(Team),
    Concede(Team),
    Entry {
        square: u8,
        dir: u8,
    },
    Turn(u32),
    Phase {
        phase: u8,
        initiative: Team,
    },
    Ball {
        from: u8,
        to: u8,
        dir: u8,
    },
    Moved {
        player: u8,
        from: u8,
        to: u8,
    },
    Tackle {
        x: u8,
        rx: u8,
        y: u8,
        ry: u8,
        winner: Option<u8>,
    },
    Injury(u8, Injury),
    Games(u8, Misses),
    Foul(u8, Foul),
    Out(u8, Status, OutCause),
    Halt,
    Fumble(u8),
    Catch {
        player: u8,
        total: u32,
        ok: bool,
    },
    Turned(u8, u8),
    Star(u8, char),
    Score(u8, u8),
    Dead,
    Set(Team),
    Match(Winner),
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Act(a) => write!(f, "act {a}"),
            Event::Auto(a) => write!(f, "auto {a}"),
            Event::Roll {
                kind,
                subject,
                value,
            } => match subject {
                Some(p) => write!(f, "roll {} {} {value}", kind.name(), Id(p)),
                None => write!(f, "roll {} - {value}", kind.name()),
            },
            Event::Coin(t) => write!(f, "coin {t}"),
            Event::NewPoint(t) => write!(f, "newpoint {t}"),
            Event::Concede(t) => write!(f, "concede {t}"),
            Event::Entry { square, dir } => write!(f, "entry {} {}", Sq(square), dir_name(dir)),
            Event::Turn(n) => write!(f, "turn {n}"),
            Event::Phase { phase, initiative } => write!(f, "phase {phase} {initiative}"),
            Event::Ball { from, to, dir } => {
                write!(f, "ball {} {} {}", Sq(from), Sq(to), dir_name(dir))
            }
            Event::Moved { player, from, to } => {
                write!(f, "moved {} {} {}", Id(player), Sq(from), Sq(to))
            }
            Event::Tackle {
                x,
                rx,
                y,
                ry,
                winner,
            } => {
                write!(f, "tackle {} {rx} {} {ry} ", Id(x), Id(y))?;
                match winner {
                    Some(w) => write!(f, "{}", Id(w)),
                    None => f.write_str("fumble"),
                }
            }
            Event::Injury(p, i) => {
                let w = match i {
                    Injury::Stunned => "stunned",
                    Injury::Minor => "minor",
                    Injury::Serious => "serious",
                    Injury::Severe => "severe",
                };
                write!(f, "injury {} {w}", Id(p))
            }
            Event::Games(p, m) => match m {
                Misses::Games(n) => write!(f, "games {} {n}", Id(p)),
                Misses::Season => write!(f, "games {} season", Id(p)),
                Misses::Retired => write!(f, "games {} retired", Id(p)),
                Misses::None => write!(f, "games {} 0", Id(p)),
            },
            Event::Foul(p, x) => {
                let w = match x {
                    Foul::None => "none",
                    Foul::Foul => "foul",
                    Foul::Serious => "serious",
                };
                write!(f, "foul {} {w}", Id(p))
            }
            Event::Out(p, s, c) => write!(f, "out {} {} {}", Id(p), s.name(), c.name()),
            Event::Halt => f.write_str("halt"),
            Event::Fumble(d) => write!(f, "fumble {}", dir_name(d)),
            Event::Catch { player, total, ok } => write!(
                f,
                "catch {} {total} {}",
                Id(player),
                if ok { "ok" } else { "miss" }
            ),
            Event::Turned(p, d) => write!(f, "turned {} {}", Id(p), dir_name(d)),
            Event::Star(p, c) => write!(f, "star {} {c}", Id(p)),
            Event::Score(p, sq) => write!(f, "score {} {}", Id(p), Sq(sq)),
            Event::Dead => f.write_str("dead"),
            Event::Set(t) => write!(f, "set {t}"),
            Event::Match(Winner::Team(t)) => write!(f, "match {t}"),
            Event::Match(Winner::Draw) => f.write_str("match draw"),
        }
    }
}
