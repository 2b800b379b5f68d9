//! Golden perft counts of G-ball (tests/gball/perft.txt): every decision
//! one ply, `auto` decisions not counted (notation, "Command-line
//! contract"). Start positions are `start` (seed 0's first placement) or
//! a position file under tests/gball/.

use ball::games::gball::position::Position;
use ball::games::gball::{Gball, json};
use ball::kernel::perft::perft;

/// Debug builds skip lines deeper than this; release builds count every
/// line.
const DEBUG_DEPTH_LIMIT: u32 = 9;

fn position(g: &Gball, name: &str) -> Position {
    if name == "start" {
        return g.start(0);
    }
    let path = format!("{}/tests/gball/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("perft position file");
    json::read(g, &text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn golden() -> Vec<(String, u32, u64)> {
    include_str!("gball/perft.txt")
        .lines()
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
    let g = Gball::standard();
    let mut checked = 0;
    for (name, depth, want) in golden() {
        if cfg!(debug_assertions) && depth > DEBUG_DEPTH_LIMIT {
            continue;
        }
        let pos = position(&g, &name);
        assert_eq!(perft(&g, &pos, depth), want, "perft({depth}) of {name}");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} golden counts ran");
}

/// Depths 1–4 from the start are the placement tree (G4.3): BLU (the away
/// team) places first, nine players on 14 squares, then RED, and so on.
#[test]
fn start_perft_is_the_placement_tree() {
    let g = Gball::standard();
    let start = g.start(0);
    assert_eq!(perft(&g, &start, 1), 9 * 14);
    assert_eq!(perft(&g, &start, 2), (9 * 14) * (9 * 14));
    assert_eq!(perft(&g, &start, 3), (9 * 14) * (9 * 14) * (8 * 14));
}
