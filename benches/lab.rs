//! The balance lab's throughput bar: 10,000 random-vs-random games of
//! `standard` in ≤ 10 s on the 2-core machine, through the real sim
//! runner (thread pool, bots behind `Box<dyn Bot>`, metrics).
//!
//! One timed run of the full 10,000 games on 2 threads is printed first
//! (the figure the bar is about); criterion then measures batches of
//! 1,000 games, whose throughput line is in games/s.

use std::hint::black_box;
use std::time::Instant;

use ball::games::ball::Ball;
use ball::games::ball::ruleset::Ruleset;
use ball::kernel::game::Title;
use ball::lab::metrics;
use ball::lab::sim::{self, SimConfig};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn config(games: usize) -> SimConfig {
    SimConfig {
        bots: ["random".into(), "random".into()],
        games,
        seed: 1,
        records: false,
    }
}

fn bench(c: &mut Criterion) {
    let ruleset = Ruleset::standard();
    let started = Instant::now();
    let results = sim::run::<Ball>(&ruleset, &config(10_000), 2, &|| {}).expect("sim runs");
    let secs = started.elapsed().as_secs_f64();
    let actions: u64 = results.iter().map(|g| u64::from(g.actions)).sum();
    let m = metrics::compute(&results, &["random".into(), "random".into()], Ball::SEATS);
    println!(
        "10000 random-vs-random games on 2 threads: {secs:.2} s ({:.0} games/s, {:.3} µs per action per thread); {:.1} actions a game",
        10_000.0 / secs,
        secs * 2.0 * 1e6 / actions as f64,
        m.actions.mean
    );
    let mut group = c.benchmark_group("sim");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1000));
    group.bench_function("random_vs_random_1000_games_2_threads", |b| {
        b.iter(|| sim::run::<Ball>(black_box(&ruleset), &config(1000), 2, &|| {}))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
