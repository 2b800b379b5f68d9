//! One or more tests per rule of `gball.md`, each named by its rule id,
//! with forced dice. Positions are built with `gball_support` and pass
//! the JSON reader before play (so every scenario is a reachable-looking
//! position the notation accepts).

use ball::games::gball::position::{
    Pending, Phase, Position, ResKind, Resolution, STAR_T, Status, Winner,
};
use ball::games::gball::{Gball, Team, Venue, flow, rules, teams};
use ball::kernel::game::{Game, Title};
use ball::kernel::rng::SplitMix64;

use crate::gball_support::*;

fn res(pos: &mut Position, kind: ResKind) {
    pos.resolution = Some(Resolution::new(kind, pos.ball.at));
}

fn small_teams(text: &str) -> ball::games::gball::Teams {
    teams::parse("t", text).unwrap()
}

// ------------------------------------------------------------- G1, G6

#[test]
fn g1_6_g6_5_g6_6_goal_player_jumps_out_diagonal_pair_included() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED2", "A2", "E"), ("BLU1", "H1", "N")]);
    loose(&mut pos, "F3", "N", None);
    ready(&g, &mut pos, Phase::Phase1, 3, Pending::Move(id("RED2")));
    // SE is the diagonal pair A2–B1; N and S walk along the wall; no stay
    // on a goal square with a legal move (OFFSIDE).
    assert_eq!(
        legal(&g, &pos),
        ["move RED2 E", "move RED2 NE", "move RED2 SE"]
    );
    let e = g
        .play(
            &mut pos.clone(),
            g.parse_action("stay RED2").unwrap(),
            &mut Vec::new(),
        )
        .unwrap_err();
    assert!(e.contains("G6.6"), "{e}");
    let e = g
        .play(
            &mut pos.clone(),
            g.parse_action("move RED2 N").unwrap(),
            &mut Vec::new(),
        )
        .unwrap_err();
    assert!(e.contains("WALL-WALKING"), "{e}");
}

#[test]
fn g6_5_ganging_counts_only_team_mates_who_already_moved() {
    let g = standard();
    let mut pos = blank(&g);
    // RED2 (before RED3 in order) has moved onto C2 facing N; RED6 (after
    // RED3) stands on D2 facing NE and will move on.
    place(
        &mut pos,
        &[
            ("RED2", "C2", "N"),
            ("RED3", "C1", "E"),
            ("RED6", "D2", "NE"),
            ("BLU1", "J1", "N"),
        ],
    );
    loose(&mut pos, "F3", "N", None);
    ready(&g, &mut pos, Phase::Phase1, 3, Pending::Move(id("RED3")));
    assert_eq!(
        legal(&g, &pos),
        ["move RED3 NE", "move RED3 NW", "stay RED3"]
    );
    let e = g
        .play(
            &mut pos.clone(),
            g.parse_action("move RED3 N").unwrap(),
            &mut Vec::new(),
        )
        .unwrap_err();
    assert!(e.contains("GANGING"), "{e}");
}

#[test]
fn g6_5_holder_on_a_wall_stays_automatically() {
    let g = standard();
    let mut pos = blank(&g);
    // BLU1 decides; then RED1, holding on C1, may only stay: `auto`.
    place(&mut pos, &[("BLU1", "J1", "N"), ("RED1", "C1", "N")]);
    held(&mut pos, "RED1");
    ready(&g, &mut pos, Phase::Phase1, 3, Pending::Move(id("BLU1")));
    let ev = play(&g, &mut pos, &["stay BLU1"]);
    assert_eq!(ev[..3], ["act stay BLU1", "auto stay RED1", "phase 2 RED"]);
}

#[test]
fn g6_9_g4_5_moving_into_the_goal_scores_and_the_ball_starts_on_f6() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("BLU3", "H1", "N"), ("RED1", "J4", "E")]);
    held(&mut pos, "RED1");
    ready(&g, &mut pos, Phase::Phase1, 5, Pending::Move(id("BLU3")));
    let ev = play(&g, &mut pos, &["stay BLU3"]);
    assert_eq!(
        ev,
        [
            "act stay BLU3",
            "moved RED1 J4 K4",
            "score RED1 K4",
            "newpoint RED",
            "entry F6 SE"
        ]
    );
    assert_eq!(pos.points, [1, 0]);
    assert_eq!(pos.prev_winner, Some(Team::Red));
    assert_eq!(pos.match_turns, 1);
    assert_eq!(pos.pending, Some(Pending::Place(Team::Blu)));
    assert_eq!((pos.ball.at, pos.ball.dir), (sq("F6"), dir("SE")));
    reread(&g, &pos);
}

#[test]
fn g4_5_start_squares_and_diagonals() {
    assert_eq!(
        flow::start_after_score(sq("K2"), Team::Blu),
        (sq("F1"), dir("NE"))
    );
    assert_eq!(
        flow::start_after_score(sq("K5"), Team::Blu),
        (sq("F6"), dir("SE"))
    );
    assert_eq!(
        flow::start_after_score(sq("A3"), Team::Red),
        (sq("F1"), dir("NW"))
    );
    assert_eq!(
        flow::start_after_score(sq("A4"), Team::Red),
        (sq("F6"), dir("SW"))
    );
}

