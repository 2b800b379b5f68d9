//! Issue 28: every command composes in a pipeline. `-` is standard input
//! for every file a command reads (the list of file arguments is clap's
//! own command tree, so a new one cannot be forgotten), `--json` where a
//! script reads the output, every refusal one line (clap's included), no
//! option taken and ignored, one start section a scenario, and no
//! grammar slips in the words refusals are made of.

use std::collections::BTreeSet;
use std::path::Path;

use ball::cli::Cli;
use clap::CommandFactory;
use serde_json::Value;

use crate::cli_support::{ball, ok, refused};

/// Not a valid file of any kind: each reader refuses it, naming where it
/// came from.
const GARBAGE: &str = "{ this is not a file of any kind\n";

/// Whether an argument names a file: its value name says FILE, PATH or
/// JSON.
fn names_file(arg: &clap::Arg) -> bool {
    arg.get_action().takes_values()
        && arg.get_value_names().is_some_and(|v| {
            v.iter()
                .any(|n| n.contains("FILE") || n.contains("PATH") || *n == "JSON")
        })
}

/// `--court`, or `<FILE>` for a positional argument.
fn arg_name(arg: &clap::Arg) -> String {
    match arg.get_long() {
        Some(l) => format!("--{l}"),
        None => format!("<{}>", arg.get_value_names().unwrap()[0]),
    }
}

/// Every file argument of the binary, as `SUBCOMMAND ARG` (`- ARG` for a
/// global one), from clap's command tree.
fn file_args() -> BTreeSet<String> {
    let cmd = Cli::command();
    let mut found: BTreeSet<String> = cmd
        .get_arguments()
        .filter(|a| names_file(a))
        .map(|a| format!("- {}", arg_name(a)))
        .collect();
    subcommand_file_args(&cmd, "", &mut found);
    found
}

/// The file arguments of `cmd`'s subcommands, at any depth (`league new
/// <PATH>`).
fn subcommand_file_args(cmd: &clap::Command, prefix: &str, found: &mut BTreeSet<String>) {
    for sub in cmd.get_subcommands() {
        let name = format!("{prefix}{}", sub.get_name());
        for a in sub.get_arguments().filter(|a| names_file(a)) {
            found.insert(format!("{name} {}", arg_name(a)));
        }
        subcommand_file_args(sub, &format!("{name} "), found);
    }
}

/// Each file argument that is read, and a command line giving it `-`.
const READS: &[(&str, &[&str])] = &[
    (
        "new --court",
        &["new", "--game", "gateball", "--court", "-"],
    ),
    (
        "new --setup",
        &["new", "--game", "gateball", "--setup", "-"],
    ),
    ("new --teams", &["new", "--game", "gball", "--teams", "-"]),
    (
        "selfplay --court",
        &["selfplay", "--game", "gateball", "--court", "-"],
    ),
    (
        "selfplay --setup",
        &["selfplay", "--game", "gateball", "--setup", "-"],
    ),
    (
        "selfplay --teams",
        &["selfplay", "--game", "gball", "--teams", "-"],
    ),
    (
        "play --court",
        &["play", "--game", "gateball", "--court", "-"],
    ),
    (
        "play --setup",
        &["play", "--game", "gateball", "--setup", "-"],
    ),
    ("play --teams", &["play", "--game", "gball", "--teams", "-"]),
    ("play --load", &["play", "--load", "-"]),
    (
        "sim --court",
        &["sim", "--game", "gateball", "--games", "2", "--court", "-"],
    ),
    (
        "sim --setup",
        &["sim", "--game", "gateball", "--games", "2", "--setup", "-"],
    ),
    (
        "sim --teams",
        &["sim", "--game", "gball", "--games", "2", "--teams", "-"],
    ),
    ("legal --position", &["legal", "--position", "-"]),
    ("apply --position", &["apply", "--position", "-", "end"]),
    ("show --position", &["show", "--position", "-"]),
    ("perft --position", &["perft", "1", "--position", "-"]),
    ("replay <FILE>", &["replay", "-"]),
    ("merge <FILE.jsonl>", &["merge", "-"]),
    ("check --card", &["check", "--card", "-"]),
    ("test <PATH>", &["test", "-"]),
    (
        "league import <JSON>",
        &["league", "import", "-", "cli-pipeline-never-made.league"],
    ),
];

