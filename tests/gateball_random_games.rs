//! The Gateball property test: random games from many seeds, under every
//! T14 variant; at every step the T11 invariants hold, the position JSON
//! round-trips (and so passes the reader's validation), the legal list is
//! canonical and every action in it applies, actions outside it are
//! refused without a change, and the same seed replays the same game.

use ball::games::gateball::action::{self, Action};
use ball::games::gateball::event::Event;
use ball::games::gateball::position::{Phase, Place, Position, Team};
use ball::games::gateball::{Gateball, SparkDice, json};
use ball::kernel::rng::SplitMix64;

/// T11.1-T11.2 and T12.1, stated on their own (the JSON reader states them
/// again; both must hold).
fn invariants(game: &Gateball, pos: &Position) {
    let c = &game.court;
    let mut seen = std::collections::BTreeMap::new();
    for n in 1..=10u8 {
        let b = pos.ball_state(n);
        match b.place {
            Place::Waiting => assert_eq!(b.gates, 0, "T11.2: waiting ball {n} has gates"),
            Place::Goal => assert_eq!(b.gates, 3, "T11.2: goal ball {n} without 3 gates"),
            Place::Court(s) => {
                assert!(c.is_court(s) && s != c.finish, "T11.2: ball {n} on {s}");
                assert!(b.gates >= 1, "T11.2: ball {n} on the court without gate 1");
            }
            Place::Out(s) => {
                assert!(
                    c.is_outside(s) && !c.is_start(s),
                    "T11.2: out-ball {n} on {s}"
                );
                assert!(b.gates >= 1, "T11.2: out-ball {n} without gate 1");
            }
        }
        if let Some(s) = b.place.space()
            && let Some(other) = seen.insert(s, n)
        {
            let pair = [other, n];
            let spark_pair = pos.phase == Phase::Spark
                && pair.contains(&pos.ball)
                && pair.contains(&pos.spark.unwrap());
            assert!(spark_pair, "T11.1: balls {other} and {n} share {s}");
        }
    }
    let red: u32 = Team::Red.balls().map(|n| pos.ball_state(n).points()).sum();
    assert_eq!(red as i32, pos.score(Team::Red));
}

fn play_one(game: &Gateball, seed: u64, check_all: bool) -> (Position, Vec<String>) {
    let mut pos = Position::start(SplitMix64::new(seed));
    let mut rng = SplitMix64::new(seed.wrapping_mul(31) + 7);
    let mut log = Vec::new();
    let mut steps = 0;
    while !pos.is_over() {
        steps += 1;
        assert!(steps < 10_000, "seed {seed}: the game does not end");
        invariants(game, &pos);
        let legal = game.legal(&pos);
        assert!(!legal.is_empty(), "T3.6: no legal action, seed {seed}");
        let texts: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(texts, sorted, "the legal list is not canonical");
        if check_all {
            let (g2, p2) = json::read(&json::write(game, &pos)).unwrap_or_else(|e| {
                panic!("seed {seed} step {steps}: {e}\n{}", json::write(game, &pos))
            });
            assert_eq!((&g2, &p2), (game, &pos), "JSON round trip, seed {seed}");
            for (a, t) in legal.iter().zip(&texts) {
                assert_eq!(action::parse(t).as_ref(), Ok(a), "{t} does not parse back");
                let mut p = pos.clone();
                game.play(&mut p, *a, &mut Vec::new())
                    .unwrap_or_else(|e| panic!("listed action {t} refused: {e}"));
            }
            for t in near_misses(&texts) {
                if texts.contains(&t) {
                    continue;
                }
                if let Ok(a) = action::parse(&t) {
                    let mut p = pos.clone();
                    assert!(
                        game.play(&mut p, a, &mut Vec::new()).is_err(),
                        "`{t}` is not listed but was accepted"
                    );
                    assert_eq!(p, pos, "a refused action changed the position");
                }
            }
        }
        let a: Action = legal[rng.below(legal.len())];
        let mut events: Vec<Event> = Vec::new();
        game.play(&mut pos, a, &mut events).expect("listed");
        log.push(format!("> {a}"));
        log.extend(events.iter().map(|e| e.to_string()));
    }
    invariants(game, &pos);
    assert!(pos.winner.is_some());
    assert!(game.legal(&pos).is_empty());
    let (g2, p2) = json::read(&json::write(game, &pos)).expect("final position reads");
    assert_eq!((&g2, &p2), (game, &pos));
    (pos, log)
}

/// Actions close to the legal ones: other distances, extended or cut
/// paths, other Start Spaces, other verbs.
fn near_misses(texts: &[String]) -> Vec<String> {
    let mut out = vec!["power".into(), "tech".into(), "end".into()];
    for t in texts.iter().take(40) {
        out.push(format!("{t}n"));
        out.push(format!("{t}s"));
        if let Some(cut) = t.strip_suffix(|c: char| "nesw".contains(c)) {
            out.push(cut.to_string());
        }
        out.push(t.replace("shot", "spark"));
        out.push(t.replace("spark", "shot"));
        for (from, to) in [
            (" 1", " 2"),
            (" 2", " 3"),
            (" 7", " 8"),
            ("T1 ", "U1 "),
            ("S1 ", "R1 "),
        ] {
            out.push(t.replace(from, to));
        }
    }
    out
}

fn variants() -> Vec<Gateball> {
    let mut out = vec![Gateball::standard()];
    let mut bonus = Gateball::standard();
    bonus.rules.gate_bonus = true;
    out.push(bonus);
    let mut reuse = Gateball::standard();
    reuse.rules.spark_dice = SparkDice::Reuse;
    out.push(reuse);
    let mut short = Gateball::standard();
    short.rules.turns = 2;
    out.push(short);
    out
}

#[test]
fn random_games_keep_every_invariant() {
    for game in variants() {
        for seed in 0..12 {
            play_one(&game, seed, true);
        }
    }
}

#[test]
fn many_random_games_end_and_hold_invariants() {
    let game = Gateball::standard();
    for seed in 100..400 {
        play_one(&game, seed, false);
    }
}

/// Same seed, same game, byte for byte; another seed, another game.
#[test]
fn same_seed_same_game() {
    let game = Gateball::standard();
    let (a, log_a) = play_one(&game, 5, false);
    let (b, log_b) = play_one(&game, 5, false);
    assert_eq!(json::write(&game, &a), json::write(&game, &b));
    assert_eq!(log_a, log_b);
    let (_, log_c) = play_one(&game, 6, false);
    assert_ne!(log_a, log_c);
}
