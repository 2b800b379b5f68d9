//! Rulesets: loading with `extends` (inheritance and merge), the checker's
//! every problem class through the "must fail" corpus under
//! `tests/rulesets/bad/` (each file lists its expected problems in
//! `# expect:` lines; see `tests/rulesets/README.md`), the shipped
//! rulesets, and the `ball check` / `ball test` commands driven through
//! the real binary in temporary directories.
//!
//! Paths are relative to the package root: cargo runs integration tests
//! there; shipped names come from the binary's own copy (no `BALL_HOME`).

use std::path::{Path, PathBuf};
use std::process::Command;

use ball::diagnostic::Problem;
use ball::games::ball::params::{Params, Verb, Verbs};
use ball::games::ball::ruleset::{
    GameKind, PARAM_KEYS, ParamKind, Ruleset, ScriptSource, game_of, is_gball, shipped,
};
use proptest::prelude::*;

const GOOD: &str = "tests/rulesets/good";
const BAD: &str = "tests/rulesets/bad";

fn load(path: &str) -> Ruleset {
    Ruleset::load(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn ids(scripts: &[ScriptSource]) -> Vec<&str> {
    scripts.iter().map(ScriptSource::id).collect()
}

fn paths(scripts: &[ScriptSource]) -> Vec<&str> {
    scripts.iter().map(|s| s.path.as_str()).collect()
}

// ------------------------------------------------------------ inheritance

#[test]
fn child_inherits_everything_and_overrides_what_it_states() {
    let base = load(&format!("{GOOD}/base.toml"));
    let child = load(&format!("{GOOD}/child.toml"));
    assert_eq!(child.name, "child", "a name is never inherited");
    assert_eq!(child.file, format!("{GOOD}/child.toml"));
    assert_eq!(child.description, "test fixture: a parent");
    // [params] merges key by key.
    assert_eq!(base.params.ap_per_turn, 3);
    assert_eq!(child.params.ap_per_turn, 4);
    assert_eq!(child.params.turn_limit, 40);
    assert!(child.params.forbidden.contains(Verb::TDodge));
    assert_eq!(
        child.params.end_zone_depth,
        Params::default().end_zone_depth
    );
    // Scalars and scripts not stated are inherited.
    assert!(child.card_mode);
    assert_eq!(
        child.ep_table.as_ref().map(|s| s.path.as_str()),
        Some("tests/rulesets/good/scripts/ep.lua")
    );
    assert_eq!(ids(&child.variants), ["v1"]);
    // [cards] team lists replace the parent's, team by team.
    assert_eq!(ids(&child.cards[0]), ["alpha", "beta"]);
    assert_eq!(ids(&base.cards[1]), ["alpha"]);
    assert_eq!(ids(&child.cards[1]), ["beta"]);
    assert!(child.cards[0][0].text.contains("Test fixture"));
    // Every ruleset file read, base first.
    assert_eq!(
        paths(&child.files),
        [
            "rulesets/standard.toml",
            "tests/rulesets/good/base.toml",
            "tests/rulesets/good/child.toml"
        ]
    );
    assert_eq!(child.game().params, child.params);
}

#[test]
fn lists_replace_and_can_be_emptied() {
    let g = load(&format!("{GOOD}/grandchild.toml"));
    assert!(!g.card_mode);
    assert!(g.cards.iter().all(Vec::is_empty));
    assert!(g.variants.is_empty());
    assert_eq!(g.params.forbidden, Verbs::NONE);
    assert_eq!(g.params.ap_per_turn, 4, "from child");
    assert_eq!(g.params.turn_limit, 40, "from base");
    assert_eq!(g.params.long_pass_max_distance, Some(8));
    assert!(g.ep_table.is_some(), "not stated: inherited");
    assert_eq!(g.files.len(), 4);
}

#[test]
fn script_paths_fall_back_to_the_shipped_files() {
    let o = load(&format!("{GOOD}/other.toml"));
    assert_eq!(paths(&o.cards[0]), ["cards/magnet.lua"]);
    assert!(o.cards[1].is_empty());
    assert_eq!(o.params, Params::default(), "no extends: the defaults");
}

#[test]
fn standard_is_the_shipped_file() {
    let loaded = load("standard");
    assert_eq!(Ruleset::standard(), loaded);
    assert_eq!(loaded.params, Params::default());
    assert_eq!(loaded.fingerprint(), Ruleset::standard().fingerprint());
    assert_eq!(loaded.file, "rulesets/standard.toml");
    // By path too, with the same display name.
    assert_eq!(load("rulesets/standard.toml"), loaded);
}

#[test]
fn ruleset_is_plain_data() {
    fn send_clone<T: Send + Sync + Clone + 'static>() {}
    send_clone::<Ruleset>();
}

#[test]
fn fingerprint_covers_every_file_read() {
    let names = ["base", "child", "grandchild", "other"];
    let prints: Vec<String> = names
        .iter()
        .map(|n| load(&format!("{GOOD}/{n}.toml")).fingerprint())
        .collect();
    for (i, a) in prints.iter().enumerate() {
        assert_eq!(a.len(), 16);
        for b in &prints[i + 1..] {
            assert_ne!(a, b);
        }
    }
    assert_eq!(
        load(&format!("{GOOD}/child.toml")).fingerprint(),
        prints[1],
        "stable"
    );

    // A copy elsewhere: editing a card script, or a parent's comment,
    // changes the child's fingerprint.
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(Path::new(GOOD), tmp.path());
    let child = tmp.path().join("child.toml");
    let child = child.to_str().unwrap();
    let before = load(child).fingerprint();
    // The same files elsewhere, named by another path: the same rules.
    assert_eq!(before, prints[1], "a copy of the files elsewhere");
    let beta = tmp.path().join("cards/beta.lua");
    let text = std::fs::read_to_string(&beta).unwrap();
    std::fs::write(&beta, format!("-- changed\n{text}")).unwrap();
    let after_card = load(child).fingerprint();
    assert_ne!(before, after_card);
    let base = tmp.path().join("base.toml");
    let text = std::fs::read_to_string(&base).unwrap();
    std::fs::write(&base, format!("# a comment\n{text}")).unwrap();
    assert_ne!(after_card, load(child).fingerprint());
}

// ------------------------------------------------------ the bad corpus

/// One `# expect: [FILE:]LINE: TEXT` line.
#[derive(Debug)]
struct Expect {
    file: String,
    line: usize,
    text: String,
}

fn expectations(path: &Path) -> Vec<Expect> {
    let own = path.to_str().unwrap().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("# expect: "))
        .map(|e| {
            let (place, text) = e.split_once(": ").expect("`# expect: [FILE:]LINE: TEXT`");
            let (file, line) = match place.rsplit_once(':') {
                Some((file, line)) => (format!("{BAD}/{file}"), line),
                None => (own.clone(), place),
            };
            Expect {
                file,
                line: line.parse().expect("a line number"),
                text: text.to_string(),
            }
        })
        .collect()
}

fn bad_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(BAD)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_bad_ruleset_fails_with_exactly_its_expected_problems() {
    let files = bad_files();
    assert!(files.len() >= 20, "the corpus lost files: {files:?}");
    for path in files {
        let shown = path.to_str().unwrap();
        let expected = expectations(&path);
        assert!(
            !expected.is_empty(),
            "{shown}: a bad fixture lists its `# expect:` lines"
        );
        let mut problems: Vec<Problem> = Ruleset::check(shown);
        for e in &expected {
            let found = problems.iter().position(|p| {
                p.file == e.file && p.line == Some(e.line) && p.message.contains(&e.text)
            });
            match found {
                Some(i) => {
                    problems.remove(i);
                }
                None => panic!(
                    "{shown}: expected `{}:{}: …{}…`, got:\n{}",
                    e.file,
                    e.line,
                    e.text,
                    show(&Ruleset::check(shown))
                ),
            }
        }
        assert!(
            problems.is_empty(),
            "{shown}: unexpected problems:\n{}",
            show(&problems)
        );
        // Loading fails with one line naming the first problem's place:
        // the ruleset's own first, then its scripts' (compiled at load).
        let all = Ruleset::check(shown);
        let first = all.iter().find(|p| p.file.ends_with(".toml"));
        match (Ruleset::load(shown), first) {
            (Ok(_), None) if all.is_empty() => {}
            (Ok(_), None) => panic!("{shown}: loads despite {}", all[0]),
            (Ok(_), Some(p)) => panic!("{shown}: loads despite {p}"),
            (Err(e), None) => {
                let e = e.to_string();
                assert!(!e.contains('\n'), "{e}");
                assert!(all.iter().any(|p| e.contains(&p.file)), "{shown}: {e}");
            }
            (Err(e), Some(p)) => {
                let e = e.to_string();
                assert!(!e.contains('\n'), "{e}");
                assert!(
                    e.contains(&format!("{}:{}:", p.file, p.line.unwrap())),
                    "{shown}: {e}"
                );
            }
        }
    }
}

#[test]
fn every_problem_class_has_a_fixture() {
    for name in [
        "syntax",
        "duplicate_key",
        "unknown_keys",
        "unknown_table",
        "wrong_types",
        "missing_name",
        "out_of_range",
        "forbid",
        "missing_files",
        "duplicate_cards",
        "bad_card_names",
        "cards_without_card_mode",
        "card_mode_off_over_cards",
        "long_pass_contradiction",
        "extends_unknown",
        "extends_missing_path",
        "extends_wrong_type",
        "extends_broken_parent",
        "cycle_a",
        "self_cycle",
        "script_problems",
    ] {
        assert!(Path::new(&format!("{BAD}/{name}.toml")).is_file(), "{name}");
    }
}

fn show(problems: &[Problem]) -> String {
    problems.iter().map(|p| format!("  {p}\n")).collect()
}

#[test]
fn every_integer_parameter_is_range_checked_at_both_ends() {
    let tmp = tempfile::tempdir().unwrap();
    for (key, kind) in PARAM_KEYS {
        let ParamKind::Int { min, max } = *kind else {
            continue;
        };
        for (value, ok) in [(min - 1, false), (min, true), (max, true), (max + 1, false)] {
            let path = tmp.path().join(format!("{key}.toml"));
            // A maximum of 1 is below the default minimum of 2.
            let min_line = if *key == "long_pass_max_distance" {
                "long_pass_min_distance = 0\n"
            } else {
                ""
            };
            let text = format!("name = \"r\"\n[params]\n{key} = {value}\n{min_line}");
            std::fs::write(&path, text).unwrap();
            let problems = Ruleset::check(path.to_str().unwrap());
            assert_eq!(problems.is_empty(), ok, "{key} = {value}: {problems:?}");
            if !ok {
                assert_eq!(problems[0].line, Some(3));
                assert!(problems[0].message.contains("out of range"), "{problems:?}");
            }
        }
    }
}

#[test]
fn missing_rulesets_are_one_problem() {
    let p = Ruleset::check("no-such-ruleset");
    assert_eq!(p.len(), 1);
    assert!(
        p[0].message
            .contains("no shipped ruleset `no-such-ruleset`"),
        "{p:?}"
    );
    let p = Ruleset::check("nowhere/x.toml");
    assert_eq!(p.len(), 1);
    assert!(p[0].message.contains("no such ruleset file"), "{p:?}");
    let e = Ruleset::load("standrad").unwrap_err().to_string();
    assert_eq!(
        e,
        "ruleset `standrad`: no shipped ruleset `standrad`; did you mean `standard`?"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the text, checking never panics and every problem names a
    /// line of the file.
    #[test]
    fn checking_any_text_never_panics(
        lines in prop::collection::vec(
            prop_oneof![
                Just("name = \"x\"".to_string()),
                Just("extends = \"standard\"".to_string()),
                Just("[params]".to_string()),
                Just("[cards]".to_string()),
                Just("card_mode = true".to_string()),
                Just("ATK = [\"sprint\", \"sprint\"]".to_string()),
                Just("forbid = [\"end\", 3]".to_string()),
                "[a-z_]{1,12} = [0-9]{1,25}",
                "[a-z_\\[\\]\"=., ]{0,30}",
                any::<String>(),
            ],
            0..8,
        )
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("fuzz.toml");
        std::fs::write(&path, lines.join("\n")).unwrap();
        let shown = path.to_str().unwrap();
        for p in Ruleset::check(shown) {
            prop_assert!(p.file == shown || p.file.starts_with("rulesets/"), "{p}");
            prop_assert!(p.line.is_some(), "{p}");
        }
        let _ = Ruleset::load(shown);
    }
}

// ------------------------------------------------------ shipped rulesets

#[test]
fn shipped_rulesets_load_unless_a_script_is_missing() {
    let names = shipped();
    for expected in [
        "standard",
        "sv-rulebook",
        "cards",
        "three-ap",
        "no-tdodge",
        "sudden-death",
        "long-pass-8",
        "mercy-rule",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "rulesets/{expected}.toml"
        );
    }
    // `rulesets/` also holds Gateball's rulesets: `tests/gateball_files.rs`
    // checks those.
    // G-ball's: `tests/gball_files.rs`.
    for name in names
        .iter()
        .filter(|n| game_of(n) == GameKind::Ball && !is_gball(n))
    {
        let problems = Ruleset::check(name);
        // The Lua files are written separately: a missing one is the only
        // problem a shipped ruleset may have.
        for p in &problems {
            assert!(p.message.contains("not found"), "{name}: {p}");
        }
        if problems.is_empty() {
            let r = load(name);
            assert_eq!(&r.name, name);
            assert_eq!(r.files[0].path, "rulesets/standard.toml");
        }
    }
}

#[test]
fn house_rules_extend_standard_with_their_variant() {
    for name in [
        "sv-rulebook",
        "three-ap",
        "no-tdodge",
        "sudden-death",
        "long-pass-8",
        "mercy-rule",
    ] {
        let text = std::fs::read_to_string(format!("rulesets/{name}.toml")).unwrap();
        let t: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(t["extends"].as_str(), Some("standard"), "{name}");
        let variants = t["variants"].as_array().unwrap();
        assert_eq!(variants.len(), 1);
        assert_eq!(variants[0].as_str(), Some(name), "{name}");
    }
}

#[test]
fn cards_ruleset_gives_both_coaches_every_card() {
    let text = std::fs::read_to_string("rulesets/cards.toml").unwrap();
    let t: toml::Table = toml::from_str(&text).unwrap();
    assert_eq!(t["card_mode"].as_bool(), Some(true));
    assert_eq!(t["ep_table"].as_str(), Some("scripts/ep_table.lua"));
    let all = [
        "sprint",
        "second-wind",
        "early-release",
        "quick-step",
        "long-throw",
        "shove",
        "switch",
        "free-spirit",
        "magnet",
        "guardian",
    ];
    for team in ["ATK", "DEF"] {
        let list: Vec<&str> = t["cards"][team]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(list, all, "{team}");
    }
    // Whatever is missing yet, only the scripts are.
    for p in Ruleset::check("cards") {
        assert!(p.message.contains("not found"), "{p}");
    }
}

// ------------------------------------------------------------ ball check

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn ball(args: &[&str], dir: Option<&Path>, home: Option<&Path>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ball"));
    cmd.args(args).env_remove("BALL_HOME");
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    if let Some(h) = home {
        cmd.env("BALL_HOME", h);
    }
    let out = cmd.output().expect("the binary runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn check_exits_0_when_clean() {
    let r = ball(&["check"], None, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout, "ruleset standard: no problems\n");
    assert_eq!(r.stderr, "");
    let r = ball(
        &[
            "check",
            "--ruleset",
            &format!("{GOOD}/child.toml"),
            "--print",
        ],
        None,
        None,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("ap_per_turn = 4\n"), "{}", r.stdout);
    assert!(r.stdout.contains("turn_limit = 40\n"), "{}", r.stdout);
    // What --print writes after the summary is TOML.
    let toml_part = r.stdout.split_once("\n\n").unwrap().1;
    assert!(toml_part.starts_with("# after `extends`"), "{toml_part}");
    let t: toml::Table = toml::from_str(toml_part).expect("valid TOML");
    assert_eq!(t["name"].as_str(), Some("child"));
}

#[test]
fn check_lists_every_problem_and_exits_2() {
    let file = format!("{BAD}/unknown_keys.toml");
    let r = ball(&["check", "--ruleset", &file], None, None);
    assert_eq!(r.code, Some(2));
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", r.stdout);
    for l in &lines[..5] {
        assert!(l.starts_with(&format!("{file}:")), "{l}");
    }
    assert_eq!(
        lines[0],
        format!("{file}:8: unknown key `descripton`; did you mean `description`?")
    );
    assert_eq!(lines[5], format!("ruleset {file}: 5 problems"));
    // The report is printed once, on stdout.
    assert_eq!(r.stderr, "");

    // A ruleset that names nothing has no report: one line on stderr.
    let r = ball(&["check", "--ruleset", "standrad"], None, None);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.contains("did you mean `standard`?"),
        "{}",
        r.stderr
    );

    // Other commands refuse a broken ruleset with one line.
    let r = ball(&["new", "--ruleset", &file], None, None);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stdout, "");
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("{file}:8:")), "{}", r.stderr);
}

