//! The figures every game shares, each defined in
//! `docs/balance-metrics.md` (which follows Ludii's metric classes). Pure
//! functions of the [`GameResult`]s: no clock, so equal results give equal
//! figures. A game's own figures come from its [`Figures`] impl.

use std::collections::BTreeMap;

use serde::Serialize;

use super::sim::GameResult;
use super::stats::{Interval, Spread, spread, wilson};
use super::{Figures, Sample, Section};

/// Every shared figure of a report but the throughput.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    pub games: usize,
    /// Bot specs A and B.
    pub bots: [String; 2],
    /// The seats' names, by seat.
    pub seats: [String; 2],
    /// Wins by seat.
    pub seat_wins: [usize; 2],
    pub seat_win_rate: [Interval; 2],
    /// Games that ended with no winner (cut games are not draws).
    pub draws: usize,
    pub draw_rate: Interval,
    /// Games cut by the action cap (a bug net: should be 0).
    pub unfinished: usize,
    /// Wins of bot A and bot B, over all games (both seats).
    pub bot_wins: [usize; 2],
    pub bot_win_rate: [Interval; 2],
    /// Ludii AdvantageP1: the mean score of the seat that moved first (a
    /// win 1, a draw or unfinished game ½, a loss 0).
    pub first_mover: Interval,
    /// 1 − |w₀ − w₁|, w = a seat's mean score (Ludii Balance).
    pub balance: f64,
    /// Fraction of games decided by play, before any limit ended them.
    pub completion: f64,
    /// Fraction of games that are draws.
    pub drawishness: f64,
    /// Fraction of games ended by a limit or the action cap.
    pub timeouts: f64,
    /// Games by how they ended (`End::name`, `cut`), in name order.
    pub ends: BTreeMap<String, usize>,
    pub turns: Spread,
    pub actions: Spread,
    /// Mean over games of the game's mean legal-list length per action.
    pub branching_factor: f64,
    /// Script failures over the run, the games that had any, and the
    /// first one's message (the first game's, in game order).
    pub script_errors: usize,
    pub script_error_games: usize,
    pub first_script_error: Option<String>,
    /// Each kind of action played in any game (`lab::kinds`) → its mean
    /// count per game over all *N* games, in kind order. A kind some game
    /// never played counts 0 there.
    pub actions_per_game: BTreeMap<String, f64>,
}

/// A run's figures: the shared ones and the game's own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub metrics: Metrics,
    pub game: Section,
}

pub fn compute<T>(results: &[GameResult<T>], bots: &[String; 2], seats: [&str; 2]) -> Metrics {
    let n = results.len();
    let count = |f: &dyn Fn(&GameResult<T>) -> bool| results.iter().filter(|g| f(g)).count();
    let seat_wins = [0, 1].map(|s| count(&|g| g.winner() == Some(s)));
    let draws = count(&|g| g.is_draw());
    let unfinished = count(&|g| g.is_cut());
    let bot_wins = [0, 1].map(|b| count(&|g| g.winning_bot() == Some(b)));
    let first_total: f64 = results.iter().map(|g| g.points(g.first)).sum();
    let seat_total: [f64; 2] = [0, 1].map(|s| results.iter().map(|g| g.points(s)).sum());
    let frac = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let w = |t: f64| if n == 0 { 0.5 } else { t / n as f64 };
    let turns: Vec<f64> = results.iter().map(|g| f64::from(g.turns)).collect();
    let actions: Vec<f64> = results.iter().map(|g| f64::from(g.actions)).collect();
    let branching: Vec<f64> = results
        .iter()
        .filter(|g| g.actions > 0)
        .map(|g| g.branching_sum as f64 / f64::from(g.actions))
        .collect();
    let mut ends = BTreeMap::new();
    let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
    for g in results {
        *ends.entry(g.end.clone()).or_insert(0) += 1;
        for (k, c) in &g.kinds {
            *kinds.entry(k.as_ref()).or_insert(0) += u64::from(*c);
        }
    }
    Metrics {
        games: n,
        bots: bots.clone(),
        seats: seats.map(str::to_string),
        seat_wins,
        seat_win_rate: seat_wins.map(|k| wilson(k as f64, n)),
        draws,
        draw_rate: wilson(draws as f64, n),
        unfinished,
        bot_wins,
        bot_win_rate: bot_wins.map(|k| wilson(k as f64, n)),
        first_mover: wilson(first_total, n),
        balance: 1.0 - (w(seat_total[0]) - w(seat_total[1])).abs(),
        completion: frac(count(&|g| !g.by_limit)),
        drawishness: frac(draws),
        timeouts: frac(count(&|g| g.by_limit)),
        ends,
        turns: spread(&turns),
        actions: spread(&actions),
        branching_factor: spread(&branching).mean,
        script_errors: results.iter().map(|g| g.script_errors as usize).sum(),
        script_error_games: count(&|g| g.script_errors > 0),
        first_script_error: results.iter().find_map(|g| g.first_script_error.clone()),
        actions_per_game: kinds
            .into_iter()
            .map(|(k, total)| (k.to_string(), total as f64 / n.max(1) as f64))
            .collect(),
    }
}

