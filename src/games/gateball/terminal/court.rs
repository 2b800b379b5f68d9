//! Gateball's board area in the terminal: the court with the tokens of
//! T1.9 and `ball show` — `#` Outside Line, `S` Start Area, `+` Inside
//! Line, `.` court, `F` Finish, a gate's number on its bottom space and an
//! arrow on its top space, balls as `r1` … `b10` — each right-aligned in a
//! cell of 4 columns, as `ball show` draws them (5 on a wide terminal).
//! A token never fills its cell, so two never touch: in 3 columns, `b10`
//! beside a gate's `v` read `vb10`.
//!
//! Everything a colour says is also said in text where the cell has
//! room: `[ ]` around a space that may be chosen or where a power move
//! ends, `( )` around the Start Space, the path and the move waiting for
//! Enter (`b10` keeps only its `[` in a 4-column cell).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use crate::games::gateball::Gateball;
use crate::games::gateball::action::Motion;
use crate::games::gateball::court::Court;
use crate::games::gateball::moves::{self, ball_name};
use crate::games::gateball::position::{Position, Team};
use crate::games::gateball::space::{Space, column_name};
use crate::tui::View;

/// A wide terminal gets 5-column cells, where `[b10]` has its marks, when
/// the panel keeps at least this much more than its narrowest.
const WIDE_EXTRA: u16 = 4;

const OPTION_BG: Color = Color::Indexed(28);
const CHOSEN_BG: Color = Color::Indexed(130);
const LAST_BG: Color = Color::Indexed(24);

pub fn team_colour(team: Team) -> Color {
    crate::tui::draw::seat_colour(match team {
        Team::Red => 0,
        Team::Blue => 1,
    })
}

/// Where the board's spaces are on screen: the top-left cell of column A
/// of the top row, and the width of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub x: u16,
    pub y: u16,
    /// Columns of one space (4 or 5).
    pub cw: u16,
    /// Board columns and rows, the Outside Line included.
    pub cols: u8,
    pub rows: u8,
}

