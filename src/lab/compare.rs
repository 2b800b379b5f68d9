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

use std::collections::BTreeSet;

use serde::Serialize;

use super::metrics::Metrics;
use super::sim::GameResult;
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

/// Whether two samples are one figure.
fn same(a: &Sample, b: &Sample) -> bool {
    a.name == b.name && a.kind == b.kind
}

/// Every sample of either side once, in both sides' order where they
/// agree (A's first where they do not): the game lists a figure such as
/// a card's in name order, and a card only B holds stays among A's cards.
fn union<'s>(sa: &'s [Sample], sb: &'s [Sample]) -> Vec<&'s Sample> {
    let mut out: Vec<&Sample> = Vec::new();
    let mut pending: Vec<&Sample> = Vec::new();
    let mut i = 0;
    for b in sb {
        if let Some(j) = sa[i..].iter().position(|a| same(a, b)) {
            out.extend(&sa[i..i + j]);
            out.append(&mut pending);
            out.push(&sa[i + j]);
            i += j + 1;
        } else if !sa.iter().any(|a| same(a, b)) {
            pending.push(b);
        }
    }
    out.extend(&sa[i..]);
    out.append(&mut pending);
    out
}

/// The values a side that lacks `s` has in its place: 0 in each game, or
/// `None` when the side lacks `s`'s whole group ([`Sample::group`]).
fn zeros(s: &Sample, side: &[Sample], games: usize) -> Option<Vec<f64>> {
    match s.group {
        None => Some(vec![0.0; games]),
        Some(g) => side
            .iter()
            .find(|x| x.group == Some(g))
            .map(|x| vec![0.0; x.values.len()]),
    }
}

