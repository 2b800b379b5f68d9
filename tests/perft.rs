//! Golden perft counts (tests/perft/golden.txt) and a perft through the
//! reference checker, so the fast generator's tree is checked against a
//! second, plain statement of the rules.

use std::collections::HashSet;

use ball::games::ball::action::Action;
use ball::games::ball::position::Position;
use ball::games::ball::{Ball, json, rules};
use ball::kernel::game::Game;
use ball::kernel::perft::{divide, perft};

/// Leaves a debug build counts; release builds count every line.
const DEBUG_NODE_LIMIT: u64 = 2_000_000;

fn position(game: &Ball, name: &str) -> Position {
    if name == "start" {
        return game.start();
    }
    let path = format!("{}/tests/perft/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("perft position file");
    json::read(&text, &game.params).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn golden() -> Vec<(String, u32, u64)> {
    let text = include_str!("perft/golden.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn golden_perft_counts() {
    let game = Ball::default();
    let mut checked = 0;
    for (name, depth, want) in golden() {
        if cfg!(debug_assertions) && want > DEBUG_NODE_LIMIT {
            continue;
        }
        let pos = position(&game, &name);
        assert_eq!(perft(&game, &pos, depth), want, "perft({depth}) of {name}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} golden counts ran");
}

/// The start position's counts up to depth 4 are part of the contract of
/// issue #2 and always run.
#[test]
fn start_position_perft_to_depth_4() {
    let game = Ball::default();
    let start = game.start();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&game, &start, d)).collect();
    assert_eq!(counts, [58, 3444, 18503, 912_098]);
}

#[test]
fn divide_sums_to_perft() {
    let game = Ball::default();
    for name in ["start", "release-phase", "stack-release-due"] {
        let pos = position(&game, name);
        let parts = divide(&game, &pos, 3);
        let total: u64 = parts.iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft(&game, &pos, 3), "{name}");
    }
}

/// Legal actions by brute force: every candidate the reference checker
/// accepts.
fn reference_legal(game: &Ball, pos: &Position) -> Vec<Action> {
    let unique: HashSet<Action> = rules::candidates(pos).into_iter().collect();
    unique
        .into_iter()
        .filter(|a| rules::check(pos, &game.params, *a).is_ok())
        .collect()
}

fn reference_perft(game: &Ball, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let legal = reference_legal(game, pos);
    if depth == 1 {
        return legal.len() as u64;
    }
    legal
        .iter()
        .map(|&a| {
            let mut next = *pos;
            game.apply(&mut next, a);
            reference_perft(game, &next, depth - 1)
        })
        .sum()
}

#[test]
fn reference_checker_agrees_on_perft() {
    let game = Ball::default();
    for name in ["start", "after-dodge", "release-phase", "stack-release-due"] {
        let pos = position(&game, name);
        assert_eq!(
            reference_perft(&game, &pos, 2),
            perft(&game, &pos, 2),
            "{name}"
        );
    }
}
