//! The board's command-line contract, through the binary: what `ball play`
//! says of its default bot, and that `--load` and `replay` take the game,
//! the ruleset and the seats from the record before the terminal is even
//! asked for (without one, the run stops there, with exit status 2).

use std::process::{Command, Stdio};

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn ball(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ball");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    }
}

/// The run got past loading and stopped at the terminal check.
#[track_caller]
fn reached_the_board(r: &Run) {
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("the board needs a terminal"),
        "{}",
        r.stderr
    );
}

#[test]
fn play_help_names_the_default_bot_and_its_pace() {
    let r = ball(&["play", "--help"]);
    assert_eq!(r.code, Some(0));
    let text = r.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("mcts for BALL, greedy for Gateball"),
        "{text}"
    );
    assert!(
        text.contains("BALL's is mcts (1000 iterations a decision)"),
        "{text}"
    );
    assert!(text.contains("about 1 ms"), "how long it answers: {text}");
}

/// A card-mode game saved to a record (by the sim, whose records are the
/// board's).
fn cards_record(dir: &std::path::Path) -> std::path::PathBuf {
    let out = dir.join("games.jsonl");
    let r = ball(&[
        "--ruleset",
        "cards",
        "sim",
        "--bots",
        "random,random",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    out
}

#[test]
fn play_load_follows_the_records_ruleset_game_and_seats() {
    let dir = tempfile::tempdir().unwrap();
    let out = cards_record(dir.path());
    let spec = format!("{}:1", out.display());
    // Under its own ruleset (`cards`) the record loads, to the board.
    reached_the_board(&ball(&["play", "--load", &spec]));
    // Under other rules its card actions no longer replay: refused with
    // the step, exactly as the check refuses it.
    let r = ball(&["--ruleset", "standard", "play", "--load", &spec]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("step "), "{}", r.stderr);
    // A Gateball record needs no --game: the record says it.
    let gb = dir.path().join("gb.jsonl");
    let r = ball(&[
        "sim",
        "--game",
        "gateball",
        "--bots",
        "random,random",
        "--games",
        "4",
        "--out",
        gb.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let spec = format!("{}:3", gb.display());
    reached_the_board(&ball(&["play", "--load", &spec]));
    // Not on a terminal, replay prints the game as text.
    let r = ball(&["replay", &spec]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("# "), "{}", r.stdout);
    // A --bot of the wrong game's seats is refused before anything.
    let r = ball(&["play", "--load", &spec, "--bot", "ATK"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("expected red or blue"), "{}", r.stderr);
}

#[test]
fn play_load_of_a_broken_record_names_the_step() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.txt");
    std::fs::write(
        &file,
        "# ball match record\nformat: 1\ngame: ball\nactions:\nmove DEF3 H10\nmove DEF3 Z1\n",
    )
    .unwrap();
    let r = ball(&["play", "--load", file.to_str().unwrap()]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("step 2"), "{}", r.stderr);
    assert_eq!(r.stdout, "");
}
