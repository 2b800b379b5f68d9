//! G-ball house rules in Lua (issue 24, `src/games/gball/script/`): each
//! rule point changes the match; a bad answer or a failing hook is
//! reported with file and line while the match goes on as the rules say;
//! writes are refused in read-only hooks; the variants' counters survive
//! the position JSON; options come from the ruleset's `[options]`; a
//! variant's end is named in the lab's output; and a variant that hooks
//! nothing plays the very same match as the standard ruleset.

use std::path::PathBuf;

use ball::games::gball::Gball;
use ball::games::gball::action::Action;
use ball::games::gball::position::Position;
use ball::games::gball::ruleset::GballRuleset;
use ball::kernel::game::{Game, Title};
use ball::kernel::rng::SplitMix64;
use ball::script::variants::Source;

use crate::cli_support::ball;

/// The standard ruleset with one variant of text `lua` (file `v.lua`).
fn with_variant(lua: &str) -> Gball {
    let mut r = GballRuleset::standard();
    r.variants = vec![Source {
        path: "v.lua".into(),
        text: lua.into(),
    }];
    r.build().unwrap_or_else(|e| panic!("{}", e[0]))
}

/// A folder of its own for a test's files.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ball-gball-points-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `v.lua` and `r.toml` (G-ball, `variants = ["v.lua"]`, then
/// `toml`) into a folder; the ruleset's path.
fn ruleset_files(name: &str, lua: &str, toml: &str) -> PathBuf {
    let d = dir(name);
    std::fs::write(d.join("v.lua"), lua).unwrap();
    std::fs::write(
        d.join("r.toml"),
        format!("game = \"gball\"\nvariants = [\"v.lua\"]\n{toml}"),
    )
    .unwrap();
    d.join("r.toml")
}

/// Plays `n` seeded random decisions of match `seed` (or to its end):
/// every decision's sorted legal list and events, as text, and the final
/// position.
fn play(g: &Gball, seed: u64, n: usize) -> (Vec<String>, Position) {
    let (_, mut pos, start) = g.new_game(seed);
    let mut out: Vec<String> = start.iter().map(ToString::to_string).collect();
    let mut rng = SplitMix64::new(seed);
    let mut legal = Vec::new();
    for _ in 0..n {
        g.legal_into(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        let mut texts: Vec<String> = legal.iter().map(ToString::to_string).collect();
        texts.sort();
        out.push(format!("legal: {}", texts.join(",")));
        let a = legal[rng.below(legal.len())];
        let mut log = Vec::new();
        g.apply_logged(&mut pos, a, &mut log);
        out.extend(log.iter().map(ToString::to_string));
    }
    (out, pos)
}

fn events(g: &Gball, seed: u64, n: usize) -> Vec<String> {
    play(g, seed, n).0
}

#[test]
fn a_variant_that_hooks_nothing_plays_the_same_match() {
    let standard = Gball::standard();
    let nothing = with_variant("return { name = \"nothing\", text = \"Changes nothing.\" }");
    assert!(nothing.script.is_some());
    for seed in [1, 7] {
        let (a, pa) = play(&standard, seed, 6000);
        let (b, pb) = play(&nothing, seed, 6000);
        assert_eq!(a, b, "seed {seed}: legal lists and events");
        assert_eq!(pa, pb, "seed {seed}: position");
        assert_eq!(
            standard.write_position(&pa),
            nothing.write_position(&pb),
            "seed {seed}: position JSON"
        );
    }
    // Every rule point hooked, each answering as the rules do.
    let rules = with_variant(
        r#"return { name = "rules",
            allow = function(game, a) return true end,
            catch_target = function(game, p) return game.param("catch_target") end,
            tackle_modifier = function(game, p, kind) return 0 end,
            injury = function(game, p, roll) return nil end,
            goal_value = function(game, team) return 1 end,
            ending = function(game, why) return nil end,
            ends_now = function(game) return nil end,
            morale = function(game, team, level) return level end,
            earns_star = function(game, p, star) return true end,
            on_event = function(game, e) end,
            after_action = function(game, a) end }"#,
    );
    let (a, _) = play(&standard, 3, 1500);
    let (b, _) = play(&rules, 3, 1500);
    assert_eq!(a, b);
    assert!(rules.take_errors().is_empty());
}