#[test]
fn g6_2_g10_2_g11_1_a_throw_moves_in_phase_3_and_bounces() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "C2", "E"), ("BLU1", "J1", "N")]);
    held(&mut pos, "RED1");
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Act(id("RED1")));
    let ev = play(&g, &mut pos, &["throw RED1 SW"]);
    assert_eq!(
        ev[..3],
        ["act throw RED1 SW", "phase 3 RED", "ball C2 B1 NW"]
    );
    // G2.7: RED keeps possession after the throw.
    assert_eq!(pos.ball.possession, Some(Team::Red));
}

// -------------------------------------------------------------- G10

#[test]
fn g10_2_forward_and_parallel_passes() {
    let g = standard();
    for (at, want) in [
        ("C1", vec!["N", "NW"]),
        ("A1", vec!["NE"]),
        ("K1", vec!["NW"]),
        ("D3", vec!["E", "N", "NE", "NW", "S", "SE", "SW", "W"]),
    ] {
        let mut pos = blank(&g);
        place(&mut pos, &[("RED1", at, "E"), ("BLU1", "J6", "S")]);
        held(&mut pos, "RED1");
        ready(&g, &mut pos, Phase::Phase2, 5, Pending::Act(id("RED1")));
        let throws: Vec<String> = legal(&g, &pos)
            .into_iter()
            .filter_map(|a| a.strip_prefix("throw RED1 ").map(String::from))
            .collect();
        assert_eq!(throws, want, "from {at}");
    }
}

#[test]
fn g10_5_g10_4_own_goal_holder_must_throw_or_spin() {
    let g = standard();
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED1", "A3", "W"),
            ("RED2", "A3", "E"),
            ("BLU1", "J6", "S"),
        ],
    );
    held(&mut pos, "RED1");
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Act(id("RED1")));
    assert_eq!(
        legal(&g, &pos),
        [
            "spin RED1",
            "throw RED1 E",
            "throw RED1 NE",
            "throw RED1 SE"
        ]
    );
}

#[test]
fn g10_4_a_star_tackler_blocks_a_wall_hand_off() {
    let g = standard();
    let scene = |opponent: &str| {
        let mut pos = blank(&g);
        place(
            &mut pos,
            &[
                ("RED1", "C1", "N"),
                ("RED3", "C1", "N"),
                (opponent, "C1", "N"),
            ],
        );
        held(&mut pos, "RED1");
        ready(&g, &mut pos, Phase::Phase2, 5, Pending::Act(id("RED1")));
        pos
    };
    let pos = scene("BLU2"); // T
    assert!(!legal(&g, &pos).contains(&"handoff RED1 RED3".to_string()));
    let mut pos = scene("BLU6"); // no star
    assert!(legal(&g, &pos).contains(&"handoff RED1 RED3".to_string()));
    // On a wall square there is no roll: RED3 holds.
    let ev = play(&g, &mut pos, &["handoff RED1 RED3"]);
    assert_eq!(ev[..2], ["act handoff RED1 RED3", "phase 3 RED"]);
    assert_eq!(pos.ball.holder, id("RED3"));
}

#[test]
fn g5_5_g10_4_a_failed_catcher_cannot_receive_a_hand_off() {
    let g = standard();
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED1", "D3", "N"),
            ("RED3", "D3", "E"),
            ("BLU1", "J6", "S"),
        ],
    );
    held(&mut pos, "RED1");
    pos.failed_catch = 1 << id("RED3");
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Act(id("RED1")));
    assert!(!legal(&g, &pos).iter().any(|a| a.starts_with("handoff")));
    pos.failed_catch = 0;
    reread(&g, &pos);
    forced(&mut pos, &[1]);
    // An air hand-off needs a catch roll: RED3 (C) rolls 1 + 1 = 2, the
    // ball is a spinball with nobody in possession, and phases 3–4 go.
    let ev = play(&g, &mut pos, &["handoff RED1 RED3"]);
    assert_eq!(
        ev[..4],
        [
            "act handoff RED1 RED3",
            "roll catch RED3 1",
            "catch RED3 2 miss",
            "turn 6"
        ]
    );
    assert!(pos.ball.spin && pos.ball.possession.is_none());
}

#[test]
fn g10_3_a_spinball_skips_phases_3_and_4_and_stays_put() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "D3", "E"), ("BLU1", "J6", "S")]);
    held(&mut pos, "RED1");
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Act(id("RED1")));
    let ev = play(&g, &mut pos, &["spin RED1"]);
    assert_eq!(ev, ["act spin RED1", "turn 6", "phase 1 RED"]);
    // The spinball does not move in phase 1 (no `ball` event).
    let ev = play(&g, &mut pos, &["stay BLU1"]);
    assert_eq!(ev[..2], ["act stay BLU1", "moved RED1 D3 E3"]);
    assert_eq!(pos.ball.at, sq("D3"));
}

// -------------------------------------------------------- G7 catching