#[test]
fn check_card_checks_one_file() {
    let r = ball(
        &["check", "--card", "tests/rulesets/good/cards/alpha.lua"],
        None,
        None,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let r = ball(&["check", "--card", "no/such/card.lua"], None, None);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stdout
            .starts_with("no/such/card.lua: cannot read the card"),
        "{}",
        r.stdout
    );
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("Bad Name.lua");
    std::fs::write(&bad, "-- x\n").unwrap();
    let r = ball(&["check", "--card", bad.to_str().unwrap()], None, None);
    assert_eq!(r.code, Some(2));
    assert!(r.stdout.contains("is the card's id"), "{}", r.stdout);
}

#[test]
fn ball_home_adds_to_and_overrides_the_shipped_files() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join("rulesets")).unwrap();
    std::fs::write(home.path().join("rulesets/mine.toml"), "name = \"other\"\n").unwrap();
    let r = ball(&["check", "--ruleset", "mine"], None, Some(home.path()));
    assert_eq!(r.code, Some(2));
    assert_eq!(
        r.stdout.lines().next(),
        Some(
            "rulesets/mine.toml:1: a shipped ruleset's name must be its file name: `mine`, not `other`"
        )
    );
    std::fs::write(home.path().join("rulesets/mine.toml"), "name = \"mine\"\n").unwrap();
    let r = ball(&["check", "--ruleset", "mine"], None, Some(home.path()));
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    // The binary's own rulesets are still there beside it...
    let r = ball(&["check", "--ruleset", "cards"], None, Some(home.path()));
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let r = ball(&["new", "--game", "gateball"], None, Some(home.path()));
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    // ...and a file of the same path in BALL_HOME replaces the shipped one.
    std::fs::write(
        home.path().join("rulesets/standard.toml"),
        "name = \"standard\"\nbogus = 1\n",
    )
    .unwrap();
    let r = ball(&["check", "--ruleset", "standard"], None, Some(home.path()));
    assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("rulesets/standard.toml:2"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("bogus"), "{}", r.stdout);
    let r = ball(&["check", "--ruleset", "standard"], None, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
}