/// The whole report of a run of game `G`.
pub fn report<G: Figures>(results: &[GameResult<G::Tally>], bots: &[String; 2]) -> Report {
    Report {
        metrics: compute(results, bots, G::SEATS),
        game: G::section(results, bots),
    }
}

/// The per-game samples `ball compare` tests: the shared ones, then the
/// game's own.
pub fn samples<G: Figures>(results: &[GameResult<G::Tally>]) -> Vec<Sample> {
    let mut s = shared_samples(results);
    s.extend(G::samples(results));
    s
}

fn shared_samples<T>(results: &[GameResult<T>]) -> Vec<Sample> {
    let per = |f: &dyn Fn(&GameResult<T>) -> f64| results.iter().map(f).collect::<Vec<f64>>();
    vec![
        Sample::mean("turns (mean)", per(&|g| f64::from(g.turns))),
        Sample::mean("actions (mean)", per(&|g| f64::from(g.actions))),
        Sample::mean(
            "mean branching factor",
            results
                .iter()
                .filter(|g| g.actions > 0)
                .map(|g| g.branching_sum as f64 / f64::from(g.actions))
                .collect(),
        ),
    ]
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kernel::game::SeatResult::{Draw, Loss, Win};

    /// A synthetic game result: seat 1 moved first; bot A played seat 1 in
    /// even games.
    pub(crate) fn game(
        index: usize,
        results: Option<[crate::kernel::game::SeatResult; 2]>,
        end: &str,
        by_limit: bool,
        turns: u32,
        actions: u32,
        branching_sum: u64,
    ) -> GameResult<()> {
        let a_first = index.is_multiple_of(2);
        GameResult {
            game: index,
            seed: index as u64,
            seats: if a_first {
                ["B".into(), "A".into()]
            } else {
                ["A".into(), "B".into()]
            },
            bots: if a_first { [1, 0] } else { [0, 1] },
            first: 1,
            results,
            end: end.into(),
            by_limit,
            score: String::new(),
            turns,
            actions,
            branching_sum,
            kinds: Default::default(),
            script_errors: 0,
            first_script_error: None,
            figures: (),
            record: None,
        }
    }

    /// Four games with known answers:
    /// 0: A on seat 1 wins by touchdowns, turn 40, 100 actions, b̄ 10;
    /// 1: A on seat 0 wins, turn 20, 50 actions, b̄ 20;
    /// 2: draw at the turn limit (60), 150 actions, b̄ 30;
    /// 3: cut by the action cap, turn 10, 20000 actions, b̄ 40.
    pub(crate) fn four() -> Vec<GameResult<()>> {
        vec![
            game(0, Some([Loss, Win]), "touchdowns", false, 40, 100, 1000),
            game(1, Some([Win, Loss]), "touchdowns", false, 20, 50, 1000),
            game(2, Some([Draw, Draw]), "turn-limit", true, 60, 150, 4500),
            game(3, None, "cut", true, 10, 20000, 800_000),
        ]
    }

    #[test]
    fn outcomes_of_four_games() {
        let m = compute(&four(), &["A".into(), "B".into()], ["ATK", "DEF"]);
        assert_eq!(m.games, 4);
        assert_eq!(m.seat_wins, [1, 1]);
        assert_eq!((m.draws, m.unfinished), (1, 1));
        assert_eq!(m.bot_wins, [2, 0]);
        assert_eq!(m.seat_win_rate[0].p, 0.25);
        assert_eq!(m.bot_win_rate[0].p, 0.5);
        assert_eq!(m.bot_win_rate[0], wilson(2.0, 4));
        // Seat 1: 1 + 0 + ½ + ½ = 2 of 4.
        assert_eq!(m.first_mover.p, 0.5);
        assert_eq!(m.balance, 1.0);
        assert_eq!(m.completion, 0.5);
        assert_eq!(m.drawishness, 0.25);
        assert_eq!(m.timeouts, 0.5);
        assert_eq!(
            m.ends
                .iter()
                .map(|(k, v)| (k.as_str(), *v))
                .collect::<Vec<_>>(),
            [("cut", 1), ("touchdowns", 2), ("turn-limit", 1)]
        );
        assert_eq!(m.turns.mean, 32.5);
        assert_eq!(m.turns.median, 30.0);
        assert_eq!(m.actions.max, 20000.0);
        assert_eq!(m.branching_factor, 25.0);
    }

    /// Seat 1 wins 3 of 4, seat 0 1: w₁ = 0.75, balance = 1 − |0.75 − 0.25|.
    #[test]
    fn balance_and_first_mover() {
        let g = |i, r| game(i, Some(r), "touchdowns", false, 30, 60, 600);
        let results = vec![
            g(0, [Loss, Win]),
            g(1, [Loss, Win]),
            g(2, [Loss, Win]),
            g(3, [Win, Loss]),
        ];
        let m = compute(&results, &["A".into(), "B".into()], ["ATK", "DEF"]);
        assert_eq!(m.first_mover.p, 0.75);
        assert_eq!(m.balance, 0.5);
        assert_eq!(m.completion, 1.0);
        assert_eq!(m.drawishness, 0.0);
        // A played seat 1 in games 0 and 2, seat 0 in 1 and 3: A won 0, 2, 3.
        assert_eq!(m.bot_wins, [3, 1]);
    }

    /// Each kind's total over the games divided by *N*: a game without the
    /// kind counts 0 (not left out of the mean), and kinds are in byte
    /// order whatever order the games met them in.
    #[test]
    fn actions_per_game_are_means_over_every_game() {
        let mut games = four();
        let set = |g: &mut GameResult<()>, kinds: &[(&str, u32)]| {
            g.kinds = kinds
                .iter()
                .map(|&(k, n)| (k.to_string().into(), n))
                .collect();
        };
        set(&mut games[0], &[("move", 60), ("end", 40)]);
        set(
            &mut games[1],
            &[("move", 30), ("card sprint", 2), ("end", 18)],
        );
        set(&mut games[2], &[("end", 150)]);
        let m = compute(&games, &["A".into(), "B".into()], ["ATK", "DEF"]);
        let got: Vec<(&str, f64)> = m
            .actions_per_game
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect();
        assert_eq!(got, [("card sprint", 0.5), ("end", 52.0), ("move", 22.5)]);
    }

    #[test]
    fn script_errors_count_failures_and_games() {
        let mut games = four();
        games[1].script_errors = 3;
        games[1].first_script_error = Some("x.lua:1: first".into());
        games[3].script_errors = 1;
        games[3].first_script_error = Some("x.lua:2: later".into());
        let m = compute(&games, &["A".into(), "B".into()], ["ATK", "DEF"]);
        assert_eq!((m.script_errors, m.script_error_games), (4, 2));
        assert_eq!(m.first_script_error.as_deref(), Some("x.lua:1: first"));
    }

    #[test]
    fn no_games_no_panic() {
        let m = compute::<()>(&[], &["A".into(), "B".into()], ["ATK", "DEF"]);
        assert_eq!(m.games, 0);
        assert_eq!(m.balance, 1.0);
        assert_eq!(m.completion, 0.0);
    }
}
