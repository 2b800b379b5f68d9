//! Gateball actions (T13) and their notation (`docs/rules/gateball-notation.md`,
//! "Actions"). Syntax only: legality is `rules.rs`'s.
//!
//! The notation is compared as text (the canonical list), so the parser
//! accepts exactly the canonical spelling: `shot N 08`, `Shot N 8` and
//! `shot t1 N 8` are refused.

use std::fmt;

use super::space::{Dir, Space};

/// How a ball moves: a straight power move (T5.2) or a technical path
/// (T5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// `DIR DIST`: DIST is the rolled distance even when the move stops
    /// early (T5.5).
    Straight { dir: Dir, dist: u8 },
    /// `PATH`: the steps really made, 1–6.
    Path { steps: [Dir; 6], len: u8 },
}

impl Motion {
    pub fn path(steps: &[Dir]) -> Motion {
        let mut arr = [Dir::N; 6];
        arr[..steps.len()].copy_from_slice(steps);
        Motion::Path {
            steps: arr,
            len: steps.len() as u8,
        }
    }
}

/// A move: a start shot names its Start Space (T9.1, T13.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub start: Option<Space>,
    pub motion: Motion,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// T13.1: a power shot; the engine rolls two dice.
    Power,
    /// T13.1: a technical shot; the engine rolls one die.
    Tech,
    /// T13.2: decline a continuation shot.
    End,
    /// T13.3: the shot's move.
    Shot(Move),
    /// T13.4: the spark's move.
    Spark(Move),
    /// An action a ruleset's variant adds, by its interned name
    /// (`script::variants::intern_action`): the notation writes the name.
    Variant(u8),
}

impl fmt::Display for Motion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Motion::Straight { dir, dist } => write!(f, "{} {dist}", dir.name()),
            Motion::Path { steps, len } => {
                for d in &steps[..usize::from(len)] {
                    write!(f, "{}", d.letter())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.start {
            write!(f, "{s} ")?;
        }
        write!(f, "{}", self.motion)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Power => f.write_str("power"),
            Action::Tech => f.write_str("tech"),
            Action::End => f.write_str("end"),
            Action::Shot(m) => write!(f, "shot {m}"),
            Action::Spark(m) => write!(f, "spark {m}"),
            Action::Variant(k) => f.write_str(crate::script::variants::action_name(*k)),
        }
    }
}

/// Why a line is not an action at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed action `{text}`: {reason}")]
pub struct ParseError {
    pub text: String,
    pub reason: String,
}

/// Parses one action written exactly as the canonical list writes it.
pub fn parse(text: &str) -> Result<Action, ParseError> {
    let fail = |reason: &str| ParseError {
        text: text.to_string(),
        reason: reason.to_string(),
    };
    let words: Vec<&str> = text.split(' ').collect();
    match words.as_slice() {
        ["power"] => Ok(Action::Power),
        ["tech"] => Ok(Action::Tech),
        ["end"] => Ok(Action::End),
        ["shot", rest @ ..] => Ok(Action::Shot(parse_move(rest, true).map_err(|r| fail(&r))?)),
        ["spark", rest @ ..] => Ok(Action::Spark(
            parse_move(rest, false).map_err(|r| fail(&r))?,
        )),
        _ => Err(fail(
            "expected `power`, `tech`, `end`, `shot …` or `spark …`, lowercase, words separated by single spaces",
        )),
    }
}

fn parse_move(words: &[&str], may_start: bool) -> Result<Move, String> {
    let (start, rest) = match words {
        [first, rest @ ..]
            if may_start && first.bytes().any(|b| b.is_ascii_digit()) && !rest.is_empty() =>
        {
            let s = Space::parse(first).ok_or_else(|| {
                format!("`{first}` is not a space name (uppercase letters, then the row without leading zeros)")
            })?;
            (Some(s), rest)
        }
        _ => (None, words),
    };
    let motion = match rest {
        [dir, dist] => {
            let dir = Dir::parse(dir).ok_or_else(|| {
                format!("`{dir}` is not a direction (N, NE, E, SE, S, SW, W, NW)")
            })?;
            let dist = parse_distance(dist)?;
            Motion::Straight { dir, dist }
        }
        [path] => {
            let steps: Option<Vec<Dir>> = path.bytes().map(Dir::from_letter).collect();
            match steps {
                Some(steps) if (1..=6).contains(&steps.len()) => Motion::path(&steps),
                _ => {
                    return Err(format!(
                        "`{path}` is not a technical path (1 to 6 letters from n, e, s, w)"
                    ));
                }
            }
        }
        _ => {
            return Err(
                "expected `DIR DIST` (power) or `PATH` (technical), a start shot with its Start Space first"
                    .into(),
            );
        }
    };
    Ok(Move { start, motion })
}

fn parse_distance(s: &str) -> Result<u8, String> {
    let canonical = !s.is_empty() && !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit());
    match s.parse::<u8>() {
        Ok(d @ 1..=12) if canonical => Ok(d),
        _ => Err(format!(
            "`{s}` is not a distance (1 to 12, no leading zeros)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_examples_round_trip() {
        for text in [
            "power",
            "tech",
            "end",
            "shot N 8",
            "shot SW 5",
            "shot nnwn",
            "shot T1 N 8",
            "shot S1 nnen",
            "spark E 7",
            "spark ww",
            "shot AB12 e",
        ] {
            let a = parse(text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(a.to_string(), text);
        }
    }

    #[test]
    fn non_canonical_spellings_refused() {
        for text in [
            "shot N 08",
            "shot  N 8",
            "Shot N 8",
            "shot t1 N 8",
            "shot n 8",
            "shot NNE 3",
            "shot nnnnnnn",
            "shot N 13",
            "shot N 0",
            "power ",
            " power",
            "spark",
            "shot",
            "shot T1",
            "shot T1 N",
            "spark T1 N 8 x",
        ] {
            assert!(parse(text).is_err(), "{text:?} parsed");
        }
    }

    /// Uppercase with a distance is power, lowercase is a path (notation).
    #[test]
    fn shot_ne_3_and_shot_ne_differ() {
        assert_ne!(parse("shot NE 3").unwrap(), parse("shot ne").unwrap());
    }
}
