//! The bots' speed in every game (issue 27): greedy's whole games per
//! second, and mcts's decisions per second at a fixed budget, for BALL,
//! Gateball and G-ball — the figures that say whether the lab's usual
//! runs (`sim --bots greedy,greedy`, `compare` with mcts) stay practical
//! when a game's engine or evaluation changes.
//!
//! Everything is seeded and budgeted by iterations, so a round does the
//! same work on any machine: greedy plays a fixed batch of seeded games
//! through the real sim runner on one thread (criterion's throughput
//! line is games/s), mcts decides a fixed set of positions taken a few
//! greedy actions into seeded games (decisions/s). The machine is shared:
//! compare versions by instruction counts (callgrind) when it is loaded.

use std::hint::black_box;
use std::time::Duration;

use ball::bots::{Bot, GreedyBot, MctsBot};
use ball::games::Module;
use ball::games::ball::Ball;
use ball::games::gateball::Gateball;
use ball::games::gball::Gball;
use ball::lab::sim::{self, SimConfig};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

/// mcts's budget a decision: small enough for a round of G-ball's
/// determinized trees to take well under a second.
const ITERATIONS: u32 = 200;

fn greedy_games<G: Module>(group: &mut BenchmarkGroup<WallTime>, games: usize) {
    let ruleset = G::load_ruleset(G::DEFAULT_RULESET).expect("the shipped ruleset loads");
    let cfg = SimConfig {
        bots: ["greedy".into(), "greedy".into()],
        games,
        seed: 1,
        records: false,
    };
    group.throughput(Throughput::Elements(games as u64));
    group.bench_function(format!("{}_greedy_{games}_games", G::NAME), |b| {
        b.iter(|| sim::run::<G>(black_box(&ruleset), &cfg, 1, &|| {}).expect("sim runs"))
    });
}

/// Positions with a choice, `depth` greedy actions into seeded games.
fn positions<G: Module>(game: &G, seeds: std::ops::Range<u64>, depth: usize) -> Vec<G::Position> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in seeds {
        let (game, mut pos, _) = game.new_game(seed);
        let mut bots = [GreedyBot::new(seed), GreedyBot::new(seed + 100)];
        for _ in 0..depth {
            game.legal_into(&pos, &mut legal);
            let Some(seat) = game.to_move(&pos) else {
                break;
            };
            let a = bots[seat].choose(&game, &pos, &legal);
            game.apply(&mut pos, a);
        }
        game.legal_into(&pos, &mut legal);
        if legal.len() > 1 {
            out.push(pos);
        }
    }
    out
}

fn mcts_decisions<G: Module>(group: &mut BenchmarkGroup<WallTime>, depth: usize) {
    let ruleset = G::load_ruleset(G::DEFAULT_RULESET).expect("the shipped ruleset loads");
    let game = G::build(&ruleset).expect("the shipped ruleset builds");
    let positions = positions(&game, 0..4, depth);
    assert!(!positions.is_empty(), "no position with a choice");
    let decide = || {
        let mut legal = Vec::new();
        for (i, pos) in positions.iter().enumerate() {
            game.legal_into(pos, &mut legal);
            let mut bot = MctsBot::<G>::new(i as u64, ITERATIONS);
            black_box(bot.choose(&game, pos, &legal));
        }
    };
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(format!("{}_mcts_{ITERATIONS}_iterations", G::NAME), |b| {
        b.iter(decide)
    });
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("bots");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    greedy_games::<Ball>(&mut group, 50);
    greedy_games::<Gateball>(&mut group, 10);
    greedy_games::<Gball>(&mut group, 2);
    mcts_decisions::<Ball>(&mut group, 40);
    mcts_decisions::<Gateball>(&mut group, 20);
    mcts_decisions::<Gball>(&mut group, 200);
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
