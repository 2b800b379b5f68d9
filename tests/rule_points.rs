//! The rule points of BALL's variants (issue 23): state kept only in the
//! position, a saved game that plays on as the unbroken one, ends named by
//! the variant in the lab, variant options checked with did-you-mean, and
//! each point's answer checked by the kernel.

use std::process::Command;

use ball::games::ball::Ball;
use ball::games::ball::action::Action;
use ball::games::ball::ruleset::{Ruleset, ScriptSource};
use ball::games::ball::script;
use ball::kernel::game::{Game, Title};
use ball::kernel::rng::SplitMix64;

fn with_variant(path: &str, text: &str) -> Ruleset {
    let mut r = Ruleset::standard();
    r.variants = vec![ScriptSource {
        path: path.into(),
        text: text.into(),
    }];
    r
}

/// The script errors of a few random games under `r`.
fn errors_in_play(r: &Ruleset) -> Vec<String> {
    let game = script::game(r).unwrap();
    let mut errors = Vec::new();
    for seed in 0..3 {
        game.reset_scripts();
        let mut rng = SplitMix64::new(seed);
        let mut pos = game.start();
        let mut legal = Vec::new();
        for _ in 0..200 {
            game.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            Game::apply(&game, &mut pos, a);
            errors.extend(game.take_script_errors().iter().map(|e| e.to_string()));
        }
    }
    errors
}

/// State outside the position is impossible, not discouraged: a counter
/// in an upvalue, a table kept by the script and a global each fail at
/// the first hook call that changes them, with the file and what to do.
#[test]
fn scripts_keep_no_state_between_calls() {
    for (name, text, line) in [
        (
            "upvalue.lua",
            "local n = 0\nreturn { name = \"u\", on_turn_start = function(game, team)\n  n = n + 1\nend }",
            None,
        ),
        (
            "table.lua",
            "local seen = { count = 0 }\nreturn { name = \"t\", on_turn_start = function(game, team)\n  seen.count = seen.count + 1\nend }",
            Some(3),
        ),
        (
            "global.lua",
            "return { name = \"g\", after_action = function(game, action)\n  total = (total or 0) + 1\nend }",
            Some(2),
        ),
        (
            "returned.lua",
            "local v = { name = \"r\", text = \"0\" }\nv.on_turn_start = function(game, team)\n  v.text = v.text .. \"1\"\nend\nreturn v",
            Some(3),
        ),
    ] {
        let errors = errors_in_play(&with_variant(name, text));
        // Once a game (three games): the hook fails, is reported, and is
        // not called again that game.
        assert_eq!(errors.len(), 3, "{name}: {errors:?}");
        let e = &errors[0];
        assert!(
            e.contains("keeps no state between hook calls"),
            "{name}: {e}"
        );
        assert!(e.contains("`state`"), "{name}: says where state goes: {e}");
        match line {
            Some(l) => assert!(e.starts_with(&format!("{name}:{l}:")), "{name}: {e}"),
            None => assert!(e.starts_with(name) && e.contains("`n`"), "{name}: {e}"),
        }
    }
    // Reading what the script holds, and local state inside a call, are fine.
    let fine = "local BONUS = { move = 1 }\nlocal LIMIT = 2\nreturn { name = \"f\", cost = function(game, a)\n  local seen = {}\n  seen[a.verb] = true\n  if BONUS[a.verb] and LIMIT > 1 and seen.move then return 1 end\nend }";
    assert_eq!(
        errors_in_play(&with_variant("fine.lua", fine)),
        Vec::<String>::new()
    );
}

