//! Gateball's court as SVG (`web::Svg`), drawn as a court: the Outside
//! Line as the apron around the grass, the Inside Line chalked, the Start
//! Area, the three gates as bars on the edge a ball crosses (numbered,
//! with the way through, T1.6), the goal pole on the Finish Space, and
//! the balls as numbered discs in their team's colour — two on a space
//! (a touch, T7) side by side, so the touched ball is never hidden. The
//! dice of the roll in play, the balls off the court and a legend of the
//! drawing go under it.
//!
//! Each space is still a cell (`Sheet::cell`, transparent over the
//! drawing) so clicks and the flow's marks work as on every board; like
//! the terminal board it also marks where each power move still open
//! ends and, once a move is named, its path.

use super::Gateball;
use super::action::Motion;
use super::court::Court;
use super::moves;
use super::position::{Place, Position, Team};
use super::space::{Space, column_name};
use crate::shell::Session;
use crate::tui::Board;
use crate::web::svg::{Marks, Sheet, Svg};

const S: f64 = 34.0;
const M: f64 = 26.0;
/// Room under the court for the dice, the balls off it, the status and
/// the legend.
const FOOT: f64 = 118.0;

/// The top-left corner of a space's square.
fn corner(court: &Court, sp: Space) -> (f64, f64) {
    let rows = court.board_rows();
    (
        M + S * f64::from(sp.col - 1),
        M + S * f64::from(rows - sp.row),
    )
}

fn centre(court: &Court, sp: Space) -> (f64, f64) {
    let (x, y) = corner(court, sp);
    (x + S / 2.0, y + S / 2.0)
}

fn disc_class(n: u8) -> &'static str {
    match Team::of_ball(n) {
        Team::Red => "disc0",
        Team::Blue => "disc1",
    }
}

/// A gate: a bar on the edge between its spaces with a post at each end,
/// an arrow the way a ball passes it (bottom to top), its number beside.
fn gate(sheet: &mut Sheet, court: &Court, n: u8, bottom: Space, top: Space) {
    let (bx, by) = centre(court, bottom);
    let (tx, ty) = centre(court, top);
    let (mx, my) = ((bx + tx) / 2.0, (by + ty) / 2.0);
    // The edge runs across the way through.
    let (ux, uy) = ((tx - bx) / S, (ty - by) / S);
    let (px, py) = (-uy, ux);
    let h = S * 0.55;
    let (e1, e2) = ((mx - px * h, my - py * h), (mx + px * h, my + py * h));
    sheet.line(e1, e2, "gatebar");
    for (x, y) in [e1, e2] {
        sheet.raw(&format!(
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" class=\"gatepost\"/>"
        ));
    }
    let (a0, a1) = (
        (mx - ux * S * 0.32, my - uy * S * 0.32),
        (mx + ux * S * 0.32, my + uy * S * 0.32),
    );
    let head = |s: f64| (a1.0 - ux * 6.0 + px * s, a1.1 - uy * 6.0 + py * s);
    let (h1, h2) = (head(5.0), head(-5.0));
    sheet.raw(&format!(
        "<path class=\"arrow\" d=\"M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}\"/>",
        a0.0, a0.1, a1.0, a1.1, h1.0, h1.1, a1.0, a1.1, h2.0, h2.1
    ));
    let (lx, ly) = (e2.0 + px * 11.0, e2.1 + py * 11.0);
    sheet.raw(&format!(
        "<circle cx=\"{lx:.1}\" cy=\"{ly:.1}\" r=\"9\" class=\"gatepost\"/>"
    ));
    sheet.text(lx, ly + 0.5, 12.0, "discnum", &n.to_string());
}

/// The goal pole: a post in a ring on the Finish Space.
fn pole(sheet: &mut Sheet, cx: f64, cy: f64) {
    sheet.raw(&format!(
        "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" class=\"pole-ring\"/>\
<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"5\" class=\"pole\"/>",
        S * 0.42
    ));
}

