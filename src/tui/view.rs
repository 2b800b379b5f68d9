//! Drawing the board, and the reverse: which square or menu entry a mouse
//! click lands on. Both come from one [`layout`], a pure function of the
//! terminal size and the app, so a click always means what is on screen.
//!
//! Everything a colour says is also said in text, for monochrome terminals
//! and for the text snapshots of the tests: `[ ]` around a square that may
//! be chosen, `( )` around what was chosen, `:` on an empty end-zone
//! square, a distinct glyph for a down piece, `●` for the ball.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::app::{App, Dialog, Level, Seat, result_text};
use crate::games::ball::board::{COLS, ROWS, Sq, is_playable};
use crate::games::ball::event::{Event, Taking};
use crate::games::ball::piece::{Kind, PieceId, Team};
use crate::games::ball::position::{Phase, Position};
use crate::kernel::grid::Coord;

/// Narrowest side panel (with its border) that still shows a prompt, a
/// menu and a few log lines.
const PANEL_MIN: u16 = 20;
/// Columns of row labels (`17 `), the board's border, and two columns on
/// the right for a label of column M to spill into.
const BOARD_FRAME: u16 = 7;
/// The smallest screen: a 4-column square, one line a row.
pub const MIN_WIDTH: u16 = COLS as u16 * 4 + BOARD_FRAME + PANEL_MIN;
pub const MIN_HEIGHT: u16 = ROWS as u16 + 3 + 3;

const ATK_FG: Color = Color::LightRed;
const DEF_FG: Color = Color::LightCyan;
const BALL_FG: Color = Color::Yellow;
const SQUARE_BG: Color = Color::Indexed(237);
const END_ZONE_BG: Color = Color::Indexed(58);
const OPTION_BG: Color = Color::Indexed(28);
const CHOSEN_BG: Color = Color::Indexed(130);
const LAST_BG: Color = Color::Indexed(24);

pub fn team_colour(team: Team) -> Color {
    match team {
        Team::Atk => ATK_FG,
        Team::Def => DEF_FG,
    }
}

/// Where the 13 × 17 squares are on screen: the top-left cell of column
/// A, row 17, and the size of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub x: u16,
    pub y: u16,
    /// Columns of one square (4 to 7).
    pub cw: u16,
    /// Lines of one square (1 or 2).
    pub ch: u16,
}

impl Geometry {
    /// The top-left screen cell of the square at column `col`, row `row`.
    pub fn cell(&self, col: u8, row: u8) -> (u16, u16) {
        (
            self.x + (col as u16 - 1) * self.cw,
            self.y + (ROWS - row) as u16 * self.ch,
        )
    }

    /// The playable square under a screen cell.
    pub fn square_at(&self, x: u16, y: u16) -> Option<Sq> {
        if x < self.x || y < self.y {
            return None;
        }
        let col = (x - self.x) / self.cw + 1;
        let line = (y - self.y) / self.ch;
        if col > COLS as u16 || line >= ROWS as u16 {
            return None;
        }
        let (col, row) = (col as u8, ROWS - line as u8);
        if !is_playable(col, row) {
            return None;
        }
        Sq::from_coord(Coord { col, row })
    }
}

/// The screen's parts for one size and state.
#[derive(Clone, Debug)]
pub struct Screen {
    pub area: Rect,
    pub too_small: bool,
    pub status: Rect,
    pub board_block: Rect,
    pub board: Geometry,
    pub legend: Option<Rect>,
    pub choose_block: Rect,
    /// One line per listed option: where it is, and its index.
    pub options: Vec<(Rect, usize)>,
    pub log_block: Rect,
    pub footer: Rect,
    pub dialog: Option<Rect>,
    pub dialog_items: Vec<(Rect, usize)>,
}

/// What a mouse click lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    Square(Sq),
    Option(usize),
    DialogItem(usize),
}

