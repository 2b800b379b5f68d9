//! The bots, written once for every game: they never see dice that have
//! not been rolled (the game interface's chance without clairvoyance),
//! and they play every registered game.

use ball::bots::{self, Bot, Evaluate};
use ball::games::gateball::Gateball;
use ball::games::gateball::position::Position;
use ball::games::gball::Gball;
use ball::games::gball::position::Position as GballPosition;
use ball::kernel::game::{Chance, Game, Outcomes, Title};
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
    let mut out = Outcomes::new();
    assert_eq!(game.chance_outcomes(&pos, power, &mut out), Chance::Listed);
    let rolls = out.as_slice();
    assert_eq!(rolls.len(), 36);
    let total: f64 = rolls.iter().map(|(p, _)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let mut dice: Vec<Vec<u8>> = rolls.iter().map(|(_, q)| q.dice.clone()).collect();
    dice.sort();
    dice.dedup();
    assert_eq!(dice.len(), 36, "every roll once");
    let tech = game.parse_action("tech").unwrap();
    let mut tech_out = Outcomes::new();
    assert_eq!(
        game.chance_outcomes(&pos, tech, &mut tech_out),
        Chance::Listed
    );
    assert_eq!(tech_out.len(), 6);
    // A shot rolls nothing the game enumerates.
    let mut rolled = pos.clone();
    game.apply(&mut rolled, power);
    let shot = game.legal(&rolled)[0];
    assert_eq!(
        game.chance_outcomes(&rolled, shot, &mut tech_out),
        Chance::Sampled
    );
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
    // A G-ball match runs to tens of thousands of decisions: the short
    // ruleset, greedy and random only (mcts is held to G-ball above).
    for spec in ["random", "greedy"] {
        let ruleset = Gball::load_ruleset("gball-short").unwrap();
        let (game, mut pos, _) = Gball::build(&ruleset).unwrap().new_game(5);
        let mut bots: Vec<Box<dyn Bot<Gball>>> =
            (0..2).map(|s| bots::from_spec(spec, s).unwrap()).collect();
        let mut legal = Vec::new();
        for _ in 0..200_000 {
            game.legal_into(&pos, &mut legal);
            let Some(seat) = game.to_move(&pos) else {
                break;
            };
            let a = bots[seat].choose(&game, &pos, &legal);
            game.play(&mut pos, a, &mut Vec::new())
                .unwrap_or_else(|e| panic!("{spec} on gball: {e}"));
        }
        assert!(game.outcome(&pos).is_some(), "{spec} on gball: unfinished");
    }
}

/// G-ball's twins: decisions along seeded random matches, each with a copy
/// whose generator and forced dice differ (G14.1, G14.3).
fn gball_twins() -> Vec<(Gball, GballPosition, GballPosition)> {
    let base = Gball::build(&Gball::load_ruleset("gball").unwrap()).unwrap();
    let mut out = Vec::new();
    for seed in 0..3u64 {
        let (game, mut pos, _) = base.new_game(seed);
        let mut rng = SplitMix64::new(seed + 200);
        let mut legal = Vec::new();
        for step in 0..400 {
            game.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            // Past the placement, every 7th decision: moves, turns,
            // declines, catches, acts.
            if step > 20 && step % 7 == 0 && legal.len() > 1 {
                let mut twin = pos.clone();
                twin.rng = SplitMix64::new(rng.next_u64());
                twin.dice = [6, 5, 4, 3, 2, 1].into_iter().collect();
                assert_ne!(twin, pos);
                out.push((game.clone(), pos.clone(), twin));
            }
            let a = legal[rng.below(legal.len())];
            game.apply(&mut pos, a);
        }
    }
    out
}

/// Greedy and mcts choose the same in both twins: neither reads a G-ball
/// die before it is rolled. The control, a greedy that applies actions on
/// the position's own dice, answers some twins differently, so the twins
/// do differ where a die decides.
#[test]
fn gball_bots_pick_the_same_action_whatever_the_future_dice() {
    let twins = gball_twins();
    assert!(twins.len() > 30, "{} positions", twins.len());
    let mut kinds: Vec<&str> = twins
        .iter()
        .map(|(_, p, _)| p.pending.unwrap().kind())
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert!(kinds.len() >= 3, "decision kinds {kinds:?}");
    let mut peeker_differs = 0;
    for (game, pos, twin) in &twins {
        let legal = game.legal(pos);
        assert_eq!(legal, game.legal(twin), "the twins are one decision");
        for spec in ["greedy", "mcts:24"] {
            let mut a: Box<dyn Bot<Gball>> = bots::from_spec(spec, 7).unwrap();
            let mut b: Box<dyn Bot<Gball>> = bots::from_spec(spec, 7).unwrap();
            assert_eq!(
                a.choose(game, pos, &legal),
                b.choose(game, twin, &legal),
                "{spec} read the dice of {}",
                game.write_position(pos)
            );
        }
        let peek = |p: &GballPosition| {
            let me = game.to_move(p).unwrap();
            let mut best = (f64::NEG_INFINITY, String::new());
            for &a in &legal {
                let mut next = p.clone();
                game.apply(&mut next, a);
                let v = game.evaluate(&next, me);
                if v > best.0 {
                    best = (v, a.to_string());
                }
            }
            best.1
        };
        if peek(pos) != peek(twin) {
            peeker_differs += 1;
        }
    }
    assert!(
        peeker_differs > 0,
        "the peeking control never differed over {} positions",
        twins.len()
    );
}

