//! Command-line integration tests: the public contract of
//! `docs/rules/ball-notation.md` (`ball new`, `ball legal`, `ball apply`)
//! and the project's extra commands (`show`, `perft`, `selfplay`), driven
//! through the real binary.
//!
//! Bad input (a malformed position, a malformed or illegal action) must exit
//! with status 2, print nothing on standard output and exactly one line on
//! standard error that starts with `error:` and names the field or the action
//! and the rule. The corpus under `tests/malformed/` holds the malformed
//! cases: position files `*.json`, each with a `.expect` sibling (one
//! expected stderr substring a line; `!` in front means "must not contain";
//! `#` starts a comment), and `actions.txt` (format at its top).
//!
//! The last tests feed random and mutated input straight to the library's
//! readers ([`json::read`], [`action::parse`]) and assert they never panic.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use ball::games::ball::action::{self, VERBS};
use ball::games::ball::params::Params;
use ball::games::ball::position::Position;
use ball::games::ball::{Ball, json, show};
use proptest::prelude::*;
use serde_json::Value;

// ---------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------

/// What one run of the binary did.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run_os<S: AsRef<OsStr>>(args: &[S], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ball"));
    cmd.args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("cannot start the ball binary");
    // Feed standard input from a thread so a large input cannot deadlock
    // against a child that writes before it reads (or never reads: a clap
    // error exits at once, and the broken pipe is not our failure).
    let feeder = stdin.map(|input| {
        let mut pipe = child.stdin.take().expect("piped stdin");
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        })
    });
    let out = child
        .wait_with_output()
        .expect("cannot wait for the ball binary");
    if let Some(f) = feeder {
        f.join().expect("stdin feeder");
    }
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `ball ARGS…` with no standard input.
fn ball(args: &[&str]) -> Run {
    run_os(args, None)
}

/// Runs `ball ARGS…` with `input` on standard input.
fn ball_in(args: &[&str], input: &str) -> Run {
    run_os(args, Some(input.as_bytes()))
}

/// Asserts a successful run and returns its standard output. `quiet`: the
/// command writes nothing on standard error when it succeeds.
#[track_caller]
fn ok(run: Run, what: &str, quiet: bool) -> String {
    assert_eq!(
        run.code,
        Some(0),
        "`ball {what}` failed\nstdout: {}\nstderr: {}",
        clip(&run.stdout),
        clip(&run.stderr)
    );
    if quiet {
        assert_eq!(run.stderr, "", "`ball {what}` wrote on stderr");
    }
    run.stdout
}

/// The first 300 characters, for failure messages.
fn clip(s: &str) -> String {
    let n = s.chars().count();
    if n <= 300 {
        s.to_string()
    } else {
        format!(
            "{}… ({n} characters)",
            s.chars().take(300).collect::<String>()
        )
    }
}

/// Everything wrong with `run` as the answer to bad input: exit status 2,
/// empty stdout, exactly one stderr line starting `error:`, no panic, no raw
/// control characters (the line is shown on a terminal), and each expected
/// substring present (or, with a leading `!`, absent).
fn bad_input_problems(run: &Run, expects: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    if run.code != Some(2) {
        problems.push(format!("exit status {:?}, want 2", run.code));
    }
    if !run.stdout.is_empty() {
        problems.push(format!("stdout is not empty: {:?}", clip(&run.stdout)));
    }
    if run.stderr.contains("panicked") {
        problems.push("stderr reports a panic".into());
    }
    let newlines = run.stderr.matches('\n').count();
    if newlines != 1 || !run.stderr.ends_with('\n') {
        problems.push(format!("stderr is {newlines} line(s), want exactly one"));
    }
    if !run.stderr.starts_with("error:") {
        problems.push("stderr does not start with `error:`".into());
    }
    let body = run.stderr.strip_suffix('\n').unwrap_or(&run.stderr);
    if body
        .chars()
        .any(|c| (c.is_control() && c != '\t' && c != '\n') || c == '\u{2028}' || c == '\u{2029}')
    {
        problems.push("stderr echoes raw control characters or line separators".into());
    }
    for e in expects {
        match e.strip_prefix('!') {
            Some(not) if run.stderr.contains(not) => {
                problems.push(format!("stderr contains {not:?}, which it should not"));
            }
            Some(_) => {}
            None if !run.stderr.contains(e) => {
                problems.push(format!("stderr lacks {e:?}"));
            }
            None => {}
        }
    }
    problems
}

/// Asserts `run` is a proper answer to bad input (see [`bad_input_problems`]).
#[track_caller]
fn assert_bad_input(run: &Run, what: &str, expects: &[&str]) {
    let problems = bad_input_problems(run, expects);
    assert!(
        problems.is_empty(),
        "`ball {what}`:\n  - {}\nstderr: {:?}\nstdout: {:?}",
        problems.join("\n  - "),
        clip(&run.stderr),
        clip(&run.stdout)
    );
}

// ---------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------

/// The output of `ball new`.
fn start_json() -> &'static str {
    static START: OnceLock<String> = OnceLock::new();
    START.get_or_init(|| ok(ball(&["new"]), "new", true))
}

/// A file holding `text`, under cargo's scratch directory for tests.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a scratch file");
    path
}

/// The start position as a file.
fn start_file() -> &'static str {
    static FILE: OnceLock<String> = OnceLock::new();
    FILE.get_or_init(|| {
        temp_file("start.json", start_json())
            .to_str()
            .expect("a UTF-8 scratch path")
            .to_string()
    })
}

fn parse_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", clip(text)))
}

/// `ball apply --position - ACTIONS…` from `pos`, which must succeed.
#[track_caller]
fn apply(pos: &str, actions: &[&str]) -> String {
    let mut args = vec!["apply", "--position", "-"];
    args.extend_from_slice(actions);
    ok(ball_in(&args, pos), &args.join(" "), true)
}

