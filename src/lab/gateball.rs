//! The balance lab for Gateball: many seeded bot games and the figures a
//! playtester judges a court or a variant by (points per team, Goals,
//! Perfect Games, draws, first-player advantage, failed starts).
//!
//! **Determinism.** Game `i` of a run with seed `S` takes its dice seed
//! from [`super::sim::game_seed`]`(S, i)` and its bots' seeds from the
//! next two outputs; results are gathered in game order, so the report is
//! the same on any number of threads. Bot A plays red (who plays first,
//! T2.1) in even-numbered games and blue in odd ones.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use super::stats::{Interval, wilson};
use crate::bots::gateball::{Level, choose};
use crate::games::gateball::Gateball;
use crate::games::gateball::event::Event;
use crate::games::gateball::position::{Place, Position, Team};
use crate::kernel::rng::SplitMix64;

/// A bug net far past any real game (6 turns × 10 plays × a few actions).
pub const MAX_ACTIONS: usize = 10_000;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameResult {
    pub index: usize,
    pub seed: u64,
    /// Which bot (0 = A, 1 = B) played red.
    pub red_bot: usize,
    /// `red`, `blue`, `draw`, or `cut` (the bug net).
    pub winner: String,
    pub red: u32,
    pub blue: u32,
    pub goals: [u32; 2],
    pub perfect: bool,
    pub actions: u32,
    pub start_shots: u32,
    pub failed_starts: u32,
    pub touches: u32,
    pub outs: u32,
}

/// Plays game `index` of a run.
pub fn play_game(game: &Gateball, bots: [Level; 2], seed: u64, index: usize) -> GameResult {
    let game_seed = super::sim::game_seed(seed, index);
    let mut seeds = SplitMix64::new(game_seed);
    let mut rngs = [
        SplitMix64::new(seeds.next_u64()),
        SplitMix64::new(seeds.next_u64()),
    ];
    let red_bot = index % 2;
    let mut pos = Position::start(SplitMix64::new(game_seed));
    let mut r = GameResult {
        index,
        seed: game_seed,
        red_bot,
        winner: "cut".into(),
        red: 0,
        blue: 0,
        goals: [0; 2],
        perfect: false,
        actions: 0,
        start_shots: 0,
        failed_starts: 0,
        touches: 0,
        outs: 0,
    };
    let mut log: Vec<Event> = Vec::new();
    while !pos.is_over() && (r.actions as usize) < MAX_ACTIONS {
        let bot = if Team::of_ball(pos.ball) == Team::Red {
            red_bot
        } else {
            1 - red_bot
        };
        let start = pos.ball_state(pos.ball).place == Place::Waiting
            && pos.phase == crate::games::gateball::position::Phase::Move;
        let action = choose(game, &pos, bots[bot], &mut rngs[bot]);
        log.clear();
        game.play(&mut pos, action, &mut log)
            .expect("bots choose legal actions");
        r.actions += 1;
        if start && matches!(action, crate::games::gateball::action::Action::Shot(_)) {
            r.start_shots += 1;
        }
        for e in &log {
            match e {
                Event::FailStart(_) => r.failed_starts += 1,
                Event::Touch { .. } => r.touches += 1,
                Event::Out(..) => r.outs += 1,
                _ => {}
            }
        }
    }
    if let Some(w) = pos.winner {
        r.winner = w.name().into();
    }
    r.red = pos.score(Team::Red);
    r.blue = pos.score(Team::Blue);
    for (i, team) in [Team::Red, Team::Blue].into_iter().enumerate() {
        r.goals[i] = team
            .balls()
            .filter(|&n| pos.ball_state(n).place == Place::Goal)
            .count() as u32;
    }
    r.perfect = pos.perfect;
    r
}

/// Plays `games` games on `threads` threads; `progress` is called with the
/// number of finished games.
pub fn run(
    game: &Gateball,
    bots: [Level; 2],
    games: usize,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<GameResult>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let done = AtomicUsize::new(0);
    Ok(pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|i| {
                let r = play_game(game, bots, seed, i);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                r
            })
            .collect()
    }))
}

/// The figures of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub games: usize,
    pub bots: [String; 2],
    pub seed: u64,
    pub red_wins: usize,
    pub blue_wins: usize,
    pub draws: usize,
    pub cut: usize,
    /// Red's score (a draw ½) — the first player's advantage (T2.1).
    pub red_score: Interval,
    /// Bot A's score (a draw ½), seats balanced.
    pub bot_a_score: Interval,
    pub mean_points_red: f64,
    pub mean_points_blue: f64,
    pub mean_goals: f64,
    pub perfect_games: usize,
    pub failed_start_rate: f64,
    pub mean_touches: f64,
    pub mean_outs: f64,
    pub mean_actions: f64,
}

