//! BALL's board in the terminal (`tui::Board`): its squares
//! (`squares.rs`) and its card menu (`cards.rs`). The flow, the log,
//! undo, save and replay are the shell's; the choices are `flow.rs`'s.

pub mod cards;
pub mod squares;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::Ball;
use super::board::{ROWS, Sq};
use super::piece::Team;
use super::position::{Phase, Position};
use crate::shell::Key;
use crate::tui::{Board, Panel, View};
use squares::Geometry;

impl Board for Ball {
    fn min_board(&self) -> (u16, u16) {
        squares::size(0, 0)
    }

    /// A column narrower than the default: the board took it for column
    /// M's longest labels, and BALL still fits 79 × 23.
    fn panel_min(&self) -> u16 {
        19
    }

    fn board_size(&self, w: u16, h: u16) -> (u16, u16) {
        squares::size(w, h)
    }

    fn draw_board(&self, view: &View<'_, Ball>, area: Rect, buf: &mut Buffer) {
        squares::draw(view, area, buf);
    }

    fn cell_at(&self, area: Rect, x: u16, y: u16) -> Option<Sq> {
        Geometry::of(area).square_at(x, y)
    }

    fn cell_place(&self, area: Rect, sq: Sq) -> Option<(u16, u16)> {
        let c = sq.coord();
        (c.row <= ROWS).then(|| Geometry::of(area).cell(c.col, c.row))
    }

    fn status(&self, pos: &Position) -> String {
        // The AP of the action phase, or the release phase (no AP).
        let phase = match pos.phase {
            Phase::Action => format!("AP {}", pos.ap),
            Phase::Release => "release".to_string(),
        };
        let (a, d) = (pos.score[Team::Atk as usize], pos.score[Team::Def as usize]);
        let mut s = format!(
            "turn {}/{} · {phase} · ATK {a} - DEF {d}",
            pos.turn, self.params.turn_limit
        );
        if self.card_mode() {
            s.push_str(&format!(
                " · EP ATK {} DEF {}",
                pos.ep[Team::Atk as usize],
                pos.ep[Team::Def as usize]
            ));
        }
        s
    }

    fn legend(&self) -> Vec<String> {
        squares::LEGEND.map(str::to_string).to_vec()
    }

    fn overlay(&self, view: &View<'_, Ball>) -> Option<Panel> {
        cards::overlay(view)
    }

    fn describe_cell(&self, pos: &Position, sq: Sq) -> String {
        squares::describe(pos, sq)
    }

    fn cursor_start(&self) -> Option<Sq> {
        Sq::parse("G9").ok()
    }

    fn cursor_move(&self, sq: Sq, key: Key) -> Option<Sq> {
        squares::cursor_move(sq, key)
    }

    fn help(&self) -> Vec<String> {
        let mut v: Vec<String> = [
            "BALL (B13): a piece, what it does, then the squares",
            "1-7             the piece of that number",
            "then 1 move 2 dodge 3 tdodge 4 block 5 protect",
            "     6 handoff 7 spass 8 lpass 9 standup 0 release",
            "then the squares: on the board ([ ]), Tab, click",
            "a keeper: 1 your piece, 2 the other",
            "e               end the action phase (B4.3)",
            "arrows or hjkl  move the cursor (menus: up/down)",
        ]
        .map(str::to_string)
        .to_vec();
        if self.card_mode() {
            v.push("c               card mode: play a card (B11.6)".into());
            v.push("  then its number; a target piece by its number".into());
            v.push("v               convert AP into EP (B11.4)".into());
        }
        v
    }
}
