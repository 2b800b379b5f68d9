//! The ruleset values of `ball.md` marked *parameter*, in one place.
//!
//! The scripting layer (rulesets, variants) sets these; the rules read them
//! and nothing else. The defaults are the decided PL/IS reading.

use super::board::Sq;
use super::piece::{Kind, N_PIECES};
use super::setup;

#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// B3.1: each piece's kind and starting square, by piece id.
    pub setup: [(Kind, Sq); N_PIECES],
}

impl Default for Params {
    fn default() -> Self {
        Params {
            ap_per_turn: 2,
            end_zone_depth: 2,
            touchdowns_to_win: 3,
            turn_limit: 60,
            short_pass_range: 4,
            long_pass_min_distance: 2,
            setup: setup::standard(),
        }
    }
}