/// A catch roll is one die: its six outcomes, each the action with that
/// value forced, equally likely; a move rolls nothing listed.
#[test]
fn gball_chance_outcomes_of_a_catch() {
    let ruleset = Gball::load_ruleset("gball").unwrap();
    let game = Gball::build(&ruleset).unwrap();
    let text = std::fs::read_to_string("tests/gball/mid-catch.json").unwrap();
    let (game, pos) = game.read_position(&text).unwrap();
    let catch = game
        .legal(&pos)
        .into_iter()
        .find(|a| a.to_string() != "catch none")
        .unwrap();
    let mut out = Outcomes::new();
    assert_eq!(
        game.chance_outcomes(&pos, catch, &mut out),
        Chance::Listed,
        "a catch rolls one die"
    );
    let rolls = out.as_slice();
    assert_eq!(rolls.len(), 6);
    assert!((rolls.iter().map(|(p, _)| p).sum::<f64>() - 1.0).abs() < 1e-12);
    for (v, (_, next)) in (1..=6u32).zip(rolls) {
        let mut forced = pos.clone();
        forced.dice = [v].into_iter().collect();
        game.apply(&mut forced, catch);
        assert_eq!(&forced, next, "outcome {v}");
    }
    // The outcomes do not depend on the position's own future dice.
    let mut twin = pos.clone();
    twin.rng = SplitMix64::new(99);
    let mut again = Outcomes::new();
    assert_eq!(
        game.chance_outcomes(&twin, catch, &mut again),
        Chance::Listed
    );
    for ((_, a), (_, b)) in rolls.iter().zip(again.as_slice()) {
        assert_eq!(a.players, b.players);
        assert_eq!(a.ball, b.ball);
    }
}

/// An action that rolls no die is `Sure`, and its outcome resampled is
/// exactly the position a resample before the action gives (what greedy
/// relies on to play it once); one buffer reused over whole random
/// matches never leaks an earlier action's outcome into a later one.
#[test]
fn gball_sure_outcomes_are_the_sampled_position() {
    let game = Gball::build(&Gball::load_ruleset("gball-short").unwrap()).unwrap();
    let mut out = Outcomes::new();
    let (mut sure, mut listed, mut sampled) = (0, 0, 0);
    for seed in 0..3u64 {
        let mut pos = game.start(seed);
        let mut pick = SplitMix64::new(seed);
        let mut legal = Vec::new();
        for _ in 0..3000 {
            game.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            for &a in &legal {
                match game.chance_outcomes(&pos, a, &mut out) {
                    Chance::Sure => {
                        sure += 1;
                        assert_eq!(out.len(), 1);
                        let mut after = out.as_slice()[0].1.clone();
                        game.resample(&mut after, &mut SplitMix64::new(7));
                        let mut before = pos.clone();
                        game.resample(&mut before, &mut SplitMix64::new(7));
                        game.apply(&mut before, a);
                        assert_eq!(after, before, "{a} in seed {seed}");
                    }
                    Chance::Listed => {
                        listed += 1;
                        assert_eq!(out.len(), 6);
                        for (v, (_, next)) in (1..=6u32).zip(out.as_slice()) {
                            let mut forced = pos.clone();
                            forced.dice = [v].into_iter().collect();
                            game.apply(&mut forced, a);
                            assert_eq!(&forced, next, "{a}, roll {v}");
                        }
                    }
                    Chance::Sampled => sampled += 1,
                }
            }
            let a = legal[pick.below(legal.len())];
            game.apply(&mut pos, a);
        }
    }
    assert!(
        sure > 1000 && listed > 0 && sampled > 0,
        "{sure} {listed} {sampled}"
    );
}

/// Greedy beats random at G-ball, in both seats: over 12 matches of the
/// short ruleset (one set to four points), it wins at least 10.
#[test]
fn gball_greedy_beats_random() {
    let ruleset = Gball::load_ruleset("gball-short").unwrap();
    let base = Gball::build(&ruleset).unwrap();
    let mut greedy_wins = 0;
    for seed in 0..12u64 {
        let (game, mut pos, _) = base.new_game(seed);
        let greedy_seat = (seed % 2) as usize;
        let mut bots: Vec<Box<dyn Bot<Gball>>> = vec![
            bots::from_spec("greedy", seed).unwrap(),
            bots::from_spec("random", seed).unwrap(),
        ];
        if greedy_seat == 1 {
            bots.swap(0, 1);
        }
        let mut legal = Vec::new();
        for _ in 0..200_000 {
            game.legal_into(&pos, &mut legal);
            let Some(seat) = game.to_move(&pos) else {
                break;
            };
            let a = bots[seat].choose(&game, &pos, &legal);
            game.apply(&mut pos, a);
        }
        let outcome = game.outcome(&pos).expect("the match ends");
        if outcome.winner() == Some(greedy_seat) {
            greedy_wins += 1;
        }
    }
    assert!(greedy_wins >= 10, "greedy won {greedy_wins} of 12");
}

