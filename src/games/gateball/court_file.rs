//! Court files (`docs/rules/gateball-notation.md`, "Court files (TOML)"; T1.8): a
//! court is data, and designers make other courts by writing other court
//! files. The default court is `courts/standard.toml` (T1.9).
//!
//! [`parse`] reports every problem of a file — TOML syntax, unknown keys
//! with "did you mean", types, space names (T1.2), gate numbers — each at
//! its line, then the court's own T1.8 conditions ([`Court::problems`]),
//! each at the line of the key it concerns. [`load`] stops at the first.

use std::path::Path;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::court::{COURT_SIZE, Court, CourtPart, Gate};
use super::space::Space;
use crate::diagnostic::Problem;
use crate::games::ball::ruleset::type_name;
use crate::toml_doc::Doc;

/// Where shipped courts live, under the data root.
pub const COURTS_DIR: &str = "courts";

/// The keys of a court file.
pub const KEYS: &[&str] = &[
    "name",
    "description",
    "width",
    "height",
    "start_area",
    "finish",
    "gates",
];

/// The keys of one `[[gates]]` table.
pub const GATE_KEYS: &[&str] = &["number", "bottom", "top"];

/// The court of the file `file` (as messages name it) with text `text`,
/// or every problem it has, in line order.
pub fn parse(file: &str, text: &str) -> Result<Court, Vec<Problem>> {
    let (mut doc, table) = Doc::parse(file, text);
    let fields = fields(&mut doc, &table);
    let Some((court, lines)) = fields else {
        return Err(doc.finish());
    };
    if !doc.problems.is_empty() {
        return Err(doc.finish());
    }
    for (part, message) in court.problems() {
        let offset = match part {
            CourtPart::Width => lines.width,
            CourtPart::Height => lines.height,
            CourtPart::StartArea => lines.start_area,
            CourtPart::Finish => lines.finish,
            CourtPart::Gate(n) => lines.gates[usize::from(n - 1)],
        };
        doc.problem(offset, message);
    }
    if doc.problems.is_empty() {
        Ok(court)
    } else {
        Err(doc.finish())
    }
}

/// Reads and parses the court file at `path`, named `shown` in messages.
pub fn read(path: &Path, shown: &str) -> Result<Court, Vec<Problem>> {
    // Bounded, and never a FIFO or a device.
    match crate::files::read_text(path, crate::files::MAX_RULESET) {
        Ok(text) => parse(shown, &text),
        Err(e) => Err(vec![Problem::new(
            shown,
            None,
            format!("cannot read the court file: {e}"),
        )]),
    }
}

/// Every problem of the court file at `path` (named as given); empty when
/// it is a valid court.
pub fn check(path: &Path) -> Vec<Problem> {
    read(path, &path.display().to_string())
        .err()
        .unwrap_or_default()
}

/// The court of the file at `path`, or its first problem as one line
/// (`courts/mine.toml:7: …`).
pub fn load(path: &Path) -> Result<Court, String> {
    // `--court -`: standard input, read as every `-` is (`files::read_input`).
    if path.as_os_str() == "-" {
        let shown = "standard input";
        let text = crate::files::read_input(path, crate::files::MAX_RULESET)
            .map_err(|e| format!("{shown}: cannot read the court file: {e}"))?;
        return parse(shown, &text).map_err(first);
    }
    read(path, &path.display().to_string()).map_err(first)
}

/// The first problem as one line.
pub(crate) fn first(problems: Vec<Problem>) -> String {
    problems
        .first()
        .map_or_else(|| "invalid".to_string(), Problem::to_string)
}

/// Where each part of the court was written (byte offsets), so that a
/// T1.8 problem is reported at its line.
struct Lines {
    width: usize,
    height: usize,
    start_area: usize,
    finish: usize,
    /// Gates 1, 2, 3: the start of each one's `[[gates]]` table.
    gates: [usize; 3],
}

