//! `ball replay`: step through a match record (the board of
//! `crate::tui`, which replays it as the check does) or check that it still replays under the current rules
//! (issue #5, `crate::lab::replay`). Glue only.

use std::io::IsTerminal;

use super::{UsageError, read_input};
use crate::games::{self, Module, Visit};
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
played under other rules (pick them with --ruleset). The hash is of the ruleset \
files' text, not of their paths: any spelling of the same files is accepted. The game is the record's \
`game:`, the ruleset --ruleset or else the record's `ruleset:`.

Without --check, on a terminal: the board steps through the game. When \
standard input or output is not a terminal, the actions and the final board \
are printed as text.

Examples:
  ball replay game.record
  ball replay games.jsonl:7 --check
  ball replay games.jsonl:7 --json | jq '.steps | length'
  cat game.record | ball replay - --check --json
  ball --ruleset cards replay saved.record | less

Exit status: 0 ok; 2 a record that cannot be read or does not replay (one line \
naming the first divergence).")]
pub struct ReplayArgs {
    /// The match record: FILE, or FILE.jsonl:N for game N of a sim output.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Check that the record replays exactly; print nothing else.
    #[arg(long)]
    pub check: bool,
    /// Print one JSON object instead (never the board): the steps, the
    /// result and the final position, or with --check the verdict
    /// (docs/json-output.md).
    #[arg(long)]
    pub json: bool,
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
        // Line by line: a sim output of any size, in constant memory.
        let found = crate::files::find_line(
            std::path::Path::new(file),
            crate::files::MAX_RECORD,
            |i, line| {
                let v: serde_json::Value = match crate::json_line::parse(line) {
                    Ok(v) => v,
                    Err(_) if line.trim().is_empty() => return None,
                    Err(e) => return Some(Err(format!("line {i}: not JSON: {e}"))),
                };
                (v.get("game").and_then(|g| g.as_u64()) == Some(n as u64))
                    .then(|| replay::record_from_jsonl(line, n))
            },
        )
        .map_err(|e| UsageError(format!("cannot read `{file}`: {e}")))?;
        return found
            .unwrap_or_else(|| Err(format!("no game {n} in it")))
            .map_err(|e| UsageError(format!("`{file}`: {e}")));
    }
    let text = read_input(path, crate::files::MAX_RECORD)?;
    let name = if spec == "-" {
        "standard input".to_string()
    } else {
        format!("`{spec}`")
    };
    Record::parse(&text).map_err(|e| UsageError(format!("{name}: {e}")))
}

/// `ball replay`: the game is the record's (`game:`), the ruleset the
/// one `--ruleset` names, else the record's own (`ruleset:`).
pub fn dispatch(
    args: ReplayArgs,
    game_flag: Option<&str>,
    spec: Option<&str>,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let record = load_record(&args.file)?;
    let game = record
        .get("game")
        .unwrap_or(crate::data::DEFAULT_GAME)
        .to_string();
    let spec = spec.or(record.get("ruleset")).map(str::to_string);
    let name = super::commands::choose_game(Some(&game), game_flag, spec.as_deref())?;
    let spec = spec.as_deref();
    games::visit(
        &name,
        Run {
            args,
            record,
            spec,
            out,
        },
    )
    .expect("choose_game names a registered game")
}

struct Run<'a> {
    args: ReplayArgs,
    record: Record,
    spec: Option<&'a str>,
    out: &'a mut dyn std::io::Write,
}

impl Visit for Run<'_> {
    type Output = Result<(), UsageError>;

    fn visit<G: Module>(self) -> Self::Output {
        let ruleset =
            G::load_ruleset(self.spec.unwrap_or(G::DEFAULT_RULESET)).map_err(UsageError)?;
        run::<G>(self.args, &self.record, &ruleset, self.out)
    }
}

fn run<G: Module>(
    args: ReplayArgs,
    record: &Record,
    ruleset: &G::Ruleset,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    if args.check {
        let ok = replay::check::<G>(record, ruleset).map_err(|e| UsageError(e.0))?;
        if args.json {
            let r = replay::replay::<G>(record, ruleset).map_err(|e| UsageError(e.0))?;
            let v = serde_json::json!({
                "ok": true,
                "summary": ok,
                "game": G::NAME,
                "ruleset": G::ruleset_name(ruleset),
                "ruleset_hash": G::fingerprint(ruleset),
                "actions": r.steps.len(),
                "result": r.result,
                "script_errors": r.script_errors,
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        } else {
            writeln!(out, "{ok}")?;
        }
        return Ok(());
    }
    if !args.json
        && std::io::stdout().is_terminal()
        && std::io::stdin().is_terminal()
        && args.file != "-"
    {
        return crate::tui::replay::<G>(record, ruleset.clone()).map_err(UsageError);
    }
    // Not on a terminal: the replay as text. It must still be these rules.
    replay::check_header::<G>(record, ruleset).map_err(|e| UsageError(e.0))?;
    let r = replay::replay::<G>(record, ruleset).map_err(|e| UsageError(e.0))?;
    if args.json {
        let mut before = &r.start;
        let mut steps = Vec::new();
        for (k, (a, pos, events)) in r.steps.iter().enumerate() {
            let seat = r.game.to_move(before).map_or("-", G::seat_name);
            let events: Vec<String> = events.iter().map(ToString::to_string).collect();
            steps.push(serde_json::json!({
                "step": k + 1,
                "turn": r.game.turn(before),
                "seat": seat,
                "action": a.to_string(),
                "events": events,
            }));
            before = pos;
        }
        let position: serde_json::Value =
            serde_json::from_str(&r.game.write_position(r.last())).expect("the writer writes JSON");
        let created: Vec<String> = r.created.iter().map(ToString::to_string).collect();
        let v = serde_json::json!({
            "game": G::NAME,
            "ruleset": G::ruleset_name(ruleset),
            "ruleset_hash": G::fingerprint(ruleset),
            "created": created,
            "steps": steps,
            "actions": r.steps.len(),
            "result": r.result,
            "record_result": record.get("result"),
            "script_errors": r.script_errors,
            "position": position,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(());
    }
    // Step, turn and seat of each action, as `ball selfplay` prints them.
    let mut before = &r.start;
    for (k, (a, pos, _)) in r.steps.iter().enumerate() {
        let seat = r.game.to_move(before).map_or("-", G::seat_name);
        writeln!(out, "{:>4} {:>3} {seat} {a}", k + 1, r.game.turn(before))?;
        before = pos;
    }
    writeln!(
        out,
        "# {}, result {}",
        crate::diagnostic::plural(r.steps.len() as u64, "action"),
        r.result
    )?;
    for e in &r.script_errors {
        writeln!(out, "# script error: {}", super::one_line(e))?;
    }
    if let Some(claimed) = record.get("result")
        && claimed != r.result
    {
        writeln!(out, "# the record says `{claimed}`")?;
    }
    writeln!(out)?;
    write!(out, "{}", r.game.show(r.last()))?;
    Ok(())
}
