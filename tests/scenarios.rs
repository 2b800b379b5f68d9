//! Every scenario file under `tests/scenarios/` runs through one `check()`:
//! its `actions:` must all be legal, its `legal:` / `illegal:` lines must
//! hold, and the report (events, board, legal list, refusals) must match
//! its reviewed insta snapshot.

use ball::ball::{Ball, scenario};

fn check(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).expect("scenario file is readable");
    let game = Ball::default();
    let s = scenario::parse(&text, &game).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let out = scenario::run(&s, &game);
    assert!(
        out.failures.is_empty(),
        "{}:\n{}",
        path.display(),
        out.failures.join("\n")
    );
    insta::assert_snapshot!(out.report);
}

#[test]
fn scenarios() {
    insta::glob!("scenarios/*.scn", check);
}