/// `ball legal --position -` of `pos`, checked against the canonical form
/// of docs/rules/ball-notation.md (sorted by bytes, no duplicates, one a
/// line) and against `legal --json`.
#[track_caller]
fn legal(pos: &str) -> Vec<String> {
    let text = ok(ball_in(&["legal", "--position", "-"], pos), "legal", true);
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the last line is not terminated"
    );
    let list: Vec<String> = text.lines().map(str::to_string).collect();
    for pair in list.windows(2) {
        assert!(
            pair[0].as_bytes() < pair[1].as_bytes(),
            "not sorted, or a duplicate: {:?} then {:?}",
            pair[0],
            pair[1]
        );
    }
    for a in &list {
        assert!(
            !a.is_empty() && !a.contains("  ") && a.trim() == a,
            "not canonical: {a:?}"
        );
        assert_eq!(
            action::parse(a).map(|x| x.to_string()).as_deref(),
            Ok(a.as_str()),
            "does not parse back to itself"
        );
    }
    let json = ok(
        ball_in(&["legal", "--json", "--position", "-"], pos),
        "legal --json",
        true,
    );
    let from_json: Vec<String> = serde_json::from_str(&json)
        .unwrap_or_else(|e| panic!("`legal --json` is not an array of strings ({e}): {json}"));
    assert_eq!(from_json, list, "`legal --json` differs from `legal`");
    list
}

/// `pos` with some fields replaced.
fn edit(pos: &str, f: impl FnOnce(&mut Value)) -> String {
    let mut v = parse_json(pos);
    f(&mut v);
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

fn piece_mut<'a>(pos: &'a mut Value, id: &str) -> &'a mut Value {
    pos["pieces"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no piece {id}"))
}

/// The piece entries of a position JSON, by id.
fn pieces(pos: &Value) -> Vec<(String, Value)> {
    pos["pieces"]
        .as_array()
        .expect("pieces is an array")
        .iter()
        .map(|p| (p["id"].as_str().unwrap().to_string(), p.clone()))
        .collect()
}

// ---------------------------------------------------------------------------
// new, legal, apply
// ---------------------------------------------------------------------------

/// `ball new` prints the start position of B3.1/B3.2 as JSON, which `legal`
/// and the library reader accept; `legal` without `--position` is the same.
#[test]
fn new_prints_a_position_that_legal_accepts() {
    let start = start_json();
    let v = parse_json(start);
    assert_eq!(v["game"], "ball");
    assert_eq!(v["turn"], 1);
    assert_eq!(v["to_move"], "DEF", "B3.2: DEF takes the first turn");
    assert_eq!(v["phase"], "action");
    assert_eq!(v["ap"], 2);
    assert_eq!(v["ball"]["holder"], "ATK5");
    assert_eq!(v["winner"], Value::Null);
    assert_eq!(v["stacks"], Value::Array(vec![]));
    let ids: Vec<String> = pieces(&v).into_iter().map(|(id, _)| id).collect();
    let want: Vec<String> = ["ATK", "DEF"]
        .iter()
        .flat_map(|t| (1..=7).map(move |n| format!("{t}{n}")))
        .collect();
    assert_eq!(ids, want, "all 14 pieces, sorted by id");
    let pos = json::read(start, &Params::default()).expect("the library reads `ball new`");
    assert_eq!(
        json::write(&pos),
        start,
        "`ball new` is the canonical layout"
    );

    let list = legal(start);
    assert!(
        list.contains(&"end".to_string()),
        "B4.3: `end` is always legal"
    );
    assert!(list.contains(&"move DEF3 G9".to_string()));
    assert!(
        list.iter().all(|a| a == "end" || a.contains(" DEF")),
        "only DEF acts"
    );
    let default = ok(ball(&["legal"]), "legal", true);
    assert_eq!(
        default,
        list.join("\n") + "\n",
        "`legal` defaults to the start"
    );
    let from_file = ok(
        ball(&["legal", "--position", start_file()]),
        "legal --position FILE",
        true,
    );
    assert_eq!(from_file, default);
}

/// The canonical list is sorted and unique and equals `--json` in a spread
/// of positions: start, mid-turn, a release phase, and along a random game.
#[test]
fn legal_is_sorted_unique_and_equals_json() {
    let start = start_json();
    legal(start);
    let mid = apply(start, &["move DEF3 G9"]);
    let list = legal(&mid);
    assert!(list.contains(&"move DEF3 H8".to_string()));
    // Positions along a seeded game, every 25th action.
    let log = selfplay_actions(5);
    let mut i = 0;
    while i < log.len() {
        let prefix: Vec<&str> = log[..i].iter().map(String::as_str).collect();
        let pos = if prefix.is_empty() {
            start.to_string()
        } else {
            apply(start, &prefix)
        };
        let list = legal(&pos);
        assert!(
            list.contains(&log[i]),
            "selfplay played {:?}, which `legal` does not list after {i} actions",
            log[i]
        );
        i += 25;
    }
}

/// In a release phase only the tasks are listed (B10.1, B10.2); the last task
/// passes the turn.
#[test]
fn release_phase_lists_only_tasks() {
    let pos = edit(start_json(), |v| {
        v["phase"] = "release".into();
        v["ap"] = 0.into();
        piece_mut(v, "DEF3")["down"] = true.into();
    });
    let list = legal(&pos);
    assert_eq!(
        list,
        [
            "standup DEF3 H10",
            "standup DEF3 H12",
            "standup DEF3 J10",
            "standup DEF3 J12"
        ]
    );
    let after = parse_json(&apply(&pos, &["standup DEF3 H10"]));
    assert_eq!(after["to_move"], "ATK", "no task left: the turn passes");
    assert_eq!(after["turn"], 2);
    assert_eq!(after["phase"], "action");
    let def3 = pieces(&after)
        .into_iter()
        .find(|(id, _)| id == "DEF3")
        .unwrap()
        .1;
    assert_eq!(def3["at"], "H10");
    assert_eq!(def3["down"], false);
    let run = ball_in(&["apply", "--position", "-", "move DEF1 A11"], &pos);
    assert_bad_input(
        &run,
        "apply move DEF1 A11 (release phase)",
        &["illegal action", "B10.1"],
    );
}

