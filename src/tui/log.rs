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
    tail(s, usize::MAX)
}

/// The entries of at least the last `actions` actions (all of a replay's,
/// which keeps its current action in view), and the index just past the
/// current action. Every action is at least one line, so a log `h` lines
/// high scrolled `k` back needs `h + k` actions: the board draws a
/// G-ball match of 100,000 actions in the time of a short one.
pub fn tail<G: Board>(s: &Session<G>, actions: usize) -> (Vec<LogLine>, usize) {
    let game = s.game();
    let mut out = Vec::new();
    let error = Style::default().fg(ERROR);
    let played = s.played();
    let first = if s.is_replay() {
        0
    } else {
        played.len().saturating_sub(actions)
    };
    if first == 0 {
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
    }
    let header = |turn: &str, seat: usize, dim: bool| {
        let style = if dim {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default()
                .fg(seat_colour(seat))
                .add_modifier(Modifier::BOLD)
        };
        line(format!("{turn} · {}", G::SEATS[seat]), style, 0)
    };
    // The turn of the action before the first shown: its header is
    // above the first line.
    let mut last: Option<(String, usize)> = first.checked_sub(1).map(|i| {
        let p = &played[i];
        (
            game.turn_text(&p.before),
            game.to_move(&p.before).unwrap_or(0),
        )
    });
    let mut current = out.len();
    for (i, p) in played.iter().enumerate().skip(first) {
        let key = (
            game.turn_text(&p.before),
            game.to_move(&p.before).unwrap_or(0),
        );
        if last.as_ref() != Some(&key) {
            out.push(header(&key.0, key.1, false));
            last = Some(key);
        }
        let mark = s.is_replay() && i + 1 == played.len();
        push_action(s, p, mark, false, &mut out);
        current = out.len();
    }
    let pos = s.position();
    if let Some(seat) = game.to_move(pos) {
        let key = (game.turn_text(pos), seat);
        if last.as_ref() != Some(&key) {
            out.push(header(&key.0, key.1, false));
            last = Some(key);
            current = out.len();
        }
    }
    if s.is_replay() {
        for p in s.history().ahead() {
            let key = (
                game.turn_text(&p.before),
                game.to_move(&p.before).unwrap_or(0),
            );
            if last.as_ref() != Some(&key) {
                out.push(header(&key.0, key.1, true));
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