/// The league's database files: opened in place (SQLite), so `-` is
/// refused, never made as a file named `-`.
const STORES: &[(&str, &[&str])] = &[
    ("league new <PATH>", &["league", "new", "-", "--teams", "2"]),
    ("league play <PATH>", &["league", "play", "-"]),
    ("league table <PATH>", &["league", "table", "-"]),
    ("league export <PATH>", &["league", "export", "-"]),
    ("league import <PATH>", &["league", "import", "EXPORT", "-"]),
    ("league record <PATH>", &["league", "record", "-", "1"]),
    ("serve --db", &["serve", "--port", "0", "--db", "-"]),
];

/// Each file argument that is written: `-` is refused (standard output
/// has the command's report), never taken for a file named `-`.
const WRITES: &[(&str, &[&str])] = &[
    ("sim --out", &["sim", "--games", "2", "--out", "-"]),
    ("sim --plot", &["sim", "--games", "2", "--plot", "-"]),
    (
        "compare --plot",
        &[
            "compare", "standard", "standard", "--games", "2", "--plot", "-",
        ],
    ),
    ("merge --plot", &["merge", "MERGE_INPUT", "--plot", "-"]),
    (
        "league table --plot",
        &["league", "table", "LEAGUE", "--plot", "-"],
    ),
];

/// The global `--ruleset`: a ruleset names files beside it, so `-` is
/// refused with that reason (docs/rulesets.md).
const RULESET: (&str, &[&str]) = ("- --ruleset", &["--ruleset", "-", "new"]);

/// A `ball sim --out` file of two games, made once.
fn sim_out() -> &'static Path {
    static FILE: std::sync::OnceLock<tempfile::TempPath> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let path = tempfile::Builder::new()
            .suffix(".jsonl")
            .tempfile()
            .unwrap()
            .into_temp_path();
        let p = path.to_str().unwrap();
        ok(&["sim", "--games", "2", "--seed", "5", "--out", p], None);
        path
    })
}

/// Every file argument clap knows is in READS, WRITES or is the ruleset:
/// a new one fails here until it reads `-` and is listed.
#[test]
fn every_file_argument_is_listed() {
    let listed: BTreeSet<String> = READS
        .iter()
        .chain(WRITES)
        .chain(STORES)
        .chain([&RULESET])
        .map(|(k, _)| k.to_string())
        .collect();
    let found = file_args();
    let unlisted: Vec<&String> = found.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "file arguments not tested with `-` (add them to READS or WRITES): {unlisted:?}"
    );
    let gone: Vec<&String> = listed.difference(&found).collect();
    assert!(gone.is_empty(), "listed but not in the binary: {gone:?}");
}

/// `-` reads standard input for every file argument that is read: given
/// something that is no file of any kind, each refuses it and names
/// standard input as where it came from.
#[test]
fn every_file_argument_reads_standard_input() {
    for (what, args) in READS {
        let r = ball(args, Some(GARBAGE));
        assert_eq!(r.code, Some(2), "{what}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains("standard input") || r.stderr.contains("standard input"),
            "{what}: the refusal does not name standard input: {}{}",
            r.stdout,
            r.stderr
        );
        assert!(!r.stderr.contains("not found"), "{what}: {}", r.stderr);
    }
    assert!(!Path::new("cli-pipeline-never-made.league").exists());
}

#[test]
fn dash_is_refused_for_outputs_and_rulesets() {
    let input = sim_out().to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let league = dir.path().join("l.league");
    let league = league.to_str().unwrap();
    ok(&["league", "new", league, "--teams", "2"], None);
    for (what, args) in WRITES {
        let args: Vec<&str> = args
            .iter()
            .map(|a| match *a {
                "MERGE_INPUT" => input,
                "LEAGUE" => league,
                a => a,
            })
            .collect();
        let e = refused(&args, None);
        assert!(
            e.contains("not an output") || e.contains("not a file to write"),
            "{what}: {e}"
        );
    }
    let export = dir.path().join("l.json");
    std::fs::write(&export, ok(&["league", "export", league], None)).unwrap();
    for (what, args) in STORES {
        let args: Vec<&str> = args
            .iter()
            .map(|a| match *a {
                "EXPORT" => export.to_str().unwrap(),
                a => a,
            })
            .collect();
        let e = refused(&args, None);
        assert!(e.contains("database file opened in place"), "{what}: {e}");
    }
    assert!(!Path::new("-").exists(), "a file named `-` was written");
    let e = refused(RULESET.1, None);
    assert!(e.contains("standard input"), "{e}");
}