/// Every action `legal` lists from the start is accepted by `apply`.
#[test]
fn every_legal_action_from_the_start_applies() {
    let start = start_json();
    for a in legal(start) {
        let out = apply(start, &[&a]);
        let v = parse_json(&out);
        assert!(
            json::read(&out, &Params::default()).is_ok(),
            "`apply {a}` printed a position the reader refuses"
        );
        if a == "end" {
            assert_eq!(v["to_move"], "ATK");
        } else {
            assert_eq!(v["ap"], 1, "`{a}` costs 1 AP (B4.2)");
        }
    }
}

/// `apply "move DEF3 G9"` moves DEF3 to G9, spends 1 AP, and changes
/// nothing else.
#[test]
fn apply_changes_exactly_the_moved_piece() {
    let start = start_json();
    let run = ball(&["apply", "--position", start_file(), "move DEF3 G9"]);
    let out = ok(run, "apply --position FILE move DEF3 G9", true);
    assert_eq!(out, apply(start, &["move DEF3 G9"]), "file and stdin agree");
    let (before, after) = (parse_json(start), parse_json(&out));
    let (b, a) = (before.as_object().unwrap(), after.as_object().unwrap());
    assert_eq!(
        b.keys().collect::<Vec<_>>(),
        a.keys().collect::<Vec<_>>(),
        "same fields, same order"
    );
    for (key, was) in b {
        match key.as_str() {
            "ap" => assert_eq!((was, &a[key]), (&Value::from(2), &Value::from(1))),
            "pieces" => {
                for ((id, p0), (id1, p1)) in pieces(&before).into_iter().zip(pieces(&after)) {
                    assert_eq!(id, id1);
                    if id == "DEF3" {
                        assert_eq!(p0["at"], "I11");
                        assert_eq!(p1["at"], "G9");
                        let mut p1 = p1.clone();
                        p1["at"] = "I11".into();
                        assert_eq!(p0, p1, "DEF3 changes only its square");
                    } else {
                        assert_eq!(p0, p1, "{id} changed");
                    }
                }
            }
            _ => assert_eq!(was, &a[key], "`{key}` changed"),
        }
    }
    assert_eq!(
        out,
        json::write(&json::read(&out, &Params::default()).unwrap())
    );
}

/// Several actions apply in order, exactly like applying them one by one.
#[test]
fn apply_several_actions_in_order() {
    let start = start_json();
    let actions = ["move DEF3 G9", "move DEF3 H8", "end"];
    let all = apply(start, &actions);
    let mut step = start.to_string();
    for a in actions {
        step = apply(&step, &[a]);
    }
    assert_eq!(all, step, "one call or three give the same position");
    let two = parse_json(&apply(start, &actions[..2]));
    assert_eq!(two["ap"], 0);
    assert_eq!(two["to_move"], "DEF");
    let def3 = pieces(&two)
        .into_iter()
        .find(|(id, _)| id == "DEF3")
        .unwrap()
        .1;
    assert_eq!(def3["at"], "H8");
    let v = parse_json(&all);
    assert_eq!(v["turn"], 2, "B3.3");
    assert_eq!(v["to_move"], "ATK");
    assert_eq!(v["phase"], "action");
    assert_eq!(v["ap"], 2);
    // ATK's reply, from the printed position.
    let reply = parse_json(&apply(&all, &["handoff ATK5 ATK6", "move ATK6 E5"]));
    assert_eq!(reply["ball"]["holder"], "ATK6");
    assert_eq!(reply["ap"], 1, "B4.2: a hand-off costs 0 AP");
}

/// `apply --events` prints `{"position": …, "events": […]}` on stdout, as
/// every game of the binary does: the same position, and each action's
/// line followed by what happened.
#[test]
fn apply_events_as_json() {
    let start = start_json();
    let run = ball_in(
        &[
            "apply",
            "--events",
            "--position",
            "-",
            "move DEF3 G9",
            "end",
        ],
        start,
    );
    let out = ok(run, "apply --events", false);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let plain: serde_json::Value =
        serde_json::from_str(&apply(start, &["move DEF3 G9", "end"])).unwrap();
    assert_eq!(v["position"], plain);
    let events: Vec<&str> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(events[0], "> move DEF3 G9");
    assert!(events.contains(&"> end"), "{events:?}");
    assert!(events.contains(&"turn 2: ATK to play"), "{events:?}");
}

/// Illegal actions: status 2, nothing on stdout, one stderr line naming the
/// action and the rule it breaks.
#[test]
fn illegal_actions_name_the_action_and_the_rule() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["move DEF3 G7"], &["`move DEF3 G7`", "(B5.1)"]),
        (&["move DEF3 I9"], &["`move DEF3 I9`", "B5.1"]),
        (&["move ATK3 H8"], &["`move ATK3 H8`", "(B4.4)"]),
        (&["handoff ATK5 ATK6"], &["`handoff ATK5 ATK6`", "B4.4"]),
        (&["lpass DEF3 G9"], &["`lpass DEF3 G9`", "B8.4"]),
        (&["standup DEF1 B10"], &["`standup DEF1 B10`", "B10.1"]),
        (&["block DEF3 H10"], &["`block DEF3 H10`", "B7.1"]),
        (&["dodge DEF3 G9 F8"], &["`dodge DEF3 G9 F8`", "B5.3"]),
        (&["convert 1"], &["`convert 1`", "B11.4"]),
        (
            &["move DEF3 G9", "move DEF3 H8", "move DEF2 D10"],
            &["action 3 of 3", "`move DEF2 D10`", "B4.2"],
        ),
        (
            &["end", "move DEF3 G9"],
            &["action 2 of 2", "`move DEF3 G9`", "B4.4"],
        ),
        (
            &["move DEF3 G7", "end"],
            &["action 1 of 2", "`move DEF3 G7`", "B5.1"],
        ),
    ];
    for (actions, expects) in cases {
        let mut args = vec!["apply", "--position", start_file()];
        args.extend_from_slice(actions);
        let mut expects = expects.to_vec();
        expects.extend(["illegal action", "!malformed action"]);
        assert_bad_input(&ball(&args), &args.join(" "), &expects);
    }
}

