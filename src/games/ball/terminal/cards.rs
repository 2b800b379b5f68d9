//! The card menu of card mode (B11), drawn over the board while the coach
//! chooses a card (`c`): every card of the deck with its key, its costs
//! and uses left, `✓` on the ones playable now — and for each other one
//! why not, in the game's own words (its refusal of that card's action,
//! asked on a copy of the position) — then the highlighted card's rules
//! text in full and what `convert` pays.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

use crate::games::ball::Ball;
use crate::games::ball::extension::CardSummary;
use crate::games::ball::position::Position;
use crate::tui::{Panel, View};
use crate::tui::text::wrap;

/// The menu's width, and its rules text's (inside the border, one space
/// either side).
pub const WIDTH: u16 = 78;
const TEXT_WIDTH: usize = WIDTH as usize - 4;

/// What the use limits of a card leave, e.g. `1/2 left`, `0/1 this
/// turn`; `None` for an unlimited card.
pub fn uses_left(pos: &Position, card: &CardSummary) -> Option<String> {
    let (game, turn) = pos.card_uses.get(pos.to_move, card.id);
    let mut parts = Vec::new();
    if let Some(u) = card.uses {
        parts.push(format!("{}/{u} left", u.saturating_sub(game)));
    }
    if let Some(u) = card.per_turn {
        parts.push(format!("{}/{u} this turn", u.saturating_sub(turn)));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The overlay, while the step after `c` is open.
pub fn overlay(view: &View<'_, Ball>) -> Option<Panel> {
    let s = view.session;
    if !matches!(s.chosen(), [c] if c.label == "cards") {
        return None;
    }
    let game = s.game();
    let pos = s.position();
    let team = pos.to_move;
    let deck = game.cards(team);
    let options = s.options();
    let highlighted = view
        .highlighted
        .and_then(|i| options.get(i))
        .map(|c| c.label.as_str());
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::styled(
        " ✓ playable now · its key, or ↑/↓ and Enter · Esc closes",
        bold,
    )];
    let mut items = Vec::new();
    for (i, c) in deck.iter().enumerate() {
        let key = match i + 1 {
            n @ 1..=9 => char::from(b'0' + n as u8),
            10 => '0',
            _ => ' ',
        };
        let playable = options.iter().any(|o| o.label == c.name);
        let pointer = if highlighted == Some(c.name.as_str()) {
            "›"
        } else {
            " "
        };
        let ap = if c.ap > 0 {
            format!(" {} AP", c.ap)
        } else {
            String::new()
        };
        let uses = uses_left(pos, c).map_or(String::new(), |u| format!(" · {u}"));
        let costs = format!("{} EP{ap}{uses}", c.cost);
        let (text, style) = if playable {
            items.push((lines.len(), c.name.clone()));
            let mut st = Style::default();
            if pointer == "›" {
                st = st.add_modifier(Modifier::REVERSED);
            }
            (format!("{pointer}{key} ✓ {:<13} {costs}", c.name), st)
        } else {
            let why = crate::games::ball::flow::why_not(game, pos, c).unwrap_or_default();
            (
                format!("{pointer}{key}   {:<13} {costs} · {why}", c.name),
                Style::default().fg(Color::DarkGray),
            )
        };
        lines.push(Line::styled(text, style));
    }
    lines.push(Line::styled(
        "─".repeat(TEXT_WIDTH + 2),
        Style::default().fg(Color::Gray),
    ));
    let shown = highlighted.and_then(|h| deck.iter().find(|c| c.name == h));
    match shown {
        Some(c) => {
            let mut head = format!("{} ({} EP", c.name, c.cost);
            if c.ap > 0 {
                head.push_str(&format!(", {} AP", c.ap));
            }
            head.push(')');
            if let Some(u) = uses_left(pos, c) {
                head.push_str(&format!(" · {u}"));
            }
            lines.push(Line::styled(format!(" {head}"), bold));
            for l in wrap(&c.text, TEXT_WIDTH, 0) {
                lines.push(Line::from(format!(" {l}")));
            }
        }
        None => lines.push(Line::from(" no card is playable now")),
    }
    let convert = match game.convert_rate(pos, 1) {
        Some(ep) => format!(" v converts AP into EP: {ep} EP an AP now (B11.4)"),
        None => " convert: no AP left to turn into EP (B11.4)".to_string(),
    };
    lines.push(Line::styled(convert, Style::default().fg(Color::Gray)));
    Some(Panel {
        title: format!(
            " cards · {team} has {} EP, {} AP ",
            pos.ep[team as usize], pos.ap
        ),
        width: WIDTH,
        lines,
        items,
    })
}
