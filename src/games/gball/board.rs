//! The court as a grid (G1): squares, their kinds, directions, neighbours
//! and the ball's bounce. Everything is a table built at compile time, so
//! the hot path never computes a neighbour or a kind.
//!
//! A square is `col * 6 + row` with `col` 0–10 (`A`–`K`) and `row` 0–5
//! (rows `1`–`6`); a direction is 0–7 from `N` clockwise. [`NONE`] marks
//! "no square" / "no direction" in the compact position.

use std::fmt;

use super::Team;

pub const COLS: u8 = 11;
pub const ROWS: u8 = 6;
pub const SQUARES: usize = 66;
/// "No square", "no direction", "no player" in the compact position.
pub const NONE: u8 = u8::MAX;

/// The kinds of square of G1.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Air,
    SideWall,
    Goal,
    Corner,
}

pub const fn col(sq: u8) -> u8 {
    sq / ROWS
}

pub const fn row(sq: u8) -> u8 {
    sq % ROWS
}

pub const fn square(col: u8, row: u8) -> u8 {
    col * ROWS + row
}

pub const fn kind(sq: u8) -> Kind {
    let (c, r) = (col(sq), row(sq));
    let end = c == 0 || c == COLS - 1;
    let side = r == 0 || r == ROWS - 1;
    match (end, side) {
        (true, true) => Kind::Corner,
        (true, false) => Kind::Goal,
        (false, true) => Kind::SideWall,
        (false, false) => Kind::Air,
    }
}

const fn build_kinds() -> [Kind; SQUARES] {
    let mut t = [Kind::Air; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        t[sq] = kind(sq as u8);
        sq += 1;
    }
    t
}

static KINDS: [Kind; SQUARES] = build_kinds();

/// [`kind`] by table, for the hot path.
#[inline]
pub fn kind_of(sq: u8) -> Kind {
    // Off the grid counts as a wall: nothing moves or throws there.
    KINDS.get(sq as usize).copied().unwrap_or(Kind::SideWall)
}

#[inline]
pub fn is_air(sq: u8) -> bool {
    sq != NONE && matches!(kind_of(sq), Kind::Air)
}

#[inline]
pub fn is_wall(sq: u8) -> bool {
    sq != NONE && !matches!(kind_of(sq), Kind::Air)
}

/// The goal `team` defends (G1.3): RED's is `A2`–`A5`, BLU's `K2`–`K5`.
pub const fn is_goal_of(sq: u8, team: Team) -> bool {
    matches!(kind(sq), Kind::Goal)
        && col(sq)
            == match team {
                Team::Red => 0,
                Team::Blu => COLS - 1,
            }
}

/// The end wall `team` defends: its goal and corner squares (G1.2).
pub const fn is_end_wall_of(sq: u8, team: Team) -> bool {
    col(sq)
        == match team {
            Team::Red => 0,
            Team::Blu => COLS - 1,
        }
}

/// The wall squares of a team's own half, where it places (G4.3).
pub const fn is_placement_square(sq: u8, team: Team) -> bool {
    if sq >= SQUARES as u8 || matches!(kind(sq), Kind::Air) {
        return false;
    }
    match team {
        Team::Red => col(sq) <= 4,
        Team::Blu => col(sq) >= 6,
    }
}

/// The 14 placement squares of each team, in board order (by column,
/// then row): the order `legal` lists `place` actions in.
pub const fn placement_squares(team: Team) -> [u8; 14] {
    let mut out = [0u8; 14];
    let mut n = 0;
    let mut sq = 0;
    while sq < SQUARES as u8 {
        if is_placement_square(sq, team) {
            out[n] = sq;
            n += 1;
        }
        sq += 1;
    }
    out
}

pub const RED_PLACEMENT: [u8; 14] = placement_squares(Team::Red);
pub const BLU_PLACEMENT: [u8; 14] = placement_squares(Team::Blu);

/// `N NE E SE S SW W NW` (G1.5).
pub const DIR_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const DCOL: [i8; 8] = [0, 1, 1, 1, 0, -1, -1, -1];
const DROW: [i8; 8] = [1, 1, 0, -1, -1, -1, 0, 1];

/// 45° left (G1.5: N → NW).
pub const fn left(d: u8) -> u8 {
    (d + 7) % 8
}

/// 45° right (N → NE).
pub const fn right(d: u8) -> u8 {
    (d + 1) % 8
}

pub const fn reverse(d: u8) -> u8 {
    (d + 4) % 8
}

pub const fn is_diagonal(d: u8) -> bool {
    d % 2 == 1
}

/// G1.7: forward is any direction with a part toward the opponents' end.
pub const fn is_forward(d: u8, team: Team) -> bool {
    match team {
        Team::Red => DCOL[d as usize] > 0,
        Team::Blu => DCOL[d as usize] < 0,
    }
}