/// Malformed actions say what is malformed and are told apart from illegal
/// ones; the corpus below covers many more.
#[test]
fn malformed_actions_are_not_illegal_actions() {
    let cases: &[(&str, &[&str])] = &[
        ("move DEF3", &["`move DEF3`", "takes 2 arguments"]),
        ("jump DEF3 G9", &["`jump DEF3 G9`", "unknown verb `jump`"]),
        ("move DEF8 G9", &["`DEF8` is not a piece id", "B2.1"]),
        ("move DEF3 Z9", &["`Z9` is not a square", "B1.1"]),
        ("move DEF3 B1", &["`B1` is not a playable square", "B1.2"]),
    ];
    for (action, expects) in cases {
        let args = ["apply", "--position", start_file(), action];
        let mut expects = expects.to_vec();
        expects.extend(["malformed action", "!illegal action"]);
        assert_bad_input(&ball(&args), &args.join(" "), &expects);
    }
    // Well-formed but illegal: the other kind of error.
    let args = ["apply", "--position", start_file(), "move DEF3 G7"];
    assert_bad_input(
        &ball(&args),
        "apply move DEF3 G7",
        &["illegal action", "!malformed"],
    );
}

/// A finished game has no legal actions (docs/rules/ball-notation.md, B3.6).
#[test]
fn finished_game_has_no_legal_actions() {
    let won = edit(start_json(), |v| {
        v["turn"] = 9.into();
        v["score"]["DEF"] = 3.into();
        v["winner"] = "DEF".into();
    });
    assert_eq!(legal(&won), Vec::<String>::new());
    let json = ok(
        ball_in(&["legal", "--json", "--position", "-"], &won),
        "legal --json",
        true,
    );
    assert_eq!(json.trim(), "[]");
    let run = ball_in(&["apply", "--position", "-", "end"], &won);
    assert_bad_input(
        &run,
        "apply end (game over)",
        &["illegal action", "`end`", "B3.6"],
    );
    let perft = ok(
        ball_in(&["perft", "1", "--position", "-"], &won),
        "perft 1",
        false,
    );
    assert_eq!(perft.trim(), "perft(1) = 0");
}

// ---------------------------------------------------------------------------
// Files and usage
// ---------------------------------------------------------------------------

/// Unreadable position files are bad input too, and the message names them.
#[test]
fn unreadable_position_files() {
    let missing = temp_file("placeholder", "").with_file_name("no-such-position.json");
    let missing = missing.to_str().unwrap();
    for cmd in ["legal", "show"] {
        let run = ball(&[cmd, "--position", missing]);
        assert_bad_input(&run, cmd, &["no-such-position.json", "cannot read"]);
    }
    let run = ball(&["apply", "--position", missing, "end"]);
    assert_bad_input(&run, "apply", &["no-such-position.json"]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).to_str().unwrap();
    let run = ball(&["legal", "--position", dir]);
    assert_bad_input(&run, "legal --position DIR", &["cannot read"]);
}

/// Clap's usage errors (no action, an unknown subcommand or flag, a bad
/// number, no command at all) exit 2 with one line on stderr and nothing
/// on stdout, as every other refusal.
#[test]
fn usage_errors_exit_2_without_stdout() {
    let cases: &[&[&str]] = &[
        &["apply", "--position", "-"],
        &["frobnicate"],
        &["legal", "--bogus"],
        &["perft", "abc"],
        &["perft"],
        &["selfplay", "--seed", "-1"],
        &[],
    ];
    for args in cases {
        let run = ball_in(args, start_json());
        assert_eq!(run.code, Some(2), "`ball {}`: {run:?}", args.join(" "));
        assert_eq!(run.stdout, "", "`ball {}`", args.join(" "));
        // Clap's refusals too are one line, naming where the usage is.
        assert!(run.stderr.starts_with("error:"), "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(
            run.stderr.contains("--help` shows the usage"),
            "{}",
            run.stderr
        );
    }
}

/// `--help` of the binary and of each subcommand exits 0.
#[test]
fn help_of_every_subcommand() {
    for sub in ["new", "legal", "apply", "show", "perft", "selfplay"] {
        let text = ok(ball(&[sub, "--help"]), &format!("{sub} --help"), true);
        assert!(
            text.contains(&format!("Usage: ball {sub}")),
            "`ball {sub} --help`: {text}"
        );
        let again = ok(ball(&["help", sub]), &format!("help {sub}"), true);
        assert_eq!(again, text);
    }
    let text = ok(ball(&["--help"]), "--help", true);
    for sub in ["new", "legal", "apply", "show", "perft", "selfplay"] {
        assert!(text.contains(sub), "`ball --help` does not list {sub}");
    }
    let version = ok(ball(&["--version"]), "--version", true);
    assert!(version.starts_with("ball "), "{version}");
}

// ---------------------------------------------------------------------------
// show, perft, selfplay
// ---------------------------------------------------------------------------

/// The board rows of a `show` drawing: (row number, text after it).
fn board_rows(text: &str) -> Vec<(u8, String)> {
    text.lines()
        .filter_map(|l| {
            let n = l.get(..2)?.trim().parse::<u8>().ok()?;
            Some((n, l[2..].to_string()))
        })
        .collect()
}

