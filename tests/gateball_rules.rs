//! Gateball rules, one or more tests per rule id of docs/rules/gateball.md,
//! and the worked example of docs/rules/gateball-notation.md.

use ball::games::gateball::Gateball;
use ball::games::gateball::action::{self, Action};
use ball::games::gateball::event::Event;
use ball::games::gateball::position::{Phase, Place, Position};
use ball::games::gateball::space::Space;
use ball::kernel::perft::perft;
use ball::kernel::rng::SplitMix64;

fn sp(name: &str) -> Space {
    Space::parse(name).unwrap()
}

fn act(text: &str) -> Action {
    action::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays `actions`, returning the events as text lines with the `> ` lines.
fn run(game: &Gateball, pos: &mut Position, actions: &[&str]) -> Vec<String> {
    let mut lines = Vec::new();
    for a in actions {
        let mut log: Vec<Event> = Vec::new();
        game.play(pos, act(a), &mut log)
            .unwrap_or_else(|e| panic!("{a}: {e}"));
        lines.push(format!("> {a}"));
        lines.extend(log.iter().map(|e| e.to_string()));
    }
    lines
}

fn legal_text(game: &Gateball, pos: &Position) -> Vec<String> {
    game.legal(pos).iter().map(|a| a.to_string()).collect()
}

/// docs/rules/gateball-notation.md, "Events": ball 1 on T9, ball 3's start shot.
#[test]
fn notation_worked_example() {
    let game = Gateball::standard();
    let mut pos = Position::start(SplitMix64::new(0));
    pos.ball_mut(1).place = Place::Court(sp("T9"));
    pos.ball_mut(1).gates = 1;
    pos.ball = 3;
    pos.dice_queue.extend([2, 6, 4, 1]);
    let lines = run(
        &game,
        &mut pos,
        &["power", "shot T1 N 8", "spark W 5", "end"],
    );
    assert_eq!(
        lines,
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
            "play 4 start",
        ]
    );
    assert_eq!(pos.ball_state(1).place, Place::Court(sp("O9")));
    assert_eq!(pos.ball_state(3).place, Place::Court(sp("T9")));
    assert_eq!(pos.ball_state(3).gates, 1);
    assert_eq!(pos.ball, 4);
}

/// Perft from the start with seed 0 (the figure; the dice of each
/// line come from the position's generator, so a line's future is fixed).
/// Depth 2: power rolls 6 3 (13 start moves) and tech rolls 6 (321 paths).
#[test]
fn start_perft_seed_0() {
    let game = Gateball::standard();
    let pos = game.start();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&game, &pos, d)).collect();
    assert_eq!(counts, [2, 334, 668, 12_376, 24_828]);
}

#[test]
fn t3_5_first_shot_compulsory() {
    let game = Gateball::standard();
    let pos = game.start();
    assert_eq!(legal_text(&game, &pos), ["power", "tech"]);
}

/// docs/rules/gateball-notation.md: "a start shot with a 6 from the default
/// Start Area has 321" technical paths.
#[test]
fn t5_3_start_tech_six_has_321_paths() {
    let game = Gateball::standard();
    let mut pos = game.start();
    pos.dice_queue.push_back(6);
    run(&game, &mut pos, &["tech"]);
    assert_eq!(pos.phase, Phase::Move);
    assert_eq!(game.legal(&pos).len(), 321);
}

// ---- helpers -------------------------------------------------------------

/// A position of the standard game with `ball` to play in phase `shot`:
/// `spec` lists (ball, place, gates) where place is a space name, `out:A12`,
/// `goal`; every other ball waits.
fn at(ball: u8, spec: &[(u8, &str, u8)], queue: &[u8]) -> Position {
    let mut pos = Position::start(SplitMix64::new(0));
    for &(n, place, gates) in spec {
        let p = pos.ball_mut(n);
        p.gates = gates;
        p.place = if place == "goal" {
            Place::Goal
        } else if let Some(s) = place.strip_prefix("out:") {
            Place::Out(sp(s))
        } else {
            Place::Court(sp(place))
        };
    }
    pos.ball = ball;
    pos.dice_queue.extend(queue.iter().copied());
    pos
}