/// Standard input can be read once: two `-` are refused before either.
#[test]
fn standard_input_is_read_once() {
    for args in [
        &["new", "--game", "gateball", "--court", "-", "--setup", "-"][..],
        &["merge", "-", "-"],
        &["--ruleset", "-", "legal", "--position", "-"],
    ] {
        let e = refused(args, Some(""));
        assert!(e.contains("more than one file"), "{args:?}: {e}");
    }
}

#[test]
fn files_from_standard_input_are_the_files() {
    // A court.
    let court = std::fs::read_to_string("courts/narrow.toml").unwrap();
    let from_file = ok(
        &["new", "--game", "gateball", "--court", "courts/narrow.toml"],
        None,
    );
    let from_stdin = ok(&["new", "--game", "gateball", "--court", "-"], Some(&court));
    assert_eq!(from_stdin, from_file);
    // A setup.
    let setup = std::fs::read_to_string("setups/club.toml").unwrap();
    assert_eq!(
        ok(&["new", "--game", "gateball", "--setup", "-"], Some(&setup)),
        ok(
            &["new", "--game", "gateball", "--setup", "setups/club.toml"],
            None
        )
    );
    // A sim output, to merge: the same report, piped or named.
    let out = sim_out().to_str().unwrap();
    let text = std::fs::read_to_string(out).unwrap();
    assert_eq!(ok(&["merge", "-"], Some(&text)), ok(&["merge", out], None));
    // A match record, replayed.
    let game: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let record = game["record"].as_str().unwrap();
    let checked = ok(&["replay", "-", "--check"], Some(record));
    assert!(checked.starts_with("ok: "), "{checked}");
    // A scenario: no snapshot, so its report is printed.
    let scn = "# t\nsetup:\n  turn 1 DEF action 1\nlegal:\n  end\n";
    let report = ok(&["test", "-"], Some(scn));
    assert!(report.starts_with("ok       standard input\n"), "{report}");
    assert!(report.contains("| # t"), "{report}");
}

/// Pipelines as the README shows them.
#[test]
fn commands_compose() {
    let start = ok(&["new"], None);
    assert_eq!(
        ok(&["legal", "--position", "-"], Some(&start)),
        ok(&["legal"], None)
    );
    let g = ok(&["new", "--game", "gateball", "--seed", "3"], None);
    let after = ok(
        &[
            "apply",
            "--position",
            "-",
            "--dice",
            "3,1",
            "power",
            "shot T1 N 4",
        ],
        Some(&g),
    );
    ok(&["show", "--position", "-"], Some(&after));
    ok(&["legal", "--position", "-", "--json"], Some(&after));
}

#[test]
fn perft_json_has_the_counts() {
    let text = ok(&["perft", "2"], None);
    let v: Value = serde_json::from_str(&ok(&["perft", "2", "--json"], None)).unwrap();
    assert_eq!(v["depth"], 2);
    assert_eq!(
        text.trim(),
        format!("perft(2) = {}", v["leaves"]),
        "the same count"
    );
    let v: Value = serde_json::from_str(&ok(&["perft", "2", "--divide", "--json"], None)).unwrap();
    let rows = v["divide"].as_array().unwrap();
    let sum: u64 = rows.iter().map(|r| r["leaves"].as_u64().unwrap()).sum();
    assert_eq!(Some(sum), v["leaves"].as_u64());
    assert!(rows.iter().any(|r| r["action"] == "end"), "{v}");
}

