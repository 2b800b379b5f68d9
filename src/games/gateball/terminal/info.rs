//! The panel of the position's facts beside the court: turn, ball,
//! phase, dice, score, waiting and Goal balls, the touched list, each
//! ball's gates, who plays which team.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::court::team_colour;
use crate::games::gateball::Gateball;
use crate::games::gateball::moves::{ball_name, dice_text};
use crate::games::gateball::position::{Place, Team};
use crate::tui::View;
use crate::tui::text::wrap;

pub fn lines(view: &View<'_, Gateball>, w: usize) -> Vec<Line<'static>> {
    let s = view.session;
    let pos = s.position();
    let turns = s.game().rules.turns;
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
    if pos.continuation {
        phase.push_str(" · continuation");
    }
    out.push(Line::from(phase));
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
    let who = |seat: usize| s.seat(seat).words(seat, view.viewer);
    out.extend(
        wrap(&format!("red: {} · blue: {}", who(0), who(1)), w, 0)
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
            b"red" if word.ends_with(':') => Some(Team::Red),
            b"blue" if word.ends_with(':') => Some(Team::Blue),
            _ => None,
        };
        match team {
            Some(t) => spans.push(Span::styled(
                word.to_string(),
                Style::default().fg(team_colour(t)),
            )),
            None => spans.push(Span::styled(word.to_string(), Style::default())),
        }
    }
    spans
}