pub fn layout(area: Rect, app: &App) -> Screen {
    let too_small = area.width < MIN_WIDTH || area.height < MIN_HEIGHT;
    let mut s = Screen {
        area,
        too_small,
        status: Rect::default(),
        board_block: Rect::default(),
        board: Geometry {
            x: 0,
            y: 0,
            cw: 4,
            ch: 1,
        },
        legend: None,
        choose_block: Rect::default(),
        options: Vec::new(),
        log_block: Rect::default(),
        footer: Rect::default(),
        dialog: None,
        dialog_items: Vec::new(),
    };
    if too_small {
        return s;
    }
    let (x0, y0, w, h) = (area.x, area.y, area.width, area.height);
    s.status = Rect::new(x0, y0, w, 1);
    s.footer = Rect::new(x0, y0 + h - 2, w, 2);
    let middle = h - 3;
    let cw = (4..=7u16)
        .rev()
        .find(|cw| COLS as u16 * cw + BOARD_FRAME + PANEL_MIN <= w)
        .unwrap_or(4);
    let ch = if cw >= 5 && middle >= ROWS as u16 * 2 + 3 {
        2
    } else {
        1
    };
    let bw = COLS as u16 * cw + BOARD_FRAME;
    let bh = ROWS as u16 * ch + 3;
    s.board_block = Rect::new(x0, y0 + 1, bw, bh);
    s.board = Geometry {
        x: x0 + 1 + 3,
        y: y0 + 1 + 2,
        cw,
        ch,
    };
    if middle >= bh + 4 {
        s.legend = Some(Rect::new(x0, y0 + 1 + bh, bw, middle - bh));
    }
    // The panel: the choice (prompt and options) above, the log below.
    let (px, pw) = (x0 + bw, w - bw);
    let inner_w = pw.saturating_sub(2) as usize;
    let prompt_lines = wrap(&app.prompt(), inner_w, 0).len() as u16;
    let n_opts = if app.human_to_move() {
        app.options().len() as u16
    } else {
        0
    };
    let log_min = 6;
    let room = middle.saturating_sub(log_min + 2 + prompt_lines);
    let shown = n_opts.min(room);
    let choose_h = (2 + prompt_lines + shown).min(middle - 3);
    s.choose_block = Rect::new(px, y0 + 1, pw, choose_h);
    let first = y0 + 2 + prompt_lines;
    let listed = if shown < n_opts {
        shown.saturating_sub(1)
    } else {
        shown
    };
    for i in 0..listed {
        s.options
            .push((Rect::new(px + 1, first + i, pw - 2, 1), i as usize));
    }
    s.log_block = Rect::new(px, y0 + 1 + choose_h, pw, middle - choose_h);
    if let Some(d) = app.dialog() {
        let (dw, dh, items) = dialog_size(app, d);
        let dw = dw.min(w);
        let dh = dh.min(middle);
        let r = Rect::new(x0 + (w - dw) / 2, y0 + 1 + (middle - dh) / 2, dw, dh);
        s.dialog = Some(r);
        for i in 0..items.min(dh.saturating_sub(3)) {
            s.dialog_items
                .push((Rect::new(r.x + 1, r.y + 2 + i, r.width - 2, 1), i as usize));
        }
    }
    s
}

/// What is under the screen cell (x, y).
pub fn hit(screen: &Screen, x: u16, y: u16) -> Option<Hit> {
    if screen.too_small {
        return None;
    }
    let inside = |r: &Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
    if let Some(d) = screen.dialog {
        return screen
            .dialog_items
            .iter()
            .find(|(r, _)| inside(r))
            .map(|&(_, i)| Hit::DialogItem(i))
            .filter(|_| inside(&d));
    }
    if let Some(&(_, i)) = screen.options.iter().find(|(r, _)| inside(r)) {
        return Some(Hit::Option(i));
    }
    screen.board.square_at(x, y).map(Hit::Square)
}

pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let screen = layout(area, app);
    let buf = frame.buffer_mut();
    if screen.too_small {
        return draw_too_small(buf, area, app);
    }
    draw_status(buf, screen.status, app);
    draw_board(buf, &screen, app);
    if let Some(r) = screen.legend {
        draw_legend(buf, r);
    }
    draw_choose(buf, &screen, app);
    draw_log(buf, screen.log_block, app);
    draw_footer(buf, screen.footer, app);
    if let (Some(r), Some(d)) = (screen.dialog, app.dialog()) {
        draw_dialog(frame, r, app, d);
    }
}

fn draw_too_small(buf: &mut Buffer, area: Rect, app: &App) {
    let mut lines = vec![
        format!("Terminal too small: {}x{}.", area.width, area.height),
        format!("The board needs {MIN_WIDTH}x{MIN_HEIGHT}."),
        "Enlarge the window; the game waits.".to_string(),
        "q quits.".to_string(),
    ];
    if app.dialog() == Some(&Dialog::ConfirmQuit) {
        lines.push("Unsaved: y quits, n stays.".into());
    }
    warning_lines(buf, area, &lines);
}

