//! The script layer: hostile scripts are stopped with file:line and leave
//! the game unchanged; card mode plays whole games; the API reference
//! cannot drift from the registered bindings.

use std::time::Duration;

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
        let started = CpuInstant::now();
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
        let started = CpuInstant::now();
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
        let started = CpuInstant::now();
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

/// `Ball` lists `convert` and applies a native action itself when no
/// script sees it (`PlainCards`): the same lists and positions, EP
/// included, as asking the extension for each, over whole random games
/// that play cards.
#[test]
fn plain_card_mode_lists_and_applies_what_the_extension_does() {
    let plain = cards_game();
    let through = cards_game().through_extension();
    let (mut cards, mut actions) = (0, 0);
    for seed in 0..12 {
        let mut rng = SplitMix64::new(seed);
        let (mut a, mut b) = (plain.start(), through.start());
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        loop {
            plain.legal_into(&a, &mut la);
            through.legal_into(&b, &mut lb);
            assert_eq!(la, lb, "seed {seed}, action {actions}");
            if la.is_empty() {
                break;
            }
            let action = la[rng.below(la.len())];
            cards += usize::from(matches!(action, Action::Card { .. }));
            plain.apply(&mut a, action);
            through.apply(&mut b, action);
            assert_eq!(a, b, "seed {seed}: {action}");
            actions += 1;
        }
    }
    assert!(plain.take_script_error().is_none() && through.take_script_error().is_none());
    assert!(cards > 20, "cards {cards}");
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
    // No host strings: every argument is parsed.
    script::api::register(&lua.lua, &[], &[]).unwrap();
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

// ---------------------------------------------------------------------------
// Hardening: no hook call escapes its budget (issue items 1-4)
// ---------------------------------------------------------------------------

/// The calling thread's CPU time, which is what the sandbox's budget
/// counts: the bounds below then hold on a loaded machine too, where wall
/// time also counts the other jobs' turns (`within` still catches hangs).
#[derive(Clone, Copy)]
struct CpuInstant(Duration);

impl CpuInstant {
    #[cfg(unix)]
    fn now() -> CpuInstant {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid out-pointer for the call's duration.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0, "the thread's CPU clock is readable");
        CpuInstant(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }

    #[cfg(not(unix))]
    fn now() -> CpuInstant {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        CpuInstant(START.get_or_init(std::time::Instant::now).elapsed())
    }

    fn elapsed(self) -> Duration {
        CpuInstant::now().0.saturating_sub(self.0)
    }
}

/// Runs `f` on a thread of its own and waits at most `secs`: a regression
/// fails the test instead of hanging the suite. (A Lua state is not
/// `Send`: `f` builds its game itself.)
fn within<T: Send + 'static>(secs: u64, what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("{what}: still running after {secs} s"))
}

/// A standard game with one variant script, by path and text.
fn with_variant(path: &str, text: &str) -> Ruleset {
    let mut r = Ruleset::standard();
    r.variants = vec![ScriptSource {
        path: path.into(),
        text: text.into(),
    }];
    r
}

/// Whether `e` names `file` with a line number: `file:N:`.
fn at_a_line(e: &str, file: &str) -> bool {
    e.split(&format!("{file}:")).skip(1).any(|rest| {
        rest.split(':')
            .next()
            .is_some_and(|n| n.parse::<u32>().is_ok())
    })
}

/// Items 1-2: finalizers, long C calls (`table.move` over 2^50 elements,
/// quadratic plain `find`, big table and string operations) and coroutine
/// storms in `resolve` stop within a second (3 s under a debug build),
/// with file:line and the hook, and change nothing.
#[test]
fn long_c_calls_finalizers_and_coroutines_stop_in_resolve() {
    for (name, words) in [
        ("move_in_resolve", "budget"),
        ("find_bomb", "budget"),
        ("big_tables", "budget"),
        ("rep_loop", "budget"),
        ("coroutine_storm", "budget"),
        ("gc_in_resolve", "__gc"),
        ("error_table", "table value"),
        ("close_after_loop", "budget"),
        ("handler_loop", "budget"),
    ] {
        let (err, took, unchanged, dropped) = within(20, name, move || {
            let game =
                script::game(&with_card(name)).unwrap_or_else(|e| panic!("{name}: {}", e[0]));
            let start = game.start();
            let card = game
                .legal(&start)
                .into_iter()
                .find(|a| matches!(a, Action::Card { .. }))
                .unwrap_or_else(|| panic!("{name}: card not listed"));
            let mut pos = start;
            let started = CpuInstant::now();
            let err = game.play(&mut pos, card, &mut ()).unwrap_err().to_string();
            let took = started.elapsed();
            let dropped = !game.legal(&pos).contains(&card);
            (err, took, pos == start, dropped)
        });
        assert!(took < Duration::from_secs(3), "{name} took {took:?}");
        assert!(unchanged, "{name} changed the game");
        assert!(dropped, "{name}: a failed card is dropped from the list");
        let file = format!("tests/hostile/{name}.lua");
        assert!(at_a_line(&err, &file), "{name}: no file:line in {err}");
        assert!(err.contains("resolve"), "{name}: {err}");
        assert!(
            err.contains(words) || err.contains("time limit"),
            "{name}: {err}"
        );
        assert!(!err.contains("0x"), "{name}: a heap address in {err}");
    }
}

/// Items 1-2 at load time: a finalizer and a 2^50-step C call in a card's
/// main chunk are refused at their line, in well under a second.
#[test]
fn long_c_calls_and_finalizers_stop_at_load() {
    for (name, line, words) in [("gc_at_load", 3, "__gc"), ("move_at_load", 2, "budget")] {
        let (errors, took) = within(20, name, move || {
            let started = CpuInstant::now();
            let e = match script::game(&with_card(name)) {
                Ok(_) => panic!("{name} loaded"),
                Err(e) => e.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            };
            (e, started.elapsed())
        });
        assert!(took < Duration::from_secs(3), "{name} took {took:?}");
        let e = &errors[0];
        assert!(
            e.contains(&format!("tests/hostile/{name}.lua:{line}:")),
            "{e}"
        );
        assert!(e.contains(words), "{name}: {e}");
        // `check --card` says the same, as fast.
        let (path, text) = hostile(name);
        let problems = within(20, name, move || script::check_card(&path, &text));
        assert!(
            problems.iter().any(|p| p.to_string().contains(words)),
            "{name}: {problems:?}"
        );
    }
}

/// Item 2 in a `targets` function: the card is left out of the list, and
/// the failure is reported with file:line.
#[test]
fn long_c_calls_stop_in_targets() {
    let (err, took, listed) = within(20, "move_in_targets", || {
        let game = script::game(&with_card("move_in_targets")).unwrap();
        let started = CpuInstant::now();
        let legal = game.legal(&game.start());
        let took = started.elapsed();
        let listed = legal.iter().any(|a| matches!(a, Action::Card { .. }));
        (game.take_script_error(), took, listed)
    });
    assert!(took < Duration::from_secs(3), "took {took:?}");
    assert!(!listed, "the failing card is not listed");
    let err = err.expect("the failure is reported");
    assert!(
        at_a_line(&err, "tests/hostile/move_in_targets.lua"),
        "{err}"
    );
    assert!(err.contains("targets") && err.contains("budget"), "{err}");
}

/// Item 1: `__gc` set on a metatable *after* `setmetatable` never marks
/// the object (Lua's rule), so no finalizer runs: the card plays, and the
/// collections that follow, in later hooks, do not hang.
#[test]
fn a_late_gc_field_never_runs() {
    let took = within(20, "gc_late", || {
        let game = script::game(&with_card("gc_late")).unwrap();
        let started = CpuInstant::now();
        let mut pos = game.start();
        let mut rng = SplitMix64::new(5);
        for _ in 0..300 {
            let legal = game.legal(&pos);
            if legal.is_empty() {
                break;
            }
            let a = legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Card { .. }))
                .unwrap_or(legal[rng.below(legal.len())]);
            game.play(&mut pos, a, &mut ()).unwrap();
        }
        assert!(game.take_script_errors().is_empty());
        started.elapsed()
    });
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

