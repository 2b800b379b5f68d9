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

use mlua::{MultiValue, Table, Value};

use super::error::ScriptError;
use super::host::{Host, Variant};
use crate::script::fields::check_keys;
use crate::script::variants::first;
use crate::games::ball::action::Action;
use crate::games::ball::apply::{Ending, RulesEnd};
use crate::games::ball::event::{Event, Taking};
use crate::games::ball::json;
use crate::games::ball::params::{
    MAX_TURN_AP, Params,
};
use crate::games::ball::piece::Team;
use crate::games::ball::position::{Outcome, Position};

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
            let r = self.call((&v.file, owner), pos, params, p.name(), false, |g| {
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
        let r = self.call((&v.file, owner), cur, params, name, true, |g| {
            f.call::<()>(args(self, g)?)
        });
        if let Err(e) = r {
            return Err(ScriptError::from_lua(&e, &v.file, owner, name));
        }
        let after = *self.left();
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