/// The too-small screen's lines, one a row from the top, cut to the
/// area: both boards show it when the terminal cannot hold them.
pub fn warning_lines(buf: &mut Buffer, area: Rect, lines: &[String]) {
    for (i, line) in lines.iter().enumerate() {
        let y = area.y + i as u16;
        if y >= area.y + area.height {
            break;
        }
        buf.set_stringn(
            area.x,
            y,
            line,
            area.width as usize,
            Style::default().fg(Color::Yellow),
        );
    }
}

fn draw_status(buf: &mut Buffer, r: Rect, app: &App) {
    let pos = app.position();
    let team = pos.to_move;
    let mut spans = Vec::new();
    if app.is_replay() {
        let n = app.history().played().len();
        let total = n + app.history().redo_list().count();
        spans.push(Span::styled(
            format!(" REPLAY {n}/{total} "),
            Style::default().add_modifier(Modifier::REVERSED),
        ));
        spans.push(Span::raw(" "));
    }
    let (a, d) = (pos.score[Team::Atk as usize], pos.score[Team::Def as usize]);
    if let Some(outcome) = pos.outcome {
        spans.push(Span::styled(
            " GAME OVER ",
            Style::default()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(
            " {} · turn {}",
            result_text(outcome, pos.score),
            pos.turn
        )));
    } else {
        let who = match app.seat(team) {
            Seat::Human if app.is_replay() => String::new(),
            Seat::Human => " (you)".into(),
            Seat::Bot(spec) => format!(" ({spec})"),
        };
        spans.push(Span::styled(
            format!(" {team} to play{who} "),
            Style::default()
                .fg(Color::Black)
                .bg(team_colour(team))
                .add_modifier(Modifier::BOLD),
        ));
        let phase = match pos.phase {
            Phase::Action => "action",
            Phase::Release => "release",
        };
        let limit = app.history().game().params.turn_limit;
        spans.push(Span::raw(format!(
            " turn {}/{limit} · {phase} · AP {} · ATK {a} - DEF {d}",
            pos.turn, pos.ap
        )));
        if app.card_mode() {
            spans.push(Span::raw(format!(
                " · EP ATK {} DEF {}",
                pos.ep[Team::Atk as usize],
                pos.ep[Team::Def as usize]
            )));
        }
    }
    buf.set_line(r.x, r.y, &Line::from(spans), r.width);
}

/// The glyph of a piece: its kind, rotated when it is down (B2.3).
pub fn glyph(kind: Kind, down: bool) -> char {
    match (kind, down) {
        (Kind::X, false) => 'X',
        (Kind::X, true) => '+',
        (Kind::O, false) => 'O',
        (Kind::O, true) => '⊖',
        (Kind::Square, false) => '□',
        (Kind::Square, true) => '◇',
    }
}

/// A square's content: a piece (glyph, number, `●` if it holds the
/// ball), a stack (top, `/` or `●`, bottom), the loose ball, or the
/// empty-square mark.
fn content(pos: &Position, sq: Sq, end_zone: bool, reception: bool) -> Vec<Span<'static>> {
    let piece = |id: PieceId| {
        let p = pos.piece(id);
        let mut style = Style::default().fg(team_colour(id.team()));
        style = if p.down {
            style.add_modifier(Modifier::ITALIC)
        } else {
            style.add_modifier(Modifier::BOLD)
        };
        if p.restricted {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        Span::styled(format!("{}{}", glyph(p.kind, p.down), id.number()), style)
    };
    let ball = Span::styled(
        "●",
        Style::default().fg(BALL_FG).add_modifier(Modifier::BOLD),
    );
    if let Some(st) = pos.stacks.at(sq) {
        let mut v = vec![piece(st.top)];
        if pos.holder() == Some(st.top) {
            v.push(ball.clone());
        } else {
            v.push(Span::styled("/", Style::default().fg(Color::Gray)));
        }
        v.push(piece(st.bottom));
        if pos.holder() == Some(st.bottom) {
            v.push(ball);
        }
        return v;
    }
    if let Some(id) = pos.piece_at(sq) {
        let mut v = vec![piece(id)];
        if pos.holder() == Some(id) {
            v.push(ball);
        }
        return v;
    }
    if pos.loose_ball() == Some(sq) {
        return vec![ball];
    }
    if reception {
        return vec![Span::styled("∘", Style::default().fg(BALL_FG))];
    }
    let mark = if end_zone { ":" } else { "·" };
    vec![Span::styled(mark, Style::default().fg(Color::Gray))]
}