#[test]
fn g7_3_g7_6_two_attempts_and_no_second_try() {
    let g = standard();
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED1", "D3", "N"),
            ("RED6", "D3", "E"),
            ("BLU1", "J6", "S"),
        ],
    );
    loose(&mut pos, "D3", "E", None);
    res(&mut pos, ResKind::Catch);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Catch(Team::Red));
    assert_eq!(legal(&g, &pos), ["catch RED1", "catch RED6", "catch none"]);
    forced(&mut pos, &[1, 2]);
    let ev = play(&g, &mut pos, &["catch RED1"]);
    assert_eq!(
        ev,
        ["act catch RED1", "roll catch RED1 1", "catch RED1 2 miss"]
    );
    assert_eq!(legal(&g, &pos), ["catch RED6", "catch none"]);
    let ev = play(&g, &mut pos, &["catch RED6"]);
    assert_eq!(
        ev[..4],
        [
            "act catch RED6",
            "roll catch RED6 2",
            "catch RED6 2 miss",
            "phase 3 RED"
        ],
        "after two failures nobody is in possession: the home team has initiative"
    );
}

#[test]
fn g7_4_catch_target_parameter() {
    let g = with(|p| p.catch_target = 4);
    let mut pos = blank(&g);
    place(&mut pos, &[("RED3", "D3", "N"), ("BLU1", "J6", "S")]);
    loose(&mut pos, "D3", "E", Some(Team::Blu));
    res(&mut pos, ResKind::Catch);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Catch(Team::Red));
    forced(&mut pos, &[2]);
    let ev = play(&g, &mut pos, &["catch RED3"]);
    assert_eq!(ev[2], "catch RED3 3 miss");
}

#[test]
fn g12_1_catching_on_the_opponents_goal_scores() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED3", "K3", "E"), ("BLU1", "J6", "S")]);
    loose(&mut pos, "K3", "W", Some(Team::Red));
    res(&mut pos, ResKind::Catch);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Catch(Team::Red));
    forced(&mut pos, &[5]);
    let ev = play(&g, &mut pos, &["catch RED3"]);
    assert_eq!(
        ev[..4],
        [
            "act catch RED3",
            "roll catch RED3 5",
            "catch RED3 6 ok",
            "score RED3 K3"
        ]
    );
    assert_eq!(pos.points, [1, 0]);
}

// -------------------------------------------------------- G8 tackling

#[test]
fn g8_3_the_holder_may_not_decline() {
    let g = standard();
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED1", "D4", "E"),
            ("RED6", "D4", "N"),
            ("BLU2", "D4", "W"),
        ],
    );
    held(&mut pos, "RED1");
    res(&mut pos, ResKind::Maul);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    play(&g, &mut pos, &["decline none"]);
    assert_eq!(legal(&g, &pos), ["decline RED6", "decline none"]);
    let e = g
        .play(
            &mut pos.clone(),
            g.parse_action("decline RED1").unwrap(),
            &mut Vec::new(),
        )
        .unwrap_err();
    assert!(e.contains("HOLDING"), "{e}");
}

#[test]
fn g8_4_one_side_left_catches_as_a_plain_catch() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED4", "D3", "E"), ("BLU2", "D3", "W")]);
    loose(&mut pos, "D3", "NE", Some(Team::Red));
    res(&mut pos, ResKind::Ruck);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    let ev = play(&g, &mut pos, &["decline BLU2", "decline none"]);
    assert_eq!(ev, ["act decline BLU2", "act decline none"]);
    assert_eq!(pos.pending, Some(Pending::Catch(Team::Red)));
    assert_eq!(legal(&g, &pos), ["catch RED4", "catch none"]);
    assert_eq!(pos.resolution.unwrap().receivers, [None, None]);
}

#[test]
fn g8_5_a_fumbled_contest_halts_the_phase() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "D3", "NE"), ("BLU2", "D3", "W")]);
    loose(&mut pos, "D3", "NE", Some(Team::Red));
    res(&mut pos, ResKind::Ruck);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    forced(&mut pos, &[3, 4]);
    let ev = play(
        &g,
        &mut pos,
        &[
            "decline none",
            "decline none",
            "receivers BLU2",
            "receivers RED1",
        ],
    );
    assert_eq!(
        ev[3..10],
        [
            "act receivers RED1",
            "roll tackle BLU2 3",
            "roll tackle RED1 4",
            "tackle BLU2 4 RED1 4 fumble",
            "halt",
            "phase 3 RED",
            "ball D3 E4 NE",
        ]
    );
}

#[test]
fn g8_6_the_top_contest_roller_tries_first() {
    let g = standard();
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED1", "D3", "NE"),
            ("RED3", "D3", "N"),
            ("BLU2", "D3", "W"),
        ],
    );
    loose(&mut pos, "D3", "NE", Some(Team::Red));
    res(&mut pos, ResKind::Ruck);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    forced(&mut pos, &[1, 6, 4, 1]);
    play(
        &g,
        &mut pos,
        &[
            "decline none",
            "decline none",
            "receivers BLU2",
            "receivers RED1 RED3",
        ],
    );
    assert_eq!(legal(&g, &pos), ["catch RED1", "catch none"]);
    let ev = play(&g, &mut pos, &["catch RED1"]);
    assert_eq!(ev[2], "catch RED1 2 miss");
    assert_eq!(legal(&g, &pos), ["catch RED3", "catch none"]);
}

