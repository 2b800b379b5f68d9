//! `ball compare`: two rulesets, the same seeds and bots, side by side.
//!
//! Each figure is tested for a difference at the 5 % level:
//! - rates (wins, draws, completion, first-mover score) with the pooled
//!   two-proportion z-test;
//! - means (turns, actions, branching factor, and the game's own per-game
//!   figures: BALL's touchdowns, EP and card plays) with Welch's t-test,
//!   which does not assume equal variances; the game's own shares (the
//!   games a card was played in) with the z-test.
//!
//! The games of the two sides share seeds but not positions (the rules
//! differ, so the games part at once), so the samples are treated as
//! independent. Balance is a function of the first-mover score and is
//! shown without a test of its own.

use serde::Serialize;

use super::metrics::Metrics;
use super::stats::{two_proportion_p, welch_p};
use super::{Sample, SampleKind};

/// The significance level of the tests.
pub const ALPHA: f64 = 0.05;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub figure: String,
    pub a: f64,
    pub b: f64,
    /// b − a.
    pub diff: f64,
    /// `z` (two proportions), `welch`, or `none`.
    pub test: &'static str,
    /// Two-sided p-value; `None` when the figure is not tested.
    pub p: Option<f64>,
    pub significant: bool,
}

fn row(figure: &str, a: f64, b: f64, test: &'static str, p: Option<f64>) -> Row {
    Row {
        figure: figure.into(),
        a,
        b,
        diff: b - a,
        test,
        p,
        significant: p.is_some_and(|p| p < ALPHA),
    }
}