fn draw_board(buf: &mut Buffer, screen: &Screen, app: &App) {
    let pos = app.position();
    let g = screen.board;
    let depth = app.history().game().params.end_zone_depth;
    let frame = Block::bordered().title(Line::from(vec![Span::raw(format!(
        " rows {}-{ROWS}: ATK scores ",
        ROWS - depth + 1
    ))]));
    let inner = frame.inner(screen.board_block);
    ratatui::widgets::Widget::render(frame, screen.board_block, buf);
    let bottom_title = format!(" rows 1-{depth}: DEF scores ");
    let bb = screen.board_block;
    if bb.width as usize > bottom_title.len() + 2 {
        buf.set_string(
            bb.x + 1,
            bb.y + bb.height - 1,
            bottom_title,
            Style::default(),
        );
    }
    let label = Style::default().fg(Color::Gray);
    for col in 1..=COLS {
        let (x, _) = g.cell(col, ROWS);
        buf.set_string(
            x + 1,
            inner.y,
            ((b'A' + col - 1) as char).to_string(),
            label,
        );
    }
    let highlighted = app.highlighted();
    let chosen = app.chosen_squares();
    let last = app.last_squares();
    let reception = app.reception_square();
    let cursor = app.cursor();
    let show_cursor = !app.is_replay();
    for row in (1..=ROWS).rev() {
        let (_, y) = g.cell(1, row);
        buf.set_string(inner.x, y, format!("{row:>2}"), label);
        for col in 1..=COLS {
            if !is_playable(col, row) {
                continue;
            }
            let sq = Sq::from_coord(Coord { col, row }).expect("playable");
            let end_zone = row <= depth || row > ROWS - depth;
            let (x, y) = g.cell(col, row);
            let is_option = highlighted & sq.bit() != 0;
            let is_chosen = chosen.contains(&sq);
            let bg = if is_chosen {
                CHOSEN_BG
            } else if is_option {
                OPTION_BG
            } else if last.contains(&sq) {
                LAST_BG
            } else if end_zone {
                END_ZONE_BG
            } else {
                SQUARE_BG
            };
            let mut cell_style = Style::default().bg(bg);
            if show_cursor && sq == cursor {
                cell_style = cell_style.add_modifier(Modifier::REVERSED);
            }
            buf.set_style(Rect::new(x, y, g.cw, g.ch), cell_style);
            let (open, close) = if is_chosen {
                ("(", ")")
            } else if is_option {
                ("[", "]")
            } else {
                (" ", " ")
            };
            let mut spans = vec![Span::raw(open)];
            spans.extend(content(pos, sq, end_zone, reception == Some(sq)));
            let width: usize = spans.iter().map(|s| s.width()).sum();
            // A label may spill into the unplayable square to its right,
            // never into the next playable one.
            let room = if col == COLS {
                g.cw as usize + 2
            } else {
                2 * g.cw as usize - 1
            };
            if width < room {
                spans.push(Span::raw(close));
            }
            let mut line = Line::from(spans);
            line.spans
                .iter_mut()
                .for_each(|s| s.style = cell_style.patch(s.style));
            buf.set_line(x, y, &line, room as u16);
        }
    }
}

fn draw_legend(buf: &mut Buffer, r: Rect) {
    let lines = [
        "X O □ pieces, + ⊖ ◇ down · ● ball",
        "X3/O2 stack (top/bottom) · : end zone · ∘ pass received",
        "[ ] can be chosen · ( ) chosen",
    ];
    for (i, l) in lines.iter().enumerate() {
        if (i as u16) < r.height {
            buf.set_stringn(
                r.x + 1,
                r.y + i as u16,
                l,
                r.width as usize - 1,
                Style::default().fg(Color::Gray),
            );
        }
    }
}

