//! What a client is shown of a session, as JSON: the board's SVG, the
//! prompt, the choices offered (to the seat to move only), the log in
//! the plain words the terminal board's log uses (`Flow::event_line`,
//! `Flow::narrate`), the game's own panels (`tui::Board::overlay` — BALL's
//! card menu with its rules text — and `side_panel`, Gateball's dice and
//! facts) as text, who sits where, whose turn it is in words, which of
//! the page's buttons work now, and how a finished game ended.
//!
//! A view carries what the client does not hold yet ([`Held`]): the log
//! from the action the client's log reaches (a long game's log is tens
//! of thousands of lines, and every update used to send all of it), and
//! the board's SVG only when it differs from the one the client shows. A
//! client without a log is sent its last page ([`LOG_PAGE`] actions);
//! earlier pages come one at a time ([`log_page`]).

use serde_json::{Value, json};

use crate::games::Module;
use crate::kernel::game::Game;
use crate::kernel::hash::fnv1a;
use crate::shell::{Played, Session, Tone, Viewer};
use crate::tui::View;
use crate::web::svg::Marks;

/// Who is looking: a seat (by index) or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Seat(usize),
    Spectator,
}

impl Who {
    fn viewer(self) -> Viewer {
        match self {
            Who::Seat(k) => Viewer::Seat(k),
            Who::Spectator => Viewer::Spectator,
        }
    }
}

/// Width the text panels are laid out for, in characters.
const PANEL_WIDTH: u16 = 60;

/// How many actions' log lines a page of the log holds: what a client
/// without a log is sent, and what one "older" request brings. A G-ball
/// action is about six lines, so a page is a few hundred lines.
pub const LOG_PAGE: usize = 60;

/// What a client already holds, so that its view carries only the rest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// The client's log reaches this action (the `log_to` of the view it
    /// holds), and that view was of `version`; `None`: no log yet.
    pub log: Option<(usize, u64)>,
    /// The `svg_hash` of the board the client shows.
    pub svg: Option<u64>,
}

/// Where the log sent to a client must start, given what the line of
/// play did since the client's view: the table keeps, for each undo, the
/// version it made and how many actions it left (`cuts`), and the first
/// version it knows of (`floor`: a table rebuilt from its record knows no
/// earlier undo). What the client holds past a cut, or anything held
/// from before the floor, is sent again.
pub fn log_start(
    held: Option<(usize, u64)>,
    played: usize,
    cuts: &[(u64, usize)],
    floor: u64,
    version: u64,
) -> usize {
    let Some((since, seen)) = held else {
        return played.saturating_sub(LOG_PAGE);
    };
    if seen < floor || seen > version {
        return played.saturating_sub(LOG_PAGE);
    }
    let cut = cuts
        .iter()
        .filter(|&&(v, _)| v > seen)
        .map(|&(_, len)| len)
        .min()
        .unwrap_or(usize::MAX);
    since.min(cut).min(played)
}

/// The seat whose action `undo` would take back: the last action of a
/// person (bots' actions after it go with it).
pub fn undo_seat<G: Module>(s: &Session<G>) -> Option<usize> {
    if s.is_replay() {
        return None;
    }
    s.played()
        .iter()
        .rev()
        .filter_map(|p| s.game().to_move(&p.before))
        .find(|&k| !s.seat(k).is_bot())
}

/// The seat whose action `redo` would play again.
pub fn redo_seat<G: Module>(s: &Session<G>) -> Option<usize> {
    if s.is_replay() {
        return None;
    }
    s.history()
        .ahead()
        .first()
        .and_then(|p| s.game().to_move(&p.before))
}

/// The view of `s` for `who`, with the `highlighted` entry of the offered
/// choices (the card whose rules text the card menu shows); `log_from`
/// is where its log starts ([`log_start`]) and `held_svg` the board the
/// client shows.
pub fn view<G: Module>(
    s: &Session<G>,
    who: Who,
    highlighted: Option<usize>,
    log_from: usize,
    held_svg: Option<u64>,
) -> Value {
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
        viewer: who.viewer(),
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
    let words = |k: usize| s.seat(k).words(k, who.viewer());
    // Whose turn, in words: the seat to move sees its prompt, every other
    // page who it waits for (the mover's prompt is not theirs to read).
    let turn = to_move.map(|k| {
        if mine {
            format!("your turn ({})", G::SEATS[k])
        } else {
            format!("waiting for {} ({})", G::SEATS[k], words(k))
        }
    });
    let prompt = match (&turn, mine) {
        (Some(t), false) => t.clone(),
        _ => s.prompt(),
    };
    let end = game.outcome(pos).map(|o| {
        json!({
            "winner": o.winner().map(|w| G::SEATS[w]),
            "score": o.score,
            "how": o.end.name,
            "by_limit": o.end.by_limit,
            "text": s.result_text(),
        })
    });
    let you = match who {
        Who::Seat(k) => Some(k),
        Who::Spectator => None,
    };
    let chosen = !s.chosen().is_empty();
    let svg = game.svg(pos, &marks);
    let svg_hash = fnv1a(svg.as_bytes());
    let played = s.played().len();
    let log_from = log_from.min(played);
    json!({
        "game": G::NAME,
        "title": G::TITLE,
        "ruleset": G::ruleset_name(s.ruleset()),
        "seats": (0..2).map(|k| json!({
            "name": G::SEATS[k],
            "player": s.seat(k).label(),
            "who": words(k),
        })).collect::<Vec<_>>(),
        "you": you,
        "to_move": to_move,
        "my_turn": mine,
        "turn": turn,
        "version": s.version(),
        // The board only when it is not the one the client shows.
        "svg": if held_svg == Some(svg_hash) { None } else { Some(svg) },
        "svg_hash": svg_hash.to_string(),
        "status": game.status(pos),
        "prompt": prompt,
        "result": s.result_text(),
        "over": to_move.is_none(),
        "end": end,
        "options": options,
        "chosen": s.chosen().iter().map(|c| c.label.clone()).collect::<Vec<_>>(),
        "waiting": mine && waiting.is_some(),
        "preview": if mine { waiting.and_then(|a| game.preview(pos, a)) } else { None },
        // What the page's buttons can do now: the server would refuse
        // the others, so the page shows them disabled.
        "can": {
            "back": mine && chosen,
            "cancel": mine && chosen,
            "confirm": mine && waiting.is_some(),
            "undo": you.is_some() && undo_seat(s) == you,
            "redo": you.is_some() && redo_seat(s) == you,
        },
        "panel": panel,
        "side": side,
        "banner": banner,
        "legend": game.legend(),
        "log": log(s, log_from, played),
        "log_from": log_from,
        "log_to": played,
        "played": played,
        "ahead": s.history().ahead().len(),
        // What predicts a die is never sent before the game ends.
        "position": if to_move.is_none() {
            game.write_position(pos)
        } else {
            game.write_public_position(pos)
        },
    })
}

