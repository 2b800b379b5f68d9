//! The search's speed bar: `mcts` runs ≥ 20,000 simulations (iterations:
//! select, expand, roll out, evaluate, back up) per second on one thread.
//!
//! Measured on decisions from real positions: the start, and positions a
//! few turns into seeded greedy-vs-greedy games, where the ball and the
//! pieces are spread out. One timed pass is printed first; criterion's
//! throughput line then counts iterations (elements) per second.

use std::hint::black_box;
use std::time::Instant;

use ball::bots::{Bot, GreedyBot, MctsBot};
use ball::games::ball::Ball;
use ball::games::ball::position::Position;
use ball::games::ball::ruleset::Ruleset;
use ball::kernel::game::Game;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const ITERATIONS: u32 = 1000;

/// The start position and positions after 20, 60 and 120 greedy actions,
/// each with more than one legal action.
fn positions(game: &Ball) -> Vec<Position> {
    let mut out = vec![game.start()];
    for (seed, depth) in [(1, 20), (2, 60), (3, 120)] {
        let mut bots = [GreedyBot::new(seed), GreedyBot::new(seed + 100)];
        let mut pos = game.start();
        for _ in 0..depth {
            let legal = game.legal(&pos);
            if legal.is_empty() {
                break;
            }
            let a = bots[pos.to_move as usize].choose(game, &pos, &legal);
            game.apply(&mut pos, a);
        }
        while game.legal(&pos).len() == 1 {
            let a = game.legal(&pos)[0];
            game.apply(&mut pos, a);
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

fn decide_all(game: &Ball, positions: &[Position]) -> u64 {
    let mut sims = 0;
    for (i, pos) in positions.iter().enumerate() {
        let mut bot = MctsBot::new(i as u64, ITERATIONS);
        let legal = game.legal(pos);
        black_box(bot.choose(game, pos, &legal));
        sims += u64::from(bot.iterations());
    }
    sims
}

fn bench(c: &mut Criterion) {
    let game = Ruleset::standard().game();
    let positions = positions(&game);
    let started = Instant::now();
    let mut sims = 0;
    while started.elapsed().as_secs_f64() < 2.0 {
        sims += decide_all(&game, &positions);
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "mcts: {sims} simulations in {secs:.2} s on one thread: {:.0} simulations/s ({} positions, {ITERATIONS} a decision)",
        sims as f64 / secs,
        positions.len()
    );
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(
        u64::from(ITERATIONS) * positions.len() as u64,
    ));
    group.bench_function("decisions_1000_iterations", |b| {
        b.iter(|| decide_all(black_box(&game), &positions))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
