//! Plays seeded random G-ball matches: a target for `valgrind
//! --tool=callgrind` (instruction counts) or `perf`. `RULESET=NAME|FILE`
//! plays a G-ball ruleset (its variants included); `GAMES=N` sets the
//! number of matches (default 2, the `benches/gball.rs` workload).
use ball::games::gball::Gball;
use ball::kernel::game::{Game, Title};
use ball::kernel::rng::SplitMix64;

fn main() {
    let game = match std::env::var("RULESET") {
        Ok(spec) => {
            let r = Gball::load_ruleset(&spec).unwrap_or_else(|e| panic!("{e}"));
            Gball::build(&r).unwrap_or_else(|e| panic!("{e}"))
        }
        Err(_) => Gball::standard(),
    };
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let mut legal = Vec::with_capacity(256);
    let mut n = 0u64;
    let t = std::time::Instant::now();
    for seed in 0..games {
        let mut rng = SplitMix64::new(seed);
        let mut pos = game.start(seed);
        loop {
            game.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            game.apply(&mut pos, a);
            n += 1;
        }
        std::hint::black_box(&pos);
    }
    let s = t.elapsed().as_secs_f64();
    println!("{n} decisions, {:.3} us/decision", s * 1e6 / n as f64);
}