#[test]
fn selfplay_json_is_the_game() {
    for game in ["ball", "gateball", "gball"] {
        let args = ["selfplay", "--game", game, "--seed", "2", "--json"];
        let v: Value = serde_json::from_str(&ok(&args, None)).unwrap();
        assert_eq!(v["game"], game);
        assert_eq!(v["seed"], 2);
        let steps = v["steps"].as_array().unwrap();
        assert_eq!(Some(steps.len() as u64), v["actions"].as_u64(), "{game}");
        assert!(v["result"]["finished"].is_boolean(), "{game}");
        // The text shows the same actions.
        let text = ok(&args[..5], None);
        let first = steps[0]["action"].as_str().unwrap();
        assert!(text.lines().nth(1).unwrap().ends_with(first), "{game}");
        // The final position is a position every command reads.
        let position = serde_json::to_string(&v["position"]).unwrap();
        ok(&["show", "--position", "-"], Some(&position));
    }
}

#[test]
fn replay_json_has_steps_and_verdict() {
    let spec = format!("{}:1", sim_out().display());
    let v: Value = serde_json::from_str(&ok(&["replay", &spec, "--json"], None)).unwrap();
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(Some(steps.len() as u64), v["actions"].as_u64());
    assert_eq!(v["result"], v["record_result"]);
    assert_eq!(steps[0]["step"], 1);
    let c: Value =
        serde_json::from_str(&ok(&["replay", &spec, "--check", "--json"], None)).unwrap();
    assert_eq!(c["ok"], true);
    assert_eq!(c["actions"], v["actions"]);
    assert_eq!(c["ruleset_hash"], v["ruleset_hash"]);
}

#[test]
fn rules_and_serve_json() {
    let all: Value = serde_json::from_str(&ok(&["rules", "--json"], None)).unwrap();
    let all = all.as_array().unwrap();
    assert!(
        all.iter().any(|r| r["id"] == "G8"),
        "G-ball's rules are listed"
    );
    let one: Value = serde_json::from_str(&ok(&["rules", "b5.1", "--json"], None)).unwrap();
    assert_eq!(one[0]["id"], "B5.1");
    assert!(one[0]["text"].as_str().unwrap().len() > 20);
    refused(&["rules", "B99.9", "--json"], None);
    // serve: the first line is the address, as JSON.
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(["serve", "--port", "0", "--json", "--db"])
        .arg(dir.path().join("games.db"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let read = std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    );
    let _ = child.kill();
    let _ = child.wait();
    read.unwrap();
    let v: Value = serde_json::from_str(&line).unwrap();
    assert!(
        v["url"].as_str().unwrap().starts_with("http://127.0.0.1:"),
        "{v}"
    );
    assert_eq!(v["reloaded"], 0);
}

/// Clap's refusals are one line too, and say where the usage is; help
/// and version are printed whole, exit 0.
#[test]
fn clap_refusals_are_one_line() {
    for (args, says) in [
        (&[][..], "needs a command"),
        (&["perft"], "<DEPTH>"),
        (&["perft", "99"], "99"),
        (&["sim", "--games", "x"], "--games"),
        (&["new", "--bogus"], "--bogus"),
        (&["help", "nope"], "nope"),
        (&["play", "--load", "x", "--seed", "1"], "--seed"),
    ] {
        let e = refused(args, None);
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(e.contains("--help` shows the usage"), "{args:?}: {e}");
    }
    let e = refused(&["perft", "x"], None);
    assert!(e.contains("`ball perft --help`"), "{e}");
    for args in [&["--help"][..], &["perft", "--help"], &["help", "sim"]] {
        let r = ball(args, None);
        assert_eq!(r.code, Some(0), "{args:?}");
        assert!(r.stdout.contains("Usage: ball"), "{args:?}");
    }
    assert!(ok(&["--version"], None).starts_with("ball "));
}

/// An option a command does not use is refused, with the reason, rather
/// than ignored.
#[test]
fn no_option_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let ws = ws.to_str().unwrap();
    for (args, says) in [
        (
            &["--ruleset", "three-ap", "init", ws][..],
            "takes no ruleset",
        ),
        (&["--ruleset", "cards", "test"], "takes no ruleset"),
        (&["--game", "gball", "rules", "G8"], "takes no game"),
        (&["--ruleset", "cards", "rules"], "takes no ruleset"),
        (&["--game", "gateball", "serve"], "takes no game"),
        (
            &["--ruleset", "cards", "compare", "standard", "three-ap"],
            "takes no ruleset",
        ),
        (
            &["--ruleset", "cards", "merge", "x.jsonl"],
            "takes no ruleset",
        ),
        (&["--game", "gateball", "gallery", "--out", ws], "--game"),
        (&["play", "--delay", "3"], "no seat has one"),
    ] {
        let e = refused(args, None);
        assert!(e.contains(says), "{args:?}: {e}");
    }
    assert!(!Path::new(ws).exists(), "a refused command wrote");
    // gallery takes a ruleset file, as its help says.
    ok(
        &["--ruleset", "rulesets/cards.toml", "gallery", "--out", ws],
        None,
    );
    assert!(Path::new(ws).join("index.html").is_file());
    // check: a ruleset that names nothing is an error, on stderr.
    let e = refused(&["--ruleset", "nope", "check"], None);
    assert!(e.contains("no shipped ruleset `nope`"), "{e}");
    let e = refused(&["--ruleset", "nope", "check", "--json"], None);
    assert!(e.contains("no shipped ruleset `nope`"), "{e}");
}

