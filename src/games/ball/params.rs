//! The ruleset values of `docs/rules/ball.md` marked *parameter*, in one place.
//!
//! The scripting layer (rulesets, variants) sets these; the rules read them
//! and nothing else. The defaults are the decided PL/IS reading.

use super::board::Sq;
use super::piece::{Kind, N_PIECES};
use super::setup;

/// A set of action verbs, one bit each (see [`Verb`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Verbs(pub u16);

impl Verbs {
    pub const NONE: Verbs = Verbs(0);

    pub fn contains(self, v: Verb) -> bool {
        self.0 & (1 << v as u16) != 0
    }

    pub fn insert(&mut self, v: Verb) {
        self.0 |= 1 << v as u16;
    }
}

/// The verbs of the notation, for rules that speak of a kind of action.
/// Ordered as the notation's table lists them (the board's menus use it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verb {
    Move,
    Dodge,
    TDodge,
    Block,
    Protect,
    Handoff,
    SPass,
    LPass,
    Convert,
    Card,
    End,
    StandUp,
    Release,
}

impl Verb {
    pub const ALL: [Verb; 13] = [
        Verb::Move,
        Verb::Dodge,
        Verb::TDodge,
        Verb::Block,
        Verb::Protect,
        Verb::Handoff,
        Verb::SPass,
        Verb::LPass,
        Verb::Convert,
        Verb::Card,
        Verb::End,
        Verb::StandUp,
        Verb::Release,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Verb::Move => "move",
            Verb::Dodge => "dodge",
            Verb::TDodge => "tdodge",
            Verb::Block => "block",
            Verb::Protect => "protect",
            Verb::Handoff => "handoff",
            Verb::SPass => "spass",
            Verb::LPass => "lpass",
            Verb::Convert => "convert",
            Verb::Card => "card",
            Verb::End => "end",
            Verb::StandUp => "standup",
            Verb::Release => "release",
        }
    }

    pub fn parse(s: &str) -> Option<Verb> {
        Verb::ALL.into_iter().find(|v| v.name() == s)
    }
}

#[derive(Clone, Debug)]
pub struct Params {
    /// B4.2: AP per turn.
    pub ap_per_turn: u8,
    /// B1.4: rows of each end zone.
    pub end_zone_depth: u8,
    /// B3.6: touchdowns that win the game.
    pub touchdowns_to_win: u8,
    /// B3.6: the last turn.
    pub turn_limit: u16,
    /// B8.2: the farthest receiver of a short pass.
    pub short_pass_range: u8,
    /// B8.3: the nearest a long pass may land to any own piece.
    pub long_pass_min_distance: u8,
    /// House rule: the farthest a long pass may land from the holder
    /// (B8.3 has no maximum: `None`).
    pub long_pass_max_distance: Option<u8>,
    /// B12.1: `false` hands off to an adjacent team-mate; `true` (SV) to
    /// any piece of the connected network of adjacent active team-mates.
    pub handoff_network: bool,
    /// B12.2: `false` gives the receiver the ball (restricted); `true`
    /// (SV) leaves it loose on the reception square.
    pub short_pass_loose: bool,
    /// B7.3: the top takes the ball from the bottom at once. The SV
    /// reading of B12.3 needs a bottom that can keep it: `false` there.
    pub stack_top_takes_ball: bool,
    /// B12.3: `false` lets the coach choose the keeper when either piece
    /// of a released stack held the ball; `true` (SV) only when the top
    /// held it (a bottom holding it keeps it).
    pub keep_choice_needs_top: bool,
    /// Verbs a variant forbids (legality declared as data, checked
    /// natively: no script runs per candidate action).
    pub forbidden: Verbs,
    /// B3.1: each piece's kind and starting square, by piece id.
    pub setup: [(Kind, Sq); N_PIECES],
    /// Whether a game may end before B3.6 says: a script that runs during
    /// play may call `game.end_game()` (the `mercy-rule` variant does), so
    /// the position reader must accept such an end. Set by the script
    /// host, not a ruleset key.
    pub scripted_end: bool,
    /// What a ruleset's scripts add to the game's data (their end names,
    /// counters and own parameters). Shared, since `Params` is cloned per
    /// game and per hook call; empty without scripts.
    pub layout: std::sync::Arc<Layout>,
}

/// Who a counter of a ruleset's scripts is kept for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Game,
    Team,
    Piece,
}

impl Scope {
    /// The position slots a counter of this scope takes.
    pub fn slots(self) -> usize {
        match self {
            Scope::Game => 1,
            Scope::Team => 2,
            Scope::Piece => super::piece::N_PIECES,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scope::Game => "game",
            Scope::Team => "team",
            Scope::Piece => "piece",
        }
    }

    pub fn parse(s: &str) -> Option<Scope> {
        <Scope as crate::script::layout::Scope>::parse(s)
    }
}

impl crate::script::layout::Scope for Scope {
    const ALL: &'static [Scope] = &[Scope::Game, Scope::Team, Scope::Piece];
    const MAX_SLOTS: usize = super::position::MAX_VARS;

    fn name(self) -> &'static str {
        Scope::name(self)
    }

    fn slots(self) -> usize {
        Scope::slots(self)
    }
}

/// One counter a variant keeps in the position (`state`).
pub type VarDecl = crate::script::layout::VarDecl<Scope>;
pub use crate::script::layout::OptionValue;
/// What a ruleset's scripts add to BALL's data.
pub type Layout = crate::script::layout::Layout<Scope>;

/// The most AP a variant's `turn_ap` may give a turn (and `cost` ask).
pub const MAX_TURN_AP: u8 = 20;

/// Equal when the rules are: `scripted_end` is not a rule a ruleset
/// states but what its scripts imply, so a game's parameters equal its
/// ruleset's.
impl PartialEq for Params {
    fn eq(&self, other: &Params) -> bool {
        let Params {
            ap_per_turn,
            end_zone_depth,
            touchdowns_to_win,
            turn_limit,
            short_pass_range,
            long_pass_min_distance,
            long_pass_max_distance,
            handoff_network,
            short_pass_loose,
            stack_top_takes_ball,
            keep_choice_needs_top,
            forbidden,
            setup,
            scripted_end: _,
            layout,
        } = self;
        *ap_per_turn == other.ap_per_turn
            && *end_zone_depth == other.end_zone_depth
            && *touchdowns_to_win == other.touchdowns_to_win
            && *turn_limit == other.turn_limit
            && *short_pass_range == other.short_pass_range
            && *long_pass_min_distance == other.long_pass_min_distance
            && *long_pass_max_distance == other.long_pass_max_distance
            && *handoff_network == other.handoff_network
            && *short_pass_loose == other.short_pass_loose
            && *stack_top_takes_ball == other.stack_top_takes_ball
            && *keep_choice_needs_top == other.keep_choice_needs_top
            && *forbidden == other.forbidden
            && *layout == other.layout
            && *setup == other.setup
    }
}

impl Eq for Params {}

impl Default for Params {
    fn default() -> Self {
        Params {
            ap_per_turn: 2,
            end_zone_depth: 2,
            touchdowns_to_win: 3,
            turn_limit: 60,
            short_pass_range: 4,
            long_pass_min_distance: 2,
            long_pass_max_distance: None,
            handoff_network: false,
            short_pass_loose: false,
            stack_top_takes_ball: true,
            keep_choice_needs_top: false,
            forbidden: Verbs::NONE,
            setup: setup::standard(),
            scripted_end: false,
            layout: Default::default(),
        }
    }
}
