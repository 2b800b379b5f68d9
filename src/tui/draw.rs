//! Drawing the screen of [`super::layout`]: the status line, the game's
//! board (its own drawing) with a banner over its top edge, the choices,
//! the log, the footer, the game's overlay and the dialogs.
//!
//! Everything a colour says is also said in text, for monochrome
//! terminals and for the text snapshots of the tests: `›` on the
//! highlighted choice, `[ ]` and `( )` on the board (the game's), the
//! seat named in the status line.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use super::app::{App, Dialog, Level};
use super::board::Board;
use super::layout::{Screen, layout, min_size};
use super::text::{tail, warning_lines, wrap};
use crate::shell::Seat;

/// The colour of each seat, by seat: red for the first, cyan for the
/// second, as both games' pieces and balls are drawn.
pub fn seat_colour(seat: usize) -> Color {
    match seat {
        0 => Color::LightRed,
        _ => Color::LightCyan,
    }
}

pub fn draw<G: Board>(frame: &mut Frame, app: &App<G>) {
    let area = frame.area();
    let screen = layout(area, app);
    let buf = frame.buffer_mut();
    if screen.too_small {
        return draw_too_small(buf, area, app);
    }
    let game = app.session().game();
    draw_status(buf, screen.status, app);
    game.draw_board(&app.view(), screen.board, buf);
    draw_banner(buf, screen.board, app);
    if let Some(r) = screen.legend {
        draw_legend(buf, r, game);
    }
    if let Some(r) = screen.side {
        let block = Block::bordered().title(" position ");
        let inner = block.inner(r);
        block.render(r, buf);
        let lines = game.side_panel(&app.view(), inner.width);
        for (y, line) in (inner.y..inner.y + inner.height).zip(lines) {
            buf.set_line(inner.x, y, &line, inner.width);
        }
    }
    draw_choices(buf, &screen, app);
    draw_log(buf, screen.log, app);
    draw_footer(buf, screen.footer, app);
    if let (Some(r), Some(panel)) = (screen.overlay, game.overlay(&app.view())) {
        frame.render_widget(Clear, r);
        let block = Block::bordered().title(panel.title);
        frame.render_widget(Paragraph::new(panel.lines).block(block), r);
    }
    if let (Some(r), Some(d)) = (screen.dialog, app.dialog()) {
        draw_dialog(frame, r, app, d);
    }
}

fn draw_too_small<G: Board>(buf: &mut Buffer, area: Rect, app: &App<G>) {
    let (w, h) = min_size(app.session().game());
    // One line, so that a terminal of any height shows all of it; the
    // game waits until there is room.
    let mut lines = vec![format!(
        "Too small: {}x{}; {} needs {w}x{h}. q quits.",
        area.width,
        area.height,
        G::TITLE
    )];
    if app.dialog() == Some(&Dialog::ConfirmQuit) {
        lines.push("Unsaved: y quits, n stays.".into());
    }
    warning_lines(buf, area, &lines);
}

fn draw_status<G: Board>(buf: &mut Buffer, r: Rect, app: &App<G>) {
    let s = app.session();
    let game = s.game();
    let mut spans = Vec::new();
    if s.is_replay() {
        let n = s.played().len();
        let total = n + s.history().ahead().len();
        spans.push(Span::styled(
            format!(" REPLAY {n}/{total} "),
            Style::default().add_modifier(Modifier::REVERSED),
        ));
        spans.push(Span::raw(" "));
    }
    let rules = G::ruleset_name(s.ruleset());
    match s.to_move() {
        None => {
            spans.push(Span::styled(
                " GAME OVER ",
                Style::default()
                    .fg(Color::Black)
                    .bg(Color::Yellow)
                    .add_modifier(Modifier::BOLD),
            ));
            spans.push(Span::raw(format!(
                " {} · {rules} · {}",
                s.result_text(),
                game.turn_text(s.position())
            )));
        }
        Some(seat) => {
            let who = match s.seat(seat) {
                Seat::Person if s.is_replay() => String::new(),
                Seat::Person => " (you)".into(),
                Seat::Bot(spec) => format!(" ({spec})"),
            };
            spans.push(Span::styled(
                format!(" {} to play{who} ", G::SEATS[seat]),
                Style::default()
                    .fg(Color::Black)
                    .bg(seat_colour(seat))
                    .add_modifier(Modifier::BOLD),
            ));
            spans.push(Span::raw(format!(
                " {rules} · {}",
                game.status(s.position())
            )));
        }
    }
    buf.set_line(r.x, r.y, &Line::from(spans), r.width);
}