impl Svg for Gateball {
    fn svg(&self, pos: &Position, marks: &Marks<Space>) -> String {
        let court = &self.court;
        let (cols, rows) = (court.board_cols(), court.board_rows());
        let (cw, ch) = (S * f64::from(cols), S * f64::from(rows));
        let w = (M * 2.0 + cw).max(560.0);
        let h = M * 2.0 + ch + FOOT;
        let mut sheet = Sheet::new(w, h);
        for col in 1..=cols {
            let x = M + S * (f64::from(col) - 0.5);
            sheet.text(x, M / 2.0, 11.0, "label", &column_name(col));
            sheet.text(x, M * 1.5 + ch, 11.0, "label", &column_name(col));
        }
        for row in 1..=rows {
            let y = M + S * (f64::from(rows - row) + 0.5);
            sheet.text(M / 2.0, y, 11.0, "label", &row.to_string());
        }
        // The ground: apron (Outside Line), grass, chalk, Start Area.
        sheet.rect((M, M, cw, ch), "apron");
        sheet.rect((M + S, M + S, cw - 2.0 * S, ch - 2.0 * S), "grass");
        sheet.rect((M + S, M + S, cw - 2.0 * S, ch - 2.0 * S), "chalk");
        sheet.rect(
            (M + 2.0 * S, M + 2.0 * S, cw - 4.0 * S, ch - 4.0 * S),
            "chalk-thin",
        );
        for &sp in &court.start_area {
            let (x, y) = corner(court, sp);
            sheet.rect((x + 1.0, y + 1.0, S - 2.0, S - 2.0), "startarea");
        }
        for row in 1..=rows {
            for col in 1..=cols {
                let sp = Space::new(col, row);
                let (x, y) = corner(court, sp);
                sheet.cell(&sp.to_string(), sp, marks, (x, y, S, S), "court", |_| {});
            }
        }
        sheet.begin_over("drawing");
        if let Some(&first) = court.start_area.first() {
            let (x0, y0) = centre(court, first);
            let n = court.start_area.len() as f64;
            let across = court.start_area.iter().all(|s| s.row == first.row);
            let (x, y) = if across {
                (x0 + S * (n - 1.0) / 2.0, y0)
            } else {
                (x0, y0 - S * (n - 1.0) / 2.0)
            };
            sheet.text(x, y, 11.0, "words", "START");
        }
        for (g, n) in court.gates.iter().zip(1u8..) {
            gate(&mut sheet, court, n, g.bottom, g.top);
        }
        let (fx, fy) = centre(court, court.finish);
        pole(&mut sheet, fx, fy);
        // The balls on the board, those sharing a space side by side.
        let mut placed: Vec<(Space, Vec<u8>)> = Vec::new();
        for n in 1..=10u8 {
            let sp = match pos.ball_state(n).place {
                Place::Court(sp) | Place::Out(sp) => sp,
                _ => continue,
            };
            match placed.iter_mut().find(|(s, _)| *s == sp) {
                Some((_, v)) => v.push(n),
                None => placed.push((sp, vec![n])),
            }
        }
        for (sp, balls) in &placed {
            let (cx, cy) = centre(court, *sp);
            if balls.len() == 1 {
                sheet.disc(cx, cy, S * 0.36, disc_class(balls[0]), &balls[0].to_string());
                continue;
            }
            // The playing ball first, the one it touches beside it.
            let mut balls = balls.clone();
            balls.sort_by_key(|&n| n != pos.ball);
            let k = balls.len() as f64;
            for (i, &n) in balls.iter().enumerate() {
                let dx = (i as f64 - (k - 1.0) / 2.0) * S * 0.5;
                sheet.disc(cx + dx, cy, S * 0.27, disc_class(n), &n.to_string());
            }
        }
        sheet.end_group();
        // Under the court: the dice, the balls off it, the status, the
        // legend.
        let foot = M * 2.0 + ch;
        sheet.words(M, foot + 16.0, 12.0, "dice");
        for (i, &d) in pos.dice.iter().enumerate() {
            sheet.die(M + 34.0 + 32.0 * i as f64, foot + 3.0, 26.0, u32::from(d));
        }
        let off = |pl: fn(Place) -> bool| -> Vec<u8> {
            (1..=10u8).filter(|&n| pl(pos.ball_state(n).place)).collect()
        };
        let mut x = M + 34.0 + 32.0 * pos.dice.len().max(3) as f64 + 16.0;
        for (what, balls) in [
            ("waiting", off(|p| matches!(p, Place::Waiting))),
            ("goal", off(|p| matches!(p, Place::Goal))),
        ] {
            if balls.is_empty() {
                continue;
            }
            sheet.words(x, foot + 16.0, 12.0, what);
            x += 8.0 * what.len() as f64 + 8.0;
            for n in balls {
                sheet.disc(x + 10.0, foot + 16.0, 10.0, disc_class(n), &n.to_string());
                x += 23.0;
            }
            x += 12.0;
        }
        sheet.words(M, foot + 46.0, 12.0, &self.status(pos));
        legend(&mut sheet, foot + 76.0);
        sheet.finish(&format!("Gateball · {}", self.status(pos)))
    }

    fn cell_name(&self, cell: Space) -> String {
        cell.to_string()
    }

    fn cell_named(&self, name: &str) -> Option<Space> {
        Space::parse(name).filter(|s| self.court.on_board(*s))
    }

