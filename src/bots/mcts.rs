//! Monte Carlo tree search (UCT) with a fixed budget of iterations.
//!
//! One iteration: *select* down the tree by UCB1, *expand* one new child,
//! *roll out* (`rollout_actions` random actions, 0 by default: random
//! actions blur the evaluation — at 300 iterations, 10 of them lost 55
//! of 60 games, won none, against the bare heuristic leaf, at 6× the
//! cost), score the
//! position reached with the static evaluation ([`super::eval`]), then
//! *back up* the score.
//!
//! BALL's turns are several actions of the same coach (B4.2) followed by
//! the release phase, so the coach to move does not alternate per ply.
//! Every node therefore stores its value for the coach who *moved into
//! it* (the coach to move at its parent), and the backup adds the result
//! seen from that coach: never "flip the sign each ply".
//!
//! Two choices keep the search useful at BALL's branching factor (long
//! passes alone can offer ~80 actions): a node's actions are tried
//! best-first by the one-ply evaluation (what greedy would play comes
//! first), and a node may grow a new child only while it has fewer than
//! `WIDEN · √visits` children (progressive widening), so visits go deep
//! on the promising lines instead of once across every action.
//!
//! The budget is a number of iterations, not a time: the same seed and
//! budget give the same choices on any machine and any load.

use super::Bot;
use super::eval::evaluate_atk;
use crate::games::ball::Ball;
use crate::games::ball::action::Action;
use crate::games::ball::piece::Team;
use crate::games::ball::position::{Outcome, Position};
use crate::kernel::game::Game;
use crate::kernel::rng::SplitMix64;

/// The budget of `mcts` without `:N`.
pub const DEFAULT_ITERATIONS: u32 = 1000;

/// Tuning of the search. The defaults are hand-set; with them `mcts`
/// beats `greedy` in 96% of 200 games (docs/balance-metrics.md, "Bots").
#[derive(Clone, Copy, Debug)]
pub struct MctsConfig {
    pub iterations: u32,
    /// UCB1's exploration constant, for values in [0, 1].
    pub exploration: f64,
    /// Progressive widening: children allowed = ceil(widen · √(visits + 1)).
    pub widen: f64,
    /// Random actions played after the new node before evaluating.
    pub rollout_actions: u32,
    /// Evaluation points that map to a win probability of 1/(1 + e⁻¹) ≈ 0.73.
    pub scale: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: DEFAULT_ITERATIONS,
            exploration: 0.4,
            widen: 1.5,
            rollout_actions: 0,
            scale: 100.0,
        }
    }
}

struct Node {
    pos: Position,
    /// The coach who played `action` into this node: `value` is theirs.
    mover: Team,
    action: Action,
    children: Vec<u32>,
    /// Actions not tried yet, worst first (the next is popped from the end);
    /// filled the first time the node is expanded.
    untried: Vec<Action>,
    ordered: bool,
    visits: u32,
    /// Sum of the backed-up results, each in [0, 1], for `mover`.
    value: f64,
}

pub struct MctsBot {
    rng: SplitMix64,
    config: MctsConfig,
    nodes: Vec<Node>,
    legal: Vec<Action>,
    path: Vec<u32>,
    /// Positions this bot has stood in during the current turn: the root
    /// never plays back into one of them. 0-AP hand-offs (B8.1) could
    /// otherwise pass the ball to and fro for ever whenever the search
    /// finds them as good as anything else.
    seen: Vec<Position>,
}

impl MctsBot {
    pub fn new(seed: u64, iterations: u32) -> MctsBot {
        MctsBot::with_config(
            seed,
            MctsConfig {
                iterations,
                ..MctsConfig::default()
            },
        )
    }

    pub fn with_config(seed: u64, config: MctsConfig) -> MctsBot {
        MctsBot {
            rng: SplitMix64::new(seed),
            config,
            nodes: Vec::new(),
            legal: Vec::new(),
            path: Vec::new(),
            seen: Vec::new(),
        }
    }

    /// The number of iterations run per decision (for benchmarks).
    pub fn iterations(&self) -> u32 {
        self.config.iterations
    }

    /// Fills a node's `untried` list, ordered so the best action for its
    /// coach to move comes out first.
    fn order(&mut self, game: &Ball, n: usize) {
        let pos = self.nodes[n].pos;
        game.legal_into(&pos, &mut self.legal);
        if n == 0 {
            // No repeated position within a turn (see `seen`); `end`
            // always leads somewhere new, so something is left.
            let seen = &self.seen;
            let fresh: Vec<Action> = self
                .legal
                .iter()
                .copied()
                .filter(|&a| {
                    let mut next = pos;
                    game.apply(&mut next, a);
                    !seen.contains(&next)
                })
                .collect();
            if !fresh.is_empty() {
                self.legal = fresh;
            }
        }
        let sign = if pos.to_move == Team::Atk { 1.0 } else { -1.0 };
        let mut scored: Vec<(f64, u64, Action)> = self
            .legal
            .iter()
            .map(|&a| {
                let mut next = pos;
                game.apply(&mut next, a);
                // A random tie-break key keeps equal actions unbiased.
                (
                    sign * evaluate_atk(&next, &game.params),
                    self.rng.next_u64(),
                    a,
                )
            })
            .collect();
        scored.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let node = &mut self.nodes[n];
        node.untried = scored.into_iter().map(|(_, _, a)| a).collect();
        node.ordered = true;
    }

    /// The score of a position for ATK, in [0, 1].
    fn score(&self, game: &Ball, pos: &Position) -> f64 {
        match pos.outcome {
            Some(Outcome::Winner(Team::Atk)) => 1.0,
            Some(Outcome::Winner(Team::Def)) => 0.0,
            Some(Outcome::Draw) => 0.5,
            None => {
                let v = evaluate_atk(pos, &game.params) / self.config.scale;
                1.0 / (1.0 + (-v).exp())
            }
        }
    }

