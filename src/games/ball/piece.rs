//! Teams, piece kinds and piece ids (B2).

/// B2.1: the two teams. ATK sorts before DEF, as in the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Team {
    Atk = 0,
    Def = 1,
}

impl Team {
    pub const BOTH: [Team; 2] = [Team::Atk, Team::Def];

    pub fn other(self) -> Team {
        match self {
            Team::Atk => Team::Def,
            Team::Def => Team::Atk,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Team::Atk => "ATK",
            Team::Def => "DEF",
        }
    }

    pub fn parse(s: &str) -> Option<Team> {
        match s {
            "ATK" => Some(Team::Atk),
            "DEF" => Some(Team::Def),
            _ => None,
        }
    }
}

impl std::fmt::Display for Team {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// B2.2: the piece kinds; `Square` is written `#` and drawn □.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    X,
    O,
    Square,
}

impl Kind {
    pub fn symbol(self) -> char {
        match self {
            Kind::X => 'X',
            Kind::O => 'O',
            Kind::Square => '#',
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "X" => Some(Kind::X),
            "O" => Some(Kind::O),
            "#" => Some(Kind::Square),
            _ => None,
        }
    }

    /// B5.1: `X` and `#` move 1 or 2 squares diagonally.
    pub fn moves_two_diagonally(self) -> bool {
        self != Kind::O
    }

    /// B5.1: `O` and `#` jump 2 squares orthogonally.
    pub fn jumps_orthogonally(self) -> bool {
        self != Kind::X
    }
}

/// A piece id: 0..7 are ATK1..ATK7, 7..14 are DEF1..DEF7, so index order
/// is the notation's sort order (B2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(pub u8);

pub const N_PIECES: usize = 14;
pub const PER_TEAM: u8 = 7;

impl PieceId {
    pub fn new(team: Team, number: u8) -> PieceId {
        debug_assert!((1..=PER_TEAM).contains(&number));
        PieceId(team as u8 * PER_TEAM + number - 1)
    }

    pub fn all() -> impl Iterator<Item = PieceId> {
        (0..N_PIECES as u8).map(PieceId)
    }

    pub fn of_team(team: Team) -> impl Iterator<Item = PieceId> {
        let base = team as u8 * PER_TEAM;
        (base..base + PER_TEAM).map(PieceId)
    }

    #[inline(always)]
    pub fn team(self) -> Team {
        if self.0 < PER_TEAM {
            Team::Atk
        } else {
            Team::Def
        }
    }

    pub fn number(self) -> u8 {
        self.0 % PER_TEAM + 1
    }

    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses `ATK5` (case-insensitive).
    pub fn parse(s: &str) -> Option<PieceId> {
        if s.len() != 4 || !s.is_ascii() {
            return None;
        }
        // Any case, without building an upper-case copy: card scripts
        // name a piece in every binding call.
        let t = &s.as_bytes()[..3];
        let team = if t.eq_ignore_ascii_case(b"ATK") {
            Team::Atk
        } else if t.eq_ignore_ascii_case(b"DEF") {
            Team::Def
        } else {
            return None;
        };
        let n = s.as_bytes()[3];
        if !(b'1'..=b'7').contains(&n) {
            return None;
        }
        Some(PieceId::new(team, n - b'0'))
    }
}

impl std::fmt::Display for PieceId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.team(), self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B2.1: ids ATK1..ATK7, DEF1..DEF7, in the notation's order.
    #[test]
    fn b2_1_piece_ids() {
        let names: Vec<String> = PieceId::all().map(|p| p.to_string()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert_eq!(names[0], "ATK1");
        assert_eq!(names[13], "DEF7");
        for p in PieceId::all() {
            assert_eq!(PieceId::parse(&p.to_string()), Some(p));
        }
        assert_eq!(PieceId::parse("def3"), Some(PieceId::new(Team::Def, 3)));
        for bad in ["ATK0", "ATK8", "DEF", "XYZ1", "ATK10", "ÅTK1"] {
            assert_eq!(PieceId::parse(bad), None, "{bad}");
        }
    }
}