fn refused(game: &Gateball, pos: &Position, text: &str) -> String {
    let mut p = pos.clone();
    let err = game
        .play(&mut p, act(text), &mut Vec::new())
        .expect_err(text)
        .to_string();
    assert_eq!(&p, pos, "a refused action changed the position");
    err
}

fn events_of(game: &Gateball, pos: &mut Position, actions: &[&str]) -> String {
    run(game, pos, actions).join("\n")
}

// ---- T1 court ------------------------------------------------------------

/// T1.3: Inside-Line spaces are court spaces; the Outside Line is not.
#[test]
fn t1_3_inside_line_is_court() {
    let c = Gateball::standard().court;
    for s in ["B2", "U16", "B9", "K2"] {
        assert!(c.is_court(sp(s)) && c.is_inside_line(sp(s)), "{s}");
    }
    for s in ["A1", "V17", "A9", "K1", "K17"] {
        assert!(c.is_outside(sp(s)) && !c.is_court(sp(s)), "{s}");
    }
    assert!(c.is_court(sp("C3")) && !c.is_inside_line(sp("C3")));
}

/// T1.5, T9.1: a start shot names a Start-Area space.
#[test]
fn t1_5_start_space_must_be_in_start_area() {
    let game = Gateball::standard();
    let mut pos = at(1, &[], &[4, 4]);
    run(&game, &mut pos, &["power"]);
    assert!(refused(&game, &pos, "shot R1 N 8").contains("T9.1"));
    assert!(refused(&game, &pos, "shot N 8").contains("T9.1"));
    run(&game, &mut pos, &["shot T1 N 8"]);
}

/// T1.7: only the orthogonal step bottom → top passes a gate forward; the
/// step back passes it backward and scores nothing.
#[test]
fn t1_7_gate_passage_directions() {
    let game = Gateball::standard();
    // Ball 1 has gate 1 and stands on M14 (gate 2's top): east passes gate 2
    // backward.
    let mut pos = at(1, &[(1, "M14", 1)], &[1]);
    let ev = events_of(&game, &mut pos, &["tech", "shot e"]);
    assert!(ev.contains("pass 1 2 backward"), "{ev}");
    assert_eq!(pos.ball_state(1).gates, 1);
    // From N14 west scores gate 2.
    let mut pos = at(1, &[(1, "N14", 1)], &[1]);
    let ev = events_of(&game, &mut pos, &["tech", "shot w"]);
    assert!(ev.contains("gate 1 2"), "{ev}");
    assert_eq!(pos.ball_state(1).gates, 2);
}

/// T1.7: a diagonal step never passes a gate.
#[test]
fn t1_7_diagonal_never_passes() {
    let game = Gateball::standard();
    // S2 → T3 diagonally: gate 1 is not in reach, and no diagonal step
    // crosses a gate edge anyway.
    let mut p2 = at(3, &[(3, "S2", 1), (1, "K5", 1)], &[1, 2]);
    let ev = events_of(&game, &mut p2, &["power", "shot NE 1"]);
    assert!(!ev.contains("gate") && !ev.contains("pass"), "{ev}");
    assert_eq!(p2.ball_state(3).place, Place::Court(sp("T3")));
}

// ---- T3 turns and plays ---------------------------------------------------

/// T3.1, T2.1: balls play in number order, red (odd) first.
#[test]
fn t3_1_balls_play_in_order() {
    let game = Gateball::standard();
    let mut pos = game.start();
    assert_eq!(pos.ball, 1);
    // Tech 1 from the Start Area can never pass gate 1: the start fails.
    pos.dice_queue.extend([1]);
    let ev = events_of(&game, &mut pos, &["tech", "shot T1 n"]);
    assert_eq!(
        ev,
        "> tech\nroll 1\n> shot T1 n\nfailstart 1\nendplay 1\nplay 2 start"
    );
    assert_eq!(pos.ball_state(1).place, Place::Waiting);
    assert_eq!(pos.ball, 2);
}