/// The label drawn on a square: column letter's cell of its row.
fn cell(text: &str, sq: &str) -> String {
    let col = (sq.as_bytes()[0] - b'A') as usize;
    let row: u8 = sq[1..].parse().unwrap();
    let (_, line) = board_rows(text)
        .into_iter()
        .find(|(n, _)| *n == row)
        .unwrap_or_else(|| panic!("no row {row}"));
    // "NN" then two spaces, then 5 columns a square.
    line.chars()
        .skip(2 + col * 5)
        .take(5)
        .collect::<String>()
        .trim()
        .to_string()
}

/// `show` draws 17 rows, 17 on top, between two column headers.
#[test]
fn show_draws_a_17_row_board() {
    let start = start_json();
    let text = ok(ball(&["show"]), "show", true);
    let rows: Vec<u8> = board_rows(&text).into_iter().map(|(n, _)| n).collect();
    assert_eq!(rows, (1..=17).rev().collect::<Vec<u8>>(), "\n{text}");
    let header = "    A    B    C    D    E    F    G    H    I    J    K    L    M";
    assert_eq!(text.lines().filter(|l| *l == header).count(), 2, "\n{text}");
    assert_eq!(text.lines().nth(1), Some(header));
    assert!(text.starts_with("    rows 16-17: DEF's end zone, where ATK scores\n"));
    assert!(
        text.contains("turn 1 | DEF to play | action phase | AP 2"),
        "\n{text}"
    );
    assert!(text.contains("ball: held by ATK5 on G5"));
    assert_eq!(cell(&text, "I11"), "D3X");
    assert_eq!(cell(&text, "G5"), "A5X*");
    assert_eq!(cell(&text, "G9"), ".");
    let piped = ok(
        ball_in(&["show", "--position", "-"], start),
        "show --position -",
        true,
    );
    assert_eq!(piped, text);
    let moved = apply(start, &["move DEF3 G9"]);
    let text = ok(ball_in(&["show", "--position", "-"], &moved), "show", true);
    assert_eq!(cell(&text, "G9"), "D3X");
    assert_eq!(cell(&text, "I11"), ".");
    assert!(text.contains("AP 1"));
}

/// A stack whose top holds the ball is drawn in full: the top with its `*`
/// and the bottom with its kind (the legend's `D3X/a2O`).
#[test]
fn show_draws_a_stack_with_the_ball_in_full() {
    let pos = edit(start_json(), |v| {
        piece_mut(v, "DEF3")["at"] = "H8".into();
        piece_mut(v, "ATK3")["at"] = "H8".into();
        v["stacks"] = serde_json::json!([
            {"at": "H8", "top": "DEF3", "bottom": "ATK3", "formed": 1}
        ]);
        v["ball"] = serde_json::json!({"holder": "DEF3"});
    });
    let text = ok(ball_in(&["show", "--position", "-"], &pos), "show", true);
    assert!(text.contains("stack on H8: DEF3 on ATK3 (block, formed turn 1)"));
    let (_, row8) = board_rows(&text)
        .into_iter()
        .find(|(n, _)| *n == 8)
        .unwrap();
    assert!(
        row8.contains("D3X*") && row8.contains("A3X"),
        "the stack on H8 is cut short:\n 8{row8}"
    );
}

/// Parses `perft` output: the divide lines and the total.
fn perft_output(text: &str, depth: u32) -> (Vec<(String, u64)>, u64) {
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().expect("perft prints a total");
    let total = last
        .strip_prefix(&format!("perft({depth}) = "))
        .unwrap_or_else(|| panic!("bad total line {last:?}"))
        .parse()
        .expect("a count");
    let rows = lines
        .iter()
        .map(|l| {
            let (a, n) = l
                .rsplit_once(": ")
                .unwrap_or_else(|| panic!("bad line {l:?}"));
            (a.to_string(), n.parse().expect("a count"))
        })
        .collect();
    (rows, total)
}

/// perft 1 counts the legal list; perft 2 --divide splits perft 2 by first
/// action, its lines sum to the total, and each line is perft 1 of the
/// position after that action.
#[test]
fn perft_totals_are_consistent() {
    let start = start_json();
    let list = legal(start);
    let (rows, p1) = perft_output(&ok(ball(&["perft", "1"]), "perft 1", false), 1);
    assert!(rows.is_empty());
    assert_eq!(p1, list.len() as u64);
    let (rows, p0) = perft_output(&ok(ball(&["perft", "0"]), "perft 0", false), 0);
    assert!(rows.is_empty());
    assert_eq!(p0, 1, "perft 0 is the position itself");

    let text = ok(ball(&["perft", "2", "--divide"]), "perft 2 --divide", false);
    let (rows, total) = perft_output(&text, 2);
    assert_eq!(
        rows.iter().map(|(_, n)| n).sum::<u64>(),
        total,
        "divide lines sum to the total"
    );
    let actions: Vec<String> = rows.iter().map(|(a, _)| a.clone()).collect();
    assert_eq!(
        actions, list,
        "one divide line per legal action, in canonical order"
    );
    let (_, plain) = perft_output(&ok(ball(&["perft", "2"]), "perft 2", false), 2);
    assert_eq!(plain, total);
    for (a, n) in rows
        .iter()
        .filter(|(a, _)| a == "end" || a.starts_with("move DEF3"))
    {
        let after = apply(start, &[a]);
        assert_eq!(*n, legal(&after).len() as u64, "divide line of `{a}`");
    }
    let from_stdin = ok(
        ball_in(&["perft", "2", "--divide", "--position", "-"], start),
        "perft 2 --divide --position -",
        false,
    );
    assert_eq!(from_stdin, text);
}

