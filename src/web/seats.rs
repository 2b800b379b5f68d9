//! The secret links of a game: one token a seat — the only way to act for
//! that seat — and one for spectators, who may only watch. Tokens are 128
//! bits from the operating system's generator (`/dev/urandom`): they are
//! keys, not rules, so the engine's seeded generator is not for them.

use std::io::Read;

use serde::{Deserialize, Serialize};

use crate::web::view::Who;

/// A game's tokens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Links {
    pub seats: [String; 2],
    pub watch: String,
}

/// `bytes` random bytes from the OS, as lower-case hex.
pub fn random_hex(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut buf))
        .map_err(|e| format!("cannot read the system's random generator: {e}"))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Equal strings, in time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

impl Links {
    /// Fresh tokens for a new game.
    pub fn new() -> Result<Links, String> {
        Ok(Links {
            seats: [random_hex(16)?, random_hex(16)?],
            watch: random_hex(16)?,
        })
    }

    /// Whose link a token is; `None` for no link of this game.
    pub fn who(&self, token: &str) -> Option<Who> {
        let mut found = None;
        for (k, t) in self.seats.iter().enumerate() {
            if same(t, token) {
                found = Some(Who::Seat(k));
            }
        }
        if same(&self.watch, token) {
            found = Some(Who::Spectator);
        }
        found
    }

    /// Tokens read back from a store are checked: 32 hex digits each.
    pub fn well_formed(&self) -> bool {
        let ok = |t: &str| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit());
        self.seats.iter().all(|t| ok(t)) && ok(&self.watch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_token_opens_its_own_seat_only() {
        let l = Links::new().unwrap();
        assert!(l.well_formed());
        assert_ne!(l.seats[0], l.seats[1]);
        assert_eq!(l.who(&l.seats[1]), Some(Who::Seat(1)));
        assert_eq!(l.who(&l.watch), Some(Who::Spectator));
        assert_eq!(l.who("00"), None);
        assert_eq!(l.who(""), None);
    }
}
