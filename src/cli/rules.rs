//! `ball rules [ID…]`: the text behind the rule id a refusal names.
//!
//! A refusal ends with an id such as `(B5.1)`; this prints that rule from
//! the copy of `docs/rules/*.md` built into the binary, so the answer is
//! one command away wherever the binary runs.

use std::io::Write;

use super::UsageError;
use crate::rules_text;

/// Prints each rule asked for, or the list of every id with its title.
/// An unknown id fails the whole command (exit 2) before anything is
/// printed, so a script never gets half an answer.
pub fn run(ids: &[String], json: bool, out: &mut dyn Write) -> Result<(), UsageError> {
    if json {
        let list: Vec<serde_json::Value> = if ids.is_empty() {
            rules_text::all()
                .iter()
                .map(|r| serde_json::json!({ "id": r.id, "title": r.title }))
                .collect()
        } else {
            ids.iter()
                .map(|id| rules_text::lookup(id).ok_or_else(|| unknown(id)))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .map(|r| serde_json::json!({ "id": r.id, "title": r.title, "file": r.file, "text": r.text }))
                .collect()
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&list)?)?;
        return Ok(());
    }
    if ids.is_empty() {
        for rule in rules_text::all() {
            writeln!(out, "{:<7}{}", rule.id, rule.title)?;
        }
        return Ok(());
    }
    let rules = ids
        .iter()
        .map(|id| rules_text::lookup(id).ok_or_else(|| unknown(id)))
        .collect::<Result<Vec<_>, _>>()?;
    for (k, rule) in rules.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{} ({})", rule.heading, rule.file)?;
        writeln!(out)?;
        writeln!(out, "{}", rule.text)?;
    }
    Ok(())
}

fn unknown(id: &str) -> UsageError {
    let shown = super::one_line(id);
    let hint = match rules_text::nearest(id) {
        Some(near) => format!("; the nearest is `{near}`"),
        None => String::new(),
    };
    UsageError(format!(
        "no rule `{shown}`{hint} (rule ids look like B6.3, T7.4, G8.2; `ball rules` lists them)"
    ))
}