#[test]
fn g8_2_wall_walking_after_a_fumbled_block() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED2", "C1", "N"), ("BLU6", "C1", "N")]);
    loose(&mut pos, "C1", "NE", Some(Team::Red));
    res(&mut pos, ResKind::Ruck);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    forced(&mut pos, &[3, 2, 2, 5]);
    let ev = play(
        &g,
        &mut pos,
        &[
            "decline none",
            "decline none",
            "receivers BLU6",
            "receivers none",
        ],
    );
    assert_eq!(
        ev[3..11],
        [
            "act receivers none",
            "auto block RED2 BLU6",
            "roll tackle BLU6 3",
            "roll tackle RED2 2",
            "tackle BLU6 3 RED2 3 fumble",
            "roll wallwalk BLU6 2",
            "out BLU6 point wallwalk",
            "roll wallwalk RED2 5",
        ]
    );
    assert_eq!(pos.players[id("BLU6") as usize].out, Status::Point);
    assert_eq!(pos.players[id("RED2") as usize].out, Status::None);
}

#[test]
fn g8_7_the_carrier_keeps_and_turns_his_victim() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED6", "D4", "E"), ("BLU6", "D4", "W")]);
    held(&mut pos, "RED6");
    res(&mut pos, ResKind::Maul);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    forced(&mut pos, &[5, 1]);
    let ev = play(&g, &mut pos, &["decline none"]);
    assert_eq!(ev[3..], ["roll tackle BLU6 1", "tackle RED6 5 BLU6 1 RED6"]);
    assert_eq!(
        pos.pending,
        Some(Pending::Turn {
            actor: id("RED6"),
            target: id("BLU6")
        })
    );
    assert_eq!(pos.lost_tackle, 1 << id("BLU6"));
}

#[test]
fn g8_9_a_lost_ball_must_be_tried_then_aimed() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED6", "D4", "E"), ("BLU2", "D4", "W")]);
    held(&mut pos, "RED6");
    res(&mut pos, ResKind::Maul);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    forced(&mut pos, &[2, 4, 1]);
    let ev = play(&g, &mut pos, &["decline none"]);
    assert_eq!(
        ev[1..],
        [
            "auto decline none",
            "roll tackle RED6 2",
            "roll tackle BLU2 4",
            "tackle RED6 2 BLU2 5 BLU2",
            "auto catch BLU2",
            "roll catch BLU2 1",
            "catch BLU2 1 miss",
        ]
    );
    assert_eq!(pos.pending, Some(Pending::Aim(Team::Blu)));
    assert_eq!(legal(&g, &pos).len(), 8);
    // Beaten loose: no direction, no spin, nobody in possession (G2.6).
    assert!(pos.ball.dir == 255 && !pos.ball.spin && pos.ball.possession.is_none());
    reread(&g, &pos);
    play(&g, &mut pos, &["aim W"]);
    assert_eq!(
        pos.pending,
        Some(Pending::Turn {
            actor: id("BLU2"),
            target: id("RED6")
        })
    );
}

#[test]
fn g13_1_a_severely_injured_veteran_retires() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED6", "D4", "E"), ("BLU8", "D4", "W")]);
    held(&mut pos, "RED6");
    res(&mut pos, ResKind::Maul);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    forced(&mut pos, &[4, 1, 6, 6, 1]);
    let ev = play(&g, &mut pos, &["decline none"]);
    assert_eq!(
        ev[5..],
        [
            "roll injury BLU8 6",
            "injury BLU8 severe",
            "roll games BLU8 6",
            "games BLU8 retired",
            "out BLU8 match injury",
            "roll foul RED6 1",
            "foul RED6 none",
        ][..ev.len() - 5]
    );
    assert_eq!(pos.players[id("BLU8") as usize].out, Status::Match);
}

// ------------------------------------------------- G9 changes of direction

#[test]
fn g9_2_team_mate_turns_judged_now() {
    let g = standard();
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED2", "C3", "E"),
            ("RED3", "C3", "NE"),
            ("BLU1", "H1", "N"),
        ],
    );
    pos.ball = ball::games::gball::position::Ball {
        at: sq("I4"),
        dir: 255,
        spin: true,
        holder: 255,
        possession: Some(Team::Blu),
    };
    ready(&g, &mut pos, Phase::Phase1, 5, Pending::Move(id("BLU1")));
    let ev = play(&g, &mut pos, &["stay BLU1"]);
    assert_eq!(ev, ["act stay BLU1", "phase 2 BLU"]);
    assert_eq!(
        legal(&g, &pos),
        ["turn RED2 RED2 none", "turn RED2 RED2 right"],
        "left would face NE like RED3"
    );
    let ev = play(&g, &mut pos, &["turn RED2 RED2 right"]);
    assert_eq!(ev, ["act turn RED2 RED2 right", "turned RED2 SE"]);
    assert_eq!(
        legal(&g, &pos),
        [
            "turn RED3 RED3 left",
            "turn RED3 RED3 none",
            "turn RED3 RED3 right"
        ]
    );
}

