//! Every scenario file under `tests/scenarios/` runs through one `check()`:
//! its `actions:` must all be legal, its `legal:` / `illegal:` lines must
//! hold, and the report (events, board, legal list, refusals) must match
//! its reviewed insta snapshot. Each scenario is played by the ruleset its
//! `ruleset:` line names (standard without one). `ball test` runs the same
//! files against the same snapshots.

use ball::scenario;

fn check(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).expect("scenario file is readable");
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let out = scenario::run_text(&text, dir).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        out.failures.is_empty(),
        "{}:\n{}",
        path.display(),
        out.failures.join("\n")
    );
    // `ball test` reads these snapshots by the name a stand-alone
    // `tests/scenarios.rs` crate gave them: keep it, without this crate's
    // module path in front.
    insta::with_settings!({ prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("scenarios__check", out.report);
    });
}

/// Runs `check` on the scenarios `ball test tests/DIR` would run, as
/// `insta::glob!` did (each snapshot named after its file, every failure
/// listed at the end) but without insta's `glob` feature, whose regex
/// engine was ~45 CPU-s of a fresh `cargo test`.
fn check_all(dir: &str) -> Vec<String> {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir);
    let files = scenario::files_under(&base).unwrap_or_else(|e| panic!("{e}"));
    assert!(!files.is_empty(), "no scenarios in {}", base.display());
    let mut failed = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_suffix(name.clone());
        settings.set_input_file(path);
        let run = std::panic::AssertUnwindSafe(|| settings.bind(|| check(path)));
        if std::panic::catch_unwind(run).is_err() {
            failed.push(format!("{dir}/{name}"));
        }
    }
    failed
}

/// BALL's scenarios, then Gateball's: the same format and runner (`game:
/// gateball`), their snapshots beside them in `tests/gateball/snapshots/`.
#[test]
fn scenarios() {
    let mut failed = check_all("scenarios");
    insta::with_settings!({ snapshot_path => "gateball/snapshots" }, {
        failed.extend(check_all("gateball/scenarios"));
    });
    assert!(
        failed.is_empty(),
        "scenarios that failed: {}",
        failed.join(", ")
    );
}
