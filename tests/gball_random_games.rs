//! Random matches as a property test: at every decision the position
//! passes every check of "What a reader must check" and round-trips
//! through JSON, every listed action applies, near misses are refused
//! with the position unchanged, and the same seed plays the same match —
//! with the default ruleset and under each optional rule.

use std::collections::HashSet;

use ball::games::gball::action::{Action, Way};
use ball::games::gball::position::{Position, members};
use ball::games::gball::{Gball, Venue, json};
use ball::kernel::game::{Game, Title};
use ball::kernel::rng::SplitMix64;

use crate::gball_support::*;

/// Actions just outside the legal list: another player, another
/// direction or way, another verb for the same decision.
fn near_misses(pos: &Position, legal: &[Action]) -> Vec<Action> {
    let mut out = Vec::new();
    let players: Vec<u8> = members(pos.roster).collect();
    for &a in legal {
        match a {
            Action::Place { player, square } => {
                for &q in &players {
                    out.push(Action::Place { player: q, square });
                }
                for s in [0u8, 30, 33, 65] {
                    out.push(Action::Place { player, square: s });
                }
            }
            Action::Move { player, dir } => {
                for d in 0..8 {
                    out.push(Action::Move { player, dir: d });
                }
                for &q in &players {
                    out.push(Action::Move { player: q, dir });
                    out.push(Action::Stay { player: q });
                }
            }
            Action::Variant { .. } => {}
            Action::Stay { player } => {
                for d in 0..8 {
                    out.push(Action::Move { player, dir: d });
                }
            }
            Action::Turn { actor, target, .. } => {
                for way in [Way::Left, Way::Right, Way::None] {
                    out.push(Action::Turn { actor, target, way });
                    for &q in &players {
                        out.push(Action::Turn {
                            actor: q,
                            target,
                            way,
                        });
                        out.push(Action::Turn {
                            actor,
                            target: q,
                            way,
                        });
                    }
                }
            }
            Action::Decline(m) | Action::Receivers(m) => {
                for &q in &players {
                    out.push(Action::Decline(m ^ (1 << q)));
                    out.push(Action::Receivers(m ^ (1 << q)));
                }
            }
            Action::Block { blocker, opponent } => {
                for &q in &players {
                    out.push(Action::Block {
                        blocker: q,
                        opponent,
                    });
                    out.push(Action::Block {
                        blocker,
                        opponent: q,
                    });
                }
            }
            Action::Catch(_) => {
                out.push(Action::Catch(None));
                for &q in &players {
                    out.push(Action::Catch(Some(q)));
                }
            }
            Action::Aim(_) => out.push(Action::Catch(None)),
            Action::Keep(h)
            | Action::Spin(h)
            | Action::Throw { holder: h, .. }
            | Action::Handoff { holder: h, .. } => {
                out.push(Action::Keep(h));
                for d in 0..8 {
                    out.push(Action::Throw { holder: h, dir: d });
                }
                for &q in &players {
                    out.push(Action::Handoff { holder: h, to: q });
                    out.push(Action::Spin(q));
                }
            }
        }
    }
    // Other decisions' verbs.
    out.extend([
        Action::Aim(0),
        Action::Catch(None),
        Action::Decline(0),
        Action::Receivers(0),
    ]);
    out
}

/// Plays a random match of `g` from `seed`; checks every decision up to
/// `deep` deeply. Returns the canonical text of every action played.
fn random_match(g: &Gball, seed: u64, deep: usize, limit: usize) -> (Vec<String>, Position) {
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let mut pos = g.start(seed);
    let mut legal = Vec::new();
    let mut played = Vec::new();
    for n in 0..limit {
        g.legal_into(&pos, &mut legal);
        if legal.is_empty() {
            assert!(pos.is_over(), "no legal action but not over");
            break;
        }
        if n < deep {
            let text = json::write(&pos);
            let back =
                json::read(g, &text).unwrap_or_else(|e| panic!("seed {seed} #{n}: {e}\n{text}"));
            assert_eq!(back, pos, "seed {seed} #{n}: round trip");
            assert_eq!(json::write(&back), text);
            let set: HashSet<Action> = legal.iter().copied().collect();
            assert!(set.len() >= 2, "a decision with {} actions", set.len());
            for &a in &legal {
                let mut p = pos.clone();
                let mut log = Vec::new();
                g.play(&mut p, a, &mut log)
                    .unwrap_or_else(|e| panic!("seed {seed} #{n}: listed `{a}` refused: {e}"));
                assert_eq!(log[0].to_string(), format!("act {a}"));
                let parsed = g.parse_action(&a.to_string()).unwrap();
                assert_eq!(parsed, a);
            }
            for a in near_misses(&pos, &legal) {
                if set.contains(&a) {
                    continue;
                }
                let mut p = pos.clone();
                let mut log = Vec::new();
                let e = g
                    .play(&mut p, a, &mut log)
                    .expect_err(&format!("`{a}` accepted"));
                assert_eq!(p, pos, "a refused action changed the position");
                assert!(log.is_empty());
                assert!(e.contains(&format!("`{a}`")) && e.contains("(G"), "{e}");
                assert!(!e.contains('\n'), "{e}");
            }
        }
        let a = legal[rng.below(legal.len())];
        played.push(a.to_string());
        g.apply(&mut pos, a);
    }
    (played, pos)
}

