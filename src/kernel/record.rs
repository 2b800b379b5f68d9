//! Match records: a line-based file, a header of `key: value` lines, then
//! one action a line in the game's notation. Game-agnostic: the actions
//! are kept as text and replayed by the game that reads them.
//!
//! ```text
//! # ball match record
//! format: 1
//! engine: ball 0.1.0
//! game: ball
//! ruleset: standard
//! ruleset-hash: 3f5c1a9e0b7d2468
//! seed: 7
//! DEF: random
//! ATK: greedy
//! result: ATK 3 - DEF 1
//! actions:
//! move DEF3 G9
//! end
//! ```
//!
//! Keys are free (readers ignore the ones they do not know) except
//! `format`, which must be 1. `start`, when present, is the start
//! position as one line of JSON; without it the game's start position is
//! meant.

/// The format version this code writes and reads.
pub const FORMAT: u32 = 1;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Header fields in file order.
    pub header: Vec<(String, String)>,
    pub actions: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("match record, line {line}: {problem}")]
pub struct RecordError {
    pub line: usize,
    pub problem: String,
}

impl Record {
    /// A record with `format` and `engine` already set.
    pub fn new(game: &str) -> Record {
        let mut r = Record::default();
        r.set("format", FORMAT.to_string());
        r.set("engine", format!("ball {}", env!("CARGO_PKG_VERSION")));
        r.set("game", game);
        r
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a header field, replacing an earlier value in place.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.header.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value,
            None => self.header.push((key.to_string(), value)),
        }
    }

    pub fn write(&self) -> String {
        let mut s = String::from("# ball match record\n");
        for (k, v) in &self.header {
            s.push_str(&format!("{k}: {v}\n"));
        }
        s.push_str("actions:\n");
        for a in &self.actions {
            s.push_str(a);
            s.push('\n');
        }
        s
    }

    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut r = Record::default();
        let mut in_actions = false;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let err = |problem: String| RecordError {
                line: i + 1,
                problem,
            };
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if in_actions {
                r.actions.push(line.to_string());
                continue;
            }
            if line == "actions:" {
                in_actions = true;
                continue;
            }
            let Some((k, v)) = line.split_once(':') else {
                return Err(err(format!(
                    "`{line}`: expected `key: value` or `actions:`"
                )));
            };
            let (k, v) = (k.trim(), v.trim());
            if k.is_empty() || k.contains(char::is_whitespace) {
                return Err(err(format!("`{k}` is not a header key")));
            }
            if r.get(k).is_some() {
                return Err(err(format!("`{k}` appears twice")));
            }
            r.header.push((k.to_string(), v.to_string()));
        }
        match r.get("format") {
            Some(f) if f == FORMAT.to_string() => {}
            Some(f) => {
                return Err(RecordError {
                    line: 0,
                    problem: format!(
                        "format {f} is not supported (this engine reads format {FORMAT})"
                    ),
                });
            }
            None => {
                return Err(RecordError {
                    line: 0,
                    problem: "no `format:` line: not a match record".into(),
                });
            }
        }
        if !in_actions {
            return Err(RecordError {
                line: 0,
                problem: "no `actions:` line".into(),
            });
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut r = Record::new("ball");
        r.set("seed", "7");
        r.set("DEF", "random");
        r.actions = vec!["move DEF3 G9".into(), "end".into()];
        let text = r.write();
        assert_eq!(Record::parse(&text), Ok(r.clone()));
        r.set("seed", "8");
        assert_eq!(r.get("seed"), Some("8"));
    }

    #[test]
    fn refusals_name_the_line() {
        assert!(
            Record::parse("format: 1\nnonsense\nactions:\n")
                .unwrap_err()
                .line
                == 2
        );
        assert!(Record::parse("format: 2\nactions:\n").is_err());
        assert!(Record::parse("format: 1\n").is_err());
        assert!(Record::parse("actions:\nend\n").is_err());
        assert_eq!(
            Record::parse("format: 1\nseed: 1\nseed: 2\nactions:\n")
                .unwrap_err()
                .line,
            3
        );
    }
}