/// Item 2 in a variant's event hook: the turn passes (the hook is
/// skipped), the failure is reported with file:line, and the hook is not
/// called again in that game.
#[test]
fn long_c_calls_stop_in_variant_hooks() {
    let (errors, turn, took) = within(30, "turn_start_move", || {
        let (path, text) = hostile("turn_start_move");
        let game = script::game(&with_variant(&path, &text)).unwrap();
        let mut pos = game.start();
        let started = CpuInstant::now();
        for _ in 0..3 {
            game.play(&mut pos, Action::End, &mut ()).unwrap();
        }
        let errors: Vec<String> = game
            .take_script_errors()
            .iter()
            .map(|e| e.to_string())
            .collect();
        (errors, pos.turn, started.elapsed())
    });
    assert!(took < Duration::from_secs(3), "took {took:?}");
    assert_eq!(turn, 4, "the turns passed");
    assert_eq!(errors.len(), 1, "reported once, then skipped: {errors:?}");
    assert!(
        at_a_line(&errors[0], "tests/hostile/turn_start_move.lua"),
        "{errors:?}"
    );
    assert!(errors[0].contains("on_turn_start"), "{errors:?}");
}

/// Item 4: a variant hook that errors, loops or makes an illegal change is
/// reported (never silent), the action stands, and `check` finds all
/// three, as thoroughly as `check --card` finds a card's failures.
#[test]
fn failing_variant_hooks_are_reported_in_play_and_by_check() {
    for (body, words) in [
        ("local x = nil; return x.y", "attempt to index a nil value"),
        ("while true do end", "budget"),
        ("game.stand_up(\"DEF1\")", "DEF1 is not down"),
    ] {
        let text = format!(
            "return {{ name = \"bad\", text = \"Fails.\",\n  on_turn_start = function(game, team)\n    {body}\n  end }}\n"
        );
        let path = "tests/bad_variant.lua";
        let (errors, turn) = within(20, body, {
            let text = text.clone();
            move || {
                let game = script::game(&with_variant(path, &text)).unwrap();
                let mut pos = game.start();
                game.play(&mut pos, Action::End, &mut ()).unwrap();
                let e: Vec<String> = game
                    .take_script_errors()
                    .iter()
                    .map(|e| e.to_string())
                    .collect();
                (e, pos.turn)
            }
        });
        assert_eq!(turn, 2, "{body}: the action stands");
        assert_eq!(errors.len(), 1, "{body}: {errors:?}");
        assert!(errors[0].contains(&format!("{path}:3:")), "{errors:?}");
        assert!(errors[0].contains(words), "{errors:?}");
        assert!(errors[0].contains("on_turn_start"), "{errors:?}");
        let r = with_variant(path, &text);
        let problems = within(30, body, move || script::check_scripts(&r));
        assert_eq!(problems.len(), 1, "{body}: {problems:?}");
        let p = problems[0].to_string();
        assert!(
            p.contains(&format!("{path}:3:")) && p.contains(words),
            "{p}"
        );
    }
    // A touchdown hook that fails only at a touchdown: `check` plays one.
    let text = "return { name = \"td\", text = \"Fails at touchdowns.\",\n  on_touchdown = function(game, team)\n    error(\"no touchdowns\")\n  end }\n";
    let r = with_variant("tests/td_variant.lua", text);
    let problems = within(30, "on_touchdown", move || script::check_scripts(&r));
    assert!(
        problems.iter().any(|p| p
            .to_string()
            .contains("tests/td_variant.lua:3: no touchdowns")),
        "{problems:?}"
    );
}

