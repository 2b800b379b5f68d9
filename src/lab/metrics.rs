//! The figures of a batch of games, each defined in
//! `docs/balance-metrics.md` (which follows Ludii's metric classes, see
//! the notes in `shared/notes/game-systems.md` §5). Pure functions of the
//! [`GameResult`]s: no clock, so equal results give equal figures.

use serde::Serialize;

use super::sim::{End, GameResult};
use super::stats::{Interval, Spread, spread, wilson};
use crate::ball::piece::Team;

/// Every figure of the report but the throughput.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    pub games: usize,
    /// Bot specs A and B.
    pub bots: [String; 2],
    /// Wins by seat.
    pub atk_wins: usize,
    pub def_wins: usize,
    /// Games that ended at the turn limit with equal scores.
    pub draws: usize,
    /// Games cut by the action cap (a bug net: should be 0).
    pub unfinished: usize,
    pub atk_win_rate: Interval,
    pub def_win_rate: Interval,
    pub draw_rate: Interval,
    /// Wins of bot A and bot B, over all games (both seats).
    pub bot_wins: [usize; 2],
    pub bot_win_rate: [Interval; 2],
    /// Ludii AdvantageP1 for DEF, who moves first (B3.2): DEF's mean
    /// score, a win 1, a draw or unfinished game ½, a loss 0.
    pub first_mover: Interval,
    /// 1 − |w_DEF − w_ATK|, w = a seat's mean score (Ludii Balance).
    pub balance: f64,
    /// Fraction of games decided by reaching `touchdowns_to_win`, before
    /// the turn limit.
    pub completion: f64,
    /// Fraction of games that are natural draws (equal score at the turn
    /// limit; cut games are not draws).
    pub drawishness: f64,
    /// Fraction of games ended by the turn limit or the action cap.
    pub timeouts: f64,
    pub turns: Spread,
    pub actions: Spread,
    pub touchdowns_per_game: f64,
    /// Mean over games of the game's mean legal-list length per action.
    pub branching_factor: f64,
    /// Card-mode figures (card use rate, EP economy): `None` until card
    /// mode lands with the scripting issue. Never filled with guesses.
    pub cards: Option<CardFigures>,
}

/// The place for card-mode figures (issue: scripting). Empty on purpose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardFigures {}

/// DEF's score in one game: 1 win, ½ no winner, 0 loss.
fn def_score(g: &GameResult) -> f64 {
    match g.winner {
        Some(Team::Def) => 1.0,
        Some(Team::Atk) => 0.0,
        None => 0.5,
    }
}

pub fn compute(results: &[GameResult], bots: &[String; 2]) -> Metrics {
    let n = results.len();
    let count = |f: &dyn Fn(&GameResult) -> bool| results.iter().filter(|g| f(g)).count();
    let atk_wins = count(&|g| g.winner == Some(Team::Atk));
    let def_wins = count(&|g| g.winner == Some(Team::Def));
    let draws = count(&|g| g.winner.is_none() && g.end != End::Cut);
    let unfinished = count(&|g| g.end == End::Cut);
    let bot_wins = [
        count(&|g| g.winning_bot() == Some(0)),
        count(&|g| g.winning_bot() == Some(1)),
    ];
    let def_total: f64 = results.iter().map(def_score).sum();
    let w_def = if n == 0 { 0.5 } else { def_total / n as f64 };
    let frac = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let turns: Vec<f64> = results.iter().map(|g| f64::from(g.turns)).collect();
    let actions: Vec<f64> = results.iter().map(|g| f64::from(g.actions)).collect();
    let tds: Vec<f64> = results
        .iter()
        .map(|g| f64::from(g.score[0]) + f64::from(g.score[1]))
        .collect();
    let branching: Vec<f64> = results
        .iter()
        .filter(|g| g.actions > 0)
        .map(|g| g.branching_sum as f64 / f64::from(g.actions))
        .collect();
    Metrics {
        games: n,
        bots: bots.clone(),
        atk_wins,
        def_wins,
        draws,
        unfinished,
        atk_win_rate: wilson(atk_wins as f64, n),
        def_win_rate: wilson(def_wins as f64, n),
        draw_rate: wilson(draws as f64, n),
        bot_wins,
        bot_win_rate: [wilson(bot_wins[0] as f64, n), wilson(bot_wins[1] as f64, n)],
        first_mover: wilson(def_total, n),
        // w_ATK = 1 − w_DEF: every game hands out exactly one point.
        balance: 1.0 - (w_def - (1.0 - w_def)).abs(),
        completion: frac(count(&|g| g.end == End::Touchdowns)),
        drawishness: frac(draws),
        timeouts: frac(count(&|g| g.end != End::Touchdowns)),
        turns: spread(&turns),
        actions: spread(&actions),
        touchdowns_per_game: spread(&tds).mean,
        branching_factor: spread(&branching).mean,
        cards: None,
    }
}

