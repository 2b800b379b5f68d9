//! The random simulation test (after OpenSpiel's `RandomSimTest`): many
//! seeded random games, with every invariant checked at every step and the
//! fast generator held equal to the reference checker.

use std::collections::HashSet;

use ball::games::ball::action::Action;
use ball::games::ball::board::Sq;
use ball::games::ball::piece::PieceId;
use ball::games::ball::position::{BallState, Phase, Position};
use ball::games::ball::{Ball, json, rules};
use ball::kernel::playout::random_playout;
use ball::kernel::rng::SplitMix64;

/// Games checked in full; a debug build checks fewer.
const GAMES: u64 = if cfg!(debug_assertions) { 12 } else { 60 };
const MAX_ACTIONS: usize = 5_000;

/// B2.4, B7, B4.2: the invariants every reachable position keeps.
fn assert_invariants(game: &Ball, pos: &Position) {
    // No two pieces on a square except the two of a stack; stacked squares
    // are closed (B7.4): exactly their two pieces and no ball.
    for sq in Sq::all() {
        let on: Vec<PieceId> = PieceId::all().filter(|&p| pos.piece(p).at == sq).collect();
        match pos.stacks.at(sq) {
            Some(s) => {
                assert_eq!(on.len(), 2, "stack on {sq} holds {on:?}");
                assert!(on.contains(&s.top) && on.contains(&s.bottom));
                assert!(!pos.piece(s.top).down, "a top is active");
            }
            None => assert!(on.len() <= 1, "{on:?} share {sq} without a stack"),
        }
    }
    // Exactly one ball: held by one piece, or loose on a square with none.
    match pos.ball {
        BallState::Held(p) => {
            assert!(
                !game.params.stack_top_takes_ball
                    || pos.stacks.as_slice().iter().all(|s| s.bottom != p),
                "B7.3: a bottom never keeps the ball"
            );
        }
        BallState::Loose(sq) => {
            assert!(
                PieceId::all().all(|p| pos.piece(p).at != sq),
                "ball under a piece"
            );
        }
    }
    // AP within bounds; 0 through the release phase.
    assert!(pos.ap <= game.params.ap_per_turn);
    if pos.phase == Phase::Release {
        assert_eq!(pos.ap, 0);
    }
    assert!(pos.turn >= 1 && pos.turn <= game.params.turn_limit);
    let touchdowns = game.params.touchdowns_to_win;
    assert!(pos.score.iter().all(|&s| s <= touchdowns));
    assert_eq!(
        pos.is_over(),
        game.legal(pos).is_empty(),
        "no moves iff over"
    );
}

/// Legal list: unique, canonical form sorted and unique, equal to the
/// reference checker over a superset of candidates, and every action in it
/// applies while every other candidate is refused.
fn assert_legality(game: &Ball, pos: &Position) {
    let legal = game.legal(pos);
    let set: HashSet<Action> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "duplicate legal actions");
    let canonical = game.canonical_legal(pos);
    assert_eq!(canonical.len(), legal.len(), "two actions print the same");
    assert!(canonical.windows(2).all(|w| w[0] < w[1]));
    let candidates: HashSet<Action> = rules::candidates(pos).into_iter().collect();
    for a in &legal {
        assert!(candidates.contains(a), "candidates miss legal {a}");
        let mut next = *pos;
        game.play(&mut next, *a, &mut ())
            .unwrap_or_else(|e| panic!("listed {a} refused: {e}"));
        assert_invariants(game, &next);
        // The notation round-trips every listed action.
        assert_eq!(a.to_string().parse::<Action>().as_ref(), Ok(a));
    }
    for a in &candidates {
        let verdict = rules::check(pos, &game.params, *a);
        assert_eq!(
            verdict.is_ok(),
            set.contains(a),
            "generator and reference disagree on `{a}`: {verdict:?}\n{}",
            json::write(pos)
        );
        if !set.contains(a) {
            let mut copy = *pos;
            assert!(game.play(&mut copy, *a, &mut ()).is_err());
            assert_eq!(copy, *pos, "a refused action changed the position");
        }
    }
}

