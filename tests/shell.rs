//! The session layer of every board (`ball::shell`), on every game:
//! the choice flow builds exactly the legal list, keys keep their
//! meaning, undo returns to a person's turn, bots are deterministic and
//! their stale answers dropped, records round-trip through the lab's own
//! check.

use std::collections::BTreeSet;

use ball::bots::Evaluate;
use ball::games::Module;
use ball::games::ball::Ball;
use ball::games::ball::flow::verb_key;
use ball::games::ball::params::Verb;
use ball::games::ball::ruleset::Ruleset;
use ball::games::gateball::Gateball;
use ball::games::gball::Gball;
use ball::kernel::rng::SplitMix64;
use ball::shell::bots::{Answerer, choose};
use ball::shell::{Chooser, Done, Key, Seat, Session};

const PEOPLE: [Seat; 2] = [Seat::Person, Seat::Person];

/// Every whole action any sequence of offered choices names, by search.
fn reachable<A: Copy + PartialEq + ToString, C: Copy + PartialEq>(
    chooser: &Chooser<A, C>,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut stack = vec![chooser.clone()];
    while let Some(c) = stack.pop() {
        if let Some(a) = c.whole() {
            found.insert(a.to_string());
        }
        for o in c.options() {
            let mut next = c.clone();
            assert!(next.push(&o.label), "an offered choice is accepted");
            stack.push(next);
        }
    }
    found
}

/// Along seeded random games of `G`: at every decision, the flow's
/// choices reach exactly the legal list, and choosing one legal action's
/// choices one by one plays exactly that action.
fn flow_builds_exactly_the_legal_list<G: Module>(ruleset: G::Ruleset, games: u64, plies: usize) {
    for seed in 0..games {
        let mut s = Session::<G>::new(ruleset.clone(), PEOPLE, seed).unwrap();
        let mut rng = SplitMix64::new(seed);
        for _ in 0..plies {
            let legal = s.legal();
            if legal.is_empty() {
                break;
            }
            let want: BTreeSet<String> = legal.iter().map(|a| a.to_string()).collect();
            assert_eq!(reachable(s.chooser()), want, "{} seed {seed}", G::NAME);
            // One action of the list, by its choices.
            let a = legal[rng.below(legal.len())];
            let pos = s.position().clone();
            let mut expect = pos.clone();
            s.game().play(&mut expect, a, &mut Vec::new()).unwrap();
            let labels: Vec<String> = s.choices_of(&pos, a).into_iter().map(|c| c.label).collect();
            let mut done = None;
            for l in &labels {
                done = Some(s.choose(l).unwrap_or_else(|e| panic!("{a}: {l}: {e}")));
            }
            if done == Some(Done::Waiting) {
                assert_eq!(s.waiting(), Some(a));
                assert_eq!(s.confirm(), Ok(Done::Played));
            }
            assert_eq!(s.played().last().unwrap().action, a, "{a}");
            assert_eq!(s.position(), &expect);
        }
    }
}

#[test]
fn the_ball_flow_builds_exactly_the_legal_list() {
    flow_builds_exactly_the_legal_list::<Ball>(Ruleset::standard(), 4, 300);
}

/// A variant's own action (`dash`) and a variant's prices (`long-pass-3`)
/// on the board: the flow offers exactly what `legal` lists, no card mode
/// needed.
#[test]
fn the_house_rule_flows_build_exactly_the_legal_list() {
    for r in ["dash", "long-pass-3", "fatigue"] {
        flow_builds_exactly_the_legal_list::<Ball>(Ruleset::load(r).unwrap(), 2, 300);
    }
}

#[test]
fn the_card_mode_flow_builds_exactly_the_legal_list() {
    flow_builds_exactly_the_legal_list::<Ball>(Ruleset::load("cards").unwrap(), 3, 300);
}

#[test]
fn the_gateball_flow_builds_exactly_the_legal_list() {
    let rs = ball::games::gateball::ruleset::load("gateball").unwrap();
    flow_builds_exactly_the_legal_list::<Gateball>(rs, 3, 200);
}

#[test]
fn the_gball_flow_builds_exactly_the_legal_list() {
    let rs = ball::games::gball::ruleset::load("gball").unwrap();
    flow_builds_exactly_the_legal_list::<Gball>(rs, 3, 400);
}

#[test]
fn balls_keys_are_stable_piece_numbers_and_verb_digits() {
    let mut s = Session::<Ball>::new(Ruleset::standard(), PEOPLE, 0).unwrap();
    let mut rng = SplitMix64::new(9);
    for _ in 0..300 {
        let legal = s.legal();
        if legal.is_empty() {
            break;
        }
        for (a, choices) in s.chooser().paths() {
            let first = &choices[0];
            if let Some(p) = ball::games::ball::piece::PieceId::parse(&first.label) {
                assert_eq!(
                    first.keys,
                    [Key::Char(char::from(b'0' + p.number()))],
                    "{a}"
                );
                let v = Verb::parse(&choices[1].label).unwrap();
                assert_eq!(choices[1].keys, [Key::Char(verb_key(v).unwrap())], "{a}");
            }
        }
        let a = legal[rng.below(legal.len())];
        s.play(a).unwrap();
    }
}