/// Item 4: a card whose `targets` fails only mid-game is reported when it
/// drops out of the list, not silently.
#[test]
fn a_card_failing_mid_game_is_reported() {
    let text = r#"return {
  id = "late_failure", name = "Late", text = "Fails after turn 2.", cost = 0, args = {},
  targets = function(game)
    if game.turn() > 2 then error("too late") end
    return { {} }
  end,
  resolve = function(game) end,
}"#;
    let mut r = Ruleset::standard();
    r.card_mode = true;
    r.cards = [
        vec![],
        vec![ScriptSource {
            path: "late_failure.lua".into(),
            text: text.into(),
        }],
    ];
    let game = script::game(&r).unwrap();
    let mut pos = game.start();
    let card: Action = "card late_failure".parse().unwrap();
    assert!(game.legal(&pos).contains(&card), "DEF's card, turn 1");
    while pos.turn < 3 {
        let _ = game.legal(&pos);
        assert!(game.take_script_errors().is_empty());
        game.play(&mut pos, Action::End, &mut ()).unwrap();
    }
    let legal = game.legal(&pos);
    assert!(!legal.iter().any(|a| matches!(a, Action::Card { .. })));
    let errors = game.take_script_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].line, Some(4));
    assert_eq!(errors[0].hook, "targets");
    assert!(errors[0].message.contains("too late"), "{errors:?}");
}

