//! Gateball's court as SVG (`web::Svg`): the spaces with T1.9's marks
//! (`terminal::court::mark`: `#` Outside Line, `S` Start Area, `+` Inside
//! Line, `F` Finish, a gate's number and arrow), the balls `r1` … `b10`,
//! and the dice of the roll in play beside the court (T4.6).
//!
//! Like the terminal board it also marks where each power move still
//! open ends and, once a move is named, its path.

use super::Gateball;
use super::action::Motion;
use super::moves::{self, ball_name};
use super::position::{Position, Team};
use super::space::{Space, column_name};
use super::terminal::court::{ball_on, mark};
use crate::shell::Session;
use crate::tui::Board;
use crate::web::svg::{Marks, Sheet, Svg};

const S: f64 = 34.0;
const M: f64 = 26.0;
/// Room under the court for the dice and the status line.
const FOOT: f64 = 64.0;

impl Svg for Gateball {
    fn svg(&self, pos: &Position, marks: &Marks<Space>) -> String {
        let court = &self.court;
        let (cols, rows) = (court.board_cols(), court.board_rows());
        let w = M * 2.0 + S * f64::from(cols);
        let h = M * 2.0 + S * f64::from(rows) + FOOT;
        let mut sheet = Sheet::new(w.max(360.0), h);
        for col in 1..=cols {
            let x = M + S * (f64::from(col) - 0.5);
            sheet.text(x, M / 2.0, 11.0, "label", &column_name(col));
            sheet.text(x, M * 1.5 + S * f64::from(rows), 11.0, "label", &column_name(col));
        }
        for row in 1..=rows {
            let y = M + S * (f64::from(rows - row) + 0.5);
            sheet.text(M / 2.0, y, 11.0, "label", &row.to_string());
            for col in 1..=cols {
                let sp = Space::new(col, row);
                let x = M + S * f64::from(col - 1);
                let y = M + S * f64::from(rows - row);
                let ground = if court.is_start(sp) {
                    "start"
                } else if court.is_outside(sp) {
                    "wall"
                } else if sp == court.finish {
                    "finish"
                } else if court.is_inside_line(sp) {
                    "line"
                } else {
                    "ground"
                };
                sheet.cell(&sp.to_string(), sp, marks, (x, y, S, S), ground, |sheet| {
                    let (cx, cy) = (x + S / 2.0, y + S / 2.0);
                    match ball_on(pos, sp) {
                        Some(n) => {
                            let class = match Team::of_ball(n) {
                                Team::Red => "t0",
                                Team::Blue => "t1",
                            };
                            sheet.text(cx, cy, 13.0, class, &ball_name(n));
                        }
                        None => {
                            let (token, _) = mark(court, sp);
                            let class = if token.chars().all(|c| c.is_ascii_digit())
                                || matches!(token.as_str(), "^" | "v" | "<" | ">")
                            {
                                "gate"
                            } else {
                                "mark"
                            };
                            sheet.text(cx, cy, 12.0, class, &token);
                        }
                    }
                });
            }
        }
        let foot = M * 2.0 + S * f64::from(rows);
        sheet.text(M + 24.0, foot + 18.0, 12.0, "label", "dice");
        for (i, &d) in pos.dice.iter().enumerate() {
            sheet.die(M + 50.0 + 34.0 * i as f64, foot + 4.0, 28.0, u32::from(d));
        }
        sheet.text(w / 2.0, foot + 48.0, 12.0, "label", &self.status(pos));
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
