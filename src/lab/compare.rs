//! `ball compare`: two rulesets, the same seeds and bots, side by side.
//!
//! Each row is a figure of both sides, the difference B − A with a 95%
//! interval, and a test of "no difference":
//! - rates (wins, draws, completion, first-mover score, and the game's own
//!   shares such as the games a card was played in): Newcombe's hybrid
//!   score interval, and the pooled two-proportion z-test;
//! - means (turns, actions, branching factor, and the game's own per-game
//!   figures: BALL's touchdowns, EP and card plays): Welch's interval and
//!   t-test, which do not assume equal variances.
//!
//! A comparison tests a dozen figures or more at once, so a plain p < 0.05
//! would mark about one in twenty equal figures: "significant" is after
//! the Holm–Bonferroni correction over the rows that are tested, which
//! keeps the chance of any false mark at 5 % however the figures depend
//! on each other. Raw p-values are kept beside the adjusted ones; the
//! intervals are each 95 % on their own (not simultaneous), so one can
//! exclude 0 on a row that the correction leaves unmarked.
//!
//! The games of the two sides share seeds but not positions (the rules
//! differ, so the games part at once), so the samples are treated as
//! independent. Balance is a function of the first-mover score and is
//! shown without a test of its own; drawishness is the draw rate again
//! and is left out, so that no figure is tested twice.

use serde::Serialize;

use super::metrics::Metrics;
use super::stats::{DiffInterval, holm, newcombe_diff, two_proportion_p, welch_diff, welch_p};
use super::{Sample, SampleKind};

/// The significance level, after the correction.
pub const ALPHA: f64 = 0.05;

/// The 95% interval of a row's difference B − A.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Ci {
    /// `newcombe` (rates: Newcombe's hybrid score interval) or `welch`.
    pub method: &'static str,
    pub lo: f64,
    pub hi: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub figure: String,
    pub a: f64,
    pub b: f64,
    /// b − a.
    pub diff: f64,
    /// A 95% interval for `diff`; `None` when the figure is not tested.
    pub ci: Option<Ci>,
    /// `z` (two proportions), `welch`, or `none`.
    pub test: &'static str,
    /// Two-sided p-value of the row's own test; `None` when not tested.
    pub p: Option<f64>,
    /// `p` adjusted by Holm–Bonferroni over every tested row.
    pub p_holm: Option<f64>,
    /// `p_holm` < [`ALPHA`].
    pub significant: bool,
}

