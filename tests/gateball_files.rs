//! Gateball's files: court files (T1.8), setups (T2.2–T2.4) and rulesets
//! (T14), through the "must fail" corpora under `tests/gateball/` — one
//! file per broken condition, each listing its expected problems in
//! `# expect:` lines (`LINE: TEXT`, or `FILE:LINE: TEXT` for a problem of
//! another file) — and the shipped files, which must load clean.
//!
//! Paths are relative to the package root: cargo runs integration tests
//! there; shipped names come from the binary's own copy (no `BALL_HOME`).

use std::path::{Path, PathBuf};
use std::process::Command;

use ball::diagnostic::Problem;
use ball::games::ball::ruleset::{GameKind, game_of, shipped};
use ball::games::gateball::court::Court;
use ball::games::gateball::event::{Event, Side};
use ball::games::gateball::position::Team;
use ball::games::gateball::ruleset::{self, GateballRuleset};
use ball::games::gateball::{First, Rules, Setup, SparkDice, court_file, setup};

const COURTS: &str = "tests/gateball/malformed_courts";
const SETUPS: &str = "tests/gateball/malformed_setups";
const RULESETS: &str = "tests/gateball/rulesets";

struct Expect {
    file: String,
    line: usize,
    text: String,
}

fn expectations(path: &Path) -> Vec<Expect> {
    let shown = path.to_str().unwrap().to_string();
    let dir = path.parent().unwrap().to_str().unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("# expect: "))
        .map(|e| {
            let (place, text) = e.split_once(": ").expect("`# expect: LINE: TEXT`");
            let (file, line) = match place.rsplit_once(':') {
                Some((file, line)) if file.contains('/') => (file.to_string(), line),
                Some((file, line)) => (format!("{dir}/{file}"), line),
                None => (shown.clone(), place),
            };
            Expect {
                file,
                line: line.parse().expect("a line number"),
                text: text.to_string(),
            }
        })
        .collect()
}

fn files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

fn show(problems: &[Problem]) -> String {
    problems.iter().map(|p| format!("  {p}\n")).collect()
}

/// `problems` are exactly the file's expectations, no more, no fewer.
fn assert_expected(path: &Path, problems: &[Problem]) {
    let shown = path.to_str().unwrap();
    let expected = expectations(path);
    assert!(!expected.is_empty(), "{shown}: lists no `# expect:` line");
    let mut left: Vec<Problem> = problems.to_vec();
    for e in &expected {
        let found = left.iter().position(|p| {
            p.file == e.file && p.line == Some(e.line) && p.message.contains(&e.text)
        });
        match found {
            Some(i) => {
                left.remove(i);
            }
            None => panic!(
                "{shown}: expected `{}:{}: …{}…`, got:\n{}",
                e.file,
                e.line,
                e.text,
                show(problems)
            ),
        }
    }
    assert!(
        left.is_empty(),
        "{shown}: unexpected problems:\n{}",
        show(&left)
    );
}

/// The one-line error of `load` is the first problem, `file:line: …`.
fn assert_first(path: &Path, problems: &[Problem], error: &str) {
    assert!(!error.contains('\n'), "{error}");
    assert_eq!(error, problems[0].to_string());
    let shown = path.to_str().unwrap();
    assert!(
        error.starts_with(&format!("{shown}:")),
        "{error} does not name {shown}"
    );
}

// --------------------------------------------------------- court files

#[test]
fn every_malformed_court_fails_with_exactly_its_problems() {
    let files = files(COURTS);
    assert!(files.len() >= 25, "the corpus lost files: {files:?}");
    for path in &files {
        let problems = court_file::check(path);
        assert_expected(path, &problems);
        let error = court_file::load(path).unwrap_err();
        assert_first(path, &problems, &error);
        // Every problem names its line.
        for p in &problems {
            assert!(p.line.is_some(), "{p}");
        }
    }
}

#[test]
fn a_missing_court_file_is_one_problem() {
    let p = court_file::check(Path::new("courts/nowhere.toml"));
    assert_eq!(p.len(), 1);
    assert_eq!(
        p[0].to_string(),
        "courts/nowhere.toml: cannot read the court file: not found"
    );
}

/// T1.9 and the shipped courts: each is valid; the standard one is the
/// compiled-in default court.
#[test]
fn shipped_courts_are_valid() {
    let courts = files("courts");
    assert!(courts.len() >= 2, "{courts:?}");
    for path in &courts {
        let court = court_file::load(path).unwrap_or_else(|e| panic!("{e}"));
        let stem = path.file_stem().unwrap().to_str().unwrap();
        assert_eq!(court.name, stem, "a shipped court is named by its file");
        if stem == "standard" {
            assert_eq!(court, Court::standard());
        } else {
            assert!(court.description.is_some(), "{stem}: says what it tests");
        }
    }
}

// -------------------------------------------------------------- setups

#[test]
fn every_malformed_setup_fails_with_exactly_its_problems() {
    let files = files(SETUPS);
    assert!(files.len() >= 15, "the corpus lost files: {files:?}");
    for path in &files {
        let problems = setup::check(path);
        assert_expected(path, &problems);
        assert_first(path, &problems, &setup::load(path).unwrap_err());
    }
}