/// Item 13: a game's script state is the one it was built with, whatever
/// the scripts did before. Since a script may keep no state between calls
/// at all (issue 23), a card that counts its plays in an upvalue fails on
/// its first play, naming the variable, and is dropped for the game: the
/// same in every game once reset.
#[test]
fn reset_scripts_gives_every_game_the_same_script_state() {
    let text = r#"local plays = 0
return {
  id = "counter", name = "Counter", text = "Fails on its third play.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    plays = plays + 1
    if plays >= 3 then error("third play") end
  end,
}"#;
    let mut r = Ruleset::standard();
    r.card_mode = true;
    r.cards = [
        vec![],
        vec![ScriptSource {
            path: "counter.lua".into(),
            text: text.into(),
        }],
    ];
    let game = script::game(&r).unwrap();
    let card: Action = "card counter".parse().unwrap();
    let run = |game: &Ball| {
        game.reset_scripts();
        let mut pos = game.start();
        let mut outcomes = Vec::new();
        for _ in 0..4 {
            outcomes.push(game.play(&mut pos, card, &mut ()).is_ok());
        }
        (outcomes, game.take_script_errors().len())
    };
    let first = run(&game);
    assert_eq!(first, (vec![false, false, false, false], 1));
    assert_eq!(run(&game), first, "the second game starts afresh");
    assert_eq!(run(&game), first);
}

/// Item 3: states reserve their memory from one pool for the process;
/// more states than it holds wait for one to end, and every state still
/// gets its full limit.
#[test]
fn states_share_one_memory_pool() {
    use ball::games::ball::script::sandbox::{MEMORY_LIMIT, PROCESS_MEMORY_LIMIT};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let most = PROCESS_MEMORY_LIMIT / MEMORY_LIMIT;
    let n = most + 8;
    // How many of these workers hold a state at once: never more than
    // the pool holds (other tests of this process hold some too, so it
    // may be fewer), and every one still gets its full 16 MiB.
    let (alive, peak) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let workers: Vec<_> = (0..n)
        .map(|_| {
            let (alive, peak) = (alive.clone(), peak.clone());
            std::thread::spawn(move || {
                let game = script::game(&with_card("memory_hog")).unwrap();
                let now = alive.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                let start = game.start();
                let card = game
                    .legal(&start)
                    .into_iter()
                    .find(|a| matches!(a, Action::Card { .. }))
                    .unwrap();
                let mut pos = start;
                let played = game.play(&mut pos, card, &mut ());
                std::thread::sleep(Duration::from_millis(30));
                alive.fetch_sub(1, Ordering::SeqCst);
                drop(game);
                played.is_ok()
            })
        })
        .collect();
    let ok = within(120, "memory pool", move || {
        workers
            .into_iter()
            .map(|w| w.join().unwrap())
            .collect::<Vec<_>>()
    });
    assert!(ok.iter().all(|&b| b), "every state had its full 16 MiB");
    let peak = peak.load(Ordering::SeqCst);
    assert!(
        peak <= most,
        "{peak} states at once, more than the pool's {most}"
    );
}

