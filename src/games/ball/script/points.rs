//! BALL's rule points: where a variant changes a rule by answering a
//! question the engine asks (what an action costs, what a touchdown is
//! worth, who moves next, whether the game ends) or by reacting to what
//! happened (every action, every rule event). One mechanism for all of
//! them, as a card is one mechanism for every effect: a hook by name, asked
//! in the ruleset's order, its answer checked by the kernel.
//!
//! Read-only points answer; reaction points write on a copy that
//! `json::check` must accept before it is committed. A failing hook is
//! reported with file and line and answers as the rules would.

use std::sync::Arc;

use mlua::{MultiValue, Table, Value};

use super::error::ScriptError;
use super::host::{Host, Variant, check_keys};
use crate::games::ball::action::Action;
use crate::games::ball::apply::{Ending, RulesEnd};
use crate::games::ball::event::{Event, Taking};
use crate::games::ball::json;
use crate::games::ball::params::{
    Layout, MAX_TURN_AP, OptionValue, Params, Scope, VarDecl,
};
use crate::games::ball::piece::Team;
use crate::games::ball::position::{MAX_VARS, Outcome, Position};

/// A rule point a variant may hook, by its field name in the variant's
/// table (`api::VARIANT_FIELDS` documents each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    OnTouchdown,
    OnTurnStart,
    TouchdownCounts,
    Allow,
    Cost,
    TouchdownValue,
    Ending,
    EndsNow,
    NextTurn,
    TurnAp,
    OnEvent,
    AfterAction,
}

/// How many rule points there are: the slots of a variant's hooks.
pub const POINTS: usize = 12;

impl Point {
    pub const ALL: [Point; POINTS] = [
        Point::OnTouchdown,
        Point::OnTurnStart,
        Point::TouchdownCounts,
        Point::Allow,
        Point::Cost,
        Point::TouchdownValue,
        Point::Ending,
        Point::EndsNow,
        Point::NextTurn,
        Point::TurnAp,
        Point::OnEvent,
        Point::AfterAction,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Point::OnTouchdown => "on_touchdown",
            Point::OnTurnStart => "on_turn_start",
            Point::TouchdownCounts => "touchdown_counts",
            Point::Allow => "allow",
            Point::Cost => "cost",
            Point::TouchdownValue => "touchdown_value",
            Point::Ending => "ending",
            Point::EndsNow => "ends_now",
            Point::NextTurn => "next_turn",
            Point::TurnAp => "turn_ap",
            Point::OnEvent => "on_event",
            Point::AfterAction => "after_action",
        }
    }

    /// Whether the hook may change the game (on a checked copy).
    pub fn writes(self) -> bool {
        matches!(
            self,
            Point::OnEvent | Point::AfterAction | Point::OnTouchdown | Point::OnTurnStart
        )
    }
}

