//! Perft: the number of leaves of the action tree, the regression number of
//! a move generator (one action is one ply, whoever plays it).

use super::game::Game;

/// Counts the leaves `depth` plies below `pos`. The last ply is counted from
/// the legal list without applying it (bulk counting).
pub fn perft<G: Game>(game: &G, pos: &G::Position, depth: u32) -> u64 {
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    count(game, pos, depth, &mut buffers)
}

fn count<G: Game>(game: &G, pos: &G::Position, depth: u32, buffers: &mut [Vec<G::Action>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (mine, deeper) = buffers.split_first_mut().expect("one buffer per ply");
    game.legal_into(pos, mine);
    if depth == 1 {
        return mine.len() as u64;
    }
    let mut total = 0;
    for &action in mine.iter() {
        let mut next = pos.clone();
        game.apply(&mut next, action);
        total += count(game, &next, depth - 1, deeper);
    }
    total
}

/// Perft split by first action, for finding where two generators disagree.
pub fn divide<G: Game>(game: &G, pos: &G::Position, depth: u32) -> Vec<(G::Action, u64)> {
    let mut first = Vec::new();
    game.legal_into(pos, &mut first);
    first
        .into_iter()
        .map(|action| {
            let mut next = pos.clone();
            game.apply(&mut next, action);
            let n = if depth <= 1 {
                1
            } else {
                perft(game, &next, depth - 1)
            };
            (action, n)
        })
        .collect()
}