/// Issue 12, item 11: the position of `tests/scenarios/variant_guarded_endzone_veto.scn`
/// before its first action, under `game`.
fn guarded_start(game: &Ball) -> ball::games::ball::position::Position {
    let text =
        "setup:\n  turn 4 ATK action 2\n  place ATK5 G15\n  place DEF3 J16\n  place ATK3 K15\n";
    ball::scenario::parse(text, game).unwrap().start
}

/// A vetoed touchdown scores nothing, resets nothing, and play goes on:
/// the same AP, the holder keeps the ball in the zone, `end` leads to the
/// next turn; the check runs again after the next action and counts once
/// nothing vetoes it. Under `standard` the same move scores.
#[test]
fn a_variant_vetoes_a_touchdown_and_play_goes_on() {
    use ball::games::ball::event::Event;
    let td: Action = "move ATK5 H16".parse().unwrap();
    let native = Ball::new(Ruleset::standard().params);
    let mut pos = guarded_start(&native);
    native.play(&mut pos, td, &mut ()).unwrap();
    assert_eq!(pos.score, [1, 0], "standard counts it");

    let r = Ruleset::load("guarded-endzone").unwrap_or_else(|e| panic!("{e}"));
    let game = script::game(&r).unwrap_or_else(|e| panic!("{}", e[0]));
    let mut pos = guarded_start(&game);
    let mut log = Vec::new();
    game.play(&mut pos, td, &mut log).unwrap();
    assert_eq!(pos.score, [0, 0]);
    assert_eq!((pos.turn, pos.ap), (4, 1), "play goes on in the same turn");
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::TouchdownVetoed { .. })),
        "{log:?}"
    );
    assert!(!log.iter().any(|e| matches!(e, Event::Touchdown { .. })));
    let mut ended = pos;
    game.play(&mut ended, Action::End, &mut ()).unwrap();
    assert_eq!(
        ended.score,
        [0, 0],
        "`end` is vetoed too: the guard still stands"
    );
    assert_eq!(ended.to_move, ball::games::ball::piece::Team::Def);
    let mut log = Vec::new();
    game.play(&mut pos, "tdodge ATK3 I17 I15".parse().unwrap(), &mut log)
        .unwrap();
    assert_eq!(pos.score, [1, 0], "the guard is down: it counts");
    assert!(game.take_script_errors().is_empty());

    // `{count = false}` vetoes too; `true` and nil count.
    for (ret, score) in [("{count = false}", 0), ("true", 1), ("nil", 1)] {
        let text = format!(
            "return {{ name = \"v\", text = \"t\", touchdown_counts = function(game, team) return {ret} end }}"
        );
        let game = script::game(&with_variant("tests/v.lua", &text)).unwrap();
        let mut pos = guarded_start(&game);
        game.play(&mut pos, td, &mut ()).unwrap();
        assert_eq!(pos.score[0], score, "{ret}");
    }
}

