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
//! A seat may play several actions in a row (BALL's turns, B4.2), so the
//! seat to move does not alternate per ply. Every node therefore stores
//! its value for the seat that *moved into it* (the seat to move at its
//! parent), and the backup adds the result seen from that seat: never
//! "flip the sign each ply".
//!
//! **Dice.** In a game with chance ([`Game::HAS_CHANCE`]) the search never
//! reads the position's future dice: it grows [`DETERMINIZATIONS`] trees,
//! each from the position with its future dice redrawn from the bot's own
//! generator ([`Game::resample`]), spreads the iterations over them in
//! turn, and plays the root action with the most visits over all trees
//! (determinized UCT, "perfect-information Monte Carlo"). A game without
//! chance grows one tree from the position itself.
//!
//! Two choices keep the search useful at a large branching factor (BALL's
//! long passes alone can offer ~80 actions): a node's actions are tried
//! best-first by the one-ply evaluation (what greedy would play comes
//! first), and a node may grow a new child only while it has fewer than
//! `WIDEN · √visits` children (progressive widening), so visits go deep
//! on the promising lines instead of once across every action.
//!
//! The budget is a number of iterations, not a time: the same seed and
//! budget give the same choices on any machine and any load.

use super::{Bot, Evaluate, chance_rng};
use crate::kernel::game::{Game, Seat};
use crate::kernel::rng::SplitMix64;

/// The budget of `mcts` without `:N`.
pub const DEFAULT_ITERATIONS: u32 = 1000;

/// Trees grown per decision in a game with chance, each on its own draw
/// of the future dice.
pub const DETERMINIZATIONS: usize = 8;

/// Tuning of the search. The defaults are hand-set; with them `mcts`
/// beats `greedy` in 96% of 200 BALL games (docs/balance-metrics.md,
/// "Bots").
#[derive(Clone, Copy, Debug)]
pub struct MctsConfig {
    pub iterations: u32,
    /// UCB1's exploration constant, for values in [0, 1].
    pub exploration: f64,
    /// Progressive widening: children allowed = ceil(widen · √(visits + 1)).
    pub widen: f64,
    /// Random actions played after the new node before evaluating.
    pub rollout_actions: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: DEFAULT_ITERATIONS,
            exploration: 0.4,
            widen: 1.5,
            rollout_actions: 0,
        }
    }
}

struct Node<G: Game> {
    pos: G::Position,
    /// The seat that played `action` into this node: `value` is its.
    mover: Seat,
    /// `None` at a root.
    action: Option<G::Action>,
    children: Vec<u32>,
    /// Actions not tried yet, worst first (the next is popped from the end);
    /// filled the first time the node is expanded.
    untried: Vec<G::Action>,
    ordered: bool,
    visits: u32,
    /// Sum of the backed-up results, each in [0, 1], for `mover`.
    value: f64,
}

pub struct MctsBot<G: Game> {
    rng: SplitMix64,
    dice: SplitMix64,
    config: MctsConfig,
    /// Every tree's nodes; `roots[k]` is tree k's root.
    nodes: Vec<Node<G>>,
    roots: Vec<u32>,
    legal: Vec<G::Action>,
    path: Vec<u32>,
    /// Positions this bot has stood in during the current run of its
    /// seat's decisions (BALL: the current turn): the root never plays
    /// back into one of them. Free actions (BALL's 0-AP hand-offs, B8.1)
    /// could otherwise pass the ball to and fro for ever whenever the
    /// search finds them as good as anything else.
    seen: Vec<G::Position>,
    /// The turn and seat of `seen`.
    seen_in: Option<(u32, Seat)>,
}

impl<G: Evaluate> MctsBot<G> {
    pub fn new(seed: u64, iterations: u32) -> MctsBot<G> {
        MctsBot::with_config(
            seed,
            MctsConfig {
                iterations,
                ..MctsConfig::default()
            },
        )
    }

    pub fn with_config(seed: u64, config: MctsConfig) -> MctsBot<G> {
        MctsBot {
            rng: SplitMix64::new(seed),
            dice: chance_rng(seed),
            config,
            nodes: Vec::new(),
            roots: Vec::new(),
            legal: Vec::new(),
            path: Vec::new(),
            seen: Vec::new(),
            seen_in: None,
        }
    }

    /// The number of iterations run per decision (for benchmarks).
    pub fn iterations(&self) -> u32 {
        self.config.iterations
    }

