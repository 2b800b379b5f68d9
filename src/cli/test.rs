//! `ball test`: runs scenario files and compares each report with its
//! stored snapshot — the same `.snap` files `cargo test --test all scenarios::`
//! (insta) reads and writes, so a designer without a Rust toolchain and
//! the test suite share one set of reviewed results.
//!
//! A scenario `DIR/NAME.scn` has its snapshot at
//! `DIR/snapshots/scenarios__check@NAME.scn.snap` (insta's name for it in
//! `tests/scenarios.rs`), or at `DIR/../snapshots/…` when `DIR` is named
//! `scenarios` (as the shipped `tests/scenarios/`), or under
//! `--snapshots`. A snapshot is a `---`
//! header of `key: value` lines, a `---` line, then the report; the
//! comparison ignores trailing whitespace at the end, as insta does.
//!
//! Exit status: 0 when every scenario passed, 2 otherwise.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{UsageError, one_line};
use crate::scenario;

/// Where `ball test` looks without arguments.
const DEFAULT_DIR: &str = "tests/scenarios";

#[derive(Debug, clap::Args)]
#[command(
    after_help = "A scenario passes when its actions are legal, its legal:/illegal: \
lines hold, and its report equals its snapshot (DIR/snapshots/scenarios__check@NAME.scn.snap for a scenario in DIR, \
or DIR/../snapshots/… when DIR is named `scenarios`: the shipped tests/scenarios use tests/snapshots, the files \
`cargo test --test all scenarios::` uses). A mismatch prints a line diff; --accept writes the \
new report as the snapshot (a missing snapshot fails unless --accept). Each scenario is played by \
the ruleset its `ruleset:` line names (standard without one); --ruleset does not apply. \
Exit status: 0 all passed, 2 any failed.\n\nExamples:\n  ball test\n  \
ball test tests/scenarios/b5_4_dodge_no_exit.scn\n  ball test my-scenarios/ --accept"
)]
pub struct TestArgs {
    /// Scenario files, or directories: every `*.scn` under them, or `-`
    /// for one scenario on standard input (no snapshot: its report is
    /// printed) [default: tests/scenarios].
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Write each scenario's report as its snapshot instead of failing on
    /// a difference (scenarios whose expectations fail are not written).
    #[arg(long)]
    pub accept: bool,
    /// Directory of the snapshots [default: `snapshots` inside each scenario's directory, or beside a directory named `scenarios`].
    #[arg(long, value_name = "DIR")]
    pub snapshots: Option<PathBuf>,
    /// Print the results as JSON: `{"scenarios": [{"file", "verdict",
    /// "details"}], "passed", "accepted", "failed"}`.
    #[arg(long)]
    pub json: bool,
}

/// What became of one scenario.
enum Verdict {
    Passed,
    /// Passed, with no snapshot to compare (standard input): the report.
    Reported(Vec<String>),
    Accepted,
    Failed(Vec<String>),
}

