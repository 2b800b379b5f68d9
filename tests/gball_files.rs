//! G-ball's files: teams files (G2.1–G2.3), rulesets (G18) — the shipped
//! ones load with their values, malformed ones are refused with the file,
//! the line, the rule and a "did you mean" — and `--dice` values.

use ball::games::ball::ruleset::{GameKind, game_of, is_gball, shipped};
use ball::games::gball::ruleset::{self, GballRuleset};
use ball::games::gball::{Gball, Params, Teams, Venue, teams};
use ball::kernel::game::Title;

#[test]
fn g2_3_standard_rosters() {
    let t = Teams::standard();
    let stars: Vec<String> = t
        .red
        .iter()
        .map(|r| ball::games::gball::position::stars_name(r.stars))
        .collect();
    assert_eq!(stars, ["JC", "T", "C", "J", "T", "", "", "", ""]);
    let vets: Vec<u8> = t
        .red
        .iter()
        .filter(|r| r.veteran)
        .map(|r| r.number)
        .collect();
    assert_eq!(vets, [8, 9]);
    assert_eq!(t.red, t.blu);
}

#[test]
fn teams_files_are_read_and_malformed_ones_refused() {
    let ok = teams::parse(
        "t.json",
        r#"{"RED": [{"number": 8, "stars": "", "veteran": true}, {"number": 1, "stars": "JC", "veteran": false, "name": "Alf"}],
            "BLU": [{"number": 1, "stars": "T"}]}"#,
    )
    .unwrap();
    assert_eq!(ok.red.iter().map(|r| r.number).collect::<Vec<_>>(), [1, 8]);
    for (text, want) in [
        ("{", "t.json: not JSON"),
        ("[]", "t.json: a teams file is an object"),
        (r#"{"BLU": []}"#, "t.json: RED: missing"),
        (
            r#"{"RED": [], "BLU": [{"number": 1}]}"#,
            "t.json: RED: a match roster has 1 to 9 players, found 0 (G2.1)",
        ),
        (
            r#"{"RED": [{"number": 10}], "BLU": [{"number": 1}]}"#,
            "t.json: RED[0].number: must be an integer from 1 to 9 (G2.1)",
        ),
        (
            r#"{"RED": [{"number": 2}, {"number": 2}], "BLU": [{"number": 1}]}"#,
            "t.json: RED[1].number: 2 repeats",
        ),
        (
            r#"{"RED": [{"number": 2, "stars": "TC"}], "BLU": [{"number": 1}]}"#,
            "t.json: RED[0].stars: \"TC\" is not a subset of JCT in that order (G2.2)",
        ),
        (
            r#"{"RED": [{"number": 2, "stars": "J", "veteran": true}], "BLU": [{"number": 1}]}"#,
            "t.json: RED[0]: a veteran has no stars (G2.2)",
        ),
        (
            r#"{"RED": [{"number": 2, "stars": 3}], "BLU": [{"number": 1}]}"#,
            "t.json: RED[0].stars: must be a string (G2.2)",
        ),
        (
            r#"{"RED": [{"number": 2, "veteran": "yes"}], "BLU": [{"number": 1}]}"#,
            "t.json: RED[0].veteran: must be true or false (G2.2)",
        ),
        (
            r#"{"RED": [1,2,3,4,5,6,7,8,9,10], "BLU": [{"number": 1}]}"#,
            "t.json: RED: a match roster has 1 to 9 players, found 10 (G2.1)",
        ),
    ] {
        let e = teams::parse("t.json", text).unwrap_err();
        assert!(e.starts_with(want), "{text}: {e}");
    }
    assert!(teams::parse("t.json", &" ".repeat(teams::MAX_BYTES + 1)).is_err());
    assert!(
        teams::load("/no/such/teams.json")
            .unwrap_err()
            .contains("cannot read")
    );
}

#[test]
fn the_teams_option_sets_the_rosters() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teams.json");
    std::fs::write(
        &path,
        r#"{"RED": [{"number": 1, "stars": "JC"}], "BLU": [{"number": 3, "stars": "C"}]}"#,
    )
    .unwrap();
    let mut r = GballRuleset::standard();
    Gball::set_option(&mut r, "teams", path.to_str().unwrap()).unwrap();
    let g = Gball::build(&r).unwrap();
    let (_, pos, _) = g.new_game(0);
    assert_eq!(pos.roster.count_ones(), 2);
    // A position read back describes the same rosters.
    let text = g.write_position(&pos);
    let (back, _) = Gball::standard().read_position(&text).unwrap();
    assert_eq!(back.teams, g.teams);
    assert!(Gball::set_option(&mut r, "court", "x").is_err());
    assert!(Gball::set_option(&mut r, "teams", "/no/such.json").is_err());
}