#[test]
fn allow_filters_the_legal_list_but_never_empties_it() {
    let no_spin = with_variant(
        r#"return { name = "no-spin", allow = function(game, a) return a.verb ~= "spin" end }"#,
    );
    let log = events(&no_spin, 2, 3000);
    assert!(
        log.iter().all(|l| !l.contains("spin ")),
        "a spin was played"
    );
    assert!(
        events(&Gball::standard(), 2, 3000)
            .iter()
            .any(|l| l.contains("spin "))
    );
    // `play` refuses a filtered action, citing the ruleset.
    let (_, mut pos, _) = no_spin.new_game(2);
    let mut rng = SplitMix64::new(2);
    let mut legal = Vec::new();
    let spin = loop {
        let raw = Gball::standard().legal(&pos);
        if let Some(a) = raw.iter().find(|a| matches!(a, Action::Spin(_))) {
            break *a;
        }
        no_spin.legal_into(&pos, &mut legal);
        let a = legal[rng.below(legal.len())];
        no_spin.apply(&mut pos, a);
    };
    let e = no_spin.play(&mut pos, spin, &mut Vec::new()).unwrap_err();
    assert!(e.contains("ruleset") && e.contains("allow"), "{e}");
    // Refusing everything leaves the rules' list.
    let none =
        with_variant(r#"return { name = "none", allow = function(game, a) return false end }"#);
    assert_eq!(events(&none, 5, 800), events(&Gball::standard(), 5, 800));
}

#[test]
fn dice_hooks_change_the_match() {
    // RED's tackle dice +6, BLU's -6: RED wins every pair.
    let strong = with_variant(
        r#"return { name = "strong", tackle_modifier = function(game, p, kind)
            if game.player(p).team == "RED" then return 6 else return -6 end end }"#,
    );
    let log = events(&strong, 4, 20000);
    let tackles: Vec<&String> = log.iter().filter(|l| l.starts_with("tackle ")).collect();
    assert!(!tackles.is_empty());
    for t in &tackles {
        let w: Vec<&str> = t.split(' ').collect();
        // `tackle X rx Y ry WINNER`: the winner is RED's.
        assert!(w[5].starts_with("RED"), "{t}");
    }
    // Nobody is ever injured; catches need 13 (never made).
    let gentle = with_variant(
        r#"return { name = "gentle",
            injury = function(game, p, roll) return "none" end,
            catch_target = function(game, p) return 13 end }"#,
    );
    let log = events(&gentle, 4, 20000);
    assert!(log.iter().all(|l| !l.starts_with("injury ")));
    assert!(log.iter().any(|l| l.starts_with("catch ")));
    assert!(
        log.iter()
            .filter(|l| l.starts_with("catch "))
            .all(|l| l.ends_with("miss"))
    );
    assert!(
        events(&Gball::standard(), 4, 20000)
            .iter()
            .any(|l| l.starts_with("injury "))
    );
}

#[test]
fn goal_value_morale_and_stars() {
    // A goal is worth 3: the first goal of the match makes 3 points.
    let three = with_variant(
        r#"return { name = "three", goal_value = function(game, team) return 3 end }"#,
    );
    let (_, mut pos, _) = three.new_game(6);
    let mut rng = SplitMix64::new(6);
    let mut legal = Vec::new();
    while pos.points == [0, 0] && pos.sets == [0, 0] {
        three.legal_into(&pos, &mut legal);
        let a = legal[rng.below(legal.len())];
        three.apply(&mut pos, a);
    }
    assert!(pos.points.contains(&3), "{:?}", pos.points);
    // With morale (G15), RED's level 20 gives RED the initiative always.
    let mut r = GballRuleset::standard();
    r.params.morale = true;
    r.variants = vec![Source {
        path: "v.lua".into(),
        text: r#"return { name = "high", morale = function(game, team, level)
            if team == "RED" then return 20 end end }"#
            .into(),
    }];
    let g = r.build().unwrap();
    let log = events(&g, 1, 3000);
    let phases: Vec<&String> = log.iter().filter(|l| l.starts_with("phase ")).collect();
    assert!(!phases.is_empty());
    assert!(phases.iter().all(|l| l.ends_with("RED")), "{phases:?}");
    // Earned stars (G16) refused: no `star` event, where the rules give some.
    let mut r = GballRuleset::standard();
    r.params.earned_stars = true;
    r.params.catch_attempts_min = 1;
    r.params.catch_rate_min = 0;
    let plain = <Gball as Title>::build(&r).unwrap();
    assert!(
        events(&plain, 2, 20000)
            .iter()
            .any(|l| l.starts_with("star "))
    );
    r.variants = vec![Source {
        path: "v.lua".into(),
        text: r#"return { name = "no-stars", earns_star = function(game, p, s) return false end }"#
            .into(),
    }];
    let g = r.build().unwrap();
    assert!(events(&g, 2, 20000).iter().all(|l| !l.starts_with("star ")));
}

