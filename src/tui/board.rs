//! What a game supplies to the terminal board: the drawing of its board
//! area (and any panel of its own), where its cells are on screen, a few
//! words for the status line and the footer, and its keys for the help
//! screen. Everything else — the flow, the log, undo, save, replay,
//! dialogs, bots — is the shell's, written once.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::shell::{Choice, Flow, Key, Session};

/// What the game's drawing is given: the session and what the board
/// shows of its flow.
pub struct View<'a, G: Flow> {
    pub session: &'a Session<G>,
    /// The highlighted entry of the offered choices.
    pub highlighted: Option<usize>,
    /// The board cursor, for games that have one.
    pub cursor: Option<G::Cell>,
    /// Who looks: a panel that names the players says "you" only for
    /// the viewer's own seat.
    pub viewer: crate::shell::Viewer,
}

impl<G: Flow> View<'_, G> {
    pub fn options(&self) -> &[Choice<G::Cell>] {
        self.session.options()
    }

    /// Cells that may be chosen now.
    pub fn option_cells(&self) -> Vec<G::Cell> {
        self.options().iter().filter_map(|c| c.cell).collect()
    }

    /// Cells of the choices made so far, in order.
    pub fn chosen_cells(&self) -> Vec<G::Cell> {
        self.session
            .chosen()
            .iter()
            .filter_map(|c| c.cell)
            .collect()
    }

    /// Cells of the last action played, so that a bot's move can be
    /// followed.
    pub fn last_cells(&self) -> Vec<G::Cell> {
        match self.session.played().last() {
            Some(p) => self
                .session
                .choices_of(&p.before, p.action)
                .into_iter()
                .filter_map(|c| c.cell)
                .collect(),
            None => Vec::new(),
        }
    }

    /// In a menu step, the cells of the step after the highlighted
    /// choice (BALL: the destinations of the highlighted kind of action).
    pub fn cells_after_highlighted(&self) -> Vec<G::Cell> {
        let Some(c) = self.highlighted.and_then(|i| self.options().get(i)) else {
            return Vec::new();
        };
        let mut prefix = self.session.chosen().to_vec();
        prefix.push(c.clone());
        self.session
            .chooser()
            .options_after(&prefix)
            .into_iter()
            .filter_map(|c| c.cell)
            .collect()
    }

    /// The highlighted choice's cell.
    pub fn highlighted_cell(&self) -> Option<G::Cell> {
        self.highlighted
            .and_then(|i| self.options().get(i))
            .and_then(|c| c.cell)
    }
}

/// A panel of the game's own drawn over the board (BALL's card menu),
/// with the lines a click chooses from.
pub struct Panel {
    pub title: String,
    pub width: u16,
    pub lines: Vec<Line<'static>>,
    /// (line index, choice label): a click on the line makes the choice.
    pub items: Vec<(usize, String)>,
}

/// A game's board in the terminal; implemented in the game's folder
/// (`terminal/`).
pub trait Board: Flow {
    /// The smallest board area, border included.
    fn min_board(&self) -> (u16, u16);

    /// The narrowest right-hand panel (border included) that shows this
    /// game's choices and log.
    fn panel_min(&self) -> u16 {
        20
    }

    /// The board area it takes in a room of `w` × `h` (at least the
    /// smallest): a larger terminal may get larger squares.
    fn board_size(&self, w: u16, h: u16) -> (u16, u16);

    /// Draws the board in `area`, sized by [`Board::board_size`].
    fn draw_board(&self, view: &View<'_, Self>, area: Rect, buf: &mut Buffer);

    /// The cell drawn under the screen cell (x, y) of a board in `area`.
    fn cell_at(&self, area: Rect, x: u16, y: u16) -> Option<Self::Cell>;

    /// Where `cell` is drawn in a board in `area`: its first screen cell.
    fn cell_place(&self, area: Rect, cell: Self::Cell) -> Option<(u16, u16)>;

    /// The status line's facts after the seat and the ruleset: turn,
    /// phase, score. Its turn is [`Board::turn_text`]'s.
    fn status(&self, pos: &Self::Position) -> String;

    /// The turn as the game's rulebook numbers it (`turn 7`), for the log's
    /// headers and the status line, so that both say the same; after the
    /// end, the game-over line's words on its length. `Game::turn` by
    /// default; G-ball numbers turns within a point (G4.6) and counts a
    /// match's turns (G3.6), which its `Game::turn` is for.
    fn turn_text(&self, pos: &Self::Position) -> String {
        format!("turn {}", self.turn(pos))
    }

    /// Lines under the board, when there is room: what the glyphs mean.
    fn legend(&self) -> Vec<String> {
        Vec::new()
    }

    /// Lines of a panel above the choices (Gateball: the position's
    /// facts); empty for none.
    fn side_panel(&self, _view: &View<'_, Self>, _width: u16) -> Vec<Line<'static>> {
        Vec::new()
    }

    /// A panel over the board (BALL: the card menu while a card is
    /// chosen).
    fn overlay(&self, _view: &View<'_, Self>) -> Option<Panel> {
        None
    }

    /// One line about a cell: what is on it.
    fn describe_cell(&self, pos: &Self::Position, cell: Self::Cell) -> String;

    /// Where the cursor starts, for a game with a cursor.
    fn cursor_start(&self) -> Option<Self::Cell> {
        None
    }

    /// The cursor moved one cell by an arrow key; `None` off the board.
    fn cursor_move(&self, _cell: Self::Cell, _key: Key) -> Option<Self::Cell> {
        None
    }

    /// The game's own lines of the help screen: how its flow goes.
    fn help(&self) -> Vec<String>;
}
