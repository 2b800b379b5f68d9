//! Plays random games for a few seconds: a target for `perf record` or
//! `valgrind --tool=callgrind`. `RULESET=cards` plays card mode (any
//! ruleset name or file); `GAMES=N` sets the number of games.
//!
//! `GAMES=20` plays the 20 seeded games of `benches/playout.rs`; the games
//! run in `play`, out of line, so that callgrind can count them without
//! the ruleset's load (instructions per action, steadier than a clock on
//! a shared machine):
//!
//! ```text
//! GAMES=20 RULESET=cards valgrind --tool=callgrind \
//!     --toggle-collect='*playout_profile::play*' target/release/examples/playout_profile
//! ```
use ball::games::ball::Ball;
use ball::games::ball::action::Action;
use ball::kernel::game::Game;
use ball::kernel::rng::SplitMix64;

fn main() {
    let game = match std::env::var("RULESET") {
        Ok(spec) => ball::games::ball::ruleset::Ruleset::load(&spec)
            .unwrap_or_else(|e| panic!("{e}"))
            .game(),
        Err(_) => Ball::default(),
    };
    let mut legal = Vec::with_capacity(256);
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000);
    let t = std::time::Instant::now();
    let (n, hist) = play(&game, games, &mut legal);
    let s = t.elapsed().as_secs_f64();
    println!(
        "{n} actions, {:.3} us/action, list-size histogram by 40s: {hist:?}",
        s * 1e6 / n as f64
    );
}

/// Plays games `0..games` (each seeded by its number) from the start;
/// returns the actions played and a histogram of the legal lists' sizes.
#[inline(never)]
fn play(game: &Ball, games: u64, legal: &mut Vec<Action>) -> (u64, [u64; 8]) {
    let mut n = 0u64;
    let mut hist = [0u64; 8];
    for seed in 0..games {
        let mut rng = SplitMix64::new(seed);
        let mut pos = game.start();
        loop {
            game.legal_into(&pos, legal);
            if legal.is_empty() {
                break;
            }
            hist[(legal.len() / 40).min(7)] += 1;
            let a = legal[rng.below(legal.len())];
            game.apply(&mut pos, a);
            n += 1;
        }
    }
    (n, hist)
}