pub fn report(results: &[GameResult], bots: [Level; 2], seed: u64) -> Report {
    let n = results.len();
    let count = |w: &str| results.iter().filter(|r| r.winner == w).count();
    let (red_wins, blue_wins, draws) = (count("red"), count("blue"), count("draw"));
    let mean = |f: &dyn Fn(&GameResult) -> f64| {
        if n == 0 {
            0.0
        } else {
            results.iter().map(f).sum::<f64>() / n as f64
        }
    };
    let a_points: f64 = results
        .iter()
        .map(|r| {
            let a_is_red = r.red_bot == 0;
            match r.winner.as_str() {
                "red" if a_is_red => 1.0,
                "blue" if !a_is_red => 1.0,
                "draw" => 0.5,
                _ => 0.0,
            }
        })
        .sum();
    let starts: u32 = results.iter().map(|r| r.start_shots).sum();
    let failed: u32 = results.iter().map(|r| r.failed_starts).sum();
    Report {
        games: n,
        bots: [bots[0].name().into(), bots[1].name().into()],
        seed,
        red_wins,
        blue_wins,
        draws,
        cut: count("cut"),
        red_score: wilson(red_wins as f64 + draws as f64 / 2.0, n),
        bot_a_score: wilson(a_points, n),
        mean_points_red: mean(&|r| f64::from(r.red)),
        mean_points_blue: mean(&|r| f64::from(r.blue)),
        mean_goals: mean(&|r| f64::from(r.goals[0] + r.goals[1])),
        perfect_games: results.iter().filter(|r| r.perfect).count(),
        failed_start_rate: if starts == 0 {
            0.0
        } else {
            f64::from(failed) / f64::from(starts)
        },
        mean_touches: mean(&|r| f64::from(r.touches)),
        mean_outs: mean(&|r| f64::from(r.outs)),
        mean_actions: mean(&|r| f64::from(r.actions)),
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |x: usize| 100.0 * x as f64 / self.games.max(1) as f64;
        let iv = |i: &Interval| {
            format!(
                "{:.1}% [{:.1}%, {:.1}%]",
                100.0 * i.p,
                100.0 * i.lo,
                100.0 * i.hi
            )
        };
        writeln!(
            f,
            "gateball: {} games, bots A={} B={} (A plays red in even games), seed {}",
            self.games, self.bots[0], self.bots[1], self.seed
        )?;
        writeln!(
            f,
            "red wins      {:>6}  {:5.1}%",
            self.red_wins,
            pct(self.red_wins)
        )?;
        writeln!(
            f,
            "blue wins     {:>6}  {:5.1}%",
            self.blue_wins,
            pct(self.blue_wins)
        )?;
        writeln!(
            f,
            "draws         {:>6}  {:5.1}%",
            self.draws,
            pct(self.draws)
        )?;
        if self.cut > 0 {
            writeln!(f, "cut (bug net) {:>6}", self.cut)?;
        }
        writeln!(f, "first player (red) score  {}", iv(&self.red_score))?;
        writeln!(f, "bot A score               {}", iv(&self.bot_a_score))?;
        writeln!(
            f,
            "points a game  red {:.2}  blue {:.2}",
            self.mean_points_red, self.mean_points_blue
        )?;
        writeln!(f, "goals a game   {:.2}", self.mean_goals)?;
        writeln!(
            f,
            "perfect games  {} ({:.1}%)",
            self.perfect_games,
            pct(self.perfect_games)
        )?;
        writeln!(
            f,
            "failed starts  {:.1}% of start shots",
            100.0 * self.failed_start_rate
        )?;
        writeln!(
            f,
            "touches a game {:.2}   out-balls a game {:.2}   actions a game {:.1}",
            self.mean_touches, self.mean_outs, self.mean_actions
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same seed, same results, on one thread or two.
    #[test]
    fn results_do_not_depend_on_threads() {
        let game = Gateball::standard();
        let bots = [Level::Greedy, Level::Random];
        let one = run(&game, bots, 6, 3, 1, &|_| {}).unwrap();
        let two = run(&game, bots, 6, 3, 2, &|_| {}).unwrap();
        assert_eq!(one, two);
        assert!(one.iter().all(|r| r.winner != "cut"));
        let rep = report(&one, bots, 3);
        assert_eq!(rep.red_wins + rep.blue_wins + rep.draws, 6);
    }
}
