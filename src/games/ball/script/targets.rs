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
//! = i` (not the square of argument i); with `from`, `line = true` (on a
//! straight line from it: a diagonal, its row or its column) and
//! `forward = true` (in a row nearer the end zone the coach to move
//! attacks, B1.4). Numbers: `min`, `max`. Card-wide
//! `requires`: `ball = "loose" | "held" | "own"`, `ap_below_turn = true`.
//! Two piece arguments are always different pieces.

use crate::games::ball::action::Arg;
use crate::games::ball::board::{Sq, SqSet};
use crate::games::ball::params::Params;
use crate::games::ball::piece::{N_PIECES, PER_TEAM, PieceId, Team};
use crate::games::ball::position::{BallState, Position};
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
    /// With `from`: on a straight line from that argument.
    pub line: bool,
    /// With `from`: nearer the end zone the coach to move attacks.
    pub forward: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgSpec {
    Piece(PieceSpec),
    Square(SquareSpec),
    Number(u8, u8),
}

impl ArgSpec {
    /// Its `from` filter (earlier argument, distance range) with the
    /// `line` and `forward` filters that narrow it; `None` without one.
    fn reach_filter(&self) -> Option<((usize, u8, u8), bool, bool)> {
        match self {
            ArgSpec::Piece(p) => Some((p.from?, false, false)),
            ArgSpec::Square(q) => Some((q.from?, q.line, q.forward)),
            ArgSpec::Number(..) => None,
        }
    }
}

/// A card's declared targets. Built by [`Declared::new`] only, which
/// also lays out the `from` tables the enumeration reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub requires: Requires,
    pub args: Vec<ArgSpec>,
    /// Per argument measured `from` an earlier one (empty for the
    /// others): at index `2 * square + up` (`up`: the coach to move
    /// attacks the last rows), the squares it may be in from that square
    /// before the position is read — the ring at its distance, and for a
    /// square its `line` and `forward` filters. A list then reads one
    /// entry instead of computing four sets for every earlier candidate.
    reach: Vec<Box<[SqSet]>>,
}

/// The most targets one card may offer in one position: every legal list
/// holds them all, and bots and the board walk the list. A card's
/// declaration is refused at load when it could offer more.
pub const MAX_TARGETS: u64 = 4096;

impl Declared {
    pub fn new(requires: Requires, args: Vec<ArgSpec>) -> Declared {
        let reach = args
            .iter()
            .map(|a| {
                let Some(((_, lo, hi), line, forward)) = a.reach_filter() else {
                    return Box::default();
                };
                Sq::all()
                    .flat_map(|sq| [false, true].map(|up| reach(sq, up, lo, hi, line, forward)))
                    .collect()
            })
            .collect();
        Declared {
            requires,
            args,
            reach,
        }
    }

    /// Argument `k`'s entry of [`Declared::reach`] from `sq`.
    #[inline(always)]
    fn reach(&self, k: usize, sq: Sq, up: bool) -> SqSet {
        self.reach[k][2 * sq.0 as usize + usize::from(up)]
    }

    /// The most targets the declaration can offer in any position: per
    /// argument, the most candidates its own filters allow (7 or 14
    /// pieces; a ring of squares at its distance; one square `beyond`; a
    /// number range), multiplied. Exact enough to tell a card that offers
    /// a few hundred from one that offers a million.
    pub fn bound(&self) -> u64 {
        self.args
            .iter()
            .map(|a| match a {
                ArgSpec::Piece(p) => match p.team {
                    Some(_) => PER_TEAM as u64,
                    None => N_PIECES as u64,
                },
                ArgSpec::Square(q) => {
                    if q.beyond.is_some() {
                        return 1;
                    }
                    let mut most = u64::from(crate::games::ball::board::ALL.count_ones());
                    for (lo, hi) in [q.from.map(|(_, lo, hi)| (lo, hi)), q.ball_distance]
                        .into_iter()
                        .flatten()
                    {
                        most = most.min(largest_ring(lo, hi));
                    }
                    most
                }
                ArgSpec::Number(lo, hi) => u64::from(hi - lo) + 1,
            })
            .product()
    }