/// The workspace's snapshot says who wrote it: `ball test`, not the
/// project's test file.
#[test]
fn init_snapshot_names_its_writer() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    ok(&["init", ws.to_str().unwrap()], None);
    let snap =
        std::fs::read_to_string(ws.join("snapshots/scenarios__check@leap_works.scn.snap")).unwrap();
    assert!(snap.contains("\nsource: ball test\n"), "{snap}");
    assert!(!snap.contains("tests/scenarios.rs"), "{snap}");
}

/// A scenario's start is given once, before its steps: a second
/// `setup:` was merged into the first, unseen.
#[test]
fn a_repeated_start_section_is_refused_with_its_line() {
    let twice = "setup:\n  turn 1 DEF action 1\nsetup:\n  turn 2 ATK action 1\nlegal:\n  end\n";
    let r = ball(&["test", "-"], Some(twice));
    assert_eq!(r.code, Some(2), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("standard input:3: a second start section `setup:` (`setup:` is at line 1)"),
        "{}",
        r.stdout
    );
    let late = "setup:\n  turn 1 DEF action 1\nactions:\n  end\nposition:\n{}\n";
    let r = ball(&["test", "-"], Some(late));
    assert_eq!(r.code, Some(2), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("standard input:5: a second start section"),
        "{}",
        r.stdout
    );
    let after = "legal:\n  end\nsetup:\n  turn 1 DEF action 1\n";
    let r = ball(&["test", "-"], Some(after));
    assert!(
        r.stdout
            .contains("standard input:3: `setup:` after the steps (line 1)"),
        "{}",
        r.stdout
    );
    // Step sections still repeat.
    let steps = "setup:\n  turn 1 DEF action 1\nlegal:\n  end\nactions:\n  end\nlegal:\n  end\n";
    ok(&["test", "-"], Some(steps));
}

/// The tool names its three games wherever it describes itself, and
/// every command and option says what it does.
#[test]
fn help_names_every_game_and_every_option() {
    let top = ok(&["--help"], None);
    for text in [top.as_str(), env!("CARGO_PKG_DESCRIPTION")] {
        for game in ["BALL", "Gateball", "G-ball"] {
            assert!(text.contains(game), "{game} missing from: {text}");
        }
    }
    let cmd = Cli::command();
    for sub in cmd.get_subcommands() {
        assert!(
            sub.get_about().is_some(),
            "`ball {}` has no help",
            sub.get_name()
        );
        for arg in sub.get_arguments() {
            assert!(
                arg.get_help().is_some() || arg.get_long_help().is_some(),
                "`ball {} {}` has no help",
                sub.get_name(),
                arg_name(arg)
            );
        }
    }
    // New and apply print JSON unasked, and say so.
    for sub in ["new", "apply"] {
        let about = cmd.find_subcommand(sub).unwrap().get_about().unwrap();
        assert!(about.to_string().contains("JSON"), "{sub}: {about}");
    }
}

