//! What happens inside a Gateball action (`docs/rules/gateball-notation.md`,
//! "Events"): the log `--events` prints, in the order things happen.

use std::fmt;

use super::position::{Team, Winner};
use super::space::Space;

/// Side `a` or `b` of the setup (T2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }
}

/// How a play begins (`play B start|reentry|court`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayKind {
    Start,
    Reentry,
    Court,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Coin(Side),
    Turn(u8),
    Play(u8, PlayKind),
    Roll(Vec<u8>),
    Gate { ball: u8, gate: u8 },
    Pass { ball: u8, gate: u8, forward: bool },
    Touch { ball: u8, touched: u8, at: Space },
    Twice { ball: u8, touched: u8, at: Space },
    FailStart(u8),
    Collide { ball: u8, bumped: u8, at: Space },
    NoSpark { sparked: u8, ball: u8, back: Space },
    Out(u8, Space),
    Goal(u8),
    At(u8, Space),
    NoMove(u8),
    NoEntry(u8),
    EndPlay(u8),
    Perfect(Team),
    Over { winner: Winner, red: i32, blue: i32 },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Coin(side) => write!(f, "coin {}", side.name()),
            Event::Turn(t) => write!(f, "turn {t}"),
            Event::Play(b, kind) => {
                let kind = match kind {
                    PlayKind::Start => "start",
                    PlayKind::Reentry => "reentry",
                    PlayKind::Court => "court",
                };
                write!(f, "play {b} {kind}")
            }
            Event::Roll(dice) => {
                f.write_str("roll")?;
                for d in dice {
                    write!(f, " {d}")?;
                }
                Ok(())
            }
            Event::Gate { ball, gate } => write!(f, "gate {ball} {gate}"),
            Event::Pass {
                ball,
                gate,
                forward,
            } => {
                let way = if *forward { "forward" } else { "backward" };
                write!(f, "pass {ball} {gate} {way}")
            }
            Event::Touch { ball, touched, at } => write!(f, "touch {ball} {touched} {at}"),
            Event::Twice { ball, touched, at } => write!(f, "twice {ball} {touched} {at}"),
            Event::FailStart(b) => write!(f, "failstart {b}"),
            Event::Collide { ball, bumped, at } => write!(f, "collide {ball} {bumped} {at}"),
            Event::NoSpark {
                sparked,
                ball,
                back,
            } => write!(f, "nospark {sparked} {ball} {back}"),
            Event::Out(b, s) => write!(f, "out {b} {s}"),
            Event::Goal(b) => write!(f, "goal {b}"),
            Event::At(b, s) => write!(f, "at {b} {s}"),
            Event::NoMove(b) => write!(f, "nomove {b}"),
            Event::NoEntry(b) => write!(f, "noentry {b}"),
            Event::EndPlay(b) => write!(f, "endplay {b}"),
            Event::Perfect(t) => write!(f, "perfect {}", t.name()),
            Event::Over { winner, red, blue } => write!(f, "over {} {red} {blue}", winner.name()),
        }
    }
}
