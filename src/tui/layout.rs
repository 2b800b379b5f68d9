//! Where everything is on screen, and the reverse: what a mouse click
//! lands on. Both come from one [`layout`], a pure function of the
//! terminal size and the app, so a click always means what is drawn.
//!
//! The screen: a status line; the game's board on the left (its legend
//! under it when there is room); on the right the game's own panel if it
//! has one, the choices (prompt, the action that waits, the options) and
//! the log; the message and key lines at the bottom. Dialogs and the
//! game's overlay are drawn over the middle.

use ratatui::layout::Rect;

use super::app::{App, Dialog};
use super::board::Board;
use super::draw;

/// Log lines kept however many choices there are.
const LOG_MIN: u16 = 5;

/// The smallest screen the board is drawn on.
pub fn min_size<G: Board>(game: &G) -> (u16, u16) {
    let (w, h) = game.min_board();
    (w + game.panel_min(), h + 3)
}

#[derive(Clone, Debug, Default)]
pub struct Screen {
    pub area: Rect,
    pub too_small: bool,
    pub status: Rect,
    pub board: Rect,
    pub legend: Option<Rect>,
    pub side: Option<Rect>,
    pub choices: Rect,
    /// One line per listed choice: where it is, and its index.
    pub options: Vec<(Rect, usize)>,
    pub log: Rect,
    pub footer: Rect,
    pub overlay: Option<Rect>,
    /// Lines of the overlay that stand for a choice, with its label.
    pub overlay_items: Vec<(Rect, String)>,
    pub dialog: Option<Rect>,
}

/// What a mouse click lands on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hit<C> {
    Cell(C),
    Option(usize),
    Item(String),
}

pub fn layout<G: Board>(area: Rect, app: &App<G>) -> Screen {
    let game = app.session().game();
    let (min_w, min_h) = min_size(game);
    let mut s = Screen {
        area,
        too_small: area.width < min_w || area.height < min_h,
        ..Screen::default()
    };
    if s.too_small {
        return s;
    }
    let (x0, y0, w, h) = (area.x, area.y, area.width, area.height);
    let middle = h - 3;
    s.status = Rect::new(x0, y0, w, 1);
    s.footer = Rect::new(x0, y0 + h - 2, w, 2);
    let room = w - game.panel_min();
    let (bw, bh) = game.board_size(room, middle);
    let (bw, bh) = (bw.min(room), bh.min(middle));
    s.board = Rect::new(x0, y0 + 1, bw, bh);
    let legend = game.legend().len() as u16;
    if legend > 0 && middle >= bh + legend {
        s.legend = Some(Rect::new(x0, y0 + 1 + bh, bw, middle - bh));
    }
    let (px, pw) = (x0 + bw, w - bw);
    let inner_w = pw.saturating_sub(2);
    let view = app.view();
    let side = game.side_panel(&view, inner_w).len() as u16;
    let side_h = if side > 0 {
        (side + 2).min(middle / 2)
    } else {
        0
    };
    if side_h > 0 {
        s.side = Some(Rect::new(px, y0 + 1, pw, side_h));
    }
    let rest = middle - side_h;
    let head = draw::choice_head(app, inner_w as usize).len() as u16;
    let n_opts = app.session().options().len() as u16;
    let room = rest.saturating_sub(LOG_MIN + 2 + 2 + head);
    let shown = n_opts.min(room);
    let choose_h = (2 + head + shown).min(rest.saturating_sub(3));
    let cy = y0 + 1 + side_h;
    s.choices = Rect::new(px, cy, pw, choose_h);
    let listed = if shown < n_opts {
        shown.saturating_sub(1)
    } else {
        shown
    };
    for i in 0..listed {
        let y = cy + 1 + head + i;
        if y + 1 < cy + choose_h {
            s.options
                .push((Rect::new(px + 1, y, inner_w, 1), i as usize));
        }
    }
    s.log = Rect::new(px, cy + choose_h, pw, rest - choose_h);
    if let Some(panel) = game.overlay(&view) {
        let ow = panel.width.min(w);
        let oh = (panel.lines.len() as u16 + 2).min(middle);
        let r = Rect::new(x0 + (w - ow) / 2, y0 + 1 + (middle - oh) / 2, ow, oh);
        s.overlay = Some(r);
        for (line, label) in panel.items {
            let y = r.y + 1 + line as u16;
            if y + 1 < r.y + r.height {
                s.overlay_items
                    .push((Rect::new(r.x + 1, y, r.width.saturating_sub(2), 1), label));
            }
        }
    }
    if let Some(d) = app.dialog() {
        let (dw, dh) = dialog_size(app, d, w);
        let (dw, dh) = (dw.min(w), dh.min(middle));
        s.dialog = Some(Rect::new(
            x0 + (w - dw) / 2,
            y0 + 1 + (middle - dh) / 2,
            dw,
            dh,
        ));
    }
    s
}

fn dialog_size<G: Board>(app: &App<G>, d: &Dialog, w: u16) -> (u16, u16) {
    match d {
        Dialog::Help => {
            let lines = draw::help_lines(app.session().game());
            let dw = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 4;
            (dw, lines.len() as u16 + 2)
        }
        Dialog::Save { .. } => (60, 6),
        Dialog::ConfirmQuit => (46, 5),
        Dialog::Notice { lines, .. } => {
            let dw = w.saturating_sub(4).clamp(20, 76);
            let n: usize = lines
                .iter()
                .map(|l| super::text::wrap(l, dw as usize - 4, 0).len())
                .sum();
            (dw, n as u16 + 2)
        }
    }
}

/// What is under the screen cell (x, y).
pub fn hit<G: Board>(screen: &Screen, app: &App<G>, x: u16, y: u16) -> Option<Hit<G::Cell>> {
    if screen.too_small || screen.dialog.is_some() {
        return None;
    }
    let inside = |r: &Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
    if let Some(o) = screen.overlay
        && inside(&o)
    {
        return screen
            .overlay_items
            .iter()
            .find(|(r, _)| inside(r))
            .map(|(_, l)| Hit::Item(l.clone()));
    }
    if let Some(&(_, i)) = screen.options.iter().find(|(r, _)| inside(r)) {
        return Some(Hit::Option(i));
    }
    if inside(&screen.board) {
        return app
            .session()
            .game()
            .cell_at(screen.board, x, y)
            .map(Hit::Cell);
    }
    None
}