/// T3.2, T3.4: a ball that scored a Goal is skipped; after ball 10 the next
/// turn starts with the first ball still playing.
#[test]
fn t3_4_next_turn_skips_goal_balls() {
    let game = Gateball::standard();
    let mut pos = at(10, &[(1, "goal", 3), (10, "C3", 1)], &[1]);
    let ev = events_of(&game, &mut pos, &["tech", "shot n"]);
    assert!(ev.ends_with("endplay 10\nturn 2\nplay 2 start"), "{ev}");
    assert_eq!((pos.turn, pos.ball), (2, 2));
}

/// T3.5: no pass; `end` only for a continuation.
#[test]
fn t3_5_end_only_for_continuation() {
    let game = Gateball::standard();
    let pos = at(1, &[(1, "C3", 1)], &[]);
    assert!(refused(&game, &pos, "end").contains("T3.5"));
}

/// T3.6, T5.7: a roll with no legal move is resolved by the engine.
#[test]
fn t5_7_no_move_loses_the_shot() {
    let game = Gateball::standard();
    // Ball 1 on C3 boxed in: west B3 is Inside Line (free), so use a
    // re-entry whose every move is blocked instead: out on A9, entry B9,
    // balls on B8, B10 and C9 around it.
    let mut pos = at(
        1,
        &[(1, "out:A9", 0), (3, "B8", 1), (5, "B10", 1), (7, "C9", 1)],
        &[1],
    );
    pos.ball_mut(1).gates = 1;
    let ev = events_of(&game, &mut pos, &["tech"]);
    assert_eq!(ev, "> tech\nroll 1\nnomove 1\nendplay 1\nplay 2 start");
    assert_eq!(pos.ball_state(1).place, Place::Out(sp("A9")));
}

// ---- T4 dice --------------------------------------------------------------

/// T4.3, T4.5: the roll comes after the type, from the seeded generator.
#[test]
fn t4_5_dice_from_seed() {
    let game = Gateball::standard();
    let mut pos = game.start();
    let ev = events_of(&game, &mut pos, &["power"]);
    assert_eq!(ev, "> power\nroll 6 3");
    assert_eq!(pos.dice, [6, 3]);
    assert_eq!(pos.phase, Phase::Move);
}

/// T4.6: the queue is used first and leaves the RNG untouched.
#[test]
fn t4_6_dice_queue_first() {
    let game = Gateball::standard();
    let mut pos = game.start();
    pos.dice_queue.extend([2]);
    let before = pos.rng;
    run(&game, &mut pos, &["power"]);
    assert_eq!(pos.dice, [2, 6]);
    assert_ne!(pos.rng, before);
    let mut q = game.start();
    q.dice_queue.extend([2, 5]);
    run(&game, &mut q, &["power"]);
    assert_eq!(q.rng, before);
}

// ---- T5 shots -------------------------------------------------------------

/// T5.2: orthogonal distance is the sum, diagonal one die.
#[test]
fn t5_2_power_distances() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "L5", 1)], &[2, 3]);
    run(&game, &mut pos, &["power"]);
    let legal = legal_text(&game, &pos);
    for a in [
        "shot N 5",
        "shot E 5",
        "shot NE 2",
        "shot NE 3",
        "shot SW 2",
    ] {
        assert!(legal.contains(&a.to_string()), "{a} missing: {legal:?}");
    }
    assert!(refused(&game, &pos, "shot N 4").contains("T5.2"));
    assert!(refused(&game, &pos, "shot NE 5").contains("T5.2"));
    assert!(refused(&game, &pos, "shot nn").contains("T5.2"));
}

