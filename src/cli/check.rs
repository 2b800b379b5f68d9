//! `ball check`: the ruleset linter. Loads the ruleset named by
//! `--ruleset` with its `extends` chain and every script it names, and
//! prints every problem, not just the first — a designer fixes a file in
//! one pass (Forge's card linter, Fairy-Stockfish's `check`).
//!
//! Output: one `file:line: message` a problem on stdout, then a summary
//! line (or `--json`). Exit status 0 when clean, 2 otherwise; the report is
//! printed once, on stdout.

use std::io::Write;
use std::path::PathBuf;

use super::{UsageError, one_line};
use crate::games::Module;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks the ruleset given by --ruleset (default: the game's own: standard, \
gateball or gball): its TOML \
(syntax, unknown keys with \"did you mean\", types, ranges, verbs), its `extends` chain \
(missing parents, cycles) and the scripts it names (missing files, duplicate cards, and \
what the script layer finds inside them). A Gateball ruleset (`game = \"gateball\"`) is checked \
with its court file (T1.8) and setup file, a G-ball one (`game = \"gball\"`) with its keys and ranges. \
Each problem is printed as `file:line: message`, then one summary line, all on \
stdout (--json: one JSON object). Exit status: 0 clean, 2 problems found (or a \
ruleset that cannot be named: one line on stderr).\n\n\
Examples:\n  ball check --ruleset cards\n  ball check --ruleset my-rules.toml --print\n  \
ball check --card cards/sprint.lua\n  ball check --card scripts/variants/guarded-endzone.lua"
)]
pub struct CheckArgs {
    /// Check one script alone (not the ruleset): a card, or a variant
    /// (told apart by its fields: a variant has none of a card's own,
    /// `id`, `cost`, `args`, `targets`, `resolve`, `uses`, `per_turn`).
    #[arg(long, value_name = "FILE.lua")]
    pub card: Option<PathBuf>,
    /// When the ruleset is clean, also print its effective values (after
    /// `extends` and the variant scripts' parameters) as TOML.
    #[arg(long, conflicts_with = "card")]
    pub print: bool,
    /// Print the result as JSON: `{"checked", "problems": [{"file",
    /// "line", "message"}], "ok"}`.
    #[arg(long, conflicts_with = "print")]
    pub json: bool,
}

/// Runs `ball check` for game `G`; `spec` is the `--ruleset` value.
pub fn run<G: Module>(args: CheckArgs, spec: &str, out: &mut dyn Write) -> Result<(), UsageError> {
    let (what, problems) = match &args.card {
        Some(path) => (
            format!("script {}", super::display_name(path).replace('`', "")),
            G::check_script(path).ok_or_else(|| {
                UsageError(format!(
                    "{} has no card scripts: --card checks BALL's (`ball --game ball check --card FILE.lua`)",
                    G::TITLE
                ))
            })?,
        ),
        None => {
            let problems = G::check_ruleset(spec);
            // A ruleset that cannot be named (no such shipped name, no
            // such file, `-`) has no report: one line on stderr.
            if (spec == "-" || !crate::data::ruleset_path(spec).exists())
                && let Some(p) = problems.first()
            {
                return Err(UsageError(p.to_string()));
            }
            (format!("ruleset {spec}"), problems)
        }
    };
    if args.json {
        let list: Vec<serde_json::Value> = problems
            .iter()
            .map(|p| serde_json::json!({ "file": p.file, "line": p.line, "message": p.message }))
            .collect();
        let v = serde_json::json!({ "checked": what, "problems": list, "ok": problems.is_empty() });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return if problems.is_empty() {
            Ok(())
        } else {
            Err(UsageError::reported())
        };
    }
    for p in &problems {
        writeln!(out, "{}", one_line(&p.to_string()))?;
    }
    let what = one_line(&what);
    if problems.is_empty() {
        writeln!(out, "{what}: no problems")?;
        if args.print {
            let ruleset = G::load_ruleset(spec).map_err(UsageError)?;
            writeln!(out)?;
            write!(out, "{}", G::ruleset_toml(&ruleset))?;
        }
        return Ok(());
    }
    let summary = format!(
        "{what}: {} problem{}",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    writeln!(out, "{summary}")?;
    Err(UsageError::reported())
}
