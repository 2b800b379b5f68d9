//! Declared targets: a card may state its targets as data instead of a
//! `targets` function. The kernel reads the declaration once at load and
//! enumerates the targets natively on every legal list, so card mode
//! stays near native speed (issue #3's 1.3× bar) while only a card's
//! `resolve` runs Lua, once per play.
//!
//! ```lua
//! targets = {
//!   { team = "own", down = false, stacked = false },           -- argument 1: a piece
//!   { from = 1, distance = { 3, 3 }, empty = true },            -- argument 2: a square 3 from it
//! },
//! requires = { ball = "loose" },                                -- optional, the whole card
//! ```
//!
//! Piece filters: `team` (`"own"`, `"opponent"`; default any), `down`,
//! `stacked`, `restricted`, `ball` (holds the ball), `top` (a stack's top),
//! each `true`/`false`; `from` + `distance = {min, max}` (from an earlier
//! argument, piece or square); `ball_distance = {min, max}` (from the
//! ball); `after = i` (a later piece id than argument i, so a pair is
//! listed once). Square filters: `empty` (no piece), `free` (no piece, no
//! ball), `from` + `distance`, `ball_distance`, `beyond = {i, j}` (the
//! square one step past argument j on the line from argument i), `unlike
//! = i` (not the square of argument i). Numbers: `min`, `max`. Card-wide
//! `requires`: `ball = "loose" | "held" | "own"`, `ap_below_turn = true`.
//! Two piece arguments are always different pieces.

