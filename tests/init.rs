//! `ball init DIR`: the workspace passes `ball check` and `ball test` from
//! inside it, its scenarios catch a broken card or house rule, and nothing
//! is ever overwritten.

use std::path::Path;
use std::process::Command;

fn ball(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(args)
        .current_dir(dir)
        .env_remove("BALL_HOME")
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Makes the example house rule at `path` answer nil where it returned
/// its option (the rules' own value then); gives back its text.
fn answer_nil(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let gutted = text.replace("return game.param(", "return nil and game.param(");
    assert_ne!(
        gutted,
        text,
        "{}: the example reads its option",
        path.display()
    );
    std::fs::write(path, gutted).unwrap();
    text
}

#[test]
fn a_new_workspace_checks_and_tests_clean_and_catches_a_broken_card_or_house_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, out, err) = ball(tmp.path(), &["init", "mine"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("ball test scenarios"), "{out}");
    let ws = tmp.path().join("mine");
    for rel in [
        "ruleset.toml",
        "cards/leap.lua",
        "variants/long-pass.lua",
        "scenarios/leap_works.scn",
        "scenarios/long-pass_refused.scn",
        "snapshots/scenarios__check@leap_works.scn.snap",
        "snapshots/scenarios__check@long-pass_refused.scn.snap",
        "lua/ball.lua",
        ".luarc.json",
        "README.md",
    ] {
        assert!(ws.join(rel).is_file(), "{rel}");
    }
    let snap =
        std::fs::read_to_string(ws.join("snapshots/scenarios__check@leap_works.scn.snap")).unwrap();
    assert!(
        snap.contains("input_file: scenarios/leap_works.scn\n"),
        "{snap}"
    );
    assert!(snap.contains("> card leap DEF3 I15"), "{snap}");
    let snap =
        std::fs::read_to_string(ws.join("snapshots/scenarios__check@long-pass_refused.scn.snap"))
            .unwrap();
    assert!(
        snap.contains("input_file: scenarios/long-pass_refused.scn\n"),
        "{snap}"
    );
    assert!(
        snap.contains("`lpass ATK5 G15`: it costs 3 AP under this ruleset and 2 are left (B4.2)"),
        "{snap}"
    );
    let stubs = std::fs::read_to_string(ws.join("lua/ball.lua")).unwrap();
    assert!(stubs.contains("---@class Game"), "{stubs}");

    let (code, out, err) = ball(&ws, &["check", "--ruleset", "ruleset.toml"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = ball(&ws, &["test", "scenarios"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("2 passed"), "{out}");

    // The house rule answering nil: a long pass costs the rules' 2 AP, so
    // the refusal the scenario asks for is gone.
    let rule = ws.join("variants/long-pass.lua");
    let text = answer_nil(&rule);
    let (code, out, _) = ball(&ws, &["test", "scenarios"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("FAILED   scenarios/long-pass_refused.scn"),
        "{out}"
    );
    assert!(out.contains("ok       scenarios/leap_works.scn"), "{out}");
    std::fs::write(&rule, text).unwrap();

    // A card that now leaps 3 squares: the scenario's action is refused.
    let card = ws.join("cards/leap.lua");
    let text = std::fs::read_to_string(&card).unwrap();
    std::fs::write(
        &card,
        text.replace("distance = { 4, 4 }", "distance = { 3, 3 }"),
    )
    .unwrap();
    let (code, out, _) = ball(&ws, &["test", "scenarios"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("FAILED   scenarios/leap_works.scn"), "{out}");
}

#[test]
fn init_overwrites_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("ruleset.toml"), "mine").unwrap();
    let (code, out, err) = ball(tmp.path(), &["init", "."]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("is not empty"), "{err}");
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("ruleset.toml")).unwrap(),
        "mine"
    );
    std::fs::write(tmp.path().join("file"), "x").unwrap();
    let (code, _, err) = ball(tmp.path(), &["init", "file"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a folder"), "{err}");
    // An empty folder is filled.
    std::fs::create_dir(tmp.path().join("empty")).unwrap();
    let (code, out, err) = ball(tmp.path(), &["init", "empty"]);
    assert_eq!(code, Some(0), "{out}{err}");
}

/// `ball init --game gateball|gball`: each game's workspace checks and
/// tests clean from inside it, and its scenario catches the house rule
/// taken out (the snapshot then differs).
#[test]
fn each_game_has_a_workspace_whose_scenario_holds_its_house_rule() {
    for (game, variant, scenario, stubs) in [
        (
            "gateball",
            "variants/big-goal.lua",
            "big-goal_works.scn",
            "lua/gateball.lua",
        ),
        (
            "gball",
            "variants/easy-catch.lua",
            "easy-catch_works.scn",
            "lua/gball.lua",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let (code, out, err) = ball(tmp.path(), &["init", "--game", game, "ws"]);
        assert_eq!(code, Some(0), "{game}: {out}{err}");
        let ws = tmp.path().join("ws");
        for rel in [
            "ruleset.toml",
            variant,
            &format!("scenarios/{scenario}"),
            stubs,
            "README.md",
        ] {
            assert!(ws.join(rel).is_file(), "{game}: {rel}");
        }
        let snap =
            std::fs::read_to_string(ws.join(format!("snapshots/scenarios__check@{scenario}.snap")))
                .unwrap();
        assert!(
            snap.contains(&format!("input_file: scenarios/{scenario}\n")),
            "{snap}"
        );
        let (code, out, err) = ball(&ws, &["check", "--ruleset", "ruleset.toml"]);
        assert_eq!(code, Some(0), "{game}: {out}{err}");
        let (code, out, err) = ball(&ws, &["test", "scenarios"]);
        assert_eq!(code, Some(0), "{game}: {out}{err}");

        // The house rule answering nil: the rulebook's game, another report.
        answer_nil(&ws.join(variant));
        let (code, out, _) = ball(&ws, &["test", "scenarios"]);
        assert_ne!(code, Some(0), "{game}: the scenario must notice: {out}");
    }
}
