//! Smoke run of card mode: random games under `cards`, counting card plays.
use ball::ball::action::Action;
use ball::kernel::game::Game;
use ball::kernel::rng::SplitMix64;
use ball::ruleset::Ruleset;

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "cards".into());
    let t0 = std::time::Instant::now();
    let r = Ruleset::load(&name).unwrap();
    let game = ball::script::game(&r).unwrap_or_else(|e| {
        for x in e {
            eprintln!("{x}");
        }
        std::process::exit(1)
    });
    println!("load: {:?}", t0.elapsed());
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut legal = Vec::new();
    let (mut n, mut cards, mut converts) = (0u64, 0u64, 0u64);
    let mut per_card = std::collections::BTreeMap::new();
    let t = std::time::Instant::now();
    for seed in 0..games {
        let mut rng = SplitMix64::new(seed);
        let mut pos = game.start();
        loop {
            game.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            if let Action::Card { card, .. } = a {
                cards += 1;
                *per_card.entry(card.name()).or_insert(0) += 1;
            }
            if let Action::Convert { .. } = a {
                converts += 1;
            }
            game.apply(&mut pos, a);
            n += 1;
        }
        if let Some(e) = game.take_script_error() {
            println!("script error: {e}");
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{n} actions, {cards} card plays, {converts} converts, {:.3} us/action",
        s * 1e6 / n as f64
    );
    println!("{per_card:?}");
}