/// The rows of the comparison of side `a` with side `b`: the shared
/// figures, then every per-game sample both sides have (the game's own
/// figures among them; one a side lacks, such as a card only one ruleset
/// holds, is not compared).
pub fn compare(ma: &Metrics, sa: &[Sample], mb: &Metrics, sb: &[Sample]) -> Vec<Row> {
    let (na, nb) = (ma.games, mb.games);
    let rate = |name: &str, xa: f64, xb: f64| {
        let pa = if na == 0 { 0.0 } else { xa / na as f64 };
        let pb = if nb == 0 { 0.0 } else { xb / nb as f64 };
        row(name, pa, pb, "z", Some(two_proportion_p(xa, na, xb, nb)))
    };
    let [bot_a, bot_b] = &ma.bots;
    let [s0, s1] = &ma.seats;
    let mut rows = vec![
        rate(
            &format!("{s0} win rate"),
            ma.seat_wins[0] as f64,
            mb.seat_wins[0] as f64,
        ),
        rate(
            &format!("{s1} win rate"),
            ma.seat_wins[1] as f64,
            mb.seat_wins[1] as f64,
        ),
        rate("draw rate", ma.draws as f64, mb.draws as f64),
        rate(
            &format!("A ({bot_a}) win rate"),
            ma.bot_wins[0] as f64,
            mb.bot_wins[0] as f64,
        ),
        rate(
            &format!("B ({bot_b}) win rate"),
            ma.bot_wins[1] as f64,
            mb.bot_wins[1] as f64,
        ),
        rate(
            "first-mover advantage",
            ma.first_mover.p * na as f64,
            mb.first_mover.p * nb as f64,
        ),
        row("balance", ma.balance, mb.balance, "none", None),
        rate(
            "completion",
            ma.completion * na as f64,
            mb.completion * nb as f64,
        ),
        rate(
            "drawishness",
            ma.drawishness * na as f64,
            mb.drawishness * nb as f64,
        ),
    ];
    for a in sa {
        let Some(b) = sb.iter().find(|b| b.name == a.name && b.kind == a.kind) else {
            continue;
        };
        rows.push(match a.kind {
            SampleKind::Mean => row(
                &a.name,
                mean(&a.values),
                mean(&b.values),
                "welch",
                Some(welch_p(&a.values, &b.values)),
            ),
            SampleKind::Share => {
                let (ka, kb) = (a.values.iter().sum(), b.values.iter().sum());
                let (ga, gb) = (a.values.len(), b.values.len());
                row(
                    &a.name,
                    mean(&a.values),
                    mean(&b.values),
                    "z",
                    Some(two_proportion_p(ka, ga, kb, gb)),
                )
            }
        });
    }
    rows
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// The comparison as a table.
pub fn text(name_a: &str, name_b: &str, ma: &Metrics, rows: &[Row]) -> String {
    let mut s = format!(
        "ball compare: {name_a} vs {name_b}: A = {} vs B = {}, {} games each, same seeds\n",
        ma.bots[0], ma.bots[1], ma.games
    );
    s.push_str(&format!(
        "significant: p < {ALPHA} (rates: two-proportion z-test; means: Welch's t-test)\n\n"
    ));
    let wa = name_a.chars().count().clamp(8, 20);
    let wb = name_b.chars().count().clamp(8, 20);
    let wf = rows
        .iter()
        .map(|r| r.figure.chars().count())
        .max()
        .unwrap_or(0)
        .max(26);
    s.push_str(&format!(
        "{:<w$} {:>wa$} {:>wb$} {:>9} {:>8}\n",
        "figure",
        name_a,
        name_b,
        "diff",
        "p",
        w = wf + 2
    ));
    for r in rows {
        let p = r.p.map_or("-".to_string(), |p| format!("{p:.4}"));
        let mark = if r.significant { "  significant" } else { "" };
        s.push_str(&format!(
            "  {:<wf$} {:>wa$.3} {:>wb$.3} {:>+9.3} {:>8}{mark}\n",
            r.figure, r.a, r.b, r.diff, p
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::game::SeatResult::{Loss, Win};
    use crate::lab::metrics::{compute, tests::game};

    #[test]
    fn a_large_difference_is_significant_and_equal_sides_are_not() {
        let bots = ["A".to_string(), "B".to_string()];
        // Side a: seat 1 wins all 100 games in 20 turns; side b: seat 0
        // wins all in 40 turns.
        let a: Vec<_> = (0..100)
            .map(|i| {
                game(
                    i,
                    Some([Loss, Win]),
                    "touchdowns",
                    false,
                    20 + (i % 3) as u32,
                    50,
                    500,
                )
            })
            .collect();
        let b: Vec<_> = (0..100)
            .map(|i| {
                game(
                    i,
                    Some([Win, Loss]),
                    "touchdowns",
                    false,
                    40 + (i % 3) as u32,
                    90,
                    900,
                )
            })
            .collect();
        let seats = ["ATK", "DEF"];
        let (ma, mb) = (compute(&a, &bots, seats), compute(&b, &bots, seats));
        let samples = |r: &[crate::lab::GameResult<()>]| {
            vec![Sample::mean(
                "turns (mean)",
                r.iter().map(|g| f64::from(g.turns)).collect(),
            )]
        };
        let rows = compare(&ma, &samples(&a), &mb, &samples(&b));
        let get = |name: &str| rows.iter().find(|r| r.figure == name).unwrap().clone();
        let def = get("DEF win rate");
        assert_eq!((def.a, def.b, def.diff), (1.0, 0.0, -1.0));
        assert!(def.significant);
        assert!(get("turns (mean)").significant);
        assert!((get("turns (mean)").diff - 20.0).abs() < 1e-9);
        // Bot A won the even games on side a (seat 1) and the odd ones on
        // side b (seat 0): 50 % both times.
        let bot_a = get("A (A) win rate");
        assert_eq!((bot_a.a, bot_a.b), (0.5, 0.5));
        assert!(!bot_a.significant);
        assert!(get("balance").p.is_none());
        // A side against itself: nothing is significant.
        let same = compare(&ma, &samples(&a), &ma, &samples(&a));
        assert!(same.iter().all(|r| !r.significant && r.diff == 0.0));
        let t = text("standard", "variant", &ma, &rows);
        assert!(t.contains("significant"));
        assert!(t.contains("DEF win rate"));
    }

    #[test]
    fn shares_use_the_z_test_and_unmatched_samples_are_left_out() {
        let m = compute::<()>(&[], &["A".into(), "B".into()], ["ATK", "DEF"]);
        let a = vec![
            Sample::share("shove: games played", vec![1.0, 0.0]),
            Sample::mean("only a", vec![1.0]),
        ];
        let b = vec![Sample::share("shove: games played", vec![1.0, 1.0])];
        let rows = compare(&m, &a, &m, &b);
        let shove = rows
            .iter()
            .find(|r| r.figure == "shove: games played")
            .unwrap();
        assert_eq!((shove.a, shove.b, shove.test), (0.5, 1.0, "z"));
        assert_eq!(shove.p, Some(two_proportion_p(1.0, 2, 2.0, 2)));
        assert!(!rows.iter().any(|r| r.figure == "only a"));
    }
}
