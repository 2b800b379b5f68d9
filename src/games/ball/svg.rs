//! BALL's board as SVG (`web::Svg`): the 13 × 17 squares; each piece a
//! token in its team's colour with its kind drawn on it (✕, ○, □ as
//! lines, not letters) and its number beside, a down piece dashed and
//! faded, a restricted one (B4.5) with a white dot, the ball a gold disc;
//! a stack as top over bottom. Each end zone is shaded in the colour of
//! the team that scores there, with the words, and a legend under the
//! board draws every symbol again with its name.

use super::Ball;
use super::board::{COLS, ROWS, Sq, is_playable};
use super::piece::{Kind, PieceId, Team};
use super::position::Position;
use crate::kernel::grid::Coord;
use crate::tui::Board;
use crate::web::gallery::Card;
use crate::web::svg::{Marks, Sheet, Svg};

/// A square's side in pixels, and the margin for the labels.
const S: f64 = 44.0;
const M: f64 = 26.0;
/// The bands above and below the board that say who scores there.
const BAND: f64 = 22.0;
/// Room under the board for the status and the legend.
const FOOT: f64 = 96.0;

impl Svg for Ball {
    fn svg(&self, pos: &Position, marks: &Marks<Sq>) -> String {
        let depth = self.params.end_zone_depth;
        let w = M * 2.0 + S * f64::from(COLS);
        let top = M + BAND;
        let bh = S * f64::from(ROWS);
        let h = top + bh + BAND + M + FOOT;
        let mut sheet = Sheet::new(w, h);
        for col in 1..=COLS {
            let x = M + S * (f64::from(col) - 0.5);
            let name = ((b'A' + col - 1) as char).to_string();
            sheet.text(x, M / 2.0, 13.0, "label", &name);
            sheet.text(x, top + bh + BAND + M / 2.0, 13.0, "label", &name);
        }
        // Who scores where (B3.4): ATK in the top rows, DEF in the bottom.
        let zone_h = S * f64::from(depth);
        sheet.rect((M, top, S * f64::from(COLS), zone_h), "tint0");
        sheet.rect((M, top + bh - zone_h, S * f64::from(COLS), zone_h), "tint1");
        sheet.text(w / 2.0, M + BAND / 2.0, 13.0, "t0", "↑ ATK scores here: end zone ↑");
        sheet.text(w / 2.0, top + bh + BAND / 2.0, 13.0, "t1", "↓ DEF scores here: end zone ↓");
        for row in 1..=ROWS {
            let y = top + S * (f64::from(ROWS - row) + 0.5);
            sheet.text(M / 2.0, y, 13.0, "label", &row.to_string());
            sheet.text(w - M / 2.0, y, 13.0, "label", &row.to_string());
            for col in 1..=COLS {
                if !is_playable(col, row) {
                    continue;
                }
                let Some(sq) = Sq::from_coord(Coord { col, row }) else {
                    continue;
                };
                let x = M + S * f64::from(col - 1);
                let y = top + S * f64::from(ROWS - row);
                let ground = if row > ROWS - depth {
                    "zone0"
                } else if row <= depth {
                    "zone1"
                } else {
                    "ground"
                };
                sheet.cell(
                    &sq.to_string(),
                    sq,
                    marks,
                    (x, y, S, S),
                    ground,
                    |sheet| content(sheet, pos, sq, x + S / 2.0, y + S / 2.0),
                );
            }
        }
        let foot = top + bh + BAND + M;
        sheet.words(M, foot + 14.0, 12.0, &self.status(pos));
        legend(&mut sheet, foot + 44.0);
        sheet.finish(&format!("BALL · {}", self.status(pos)))
    }

    fn cell_name(&self, cell: Sq) -> String {
        cell.to_string()
    }

    fn cell_named(&self, name: &str) -> Option<Sq> {
        Sq::parse(name).ok()
    }

    /// Both coaches' cards (B11.1), each once, in deck order.
    fn gallery_cards(&self) -> Vec<Card> {
        let mut out: Vec<Card> = Vec::new();
        for team in [Team::Atk, Team::Def] {
            for c in self.cards(team) {
                if out.iter().any(|o| o.name == c.name) {
                    continue;
                }
                let mut costs = format!("{} EP", c.cost);
                if c.ap > 0 {
                    costs.push_str(&format!(", {} AP", c.ap));
                }
                if let Some(u) = c.uses {
                    costs.push_str(&format!(" · {u} a game"));
                }
                if let Some(u) = c.per_turn {
                    costs.push_str(&format!(" · {u} a turn"));
                }
                out.push(Card {
                    id: c.id.name().to_string(),
                    name: c.name,
                    costs,
                    text: c.text,
                });
            }
        }
        out
    }
}

