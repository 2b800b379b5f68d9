//! One TOML file being read: its problems with their lines, and the
//! checks every key needs (type, "did you mean"). Shared by every file
//! reader of the project: BALL's rulesets (`ruleset.rs`) and Gateball's
//! courts, setups and rulesets.
//!
//! Every reader reports *all* problems of a file (`ball check` lists them)
//! and the commands that only need the value take the first.

use std::ops::RangeInclusive;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::diagnostic::{Problem, did_you_mean};
use crate::games::ball::ruleset::type_name;

/// One TOML file being read: its text (for line numbers) and its problems.
pub(crate) struct Doc<'t> {
    /// The file as messages name it.
    pub file: String,
    text: &'t str,
    pub problems: Vec<Problem>,
    /// Lines with a TOML syntax error: the values recovered there are
    /// guesses, so no further problem is reported on them.
    broken_lines: std::collections::BTreeSet<usize>,
    /// The byte offset of each line's start: a line number is a binary
    /// search, not a count of newlines (a file with 40,000 problems was
    /// checked in quadratic time).
    line_starts: Vec<usize>,
}

impl<'t> Doc<'t> {
    /// Parses `text`, recording its syntax errors; the table holds what
    /// could be recovered.
    pub fn parse(file: &str, text: &'t str) -> (Doc<'t>, DeTable<'t>) {
        let line_starts = std::iter::once(0)
            .chain(
                text.bytes()
                    .enumerate()
                    .filter(|&(_, b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        let mut doc = Doc {
            file: file.to_string(),
            text,
            problems: Vec::new(),
            broken_lines: Default::default(),
            line_starts,
        };
        let (table, errors) = DeTable::parse_recoverable(text);
        for e in &errors {
            let offset = e.span().map_or(0, |s| s.start);
            let message = e.message().lines().collect::<Vec<_>>().join(" ");
            doc.problem(offset, format!("TOML syntax: {message}"));
            let line = doc.line(offset);
            doc.broken_lines.insert(line);
        }
        (doc, table.into_inner())
    }

    /// Whether the file had a syntax error (a missing key may then be on a
    /// broken line, and is not reported).
    pub fn syntax_ok(&self) -> bool {
        self.broken_lines.is_empty()
    }

    /// The 1-based line of a byte offset.
    pub fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        // Lines starting at or before `end`: the one holding it is the last.
        self.line_starts.partition_point(|&start| start <= end)
    }

    pub fn problem(&mut self, offset: usize, message: impl Into<String>) {
        let line = self.line(offset);
        if !self.broken_lines.contains(&line) {
            self.problems
                .push(Problem::new(&self.file, Some(line), message));
        }
    }

    /// The problems, in line order.
    pub fn finish(mut self) -> Vec<Problem> {
        self.problems.sort_by_key(|p| p.line);
        self.problems
    }

    /// Reports every key of `table` not in `known` ("did you mean").
    pub fn unknown_keys(&mut self, table: &DeTable, known: &[&str], what: &str) {
        for (key, _) in table.iter() {
            let k = key.get_ref().as_ref();
            if !known.contains(&k) {
                self.problem(key.span().start, unknown(what, k, known));
            }
        }
    }

    /// Reports every key of `table` not in `known`: with the game's own
    /// word on it when `explain` has one (a key of another game's files,
    /// say), else "did you mean".
    pub fn unknown_keys_explained(
        &mut self,
        table: &DeTable,
        known: &[&str],
        explain: impl Fn(&str) -> Option<&'static str>,
    ) {
        for (key, _) in table.iter() {
            let k = key.get_ref().as_ref();
            if !known.contains(&k) {
                let message = explain(k).map_or_else(|| unknown("key", k, known), str::to_string);
                self.problem(key.span().start, message);
            }
        }
    }

    /// Reports a missing key at `offset` (the table's start) unless the
    /// file had a syntax error.
    pub fn missing(&mut self, offset: usize, key: &str, hint: &str) {
        if self.syntax_ok() {
            self.problem(offset, format!("missing `{key}`{hint}"));
        }
    }

    pub fn string<'v>(&mut self, key: &str, value: &'v Spanned<DeValue>) -> Option<&'v str> {
        let s = value.get_ref().as_str();
        if s.is_none() {
            self.problem(
                value.span().start,
                format!(
                    "`{key}` must be a string, found {}",
                    type_name(value.get_ref())
                ),
            );
        }
        s
    }

    /// A one-line string (names, descriptions).
    /// The `game` key of a ruleset for `game` (`title` in messages):
    /// whether it says so; a missing or other value is a problem, since
    /// without it the file is BALL's.
    pub fn game_key(&mut self, table: &DeTable, game: &str, title: &str) -> bool {
        match table.get("game") {
            Some(v) => match self.string("game", v) {
                Some(g) if g == game => true,
                Some(other) => {
                    self.problem(
                        v.span().start,
                        format!(
                            "`game` = {other:?}: not a {title} ruleset (a {title} ruleset says \
`game = \"{game}\"`)"
                        ),
                    );
                    false
                }
                None => false,
            },
            None => {
                self.missing(
                    0,
                    "game",
                    &format!(" = \"{game}\" (without it the file is a BALL ruleset)"),
                );
                false
            }
        }
    }