/// `perft 0` is 1 (the position itself); `perft 0 --divide` may refuse
/// depth 0 but must not report another total.
#[test]
fn perft_divide_at_depth_0() {
    let run = ball(&["perft", "0", "--divide"]);
    if run.code == Some(0) {
        let (_, total) = perft_output(&run.stdout, 0);
        assert_eq!(total, 1, "`perft 0 --divide` disagrees with `perft 0`");
    } else {
        assert_bad_input(&run, "perft 0 --divide", &["at least 1"]);
    }
    let text = ok(ball(&["perft", "1", "--divide"]), "perft 1 --divide", false);
    let (rows, total) = perft_output(&text, 1);
    assert!(rows.iter().all(|(_, n)| *n == 1));
    assert_eq!(rows.len() as u64, total);
}

/// The actions of `selfplay --seed SEED`, from its log lines
/// (`TURN TEAM ACTION`).
fn selfplay_actions(seed: u64) -> Vec<String> {
    let text = ok(
        ball(&["selfplay", "--seed", &seed.to_string()]),
        "selfplay",
        true,
    );
    parse_selfplay(&text).0
}

/// The actions and the final board of a selfplay transcript.
fn parse_selfplay(text: &str) -> (Vec<String>, String) {
    let (log, board) = text
        .split_once("\n\n")
        .expect("a blank line before the board");
    let mut actions = Vec::new();
    let mut count = None;
    for line in log.lines() {
        let n = line
            .strip_prefix("# ")
            .and_then(|l| l.strip_suffix(" actions"));
        if let Some(n) = n.and_then(|n| n.parse::<usize>().ok()) {
            count = Some(n);
            continue;
        }
        if line.starts_with('#') || line.starts_with("        ") {
            continue; // header, or an event
        }
        let mut words = line.split_whitespace();
        let turn = words.next().and_then(|w| w.parse::<u16>().ok());
        let team = words.next();
        assert!(
            turn.is_some() && matches!(team, Some("ATK" | "DEF")),
            "bad log line {line:?}"
        );
        actions.push(words.collect::<Vec<_>>().join(" "));
    }
    assert_eq!(
        count,
        Some(actions.len()),
        "the `# N actions` line counts the log"
    );
    (actions, board.to_string())
}

/// Same seed, same bytes; another seed, another game.
#[test]
fn selfplay_is_deterministic() {
    let a = ok(
        ball(&["selfplay", "--seed", "3"]),
        "selfplay --seed 3",
        true,
    );
    let b = ok(
        ball(&["selfplay", "--seed", "3"]),
        "selfplay --seed 3",
        true,
    );
    assert_eq!(a, b, "same seed, same output");
    let c = ok(
        ball(&["selfplay", "--seed", "4"]),
        "selfplay --seed 4",
        true,
    );
    assert_ne!(
        parse_selfplay(&a).0,
        parse_selfplay(&c).0,
        "another seed, another game"
    );
    let zero = ok(ball(&["selfplay"]), "selfplay", true);
    let seed0 = ok(
        ball(&["selfplay", "--seed", "0"]),
        "selfplay --seed 0",
        true,
    );
    assert_eq!(zero.replace("--seed 0", ""), seed0.replace("--seed 0", ""));
    let e1 = ok(
        ball(&["selfplay", "--seed", "3", "--events"]),
        "selfplay --events",
        true,
    );
    let e2 = ok(
        ball(&["selfplay", "--seed", "3", "--events"]),
        "selfplay --events",
        true,
    );
    assert_eq!(e1, e2);
    assert_eq!(
        parse_selfplay(&e1).0,
        parse_selfplay(&a).0,
        "--events plays the same game"
    );
}

/// A selfplay game replays through `apply` to the same final board, and
/// that finished position has no legal actions.
#[test]
fn selfplay_replays_through_apply() {
    let text = ok(
        ball(&["selfplay", "--seed", "3"]),
        "selfplay --seed 3",
        true,
    );
    let (actions, board) = parse_selfplay(&text);
    assert!(actions.len() > 20);
    let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
    let end = apply(start_json(), &refs);
    let v = parse_json(&end);
    assert_ne!(v["winner"], Value::Null, "selfplay plays to the end");
    assert_eq!(
        legal(&end),
        Vec::<String>::new(),
        "B3.6: no actions after the end"
    );
    let shown = ok(ball_in(&["show", "--position", "-"], &end), "show", true);
    assert_eq!(
        shown, board,
        "`show` of the replayed game is selfplay's board"
    );
}

// ---------------------------------------------------------------------------
// The malformed corpus
// ---------------------------------------------------------------------------

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed")
}

/// The expectations of a `.expect` file: one a line, `#` comments skipped.
fn read_expect(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// One command of the position corpus: arguments, standard input, and the
/// expected stderr substrings.
type CorpusRun<'a> = (&'a [&'a str], Option<&'a [u8]>, &'a [&'a str]);

/// Every `tests/malformed/*.json` is refused by every command that reads a
/// position, read from the file and from standard input.
#[test]
fn malformed_position_corpus() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/malformed")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension() == Some(OsStr::new("json")))
        .collect();
    files.sort();
    assert!(files.len() >= 100, "the corpus is {} files", files.len());
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_str().unwrap();
        let expect_path = file.with_extension("expect");
        if !expect_path.exists() {
            failures.push(format!("{name}: no {}", expect_path.display()));
            continue;
        }
        let expects = read_expect(&expect_path);
        if expects.is_empty() {
            failures.push(format!("{name}: empty .expect"));
        }
        let bytes = std::fs::read(file).unwrap();
        let path = file.to_str().unwrap();
        let mut with_name: Vec<&str> = expects.iter().map(String::as_str).collect();
        with_name.push(name);
        let stdin_expects: Vec<&str> = expects.iter().map(String::as_str).collect();
        let runs: [CorpusRun; 5] = [
            (&["legal", "--position", path], None, &with_name),
            (
                &["legal", "--json", "--position", "-"],
                Some(&bytes),
                &stdin_expects,
            ),
            (&["apply", "--position", path, "end"], None, &with_name),
            (&["show", "--position", path], None, &with_name),
            (&["perft", "1", "--position", path], None, &with_name),
        ];
        for (args, stdin, expects) in runs {
            let run = run_os(args, stdin);
            let problems = bad_input_problems(&run, expects);
            if !problems.is_empty() {
                failures.push(format!(
                    "{name}: `ball {}`{}:\n      - {}\n      stderr: {:?}",
                    args[..args.len().min(2)].join(" "),
                    if stdin.is_some() { " < file" } else { "" },
                    problems.join("\n      - "),
                    clip(&run.stderr)
                ));
                break; // one failing command a case is enough to read
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} malformed positions are not refused properly:\n  {}",
        failures.len(),
        files.len(),
        failures.join("\n  ")
    );
}