/// T5.3: a path never enters a space twice nor its origin.
#[test]
fn t5_3_path_no_revisit() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "K5", 1)], &[4]);
    run(&game, &mut pos, &["tech"]);
    assert!(refused(&game, &pos, "shot nesw").contains("T5.3"));
    assert!(refused(&game, &pos, "shot nsnn").contains("T5.3"));
    run(&game, &mut pos, &["shot nene"]);
    assert_eq!(pos.ball_state(1).place, Place::Court(sp("M7")));
}

/// T5.4: the whole path unless a stopping event ends it, written only up
/// to that step.
#[test]
fn t5_4_exact_distance() {
    let game = Gateball::standard();
    // Ball 2 on L7: from L5 the path `nn` touches it at its second step.
    let mut pos = at(1, &[(1, "L5", 1), (2, "L7", 1)], &[4]);
    run(&game, &mut pos, &["tech"]);
    let legal = legal_text(&game, &pos);
    assert!(
        legal.contains(&"shot nn".to_string()),
        "a touch ends the path"
    );
    assert!(!legal.contains(&"shot ee".to_string()), "no stopping short");
    assert!(refused(&game, &pos, "shot ee").contains("T5.4"));
    assert!(refused(&game, &pos, "shot nnn").contains("T5.4"));
    assert!(refused(&game, &pos, "shot eeeee").contains("T5.3"));
    assert!(
        legal
            .iter()
            .all(|a| a.len() == "shot eeee".len() || a.ends_with("nn"))
    );
}

/// T5.5: a step is judged gate first, then the space it enters: crossing
/// gate 1 onto a ball scores the gate and then touches.
#[test]
fn t5_5_gate_then_touch() {
    let game = Gateball::standard();
    // A waiting ball's start: T1 north 3 passes gate 1 and touches ball 3.
    let mut pos = at(1, &[(3, "T4", 1)], &[1, 2, 4, 4]);
    let ev = events_of(&game, &mut pos, &["power", "shot T1 N 3"]);
    assert_eq!(
        ev,
        "> power\nroll 1 2\n> shot T1 N 3\ngate 1 1\ntouch 1 3 T4\nroll 4 4"
    );
    assert_eq!(pos.phase, Phase::Spark);
    assert_eq!(pos.spark, Some(3));
}

/// T1.7, T6.3: a diagonal move across the gate's edge scores nothing: ball
/// 3 (needs gate 2) moves from N13 NW onto M14 — gate 2's top — diagonally.
#[test]
fn t1_7_diagonal_onto_top_scores_nothing() {
    let game = Gateball::standard();
    let mut pos = at(3, &[(3, "O13", 1)], &[1, 2]);
    let ev = events_of(&game, &mut pos, &["power", "shot NW 2"]);
    assert!(!ev.contains("gate 3"), "{ev}");
    assert_eq!(pos.ball_state(3).place, Place::Court(sp("M15")));
    assert_eq!(pos.ball_state(3).gates, 1);
}

// ---- T6 gates -------------------------------------------------------------

/// T6.2: a gate out of order scores nothing and blocks nothing.
#[test]
fn t6_2_out_of_order_scores_nothing() {
    let game = Gateball::standard();
    // Ball 1 has only gate 1; D10 → D9 is gate 3.
    let mut pos = at(1, &[(1, "D11", 1)], &[2]);
    let ev = events_of(&game, &mut pos, &["tech", "shot ss"]);
    assert!(ev.contains("pass 1 3 forward"), "{ev}");
    assert_eq!(pos.ball_state(1).gates, 1);
}

