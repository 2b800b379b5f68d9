//! G-ball's board in the terminal (`tui::Board`): the 11 × 6 court, each
//! square two lines of a 7-column cell — its players with their facing
//! arrows, one a line (`R2↗`, `B5←●` holding the ball; counts `R3 B2`
//! when more are on it) or, empty, the square's kind (`|R|` RED's goal,
//! `|B|` BLU's, `---` side wall, `[+]` corner, `.` air, `n` the neutral
//! zone); the ball under a lone player or after the second (`●` held,
//! `●→` loose and flying, `●↻` a spinball). The panel beside it says who
//! must decide what (the pending decision), where the ball is and how it
//! flies, and each occupied square's players (`ball show`'s lines). The
//! flow, the log, undo, save and replay are the shell's; the choices are
//! `choices.rs`'s.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Widget};

use super::choices::dir_arrow;
use super::position::{Id, Position, Status, members, number_of, team_of};
use super::{Gball, Team, board, show};
use crate::tui::{Board, View};

/// Columns of one square.
const CW: u16 = 7;
/// Lines of one square.
const CH: u16 = 2;
/// The row label's width.
const LABEL: u16 = 3;

const OPTION_BG: Color = Color::Indexed(28);
const CHOSEN_BG: Color = Color::Indexed(130);
const LAST_BG: Color = Color::Indexed(24);

fn team_colour(t: Team) -> Color {
    crate::tui::draw::seat_colour(t.index())
}

fn background(sq: u8) -> &'static str {
    match board::kind(sq) {
        board::Kind::Corner => "[+]",
        board::Kind::Goal if board::col(sq) == 0 => "|R|",
        board::Kind::Goal => "|B|",
        board::Kind::SideWall if board::col(sq) == 5 => "=n=",
        board::Kind::SideWall => "---",
        board::Kind::Air if board::col(sq) == 5 => "n",
        board::Kind::Air => ".",
    }
}

/// The board area's inner top-left: where square A6's first cell is.
fn origin(area: Rect) -> (u16, u16) {
    (area.x + 1 + LABEL, area.y + 2)
}

/// The players on `sq`, on one line (the web board's SVG has the room;
/// the terminal's cell uses [`cell_lines`]).
pub fn players_text(pos: &Position, sq: u8) -> String {
    let on: Vec<u8> = members(pos.roster)
        .filter(|&p| pos.players[usize::from(p)].at == sq)
        .collect();
    if on.len() <= 2 {
        return on
            .iter()
            .map(|&p| {
                let t = if team_of(p) == Team::Red { 'R' } else { 'B' };
                format!(
                    "{t}{}{}",
                    number_of(p),
                    dir_arrow(pos.players[usize::from(p)].facing)
                )
            })
            .collect::<Vec<_>>()
            .join(" ");
    }
    let reds = on.iter().filter(|&&p| team_of(p) == Team::Red).count();
    format!("R{reds} B{}", on.len() - reds)
}

/// The ball on `sq`, if it is there (the web board's second line).
pub fn ball_text(pos: &Position, sq: u8) -> String {
    let b = &pos.ball;
    if b.at != sq {
        return String::new();
    }
    if b.holder != board::NONE {
        "●".into()
    } else if b.spin {
        "●↻".into()
    } else {
        format!("●{}", dir_arrow(b.dir))
    }
}

/// A player as the board draws him: team letter, number, facing arrow,
/// and `●` when he holds the ball.
fn player_text(pos: &Position, p: u8) -> String {
    let t = if team_of(p) == Team::Red { 'R' } else { 'B' };
    let pl = &pos.players[usize::from(p)];
    let ball = if pos.ball.holder == p { "●" } else { "" };
    format!("{t}{}{}{ball}", number_of(p), dir_arrow(pl.facing))
}

/// The ball's mark when it lies loose on `sq` (a held ball is drawn
/// after its holder).
fn loose_ball_text(pos: &Position, sq: u8) -> String {
    let b = &pos.ball;
    if b.at != sq || b.holder != board::NONE {
        String::new()
    } else if b.spin {
        "●↻".into()
    } else {
        format!("●{}", dir_arrow(b.dir))
    }
}