fn draw_choose(buf: &mut Buffer, screen: &Screen, app: &App) {
    let r = screen.choose_block;
    let pos = app.position();
    let team = pos.to_move;
    let title = match app.seat(team) {
        _ if app.is_replay() => " replay ".to_string(),
        Seat::Human => format!(" {team} "),
        Seat::Bot(spec) => format!(" {team}: {spec} bot "),
    };
    let block = Block::bordered().title(Span::styled(
        title,
        Style::default()
            .fg(team_colour(team))
            .add_modifier(Modifier::BOLD),
    ));
    let inner = block.inner(r);
    ratatui::widgets::Widget::render(block, r, buf);
    let w = inner.width as usize;
    let bold = Style::default().add_modifier(Modifier::BOLD);
    for (y, line) in (inner.y..).zip(wrap(&app.prompt(), w, 0)) {
        buf.set_stringn(inner.x, y, line, w, bold);
    }
    let opts = app.options();
    let menu = app.menu_step();
    for &(rect, i) in &screen.options {
        let Some(&c) = opts.get(i) else { continue };
        let key = if i < 9 {
            format!("{} ", i + 1)
        } else {
            "  ".into()
        };
        let mut style = Style::default();
        if menu && i == app.menu_index() {
            style = style.add_modifier(Modifier::REVERSED);
        }
        if !menu && app.square_of(c) == Some(app.cursor()) {
            style = style.add_modifier(Modifier::BOLD);
        }
        let pointer = if menu && i == app.menu_index() {
            "›"
        } else {
            " "
        };
        let mut text = format!("{pointer}{key}{}", app.option_label(c));
        if let Some(gloss) = app.option_gloss(c)
            && text.chars().count() + 1 + gloss.chars().count() <= w
        {
            text = format!("{text} {gloss}");
        }
        buf.set_stringn(rect.x, rect.y, text, w, style);
    }
    let listed = screen.options.len();
    if listed < opts.len() && app.human_to_move() {
        let y = inner.y + inner.height - 1;
        buf.set_stringn(
            inner.x,
            y,
            format!("  … {} more (Tab)", opts.len() - listed),
            w,
            Style::default().fg(Color::Gray),
        );
    }
}

/// One line of the log, before wrapping.
struct LogLine {
    text: String,
    style: Style,
    indent: usize,
}

fn log_lines(app: &App) -> (Vec<LogLine>, usize) {
    let mut out = Vec::new();
    let header = |pos: &Position| LogLine {
        text: format!("turn {} · {}", pos.turn, pos.to_move),
        style: Style::default()
            .fg(team_colour(pos.to_move))
            .add_modifier(Modifier::BOLD),
        indent: 0,
    };
    let mut last: Option<(u16, Team)> = None;
    let mut current = 0;
    let played = app.history().played();
    for (i, p) in played.iter().enumerate() {
        let key = (p.before.turn, p.before.to_move);
        if last != Some(key) {
            out.push(header(&p.before));
            last = Some(key);
        }
        // In a replay, `▸` marks the action just stepped to.
        let (text, indent) = if app.is_replay() && i + 1 == played.len() {
            (format!("▸{}", p.action), 0)
        } else {
            (p.action.to_string(), 1)
        };
        out.push(LogLine {
            text,
            style: Style::default().fg(team_colour(p.before.to_move)),
            indent,
        });
        for e in &p.events {
            if let Some((text, style)) = event_line(e) {
                out.push(LogLine {
                    text,
                    style,
                    indent: 3,
                });
            }
        }
        current = out.len();
    }
    let pos = app.position();
    if !pos.is_over() && last != Some((pos.turn, pos.to_move)) {
        out.push(header(pos));
        last = Some((pos.turn, pos.to_move));
        current = out.len();
    }
    if app.is_replay() {
        // The rest of the record, dimmed: where the replay is going.
        let mut before = *pos;
        let game = app.history().game();
        let dim = Style::default().fg(Color::DarkGray);
        for &a in app.history().redo_list() {
            let key = (before.turn, before.to_move);
            if last != Some(key) {
                out.push(LogLine {
                    style: dim,
                    ..header(&before)
                });
                last = Some(key);
            }
            out.push(LogLine {
                text: a.to_string(),
                style: dim,
                indent: 1,
            });
            if game.play(&mut before, a, &mut ()).is_err() {
                break;
            }
        }
    }
    (out, current)
}

/// The events worth a log line: what the action's notation does not say.
fn event_line(e: &Event) -> Option<(String, Style)> {
    let dim = Style::default().fg(Color::Gray);
    let loud = Style::default().fg(BALL_FG).add_modifier(Modifier::BOLD);
    match e {
        Event::KnockedDown { .. } | Event::BallLoose { .. } => Some((e.to_string(), dim)),
        Event::BallTaken { how, .. } if !matches!(how, Taking::Handoff | Taking::Pass) => {
            Some((e.to_string(), dim))
        }
        Event::Touchdown { .. } | Event::GameOver { .. } => Some((e.to_string(), loud)),
        _ => None,
    }
}

