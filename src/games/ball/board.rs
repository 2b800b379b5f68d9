//! BALL's board: the 111 playable squares of a 13 × 17 grid (B1), their
//! names, adjacency and distance tables, and `u128` square sets.
//!
//! Squares are numbered 0..111 in *board order* (column, then row), the
//! order the notation sorts stacks in, so sorting by index is sorting by
//! the notation's rule. All tables are computed at compile time.

use crate::kernel::grid::{Coord, SquareNameError};

pub const COLS: u8 = 13;
pub const ROWS: u8 = 17;
/// B1.2: the playable (hatched) squares.
pub const N_SQUARES: usize = 111;

/// A playable square, by board-order index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(pub u8);

/// A set of playable squares.
pub type SqSet = u128;

/// Marks "no square" in the neighbour tables.
const NONE: u8 = u8::MAX;

/// The four diagonal directions as (Δcolumn, Δrow). `3 - d` is the opposite
/// of `d`, so `d` and `3 - d` lie on one line and the other two cross it.
pub const DIAGONALS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The four 2-square orthogonal jumps of `O` and `#` (B5.1).
const ORTHOGONALS: [(i8, i8); 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];
/// Longest distance on the board (row 1 to row 17).
const MAX_DISTANCE: usize = 16;

pub const fn is_playable(col: u8, row: u8) -> bool {
    col >= 1 && col <= COLS && row >= 1 && row <= ROWS && (col + row).is_multiple_of(2)
}

/// Per-square tables have 256 rows so that indexing by a `u8` needs no
/// bounds check on the hot path; rows past 110 are never read.
const ROWS_U8: usize = 256;

struct Tables {
    coord: [Coord; ROWS_U8],
    index: [[u8; ROWS as usize + 1]; COLS as usize + 1],
    step1: [[u8; 4]; ROWS_U8],
    step2: [[u8; 4]; ROWS_U8],
    orth2: [[u8; 4]; ROWS_U8],
    /// `within[k][s]`: squares at distance ≤ k from `s`.
    within: [[SqSet; ROWS_U8]; MAX_DISTANCE + 1],
    /// `bit[s]` = `1 << s`: a variable `u128` shift costs a dozen
    /// instructions, a load costs one.
    bit: [SqSet; ROWS_U8],
    /// `lines[s]`: the squares on a straight line through `s` (its two
    /// diagonals, its row, its column), `s` included.
    lines: [SqSet; ROWS_U8],
    /// `above[r]`: the squares of the rows after row `r`.
    above: [SqSet; ROWS as usize + 1],
}

const fn build() -> Tables {
    let mut t = Tables {
        coord: [Coord { col: 0, row: 0 }; ROWS_U8],
        index: [[NONE; ROWS as usize + 1]; COLS as usize + 1],
        step1: [[NONE; 4]; ROWS_U8],
        step2: [[NONE; 4]; ROWS_U8],
        orth2: [[NONE; 4]; ROWS_U8],
        within: [[0; ROWS_U8]; MAX_DISTANCE + 1],
        bit: [0; ROWS_U8],
        lines: [0; ROWS_U8],
        above: [0; ROWS as usize + 1],
    };
    let mut n = 0;
    let mut col = 1;
    while col <= COLS {
        let mut row = 1;
        while row <= ROWS {
            if is_playable(col, row) {
                t.coord[n] = Coord { col, row };
                t.index[col as usize][row as usize] = n as u8;
                n += 1;
            }
            row += 1;
        }
        col += 1;
    }
    let mut s = 0;
    while s < N_SQUARES {
        let c = t.coord[s];
        t.bit[s] = 1u128 << s;
        let mut d = 0;
        while d < 4 {
            t.step1[s][d] = offset(&t.index, c, DIAGONALS[d].0, DIAGONALS[d].1);
            t.step2[s][d] = offset(&t.index, c, 2 * DIAGONALS[d].0, 2 * DIAGONALS[d].1);
            t.orth2[s][d] = offset(&t.index, c, ORTHOGONALS[d].0, ORTHOGONALS[d].1);
            d += 1;
        }
        let mut o = 0;
        while o < N_SQUARES {
            let e = t.coord[o];
            let dc = c.col.abs_diff(e.col);
            let dr = c.row.abs_diff(e.row);
            let dist = if dc > dr { dc } else { dr } as usize;
            if dc == dr || dc == 0 || dr == 0 {
                t.lines[s] |= 1u128 << o;
            }
            let mut k = dist;
            while k <= MAX_DISTANCE {
                t.within[k][s] |= 1u128 << o;
                k += 1;
            }
            o += 1;
        }
        let mut r = 0;
        while r < c.row as usize {
            t.above[r] |= 1u128 << s;
            r += 1;
        }
        s += 1;
    }
    t
}

