//! The game on the board: its start position, every action played with
//! the position before it and what happened in it, and the actions undone
//! (the redo stack). Also its match record (`kernel::record`), written on
//! save and read by `--load` and `ball replay`.
//!
//! Every action goes through [`Ball::play`], the checked entry point: the
//! board offers only actions of the legal list, and this is the second
//! line that makes an illegal action impossible to record.

use crate::games::ball::Ball;
use crate::games::ball::action::{self, Action};
use crate::games::ball::event::Event;
use crate::games::ball::json;
use crate::games::ball::piece::Team;
use crate::games::ball::position::Position;
use crate::games::ball::rules::Illegal;
use crate::games::ball::ruleset::Ruleset;
use crate::kernel::record::Record;

/// One action played, with the position it was played in (undo restores
/// it, the log shows its turn and team) and its events (the log's detail).
#[derive(Clone, Debug)]
pub struct Played {
    pub action: Action,
    pub before: Position,
    pub events: Vec<Event>,
}

#[derive(Clone, Debug)]
pub struct History {
    game: Ball,
    start: Position,
    played: Vec<Played>,
    pos: Position,
    /// Undone actions, the next one to redo last.
    redo: Vec<Action>,
}

impl History {
    pub fn new(game: Ball, start: Position) -> History {
        History {
            game,
            start,
            played: Vec::new(),
            pos: start,
            redo: Vec::new(),
        }
    }