fn draw_log(buf: &mut Buffer, r: Rect, app: &App) {
    let block = Block::bordered().title(" log ");
    let inner = block.inner(r);
    ratatui::widgets::Widget::render(block, r, buf);
    if inner.height == 0 || inner.width < 4 {
        return;
    }
    let w = inner.width as usize;
    let (entries, current) = log_lines(app);
    let mut lines: Vec<(String, Style)> = Vec::new();
    let mut current_line = 0;
    for (i, e) in entries.iter().enumerate() {
        for l in wrap(&e.text, w, e.indent) {
            lines.push((l, e.style));
        }
        if i + 1 == current {
            current_line = lines.len();
        }
    }
    let h = inner.height as usize;
    // The newest line at the bottom (in a replay: the current action,
    // with a little of what comes next), then scrolled back by the user.
    let end = if app.is_replay() {
        (current_line + h / 3)
            .min(lines.len())
            .max(h.min(lines.len()))
    } else {
        lines.len()
    };
    let end = end.saturating_sub(app.log_scroll()).max(h.min(end));
    let start = end.saturating_sub(h);
    for (i, (text, style)) in lines[start..end].iter().enumerate() {
        buf.set_stringn(inner.x, inner.y + i as u16, text, w, *style);
    }
}

fn draw_footer(buf: &mut Buffer, r: Rect, app: &App) {
    let (text, style) = match app.message() {
        Some((Level::Error, m)) => (m.to_string(), Style::default().fg(Color::LightRed)),
        Some((Level::Info, m)) => (m.to_string(), Style::default().fg(Color::Yellow)),
        None if app.is_replay() => (app.prompt(), Style::default()),
        None => (app.describe_cursor(), Style::default()),
    };
    buf.set_stringn(r.x + 1, r.y, text, r.width as usize - 1, style);
    let variants: &[&str] = if app.is_replay() {
        &[
            "←/→ step · Home/End start/end · PgUp/PgDn log · ? help · q quit",
            "←/→ step · Home/End · ? help · q quit",
        ]
    } else if app.position().is_over() {
        &["u undo · s save · PgUp/PgDn log · ? help · q quit"]
    } else if !app.human_to_move() {
        &["the bot is playing · u undo · s save · ? help · q quit"]
    } else if app.menu_step() {
        &["↑/↓ or 1-9, Enter: choose · Backspace back · Esc cancel · ? help"]
    } else if app.position().phase == Phase::Release {
        &[
            "arrows/hjkl, Tab, Enter or click: choose · Esc cancel · u/r undo/redo · s save · ? help · q quit",
            "hjkl Tab Enter · Esc cancel · u/r undo/redo · s save · ? help · q quit",
        ]
    } else {
        &[
            "arrows/hjkl, Tab, Enter or click: choose · Esc cancel · e end · a more actions · u/r undo/redo · s save · ? help · q quit",
            "arrows/hjkl Tab Enter: choose · Esc cancel · e end · a more · u/r undo/redo · s save · ? help · q quit",
            "hjkl Tab Enter · Esc cancel · e end · a more · u/r undo/redo · s save · ? help · q quit",
            "hjkl Tab Enter · Esc · e end · a more · u undo · s save · ? keys · q quit",
        ]
    };
    // Card mode adds its key after `a`'s.
    let card_keys = app.card_mode() && app.human_to_move();
    let mut variants: Vec<String> = variants
        .iter()
        .map(|v| {
            if card_keys {
                v.replacen("a more actions", "a more actions · c cards", 1)
                    .replacen("a more ·", "a more · c cards ·", 1)
                    .replacen(" · u/r undo/redo", " · u/r undo", 1)
            } else {
                v.to_string()
            }
        })
        .collect();
    if card_keys && variants.len() > 1 {
        variants.push(
            "hjkl Tab Enter · Esc · e end · a more · c cards · u undo · ? keys · q quit".into(),
        );
    }
    let room = r.width as usize - 1;
    let keys = variants
        .iter()
        .find(|v| v.chars().count() <= room)
        .unwrap_or(&variants[variants.len() - 1]);
    buf.set_stringn(
        r.x + 1,
        r.y + 1,
        keys,
        room,
        Style::default().fg(Color::Gray),
    );
}

