//! What the home page offers before a game exists: each game's shipped
//! rulesets with their descriptions and its seats (which one moves
//! first), and the lobby — listed games with a seat still to claim.
//!
//! The lobby shows what a record's header says (game, ruleset, who sits
//! where) and never a token: a seat's link goes only to the one whose
//! claim cleared its bit in the store (`store::games::claim`), and the
//! spectators' link is handed out by a redirect, one game at a time.

use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::games::{Module, Visit};
use crate::kernel::record::Record;

/// At most this many games are listed at once.
pub const MAX_LISTED: usize = 50;

/// The seats of a game of `seats` that its creator does not keep and the
/// lobby offers: every person's seat after the first (the creator's).
pub fn open_seats(people: [bool; 2]) -> u8 {
    let mut open = 0u8;
    let mut kept = false;
    for (k, &person) in people.iter().enumerate() {
        if person {
            if kept {
                open |= 1 << k;
            }
            kept = true;
        }
    }
    open
}

/// A game's choices for the home page, by name: `None` for no such game.
/// Computed once (a first mover is found by dealing games) and kept.
pub fn game_choices(game: &str) -> Option<&'static Value> {
    static ALL: OnceLock<Vec<(&'static str, Value)>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        crate::games::NAMES
            .iter()
            .filter_map(|&n| Some((n, crate::games::visit(n, Choices)?)))
            .collect()
    });
    all.iter().find(|(n, _)| *n == game).map(|(_, v)| v)
}

struct Choices;

impl Visit for Choices {
    type Output = Value;
    fn visit<G: Module>(self) -> Value {
        let rulesets: Vec<Value> = crate::data::shipped_rulesets()
            .into_iter()
            .filter(|r| crate::data::game_of(r) == G::NAME)
            .map(|r| {
                let description = description(&r);
                json!({ "name": r, "description": description })
            })
            .collect();
        json!({
            "game": G::NAME,
            "title": G::TITLE,
            "default": G::DEFAULT_RULESET,
            "rulesets": rulesets,
            "seats": seat_labels(G::SEATS, first_mover::<G>()),
        })
    }
}

/// The seat that moves first in every game dealt under the default
/// ruleset, or `None` when the deal decides (Gateball's coin).
fn first_mover<G: Module>() -> Option<usize> {
    let rules = G::load_ruleset(G::DEFAULT_RULESET).ok()?;
    let game = G::build(&rules).ok()?;
    let mut first = None;
    for seed in 0..8 {
        let (g, pos, _) = game.new_game(seed);
        let k = g.to_move(&pos)?;
        if first.is_some_and(|f| f != k) {
            return None;
        }
        first = Some(k);
    }
    first
}

/// The seats as the home page names them: "DEF (moves first)", or with
/// "(the deal decides who starts)" when it does.
fn seat_labels(seats: [&str; 2], first: Option<usize>) -> Vec<Value> {
    (0..2)
        .map(|k| {
            let label = match first {
                Some(f) if f == k => format!("{} (moves first)", seats[k]),
                Some(_) => seats[k].to_string(),
                None => format!("{} (the deal decides who starts)", seats[k]),
            };
            json!({ "name": seats[k], "label": label, "first": first == Some(k) })
        })
        .collect()
}

/// A shipped ruleset's one-line `description`, or the first sentence of
/// its head comment; empty when it has neither.
fn description(name: &str) -> String {
    let path = crate::data::ruleset_path(name);
    let Ok(text) = crate::files::read_text(&path, crate::files::MAX_RULESET) else {
        return String::new();
    };
    if let Ok(t) = text.parse::<toml::Table>()
        && let Some(d) = t.get("description").and_then(|d| d.as_str())
    {
        return d.to_string();
    }
    // The first sentence of the head comment, which may run over lines.
    let head: Vec<&str> = text
        .lines()
        .map_while(|l| l.strip_prefix('#'))
        .map(str::trim)
        .collect();
    let head = head.join(" ");
    match head.find(". ") {
        Some(i) => head[..=i].to_string(),
        None => head,
    }
}

/// A lobby line of a stored game: its game, title, ruleset and seats
/// (name, who sits there, open or not) from its record's header; `None`
/// for a record that does not parse or a game this server does not play.
pub fn listing(id: &str, record: &str, open: u8) -> Option<Value> {
    let rec = Record::parse(record).ok()?;
    let game = rec.get("game")?.to_string();
    let choices = game_choices(&game)?;
    let names = crate::web::table::seat_names(&game)?;
    let seats: Vec<Value> = (0..2)
        .map(|k| {
            json!({
                "name": names[k],
                "label": choices["seats"][k]["label"],
                "player": rec.get(names[k]).unwrap_or("human"),
                "open": open & (1 << k) != 0,
            })
        })
        .collect();
    Some(json!({
        "id": id,
        "game": game,
        "title": choices["title"],
        "ruleset": rec.get("ruleset").unwrap_or(""),
        "seats": seats,
        "watch": format!("/lobby/{id}/watch"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_creator_keeps_the_first_persons_seat() {
        assert_eq!(open_seats([true, true]), 0b10);
        assert_eq!(open_seats([false, true]), 0);
        assert_eq!(open_seats([true, false]), 0);
        assert_eq!(open_seats([false, false]), 0);
    }

    #[test]
    fn each_game_lists_its_own_rulesets_and_a_first_mover() {
        let ball = game_choices("ball").unwrap();
        let names: Vec<&str> = ball["rulesets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"standard") && names.contains(&"cards"),
            "{names:?}"
        );
        assert!(
            !names.iter().any(|n| n.starts_with("gateball")),
            "{names:?}"
        );
        assert_eq!(ball["seats"][1]["label"], "DEF (moves first)");
        let gate = game_choices("gateball").unwrap();
        let default = gate["rulesets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == "gateball")
            .unwrap();
        let about = default["description"].as_str().unwrap();
        assert!(
            about.starts_with("The default Gateball ruleset") && about.ends_with('.'),
            "{about}"
        );
        assert!(game_choices("chess").is_none());
    }
}
