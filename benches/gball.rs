//! G-ball random play: the cost of one decision (legal generation +
//! choice + apply, with everything the engine does up to the next
//! decision), the figure the G-ball brief sets a bar on (≤ 0.5 µs).
//!
//! Each iteration plays the same 2 seeded matches to their end (about
//! 10^5 decisions each); the µs per decision is printed once before
//! criterion measures.

use std::hint::black_box;
use std::time::Instant;

use ball::games::gball::Gball;
use ball::games::gball::action::Action;
use ball::kernel::game::Game;
use ball::kernel::rng::SplitMix64;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const MATCHES: u64 = 2;

fn matches(game: &Gball, legal: &mut Vec<Action>) -> u64 {
    let mut decisions = 0;
    for seed in 0..MATCHES {
        let mut rng = SplitMix64::new(seed);
        let mut pos = game.start(seed);
        loop {
            game.legal_into(&pos, legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            game.apply(&mut pos, a);
            decisions += 1;
        }
        black_box(&pos);
    }
    decisions
}

fn bench(c: &mut Criterion) {
    let game = Gball::standard();
    let mut legal = Vec::with_capacity(256);
    let decisions = matches(&game, &mut legal);
    // The machine is shared: the best round is the least disturbed one,
    // the mean is what a loaded machine gives.
    let started = Instant::now();
    let mut rounds = 0;
    let mut best = f64::MAX;
    while started.elapsed().as_secs_f64() < 5.0 {
        let t = Instant::now();
        matches(&game, &mut legal);
        best = best.min(t.elapsed().as_secs_f64());
        rounds += 1;
    }
    let mean = started.elapsed().as_secs_f64() * 1e6 / (rounds * decisions) as f64;
    let best = best * 1e6 / decisions as f64;
    println!(
        "gball random matches: {decisions} decisions in {MATCHES} matches; {best:.3} µs per \
         decision (best of {rounds} rounds; mean {mean:.3})"
    );
    let mut group = c.benchmark_group("gball_random_match");
    group.throughput(Throughput::Elements(decisions));
    group.sample_size(10);
    group.bench_function("standard_2_matches", |b| {
        b.iter(|| matches(black_box(&game), &mut legal))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
