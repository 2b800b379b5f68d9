//! Random playouts: the cost of one action (legal generation + choice +
//! apply), the figure issue #2 sets a bar on (≤ 0.33 µs).
//!
//! Each iteration plays the same 20 seeded games from the start position;
//! criterion's throughput line (elements = actions) gives actions/s, and
//! the µs per action is printed once before measuring.

use std::hint::black_box;
use std::time::Instant;

use ball::games::ball::Ball;
use ball::games::ball::action::Action;
use ball::kernel::game::Game;
use ball::kernel::rng::SplitMix64;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const GAMES: u64 = 20;

/// Plays `GAMES` random games; returns the number of actions played.
fn playouts(game: &Ball, legal: &mut Vec<Action>) -> u64 {
    let mut actions = 0;
    for seed in 0..GAMES {
        let mut rng = SplitMix64::new(seed);
        let mut pos = game.start();
        loop {
            game.legal_into(&pos, legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            game.apply(&mut pos, a);
            actions += 1;
        }
        black_box(&pos);
    }
    actions
}

fn bench(c: &mut Criterion) {
    let game = Ball::default();
    let mut legal = Vec::with_capacity(256);
    let actions = playouts(&game, &mut legal);
    let started = Instant::now();
    let mut rounds = 0;
    while started.elapsed().as_secs_f64() < 2.0 {
        playouts(&game, &mut legal);
        rounds += 1;
    }
    let per_action = started.elapsed().as_secs_f64() * 1e6 / (rounds * actions) as f64;
    println!(
        "random playouts: {} actions in {GAMES} games ({:.1} per game); {per_action:.3} µs per action",
        actions,
        actions as f64 / GAMES as f64
    );
    let mut group = c.benchmark_group("random_playout");
    group.throughput(Throughput::Elements(actions));
    group.bench_function("standard_20_games", |b| {
        b.iter(|| playouts(black_box(&game), &mut legal))
    });
    group.finish();
}

/// Card mode with every shipped card (issue #3: ≤ 1.3× native), measured
/// in the same run as native, and the start-up of the `cards` ruleset
/// (load the TOML, compile and validate every shipped script: ≤ 30 ms).
fn card_mode(c: &mut Criterion) {
    let native = Ball::default();
    let ruleset = ball::games::ball::ruleset::Ruleset::load("cards").expect("shipped ruleset");
    let cards = ruleset.game();
    let mut legal = Vec::with_capacity(512);
    let per_action = |game: &Ball, legal: &mut Vec<Action>| {
        let actions = playouts(game, legal);
        let started = Instant::now();
        let mut rounds = 0;
        while started.elapsed().as_secs_f64() < 2.0 {
            playouts(game, legal);
            rounds += 1;
        }
        (
            actions,
            started.elapsed().as_secs_f64() * 1e6 / (rounds * actions) as f64,
        )
    };
    let (_, n) = per_action(&native, &mut legal);
    let (card_actions, k) = per_action(&cards, &mut legal);
    let started = Instant::now();
    let loads = 20;
    for _ in 0..loads {
        black_box(
            ball::games::ball::ruleset::Ruleset::load("cards")
                .expect("loads")
                .game(),
        );
    }
    let startup = started.elapsed().as_secs_f64() * 1e3 / loads as f64;
    println!(
        "card mode: {k:.3} µs per action vs native {n:.3} µs ({:.2}×); start-up of `cards`: {startup:.1} ms",
        k / n
    );
    let mut group = c.benchmark_group("card_mode");
    group.throughput(Throughput::Elements(card_actions));
    group.bench_function("cards_20_games", |b| {
        b.iter(|| playouts(black_box(&cards), &mut legal))
    });
    group.finish();
    c.bench_function("startup_cards_ruleset", |b| {
        b.iter(|| {
            ball::games::ball::ruleset::Ruleset::load("cards")
                .expect("loads")
                .game()
        })
    });
}

criterion_group!(benches, bench, card_mode);
criterion_main!(benches);
