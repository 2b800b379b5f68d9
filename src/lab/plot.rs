//! `ball sim --plot`: one SVG with two panels — the win rates with their
//! 95% Wilson intervals, and the histogram of game lengths in turns.
//!
//! Drawn with plotters' SVG backend into a string (the CLI writes the
//! file). Text is left to the SVG viewer's fonts, so no font files are
//! needed.

use plotters::prelude::*;

use super::metrics::Metrics;
use super::report::pct;
use super::sim::GameResult;
use super::stats::Interval;

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
}