/// A stateful variant (fatigue: counters per piece, reset each turn) plays
/// the same from a saved position as in the unbroken game, at every point
/// of a game: its state is in the JSON.
#[test]
fn a_saved_position_plays_on_as_the_unbroken_game() {
    let ruleset = Ruleset::load("fatigue").unwrap();
    let game = Ball::build(&ruleset).unwrap();
    let mut rng = SplitMix64::new(7);
    let mut pos = game.start();
    let mut played = Vec::new();
    let mut legal = Vec::new();
    let mut tired_seen = false;
    while game.to_move(&pos).is_some() && played.len() < 400 {
        game.legal_into(&pos, &mut legal);
        let a = legal[rng.below(legal.len())];
        game.play(&mut pos, a, &mut ()).unwrap();
        played.push(a);
        tired_seen |= pos.vars.iter().any(|&v| v != 0);
    }
    assert!(tired_seen, "the game kept some counters");
    for cut in (0..played.len()).step_by(23) {
        // Replay to the cut, save, load into a fresh game, play the rest.
        let fresh = Ball::build(&ruleset).unwrap();
        let mut a = fresh.start();
        for &act in &played[..cut] {
            fresh.play(&mut a, act, &mut ()).unwrap();
        }
        let saved = fresh.write_position(&a);
        let other = Ball::build(&ruleset).unwrap();
        let mut b = other.read_position(&saved).unwrap();
        assert_eq!(a, b, "read back at {cut}");
        for (i, &act) in played[cut..].iter().enumerate() {
            other
                .play(&mut b, act, &mut ())
                .unwrap_or_else(|e| panic!("cut {cut}, action {}: {e}", cut + i));
        }
        assert_eq!(
            other.write_position(&b),
            game.write_position(&pos),
            "cut {cut}"
        );
    }
}