impl Geometry {
    /// The spaces of a court drawn in `area` (border included).
    pub fn of(court: &Court, area: Rect) -> Geometry {
        let cols = court.board_cols();
        Geometry {
            x: area.x + 1 + 3,
            y: area.y + 2,
            cw: if area.width >= width(court, 5) { 5 } else { 4 },
            cols,
            rows: court.board_rows(),
        }
    }

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

/// The court block's width for a cell width: border, the row label (3),
/// the cells, one space, border.
pub fn width(court: &Court, cw: u16) -> u16 {
    2 + 3 + u16::from(court.board_cols()) * cw + 1
}

/// Border, header, the rows, header, border.
pub fn height(court: &Court) -> u16 {
    u16::from(court.board_rows()) + 4
}

/// The court's size in a room.
pub fn size(court: &Court, w: u16) -> (u16, u16) {
    let cw = if width(court, 5) + WIDE_EXTRA <= w {
        5
    } else {
        4
    };
    (width(court, cw), height(court))
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
pub fn ball_on(pos: &Position, s: Space) -> Option<u8> {
    let on = |n: u8| pos.ball_state(n).place.space() == Some(s);
    if on(pos.ball) {
        return Some(pos.ball);
    }
    (1..=10u8).find(|&n| on(n))
}

/// A cell's text: the token right-aligned, with the marks around it where
/// the cell has room; its first column is never the token's, so that two
/// tokens never run together.
pub fn cell_text(token: &str, marks: Option<(char, char)>, cw: usize) -> String {
    let n = token.chars().count();
    let text = match marks {
        Some((l, r)) if n + 2 <= cw => format!("{l}{token}{r}"),
        Some((l, _)) if n < cw => format!("{l}{token}"),
        _ => token.to_string(),
    };
    format!("{text:>cw$}")
}

/// The spaces to mark: chosen (the Start Space, the path so far, the
/// whole move that waits, and the moving ball's space when it is not a
/// start shot), choosable (the
/// offered cells, and where every power move still open ends), and the
/// last move's trace.
fn marks(view: &View<'_, Gateball>) -> (Vec<Space>, Vec<Space>, Vec<Space>) {
    let s = view.session;
    let game = s.game();
    let pos = s.position();
    let mut chosen = view.chosen_cells();
    let mut options = view.option_cells();
    let mut any = false;
    for (a, _) in s.chooser().matching() {
        if let Some(j) = moves::judge(game, pos, a) {
            if !any && j.start.is_none() {
                chosen.push(j.origin);
                any = true;
            }
            if matches!(j.motion, Motion::Straight { .. }) {
                options.push(j.end);
            }
        }
    }
    if let Some(a) = s.waiting()
        && let Some(j) = moves::judge(game, pos, a)
    {
        chosen.push(j.origin);
        chosen.extend(j.trace);
    }
    let last = match s.played().last() {
        Some(p) => match moves::judge(game, &p.before, p.action) {
            Some(j) => {
                let mut v = vec![j.origin];
                v.extend(j.trace);
                v
            }
            None => Vec::new(),
        },
        None => Vec::new(),
    };
    (chosen, options, last)
}

pub fn draw(view: &View<'_, Gateball>, area: Rect, buf: &mut Buffer) {
    let s = view.session;
    let pos = s.position();
    let court = &s.game().court;
    let g = Geometry::of(court, area);
    let cw = g.cw as usize;
    let block = Block::bordered().title(format!(" court {} ", court.name));
    let inner = block.inner(area);
    block.render(area, buf);
    let label = Style::default().fg(Color::Gray);
    let header: String = (1..=g.cols)
        .map(|c| format!("{:>cw$}", column_name(c)))
        .collect();
    buf.set_string(inner.x + 3, inner.y, &header, label);
    buf.set_string(inner.x + 3, inner.y + inner.height - 1, &header, label);
    let (chosen, options, last) = marks(view);
    for row in (1..=g.rows).rev() {
        let (_, y) = g.cell(Space::new(1, row));
        buf.set_string(inner.x, y, format!("{row:>3}"), label);
        for col in 1..=g.cols {
            let sp = Space::new(col, row);
            let (x, y) = g.cell(sp);
            let (token, style) = match ball_on(pos, sp) {
                Some(n) => (
                    ball_name(n),
                    Style::default()
                        .fg(team_colour(Team::of_ball(n)))
                        .add_modifier(Modifier::BOLD),
                ),
                None => mark(court, sp),
            };
            let (marks, bg) = if chosen.contains(&sp) {
                (Some(('(', ')')), Some(CHOSEN_BG))
            } else if options.contains(&sp) {
                (Some(('[', ']')), Some(OPTION_BG))
            } else if last.contains(&sp) {
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

/// What is on a space, for the message line.
pub fn describe(game: &Gateball, pos: &Position, s: Space) -> String {
    let court = &game.court;
    if let Some(n) = ball_on(pos, s) {
        let b = pos.ball_state(n);
        return format!(
            "{s}: ball {} ({}, {} gate{})",
            ball_name(n),
            Team::of_ball(n).name(),
            b.gates,
            if b.gates == 1 { "" } else { "s" }
        );
    }
    let what = if let Some(n) = court.gates.iter().position(|g| g.bottom == s || g.top == s) {
        format!("gate {}", n + 1)
    } else if court.is_start(s) {
        "Start Area".into()
    } else if court.is_outside(s) {
        "Outside Line".into()
    } else if s == court.finish {
        "the Finish".into()
    } else if court.is_inside_line(s) {
        "Inside Line".into()
    } else {
        "court".into()
    };
    format!("{s}: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_keep_the_marks_where_there_is_room() {
        assert_eq!(cell_text(".", None, 4), "   .");
        assert_eq!(cell_text(".", Some(('[', ']')), 4), " [.]");
        assert_eq!(cell_text("r1", Some(('[', ']')), 4), "[r1]");
        assert_eq!(cell_text("b10", Some(('[', ']')), 4), "[b10");
        assert_eq!(cell_text("b10", None, 4), " b10");
        assert_eq!(cell_text("b10", Some(('(', ')')), 5), "(b10)");
    }

    #[test]
    fn spaces_are_hit_where_they_are_drawn() {
        let g = Geometry {
            x: 4,
            y: 3,
            cw: 4,
            cols: 22,
            rows: 17,
        };
        let k9 = Space::parse("K9").unwrap();
        let (x, y) = g.cell(k9);
        assert_eq!(g.space_at(x, y), Some(k9));
        assert_eq!(g.space_at(x + 3, y), Some(k9));
        assert_eq!(g.space_at(x + 4, y), Space::parse("L9"));
        assert_eq!(g.space_at(0, 0), None);
        assert_eq!(g.space_at(x, y + 100), None);
        assert_eq!(g.cell(Space::parse("A17").unwrap()), (4, 3));
    }
}