    /// Fills a node's `untried` list, ordered so the best action for its
    /// seat to move comes out first.
    fn order(&mut self, game: &G, n: usize) {
        let pos = self.nodes[n].pos.clone();
        let Some(me) = game.to_move(&pos) else {
            return;
        };
        game.legal_into(&pos, &mut self.legal);
        if self.nodes[n].action.is_none() {
            // No repeated position within a run of decisions (see
            // `seen`); an action that passes leads somewhere new, so
            // something is left.
            let seen = &self.seen;
            let fresh: Vec<G::Action> = self
                .legal
                .iter()
                .copied()
                .filter(|&a| {
                    let mut next = pos.clone();
                    game.apply(&mut next, a);
                    !seen.contains(&next)
                })
                .collect();
            if !fresh.is_empty() {
                self.legal = fresh;
            }
        }
        let mut scored: Vec<(f64, u64, G::Action)> = self
            .legal
            .iter()
            .map(|&a| {
                let mut next = pos.clone();
                game.apply(&mut next, a);
                // A random tie-break key keeps equal actions unbiased.
                (game.evaluate(&next, me), self.rng.next_u64(), a)
            })
            .collect();
        scored.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let node = &mut self.nodes[n];
        node.untried = scored.into_iter().map(|(_, _, a)| a).collect();
        node.ordered = true;
    }

    /// The score of a position for seat 0, in [0, 1].
    fn score(&self, game: &G, pos: &G::Position) -> f64 {
        match game.outcome(pos) {
            Some(o) => o.results[0].points(),
            None => {
                let v = game.evaluate(pos, 0) / G::EVAL_SCALE;
                1.0 / (1.0 + (-v).exp())
            }
        }
    }

    fn iterate(&mut self, game: &G, root: u32) {
        self.path.clear();
        let mut n = root as usize;
        self.path.push(root);
        // Select, then expand one child.
        while let Some(mover) = game.to_move(&self.nodes[n].pos) {
            if !self.nodes[n].ordered {
                self.order(game, n);
            }
            let node = &self.nodes[n];
            let allowed = (self.config.widen * f64::from(node.visits + 1).sqrt()).ceil() as usize;
            if !node.untried.is_empty() && node.children.len() < allowed.max(1) {
                let a = self.nodes[n].untried.pop().expect("an untried action");
                let mut pos = self.nodes[n].pos.clone();
                game.apply(&mut pos, a);
                let id = self.nodes.len() as u32;
                self.nodes.push(Node {
                    pos,
                    mover,
                    action: Some(a),
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
        let mut pos = self.nodes[n].pos.clone();
        for _ in 0..self.config.rollout_actions {
            game.legal_into(&pos, &mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            let a = self.legal[self.rng.below(self.legal.len())];
            game.apply(&mut pos, a);
        }
        let first = self.score(game, &pos);
        // Back up, each node for the seat that moved into it.
        for &id in &self.path {
            let node = &mut self.nodes[id as usize];
            node.visits += 1;
            node.value += if node.mover == 0 { first } else { 1.0 - first };
        }
    }
}

impl<G: Evaluate> Bot<G> for MctsBot<G> {
    fn choose(&mut self, game: &G, pos: &G::Position, legal: &[G::Action]) -> G::Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let me = game
            .to_move(pos)
            .expect("a bot is asked only while the game goes on");
        let run = (game.turn(pos), me);
        if self.seen_in != Some(run) {
            self.seen.clear();
            self.seen_in = Some(run);
        }
        self.seen.push(pos.clone());
        self.nodes.clear();
        self.roots.clear();
        let trees = if G::HAS_CHANCE { DETERMINIZATIONS } else { 1 };
        for _ in 0..trees {
            let mut root = pos.clone();
            game.resample(&mut root, &mut self.dice);
            self.roots.push(self.nodes.len() as u32);
            self.nodes.push(Node {
                pos: root,
                mover: 1 - me,
                action: None,
                children: Vec::new(),
                untried: Vec::new(),
                ordered: false,
                visits: 0,
                value: 0.0,
            });
        }
        for i in 0..self.config.iterations {
            let root = self.roots[i as usize % trees];
            self.iterate(game, root);
        }
        // The most visited root action over all trees; ties to the better
        // mean, then to the action the search tried first.
        let mut totals: Vec<(G::Action, u32, f64)> = Vec::new();
        for &root in &self.roots {
            for &ch in &self.nodes[root as usize].children {
                let c = &self.nodes[ch as usize];
                let a = c.action.expect("a child has an action");
                match totals.iter_mut().find(|t| t.0 == a) {
                    Some(t) => {
                        t.1 += c.visits;
                        t.2 += c.value;
                    }
                    None => totals.push((a, c.visits, c.value)),
                }
            }
        }
        let mut best: Option<(u32, f64, G::Action)> = None;
        for &(a, visits, value) in &totals {
            let mean = if visits == 0 {
                0.0
            } else {
                value / f64::from(visits)
            };
            if best.is_none_or(|(v, m, _)| visits > v || (visits == v && mean > m)) {
                best = Some((visits, mean, a));
            }
        }
        match best {
            Some((_, _, a)) => a,
            // A budget of 0: the evaluation's favourite.
            None => {
                let root = self.roots[0] as usize;
                self.order(game, root);
                *self.nodes[root].untried.last().expect("legal is not empty")
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
