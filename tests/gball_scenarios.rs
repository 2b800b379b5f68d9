//! G-ball's `setup:` lines (`src/games/gball/scenario.rs`): a designer's
//! position built line by line, the engine run to the first decision by
//! `phase`, and every bad line refused with its line number and what is
//! wrong, never a panic. The shipped scenarios themselves run in
//! `tests/scenarios.rs` (`tests/scenarios/g*.scn`).

use ball::scenario;

fn run(setup: &str, after: &str) -> Result<scenario::Outcome, scenario::ScenarioError> {
    let text = format!("# a test\ngame: gball\nsetup:\n{setup}\n{after}");
    scenario::run_text(&text, std::path::Path::new("."))
}

fn refused(setup: &str) -> scenario::ScenarioError {
    match run(setup, "") {
        Err(e) => e,
        Ok(out) => panic!("accepted:\n{setup}\n{}", out.report),
    }
}

#[test]
fn phase_runs_the_engine_to_the_first_decision() {
    // RED1 on his own goal square must jump (G6.6); BLU1 in the air moves
    // by rule (G6.4) and RED1's move is the first decision.
    let out = run(
        "  place RED1 A3 E\n  place BLU1 I3 W\n  ball H5 spin\n  phase 1 4",
        "legal:\n  move RED1 E\nillegal:\n  stay RED1  G6.6",
    )
    .unwrap();
    assert!(out.failures.is_empty(), "{:?}", out.failures);
    assert!(out.report.contains("turn 4 (3 played)"), "{}", out.report);
    // A legal: line that does not hold is a failure, so the check bites.
    let out = run(
        "  place RED1 A3 E\n  place BLU1 I3 W\n  ball H5 spin\n  phase 1",
        "legal:\n  stay RED1",
    )
    .unwrap();
    assert_eq!(out.failures.len(), 1, "{:?}", out.failures);
}

#[test]
fn forced_dice_feed_the_engine() {
    let out = run(
        "  place RED1 D1 N\n  place BLU1 I4 W\n  ball D1 N BLU\n  dice 6\n  phase 2",
        "actions:\n  catch RED1",
    )
    .unwrap();
    assert!(out.report.contains("roll catch RED1 6"), "{}", out.report);
    assert!(out.report.contains("catch RED1 7 ok"), "{}", out.report);
}

#[test]
fn bad_setup_lines_are_refused_with_their_line() {
    let cases = [
        ("  place GRN1 A3 E", 4, "GRN1"),
        ("  place RED1 Z3 E", 4, "Z3"),
        ("  place RED1 A3 UP", 4, "UP"),
        ("  place RED1 A3", 4, "expected"),
        ("  out RED1 forever", 4, "forever"),
        ("  ball held RED1", 4, "place RED1 on court"),
        ("  ball D3 Q", 4, "Q"),
        ("  ball D3 N GRN", 4, "GRN"),
        ("  sets 1", 4, "expected"),
        ("  points x 0", 4, "`x`"),
        ("  home GRN", 4, "GRN"),
        ("  dice 0", 4, "0"),
        ("  dice 7", 4, "7"),
        ("  rng -1", 4, "seed"),
        ("  phase 5", 4, "phase"),
        ("  phase 0", 4, "phase"),
        ("  fly RED1", 4, "expected"),
        (
            "  place RED1 D1 N\n  place BLU1 I4 W\n  ball D1 N\n  phase 2\n  place RED2 A3 E",
            8,
            "last setup line",
        ),
    ];
    for (setup, line, says) in cases {
        let e = refused(setup);
        assert_eq!(e.line, line, "{setup}: {e}");
        assert!(e.problem.contains(says), "{setup}: {e}");
    }
}

/// The designer's position is read back like any position: a setup the
/// reader refuses (no ball on court outside placement) says so.
#[test]
fn an_impossible_setup_is_refused_by_the_reader() {
    let e = refused("  place RED1 A3 E\n  place BLU1 I3 W\n  phase 1");
    assert!(e.problem.contains("ball"), "{e}");
}