    /// As the terminal board marks them: the moving ball's space and a
    /// waiting move's path are chosen, the ends of the power moves still
    /// open are choices, the last move's trace is shown.
    fn marks(&self, s: &Session<Gateball>, highlighted: Option<usize>) -> Marks<Space> {
        let mut m = Marks::of(s, highlighted);
        let pos = s.position();
        let mut any = false;
        for (a, _) in s.chooser().matching() {
            if let Some(j) = moves::judge(self, pos, a) {
                if !any && j.start.is_none() {
                    m.chosen.push(j.origin);
                    any = true;
                }
                if matches!(j.motion, Motion::Straight { .. }) && !m.options.iter().any(|o| o.0 == j.end) {
                    m.options.push((j.end, String::new()));
                }
            }
        }
        if let Some(a) = s.waiting()
            && let Some(j) = moves::judge(self, pos, a)
        {
            m.chosen.push(j.origin);
            m.chosen.extend(j.trace);
        }
        m.last = match s.played().last() {
            Some(p) => match moves::judge(self, &p.before, p.action) {
                Some(j) => {
                    let mut v = vec![j.origin];
                    v.extend(j.trace);
                    v
                }
                None => Vec::new(),
            },
            None => Vec::new(),
        };
        m
    }
}

/// The legend: each thing drawn on the court, drawn again with its name.
fn legend(sheet: &mut Sheet, y: f64) {
    sheet.begin_over("legend");
    let mut x = M;
    sheet.disc(x + 10.0, y, 10.0, "disc0", "1");
    sheet.words(x + 24.0, y, 12.0, "red ball");
    x += 92.0;
    sheet.disc(x + 10.0, y, 10.0, "disc1", "2");
    sheet.words(x + 24.0, y, 12.0, "blue ball");
    x += 98.0;
    sheet.line((x, y - 9.0), (x, y + 9.0), "gatebar");
    sheet.raw(&format!(
        "<path class=\"arrow\" d=\"M{:.1} {y:.1}L{:.1} {y:.1}M{:.1} {:.1}L{:.1} {y:.1}L{:.1} {:.1}\"/>",
        x - 8.0,
        x + 10.0,
        x + 5.0,
        y - 4.0,
        x + 10.0,
        x + 5.0,
        y + 4.0
    ));
    sheet.words(x + 16.0, y, 12.0, "gate, passed the arrow's way");
    let y2 = y + 26.0;
    let mut x = M;
    pole(sheet, x + 12.0, y2);
    sheet.words(x + 30.0, y2, 12.0, "goal pole (Finish)");
    x += 150.0;
    sheet.rect((x, y2 - 9.0, 18.0, 18.0), "startarea");
    sheet.words(x + 24.0, y2, 12.0, "Start Area");
    x += 104.0;
    sheet.rect((x, y2 - 9.0, 18.0, 18.0), "apron");
    sheet.words(x + 24.0, y2, 12.0, "Outside Line");
    x += 112.0;
    sheet.rect((x, y2 - 9.0, 18.0, 18.0), "grass");
    sheet.line((x, y2 - 9.0), (x, y2 + 9.0), "chalk");
    sheet.words(x + 24.0, y2, 12.0, "court, Inside Line");
    sheet.end_group();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::game::Title;

    fn game() -> Gateball {
        Gateball::build(&Gateball::load_ruleset(Gateball::DEFAULT_RULESET).unwrap()).unwrap()
    }

    #[test]
    fn the_court_is_drawn_and_every_space_is_a_cell() {
        let (g, pos, _) = game().new_game(1);
        let svg = g.svg(&pos, &Marks::none());
        let (cols, rows) = (g.court.board_cols(), g.court.board_rows());
        assert_eq!(
            svg.matches("data-cell=").count(),
            usize::from(cols) * usize::from(rows)
        );
        // Three gates on the court and one in the legend; one pole each.
        assert_eq!(svg.matches("class=\"gatebar\"").count(), 4);
        assert_eq!(svg.matches("class=\"pole\"").count(), 2);
        assert!(svg.contains(">START<"));
        for s in ["T3", "K9", "A1", "V17"] {
            let sp = g.cell_named(s).unwrap();
            assert_eq!(g.cell_name(sp), s);
        }
    }

    /// In a spark the touching ball and the touched one share a space:
    /// both are drawn, beside each other.
    #[test]
    fn two_balls_on_a_space_are_both_seen() {
        let text = include_str!("../../../tests/gateball/positions/spark.json");
        let (g, pos) = game().read_position(text).unwrap();
        let svg = g.svg(&pos, &Marks::none());
        let discs: Vec<(f64, f64)> = svg
            .split("<circle ")
            .skip(1)
            .filter(|c| c.contains("r=\"9.2\""))
            .map(|c| {
                let num = |k: &str| -> f64 {
                    let from = c.find(k).unwrap() + k.len();
                    let rest = &c[from..];
                    rest[..rest.find('"').unwrap()].parse().unwrap()
                };
                (num("cx=\""), num("cy=\""))
            })
            .collect();
        assert_eq!(discs.len(), 2, "two small discs: {discs:?}");
        assert_eq!(discs[0].1, discs[1].1);
        assert!((discs[0].0 - discs[1].0).abs() >= S * 0.5 - 0.1, "{discs:?}");
    }
}