/// The court the file states, with where its parts are, when every key is
/// present and well-typed; problems recorded in `doc`.
fn fields(doc: &mut Doc, table: &DeTable) -> Option<(Court, Lines)> {
    doc.unknown_keys(table, KEYS, "key");
    let get = |k: &str| table.get(k);
    let mut ok = true;

    let name = match get("name") {
        Some(v) => doc.line_string("name", v).and_then(|s| {
            let valid = (1..=32).contains(&s.len())
                && s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !valid {
                doc.problem(
                    v.span().start,
                    format!("`name` must be 1–32 characters from a–z, 0–9 and `-`, found {s:?}"),
                );
            }
            valid.then(|| s.to_string())
        }),
        None => {
            doc.missing(0, "name", " (a court names itself: `name = \"…\"`)");
            None
        }
    };
    let description = match get("description") {
        Some(v) => match doc.line_string("description", v) {
            Some(s) => Some(s.to_string()),
            None => {
                ok = false;
                None
            }
        },
        None => None,
    };
    let mut size = |key: &str| match get(key) {
        // T1.8's range, checked here too so that it is reported with the
        // file's other problems.
        Some(v) => {
            let range = i64::from(*COURT_SIZE.start())..=i64::from(*COURT_SIZE.end());
            doc.int(key, v, range, " (T1.8)")
                .map(|n| (n as u8, v.span().start))
        }
        None => {
            doc.missing(0, key, " (court spaces, 5–30, T1.8)");
            None
        }
    };
    let width = size("width");
    let height = size("height");

    let start_area = match get("start_area") {
        Some(v) => start_area(doc, v),
        None => {
            doc.missing(
                0,
                "start_area",
                " (the Start Area: 1–5 adjacent Outside-Line spaces, T1.8)",
            );
            None
        }
    };
    let finish = match get("finish") {
        Some(v) => space(doc, "finish", v).map(|s| (s, v.span().start)),
        None => {
            doc.missing(0, "finish", " (the Finish Space, T1.8)");
            None
        }
    };
    let gates = match get("gates") {
        Some(v) => gates(doc, v),
        None => {
            doc.missing(0, "gates", " ([[gates]] tables for gates 1, 2 and 3, T1.8)");
            None
        }
    };
    let (Some(name), Some(width), Some(height), Some(start_area), Some(finish), Some(gates)) =
        (name, width, height, start_area, finish, gates)
    else {
        return None;
    };
    if !ok {
        return None;
    }
    let mut area = start_area.0;
    // Board order whatever the file's order (the notation); duplicates
    // stay, for T1.8 to name.
    area.sort();
    let court = Court {
        name,
        description,
        width: width.0,
        height: height.0,
        start_area: area,
        finish: finish.0,
        gates: gates.map(|(g, _)| g),
    };
    let lines = Lines {
        width: width.1,
        height: height.1,
        start_area: start_area.1,
        finish: finish.1,
        gates: gates.map(|(_, at)| at),
    };
    Some((court, lines))
}

/// A space name exactly as T1.2 writes it.
fn space(doc: &mut Doc, key: &str, value: &Spanned<DeValue>) -> Option<Space> {
    let s = doc.string(key, value)?;
    let parsed = Space::parse(s);
    if parsed.is_none() {
        doc.problem(value.span().start, not_a_space(key, s));
    }
    parsed
}

fn not_a_space(key: &str, s: &str) -> String {
    format!(
        "`{key}`: {s:?} is not a space name (T1.2: uppercase column letters, then the row \
number without leading zeros, e.g. \"T1\")"
    )
}