/// What the engine takes for granted is checked before `phase` runs it:
/// the ball on court, a moving ball's direction on the court, at most
/// `players_on_court` a team.
#[test]
fn phase_checks_what_the_engine_needs() {
    let e = refused("  place RED1 D1 N\n  place BLU1 I4 W\n  phase 2");
    assert_eq!(e.line, 6, "{e}");
    assert!(e.problem.contains("G2.6"), "{e}");
    let e = refused("  ball D1 E");
    assert!(e.problem.contains("G6.2"), "{e}");
    let six: String = (1..=6)
        .map(|n| format!("  place RED{n} B{} N\n", n % 4 + 2))
        .collect();
    let e = refused(&format!(
        "{six}  place BLU1 I4 W\n  ball H5 spin\n  phase 1"
    ));
    assert!(e.problem.contains("G2.4"), "{e}");
}

/// The board's log says tackles and their dice in plain words, not in
/// the notation (`words.rs`): who rolled what, who beat whom by what, and
/// that an equal roll is a fumble nobody wins.
#[test]
fn the_board_log_says_tackles_in_plain_words() {
    use ball::games::gball::Gball;
    use ball::shell::Flow;
    let text = "# log\ngame: gball\nsetup:\n  place RED1 E3 E\n  place BLU2 E3 W\n  ball held RED1\n  dice 1 6 5\n  phase 2\n";
    let sc = scenario::parse::<Gball>(text, &Gball::standard()).unwrap_or_else(|e| panic!("{e}"));
    let (game, mut pos) = (sc.game, sc.start);
    let mut log = Vec::new();
    let decline = ball::kernel::game::Title::parse_action(&game, "decline none").unwrap();
    ball::kernel::game::Game::play(&game, &mut pos, decline, &mut log).unwrap();
    let lines: Vec<String> = log
        .iter()
        .filter_map(|e| game.event_line(e).map(|(t, _)| t))
        .collect();
    assert!(
        lines.contains(&"RED1 rolls 1 in the tackle".to_string()),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("BLU2 beats RED1, 7 to 1")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("BLU2 catches the ball")),
        "{lines:#?}"
    );
    // The coach's own action is the log's action line, not repeated.
    assert!(!lines.iter().any(|l| l.starts_with("act ")), "{lines:#?}");
    // No notation line is left as it was.
    for e in &log {
        if let Some((plain, _)) = game.event_line(e) {
            assert_ne!(e.to_string(), plain);
        }
    }
}