/// `allow` only removes: refusing everything leaves `end` (and the
/// release tasks), allowing everything leaves the rules' own list, and an
/// action the rules refuse is refused by its own rule whatever `allow`
/// says. Random positions: the list is always a subset of the native one.
#[test]
fn allow_removes_actions_and_never_adds_one() {
    let none = script::game(&with_variant(
        "tests/none.lua",
        "return { name = \"none\", text = \"t\", allow = function(game, action) return false, \"no\" end }",
    ))
    .unwrap();
    let all = script::game(&with_variant(
        "tests/all.lua",
        "return { name = \"all\", text = \"t\", allow = function(game, action) return true end }",
    ))
    .unwrap();
    let native = Ball::new(Ruleset::standard().params);
    let start = native.start();
    assert_eq!(none.legal(&start), vec![Action::End]);
    assert_eq!(all.canonical_legal(&start), native.canonical_legal(&start));
    let refused = none
        .play(
            &mut start.clone(),
            "move DEF5 F12".parse().unwrap(),
            &mut (),
        )
        .unwrap_err();
    assert_eq!(refused.rule, "ruleset");
    assert!(refused.reason.contains("variant none: no"), "{refused}");
    let illegal = none
        .play(
            &mut start.clone(),
            "move DEF5 G17".parse().unwrap(),
            &mut (),
        )
        .unwrap_err();
    assert_ne!(illegal.rule, "ruleset", "{illegal}");

    // A card `allow` refuses gives the variant's reason, not a card rule.
    let mut r = Ruleset::load("cards").unwrap();
    r.variants = vec![ScriptSource {
        path: "tests/no_cards.lua".into(),
        text: "return { name = \"no-cards\", allow = function(game, a) return a.verb ~= \"card\", \"no cards here\" end }".into(),
    }];
    let cards = script::game(&r).unwrap_or_else(|e| panic!("{}", e[0]));
    let mut pos = ball::scenario::parse("setup:\n  ep DEF 10\n", &cards)
        .unwrap()
        .start;
    let sprint: Action = "card sprint DEF1 F8".parse().unwrap();
    assert!(!cards.legal(&pos).contains(&sprint));
    let e = cards.play(&mut pos, sprint, &mut ()).unwrap_err();
    assert!(e.reason.contains("variant no-cards: no cards here"), "{e}");

    let r = Ruleset::load("guarded-endzone").unwrap();
    let guarded = script::game(&r).unwrap();
    let mut rng = SplitMix64::new(7);
    let mut pos = guarded.start();
    for _ in 0..400 {
        let list = guarded.legal(&pos);
        let mine = native.legal(&pos);
        assert!(list.iter().all(|a| mine.contains(a)), "only removes");
        if list.is_empty() {
            break;
        }
        let a = list[rng.below(list.len())];
        guarded.apply(&mut pos, a);
    }
    assert!(guarded.take_script_errors().is_empty());
}

/// A failing `allow` or `touchdown_counts` (an error, its budget) is
/// reported with file:line and its hook, then skipped for the game: the
/// list is the rules' own again and the touchdown counts. `check` finds
/// both.
#[test]
fn failing_allow_and_touchdown_counts_are_reported() {
    for (hook, body, words) in [
        (
            "allow",
            "local x = nil; return x.y",
            "attempt to index a nil value",
        ),
        ("allow", "while true do end", "budget"),
        ("touchdown_counts", "error(\"no\")", "no"),
        ("touchdown_counts", "return 3", "must return true, false"),
    ] {
        let text = format!(
            "return {{ name = \"bad\", text = \"Fails.\",\n  {hook} = function(game, x)\n    {body}\n  end }}\n"
        );
        let path = "tests/bad_hook.lua";
        let (errors, score, legal_ok) = within(30, body, {
            let text = text.clone();
            move || {
                let game = script::game(&with_variant(path, &text)).unwrap();
                let native = Ball::new(Ruleset::standard().params);
                let mut pos = guarded_start(&game);
                let first = game.legal(&pos);
                let second = game.legal(&pos);
                let legal_ok = first == native.legal(&pos) && second == first;
                game.play(&mut pos, "move ATK5 H16".parse().unwrap(), &mut ())
                    .unwrap();
                let e: Vec<String> = game
                    .take_script_errors()
                    .iter()
                    .map(|e| e.to_string())
                    .collect();
                (e, pos.score[0], legal_ok)
            }
        });
        assert!(legal_ok, "{hook}: a failed hook takes nothing away");
        assert_eq!(score, 1, "{hook}: the touchdown counts");
        assert_eq!(errors.len(), 1, "{body}: reported once: {errors:?}");
        assert!(
            errors[0].contains(path) && errors[0].contains(words) && errors[0].contains(hook),
            "{errors:?}"
        );
        if body.starts_with("local") || body.starts_with("error") {
            assert!(errors[0].contains(&format!("{path}:3:")), "{errors:?}");
        }
        let r = with_variant(path, &text);
        let problems = within(60, body, move || script::check_scripts(&r));
        assert!(
            problems
                .iter()
                .any(|p| p.to_string().contains(path) && p.to_string().contains(words)),
            "check finds {hook}: {problems:?}"
        );
    }
}