fn ganging_scene(g: &Gball) -> Position {
    let mut pos = blank(g);
    place(
        &mut pos,
        &[
            ("RED4", "D3", "E"),
            ("RED6", "D3", "SE"),
            ("BLU6", "D3", "W"),
        ],
    );
    loose(&mut pos, "D3", "NE", Some(Team::Red));
    res(&mut pos, ResKind::Ruck);
    ready(g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    forced(&mut pos, &[3, 3, 3, 6]);
    play(
        g,
        &mut pos,
        &[
            "decline none",
            "decline none",
            "receivers BLU6",
            "receivers RED6",
            "catch none",
        ],
    );
    pos
}

#[test]
fn g9_4_g9_5_an_accidental_turn_can_gang_both_out() {
    let g = standard();
    let mut pos = ganging_scene(&g);
    assert_eq!(
        legal(&g, &pos),
        [
            "turn RED6 RED6 left",
            "turn RED6 RED6 none",
            "turn RED6 RED6 right"
        ]
    );
    assert_eq!(pos.players[id("RED4") as usize].facing, dir("SE"));
    let ev = play(&g, &mut pos, &["turn RED6 RED6 none"]);
    assert_eq!(
        ev[1..3],
        ["out RED4 point ganging", "out RED6 point ganging"]
    );
    // A team-mate's later turn avoids it.
    let mut pos = ganging_scene(&g);
    let ev = play(&g, &mut pos, &["turn RED6 RED6 left"]);
    assert!(!ev.iter().any(|e| e.contains("ganging")), "{ev:?}");
}

// ------------------------------------------- G3, G4, G12, G13 the match

#[test]
fn g5_3_movement_order_groups() {
    let g = with(|p| p.morale = true);
    let mut pos = blank(&g);
    pos.initiative = Some(Team::Red);
    let names = |pos: &Position| -> Vec<String> {
        rules::order(pos)
            .into_iter()
            .map(ball::games::gball::position::id_name)
            .collect()
    };
    let o = names(&pos);
    assert_eq!(
        o[..5],
        ["BLU2", "BLU3", "BLU5", "BLU6", "BLU7"],
        "group a: BLU without J"
    );
    assert_eq!(o[14..], ["BLU1", "BLU4", "RED1", "RED4"], "groups c and d");
    // G15.4: a demoralised team's jumpers move in group a.
    pos.demoralised = Some(Team::Blu);
    let o = names(&pos);
    assert_eq!(
        o[..9],
        [
            "BLU1", "BLU2", "BLU3", "BLU4", "BLU5", "BLU6", "BLU7", "BLU8", "BLU9"
        ]
    );
    assert!(!rules::effective(&pos, id("BLU2"), STAR_T));
}

#[test]
fn g5_2_initiative_is_possession_else_home() {
    let g = standard();
    let mut pos = blank(&g);
    pos.ball.possession = None;
    flow::settle(&g, &mut pos);
    assert_eq!(pos.initiative, Some(Team::Red));
    pos.ball.possession = Some(Team::Blu);
    flow::settle(&g, &mut pos);
    assert_eq!(pos.initiative, Some(Team::Blu));
    assert_eq!(pos.morale, None);
}

#[test]
fn g15_2_to_g15_4_morale_levels_and_the_cosh() {
    let g = with(|p| p.morale = true);
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED8", "C2", "E"),
            ("RED9", "C4", "E"),
            ("BLU8", "H1", "N"),
        ],
    );
    pos.ball.possession = Some(Team::Blu);
    pos.prev_winner = Some(Team::Red);
    flow::settle(&g, &mut pos);
    // RED: two veterans + previous winner + home = 4; BLU: one veteran +
    // possession = 2.
    assert_eq!(pos.morale, Some([4, 2]));
    assert_eq!(pos.initiative, Some(Team::Red));
    assert_eq!(pos.demoralised, Some(Team::Blu));
}

#[test]
fn g4_3_placement_alternates_from_the_away_team() {
    let mut g = standard();
    g.teams = small_teams(
        r#"{"RED": [{"number": 1}], "BLU": [{"number": 1}, {"number": 2}, {"number": 3}]}"#,
    );
    let mut pos = g.start(0);
    assert_eq!(pos.pending, Some(Pending::Place(Team::Blu)));
    play(&g, &mut pos, &["place BLU1 K1"]);
    assert_eq!(pos.pending, Some(Pending::Place(Team::Red)));
    assert_eq!(legal(&g, &pos).len(), 14);
    assert!(!legal(&g, &pos).contains(&"place RED1 F1".to_string()));
    play(&g, &mut pos, &["place RED1 A1"]);
    // RED has placed all it can: BLU places the rest one by one.
    assert_eq!(pos.pending, Some(Pending::Place(Team::Blu)));
    play(&g, &mut pos, &["place BLU2 K2"]);
    assert_eq!(pos.pending, Some(Pending::Place(Team::Blu)));
    assert_eq!(pos.players[id("BLU2") as usize].facing, dir("W"));
}

#[test]
fn g2_4_at_most_players_on_court_are_placed() {
    let g = standard();
    let mut pos = g.start(0);
    let mut rng = SplitMix64::new(1);
    let mut legal = Vec::new();
    while pos.phase == Phase::Place {
        g.legal_into(&pos, &mut legal);
        g.apply(&mut pos, legal[rng.below(legal.len())]);
    }
    for t in Team::BOTH {
        assert_eq!(pos.on_court(t).count_ones(), 5);
    }
}

