//! The evaluation is zero-sum, puts a won match above everything, and
//! prefers what a coach would: the ball, nearer the opponents' goal, a
//! throw toward it, players near the ball, a point on the board.

use ball::games::gball::eval::{WIN, evaluate};
use ball::games::gball::position::{Phase, Winner};
use ball::games::gball::{Team, flow};
use ball::kernel::game::Game;
use ball::kernel::rng::SplitMix64;

use crate::gball_support::*;

#[test]
fn zero_sum_over_a_random_match() {
    let g = standard();
    let mut rng = SplitMix64::new(9);
    let mut pos = g.start(9);
    let mut legal = Vec::new();
    for _ in 0..20_000 {
        g.legal_into(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        let (a, b) = (evaluate(&g, &pos, 0), evaluate(&g, &pos, 1));
        assert_eq!(a, -b);
        assert!(a.abs() < WIN / 10.0, "{a}");
        g.apply(&mut pos, legal[rng.below(legal.len())]);
    }
}

#[test]
fn a_won_match_is_worth_more_than_any_position() {
    let g = standard();
    let mut pos = blank(&g);
    pos.sets = [3, 0];
    pos.points = [3, 0];
    let leading = evaluate(&g, &pos, 0);
    flow::finish(&mut pos, Winner::Team(Team::Blu));
    assert_eq!(evaluate(&g, &pos, 1), WIN);
    assert!(evaluate(&g, &pos, 0) < -leading * 10.0);
    flow::finish(&mut pos, Winner::Draw);
    assert_eq!(evaluate(&g, &pos, 0), 0.0);
}

fn holding_at(at: &str) -> f64 {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", at, "E"), ("BLU1", "J6", "S")]);
    held(&mut pos, "RED1");
    pos.phase = Phase::Phase2;
    evaluate(&g, &pos, 0)
}

#[test]
fn the_ball_nearer_the_opponents_goal_is_better() {
    assert!(holding_at("I3") > holding_at("C3"));
    // Holding beats the other team holding.
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "E3", "E"), ("BLU1", "E3", "W")]);
    held(&mut pos, "RED1");
    let red = evaluate(&g, &pos, 0);
    held(&mut pos, "BLU1");
    assert!(red > evaluate(&g, &pos, 0));
}

#[test]
fn a_throw_at_goal_beats_a_throw_back() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "H3", "E"), ("BLU1", "B6", "S")]);
    loose(&mut pos, "I3", "E", Some(Team::Red));
    let at_goal = evaluate(&g, &pos, 0);
    loose(&mut pos, "I3", "W", Some(Team::Red));
    assert!(at_goal > evaluate(&g, &pos, 0));
}

#[test]
fn nearer_the_ball_is_better_and_a_point_is_worth_more() {
    let g = standard();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "C3", "E"), ("BLU1", "H3", "W")]);
    loose(&mut pos, "F3", "N", None);
    let far = evaluate(&g, &pos, 0);
    place(&mut pos, &[("RED1", "E3", "E")]);
    let near = evaluate(&g, &pos, 0);
    assert!(near > far);
    pos.points = [1, 0];
    assert!(evaluate(&g, &pos, 0) > near + 5.0);
}

/// Greedy's choice at a designer's position (`setup:` lines of a G-ball
/// scenario), for eight bot seeds: the chosen actions, deduplicated.
fn greedy_picks(setup: &str) -> Vec<String> {
    use ball::bots::{self, Bot};
    use ball::kernel::game::Title;
    let text = format!("# greedy\ngame: gball\nsetup:\n{setup}\n");
    let sc = ball::scenario::parse::<ball::games::gball::Gball>(&text, &standard())
        .unwrap_or_else(|e| panic!("{e}"));
    let (game, pos) = (sc.game, sc.start);
    let legal = game.legal(&pos);
    assert!(legal.len() > 1, "{}", game.show(&pos));
    let mut picks: Vec<String> = (0..8)
        .map(|seed| {
            let mut bot: Box<dyn Bot<ball::games::gball::Gball>> =
                bots::from_spec("greedy", seed).unwrap();
            bot.choose(&game, &pos, &legal).to_string()
        })
        .collect();
    picks.sort();
    picks.dedup();
    picks
}

/// Toward the ball: RED1 on the side wall jumps onto the spinball's
/// square (NE to D2), not away from it (N to C2, NW to B2) or staying.
#[test]
fn greedy_jumps_toward_the_ball() {
    let picks = greedy_picks("  place RED1 C1 N\n  place BLU1 J3 E\n  ball D2 spin\n  phase 1");
    assert_eq!(picks, ["move RED1 NE"]);
}

/// Toward the goal: with a team-mate holding the ball far upfield, RED1
/// jumps from the side wall forward (NE), not back (NW) or across (N).
#[test]
fn greedy_jumps_toward_the_goal() {
    let picks = greedy_picks(
        "  place RED1 C1 N\n  place RED2 I4 E\n  place BLU1 J3 E\n  ball held RED2\n  phase 1",
    );
    assert_eq!(picks, ["move RED1 NE"]);
}

/// Catches: on the ball's square a catcher tries (G7.3) rather than
/// letting the other team's throw fly on: greedy weighs the catch by its
/// odds (a one-die action's six outcomes), not by one sampled roll.
#[test]
fn greedy_tries_the_catch() {
    let picks = greedy_picks("  place RED1 D1 N\n  place BLU1 I4 W\n  ball D1 N BLU\n  phase 2");
    assert_eq!(picks, ["catch RED1"]);
}

/// Throws at goal: a holder on his own goal square may not keep the ball
/// (G10.5); greedy throws it forward, toward the opponents' goal, rather
/// than spinning it or throwing it across.
#[test]
fn greedy_throws_forward_when_it_cannot_keep() {
    let picks = greedy_picks("  place RED1 A3 E\n  place BLU1 I4 W\n  ball held RED1\n  phase 2");
    assert!(!picks.is_empty());
    for p in &picks {
        assert!(
            ["throw RED1 NE", "throw RED1 E", "throw RED1 SE"].contains(&p.as_str()),
            "{picks:?}"
        );
    }
}

/// A holder flying at the goal keeps the ball: he is carried onto the
/// goal and scores (G6.4, G6.9), which no throw does sooner.
#[test]
fn greedy_keeps_when_carried_at_goal() {
    let picks = greedy_picks("  place RED1 I3 E\n  place BLU1 C4 W\n  ball held RED1\n  phase 2");
    assert_eq!(picks, ["keep RED1"]);
}
