//! Gateball: the rules of `docs/rules/gateball.md` (T1–T14) and its
//! notation, the platform's second game. It shares the kernel with BALL —
//! the seeded dice (T4.5), the event sink, the `Game` trait and the generic
//! perft and playout — and nothing else: its court, positions and rules
//! are its own.
//!
//! **Boundary:** depends on the kernel, plus `crate::diagnostic` and the
//! shipped files of `crate::data` for reading court, setup and ruleset
//! files; knows nothing of Lua, clap or the terminal.

pub mod action;
pub mod apply;
pub mod court;
pub mod court_file;
pub mod eval;
pub mod event;
pub mod figures;
pub mod flow;
pub mod game;
pub mod json;
pub mod moves;
pub mod position;
pub mod rules;
pub mod ruleset;
pub mod scenario;
pub mod script;
pub mod setup;
pub mod show;
pub mod svg;
pub mod terminal;
pub mod space;
pub mod words;


use court::Court;
use event::Side;
use position::Team;

/// How sparks get their dice (T14.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SparkDice {
    /// A new roll at the touch (T7.5).
    #[default]
    Roll,
    /// The dice of the shot that made the touch.
    Reuse,
}

impl SparkDice {
    pub fn name(self) -> &'static str {
        match self {
            SparkDice::Roll => "roll",
            SparkDice::Reuse => "reuse",
        }
    }
}

/// The ruleset values of T14 that live in a position's `rules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// T14.1: 1–6.
    pub turns: u8,
    /// T14.2.
    pub gate_bonus: bool,
    /// T14.3.
    pub spark_dice: SparkDice,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            turns: 6,
            gate_bonus: false,
            spark_dice: SparkDice::Roll,
        }
    }
}

/// One player (T2.2): metadata for front ends, never consulted by the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    pub name: String,
    pub team: Team,
    /// Ascending, not empty.
    pub balls: Vec<u8>,
}

/// Who plays (T2.3–T2.4, T14.5), as a setup file states it: players per
/// side and which side goes first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Side `a`'s and side `b`'s players, each with its balls by team slot
    /// (1–5) when the setup assigns them, else empty (dealt round-robin).
    pub a: Vec<(String, Vec<u8>)>,
    pub b: Vec<(String, Vec<u8>)>,
    pub first: First,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum First {
    Side(Side),
    Coin,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            a: vec![("Red".into(), Vec::new())],
            b: vec![("Blue".into(), Vec::new())],
            first: First::Side(Side::A),
        }
    }
}

/// The rules of one Gateball game: its court, ruleset values and players.
/// A position (`position::Position`) holds only what changes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Gateball {
    pub rules: Rules,
    pub court: Court,
    /// Setup order: side `a`'s players, then side `b`'s.
    pub players: Vec<Player>,
    /// Who plays, as the ruleset's setup file says: a new game deals its
    /// players (and tosses its coin) from this (`setup::create`).
    pub setup: Setup,
    /// The ruleset's variants (house rules in Lua); none: the rulebook.
    pub scripts: script::Scripts,
}

impl Gateball {
    /// The default game: the standard court, T14 defaults, one player a side.
    pub fn standard() -> Gateball {
        let mut game = Gateball {
            rules: Rules::default(),
            court: court::Court::standard(),
            players: vec![
                Player {
                    name: "Red".into(),
                    team: Team::Red,
                    balls: vec![1, 3, 5, 7, 9],
                },
                Player {
                    name: "Blue".into(),
                    team: Team::Blue,
                    balls: vec![2, 4, 6, 8, 10],
                },
            ],
            setup: Setup::default(),
            scripts: script::Scripts::default(),
        };
        // As a position's JSON would give it back.
        game.setup = setup::of_players(&game.players);
        game
    }

    /// The start of seed 0 with this game's players: the position the
    /// tests and perft start from.
    pub fn start(&self) -> position::Position {
        position::Position::start(crate::kernel::rng::SplitMix64::new(0))
    }

    /// The canonical legal list (sorted as text).
    pub fn legal(&self, pos: &position::Position) -> Vec<action::Action> {
        rules::legal(self, pos)
    }

    /// Checks and applies one action, emitting its events.
    pub fn play(
        &self,
        pos: &mut position::Position,
        action: action::Action,
        sink: &mut impl crate::kernel::events::Sink<event::Event>,
    ) -> Result<(), apply::Illegal> {
        let Some(s) = self.scripts.get() else {
            return apply::play(self, pos, action, sink);
        };
        if pos.phase == position::Phase::Over {
            return Err(apply::Illegal::Over);
        }
        if self.legal(pos).contains(&action) {
            s.apply(self, pos, action, sink);
            return Ok(());
        }
        // The rules' reason when they refuse it, else the variants'.
        if !matches!(action, action::Action::Variant(_)) {
            apply::play(self, &mut pos.clone(), action, &mut ())?;
        }
        Err(apply::Illegal::Variant {
            action: action.to_string(),
            why: s.refusal(pos, action),
        })
    }
}