fn check_game(seed: u64) -> (Position, Vec<Action>) {
    check_game_in(&Ball::default(), seed)
}

fn check_game_in(game: &Ball, seed: u64) -> (Position, Vec<Action>) {
    let game = game.clone();
    let mut rng = SplitMix64::new(seed);
    let mut step = 0u64;
    let (end, actions) = random_playout(&game, game.start(), &mut rng, MAX_ACTIONS, |pos, _, _| {
        assert_invariants(&game, pos);
        assert_legality(&game, pos);
        // JSON round trip at the first steps and at powers of two, and a
        // sample of the rest.
        if step < 10 || step.is_power_of_two() || step.is_multiple_of(7) {
            let text = json::write(pos);
            assert_eq!(json::read(&text, &game.params).as_ref(), Ok(pos), "{text}");
        }
        step += 1;
    });
    assert!(
        end.is_over(),
        "seed {seed}: game not over after {MAX_ACTIONS} actions"
    );
    assert_invariants(&game, &end);
    assert_eq!(json::read(&json::write(&end), &game.params), Ok(end));
    (end, actions)
}

#[test]
fn random_games_keep_every_invariant() {
    for seed in 0..GAMES {
        check_game(seed);
    }
}

/// The rule switches of B12 and the house rules keep generator and
/// reference checker equal too.
#[test]
fn random_games_under_every_rule_switch() {
    use ball::games::ball::params::{Params, Verb, Verbs};
    let mut forbid = Verbs::NONE;
    forbid.insert(Verb::TDodge);
    let variants = [
        Params {
            handoff_network: true,
            short_pass_loose: true,
            stack_top_takes_ball: false,
            keep_choice_needs_top: true,
            ..Params::default()
        },
        Params {
            stack_top_takes_ball: false,
            ..Params::default()
        },
        Params {
            forbidden: forbid,
            long_pass_max_distance: Some(8),
            ap_per_turn: 3,
            touchdowns_to_win: 1,
            ..Params::default()
        },
    ];
    for params in variants {
        let game = Ball::new(params);
        for seed in 0..GAMES / 3 {
            check_game_in(&game, 1000 + seed);
        }
    }
}

#[test]
fn same_seed_same_game() {
    let game = Ball::default();
    let play = |seed| {
        random_playout(
            &game,
            game.start(),
            &mut SplitMix64::new(seed),
            MAX_ACTIONS,
            |_, _, _| {},
        )
    };
    assert_eq!(play(5), play(5));
    assert_ne!(play(5).1, play(6).1);
}

/// Random games reach the rarer corners of the rules, or this test would
/// prove little: touchdowns, stacks, releases, stand-ups, passes.
#[test]
fn random_games_cover_the_rules() {
    let game = Ball::default();
    let mut seen: HashSet<&'static str> = HashSet::new();
    let mut scored = false;
    for seed in 0..GAMES {
        let (end, actions) = random_playout(
            &game,
            game.start(),
            &mut SplitMix64::new(seed),
            MAX_ACTIONS,
            |_, _, _| {},
        );
        scored |= end.score != [0, 0];
        for a in actions {
            seen.insert(match a {
                Action::Move { .. } => "move",
                Action::Dodge { .. } => "dodge",
                Action::TDodge { .. } => "tdodge",
                Action::Block { .. } => "block",
                Action::Protect { .. } => "protect",
                Action::Handoff { .. } => "handoff",
                Action::SPass { .. } => "spass",
                Action::LPass { .. } => "lpass",
                Action::Convert { .. } => "convert",
                Action::Card { .. } => "card",
                Action::End => "end",
                Action::StandUp { .. } => "standup",
                Action::Release { keep: None, .. } => "release",
                Action::Release { keep: Some(_), .. } => "release-keep",
            });
        }
    }
    for verb in [
        "move", "dodge", "tdodge", "block", "protect", "handoff", "spass", "lpass", "end",
        "standup", "release",
    ] {
        assert!(seen.contains(verb), "no random game played `{verb}`");
    }
    assert!(scored, "no random game scored a touchdown");
}
