//! The bots, written once for every game: they never see dice that have
//! not been rolled (the game interface's chance without clairvoyance),
//! and they play every registered game.

use ball::bots::{self, Bot, Evaluate};
use ball::games::gateball::Gateball;
use ball::games::gateball::position::Position;
use ball::kernel::game::{Game, Title};
use ball::kernel::rng::SplitMix64;

/// Decisions along seeded random Gateball games: each position, and a
/// copy that differs from it only in its future dice (another generator
/// state, other forced dice).
fn twins() -> Vec<(Gateball, Position, Position)> {
    let ruleset = Gateball::load_ruleset("gateball").unwrap();
    let base = Gateball::build(&ruleset).unwrap();
    let mut out = Vec::new();
    for seed in 0..4u64 {
        let (game, mut pos, _) = base.new_game(seed);
        let mut rng = SplitMix64::new(seed + 100);
        let mut legal = Vec::new();
        for step in 0..60 {
            game.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            if step % 3 == 0 && legal.len() > 1 {
                let mut twin = pos.clone();
                twin.rng = SplitMix64::new(rng.next_u64());
                twin.dice_queue = [6, 5, 4, 3, 2, 1].into_iter().collect();
                assert_ne!(twin, pos);
                out.push((game.clone(), pos.clone(), twin));
            }
            let a = legal[rng.below(legal.len())];
            game.apply(&mut pos, a);
        }
    }
    out
}

/// Greedy's ply (the action, then the best reply when the same seat
/// chooses on the roll) played on the position's own dice: what a bot
/// that peeks would play. The control that shows the twins differ where
/// it matters.
fn peeking_greedy(game: &Gateball, pos: &Position, legal: &[<Gateball as Game>::Action]) -> String {
    let me = game.to_move(pos).unwrap();
    let value = |p: &Position, a| {
        let mut next = p.clone();
        game.apply(&mut next, a);
        next
    };
    let mut best = (f64::NEG_INFINITY, String::new());
    for &a in legal {
        let next = value(pos, a);
        let v = if game.to_move(&next) == Some(me) {
            game.legal(&next)
                .into_iter()
                .map(|r| game.evaluate(&value(&next, r), me))
                .fold(f64::NEG_INFINITY, f64::max)
        } else {
            game.evaluate(&next, me)
        };
        if v > best.0 {
            best = (v, a.to_string());
        }
    }
    best.1
}

#[test]
fn bots_pick_the_same_action_whatever_the_future_dice() {
    let twins = twins();
    assert!(twins.len() > 30, "{} positions", twins.len());
    let mut peeker_differs = 0;
    for (game, pos, twin) in &twins {
        let legal = game.legal(pos);
        assert_eq!(legal, game.legal(twin), "the twins are one decision");
        for spec in ["greedy", "mcts:40"] {
            let mut a: Box<dyn Bot<Gateball>> = bots::from_spec(spec, 7).unwrap();
            let mut b: Box<dyn Bot<Gateball>> = bots::from_spec(spec, 7).unwrap();
            assert_eq!(
                a.choose(game, pos, &legal),
                b.choose(game, twin, &legal),
                "{spec} read the dice of {}",
                game.write_position(pos)
            );
        }
        if peeking_greedy(game, pos, &legal) != peeking_greedy(game, twin, &legal) {
            peeker_differs += 1;
        }
    }
    // Not a vacuous test: a bot that applies actions on the position's own
    // dice answers some twins differently (where a roll is still to come).
    assert!(
        peeker_differs > 0,
        "the peeking control differed on only {peeker_differs} of {} positions",
        twins.len()
    );
}

/// Greedy takes the expectation over `power`'s 36 rolls and `tech`'s 6:
/// the probabilities sum to 1 and each outcome is the roll applied.
#[test]
fn chance_outcomes_of_a_roll() {
    let ruleset = Gateball::load_ruleset("gateball").unwrap();
    let (game, pos, _) = Gateball::build(&ruleset).unwrap().new_game(3);
    let power = game.parse_action("power").unwrap();
    let rolls = game.chance_outcomes(&pos, power).unwrap();
    assert_eq!(rolls.len(), 36);
    let total: f64 = rolls.iter().map(|(p, _)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let mut dice: Vec<Vec<u8>> = rolls.iter().map(|(_, q)| q.dice.clone()).collect();
    dice.sort();
    dice.dedup();
    assert_eq!(dice.len(), 36, "every roll once");
    let tech = game.parse_action("tech").unwrap();
    assert_eq!(game.chance_outcomes(&pos, tech).unwrap().len(), 6);
    // A shot rolls nothing the game enumerates.
    let mut rolled = pos.clone();
    game.apply(&mut rolled, power);
    let shot = game.legal(&rolled)[0];
    assert!(game.chance_outcomes(&rolled, shot).is_none());
}

/// Every bot plays every game to its end without an illegal action.
#[test]
fn every_bot_plays_every_game() {
    fn play<G: Evaluate + Title>(spec: &str) {
        let ruleset = G::load_ruleset(G::DEFAULT_RULESET).unwrap();
        let (game, mut pos, _) = G::build(&ruleset).unwrap().new_game(5);
        let mut bots: Vec<Box<dyn Bot<G>>> =
            (0..2).map(|s| bots::from_spec(spec, s).unwrap()).collect();
        let mut legal = Vec::new();
        for _ in 0..5_000 {
            game.legal_into(&pos, &mut legal);
            let Some(seat) = game.to_move(&pos) else {
                break;
            };
            let a = bots[seat].choose(&game, &pos, &legal);
            game.play(&mut pos, a, &mut Vec::new())
                .unwrap_or_else(|e| panic!("{spec} on {}: {e}", G::NAME));
        }
        assert!(
            game.outcome(&pos).is_some(),
            "{spec} on {}: unfinished",
            G::NAME
        );
    }
    for spec in ["random", "greedy", "mcts:8"] {
        play::<ball::games::ball::Ball>(spec);
        play::<Gateball>(spec);
    }
}