/// T6.4: one move scores several gates in step order (gate 2 then gate 3
/// are far apart, so use a court where a path can cross both: here a
/// ball with gate 2 crossing gate 3 and reaching the Finish in one path).
#[test]
fn t6_4_and_t10_2_gate_then_goal_in_one_move() {
    let game = Gateball::standard();
    // Ball 1 with gates 1, 2 on D10: south scores gate 3 (D10 → D9), then
    // the same power move runs east along row 9 … K9 is 8 steps away.
    let mut pos = at(1, &[(1, "D10", 2)], &[1]);
    let ev = events_of(&game, &mut pos, &["tech", "shot s"]);
    assert!(ev.contains("gate 1 3"), "{ev}");
    let mut pos = at(1, &[(1, "C9", 3)], &[4, 4]);
    let ev = events_of(&game, &mut pos, &["power", "shot E 8"]);
    assert!(ev.contains("goal 1"), "{ev}");
    assert_eq!(pos.ball_state(1).place, Place::Goal);
    assert_eq!(pos.score(ball::games::gateball::position::Team::Red), 5);
}

/// T6.5: a point stays when the same move leaves the court.
#[test]
fn t6_5_point_kept_when_out() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "D10", 2)], &[4, 5]);
    let ev = events_of(&game, &mut pos, &["power", "shot S 9"]);
    assert!(ev.contains("gate 1 3") && ev.contains("out 1 D1"), "{ev}");
    assert_eq!(pos.ball_state(1).gates, 3);
    assert_eq!(pos.ball_state(1).place, Place::Out(sp("D1")));
}

// ---- T7 touch and spark ---------------------------------------------------

/// T7.1, T7.5, T6.3: the sparked ball scores its own gate for its team.
#[test]
fn t6_3_sparked_ball_scores_its_gate() {
    let game = Gateball::standard();
    // Ball 1 touches ball 2 (on T3, no gate yet? a ball on the board has
    // gate 1 by T11.2, so ball 2 needs gate 2: put it on N14 instead).
    let mut pos = at(1, &[(1, "N12", 1), (2, "N14", 1)], &[1, 1, 1, 1]);
    let ev = events_of(&game, &mut pos, &["power", "shot N 2"]);
    assert!(ev.contains("touch 1 2 N14"), "{ev}");
    let ev = events_of(&game, &mut pos, &["spark W 2"]);
    assert!(ev.contains("gate 2 2"), "{ev}");
    assert_eq!(pos.ball_state(2).gates, 2);
    assert_eq!(pos.ball_state(1).place, Place::Court(sp("N14")));
    assert!(pos.continuation);
    assert_eq!(legal_text(&game, &pos), ["end", "power", "tech"]);
}

/// T7.2: out-balls are never touched and never block.
#[test]
fn t7_2_out_balls_do_not_block() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "C9", 1), (2, "out:A9", 1)], &[1, 1]);
    let ev = events_of(&game, &mut pos, &["power", "shot W 2"]);
    assert!(ev.contains("out 1 A8") || ev.contains("out 1 A10"), "{ev}");
}

/// T7.3, T9.3: a start shot that touches before gate 1 fails.
#[test]
fn t7_3_start_touch_before_gate_fails() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(2, "T2", 1)], &[1, 2]);
    let ev = events_of(&game, &mut pos, &["power", "shot T1 N 3"]);
    assert_eq!(
        ev,
        "> power\nroll 1 2\n> shot T1 N 3\nfailstart 1\nendplay 1\nplay 2 court"
    );
    assert_eq!(pos.ball_state(1).place, Place::Waiting);
    assert_eq!(pos.ball_state(2).place, Place::Court(sp("T2")));
}

/// T7.4: touching the same ball again in a play puts the shot ball out.
#[test]
fn t7_4_touched_twice() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "K4", 1), (2, "K6", 1)], &[1, 1, 1, 1, 1, 1]);
    run(&game, &mut pos, &["power", "shot N 2", "spark E 2"]);
    // Ball 2 now on M6; ball 1 on K6. Shoot at it again: east 2.
    let ev = events_of(&game, &mut pos, &["power", "shot E 2"]);
    assert!(ev.contains("twice 1 2 M6"), "{ev}");
    assert!(ev.contains("out 1 M1"), "{ev}");
    assert_eq!(pos.ball_state(2).place, Place::Court(sp("M6")));
    assert_eq!(pos.ball, 2);
}

