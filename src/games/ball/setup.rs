//! B3.1: the standard setup.

use super::board::Sq;
use super::piece::{Kind, N_PIECES};

/// Kind and square of ATK1..ATK7 then DEF1..DEF7. DEF is ATK mirrored:
/// row r → 18 − r (B3.1).
pub fn standard() -> [(Kind, Sq); N_PIECES] {
    const ATK: [(Kind, u8, u8); 7] = [
        (Kind::Square, 3, 7), // C7
        (Kind::O, 5, 7),      // E7
        (Kind::X, 9, 7),      // I7
        (Kind::O, 11, 7),     // K7
        (Kind::X, 7, 5),      // G5
        (Kind::X, 6, 4),      // F4
        (Kind::Square, 8, 4), // H4
    ];
    let sq = |col: u8, row: u8| {
        Sq::from_coord(crate::kernel::grid::Coord { col, row }).expect("setup squares are playable")
    };
    let mut out = [(Kind::X, Sq(0)); N_PIECES];
    for (i, &(kind, col, row)) in ATK.iter().enumerate() {
        out[i] = (kind, sq(col, row));
        out[i + 7] = (kind, sq(col, 18 - row));
    }
    out
}
