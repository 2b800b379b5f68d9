//! Gateball's board in the terminal (`tui::Board`): the court
//! (`court.rs`) and the panel of the position's facts (`info.rs`). The
//! flow, the log, undo, save and replay are the shell's; the choices are
//! `flow.rs`'s.

pub mod court;
pub mod info;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::Gateball;
use super::position::{Position, Team};
use super::space::Space;
use crate::tui::{Board, View};
use court::Geometry;

impl Board for Gateball {
    fn min_board(&self) -> (u16, u16) {
        (court::width(&self.court, 4), court::height(&self.court))
    }

    /// The position's facts need a little more than BALL's panel.
    fn panel_min(&self) -> u16 {
        26
    }

    fn board_size(&self, w: u16, _h: u16) -> (u16, u16) {
        court::size(&self.court, w)
    }

    fn draw_board(&self, view: &View<'_, Gateball>, area: Rect, buf: &mut Buffer) {
        court::draw(view, area, buf);
    }

    fn cell_at(&self, area: Rect, x: u16, y: u16) -> Option<Space> {
        Geometry::of(&self.court, area).space_at(x, y)
    }

    fn cell_place(&self, area: Rect, s: Space) -> Option<(u16, u16)> {
        self.court
            .on_board(s)
            .then(|| Geometry::of(&self.court, area).cell(s))
    }

    fn status(&self, pos: &Position) -> String {
        format!(
            "turn {}/{} · ball {} · phase {} · red {} - blue {}",
            pos.turn,
            self.rules.turns,
            pos.ball,
            pos.phase.name(),
            pos.score(Team::Red),
            pos.score(Team::Blue)
        )
    }

    fn side_panel(&self, view: &View<'_, Gateball>, width: u16) -> Vec<Line<'static>> {
        info::lines(view, width as usize)
    }

    fn describe_cell(&self, pos: &Position, s: Space) -> String {
        court::describe(self, pos, s)
    }

    fn help(&self) -> Vec<String> {
        [
            "Gateball (T4.3): the shot type, the dice roll, the move",
            "p / t           power (two dice) / tech (one die)",
            "e               end the play (continuation only)",
            "Start shot: the Start Space (Tab, click) first; a",
            "  direction or step key starts from the highlighted one",
            "Power: a direction, keypad digits (8 N, 9 NE, 6 E …)",
            "  or arrows; [ / ] the die of a diagonal",
            "Tech: arrows or 8 4 6 2 add a step",
            "click [ ]       a move ending there; again: play it",
            "Enter           play the action shown",
        ]
        .map(str::to_string)
        .to_vec()
    }
}