    /// A string key that must be one of `choices` (two or more): its index,
    /// else a problem (`must be "a" or "b" (RULE)`, with a "did you mean").
    pub fn choice(
        &mut self,
        key: &str,
        value: &Spanned<DeValue>,
        choices: &[&str],
        rule: &str,
    ) -> Option<usize> {
        let s = self.string(key, value)?;
        if let Some(i) = choices.iter().position(|c| *c == s) {
            return Some(i);
        }
        let quoted: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
        let (last, rest) = quoted.split_last()?;
        let near = unknown("value", s, choices);
        self.problem(
            value.span().start,
            format!(
                "`{key}` must be {} or {last} ({rule}): {near}",
                rest.join(", ")
            ),
        );
        None
    }

    /// A game's ruleset head: `None` unless its `game` key names `game`;
    /// else the optional one-line `description` (empty when absent) and
    /// whether it was well formed (a problem is recorded when not).
    pub fn game_and_description(
        &mut self,
        table: &DeTable,
        game: &str,
        title: &str,
    ) -> Option<(String, bool)> {
        if !self.game_key(table, game, title) {
            return None;
        }
        Some(match table.get("description") {
            Some(v) => match self.line_string("description", v) {
                Some(s) => (s.to_string(), true),
                None => (String::new(), false),
            },
            None => (String::new(), true),
        })
    }

    pub fn line_string<'v>(&mut self, key: &str, value: &'v Spanned<DeValue>) -> Option<&'v str> {
        let s = self.string(key, value)?;
        if s.chars().any(char::is_control) {
            self.problem(value.span().start, format!("`{key}` must be one line"));
            return None;
        }
        Some(s)
    }

    pub fn bool(&mut self, key: &str, value: &Spanned<DeValue>, rule: &str) -> Option<bool> {
        let b = value.get_ref().as_bool();
        if b.is_none() {
            self.problem(
                value.span().start,
                format!(
                    "`{key}` must be true or false, found {}{rule}",
                    type_name(value.get_ref())
                ),
            );
        }
        b
    }

    /// An integer in `range`; `rule` (` (T14.1)`) ends the messages.
    pub fn int(
        &mut self,
        key: &str,
        value: &Spanned<DeValue>,
        range: RangeInclusive<i64>,
        rule: &str,
    ) -> Option<i64> {
        let (lo, hi) = (range.start(), range.end());
        let at = value.span().start;
        let Some(i) = value.get_ref().as_integer() else {
            self.problem(
                at,
                format!(
                    "`{key}` must be an integer from {lo} to {hi}, found {}{rule}",
                    type_name(value.get_ref())
                ),
            );
            return None;
        };
        match i128::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) if n >= i128::from(*lo) && n <= i128::from(*hi) => Some(n as i64),
            _ => {
                self.problem(
                    at,
                    format!("`{key}` must be {lo}–{hi}, found {}{rule}", i.as_str()),
                );
                None
            }
        }
    }

    pub fn table<'v, 'i>(
        &mut self,
        key: &str,
        value: &'v Spanned<DeValue<'i>>,
        how: &str,
    ) -> Option<&'v DeTable<'i>> {
        let t = value.get_ref().as_table();
        if t.is_none() {
            self.problem(
                value.span().start,
                format!(
                    "`{key}` must be a table ({how}), found {}",
                    type_name(value.get_ref())
                ),
            );
        }
        t
    }

    /// An array; `what` names its items (`space names`).
    pub fn array<'v, 'i>(
        &mut self,
        key: &str,
        value: &'v Spanned<DeValue<'i>>,
        what: &str,
    ) -> Option<&'v [Spanned<DeValue<'i>>]> {
        let a = value.get_ref().as_array();
        if a.is_none() {
            self.problem(
                value.span().start,
                format!(
                    "`{key}` must be an array of {what}, found {}",
                    type_name(value.get_ref())
                ),
            );
        }
        a.map(|a| &a[..])
    }
}

/// "unknown KIND `word`; did you mean `k`?" — the nearest known word by
/// edit distance, or one that the word begins (`start` → `start_area`).
pub(crate) fn unknown(kind: &str, word: &str, known: &[&str]) -> String {
    let near = did_you_mean(word, known.iter().copied()).or_else(|| {
        known
            .iter()
            .copied()
            .find(|k| word.len() >= 3 && (k.starts_with(word) || word.starts_with(k)))
    });
    match near {
        Some(k) => format!("unknown {kind} `{word}`; did you mean `{k}`?"),
        None => format!("unknown {kind} `{word}` (known: {})", known.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let keys = ["name", "start_area", "finish", "gates"];
        assert!(unknown("key", "start", &keys).contains("did you mean `start_area`?"));
        assert!(unknown("key", "gate", &keys).contains("did you mean `gates`?"));
        assert!(unknown("key", "colour", &keys).contains("(known: name, start_area"));
    }

    #[test]
    fn lines_and_syntax() {
        let text = "a = 1\nb = \nc = 3\n";
        let (doc, table) = Doc::parse("x.toml", text);
        assert!(!doc.syntax_ok());
        assert_eq!(doc.problems[0].line, Some(2));
        assert!(
            doc.problems[0]
                .to_string()
                .starts_with("x.toml:2: TOML syntax:")
        );
        let c = table.get("c").unwrap();
        assert_eq!(doc.line(c.span().start), 3);
    }
}
