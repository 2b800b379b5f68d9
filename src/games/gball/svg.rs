//! G-ball's board as SVG (`web::Svg`): the 11 × 6 squares by kind (the
//! goals shaded in the colour of the team that scores there, with the
//! words, side walls, corners, the neutral column); each player a disc
//! in its team's colour with its number and a pointer the way it faces;
//! the ball a gold disc (in a ring when spinning, with an arrow when
//! flying); a legend under the board draws each symbol with its name.

use super::Gball;
use super::Team;
use super::board;
use super::position::{Position, members, number_of, team_of};
use crate::tui::Board;
use crate::web::svg::{Marks, Sheet, Svg};

const S: f64 = 64.0;
const M: f64 = 26.0;
/// The band above the board that says who scores at which end.
const BAND: f64 = 24.0;
/// Room under the board for the status and the legend.
const FOOT: f64 = 92.0;

/// A direction's step on the page (y grows downwards), N first as in
/// `board::DIR_NAMES`.
const DX: [f64; 8] = [0.0, 1.0, 1.0, 1.0, 0.0, -1.0, -1.0, -1.0];
const DY: [f64; 8] = [-1.0, -1.0, 0.0, 1.0, 1.0, 1.0, 0.0, -1.0];

fn unit(d: u8) -> Option<(f64, f64)> {
    let i = usize::from(d);
    let (x, y) = (*DX.get(i)?, *DY.get(i)?);
    let n = (x * x + y * y).sqrt();
    Some((x / n, y / n))
}

/// A player: its team's disc, its number, a pointer the way it faces.
fn player(sheet: &mut Sheet, team: Team, number: u8, facing: u8, (cx, cy, r): (f64, f64, f64)) {
    let t = if team == Team::Red { 0 } else { 1 };
    if let Some((ux, uy)) = unit(facing) {
        let (px, py) = (-uy, ux);
        let tip = (cx + ux * (r + 10.0), cy + uy * (r + 10.0));
        let b1 = (cx + ux * (r - 3.0) + px * 7.0, cy + uy * (r - 3.0) + py * 7.0);
        let b2 = (cx + ux * (r - 3.0) - px * 7.0, cy + uy * (r - 3.0) - py * 7.0);
        sheet.raw(&format!(
            "<path class=\"facing{t}\" d=\"M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}z\"/>",
            tip.0, tip.1, b1.0, b1.1, b2.0, b2.1
        ));
    }
    sheet.disc(cx, cy, r, &format!("piece{t}"), &number.to_string());
}

/// The ball: held (small, by the holder), loose, spinning (a ring) or
/// flying (an arrow its way).
fn ball(sheet: &mut Sheet, (cx, cy): (f64, f64), held: bool, spin: bool, dir: u8) {
    let r = if held { 7.0 } else { 10.0 };
    if spin {
        sheet.raw(&format!(
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" class=\"spin\"/>",
            r + 5.0
        ));
    } else if !held && let Some((ux, uy)) = unit(dir) {
        let (px, py) = (-uy, ux);
        let a = (cx + ux * (r + 2.0), cy + uy * (r + 2.0));
        let b = (cx + ux * (r + 16.0), cy + uy * (r + 16.0));
        let h1 = (b.0 - ux * 6.0 + px * 5.0, b.1 - uy * 6.0 + py * 5.0);
        let h2 = (b.0 - ux * 6.0 - px * 5.0, b.1 - uy * 6.0 - py * 5.0);
        sheet.raw(&format!(
            "<path class=\"flight\" d=\"M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}\"/>",
            a.0, a.1, b.0, b.1, h1.0, h1.1, b.0, b.1, h2.0, h2.1
        ));
    }
    sheet.raw(&format!(
        "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" class=\"ballmark\" data-ball=\"{}\"/>",
        if held { "held" } else if spin { "spin" } else { "loose" }
    ));
}

