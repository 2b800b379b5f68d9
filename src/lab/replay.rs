//! Replaying match records: does a record still play, action for action,
//! under the current rules, and to the same result?
//!
//! The check refuses a record whose `ruleset-hash` is not the current
//! ruleset's fingerprint before playing anything: replaying it would
//! silently play other rules. Otherwise it replays with `Ball::play`
//! (the checked path: legality from the one generator) and names the
//! first step that diverges: an action that no longer parses, one that is
//! illegal, or a final result different from the record's `result:`.

use super::sim::result_text;
use crate::games::ball::action::{self, Action};
use crate::games::ball::json;
use crate::games::ball::position::Position;
use crate::games::ball::ruleset::Ruleset;

use crate::kernel::record::Record;

/// A record replayed to its end.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub start: Position,
    /// Each action with the position after it.
    pub steps: Vec<(Action, Position)>,
    /// The result as a record writes it (`ATK 3 - DEF 1`).
    pub result: String,
}

impl Replayed {
    pub fn last(&self) -> &Position {
        self.steps.last().map_or(&self.start, |(_, p)| p)
    }
}

/// The first thing that went wrong, as one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Divergence(pub String);

/// Is the record for this game and these rules? Refuses a missing or
/// different `ruleset-hash`.
pub fn check_header(record: &Record, ruleset: &Ruleset) -> Result<(), Divergence> {
    if let Some(game) = record.get("game")
        && game != "ball"
    {
        return Err(Divergence(format!(
            "the record is of game `{game}`, not `ball`"
        )));
    }
    let current = ruleset.fingerprint();
    match record.get("ruleset-hash") {
        None => Err(Divergence(format!(
            "the record has no `ruleset-hash:` line, so the rules it was played under are unknown (current ruleset `{}` has {current}); not replayed",
            ruleset.name
        ))),
        Some(h) if h != current => Err(Divergence(format!(
            "ruleset-hash differs: the record was made under ruleset `{}` with hash {h}, the current ruleset `{}` has hash {current}; not replayed (pick the record's rules with --ruleset)",
            record.get("ruleset").unwrap_or("?"),
            ruleset.name
        ))),
        Some(_) => Ok(()),
    }
}

/// Replays the actions from the record's start (its `start:` position, or
/// the ruleset's start position). Does not look at the hash or result.
pub fn replay(record: &Record, ruleset: &Ruleset) -> Result<Replayed, Divergence> {
    let game = super::sim::new_game(ruleset).map_err(Divergence)?;
    let start = match record.get("start") {
        Some(text) => json::read(text, &game.params)
            .map_err(|e| Divergence(format!("the record's start position: {e}")))?,
        None => game.start(),
    };
    let mut pos = start;
    let mut steps = Vec::with_capacity(record.actions.len());
    for (k, text) in record.actions.iter().enumerate() {
        let step = k + 1;
        let a = action::parse(text).map_err(|e| Divergence(format!("step {step}: {e}")))?;
        if pos.is_over() {
            return Err(Divergence(format!(
                "step {step}: `{a}` comes after the game ended ({})",
                result_text(&pos)
            )));
        }
        game.play(&mut pos, a, &mut ())
            .map_err(|e| Divergence(format!("step {step}: {e}")))?;
        steps.push((a, pos));
    }
    Ok(Replayed {
        start,
        result: result_text(&pos),
        steps,
    })
}

/// The whole check: header, every action, and the result. `Ok` carries a
/// one-line summary.
pub fn check(record: &Record, ruleset: &Ruleset) -> Result<String, Divergence> {
    check_header(record, ruleset)?;
    let r = replay(record, ruleset)?;
    match record.get("result") {
        Some(claimed) if claimed != r.result => Err(Divergence(format!(
            "different result: the record says `{claimed}`, the {} actions replay to `{}`",
            r.steps.len(),
            r.result
        ))),
        Some(_) => Ok(format!(
            "ok: {} actions replay exactly under ruleset `{}` ({}), result {}",
            r.steps.len(),
            ruleset.name,
            ruleset.fingerprint(),
            r.result
        )),
        None => Err(Divergence(format!(
            "the record has no `result:` line; its {} actions replay to `{}`",
            r.steps.len(),
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
            serde_json::from_str(line).map_err(|e| format!("line {}: not JSON: {e}", i + 1))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::sim::{SimConfig, run};

    fn one_record() -> Record {
        let rs = Ruleset::standard();
        let cfg = SimConfig {
            bots: ["random".into(), "greedy".into()],
            games: 1,
            seed: 3,
            records: true,
        };
        let g = run(&rs, &cfg, 1, &|| {}).unwrap().remove(0);
        Record::parse(g.record.as_deref().unwrap()).unwrap()
    }

    #[test]
    fn a_sim_record_replays_exactly() {
        let rec = one_record();
        let msg = check(&rec, &Ruleset::standard()).unwrap();
        assert!(msg.starts_with("ok: "), "{msg}");
    }

    #[test]
    fn divergences_name_the_step() {
        let rs = Ruleset::standard();
        let mut rec = one_record();
        // An action that is never legal from the setup: at step 2.
        rec.actions[1] = "move DEF3 A1".into();
        let e = check(&rec, &rs).unwrap_err().0;
        assert!(e.starts_with("step 2: "), "{e}");
        let mut rec = one_record();
        rec.actions[0] = "fly DEF3".into();
        assert!(
            check(&rec, &rs)
                .unwrap_err()
                .0
                .starts_with("step 1: malformed")
        );
        let mut rec = one_record();
        rec.set("result", "ATK 9 - DEF 9");
        assert!(
            check(&rec, &rs)
                .unwrap_err()
                .0
                .starts_with("different result")
        );
        let mut rec = one_record();
        rec.actions.truncate(rec.actions.len() - 1);
        let e = check(&rec, &rs).unwrap_err().0;
        assert!(e.contains("unfinished"), "{e}");
    }

    #[test]
    fn another_ruleset_hash_is_refused() {
        let mut rec = one_record();
        rec.set("ruleset-hash", "0000000000000000");
        let e = check(&rec, &Ruleset::standard()).unwrap_err().0;
        assert!(e.starts_with("ruleset-hash differs"), "{e}");
        rec.header.retain(|(k, _)| k != "ruleset-hash");
        let e = check(&rec, &Ruleset::standard()).unwrap_err().0;
        assert!(e.contains("no `ruleset-hash:`"), "{e}");
    }

    #[test]
    fn jsonl_games_by_number() {
        let rec = one_record();
        let line = serde_json::json!({"game": 4, "record": rec.write()}).to_string();
        let text = format!("{{\"game\": 3, \"record\": \"x\"}}\n{line}\n");
        assert_eq!(record_from_jsonl(&text, 4).unwrap(), rec);
        assert!(
            record_from_jsonl(&text, 5)
                .unwrap_err()
                .contains("no game 5")
        );
        assert!(record_from_jsonl(&text, 3).is_err());
        assert!(record_from_jsonl("{", 0).unwrap_err().contains("not JSON"));
    }
}