/// The two lines of a square's cell, each at most [`INNER`] columns so
/// that its marks fit around it: one player a line (`R2↗●` holds the
/// ball), the loose ball after the last; three players or more are
/// counted (`R3 B2`), their facings are in the panel's list. Two players
/// on one line (`R2↗ B5←`) were 7 columns, and lost an arrow.
pub fn cell_lines(pos: &Position, sq: u8) -> [String; 2] {
    let on: Vec<u8> = members(pos.roster)
        .filter(|&p| pos.players[usize::from(p)].at == sq)
        .collect();
    let loose = loose_ball_text(pos, sq);
    match on.as_slice() {
        [] => [String::new(), loose],
        [p] => {
            let held = if pos.ball.holder == *p { "●" } else { "" };
            let t = player_text(pos, *p);
            // One player: the ball under him, as the legend says.
            let t = t.strip_suffix('●').map_or(t.clone(), str::to_string);
            [t, format!("{held}{loose}")]
        }
        [a, b] => [player_text(pos, *a), format!("{}{loose}", player_text(pos, *b))],
        _ => {
            let reds = on.iter().filter(|&&p| team_of(p) == Team::Red).count();
            let held = if on.contains(&pos.ball.holder) { "●" } else { "" };
            [format!("R{reds} B{}", on.len() - reds), format!("{held}{loose}")]
        }
    }
}

/// Columns inside a cell's marks.
pub const INNER: usize = CW as usize - 2;

impl Board for Gball {
    fn min_board(&self) -> (u16, u16) {
        (
            2 + LABEL + u16::from(board::COLS) * CW + 1,
            u16::from(board::ROWS) * CH + 4,
        )
    }

    /// The decision and the players of each square need room.
    fn panel_min(&self) -> u16 {
        30
    }

    fn board_size(&self, _w: u16, _h: u16) -> (u16, u16) {
        self.min_board()
    }

    fn draw_board(&self, view: &View<'_, Gball>, area: Rect, buf: &mut Buffer) {
        let pos = view.session.position();
        let block = Block::bordered().title(" G-ball · RED defends A, BLU defends K ");
        let inner = block.inner(area);
        block.render(area, buf);
        let label = Style::default().fg(Color::Gray);
        let header: String = (0..board::COLS)
            .map(|c| format!("{:^w$}", (b'A' + c) as char, w = CW as usize))
            .collect();
        buf.set_string(inner.x + LABEL, inner.y, &header, label);
        buf.set_string(inner.x + LABEL, inner.y + inner.height - 1, &header, label);
        let options = view.option_cells();
        let chosen = view.chosen_cells();
        let last = view.last_cells();
        let (x0, y0) = origin(area);
        for r in (0..board::ROWS).rev() {
            let y = y0 + u16::from(board::ROWS - 1 - r) * CH;
            buf.set_string(inner.x, y, format!("{:>2} ", r + 1), label);
            for c in 0..board::COLS {
                let sq = board::square(c, r);
                let x = x0 + u16::from(c) * CW;
                let mut style = Style::default();
                let mark = if chosen.contains(&sq) {
                    style = style.bg(CHOSEN_BG);
                    ('(', ')')
                } else if options.contains(&sq) {
                    style = style.bg(OPTION_BG);
                    ('[', ']')
                } else {
                    if last.contains(&sq) {
                        style = style.bg(LAST_BG);
                    }
                    (' ', ' ')
                };
                let [first, second] = cell_lines(pos, sq);
                let colour = |line: usize| {
                    let mut on = members(pos.roster)
                        .filter(|&p| pos.players[usize::from(p)].at == sq);
                    on.nth(line).map(|p| team_colour(team_of(p)))
                };
                let (first, first_fg) = match colour(0) {
                    Some(c) => (first, Some(c)),
                    None => (background(sq).to_string(), None),
                };
                let mut top_style = style;
                match first_fg {
                    Some(c) => top_style = top_style.fg(c).add_modifier(Modifier::BOLD),
                    None => top_style = top_style.fg(Color::DarkGray),
                }
                let top = format!("{}{first:^5}{}", mark.0, mark.1);
                buf.set_stringn(x, y, &top, CW as usize, top_style);
                let second_fg = match (colour(1), colour(2)) {
                    (Some(c), None) => c,
                    _ => Color::Yellow,
                };
                let bottom_style = style.fg(second_fg).add_modifier(Modifier::BOLD);
                buf.set_stringn(x, y + 1, format!(" {second:^5} "), CW as usize, bottom_style);
            }
        }
    }