/// The hot path stays native: `standard` builds no script host at all
/// (no Lua per action); a ruleset with `allow` does.
#[test]
fn the_standard_ruleset_runs_native() {
    let r = Ruleset::load("standard").unwrap();
    assert!(script::game(&r).unwrap().extension.is_none());
    let r = Ruleset::load("guarded-endzone").unwrap();
    assert!(script::game(&r).unwrap().extension.is_some());
}

/// Issue 12, item 12: the stubs declare the script tables (a misspelt
/// field is flagged in the editor) and mark the removed libraries; the
/// reference documents the same tables; the loader refuses what they do
/// not list.
#[test]
fn stubs_and_reference_declare_the_script_tables() {
    let stubs = script::api::stubs();
    for line in [
        "---@class (exact) Card",
        "---@field per_turn? integer",
        "---@class (exact) Variant",
        "---@field on_touchdown? fun(game: Game, team: Team)",
        "---@field touchdown_counts? fun(game: Game, team: Team)",
        "---@field allow? fun(game: Game, action: ActionInfo)",
        "---@class (exact) PieceFilter",
        "---@class (exact) SquareFilter",
        "---@class (exact) NumberFilter",
        "---@class (exact) Requires",
        "---@deprecated `io` is not available",
        "io = nil",
        "os = nil",
        "debug = nil",
        "package = nil",
    ] {
        assert!(stubs.contains(line), "stubs lack {line}");
    }
    let reference = script::api::reference();
    for heading in [
        "## Cards (`Card`)",
        "## Variants (`Variant`)",
        "## Target filters: a `\"piece\"` argument (`PieceFilter`)",
        "| `touchdown_counts` |",
        "| `beyond` |",
    ] {
        assert!(reference.contains(heading), "reference lacks {heading}");
    }
    // Every listed variant field loads; one not listed does not.
    let all: Vec<String> = script::api::VARIANT_FIELDS
        .iter()
        .map(|f| match f.name {
            "name" | "text" => format!("{} = \"x\"", f.name),
            "params" | "forbid" | "state" | "options" | "ends" | "actions" => {
                format!("{} = {{}}", f.name)
            }
            n => format!("{n} = function() end"),
        })
        .collect();
    let ok = format!("return {{ {} }}", all.join(", "));
    assert!(script::game(&with_variant("tests/all_fields.lua", &ok)).is_ok());
    let bad = "return { name = \"x\", on_turn_strat = function() end }";
    let e = match script::game(&with_variant("tests/typo.lua", bad)) {
        Ok(_) => panic!("a typo loaded"),
        Err(e) => e[0].to_string(),
    };
    assert!(
        e.starts_with(
            "tests/typo.lua:1: unknown field `on_turn_strat` (did you mean `on_turn_start`?)"
        ),
        "{e}"
    );
}

/// A hook that calls a misspelt global or library function is reported
/// with a did-you-mean, as a misspelt field or `game.` function is.
#[test]
fn misspelt_calls_in_hooks_get_did_you_mean() {
    let text = r#"return {
  id = "typo", name = "Typo", text = "Misspells.", cost = 0, args = {},
  targets = function(game) return { {} } end,
  resolve = function(game)
    for k in sorted_pair({}) do end
  end,
}
"#;
    let problems = within(60, "typo", move || script::check_card("typo.lua", text));
    let p: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert!(
        p.iter().any(|p| p.contains("typo.lua:5:")
            && p.contains("(global 'sorted_pair') (did you mean `sorted_pairs`?)")
            && p.contains("hook `resolve`")),
        "{p:?}"
    );
}