/// Per-game samples of the figures `ball compare` tests with Welch.
pub fn samples(results: &[GameResult]) -> Samples {
    Samples {
        turns: results.iter().map(|g| f64::from(g.turns)).collect(),
        actions: results.iter().map(|g| f64::from(g.actions)).collect(),
        touchdowns: results
            .iter()
            .map(|g| f64::from(g.score[0]) + f64::from(g.score[1]))
            .collect(),
        branching: results
            .iter()
            .filter(|g| g.actions > 0)
            .map(|g| g.branching_sum as f64 / f64::from(g.actions))
            .collect(),
    }
}

#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub turns: Vec<f64>,
    pub actions: Vec<f64>,
    pub touchdowns: Vec<f64>,
    pub branching: Vec<f64>,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A synthetic game result.
    pub(crate) fn game(
        index: usize,
        winner: Option<Team>,
        end: End,
        score: [u8; 2],
        turns: u32,
        actions: u32,
        branching_sum: u64,
    ) -> GameResult {
        GameResult {
            index,
            seed: index as u64,
            seats: ["B".into(), "A".into()],
            def_bot: index % 2,
            winner,
            end,
            score,
            turns,
            actions,
            branching_sum,
            record: None,
        }
    }

    /// Four games with known answers:
    /// 0: A on DEF wins 3-1 by touchdowns, turn 40, 100 actions, b̄ 10;
    /// 1: A on ATK wins 3-0, turn 20, 50 actions, b̄ 20;
    /// 2: draw 1-1 at turn 60, 150 actions, b̄ 30;
    /// 3: cut by the action cap, 0-0, turn 10, 20000 actions, b̄ 40.
    pub(crate) fn four() -> Vec<GameResult> {
        vec![
            game(0, Some(Team::Def), End::Touchdowns, [1, 3], 40, 100, 1000),
            game(1, Some(Team::Atk), End::Touchdowns, [3, 0], 20, 50, 1000),
            game(2, None, End::TurnLimit, [1, 1], 60, 150, 4500),
            game(3, None, End::Cut, [0, 0], 10, 20000, 800_000),
        ]
    }

    #[test]
    fn outcomes_of_four_games() {
        let m = compute(&four(), &["A".into(), "B".into()]);
        assert_eq!(m.games, 4);
        assert_eq!(
            (m.atk_wins, m.def_wins, m.draws, m.unfinished),
            (1, 1, 1, 1)
        );
        assert_eq!(m.bot_wins, [2, 0]);
        assert_eq!(m.atk_win_rate.p, 0.25);
        assert_eq!(m.bot_win_rate[0].p, 0.5);
        assert_eq!(m.bot_win_rate[0], wilson(2.0, 4));
        // DEF: 1 + 0 + ½ + ½ = 2 of 4.
        assert_eq!(m.first_mover.p, 0.5);
        assert_eq!(m.balance, 1.0);
        assert_eq!(m.completion, 0.5);
        assert_eq!(m.drawishness, 0.25);
        assert_eq!(m.timeouts, 0.5);
        assert_eq!(m.touchdowns_per_game, (4.0 + 3.0 + 2.0) / 4.0);
        assert_eq!(m.turns.mean, 32.5);
        assert_eq!(m.turns.median, 30.0);
        assert_eq!(m.actions.max, 20000.0);
        assert_eq!(m.branching_factor, 25.0);
        assert_eq!(m.cards, None);
    }

    /// DEF wins 3 of 4, ATK 1: w_DEF = 0.75, balance = 1 − |0.75 − 0.25|.
    #[test]
    fn balance_and_first_mover() {
        let g = |i, w| game(i, Some(w), End::Touchdowns, [0, 3], 30, 60, 600);
        let results = vec![
            g(0, Team::Def),
            g(1, Team::Def),
            g(2, Team::Def),
            g(3, Team::Atk),
        ];
        let m = compute(&results, &["A".into(), "B".into()]);
        assert_eq!(m.first_mover.p, 0.75);
        assert_eq!(m.balance, 0.5);
        assert_eq!(m.completion, 1.0);
        assert_eq!(m.drawishness, 0.0);
        // A played DEF in games 0 and 2, ATK in 1 and 3: A won 0, 2, 3.
        assert_eq!(m.bot_wins, [3, 1]);
    }

    #[test]
    fn no_games_no_panic() {
        let m = compute(&[], &["A".into(), "B".into()]);
        assert_eq!(m.games, 0);
        assert_eq!(m.balance, 1.0);
        assert_eq!(m.completion, 0.0);
    }
}