/// The straight forward direction of a team: RED `E`, BLU `W` (G4.3).
pub const fn forward(team: Team) -> u8 {
    match team {
        Team::Red => 2,
        Team::Blu => 6,
    }
}

const fn build_neighbours() -> [[u8; 8]; SQUARES] {
    let mut t = [[NONE; 8]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let c = (sq / ROWS as usize) as i8;
        let r = (sq % ROWS as usize) as i8;
        let mut d = 0;
        while d < 8 {
            let nc = c + DCOL[d];
            let nr = r + DROW[d];
            if nc >= 0 && nc < COLS as i8 && nr >= 0 && nr < ROWS as i8 {
                t[sq][d] = square(nc as u8, nr as u8);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

static NEIGHBOURS: [[u8; 8]; SQUARES] = build_neighbours();

/// The neighbour of `sq` in direction `d`, or [`NONE`] off the grid.
#[inline]
pub fn neighbour(sq: u8, d: u8) -> u8 {
    match NEIGHBOURS.get(sq as usize) {
        Some(n) => n[(d & 7) as usize],
        None => NONE,
    }
}

/// The air squares as a bitboard: every one is below 64 (columns B–J,
/// rows 2–5), so a set of them is a `u64`, and `1 << (sq & 63)` of any
/// byte is either its own air bit or a bit outside [`AIR`] (off the grid
/// or a wall). The flow's per-player passes (who shares an air square,
/// who stands next to a wall player) use it for a set without a branch.
pub const AIR: u64 = air_board();

const fn air_board() -> u64 {
    let mut b = 0u64;
    let mut sq = 0;
    while sq < SQUARES {
        if matches!(kind(sq as u8), Kind::Air) {
            assert!(sq < 64, "an air square past bit 63");
            b |= 1 << sq;
        }
        sq += 1;
    }
    b
}

/// The air squares next to `sq` (a bitboard, see [`AIR`]); 0 for any
/// byte that is not a square.
#[inline]
pub fn air_around(sq: u8) -> u64 {
    STEPS.air_around.get(sq as usize).copied().unwrap_or(0)
}

/// The directions [`wall_step_ok`] allows from `sq`, as a mask by
/// direction; 0 for any byte that is not a square: a wall player's
/// decision is listed from these, for every action greedy weighs.
#[inline]
pub fn wall_steps(sq: u8) -> u8 {
    STEPS.wall_steps[sq as usize]
}

/// What each square's neighbours allow, by square: [`air_around`] and
/// [`wall_steps`].
struct Steps {
    air_around: [u64; SQUARES],
    wall_steps: [u8; 256],
}

static STEPS: Steps = build_steps();

const fn build_steps() -> Steps {
    let mut t = Steps {
        air_around: [0; SQUARES],
        wall_steps: [0; 256],
    };
    let neighbours = build_neighbours();
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 8 {
            let n = neighbours[sq][d];
            let air = n != NONE && matches!(kind(n), Kind::Air);
            if air {
                t.air_around[sq] |= 1 << n;
            }
            if air || (n != NONE && is_diagonal(d as u8)) {
                t.wall_steps[sq] |= 1 << d;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Whether a player on `sq` may jump, or a holder there may throw, in
/// direction `d` as far as the court goes (G6.5 WALL-WALKING, G10.2
/// PARALLEL PASS): the neighbour exists and is not a wall square sharing
/// a side with `sq`. Every wall square beside a wall square in a straight
/// direction shares a side with it, and the only diagonal wall–wall
/// contacts are the four pairs of G1.6, so the test is "an air square, or
/// a diagonal step".
#[inline]
pub fn wall_step_ok(sq: u8, d: u8) -> bool {
    let n = neighbour(sq, d);
    n != NONE && (is_air(n) || is_diagonal(d))
}

/// G6.2: the direction of a ball that has just entered `sq` moving `d`.
pub fn bounce(sq: u8, d: u8) -> u8 {
    match kind(sq) {
        Kind::Air => d,
        Kind::Corner => reverse(d),
        Kind::SideWall | Kind::Goal => {
            let (dc, dr) = (DCOL[d as usize], DROW[d as usize]);
            // Reverse the part toward the wall, keep the other.
            let (dc, dr) = if kind(sq) == Kind::SideWall {
                (dc, -dr)
            } else {
                (-dc, dr)
            };
            dir_of(dc, dr)
        }
    }
}

fn dir_of(dc: i8, dr: i8) -> u8 {
    (0..8u8)
        .find(|&d| DCOL[d as usize] == dc && DROW[d as usize] == dr)
        .expect("a unit step is a direction")
}

/// G6.2's promise, checked when a position is read: a moving ball's
/// direction points at a square of the grid and never at a wall square
/// adjacent to its own.
pub fn ball_dir_ok(sq: u8, d: u8) -> bool {
    if is_air(sq) {
        return true;
    }
    wall_step_ok(sq, d)
}

pub struct Sq(pub u8);

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 as usize >= SQUARES {
            return f.write_str("-");
        }
        write!(f, "{}{}", (b'A' + col(self.0)) as char, row(self.0) + 1)
    }
}

pub fn square_name(sq: u8) -> String {
    Sq(sq).to_string()
}

pub fn parse_square(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'A'..=b'K').contains(&b[0]) || !(b'1'..=b'6').contains(&b[1]) {
        return None;
    }
    Some(square(b[0] - b'A', b[1] - b'1'))
}

pub fn dir_name(d: u8) -> &'static str {
    DIR_NAMES.get(d as usize).copied().unwrap_or("-")
}

pub fn parse_dir(s: &str) -> Option<u8> {
    DIR_NAMES.iter().position(|&n| n == s).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> u8 {
        parse_square(s).unwrap()
    }

    #[test]
    fn g1_2_kinds_count() {
        let count = |k| (0..66u8).filter(|&s| kind(s) == k).count();
        assert_eq!(count(Kind::Air), 36);
        assert_eq!(count(Kind::SideWall), 18);
        assert_eq!(count(Kind::Goal), 8);
        assert_eq!(count(Kind::Corner), 4);
        assert_eq!(kind(sq("F1")), Kind::SideWall);
        assert!(is_goal_of(sq("A2"), Team::Red) && is_goal_of(sq("K5"), Team::Blu));
        assert!(!is_goal_of(sq("A1"), Team::Red));
    }

    #[test]
    fn g1_6_wall_steps() {
        let n = |s: &str| sq(s);
        // A2 may jump SE to B1 and back; A1 only NE.
        assert!(wall_step_ok(n("A2"), 3));
        assert!(wall_step_ok(n("B1"), 7));
        assert!(!wall_step_ok(n("A2"), 4));
        let corner: Vec<u8> = (0..8).filter(|&d| wall_step_ok(n("A1"), d)).collect();
        assert_eq!(corner, [1]);
        let side: Vec<&str> = (0..8)
            .filter(|&d| wall_step_ok(n("C1"), d))
            .map(dir_name)
            .collect();
        assert_eq!(side, ["N", "NE", "NW"]);
    }

    #[test]
    fn g6_2_bounces() {
        let d = |s: &str| parse_dir(s).unwrap();
        assert_eq!(bounce(sq("C1"), d("SW")), d("NW"));
        assert_eq!(bounce(sq("C1"), d("SE")), d("NE"));
        assert_eq!(bounce(sq("C1"), d("S")), d("N"));
        assert_eq!(bounce(sq("A3"), d("NW")), d("NE"));
        assert_eq!(bounce(sq("A3"), d("SW")), d("SE"));
        assert_eq!(bounce(sq("A3"), d("W")), d("E"));
        assert_eq!(bounce(sq("K6"), d("NE")), d("SW"));
        assert_eq!(bounce(sq("J6"), d("NE")), d("SE"));
        assert_eq!(bounce(sq("D3"), d("NE")), d("NE"));
    }

    /// G6.2: over every reachable ball state (a wall square entered in a
    /// direction that leads into it), the new direction is a legal step.
    #[test]
    fn g6_2_bounce_never_points_into_the_wall() {
        for from in 0..66u8 {
            for d in 0..8u8 {
                if !ball_dir_ok(from, d) {
                    continue;
                }
                let to = neighbour(from, d);
                if to == NONE {
                    continue;
                }
                let nd = bounce(to, d);
                assert!(
                    ball_dir_ok(to, nd),
                    "{} {} -> {} {}",
                    Sq(from),
                    dir_name(d),
                    Sq(to),
                    dir_name(nd)
                );
            }
        }
    }

    /// The tables by square say what the plain functions say, for every
    /// byte a position may hold.
    #[test]
    fn step_tables_match_the_neighbours() {
        for sq in 0..=u8::MAX {
            for d in 0..8 {
                assert_eq!(wall_steps(sq) >> d & 1 == 1, wall_step_ok(sq, d), "{sq} {d}");
            }
            let mut around = 0u64;
            for d in 0..8 {
                let n = neighbour(sq, d);
                if is_air(n) {
                    around |= 1 << n;
                }
            }
            assert_eq!(air_around(sq), around, "{sq}");
            assert_eq!(AIR >> (sq & 63) & 1 == 1 && sq < 64, is_air(sq), "{sq}");
        }
    }
}