/// Reads a variant's `state`, `options` and `ends` into the ruleset's
/// layout, and returns its ends by name with their `ended_by` index.
pub fn declare(t: &Table, name: &str, params: &mut Params) -> Result<Vec<(String, u8)>, String> {
    let layout = Arc::make_mut(&mut params.layout);
    if let Some(options) = t
        .get::<Option<Table>>("options")
        .map_err(|_| "`options` must be a table".to_string())?
    {
        for (k, v) in sorted(&options)? {
            let value = declare_option(layout, &k, &v)?;
            layout.options.push(value);
        }
    }
    if let Some(state) = t
        .get::<Option<Table>>("state")
        .map_err(|_| "`state` must be a table of counter names".to_string())?
    {
        for (k, v) in sorted(&state)? {
            let (scope, start) = state_entry(layout, &k, &v)?;
            if !is_name(&k) {
                return Err(format!(
                    "state `{k}`: a counter's name is lower-case letters, digits and `_`"
                ));
            }
            if layout.var(&k).is_some() {
                return Err(format!("state `{k}`: another variant keeps a counter of that name"));
            }
            let slot: usize = layout.vars.iter().map(|v| v.scope.slots()).sum();
            if slot + scope.slots() > MAX_VARS {
                return Err(format!(
                    "state `{k}`: a position keeps at most {MAX_VARS} counter slots (a game counter takes 1, a team counter 2, a piece counter 14)"
                ));
            }
            layout.vars.push(VarDecl {
                name: k,
                scope,
                start,
                slot,
            });
        }
    }
    let mut ends = vec![name.to_string()];
    if let Some(list) = t
        .get::<Option<Table>>("ends")
        .map_err(|_| "`ends` must be a list of names".to_string())?
    {
        for v in list.sequence_values::<Value>() {
            let v = v.map_err(|_| "`ends` must be a list of names".to_string())?;
            let (v, limit) = match v {
                Value::String(s) => (s.to_string_lossy(), false),
                Value::Table(t) => {
                    let name: Option<String> = t.get("name").ok().flatten();
                    let limit: Option<bool> = t.get("limit").ok().flatten();
                    match name {
                        Some(n) => (n, limit.unwrap_or(false)),
                        None => return Err("ends: an entry is a name or {name = …, limit = true}".into()),
                    }
                }
                _ => return Err("ends: an entry is a name or {name = …, limit = true}".into()),
            };
            if limit && !layout.limit_ends.contains(&v) {
                layout.limit_ends.push(v.clone());
            }
            if v.is_empty() || v.len() > 40 || v.chars().any(|c| c.is_control()) {
                return Err(format!("ends: `{v}` is not a name (1-40 characters)"));
            }
            if !ends.contains(&v) {
                ends.push(v);
            }
        }
    }
    let mut out = Vec::new();
    for e in ends {
        let k = match layout.ends.iter().position(|x| *x == e) {
            Some(k) => k,
            None => {
                if layout.ends.len() >= 250 {
                    return Err("a ruleset's variants name at most 250 ends".into());
                }
                layout.ends.push(e.clone());
                layout.ends.len() - 1
            }
        };
        out.push((e, k as u8 + 1));
    }
    Ok(out)
}

/// One declared option, with the ruleset's value (or its default).
fn declare_option(layout: &Layout, k: &str, v: &Value) -> Result<OptionValue, String> {
    let Value::Table(spec) = v else {
        return Err(format!(
            "option `{k}`: expected {{default = …, min = …, max = …, text = \"…\"}}"
        ));
    };
    if !is_name(k) {
        return Err(format!(
            "option `{k}`: a name is lower-case letters, digits and `_`"
        ));
    }
    if layout.option(k).is_some() {
        return Err(format!("option `{k}`: another variant declares it"));
    }
    check_keys(spec, &["default", "min", "max", "text"]).map_err(|m| format!("option `{k}`: {m}"))?;
    let text: Option<String> = spec.get("text").ok().flatten();
    if text.is_none_or(|t| t.trim().is_empty()) {
        return Err(format!("option `{k}`: `text` says what it sets"));
    }
    let (default, boolean) = match spec.get::<Value>("default") {
        Ok(Value::Integer(n)) => (n, false),
        Ok(Value::Boolean(b)) => (i64::from(b), true),
        _ => {
            return Err(format!(
                "option `{k}`: `default` must be a whole number or a boolean"
            ));
        }
    };
    let min = spec.get::<Option<i64>>("min").ok().flatten();
    let max = spec.get::<Option<i64>>("max").ok().flatten();
    let (lo, hi) = if boolean {
        (0, 1)
    } else {
        (min.unwrap_or(i64::from(i16::MIN)), max.unwrap_or(i64::from(i16::MAX)))
    };
    if lo > hi || !(lo..=hi).contains(&default) {
        return Err(format!(
            "option `{k}`: the default {default} is outside {lo}..={hi}"
        ));
    }
    let value = match layout.given.iter().find(|g| g.name == k) {
        Some(g) if g.boolean != boolean => {
            return Err(format!(
                "option `{k}`: the ruleset sets {}, but it is {}",
                if g.boolean { "a boolean" } else { "a number" },
                if boolean { "a boolean" } else { "a whole number" }
            ));
        }
        Some(g) if !(lo..=hi).contains(&g.value) => {
            return Err(format!(
                "option `{k}`: the ruleset sets {}, outside {lo}..={hi}",
                g.value
            ));
        }
        Some(g) => g.value,
        None => default,
    };
    Ok(OptionValue {
        name: k.to_string(),
        value,
        boolean,
    })
}