use crate::ball::action::Arg;
use crate::ball::board::{Sq, SqSet, squares};
use crate::ball::params::Params;
use crate::ball::piece::PieceId;
use crate::ball::position::{BallState, Position};
use crate::kernel::grid::Coord;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requires {
    pub ball: Option<BallNeed>,
    pub ap_below_turn: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BallNeed {
    Loose,
    Held,
    Own,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeamFilter {
    Own,
    Opponent,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceSpec {
    pub team: Option<TeamFilter>,
    pub down: Option<bool>,
    pub stacked: Option<bool>,
    pub restricted: Option<bool>,
    pub ball: Option<bool>,
    pub top: Option<bool>,
    pub from: Option<(usize, u8, u8)>,
    pub ball_distance: Option<(u8, u8)>,
    pub after: Option<usize>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SquareSpec {
    pub empty: bool,
    pub free: bool,
    pub from: Option<(usize, u8, u8)>,
    pub ball_distance: Option<(u8, u8)>,
    pub beyond: Option<(usize, usize)>,
    pub unlike: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgSpec {
    Piece(PieceSpec),
    Square(SquareSpec),
    Number(u8, u8),
}

/// A card's declared targets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    pub requires: Requires,
    pub args: Vec<ArgSpec>,
}

impl Declared {
    /// Every target, in a fixed order (argument by argument, ids and
    /// squares ascending).
    pub fn enumerate(&self, pos: &Position, params: &Params, out: &mut Vec<[Arg; 3]>) {
        if !self.requires_met(pos, params) {
            return;
        }
        let mut chosen = [Arg::None; 3];
        self.fill(pos, 0, &mut chosen, out);
    }

    fn requires_met(&self, pos: &Position, params: &Params) -> bool {
        if self.requires.ap_below_turn && pos.ap >= params.ap_per_turn {
            return false;
        }
        match (self.requires.ball, pos.ball) {
            (None, _) => true,
            (Some(BallNeed::Loose), BallState::Loose(_)) => true,
            (Some(BallNeed::Held), BallState::Held(_)) => true,
            (Some(BallNeed::Own), BallState::Held(h)) => h.team() == pos.to_move,
            _ => false,
        }
    }

    fn fill(&self, pos: &Position, k: usize, chosen: &mut [Arg; 3], out: &mut Vec<[Arg; 3]>) {
        if k == self.args.len() {
            out.push(*chosen);
            return;
        }
        match &self.args[k] {
            ArgSpec::Piece(spec) => {
                for id in PieceId::all() {
                    if piece_ok(spec, pos, id, chosen) {
                        chosen[k] = Arg::Piece(id);
                        self.fill(pos, k + 1, chosen, out);
                    }
                }
            }
            ArgSpec::Square(spec) => {
                for sq in squares(square_set(spec, pos, chosen)) {
                    chosen[k] = Arg::Square(sq);
                    self.fill(pos, k + 1, chosen, out);
                }
            }
            ArgSpec::Number(lo, hi) => {
                for n in *lo..=*hi {
                    chosen[k] = Arg::Number(n);
                    self.fill(pos, k + 1, chosen, out);
                }
            }
        }
        chosen[k] = Arg::None;
    }
}

fn square_of(pos: &Position, a: Arg) -> Option<Sq> {
    match a {
        Arg::Piece(p) => Some(pos.piece(p).at),
        Arg::Square(s) => Some(s),
        _ => None,
    }
}

fn within(pos: &Position, chosen: &[Arg; 3], from: (usize, u8, u8), sq: Sq) -> bool {
    square_of(pos, chosen[from.0]).is_some_and(|f| (from.1..=from.2).contains(&f.distance(sq)))
}

fn piece_ok(s: &PieceSpec, pos: &Position, id: PieceId, chosen: &[Arg; 3]) -> bool {
    let p = pos.piece(id);
    if chosen.contains(&Arg::Piece(id)) {
        return false;
    }
    let team_ok = match s.team {
        None => true,
        Some(TeamFilter::Own) => id.team() == pos.to_move,
        Some(TeamFilter::Opponent) => id.team() != pos.to_move,
    };
    let flag = |want: Option<bool>, have: bool| want.is_none_or(|w| w == have);
    team_ok
        && flag(s.down, p.down)
        && flag(s.restricted, p.restricted)
        && flag(s.ball, pos.ball == BallState::Held(id))
        && flag(s.stacked, pos.is_stacked(id))
        && flag(s.top, pos.stacks.with_top(id).is_some())
        && s.from.is_none_or(|f| within(pos, chosen, f, p.at))
        && s.ball_distance
            .is_none_or(|(lo, hi)| (lo..=hi).contains(&pos.ball_square().distance(p.at)))
        && s.after
            .is_none_or(|i| matches!(chosen[i], Arg::Piece(q) if id > q))
}

fn square_set(s: &SquareSpec, pos: &Position, chosen: &[Arg; 3]) -> SqSet {
    let mut set = crate::ball::board::ALL;
    let occupied = pos.occupied();
    if s.empty || s.free {
        set &= !occupied;
    }
    if s.free
        && let Some(b) = pos.loose_ball()
    {
        set &= !b.bit();
    }
    if let Some((i, lo, hi)) = s.from {
        let Some(f) = square_of(pos, chosen[i]) else {
            return 0;
        };
        set &= f.within(hi) & !if lo == 0 { 0 } else { f.within(lo - 1) };
    }
    if let Some((lo, hi)) = s.ball_distance {
        let b = pos.ball_square();
        set &= b.within(hi) & !if lo == 0 { 0 } else { b.within(lo - 1) };
    }
    if let Some(i) = s.unlike
        && let Some(u) = square_of(pos, chosen[i])
    {
        set &= !u.bit();
    }
    if let Some((i, j)) = s.beyond {
        let (Some(a), Some(b)) = (square_of(pos, chosen[i]), square_of(pos, chosen[j])) else {
            return 0;
        };
        let (ca, cb) = (a.coord(), b.coord());
        let col = 2 * i16::from(cb.col) - i16::from(ca.col);
        let row = 2 * i16::from(cb.row) - i16::from(ca.row);
        let past = u8::try_from(col)
            .ok()
            .zip(u8::try_from(row).ok())
            .and_then(|(col, row)| Sq::from_coord(Coord { col, row }));
        set &= past.map_or(0, |p| p.bit());
    }
    set
}
