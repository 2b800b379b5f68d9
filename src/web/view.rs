//! What a client is shown of a session, as JSON: the board's SVG, the
//! prompt, the choices offered (to the seat to move only), the log in
//! the plain words the terminal board's log uses (`Flow::event_line`,
//! `Flow::narrate`), the game's own panels (`tui::Board::overlay` — BALL's
//! card menu with its rules text — and `side_panel`, Gateball's dice and
//! facts) as text, and who sits where.

use serde_json::{Value, json};

use crate::games::Module;
use crate::kernel::game::Game;
use crate::shell::{Played, Session, Tone};
use crate::tui::View;
use crate::web::svg::Marks;

/// Who is looking: a seat (by index) or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Seat(usize),
    Spectator,
}

/// Width the text panels are laid out for, in characters.
const PANEL_WIDTH: u16 = 60;

/// The view of `s` for `who`, with the `highlighted` entry of the offered
/// choices (the card whose rules text the card menu shows).
pub fn view<G: Module>(s: &Session<G>, who: Who, highlighted: Option<usize>) -> Value {
    let game = s.game();
    let pos = s.position();
    let to_move = s.to_move();
    let mine = matches!(who, Who::Seat(k) if to_move == Some(k)) && s.person_to_move();
    let hl = highlighted.filter(|&i| i < s.options().len());
    let mut marks = game.marks(s, hl);
    if !mine {
        marks.options.clear();
    }
    let options: Vec<Value> = if mine {
        s.options()
            .iter()
            .map(|c| {
                json!({
                    "label": c.label,
                    "help": c.help,
                    "keys": c.keys.iter().map(|k| k.name()).collect::<Vec<_>>(),
                    "cell": c.cell.map(|cell| game.cell_name(cell)),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let tview = View {
        session: s,
        highlighted: if mine { hl.or(Some(0)) } else { None },
        cursor: None,
    };
    let panel = if mine {
        game.overlay(&tview).map(|p| {
            json!({
                "title": p.title.trim(),
                "lines": p.lines.iter().map(line_text).collect::<Vec<_>>(),
                "items": p.items,
            })
        })
    } else {
        None
    };
    let side: Vec<String> = game
        .side_panel(&tview, PANEL_WIDTH)
        .iter()
        .map(line_text)
        .collect();
    let banner = s
        .played()
        .last()
        .and_then(|p| game.banner(&p.before, p.action, &p.after, &p.events));
    let waiting = s.waiting();
    json!({
        "game": G::NAME,
        "title": G::TITLE,
        "ruleset": G::ruleset_name(s.ruleset()),
        "seats": (0..2).map(|k| json!({
            "name": G::SEATS[k],
            "player": s.seat(k).label(),
        })).collect::<Vec<_>>(),
        "you": match who { Who::Seat(k) => json!(k), Who::Spectator => Value::Null },
        "to_move": to_move,
        "my_turn": mine,
        "version": s.version(),
        "svg": game.svg(pos, &marks),
        "status": game.status(pos),
        "prompt": s.prompt(),
        "result": s.result_text(),
        "over": to_move.is_none(),
        "options": options,
        "chosen": s.chosen().iter().map(|c| c.label.clone()).collect::<Vec<_>>(),
        "waiting": mine && waiting.is_some(),
        "preview": if mine { waiting.and_then(|a| game.preview(pos, a)) } else { None },
        "panel": panel,
        "side": side,
        "banner": banner,
        "legend": game.legend(),
        "log": log(s),
        "played": s.played().len(),
        "ahead": s.history().ahead().len(),
        // What predicts a die is never sent before the game ends.
        "position": if to_move.is_none() {
            game.write_position(pos)
        } else {
            game.write_public_position(pos)
        },
    })
}

fn line_text(l: &ratatui::text::Line<'_>) -> String {
    l.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// The log, as the terminal board's (`tui::log`): a header at each new
/// turn or seat, each action, the game's words about it, script errors.
pub fn log<G: Module>(s: &Session<G>) -> Vec<Value> {
    let game = s.game();
    let mut out = Vec::new();
    let entry = |text: String, kind: &str, seat: Option<usize>| json!({"text": text, "kind": kind, "seat": seat});
    for w in s.warnings() {
        out.push(entry(format!("warning: {w}"), "error", None));
    }
    for e in s.start_errors() {
        out.push(entry(format!("script error: {e}"), "error", None));
    }
    for e in s.created() {
        if let Some((text, tone)) = game.event_line(e) {
            out.push(entry(text, tone_kind(tone), None));
        }
    }
    let mut last: Option<(u32, usize)> = None;
    let mut header = |out: &mut Vec<Value>, pos: &G::Position| {
        let key = (game.turn(pos), game.to_move(pos).unwrap_or(0));
        if last != Some(key) {
            out.push(entry(
                format!("turn {} · {}", key.0, G::SEATS[key.1]),
                "header",
                Some(key.1),
            ));
            last = Some(key);
        }
    };
    for p in s.played() {
        header(&mut out, &p.before);
        push_action(game, p, &mut out);
    }
    if s.to_move().is_some() {
        header(&mut out, s.position());
    }
    out
}

fn push_action<G: Module>(game: &G, p: &Played<G>, out: &mut Vec<Value>) {
    let seat = game.to_move(&p.before);
    out.push(json!({"text": p.action.to_string(), "kind": "action", "seat": seat}));
    for n in game.narrate(&p.before, p.action, &p.after, &p.events) {
        out.push(json!({"text": n, "kind": "quiet", "seat": seat}));
    }
    for e in &p.events {
        if let Some((text, tone)) = game.event_line(e) {
            out.push(json!({"text": text, "kind": tone_kind(tone), "seat": seat}));
        }
    }
    for e in &p.errors {
        out.push(json!({"text": format!("script error: {e}"), "kind": "error", "seat": seat}));
    }
}

fn tone_kind(t: Tone) -> &'static str {
    match t {
        Tone::Quiet => "quiet",
        Tone::Loud => "loud",
    }
}

/// A position's board on its own, with nothing marked: `ball show --svg`
/// and the gallery.
pub fn board_svg<G: Module>(game: &G, pos: &<G as Game>::Position) -> String {
    game.svg(pos, &Marks::none())
}