#[test]
fn a_bad_answer_is_reported_with_file_and_line_and_the_rules_answer() {
    let bad = with_variant(
        "return {\n  name = \"bad\",\n  catch_target = function(game, p)\n    return 99\n  end,\n  goal_value = function(game, team) return game.nosuch() end,\n}\n",
    );
    let a = events(&Gball::standard(), 3, 20000);
    let b = events(&bad, 3, 20000);
    assert_eq!(a, b, "the rules answer for a failed hook");
    let errors = bad.take_errors();
    let text: Vec<String> = errors.clone();
    assert!(
        text.iter().any(|e| e.starts_with("v.lua:3: ")
            && e.contains("not 99")
            && e.contains("catch_target")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|e| e.starts_with("v.lua:6: ") && e.contains("nosuch")),
        "{text:?}"
    );
    // Asked once: one failure per hook and match.
    assert_eq!(
        text.iter().filter(|e| e.contains("catch_target")).count(),
        1
    );
    assert!(bad.take_errors().is_empty(), "taken");
    // A runtime error in a reaction: reported, the match goes on.
    let boom = with_variant(
        "return { name = \"boom\",\n  after_action = function(game, a)\n    error(\"boom\")\n  end }\n",
    );
    assert_eq!(events(&boom, 3, 500), events(&Gball::standard(), 3, 500));
    let errors = boom.take_errors();
    assert!(
        errors[0].starts_with("v.lua:3: ") && errors[0].contains("boom"),
        "{errors:?}"
    );
}

#[test]
fn writes_are_refused_in_read_only_hooks() {
    let sneaky = with_variant(
        "return { name = \"sneaky\", state = { n = \"game\" },\n  catch_target = function(game, p)\n    game.set(\"n\", 1)\n  end,\n  ends_now = function(game)\n    game.give_star(\"RED1\", \"J\")\n  end }\n",
    );
    let (_, pos) = play(&sneaky, 3, 5000);
    assert_eq!(pos.vars, vec![0], "no write went through");
    let errors = sneaky.take_errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|e| e.contains("read-only")), "{errors:?}");
    assert!(
        errors.iter().any(|e| e.starts_with("v.lua:3: ")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.starts_with("v.lua:6: ")),
        "{errors:?}"
    );
    // A change the position checks refuse is dropped: a counter set to a
    // value its slot cannot hold is refused by `set` itself, a star on
    // nobody by `give_star`.
    let wrong = with_variant(
        "return { name = \"wrong\", state = { n = \"team\" },\n  after_action = function(game, a)\n    game.set(\"n\", 1)\n  end }\n",
    );
    let _ = play(&wrong, 3, 50);
    let errors = wrong.take_errors();
    assert!(errors[0].contains("team counter"), "{errors:?}");
}