pub fn run(args: TestArgs, out: &mut dyn Write) -> Result<(), UsageError> {
    let roots = if args.paths.is_empty() {
        vec![PathBuf::from(DEFAULT_DIR)]
    } else {
        args.paths.clone()
    };
    let mut files = Vec::new();
    for root in &roots {
        collect(root, &mut files)?;
    }
    if files.is_empty() {
        let shown: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
        return Err(UsageError(format!(
            "no scenario files (*.scn) in {}",
            shown.join(", ")
        )));
    }
    let (mut passed, mut accepted, mut failed) = (0, 0, 0);
    let mut rows = Vec::new();
    for file in &files {
        let shown = display(file);
        let (verdict, details) = match one(file, &args) {
            Verdict::Passed => {
                passed += 1;
                ("ok", Vec::new())
            }
            Verdict::Reported(lines) => {
                passed += 1;
                ("ok", lines)
            }
            Verdict::Accepted => {
                accepted += 1;
                ("accepted", Vec::new())
            }
            Verdict::Failed(lines) => {
                failed += 1;
                ("FAILED", lines.iter().map(|l| one_line(l)).collect())
            }
        };
        if args.json {
            rows.push(serde_json::json!({ "file": shown, "verdict": verdict.to_lowercase(), "details": details }));
            continue;
        }
        writeln!(out, "{verdict:<8} {shown}")?;
        for l in details {
            writeln!(out, "    {l}")?;
        }
    }
    if args.json {
        let v = serde_json::json!({
            "scenarios": rows,
            "passed": passed,
            "accepted": accepted,
            "failed": failed,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return if failed > 0 {
            Err(UsageError::reported())
        } else {
            Ok(())
        };
    }
    let mut summary = format!(
        "{}: {passed} passed",
        crate::diagnostic::plural(files.len() as u64, "scenario")
    );
    if accepted > 0 {
        summary.push_str(&format!(
            ", {} written",
            crate::diagnostic::plural(accepted as u64, "snapshot")
        ));
    }
    summary.push_str(&format!(", {failed} failed"));
    writeln!(out, "{summary}")?;
    if failed > 0 {
        Err(UsageError::reported())
    } else {
        Ok(())
    }
}

/// The scenario files of one argument: the file itself, or every `*.scn`
/// under a directory, sorted.
fn collect(root: &Path, files: &mut Vec<PathBuf>) -> Result<(), UsageError> {
    if root.is_file() || root.as_os_str() == "-" {
        files.push(root.to_path_buf());
        return Ok(());
    }
    if !root.is_dir() {
        return Err(UsageError(format!(
            "`{}`: no such file or directory",
            root.display()
        )));
    }
    let found = crate::scenario::files_under(root).map_err(UsageError)?;
    files.extend(found);
    Ok(())
}

/// Runs one scenario and compares (or writes) its snapshot.
fn one(file: &Path, args: &TestArgs) -> Verdict {
    let shown = display(file);
    let fail = |m: String| Verdict::Failed(vec![m]);
    let stdin = file.as_os_str() == "-";
    if stdin && args.accept {
        return fail(
            "standard input has no snapshot for --accept to write: save the scenario in a file"
                .into(),
        );
    }
    let text = match crate::files::read_input(file, crate::files::MAX_SCENARIO) {
        Ok(t) => t,
        Err(e) => return fail(format!("{shown}: cannot read: {e}")),
    };
    let dir = file.parent().unwrap_or(Path::new(""));
    let outcome = match scenario::run_text(&text, dir) {
        Ok(x) => x,
        Err(e) if e.line > 0 => return fail(format!("{shown}:{}: {}", e.line, e.problem)),
        Err(e) => return fail(format!("{shown}: {}", e.problem)),
    };
    if !outcome.failures.is_empty() {
        return Verdict::Failed(outcome.failures);
    }
    // A scenario on standard input has no file, so no snapshot: its
    // expectations held, and its report is shown instead.
    if stdin {
        return Verdict::Reported(
            normalize(&outcome.report)
                .lines()
                .map(|l| format!("| {l}"))
                .collect(),
        );
    }
    let snap_path = snapshot_path(file, args.snapshots.as_deref());
    let snap_shown = display(&snap_path);
    let stored = match crate::files::read_text(&snap_path, crate::files::MAX_SCENARIO) {
        Ok(t) => Some(t),
        Err(_) if !snap_path.exists() => None,
        Err(e) => return fail(format!("{snap_shown}: cannot read: {e}")),
    };
    let stored = match stored.as_deref().map(parse_snapshot) {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(m)) => return fail(format!("{snap_shown}: {m}")),
    };
    let report = normalize(&outcome.report);
    if let Some((_, body)) = &stored
        && normalize(body) == report
    {
        return Verdict::Passed;
    }
    if args.accept {
        let header = match &stored {
            Some((header, _)) => header.clone(),
            None => new_header(&shown, &snap_path),
        };
        // Atomic: a failed write leaves the old snapshot whole.
        let written = snap_path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|e| crate::files::io_reason(&e))
            .and_then(|()| {
                crate::files::write_atomic(&snap_path, format!("{header}{report}\n").as_bytes())
            });
        return match written {
            Ok(()) => Verdict::Accepted,
            Err(e) => fail(format!("{snap_shown}: cannot write: {e}")),
        };
    }
    match stored {
        None => {
            let mut lines = vec![format!(
                "no snapshot {snap_shown}: review the report below, then `ball test --accept {shown}` writes it"
            )];
            lines.extend(report.lines().map(|l| format!("| {l}")));
            Verdict::Failed(lines)
        }
        Some((_, body)) => {
            let mut lines = vec![format!(
                "the report differs from {snap_shown} (- snapshot, + report; `--accept` takes the report):"
            )];
            lines.extend(diff(&normalize(&body), &report));
            Verdict::Failed(lines)
        }
    }
}