#[test]
fn g4_4_the_entry_die_uses_the_home_teams_left() {
    let g = standard();
    for (home, die, want) in [
        (Team::Red, 2, "entry F6 S"),
        (Team::Red, 4, "entry F1 N"),
        (Team::Blu, 3, "entry F1 N"),
        (Team::Blu, 6, "entry F6 S"),
    ] {
        let mut g2 = g.clone();
        g2.teams = small_teams(r#"{"RED": [{"number": 1}], "BLU": [{"number": 1}]}"#);
        let mut pos = g2.start(0);
        pos.home = Some(home);
        pos.pending = Some(Pending::Place(home.other()));
        forced(&mut pos, &[die]);
        let first = if home == Team::Red {
            "place BLU1 K1"
        } else {
            "place RED1 A1"
        };
        let second = if home == Team::Red {
            "place RED1 A1"
        } else {
            "place BLU1 K1"
        };
        let ev = play(&g2, &mut pos, &[first, second]);
        assert_eq!(ev[2], format!("roll entry - {die}"));
        assert_eq!(ev[3], want);
    }
}

#[test]
fn g3_3_g14_2_a_neutral_venue_tosses_a_coin_first() {
    let g = with(|p| p.venue = Venue::Neutral);
    let (_, pos, events) = g.new_game(0);
    let ev: Vec<String> = events.iter().map(|e| e.to_string()).collect();
    // Seed 0's first d2 is 2 (its first d6 is 6).
    assert_eq!(ev, ["roll coin - 2", "coin BLU", "newpoint BLU"]);
    assert_eq!(pos.home, Some(Team::Blu));
    assert_eq!(pos.pending, Some(Pending::Place(Team::Red)));
    // `rng` is the seed after the coin: one draw from seed 0 (G14.5).
    assert_eq!(pos.rng.state(), 0x9e37_79b9_7f4a_7c15);
}

/// A point about to be won by BLU; RED's only player sits out the set.
#[test]
fn g4_2_g13_4_g3_1_concessions_until_the_set_ends() {
    let mut g = standard();
    g.teams = small_teams(r#"{"RED": [{"number": 1}], "BLU": [{"number": 1}]}"#);
    let mut pos = blank(&g);
    pos.players[id("RED1") as usize].out = Status::Set;
    place(&mut pos, &[("BLU1", "B3", "W")]);
    held(&mut pos, "BLU1");
    ready(&g, &mut pos, Phase::Phase4, 7, Pending::Act(id("BLU1")));
    let ev = play(&g, &mut pos, &["keep BLU1"]);
    assert_eq!(
        ev[4..],
        [
            "score BLU1 A3",
            "newpoint RED",
            "concede RED",
            "newpoint RED",
            "concede RED",
            "newpoint RED",
            "concede RED",
            "set BLU",
            "newpoint RED",
        ]
    );
    // The set is over: the `set` status is gone, placement begins.
    assert_eq!(pos.players[id("RED1") as usize].out, Status::None);
    assert_eq!((pos.sets, pos.points), ([0, 1], [0, 0]));
    assert_eq!(pos.prev_winner, None);
    assert_eq!(pos.pending, Some(Pending::Place(Team::Blu)));
    assert_eq!(pos.ball.at, 255, "a set's first point enters by the die");
}

#[test]
fn g3_5_g13_4_the_point_turn_limit_makes_a_dead_point() {
    let g = with(|p| p.point_turn_limit = 7);
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "C1", "N"), ("BLU1", "J6", "S")]);
    held(&mut pos, "RED1");
    pos.points = [1, 2];
    pos.prev_winner = Some(Team::Blu);
    pos.ball_start = Some((sq("F6"), dir("SW")));
    pos.players[id("BLU2") as usize].out = Status::Sinbin;
    pos.players[id("BLU3") as usize].out = Status::Point;
    pos.players[id("RED5") as usize].out = Status::Set;
    ready(&g, &mut pos, Phase::Phase4, 7, Pending::Act(id("RED1")));
    let ev = play(&g, &mut pos, &["keep RED1"]);
    assert_eq!(ev, ["act keep RED1", "dead", "newpoint RED", "entry F6 SW"]);
    assert_eq!((pos.points, pos.prev_winner), ([1, 2], Some(Team::Blu)));
    let out = |p: &str| pos.players[id(p) as usize].out;
    assert_eq!(
        (out("BLU2"), out("BLU3"), out("RED5")),
        (Status::Point, Status::None, Status::Set)
    );
    reread(&g, &pos);
}

#[test]
fn g3_6_g3_7_the_match_turn_limit_ends_the_match() {
    let g = with(|p| p.match_turn_limit = 20);
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "C1", "N"), ("BLU1", "J6", "S")]);
    held(&mut pos, "RED1");
    pos.points = [1, 0];
    pos.match_turns = 19;
    ready(&g, &mut pos, Phase::Phase4, 7, Pending::Act(id("RED1")));
    let ev = play(&g, &mut pos, &["keep RED1"]);
    assert_eq!(ev, ["act keep RED1", "match RED"]);
    assert_eq!(pos.winner, Some(Winner::Team(Team::Red)));
    assert!(pos.is_over() && pos.pending.is_none() && pos.home.is_none());
    assert!(legal(&g, &pos).is_empty());
    let o = g.outcome(&pos).unwrap();
    assert_eq!(o.end.name, "turn-limit");
    assert!(o.end.by_limit);
    assert_eq!(o.score, "RED 0 - BLU 0 (points 1 - 0)");
    reread(&g, &pos);
}

// ----------------------------------------------------------------- G14

