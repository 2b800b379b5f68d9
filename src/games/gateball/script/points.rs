//! Gateball's rule points: where a variant changes a rule by answering a
//! question the engine asks (may this action be taken, what it costs,
//! what a gate or a Goal scores, where an out-ball goes, whether a touch
//! sparks, whether the game ends) or by reacting to what happened (each
//! event, each action). One mechanism, the host's: a hook by name, asked
//! in the ruleset's order, its answer checked here.

use mlua::{MultiValue, Table, Value};

use super::{Scripted, VariantAction};
use crate::games::gateball::Gateball;
use crate::games::gateball::action::Action;
use crate::games::gateball::apply::{self, Ending, Hooks};
use crate::games::gateball::event::Event;
use crate::games::gateball::position::{Phase, Position, Team, Winner};
use crate::games::gateball::space::Space;
use crate::kernel::events::Sink;
use crate::script::fields::check_keys;
use crate::script::registry::show;
use crate::script::variants::{Point, Variant, first, veto};

pub const ALLOW: usize = 0;
pub const COST: usize = 1;
pub const ROLL: usize = 2;
pub const GATE_VALUE: usize = 3;
pub const GOAL_VALUE: usize = 4;
pub const OUT_BALL: usize = 5;
pub const SPARK: usize = 6;
pub const ENDING: usize = 7;
pub const ENDS_NOW: usize = 8;
pub const ON_EVENT: usize = 9;
pub const AFTER_ACTION: usize = 10;

/// Every rule point, by the indices above.
pub const POINTS: &[Point] = &[
    Point { name: "allow", writes: false },
    Point { name: "cost", writes: false },
    Point { name: "roll", writes: false },
    Point { name: "gate_value", writes: false },
    Point { name: "goal_value", writes: false },
    Point { name: "out_ball", writes: false },
    Point { name: "spark", writes: false },
    Point { name: "ending", writes: false },
    Point { name: "ends_now", writes: false },
    Point { name: "on_event", writes: true },
    Point { name: "after_action", writes: true },
];


fn args(values: Vec<Value>) -> mlua::Result<MultiValue> {
    Ok(MultiValue::from_vec(values))
}

/// A whole number 0..=9 (points), or nil.
fn points_answer(values: MultiValue) -> Result<Option<u8>, String> {
    match first(values) {
        Value::Nil => Ok(None),
        Value::Integer(n) if (0..=9).contains(&n) => Ok(Some(n as u8)),
        other => Err(format!(
            "must return nil or points 0-9, not {}",
            show(&other)
        )),
    }
}

/// `{winner = "red"|"blue"|"draw", reason = …}`.
fn end_of(v: &Variant, t: &Table) -> Result<Ending, String> {
    check_keys(t, &["winner", "reason"]).map_err(|m| format!("its end table has an {m}"))?;
    let winner = match t.get::<Value>("winner").unwrap_or(Value::Nil) {
        Value::String(s) => match &*s.to_string_lossy() {
            "red" => Winner::Team(Team::Red),
            "blue" => Winner::Team(Team::Blue),
            "draw" => Winner::Draw,
            other => {
                return Err(format!(
                    "winner must be \"red\", \"blue\" or \"draw\", not `{other}`"
                ));
            }
        },
        other => {
            return Err(format!(
                "winner must be \"red\", \"blue\" or \"draw\", not {}",
                show(&other)
            ));
        }
    };
    let reason: Option<String> = match t.get::<Value>("reason").unwrap_or(Value::Nil) {
        Value::Nil => None,
        Value::String(s) => Some(s.to_string_lossy()),
        other => return Err(format!("reason must be a name, not {}", show(&other))),
    };
    Ok(Ending::End(winner, v.end(reason.as_deref())?))
}

/// The notation's words, which a variant action may not take.
pub const WORDS: [&str; 5] = ["power", "tech", "end", "shot", "spark"];

/// The rule points as `apply::Hooks` asks them, during one action.
struct Live<'a> {
    s: &'a Scripted,
}