/// The notation's example setup, shipped as `setups/club.toml`.
#[test]
fn shipped_club_setup() {
    let s = setup::load(Path::new("setups/club.toml")).unwrap();
    assert_eq!(
        s,
        Setup {
            a: vec![("Ann".into(), vec![1, 3, 5]), ("Bob".into(), vec![2, 4])],
            b: vec![("Cy".into(), vec![])],
            first: First::Coin,
        }
    );
    // T2.3: seed 3's coin is 1 → side a plays red.
    let (game, _, events) = setup::create(Rules::default(), Court::standard(), &s, 3);
    assert_eq!(events[0], Event::Coin(Side::A));
    let players: Vec<(&str, Team, &[u8])> = game
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.team, &p.balls[..]))
        .collect();
    assert_eq!(
        players,
        [
            ("Ann", Team::Red, &[1, 5, 9][..]),
            ("Bob", Team::Red, &[3, 7][..]),
            ("Cy", Team::Blue, &[2, 4, 6, 8, 10][..]),
        ]
    );
    for path in files("setups") {
        assert!(
            setup::check(&path).is_empty(),
            "{}",
            show(&setup::check(&path))
        );
    }
}

// ------------------------------------------------------------ rulesets

#[test]
fn malformed_rulesets_fail_with_exactly_their_problems() {
    for path in files(RULESETS) {
        let shown = path.to_str().unwrap();
        if expectations(&path).is_empty() {
            continue; // a clean fixture
        }
        let problems = ruleset::check(shown);
        assert_expected(&path, &problems);
        let error = ruleset::load(shown).unwrap_err();
        assert!(!error.contains('\n'), "{error}");
        assert!(error.starts_with(&problems[0].to_string()), "{error}");
    }
}

/// Every key set, court and setup files relative to the ruleset.
#[test]
fn a_ruleset_with_every_key_loads() {
    let shown = format!("{RULESETS}/club.toml");
    let r = ruleset::load(&shown).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.name, "club");
    assert_eq!(r.description, "a club game on the narrow court");
    assert_eq!(
        r.rules,
        Rules {
            turns: 3,
            gate_bonus: true,
            spark_dice: SparkDice::Reuse
        }
    );
    assert_eq!(r.court.name, "narrow");
    assert_eq!(r.court_file.as_deref(), Some("courts/narrow.toml"));
    assert_eq!(r.setup_file.as_deref(), Some("setups/club.toml"));
    assert_eq!(r.setup.first, First::Coin);
}

#[test]
fn shipped_gateball_rulesets_are_gateball() {
    let names: Vec<String> = shipped()
        .into_iter()
        .filter(|n| game_of(n) == GameKind::Gateball)
        .collect();
    assert_eq!(
        names,
        [
            "gateball",
            "gateball-bonus",
            "gateball-reuse",
            "gateball-sudden-death",
            "gateball-tech-limit"
        ]
    );
    assert_eq!(ruleset::DEFAULT, "gateball");
}

/// The shipped Gateball rulesets check clean and load with their T14
/// values on the default court.
#[test]
fn shipped_gateball_rulesets_load_clean() {
    let load = |name: &str| -> GateballRuleset {
        assert!(
            ruleset::check(name).is_empty(),
            "{}",
            show(&ruleset::check(name))
        );
        ruleset::load(name).unwrap_or_else(|e| panic!("{e}"))
    };
    let default = load("gateball");
    assert_eq!(default.rules, Rules::default());
    assert_eq!(default.court, Court::standard());
    assert_eq!(default.court_file.as_deref(), Some("courts/standard.toml"));
    assert_eq!(default.setup, Setup::default());
    assert_eq!(default.file, "rulesets/gateball.toml");
    let bonus = load("gateball-bonus");
    assert_eq!(
        bonus.rules,
        Rules {
            gate_bonus: true,
            ..Rules::default()
        }
    );
    let reuse = load("gateball-reuse");
    assert_eq!(
        reuse.rules,
        Rules {
            spark_dice: SparkDice::Reuse,
            ..Rules::default()
        }
    );
    // The same file by path.
    assert_eq!(load("rulesets/gateball.toml").rules, default.rules);
}

// ------------------------------------------------------------ ball check

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn ball(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(args)
        .env_remove("BALL_HOME")
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn check_lists_a_gateball_rulesets_problems_and_exits_2() {
    let spec = format!("{RULESETS}/broken_files.toml");
    let r = ball(&["check", "--ruleset", &spec]);
    assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.stdout);
    assert!(lines[0].starts_with(
        "tests/gateball/malformed_courts/gate_not_adjacent.toml:14: gate 2: bottom \"N14\" and top \"M15\""
    ));
    assert!(lines[1].starts_with("tests/gateball/malformed_setups/slot_twice.toml:8: slot 3"));
    assert_eq!(lines[2], format!("ruleset {spec}: 2 problems"));
    // The report is printed once, on stdout.
    assert_eq!(r.stderr, "");
    // The global flag before the command, as .ci/run writes it.
    let r = ball(&["--ruleset", &spec, "check"]);
    assert_eq!(r.code, Some(2));
}

#[test]
fn check_exits_0_on_the_shipped_gateball_rulesets() {
    for name in ["gateball", "gateball-bonus", "gateball-reuse"] {
        let r = ball(&["--ruleset", name, "check"]);
        assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
        assert_eq!(r.stdout, format!("ruleset {name}: no problems\n"));
        assert_eq!(r.stderr, "");
    }
    let r = ball(&["check", "--ruleset", "gateball", "--print"]);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("court = \"courts/standard.toml\"\nturns = 6\n"),
        "{}",
        r.stdout
    );
}

/// A Gateball ruleset chooses Gateball; asking for BALL with it is one
/// line on stderr, exit 2.
#[test]
fn ball_commands_refuse_a_gateball_ruleset_in_one_line() {
    let r = ball(&["--ruleset", "gateball", "--game", "ball", "new"]);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .contains("the ruleset `gateball` is for gateball but --game says ball"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    let r = ball(&["--ruleset", "gateball", "new"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("\"game\": \"gateball\""), "{}", r.stdout);
}