#[test]
fn state_saves_and_loads_through_json() {
    let lua = r#"return { name = "count", state = { goals = "team", acts = "game", caught = "player" },
        after_action = function(game, a) game.set("acts", (game.get("acts") + 1) % 1000) end,
        on_event = function(game, e)
            if e.kind == "score" then
                local t = game.player(e.player).team
                game.set("goals", game.get("goals", t) + 1, t)
            end
            if e.kind == "catch" and string.find(e.text, " ok", 1, true) then
                game.set("caught", game.get("caught", e.player) + 1, e.player)
            end
        end }"#;
    let g = with_variant(lua);
    let (_, mut pos, _) = g.new_game(8);
    let fresh = g.write_position(&pos);
    assert!(!fresh.contains("\"vars\""), "all 0: not written\n{fresh}");
    let mut rng = SplitMix64::new(8);
    let mut legal = Vec::new();
    let goals = g.layout().unwrap().var("goals").unwrap().slot;
    while pos.vars[0] == 0 || pos.vars[goals] + pos.vars[goals + 1] == 0 {
        g.legal_into(&pos, &mut legal);
        let a = legal[rng.below(legal.len())];
        g.apply(&mut pos, a);
        assert!(pos.winner.is_none());
    }
    let text = g.write_position(&pos);
    assert!(text.contains("\"vars\": {\"acts\": "), "{text}");
    assert!(text.contains("\"goals\": {\"RED\": "), "{text}");
    let (g2, back) = g.read_position(&text).unwrap();
    assert_eq!(back, pos);
    assert_eq!(g2.write_position(&back), text);
    // Both go on alike.
    let mut a = pos.clone();
    let mut b = back;
    for _ in 0..300 {
        g.legal_into(&a, &mut legal);
        if legal.is_empty() {
            break;
        }
        let act = legal[rng.below(legal.len())];
        g.apply(&mut a, act);
        g2.apply(&mut b, act);
    }
    assert_eq!(a, b);
    // A counter the ruleset does not keep is refused by the reader.
    let bad = text.replace("\"acts\"", "\"akts\"");
    let e = g.read_position(&bad).unwrap_err();
    assert!(e.contains("vars.akts") && e.contains("did you mean"), "{e}");
    // Without variants, no `vars` may be given.
    let e = Gball::standard().read_position(&text).unwrap_err();
    assert!(e.contains("vars"), "{e}");
}