pub const HELP: &[&str] = &[
    "Choose a piece, an action, a destination, then",
    "any follow-up (exit, push, reception, keeper).",
    "Only legal choices are offered: [ ] on the board.",
    "arrows or hjkl  move the cursor (menus: up/down)",
    "Enter, Space    choose; or click with the mouse",
    "Tab, Shift-Tab  jump to the next/previous choice",
    "1-9             choose a listed option",
    "Esc             cancel the action in progress",
    "Backspace       take back the last choice",
    "e               end the action phase (B4.3)",
    "a               other actions (end, convert)",
    "c               card mode: the cards, convert AP",
    "u, r            undo, redo (a bot's reply too)",
    "s               save the match record",
    "PgUp, PgDn      scroll the log",
    "q, Ctrl-C       quit (asks if unsaved)",
    "Replay: ←/→ step · Home/End · q quit",
];

fn dialog_size(app: &App, d: &Dialog) -> (u16, u16, u16) {
    match d {
        Dialog::Help => (
            HELP.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 4,
            HELP.len() as u16 + 2,
            0,
        ),
        Dialog::Actions { .. } => {
            let n = (app.whole_actions().len() + usize::from(app.card_mode())) as u16;
            let w = app
                .whole_actions()
                .iter()
                .map(|a| a.to_string().len())
                .max()
                .unwrap_or(0) as u16;
            ((w + 8).max(40), n + 4, n)
        }
        Dialog::Cards { .. } => {
            let n = app.card_menu_len() as u16;
            let text = app
                .cards()
                .iter()
                .map(|c| wrap(&c.text, CARD_TEXT_WIDTH, 0).len())
                .max()
                .unwrap_or(1) as u16;
            (CARD_MENU_WIDTH, n + text + 5, n)
        }
        Dialog::Save { .. } => (60, 6, 0),
        Dialog::ConfirmQuit => (46, 5, 0),
    }
}

/// The card menu's width, and its rules text's (inside the border, one
/// space either side).
const CARD_MENU_WIDTH: u16 = 72;
const CARD_TEXT_WIDTH: usize = CARD_MENU_WIDTH as usize - 4;

/// The card menu (B11): the coach's cards, `✓` on the playable ones,
/// then the converts, then the highlighted card's rules text in full.
fn card_menu_lines(app: &App, selected: usize, confirm: bool) -> Vec<Line<'static>> {
    let hint = match app.card_menu_card() {
        Some(c) if confirm => format!(" Enter again plays {}; Esc does not", c.name),
        _ => " ✓ playable now · Enter plays · ↑/↓ · Esc closes".to_string(),
    };
    let mut v = vec![Line::styled(
        hint,
        Style::default().add_modifier(Modifier::BOLD),
    )];
    let key = |i: usize| {
        if i < 9 {
            format!("{}", i + 1)
        } else {
            " ".into()
        }
    };
    let pointer = |i: usize| if i == selected { "›" } else { " " };
    let cards = app.cards();
    for (i, c) in cards.iter().enumerate() {
        let playable = app.card_playable(c.id);
        let mark = if playable { "✓" } else { " " };
        let ap = if c.ap > 0 {
            format!(" {} AP", c.ap)
        } else {
            "     ".into()
        };
        let uses = app.uses_left(c).map_or(String::new(), |u| format!("  {u}"));
        let mut style = if playable {
            Style::default()
        } else {
            Style::default().fg(Color::DarkGray)
        };
        if i == selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        v.push(Line::styled(
            format!(
                "{}{} {mark} {:<16} {} EP{ap}{uses}",
                pointer(i),
                key(i),
                c.name,
                c.cost
            ),
            style,
        ));
    }
    for (j, a) in app.converts().iter().enumerate() {
        let i = cards.len() + j;
        let style = if i == selected {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        v.push(Line::styled(
            format!(
                "{}{} ✓ {:<16} AP into EP",
                pointer(i),
                key(i),
                a.to_string()
            ),
            style,
        ));
    }
    let rule = "─".repeat(CARD_TEXT_WIDTH + 2);
    v.push(Line::styled(rule, Style::default().fg(Color::Gray)));
    match app.card_menu_card() {
        Some(c) => {
            let mut head = format!("{} ({} EP", c.name, c.cost);
            if c.ap > 0 {
                head.push_str(&format!(", {} AP", c.ap));
            }
            head.push(')');
            if let Some(u) = app.uses_left(c) {
                head.push_str(&format!(" · {u}"));
            }
            v.push(Line::styled(
                format!(" {head}"),
                Style::default().add_modifier(Modifier::BOLD),
            ));
            for l in wrap(&c.text, CARD_TEXT_WIDTH, 0) {
                v.push(Line::from(format!(" {l}")));
            }
        }
        None => v.push(Line::from(
            " convert N: spend N AP of this turn to earn EP (B11)",
        )),
    }
    v
}