    pub fn game(&self) -> &Ball {
        &self.game
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn played(&self) -> &[Played] {
        &self.played
    }

    /// The undone actions in the order they would be redone.
    pub fn redo_list(&self) -> impl Iterator<Item = &Action> {
        self.redo.iter().rev()
    }

    pub fn actions(&self) -> Vec<Action> {
        self.played.iter().map(|p| p.action).collect()
    }

    /// Plays a new action; the redo stack is dropped, as in any editor:
    /// the undone line of play no longer follows from here.
    pub fn play(&mut self, action: Action) -> Result<(), Illegal> {
        self.apply(action)?;
        self.redo.clear();
        Ok(())
    }

    fn apply(&mut self, action: Action) -> Result<(), Illegal> {
        let before = self.pos;
        let mut events = Vec::new();
        self.game.play(&mut self.pos, action, &mut events)?;
        self.played.push(Played {
            action,
            before,
            events,
        });
        Ok(())
    }

    /// Takes back the last action. `None` at the start.
    pub fn undo(&mut self) -> Option<Action> {
        let last = self.played.pop()?;
        self.pos = last.before;
        self.redo.push(last.action);
        Some(last.action)
    }

    /// Plays the last undone action again. `None` when nothing is undone;
    /// an error only if the rules changed under the redo stack, which then
    /// is dropped.
    pub fn redo(&mut self) -> Option<Result<Action, Illegal>> {
        let action = self.redo.pop()?;
        Some(match self.apply(action) {
            Ok(()) => Ok(action),
            Err(e) => {
                self.redo.clear();
                Err(e)
            }
        })
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The match record of the game so far. `seats` says who played each
    /// team (`human` or a bot spec), by `Team as usize`.
    pub fn record(&self, ruleset: &Ruleset, seats: &[String; 2], seed: Option<u64>) -> Record {
        let mut r = Record::new("ball");
        r.set("ruleset", ruleset.name.clone());
        r.set("ruleset-hash", ruleset.fingerprint());
        if self.start != Position::start(&self.game.params) {
            r.set("start", one_line_json(&self.start));
        }
        if let Some(seed) = seed {
            r.set("seed", seed.to_string());
        }
        r.set("DEF", seats[Team::Def as usize].clone());
        r.set("ATK", seats[Team::Atk as usize].clone());
        if self.pos.is_over() {
            r.set(
                "result",
                format!(
                    "ATK {} - DEF {}",
                    self.pos.score[Team::Atk as usize],
                    self.pos.score[Team::Def as usize]
                ),
            );
        }
        r.actions = self.played.iter().map(|p| p.action.to_string()).collect();
        r
    }

    /// Replays a match record under `ruleset`. Refuses a record of another
    /// game, a malformed start position, and any action that is malformed
    /// or illegal (naming its number and the rule). A record made under
    /// other rules (its `ruleset-hash` differs) still loads when every
    /// action replays: the returned warnings say so.
    pub fn from_record(
        record: &Record,
        ruleset: &Ruleset,
    ) -> Result<(History, Vec<String>), String> {
        let mut warnings = Vec::new();
        if let Some(game) = record.get("game")
            && game != "ball"
        {
            return Err(format!(
                "the record is a game of `{game}`, this board plays `ball`"
            ));
        }
        if let Some(hash) = record.get("ruleset-hash")
            && hash != ruleset.fingerprint()
        {
            warnings.push(format!(
                "recorded under other rules (ruleset `{}`, hash {hash}); replayed under `{}`",
                record.get("ruleset").unwrap_or("?"),
                ruleset.name
            ));
        }
        let game = ruleset.game();
        let start = match record.get("start") {
            Some(text) => json::read(text, &game.params)
                .map_err(|e| format!("the record's start position: {e}"))?,
            None => Position::start(&game.params),
        };
        let mut history = History::new(game, start);
        let n = record.actions.len();
        for (i, text) in record.actions.iter().enumerate() {
            let at = |msg: String| format!("action {} of {n} (`{text}`): {msg}", i + 1);
            let action = action::parse(text).map_err(|e| at(e.to_string()))?;
            history.play(action).map_err(|e| at(e.to_string()))?;
        }
        Ok((history, warnings))
    }
}

/// The position JSON on one line, as a record's `start:` header needs.
fn one_line_json(pos: &Position) -> String {
    let text = json::write(pos);
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(v) => v.to_string(),
        Err(_) => text.split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> (Ruleset, History) {
        let rs = Ruleset::standard();
        let h = History::new(rs.game(), Position::start(&rs.game().params));
        (rs, h)
    }

    #[test]
    fn undo_redo_restore_positions() {
        let (_, mut h) = standard();
        let start = *h.position();
        h.play("move DEF3 H10".parse().unwrap()).unwrap();
        let after = *h.position();
        assert_eq!(h.undo().unwrap().to_string(), "move DEF3 H10");
        assert_eq!(*h.position(), start);
        assert_eq!(h.redo().unwrap().unwrap().to_string(), "move DEF3 H10");
        assert_eq!(*h.position(), after);
        assert!(h.redo().is_none());
        assert!(h.undo().is_some());
        h.play(Action::End).unwrap();
        assert!(!h.can_redo(), "a new action drops the redo stack");
    }

    #[test]
    fn illegal_actions_are_refused_and_not_recorded() {
        let (_, mut h) = standard();
        assert!(h.play("move ATK5 G7".parse().unwrap()).is_err());
        assert!(h.played().is_empty());
    }

    #[test]
    fn record_round_trip() {
        let (rs, mut h) = standard();
        for a in ["move DEF3 H10", "end", "move ATK5 H6"] {
            h.play(a.parse().unwrap()).unwrap();
        }
        let seats = ["random".to_string(), "human".to_string()];
        let rec = h.record(&rs, &seats, Some(3));
        assert_eq!(rec.get("ruleset-hash"), Some(rs.fingerprint().as_str()));
        assert_eq!(rec.get("ATK"), Some("random"));
        assert_eq!(rec.get("DEF"), Some("human"));
        assert_eq!(rec.get("start"), None);
        let text = rec.write();
        let (back, warnings) = History::from_record(&Record::parse(&text).unwrap(), &rs).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(back.position(), h.position());
        assert_eq!(back.actions(), h.actions());
    }

    #[test]
    fn bad_records_are_refused_with_the_action_number() {
        let rs = Ruleset::standard();
        let mut rec = Record::new("ball");
        rec.actions = vec!["move DEF3 H10".into(), "move DEF3 Z9".into()];
        let e = History::from_record(&rec, &rs).unwrap_err();
        assert!(e.contains("action 2 of 2"), "{e}");
        rec.actions = vec!["move ATK5 G7".into()];
        let e = History::from_record(&rec, &rs).unwrap_err();
        assert!(e.contains("action 1 of 1"), "{e}");
        let mut other = Record::new("gateball");
        other.actions.clear();
        assert!(History::from_record(&other, &rs).is_err());
        let mut stale = Record::new("ball");
        stale.set("ruleset-hash", "0000000000000000");
        let (_, warnings) = History::from_record(&stale, &rs).unwrap();
        assert_eq!(warnings.len(), 1);
    }
}