    /// Every target, in a fixed order (argument by argument, ids and
    /// squares ascending).
    pub fn enumerate(&self, pos: &Position, params: &Params, out: &mut Vec<[Arg; 3]>) {
        self.enumerate_with(&Facts::new(pos), params, &mut |args| out.push(args));
    }

    /// [`Declared::enumerate`] with the position's facts gathered once (a
    /// legal list reads them for every card it asks), each target handed
    /// to `emit` as it is found.
    pub fn enumerate_with(&self, facts: &Facts, params: &Params, emit: &mut impl FnMut([Arg; 3])) {
        if !self.requires_met(facts.pos, params) {
            return;
        }
        // What each piece argument allows before the earlier arguments
        // are known: one mask per argument, no per-piece checks below.
        let mut fixed = [0u16; 3];
        for (k, spec) in self.args.iter().enumerate() {
            if let ArgSpec::Piece(s) = spec {
                fixed[k] = facts.fixed(s);
                if fixed[k] == 0 {
                    return; // an argument with no candidate: no target at all
                }
            }
        }
        // Distance is symmetric, so a piece argument measured from an
        // earlier piece argument leaves that one only the pieces in reach
        // of its own candidates: most pieces have no team-mate or opponent
        // near, and each would cost a pass of the loops below for nothing.
        for (k, spec) in self.args.iter().enumerate() {
            if let ArgSpec::Piece(PieceSpec {
                from: Some((i, _, _)),
                ..
            }) = *spec
                && matches!(self.args[i], ArgSpec::Piece(_))
            {
                let mut around = 0;
                let mut set = fixed[k];
                while set != 0 {
                    let sq = facts.pos.pieces[set.trailing_zeros() as usize].at;
                    set &= set - 1;
                    around |= self.reach(k, sq, facts.up);
                }
                fixed[i] = facts.on(fixed[i], around);
                if fixed[i] == 0 {
                    return;
                }
            }
        }
        // Argument by argument, in nested loops: no call a target (a
        // recursion a level cost more than the level's own work).
        const NONE: [Arg; 3] = [Arg::None; 3];
        if self.args.is_empty() {
            return emit(NONE);
        }
        let first = self.candidates(facts, &fixed, 0, 0, &NONE);
        match self.args.len() {
            1 => first.each(|a| emit([a, Arg::None, Arg::None])),
            2 => first.each(|a| {
                let chosen = [a, Arg::None, Arg::None];
                self.candidates(facts, &fixed, 1, picked(a), &chosen)
                    .each(|b| emit([a, b, Arg::None]));
            }),
            _ => {
                debug_assert_eq!(self.args.len(), 3, "the loader allows 3 arguments");
                first.each(|a| {
                    let chosen = [a, Arg::None, Arg::None];
                    self.candidates(facts, &fixed, 1, picked(a), &chosen)
                        .each(|b| {
                            let chosen = [a, b, Arg::None];
                            let both = picked(a) | picked(b);
                            self.candidates(facts, &fixed, 2, both, &chosen)
                                .each(|c| emit([a, b, c]));
                        });
                });
            }
        }
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

    /// What argument `k` may be once the earlier ones are `chosen`:
    /// `picked`, the pieces they chose (two piece arguments are always
    /// different pieces). `k` must be an argument (the caller's loops).
    #[inline(always)]
    fn candidates(
        &self,
        f: &Facts,
        fixed: &[u16; 3],
        k: usize,
        picked: u16,
        chosen: &[Arg; 3],
    ) -> Candidates {
        match &self.args[k] {
            ArgSpec::Piece(spec) => {
                let mut set = fixed[k] & !picked;
                if let Some(i) = spec.after {
                    set &= match chosen[i] {
                        Arg::Piece(q) => !((2u16 << q.0) - 1),
                        _ => 0,
                    };
                }
                if let Some((i, _, _)) = spec.from {
                    set = match f.square_of(chosen[i]) {
                        Some(sq) if set != 0 => f.on(set, self.reach(k, sq, f.up)),
                        _ => 0,
                    };
                }
                Candidates::Pieces(set)
            }
            ArgSpec::Square(spec) => {
                let reach = |sq| self.reach(k, sq, f.up);
                Candidates::Squares(f.square_set(spec, chosen, reach))
            }
            ArgSpec::Number(lo, hi) => Candidates::Numbers(*lo, *hi),
        }
    }
}

/// One argument's candidates.
enum Candidates {
    Pieces(u16),
    Squares(SqSet),
    /// The first number and the last.
    Numbers(u8, u8),
}

impl Candidates {
    /// Hands each candidate to `f`, ascending: one match, then each kind
    /// in a loop of its own, squares a 64-bit half at a time.
    #[inline(always)]
    fn each(self, mut f: impl FnMut(Arg)) {
        match self {
            Candidates::Pieces(mut set) => {
                while set != 0 {
                    let id = PieceId(set.trailing_zeros() as u8);
                    set &= set - 1;
                    f(Arg::Piece(id));
                }
            }
            Candidates::Squares(set) => {
                for half in 0..2u8 {
                    let mut bits = (set >> (64 * half)) as u64;
                    while bits != 0 {
                        let sq = Sq(64 * half + bits.trailing_zeros() as u8);
                        bits &= bits - 1;
                        f(Arg::Square(sq));
                    }
                }
            }
            Candidates::Numbers(lo, hi) => (lo..=hi).for_each(|n| f(Arg::Number(n))),
        }
    }
}

/// The piece an argument chose, as a mask.
#[inline(always)]
fn picked(a: Arg) -> u16 {
    match a {
        Arg::Piece(p) => 1 << p.0,
        _ => 0,
    }
}

/// B1.4: ATK scores in the last rows, DEF in the first.
fn attacks_up(pos: &Position) -> bool {
    pos.to_move == Team::Atk
}

/// What a `from` filter allows from `sq` whatever the position holds:
/// the squares at distance `lo..=hi`, with `line` only those on a
/// straight line from `sq`, with `forward` only those in a later row
/// than `sq`'s (`up`) or an earlier one.
fn reach(sq: Sq, up: bool, lo: u8, hi: u8, line: bool, forward: bool) -> SqSet {
    let mut set = ring(sq, lo, hi);
    if line {
        set &= sq.lines();
    }
    if forward {
        set &= sq.beyond_row(up);
    }
    set
}

/// The most squares at distance `lo..=hi` of any one square.
fn largest_ring(lo: u8, hi: u8) -> u64 {
    Sq::all()
        .map(|sq| u64::from(ring(sq, lo, hi).count_ones()))
        .max()
        .unwrap_or(0)
}

/// Squares at distance `lo..=hi` of `sq`.
fn ring(sq: Sq, lo: u8, hi: u8) -> SqSet {
    sq.within(hi) & !if lo == 0 { 0 } else { sq.within(lo - 1) }
}

/// What the piece filters read of one position, as masks (bit `i` is
/// piece id `i`): gathered once per legal list, so a filter is a few bit
/// operations instead of a scan of the pieces and stacks.
pub struct Facts<'p> {
    pos: &'p Position,
    /// B1.4: the coach to move attacks the last rows.
    up: bool,
    team: u16,
    down: u16,
    restricted: u16,
    stacked: u16,
    top: u16,
    holder: u16,
    /// Squares holding a piece.
    occupied: SqSet,
    /// Squares holding a piece of each team, by `Team` index.
    held: [SqSet; 2],
    /// Squares without a piece (`empty`), and without the ball (`free`).
    empty: SqSet,
    free: SqSet,
}