fn ball(args: &[&str], home: Option<&std::path::Path>) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ball"));
    cmd.args(args);
    if let Some(h) = home {
        cmd.env("BALL_HOME", h);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A game decided in overtime reads as the variant's end in `sim`, not as
/// the turn limit or "script"; the regular ends keep their names.
#[test]
fn sim_names_a_variant_s_end() {
    let (code, out, err) = ball(&["--ruleset", "overtime", "sim", "--games", "120"], None);
    assert_eq!(code, 0, "{err}");
    let ended = out.split("how games ended").nth(1).unwrap_or("");
    assert!(ended.contains("\n  overtime "), "{out}");
    assert!(ended.contains("\n  turn-limit "), "{out}");
    assert!(!ended.contains("script"), "{out}");
}

/// `[options]` in a ruleset file: a misspelt name gets did-you-mean at its
/// line, a value out of the variant's range is refused, a good one is read
/// by the script.
#[test]
fn variant_options_are_checked() {
    let dir = std::env::temp_dir().join(format!("ball-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, body: &str| {
        let p = dir.join(name);
        std::fs::write(
            &p,
            format!("name = \"o\"\nextends = \"overtime\"\n\n[options]\n{body}\n"),
        )
        .unwrap();
        p.display().to_string()
    };
    let typo = file("typo.toml", "extra_turn = 3");
    let (code, out, _) = ball(&["--ruleset", &typo, "check"], None);
    assert_eq!(code, 2);
    assert!(
        out.contains("typo.toml:5: unknown option `extra_turn`; did you mean `extra_turns`?"),
        "{out}"
    );
    let far = file("far.toml", "extra_turns = 101");
    let (code, out, _) = ball(&["--ruleset", &far, "check"], None);
    assert_eq!(code, 2);
    assert!(
        out.contains("extra_turns") && out.contains("0..=100"),
        "{out}"
    );
    let kind = file("kind.toml", "extra_turns = true");
    let (code, _, _) = ball(&["--ruleset", &kind, "check"], None);
    assert_eq!(code, 2);
    let good = file("good.toml", "extra_turns = 0");
    let (code, out, err) = ball(&["--ruleset", &good, "check"], None);
    assert_eq!(code, 0, "{out}{err}");
    // No overtime at all: every level game is drawn at the turn limit.
    let (code, out, err) = ball(&["--ruleset", &good, "sim", "--games", "60"], None);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("\n  overtime "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A point's answer outside what the kernel accepts is a script error with
/// the file, and the rules' answer stands.
#[test]
fn bad_answers_are_reported_and_the_rules_stand() {
    for (point, body, expect) in [
        ("cost", "cost = function(game, a) return 99 end", "0-20"),
        (
            "turn_ap",
            "turn_ap = function(game, team) return \"lots\" end",
            "0-20",
        ),
        (
            "next_turn",
            "next_turn = function(game, team) return \"RED\" end",
            "\"ATK\" or \"DEF\"",
        ),
        (
            "ending",
            "ending = function(game, why) return { winer = \"ATK\" } end",
            "did you mean `winner`",
        ),
        (
            "ending",
            "ending = function(game, why) return { reason = \"golden goal\" } end",
            "not one of its `ends`",
        ),
    ] {
        let mut r = with_variant("bad.lua", &format!("return {{ name = \"bad\", {body} }}"));
        r.params.turn_limit = 4;
        let errors = errors_in_play(&r);
        assert!(
            errors
                .iter()
                .any(|e| e.contains(expect) && e.contains(&format!("hook `{point}`"))),
            "{point}: {errors:?}"
        );
    }
}

/// A variant's action is written by its own verb, round-trips through the
/// notation, and is no action under a ruleset without it.
#[test]
fn a_variant_action_is_a_verb_of_its_own() {
    let dash = Ball::build(&Ruleset::load("dash").unwrap()).unwrap();
    let pos = dash.start();
    let listed: Vec<String> = dash.canonical_legal(&pos);
    let first = listed
        .iter()
        .find(|a| a.starts_with("dash "))
        .expect("dash listed");
    let parsed = dash.parse_action(first).unwrap();
    assert!(matches!(parsed, Action::Card { card, .. } if card.is_action()));
    assert_eq!(parsed.to_string(), *first);
    let (code, _, err) = ball(&["apply", first], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown verb `dash`") || err.contains("not an action of this ruleset"),
        "{err}"
    );
}

/// A counter starts at its `start` (a number or an option), a scenario
/// line sets one, and an end declared as a limit counts as one.
#[test]
fn counters_start_values_and_limit_ends() {
    let text = r#"return {
  name = "pool",
  options = { pool = { default = 6, min = 0, max = 9, text = "Start." } },
  state = { pool = { per = "team", start = "pool" }, round = "game" },
  ends = { { name = "tiebreak", limit = true } },
  ending = function(game, why)
    if why == "turn-limit" then return { winner = "DEF", reason = "tiebreak" } end
  end,
}"#;
    let mut r = with_variant("pool.lua", text);
    r.params.turn_limit = 2;
    let game = script::game(&r).unwrap();
    let start = game.start();
    let json = game.write_position(&start);
    assert!(
        json.contains(r#""vars": {"pool": {"ATK": 6, "DEF": 6}}"#),
        "{json}"
    );
    let mut pos = start;
    game.scenario_setup(&mut pos, "var pool ATK 2").unwrap();
    game.scenario_setup(&mut pos, "var round 5").unwrap();
    assert!(
        game.write_position(&pos)
            .contains(r#""pool": {"ATK": 2, "DEF": 6}, "round": 5"#)
    );
    let e = game.scenario_setup(&mut pos, "var pol ATK 2").unwrap_err();
    assert!(e.contains("did you mean `pool`"), "{e}");
    assert!(
        game.scenario_setup(&mut pos, "var pool 2").is_err(),
        "a team counter needs its team"
    );
    // Two turns of `end`: the variant's tiebreak ends the game as a limit.
    let mut pos = game.start();
    while game.to_move(&pos).is_some() {
        let legal = game.legal(&pos);
        let a = if legal.contains(&Action::End) {
            Action::End
        } else {
            legal[0]
        };
        game.play(&mut pos, a, &mut ()).unwrap();
    }
    let o = game.outcome(&pos).unwrap();
    assert_eq!((o.end.name, o.end.by_limit), ("tiebreak", true));
    assert_eq!(o.winner(), Some(1), "DEF, as the variant said");
}

/// `game.drop_ball` makes the held ball loose on a free square; a square
/// with a piece on it is refused.
#[test]
fn drop_ball_makes_the_ball_loose() {
    let ok = "return { name = \"d\", on_turn_start = function(game, team)\n  game.drop_ball(\"G9\")\nend }";
    let game = script::game(&with_variant("d.lua", ok)).unwrap();
    let mut pos = game.start();
    game.play(&mut pos, Action::End, &mut ()).unwrap();
    assert!(game.take_script_errors().is_empty());
    assert!(
        game.write_position(&pos)
            .contains(r#""ball": {"loose": "G9"}"#)
    );
    let bad = "return { name = \"d\", on_turn_start = function(game, team)\n  game.drop_ball(game.piece(\"ATK1\").at)\nend }";
    let game = script::game(&with_variant("d.lua", bad)).unwrap();
    let mut pos = game.start();
    game.play(&mut pos, Action::End, &mut ()).unwrap();
    let errors = game.take_script_errors();
    assert!(
        errors[0].to_string().contains("holds a piece"),
        "{errors:?}"
    );
}