fn row(
    figure: &str,
    a: f64,
    b: f64,
    test: &'static str,
    p: Option<f64>,
    ci: Option<(&'static str, DiffInterval)>,
) -> Row {
    Row {
        figure: figure.into(),
        a,
        b,
        diff: b - a,
        ci: ci.map(|(method, i)| Ci {
            method,
            lo: i.lo,
            hi: i.hi,
        }),
        test,
        p,
        p_holm: None,
        significant: false,
    }
}

/// A rate row from counts: `xa` of `na` against `xb` of `nb`.
fn rate(name: &str, xa: f64, na: usize, xb: f64, nb: usize) -> Row {
    let share = |x: f64, n: usize| if n == 0 { 0.0 } else { x / n as f64 };
    row(
        name,
        share(xa, na),
        share(xb, nb),
        "z",
        Some(two_proportion_p(xa, na, xb, nb)),
        newcombe_diff(xa, na, xb, nb).map(|i| ("newcombe", i)),
    )
}

/// A count a metric holds as a share of `n` (completion): the share times
/// `n`, rounded to the half (first-mover scores count a draw ½) so that
/// floating-point error does not leak into the tests.
fn count(share: f64, n: usize) -> f64 {
    (share * n as f64 * 2.0).round() / 2.0
}

/// Whether both bots are the same spec: then "bot A" and "bot B" are two
/// copies of one player, and their win rates describe the seat swap, not
/// a difference between the rulesets.
pub fn same_bots(m: &Metrics) -> bool {
    m.bots[0] == m.bots[1]
}

/// The warning of a run with an odd number of games: one seat is then
/// played by bot A once more than by bot B, so seat and bot figures mix.
/// `None` for an even number.
pub fn odd_games_warning(games: usize) -> Option<String> {
    (games % 2 == 1).then(|| {
        format!(
            "warning: --games {games} is odd: bot A plays the first mover's seat in one game more \
             than bot B, so seat and bot figures are not balanced; use an even number"
        )
    })
}

/// The rows of the comparison of side `a` with side `b`: the shared
/// figures, then every per-game sample both sides have (the game's own
/// figures among them; one a side lacks, such as a card only one ruleset
/// holds, is not compared), with Holm's adjustment over the tested rows.
pub fn compare(ma: &Metrics, sa: &[Sample], mb: &Metrics, sb: &[Sample]) -> Vec<Row> {
    let (na, nb) = (ma.games, mb.games);
    let [bot_a, bot_b] = &ma.bots;
    let [s0, s1] = &ma.seats;
    let mut rows = vec![
        rate(
            &format!("{s0} win rate"),
            ma.seat_wins[0] as f64,
            na,
            mb.seat_wins[0] as f64,
            nb,
        ),
        rate(
            &format!("{s1} win rate"),
            ma.seat_wins[1] as f64,
            na,
            mb.seat_wins[1] as f64,
            nb,
        ),
        rate("draw rate", ma.draws as f64, na, mb.draws as f64, nb),
    ];
    if !same_bots(ma) {
        rows.push(rate(
            &format!("A ({bot_a}) win rate"),
            ma.bot_wins[0] as f64,
            na,
            mb.bot_wins[0] as f64,
            nb,
        ));
        rows.push(rate(
            &format!("B ({bot_b}) win rate"),
            ma.bot_wins[1] as f64,
            na,
            mb.bot_wins[1] as f64,
            nb,
        ));
    }
    rows.push(rate(
        "first-mover advantage",
        count(ma.first_mover.p, na),
        na,
        count(mb.first_mover.p, nb),
        nb,
    ));
    rows.push(row("balance", ma.balance, mb.balance, "none", None, None));
    rows.push(rate(
        "completion",
        count(ma.completion, na),
        na,
        count(mb.completion, nb),
        nb,
    ));
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
                welch_diff(&a.values, &b.values).map(|i| ("welch", i)),
            ),
            SampleKind::Share => rate(
                &a.name,
                a.values.iter().sum(),
                a.values.len(),
                b.values.iter().sum(),
                b.values.len(),
            ),
        });
    }
    let tested: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].p.is_some()).collect();
    let raw: Vec<f64> = tested.iter().filter_map(|&i| rows[i].p).collect();
    for (&i, adjusted) in tested.iter().zip(holm(&raw)) {
        rows[i].p_holm = Some(adjusted);
        rows[i].significant = adjusted < ALPHA;
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

/// The number of rows the correction ran over.
pub fn tested(rows: &[Row]) -> usize {
    rows.iter().filter(|r| r.p.is_some()).count()
}

/// The lines above the table: what was run, how the rows are tested, and
/// the warnings.
pub fn header(name_a: &str, name_b: &str, ma: &Metrics, rows: &[Row]) -> String {
    let mut s = format!(
        "ball compare: {name_a} vs {name_b}: A = {} vs B = {}, {} games each, same seeds\n",
        ma.bots[0], ma.bots[1], ma.games
    );
    s.push_str(
        "95% interval of B − A: rates Newcombe's hybrid score interval, means Welch's interval\n",
    );
    s.push_str(&format!(
        "significant: Holm–Bonferroni adjusted p < {ALPHA} over the {} tested rows \
         (raw p: rates two-proportion z-test, means Welch's t-test)\n",
        tested(rows)
    ));
    if same_bots(ma) {
        s.push_str("no bot A / bot B rows: both sides run the same bot\n");
    }
    if let Some(w) = odd_games_warning(ma.games) {
        s.push_str(&w);
        s.push('\n');
    }
    s
}

/// The comparison as a table.
pub fn text(name_a: &str, name_b: &str, ma: &Metrics, rows: &[Row]) -> String {
    let mut s = header(name_a, name_b, ma, rows);
    s.push('\n');
    let wa = name_a.chars().count().clamp(8, 20);
    let wb = name_b.chars().count().clamp(8, 20);
    let wf = rows
        .iter()
        .map(|r| r.figure.chars().count())
        .max()
        .unwrap_or(0)
        .max(26);
    s.push_str(&format!(
        "{:<w$} {:>wa$} {:>wb$} {:>9}  {:<20} {:>8} {:>8}\n",
        "figure",
        name_a,
        name_b,
        "diff",
        "95% interval",
        "p",
        "p (Holm)",
        w = wf + 2
    ));
    let num = |p: Option<f64>| p.map_or("-".to_string(), |p| format!("{p:.4}"));
    for r in rows {
        let ci =
            r.ci.map_or("-".to_string(), |c| format!("[{:+.3}, {:+.3}]", c.lo, c.hi));
        let mark = if r.significant { "  significant" } else { "" };
        s.push_str(&format!(
            "  {:<wf$} {:>wa$.3} {:>wb$.3} {:>+9.3}  {ci:<20} {:>8} {:>8}{mark}\n",
            r.figure,
            r.a,
            r.b,
            r.diff,
            num(r.p),
            num(r.p_holm),
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::game::SeatResult::{Loss, Win};
    use crate::lab::metrics::{compute, tests::game};

    fn sides() -> (
        Vec<crate::lab::GameResult<()>>,
        Vec<crate::lab::GameResult<()>>,
    ) {
        // Side a: seat 1 wins all 100 games in 20 turns; side b: seat 0
        // wins all in 40 turns.
        let a = (0..100)
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
        let b = (0..100)
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
        (a, b)
    }

    fn turns(r: &[crate::lab::GameResult<()>]) -> Vec<Sample> {
        vec![Sample::mean(
            "turns (mean)",
            r.iter().map(|g| f64::from(g.turns)).collect(),
        )]
    }

    #[test]
    fn a_large_difference_is_significant_and_equal_sides_are_not() {
        let bots = ["A".to_string(), "B".to_string()];
        let (a, b) = sides();
        let seats = ["ATK", "DEF"];
        let (ma, mb) = (compute(&a, &bots, seats), compute(&b, &bots, seats));
        let rows = compare(&ma, &turns(&a), &mb, &turns(&b));
        let get = |name: &str| rows.iter().find(|r| r.figure == name).unwrap().clone();
        let def = get("DEF win rate");
        assert_eq!((def.a, def.b, def.diff), (1.0, 0.0, -1.0));
        assert!(def.significant);
        // 0/100 − 100/100 by Newcombe: both Wilson intervals end at the
        // estimate on the side away from the other, so lo = −1 exactly;
        // hi = −1 + √(u₀² + (1 − l₁₀₀)²) = −1 + √2·(1 − l₁₀₀), the two
        // intervals mirroring each other.
        let ci = def.ci.unwrap();
        assert_eq!(ci.method, "newcombe");
        let lo100 = crate::lab::stats::wilson(100.0, 100).lo;
        assert!((ci.lo + 1.0).abs() < 1e-12, "{ci:?}");
        let want = -1.0 + std::f64::consts::SQRT_2 * (1.0 - lo100);
        assert!((ci.hi - want).abs() < 1e-9, "{ci:?}");
        let t = get("turns (mean)");
        assert!(t.significant);
        assert!((t.diff - 20.0).abs() < 1e-9);
        let tci = t.ci.unwrap();
        assert_eq!(tci.method, "welch");
        assert!(tci.lo < 20.0 && 20.0 < tci.hi && tci.lo > 19.0, "{tci:?}");
        // Bot A won the even games on side a (seat 1) and the odd ones on
        // side b (seat 0): 50 % both times.
        let bot_a = get("A (A) win rate");
        assert_eq!((bot_a.a, bot_a.b), (0.5, 0.5));
        assert!(!bot_a.significant);
        assert!(get("balance").p.is_none() && get("balance").ci.is_none());
        assert!(!rows.iter().any(|r| r.figure == "drawishness"));
        // A side against itself: nothing is significant.
        let same = compare(&ma, &turns(&a), &ma, &turns(&a));
        assert!(same.iter().all(|r| !r.significant && r.diff == 0.0));
        let t = text("standard", "variant", &ma, &rows);
        assert!(t.contains("significant"));
        assert!(t.contains("DEF win rate"));
        assert!(t.contains("Holm–Bonferroni"), "{t}");
        assert!(t.contains(&format!("over the {} tested rows", tested(&rows))));
    }

    /// Holm over the rows: the adjusted p of each tested row is computed
    /// from all of them; the raw p stays. Draw rate: 0/100 both sides, p =
    /// 1; the rows' raw p-values, adjusted by hand, are the row's p_holm.
    #[test]
    fn significance_is_after_holm() {
        let bots = ["A".to_string(), "B".to_string()];
        let (a, b) = sides();
        let seats = ["ATK", "DEF"];
        let (ma, mb) = (compute(&a, &bots, seats), compute(&b, &bots, seats));
        let rows = compare(&ma, &turns(&a), &mb, &turns(&b));
        let p: Vec<f64> = rows.iter().filter_map(|r| r.p).collect();
        let adj: Vec<f64> = rows.iter().filter_map(|r| r.p_holm).collect();
        assert_eq!(p.len(), adj.len());
        assert_eq!(adj, holm(&p));
        for r in &rows {
            assert_eq!(r.significant, r.p_holm.is_some_and(|q| q < ALPHA));
            if let (Some(p), Some(q)) = (r.p, r.p_holm) {
                assert!(q >= p);
            }
        }
        // A raw p just under 0.05 among many rows is not significant: one
        // share at 40/100 vs 54/100 (z-test p ≈ 0.048) beside the others.
        let mut sa = turns(&a);
        let mut sb = turns(&b);
        let share = |k: usize| (0..100).map(|i| f64::from(u8::from(i < k))).collect();
        sa.push(Sample::share("close call", share(40)));
        sb.push(Sample::share("close call", share(54)));
        let rows = compare(&ma, &sa, &mb, &sb);
        let close = rows.iter().find(|r| r.figure == "close call").unwrap();
        let p = close.p.unwrap();
        assert!(p < 0.05 && p > 0.04, "{p}");
        assert!(!close.significant, "{close:?}");
        // Its interval is Newcombe's: it excludes 0 at 95 % on its own.
        let ci = close.ci.unwrap();
        assert!(ci.lo > 0.0, "{ci:?}");
    }

    #[test]
    fn same_bots_have_no_bot_rows_and_odd_games_warn() {
        let bots = ["greedy".to_string(), "greedy".to_string()];
        let (a, b) = sides();
        let seats = ["ATK", "DEF"];
        let (ma, mb) = (compute(&a, &bots, seats), compute(&b, &bots, seats));
        let rows = compare(&ma, &[], &mb, &[]);
        assert!(!rows.iter().any(|r| r.figure.contains("(greedy) win rate")));
        let t = text("x", "y", &ma, &rows);
        assert!(t.contains("both sides run the same bot"), "{t}");
        assert!(!t.contains("warning"), "{t}");
        let odd: Vec<_> = a[..99].to_vec();
        let m = compute(&odd, &bots, seats);
        let t = text("x", "y", &m, &compare(&m, &[], &m, &[]));
        assert!(t.contains("warning: --games 99 is odd"), "{t}");
        assert!(odd_games_warning(100).is_none());
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
        let ci = shove.ci.unwrap();
        let want = newcombe_diff(1.0, 2, 2.0, 2).unwrap();
        assert_eq!((ci.lo, ci.hi), (want.lo, want.hi));
        assert!(!rows.iter().any(|r| r.figure == "only a"));
    }
}
