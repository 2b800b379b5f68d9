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