fn rulesets() -> Vec<(&'static str, Gball)> {
    vec![
        ("default", standard()),
        ("morale", with(|p| p.morale = true)),
        (
            "earned_stars",
            with(|p| {
                p.earned_stars = true;
                p.catch_attempts_min = 2;
                p.tackles_min = 2;
                p.hat_trick = 2;
            }),
        ),
        ("neutral", with(|p| p.venue = Venue::Neutral)),
        (
            "short",
            with(|p| {
                p.sets_to_win_match = 1;
                p.points_to_win_set = 2;
                p.players_on_court = 3;
                p.point_turn_limit = 30;
            }),
        ),
    ]
}

#[test]
fn random_decisions_keep_every_invariant() {
    let deep = if cfg!(debug_assertions) { 1500 } else { 20_000 };
    for (name, g) in rulesets() {
        for seed in 0..2 {
            let (moves, end) = random_match(&g, seed, deep, deep);
            assert!(!moves.is_empty(), "{name}");
            let _ = end;
        }
    }
}

#[test]
fn random_matches_end_and_replay_byte_for_byte() {
    for (name, g) in rulesets() {
        let (a, end_a) = random_match(&g, 7, 0, 2_000_000);
        assert!(
            end_a.is_over(),
            "{name}: not over after {} decisions",
            a.len()
        );
        let outcome = g.outcome(&end_a).unwrap();
        assert!(outcome.score.starts_with("RED "), "{}", outcome.score);
        let (b, end_b) = random_match(&g, 7, 0, 2_000_000);
        assert_eq!(a, b, "{name}: the same seed plays the same match");
        assert_eq!(json::write(&end_a), json::write(&end_b));
        let text = json::write(&end_a);
        assert_eq!(
            json::read(&g, &text).unwrap(),
            end_a,
            "{name}: final position reads back"
        );
        let (c, _) = random_match(&g, 8, 0, 2_000_000);
        assert_ne!(a, c, "{name}: another seed, another match");
    }
}

#[test]
fn morale_and_demoralisation_happen() {
    let g = with(|p| p.morale = true);
    let mut rng = SplitMix64::new(3);
    let mut pos = g.start(3);
    let mut legal = Vec::new();
    let mut demoralised = 0;
    while !pos.is_over() {
        g.legal_into(&pos, &mut legal);
        pos.morale.expect_if_playing(&pos);
        if pos.demoralised.is_some() {
            demoralised += 1;
        }
        g.apply(&mut pos, legal[rng.below(legal.len())]);
    }
    assert!(demoralised > 0, "no demoralised team in a whole match");
}

trait ExpectIfPlaying {
    fn expect_if_playing(self, pos: &Position);
}

impl ExpectIfPlaying for Option<[u8; 2]> {
    fn expect_if_playing(self, pos: &Position) {
        use ball::games::gball::position::Phase;
        let playing = !matches!(pos.phase, Phase::Place | Phase::Over);
        assert_eq!(
            self.is_some(),
            playing,
            "morale shown exactly outside placement"
        );
    }
}

/// The lab's tally agrees with the match: its points and sets are the
/// score's, and goals split into carried and caught.
#[test]
fn the_tally_of_a_random_match() {
    use ball::games::gball::figures::Tally;
    let g = with(|p| p.sets_to_win_match = 2);
    let mut rng = SplitMix64::new(5);
    let mut pos = g.start(5);
    let mut legal = Vec::new();
    let mut tally = Tally::default();
    while !pos.is_over() {
        g.legal_into(&pos, &mut legal);
        g.play(&mut pos, legal[rng.below(legal.len())], &mut tally)
            .unwrap();
    }
    assert_eq!(tally.sets, [u32::from(pos.sets[0]), u32::from(pos.sets[1])]);
    for t in 0..2 {
        assert!(tally.goals_carried[t] + tally.goals_caught[t] <= tally.points[t]);
        assert!(tally.catches[t] <= tally.catch_attempts[t]);
    }
    assert!(tally.goals_carried.iter().sum::<u32>() > 0);
    assert!(tally.winner.is_some());
    assert_eq!(tally.turns, pos.match_turns);
}
