//! The script layer: hostile scripts are stopped with file:line and leave
//! the game unchanged; card mode plays whole games; the API reference
//! cannot drift from the registered bindings.

use std::time::{Duration, Instant};

use ball::games::ball::Ball;
use ball::games::ball::action::Action;
use ball::games::ball::json;
use ball::games::ball::ruleset::{Ruleset, ScriptSource};
use ball::games::ball::script;
use ball::kernel::game::Game;
use ball::kernel::rng::SplitMix64;

fn hostile(name: &str) -> (String, String) {
    let path = format!("tests/hostile/{name}.lua");
    let text = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .expect("hostile script");
    (path, text)
}

/// The standard rules in card mode with one card for DEF (who moves first).
fn with_card(name: &str) -> Ruleset {
    let (path, text) = hostile(name);
    let mut r = Ruleset::standard();
    r.card_mode = true;
    r.cards = [vec![], vec![ScriptSource { path, text }]];
    r
}

/// Attacks stopped while loading: the error names the file and line.
#[test]
fn hostile_scripts_are_refused_at_load() {
    for (name, line, words) in [
        ("io_open", Some(2), "io"),
        ("require", Some(1), "require"),
        ("bytecode", None, "binary chunk"),
    ] {
        let started = Instant::now();
        let errors = match script::game(&with_card(name)) {
            Ok(_) => panic!("{name} loaded"),
            Err(e) => e,
        };
        assert!(started.elapsed() < Duration::from_secs(1));
        let e = errors[0].to_string();
        assert!(e.contains(&format!("tests/hostile/{name}.lua")), "{e}");
        if let Some(line) = line {
            assert!(e.contains(&format!("{name}.lua:{line}:")), "{e}");
        }
        assert!(e.contains(words), "{e}");
    }
}

/// The straight-line and forward square filters measure from an earlier
/// argument: without `from` the card is refused at load, naming the entry.
#[test]
fn line_and_forward_need_from() {
    for key in ["line", "forward"] {
        let text = format!(
            r#"return {{
  id = "dash", name = "Dash", text = "A piece dashes.", cost = 1,
  args = {{ "piece", "square" }},
  targets = {{ {{ team = "own" }}, {{ {key} = true, empty = true }} }},
  resolve = function(game, piece, square) game.move(piece, square) end,
}}"#
        );
        let mut r = Ruleset::standard();
        r.card_mode = true;
        r.cards = [
            vec![],
            vec![ScriptSource {
                path: "dash.lua".into(),
                text,
            }],
        ];
        let errors = match script::game(&r) {
            Ok(_) => panic!("`{key}` without `from` loaded"),
            Err(e) => e,
        };
        let e = errors[0].to_string();
        assert!(
            e.contains("targets[2]") && e.contains(&format!("`{key}` goes with `from`")),
            "{e}"
        );
    }
}

/// Attacks in `resolve`: stopped in under a second with file:line and the
/// hook; the position is exactly as before; the card is dropped after.
#[test]
fn hostile_resolve_hooks_are_stopped_and_change_nothing() {
    for (name, words) in [
        ("loop_in_resolve", "instruction budget exceeded"),
        ("memory_bomb", "memory limit"),
        ("deep_recursion", "memory limit"),
        ("pattern_bomb", "string.match is not available"),
        ("os_execute", "os"),
        ("error_in_resolve", "attempt to index a nil value"),
        ("breaks_rules", "game.stack: DEF2 is in a stack"),
    ] {
        let game = script::game(&with_card(name)).unwrap_or_else(|e| panic!("{name}: {}", e[0]));
        let start = game.start();
        let card = game
            .legal(&start)
            .into_iter()
            .find(|a| matches!(a, Action::Card { .. }))
            .unwrap_or_else(|| panic!("{name}: card not listed"));
        let mut pos = start;
        let started = Instant::now();
        let err = game.play(&mut pos, card, &mut ()).unwrap_err().to_string();
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{name} took {:?}",
            started.elapsed()
        );
        assert_eq!(pos, start, "{name} changed the game");
        assert!(
            err.contains(&format!("tests/hostile/{name}.lua:")),
            "{name}: {err}"
        );
        assert!(err.contains("resolve"), "{name}: {err}");
        assert!(err.contains(words), "{name}: {err}");
        assert!(
            !game.legal(&pos).contains(&card),
            "{name}: a failed card is dropped from the list"
        );
    }
}

/// Attacks in a check hook: the card is left out, the error kept.
#[test]
fn hostile_check_hooks_are_stopped() {
    for (name, words) in [
        ("loop_in_targets", "instruction budget exceeded"),
        ("change_in_check", "refuses changes during `targets`"),
    ] {
        let game = script::game(&with_card(name)).unwrap();
        let start = game.start();
        let started = Instant::now();
        let legal = game.legal(&start);
        assert!(started.elapsed() < Duration::from_secs(1));
        assert!(
            !legal.iter().any(|a| matches!(a, Action::Card { .. })),
            "{name}"
        );
        let err = game.take_script_error().expect("the failure is reported");
        assert!(
            err.contains(&format!("tests/hostile/{name}.lua:")),
            "{name}: {err}"
        );
        assert!(err.contains(words), "{name}: {err}");
        assert_eq!(
            game.legal(&start),
            legal,
            "{name}: the position is untouched"
        );
    }
}

