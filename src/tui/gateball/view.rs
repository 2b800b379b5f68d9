//! Drawing the Gateball board, and the reverse: which space a mouse click
//! lands on. Both come from one [`layout`], a pure function of the
//! terminal size and the court, so a click always means what is drawn.
//!
//! The court is drawn with the tokens of T1.9 and `ball show`: `#` Outside
//! Line, `S` Start Area, `+` Inside Line, `.` court, `F` Finish, a gate's
//! number on its bottom space and an arrow on its top space, balls as
//! `r1` … `b10`, each right-aligned in a cell of 3 columns (4, exactly as
//! `ball show`, on a wide terminal). Everything a colour says is also said
//! in text where the cell has room, for monochrome terminals and the text
//! snapshots of the tests: `[ ]` around a reachable end space, `( )`
//! around the chosen path and Start Space.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::app::{App, Dialog, LogKind, Note, Seat, ball_name, dice_text, result_text};
use crate::games::gateball::court::Court;
use crate::games::gateball::position::{Phase, Place, Position, ShotKind, Team};
use crate::games::gateball::space::{Space, column_name};

/// Narrowest side panel (with its border).
const PANEL_MIN: u16 = 26;
/// A wide terminal gets `ball show`'s 4-column cells when the panel keeps
/// at least this much.
const PANEL_WIDE: u16 = 30;
/// The choice box under the court: border, prompt, action, options.
const CHOICE_MIN: u16 = 5;

const RED_FG: Color = Color::LightRed;
const BLUE_FG: Color = Color::LightCyan;
const OPTION_BG: Color = Color::Indexed(28);
const CHOSEN_BG: Color = Color::Indexed(130);
const LAST_BG: Color = Color::Indexed(24);

pub fn team_colour(team: Team) -> Color {
    match team {
        Team::Red => RED_FG,
        Team::Blue => BLUE_FG,
    }
}

/// Where the board's spaces are on screen: the top-left cell of column A
/// of the top row, and the width of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub x: u16,
    pub y: u16,
    /// Columns of one space (3 or 4).
    pub cw: u16,
    /// Board columns and rows, the Outside Line included.
    pub cols: u8,
    pub rows: u8,
}

impl Geometry {
    /// The left screen cell of a space.
    pub fn cell(&self, s: Space) -> (u16, u16) {
        (
            self.x + (u16::from(s.col) - 1) * self.cw,
            self.y + u16::from(self.rows - s.row),
        )
    }

    /// The space under a screen cell.
    pub fn space_at(&self, x: u16, y: u16) -> Option<Space> {
        if x < self.x || y < self.y {
            return None;
        }
        let col = (x - self.x) / self.cw + 1;
        let line = y - self.y;
        if col > u16::from(self.cols) || line >= u16::from(self.rows) {
            return None;
        }
        Some(Space::new(col as u8, self.rows - line as u8))
    }
}

/// The screen's parts for one size.
#[derive(Clone, Debug)]
pub struct Screen {
    pub area: Rect,
    pub too_small: bool,
    pub status: Rect,
    pub board_block: Rect,
    pub board: Geometry,
    pub choice_block: Rect,
    pub info_block: Rect,
    pub log_block: Rect,
    pub footer: Rect,
    pub dialog: Option<Rect>,
}

/// The width of the court's block for a cell width.
fn board_width(court: &Court, cw: u16) -> u16 {
    // Border, the row label (3), the cells, one space, border.
    2 + 3 + u16::from(court.board_cols()) * cw + 1
}

fn board_height(court: &Court) -> u16 {
    // Border, header, the rows, header, border.
    u16::from(court.board_rows()) + 4
}

/// The smallest screen that shows the court and the panel.
pub fn min_size(court: &Court) -> (u16, u16) {
    (
        board_width(court, 3) + PANEL_MIN,
        1 + board_height(court) + CHOICE_MIN + 2,
    )
}