/// The article and the count words messages are made of: `an integer`,
/// `once`, never `a integer` or `1 times`.
#[test]
fn grammar_helpers() {
    use ball::diagnostic::{a, times};
    assert_eq!(a("integer"), "an integer");
    assert_eq!(a("error"), "an error");
    assert_eq!(a("table"), "a table");
    assert_eq!(a("userdata"), "a userdata");
    assert_eq!(a("8-sided"), "an 8-sided");
    assert_eq!(a("18-sided"), "an 18-sided");
    assert_eq!(a("11-sided"), "an 11-sided");
    assert_eq!(a("6-sided"), "a 6-sided");
    assert_eq!(a("12-sided"), "a 12-sided");
    assert_eq!(times(1u64), "once");
    assert_eq!(times(2u64), "twice");
    assert_eq!(times(3u64), "3 times");
}

/// The `a` + a word decided at run time that are known to take "a": the
/// game names and titles (ball, gateball, gball; BALL, Gateball, G-ball),
/// BALL's counter scopes (game, team, piece), card-script kinds (card,
/// variant), Gateball's shot kinds (power, tech) and target kinds
/// (Piece, Square, Number). Any other goes through `diagnostic::a`.
const KNOWN_ARTICLES: &[&str] = &[
    "a {} run",
    "a {title} ruleset",
    "a {p} position",
    "a {ga} ruleset",
    "not a {}\"",
    "a {} counter",
    "a {what} name",
    "a {kind:?}",
    "a {} is off the board",
    "a {} shot",
];

/// Scans the string literals of src/ for the forms refusals must not
/// have: `a` before a vowel, `an` before a consonant, a count before
/// `times` (1 reads "once"), `a` before a word decided at run time
/// (unless KNOWN_ARTICLES lists it).
#[test]
fn no_grammar_slips_in_the_source() {
    let mut slips = Vec::new();
    let mut files = Vec::new();
    collect_rs(Path::new("src"), &mut files);
    assert!(files.len() > 50, "the sources are found");
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for lit in literals(line) {
                if let Some(why) = slip(&lit, line) {
                    slips.push(format!(
                        "{}:{}: {why}: {}",
                        file.display(),
                        i + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(slips.is_empty(), "grammar slips:\n{}", slips.join("\n"));
}

fn collect_rs(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_rs(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text inside the double-quoted literals of one line (escaped
/// quotes kept inside).
fn literals(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (&mut cur, c) {
            (None, '"') => cur = Some(String::new()),
            (Some(s), '\\') => {
                s.push('\\');
                if let Some(n) = chars.next() {
                    s.push(n);
                }
            }
            (Some(_), '"') => out.push(cur.take().unwrap()),
            (Some(s), c) => s.push(c),
            (None, '\'') => {
                // A char literal such as '"': skip it.
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with("\"'") || rest.starts_with("\\\"'") {
                    chars.nth(if rest.starts_with('\\') { 2 } else { 1 });
                }
            }
            (None, _) => {}
        }
    }
    out
}

fn slip(lit: &str, line: &str) -> Option<&'static str> {
    let words: Vec<&str> = lit.split(' ').collect();
    for pair in words.windows(2) {
        let (first, next) = (pair[0], pair[1]);
        let article = first
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .to_string();
        let Some(c) = next.chars().next() else {
            continue;
        };
        // Lower case only: a capital `A` is bot A or ruleset A.
        if article == "a" && first.len() <= 2 {
            if "aeioAEIO".contains(c) && !next.starts_with("one") && !next.starts_with("once") {
                return Some("`a` before a vowel");
            }
            if c == '{' && !KNOWN_ARTICLES.iter().any(|k| line.contains(k)) {
                return Some("`a` before a word decided at run time (use diagnostic::a)");
            }
        }
        // An acronym is read letter by letter: "an SQLite", "an MCTS".
        let acronym = next.chars().take(2).all(|c| c.is_ascii_uppercase());
        if article == "an"
            && first.len() <= 3
            && c.is_ascii_alphabetic()
            && !"aeiouhAEIOUH".contains(c)
            && !acronym
        {
            return Some("`an` before a consonant");
        }
        // diagnostic::times itself writes `{n} times` for n ≥ 3.
        if first.ends_with('}') && next.starts_with("times") && !line.contains("n => format!") {
            return Some("a count before `times` (use diagnostic::times: once)");
        }
    }
    None
}