/// Card mode off: the game is the native one, no Lua state at all.
#[test]
fn card_mode_off_runs_no_lua() {
    let game = script::game(&Ruleset::standard()).unwrap();
    assert!(game.extension.is_none());
}

fn cards_game() -> Ball {
    let r = Ruleset::load("cards").unwrap_or_else(|e| panic!("{e}"));
    script::game(&r).unwrap_or_else(|e| panic!("{}", e[0]))
}

/// Whole random games in card mode: every listed action plays, JSON
/// (with EP and card uses) round-trips, EP are never negative, and cards
/// and conversions are played (random play affords a card about twice a
/// game since contact earns no EP: ten games, not six, for the same bar).
#[test]
fn card_mode_random_games() {
    let game = cards_game();
    let (mut cards, mut converts) = (0, 0);
    for seed in 0..10 {
        let mut rng = SplitMix64::new(seed);
        let mut pos = game.start();
        let mut steps = 0;
        loop {
            let legal = game.legal(&pos);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            match a {
                Action::Card { .. } => cards += 1,
                Action::Convert { .. } => converts += 1,
                _ => {}
            }
            let mut next = pos;
            game.play(&mut next, a, &mut ())
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            json::validate(&next, &game.params).unwrap();
            let text = json::write(&next);
            assert_eq!(
                json::read(&text, &game.params).as_ref(),
                Ok(&next),
                "{text}"
            );
            pos = next;
            steps += 1;
            assert!(steps < 20_000);
        }
        assert!(game.take_script_error().is_none());
    }
    assert!(
        cards > 20 && converts > 10,
        "cards {cards}, converts {converts}"
    );
}

#[test]
fn card_mode_is_deterministic() {
    let play = |seed| {
        let game = cards_game();
        let mut rng = SplitMix64::new(seed);
        let mut pos = game.start();
        let mut log = Vec::new();
        let mut legal = Vec::new();
        for _ in 0..400 {
            game.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            log.push(a.to_string());
            game.apply(&mut pos, a);
        }
        (log, json::write(&pos))
    };
    assert_eq!(play(9), play(9));
}

/// `docs/lua-api.md` is generated from the bindings: regenerate it with
/// `cargo run -- api > docs/lua-api.md`.
#[test]
fn lua_api_reference_matches_the_bindings() {
    let path = format!("{}/docs/lua-api.md", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        doc,
        script::api::reference(),
        "docs/lua-api.md is stale: regenerate it"
    );
    let lua = ball::games::ball::script::sandbox::Sandbox::new().unwrap();
    script::api::register(&lua.lua).unwrap();
    let registered = script::api::registered(&lua.lua);
    let listed: Vec<&str> = script::api::BINDINGS.iter().map(|b| b.name).collect();
    assert_eq!(
        registered, listed,
        "every binding registered once, in the listed order"
    );
}

/// A variant's `on_touchdown` runs once per touchdown, after the score and
/// before the B3.5 reset (whose fresh setup then stands).
#[test]
fn touchdown_hook_runs_once_before_the_reset() {
    let mut r = Ruleset::standard();
    r.variants = vec![ScriptSource {
        path: "tests/touchdown_hook.lua".into(),
        text: r#"return { name = "knock", text = "Knocks DEF1 down at a touchdown.",
            on_touchdown = function(game, team) game.knock_down("DEF1") end }"#
            .into(),
    }];
    let game = script::game(&r).unwrap_or_else(|e| panic!("{}", e[0]));
    assert!(game.extension.is_some(), "an event hook needs the host");
    let text = "setup:\n  turn 2 ATK action 2\n  place ATK5 G15\n";
    let mut pos = ball::scenario::parse(text, &game).unwrap().start;
    let td: Action = "move ATK5 H16".parse().unwrap();
    let mut log = Vec::new();
    game.play(&mut pos, td, &mut log).unwrap();
    assert_eq!(pos.score, [1, 0]);
    let def1 = ball::games::ball::piece::PieceId::parse("DEF1").unwrap();
    assert!(!pos.piece(def1).down, "the reset came after the hook, once");
    assert_eq!(pos.turn, 3);
    assert!(game.take_script_error().is_none());
}

/// `ball check --card` runs a card's `targets` and `resolve` on the start
/// position and on every shipped scenario's start: a card that fails only
/// when played is caught before any game.
#[test]
fn check_card_plays_the_card() {
    let (path, text) = hostile("error_in_resolve");
    let problems = script::check_card(&path, &text);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = problems[0].to_string();
    assert!(
        p.contains("error_in_resolve.lua:8:") && p.contains("resolve"),
        "{p}"
    );
    for card in ["sprint", "magnet", "early-release"] {
        let path = format!("cards/{card}.lua");
        let text =
            std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert!(script::check_card(&path, &text).is_empty(), "{card}");
    }
}
