//! Replaying match records: does a record still play, action for action,
//! under the current rules, and to the same result?
//!
//! The check refuses a record of another game, or whose `ruleset-hash` is
//! not the current ruleset's fingerprint, before playing anything:
//! replaying it would silently play other rules. Otherwise it replays
//! with `Game::play` (the checked path: legality from the one generator)
//! from the game its `seed` deals (or its `start` position) and names the
//! first step that diverges: an action that no longer parses, one that is
//! illegal, or a final result different from the record's `result:`.

use super::sim::result_text;
use crate::kernel::game::{Game, Title};
use crate::kernel::record::Record;

/// One replayed action: the action, the position after it, its events.
pub type Step<G> = (
    <G as Game>::Action,
    <G as Game>::Position,
    Vec<<G as Game>::Event>,
);

/// A record replayed to its end.
#[derive(Clone, Debug)]
pub struct Replayed<G: Game> {
    /// The game as the record's seed dealt it.
    pub game: G,
    pub start: G::Position,
    /// The events of the game's creation.
    pub created: Vec<G::Event>,
    /// Each action with the position after it and its events.
    pub steps: Vec<Step<G>>,
    /// The result as a record writes it (`ATK 3 - DEF 1`, `unfinished …`).
    pub result: String,
    /// Script failures during the replay (a failed variant hook is
    /// skipped, as it was in the game recorded), one line each.
    pub script_errors: Vec<String>,
}

impl<G: Game> Replayed<G> {
    pub fn last(&self) -> &G::Position {
        self.steps.last().map_or(&self.start, |(_, p, _)| p)
    }
}

/// The first thing that went wrong, as one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Divergence(pub String);

/// The record's `seed:` (0 without one).
pub fn seed(record: &Record) -> Result<u64, Divergence> {
    match record.get("seed") {
        None => Ok(0),
        Some(s) => s.parse().map_err(|_| {
            Divergence(format!(
                "the record's `seed: {s}` is not a whole number 0 to 2^64-1"
            ))
        }),
    }
}

/// Is the record for this game and these rules? Refuses another game and
/// a missing or different `ruleset-hash`.
pub fn check_header<G: Title>(record: &Record, ruleset: &G::Ruleset) -> Result<(), Divergence> {
    let game = record.get("game").unwrap_or("ball");
    if game != G::NAME {
        return Err(Divergence(format!(
            "the record is of game `{game}`, not `{}`",
            G::NAME
        )));
    }
    let current = G::fingerprint(ruleset);
    let name = G::ruleset_name(ruleset);
    match record.get("ruleset-hash") {
        None => Err(Divergence(format!(
            "the record has no `ruleset-hash:` line, so the rules it was played under are unknown (current ruleset `{name}` has {current}); not replayed"
        ))),
        Some(h) if h != current => {
            let theirs = record.get("ruleset").unwrap_or("?");
            // The hash covers the files' text, not how they were named: a
            // ruleset of the record's own name that hashes otherwise has
            // other text, and naming it again would not help.
            let hint = if theirs == name {
                format!(
                    "the files of `{name}` read now are not the text the record was played under (edited since, or another `{name}`); replay it with those files (--ruleset)"
                )
            } else {
                format!("pick the record's rules with --ruleset `{theirs}`")
            };
            Err(Divergence(format!(
                "ruleset-hash differs: the record was made under ruleset `{theirs}` with hash {h}, the current ruleset `{name}` has hash {current}; not replayed: {hint}"
            )))
        }
        Some(_) => Ok(()),
    }
}

/// Replays the actions from the record's start (its `start:` position, or
/// the start its seed deals). Does not look at the hash or result.
pub fn replay<G: Title>(record: &Record, ruleset: &G::Ruleset) -> Result<Replayed<G>, Divergence> {
    let base = G::build(ruleset).map_err(Divergence)?;
    let (mut game, mut start, created) = base.new_game(seed(record)?);
    if let Some(text) = record.get("start") {
        (game, start) = game
            .read_position(text)
            .map_err(|e| Divergence(format!("the record's start position: {e}")))?;
    }
    let mut pos = start.clone();
    let mut steps = Vec::with_capacity(record.actions.len());
    let mut script_errors: Vec<String> = game.take_errors();
    for (k, text) in record.actions.iter().enumerate() {
        let step = k + 1;
        let a = game
            .parse_action(text)
            .map_err(|e| Divergence(format!("step {step}: {e}")))?;
        if game.to_move(&pos).is_none() {
            return Err(Divergence(format!(
                "step {step}: `{a}` comes after the game ended ({})",
                game.score_text(&pos)
            )));
        }
        let mut log = Vec::new();
        let played = game.play(&mut pos, a, &mut log);
        script_errors.extend(
            game.take_errors()
                .iter()
                .map(|e| format!("step {step}: {e}")),
        );
        played.map_err(|e| Divergence(format!("step {step}: {e}")))?;
        steps.push((a, pos.clone(), log));
    }
    Ok(Replayed {
        script_errors,
        result: result_text(&game, &pos),
        game,
        start,
        created,
        steps,
    })
}

/// `1 action replays`, `3 actions replay`.
fn replays(n: usize) -> String {
    let verb = if n == 1 { "replays" } else { "replay" };
    format!("{} {verb}", crate::diagnostic::plural(n as u64, "action"))
}

/// The whole check: header, every action, and the result. `Ok` carries a
/// one-line summary.
pub fn check<G: Title>(record: &Record, ruleset: &G::Ruleset) -> Result<String, Divergence> {
    check_header::<G>(record, ruleset)?;
    let r = replay::<G>(record, ruleset)?;
    match record.get("result") {
        Some(claimed) if claimed != r.result => Err(Divergence(format!(
            "different result: the record says `{claimed}`, the {} to `{}`",
            replays(r.steps.len()),
            r.result
        ))),
        Some(_) => Ok(format!(
            "ok: {} exactly under ruleset `{}` ({}), result {}{}",
            replays(r.steps.len()),
            G::ruleset_name(ruleset),
            G::fingerprint(ruleset),
            r.result,
            match r.script_errors.first() {
                None => String::new(),
                Some(first) => format!(
                    "; {}, the first: {first}",
                    crate::diagnostic::plural(r.script_errors.len() as u64, "script error")
                ),
            }
        )),
        None => Err(Divergence(format!(
            "the record has no `result:` line; its {} to `{}`",
            replays(r.steps.len()),
            r.result
        ))),
    }
}

/// Game `n` (its `game` field, as `ball sim --out` numbers them from 0)
/// of a sim output: JSON lines, each with a `record` string.
pub fn record_from_jsonl(text: &str, n: usize) -> Result<Record, String> {
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            crate::json_line::parse(line).map_err(|e| format!("line {}: not JSON: {e}", i + 1))?;
        if v.get("game").and_then(|g| g.as_u64()) != Some(n as u64) {
            continue;
        }
        let text = v
            .get("record")
            .and_then(|r| r.as_str())
            .ok_or_else(|| format!("line {}: game {n} has no `record` string", i + 1))?;
        return Record::parse(text).map_err(|e| format!("game {n}: {e}"));
    }
    Err(format!("no game {n} in it"))
}