pub fn layout(area: Rect, app: &App) -> Screen {
    let court = &app.game().court;
    let (min_w, min_h) = min_size(court);
    let too_small = area.width < min_w || area.height < min_h;
    let mut s = Screen {
        area,
        too_small,
        status: Rect::default(),
        board_block: Rect::default(),
        board: Geometry {
            x: 0,
            y: 0,
            cw: 3,
            cols: court.board_cols(),
            rows: court.board_rows(),
        },
        choice_block: Rect::default(),
        info_block: Rect::default(),
        log_block: Rect::default(),
        footer: Rect::default(),
        dialog: None,
    };
    if too_small {
        return s;
    }
    let (x0, y0, w, h) = (area.x, area.y, area.width, area.height);
    let cw = if board_width(court, 4) + PANEL_WIDE <= w {
        4
    } else {
        3
    };
    let bw = board_width(court, cw);
    let bh = board_height(court);
    let middle = h - 3;
    s.status = Rect::new(x0, y0, w, 1);
    s.footer = Rect::new(x0, y0 + h - 2, w, 2);
    s.board_block = Rect::new(x0, y0 + 1, bw, bh);
    s.board.x = x0 + 1 + 3;
    s.board.y = y0 + 1 + 2;
    s.board.cw = cw;
    s.choice_block = Rect::new(x0, y0 + 1 + bh, bw, middle - bh);
    let (px, pw) = (x0 + bw, w - bw);
    let info_h = (info_lines(app, pw.saturating_sub(2) as usize).len() as u16 + 2).min(middle / 2);
    s.info_block = Rect::new(px, y0 + 1, pw, info_h);
    s.log_block = Rect::new(px, y0 + 1 + info_h, pw, middle - info_h);
    if let Some(d) = app.dialog() {
        let (dw, dh) = match d {
            Dialog::Help => (
                HELP.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 4,
                HELP.len() as u16 + 2,
            ),
            Dialog::ConfirmQuit => (44, 5),
        };
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

/// The space under the screen cell (x, y), if the board is drawn there.
pub fn hit(screen: &Screen, x: u16, y: u16) -> Option<Space> {
    if screen.too_small || screen.dialog.is_some() {
        return None;
    }
    screen.board.space_at(x, y)
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
    draw_choice(buf, screen.choice_block, app);
    draw_info(buf, screen.info_block, app);
    draw_log(buf, screen.log_block, app);
    draw_footer(buf, screen.footer, app);
    if let (Some(r), Some(d)) = (screen.dialog, app.dialog()) {
        draw_dialog(frame, r, d);
    }
}

fn draw_too_small(buf: &mut Buffer, area: Rect, app: &App) {
    let (w, h) = min_size(&app.game().court);
    let mut lines = vec![
        format!("Terminal too small: {}x{}.", area.width, area.height),
        format!("The Gateball court needs {w}x{h}."),
        "Enlarge the window; the game waits.".to_string(),
        "q quits.".to_string(),
    ];
    if app.dialog() == Some(Dialog::ConfirmQuit) {
        lines.push("Quit the game? y quits, n stays.".into());
    }
    crate::tui::view::warning_lines(buf, area, &lines);
}

fn draw_status(buf: &mut Buffer, r: Rect, app: &App) {
    let pos = app.position();
    let turns = app.game().rules.turns;
    let (red, blue) = (pos.score(Team::Red), pos.score(Team::Blue));
    let mut spans = Vec::new();
    if pos.is_over() {
        spans.push(Span::styled(
            " GAME OVER ",
            Style::default()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(" {}", result_text(pos))));
        buf.set_line(r.x, r.y, &Line::from(spans), r.width);
        return;
    } else {
        let team = app.team();
        let who = match app.seat(team) {
            Seat::Human => " (you)".to_string(),
            s => format!(" ({})", s.label()),
        };
        spans.push(Span::styled(
            format!(" {} to play{who} ", team.name()),
            Style::default()
                .fg(Color::Black)
                .bg(team_colour(team))
                .add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(
            " Gateball · turn {}/{turns} · ball {} · phase {}",
            pos.turn,
            pos.ball,
            pos.phase.name()
        )));
    }
    spans.push(Span::raw(" · "));
    spans.push(Span::styled(
        format!("red {red}"),
        Style::default().fg(RED_FG),
    ));
    spans.push(Span::raw(" - "));
    spans.push(Span::styled(
        format!("blue {blue}"),
        Style::default().fg(BLUE_FG),
    ));
    buf.set_line(r.x, r.y, &Line::from(spans), r.width);
}

/// The mark of an empty space (T1.9) and its style.
pub fn mark(court: &Court, s: Space) -> (String, Style) {
    let gate = court.gates.iter().zip(1u8..).find_map(|(g, n)| {
        if g.bottom == s {
            Some(n.to_string())
        } else if g.top == s {
            let (dc, dr) = (
                i16::from(g.top.col) - i16::from(g.bottom.col),
                i16::from(g.top.row) - i16::from(g.bottom.row),
            );
            Some(
                match (dc, dr) {
                    (0, 1) => "^",
                    (0, -1) => "v",
                    (1, 0) => ">",
                    _ => "<",
                }
                .to_string(),
            )
        } else {
            None
        }
    });
    if let Some(g) = gate {
        return (
            g,
            Style::default()
                .fg(Color::LightMagenta)
                .add_modifier(Modifier::BOLD),
        );
    }
    if court.is_start(s) {
        (
            "S".into(),
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        )
    } else if court.is_outside(s) {
        ("#".into(), Style::default().fg(Color::DarkGray))
    } else if s == court.finish {
        (
            "F".into(),
            Style::default()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD),
        )
    } else if court.is_inside_line(s) {
        ("+".into(), Style::default().fg(Color::Gray))
    } else {
        (".".into(), Style::default().fg(Color::DarkGray))
    }
}

/// The ball drawn on a space: in phase `spark` the shared touch space
/// shows the playing ball (as `ball show` does).
fn ball_on(pos: &Position, s: Space) -> Option<u8> {
    let on = |n: u8| pos.ball_state(n).place.space() == Some(s);
    if on(pos.ball) {
        return Some(pos.ball);
    }
    (1..=10u8).find(|&n| on(n))
}

/// A cell's text: the token right-aligned, with the marks around it where
/// the cell has room.
pub fn cell_text(token: &str, marks: Option<(char, char)>, cw: usize) -> String {
    let n = token.chars().count();
    let text = match marks {
        Some((l, r)) if n + 2 <= cw => format!("{l}{token}{r}"),
        Some((l, _)) if n < cw => format!("{l}{token}"),
        _ => token.to_string(),
    };
    format!("{text:>cw$}")
}

fn draw_board(buf: &mut Buffer, screen: &Screen, app: &App) {
    let pos = app.position();
    let court = &app.game().court;
    let g = screen.board;
    let cw = g.cw as usize;
    let title = format!(" court {} ", court.name);
    let block = Block::bordered().title(title);
    let inner = block.inner(screen.board_block);
    ratatui::widgets::Widget::render(block, screen.board_block, buf);
    let label = Style::default().fg(Color::Gray);
    let header: String = (1..=g.cols)
        .map(|c| format!("{:>cw$}", column_name(c)))
        .collect();
    buf.set_string(inner.x + 3, inner.y, &header, label);
    buf.set_string(inner.x + 3, inner.y + inner.height - 1, &header, label);
    let highlighted = app.highlighted();
    let chosen = app.chosen_spaces();
    let last = app.last_trace();
    for row in (1..=g.rows).rev() {
        let (_, y) = g.cell(Space::new(1, row));
        buf.set_string(inner.x, y, format!("{row:>3}"), label);
        for col in 1..=g.cols {
            let s = Space::new(col, row);
            let (x, y) = g.cell(s);
            let (token, style) = match ball_on(pos, s) {
                Some(n) => (
                    ball_name(n),
                    Style::default()
                        .fg(team_colour(Team::of_ball(n)))
                        .add_modifier(Modifier::BOLD),
                ),
                None => mark(court, s),
            };
            let (marks, bg) = if chosen.contains(&s) {
                (Some(('(', ')')), Some(CHOSEN_BG))
            } else if highlighted.contains(&s) {
                (Some(('[', ']')), Some(OPTION_BG))
            } else if last.contains(&s) {
                (None, Some(LAST_BG))
            } else {
                (None, None)
            };
            let text = cell_text(&token, marks, cw);
            let mut cell_style = Style::default();
            if let Some(bg) = bg {
                cell_style = cell_style.bg(bg);
            }
            // The marks in the cell's plain style, the token in its own.
            let tok_at = text.rfind(token.as_str()).unwrap_or(0);
            let spans = vec![
                Span::styled(text[..tok_at].to_string(), cell_style),
                Span::styled(token.clone(), cell_style.patch(style)),
                Span::styled(text[tok_at + token.len()..].to_string(), cell_style),
            ];
            buf.set_line(x, y, &Line::from(spans), g.cw);
        }
    }
}

fn draw_choice(buf: &mut Buffer, r: Rect, app: &App) {
    let team = app.team();
    let title = if app.position().is_over() {
        " game over ".to_string()
    } else {
        format!(" {} · {} ", team.name(), app.seat(team).label())
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
    let mut lines: Vec<(String, Style)> = Vec::new();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    for l in wrap(&app.prompt(), w, 0) {
        lines.push((l, bold));
    }
    if app.choosing_move() {
        let whole = app.current_action().is_some();
        let text = if whole {
            format!("action: {}", app.action_text())
        } else {
            format!("action: {} …", app.action_text())
        };
        let style = if whole {
            Style::default()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(Color::Yellow)
        };
        let text = match app.outcome_text() {
            Some(o) => format!("{text} → {o}"),
            None => text,
        };
        for l in wrap(&text, w, 0) {
            lines.push((l, style));
        }
        for l in wrap(&options_text(app), w, 0) {
            lines.push((l, Style::default().fg(Color::Gray)));
        }
    } else if app.human_to_move() && app.position().phase == Phase::Shot {
        let legal: Vec<String> = app.legal().iter().map(|a| a.to_string()).collect();
        lines.push((format!("legal: {}", legal.join(" · ")), Style::default()));
    }
    for (y, (text, style)) in (inner.y..inner.y + inner.height).zip(lines) {
        buf.set_stringn(inner.x, y, text, w, style);
    }
}

/// The choices left, in the notation: the power moves from the chosen
/// Start Space, or the next steps and how many paths go on.
fn options_text(app: &App) -> String {
    match app.move_kind() {
        Some(ShotKind::Power) => {
            let cur = app.current_action();
            let moves: Vec<String> = app
                .candidates()
                .map(|c| {
                    let t = c.motion.to_string();
                    if Some(c.action) == cur {
                        format!("({t})")
                    } else {
                        t
                    }
                })
                .collect();
            format!("moves: {}{}", moves.join(" · "), starts_text(app))
        }
        Some(ShotKind::Tech) => {
            let next: Vec<String> = app
                .next_steps()
                .iter()
                .map(|d| d.letter().to_string())
                .collect();
            let n = app.continuing().count();
            let next = if next.is_empty() {
                "-".to_string()
            } else {
                next.join(" ")
            };
            format!(
                "next step: {next} · legal paths from here: {n}{}",
                starts_text(app)
            )
        }
        None => String::new(),
    }
}

/// The Start Spaces of a start shot, the chosen one in parentheses (Tab
/// cycles them); empty for other moves.
fn starts_text(app: &App) -> String {
    let starts = app.starts();
    if starts.is_empty() {
        return String::new();
    }
    let names: Vec<String> = starts
        .iter()
        .map(|&s| {
            if Some(s) == app.selection().start {
                format!("({s})")
            } else {
                s.to_string()
            }
        })
        .collect();
    format!(" · Start Space {}", names.join(" "))
}

/// The panel's facts about the position: turn, ball, phase, dice, score,
/// waiting and Goal balls, the touched list, the seats.
pub fn info_lines(app: &App, w: usize) -> Vec<Line<'static>> {
    let pos = app.position();
    let turns = app.game().rules.turns;
    let mut out = Vec::new();
    let team = Team::of_ball(pos.ball);
    out.push(Line::from(vec![
        Span::raw(format!("turn {}/{turns} · ball ", pos.turn)),
        Span::styled(
            ball_name(pos.ball),
            Style::default()
                .fg(team_colour(team))
                .add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!(" ({})", team.name())),
    ]));
    let mut phase = format!("phase {}", pos.phase.name());
    if let Some(k) = pos.shot {
        phase.push_str(&format!(" · {}", k.name()));
    }
    out.push(Line::from(phase));
    if pos.continuation {
        out.push(Line::styled(
            "continuation",
            Style::default().fg(Color::Yellow),
        ));
    }
    let dice = if pos.dice.is_empty() {
        "-".to_string()
    } else {
        dice_text(&pos.dice)
    };
    let mut dl = vec![
        Span::raw("dice "),
        Span::styled(dice, Style::default().add_modifier(Modifier::BOLD)),
    ];
    if let Some(c) = pos.spark {
        dl.push(Span::raw(format!(" · spark {}", ball_name(c))));
    }
    out.push(Line::from(dl));
    out.push(Line::from(vec![
        Span::raw("score "),
        Span::styled(
            format!("red {}", pos.score(Team::Red)),
            Style::default().fg(RED_FG).add_modifier(Modifier::BOLD),
        ),
        Span::raw(" · "),
        Span::styled(
            format!("blue {}", pos.score(Team::Blue)),
            Style::default().fg(BLUE_FG).add_modifier(Modifier::BOLD),
        ),
    ]));
    let list = |what: &str, balls: Vec<u8>| -> Vec<Line<'static>> {
        let names: Vec<String> = balls.iter().map(|&n| ball_name(n)).collect();
        let text = if names.is_empty() {
            format!("{what} -")
        } else {
            format!("{what} {}", names.join(" "))
        };
        wrap(&text, w, 0)
            .into_iter()
            .map(|l| Line::from(coloured_balls(&l)))
            .collect()
    };
    let waiting = (1..=10)
        .filter(|&n| pos.ball_state(n).place == Place::Waiting)
        .collect();
    let goal = (1..=10)
        .filter(|&n| pos.ball_state(n).place == Place::Goal)
        .collect();
    out.extend(list("waiting", waiting));
    out.extend(list("goal", goal));
    out.extend(list("touched", pos.touched_list()));
    let gates: Vec<String> = (1..=10u8)
        .filter(|&n| matches!(pos.ball_state(n).place, Place::Court(_) | Place::Out(_)))
        .map(|n| format!("{}:{}", ball_name(n), pos.ball_state(n).gates))
        .collect();
    if !gates.is_empty() {
        out.extend(
            wrap(&format!("gates {}", gates.join(" ")), w, 0)
                .into_iter()
                .map(|l| Line::from(coloured_balls(&l))),
        );
    }
    let seats = format!(
        "red: {} · blue: {}",
        app.seat(Team::Red).label(),
        app.seat(Team::Blue).label()
    );
    out.extend(
        wrap(&seats, w, 0)
            .into_iter()
            .map(|l| Line::from(coloured_balls(&l))),
    );
    out
}

