//! `ball sim --plot`: one SVG with two panels — the win rates with their
//! 95% Wilson intervals, and the histogram of game lengths in turns.
//! `ball compare --plot`: the two rulesets' rates side by side with their
//! Wilson intervals, and every tested difference with its 95% interval
//! (rates in percentage points, means relative to A's), the rows that are
//! significant after Holm's correction in colour.
//!
//! Drawn with plotters' SVG backend into a string (the CLI writes the
//! file). Text is left to the SVG viewer's fonts, so no font files are
//! needed.

use plotters::prelude::*;

use plotters::coord::ranged1d::SegmentValue;

use super::compare::{self, Row};
use super::metrics::Metrics;
use super::report::pct;
use super::sim::GameResult;
use super::stats::{Interval, wilson};

const WIDTH: u32 = 1100;
const HEIGHT: u32 = 480;

/// Counts of games by length, in bins of `width` turns from 0:
/// `(first turn of the bin, games)`.
pub fn length_histogram<T>(results: &[GameResult<T>], width: u32) -> Vec<(u32, usize)> {
    let width = width.max(1);
    let max = results.iter().map(|g| g.turns).max().unwrap_or(0);
    let mut bins = vec![0usize; (max / width + 1) as usize];
    for g in results {
        bins[(g.turns / width) as usize] += 1;
    }
    bins.into_iter()
        .enumerate()
        .map(|(i, n)| (i as u32 * width, n))
        .collect()
}

/// The SVG text of the plot.
pub fn svg<T>(
    m: &Metrics,
    results: &[GameResult<T>],
    first: Option<usize>,
    title: &str,
) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, m, results, first, title).map_err(|e| format!("cannot draw the plot: {e}"))?;
        root.present()
            .map_err(|e| format!("cannot draw the plot: {e}"))?;
    }
    Ok(out)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

fn draw<T>(
    root: &Area,
    m: &Metrics,
    results: &[GameResult<T>],
    first: Option<usize>,
    title: &str,
) -> DrawResult {
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 20))?;
    let (left, right) = root.split_horizontally(WIDTH / 2);
    win_rates(&left, m, first)?;
    lengths(&right, results)?;
    Ok(())
}

fn win_rates(area: &Area, m: &Metrics, first: Option<usize>) -> DrawResult {
    let [a, b] = &m.bots;
    let seat = |s: usize| {
        if first == Some(s) {
            format!("{} (1st)", m.seats[s])
        } else {
            m.seats[s].clone()
        }
    };
    let bars: [(String, &Interval, RGBColor); 5] = [
        (format!("A {a}"), &m.bot_win_rate[0], RGBColor(31, 119, 180)),
        (format!("B {b}"), &m.bot_win_rate[1], RGBColor(255, 127, 14)),
        ("draws".into(), &m.draw_rate, RGBColor(127, 127, 127)),
        (seat(1), &m.seat_win_rate[1], RGBColor(44, 160, 44)),
        (seat(0), &m.seat_win_rate[0], RGBColor(214, 39, 40)),
    ];
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "win rates, 95% Wilson intervals ({})",
                crate::diagnostic::plural(m.games as u64, "game")
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(10)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..4.5f64, -0.1f64..1.05f64)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .y_desc("share of games")
        .y_label_formatter(&|y| {
            if *y < 0.0 {
                String::new()
            } else {
                format!("{:.0}%", y * 100.0)
            }
        })
        .draw()?;
    for (i, (name, iv, colour)) in bars.iter().enumerate() {
        let x = i as f64;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x - 0.32, 0.0), (x + 0.32, iv.p)],
            colour.mix(0.8).filled(),
        )))?;
        chart.draw_series(std::iter::once(ErrorBar::new_vertical(
            x,
            iv.lo,
            iv.p,
            iv.hi,
            BLACK.stroke_width(2),
            14,
        )))?;
        let label_style = ("sans-serif", 13).into_font().color(&BLACK);
        chart.draw_series(std::iter::once(Text::new(
            name.clone(),
            (x - 0.4, -0.035),
            label_style.clone(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            pct(iv.p),
            (x - 0.2, (iv.hi + 0.05).min(1.04)),
            label_style,
        )))?;
    }
    Ok(())
}

fn lengths<T>(area: &Area, results: &[GameResult<T>]) -> DrawResult {
    let bins = length_histogram(results, 2);
    let top = bins.iter().map(|b| b.1).max().unwrap_or(0).max(1) as f64;
    // One empty bin of room on the right, so the last bar is not on the edge.
    let right = bins.last().map_or(2, |b| b.0 + 4) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption("game length (bins of 2 turns)", ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..right.max(10.0), 0f64..top * 1.08)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("turns")
        .y_desc("games")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    chart.draw_series(bins.iter().map(|&(x0, n)| {
        Rectangle::new(
            [(f64::from(x0), 0.0), (f64::from(x0) + 2.0, n as f64)],
            RGBColor(31, 119, 180).mix(0.8).filled(),
        )
    }))?;
    Ok(())
}

