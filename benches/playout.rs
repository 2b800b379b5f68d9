//! Random playouts: the cost of one action (legal generation + choice +
//! apply), the figure issue #2 sets a bar on (≤ 0.33 µs).
//!
//! Each iteration plays the same 20 seeded games from the start position;
//! criterion's throughput line (elements = actions) gives actions/s, and
//! the µs per action is printed once before measuring.

use std::hint::black_box;
use std::time::Instant;

use ball::ball::Ball;
use ball::ball::action::Action;
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

criterion_group!(benches, bench);
criterion_main!(benches);