/// Colours the ball names (`r3`, `b10`, `r3:1`) and the team names
/// (`red:`) of a line by team.
fn coloured_balls(line: &str) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    for (i, word) in line.split(' ').enumerate() {
        if i > 0 {
            spans.push(Span::raw(" "));
        }
        let name = word.split(':').next().unwrap_or(word);
        let team = match name.as_bytes() {
            [b'r', d, ..] if d.is_ascii_digit() => Some(Team::Red),
            [b'b', d, ..] if d.is_ascii_digit() => Some(Team::Blue),
            b"red:" => Some(Team::Red),
            b"blue:" => Some(Team::Blue),
            _ => None,
        };
        match team {
            Some(t) => spans.push(Span::styled(
                word.to_string(),
                Style::default().fg(team_colour(t)),
            )),
            None => spans.push(Span::raw(word.to_string())),
        }
    }
    spans
}

fn draw_info(buf: &mut Buffer, r: Rect, app: &App) {
    let block = Block::bordered().title(" position ");
    let inner = block.inner(r);
    ratatui::widgets::Widget::render(block, r, buf);
    for (y, line) in (inner.y..inner.y + inner.height).zip(info_lines(app, inner.width as usize)) {
        buf.set_line(inner.x, y, &line, inner.width);
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
    let mut lines: Vec<(String, Style)> = Vec::new();
    for l in app.log() {
        let (indent, style) = match l.kind {
            LogKind::Action(t) => (
                0,
                Style::default()
                    .fg(team_colour(t))
                    .add_modifier(Modifier::BOLD),
            ),
            LogKind::Event => (2, Style::default().fg(Color::Gray)),
            LogKind::Loud => (2, Style::default().fg(Color::Yellow)),
        };
        for text in wrap(&l.text, w, indent) {
            lines.push((text, style));
        }
    }
    // The newest line at the bottom, scrolled back by the user.
    let h = inner.height as usize;
    let end = lines
        .len()
        .saturating_sub(app.log_scroll())
        .max(h.min(lines.len()));
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

fn draw_footer(buf: &mut Buffer, r: Rect, app: &App) {
    let (text, style) = match app.message() {
        Some((Note::Error, m)) => (m.to_string(), Style::default().fg(Color::LightRed)),
        Some((Note::Info, m)) => (m.to_string(), Style::default().fg(Color::Yellow)),
        None => (String::new(), Style::default()),
    };
    buf.set_stringn(r.x + 1, r.y, text, r.width as usize - 1, style);
    let variants: Vec<String> = if app.position().is_over() {
        vec!["game over · PgUp/PgDn log · q quit".into()]
    } else if !app.human_to_move() {
        vec![
            "the bot is playing · PgUp/PgDn log · ? help · q quit".into(),
            "bot playing · ? help · q quit".into(),
        ]
    } else if app.position().phase == Phase::Shot {
        let end = if app.position().continuation {
            " · e end"
        } else {
            ""
        };
        vec![
            format!("p power · t tech{end} · PgUp/PgDn log · ? help · q quit"),
            format!("p power · t tech{end} · ? help · q quit"),
        ]
    } else {
        let tab = app.starts().len() > 1;
        let (long, mid, short) = if app.move_kind() == Some(ShotKind::Power) {
            (
                "arrows/1-9 direction · [ ] die",
                "arrows/1-9 dir · [ ] die",
                "1-9 · [ ]",
            )
        } else {
            (
                "arrows/8426 step · Backspace undo step",
                "arrows step · Backspace undo",
                "arrows · Bksp",
            )
        };
        let t = |s: &str| if tab { s.to_string() } else { String::new() };
        vec![
            format!(
                "{long}{} · click [ ] · Enter play · Esc clear · ? help · q quit",
                t(" · Tab Start Space")
            ),
            format!(
                "{mid}{} · click · Enter play · Esc · ? · q quit",
                t(" · Tab start")
            ),
            format!("{short}{} · Enter · Esc · ? · q", t(" · Tab")),
        ]
    };
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
    "A shot (T4.3): choose power or tech, the engine rolls,",
    "then choose the move knowing the dice.",
    "p / t           power (two dice) / tech (one die)",
    "e               end the play (continuation only)",
    "Power: arrows or 1-9 (numpad: 8 N, 9 NE, 6 E …)",
    "  [ / ]         first / second die for a diagonal",
    "  (the same diagonal key again switches the die)",
    "Tech: arrows or 8 4 6 2 add a step",
    "  Backspace     take back a step",
    "Tab, Shift-Tab  the Start Space of a start shot",
    "click [ ]       choose a move ending there;",
    "                click it again to play",
    "Enter           play the action shown",
    "Esc             clear the choice",
    "PgUp, PgDn      scroll the log",
    "q, Ctrl-C       quit (asks while the game runs)",
];

fn draw_dialog(frame: &mut Frame, r: Rect, d: Dialog) {
    frame.render_widget(Clear, r);
    let (title, lines): (&str, Vec<Line>) = match d {
        Dialog::Help => (
            " keys (any key closes) ",
            HELP.iter().map(|l| Line::from(format!(" {l}"))).collect(),
        ),
        Dialog::ConfirmQuit => (
            " quit? ",
            vec![
                Line::from(" The game is not over."),
                Line::from(" y quit · n stay"),
            ],
        ),
    };
    let block = Block::bordered().title(title);
    frame.render_widget(Paragraph::new(lines).block(block), r);
}

/// The BALL board's word-wrap: the log and the prompts wrap alike.
pub use crate::tui::view::wrap;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_keep_the_marks_where_there_is_room() {
        assert_eq!(cell_text(".", None, 3), "  .");
        assert_eq!(cell_text(".", Some(('[', ']')), 3), "[.]");
        assert_eq!(cell_text("r1", Some(('[', ']')), 3), "[r1");
        assert_eq!(cell_text("b10", Some(('[', ']')), 3), "b10");
        assert_eq!(cell_text("r1", Some(('[', ']')), 4), "[r1]");
        assert_eq!(cell_text("b10", None, 4), " b10");
    }

    #[test]
    fn spaces_are_hit_where_they_are_drawn() {
        let g = Geometry {
            x: 4,
            y: 3,
            cw: 3,
            cols: 22,
            rows: 17,
        };
        let k9 = Space::parse("K9").unwrap();
        let (x, y) = g.cell(k9);
        assert_eq!(g.space_at(x, y), Some(k9));
        assert_eq!(g.space_at(x + 2, y), Some(k9));
        assert_eq!(g.space_at(x + 3, y), Space::parse("L9"));
        assert_eq!(g.space_at(0, 0), None);
        assert_eq!(g.space_at(x, y + 100), None);
        assert_eq!(g.cell(Space::parse("A17").unwrap()), (4, 3));
    }
}