const fn offset(
    index: &[[u8; ROWS as usize + 1]; COLS as usize + 1],
    c: Coord,
    dc: i8,
    dr: i8,
) -> u8 {
    let col = c.col as i16 + dc as i16;
    let row = c.row as i16 + dr as i16;
    if col < 1 || col > COLS as i16 || row < 1 || row > ROWS as i16 {
        return NONE;
    }
    index[col as usize][row as usize]
}

static TABLES: Tables = build();

/// Every playable square.
pub const ALL: SqSet = (1u128 << N_SQUARES) - 1;

#[inline(always)]
const fn opt(i: u8) -> Option<Sq> {
    if i == NONE { None } else { Some(Sq(i)) }
}

impl Sq {
    pub fn from_coord(c: Coord) -> Option<Sq> {
        if !is_playable(c.col, c.row) {
            return None;
        }
        opt(TABLES.index[c.col as usize][c.row as usize])
    }

    /// Every playable square in board order.
    pub fn all() -> impl Iterator<Item = Sq> {
        (0..N_SQUARES as u8).map(Sq)
    }

    #[inline(always)]
    pub fn coord(self) -> Coord {
        TABLES.coord[self.0 as usize]
    }

    #[inline(always)]
    pub fn row(self) -> u8 {
        self.coord().row
    }

    #[inline(always)]
    pub fn bit(self) -> SqSet {
        TABLES.bit[self.0 as usize]
    }

    /// One diagonal step in direction `d` (index into [`DIAGONALS`]).
    #[inline(always)]
    pub fn step(self, d: usize) -> Option<Sq> {
        opt(TABLES.step1[self.0 as usize][d])
    }

    /// Two diagonal steps in direction `d`.
    #[inline(always)]
    pub fn step2(self, d: usize) -> Option<Sq> {
        opt(TABLES.step2[self.0 as usize][d])
    }

    /// The 2-square orthogonal jump number `d` (0..4).
    #[inline(always)]
    pub fn orth2(self, d: usize) -> Option<Sq> {
        opt(TABLES.orth2[self.0 as usize][d])
    }

    /// The squares adjacent to this one (B1.3).
    #[inline(always)]
    pub fn neighbours(self) -> SqSet {
        TABLES.within[1][self.0 as usize] & !self.bit()
    }

    /// Squares at distance ≤ k (k is clamped to the board).
    #[inline(always)]
    pub fn within(self, k: u8) -> SqSet {
        TABLES.within[(k as usize).min(MAX_DISTANCE)][self.0 as usize]
    }

    pub fn distance(self, other: Sq) -> u8 {
        self.coord().distance(other.coord())
    }

    /// The squares on a straight line through this one: its two
    /// diagonals, its row and its column, itself included.
    #[inline(always)]
    pub fn lines(self) -> SqSet {
        TABLES.lines[self.0 as usize]
    }

    /// The squares of the rows after this square's row (`up`), or of the
    /// rows before it.
    #[inline(always)]
    pub fn beyond_row(self, up: bool) -> SqSet {
        let r = self.row() as usize;
        if up {
            TABLES.above[r]
        } else {
            ALL & !TABLES.above[r - 1]
        }
    }

    /// The square halfway to `to`, when there is one (2-square diagonals).
    pub fn midpoint(self, to: Sq) -> Option<Sq> {
        let (a, b) = (self.coord(), to.coord());
        if (a.col + b.col) % 2 != 0 || (a.row + b.row) % 2 != 0 {
            return None;
        }
        Sq::from_coord(Coord {
            col: (a.col + b.col) / 2,
            row: (a.row + b.row) / 2,
        })
    }

    /// The diagonal direction leading from `self` to an adjacent `to`.
    pub fn direction_to(self, to: Sq) -> Option<usize> {
        (0..4).find(|&d| self.step(d) == Some(to))
    }

    /// Parses a square name, refusing unplayable squares (B1.2).
    pub fn parse(s: &str) -> Result<Sq, SqError> {
        let c = Coord::parse(s, COLS, ROWS).map_err(|e| match e {
            SquareNameError::Shape | SquareNameError::OutOfGrid => SqError::NotASquare,
        })?;
        Sq::from_coord(c).ok_or(SqError::Unplayable)
    }
}

/// Why a square name was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SqError {
    /// B1.1: not a column A–M and row 1–17.
    NotASquare,
    /// B1.2: a real square, but not a hatched one.
    Unplayable,
}

impl SqError {
    pub fn describe(self, text: &str) -> String {
        match self {
            SqError::NotASquare => {
                format!("`{text}` is not a square (B1.1: column A-M, then row 1-17)")
            }
            SqError::Unplayable => format!(
                "`{text}` is not a playable square (B1.2: column number + row must be even)"
            ),
        }
    }
}