const BLUE: RGBColor = RGBColor(31, 119, 180);
const ORANGE: RGBColor = RGBColor(255, 127, 14);
const RED: RGBColor = RGBColor(214, 39, 40);
const GREY: RGBColor = RGBColor(110, 110, 110);

/// The rates of one side that the compare plot draws, by name.
fn side_rates(m: &Metrics) -> Vec<(String, Interval)> {
    let [s0, s1] = &m.seats;
    let mut v = vec![
        (format!("{s0} wins"), m.seat_win_rate[0]),
        (format!("{s1} wins"), m.seat_win_rate[1]),
        ("draws".to_string(), m.draw_rate),
    ];
    if !compare::same_bots(m) {
        v.push(("A wins".to_string(), m.bot_win_rate[0]));
        v.push(("B wins".to_string(), m.bot_win_rate[1]));
    }
    v.push(("1st mover".to_string(), m.first_mover));
    let done = (m.completion * m.games as f64).round();
    v.push(("completion".to_string(), wilson(done, m.games)));
    v
}

/// A row of a difference panel: name, difference, interval, significant.
type DiffRow = (String, f64, f64, f64, bool);

/// The rows of the two difference panels: rates in percentage points;
/// means as a percentage of A's mean (a rescaling by a constant, so the
/// interval keeps its shape; rows whose A mean is 0 cannot be scaled and
/// are left out of the plot, not of the table).
fn diff_rows(rows: &[Row]) -> (Vec<DiffRow>, Vec<DiffRow>) {
    let (mut rates, mut means) = (Vec::new(), Vec::new());
    for r in rows {
        let Some(ci) = r.ci else { continue };
        if ci.method == "newcombe" {
            rates.push((
                r.figure.clone(),
                100.0 * r.diff,
                100.0 * ci.lo,
                100.0 * ci.hi,
                r.significant,
            ));
        } else if r.a != 0.0 {
            let k = 100.0 / r.a.abs();
            means.push((
                r.figure.clone(),
                k * r.diff,
                k * ci.lo,
                k * ci.hi,
                r.significant,
            ));
        }
    }
    (rates, means)
}

/// The SVG text of `ball compare --plot`.
pub fn compare_svg(
    names: [&str; 2],
    ma: &Metrics,
    mb: &Metrics,
    rows: &[Row],
    title: &str,
) -> Result<String, String> {
    let (rates, means) = diff_rows(rows);
    let tall = rates.len().max(means.len());
    let height = (150 + 24 * tall as u32).max(HEIGHT);
    let width = 1600;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        let draw = || -> DrawResult {
            root.fill(&WHITE)?;
            let area = root.titled(title, ("sans-serif", 20))?;
            let (left, right) = area.split_horizontally(width * 3 / 8);
            let (middle, right) = right.split_horizontally(width / 3);
            side_by_side(&left, names, ma, mb)?;
            forest(
                &middle,
                "rates: B − A, percentage points, 95% Newcombe",
                &rates,
            )?;
            forest(
                &right,
                "means: B − A, % of the mean of A, 95% Welch",
                &means,
            )?;
            Ok(())
        };
        draw().map_err(|e| format!("cannot draw the plot: {e}"))?;
        root.present()
            .map_err(|e| format!("cannot draw the plot: {e}"))?;
    }
    Ok(out)
}

/// Both sides' rates, a pair of bars a figure, with Wilson intervals.
fn side_by_side(area: &Area, names: [&str; 2], ma: &Metrics, mb: &Metrics) -> DrawResult {
    let (ra, rb) = (side_rates(ma), side_rates(mb));
    let n = ra.len();
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("rates, 95% Wilson intervals ({} games a side)", ma.games),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(10)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), -0.12f64..1.05f64)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .y_desc("share of games")
        .y_label_formatter(&|y| {
            if *y < 0.0 {
                String::new()
            } else {
                format!("{:.0}%", y * 100.0)
            }
        })
        .draw()?;
    let label = ("sans-serif", 12).into_font().color(&BLACK);
    for (i, ((name, a), (_, b))) in ra.iter().zip(&rb).enumerate() {
        let x = i as f64;
        for (dx, iv, colour) in [(-0.19, a, BLUE), (0.19, b, ORANGE)] {
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x + dx - 0.17, 0.0), (x + dx + 0.17, iv.p)],
                colour.mix(0.8).filled(),
            )))?;
            chart.draw_series(std::iter::once(ErrorBar::new_vertical(
                x + dx,
                iv.lo,
                iv.p,
                iv.hi,
                BLACK.stroke_width(2),
                8,
            )))?;
        }
        chart.draw_series(std::iter::once(Text::new(
            name.clone(),
            (x - 0.42, -0.04),
            label.clone(),
        )))?;
    }
    for (k, (name, colour)) in names.iter().zip([BLUE, ORANGE]).enumerate() {
        let y = 1.02 - 0.05 * k as f64;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(-0.45, y - 0.015), (-0.3, y + 0.015)],
            colour.mix(0.8).filled(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("{} {name}", ["A", "B"][k]),
            (-0.25, y + 0.02),
            label.clone(),
        )))?;
    }
    Ok(())
}