/// A piece's token centred on (cx, cy), `r` its radius: the team's disc
/// (dashed and faded when down), its kind drawn on it, its number beside,
/// a white dot when restricted, the ball when it holds it.
#[allow(clippy::too_many_arguments)]
fn token(sheet: &mut Sheet, team: usize, kind: Kind, number: u8, down: bool, restricted: bool, ball: bool, (cx, cy, r): (f64, f64, f64)) {
    let down_class = if down { " down" } else { "" };
    sheet.raw(&format!(
        "<g class=\"piece{down_class}\" data-piece=\"{}{number}\">",
        if team == 0 { "ATK" } else { "DEF" }
    ));
    sheet.raw(&format!(
        "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" class=\"piece{team}\"/>"
    ));
    let k = r * 0.45;
    let mark = match kind {
        Kind::X => format!(
            "<path d=\"M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}\" class=\"kind\"/>",
            cx - k, cy - k, cx + k, cy + k, cx - k, cy + k, cx + k, cy - k
        ),
        Kind::O => format!("<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{k:.1}\" class=\"kind\"/>"),
        Kind::Square => format!(
            // A path, not a rect: a cell's rects are its ground.
            "<path d=\"M{:.1} {:.1}h{:.1}v{:.1}h{:.1}z\" class=\"kind\"/>",
            cx - k,
            cy - k,
            2.0 * k,
            2.0 * k,
            -2.0 * k
        ),
    };
    if down {
        // A down piece lies turned.
        sheet.raw(&format!("<g transform=\"rotate(45 {cx:.1} {cy:.1})\">{mark}</g>"));
    } else {
        sheet.raw(&mark);
    }
    sheet.text(cx + r + 3.0, cy + r * 0.6, (r * 0.8).max(9.0), &format!("t{team}"), &number.to_string());
    if restricted {
        sheet.raw(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" class=\"restricted\"/>",
            cx + r * 0.8,
            cy - r * 0.8
        ));
    }
    if ball {
        sheet.raw(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" class=\"ballmark\"/>",
            cx - r * 0.8,
            cy + r * 0.8,
            (r * 0.4).max(4.0)
        ));
    }
    sheet.raw("</g>");
}

fn piece(sheet: &mut Sheet, pos: &Position, id: PieceId, at: (f64, f64, f64)) {
    let p = pos.piece(id);
    token(
        sheet,
        id.team() as usize,
        p.kind,
        id.number(),
        p.down,
        p.restricted,
        pos.holder() == Some(id),
        at,
    );
}

fn content(sheet: &mut Sheet, pos: &Position, sq: Sq, cx: f64, cy: f64) {
    if let Some(st) = pos.stacks.at(sq) {
        // The bottom piece first, the top one over it.
        piece(sheet, pos, st.bottom, (cx + 5.0, cy + 7.0, 10.0));
        piece(sheet, pos, st.top, (cx - 7.0, cy - 6.0, 10.0));
    } else if let Some(id) = pos.piece_at(sq) {
        piece(sheet, pos, id, (cx - 3.0, cy - 2.0, 13.0));
    } else if pos.loose_ball() == Some(sq) {
        sheet.raw(&format!(
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"9\" class=\"ballmark\" data-ball=\"loose\"/>"
        ));
    }
}

/// The legend: every symbol of the board drawn again, with its name.
fn legend(sheet: &mut Sheet, y: f64) {
    let mut x = M + 14.0;
    for (team, name) in [(0, "ATK"), (1, "DEF")] {
        for (kind, n) in [(Kind::X, 1), (Kind::O, 2), (Kind::Square, 3)] {
            token(sheet, team, kind, n, false, false, false, (x, y, 11.0));
            x += 32.0;
        }
        sheet.words(x - 8.0, y, 12.0, name);
        x += 40.0;
    }
    sheet.words(x - 12.0, y, 12.0, "✕ ○ □ the kinds, the number beside");
    let y2 = y + 30.0;
    let mut x = M + 14.0;
    token(sheet, 0, Kind::X, 4, true, false, false, (x, y2, 11.0));
    sheet.words(x + 22.0, y2, 12.0, "down");
    x += 78.0;
    token(sheet, 1, Kind::O, 5, false, true, false, (x, y2, 11.0));
    sheet.words(x + 22.0, y2, 12.0, "restricted");
    x += 104.0;
    token(sheet, 0, Kind::Square, 6, false, false, true, (x, y2, 11.0));
    sheet.words(x + 22.0, y2, 12.0, "holds the ball");
    x += 120.0;
    sheet.raw(&format!(
        "<circle cx=\"{x:.1}\" cy=\"{y2:.1}\" r=\"8\" class=\"ballmark\"/>"
    ));
    sheet.words(x + 14.0, y2, 12.0, "loose ball");
    x += 92.0;
    sheet.rect((x, y2 - 8.0, 16.0, 16.0), "swatch tint0");
    sheet.rect((x + 18.0, y2 - 8.0, 16.0, 16.0), "swatch tint1");
    sheet.words(x + 40.0, y2, 12.0, "end zones");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::game::Title;

    #[test]
    fn every_playable_square_is_a_named_cell() {
        let game = Ball::build(&Ball::load_ruleset("standard").unwrap()).unwrap();
        let (game, pos, _) = game.new_game(0);
        let svg = game.svg(&pos, &Marks::none());
        assert_eq!(svg.matches("data-cell=").count(), Sq::all().count());
        assert!(svg.contains("data-cell=\"G9\""));
        assert!(
            svg.contains("data-piece=\"ATK5\""),
            "the ball carrier is drawn"
        );
        assert!(svg.contains("ATK scores here") && svg.contains("DEF scores here"));
        for s in Sq::all() {
            assert_eq!(game.cell_named(&game.cell_name(s)), Some(s));
        }
    }
}