/// T7.6 a: a power spark stops before a ball; a blocked first step is
/// illegal.
#[test]
fn t7_6_power_spark_collision() {
    let game = Gateball::standard();
    let mut pos = at(
        1,
        &[(1, "K4", 1), (2, "K6", 1), (4, "K8", 1), (6, "L6", 1)],
        &[1, 1, 3, 3],
    );
    run(&game, &mut pos, &["power", "shot N 2"]);
    assert!(refused(&game, &pos, "spark E 6").contains("T7.6"));
    let ev = events_of(&game, &mut pos, &["spark N 6"]);
    assert!(ev.ends_with("collide 2 4 K7"), "{ev}");
    assert!(!pos.is_touched(4));
}

/// T7.6 b: a technical spark never enters a ball's space.
#[test]
fn t7_6_tech_spark_avoids_balls() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "K4", 1), (2, "K5", 1), (4, "K7", 1)], &[1, 2]);
    run(&game, &mut pos, &["tech", "shot n"]);
    assert_eq!(pos.phase, Phase::Spark);
    assert!(refused(&game, &pos, "spark nn").contains("T7.6"));
    assert!(legal_text(&game, &pos).contains(&"spark ee".to_string()));
}

/// T7.7: no legal spark — the shot ball steps back, the touch still
/// counts. Ball 1 on L10 touches ball 2 on M11 diagonally; every first step
/// of the spark is blocked but the way back, which runs over the Finish
/// (K9) that ball 2 may not enter (T10.3).
#[test]
fn t7_7_no_spark() {
    let game = Gateball::standard();
    let mut spec = vec![(1, "L10", 1), (2, "M11", 1)];
    for (n, s) in [
        (3, "M12"),
        (4, "N12"),
        (5, "N11"),
        (6, "N10"),
        (7, "M10"),
        (8, "L11"),
        (9, "L12"),
    ] {
        spec.push((n, s, 1));
    }
    let mut pos = at(1, &spec, &[1, 1, 2, 2]);
    let ev = events_of(&game, &mut pos, &["power", "shot NE 1"]);
    assert!(
        ev.ends_with("touch 1 2 M11\nroll 2 2\nnospark 2 1 L10"),
        "{ev}"
    );
    assert_eq!(pos.ball_state(1).place, Place::Court(sp("L10")));
    assert_eq!(pos.ball_state(2).place, Place::Court(sp("M11")));
    assert!(pos.continuation && pos.is_touched(2));
    assert_eq!(pos.phase, Phase::Shot);
}

/// T7.8: after the spark the play goes on; `end` declines.
#[test]
fn t7_8_continuation_and_end() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "K4", 1), (2, "K6", 1)], &[1, 1, 1, 1]);
    run(&game, &mut pos, &["power", "shot N 2", "spark E 2"]);
    assert_eq!(
        (pos.phase, pos.ball, pos.continuation),
        (Phase::Shot, 1, true)
    );
    let ev = events_of(&game, &mut pos, &["end"]);
    assert_eq!(ev, "> end\nendplay 1\nplay 2 court");
    assert!(!pos.continuation && pos.touched == 0);
}

// ---- T8 out-ball ----------------------------------------------------------

/// T8.2: a taken Outside-Line space (or a Start-Area one) sends the ball to
/// the nearest free one, ties by board order.
#[test]
fn t8_2_placement() {
    let game = Gateball::standard();
    // Ball 1 from T5 runs south 4: T4, T3 (gate 1 backward), T2, T1 — a
    // Start-Area space. The nearest free others are R1 and V1 (squared
    // distance 4 each); R1 comes first in board order.
    let mut pos = at(1, &[(1, "T5", 1)], &[2, 2]);
    let ev = events_of(&game, &mut pos, &["power", "shot S 4"]);
    assert!(
        ev.contains("pass 1 1 backward") && ev.contains("out 1 R1"),
        "{ev}"
    );
    // An out-ball already on the space: the next free one.
    let mut pos = at(1, &[(1, "C9", 1), (2, "out:A9", 1)], &[1, 1]);
    let ev = events_of(&game, &mut pos, &["power", "shot W 2"]);
    assert!(
        ev.contains("out 1 A8"),
        "A8 and A10 tie; A8 is first in board order: {ev}"
    );
}

