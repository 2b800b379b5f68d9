//! Gateball's rule points (issue 24): each hook changes the game where it
//! should, a bad answer is reported with file and line while the game goes
//! on by the rules, reads cannot write, a variant's counters and points
//! survive the position JSON, and a variant that hooks nothing plays the
//! rulebook's game byte for byte.

use ball::games::gateball::Gateball;
use ball::games::gateball::action::Action;
use ball::games::gateball::event::Event;
use ball::games::gateball::position::{Place, Position, Team};
use ball::games::gateball::ruleset::GateballRuleset;
use ball::kernel::game::{Game, Title};
use ball::kernel::rng::SplitMix64;
use ball::script::layout::OptionValue;
use ball::script::variants::Source;

fn ruleset(text: &str) -> GateballRuleset {
    let mut r = Gateball::load_ruleset("gateball").unwrap();
    r.variants = vec![Source {
        path: "house.lua".into(),
        text: text.into(),
    }];
    r
}

fn game(text: &str) -> Gateball {
    Gateball::build(&ruleset(text)).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays seeded random games to their end: each final position, and the
/// script failures.
fn random_games(g: &Gateball, games: u64) -> (Vec<Position>, Vec<String>) {
    let mut finals = Vec::new();
    let mut errors = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..games {
        g.reset();
        let (g2, mut pos, _) = g.new_game(seed);
        let mut rng = SplitMix64::new(seed + 100);
        for _ in 0..5000 {
            g2.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            Game::apply(&g2, &mut pos, a);
            errors.extend(g2.take_errors());
        }
        finals.push(pos);
    }
    (finals, errors)
}

/// A variant whose hooks all answer nil is the rulebook: same legal
/// lists, same events, same positions, same JSON.
#[test]
fn a_variant_that_changes_nothing_plays_the_rulebook() {
    let quiet = game(
        "return { name = 'quiet',\n\
         allow = function() return nil end, cost = function() return nil end,\n\
         roll = function() return nil end, gate_value = function() return nil end,\n\
         goal_value = function() return nil end, out_ball = function() return nil end,\n\
         spark = function() return nil end, ending = function() return nil end,\n\
         ends_now = function() return nil end, on_event = function() end,\n\
         after_action = function() end }",
    );
    let plain = Gateball::build(&Gateball::load_ruleset("gateball").unwrap()).unwrap();
    for seed in 0..4 {
        let (g1, mut p1, e1) = plain.new_game(seed);
        let (g2, mut p2, e2) = quiet.new_game(seed);
        assert_eq!(format!("{e1:?}"), format!("{e2:?}"));
        let mut rng = SplitMix64::new(seed);
        let (mut l1, mut l2) = (Vec::new(), Vec::new());
        let mut steps = 0;
        loop {
            g1.legal_into(&p1, &mut l1);
            g2.legal_into(&p2, &mut l2);
            assert_eq!(l1, l2, "seed {seed} step {steps}");
            assert_eq!(g1.write_position(&p1), g2.write_position(&p2));
            if l1.is_empty() {
                break;
            }
            let a = l1[rng.below(l1.len())];
            let (mut ev1, mut ev2) = (Vec::new(), Vec::new());
            g1.apply_logged(&mut p1, a, &mut ev1);
            g2.apply_logged(&mut p2, a, &mut ev2);
            assert_eq!(
                format!("{ev1:?}"),
                format!("{ev2:?}"),
                "seed {seed} step {steps}"
            );
            steps += 1;
        }
        assert!(g2.take_errors().is_empty());
        assert!(steps > 20);
    }
}

/// `gate_value` and `goal_value` change what the balls score; the JSON
/// carries the difference (`bonus`) and reads it back.
#[test]
fn gate_and_goal_values_score() {
    let g = game(
        "return { name = 'big', gate_value = function(game, ball, gate) return gate == 3 and 5 or nil end,\n\
         goal_value = function(game, ball) return 9 end }",
    );
    let (_, mut pos, _) = g.new_game(0);
    // As tests/gateball/scenarios/goal.scn: ball 1 on D10 after gate 2.
    pos.ball_mut(1).place =
        Place::Court(ball::games::gateball::space::Space::parse("D10").unwrap());
    pos.ball_mut(1).gates = 2;
    pos.dice_queue.extend([1]);
    g.play(&mut pos, Action::Tech, &mut ()).unwrap();
    let shot = g.parse_action("shot s").unwrap();
    g.play(&mut pos, shot, &mut ()).unwrap();
    assert_eq!(pos.ball_state(1).gates, 3);
    assert_eq!(
        pos.score(Team::Red),
        3 + 4,
        "gate 3 worth 5: 4 more than the rules' 1"
    );
    let text = g.write_position(&pos);
    assert!(
        text.contains("\"bonus\": {\"red\": 4, \"blue\": 0}"),
        "{text}"
    );
    let (_, back) = g.read_position(&text).unwrap();
    assert_eq!(back, pos);
    // The rulebook refuses a position with points the balls do not give.
    let plain = Gateball::standard();
    let e = plain.read_position(&text).unwrap_err();
    assert!(e.contains("bonus"), "{e}");
}

/// `allow` takes actions off the list, `play` refuses them naming the
/// house rule, and a list it would empty keeps the rules' actions.
#[test]
fn allow_filters_and_refuses() {
    let g =
        game("return { name = 'powerless', allow = function(game, a) return a ~= 'power' end }");
    let (_, pos, _) = g.new_game(0);
    assert_eq!(g.canonical_legal(&pos), ["tech"]);
    let e = g
        .play(&mut pos.clone(), Action::Power, &mut ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("house rule powerless does not allow it"), "{e}");
    let none = game("return { name = 'none', allow = function() return false end }");
    assert_eq!(none.canonical_legal(&pos), ["power", "tech"]);
}

/// `cost` takes points, `on_event` and `after_action` write counters,
/// `ends_now` ends the game with the variant's reason, which the outcome
/// names.
#[test]
fn costs_counters_and_a_named_end() {
    let g = game(
        "return { name = 'tally', state = { shots = 'team', gates = 'game' }, ends = { 'tenth-shot' },\n\
         cost = function(game, a) if a == 'power' then return 2 end end,\n\
         on_event = function(game, e) if e.kind == 'gate' then game.set('gates', game.get('gates') + 1) end end,\n\
         after_action = function(game, a, team) if a == 'power' or a == 'tech' then game.set('shots', game.get('shots', team) + 1, team) end end,\n\
         ends_now = function(game) if game.get('shots', 'red') >= 10 then return { winner = 'blue', reason = 'tenth-shot' } end end }",
    );
    let (finals, errors) = random_games(&g, 3);
    assert!(errors.is_empty(), "{errors:?}");
    for pos in &finals {
        assert!(pos.is_over());
        let o = g.outcome(pos).unwrap();
        assert_eq!(o.end.name, "tenth-shot");
        assert_eq!(o.winner(), Some(1));
        let json = g.write_position(pos);
        assert!(json.contains("\"shots\": [10, "), "{json}");
        assert!(json.contains("\"ended_by\": \"tenth-shot\""), "{json}");
        let (_, back) = g.read_position(&json).unwrap();
        assert_eq!(&back, pos);
    }
}

/// `ending` vetoes the end after the last turn (another turn is played)
/// and decides it later with a winner of its own.
#[test]
fn ending_plays_on_and_decides() {
    let g = game(
        "return { name = 'longer', ends = { {name = 'extra', limit = true} },\n\
         ending = function(game, why)\n\
           if why == 'turns-played' and game.turn() < game.turns() + 2 then return false end\n\
           return { winner = 'draw', reason = 'extra' }\n\
         end }",
    );
    let (finals, errors) = random_games(&g, 3);
    assert!(errors.is_empty(), "{errors:?}");
    for pos in &finals {
        assert_eq!(pos.turn, 8, "six turns and two more");
        let o = g.outcome(pos).unwrap();
        assert_eq!((o.end.name, o.end.by_limit), ("extra", true));
    }
}

/// `roll` changes the dice, `spark` refuses sparks, `out_ball` sends
/// out-balls back to start: each seen in the events of random games.
#[test]
fn roll_spark_and_out_ball() {
    let g = game(
        "return { name = 'odd', roll = function(game, kind, dice) local out = {} for i, d in ipairs(dice) do out[i] = 6 end return out end }",
    );
    let (_, mut pos, _) = g.new_game(3);
    let mut events = Vec::new();
    g.apply_logged(&mut pos, Action::Power, &mut events);
    assert!(events.contains(&Event::Roll(vec![6, 6])), "{events:?}");

    let nospark = game(
        "return { name = 'calm', spark = function() return false end, out_ball = function() return 'waiting' end }",
    );
    let mut legal = Vec::new();
    let (mut touches, mut outs) = (0, 0);
    for seed in 0..20 {
        let (g2, mut pos, _) = nospark.new_game(seed);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..3000 {
            g2.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            let mut ev = Vec::new();
            g2.apply_logged(&mut pos, a, &mut ev);
            for e in &ev {
                match e {
                    Event::Touch { ball, .. } => {
                        touches += 1;
                        assert_eq!(pos.spark, None);
                        let _ = ball;
                    }
                    Event::Out(b, _) => {
                        outs += 1;
                        assert_eq!(pos.ball_state(*b).place, Place::Waiting);
                    }
                    _ => {}
                }
            }
            assert!(!matches!(a, Action::Spark(_)), "no spark is ever offered");
        }
    }
    assert!(touches > 0 && outs > 0, "touches {touches} outs {outs}");
}

/// A bad answer, a runtime error and a write from a read-only hook are
/// each reported once with file and line; the game goes on by the rules.
#[test]
fn failures_are_reported_and_the_rules_answer() {
    for (text, want) in [
        (
            "return { name = 'bad',\n  gate_value = function() return 'many' end }",
            "house.lua: must return nil or points 0-9, not `many` (variant bad, hook `gate_value`)",
        ),
        (
            "return { name = 'boom',\n  cost = function(game, a)\n    error('no cost today')\n  end }",
            "house.lua:3: no cost today (variant boom, hook `cost`)",
        ),
        (
            "return { name = 'sneaky',\n  allow = function(game, a)\n    game.set('x', 1)\n  end, state = { x = 'game' } }",
            "house.lua:3: game.set: the kernel refuses changes during `allow`",
        ),
    ] {
        let g = game(text);
        let (finals, errors) = random_games(&g, 2);
        assert!(
            errors.iter().any(|e| e.starts_with(want)),
            "{want}\nnot in {errors:?}"
        );
        let plain = Gateball::build(&Gateball::load_ruleset("gateball").unwrap()).unwrap();
        let (rules_finals, _) = random_games(&plain, 2);
        for (a, b) in finals.iter().zip(&rules_finals) {
            assert_eq!(a.balls, b.balls, "the game went on by the rules");
        }
    }
}

/// Load problems carry file and line: an unknown field with did-you-mean,
/// an undeclared option at its TOML line.
#[test]
fn load_problems_name_file_and_line() {
    let r = ruleset("return {\n  name = 'x',\n  gate_valu = function() end,\n}");
    let e = Gateball::build(&r).unwrap_err();
    assert_eq!(
        e,
        "house.lua:3: unknown field `gate_valu` (did you mean `gate_value`?) (variant house, hook `load`)"
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("v.lua"), "return { name = 'v', options = { bonus = { default = 1, min = 0, max = 3, text = 'b' } } }").unwrap();
    std::fs::write(
        dir.path().join("r.toml"),
        "game = \"gateball\"\nvariants = [\"v.lua\"]\n\n[options]\nbonsu = 2\n",
    )
    .unwrap();
    let path = dir.path().join("r.toml");
    let problems = Gateball::check_ruleset(path.to_str().unwrap());
    let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert!(
        text.iter().any(|p| p.ends_with("r.toml:5: option `bonsu`: no variant of this ruleset declares it (did you mean `bonus`?)")),
        "{text:?}"
    );
}

/// Options set in the ruleset reach `game.param`, range-checked.
#[test]
fn options_reach_the_hooks() {
    let mut r = ruleset(
        "return { name = 'g', options = { worth = { default = 1, min = 0, max = 9, text = 'a gate' } },\n\
         gate_value = function(game) return game.param('worth') end }",
    );
    r.options = vec![(
        OptionValue {
            name: "worth".into(),
            value: 12,
            boolean: false,
        },
        4,
    )];
    let e = Gateball::build(&r).unwrap_err();
    assert!(
        e.contains("option `worth`: the ruleset sets 12, outside 0..=9"),
        "{e}"
    );
}

/// A variant's own action: offered in phase `shot`, written by its word,
/// its `resolve` writes, and the play ends.
#[test]
fn a_variant_action() {
    let g = game(
        "return { name = 'passing', state = { passes = 'team' },\n\
         actions = { { id = 'pass', text = 'skip the play',\n\
           can = function(game) return game.get('passes', game.team_of(game.ball())) < 1 end,\n\
           resolve = function(game) local t = game.team_of(game.ball()) game.set('passes', game.get('passes', t) + 1, t) end } } }",
    );
    let (_, mut pos, _) = g.new_game(0);
    assert_eq!(g.canonical_legal(&pos), ["pass", "power", "tech"]);
    let pass = g.parse_action("pass").unwrap();
    assert_eq!(pass.to_string(), "pass");
    let ball_before = pos.ball;
    let mut events = Vec::new();
    g.play(&mut pos, pass, &mut events).unwrap();
    assert_eq!(events.first(), Some(&Event::EndPlay(ball_before)));
    assert_ne!(pos.ball, ball_before);
    let json = g.write_position(&pos);
    assert!(json.contains("\"vars\": {\"passes\": [1, 0]}"), "{json}");
    // Red's ball 3 later: red has used its pass.
    while Team::of_ball(pos.ball) != Team::Red {
        g.play(&mut pos, pass, &mut ())
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let e = g.play(&mut pos, pass, &mut ()).unwrap_err().to_string();
    assert!(e.contains("action `pass`"), "{e}");
}

/// `docs/lua-api-gateball.md` is generated from Gateball's bindings
/// (`ball --game gateball api > docs/lua-api-gateball.md`), and every
/// listed binding is registered once, in order.
#[test]
fn gateball_lua_reference_matches_the_bindings() {
    use ball::games::gateball::script::api;
    let path = format!("{}/docs/lua-api-gateball.md", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        doc,
        Gateball::script_api(false).unwrap(),
        "docs/lua-api-gateball.md is stale: regenerate it"
    );
    let sandbox = ball::script::sandbox::Sandbox::new().unwrap();
    let game = sandbox.lua.create_table().unwrap();
    api::register(&sandbox.lua, &game).unwrap();
    let registered = ball::script::registry::registered(&sandbox.lua);
    let listed: Vec<&str> = api::BINDINGS.iter().map(|b| b.name).collect();
    assert_eq!(registered, listed);
}