/// An installed binary: run from a folder that is not the source tree,
/// with the source tree's path gone from view, every game's shipped
/// rulesets load from the binary's own copy.
#[test]
fn the_shipped_files_come_from_the_binary() {
    let cache = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    for args in [
        &["new"][..],
        &["new", "--game", "gateball"],
        &["new", "--game", "gball"],
        &["check", "--ruleset", "cards"],
        &["check", "--ruleset", "gateball-bonus"],
        &["check", "--card", "cards/magnet.lua"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_ball"))
            .args(args)
            .current_dir(elsewhere.path())
            .env_remove("BALL_HOME")
            .env("XDG_CACHE_HOME", cache.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        // `check --card cards/magnet.lua` names a path: it is not there.
        if args[0] == "check" && args[1] == "--card" {
            assert_eq!(out.status.code(), Some(2), "{err}");
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
    let copies: Vec<_> = std::fs::read_dir(cache.path().join("ball"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(copies.len(), 1, "{copies:?}");
    assert!(copies[0].starts_with("data-"), "{copies:?}");
    let copy = cache.path().join("ball").join(&copies[0]);
    for rel in [
        "rulesets/gball.toml",
        "cards/magnet.lua",
        "setups/club.toml",
        "tests/scenarios/card_magnet_works.scn",
    ] {
        assert!(copy.join(rel).is_file(), "{rel}");
    }
}

// ------------------------------------------------------------- ball test

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// A temporary copy of two scenarios and their snapshots:
/// `scenarios/*.scn`, `snapshots/*.snap`.
fn scenario_copy() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for dir in ["scenarios", "snapshots"] {
        std::fs::create_dir(tmp.path().join(dir)).unwrap();
    }
    for name in ["b5_4_dodge_no_exit.scn", "b3_5_touchdown_reset.scn"] {
        std::fs::copy(
            format!("tests/scenarios/{name}"),
            tmp.path().join("scenarios").join(name),
        )
        .unwrap();
        let snap = format!("scenarios__check@{name}.snap");
        std::fs::copy(
            format!("tests/snapshots/{snap}"),
            tmp.path().join("snapshots").join(&snap),
        )
        .unwrap();
    }
    tmp
}

#[test]
fn test_passes_on_the_shipped_scenarios() {
    let r = ball(&["test"], None, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.lines().last().unwrap().contains("0 failed"),
        "{}",
        r.stdout
    );
}

#[test]
fn test_reports_a_mismatch_with_a_diff_and_accept_fixes_it() {
    let tmp = scenario_copy();
    let dir = Some(tmp.path());
    let r = ball(&["test", "scenarios"], dir, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout.lines().filter(|l| l.starts_with("ok ")).count(), 2);

    let snap = tmp
        .path()
        .join("snapshots/scenarios__check@b5_4_dodge_no_exit.scn.snap");
    let original = std::fs::read_to_string(&snap).unwrap();
    assert!(original.contains("legal ("));
    std::fs::write(&snap, original.replace("legal (", "legal  (")).unwrap();
    let r = ball(&["test", "scenarios"], dir, None);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stdout
            .contains("FAILED   scenarios/b5_4_dodge_no_exit.scn"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("    -legal  ("), "{}", r.stdout);
    assert!(r.stdout.contains("    +legal ("), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("ok       scenarios/b3_5_touchdown_reset.scn"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.ends_with("2 scenarios: 1 passed, 1 failed\n"),
        "{}",
        r.stdout
    );
    assert_eq!(r.stderr, "", "the summary is printed once, on stdout");

    let r = ball(&["test", "--accept", "scenarios"], dir, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("accepted scenarios/b5_4_dodge_no_exit.scn"),
        "{}",
        r.stdout
    );
    // The header is kept, the body is the report again: the original file.
    assert_eq!(std::fs::read_to_string(&snap).unwrap(), original);
    let r = ball(&["test", "scenarios/b5_4_dodge_no_exit.scn"], dir, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
}

#[test]
fn test_fails_on_a_missing_snapshot_unless_accept() {
    let tmp = scenario_copy();
    let dir = Some(tmp.path());
    let snap = tmp
        .path()
        .join("snapshots/scenarios__check@b3_5_touchdown_reset.scn.snap");
    let original = std::fs::read_to_string(&snap).unwrap();
    std::fs::remove_file(&snap).unwrap();
    let r = ball(&["test", "scenarios"], dir, None);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stdout
            .contains("no snapshot snapshots/scenarios__check@b3_5"),
        "{}",
        r.stdout
    );
    let r = ball(&["test", "scenarios", "--accept"], dir, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let written = std::fs::read_to_string(&snap).unwrap();
    assert!(
        written.starts_with(
            // Outside the project's tests/snapshots, the writer is named.
            "---\nsource: ball test\nexpression: out.report\n\
input_file: scenarios/b3_5_touchdown_reset.scn\n---\n"
        ),
        "{written}"
    );
    // The same body insta stored.
    let body = |s: &str| s.splitn(3, "---\n").nth(2).unwrap().to_string();
    assert_eq!(body(&written), body(&original));
}

#[test]
fn scenarios_name_their_ruleset() {
    let tmp = scenario_copy();
    let dir = Some(tmp.path());
    std::fs::write(
        tmp.path().join("three.toml"),
        "name = \"three\"\nextends = \"standard\"\n[params]\nap_per_turn = 3\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("scenarios/three.scn"),
        "# Three AP from the start.\nruleset: ../three.toml\nsetup:\n  turn 1 ATK action 3\n\
actions:\n  move ATK5 F6\n",
    )
    .unwrap();
    let r = ball(&["test", "scenarios/three.scn", "--accept"], dir, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let snap =
        std::fs::read_to_string(tmp.path().join("snapshots/scenarios__check@three.scn.snap"))
            .unwrap();
    assert!(snap.contains("\nruleset: ../three.toml\n"), "{snap}");
    assert!(snap.contains("AP 2"), "3 AP, one spent: {snap}");

    // Under standard the setup's AP 3 is an impossible position.
    std::fs::write(
        tmp.path().join("scenarios/three.scn"),
        "# Three AP.\nsetup:\n  turn 1 ATK action 3\n",
    )
    .unwrap();
    let r = ball(&["test", "scenarios/three.scn"], dir, None);
    assert_eq!(r.code, Some(2));

    // A ruleset that does not load fails the scenario at its line.
    std::fs::write(
        tmp.path().join("scenarios/three.scn"),
        "# Nope.\n\nruleset: nope\nsetup:\n",
    )
    .unwrap();
    let r = ball(&["test", "scenarios/three.scn"], dir, None);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stdout
            .contains("scenarios/three.scn:3: ruleset `nope`: no shipped ruleset `nope`"),
        "{}",
        r.stdout
    );
}

#[test]
fn test_without_scenarios_is_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let r = ball(&["test", "."], Some(tmp.path()), None);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.starts_with("error: no scenario files"),
        "{}",
        r.stderr
    );
}

// ------------------------------------------------ Gateball beside BALL

/// `rulesets/` holds Gateball rulesets too: `game_of` tells them apart,
/// and BALL's loader refuses one with a clear line instead of a list of
/// unknown keys.
#[test]
fn gateball_rulesets_are_told_apart() {
    assert_eq!(game_of("standard"), GameKind::Ball);
    assert_eq!(game_of("rulesets/cards.toml"), GameKind::Ball);
    assert_eq!(game_of("no-such-ruleset"), GameKind::Ball);
    for name in ["gateball", "gateball-bonus", "gateball-reuse"] {
        assert_eq!(game_of(name), GameKind::Gateball, "{name}");
        let e = Ruleset::load(name).unwrap_err().to_string();
        assert!(
            e.contains(&format!("`{name}` is a Gateball ruleset")),
            "{e}"
        );
        assert!(!e.contains('\n'), "{e}");
        let p = Ruleset::check(name);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].message.contains("is a Gateball ruleset"), "{p:?}");
    }
    assert_eq!(game_of("rulesets/gateball.toml"), GameKind::Gateball);
    // An explicit `game = "ball"` is a BALL ruleset like any other.
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("explicit.toml");
    std::fs::write(
        &path,
        "name = \"explicit\"\ngame = \"ball\"\nextends = \"standard\"\n",
    )
    .unwrap();
    let shown = path.to_str().unwrap();
    assert_eq!(game_of(shown), GameKind::Ball);
    assert!(
        Ruleset::check(shown).is_empty(),
        "{:?}",
        Ruleset::check(shown)
    );
}

/// `check --json` and `test --json`: the same results as one JSON object,
/// exit 2 on problems, nothing on stderr.
#[test]
fn check_and_test_speak_json() {
    let file = format!("{BAD}/unknown_keys.toml");
    let r = ball(&["check", "--ruleset", &file, "--json"], None, None);
    assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stderr, "");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["checked"], format!("ruleset {file}"));
    let problems = v["problems"].as_array().unwrap();
    assert!(!problems.is_empty());
    assert_eq!(problems[0]["file"], file.as_str());
    assert!(problems[0]["line"].is_u64(), "{}", problems[0]);
    let r = ball(&["check", "--ruleset", "standard", "--json"], None, None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["problems"].clone()),
        (true.into(), serde_json::json!([]))
    );

    let r = ball(&["test", "tests/gateball/scenarios", "--json"], None, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["failed"], 0);
    let rows = v["scenarios"].as_array().unwrap();
    assert_eq!(rows.len() as u64, v["passed"].as_u64().unwrap());
    assert!(rows.iter().all(|r| r["verdict"] == "ok"), "{v}");
}

