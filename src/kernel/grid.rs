//! Rectangular-grid geometry shared by the games: square names and distance.
//!
//! Every game of the platform names a square by column letter + row number
//! (BALL B1.1, Gateball T1, G-ball). Only the dimensions differ, so the
//! naming lives here and each game keeps its own playable-square tables.

/// A column/row pair, both 1-based, as written in the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    pub col: u8,
    pub row: u8,
}

/// Why a square name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareNameError {
    /// Not of the form letter + number at all.
    Shape,
    /// Letter or number outside the grid.
    OutOfGrid,
}

impl Coord {
    /// Parses `G9` (case-insensitive letter) on a `cols` × `rows` grid.
    pub fn parse(s: &str, cols: u8, rows: u8) -> Result<Coord, SquareNameError> {
        let bytes = s.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 || !bytes[0].is_ascii_alphabetic() {
            return Err(SquareNameError::Shape);
        }
        let digits = &s[1..];
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return Err(SquareNameError::Shape);
        }
        let col = bytes[0].to_ascii_uppercase() - b'A' + 1;
        let row: u8 = digits.parse().map_err(|_| SquareNameError::Shape)?;
        if col > cols || row == 0 || row > rows {
            return Err(SquareNameError::OutOfGrid);
        }
        Ok(Coord { col, row })
    }

    /// Chebyshev distance: the number of king steps, which on BALL's
    /// diagonal lattice is the number of diagonal steps (B1.3).
    pub fn distance(self, other: Coord) -> u8 {
        self.col
            .abs_diff(other.col)
            .max(self.row.abs_diff(other.row))
    }
}

impl std::fmt::Display for Coord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", (b'A' + self.col - 1) as char, self.row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for col in 1..=13 {
            for row in 1..=17 {
                let c = Coord { col, row };
                assert_eq!(Coord::parse(&c.to_string(), 13, 17), Ok(c));
            }
        }
        assert_eq!(Coord::parse("g9", 13, 17), Ok(Coord { col: 7, row: 9 }));
    }

    #[test]
    fn bad_names() {
        for s in ["", "G", "9G", "G09", "G0", "GG9", "G9x", "G123"] {
            assert_eq!(Coord::parse(s, 13, 17), Err(SquareNameError::Shape), "{s}");
        }
        for s in ["N1", "A18", "Z9"] {
            assert_eq!(
                Coord::parse(s, 13, 17),
                Err(SquareNameError::OutOfGrid),
                "{s}"
            );
        }
    }
}