impl Hooks for Live<'_> {
    fn roll(&mut self, pos: &Position, kind: &'static str, dice: &mut Vec<u8>) {
        let n = dice.len();
        let given = dice.clone();
        let answer = self.s.host.ask(
            ROLL,
            pos,
            &self.s.frame,
            &|lua| {
                args(vec![
                    Value::String(lua.create_string(kind)?),
                    Value::Table(lua.create_sequence_from(given.iter().copied())?),
                ])
            },
            &mut |_, values| match first(values) {
                Value::Nil => Ok(None),
                Value::Table(t) => {
                    let mut out = Vec::new();
                    for v in t.sequence_values::<Value>().take(n + 1) {
                        match v {
                            Ok(Value::Integer(d)) if (1..=6).contains(&d) => out.push(d as u8),
                            _ => return Err("must return nil or a list of dice 1-6".into()),
                        }
                    }
                    if out.len() != n {
                        return Err(format!(
                            "must return as many dice as were rolled ({n}), not {}",
                            out.len()
                        ));
                    }
                    Ok(Some(out))
                }
                other => Err(format!(
                    "must return nil or a list of dice, not {}",
                    show(&other)
                )),
            },
        );
        if let Some(d) = answer {
            *dice = d;
        }
    }

    fn gate_value(&mut self, pos: &Position, ball: u8, gate: u8) -> u8 {
        self.s
            .host
            .ask(
                GATE_VALUE,
                pos,
                &self.s.frame,
                &|_| args(vec![Value::Integer(ball.into()), Value::Integer(gate.into())]),
                &mut |_, v| points_answer(v),
            )
            .unwrap_or(1)
    }

    fn goal_value(&mut self, pos: &Position, ball: u8) -> u8 {
        self.s
            .host
            .ask(
                GOAL_VALUE,
                pos,
                &self.s.frame,
                &|_| args(vec![Value::Integer(ball.into())]),
                &mut |_, v| points_answer(v),
            )
            .unwrap_or(2)
    }

    fn out_to_start(&mut self, pos: &Position, ball: u8, at: Space) -> bool {
        self.s
            .host
            .ask(
                OUT_BALL,
                pos,
                &self.s.frame,
                &|lua| {
                    args(vec![
                        Value::Integer(ball.into()),
                        Value::String(lua.create_string(at.to_string())?),
                    ])
                },
                &mut |_, values| match first(values) {
                    Value::Nil => Ok(None),
                    Value::String(s) if &*s.to_string_lossy() == "waiting" => Ok(Some(true)),
                    other => Err(format!("must return nil or \"waiting\", not {}", show(&other))),
                },
            )
            .unwrap_or(false)
    }

    fn spark(&mut self, pos: &Position, ball: u8, touched: u8) -> bool {
        self.s
            .host
            .ask(
                SPARK,
                pos,
                &self.s.frame,
                &|_| args(vec![Value::Integer(ball.into()), Value::Integer(touched.into())]),
                &mut |_, values| veto(values),
            )
            .unwrap_or(true)
    }

    fn ending(&mut self, pos: &Position, why: &'static str) -> Option<Ending> {
        self.s.ending(pos, Some(why))
    }
}

impl Scripted {
    /// `ending(game, why)` where the rules end the game, or `ends_now(game)`
    /// after an action (`why` nil).
    fn ending(&self, pos: &Position, why: Option<&'static str>) -> Option<Ending> {
        let p = if why.is_some() { ENDING } else { ENDS_NOW };
        self.host.ask(
            p,
            pos,
            &self.frame,
            &|lua| {
                args(vec![match why {
                    Some(w) => Value::String(lua.create_string(w)?),
                    None => Value::Nil,
                }])
            },
            &mut |v, values| match first(values) {
                Value::Nil => Ok(None),
                Value::Boolean(false) if why.is_some() => Ok(Some(Ending::Veto)),
                Value::Boolean(false) => Ok(None),
                Value::Table(t) => end_of(v, &t).map(Some),
                other => Err(format!(
                    "must return nil, {}or {{winner = …, reason = …}}, not {}",
                    if why.is_some() { "false " } else { "" },
                    show(&other)
                )),
            },
        )
    }

    /// Whether every variant's `allow` lets `action` be taken.
    fn allows(&self, pos: &Position, action: Action) -> bool {
        let text = action.to_string();
        self.host
            .ask(
                ALLOW,
                pos,
                &self.frame,
                &|lua| args(vec![Value::String(lua.create_string(&text)?)]),
                &mut |_, values| veto(values),
            )
            .unwrap_or(true)
    }