/// Undo takes back a person's action with the bots' after it, redo plays
/// them again; a bot's answer to a position since undone is dropped.
fn undo_redo_and_stale_answers<G: Module>(ruleset: G::Ruleset) {
    let seats = [Seat::Person, Seat::Bot("greedy".into())];
    let mut s = Session::<G>::new(ruleset, seats, 3).unwrap();
    let mut rng = SplitMix64::new(1);
    let mut person_moves = 0;
    while person_moves < 4 && s.to_move().is_some() {
        match s.bot_request() {
            Some(req) => {
                let a = choose(s.game(), &req).unwrap();
                assert!(s.bot_answer(req.version, a).unwrap());
            }
            None => {
                let legal = s.legal();
                s.play(legal[rng.below(legal.len())]).unwrap();
                person_moves += 1;
            }
        }
    }
    // Let the bot finish its turn, so that undo has bot actions to take.
    while let Some(req) = s.bot_request() {
        let a = choose(s.game(), &req).unwrap();
        s.bot_answer(req.version, a).unwrap();
    }
    let end = s.position().clone();
    let n = s.played().len();
    let k = s.undo().unwrap();
    assert!(s.person_to_move(), "back to the person");
    assert!(k >= 1);
    assert_eq!(s.played().len(), n - k);
    assert_eq!(s.redo().unwrap(), k, "redo plays the same actions again");
    assert_eq!(s.position(), &end);
    // A request answered after an undo is stale, and dropped.
    s.undo().unwrap();
    let legal = s.legal();
    s.play(legal[0]).unwrap();
    if let Some(req) = s.bot_request() {
        let a = choose(s.game(), &req).unwrap();
        s.undo().unwrap();
        assert_eq!(s.bot_answer(req.version, a), Ok(false), "stale: dropped");
    }
}

#[test]
fn undo_redo_and_stale_answers_on_every_game() {
    undo_redo_and_stale_answers::<Ball>(Ruleset::standard());
    undo_redo_and_stale_answers::<Gateball>(
        ball::games::gateball::ruleset::load("gateball").unwrap(),
    );
    undo_redo_and_stale_answers::<Gball>(ball::games::gball::ruleset::load("gball").unwrap());
}

/// Same seed, same replies: a bot's choice depends on the game's seed,
/// its seat and its run of decisions, never on what was asked before —
/// the bot kept through a run answers as one built anew for the request.
fn bots_are_deterministic<G: Module + Evaluate>(ruleset: G::Ruleset) {
    let seats = [Seat::Bot("mcts:50".into()), Seat::Bot("greedy".into())];
    let run = || {
        let mut s = Session::<G>::new(ruleset.clone(), seats.clone(), 11).unwrap();
        let mut kept = Answerer::default();
        for _ in 0..60 {
            let Some(req) = s.bot_request() else { break };
            let a = kept.answer(s.game(), &req).unwrap();
            assert_eq!(choose(s.game(), &req).unwrap(), a, "anew, the same");
            s.bot_answer(req.version, a).unwrap();
        }
        s.played()
            .iter()
            .map(|p| p.action.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

/// The board's default bot plays whole games: BALL's free hand-offs do
/// not loop, since the bot keeps its run.
#[test]
fn the_default_bot_finishes_its_games() {
    let seats = [Seat::Bot("mcts".into()), Seat::Bot("mcts".into())];
    let mut s = Session::<Ball>::new(Ruleset::standard(), seats, 2).unwrap();
    let mut bots = Answerer::default();
    while let Some(req) = s.bot_request() {
        let a = bots.answer(s.game(), &req).unwrap();
        assert!(s.bot_answer(req.version, a).unwrap());
        assert!(s.played().len() < 1500, "no end in sight");
    }
    assert_eq!(s.to_move(), None);
}

#[test]
fn bots_are_deterministic_on_every_game() {
    bots_are_deterministic::<Ball>(Ruleset::standard());
    bots_are_deterministic::<Gateball>(ball::games::gateball::ruleset::load("gateball").unwrap());
    bots_are_deterministic::<Gball>(ball::games::gball::ruleset::load("gball").unwrap());
}

#[test]
fn a_saved_game_of_every_game_checks_and_loads_back() {
    fn one<G: Module>(ruleset: G::Ruleset) {
        let seats = [Seat::Bot("random".into()), Seat::Person];
        let mut s = Session::<G>::new(ruleset.clone(), seats, 5).unwrap();
        let mut rng = SplitMix64::new(2);
        for _ in 0..30 {
            if let Some(req) = s.bot_request() {
                let a = choose(s.game(), &req).unwrap();
                s.bot_answer(req.version, a).unwrap();
            } else if s.to_move().is_some() {
                let legal = s.legal();
                s.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
        let rec = s.record();
        ball::lab::replay::check::<G>(&rec, &ruleset).unwrap();
        let back = Session::<G>::load(&rec, ruleset, [None, None]).unwrap();
        assert_eq!(back.position(), s.position());
        assert_eq!(back.seats(), s.seats());
        assert!(back.warnings().is_empty(), "{:?}", back.warnings());
        assert!(!back.is_dirty());
    }
    one::<Ball>(Ruleset::standard());
    one::<Ball>(Ruleset::load("cards").unwrap());
    one::<Gateball>(ball::games::gateball::ruleset::load("gateball").unwrap());
    one::<Gball>(ball::games::gball::ruleset::load("gball").unwrap());
}
