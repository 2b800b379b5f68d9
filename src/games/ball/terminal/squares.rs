//! BALL's board area in the terminal: the 13 × 17 squares, where they
//! are on screen (both ways: drawing and clicks use one [`Geometry`]),
//! the pieces' glyphs, and the cursor's moves.
//!
//! Everything a colour says is also said in text, for monochrome
//! terminals and the text snapshots: the teams by the glyphs' case (ATK
//! `X O □`, DEF `x o ▪`), a down piece by its glyph turned (`+ ⊖ ◇`,
//! `⁺ ө ◆`), a restricted one by `'`, the ball by `●` after its holder,
//! a stack as top then bottom with `/` for a block and `=` for a
//! protection, `[ ]` around a square that may be chosen, `( )` around
//! what was chosen, `:` on an empty end-zone square.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use crate::games::ball::Ball;
use crate::games::ball::action::Action;
use crate::games::ball::board::{COLS, ROWS, Sq, is_playable};
use crate::games::ball::piece::{Kind, PieceId, Team};
use crate::games::ball::position::Position;
use crate::kernel::grid::Coord;
use crate::shell::Key;
use crate::tui::View;

/// Columns of row labels (`17`: a square's first column, blank or a mark,
/// keeps them apart from its label), the board's border, and four columns
/// on the right for a label of column M to spill into: the longest label,
/// a protection of two restricted pieces with the ball (`x5'●=x6'`), is 8
/// columns, the width of a 4-column square and its unplayable neighbour.
pub const FRAME_W: u16 = 8;

/// The widest label of a square: a stack of two pieces, one with the
/// ball, both restricted.
pub const LABEL_MAX: u16 = 8;
/// The border and the column letters.
pub const FRAME_H: u16 = 3;

const BALL_FG: Color = Color::Yellow;
const SQUARE_BG: Color = Color::Indexed(237);
const END_ZONE_BG: Color = Color::Indexed(58);
const OPTION_BG: Color = Color::Indexed(28);
const CHOSEN_BG: Color = Color::Indexed(130);
const LAST_BG: Color = Color::Indexed(24);

pub fn team_colour(team: Team) -> Color {
    crate::tui::draw::seat_colour(team as usize)
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
    /// The squares of a board drawn in `area` (border included).
    pub fn of(area: Rect) -> Geometry {
        Geometry {
            x: area.x + 1 + 2,
            y: area.y + 2,
            cw: (area.width.saturating_sub(FRAME_W) / COLS as u16).max(1),
            ch: (area.height.saturating_sub(FRAME_H) / ROWS as u16).max(1),
        }
    }

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

/// Columns a larger square leaves to the panel beyond its narrowest: the
/// choices' help and the log read better than a wider board.
const PANEL_EXTRA: u16 = 16;

/// The board's size in a room: squares 4 to 7 columns wide, two lines
/// high once they are 5 wide and the room is tall enough.
pub fn size(w: u16, h: u16) -> (u16, u16) {
    let cw = (5..=7u16)
        .rev()
        .find(|cw| COLS as u16 * cw + FRAME_W + PANEL_EXTRA <= w)
        .unwrap_or(4);
    let ch = if cw >= 5 && h >= ROWS as u16 * 2 + FRAME_H {
        2
    } else {
        1
    };
    (COLS as u16 * cw + FRAME_W, ROWS as u16 * ch + FRAME_H)
}

/// The glyph of a piece: its kind in its team's case, turned when it is
/// down (B2.3).
pub fn glyph(team: Team, kind: Kind, down: bool) -> char {
    match (team, kind, down) {
        (Team::Atk, Kind::X, false) => 'X',
        (Team::Atk, Kind::X, true) => '+',
        (Team::Atk, Kind::O, false) => 'O',
        (Team::Atk, Kind::O, true) => '⊖',
        (Team::Atk, Kind::Square, false) => '□',
        (Team::Atk, Kind::Square, true) => '◇',
        (Team::Def, Kind::X, false) => 'x',
        (Team::Def, Kind::X, true) => '⁺',
        (Team::Def, Kind::O, false) => 'o',
        (Team::Def, Kind::O, true) => 'ө',
        (Team::Def, Kind::Square, false) => '▪',
        (Team::Def, Kind::Square, true) => '◆',
    }
}

/// A piece as text: glyph, number, `'` when restricted (B4.5), `●` when
/// it holds the ball.
pub fn piece_text(pos: &Position, id: PieceId) -> String {
    let p = pos.piece(id);
    let mut s = format!("{}{}", glyph(id.team(), p.kind, p.down), id.number());
    if p.restricted {
        s.push('\'');
    }
    if pos.holder() == Some(id) {
        s.push('●');
    }
    s
}

/// A square's content: a piece, a stack (top, `/` over an opponent or
/// `=` over a team-mate, bottom), the loose ball, or the empty mark.
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
        let text = piece_text(pos, id);
        match text.strip_suffix('●') {
            Some(head) => vec![
                Span::styled(head.to_string(), style),
                Span::styled(
                    "●",
                    Style::default().fg(BALL_FG).add_modifier(Modifier::BOLD),
                ),
            ],
            None => vec![Span::styled(text, style)],
        }
    };
    if let Some(st) = pos.stacks.at(sq) {
        let sep = if st.top.team() == st.bottom.team() {
            "="
        } else {
            "/"
        };
        let mut v = piece(st.top);
        v.push(Span::styled(sep, Style::default().fg(Color::Gray)));
        v.extend(piece(st.bottom));
        return v;
    }
    if let Some(id) = pos.piece_at(sq) {
        return piece(id);
    }
    if pos.loose_ball() == Some(sq) {
        return vec![Span::styled(
            "●",
            Style::default().fg(BALL_FG).add_modifier(Modifier::BOLD),
        )];
    }
    if reception {
        return vec![Span::styled("∘", Style::default().fg(BALL_FG))];
    }
    let mark = if end_zone { ":" } else { "·" };
    vec![Span::styled(mark, Style::default().fg(Color::Gray))]
}

