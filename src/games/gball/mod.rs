//! G-ball: zero-G handball in a cylinder (`docs/rules/gball.md`,
//! G1–G16, and `docs/rules/gball-notation.md`), the platform's third game. It shares
//! the kernel with BALL and Gateball — the seeded dice (G14.1), the event
//! sink, the `Game` trait, perft — and nothing else.
//!
//! The folder: [`board`] (the grid, directions, bounces), [`position`]
//! (the compact state), [`action`] (notation), [`event`] (the log),
//! [`rules`] (derived state: who is in play, movement order, who may
//! catch; the legal actions), [`flow`] (the turn and phase flow: what the
//! engine does between two decisions), [`tackle`] (engagements, G8.2),
//! [`json`] (the position JSON), [`show`] (the text board), [`teams`]
//! (teams files, G2.3), [`ruleset`] (G18), [`eval`], [`game`] (the
//! platform traits).
//!
//! **Boundary:** depends on the kernel, `crate::diagnostic`,
//! `crate::toml_doc` and the shipped files of `crate::data`.

pub mod action;
pub mod board;
pub mod choices;
pub mod eval;
pub mod event;
pub mod figures;
pub mod flow;
pub mod game;
pub mod json;
pub mod league;
pub mod position;
pub mod refusal;
pub mod rules;
pub mod ruleset;
pub mod scenario;
pub mod script;
pub mod show;
pub mod svg;
pub mod tackle;
pub mod teams;
pub mod terminal;
pub mod words;

use std::fmt;

pub use teams::{Roster, Teams};

/// The two teams (G2.1), in seat order: RED is seat 0.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Team {
    Red = 0,
    Blu = 1,
}

impl Team {
    pub const BOTH: [Team; 2] = [Team::Red, Team::Blu];

    pub const fn other(self) -> Team {
        match self {
            Team::Red => Team::Blu,
            Team::Blu => Team::Red,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Team::Red => "RED",
            Team::Blu => "BLU",
        }
    }

    pub fn parse(s: &str) -> Option<Team> {
        match s {
            "RED" => Some(Team::Red),
            "BLU" => Some(Team::Blu),
            _ => None,
        }
    }

    /// The bits of this team's players in a player mask (see
    /// [`position::pid`]).
    pub const fn mask(self) -> u32 {
        match self {
            Team::Blu => 0x1FF,
            Team::Red => 0x1FF << 9,
        }
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// G3.3: where the match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Venue {
    Home,
    Neutral,
}

/// The ruleset values of G18. The league values (G17) are read and kept
/// so that one ruleset file serves the league layer too; the match never
/// reads them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    pub players_on_court: u8,
    pub points_to_win_set: u8,
    pub sets_to_win_match: u8,
    pub venue: Venue,
    pub point_turn_limit: u32,
    pub match_turn_limit: u32,
    pub catch_target: u8,
    pub star_bonus: u8,
    pub injury_sum: u8,
    pub morale: bool,
    pub demoralise_gap: u8,
    pub earned_stars: bool,
    pub hat_trick: u8,
    pub catch_attempts_min: u32,
    pub catch_rate_min: u32,
    pub tackles_min: u32,
    pub tackle_rate_min: u32,
    pub budget: u32,
    pub star_cost: [u32; 3],
    pub max_new_veterans: u8,
    pub games_per_season: u32,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            players_on_court: 5,
            points_to_win_set: 4,
            sets_to_win_match: 4,
            venue: Venue::Home,
            point_turn_limit: 100,
            match_turn_limit: 0,
            catch_target: 3,
            star_bonus: 1,
            injury_sum: 5,
            morale: false,
            demoralise_gap: 2,
            earned_stars: false,
            hat_trick: 3,
            catch_attempts_min: 8,
            catch_rate_min: 833,
            tackles_min: 8,
            tackle_rate_min: 555,
            budget: 140,
            star_cost: [20, 60, 100],
            max_new_veterans: 2,
            games_per_season: 10,
        }
    }
}

/// The rules of one G-ball match: the ruleset's values and the two match
/// rosters a new match starts with. A position holds only what changes
/// (stars included: G16 earns them during the match).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Gball {
    pub params: Params,
    pub teams: Teams,
    /// The ruleset's variants (house rules in Lua), if it has any.
    pub script: Option<script::Scripted>,
}

impl Default for Gball {
    fn default() -> Gball {
        Gball::standard()
    }
}

impl Gball {
    /// G18's defaults with G2.3's standard rosters.
    pub fn standard() -> Gball {
        Gball {
            params: Params::default(),
            teams: Teams::standard(),
            script: None,
        }
    }

    pub fn with_params(params: Params) -> Gball {
        Gball {
            params,
            teams: Teams::standard(),
            script: None,
        }
    }

    /// The start of a match from `seed`, without its events.
    pub fn start(&self, seed: u64) -> position::Position {
        self.new_match_any(seed, &mut ())
    }

    /// A new match, with the variants' rule points when there are any.
    pub fn new_match_any(
        &self,
        seed: u64,
        sink: &mut impl crate::kernel::events::Sink<event::Event>,
    ) -> position::Position {
        match &self.script {
            None => flow::new_match(self, seed, sink),
            Some(s) => flow::new_match_with(self, seed, sink, &script::Hooked(s)),
        }
    }

    /// Applies a legal action with the variants' rule points and
    /// reactions when there are any (`flow::apply` otherwise): the first
    /// forced die out of range, if any. Inlined, with the scripted path
    /// kept out of line: the unscripted hot path is `flow::apply`'s own.
    #[inline(always)]
    pub fn apply_any(
        &self,
        pos: &mut position::Position,
        action: action::Action,
        sink: &mut impl crate::kernel::events::Sink<event::Event>,
    ) -> Option<String> {
        match &self.script {
            None => flow::apply(self, pos, action, sink),
            Some(s) => s.apply(self, pos, action, sink),
        }
    }

    /// The variants' counters of a new match (none without variants).
    pub fn start_vars(&self) -> Vec<i16> {
        self.script.as_ref().map_or_else(Vec::new, |s| s.start_vars())
    }

    /// The variants' layout (counters, options, ends), if any.
    pub fn layout(&self) -> Option<&script::Layout> {
        self.script.as_ref().map(|s| s.layout())
    }

    /// The canonical legal list (sorted by text, G5.4).
    pub fn legal(&self, pos: &position::Position) -> Vec<action::Action> {
        let mut v = Vec::new();
        rules::legal_into(self, pos, &mut v);
        v.sort_by_cached_key(|a| a.to_string());
        v.dedup();
        v
    }

    /// Checks and applies one action, emitting its events; a refused
    /// action leaves `pos` unchanged.
    pub fn play(
        &self,
        pos: &mut position::Position,
        action: action::Action,
        sink: &mut impl crate::kernel::events::Sink<event::Event>,
    ) -> Result<(), String> {
        flow::play(self, pos, action, sink)
    }
}
