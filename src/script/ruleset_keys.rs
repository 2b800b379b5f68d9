//! The ruleset keys every game's variants use, read the same way in each
//! game's ruleset file: `variants` (a list of Lua files) and `[options]`
//! (the variants' own parameters). BALL's loader, with `extends` and
//! cards, reads its own; Gateball's and G-ball's call these.

use std::path::Path;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::layout::OptionValue;
use super::variants::Source;
use crate::toml_doc::Doc;

/// `variants = ["name", "path.lua"]`: a name is a shipped variant of the
/// game (`scripts/GAME/NAME.lua`); a path is relative to the ruleset file,
/// else among the shipped files. Every problem goes to `doc` at its line.
pub(crate) fn variants(
    doc: &mut Doc,
    value: &Spanned<DeValue>,
    dir: &Path,
    game: &str,
) -> Option<Vec<Source>> {
    let list = doc.array("variants", value, "variant names or paths")?;
    if list.len() > super::variants::MAX_VARIANTS {
        doc.problem(
            value.span().start,
            format!(
                "{} variants: a ruleset lists at most {}",
                list.len(),
                super::variants::MAX_VARIANTS
            ),
        );
        return None;
    }
    let mut out: Vec<Source> = Vec::new();
    let mut ok = true;
    for item in list {
        let at = item.span().start;
        let Some(entry) = item.get_ref().as_str() else {
            doc.problem(at, "a variant is a name or a path (a string)");
            ok = false;
            continue;
        };
        match locate(doc, entry, dir, game) {
            Ok((path, shown)) => match crate::files::read_text(&path, crate::files::MAX_SCRIPT) {
                Ok(text) => {
                    let src = Source { path: shown, text };
                    if out.iter().any(|o| o.id() == src.id()) {
                        doc.problem(at, format!("variant `{}` is listed twice", src.id()));
                        ok = false;
                    } else {
                        out.push(src);
                    }
                }
                Err(e) => {
                    doc.problem(at, format!("variant `{entry}`: {e}"));
                    ok = false;
                }
            },
            Err(m) => {
                doc.problem(at, m);
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// Where variant `entry` is, and how messages name it.
fn locate(
    doc: &Doc,
    entry: &str,
    dir: &Path,
    game: &str,
) -> Result<(std::path::PathBuf, String), String> {
    let is_path = entry.contains('/') || entry.ends_with(".lua");
    if !is_path {
        let shipped = format!("scripts/{game}/{entry}.lua");
        if let Some(p) = crate::data::find(&shipped) {
            return Ok((p, shipped));
        }
        let known = crate::data::stems(&format!("scripts/{game}"), "lua");
        let hint = crate::diagnostic::hint(entry, known.iter().map(String::as_str));
        return Err(format!(
            "variant `{entry}` not found: no file {shipped}{hint}"
        ));
    }
    if entry.trim().is_empty() {
        return Err("the variant path is empty".into());
    }
    let beside = dir.join(entry);
    if beside.is_file() {
        let shown = crate::data::display(
            &beside,
            &crate::games::ball::ruleset::join_display(&doc.file, entry),
        );
        return Ok((beside, shown));
    }
    if let Some(p) = crate::data::find(entry) {
        return Ok((p, entry.to_string()));
    }
    Err(format!(
        "variant file `{entry}` not found (looked beside {} and among the shipped files)",
        doc.file
    ))
}

/// `[options]`: each a whole number or a boolean, by name, with the line
/// that sets it (for a problem once the variants say what they declare).
pub(crate) fn options(doc: &mut Doc, value: &Spanned<DeValue>) -> Vec<(OptionValue, usize)> {
    let Some(table) = doc.table("options", value, "the variants' options by name") else {
        return Vec::new();
    };
    let table: &DeTable = table;
    let mut out = Vec::new();
    for (key, value) in table.iter() {
        let k = key.get_ref().as_ref();
        let at = value.span().start;
        let (n, boolean) = match value.get_ref() {
            DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
                Ok(n) => (n, false),
                Err(_) => {
                    doc.problem(at, format!("option `{k}` = {} is out of range", i.as_str()));
                    continue;
                }
            },
            DeValue::Boolean(b) => (i64::from(*b), true),
            other => {
                doc.problem(
                    at,
                    format!(
                        "option `{k}` must be a whole number or true/false, found {}",
                        crate::games::ball::ruleset::type_name(other)
                    ),
                );
                continue;
            }
        };
        let line = doc.line(at);
        out.push((
            OptionValue {
                name: k.to_string(),
                value: n,
                boolean,
            },
            line,
        ));
    }
    out
}