#[test]
fn g14_5_test_vectors() {
    let mut r = SplitMix64::new(0);
    assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
    let mut r = SplitMix64::new(0);
    let d: Vec<u32> = (0..12).map(|_| r.die(6)).collect();
    assert_eq!(d, [6, 3, 1, 6, 1, 2, 2, 5, 2, 6, 3, 5]);
    let mut r = SplitMix64::new(42);
    let d: Vec<u32> = (0..12).map(|_| r.die(6)).collect();
    assert_eq!(d, [5, 1, 2, 3, 1, 6, 2, 5, 3, 4, 2, 3]);
    let mut r = SplitMix64::new(0);
    r.die(6);
    assert_eq!(r.state(), 0x9e37_79b9_7f4a_7c15);
}

#[test]
fn g14_3_a_forced_die_out_of_range_fails_the_action() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED3", "D3", "N"), ("BLU1", "J6", "S")]);
    loose(&mut pos, "D3", "E", Some(Team::Blu));
    res(&mut pos, ResKind::Catch);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Catch(Team::Red));
    // --dice refuses what no die shows.
    for bad in [0, 7] {
        let e = g.force_dice(&mut pos.clone(), &[bad]).unwrap_err();
        assert!(e.contains("G14.3") && e.contains(&bad.to_string()), "{e}");
    }
    // A queued value a reader accepted but no d6 shows fails the action.
    pos.dice.push_back(9);
    let before = pos.clone();
    let mut log = Vec::new();
    let e = g
        .play(&mut pos, g.parse_action("catch RED3").unwrap(), &mut log)
        .unwrap_err();
    assert!(e.contains("catch RED3") && e.contains("G14.3"), "{e}");
    assert_eq!(pos, before);
    assert!(log.is_empty());
}

// ----------------------------------------------------------------- G16

#[test]
fn g16_2_to_g16_4_earned_stars() {
    let g = with(|p| {
        p.earned_stars = true;
        p.catch_attempts_min = 1;
        p.tackles_min = 1;
        p.hat_trick = 1;
    });
    // A catch earns C; a veteran earns nothing.
    for (who, star) in [("RED6", true), ("RED8", false)] {
        let mut pos = blank(&g);
        place(&mut pos, &[(who, "D3", "N"), ("BLU1", "J6", "S")]);
        loose(&mut pos, "D3", "E", None);
        res(&mut pos, ResKind::Catch);
        ready(&g, &mut pos, Phase::Phase2, 5, Pending::Catch(Team::Red));
        forced(&mut pos, &[4]);
        let ev = play(&g, &mut pos, &[&format!("catch {who}")]);
        assert_eq!(ev.contains(&format!("star {who} C")), star, "{ev:?}");
    }
    // A won engagement earns T.
    let mut pos = blank(&g);
    place(&mut pos, &[("RED6", "D4", "E"), ("BLU6", "D4", "W")]);
    held(&mut pos, "RED6");
    res(&mut pos, ResKind::Maul);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    forced(&mut pos, &[5, 1]);
    let ev = play(&g, &mut pos, &["decline none"]);
    assert_eq!(ev.last().unwrap(), "star RED6 T");
    // A score earns J (hat_trick 1).
    let mut pos = blank(&g);
    place(&mut pos, &[("BLU3", "H1", "N"), ("RED6", "J4", "E")]);
    held(&mut pos, "RED6");
    ready(&g, &mut pos, Phase::Phase1, 5, Pending::Move(id("BLU3")));
    let ev = play(&g, &mut pos, &["stay BLU3"]);
    assert_eq!(ev[2..4], ["score RED6 K4", "star RED6 J"]);
}

#[test]
fn g11_2_no_maul_in_phase_4() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "D4", "E"), ("BLU2", "D4", "W")]);
    held(&mut pos, "RED1");
    res(&mut pos, ResKind::Maul);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    play(&g, &mut pos, &["decline BLU2"]);
    assert_eq!(pos.pending, Some(Pending::Act(id("RED1"))));
    let ev = play(&g, &mut pos, &["keep RED1"]);
    assert_eq!(ev, ["act keep RED1", "phase 3 RED", "phase 4 RED"]);
    assert_eq!(pos.pending, Some(Pending::Act(id("RED1"))));
    assert!(pos.resolution.is_none());
}

#[test]
fn g1_5_turning_45_and_90_degrees() {
    use ball::games::gball::board::{left, right};
    assert_eq!(left(dir("N")), dir("NW"));
    assert_eq!(right(dir("N")), dir("NE"));
    assert_eq!(left(left(dir("E"))), dir("N"), "90° left of E");
    assert_eq!(right(right(dir("NW"))), dir("NE"));
    for d in 0..8 {
        assert_eq!(left(right(d)), d);
    }
}

#[test]
fn g4_1_a_player_with_a_status_is_not_available() {
    let g = standard();
    let mut pos = g.start(0);
    pos.players[id("BLU1") as usize].out = Status::Point;
    let l = legal(&g, &pos);
    assert!(!l.iter().any(|a| a.starts_with("place BLU1 ")), "{l:?}");
    assert_eq!(l.len(), 8 * 14);
}