/// A forest plot: one line a row, the difference with its interval, a
/// line at 0; significant rows (after Holm) in red.
fn forest(area: &Area, caption: &str, rows: &[DiffRow]) -> DrawResult {
    // Two slots at least: plotters lists no label on a segmented axis of
    // one segment.
    let n = rows.len().max(2);
    let reach = rows
        .iter()
        .flat_map(|r| [r.2.abs(), r.3.abs()])
        .fold(1.0f64, f64::max)
        * 1.1;
    let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    // Row 0 at the top.
    let at = |i: usize| SegmentValue::CenterOf(n - 1 - i);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(190)
        .build_cartesian_2d(-reach..reach, (0..n - 1).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) if *i < n => {
                names.get(n - 1 - *i).cloned().unwrap_or_default()
            }
            _ => String::new(),
        })
        .x_label_formatter(&|x| format!("{x:+.0}"))
        .x_desc("red: significant after Holm–Bonferroni")
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Last)],
        BLACK.stroke_width(1),
    )))?;
    if rows.is_empty() {
        chart.draw_series(std::iter::once(Text::new(
            "no such rows",
            (-reach * 0.3, SegmentValue::CenterOf(0)),
            ("sans-serif", 13).into_font().color(&GREY),
        )))?;
    }
    for (i, (_, d, lo, hi, significant)) in rows.iter().enumerate() {
        let colour = if *significant { RED } else { GREY };
        chart.draw_series(std::iter::once(ErrorBar::new_horizontal(
            at(i),
            *lo,
            *d,
            *hi,
            colour.stroke_width(2),
            10,
        )))?;
        chart.draw_series(std::iter::once(Circle::new(
            (*d, at(i)),
            4,
            colour.filled(),
        )))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::metrics::{compute, tests::four};

    #[test]
    fn histogram_bins() {
        // Turns 40, 20, 60, 10 in bins of 20: [0,20) 1, [20,40) 1, [40,60) 1, [60,80) 1.
        let h = length_histogram(&four(), 20);
        assert_eq!(h, vec![(0, 1), (20, 1), (40, 1), (60, 1)]);
        let h = length_histogram(&four(), 50);
        assert_eq!(h, vec![(0, 3), (50, 1)]);
        assert!(length_histogram::<()>(&[], 5) == vec![(0, 0)]);
    }

    #[test]
    fn svg_has_both_panels() {
        let r = four();
        let m = compute(&r, &["greedy".into(), "random".into()], ["ATK", "DEF"]);
        let s = svg(&m, &r, Some(1), "test plot").unwrap();
        assert!(s.starts_with("<svg"));
        assert!(s.contains("win rates"));
        assert!(s.contains("game length"));
        assert!(s.contains("A greedy"));
        assert!(s.contains("DEF (1st)"));
    }

    #[test]
    fn compare_svg_has_both_sides_and_the_differences() {
        use crate::kernel::game::SeatResult::{Loss, Win};
        use crate::lab::metrics::tests::game;
        use crate::lab::{Sample, compare};
        let side = |winner: [crate::kernel::game::SeatResult; 2], t: u32| {
            (0..40)
                .map(|i| {
                    game(
                        i,
                        Some(winner),
                        "touchdowns",
                        false,
                        t + (i % 3) as u32,
                        50,
                        500,
                    )
                })
                .collect::<Vec<_>>()
        };
        let (a, b) = (side([Loss, Win], 20), side([Win, Loss], 40));
        let bots = ["greedy".to_string(), "random".to_string()];
        let (ma, mb) = (
            compute(&a, &bots, ["ATK", "DEF"]),
            compute(&b, &bots, ["ATK", "DEF"]),
        );
        let turns = |r: &[GameResult<()>]| {
            vec![Sample::mean(
                "turns (mean)",
                r.iter().map(|g| f64::from(g.turns)).collect(),
            )]
        };
        let rows = compare::compare(&ma, &turns(&a), &mb, &turns(&b));
        let s = compare_svg(["standard", "fast"], &ma, &mb, &rows, "a title").unwrap();
        assert!(s.starts_with("<svg"));
        for needle in [
            "a title",
            "rates, 95% Wilson intervals",
            "A standard",
            "B fast",
            "DEF win rate",
            "turns (mean)",
            "percentage points",
            "% of the mean of A",
            "A wins",
            "significant after Holm",
        ] {
            assert!(s.contains(needle), "{needle} missing");
        }
        // The turns row: +20 turns on A's mean of 839/40 (14 games of 20
        // turns, 13 of 21, 13 of 22), drawn in the significant colour.
        let (rates, means) = diff_rows(&rows);
        assert!(
            rates
                .iter()
                .any(|r| r.0 == "DEF win rate" && r.1 == -100.0 && r.4)
        );
        let t = &means[0];
        assert!(
            (t.1 - 100.0 * 20.0 / (839.0 / 40.0)).abs() < 1e-9 && t.4,
            "{t:?}"
        );
        assert!(
            s.contains("#D62728") || s.contains("#d62728"),
            "no red in the plot"
        );
    }
}