/// `start_area = ["S1", …]`: the spaces as written, and where.
fn start_area(doc: &mut Doc, value: &Spanned<DeValue>) -> Option<(Vec<Space>, usize)> {
    let items = doc.array("start_area", value, "space names")?;
    let mut out = Vec::new();
    let mut ok = true;
    for item in items {
        match item.get_ref().as_str() {
            Some(s) => match Space::parse(s) {
                Some(sp) => out.push(sp),
                None => {
                    doc.problem(item.span().start, not_a_space("start_area", s));
                    ok = false;
                }
            },
            None => {
                doc.problem(
                    item.span().start,
                    format!(
                        "`start_area` must be an array of space names, found {} in it",
                        type_name(item.get_ref())
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then_some((out, value.span().start))
}

/// `[[gates]]`: gates 1, 2 and 3, each exactly once, in any order; each
/// with where its table starts.
fn gates(doc: &mut Doc, value: &Spanned<DeValue>) -> Option<[(Gate, usize); 3]> {
    let items = doc.array("gates", value, "gate tables ([[gates]])")?;
    let mut found: [Option<(Gate, usize)>; 3] = [None; 3];
    let mut ok = true;
    for item in items {
        let at = item.span().start;
        let Some(t) = item.get_ref().as_table() else {
            doc.problem(
                at,
                format!(
                    "`gates` must be an array of tables ([[gates]] with number, bottom, top), \
found {} in it",
                    type_name(item.get_ref())
                ),
            );
            ok = false;
            continue;
        };
        doc.unknown_keys(t, GATE_KEYS, "gate key");
        let number = match t.get("number") {
            Some(v) => doc.int("number", v, i64::MIN..=i64::MAX, "").and_then(|n| {
                if (1..=3).contains(&n) {
                    Some(n as usize)
                } else {
                    doc.problem(
                        v.span().start,
                        format!("gate number {n}: gates are numbered 1, 2, 3 (T1.6)"),
                    );
                    None
                }
            }),
            None => {
                doc.missing(at, "number", " in [[gates]] (1, 2 or 3, T1.6)");
                None
            }
        };
        let mut end = |key: &str| match t.get(key) {
            Some(v) => space(doc, key, v),
            None => {
                doc.missing(at, key, " in [[gates]] (a space name, T1.6)");
                None
            }
        };
        let bottom = end("bottom");
        let top = end("top");
        let Some(n) = number else {
            ok = false;
            continue;
        };
        if let Some((_, first)) = found[n - 1] {
            let first = doc.line(first);
            doc.problem(
                at,
                format!(
                    "gate {n} is listed twice (first on line {first}): gates 1, 2 and 3 \
each appear exactly once (T1.8)"
                ),
            );
            ok = false;
            continue;
        }
        match (bottom, top) {
            (Some(bottom), Some(top)) => found[n - 1] = Some((Gate { bottom, top }, at)),
            _ => ok = false,
        }
    }
    if ok {
        for (i, g) in found.iter().enumerate() {
            if g.is_none() {
                doc.problem(
                    value.span().start,
                    format!(
                        "missing gate {}: gates 1, 2 and 3 each appear exactly once (T1.8)",
                        i + 1
                    ),
                );
                ok = false;
            }
        }
    }
    if !ok {
        return None;
    }
    let [a, b, c] = found;
    Some([a?, b?, c?])
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: &str = include_str!("../../../courts/standard.toml");

    /// The fields of a court text, before T1.8's court checks.
    fn fields_of(text: &str) -> Result<Court, Vec<Problem>> {
        let (mut doc, table) = Doc::parse("t.toml", text);
        match fields(&mut doc, &table) {
            Some((court, _)) if doc.problems.is_empty() => Ok(court),
            _ => Err(doc.finish()),
        }
    }

    /// T1.9: the shipped file is the compiled-in default court.
    #[test]
    fn t1_9_standard_file_states_the_standard_court() {
        assert_eq!(fields_of(STANDARD).unwrap(), Court::standard());
    }

    /// T1.8 (all of it, gate 1's start included): the shipped file loads.
    #[test]
    fn t1_8_standard_file_loads() {
        assert_eq!(
            parse("courts/standard.toml", STANDARD),
            Ok(Court::standard())
        );
        let path = crate::data::find("courts/standard.toml").expect("shipped");
        assert_eq!(load(&path), Ok(Court::standard()));
    }

    /// The notation: `start_area` and `gates` in any order; stored in
    /// board order and by number.
    #[test]
    fn any_order_is_sorted() {
        let text = STANDARD
            .replace(r#"["S1", "T1", "U1"]"#, r#"["U1", "S1", "T1"]"#)
            .replace("number = 1", "number = 9")
            .replace("number = 3", "number = 1")
            .replace("number = 9", "number = 3")
            .replace(r#"bottom = "T3""#, r#"bottom = "X""#)
            .replace(r#"bottom = "D10""#, r#"bottom = "T3""#)
            .replace(r#"bottom = "X""#, r#"bottom = "D10""#)
            .replace(r#"top = "T4""#, r#"top = "X""#)
            .replace(r#"top = "D9""#, r#"top = "T4""#)
            .replace(r#"top = "X""#, r#"top = "D9""#);
        assert_ne!(text, STANDARD);
        assert_eq!(fields_of(&text).unwrap(), Court::standard());
    }

    fn problems(text: &str) -> Vec<String> {
        parse("m.toml", text)
            .expect_err("a broken court")
            .iter()
            .map(Problem::to_string)
            .collect()
    }

    #[test]
    fn key_problems_name_key_and_line() {
        let text = STANDARD.replace("start_area =", "start =");
        let p = problems(&text);
        assert!(
            p.iter()
                .any(|m| m.contains(":6: unknown key `start`; did you mean `start_area`?")),
            "{p:?}"
        );
        assert!(
            p.iter().any(|m| m.contains("missing `start_area`")),
            "{p:?}"
        );

        let p = problems(&STANDARD.replace("width = 20", "width = \"20\""));
        assert!(
            p[0].starts_with("m.toml:3: `width` must be an integer"),
            "{p:?}"
        );

        let p = problems(&STANDARD.replace("\"K9\"", "\"k9\""));
        assert!(p[0].starts_with("m.toml:7: `finish`: \"k9\" is not a space name (T1.2"));
    }

    #[test]
    fn t1_8_problems_at_their_lines() {
        let p = problems(&STANDARD.replace("\"M14\"", "\"M15\""));
        assert_eq!(
            p,
            [
                "m.toml:14: gate 2: bottom \"N14\" and top \"M15\" are not orthogonally adjacent (T1.8)"
            ]
        );
        let p = problems(&STANDARD.replace("height = 15", "height = 31"));
        assert_eq!(p, ["m.toml:4: `height` must be 5–30, found 31 (T1.8)"]);
    }
}