/// The snapshot file of a scenario file: in `D/snapshots/` for a
/// scenario in directory `D`, or in `D/../snapshots/` when `D` is named
/// `scenarios` (the shipped `tests/scenarios/` has `tests/snapshots/`, as
/// insta keeps them). The rule looks at the directory itself, not at the
/// path as typed, so `ball test .`, `ball test DIR` and `ball test
/// DIR/FILE.scn` find the same snapshot, and it is always inside the
/// designer's own folder.
pub fn snapshot_path(file: &Path, dir: Option<&Path>) -> PathBuf {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = match dir {
        Some(d) => d.to_path_buf(),
        None => {
            let parent = match file.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            // `.` or `..` have no name of their own: ask the file system.
            let own_name = parent.file_name().map(|n| n.to_os_string()).or_else(|| {
                std::fs::canonicalize(&parent)
                    .ok()
                    .and_then(|p| p.file_name().map(|n| n.to_os_string()))
            });
            if own_name.is_some_and(|n| n == "scenarios") {
                match parent.parent() {
                    Some(up) if parent.file_name().is_some() && !up.as_os_str().is_empty() => {
                        up.join("snapshots")
                    }
                    Some(_) if parent.file_name().is_some() => PathBuf::from("snapshots"),
                    _ => parent.join("..").join("snapshots"),
                }
            } else {
                parent.join("snapshots")
            }
        }
    };
    dir.join(format!("scenarios__check@{name}.snap"))
}

/// Splits an insta snapshot into its header (both `---` lines included)
/// and its body.
pub fn parse_snapshot(text: &str) -> Result<(String, String), String> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return Err("not an insta snapshot: it does not start with a `---` line".into());
    }
    let mut header = first.to_string();
    for line in lines.by_ref() {
        header.push_str(line);
        if line.trim_end() == "---" {
            let body: String = lines.collect();
            return Ok((header, body));
        }
    }
    Err("not an insta snapshot: its header has no closing `---` line".into())
}

/// A new snapshot's header: insta's for `tests/scenarios.rs` in the
/// project's own `tests/snapshots/`, which `cargo test` shares; elsewhere
/// (a designer's workspace) it names `ball test`, which wrote it.
fn new_header(input_file: &str, snap_path: &Path) -> String {
    let plain = input_file
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_./-@".contains(c));
    let input = if plain {
        input_file.to_string()
    } else {
        format!("{:?}", input_file)
    };
    let in_tests = snap_path
        .parent()
        .is_some_and(|d| d.ends_with("tests/snapshots"));
    let source = if in_tests {
        "tests/scenarios.rs"
    } else {
        "ball test"
    };
    format!("---\nsource: {source}\nexpression: out.report\ninput_file: {input}\n---\n")
}

/// What insta compares: no trailing whitespace at the end, LF line ends.
fn normalize(s: &str) -> String {
    s.trim_end().replace("\r\n", "\n")
}

/// A unified line diff, three lines of context.
fn diff(old: &str, new: &str) -> Vec<String> {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .to_string()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A path as the user would write it, `/`-separated, no leading `./`.
fn display(path: &Path) -> String {
    if path.as_os_str() == "-" {
        return "standard input".into();
    }
    let s = path.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").unwrap_or(&s).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_round_trip() {
        let text = "---\nsource: tests/scenarios.rs\nexpression: out.report\n---\n# t\n\nbody\n";
        let (header, body) = parse_snapshot(text).unwrap();
        assert_eq!(
            header,
            "---\nsource: tests/scenarios.rs\nexpression: out.report\n---\n"
        );
        assert_eq!(body, "# t\n\nbody\n");
        assert!(parse_snapshot("# t\n").is_err());
        assert!(parse_snapshot("---\nsource: x\n").is_err());
    }

    #[test]
    fn snapshot_paths() {
        assert_eq!(
            snapshot_path(Path::new("tests/scenarios/a.scn"), None),
            Path::new("tests/snapshots/scenarios__check@a.scn.snap")
        );
        // A designer's folder keeps its snapshots inside it, whichever
        // way the scenario is named.
        assert_eq!(
            snapshot_path(Path::new("mine/a.scn"), None),
            Path::new("mine/snapshots/scenarios__check@a.scn.snap")
        );
        assert_eq!(
            snapshot_path(Path::new("a.scn"), None),
            Path::new("./snapshots/scenarios__check@a.scn.snap")
        );
        assert_eq!(
            snapshot_path(Path::new("./a.scn"), None),
            Path::new("./snapshots/scenarios__check@a.scn.snap")
        );
        assert_eq!(
            snapshot_path(Path::new("scenarios/a.scn"), None),
            Path::new("snapshots/scenarios__check@a.scn.snap")
        );
        assert_eq!(
            snapshot_path(Path::new("a.scn"), Some(Path::new("snaps"))),
            Path::new("snaps/scenarios__check@a.scn.snap")
        );
    }

    #[test]
    fn diffs_show_both_sides() {
        let d = diff("a\nb\nc\n", "a\nx\nc\n");
        assert!(d.contains(&"-b".to_string()), "{d:?}");
        assert!(d.contains(&"+x".to_string()), "{d:?}");
    }
}