/// B8.2: the reception square of a short pass just played, drawn as
/// where the ball arrived.
fn reception(view: &View<'_, Ball>) -> Option<Sq> {
    match view.session.played().last()?.action {
        Action::SPass { at, .. } => Some(at),
        _ => None,
    }
}

pub fn draw(view: &View<'_, Ball>, area: Rect, buf: &mut Buffer) {
    let s = view.session;
    let pos = s.position();
    let g = Geometry::of(area);
    let depth = s.game().params.end_zone_depth;
    let frame = Block::bordered().title(format!(" rows {}-{ROWS}: ATK scores ", ROWS - depth + 1));
    let inner = frame.inner(area);
    frame.render(area, buf);
    let bottom_title = format!(" rows 1-{depth}: DEF scores ");
    if area.width as usize > bottom_title.len() + 2 {
        buf.set_string(
            area.x + 1,
            area.y + area.height - 1,
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
    let mut options = view.option_cells();
    if options.is_empty() {
        // In the action menu: where the highlighted kind of action goes.
        options = view.cells_after_highlighted();
    }
    let chosen = view.chosen_cells();
    let last = view.last_cells();
    let reception = reception(view);
    let cursor = view.cursor.filter(|_| !s.is_replay());
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
            let is_option = options.contains(&sq);
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
            if cursor == Some(sq) {
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
            let body = content(pos, sq, end_zone, reception == Some(sq));
            let width: usize = body.iter().map(|s| s.width()).sum();
            // A label may spill into the unplayable square to its right,
            // keeping a blank column before the next playable one; the
            // longest labels take that column too, never the next square.
            let room = if col == COLS {
                g.cw as usize + 2
            } else {
                2 * g.cw as usize - 1
            };
            let most = if col == COLS {
                g.cw + FRAME_W - 4
            } else {
                2 * g.cw
            };
            let mut spans = Vec::new();
            // A label too wide for its marks keeps its text: the colour
            // still marks the square.
            if width < room {
                spans.push(Span::raw(open));
            }
            spans.extend(body);
            if width + 1 < room {
                spans.push(Span::raw(close));
            }
            let mut line = Line::from(spans);
            line.spans
                .iter_mut()
                .for_each(|s| s.style = cell_style.patch(s.style));
            buf.set_line(x, y, &line, most);
        }
    }
}

/// The legend under the board.
pub const LEGEND: [&str; 3] = [
    "ATK X O □ · DEF x o ▪ · down + ⊖ ◇ ⁺ ө ◆ · ● ball",
    "X3●/o2 block, x5=x6 protect (top first) · X3' restricted",
    ": end zone · ∘ pass received · [ ] choice · ( ) chosen",
];

/// The cursor one square on. Up and down zigzag by one column (only
/// every other square of a row is playable), always the same way for a
/// row, so that going back comes back to the same square.
pub fn cursor_move(sq: Sq, key: Key) -> Option<Sq> {
    let c = sq.coord();
    let (col, row) = (c.col as i16, c.row as i16);
    let at = |col: i16, row: i16| {
        (col >= 1 && col <= COLS as i16 && row >= 1 && row <= ROWS as i16)
            .then(|| {
                Sq::from_coord(Coord {
                    col: col as u8,
                    row: row as u8,
                })
            })
            .flatten()
    };
    match key {
        Key::Left => at(col - 2, row),
        Key::Right => at(col + 2, row),
        Key::Up | Key::Down => {
            let row = if key == Key::Up { row + 1 } else { row - 1 };
            let shift = if row % 2 == 0 { 1 } else { -1 };
            at(col + shift, row).or_else(|| at(col - shift, row))
        }
        Key::Char(_) => None,
    }
}

/// Who is on `sq` and in what state, for the message line.
pub fn describe(pos: &Position, sq: Sq) -> String {
    let piece = |p: PieceId| {
        let pc = pos.piece(p);
        // The kind as the board draws it, in the team's case.
        let kind = glyph(p.team(), pc.kind, false).to_string();
        let mut facts = vec![kind.as_str()];
        if pc.down {
            facts.push("down");
        }
        if pc.restricted {
            facts.push("restricted");
        }
        if pos.holder() == Some(p) {
            facts.push("holds the ball");
        }
        format!("{p} ({})", facts.join(", "))
    };
    if let Some(st) = pos.stacks.at(sq) {
        let how = if st.top.team() == st.bottom.team() {
            "protects"
        } else {
            "blocks"
        };
        return format!(
            "{sq}: stack, {} {how} {} (formed turn {})",
            piece(st.top),
            piece(st.bottom),
            st.formed
        );
    }
    if let Some(p) = pos.piece_at(sq) {
        return format!("{sq}: {}", piece(p));
    }
    if pos.loose_ball() == Some(sq) {
        return format!("{sq}: the loose ball");
    }
    format!("{sq}: empty")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Sq {
        Sq::parse(s).unwrap()
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
        assert_eq!(g.square_at(x, y), Some(sq("G9")));
        assert_eq!(g.square_at(x + 3, y), Some(sq("G9")));
        assert_eq!(g.square_at(x + 4, y), None, "H9 is not playable");
        assert_eq!(g.square_at(0, 0), None);
        assert_eq!(g.square_at(x, y + 100), None);
    }

    #[test]
    fn the_cursor_stays_on_playable_squares_and_comes_back() {
        for s in Sq::all() {
            for k in [Key::Up, Key::Down, Key::Left, Key::Right] {
                if let Some(t) = cursor_move(s, k) {
                    let back = match k {
                        Key::Up => Key::Down,
                        Key::Down => Key::Up,
                        Key::Left => Key::Right,
                        _ => Key::Left,
                    };
                    // Edges may shift the other way; inside, a move and
                    // its reverse come back.
                    let c = s.coord();
                    if c.col > 1 && c.col < COLS {
                        assert_eq!(cursor_move(t, back), Some(s), "{s} {k:?}");
                    }
                }
            }
        }
        assert_eq!(cursor_move(sq("M17"), Key::Down), Some(sq("L16")));
        assert_eq!(cursor_move(sq("M17"), Key::Up), None);
        assert_eq!(cursor_move(sq("G9"), Key::Up), Some(sq("H10")));
        assert_eq!(cursor_move(sq("H10"), Key::Down), Some(sq("G9")));
    }

    #[test]
    fn a_stack_reads_in_the_legends_form_with_the_ball_marked() {
        let mut pos = Position::start(&crate::games::ball::params::Params::default());
        let (atk5, def3) = (PieceId::new(Team::Atk, 5), PieceId::new(Team::Def, 3));
        assert_eq!(piece_text(&pos, atk5), "X5●");
        assert_eq!(piece_text(&pos, def3), "x3");
        pos.piece_mut(def3).restricted = true;
        assert_eq!(piece_text(&pos, def3), "x3'");
    }
}
