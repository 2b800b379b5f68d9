//! Spaces and directions of the Gateball board (T1.2, T1.4).
//!
//! Gateball courts are up to 30 columns wide plus the Outside Line, so a
//! column name may have two letters (`AB12`); the names are strict
//! (uppercase, no leading zero) because the notation compares actions as
//! text.

use std::fmt;

/// A space of the board, both coordinates 1-based as written: column 1 is
/// `A`, row 1 the southern Outside Line. The derived order is board order
/// (column, then row; T1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Space {
    pub col: u8,
    pub row: u8,
}

impl Space {
    pub const fn new(col: u8, row: u8) -> Space {
        Space { col, row }
    }

    /// Parses a space name exactly as T1.2 writes it: uppercase letters,
    /// then a row number without leading zeros. Bounds are the caller's.
    pub fn parse(s: &str) -> Option<Space> {
        let letters = s.bytes().take_while(u8::is_ascii_uppercase).count();
        let (cols, digits) = s.split_at(letters);
        if letters == 0
            || letters > 2
            || digits.is_empty()
            || digits.len() > 3
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let col = cols
            .bytes()
            .fold(0u32, |acc, b| acc * 26 + u32::from(b - b'A' + 1));
        let row: u32 = digits.parse().ok()?;
        Some(Space {
            col: u8::try_from(col).ok()?,
            row: u8::try_from(row).ok()?,
        })
    }

    /// The neighbouring space one step in `dir`, if it has coordinates ≥ 1.
    /// Whether it is on the board is the court's question.
    pub fn step(self, dir: Dir) -> Option<Space> {
        let (dc, dr) = dir.delta();
        let col = i16::from(self.col) + i16::from(dc);
        let row = i16::from(self.row) + i16::from(dr);
        if col < 1 || row < 1 || col > 255 || row > 255 {
            return None;
        }
        Some(Space::new(col as u8, row as u8))
    }

    /// Squared distance between space centres (T8.2's measure).
    pub fn dist2(self, other: Space) -> u32 {
        let dc = u32::from(self.col.abs_diff(other.col));
        let dr = u32::from(self.row.abs_diff(other.row));
        dc * dc + dr * dr
    }
}

/// Writes a column number as its letters: 1 → `A`, 27 → `AA`.
pub fn column_name(col: u8) -> String {
    let mut n = u32::from(col);
    let mut out = Vec::new();
    while n > 0 {
        let r = (n - 1) % 26;
        out.push(b'A' + r as u8);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_name(self.col), self.row)
    }
}

/// The eight directions of T1.4, in the order the notation sorts them
/// does not matter: the canonical list is sorted as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];
    /// The orthogonal directions, the steps of a technical path (T5.3).
    pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// (Δcolumn, Δrow): east and north are positive.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (0, 1),
            Dir::NE => (1, 1),
            Dir::E => (1, 0),
            Dir::SE => (1, -1),
            Dir::S => (0, -1),
            Dir::SW => (-1, -1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, 1),
        }
    }

    pub const fn is_orthogonal(self) -> bool {
        matches!(self, Dir::N | Dir::E | Dir::S | Dir::W)
    }

    /// The uppercase name of a straight move (`NE`).
    pub const fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::NE => "NE",
            Dir::E => "E",
            Dir::SE => "SE",
            Dir::S => "S",
            Dir::SW => "SW",
            Dir::W => "W",
            Dir::NW => "NW",
        }
    }

    pub fn parse(s: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == s)
    }

    /// The lowercase letter of a technical step (`n`); orthogonal only.
    pub const fn letter(self) -> char {
        match self {
            Dir::N => 'n',
            Dir::E => 'e',
            Dir::S => 's',
            Dir::W => 'w',
            _ => '?',
        }
    }

    pub fn from_letter(c: u8) -> Option<Dir> {
        match c {
            b'n' => Some(Dir::N),
            b'e' => Some(Dir::E),
            b's' => Some(Dir::S),
            b'w' => Some(Dir::W),
            _ => None,
        }
    }
}

/// A quick "maybe" filter over a few spaces: a space can be one of them
/// only if its column and its row are both some space's. Coordinates past
/// 126 share the last bit, so the filter stays conservative on any court.
#[derive(Clone, Copy, Default)]
pub struct SpaceFilter {
    cols: u128,
    rows: u128,
}

impl SpaceFilter {
    fn bit(x: u8) -> u128 {
        1 << x.min(127)
    }

    pub fn add(&mut self, s: Space) {
        self.cols |= Self::bit(s.col);
        self.rows |= Self::bit(s.row);
    }

    pub fn may_hold(self, s: Space) -> bool {
        self.cols & Self::bit(s.col) != 0 && self.rows & Self::bit(s.row) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// T1.2: names are exact; `t1` and `T01` are not space names.
    #[test]
    fn t1_2_space_names() {
        for (name, col, row) in [("A1", 1, 1), ("T1", 20, 1), ("K9", 11, 9), ("AB12", 28, 12)] {
            let s = Space::parse(name).expect(name);
            assert_eq!((s.col, s.row), (col, row));
            assert_eq!(s.to_string(), name);
        }
        for bad in [
            "t1", "T01", "T 1", "T", "1", "", "T1a", "ABC1", "T0", "A1000",
        ] {
            assert_eq!(Space::parse(bad), None, "{bad}");
        }
        for col in 1..=40 {
            let s = Space::new(col, 3);
            assert_eq!(Space::parse(&s.to_string()), Some(s));
        }
    }

    /// T1.2: board order sorts by column, then row.
    #[test]
    fn t1_2_board_order() {
        let a17 = Space::parse("A17").unwrap();
        let b1 = Space::parse("B1").unwrap();
        let b2 = Space::parse("B2").unwrap();
        let b10 = Space::parse("B10").unwrap();
        assert!(a17 < b1 && b2 < b10);
    }

    #[test]
    fn a_space_filter_never_says_no_to_a_space_it_holds() {
        let mut f = SpaceFilter::default();
        let held = [Space::new(1, 1), Space::new(30, 200), Space::new(127, 3), Space::new(255, 255)];
        for s in held {
            f.add(s);
        }
        for s in held {
            assert!(f.may_hold(s), "{s:?}");
        }
        // A space whose column no held space shares is ruled out.
        assert!(!f.may_hold(Space::new(2, 1)));
        assert!(!f.may_hold(Space::new(5, 9)));
    }
}