fn draw_dialog(frame: &mut Frame, r: Rect, app: &App, d: &Dialog) {
    frame.render_widget(Clear, r);
    let (title, lines): (&str, Vec<Line>) = match d {
        Dialog::Help => (
            " keys (any key closes) ",
            HELP.iter().map(|l| Line::from(format!(" {l}"))).collect(),
        ),
        Dialog::Actions { selected } => {
            let mut v = vec![Line::from(" Enter or 1-9 plays, Esc closes")];
            let actions = app.whole_actions();
            for (i, a) in actions.iter().enumerate() {
                v.push(numbered_line(i, *selected, &a.to_string()));
            }
            if app.card_mode() {
                v.push(numbered_line(actions.len(), *selected, "cards… (c)"));
            }
            (" other actions ", v)
        }
        Dialog::Cards { selected, confirm } => {
            let pos = app.position();
            let title = format!(
                " cards · {} has {} EP, {} AP ",
                pos.to_move, pos.ep[pos.to_move as usize], pos.ap
            );
            let block = Block::bordered().title(title);
            let lines = card_menu_lines(app, *selected, *confirm);
            frame.render_widget(Paragraph::new(lines).block(block), r);
            return;
        }
        Dialog::Save { path, .. } => (
            " save the match record ",
            vec![
                Line::from(" file:"),
                Line::from(format!(" {}█", tail(path, r.width as usize - 4))),
                Line::from(""),
                Line::from(" Enter saves · Esc cancels"),
            ],
        ),
        Dialog::ConfirmQuit => {
            let n = app.history().played().len();
            (
                " quit? ",
                vec![
                    Line::from(format!(" The game ({n} actions) is not saved.")),
                    Line::from(" y quit · s save first · n stay"),
                    Line::from(""),
                ],
            )
        }
    };
    let block = Block::bordered().title(title);
    frame.render_widget(Paragraph::new(lines).block(block), r);
}

/// The end of `text` that fits in `width` columns, `…` marking a cut: a
/// long path being typed shows where the typing is.
fn tail(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return text.to_string();
    }
    let keep: String = text.chars().skip(n + 1 - width.max(1)).collect();
    format!("…{keep}")
}

/// Word-wraps `text` to `width` columns. With an `indent`, the first line
/// is indented by it and the next ones by two more, so a long log entry
/// reads as one.
pub fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(indent + 4);
    let mut out = Vec::new();
    let mut line = " ".repeat(indent);
    let mut empty = true;
    for word in text.split(' ') {
        let wl = word.chars().count();
        let ll = line.chars().count();
        if !empty && ll + 1 + wl > width {
            out.push(std::mem::take(&mut line));
            line = " ".repeat(if indent > 0 { indent + 2 } else { 0 });
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push(line);
    out
}

/// One line of a numbered menu: its key (1-9, blank past 9), reversed
/// when selected.
fn numbered_line(i: usize, selected: usize, text: &str) -> Line<'static> {
    let style = if i == selected {
        Style::default().add_modifier(Modifier::REVERSED)
    } else {
        Style::default()
    };
    let key = if i < 9 {
        format!("{}", i + 1)
    } else {
        " ".into()
    };
    Line::styled(format!(" {key} {text}"), style)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_words_and_indents() {
        assert_eq!(wrap("move DEF3 H10", 21, 1), vec![" move DEF3 H10"]);
        assert_eq!(
            wrap("release DEF2 D10 F10 keep DEF2", 21, 1),
            vec![" release DEF2 D10 F10", "   keep DEF2"]
        );
    }

    #[test]
    fn squares_are_hit_where_they_are_drawn() {
        let g = Geometry {
            x: 4,
            y: 3,
            cw: 4,
            ch: 1,
        };
        let (x, y) = g.cell(7, 9);
        assert_eq!(g.square_at(x, y), Sq::parse("G9").ok());
        assert_eq!(g.square_at(x + 3, y), Sq::parse("G9").ok());
        assert_eq!(g.square_at(x + 4, y), None, "H9 is not playable");
        assert_eq!(g.square_at(0, 0), None);
        assert_eq!(g.square_at(x, y + 100), None);
    }
}