/// A page of the log before action `before` (a client's "older"): the
/// lines of the [`LOG_PAGE`] actions before it.
pub fn log_page<G: Module>(s: &Session<G>, before: usize) -> Value {
    let to = before.min(s.played().len());
    let from = to.saturating_sub(LOG_PAGE);
    json!({ "log": log(s, from, to), "log_from": from, "log_to": to })
}

fn line_text(l: &ratatui::text::Line<'_>) -> String {
    l.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// The log of actions `from..to`, as the terminal board's (`tui::log`):
/// a header at each new turn or seat, each action, the game's words
/// about it, script errors; the game's creation before the first, and,
/// when `to` is the end of the line of play and the game goes on, the
/// header of the turn to come. Each line carries `at`, the action it
/// belongs to (the header to come: the next action's), so that a client
/// replaces what it holds from `from` on with these lines: the same
/// lines the whole log has there, since a header depends only on the
/// action before it.
pub fn log<G: Module>(s: &Session<G>, from: usize, to: usize) -> Vec<Value> {
    let game = s.game();
    let played = s.played();
    let to = to.min(played.len());
    let from = from.min(to);
    let mut out = Vec::new();
    let entry = |text: String, kind: &str, seat: Option<usize>, at: usize| json!({"text": text, "kind": kind, "seat": seat, "at": at});
    if from == 0 {
        for w in s.warnings() {
            out.push(entry(format!("warning: {w}"), "error", None, 0));
        }
        for e in s.start_errors() {
            out.push(entry(format!("script error: {e}"), "error", None, 0));
        }
        for e in s.created() {
            if let Some((text, tone)) = game.event_line(e) {
                out.push(entry(text, tone_kind(tone), None, 0));
            }
        }
    }
    let key = |pos: &G::Position| (game.turn(pos), game.to_move(pos).unwrap_or(0));
    let mut last = from.checked_sub(1).map(|i| key(&played[i].before));
    let mut header = |out: &mut Vec<Value>, pos: &G::Position, at: usize| {
        let k = key(pos);
        if last != Some(k) {
            // The game's own turn words, as the terminal's log says them
            // (G-ball numbers turns within a point, G4.6).
            out.push(entry(
                format!("{} · {}", game.turn_text(pos), G::SEATS[k.1]),
                "header",
                Some(k.1),
                at,
            ));
            last = Some(k);
        }
    };
    for (i, p) in played[from..to].iter().enumerate() {
        header(&mut out, &p.before, from + i);
        push_action(game, p, from + i, &mut out);
    }
    if to == played.len() && s.to_move().is_some() {
        header(&mut out, s.position(), to);
    }
    out
}

fn push_action<G: Module>(game: &G, p: &Played<G>, at: usize, out: &mut Vec<Value>) {
    let seat = game.to_move(&p.before);
    let line =
        |text: String, kind: &str| json!({"text": text, "kind": kind, "seat": seat, "at": at});
    out.push(line(p.action.to_string(), "action"));
    for n in game.narrate(&p.before, p.action, &p.after, &p.events) {
        out.push(line(n, "quiet"));
    }
    for e in &p.events {
        if let Some((text, tone)) = game.event_line(e) {
            out.push(line(text, tone_kind(tone)));
        }
    }
    for e in &p.errors {
        out.push(line(format!("script error: {e}"), "error"));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_starts_where_the_client_is_unless_an_undo_cut_it() {
        // No log held: the last page.
        assert_eq!(log_start(None, 500, &[], 0, 9), 500 - LOG_PAGE);
        assert_eq!(log_start(None, 10, &[], 0, 9), 0);
        // Held to 480 at version 7: from 480.
        assert_eq!(log_start(Some((480, 7)), 500, &[], 0, 9), 480);
        // An undo at version 8 left 470 actions: from 470.
        assert_eq!(log_start(Some((480, 7)), 500, &[(8, 470)], 0, 9), 470);
        // The client saw that undo already: from where it is.
        assert_eq!(log_start(Some((475, 8)), 500, &[(8, 470)], 0, 9), 475);
        // Held from before the table knew (rebuilt), or from a future:
        // the last page again.
        assert_eq!(log_start(Some((480, 3)), 500, &[], 5, 9), 500 - LOG_PAGE);
        assert_eq!(log_start(Some((480, 30)), 500, &[], 0, 9), 500 - LOG_PAGE);
        // Past the end: the end.
        assert_eq!(log_start(Some((900, 7)), 500, &[], 0, 9), 500);
    }
}