impl Svg for Gball {
    fn svg(&self, pos: &Position, marks: &Marks<u8>) -> String {
        let (cols, rows) = (board::COLS, board::ROWS);
        let w = M * 2.0 + S * f64::from(cols);
        let top = M + BAND;
        let bh = S * f64::from(rows);
        let h = top + bh + M + FOOT;
        let mut sheet = Sheet::new(w, h);
        for c in 0..cols {
            let x = M + S * (f64::from(c) + 0.5);
            sheet.text(x, M / 2.0, 13.0, "label", &((b'A' + c) as char).to_string());
            sheet.text(x, top + bh + M / 2.0, 13.0, "label", &((b'A' + c) as char).to_string());
        }
        // G1.3: RED defends the goal at A, so RED scores at K; BLU the
        // other way.
        sheet.text(M + S * 1.5, M + BAND / 2.0, 13.0, "t1", "← BLU scores here");
        sheet.text(w - M - S * 1.5, M + BAND / 2.0, 13.0, "t0", "RED scores here →");
        for r in 0..rows {
            let y = top + S * (f64::from(rows - 1 - r) + 0.5);
            sheet.text(M / 2.0, y, 13.0, "label", &(r + 1).to_string());
            for c in 0..cols {
                let sq = board::square(c, r);
                let x = M + S * f64::from(c);
                let y = top + S * f64::from(rows - 1 - r);
                let ground = match board::kind(sq) {
                    board::Kind::Corner => "void",
                    board::Kind::Goal if board::is_goal_of(sq, Team::Red) => "zone1",
                    board::Kind::Goal => "zone0",
                    board::Kind::SideWall => "wall",
                    board::Kind::Air if board::col(sq) == 5 => "zone",
                    board::Kind::Air => "ground",
                };
                sheet.cell(&board::square_name(sq), sq, marks, (x, y, S, S), ground, |sheet| {
                    let (cx, cy) = (x + S / 2.0, y + S / 2.0);
                    let on: Vec<u8> = members(pos.roster)
                        .filter(|&p| pos.players[usize::from(p)].at == sq)
                        .collect();
                    let (r, spots): (f64, &[(f64, f64)]) = match on.len() {
                        0 => (0.0, &[]),
                        1 => (15.0, &[(0.0, -2.0)]),
                        2 => (12.0, &[(-14.0, -6.0), (14.0, -6.0)]),
                        _ => (9.0, &[(-13.0, -13.0), (13.0, -13.0), (-13.0, 11.0), (13.0, 11.0)]),
                    };
                    for (&p, &(dx, dy)) in on.iter().zip(spots) {
                        let pl = &pos.players[usize::from(p)];
                        player(sheet, team_of(p), number_of(p), pl.facing, (cx + dx, cy + dy, r));
                    }
                    if on.len() > spots.len() {
                        sheet.text(cx, cy + 26.0, 11.0, "label", &format!("+{}", on.len() - spots.len()));
                    }
                    let b = &pos.ball;
                    if b.at == sq {
                        let held = b.holder != board::NONE;
                        let at = if held {
                            (cx + 18.0, cy + 20.0)
                        } else if on.is_empty() {
                            (cx, cy)
                        } else {
                            (cx, cy + 20.0)
                        };
                        ball(sheet, at, held, b.spin, b.dir);
                    }
                });
            }
        }
        let foot = top + bh + M;
        sheet.words(M, foot + 12.0, 12.0, &self.status(pos));
        legend(&mut sheet, foot + 40.0);
        sheet.finish(&format!("G-ball · {}", self.status(pos)))
    }

    fn cell_name(&self, cell: u8) -> String {
        board::square_name(cell)
    }

    fn cell_named(&self, name: &str) -> Option<u8> {
        board::parse_square(name)
    }
}

/// The legend: each symbol of the board drawn again, with its name.
fn legend(sheet: &mut Sheet, y: f64) {
    let mut x = M + 14.0;
    player(sheet, Team::Red, 2, 2, (x, y, 11.0));
    sheet.words(x + 30.0, y, 12.0, "RED 2 facing E");
    x += 140.0;
    player(sheet, Team::Blu, 7, 6, (x + 8.0, y, 11.0));
    sheet.words(x + 30.0, y, 12.0, "BLU 7 facing W");
    x += 140.0;
    ball(sheet, (x, y), true, false, board::NONE);
    sheet.words(x + 14.0, y, 12.0, "ball held");
    x += 96.0;
    ball(sheet, (x, y), false, true, board::NONE);
    sheet.words(x + 20.0, y, 12.0, "spinning");
    x += 96.0;
    ball(sheet, (x - 8.0, y), false, false, 2);
    sheet.words(x + 22.0, y, 12.0, "flying");
    let y2 = y + 30.0;
    let mut x = M;
    for (class, name, step) in [
        ("zone0", "RED scores", 110.0),
        ("zone1", "BLU scores", 110.0),
        ("wall", "side wall", 100.0),
        ("void", "corner", 84.0),
        ("zone", "neutral zone", 0.0),
    ] {
        sheet.raw(&format!(
            "<g class=\"{class}\"><rect x=\"{x:.1}\" y=\"{:.1}\" width=\"18\" height=\"18\" class=\"swatch\"/></g>",
            y2 - 9.0
        ));
        sheet.words(x + 24.0, y2, 12.0, name);
        x += step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::game::Title;

    #[test]
    fn every_player_is_a_disc_and_the_ends_say_who_scores() {
        let text = include_str!("../../../tests/gball/mid-catch.json");
        let g = Gball::build(&Gball::load_ruleset(Gball::DEFAULT_RULESET).unwrap()).unwrap();
        let (g, pos) = g.read_position(text).unwrap();
        let svg = g.svg(&pos, &Marks::none());
        let on_board = members(pos.roster)
            .filter(|&p| pos.players[usize::from(p)].at != board::NONE)
            .count();
        // Two more in the legend.
        let discs = svg.matches("class=\"piece0\"").count() + svg.matches("class=\"piece1\"").count();
        assert_eq!(discs, on_board + 2);
        assert!(svg.contains("RED scores here") && svg.contains("BLU scores here"));
        assert_eq!(svg.matches("data-cell=").count(), usize::from(board::COLS * board::ROWS));
    }
}