    /// The legal list as the variants change it: their actions added in
    /// phase `shot`, then `allow` asked of each; a list it would empty
    /// keeps the rules' (T3.6: a position always offers an action).
    pub fn legal(&self, _game: &Gateball, pos: &Position, out: &mut Vec<Action>) {
        if pos.phase == Phase::Shot {
            for a in &self.actions {
                if self.host.can(a, pos, &self.frame, &|_| args(Vec::new())) {
                    out.push(Action::Variant(a.id));
                }
            }
        }
        if self.host.hooks(ALLOW) && !out.is_empty() {
            let kept: Vec<Action> = out.iter().copied().filter(|&a| self.allows(pos, a)).collect();
            if !kept.is_empty() {
                *out = kept;
            }
        }
    }

    /// Why an action the rules allow is not on the legal list.
    pub fn refusal(&self, pos: &Position, action: Action) -> String {
        if let Action::Variant(id) = action {
            return match self.action(id) {
                None => "no variant of this ruleset has that action".into(),
                Some(a) => format!(
                    "variant {}'s action `{}` is taken in phase `shot`, when its `can` allows it",
                    self.host.variants[a.variant].name, a.name
                ),
            };
        }
        let text = action.to_string();
        for v in &self.host.variants {
            let Some(f) = &v.points[ALLOW] else { continue };
            let (r, _) = self.host.call(pos, &self.frame, "allow", false, |g| {
                f.call::<Value>((g.clone(), text.as_str()))
            });
            if matches!(r, Ok(Value::Boolean(false))) {
                return format!("the house rule {} does not allow it now (its `allow`)", v.name);
            }
        }
        "a house rule of this ruleset does not allow it now".into()
    }

    /// The variant action of interned id `id`, if this ruleset has it.
    pub fn action(&self, id: u8) -> Option<&VariantAction> {
        self.actions.iter().find(|a| a.id == id)
    }

    /// The variant action named `word`, if this ruleset has it.
    pub fn action_named(&self, word: &str) -> Option<Action> {
        self.actions
            .iter()
            .find(|a| a.name == word)
            .map(|a| Action::Variant(a.id))
    }

    /// Applies a legal action with the variants' rule points, then their
    /// reactions (each event, the action) and `ends_now`.
    pub fn apply(&self, game: &Gateball, pos: &mut Position, action: Action, sink: &mut impl Sink<Event>) {
        let team = Team::of_ball(pos.ball);
        if self.host.hooks(COST) {
            let text = action.to_string();
            let cost = self.host.ask(
                COST,
                pos,
                &self.frame,
                &|lua| args(vec![Value::String(lua.create_string(&text)?)]),
                &mut |_, v| points_answer(v),
            );
            if let Some(c) = cost.filter(|&c| c > 0) {
                let b = &mut pos.bonus[team as usize];
                *b = b.saturating_sub(i16::from(c)).clamp(-999, 999);
            }
        }
        let mut log = Vec::new();
        match action {
            Action::Variant(id) => self.variant_action(game, pos, id, &mut log),
            _ => apply::apply_with(game, pos, action, &mut log, &mut Live { s: self }),
        }
        let done = |p: &Position| p.is_over();
        for e in log {
            if self.host.hooks(ON_EVENT) && !pos.is_over() {
                *pos = self.host.react(
                    ON_EVENT,
                    pos,
                    &self.frame,
                    &|lua| args(vec![Value::Table(super::api::event_table(lua, &e)?)]),
                    &done,
                );
            }
            sink.emit(e);
        }
        if self.host.hooks(AFTER_ACTION) && !pos.is_over() {
            let text = action.to_string();
            *pos = self.host.react(
                AFTER_ACTION,
                pos,
                &self.frame,
                &|lua| {
                    args(vec![
                        Value::String(lua.create_string(&text)?),
                        Value::String(lua.create_string(team.name())?),
                    ])
                },
                &done,
            );
        }
        if self.host.hooks(ENDS_NOW)
            && !pos.is_over()
            && let Some(Ending::End(winner, by)) = self.ending(pos, None)
        {
            pos.ended_by = by;
            apply::game_over(pos, winner, sink);
        }
    }

    /// A variant's own action: its `resolve` on a checked copy, then the
    /// play ends (T3.4) unless it says not.
    fn variant_action(&self, game: &Gateball, pos: &mut Position, id: u8, log: &mut Vec<Event>) {
        let Some(a) = self.action(id) else { return };
        self.host.resolve(a, pos, &self.frame, &|_| args(Vec::new()));
        if a.ends_play && !pos.is_over() {
            apply::end_play_with(game, pos, log, &mut Live { s: self });
        }
    }
}
