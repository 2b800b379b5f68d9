//! `ball check`: the ruleset linter. Loads the ruleset named by
//! `--ruleset` with its `extends` chain and every script it names, and
//! prints every problem, not just the first — a designer fixes a file in
//! one pass (Forge's card linter, Fairy-Stockfish's `check`).
//!
//! Output: one `file:line: message` a problem on stdout, then a summary
//! line. Exit status 0 when clean, 2 otherwise (the summary is also the
//! one `error:` line on stderr).

use std::io::Write;
use std::path::PathBuf;

use super::{UsageError, one_line};
use crate::diagnostic::Problem;
use crate::games::ball::ruleset::{GameKind, Ruleset, game_of};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks the ruleset given by --ruleset (default: standard): its TOML \
(syntax, unknown keys with \"did you mean\", types, ranges, verbs), its `extends` chain \
(missing parents, cycles) and the scripts it names (missing files, duplicate cards, and \
what the script layer finds inside them). A Gateball ruleset (`game = \"gateball\"`) is checked \
with its court file (T1.8) and setup file. \
Each problem is printed as `file:line: message`. Exit status: 0 clean, 2 problems found.\n\n\
Examples:\n  ball check --ruleset cards\n  ball check --ruleset my-rules.toml --print\n  \
ball check --card cards/sprint.lua"
)]
pub struct CheckArgs {
    /// Check one card script alone (not the ruleset).
    #[arg(long, value_name = "FILE.lua")]
    pub card: Option<PathBuf>,
    /// When the ruleset is clean, also print its effective values (after
    /// `extends` and the variant scripts' parameters) as TOML.
    #[arg(long, conflicts_with = "card")]
    pub print: bool,
}

/// Runs `ball check`; `spec` is the `--ruleset` value.
pub fn run(args: CheckArgs, spec: &str, out: &mut dyn Write) -> Result<(), UsageError> {
    let gateball = args.card.is_none() && game_of(spec) == GameKind::Gateball;
    let (what, problems) = match &args.card {
        Some(path) => (format!("card {}", path.display()), check_card(path)),
        // A Gateball ruleset: its TOML, its court file (T1.8) and its
        // setup file (T2.2).
        None if gateball => (
            format!("ruleset {spec}"),
            crate::games::gateball::ruleset::check(spec),
        ),
        None => (format!("ruleset {spec}"), Ruleset::check(spec)),
    };
    for p in &problems {
        writeln!(out, "{}", one_line(&p.to_string()))?;
    }
    let what = one_line(&what);
    if problems.is_empty() {
        writeln!(out, "{what}: no problems")?;
        if args.print && gateball {
            let ruleset = crate::games::gateball::ruleset::load(spec).map_err(UsageError)?;
            writeln!(out)?;
            write!(out, "{}", ruleset.to_toml())?;
        } else if args.print {
            let mut ruleset = Ruleset::load(spec)?;
            // The parameters the game is played with: variant scripts may
            // set some (`params = {…}`, `forbid = {…}`).
            if let Ok(prepared) = crate::games::ball::script::prepare(&ruleset) {
                ruleset.params = prepared.params;
            }
            writeln!(out)?;
            writeln!(out, "# after `extends` and the variant scripts")?;
            write!(out, "{}", ruleset.to_toml())?;
        }
        return Ok(());
    }
    let summary = format!(
        "{what}: {} problem{}",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    writeln!(out, "{summary}")?;
    Err(UsageError(summary))
}

/// The problems of one card file: readable, named like a card id, and
/// whatever the script layer finds in it.
fn check_card(path: &std::path::Path) -> Vec<Problem> {
    let shown = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            let reason = match e.kind() {
                std::io::ErrorKind::NotFound => "not found".to_string(),
                std::io::ErrorKind::InvalidData => "not valid UTF-8".to_string(),
                _ => e.to_string(),
            };
            return vec![Problem::new(
                shown,
                None,
                format!("cannot read the card: {reason}"),
            )];
        }
    };
    let mut problems = Vec::new();
    let id = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if !crate::games::ball::action::is_card_id(id) {
        problems.push(Problem::new(
            &shown,
            None,
            format!(
                "the file name `{id}` is the card's id in the notation: lower-case letters, digits, `_` or `-`"
            ),
        ));
    }
    if path.extension().is_none_or(|e| e != "lua") {
        problems.push(Problem::new(&shown, None, "a card file ends in `.lua`"));
    }
    // The card's own problems (Lua syntax, fields, hooks) are the script
    // layer's.
    problems.extend(crate::games::ball::script::check_card(&shown, &text));
    crate::games::ball::ruleset::dedup(&mut problems);
    problems
}