/// `Game::children` hands a search each legal action with the position it
/// leads to; Gateball's shots and sparks take the outcome the move
/// generator judged instead of judging again. Over random games of every
/// shipped Gateball ruleset (variants take the default path), the pairs
/// and their order equal listing and applying each action to a copy, with
/// the same preparation (a resample from the same generator) before each.
#[test]
fn gateball_children_are_the_listed_actions_applied() {
    use ball::kernel::game::children_by_apply;
    for ruleset in ["gateball", "gateball-bonus", "gateball-sudden-death"] {
        let base = Gateball::build(&Gateball::load_ruleset(ruleset).unwrap()).unwrap();
        let mut moves_seen = 0;
        for seed in 0..6u64 {
            let (game, mut pos, _) = base.new_game(seed);
            let mut rng = SplitMix64::new(seed + 7);
            let mut legal = Vec::new();
            for _ in 0..400 {
                game.legal_into(&pos, &mut legal);
                if legal.is_empty() {
                    break;
                }
                let collect = |by_apply: bool| {
                    let mut dice = SplitMix64::new(seed);
                    let (mut scratch, mut next) = (Vec::new(), None);
                    let mut out = Vec::new();
                    let mut prepare = |p: &mut Position| game.resample(p, &mut dice);
                    let mut visit = |a, p: &Position| out.push((a, p.clone()));
                    if by_apply {
                        children_by_apply(
                            &game,
                            &pos,
                            &mut scratch,
                            &mut next,
                            &mut prepare,
                            &mut visit,
                        );
                    } else {
                        game.children(&pos, &mut scratch, &mut next, &mut prepare, &mut visit);
                    }
                    out
                };
                let fast = collect(false);
                assert_eq!(
                    fast,
                    collect(true),
                    "{ruleset}, seed {seed}: {}",
                    game.write_position(&pos)
                );
                assert_eq!(fast.iter().map(|x| x.0).collect::<Vec<_>>(), legal);
                moves_seen += fast.len();
                let a = legal[rng.below(legal.len())];
                game.apply(&mut pos, a);
            }
        }
        assert!(
            moves_seen > 1000,
            "{ruleset}: only {moves_seen} children compared"
        );
    }
}

/// A FNV-1a step: the pins below fold values and actions into one
/// number each.
fn fnv(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The evaluation's exact bits along a seeded random game, for both
/// seats, and greedy's choices along a seeded greedy-vs-greedy game.
fn pins<G: Evaluate>(
    game: &G,
    start: &G::Position,
    random_steps: usize,
    greedy_steps: usize,
) -> (u64, u64)
where
    G::Action: std::fmt::Display,
{
    let mut legal = Vec::new();
    let (mut values, mut choices) = (0xcbf2_9ce4_8422_2325u64, 0xcbf2_9ce4_8422_2325u64);
    let mut rng = SplitMix64::new(7);
    let mut pos = start.clone();
    for _ in 0..random_steps {
        for seat in 0..2 {
            values = fnv(values, &game.evaluate(&pos, seat).to_bits().to_le_bytes());
        }
        game.legal_into(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        game.apply(&mut pos, legal[rng.below(legal.len())]);
    }
    let mut bots = [bots::GreedyBot::new(1), bots::GreedyBot::new(2)];
    let mut pos = start.clone();
    for _ in 0..greedy_steps {
        let Some(seat) = game.to_move(&pos) else {
            break;
        };
        game.legal_into(&pos, &mut legal);
        let a = bots[seat].choose(game, &pos, &legal);
        choices = fnv(choices, a.to_string().as_bytes());
        game.apply(&mut pos, a);
    }
    (values, choices)
}

/// Every game's evaluation, to the last bit, and greedy's choices,
/// pinned: a speed-up must leave both as they are (issue 27: `mcts`
/// averages the values, so even a last-bit change would change its
/// games), and a deliberate change to an evaluation or to greedy updates
/// these figures and says why in its commit. Printed on failure.
#[test]
fn evaluations_and_greedy_choices_are_pinned() {
    let ball = ball::games::ball::Ball::default();
    let gateball = {
        let ruleset = Gateball::load_ruleset("gateball").unwrap();
        Gateball::build(&ruleset).unwrap()
    };
    let gball = Gball::default();
    let got = [
        ("ball", pins(&ball, &ball.start(), 400, 300)),
        ("gateball", pins(&gateball, &gateball.start(), 400, 40)),
        ("gball", pins(&gball, &gball.start(3), 3000, 400)),
    ];
    let want = [
        ("ball", (0x0ebe_05a4_41b0_7bc5, 0x2e48_e7a7_100f_af16)),
        ("gateball", (0x609b_c7a1_aa95_b275, 0xcabf_3fca_316a_7091)),
        ("gball", (0xad3a_bb8a_5f75_19e9, 0xebaa_5cd4_831d_86e4)),
    ];
    assert_eq!(got, want, "the pins now: {got:x?}");
}