/// The banner of the last action (a touchdown, a Goal), over the board's
/// top edge, where it hides nothing of the board.
fn draw_banner<G: Board>(buf: &mut Buffer, board: Rect, app: &App<G>) {
    let s = app.session();
    let Some(p) = s.played().last() else { return };
    let Some(text) = s.game().banner(&p.before, p.action, &p.after, &p.events) else {
        return;
    };
    let text = format!(" ★ {text} ★ ");
    let room = board.width.saturating_sub(2) as usize;
    // The banner stands alone on the edge: the board's title goes.
    buf.set_string(board.x + 1, board.y, "─".repeat(room), Style::default());
    let n = text.chars().count().min(room);
    let x = board.x + 1 + (room - n) as u16 / 2;
    buf.set_stringn(
        x,
        board.y,
        text,
        room,
        Style::default()
            .fg(Color::Black)
            .bg(Color::Yellow)
            .add_modifier(Modifier::BOLD),
    );
}

fn draw_legend<G: Board>(buf: &mut Buffer, r: Rect, game: &G) {
    for (i, l) in game.legend().iter().enumerate() {
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

/// The top of the choices box: the prompt, then the action that waits
/// for Enter with what it will do.
pub fn choice_head<G: Board>(app: &App<G>, width: usize) -> Vec<(String, Style)> {
    let s = app.session();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut out: Vec<(String, Style)> = Vec::new();
    let waiting = s.waiting().filter(|_| s.person_to_move());
    match waiting {
        Some(a) => {
            let pos = s.position();
            let said = s.game().preview(pos, a).unwrap_or_else(|| format!("{a}"));
            let more = if s.options().is_empty() {
                "Enter plays it"
            } else {
                "Enter plays it, or go on"
            };
            let green = Style::default()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD);
            for l in wrap(&format!("action: {said}"), width, 0) {
                out.push((l, green));
            }
            for l in wrap(&format!("{more}; Backspace goes back"), width, 0) {
                out.push((l, Style::default().fg(Color::Gray)));
            }
        }
        None => {
            for l in wrap(&s.prompt(), width, 0) {
                out.push((l, bold));
            }
        }
    }
    out
}

fn draw_choices<G: Board>(buf: &mut Buffer, screen: &Screen, app: &App<G>) {
    let r = screen.choices;
    let s = app.session();
    let (title, colour) = match s.to_move() {
        _ if s.is_replay() => (" replay ".to_string(), Color::Gray),
        None => (" game over ".to_string(), Color::Yellow),
        Some(seat) => (
            match s.seat(seat) {
                Seat::Person => format!(" {} ", G::SEATS[seat]),
                Seat::Bot(spec) => format!(" {}: {spec} bot ", G::SEATS[seat]),
            },
            seat_colour(seat),
        ),
    };
    let block = Block::bordered().title(Span::styled(
        title,
        Style::default().fg(colour).add_modifier(Modifier::BOLD),
    ));
    let inner = block.inner(r);
    block.render(r, buf);
    let w = inner.width as usize;
    for (y, (line, style)) in (inner.y..inner.y + inner.height).zip(choice_head(app, w)) {
        buf.set_stringn(inner.x, y, line, w, style);
    }
    let opts = s.options();
    let hl = app.highlighted();
    for &(rect, i) in &screen.options {
        let Some(c) = opts.get(i) else { continue };
        let key = c
            .keys
            .first()
            .map_or("  ".to_string(), |k| format!("{:<2}", k.name()));
        let selected = hl == Some(i);
        let pointer = if selected { "›" } else { " " };
        let mut text = format!("{pointer}{key}{}", c.label);
        if !c.help.is_empty() && text.chars().count() + 2 < w {
            text = format!("{text}  {}", c.help);
        }
        let mut style = Style::default();
        if selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        buf.set_stringn(rect.x, rect.y, text, w, style);
    }
    let listed = screen.options.len();
    if listed < opts.len() && inner.height > 0 {
        buf.set_stringn(
            inner.x,
            inner.y + inner.height - 1,
            format!("  … {} more (Tab)", opts.len() - listed),
            w,
            Style::default().fg(Color::Gray),
        );
    }
}

fn draw_log<G: Board>(buf: &mut Buffer, r: Rect, app: &App<G>) {
    let block = Block::bordered().title(" log ");
    let inner = block.inner(r);
    block.render(r, buf);
    if inner.height == 0 || inner.width < 4 {
        return;
    }
    let w = inner.width as usize;
    let wanted = (inner.height as usize).saturating_add(app.log_scroll());
    let (entries, current) = super::log::tail(app.session(), wanted);
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
    let end = if app.session().is_replay() {
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
    if app.log_scroll() > 0 && end < lines.len() {
        let more = format!(" ↓ {} newer (PgDn) ", lines.len() - end);
        let x = r.x + r.width.saturating_sub(more.chars().count() as u16 + 1);
        buf.set_string(
            x,
            r.y + r.height - 1,
            more,
            Style::default().fg(Color::Yellow),
        );
    }
}

fn draw_footer<G: Board>(buf: &mut Buffer, r: Rect, app: &App<G>) {
    let s = app.session();
    let (text, style) = match app.message() {
        Some((Level::Error, m)) => (m.to_string(), Style::default().fg(Color::LightRed)),
        Some((Level::Info, m)) => (m.to_string(), Style::default().fg(Color::Yellow)),
        None if s.is_replay() => (s.prompt(), Style::default()),
        None => (app.describe_cursor().unwrap_or_default(), Style::default()),
    };
    let room = r.width.saturating_sub(1) as usize;
    buf.set_stringn(r.x + 1, r.y, fit(&text, room), room, style);
    let variants: &[&str] = if s.is_replay() {
        &[
            "←/→ step · Home/End start/end · PgUp/PgDn log · ? help · q quit",
            "←/→ step · Home/End · ? help · q quit",
        ]
    } else if s.to_move().is_none() {
        &["u undo · s save · PgUp/PgDn log · ? help · q quit"]
    } else if !s.person_to_move() {
        &["the bot is playing · u undo · s save · ? help · q quit"]
    } else if s.waiting().is_some() {
        &[
            "Enter plays · Backspace back · Esc cancel · u/r undo/redo · s save · ? help · q quit",
            "Enter plays · Bksp back · Esc · u undo · s save · ? · q",
        ]
    } else if app.menu_step() {
        &[
            "keys as listed, or ↑/↓ and Enter · Backspace back · Esc cancel · ? help",
            "keys as listed, ↑/↓ Enter · Bksp back · Esc · ? help",
        ]
    } else if app.cursor().is_some() {
        &[
            "keys as listed · arrows/hjkl, Tab, Enter or click · Esc cancel · u/r undo/redo · s save · ? help · q quit",
            "keys as listed · hjkl Tab Enter or click · Esc · u/r undo/redo · s save · ? help · q quit",
            "listed keys · Tab Enter click · Esc · u/r undo/redo · s save · ? help · q quit",
            "listed keys · Tab Enter · Esc · u undo · s save · ? keys · q quit",
        ]
    } else {
        &[
            "keys as listed · Tab, Enter or click · Esc cancel · u/r undo/redo · s save · ? help · q quit",
            "listed keys · Tab Enter click · Esc · u/r undo/redo · s save · ? help · q quit",
            "listed keys · Tab Enter · Esc · u undo · s save · ? keys · q quit",
        ]
    };
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

/// `text` cut to `width` columns with `…` when it does not fit (a long
/// message is also in full where it matters: loading warnings have a
/// dialog of their own).
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let keep: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{keep}…")
}

/// The help screen: the shell's keys, then the game's flow.
pub fn help_lines<G: Board>(game: &G) -> Vec<String> {
    let mut v: Vec<String> = game.help();
    v.extend(
        [
            "Enter, Space    choose the highlighted (or play it)",
            "Tab, click      the next choice; choose what is clicked",
            "Esc             cancel the action in progress",
            "Backspace       take back the last choice",
            "u, r            undo, redo (a bot's reply too)",
            "s               save the match record",
            "PgUp, PgDn      scroll the log",
            "q, Ctrl-C       quit (asks if unsaved)",
            "Replay: ←/→ step · Home/End · q quit",
        ]
        .map(str::to_string),
    );
    v
}

fn draw_dialog<G: Board>(frame: &mut Frame, r: Rect, app: &App<G>, d: &Dialog) {
    frame.render_widget(Clear, r);
    let (title, lines): (String, Vec<Line>) = match d {
        Dialog::Help => (
            " keys (any key closes) ".into(),
            help_lines(app.session().game())
                .into_iter()
                .map(|l| Line::from(format!(" {l}")))
                .collect(),
        ),
        Dialog::Save { path, .. } => (
            " save the match record ".into(),
            vec![
                Line::from(" file:"),
                Line::from(format!(" {}█", tail(path, r.width as usize - 4))),
                Line::from(""),
                Line::from(" Enter saves · Esc cancels"),
            ],
        ),
        Dialog::ConfirmQuit => {
            let n = app.session().played().len();
            (
                " quit? ".into(),
                vec![
                    Line::from(format!(" The game ({n} actions) is not saved.")),
                    Line::from(" y quit · s save first · n stay"),
                    Line::from(""),
                ],
            )
        }
        Dialog::Notice { title, lines } => {
            let w = r.width.saturating_sub(4) as usize;
            let v = lines
                .iter()
                .flat_map(|l| wrap(l, w, 0))
                .map(|l| Line::styled(format!(" {l}"), Style::default().fg(Color::Yellow)))
                .collect();
            (title.clone(), v)
        }
    };
    let block = Block::bordered().title(title);
    frame.render_widget(Paragraph::new(lines).block(block), r);
}
