//! The G-ball command-line contract (`docs/rules/gball-notation.md`,
//! "Command-line contract") through the real binary: `new` (`--seed`,
//! `--teams`, `--events`), `legal` (`--json`), `apply` (`--dice`,
//! `--events`), `show`, `perft`, `selfplay`, `check`, the game read from
//! the position's `game` field, and exit status 2 with one line on stderr
//! naming the field or action and the rule, nothing on stdout, for every
//! class of bad input.

use serde_json::{Value, json};

use crate::cli_support::{ball, ok, refused};

/// Whether a refusal cites a G-ball rule id (`G4.3`) or the notation's
/// section for the field.
fn cites_a_rule(line: &str) -> bool {
    line.contains("gball-notation.md")
        || line
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
            .any(|w| {
                w.len() > 1
                    && w.starts_with('G')
                    && w[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.')
            })
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn start() -> String {
    ok(&["new", "--game", "gball"], None)
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ball-gball-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `new --game gball`: the placement of the first point, `rng` the seed
/// (decimal in, 16 hex digits out), the away team placing first (G4.3);
/// `--events` the creation events; a neutral venue draws the coin from
/// the seed, so `rng` is the seed after it.
#[test]
fn new_prints_the_first_placement() {
    let pos = json_of(&start());
    assert_eq!(pos["game"], "gball");
    assert_eq!(pos["phase"], "place");
    assert_eq!(pos["turn"], 0);
    assert_eq!(pos["home"], "RED");
    assert_eq!(pos["pending"], json!({"kind": "place", "team": "BLU"}));
    assert_eq!(pos["rng"], "0000000000000000");
    assert_eq!(pos["dice"], json!([]));
    assert_eq!(pos["players"].as_array().unwrap().len(), 18);
    let seeded = json_of(&ok(&["new", "--game", "gball", "--seed", "42"], None));
    assert_eq!(seeded["rng"], "000000000000002a");
    let with = json_of(&ok(&["new", "--game", "gball", "--events"], None));
    assert_eq!(with["events"], json!(["newpoint RED"]));
    assert_eq!(with["position"], pos);
    // gball-short plays at a neutral venue: `roll coin - v`, `coin T` first.
    let neutral = json_of(&ok(
        &["new", "--ruleset", "gball-short", "--seed", "5", "--events"],
        None,
    ));
    let events: Vec<&str> = neutral["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(events[0].starts_with("roll coin - "), "{events:?}");
    assert!(events[1].starts_with("coin "), "{events:?}");
    assert!(events[2].starts_with("newpoint "), "{events:?}");
    assert_ne!(neutral["position"]["rng"], "0000000000000005");
    assert_eq!(neutral["position"]["game"], "gball");
}

/// `--teams FILE` fields the file's rosters; `-` is not special for it,
/// but a position's `FILE` may be `-`.
#[test]
fn new_with_a_teams_file() {
    let teams = temp(
        "two.json",
        r#"{"RED": [{"number": 1, "stars": "JC", "veteran": false}, {"number": 8, "stars": "", "veteran": true}],
            "BLU": [{"number": 3, "stars": "T", "veteran": false}]}"#,
    );
    let pos = json_of(&ok(
        &["new", "--game", "gball", "--teams", teams.to_str().unwrap()],
        None,
    ));
    let ids: Vec<(&str, &str, bool)> = pos["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap(),
                p["stars"].as_str().unwrap(),
                p["veteran"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ids,
        [
            ("BLU3", "T", false),
            ("RED1", "JC", false),
            ("RED8", "", true)
        ]
    );
    let legal = ok(&["legal", "--position", "-"], Some(&pos.to_string()));
    assert!(
        legal.lines().all(|l| l.starts_with("place BLU3 ")),
        "{legal}"
    );
}

/// Every kind of bad teams file: exit 2, one line naming the file, the
/// field and the rule.
#[test]
fn bad_teams_files_are_refused() {
    let blu = r#""BLU": [{"number": 1, "stars": "", "veteran": false}]"#;
    let cases = [
        ("not JSON", "not json".to_string(), "G2.1"),
        ("an array", "[]".to_string(), "G2.1"),
        (
            "BLU missing",
            r#"{"RED": [{"number": 1, "stars": "", "veteran": false}]}"#.to_string(),
            "BLU",
        ),
        ("empty roster", format!(r#"{{"RED": [], {blu}}}"#), "RED"),
        (
            "number 10",
            format!(r#"{{"RED": [{{"number": 10, "stars": "", "veteran": false}}], {blu}}}"#),
            "RED[0].number",
        ),
        (
            "number 0",
            format!(r#"{{"RED": [{{"number": 0, "stars": "", "veteran": false}}], {blu}}}"#),
            "RED[0].number",
        ),
        (
            "number as text",
            format!(r#"{{"RED": [{{"number": "1", "stars": "", "veteran": false}}], {blu}}}"#),
            "RED[0].number",
        ),
        (
            "stars out of order",
            format!(r#"{{"RED": [{{"number": 1, "stars": "CJ", "veteran": false}}], {blu}}}"#),
            "G2.2",
        ),
        (
            "a veteran with stars",
            format!(r#"{{"RED": [{{"number": 1, "stars": "J", "veteran": true}}], {blu}}}"#),
            "G2.2",
        ),
        (
            "a number twice",
            format!(
                r#"{{"RED": [{{"number": 2, "stars": "", "veteran": false}}, {{"number": 2, "stars": "", "veteran": false}}], {blu}}}"#
            ),
            "RED[1].number",
        ),
    ];
    for (what, text, names) in cases {
        let path = temp("bad-teams.json", &text);
        let line = refused(
            &["new", "--game", "gball", "--teams", path.to_str().unwrap()],
            None,
        );
        assert!(line.contains("bad-teams.json"), "{what}: {line}");
        assert!(line.contains(names), "{what}: {line}");
        assert!(cites_a_rule(&line), "{what}: {line}");
    }
    let line = refused(
        &[
            "new",
            "--game",
            "gball",
            "--teams",
            "/nonexistent/teams.json",
        ],
        None,
    );
    assert!(line.contains("/nonexistent/teams.json"), "{line}");
}

/// `legal`: the canonical list (sorted by bytes, no duplicates), the same
/// as a JSON array with `--json`, from a file or from standard input; the
/// game is the position's `game` field, not a flag.
#[test]
fn legal_is_the_canonical_list() {
    let pos = start();
    let text = ok(&["legal", "--position", "-"], Some(&pos));
    let lines: Vec<&str> = text.lines().collect();
    // G4.3: nine players of BLU, fourteen wall squares of its half.
    assert_eq!(lines.len(), 9 * 14);
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted, lines);
    assert!(lines.contains(&"place BLU1 K3"));
    assert!(!lines.iter().any(|l| l.contains(" F1") || l.contains(" F6")));
    let as_json = json_of(&ok(&["legal", "--json", "--position", "-"], Some(&pos)));
    assert_eq!(as_json, json!(lines));
    let path = temp("start.json", &pos);
    assert_eq!(
        ok(&["legal", "--position", path.to_str().unwrap()], None),
        text
    );
}

/// `apply`: the actions in order, the position JSON out; `--dice` joins
/// the forced queue; `--events` gives the notation's event lines and
/// nothing else (each action appears once, as `act …`); the same input
/// gives the same bytes, and two actions at once equal one after the other.
#[test]
fn apply_plays_actions_and_logs_them() {
    let pos = start();
    let one = ok(&["apply", "--position", "-", "place BLU1 K3"], Some(&pos));
    let v = json_of(&one);
    assert_eq!(v["pending"], json!({"kind": "place", "team": "RED"}));
    let blu1 = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "BLU1")
        .unwrap();
    assert_eq!((&blu1["at"], &blu1["facing"]), (&json!("K3"), &json!("W")));
    let two = ok(&["apply", "--position", "-", "place RED1 A3"], Some(&one));
    let both = ok(
        &["apply", "--position", "-", "place BLU1 K3", "place RED1 A3"],
        Some(&pos),
    );
    assert_eq!(two, both);
    assert_eq!(
        ok(
            &["apply", "--position", "-", "place BLU1 K3", "place RED1 A3"],
            Some(&pos)
        ),
        both,
        "the same input gives the same bytes"
    );
    let forced = json_of(&ok(
        &[
            "apply",
            "--position",
            "-",
            "--dice",
            "3,4,6",
            "place BLU1 K3",
        ],
        Some(&pos),
    ));
    assert_eq!(forced["dice"], json!([3, 4, 6]));
    let with = json_of(&ok(
        &[
            "apply",
            "--events",
            "--position",
            "-",
            "place BLU1 K3",
            "place RED1 A3",
        ],
        Some(&pos),
    ));
    assert_eq!(
        with["events"],
        json!(["act place BLU1 K3", "act place RED1 A3"])
    );
    assert_eq!(with["position"], json_of(&both));
}

/// A whole placement with the entry die forced: the engine rolls it when
/// the last player is placed, logs `roll entry - v`, `entry S D` (5: the
/// wall square on the home team's right, F1 for RED, pointing N, G4.4),
/// `turn 1`, `phase 1 T`, and runs on to the next decision.
#[test]
fn apply_runs_the_engine_to_the_next_decision() {
    let teams = temp(
        "one-each.json",
        r#"{"RED": [{"number": 1, "stars": "", "veteran": false}],
            "BLU": [{"number": 1, "stars": "", "veteran": false}]}"#,
    );
    let pos = ok(
        &["new", "--game", "gball", "--teams", teams.to_str().unwrap()],
        None,
    );
    let with = json_of(&ok(
        &[
            "apply",
            "--events",
            "--position",
            "-",
            "--dice",
            "5",
            "place BLU1 K3",
            "place RED1 A3",
        ],
        Some(&pos),
    ));
    let events: Vec<&str> = with["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(
        &events[..6],
        [
            "act place BLU1 K3",
            "act place RED1 A3",
            "roll entry - 5",
            "entry F1 N",
            "turn 1",
            "phase 1 RED"
        ],
        "{events:?}"
    );
    assert_eq!(with["position"]["dice"], json!([]));
    assert_eq!(with["position"]["turn"], 1);
}

/// Malformed and illegal actions, forced dice out of range: one line that
/// names the action (and which of several) and the rule, nothing printed.
#[test]
fn bad_actions_and_dice_are_refused() {
    let pos = start();
    let cases: [(&[&str], &str, &str); 10] = [
        (&["fly BLU1"], "`fly BLU1`", "unknown verb"),
        (&["place BLU1"], "`place BLU1`", "place"),
        (&["place BLU1 Z9"], "`place BLU1 Z9`", "Z9"),
        (&["place BLU10 K3"], "`place BLU10 K3`", "BLU10"),
        (&["move BLU1 N"], "`move BLU1 N`", "G5.4"),
        (&["catch none"], "`catch none`", "G5.4"),
        (&["place BLU1 F1"], "`place BLU1 F1`", "G4.3"),
        (&["place BLU1 A3"], "`place BLU1 A3`", "G4.3"),
        (&["place RED1 A3"], "`place RED1 A3`", "G4.3"),
        (&["place BLU1 K3", "place BLU2 K4"], "action 2 of 2", "G4.3"),
    ];
    for (actions, names, rule) in cases {
        let mut args = vec!["apply", "--position", "-"];
        args.extend_from_slice(actions);
        let line = refused(&args, Some(&pos));
        assert!(line.contains(names), "{actions:?}: {line}");
        assert!(line.contains(rule), "{actions:?}: {line}");
    }
    for dice in ["0", "7", "3,0", "1,2,99"] {
        let line = refused(
            &["apply", "--position", "-", "--dice", dice, "place BLU1 K3"],
            Some(&pos),
        );
        assert!(line.contains("--dice"), "{dice}: {line}");
        assert!(line.contains("G14.2"), "{dice}: {line}");
    }
    for dice in ["x", "-1", "3,,4", ""] {
        let line = refused(
            &["apply", "--position", "-", "--dice", dice, "place BLU1 K3"],
            Some(&pos),
        );
        assert!(line.contains("--dice"), "{dice:?}: {line}");
    }
}

/// Every top-level field of the position, missing or of the wrong type,
/// for every command that reads a position: exit 2 naming the field and
/// the notation's section or rule. Without `game` the position is BALL's
/// (the notation's Top level), and `--game gball` says so.
#[test]
fn malformed_positions_are_refused_field_by_field() {
    let pos = json_of(&start());
    let fields: Vec<String> = pos.as_object().unwrap().keys().cloned().collect();
    let contract = [
        "score",
        "turn",
        "match_turns",
        "phase",
        "home",
        "prev_winner",
        "initiative",
        "morale",
        "demoralised",
        "ball",
        "players",
        "resolution",
        "turn_flags",
        "pending",
        "rng",
        "dice",
        "winner",
    ];
    for f in contract {
        assert!(fields.iter().any(|k| k == f), "the writer writes {f}");
    }
    for f in contract {
        let mut q = pos.clone();
        q.as_object_mut().unwrap().remove(f);
        for cmd in ["legal", "show", "apply"] {
            let mut args = vec![cmd, "--position", "-"];
            if cmd == "apply" {
                args.push("place BLU1 K3");
            }
            let line = refused(&args, Some(&q.to_string()));
            assert!(line.contains(&format!("{f}: missing")), "{cmd} {f}: {line}");
            assert!(cites_a_rule(&line), "{cmd} {f}: {line}");
        }
        // A value of a type no field has.
        let mut q = pos.clone();
        q[f] = json!([[true]]);
        let line = refused(&["legal", "--position", "-"], Some(&q.to_string()));
        assert!(
            line.contains(&format!(" {f}: ")) || line.contains(&format!(" {f}[")),
            "{f}: {line}"
        );
        assert!(cites_a_rule(&line), "{f}: {line}");
    }
    let mut q = pos.clone();
    q.as_object_mut().unwrap().remove("game");
    let line = refused(
        &["legal", "--game", "gball", "--position", "-"],
        Some(&q.to_string()),
    );
    assert!(line.contains("game: missing"), "{line}");
    assert!(line.contains("BALL"), "{line}");
    let nested: [(&str, Value, &str); 8] = [
        ("/ball/at", json!("Z9"), "ball.at"),
        ("/ball/dir", json!("UP"), "ball.dir"),
        ("/players/0/id", json!("GRN1"), "players"),
        ("/players/0/stars", json!("TJ"), "stars"),
        ("/players/0/facing", json!("N"), "facing"),
        ("/pending/kind", json!("dance"), "pending"),
        ("/rng", json!("XYZ"), "rng"),
        ("/dice/0", json!(0), "dice"),
    ];
    for (at, value, names) in nested {
        let mut q = pos.clone();
        if at == "/dice/0" {
            q["dice"] = json!([0]);
        } else {
            *q.pointer_mut(at).unwrap() = value;
        }
        let line = refused(&["legal", "--position", "-"], Some(&q.to_string()));
        assert!(line.contains(names), "{at}: {line}");
        assert!(cites_a_rule(&line), "{at}: {line}");
    }
    let line = refused(&["legal", "--position", "-"], Some("{\"game\": \"gball\""));
    assert!(line.contains("malformed position"), "{line}");
    let line = refused(&["legal", "--position", "/nonexistent/pos.json"], None);
    assert!(line.contains("/nonexistent/pos.json"), "{line}");
}

/// A ruleset or `--game` of another game than the position's is an error.
#[test]
fn the_game_is_the_positions() {
    let pos = start();
    let line = refused(
        &["legal", "--ruleset", "standard", "--position", "-"],
        Some(&pos),
    );
    assert!(
        line.contains("gball") && line.contains("standard"),
        "{line}"
    );
    let line = refused(&["legal", "--game", "ball", "--position", "-"], Some(&pos));
    assert!(line.contains("gball") && line.contains("ball"), "{line}");
    // Another G-ball ruleset is fine: the position's game is the ruleset's.
    ok(
        &["legal", "--ruleset", "gball-short", "--position", "-"],
        Some(&pos),
    );
    // Without --game, `legal` of a G-ball position is G-ball's.
    assert!(ok(&["legal", "--position", "-"], Some(&pos)).starts_with("place BLU1 "));
}

/// `show`: the text board with the score line and the decision.
#[test]
fn show_draws_the_board() {
    let text = ok(&["show", "--position", "-"], Some(&start()));
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("G-ball"), "{first}");
    assert!(first.contains("sets RED 0 - BLU 0"), "{first}");
    assert!(text.contains("to decide: place, BLU"), "{text}");
    for col in ["A", "F", "K"] {
        assert!(text.lines().nth(2).unwrap().contains(col), "{text}");
    }
}

/// `perft` from the start and from a position file: the golden counts of
/// `tests/gball/perft.txt`.
#[test]
fn perft_counts_from_the_command_line() {
    assert_eq!(
        ok(&["perft", "2", "--game", "gball"], None),
        "perft(2) = 15876\n"
    );
    assert_eq!(
        ok(&["perft", "3", "--position", "-"], Some(&start())),
        "perft(3) = 1778112\n"
    );
    let mid = std::fs::read_to_string("tests/gball/mid-catch.json").unwrap();
    assert_eq!(
        ok(&["perft", "3", "--position", "-"], Some(&mid)),
        "perft(3) = 56\n"
    );
    let divide = ok(
        &["perft", "1", "--divide", "--position", "-"],
        Some(&start()),
    );
    assert!(divide.contains("place BLU1 K3"), "{divide}");
}

/// `selfplay`: a seeded random match to its end, the same for the same
/// seed, with the notation's events under `--events`.
#[test]
fn selfplay_plays_a_whole_match() {
    let args = ["--ruleset", "gball-short", "selfplay", "--seed", "3"];
    let a = ok(&args, None);
    assert_eq!(a, ok(&args, None));
    assert!(
        a.starts_with("# ball selfplay --game gball --seed 3"),
        "{a}"
    );
    assert!(
        a.contains("match over: "),
        "{}",
        &a[a.len().saturating_sub(300)..]
    );
    let other = ok(
        &["--ruleset", "gball-short", "selfplay", "--seed", "4"],
        None,
    );
    assert_ne!(a, other);
    let events = ok(
        &[
            "--ruleset",
            "gball-short",
            "selfplay",
            "--seed",
            "3",
            "--events",
        ],
        None,
    );
    for line in ["newpoint ", "roll entry - ", "turn 1", "phase 1 "] {
        assert!(events.contains(line), "{line}");
    }
}

/// `check`: the shipped G-ball rulesets are clean; a ruleset with an
/// unknown key or a bad value is reported as `file:line: message`, exit 2.
#[test]
fn check_reports_ruleset_problems() {
    for name in ["gball", "gball-short", "gball-veterans"] {
        let out = ok(&["check", "--ruleset", name], None);
        assert!(out.contains("no problems"), "{name}: {out}");
    }
    assert!(ok(&["check", "--game", "gball"], None).contains("ruleset gball: no problems"));
    let bad = temp(
        "bad.toml",
        "game = \"gball\"\nbogus = 3\nplayers_on_court = 0\n",
    );
    let r = ball(&["check", "--ruleset", bad.to_str().unwrap()], None);
    assert_eq!(r.code, Some(2), "{}", r.stdout);
    assert!(
        r.stdout.contains("bad.toml:2: unknown key `bogus`"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("bad.toml:3:"), "{}", r.stdout);
    let line = refused(&["new", "--ruleset", bad.to_str().unwrap()], None);
    assert!(line.contains("bad.toml:"), "{line}");
}