/// T8.4: the re-entry shot starts from the entry space, may not leave the
/// court, pass a gate or touch; its play then ends.
#[test]
fn t8_4_reentry() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "out:V3", 1)], &[2]);
    run(&game, &mut pos, &["tech"]);
    let legal = legal_text(&game, &pos);
    // Entry U3; `ww` would go U3 → T3 → S3: fine; `nn` is fine; `ee` leaves.
    assert!(legal.contains(&"shot ww".to_string()), "{legal:?}");
    assert!(refused(&game, &pos, "shot ee").contains("T8.4"));
    let ev = events_of(&game, &mut pos, &["shot ww"]);
    assert!(ev.contains("at 1 S3") && ev.contains("endplay 1"), "{ev}");
    // A re-entry from A4 (entry B4) with a ball on C4 may not touch it.
    let mut pos = at(1, &[(1, "out:A4", 1), (2, "C4", 1)], &[2]);
    run(&game, &mut pos, &["tech"]);
    assert!(refused(&game, &pos, "shot e").contains("T8.4"));
}

/// T8.4: a corner ball enters at the diagonal court corner; a taken entry
/// space means no re-entry this turn.
#[test]
fn t8_4_noentry() {
    let game = Gateball::standard();
    assert_eq!(game.court.entry_space(sp("A1")), sp("B2"));
    assert_eq!(game.court.entry_space(sp("A2")), sp("B2"));
    assert_eq!(game.court.entry_space(sp("B1")), sp("B2"));
    assert_eq!(game.court.entry_space(sp("V17")), sp("U16"));
    // Ball 2 is out on A1 with B2 taken: its play is skipped.
    let mut pos = at(1, &[(1, "K4", 1), (2, "out:A1", 1), (3, "B2", 1)], &[1]);
    let ev = events_of(&game, &mut pos, &["tech", "shot e"]);
    assert!(
        ev.ends_with("endplay 1\nplay 2 reentry\nnoentry 2\nendplay 2\nplay 3 court"),
        "{ev}"
    );
}

// ---- T9 start -------------------------------------------------------------

/// T9.2: a start shot's first step must enter the court.
#[test]
fn t9_2_first_step_enters_court() {
    let game = Gateball::standard();
    let mut pos = at(1, &[], &[3]);
    run(&game, &mut pos, &["tech"]);
    assert!(refused(&game, &pos, "shot T1 enn").contains("T9.2"));
    assert!(
        !legal_text(&game, &pos)
            .iter()
            .any(|a| a.starts_with("shot U1 e"))
    );
}

/// T9.3, T9.4: a start passes gate 1 forward or fails; after gate 1 it is
/// an ordinary shot.
#[test]
fn t9_3_start_success_and_failure() {
    let game = Gateball::standard();
    let mut pos = at(1, &[], &[1, 2]);
    let ev = events_of(&game, &mut pos, &["power", "shot T1 N 3"]);
    assert!(ev.contains("gate 1 1\nat 1 T4"), "{ev}");
    assert_eq!(pos.ball_state(1).gates, 1);
    let mut pos = at(1, &[], &[1, 1]);
    let ev = events_of(&game, &mut pos, &["power", "shot T1 N 2"]);
    assert!(ev.contains("failstart 1"), "{ev}");
    assert_eq!(
        pos.ball_state(1),
        Position::start(SplitMix64::new(0)).ball_state(1)
    );
}

// ---- T10 goal -------------------------------------------------------------