#[test]
fn shipped_gball_rulesets_load_with_their_values() {
    let names: Vec<String> = shipped().into_iter().filter(|n| is_gball(n)).collect();
    assert_eq!(
        names,
        [
            "gball",
            "gball-comeback-catch",
            "gball-golden-goal",
            "gball-short",
            "gball-veterans"
        ]
    );
    for n in &names {
        assert_eq!(
            game_of(n),
            GameKind::Ball,
            "GameKind has no G-ball value yet"
        );
        assert!(ruleset::check(n).is_empty(), "{n}: {:?}", ruleset::check(n));
        // BALL's loader refuses it with one line.
        let e = ball::games::ball::ruleset::Ruleset::load(n)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("is a G-ball ruleset") && !e.contains('\n'),
            "{e}"
        );
    }
    assert_eq!(ruleset::load("gball").unwrap().params, Params::default());
    let short = ruleset::load("gball-short").unwrap().params;
    assert_eq!(
        (short.sets_to_win_match, short.venue, short.point_turn_limit),
        (1, Venue::Neutral, 60)
    );
    let vets = ruleset::load("gball-veterans").unwrap().params;
    assert!(vets.morale && vets.earned_stars);
    // The house rules: their variants and options (`docs/gball-house-rules.md`).
    let golden = ruleset::load("gball-golden-goal").unwrap();
    assert_eq!(golden.variants[0].path, "scripts/gball/golden-goal.lua");
    assert_eq!(golden.params.match_turn_limit, 400);
    assert_eq!(golden.options[0].name, "extra_turns");
    let comeback = ruleset::load("gball-comeback-catch").unwrap();
    assert_eq!(
        comeback.variants[0].path,
        "scripts/gball/comeback-catch.lua"
    );
    assert_eq!(Gball::DEFAULT_RULESET, "gball");
    assert_eq!(Gball::load_ruleset("gball").unwrap().name, "gball");
}

fn problems_of(text: &str) -> Vec<String> {
    match ruleset::parse("r.toml", text, "r") {
        Ok(_) => Vec::new(),
        Err(p) => p.iter().map(|p| p.to_string()).collect(),
    }
}

#[test]
fn g18_ruleset_problems_have_file_line_and_rule() {
    assert!(problems_of("game = \"gball\"\n").is_empty());
    let p = problems_of("game = \"gball\"\nmoral = true\n");
    assert_eq!(p, ["r.toml:2: unknown key `moral`; did you mean `morale`?"]);
    let p = problems_of("game = \"gball\"\nplayers_on_court = 10\n");
    assert_eq!(
        p,
        ["r.toml:2: `players_on_court` must be 1–9, found 10 (G2.4)"]
    );
    let p = problems_of("game = \"gball\"\nmorale = \"yes\"\n");
    assert_eq!(
        p,
        ["r.toml:2: `morale` must be true or false, found a string (G15)"]
    );
    let p = problems_of("game = \"gball\"\nvenue = \"away\"\n");
    assert!(
        p[0].starts_with("r.toml:2: `venue` must be \"home\" or \"neutral\" (G3.3)"),
        "{p:?}"
    );
    let p = problems_of("game = \"gball\"\nstar_cost = [1, 2]\n");
    assert!(
        p[0].starts_with("r.toml:2: `star_cost` must be a list of three integers"),
        "{p:?}"
    );
    let p = problems_of("point_turn_limit = 5\n");
    assert!(p[0].starts_with("r.toml:1: missing `game`"), "{p:?}");
    let p = problems_of("game = \"gateball\"\n");
    assert!(p[0].contains("not a G-ball ruleset"), "{p:?}");
    let p = problems_of("game = \"gball\"\n[params]\nx = 1\n");
    assert!(p[0].contains("has no [params]"), "{p:?}");
    let p = problems_of("game = \"gball\"\nteams = \"t.json\"\n");
    assert!(p[0].contains("--teams"), "{p:?}");
    let p = problems_of("game = \"gball\"\ncatch_target = ");
    assert!(p[0].contains("TOML syntax"), "{p:?}");
    let p = ruleset::check("gbal");
    assert!(p[0].message.contains("did you mean `gball`?"), "{p:?}");
}

#[test]
fn ruleset_files_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.toml");
    std::fs::write(&path, "game = \"gball\"\nsets_to_win_match = 2\n").unwrap();
    let r = ruleset::load(path.to_str().unwrap()).unwrap();
    assert_eq!((r.name.as_str(), r.params.sets_to_win_match), ("mine", 2));
    assert!(r.to_toml().contains("sets_to_win_match = 2"));
    let again = ruleset::parse("x", &r.to_toml(), "x").unwrap();
    assert_eq!(again.params, r.params, "to_toml reads back");
    assert!(ruleset::load("/no/such/ruleset.toml").is_err());
}

#[test]
fn g14_3_dice_values_out_of_range() {
    let g = Gball::standard();
    let mut pos = g.start(0);
    for bad in [0u32, 7, 100] {
        let e = g.force_dice(&mut pos, &[3, bad]).unwrap_err();
        assert!(e.starts_with("--dice:") && e.contains("G14.3"), "{e}");
    }
    assert!(pos.dice.is_empty(), "a refused --dice queues nothing");
    g.force_dice(&mut pos, &[1, 6]).unwrap();
    assert_eq!(pos.dice, [1, 6]);
}
