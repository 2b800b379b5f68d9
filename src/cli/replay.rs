//! `ball replay`: step through a match record (issue #4, the board in
//! `crate::tui`) or check that it still replays under the current rules
//! (issue #5, `crate::lab::replay`). Glue only.

use std::io::IsTerminal;

use super::{UsageError, read_input};
use crate::games::ball::ruleset::Ruleset;
use crate::games::ball::show;
use crate::kernel::record::Record;
use crate::lab::replay;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
FILE is a match record (written by the board's save or `ball sim --out`), or \
`FILE.jsonl:N` for the game numbered N (its `game` field, from 0) of a \
`ball sim --out` file. `-` reads standard input.

With --check: exit 0 when every action replays and the result matches the \
record's; exit 2 with one line naming the first divergence otherwise (an \
action malformed or illegal at step k, a different result). A record whose \
ruleset-hash is not the current ruleset's fingerprint is refused: it was \
played under other rules (pick them with --ruleset).

Without --check, on a terminal: the board steps through the game. When \
standard input or output is not a terminal, the actions and the final board \
are printed as text.")]
pub struct ReplayArgs {
    /// The match record: FILE, or FILE.jsonl:N for game N of a sim output.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Check that the record replays exactly; print nothing else.
    #[arg(long)]
    pub check: bool,
}

/// Reads the record named by `spec`: a file, or `FILE:N` (game N of a
/// `ball sim --out` file) when `spec` itself is not an existing file.
pub fn load_record(spec: &str) -> Result<Record, UsageError> {
    let path = std::path::Path::new(spec);
    if spec != "-"
        && !path.exists()
        && let Some((file, n)) = spec.rsplit_once(':')
        && let Ok(n) = n.parse::<usize>()
    {
        let text = read_input(std::path::Path::new(file))?;
        return replay::record_from_jsonl(&text, n)
            .map_err(|e| UsageError(format!("`{file}`: {e}")));
    }
    let text = read_input(path)?;
    let name = if spec == "-" {
        "standard input".to_string()
    } else {
        format!("`{spec}`")
    };
    Record::parse(&text).map_err(|e| UsageError(format!("{name}: {e}")))
}

pub fn run(
    args: ReplayArgs,
    ruleset: &Ruleset,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let record = load_record(&args.file)?;
    if args.check {
        let ok = replay::check(&record, ruleset).map_err(|e| UsageError(e.0))?;
        writeln!(out, "{ok}")?;
        return Ok(());
    }
    if std::io::stdout().is_terminal() && std::io::stdin().is_terminal() && args.file != "-" {
        return crate::tui::replay(&record, ruleset).map_err(UsageError);
    }
    // Not on a terminal: the replay as text. It must still be these rules.
    replay::check_header(&record, ruleset).map_err(|e| UsageError(e.0))?;
    let r = replay::replay(&record, ruleset).map_err(|e| UsageError(e.0))?;
    let params = &crate::lab::sim::new_game(ruleset)
        .map_err(UsageError)?
        .params;
    // Step, turn and coach of each action, as `ball selfplay` prints them.
    let mut before = &r.start;
    for (k, (a, pos)) in r.steps.iter().enumerate() {
        writeln!(
            out,
            "{:>4} {:>3} {} {a}",
            k + 1,
            before.turn,
            before.to_move
        )?;
        before = pos;
    }
    writeln!(out, "# {} actions, result {}", r.steps.len(), r.result)?;
    if let Some(claimed) = record.get("result")
        && claimed != r.result
    {
        writeln!(out, "# the record says `{claimed}`")?;
    }
    writeln!(out)?;
    write!(out, "{}", show::render(r.last(), params))?;
    Ok(())
}