    fn iterate(&mut self, game: &Ball) {
        self.path.clear();
        let mut n = 0usize;
        self.path.push(0);
        // Select, then expand one child.
        loop {
            if self.nodes[n].pos.is_over() {
                break;
            }
            if !self.nodes[n].ordered {
                self.order(game, n);
            }
            let node = &self.nodes[n];
            let allowed = (self.config.widen * f64::from(node.visits + 1).sqrt()).ceil() as usize;
            if !node.untried.is_empty() && node.children.len() < allowed.max(1) {
                let a = self.nodes[n].untried.pop().expect("an untried action");
                let mut pos = self.nodes[n].pos;
                let mover = pos.to_move;
                game.apply(&mut pos, a);
                let id = self.nodes.len() as u32;
                self.nodes.push(Node {
                    pos,
                    mover,
                    action: a,
                    children: Vec::new(),
                    untried: Vec::new(),
                    ordered: false,
                    visits: 0,
                    value: 0.0,
                });
                self.nodes[n].children.push(id);
                self.path.push(id);
                n = id as usize;
                break;
            }
            let ln = f64::from(node.visits.max(1)).ln();
            let c = self.config.exploration;
            let mut best = (f64::NEG_INFINITY, 0u32);
            for &ch in &node.children {
                let child = &self.nodes[ch as usize];
                let v = if child.visits == 0 {
                    f64::INFINITY
                } else {
                    let nv = f64::from(child.visits);
                    child.value / nv + c * (ln / nv).sqrt()
                };
                if v > best.0 {
                    best = (v, ch);
                }
            }
            n = best.1 as usize;
            self.path.push(best.1);
        }
        // Roll out.
        let mut pos = self.nodes[n].pos;
        for _ in 0..self.config.rollout_actions {
            game.legal_into(&pos, &mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            let a = self.legal[self.rng.below(self.legal.len())];
            game.apply(&mut pos, a);
        }
        let atk = self.score(game, &pos);
        // Back up, each node for the coach who moved into it.
        for &id in &self.path {
            let node = &mut self.nodes[id as usize];
            node.visits += 1;
            node.value += if node.mover == Team::Atk {
                atk
            } else {
                1.0 - atk
            };
        }
    }
}

impl Bot for MctsBot {
    fn choose(&mut self, game: &Ball, pos: &Position, legal: &[Action]) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        if self.seen.first().is_none_or(|s| s.turn != pos.turn) {
            self.seen.clear();
        }
        self.seen.push(*pos);
        self.nodes.clear();
        self.nodes.push(Node {
            pos: *pos,
            mover: pos.to_move.other(),
            action: Action::End,
            children: Vec::new(),
            untried: Vec::new(),
            ordered: false,
            visits: 0,
            value: 0.0,
        });
        for _ in 0..self.config.iterations {
            self.iterate(game);
        }
        // The most visited child; ties to the better mean.
        let root = &self.nodes[0];
        let mut best: Option<(u32, f64, Action)> = None;
        for &ch in &root.children {
            let c = &self.nodes[ch as usize];
            let mean = if c.visits == 0 {
                0.0
            } else {
                c.value / f64::from(c.visits)
            };
            if best.is_none_or(|(v, m, _)| c.visits > v || (c.visits == v && mean > m)) {
                best = Some((c.visits, mean, c.action));
            }
        }
        match best {
            Some((_, _, a)) => a,
            // A budget of 0: the evaluation's favourite.
            None => {
                self.order(game, 0);
                *self.nodes[0].untried.last().expect("legal is not empty")
            }
        }
    }

    fn spec(&self) -> String {
        if self.config.iterations == DEFAULT_ITERATIONS {
            "mcts".into()
        } else {
            format!("mcts:{}", self.config.iterations)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ball::action::parse;
    use crate::games::ball::board::Sq;
    use crate::games::ball::piece::PieceId;

    /// With a touchdown one action away, the search finds it.
    #[test]
    fn finds_the_touchdown() {
        let game = Ball::default();
        let mut pos = game.start();
        game.play(&mut pos, parse("end").unwrap(), &mut ()).unwrap();
        pos.piece_mut(PieceId::new(Team::Atk, 5)).at = Sq::parse("B14").unwrap();
        let legal = game.legal(&pos);
        let a = MctsBot::new(3, 200).choose(&game, &pos, &legal);
        let mut next = pos;
        game.apply(&mut next, a);
        assert_eq!(next.score[Team::Atk as usize], 1, "{a}");
    }

    /// Values are backed up for the coach who moved into each node: at the
    /// root (DEF to move) every child's mover is DEF.
    #[test]
    fn children_carry_their_mover() {
        let game = Ball::default();
        let pos = game.start();
        let legal = game.legal(&pos);
        let mut bot = MctsBot::new(1, 50);
        bot.choose(&game, &pos, &legal);
        assert!(bot.nodes.len() > 1);
        for &ch in &bot.nodes[0].children {
            assert_eq!(bot.nodes[ch as usize].mover, Team::Def);
        }
        let visits: u32 = bot.nodes[0]
            .children
            .iter()
            .map(|&c| bot.nodes[c as usize].visits)
            .sum();
        assert_eq!(visits, 50);
    }

    #[test]
    fn same_seed_same_choice() {
        let game = Ball::default();
        let pos = game.start();
        let legal = game.legal(&pos);
        let a = MctsBot::new(5, 100).choose(&game, &pos, &legal);
        let b = MctsBot::new(5, 100).choose(&game, &pos, &legal);
        assert_eq!(a, b);
    }
}