    fn cell_at(&self, area: Rect, x: u16, y: u16) -> Option<u8> {
        let (x0, y0) = origin(area);
        if x < x0 || y < y0 {
            return None;
        }
        let c = (x - x0) / CW;
        let line = (y - y0) / CH;
        if c >= u16::from(board::COLS) || line >= u16::from(board::ROWS) {
            return None;
        }
        Some(board::square(c as u8, board::ROWS - 1 - line as u8))
    }

    fn cell_place(&self, area: Rect, sq: u8) -> Option<(u16, u16)> {
        if usize::from(sq) >= board::SQUARES {
            return None;
        }
        let (x0, y0) = origin(area);
        Some((
            x0 + u16::from(board::col(sq)) * CW,
            y0 + u16::from(board::ROWS - 1 - board::row(sq)) * CH,
        ))
    }

    fn status(&self, pos: &Position) -> String {
        // Over, the turn text is already the match's count.
        let played = if pos.pending.is_some() {
            format!(" ({} played)", pos.match_turns)
        } else {
            String::new()
        };
        format!(
            "sets RED {} - BLU {} · points {} - {} · {}{played} · {} · initiative {}",
            pos.sets[0],
            pos.sets[1],
            pos.points[0],
            pos.points[1],
            self.turn_text(pos),
            pos.phase.name(),
            pos.initiative.map_or("-".to_string(), |t| t.to_string())
        )
    }

    /// The rulebook's numbering, as `ball show` and the log's `turn N of
    /// the point` say it: turn 1 is the point's first (G4.6), after its
    /// placement; at the end, how many turns the match played (G3.6).
    fn turn_text(&self, pos: &Position) -> String {
        match (pos.pending, pos.turn) {
            (None, _) => format!(
                "{} turn{} played",
                pos.match_turns,
                if pos.match_turns == 1 { "" } else { "s" }
            ),
            (Some(_), 0) => "placement".into(),
            (Some(_), n) => format!("turn {n}"),
        }
    }

    fn legend(&self) -> Vec<String> {
        vec![
            "R2↗ RED2 facing NE · ● ball held, ●→ flying, ●↻ spinball".into(),
            "|R| |B| goals · --- side wall · [+] corner · n neutral zone".into(),
        ]
    }

    fn side_panel(&self, view: &View<'_, Gball>, width: u16) -> Vec<Line<'static>> {
        let pos = view.session.position();
        let w = width.saturating_sub(2) as usize;
        show::details(pos)
            .into_iter()
            .flat_map(|l| crate::tui::text::wrap(&l, w, 2))
            .map(Line::from)
            .collect()
    }

    fn describe_cell(&self, pos: &Position, sq: u8) -> String {
        let on: Vec<String> = members(pos.roster)
            .filter(|&p| pos.players[usize::from(p)].at == sq)
            .map(|p| {
                let pl = &pos.players[usize::from(p)];
                let mut s = format!("{} facing {}", Id(p), board::dir_name(pl.facing));
                if pos.ball.holder == p {
                    s.push_str(if pl.out == Status::None {
                        " (holds the ball)"
                    } else {
                        " (leaving with the ball)"
                    });
                }
                s
            })
            .collect();
        let what = match board::kind(sq) {
            board::Kind::Corner => "a corner",
            board::Kind::Goal => "a goal square",
            board::Kind::SideWall => "a side wall",
            board::Kind::Air => "air",
        };
        let mut s = format!("{}: {what}", board::Sq(sq));
        if !on.is_empty() {
            s.push_str(&format!("; {}", on.join(", ")));
        }
        if pos.ball.at == sq && pos.ball.holder == board::NONE {
            s.push_str("; the ball is loose here");
        }
        s
    }

    fn help(&self) -> Vec<String> {
        [
            "G-ball: every decision answers the pending one (panel)",
            "place           a player by his number, then a wall square",
            "move            keypad 1-9 or arrows: a direction; 5 stays",
            "turn            ← or , left, → or . right, n none",
            "decline/receive the players by the menu's number; n none",
            "catch / block   a player by his number or a click; n none",
            "act (holder)    k keep, t throw + direction, p spin,",
            "                h hand off + team-mate (his number)",
            "click [ ]       the square a choice is made on",
        ]
        .map(str::to_string)
        .to_vec()
    }
}