impl std::fmt::Display for Sq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.coord().fmt(f)
    }
}

/// Iterates the squares of a set in board order.
pub fn squares(set: SqSet) -> impl Iterator<Item = Sq> {
    let mut out = Vec::with_capacity(set.count_ones() as usize);
    each_square(set, |s| out.push(s));
    out.into_iter()
}

/// Calls `f` on each square of a set in board order: the hot-path form,
/// one 64-bit half at a time, which compiles far tighter than a `u128` loop.
#[inline(always)]
pub fn each_square(set: SqSet, mut f: impl FnMut(Sq)) {
    let mut lo = set as u64;
    while lo != 0 {
        f(Sq(lo.trailing_zeros() as u8));
        lo &= lo - 1;
    }
    let mut hi = (set >> 64) as u64;
    while hi != 0 {
        f(Sq(64 + hi.trailing_zeros() as u8));
        hi &= hi - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B1.2: 111 playable squares, A1 and G9 among them, B1 not.
    #[test]
    fn b1_2_playable_squares() {
        assert_eq!(Sq::all().count(), 111);
        assert_eq!(ALL.count_ones(), 111);
        assert!(Sq::parse("A1").is_ok());
        assert!(Sq::parse("G9").is_ok());
        assert!(Sq::parse("M17").is_ok());
        assert_eq!(Sq::parse("B1"), Err(SqError::Unplayable));
        assert_eq!(Sq::parse("N1"), Err(SqError::NotASquare));
    }

    /// B1.1 + board order: indices follow column, then row.
    #[test]
    fn b1_1_board_order() {
        let names: Vec<String> = Sq::all().take(10).map(|s| s.to_string()).collect();
        assert_eq!(names[..3], ["A1", "A3", "A5"]);
        assert!(Sq::parse("C9").unwrap() < Sq::parse("C11").unwrap());
        for s in Sq::all() {
            assert_eq!(Sq::parse(&s.to_string()), Ok(s));
        }
    }

    /// B1.3: adjacency is diagonal touch; distance is max(|Δc|, |Δr|).
    #[test]
    fn b1_3_adjacency_and_distance() {
        let g9 = Sq::parse("G9").unwrap();
        let n: Vec<String> = squares(g9.neighbours()).map(|s| s.to_string()).collect();
        assert_eq!(n, ["F8", "F10", "H8", "H10"]);
        let a1 = Sq::parse("A1").unwrap();
        assert_eq!(squares(a1.neighbours()).count(), 1);
        assert_eq!(a1.distance(Sq::parse("M17").unwrap()), 16);
        assert_eq!(a1.distance(Sq::parse("A3").unwrap()), 2);
        assert_eq!(g9.within(0), g9.bit());
        assert_eq!(g9.within(1).count_ones(), 5);
        // Every square within distance k, checked against the formula.
        for s in Sq::all() {
            for o in Sq::all() {
                let d = s.distance(o);
                assert!(o.bit() & s.within(d) != 0);
                if d > 0 {
                    assert!(o.bit() & s.within(d - 1) == 0);
                }
            }
        }
    }

    /// Straight lines and the rows beyond a square, against coordinates.
    #[test]
    fn lines_and_rows_beyond() {
        let g9 = Sq::parse("G9").unwrap();
        let line: Vec<String> = squares(g9.lines() & g9.within(2) & !g9.within(1))
            .map(|s| s.to_string())
            .collect();
        assert_eq!(line, ["E7", "E9", "E11", "G7", "G11", "I7", "I9", "I11"]);
        for s in Sq::all() {
            let (a, up, down) = (s.coord(), s.beyond_row(true), s.beyond_row(false));
            for o in Sq::all() {
                let b = o.coord();
                let (dc, dr) = (a.col.abs_diff(b.col), a.row.abs_diff(b.row));
                assert_eq!(s.lines() & o.bit() != 0, dc == dr || dc == 0 || dr == 0);
                assert_eq!(up & o.bit() != 0, b.row > a.row);
                assert_eq!(down & o.bit() != 0, b.row < a.row);
            }
        }
    }

    #[test]
    fn steps_and_jumps() {
        let g9 = Sq::parse("G9").unwrap();
        assert_eq!(g9.step(0).unwrap().to_string(), "H10");
        assert_eq!(g9.step2(3).unwrap().to_string(), "E7");
        let jumps: Vec<String> = (0..4)
            .filter_map(|d| g9.orth2(d))
            .map(|s| s.to_string())
            .collect();
        assert_eq!(jumps, ["I9", "E9", "G11", "G7"]);
        assert_eq!(Sq::parse("A1").unwrap().step(3), None);
        assert_eq!(g9.direction_to(Sq::parse("F8").unwrap()), Some(3));
    }
}