#[test]
fn options_come_from_the_ruleset_toml() {
    let lua = "return { name = \"easy\",\n  options = { target = { default = 3, min = 1, max = 6, text = \"The catch target.\" } },\n  catch_target = function(game, p) return game.param(\"target\") end }\n";
    let path = ruleset_files("options", lua, "\n[options]\ntarget = 1\n");
    let r = Gball::load_ruleset(path.to_str().unwrap()).unwrap();
    let g = Gball::build(&r).unwrap();
    assert_eq!(g.layout().unwrap().option("target").unwrap().value, 1);
    let log = events(&g, 4, 20000);
    let catches: Vec<&String> = log.iter().filter(|l| l.starts_with("catch ")).collect();
    assert!(!catches.is_empty());
    assert!(
        catches.iter().all(|l| l.ends_with("ok")),
        "target 1: every catch holds"
    );
    assert!(Gball::fingerprint(&r) != Gball::fingerprint(&GballRuleset::standard()));
    // Out of range, or undeclared: `ball check` says where.
    let path = ruleset_files("range", lua, "\n[options]\ntarget = 9\n");
    let out = ball(&["check", "--ruleset", path.to_str().unwrap()], None);
    assert_eq!(out.code, Some(2), "{}", out.stdout);
    assert!(out.stdout.contains("outside 1..=6"), "{}", out.stdout);
    let path = ruleset_files("undeclared", lua, "\n[options]\ntargte = 2\n");
    let out = ball(&["check", "--ruleset", path.to_str().unwrap()], None);
    assert_eq!(out.code, Some(2), "{}", out.stdout);
    assert!(
        out.stdout.contains("r.toml:5: option `targte`"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("did you mean `target`"),
        "{}",
        out.stdout
    );
    // The script's problems, with file and line, from the probes.
    let path = ruleset_files(
        "probe",
        "return { name = \"p\",\n  goal_value = function(game, t)\n    return \"two\"\n  end }\n",
        "",
    );
    let out = ball(&["check", "--ruleset", path.to_str().unwrap()], None);
    assert_eq!(out.code, Some(2), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("v.lua:2: must return nil or the points 0-9"),
        "{}",
        out.stdout
    );
    // The shipped house rules are clean.
    for name in ["gball-golden-goal", "gball-comeback-catch"] {
        let out = ball(&["check", "--ruleset", name], None);
        assert_eq!(out.code, Some(0), "{name}: {}", out.stdout);
    }
}

#[test]
fn a_variant_end_is_named_in_the_lab() {
    let lua = "return { name = \"first\", ends = { \"first-goal\" },\n  ends_now = function(game)\n    if game.points(\"RED\") + game.points(\"BLU\") > 0 then return { reason = \"first-goal\" } end\n  end }\n";
    let g = with_variant(lua);
    let (_, pos) = play(&g, 1, 200_000);
    let outcome = g.outcome(&pos).expect("the first goal ends the match");
    assert_eq!(outcome.end.name, "first-goal");
    assert!(!outcome.end.by_limit);
    assert!(
        g.write_position(&pos)
            .contains("\"ended_by\": \"first-goal\"")
    );
    let path = ruleset_files("lab", lua, "");
    let out = ball(
        &["sim", "--ruleset", path.to_str().unwrap(), "--games", "2"],
        None,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("first-goal"), "{}", out.stdout);
    // A failing script in the lab: exit 3, the failure with file:line.
    let path = ruleset_files(
        "lab-bad",
        "return { name = \"b\",\n  catch_target = function(game, p) return 0 end }\n",
        "match_turn_limit = 60\n",
    );
    let out = ball(
        &["sim", "--ruleset", path.to_str().unwrap(), "--games", "2"],
        None,
    );
    assert_eq!(out.code, Some(3), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("v.lua:2: must return nil or a catch target 1-13, not 0"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_api_reference_matches_the_bindings() {
    use ball::games::gball::script::api;
    let path = format!("{}/docs/lua-api-gball.md", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        doc,
        api::reference(),
        "docs/lua-api-gball.md is stale: regenerate it with `ball --game gball api > docs/lua-api-gball.md`"
    );
    assert_eq!(Gball::script_api(false), Some(api::reference()));
    let g = with_variant("return { name = \"n\" }");
    let lua = &g.script.as_ref().unwrap().host.sandbox.lua;
    let registered = ball::script::registry::registered(lua);
    let listed: Vec<&str> = api::BINDINGS.iter().map(|b| b.name).collect();
    assert_eq!(
        registered, listed,
        "every binding registered once, in the listed order"
    );
}

#[test]
fn ending_plays_on_past_a_won_match_and_ends_it_its_way() {
    // One set of one point wins by G3.1; the variant plays on to two sets.
    let mut r = GballRuleset::standard();
    r.params.sets_to_win_match = 1;
    r.params.points_to_win_set = 1;
    r.variants = vec![Source {
        path: "v.lua".into(),
        text: r#"return { name = "two", ends = { "two-sets" },
            ending = function(game, why)
                if why ~= "sets" then return nil end
                if math.max(game.sets("RED"), game.sets("BLU")) < 2 then return false end
                return { reason = "two-sets" }
            end }"#
            .into(),
    }];
    let g = r.build().unwrap();
    let (_, pos) = play(&g, 2, 400_000);
    let outcome = g.outcome(&pos).expect("over");
    assert_eq!(outcome.end.name, "two-sets");
    assert_eq!(pos.sets.iter().max(), Some(&2), "{:?}", pos.sets);
    let standard = <Gball as Title>::build(&GballRuleset {
        variants: Vec::new(),
        ..r.clone()
    })
    .unwrap();
    let (_, pos) = play(&standard, 2, 400_000);
    assert_eq!(pos.sets.iter().max(), Some(&1));
    assert_eq!(standard.outcome(&pos).unwrap().end.name, "sets");
    assert!(g.take_errors().is_empty());
}

#[test]
fn check_card_checks_a_gball_variant_alone() {
    let d = dir("card");
    let path = d.join("v.lua");
    std::fs::write(
        &path,
        "return { name = \"v\",\n  morale = function(game, team, level)\n    return -1\n  end }\n",
    )
    .unwrap();
    let out = ball(
        &["--game", "gball", "check", "--card", path.to_str().unwrap()],
        None,
    );
    assert_eq!(out.code, Some(2), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("v.lua:2: must return nil or a morale level 0-20, not -1"),
        "{}",
        out.stdout
    );
    let out = ball(
        &[
            "--game",
            "gball",
            "check",
            "--card",
            "scripts/gball/golden-goal.lua",
        ],
        None,
    );
    assert_eq!(out.code, Some(0), "{}", out.stdout);
}
