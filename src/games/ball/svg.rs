//! BALL's board as SVG (`web::Svg`): the 13 × 17 squares, the pieces by
//! the terminal board's glyphs (`terminal::squares`: case for the team,
//! a turned glyph for a down piece, `'` restricted, `●` the ball), a stack
//! as top over bottom, the end zones shaded.

use super::Ball;
use super::board::{COLS, ROWS, Sq, is_playable};
use super::piece::{PieceId, Team};
use super::position::Position;
use super::terminal::squares::piece_text;
use crate::kernel::grid::Coord;
use crate::tui::Board;
use crate::web::gallery::Card;
use crate::web::svg::{Marks, Sheet, Svg};

/// A square's side in pixels, and the margin for the labels.
const S: f64 = 44.0;
const M: f64 = 26.0;

impl Svg for Ball {
    fn svg(&self, pos: &Position, marks: &Marks<Sq>) -> String {
        let depth = self.params.end_zone_depth;
        let w = M * 2.0 + S * f64::from(COLS);
        let h = M * 2.0 + S * f64::from(ROWS) + 18.0;
        let mut sheet = Sheet::new(w, h);
        for col in 1..=COLS {
            let x = M + S * (f64::from(col) - 0.5);
            let name = ((b'A' + col - 1) as char).to_string();
            sheet.text(x, M / 2.0, 13.0, "label", &name);
            sheet.text(x, h - 18.0 - M / 2.0, 13.0, "label", &name);
        }
        for row in 1..=ROWS {
            let y = M + S * (f64::from(ROWS - row) + 0.5);
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
                let y = M + S * f64::from(ROWS - row);
                let zone = row <= depth || row > ROWS - depth;
                let ground = if zone { "zone" } else { "ground" };
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
        sheet.text(w / 2.0, h - 10.0, 12.0, "label", &self.status(pos));
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

/// The class of a piece's text: its team, and `down` when it is.
fn class(pos: &Position, id: PieceId) -> String {
    let down = if pos.piece(id).down { " down" } else { "" };
    format!("t{}{down}", id.team() as usize)
}

fn content(sheet: &mut Sheet, pos: &Position, sq: Sq, cx: f64, cy: f64) {
    if let Some(st) = pos.stacks.at(sq) {
        let sep = if st.top.team() == st.bottom.team() {
            "="
        } else {
            "/"
        };
        sheet.text(cx, cy - 11.0, 13.0, &class(pos, st.top), &piece_text(pos, st.top));
        sheet.text(cx, cy + 1.0, 10.0, "mark", sep);
        sheet.text(
            cx,
            cy + 12.0,
            13.0,
            &class(pos, st.bottom),
            &piece_text(pos, st.bottom),
        );
    } else if let Some(id) = pos.piece_at(sq) {
        let text = piece_text(pos, id);
        match text.strip_suffix('●') {
            Some(head) => {
                sheet.text(cx, cy - 5.0, 16.0, &class(pos, id), head);
                sheet.text(cx, cy + 12.0, 13.0, "ball", "●");
            }
            None => sheet.text(cx, cy, 16.0, &class(pos, id), &text),
        }
    } else if pos.loose_ball() == Some(sq) {
        sheet.text(cx, cy, 20.0, "ball", "●");
    }
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
        assert!(svg.contains("X5"), "the ball carrier is drawn");
        for s in Sq::all() {
            assert_eq!(game.cell_named(&game.cell_name(s)), Some(s));
        }
    }
}