/// T10.3: a ball without gate 3 may neither stop on nor pass the Finish.
#[test]
fn t10_3_finish_before_gate_3_illegal() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "H9", 2)], &[3, 3]);
    run(&game, &mut pos, &["power"]);
    assert!(refused(&game, &pos, "shot E 6").contains("T10.3"));
    let mut pos = at(1, &[(1, "H9", 3)], &[3, 3]);
    let ev = events_of(&game, &mut pos, &["power", "shot E 6"]);
    assert!(ev.contains("goal 1\nendplay 1"), "{ev}");
}

/// T10.4: a Goal by a sparked ball does not end the play.
#[test]
fn t10_4_spark_goal_keeps_the_play() {
    let game = Gateball::standard();
    let mut pos = at(1, &[(1, "M7", 1), (2, "M9", 3)], &[1, 1, 1, 1]);
    run(&game, &mut pos, &["power", "shot N 2"]);
    let ev = events_of(&game, &mut pos, &["spark W 2"]);
    assert!(ev.ends_with("goal 2"), "{ev}");
    assert_eq!((pos.ball, pos.phase), (1, Phase::Shot));
    assert_eq!(pos.ball_state(2).place, Place::Goal);
}

// ---- T12 end --------------------------------------------------------------

/// T12.2, T12.4, T12.5: the game ends after the last play of the last
/// turn; equal scores draw; the play's fields are cleared.
#[test]
fn t12_2_last_play_ends_game() {
    let mut game = Gateball::standard();
    game.rules.turns = 1;
    let mut pos = at(10, &[(10, "K4", 1), (1, "C3", 1)], &[1]);
    let ev = events_of(&game, &mut pos, &["tech", "shot n"]);
    assert!(ev.ends_with("endplay 10\nover draw 1 1"), "{ev}");
    assert_eq!(pos.phase, Phase::Over);
    assert_eq!((pos.turn, pos.ball), (1, 10));
    assert!(game.legal(&pos).is_empty());
    assert!(refused(&game, &pos, "power").contains("T12.5"));
}

/// T12.3: a Perfect Game ends the game at once, also mid-play.
#[test]
fn t12_3_perfect_game() {
    let game = Gateball::standard();
    let mut pos = at(
        9,
        &[
            (1, "goal", 3),
            (3, "goal", 3),
            (5, "goal", 3),
            (7, "goal", 3),
            (9, "H9", 3),
            (2, "C3", 1),
        ],
        &[3, 3],
    );
    let ev = events_of(&game, &mut pos, &["power", "shot E 6"]);
    assert!(ev.ends_with("goal 9\nperfect red\nover red 25 1"), "{ev}");
    assert!(pos.perfect);
    assert_eq!(pos.phase, Phase::Over);
    assert!(pos.dice.is_empty() && pos.shot.is_none());
}

// ---- T14 variants ---------------------------------------------------------

/// T14.2: with `gate_bonus` a gate scored without a touch earns a
/// continuation.
#[test]
fn t14_2_gate_bonus() {
    let mut game = Gateball::standard();
    game.rules.gate_bonus = true;
    let mut pos = at(1, &[], &[1, 2]);
    let ev = events_of(&game, &mut pos, &["power", "shot T1 N 3"]);
    assert!(ev.ends_with("gate 1 1\nat 1 T4"), "{ev}");
    assert_eq!(
        (pos.ball, pos.phase, pos.continuation),
        (1, Phase::Shot, true)
    );
    assert_eq!(legal_text(&game, &pos), ["end", "power", "tech"]);
}

/// T14.3: with `spark_dice = "reuse"` the spark uses the shot's dice.
#[test]
fn t14_3_spark_dice_reuse() {
    let mut game = Gateball::standard();
    game.rules.spark_dice = ball::games::gateball::SparkDice::Reuse;
    let mut pos = at(1, &[(1, "K4", 1), (2, "K6", 1)], &[1, 1]);
    let ev = events_of(&game, &mut pos, &["power", "shot N 2"]);
    assert!(ev.ends_with("touch 1 2 K6"), "no new roll: {ev}");
    assert_eq!(pos.dice, [1, 1]);
    assert!(legal_text(&game, &pos).contains(&"spark E 2".to_string()));
}