#[test]
fn g5_1_g11_3_a_quiet_turn_has_four_phases_and_counts() {
    let g = standard();
    let mut pos = blank(&g);
    // RED1 holds on a side wall; BLU1 flies across the court.
    place(&mut pos, &[("RED1", "C1", "N"), ("BLU1", "H4", "N")]);
    held(&mut pos, "RED1");
    pos.match_turns = 10;
    ready(&g, &mut pos, Phase::Phase4, 3, Pending::Act(id("RED1")));
    let ev = play(&g, &mut pos, &["keep RED1"]);
    assert_eq!(
        ev,
        [
            "act keep RED1",
            "turn 4",
            "phase 1 RED",
            "moved BLU1 H4 H5",
            "auto stay RED1",
            "phase 2 RED"
        ]
    );
    assert_eq!(pos.match_turns, 11);
    let ev = play(&g, &mut pos, &["keep RED1"]);
    assert_eq!(ev, ["act keep RED1", "phase 3 RED", "phase 4 RED"]);
    assert_eq!(pos.turn, 4);
}

#[test]
fn g13_2_g13_1_games_to_miss() {
    let g = standard();
    // A serious injury (5): the rest of the match and one more game.
    let mut pos = blank(&g);
    place(&mut pos, &[("RED6", "D4", "E"), ("BLU6", "D4", "W")]);
    held(&mut pos, "RED6");
    res(&mut pos, ResKind::Maul);
    ready(&g, &mut pos, Phase::Phase2, 5, Pending::Decline(Team::Blu));
    // RED6 4 beats BLU6 1 (sum 5): injury die 5; RED6's foul die 6.
    forced(&mut pos, &[4, 1, 5, 6]);
    let ev = play(&g, &mut pos, &["decline none"]);
    assert!(ev.contains(&"injury BLU6 serious".to_string()), "{ev:?}");
    assert!(ev.contains(&"foul RED6 serious".to_string()), "{ev:?}");
    assert!(ev.contains(&"out RED6 match foul".to_string()), "{ev:?}");
    use ball::games::gball::position::Misses;
    assert_eq!(pos.misses[id("BLU6") as usize], Misses::Games(1));
    assert_eq!(pos.misses[id("RED6") as usize], Misses::Games(1));
    // RED6 won every pair: he keeps the ball as a leaving holder and acts.
    assert_eq!(pos.pending, Some(Pending::Act(id("RED6"))));
    assert!(!legal(&g, &pos).contains(&"keep RED6".to_string()), "G10.6");
    reread(&g, &pos);
}

/// G6.5 GANGING, as the engine finds it (from the team-mates' side,
/// `rules::ganging_barred`, and the decision's list built from a table of
/// steps) against the rule read the plain way (`rules::move_ok`). Over
/// scattered positions — any square, facing, status, stars, initiative
/// and demoralised team — for every wall player; the unit test in
/// `rules.rs` holds the same along random matches.
#[test]
fn g6_5_ganging_bar_is_the_rule_read_from_either_side() {
    use ball::games::gball::action::Action;
    use ball::games::gball::board::{self, NONE};
    use ball::games::gball::position::members;
    let g = standard();
    let base = g.start(1);
    let mut rng = SplitMix64::new(65);
    let mut barred_seen = 0;
    let mut legal = Vec::new();
    for _ in 0..20_000 {
        let mut pos = base.clone();
        for p in members(pos.roster) {
            let pl = &mut pos.players[p as usize];
            pl.at = if rng.below(12) == 0 {
                NONE
            } else {
                rng.below(board::SQUARES) as u8
            };
            pl.facing = if rng.below(12) == 0 {
                NONE
            } else {
                rng.below(8) as u8
            };
            pl.out = if rng.below(8) == 0 {
                Status::Point
            } else {
                Status::None
            };
            pos.set_stars(p, rng.below(8) as u8);
        }
        pos.initiative = [None, Some(Team::Red), Some(Team::Blu)][rng.below(3)];
        pos.demoralised = [None, None, Some(Team::Red), Some(Team::Blu)][rng.below(4)];
        for p in members(pos.roster) {
            let sq = pos.players[p as usize].at;
            if !board::is_wall(sq) {
                continue;
            }
            // G6.5 read plainly, a direction at a time: the steps, less
            // those a team-mate who already moved bars (`rules::move_ok`).
            let dirs =
                |ok: &dyn Fn(u8) -> bool| (0..8).filter(|&d| ok(d)).fold(0u8, |m, d| m | 1 << d);
            let plain = dirs(&|d| rules::move_ok(&pos, p, d));
            let steps = dirs(&|d| rules::move_ok_after(&pos, p, d, 0));
            let barred = steps & !plain;
            assert_eq!(
                rules::ganging_barred(&pos, p) & steps,
                barred,
                "player {p} on {sq}"
            );
            barred_seen += usize::from(barred != 0);
            // The decision lists exactly those, and the engine's "is
            // there a choice?" agrees with the list.
            pos.pending = Some(Pending::Move(p));
            g.legal_into(&pos, &mut legal);
            let listed = legal.iter().fold(0u8, |m, a| match a {
                Action::Move { dir, .. } => m | 1 << dir,
                _ => m,
            });
            assert_eq!(listed, plain, "player {p} on {sq}");
            let (n, first) = rules::first_two(&g, &pos);
            assert_eq!((n, first), (legal.len().min(2), legal.first().copied()));
        }
    }
    assert!(
        barred_seen > 100,
        "only {barred_seen} bars: the scatter misses the case"
    );
}