/// `check --card` never says "no problems" when it could not run the
/// card: a broken `cards` ruleset to check it in is a loud failure.
#[test]
fn check_card_fails_loudly_without_a_ruleset_to_check_in() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join("rulesets")).unwrap();
    std::fs::write(
        home.path().join("rulesets/cards.toml"),
        "name = \"cards\"\nbogus = 1\n",
    )
    .unwrap();
    let card = "cards/magnet.lua";
    let r = ball(&["check", "--card", card], None, Some(home.path()));
    assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("cannot check the card"), "{}", r.stdout);
    let r = ball(&["check", "--card", card], None, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
}

/// Runs the binary with `input` on standard input.
fn ball_stdin(args: &[&str], input: &str) -> Run {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(args)
        .env_remove("BALL_HOME")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `-` reads standard input for a card and a teams file, and is refused
/// in one line for a ruleset (which names files beside it).
#[test]
fn dash_is_standard_input_or_a_clear_refusal() {
    let magnet = std::fs::read_to_string("cards/magnet.lua").unwrap();
    let r = ball_stdin(&["check", "--card", "-"], &magnet);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    let broken = magnet.replace("game.take_ball(piece)", "game.take_bal(piece)");
    let r = ball_stdin(&["check", "--card", "-"], &broken);
    assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.starts_with("<stdin>/magnet.lua:"), "{}", r.stdout);

    let teams = r#"{"RED": [{"number": 1, "stars": "JC"}], "BLU": [{"number": 3, "stars": "C"}]}"#;
    let r = ball_stdin(&["new", "--game", "gball", "--teams", "-"], teams);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("\"RED1\""), "{}", r.stdout);
    assert!(!r.stdout.contains("\"RED2\""), "{}", r.stdout);
    let r = ball_stdin(
        &["new", "--game", "gball", "--teams", "-"],
        "not a teams file",
    );
    assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.starts_with("error: standard input:"),
        "{}",
        r.stderr
    );

    // A ruleset that cannot be named is refused on stderr, not reported.
    for game in ["ball", "gateball", "gball"] {
        let r = ball_stdin(&["check", "--game", game, "--ruleset", "-"], "");
        assert_eq!(r.code, Some(2), "{}{}", r.stdout, r.stderr);
        assert_eq!(r.stdout, "", "{game}");
        assert!(
            r.stderr.contains("not read from standard input"),
            "{game}: {}",
            r.stderr
        );
    }
}