/// The rows of the comparison of side `a` with side `b`: the shared
/// figures, then every per-game sample of either side (the game's own
/// figures among them). A sample one side lacks, such as a card only one
/// ruleset holds, is 0 in each of that side's games; one whose whole
/// group that side lacks is left out ([`Sample::group`]). Holm's
/// adjustment runs over the tested rows.
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
    for s in union(sa, sb) {
        let side = |own: &[Sample], games: usize| match own.iter().find(|x| same(x, s)) {
            Some(x) => Some(x.values.clone()),
            None => zeros(s, own, games),
        };
        let (Some(va), Some(vb)) = (side(sa, ma.games), side(sb, mb.games)) else {
            continue;
        };
        let (a, b) = (
            Sample {
                values: va,
                ..s.clone()
            },
            Sample {
                values: vb,
                ..s.clone()
            },
        );
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

/// The "actions per game" rows: each kind of action played in a game of
/// either side (`lab::kinds`), in kind order, its mean count per game on
/// each side (0 in a game without it, so a kind one side never played
/// shows 0 there) and the difference with Welch's interval. Not tested:
/// they describe how the games went, overlapping the tested rows (actions,
/// a card's plays), and would only widen Holm's family.
pub fn action_rows<T>(a: &[GameResult<T>], b: &[GameResult<T>]) -> Vec<Row> {
    let kinds: BTreeSet<&str> = a
        .iter()
        .chain(b)
        .flat_map(|g| g.kinds.keys().map(|k| k.as_ref()))
        .collect();
    let per_game = |side: &[GameResult<T>], kind: &str| -> Vec<f64> {
        side.iter()
            .map(|g| f64::from(g.kinds.get(kind).copied().unwrap_or(0)))
            .collect()
    };
    kinds
        .into_iter()
        .map(|kind| {
            let (va, vb) = (per_game(a, kind), per_game(b, kind));
            row(
                kind,
                mean(&va),
                mean(&vb),
                "none",
                None,
                welch_diff(&va, &vb).map(|i| ("welch", i)),
            )
        })
        .collect()
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

/// The comparison as a table: the tested rows, the actions per game,
/// then each side's script failures when there were any.
pub fn text(
    [name_a, name_b]: [&str; 2],
    [ma, mb]: [&Metrics; 2],
    rows: &[Row],
    actions: &[Row],
) -> String {
    let mut s = header(name_a, name_b, ma, rows);
    s.push('\n');
    let wa = name_a.chars().count().clamp(8, 20);
    let wb = name_b.chars().count().clamp(8, 20);
    let wf = rows
        .iter()
        .chain(actions)
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
    if !actions.is_empty() {
        s.push_str(&format!(
            "\n{:<w$} {:>wa$} {:>wb$} {:>9}  {:<20}  not tested: how the games went\n",
            "actions per game",
            name_a,
            name_b,
            "diff",
            "95% interval",
            w = wf + 2
        ));
        for r in actions {
            let ci =
                r.ci.map_or("-".to_string(), |c| format!("[{:+.3}, {:+.3}]", c.lo, c.hi));
            let line = format!(
                "  {:<wf$} {:>wa$.3} {:>wb$.3} {:>+9.3}  {ci:<20}",
                r.figure, r.a, r.b, r.diff,
            );
            s.push_str(line.trim_end());
            s.push('\n');
        }
    }
    if ma.script_errors + mb.script_errors > 0 {
        s.push_str(&format!(
            "\n{:<w$} {:>wa$} {:>wb$}\n",
            "script errors",
            name_a,
            name_b,
            w = wf + 2
        ));
        for (what, a, b) in [
            (
                "games with a failure",
                ma.script_error_games,
                mb.script_error_games,
            ),
            ("failures", ma.script_errors, mb.script_errors),
        ] {
            s.push_str(&format!("  {what:<wf$} {a:>wa$} {b:>wb$}\n"));
        }
        for (name, m) in [(name_a, ma), (name_b, mb)] {
            if let Some(first) = &m.first_script_error {
                s.push_str(&format!("  first in {name}: {first}\n"));
            }
        }
    }
    s
}

/// The script failures of one side, as the `script error:` line on
/// standard error names them: `None` when it had none.
pub fn script_errors_line(name: &str, m: &Metrics) -> Option<String> {
    super::report::script_errors_line(m).map(|l| format!("{name}: {l}"))
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
        let t = text(["standard", "variant"], [&ma, &mb], &rows, &[]);
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
        let t = text(["x", "y"], [&ma, &mb], &rows, &[]);
        assert!(t.contains("both sides run the same bot"), "{t}");
        assert!(!t.contains("warning"), "{t}");
        let odd: Vec<_> = a[..99].to_vec();
        let m = compute(&odd, &bots, seats);
        let t = text(["x", "y"], [&m, &m], &compare(&m, &[], &m, &[]), &[]);
        assert!(t.contains("warning: --games 99 is odd"), "{t}");
        assert!(odd_games_warning(100).is_none());
    }

    #[test]
    fn shares_use_the_z_test() {
        let m = compute::<()>(&[], &["A".into(), "B".into()], ["ATK", "DEF"]);
        let a = vec![Sample::share("shove: games played", vec![1.0, 0.0])];
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
    }

    /// The bug: a card only one ruleset holds had no rows, because rows
    /// were made only for the samples both sides had. Now each side's
    /// samples all get rows, 0 in every game of the side that lacks one
    /// (in its group's games), in both sides' order; a group only one
    /// side has (card mode against none) is still left out.
    #[test]
    fn a_card_only_one_side_holds_is_compared_with_zero() {
        let bots = ["A".to_string(), "B".to_string()];
        let (ga, gb) = sides();
        let seats = ["ATK", "DEF"];
        let (ma, mb) = (compute(&ga, &bots, seats), compute(&gb, &bots, seats));
        let card = |name: &str, v: Vec<f64>| Sample::mean(name, v).in_group("cards");
        let played = |name: &str, v: Vec<f64>| Sample::share(name, v).in_group("cards");
        // A holds alpha and gamma, B beta and gamma; 100 card-mode games each.
        let per = |x: f64| vec![x; 100];
        let sa = vec![
            card("alpha: plays per game", per(1.0)),
            played("alpha: games played", per(1.0)),
            card("gamma: plays per game", per(2.0)),
        ];
        let sb = vec![
            card("beta: plays per game", per(3.0)),
            played("beta: games played", per(1.0)),
            card("gamma: plays per game", per(2.0)),
        ];
        let rows = compare(&ma, &sa, &mb, &sb);
        let figures: Vec<&str> = rows
            .iter()
            .map(|r| r.figure.as_str())
            .filter(|f| f.contains(": "))
            .collect();
        assert_eq!(
            figures,
            [
                "alpha: plays per game",
                "alpha: games played",
                "beta: plays per game",
                "beta: games played",
                "gamma: plays per game"
            ]
        );
        let get = |name: &str| rows.iter().find(|r| r.figure == name).unwrap();
        assert_eq!(
            (
                get("alpha: plays per game").a,
                get("alpha: plays per game").b
            ),
            (1.0, 0.0)
        );
        assert_eq!(
            (get("beta: plays per game").a, get("beta: plays per game").b),
            (0.0, 3.0)
        );
        let beta = get("beta: games played");
        assert_eq!((beta.a, beta.b, beta.test), (0.0, 1.0, "z"));
        assert_eq!(beta.p, Some(two_proportion_p(0.0, 100, 100.0, 100)));
        assert!(beta.significant);
        // A figure every ruleset has, missing on one side: 0 in each game.
        let only_a = vec![Sample::mean("only a", per(1.0))];
        let rows = compare(&ma, &only_a, &mb, &[]);
        let r = rows.iter().find(|r| r.figure == "only a").unwrap();
        assert_eq!((r.a, r.b), (1.0, 0.0));
        // Card mode on one side only: no card rows at all.
        let rows = compare(&ma, &sa, &mb, &[]);
        assert!(!rows.iter().any(|r| r.figure.contains(": ")), "{rows:?}");
    }

    #[test]
    fn action_rows_are_the_union_of_kinds_with_zero_where_absent() {
        let with = |i: usize, kinds: &[(&str, u32)]| {
            let mut g = game(i, Some([Loss, Win]), "touchdowns", false, 10, 10, 100);
            g.kinds = kinds
                .iter()
                .map(|&(k, n)| (k.to_string().into(), n))
                .collect();
            g
        };
        let a = vec![
            with(0, &[("move", 10), ("end", 4)]),
            with(1, &[("move", 20), ("end", 6), ("card sprint", 1)]),
        ];
        let b = vec![
            with(0, &[("move", 12), ("end", 5), ("lpass", 2)]),
            with(1, &[("move", 12), ("end", 5)]),
        ];
        let rows = action_rows(&a, &b);
        let got: Vec<(&str, f64, f64)> =
            rows.iter().map(|r| (r.figure.as_str(), r.a, r.b)).collect();
        assert_eq!(
            got,
            [
                ("card sprint", 0.5, 0.0),
                ("end", 5.0, 5.0),
                ("lpass", 0.0, 1.0),
                ("move", 15.0, 12.0)
            ]
        );
        for r in &rows {
            assert!(r.p.is_none() && !r.significant, "{r:?}");
            assert_eq!(r.diff, r.b - r.a);
        }
        let m = welch_diff(&[10.0, 20.0], &[12.0, 12.0]).unwrap();
        let ci = rows[3].ci.unwrap();
        assert_eq!((ci.method, ci.lo, ci.hi), ("welch", m.lo, m.hi));
        // In the table: their own section, after the tested rows.
        let bots = ["A".to_string(), "B".to_string()];
        let ma = compute(&a, &bots, ["ATK", "DEF"]);
        let mb = compute(&b, &bots, ["ATK", "DEF"]);
        let t = text(["x", "y"], [&ma, &mb], &compare(&ma, &[], &mb, &[]), &rows);
        let section = t.split("\nactions per game").nth(1).expect(&t);
        assert!(section.contains("not tested"), "{t}");
        let lpass = section
            .lines()
            .find(|l| l.trim_start().starts_with("lpass"))
            .unwrap();
        assert!(
            lpass.contains("0.000") && lpass.contains("1.000"),
            "{lpass}"
        );
        assert!(!t.contains("script errors"), "{t}");
    }

    /// Each side's script failures under the table: games with one,
    /// failures, and each side's first message with its file and line.
    #[test]
    fn script_failures_of_each_side_are_in_the_table() {
        let bots = ["A".to_string(), "B".to_string()];
        let ok: Vec<_> = (0..4)
            .map(|i| game(i, Some([Loss, Win]), "touchdowns", false, 10, 10, 100))
            .collect();
        let mut bad = ok.clone();
        for g in &mut bad[1..3] {
            g.script_errors = 2;
            g.first_script_error = Some(format!(
                "cards/x.lua:3: card x: hook `resolve`: boom {}",
                g.game
            ));
        }
        let (ma, mb) = (
            compute(&ok, &bots, ["ATK", "DEF"]),
            compute(&bad, &bots, ["ATK", "DEF"]),
        );
        assert_eq!((mb.script_errors, mb.script_error_games), (4, 2));
        assert!(script_errors_line("standard", &ma).is_none());
        assert_eq!(
            script_errors_line("broken", &mb).unwrap(),
            "broken: 4 failures in 2 of 4 games; first: cards/x.lua:3: card x: hook `resolve`: boom 1"
        );
        let t = text(
            ["standard", "broken"],
            [&ma, &mb],
            &compare(&ma, &[], &mb, &[]),
            &[],
        );
        let section = t.split("\nscript errors").nth(1).expect(&t);
        let line = |what: &str| {
            section
                .lines()
                .find(|l| l.trim_start().starts_with(what))
                .unwrap()
                .split_whitespace()
                .rev()
                .take(2)
                .collect::<Vec<_>>()
        };
        assert_eq!(line("games with a failure"), ["2", "0"]);
        assert_eq!(line("failures"), ["4", "0"]);
        assert!(
            section.contains("first in broken: cards/x.lua:3: card x: hook `resolve`: boom 1"),
            "{t}"
        );
        assert!(!section.contains("first in standard"), "{t}");
    }
}