/// No key of a G-ball choice is one the board takes before the game sees
/// it (`u` undo, `r` redo, `s` save, `q` quit, `?` help): such a choice
/// could never be made by its key (`r` for a right turn redid instead).
#[test]
fn no_choice_key_is_a_board_key() {
    use ball::games::gball::Gball;
    use ball::kernel::game::{Game, Title};
    use ball::kernel::rng::SplitMix64;
    use ball::shell::{Flow, Key};
    let game = Gball::standard();
    let (game, mut pos, _) = game.new_game(3);
    let mut rng = SplitMix64::new(3);
    let mut legal = Vec::new();
    let mut kinds = std::collections::BTreeSet::new();
    for _ in 0..20_000 {
        game.legal_into(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        kinds.insert(pos.pending.unwrap().kind());
        for &a in &legal {
            for c in game.choices(&pos, a) {
                for k in &c.keys {
                    assert!(
                        !matches!(k, Key::Char('u' | 'r' | 's' | 'q' | '?')),
                        "{a}: {k:?}"
                    );
                }
            }
        }
        game.apply(&mut pos, legal[rng.below(legal.len())]);
    }
    assert!(kinds.contains("turn") && kinds.contains("act"), "{kinds:?}");
}

/// The score, home team, statuses and seed lines land in the position.
#[test]
fn score_home_status_and_seed_lines() {
    let out = run(
        "  place RED1 A3 E\n  place BLU1 I3 W\n  out BLU5 sinbin\n  ball H5 spin\n  sets 1 0\n  points 2 1\n  home BLU\n  rng 7\n  phase 1 3",
        "",
    )
    .unwrap();
    assert!(out.failures.is_empty(), "{:?}", out.failures);
    let r = &out.report;
    assert!(
        r.contains("sets RED 1 - BLU 0   points RED 2 - BLU 1"),
        "{r}"
    );
    assert!(r.contains("out: BLU5 (sinbin)"), "{r}");
    // BLU is at home and nobody has the ball: BLU has the initiative (G5.2).
    assert!(r.contains("initiative BLU"), "{r}");
}

/// Random setups — players anywhere, any ball, any phase — are each
/// either a position or a refusal with a line: never a panic, which
/// would take `ball test` down with it.
#[test]
fn random_setups_never_panic() {
    use ball::kernel::rng::SplitMix64;
    let dirs = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
    let sq = |rng: &mut SplitMix64| {
        format!(
            "{}{}",
            (b'A' + rng.below(11) as u8) as char,
            1 + rng.below(6)
        )
    };
    let mut rng = SplitMix64::new(14);
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..3000 {
        let mut lines = Vec::new();
        for _ in 0..1 + rng.below(6) {
            let team = if rng.below(2) == 0 { "RED" } else { "BLU" };
            let p = format!("{team}{}", 1 + rng.below(9));
            lines.push(format!(
                "  place {p} {} {}",
                sq(&mut rng),
                dirs[rng.below(8)]
            ));
            if rng.below(6) == 0 {
                lines.push(format!("  ball held {p}"));
            }
        }
        match rng.below(3) {
            0 => lines.push(format!("  ball {} {}", sq(&mut rng), dirs[rng.below(8)])),
            1 => lines.push(format!("  ball {} spin RED", sq(&mut rng))),
            _ => {}
        }
        if rng.below(2) == 0 {
            lines.push(format!("  dice {} {}", 1 + rng.below(6), 1 + rng.below(6)));
        }
        lines.push(format!(
            "  phase {} {}",
            1 + rng.below(4),
            1 + rng.below(99)
        ));
        let setup = lines.join("\n");
        let result = std::panic::catch_unwind(|| run(&setup, "").map(|_| ()));
        match result {
            Ok(Ok(())) => ok += 1,
            Ok(Err(_)) => refused += 1,
            Err(_) => panic!("setup panicked:\n{setup}"),
        }
    }
    // Both kinds occur, so the generator explores more than refusals.
    assert!(
        ok > 20 && refused > 20,
        "{ok} positions, {refused} refusals"
    );
}

/// A terse action gets a plain line after it on the board (`turn BLU2
/// BLU2 none`: "BLU2 keeps his facing"); a plain one does not.
#[test]
fn terse_actions_are_narrated() {
    use ball::games::gball::Gball;
    use ball::kernel::game::Title;
    use ball::shell::Flow;
    let text = "# n\ngame: gball\nsetup:\n  place RED1 E3 E\n  place BLU2 E3 W\n  ball held RED1\n  phase 2\n";
    let sc = scenario::parse::<Gball>(text, &Gball::standard()).unwrap_or_else(|e| panic!("{e}"));
    let (game, pos) = (sc.game, sc.start);
    let say = |a: &str| game.narrate(&pos, game.parse_action(a).unwrap(), &pos, &[]);
    assert_eq!(say("decline none"), ["BLU: nobody stays out of the tackle"]);
    assert_eq!(say("decline BLU2"), ["BLU: BLU2 stays out of the tackle"]);
    assert_eq!(
        say("turn BLU2 RED1 left"),
        ["BLU2 turns the beaten RED1 45° to the left"]
    );
    assert_eq!(say("turn BLU2 BLU2 none"), ["BLU2 keeps his facing"]);
    assert!(say("move RED1 N").is_empty());
}