impl<'p> Facts<'p> {
    pub fn new(pos: &'p Position) -> Facts<'p> {
        let (mut down, mut restricted) = (0u16, 0u16);
        let mut held: [SqSet; 2] = [0; 2];
        for (i, p) in pos.pieces.iter().enumerate() {
            down |= u16::from(p.down) << i;
            restricted |= u16::from(p.restricted) << i;
            held[i / PER_TEAM as usize] |= p.at.bit();
        }
        let (mut stacked, mut top) = (0u16, 0u16);
        for s in pos.stacks.as_slice() {
            stacked |= 1 << s.top.0 | 1 << s.bottom.0;
            top |= 1 << s.top.0;
        }
        let empty = crate::games::ball::board::ALL & !(held[0] | held[1]);
        Facts {
            pos,
            up: attacks_up(pos),
            team: ((1u16 << PER_TEAM) - 1) << (pos.to_move as u8 * PER_TEAM),
            down,
            restricted,
            stacked,
            top,
            holder: pos.holder().map_or(0, |h| 1 << h.0),
            occupied: held[0] | held[1],
            held,
            empty,
            free: empty & !pos.loose_ball().map_or(0, |b| b.bit()),
        }
    }

    /// The pieces a piece filter allows whatever the other arguments are.
    fn fixed(&self, s: &PieceSpec) -> u16 {
        const EVERY: u16 = (1 << N_PIECES) - 1;
        let mut set = match s.team {
            None => EVERY,
            Some(TeamFilter::Own) => self.team,
            Some(TeamFilter::Opponent) => EVERY & !self.team,
        };
        for (want, mask) in [
            (s.down, self.down),
            (s.restricted, self.restricted),
            (s.ball, self.holder),
            (s.stacked, self.stacked),
            (s.top, self.top),
        ] {
            match want {
                Some(true) => set &= mask,
                Some(false) => set &= !mask,
                None => {}
            }
        }
        if let Some((lo, hi)) = s.ball_distance {
            set = self.within(set, self.pos.ball_square(), lo, hi);
        }
        set
    }

    /// The pieces of `set` at distance `lo..=hi` of `sq`.
    fn within(&self, set: u16, sq: Sq, lo: u8, hi: u8) -> u16 {
        self.on(set, ring(sq, lo, hi))
    }

    /// The pieces of `set` on the squares `at`: the squares that hold a
    /// piece of `set`'s team first, which are often none (a piece's
    /// neighbourhood), then a bit test a piece instead of a distance.
    fn on(&self, mut set: u16, at: SqSet) -> u16 {
        const ATK: u16 = (1 << PER_TEAM) - 1;
        let holding = if set & !ATK == 0 {
            self.held[Team::Atk as usize]
        } else if set & ATK == 0 {
            self.held[Team::Def as usize]
        } else {
            self.occupied
        };
        let near = at & holding;
        if near == 0 {
            return 0;
        }
        let mut kept = 0;
        while set != 0 {
            let i = set.trailing_zeros();
            set &= set - 1;
            if self.pos.pieces[i as usize].at.bit() & near != 0 {
                kept |= 1 << i;
            }
        }
        kept
    }

    fn square_of(&self, a: Arg) -> Option<Sq> {
        match a {
            Arg::Piece(p) => Some(self.pos.piece(p).at),
            Arg::Square(s) => Some(s),
            _ => None,
        }
    }

    /// The squares a square filter allows once the earlier arguments are
    /// `chosen`; `reach`, its [`Declared::reach`] entries.
    #[inline(always)]
    fn square_set(&self, s: &SquareSpec, chosen: &[Arg; 3], reach: impl Fn(Sq) -> SqSet) -> SqSet {
        let pos = self.pos;
        let mut set = if s.free {
            self.free
        } else if s.empty {
            self.empty
        } else {
            crate::games::ball::board::ALL
        };
        if let Some((i, _, _)) = s.from {
            let Some(f) = self.square_of(chosen[i]) else {
                return 0;
            };
            set &= reach(f);
        }
        if let Some((lo, hi)) = s.ball_distance {
            set &= ring(pos.ball_square(), lo, hi);
        }
        if let Some(i) = s.unlike
            && let Some(u) = self.square_of(chosen[i])
        {
            set &= !u.bit();
        }
        if let Some((i, j)) = s.beyond {
            let (Some(a), Some(b)) = (self.square_of(chosen[i]), self.square_of(chosen[j])) else {
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
}

#[cfg(test)]
mod tests {
    //! The mask enumerator against the plain reading of each filter, on
    //! the positions of random games: same targets, same order.

    use super::*;
    use crate::games::ball::Ball;
    use crate::games::ball::board::squares;
    use crate::kernel::game::Game;
    use crate::kernel::rng::SplitMix64;

    struct Reference<'a>(&'a Declared);

    impl Reference<'_> {
        fn enumerate(&self, pos: &Position, params: &Params, out: &mut Vec<[Arg; 3]>) {
            if !self.0.requires_met(pos, params) {
                return;
            }
            let mut chosen = [Arg::None; 3];
            self.fill(pos, 0, &mut chosen, out);
        }

        fn fill(&self, pos: &Position, k: usize, chosen: &mut [Arg; 3], out: &mut Vec<[Arg; 3]>) {
            if k == self.0.args.len() {
                out.push(*chosen);
                return;
            }
            match &self.0.args[k] {
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
        let mut set = crate::games::ball::board::ALL;
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
            let (fc, up) = (f.coord(), pos.to_move == Team::Atk);
            for sq in squares(set) {
                let c = sq.coord();
                let (dc, dr) = (c.col.abs_diff(fc.col), c.row.abs_diff(fc.row));
                let straight = dc == dr || dc == 0 || dr == 0;
                let ahead = if up { c.row > fc.row } else { c.row < fc.row };
                if (s.line && !straight) || (s.forward && !ahead) {
                    set &= !sq.bit();
                }
            }
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

    /// Filters of every kind the loader accepts, over 1-3 arguments.
    fn specs() -> Vec<Declared> {
        let piece = |p: PieceSpec| ArgSpec::Piece(p);
        let square = |s: SquareSpec| ArgSpec::Square(s);
        let own = Some(TeamFilter::Own);
        let opp = Some(TeamFilter::Opponent);
        let d = |args: Vec<ArgSpec>| Declared::new(Requires::default(), args);
        let mut all = vec![
            d(vec![]),
            // Sprint's shape, and the straight-line and forward filters alone.
            d(vec![
                piece(PieceSpec {
                    team: own,
                    down: Some(false),
                    ..Default::default()
                }),
                square(SquareSpec {
                    from: Some((0, 3, 3)),
                    line: true,
                    forward: true,
                    empty: true,
                    ..Default::default()
                }),
            ]),
            d(vec![
                piece(PieceSpec {
                    team: opp,
                    ..Default::default()
                }),
                square(SquareSpec {
                    from: Some((0, 1, 4)),
                    forward: true,
                    ..Default::default()
                }),
            ]),
            d(vec![
                piece(PieceSpec {
                    ball: Some(true),
                    ..Default::default()
                }),
                square(SquareSpec {
                    from: Some((0, 0, 16)),
                    line: true,
                    free: true,
                    ..Default::default()
                }),
            ]),
            d(vec![piece(PieceSpec::default())]),
            d(vec![piece(PieceSpec {
                team: own,
                restricted: Some(true),
                ..Default::default()
            })]),
            d(vec![piece(PieceSpec {
                team: own,
                down: Some(true),
                stacked: Some(false),
                ..Default::default()
            })]),
            d(vec![piece(PieceSpec {
                team: opp,
                ball: Some(true),
                ..Default::default()
            })]),
            d(vec![piece(PieceSpec {
                ball_distance: Some((0, 3)),
                down: Some(false),
                ..Default::default()
            })]),
            d(vec![
                piece(PieceSpec {
                    team: own,
                    down: Some(false),
                    stacked: Some(false),
                    ..Default::default()
                }),
                square(SquareSpec {
                    from: Some((0, 3, 3)),
                    empty: true,
                    ..Default::default()
                }),
            ]),
            d(vec![
                piece(PieceSpec {
                    team: own,
                    down: Some(false),
                    stacked: Some(false),
                    ..Default::default()
                }),
                piece(PieceSpec {
                    team: own,
                    stacked: Some(false),
                    from: Some((0, 1, 2)),
                    after: Some(0),
                    ..Default::default()
                }),
            ]),
            d(vec![
                piece(PieceSpec {
                    team: own,
                    stacked: Some(false),
                    restricted: Some(false),
                    ..Default::default()
                }),
                piece(PieceSpec {
                    team: opp,
                    stacked: Some(false),
                    from: Some((0, 1, 1)),
                    ..Default::default()
                }),
                square(SquareSpec {
                    beyond: Some((0, 1)),
                    free: true,
                    ..Default::default()
                }),
            ]),
            d(vec![
                piece(PieceSpec {
                    team: own,
                    top: Some(true),
                    ..Default::default()
                }),
                square(SquareSpec {
                    from: Some((0, 1, 1)),
                    free: true,
                    ..Default::default()
                }),
                square(SquareSpec {
                    from: Some((0, 1, 1)),
                    free: true,
                    unlike: Some(1),
                    ..Default::default()
                }),
            ]),
            d(vec![
                square(SquareSpec {
                    ball_distance: Some((1, 2)),
                    ..Default::default()
                }),
                piece(PieceSpec {
                    from: Some((0, 0, 4)),
                    ..Default::default()
                }),
                ArgSpec::Number(1, 3),
            ]),
            d(vec![
                piece(PieceSpec {
                    top: Some(false),
                    stacked: Some(true),
                    ..Default::default()
                }),
                piece(PieceSpec {
                    ball: Some(false),
                    from: Some((0, 5, 6)),
                    ..Default::default()
                }),
            ]),
        ];
        for ball in [BallNeed::Loose, BallNeed::Held, BallNeed::Own] {
            let mut spec = all[1].clone();
            spec.requires.ball = Some(ball);
            spec.requires.ap_below_turn = ball == BallNeed::Own;
            all.push(spec);
        }
        all
    }

    /// Every `from` table entry against the plain reading: distance,
    /// straight line and row compared square by square.
    #[test]
    fn reach_tables_hold_the_plain_filters() {
        let mut checked = 0;
        for d in specs() {
            for (k, a) in d.args.iter().enumerate() {
                let Some(((_, lo, hi), line, forward)) = a.reach_filter() else {
                    assert!(d.reach[k].is_empty());
                    continue;
                };
                for f in Sq::all() {
                    let fc = f.coord();
                    for up in [false, true] {
                        let plain = Sq::all()
                            .filter(|&sq| {
                                let c = sq.coord();
                                let (dc, dr) = (c.col.abs_diff(fc.col), c.row.abs_diff(fc.row));
                                let straight = dc == dr || dc == 0 || dr == 0;
                                let ahead = if up { c.row > fc.row } else { c.row < fc.row };
                                (lo..=hi).contains(&f.distance(sq))
                                    && (!line || straight)
                                    && (!forward || ahead)
                            })
                            .fold(0, |m, sq| m | sq.bit());
                        assert_eq!(d.reach(k, f, up), plain, "{a:?} from {f} up {up}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "the specs have `from` filters: {checked}");
    }

    #[test]
    fn masks_list_what_the_plain_filters_list() {
        let game = Ball::default();
        let params = game.params.clone();
        let specs = specs();
        let mut legal = Vec::new();
        let (mut fast, mut plain) = (Vec::new(), Vec::new());
        let mut listed = 0;
        for seed in 0..12 {
            let mut rng = SplitMix64::new(seed);
            let mut pos = game.start();
            loop {
                for d in &specs {
                    fast.clear();
                    plain.clear();
                    d.enumerate(&pos, &params, &mut fast);
                    Reference(d).enumerate(&pos, &params, &mut plain);
                    assert_eq!(fast, plain, "{d:?} at {pos:?}");
                    listed += fast.len();
                }
                game.legal_into(&pos, &mut legal);
                if legal.is_empty() {
                    break;
                }
                game.apply(&mut pos, legal[rng.below(legal.len())]);
            }
        }
        assert!(listed > 10_000, "the specs found targets: {listed}");
    }
}
