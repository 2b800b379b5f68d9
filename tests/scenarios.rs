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

/// BALL's scenarios, then Gateball's: the same format and runner (`game:
/// gateball`), their snapshots beside them in `tests/gateball/snapshots/`.
/// One test, because insta counts a glob's failures across threads.
#[test]
fn scenarios() {
    insta::glob!("scenarios/*.scn", check);
    insta::with_settings!({ snapshot_path => "gateball/snapshots" }, {
        insta::glob!("gateball/scenarios/*.scn", check);
    });
}