/// Undoes the escapes of `actions.txt`: `\t \n \r \e \\ \u{HEX}`.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('e') => out.push('\u{1b}'),
            Some('\\') => out.push('\\'),
            Some('u') => {
                assert_eq!(chars.next(), Some('{'), "bad \\u escape in {s:?}");
                let hex: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let n = u32::from_str_radix(&hex, 16).expect("hex");
                out.push(char::from_u32(n).expect("a char"));
            }
            other => panic!("bad escape \\{other:?} in {s:?}"),
        }
    }
    out
}

/// The cases of `tests/malformed/actions.txt`: (action, expectations).
fn action_corpus() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(corpus_dir().join("actions.txt")).expect("actions.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(" | ");
            let action = unescape(parts.next().unwrap());
            let expects: Vec<String> = parts.map(str::to_string).collect();
            assert!(!expects.is_empty(), "actions.txt: no expectation on {l:?}");
            (action, expects)
        })
        .collect()
}

/// Every malformed action of `actions.txt`, alone and after a legal one, is
/// refused as *malformed* (not illegal) with the expected reason.
#[test]
fn malformed_action_corpus() {
    let cases = action_corpus();
    assert!(cases.len() >= 80, "the corpus is {} actions", cases.len());
    let mut failures = Vec::new();
    for (action, expects) in &cases {
        let mut expects: Vec<&str> = expects.iter().map(String::as_str).collect();
        expects.extend(["malformed action", "!illegal action"]);
        // Short, printable actions are quoted verbatim.
        let quoted = format!("`{action}`");
        if action.chars().count() <= 200 && !action.chars().any(char::is_control) {
            expects.push(&quoted);
        }
        let alone = ["apply", "--position", start_file(), action.as_str()];
        let second = [
            "apply",
            "--position",
            start_file(),
            "move DEF3 G9",
            action.as_str(),
        ];
        let mut expects2 = expects.clone();
        expects2.push("action 2 of 2");
        for (args, expects) in [(&alone[..], &expects), (&second[..], &expects2)] {
            let run = ball(args);
            let problems = bad_input_problems(&run, expects);
            if !problems.is_empty() {
                failures.push(format!(
                    "{:?}{}:\n      - {}\n      stderr: {:?}",
                    clip(action),
                    if args.len() == 5 {
                        " (as action 2 of 2)"
                    } else {
                        ""
                    },
                    problems.join("\n      - "),
                    clip(&run.stderr)
                ));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} malformed actions are not refused properly:\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
}

/// A very long action is still one line of error.
#[test]
fn very_long_action() {
    let long = format!("move DEF3 {}", "G9".repeat(50_000));
    let run = ball(&["apply", "--position", start_file(), &long]);
    assert_bad_input(
        &run,
        "apply <100 kB action>",
        &["malformed action", "is not a square"],
    );
}

/// An action argument that is not UTF-8 is a malformed action: one line.
#[cfg(unix)]
#[test]
fn non_utf8_action_is_one_line() {
    use std::os::unix::ffi::OsStrExt;
    let args: [&OsStr; 4] = [
        OsStr::new("apply"),
        OsStr::new("--position"),
        OsStr::new(start_file()),
        OsStr::from_bytes(b"move \xff\xfe G9"),
    ];
    let run = run_os(&args, None);
    assert_bad_input(&run, "apply <non-UTF-8 action>", &["malformed action"]);
}

// ---------------------------------------------------------------------------
// In-process fuzzing: the readers never panic
// ---------------------------------------------------------------------------

fn fuzz_config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A position reached by playing `choices` (indices into the legal list)
/// from the start, as JSON.
fn played_position(choices: &[usize]) -> String {
    let game = Ball::default();
    let mut pos = Position::start(&game.params);
    for &c in choices {
        let legal = game.legal(&pos);
        if legal.is_empty() {
            break;
        }
        game.play(&mut pos, legal[c % legal.len()], &mut ())
            .expect("a listed action is legal");
    }
    json::write(&pos)
}

/// Everything the CLI does with a position the reader accepted: list,
/// draw, write back, and play each legal action. None of it may panic,
/// every listed action must be playable, and each result must read back.
fn exercise(pos: &Position) {
    let game = Ball::default();
    let text = json::write(pos);
    assert_eq!(
        json::read(&text, &game.params).as_ref(),
        Ok(pos),
        "an accepted position round-trips"
    );
    let _ = show::render(pos, &game.params);
    let listed = game.canonical_legal(pos);
    for a in game.legal(pos) {
        let mut p = *pos;
        let played = game.play(&mut p, a, &mut ());
        assert!(
            played.is_ok(),
            "listed `{a}` is refused: {played:?}\n{text}"
        );
        // What `apply` prints, `apply` reads back.
        let after = json::write(&p);
        assert_eq!(
            json::read(&after, &game.params).as_ref(),
            Ok(&p),
            "after `{a}` from\n{text}"
        );
    }
    for a in &listed {
        assert!(action::parse(a).is_ok());
    }
}

/// Values a structural mutation drops into a position.
fn pool() -> Vec<Value> {
    serde_json::from_str(
        r##"[null, true, false, 0, 1, 2, 3, 7, 60, 61, -1, 1.5, 18446744073709551615,
            "", "G9", "H8", "I11", "B1", "Z9", "g9", "ATK5", "DEF3", "ATK8", "DEF",
            "ATK", "draw", "action", "release", "X", "O", "#", "ÅTK1", [], {},
            {"holder": "DEF3"}, {"loose": "G9"}, {"loose": "I11"},
            {"at": "H8", "top": "DEF3", "bottom": "ATK3", "formed": 1},
            {"id": "ATK1", "kind": "#", "at": "C7", "down": false, "restricted": false}]"##,
    )
    .unwrap()
}

/// Replaces (or, with `None`, removes) the `pick`-th node of `v` in a
/// depth-first walk.
fn mutate(v: &mut Value, pick: &mut usize, with: Option<&Value>) -> bool {
    let children: Vec<String> = match v {
        Value::Object(o) => o.keys().cloned().collect(),
        Value::Array(a) => (0..a.len()).map(|i| i.to_string()).collect(),
        _ => return false,
    };
    for key in children {
        if *pick == 0 {
            match (&mut *v, with) {
                (Value::Object(o), Some(w)) => {
                    o.insert(key, w.clone());
                }
                (Value::Object(o), None) => {
                    o.remove(&key);
                }
                (Value::Array(a), Some(w)) => a[key.parse::<usize>().unwrap()] = w.clone(),
                (Value::Array(a), None) => {
                    a.remove(key.parse::<usize>().unwrap());
                }
                _ => unreachable!(),
            }
            return true;
        }
        *pick -= 1;
        let child = match v {
            Value::Object(o) => o.get_mut(&key).unwrap(),
            Value::Array(a) => &mut a[key.parse::<usize>().unwrap()],
            _ => unreachable!(),
        };
        if mutate(child, pick, with) {
            return true;
        }
    }
    false
}

proptest! {
    #![proptest_config(fuzz_config(2000))]

    /// Arbitrary text and bytes: refused or accepted, never a panic.
    #[test]
    fn json_read_never_panics_on_random_text(
        text in any::<String>(),
        bytes in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        let params = Params::default();
        let _ = json::read(&text, &params);
        let _ = json::read(&String::from_utf8_lossy(&bytes), &params);
    }

    /// Byte-level edits of real positions (start and mid-game).
    #[test]
    fn json_read_never_panics_on_mutated_positions(
        choices in prop::collection::vec(any::<usize>(), 0..60),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<u8>()), 1..6),
    ) {
        let mut bytes = played_position(&choices).into_bytes();
        for (at, op, b) in edits {
            if bytes.is_empty() {
                break;
            }
            let i = at.index(bytes.len());
            match op {
                0 => bytes[i] = b,
                1 => bytes.insert(i, b),
                _ => {
                    bytes.remove(i);
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        match json::read(&text, &Params::default()) {
            Ok(pos) => exercise(&pos),
            Err(e) => prop_assert!(e.to_string().starts_with("malformed position: `")),
        }
    }
}

proptest! {
    #![proptest_config(fuzz_config(1500))]

    /// Field-level edits of real positions: plausible JSON with wrong
    /// values, missing fields and swapped entries.
    #[test]
    fn json_read_never_panics_on_structural_mutations(
        choices in prop::collection::vec(any::<usize>(), 0..80),
        edits in prop::collection::vec((0usize..200, any::<prop::sample::Index>(), any::<bool>()), 1..4),
    ) {
        let mut v: Value = serde_json::from_str(&played_position(&choices)).unwrap();
        let pool = pool();
        for (node, value, remove) in edits {
            let with = if remove { None } else { Some(&pool[value.index(pool.len())]) };
            let mut pick = node;
            mutate(&mut v, &mut pick, with);
        }
        let text = serde_json::to_string_pretty(&v).unwrap();
        match json::read(&text, &Params::default()) {
            Ok(pos) => exercise(&pos),
            Err(e) => prop_assert!(e.to_string().starts_with("malformed position: `")),
        }
    }
}

/// Token soup for the action parser: real verbs, ids and squares mixed with
/// junk, joined by assorted whitespace.
fn action_text() -> impl Strategy<Value = String> {
    let verb = prop_oneof![
        prop::sample::select(VERBS.iter().map(|(v, _)| v.to_string()).collect::<Vec<_>>()),
        "[a-zA-Z]{0,8}",
        any::<String>(),
    ];
    let token = prop_oneof![
        prop::sample::select(
            [
                "ATK1", "ATK5", "DEF3", "def7", "ATK8", "DEF0", "G9", "g9", "B1", "Z9", "A0",
                "M17", "A18", "G09", "keep", "KEEP", "0", "1", "2", "255", "256", "-1", "+1", "",
            ]
            .map(String::from)
            .to_vec()
        ),
        "[A-Z]{1,3}[0-9]{1,3}",
        any::<String>(),
    ];
    let sep = prop::sample::select(vec![" ", "  ", "\t", "\n", "\u{a0}", "\r\n", ""]);
    (verb, prop::collection::vec((sep, token), 0..7)).prop_map(|(v, rest)| {
        let mut s = v;
        for (sep, t) in rest {
            s.push_str(sep);
            s.push_str(&t);
        }
        s
    })
}

proptest! {
    #![proptest_config(fuzz_config(4000))]

    /// The action parser never panics; what it accepts prints canonically
    /// and parses back to itself; what it refuses it calls malformed.
    #[test]
    fn action_parse_never_panics(text in action_text(), raw in any::<String>()) {
        for t in [&text, &raw] {
            match action::parse(t) {
                Ok(a) => {
                    let printed = a.to_string();
                    prop_assert_eq!(action::parse(&printed), Ok(a));
                    prop_assert!(!printed.contains("  ") && printed.trim() == printed);
                }
                Err(e) => prop_assert!(e.to_string().starts_with("malformed action `")),
            }
        }
    }
}
