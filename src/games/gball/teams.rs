//! Match rosters (G2.1–G2.3) and the teams file of the notation ("Teams
//! and rulesets"):
//!
//! ```json
//! {"RED": [{"number": 1, "stars": "JC", "veteran": false}],
//!  "BLU": [{"number": 1, "stars": "T"}]}
//! ```
//!
//! Unknown fields are ignored (a league adds `name` and more); `veteran`
//! defaults to false and `stars` to `""`.

use serde_json::Value;

use super::Team;
use super::position::{STAR_C, STAR_J, STAR_T};

/// One roster entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Roster {
    pub number: u8,
    pub stars: u8,
    pub veteran: bool,
}

/// Both match rosters, each sorted by number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Teams {
    pub red: Vec<Roster>,
    pub blu: Vec<Roster>,
}

/// The teams file is refused beyond this size: it is untrusted input.
pub const MAX_BYTES: usize = 64 * 1024;

impl Teams {
    /// G2.3: 1 `JC`, 2 `T`, 3 `C`, 4 `J`, 5 `T`, 6–9 none; 8 and 9 are
    /// veterans; the same for both teams.
    pub fn standard() -> Teams {
        let stars = [STAR_J | STAR_C, STAR_T, STAR_C, STAR_J, STAR_T, 0, 0, 0, 0];
        let roster: Vec<Roster> = (1..=9u8)
            .map(|n| Roster {
                number: n,
                stars: stars[n as usize - 1],
                veteran: n >= 8,
            })
            .collect();
        Teams {
            red: roster.clone(),
            blu: roster,
        }
    }

    pub fn roster(&self, team: Team) -> &[Roster] {
        match team {
            Team::Red => &self.red,
            Team::Blu => &self.blu,
        }
    }
}

/// The rosters of a position: its players' numbers, stars and veteran
/// flags.
pub fn of_position(pos: &super::position::Position) -> Teams {
    use super::position::{members, number_of};
    let roster = |team: Team| {
        members(pos.roster & team.mask())
            .map(|p| Roster {
                number: number_of(p),
                stars: pos.stars(p),
                veteran: pos.veterans & (1 << p) != 0,
            })
            .collect()
    };
    Teams {
        red: roster(Team::Red),
        blu: roster(Team::Blu),
    }
}

/// Reads stars in JCT order (G2.2).
pub fn parse_stars(s: &str) -> Option<u8> {
    let mut bits = 0u8;
    let mut last = 0usize;
    for c in s.chars() {
        let (i, b) = match c {
            'J' => (1, STAR_J),
            'C' => (2, STAR_C),
            'T' => (3, STAR_T),
            _ => return None,
        };
        if i <= last {
            return None;
        }
        last = i;
        bits |= b;
    }
    Some(bits)
}

/// Reads a teams file's text; `file` names it in messages.
pub fn parse(file: &str, text: &str) -> Result<Teams, String> {
    if text.len() > MAX_BYTES {
        return Err(format!("{file}: a teams file is at most {MAX_BYTES} bytes"));
    }
    let v: Value =
        crate::json_line::parse(text).map_err(|e| format!("{file}: not JSON: {e} (G2.1)"))?;
    let obj = v
        .as_object()
        .ok_or_else(|| format!("{file}: a teams file is an object with `RED` and `BLU` (G2.1)"))?;
    let mut out = Teams {
        red: Vec::new(),
        blu: Vec::new(),
    };
    for team in Team::BOTH {
        let key = team.name();
        let list = obj
            .get(key)
            .ok_or_else(|| format!("{file}: {key}: missing: both rosters are given (G2.1)"))?
            .as_array()
            .ok_or_else(|| format!("{file}: {key}: must be a list of players (G2.1)"))?;
        if list.is_empty() || list.len() > 9 {
            return Err(format!(
                "{file}: {key}: a match roster has 1 to 9 players, found {} (G2.1)",
                list.len()
            ));
        }
        let mut roster = Vec::new();
        for (i, entry) in list.iter().enumerate() {
            let field = format!("{file}: {key}[{i}]");
            let e = entry
                .as_object()
                .ok_or_else(|| format!("{field}: must be an object (G2.1)"))?;
            let number = e
                .get("number")
                .and_then(Value::as_u64)
                .filter(|n| (1..=9).contains(n))
                .ok_or_else(|| format!("{field}.number: must be an integer from 1 to 9 (G2.1)"))?
                as u8;
            let stars = match e.get("stars") {
                None => 0,
                Some(Value::String(s)) => parse_stars(s).ok_or_else(|| {
                    format!("{field}.stars: {s:?} is not a subset of JCT in that order (G2.2)")
                })?,
                Some(_) => return Err(format!("{field}.stars: must be a string (G2.2)")),
            };
            let veteran = match e.get("veteran") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err(format!("{field}.veteran: must be true or false (G2.2)")),
            };
            if veteran && stars != 0 {
                return Err(format!("{field}: a veteran has no stars (G2.2)"));
            }
            if roster.iter().any(|r: &Roster| r.number == number) {
                return Err(format!(
                    "{field}.number: {number} repeats: numbers are distinct (G2.1)"
                ));
            }
            roster.push(Roster {
                number,
                stars,
                veteran,
            });
        }
        roster.sort_by_key(|r| r.number);
        match team {
            Team::Red => out.red = roster,
            Team::Blu => out.blu = roster,
        }
    }
    Ok(out)
}

/// Reads a teams file, or standard input for `-`.
pub fn load(path: &str) -> Result<Teams, String> {
    // Bounded, and never a FIFO or a device.
    let shown = if path == "-" { "standard input" } else { path };
    let text = crate::files::read_input(std::path::Path::new(path), MAX_BYTES as u64)
        .map_err(|e| format!("{shown}: cannot read: {e}"))?;
    parse(shown, &text)
}
