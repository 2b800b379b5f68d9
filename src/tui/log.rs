//! The log panel's lines, from the session's line of play: a header at
//! each new turn or seat, every action in the notation, then what the
//! game says of it (its events worth a line, a card's effect in plain
//! words) and any script failure. In a replay, the actions ahead follow,
//! dimmed.

use ratatui::style::{Color, Modifier, Style};

use super::board::Board;
use super::draw::seat_colour;
use crate::shell::{Played, Session, Tone};

/// One log entry, before wrapping.
pub struct LogLine {
    pub text: String,
    pub style: Style,
    pub indent: usize,
}

const ERROR: Color = Color::LightRed;

fn line(text: String, style: Style, indent: usize) -> LogLine {
    LogLine {
        text,
        style,
        indent,
    }
}

/// The entries, and the index just past the current action (a replay
/// keeps it in view).
pub fn lines<G: Board>(s: &Session<G>) -> (Vec<LogLine>, usize) {
    let game = s.game();
    let mut out = Vec::new();
    let error = Style::default().fg(ERROR);
    for w in s.warnings() {
        out.push(line(format!("warning: {w}"), error, 0));
    }
    for e in s.start_errors() {
        out.push(line(format!("script error: {e}"), error, 0));
    }
    for e in s.created() {
        if let Some((text, tone)) = game.event_line(e) {
            out.push(line(text, tone_style(tone), 2));
        }
    }
    let header = |turn: u32, seat: usize, dim: bool| {
        let style = if dim {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default()
                .fg(seat_colour(seat))
                .add_modifier(Modifier::BOLD)
        };
        line(format!("turn {turn} · {}", G::SEATS[seat]), style, 0)
    };
    let mut last: Option<(u32, usize)> = None;
    let mut current = out.len();
    let played = s.played();
    for (i, p) in played.iter().enumerate() {
        let key = (game.turn(&p.before), game.to_move(&p.before).unwrap_or(0));
        if last != Some(key) {
            out.push(header(key.0, key.1, false));
            last = Some(key);
        }
        let mark = s.is_replay() && i + 1 == played.len();
        push_action(s, p, mark, false, &mut out);
        current = out.len();
    }
    let pos = s.position();
    if let Some(seat) = game.to_move(pos) {
        let key = (game.turn(pos), seat);
        if last != Some(key) {
            out.push(header(key.0, key.1, false));
            last = Some(key);
            current = out.len();
        }
    }
    if s.is_replay() {
        for p in s.history().ahead() {
            let key = (game.turn(&p.before), game.to_move(&p.before).unwrap_or(0));
            if last != Some(key) {
                out.push(header(key.0, key.1, true));
                last = Some(key);
            }
            push_action(s, p, false, true, &mut out);
        }
    }
    (out, current)
}

fn push_action<G: Board>(
    s: &Session<G>,
    p: &Played<G>,
    mark: bool,
    dim: bool,
    out: &mut Vec<LogLine>,
) {
    let game = s.game();
    let seat = game.to_move(&p.before).unwrap_or(0);
    let dim_style = Style::default().fg(Color::DarkGray);
    // In a replay, `▸` marks the action just stepped to.
    let (text, indent) = if mark {
        (format!("▸{}", p.action), 0)
    } else {
        (p.action.to_string(), 1)
    };
    let style = if dim {
        dim_style
    } else {
        Style::default().fg(seat_colour(seat))
    };
    out.push(line(text, style, indent));
    if dim {
        return;
    }
    for n in game.narrate(&p.before, p.action, &p.after, &p.events) {
        out.push(line(n, Style::default().fg(Color::Gray), 3));
    }
    for e in &p.events {
        if let Some((text, tone)) = game.event_line(e) {
            out.push(line(text, tone_style(tone), 3));
        }
    }
    for e in &p.errors {
        out.push(line(
            format!("script error: {e}"),
            Style::default().fg(ERROR),
            3,
        ));
    }
}

fn tone_style(t: Tone) -> Style {
    match t {
        Tone::Quiet => Style::default().fg(Color::Gray),
        Tone::Loud => Style::default()
            .fg(Color::Yellow)
            .add_modifier(Modifier::BOLD),
    }
}
