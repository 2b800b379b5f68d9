//! Saving a game as a match record and loading one, through the code
//! `ball sim --out` writes with and `ball replay --check` reads with
//! (`lab::sim::record_header`, `lab::replay`), so that a saved game
//! checks, and a loaded one stands exactly where the check says it does.

use std::path::Path;

use super::deal::{Deal, Seat};
use super::history::{History, Played};
use crate::kernel::game::{Game, Title};
use crate::kernel::record::Record;
use crate::lab;

/// A record of `history` as it stands: the header `ball sim --out`
/// writes, the start when it is not the dealt one, the result (with
/// `unfinished` for a game that is not over) and the actions.
pub fn write<G: Title>(
    deal: &Deal<G>,
    game: &G,
    history: &History<G>,
    seats: &[Seat; 2],
) -> Record {
    let mut r = header(deal, game, history, seats);
    r.actions = history
        .played()
        .iter()
        .map(|p| p.action.to_string())
        .collect();
    r
}

/// [`write`] without the actions: what a store that keeps the actions
/// apart (`ball serve`'s) saves without formatting every action again.
pub fn header<G: Title>(
    deal: &Deal<G>,
    game: &G,
    history: &History<G>,
    seats: &[Seat; 2],
) -> Record {
    let labels = [seats[0].label(), seats[1].label()];
    let mut r = lab::sim::record_header::<G>(&deal.ruleset, deal.seed, &labels);
    if let Some(start) = &deal.start {
        r.set("start", start.clone());
    }
    r.set("result", lab::sim::result_text(game, history.position()));
    r
}

/// A record replayed under `ruleset`, as `ball replay --check` replays
/// it, with what a board must tell before play goes on.
pub struct Loaded<G: Title> {
    pub deal: Deal<G>,
    pub game: G,
    pub created: Vec<G::Event>,
    pub history: History<G>,
    /// The record's seat lines; a seat without one is a person's.
    pub seats: [Seat; 2],
    /// Other rules than the record's, a result other than the record's,
    /// a seat line no bot has: loaded anyway, and said.
    pub warnings: Vec<String>,
}

/// Replays `record` under `ruleset`. Refuses a record of another game
/// and one whose actions do not replay (naming the step, as the check
/// does); other rules than the record's are a warning, since the actions
/// still replayed under these.
pub fn load<G: Title>(record: &Record, ruleset: G::Ruleset) -> Result<Loaded<G>, String> {
    let of = record.get("game").unwrap_or(crate::data::DEFAULT_GAME);
    if of != G::NAME {
        return Err(format!(
            "the record is a game of `{of}`, not of `{}`",
            G::NAME
        ));
    }
    let mut warnings = Vec::new();
    if lab::replay::check_header::<G>(record, &ruleset).is_err() {
        let name = G::ruleset_name(&ruleset);
        let hash = G::fingerprint(&ruleset);
        warnings.push(match (record.get("ruleset"), record.get("ruleset-hash")) {
            (_, None) => format!(
                "the record does not say which rules it was played under (no ruleset-hash); its actions replay under ruleset `{name}` ({hash})"
            ),
            (recorded, Some(h)) => format!(
                "other rules: the record was made under ruleset `{}` with hash {h}, but the board plays ruleset `{name}` with hash {hash}. Its actions replay under these rules; `ball replay --check` would refuse it (--ruleset picks the rules)",
                recorded.unwrap_or("?")
            ),
        });
    }
    let replayed = lab::replay::replay::<G>(record, &ruleset).map_err(|d| d.0)?;
    if let Some(claimed) = record.get("result")
        && claimed != replayed.result
    {
        warnings.push(format!(
            "the record says `{claimed}`, but its actions replay to `{}`",
            replayed.result
        ));
    }
    let mut seats = [Seat::Person, Seat::Person];
    for (seat, name) in G::SEATS.iter().enumerate() {
        if let Some(label) = record.get(name) {
            match Seat::from_label(label) {
                Ok(s) => seats[seat] = s,
                Err(e) => warnings.push(format!("{name}: {e}; a person plays it")),
            }
        }
    }
    let seed = lab::replay::seed(record).map_err(|d| d.0)?;
    let game = replayed.game;
    let mut history = History::new(replayed.start.clone());
    let mut before = replayed.start;
    for (action, after, events) in replayed.steps {
        history.push(Played {
            action,
            before: std::mem::replace(&mut before, after.clone()),
            after,
            events,
            errors: Vec::new(),
        });
    }
    for e in game.take_errors() {
        warnings.push(format!("a script failed while the record replayed: {e}"));
    }
    Ok(Loaded {
        deal: Deal {
            ruleset,
            seed,
            start: record.get("start").map(str::to_string),
        },
        game,
        created: replayed.created,
        history,
        seats,
        warnings,
    })
}

/// Writes `text` to `path` without ever leaving a half-written file
/// there: a temporary file in the same directory, flushed to the disk,
/// then renamed over the target (a rename within a directory is atomic).
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    crate::files::write_atomic(path, text.as_bytes())
        .map_err(|e| format!("cannot save to {}: {e}", path.display()))
}

/// The position as one line of JSON, for a `start:` header.
pub fn start_line<G: Title>(game: &G, pos: &<G as Game>::Position) -> String {
    super::deal::one_line(&game.write_position(pos))
}
