//! G-ball's board as SVG (`web::Svg`): the 11 × 6 squares by kind (goals,
//! side walls, corners, the neutral column), the players as the terminal
//! board names them (`R2↗`: team, number, facing), the ball below them
//! (`●` held, `●→` flying, `●↻` spinning).

use super::Gball;
use super::board;
use super::position::{Position, members, team_of};
use super::terminal::{ball_text, players_text};
use super::Team;
use crate::tui::Board;
use crate::web::svg::{Marks, Sheet, Svg};

const S: f64 = 64.0;
const M: f64 = 26.0;

impl Svg for Gball {
    fn svg(&self, pos: &Position, marks: &Marks<u8>) -> String {
        let (cols, rows) = (board::COLS, board::ROWS);
        let w = M * 2.0 + S * f64::from(cols);
        let h = M * 2.0 + S * f64::from(rows) + 18.0;
        let mut sheet = Sheet::new(w, h);
        for c in 0..cols {
            let x = M + S * (f64::from(c) + 0.5);
            sheet.text(x, M / 2.0, 13.0, "label", &((b'A' + c) as char).to_string());
        }
        for r in 0..rows {
            let y = M + S * (f64::from(rows - 1 - r) + 0.5);
            sheet.text(M / 2.0, y, 13.0, "label", &(r + 1).to_string());
            for c in 0..cols {
                let sq = board::square(c, r);
                let x = M + S * f64::from(c);
                let y = M + S * f64::from(rows - 1 - r);
                let ground = match board::kind(sq) {
                    board::Kind::Corner => "void",
                    board::Kind::Goal => "goal",
                    board::Kind::SideWall => "wall",
                    board::Kind::Air if board::col(sq) == 5 => "zone",
                    board::Kind::Air => "ground",
                };
                sheet.cell(&board::square_name(sq), sq, marks, (x, y, S, S), ground, |sheet| {
                    let (cx, cy) = (x + S / 2.0, y + S / 2.0);
                    let team = members(pos.roster)
                        .find(|&p| pos.players[usize::from(p)].at == sq)
                        .map(team_of);
                    if let Some(t) = team {
                        let class = if t == Team::Red { "t0" } else { "t1" };
                        sheet.text(cx, cy - 10.0, 14.0, class, &players_text(pos, sq));
                    }
                    let ball = ball_text(pos, sq);
                    if !ball.is_empty() {
                        sheet.text(cx, cy + 14.0, 15.0, "ball", &ball);
                    }
                });
            }
        }
        sheet.text(w / 2.0, h - 10.0, 12.0, "label", &self.status(pos));
        sheet.finish(&format!("G-ball · {}", self.status(pos)))
    }

    fn cell_name(&self, cell: u8) -> String {
        board::square_name(cell)
    }

    fn cell_named(&self, name: &str) -> Option<u8> {
        board::parse_square(name)
    }
}