/// A `state` entry: `"team"`, or `{ per = "team", start = 6 }` where
/// `start` is a number or the name of one of the variant's options.
fn state_entry(layout: &Layout, k: &str, v: &Value) -> Result<(Scope, i16), String> {
    let scope_of = |v: &Value| {
        v.as_string()
            .and_then(|s| Scope::parse(&s.to_string_lossy()))
            .ok_or_else(|| format!("state `{k}`: expected \"game\", \"team\" or \"piece\""))
    };
    let Value::Table(t) = v else {
        return Ok((scope_of(v)?, 0));
    };
    check_keys(t, &["per", "start"]).map_err(|m| format!("state `{k}`: {m}"))?;
    let scope = scope_of(&t.get::<Value>("per").unwrap_or(Value::Nil))?;
    let start = match t.get::<Value>("start").unwrap_or(Value::Nil) {
        Value::Nil => 0,
        Value::Integer(n) => i16::try_from(n)
            .map_err(|_| format!("state `{k}`: start {n} is outside -32768..32767"))?,
        Value::String(s) => {
            let name = s.to_string_lossy();
            let o = layout.option(&name).ok_or_else(|| {
                format!("state `{k}`: start `{name}` is not one of the variant's options")
            })?;
            i16::try_from(o.value).map_err(|_| {
                format!("state `{k}`: option `{name}` = {} is outside -32768..32767", o.value)
            })?
        }
        other => {
            return Err(format!(
                "state `{k}`: start must be a whole number or an option's name, not {}",
                shown(&other)
            ));
        }
    };
    Ok((scope, start))
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 32
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// A table's string keys in order: what a problem names must not depend
/// on `pairs` order.
fn sorted(t: &Table) -> Result<Vec<(String, Value)>, String> {
    let mut out = Vec::new();
    for pair in t.clone().pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        let Value::String(k) = k else {
            return Err(format!(
                "expected names as keys, found {}",
                crate::diagnostic::a(k.type_name())
            ));
        };
        out.push((k.to_string_lossy(), v));
        if out.len() > MAX_VARS * 4 {
            return Err("too many entries".into());
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// How a point reads a variant's answer: `Some` decides, `None` asks
/// the next variant, `Err` is the answer's problem.
type Decide<'a, T> = &'a mut dyn FnMut(&Variant, MultiValue) -> Result<Option<T>, String>;

impl Host {
    /// Whether any variant hooks `p`.
    pub fn hooks(&self, p: Point) -> bool {
        self.variants.iter().any(|v| v.points[p as usize].is_some())
    }

    /// Calls point `p` of every variant (in order, skipping `skip`) until
    /// `decide` returns `Some`. A call that fails, or whose answer
    /// `decide` refuses (`Err`), is reported through `failed` and counts
    /// as no answer.
    #[allow(clippy::too_many_arguments)] // the point's context, as every point has it
    fn ask<T>(
        &self,
        p: Point,
        pos: &Position,
        params: &Params,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
        args: &dyn Fn(&Host, &Table) -> mlua::Result<MultiValue>,
        decide: Decide<'_, T>,
    ) -> Option<T> {
        for (k, v) in self.variants.iter().enumerate() {
            let Some(f) = &v.points[p as usize] else {
                continue;
            };
            if skip(k) {
                continue;
            }
            let owner = v.owner.as_str();
            let (r, _) = self.call((&v.file, owner), pos, params, p.name(), false, |g| {
                f.call::<MultiValue>(args(self, g)?)
            });
            match r {
                Err(e) => failed(k, ScriptError::from_lua(&e, &v.file, owner, p.name())),
                Ok(values) => match decide(v, values) {
                    Ok(Some(t)) => return Some(t),
                    Ok(None) => {}
                    Err(m) => failed(k, ScriptError::kernel(&v.file, owner, p.name(), m)),
                },
            }
        }
        None
    }

    /// `cost(game, action)`: the first whole number 0..=20 answered.
    pub fn cost(
        &self,
        pos: &Position,
        params: &Params,
        action: Action,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
    ) -> Option<u8> {
        self.ask(
            Point::Cost,
            pos,
            params,
            skip,
            failed,
            &|h, g| Ok(MultiValue::from_vec(vec![
                Value::Table(g.clone()),
                Value::Table(h.action_table(action)?),
            ])),
            &mut |_, values| ap_answer(values),
        )
    }

    /// `touchdown_value(game, team)`: points 0..=9 and, optionally, the
    /// team they go to.
    pub fn touchdown_value(
        &self,
        pos: &Position,
        params: &Params,
        team: Team,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
    ) -> Option<(u8, Team)> {
        self.ask(
            Point::TouchdownValue,
            pos,
            params,
            skip,
            failed,
            &|h, g| team_args(h, g, team),
            &mut |_, values| {
                let mut values = values.into_iter();
                let points = match values.next().unwrap_or(Value::Nil) {
                    Value::Nil => return Ok(None),
                    Value::Integer(n) if (0..=9).contains(&n) => n as u8,
                    other => {
                        return Err(format!(
                            "must return nil or the points 0-9 (and optionally the team they go to), not {}",
                            shown(&other)
                        ));
                    }
                };
                let to = match values.next().unwrap_or(Value::Nil) {
                    Value::Nil => team,
                    v => parse_team(&v).ok_or_else(|| {
                        format!("its second value must be \"ATK\" or \"DEF\", not {}", shown(&v))
                    })?,
                };
                Ok(Some((points, to)))
            },
        )
    }

    /// `ending(game, why)` where the rules would end the game (nil lets
    /// the rules decide, `false` plays on, a table ends it the variant's
    /// way), or `ends_now(game)` after an action (`why` nil: nil or
    /// `false` goes on, a table ends the game).
    pub fn ending(
        &self,
        pos: &Position,
        params: &Params,
        why: Option<RulesEnd>,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
    ) -> Option<Ending> {
        self.ask(
            if why.is_some() {
                Point::Ending
            } else {
                Point::EndsNow
            },
            pos,
            params,
            skip,
            failed,
            &|h, g| {
                Ok(MultiValue::from_vec(vec![
                    Value::Table(g.clone()),
                    match why {
                        Some(w) => Value::String(h.sandbox.lua.create_string(w.name())?),
                        None => Value::Nil,
                    },
                ]))
            },
            &mut |v, values| match first(values) {
                Value::Nil => Ok(None),
                Value::Boolean(false) if why.is_some() => Ok(Some(Ending::Veto)),
                Value::Boolean(false) => Ok(None),
                Value::Table(t) => end_of(v, &t, pos).map(Some),
                other => Err(format!(
                    "must return nil, {}or {{winner = …, reason = …}}, not {}",
                    if why.is_some() { "false " } else { "" },
                    shown(&other)
                )),
            },
        )
    }

    /// `next_turn(game, team)`: the team that moves next.
    pub fn next_turn(
        &self,
        pos: &Position,
        params: &Params,
        team: Team,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
    ) -> Option<Team> {
        self.ask(
            Point::NextTurn,
            pos,
            params,
            skip,
            failed,
            &|h, g| team_args(h, g, team),
            &mut |_, values| match first(values) {
                Value::Nil => Ok(None),
                v => parse_team(&v).map(Some).ok_or_else(|| {
                    format!("must return nil, \"ATK\" or \"DEF\", not {}", shown(&v))
                }),
            },
        )
    }

    /// `turn_ap(game, team)`: the AP the new turn starts with.
    pub fn turn_ap(
        &self,
        pos: &Position,
        params: &Params,
        team: Team,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
    ) -> Option<u8> {
        self.ask(
            Point::TurnAp,
            pos,
            params,
            skip,
            failed,
            &|h, g| team_args(h, g, team),
            &mut |_, values| ap_answer(values),
        )
    }

    /// Runs a writing point (`on_event` with each event, `after_action`
    /// with the action) of every variant in order, each on the result of
    /// the ones before; a change `json::check` refuses is a failure and
    /// is dropped.
    pub fn react(
        &self,
        p: Point,
        pos: &Position,
        params: &Params,
        arg: &dyn Fn(&Host) -> mlua::Result<Table>,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
    ) -> Position {
        let mut cur = *pos;
        for (k, v) in self.variants.iter().enumerate() {
            let Some(f) = &v.points[p as usize] else {
                continue;
            };
            if skip(k) || cur.is_over() {
                continue;
            }
            match self.write_hook(v, f, p.name(), &cur, params, &|h, g| {
                Ok(MultiValue::from_vec(vec![
                    Value::Table(g.clone()),
                    Value::Table(arg(h)?),
                ]))
            }) {
                Ok(after) => cur = after,
                Err(e) => failed(k, e),
            }
        }
        cur
    }

    /// Calls a hook that may write (`f`, variant `v`'s hook `name`) on
    /// `cur`: the position it leaves, if the call succeeded and the kernel
    /// accepts that position (B11.7); else the failure.
    pub(super) fn write_hook(
        &self,
        v: &Variant,
        f: &mlua::Function,
        name: &'static str,
        cur: &Position,
        params: &Params,
        args: &dyn Fn(&Host, &Table) -> mlua::Result<MultiValue>,
    ) -> Result<Position, ScriptError> {
        let owner = v.owner.as_str();
        let (r, after) = self.call((&v.file, owner), cur, params, name, true, |g| {
            f.call::<()>(args(self, g)?)
        });
        if let Err(e) = r {
            return Err(ScriptError::from_lua(&e, &v.file, owner, name));
        }
        json::check(&after, params).map_err(|e| {
            ScriptError::kernel(
                &v.file,
                owner,
                name,
                format!(
                    "the change would break the rules: `{}`: {}",
                    e.field, e.problem
                ),
            )
        })?;
        Ok(after)
    }

    /// An event as `on_event` sees it: `{kind, …}` with the event's
    /// pieces, squares and team by name.
    pub fn event_table(&self, e: &Event) -> mlua::Result<Table> {
        let lua = &self.sandbox.lua;
        let t = lua.create_table()?;
        let piece = |p: crate::games::ball::piece::PieceId| self.names.pieces[p.0 as usize].clone();
        let square = |s: crate::games::ball::board::Sq| self.names.squares[s.0 as usize].clone();
        match *e {
            Event::KnockedDown { piece: p, at } => {
                t.set("kind", "knocked_down")?;
                t.set("piece", piece(p))?;
                t.set("at", square(at))?;
            }
            Event::BallTaken { piece: p, how } => {
                t.set("kind", "ball_taken")?;
                t.set("piece", piece(p))?;
                t.set(
                    "how",
                    match how {
                        Taking::Loose => "loose",
                        Taking::Fumble => "fumble",
                        Taking::Stack => "stack",
                        Taking::Handoff => "handoff",
                        Taking::Pass => "pass",
                        Taking::Keep => "keep",
                    },
                )?;
            }
            Event::BallLoose { at } => {
                t.set("kind", "ball_loose")?;
                t.set("at", square(at))?;
            }
            Event::PassReceived { piece: p, at } => {
                t.set("kind", "pass_received")?;
                t.set("piece", piece(p))?;
                t.set("at", square(at))?;
            }
            Event::StackFormed { top, bottom, at } => {
                t.set("kind", "stack_formed")?;
                t.set("top", piece(top))?;
                t.set("bottom", piece(bottom))?;
                t.set("at", square(at))?;
            }
            Event::StackReleased { top, bottom } => {
                t.set("kind", "stack_released")?;
                t.set("top", piece(top))?;
                t.set("bottom", piece(bottom))?;
            }
            Event::StoodUp { piece: p } => {
                t.set("kind", "stood_up")?;
                t.set("piece", piece(p))?;
            }
            Event::Touchdown { team } => {
                t.set("kind", "touchdown")?;
                t.set("team", team.name())?;
            }
            Event::TouchdownVetoed { team, holder } => {
                t.set("kind", "touchdown_vetoed")?;
                t.set("team", team.name())?;
                t.set("piece", piece(holder))?;
            }
            Event::TurnStarted { team, turn } => {
                t.set("kind", "turn_started")?;
                t.set("team", team.name())?;
                t.set("turn", turn)?;
            }
            Event::GameOver { outcome } => {
                t.set("kind", "game_over")?;
                t.set(
                    "winner",
                    match outcome {
                        Outcome::Winner(w) => w.name(),
                        Outcome::Draw => "draw",
                    },
                )?;
            }
            Event::Card(c) => {
                t.set("kind", "card")?;
                t.set("team", c.team.name())?;
                t.set("card", c.card.name())?;
            }
        }
        Ok(t)
    }
}

/// The event kinds `on_event` receives, for the reference.
pub const EVENT_KINDS: &str = "`knocked_down` (piece, at), `ball_taken` (piece, how: loose/fumble/stack/handoff/pass/keep), `ball_loose` (at), `pass_received` (piece, at), `stack_formed` (top, bottom, at), `stack_released` (top, bottom), `stood_up` (piece), `touchdown` (team), `touchdown_vetoed` (team, piece), `turn_started` (team, turn), `card` (team, card)";

/// An answer in AP: nil (the rules' own) or 0..=MAX_TURN_AP.
fn ap_answer(values: MultiValue) -> Result<Option<u8>, String> {
    match first(values) {
        Value::Nil => Ok(None),
        Value::Integer(n) if (0..=i64::from(MAX_TURN_AP)).contains(&n) => Ok(Some(n as u8)),
        other => Err(format!(
            "must return nil or a whole number of AP 0-{MAX_TURN_AP}, not {}",
            shown(&other)
        )),
    }
}

fn first(values: MultiValue) -> Value {
    values.into_iter().next().unwrap_or(Value::Nil)
}

fn shown(v: &Value) -> String {
    crate::script::registry::show(v)
}

fn parse_team(v: &Value) -> Option<Team> {
    v.as_string()
        .and_then(|s| Team::parse(&s.to_string_lossy()))
}

fn team_args(h: &Host, g: &Table, team: Team) -> mlua::Result<MultiValue> {
    Ok(MultiValue::from_vec(vec![
        Value::Table(g.clone()),
        Value::String(h.sandbox.lua.create_string(team.name())?),
    ]))
}

/// `{winner = "ATK"|"DEF"|"draw"|nil, reason = name|nil}`: nil winner is
/// by the score (B3.6), nil reason the variant's own name.
fn end_of(v: &Variant, t: &Table, pos: &Position) -> Result<Ending, String> {
    check_keys(t, &["winner", "reason"]).map_err(|m| format!("its end table has an {m}"))?;
    let outcome = match t.get::<Value>("winner").unwrap_or(Value::Nil) {
        Value::Nil => Outcome::by_score(pos.score),
        w => match w.as_string().map(|s| s.to_string_lossy()).as_deref() {
            Some("draw") => Outcome::Draw,
            Some(s) => Outcome::Winner(Team::parse(s).ok_or_else(|| {
                format!("`winner` must be \"ATK\", \"DEF\" or \"draw\", not `{s}`")
            })?),
            None => return Err(format!("`winner` must be a string, not {}", shown(&w))),
        },
    };
    let reason = match t.get::<Value>("reason").unwrap_or(Value::Nil) {
        Value::Nil => v.ends[0].1,
        r => {
            let name = r.as_string().map(|s| s.to_string_lossy()).unwrap_or_default();
            v.ends
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, k)| *k)
                .ok_or_else(|| {
                    let names: Vec<&str> = v.ends.iter().map(|(n, _)| n.as_str()).collect();
                    format!(
                        "`reason` {} is not one of its `ends` ({})",
                        shown(&r),
                        names.join(", ")
                    )
                })?
        }
    };
    Ok(Ending::End { outcome, reason })
}