/// Issue 12, item 13: a designer's scenarios keep their snapshots in
/// their own folder (`D/snapshots/`), and `ball test FILE`, `ball test .`
/// and `ball test DIR` all find the same one.
#[test]
fn test_keeps_a_designers_snapshots_in_their_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let mine = tmp.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::copy(
        "tests/scenarios/b3_5_touchdown_reset.scn",
        mine.join("reset.scn"),
    )
    .unwrap();
    let r = ball(&["test", "--accept", "reset.scn"], Some(&mine), None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        mine.join("snapshots/scenarios__check@reset.scn.snap")
            .is_file(),
        "inside the designer's folder"
    );
    assert!(!tmp.path().join("snapshots").exists(), "not beside it");
    for (args, dir) in [
        (vec!["test", "."], &mine),
        (vec!["test", "reset.scn"], &mine),
        (vec!["test", "./reset.scn"], &mine),
        (vec!["test", "mine"], &tmp.path().to_path_buf()),
        (vec!["test", "mine/reset.scn"], &tmp.path().to_path_buf()),
    ] {
        let r = ball(&args, Some(dir), None);
        assert_eq!(r.code, Some(0), "{args:?}: {}{}", r.stdout, r.stderr);
    }
}

/// Issue 12, items 12-13: `check --card` takes a variant as well as a
/// card, and an unknown field in either is reported at its line.
#[test]
fn check_card_takes_variants_and_gives_unknown_fields_a_line() {
    let r = ball(
        &["check", "--card", "scripts/variants/guarded-endzone.lua"],
        None,
        None,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        "script scripts/variants/guarded-endzone.lua: no problems\n"
    );
    let tmp = tempfile::tempdir().unwrap();
    let variant = tmp.path().join("my-rule.lua");
    std::fs::write(
        &variant,
        "return {\n  name = \"my-rule\",\n  on_touchdwon = function(game, team) end,\n}\n",
    )
    .unwrap();
    let card = tmp.path().join("leap.lua");
    std::fs::write(
        &card,
        "return {\n  id = \"leap\", name = \"Leap\", text = \"t\",\n  cost = 1,\n  per_trun = 1,\n  \
args = {},\n  targets = {},\n  resolve = function(game) end,\n}\n",
    )
    .unwrap();
    for (file, line, field, hint) in [
        (&variant, 3, "on_touchdwon", "on_touchdown"),
        (&card, 4, "per_trun", "per_turn"),
    ] {
        let shown = file.to_string_lossy().into_owned();
        let r = ball(&["check", "--card", &shown], None, None);
        assert_eq!(r.code, Some(2), "{}", r.stdout);
        assert!(
            r.stdout.starts_with(&format!(
                "{shown}:{line}: unknown field `{field}` (did you mean `{hint}`?)"
            )),
            "{}",
            r.stdout
        );
    }
    let r = ball(&["check", "--ruleset", "guarded-endzone"], None, None);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
}
