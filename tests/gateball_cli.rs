//! The Gateball command-line contract (`docs/rules/gateball-notation.md`,
//! "Command-line contract") through the real binary: `new`, `legal`,
//! `apply`, `show`, `--events`, standard input, exit status 2 with one line
//! on stderr and nothing on stdout, and the game chosen from the position.

use serde_json::Value;

use crate::cli_support::{ok, refused};

/// `new --game gateball`: turn 1, ball 1, phase shot; `--events` lists the
/// creation events; a coin setup draws the coin from the seed (T2.3).
#[test]
fn new_and_its_events() {
    let pos: Value = serde_json::from_str(&ok(&["new", "--game", "gateball"], None)).unwrap();
    assert_eq!(pos["game"], "gateball");
    assert_eq!(
        (pos["turn"].as_u64(), pos["ball"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(pos["phase"], "shot");
    assert_eq!(pos["rng"], "0000000000000000");
    let with: Value = serde_json::from_str(&ok(
        &["new", "--game", "gateball", "--seed", "42", "--events"],
        None,
    ))
    .unwrap();
    assert_eq!(
        with["events"],
        serde_json::json!(["turn 1", "play 1 start"])
    );
    assert_eq!(with["position"]["rng"], "000000000000002a");
    let coin: Value = serde_json::from_str(&ok(
        &[
            "new",
            "--game",
            "gateball",
            "--setup",
            "setups/club.toml",
            "--events",
        ],
        None,
    ))
    .unwrap();
    assert_eq!(coin["events"][0], "coin b", "seed 0's coin is side b");
    // A Gateball ruleset alone chooses the game.
    let via: Value =
        serde_json::from_str(&ok(&["--ruleset", "gateball-bonus", "new"], None)).unwrap();
    assert_eq!(via["rules"]["gate_bonus"], true);
}

/// The notation's worked example, through `apply --events` on standard
/// input.
#[test]
fn worked_example_through_apply() {
    let mut pos: Value = serde_json::from_str(&ok(&["new", "--game", "gateball"], None)).unwrap();
    pos["ball"] = 3.into();
    pos["balls"][0]["state"] = "court".into();
    pos["balls"][0]["at"] = "T9".into();
    pos["balls"][0]["gates"] = 1.into();
    pos["score"]["red"] = 1.into();
    pos["dice_queue"] = serde_json::json!([2, 6, 4, 1]);
    let text = pos.to_string();
    let out = ok(
        &[
            "apply",
            "--position",
            "-",
            "--events",
            "power",
            "shot T1 N 8",
            "spark W 5",
            "end",
        ],
        Some(&text),
    );
    let doc: Value = serde_json::from_str(&out).unwrap();
    let events: Vec<&str> = doc["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(
        events,
        [
            "> power",
            "roll 2 6",
            "> shot T1 N 8",
            "gate 3 1",
            "touch 3 1 T9",
            "roll 4 1",
            "> spark W 5",
            "at 1 O9",
            "> end",
            "endplay 3",
            "play 4 start"
        ]
    );
    assert_eq!(doc["position"]["ball"], 4);
    // legal and show read the game from the position.
    let after = serde_json::to_string(&doc["position"]).unwrap();
    assert_eq!(
        ok(&["legal", "--position", "-"], Some(&after)),
        "power\ntech\n"
    );
    let json_list = ok(&["legal", "--position", "-", "--json"], Some(&after));
    assert_eq!(json_list, "[\"power\",\"tech\"]\n");
    let board = ok(&["show", "--position", "-"], Some(&after));
    assert!(
        board.starts_with("turn 1/6 ball 4 blue phase shot\nscore red 2 blue 0\n"),
        "{board}"
    );
}

/// Bad input: exit 2, one line naming the action or field and the rule.
#[test]
fn bad_input_is_one_line() {
    let start = ok(&["new", "--game", "gateball"], None);
    let e = refused(&["apply", "--position", "-", "end"], Some(&start));
    assert!(e.contains("T3.5"), "{e}");
    let e = refused(
        &["apply", "--position", "-", "power", "shot T1 N 8"],
        Some(&start),
    );
    assert!(e.contains("action 2 of 2") && e.contains("T5.2"), "{e}");
    let e = refused(&["apply", "--position", "-", "Power"], Some(&start));
    assert!(e.contains("malformed action `Power`"), "{e}");
    let mut bad: Value = serde_json::from_str(&start).unwrap();
    bad["balls"][2]["at"] = "K9".into();
    bad["balls"][2]["state"] = "court".into();
    bad["balls"][2]["gates"] = 1.into();
    bad["score"]["red"] = 1.into();
    let e = refused(&["legal", "--position", "-"], Some(&bad.to_string()));
    assert!(e.contains("balls[2].at") && e.contains("T11.2"), "{e}");
    let e = refused(
        &["--game", "ball", "legal", "--position", "-"],
        Some(&start),
    );
    assert!(e.contains("gateball position"), "{e}");
    let e = refused(
        &["--ruleset", "standard", "show", "--position", "-"],
        Some(&start),
    );
    assert!(e.contains("is for ball"), "{e}");
    let e = refused(
        &[
            "new",
            "--game",
            "gateball",
            "--court",
            "tests/gateball/malformed_courts/gate1_unreachable.toml",
        ],
        None,
    );
    assert!(e.contains("T1.8"), "{e}");
    let e = refused(&["new", "--seed", "3"], None);
    assert!(e.contains("--game gateball"), "{e}");
}

/// `perft` and `selfplay` run for Gateball; the same seed plays the same
/// game.
#[test]
fn perft_and_selfplay() {
    assert_eq!(
        ok(&["perft", "3", "--game", "gateball"], None),
        "perft(3) = 668\n"
    );
    let a = ok(&["selfplay", "--game", "gateball", "--seed", "9"], None);
    let b = ok(&["selfplay", "--game", "gateball", "--seed", "9"], None);
    assert_eq!(a, b);
    assert!(a.contains("phase over"), "{a}");
}

/// `sim` reports the playtester's figures and is the same on 1 and 2
/// threads (but for the throughput line).
#[test]
fn sim_report() {
    let args = |t: &'static str| {
        [
            "sim",
            "--game",
            "gateball",
            "--bots",
            "random,random",
            "--games",
            "6",
            "--seed",
            "1",
            "--threads",
            t,
            "--json",
        ]
    };
    // The same report on one thread and two, but for the throughput.
    let report = |t| {
        let mut v: Value = serde_json::from_str(&ok(&args(t), None)).unwrap();
        v.as_object_mut().unwrap().remove("throughput");
        v
    };
    let (one, two) = (report("1"), report("2"));
    assert_eq!(one, two);
    assert_eq!(one["metrics"]["games"], 6);
    assert_eq!(one["metrics"]["seats"], serde_json::json!(["red", "blue"]));
    assert_eq!(one["run"]["first"], 0, "red plays first (T2.1)");
    for key in [
        "seat_wins",
        "draws",
        "first_mover",
        "bot_win_rate",
        "ends",
        "branching_factor",
    ] {
        assert!(!one["metrics"][key].is_null(), "{key} missing");
    }
    for key in [
        "points_per_game",
        "goals_per_game",
        "perfect_games",
        "failed_start_rate",
    ] {
        assert!(!one["game"][key].is_null(), "{key} missing");
    }
}

/// The platform's tools on Gateball, as on BALL: `sim --out` match records
/// that `replay --check` replays exactly (and refuses when tampered with),
/// the replay as text, `compare` of two Gateball rulesets, `--plot`,
/// `mcts`, and Wilson intervals on the win rates.
#[test]
fn the_platform_tools_work_on_gateball() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.jsonl");
    let plot = dir.path().join("g.svg");
    let report = ok(
        &[
            "sim",
            "--game",
            "gateball",
            "--bots",
            "mcts:20,random",
            "--games",
            "4",
            "--seed",
            "5",
            "--out",
            out.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ],
        None,
    );
    assert!(report.contains("red wins") && report.contains("95% Wilson interval"));
    assert!(report.contains("A (mcts:20) wins"), "{report}");
    assert!(report.contains("Goals per game"), "{report}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("red (1st)"));
    let text = std::fs::read_to_string(&out).unwrap();
    // The run header, then one line a game.
    assert_eq!(text.lines().count(), 5);
    for n in 0..4 {
        let spec = format!("{}:{n}", out.display());
        let check = ok(&["replay", &spec, "--check"], None);
        assert!(check.starts_with("ok: "), "{check}");
        assert!(check.contains("ruleset `gateball`"), "{check}");
    }
    // The replay as text: the actions, the result, the final court.
    let shown = ok(&["replay", &format!("{}:1", out.display())], None);
    assert!(
        shown.contains("# ") && shown.contains("result red "),
        "{shown}"
    );
    // A tampered record diverges at the step named.
    let rec = ball::lab::replay::record_from_jsonl(&text, 2).unwrap();
    let mut bad = rec.clone();
    bad.actions[1] = "shot T1 N 99".into();
    let file = dir.path().join("bad.record");
    std::fs::write(&file, bad.write()).unwrap();
    let e = refused(&["replay", file.to_str().unwrap(), "--check"], None);
    assert!(e.contains("step 2: "), "{e}");
    // Another seed deals other dice: the record no longer replays.
    let mut bad = rec.clone();
    bad.set("seed", "1");
    std::fs::write(&file, bad.write()).unwrap();
    refused(&["replay", file.to_str().unwrap(), "--check"], None);

    let cmp = ok(
        &[
            "compare",
            "gateball",
            "gateball-bonus",
            "--bots",
            "greedy,random",
            "--games",
            "4",
        ],
        None,
    );
    for row in ["red win rate", "Goals per game", "Perfect Games", "p"] {
        assert!(cmp.contains(row), "{row} missing from\n{cmp}");
    }
    // Two rulesets of different games cannot be compared.
    let e = refused(&["compare", "gateball", "standard", "--games", "2"], None);
    assert!(e.contains("one game"), "{e}");
}
