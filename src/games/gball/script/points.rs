//! G-ball's rule points: the questions the engine asks a ruleset's
//! variants (what is legal, a catch roll's target, a tackle die's
//! modifier, an injury's result, a goal's value, morale, a star, the end
//! of the match) and the reactions it runs (every event, every action).
//! Each answer is checked here: a bad one is the hook's failure, reported
//! with file and line, and the rules answer instead.

use mlua::{Lua, MultiValue, Table, Value};

use super::Script;
use crate::games::gball::Team;
use crate::games::gball::action::Action;
use crate::games::gball::board::{Sq, dir_name};
use crate::games::gball::event::{Event, Injury};
use crate::games::gball::flow::{Ending, RulesEnd};
use crate::games::gball::position::{Position, Winner, id_name, members};
use crate::script::fields::check_keys;
use crate::script::variants::{Decide, Point as P, Variant, first, veto};

/// A rule point, by its index in [`POINTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    Allow,
    CatchTarget,
    TackleModifier,
    Injury,
    GoalValue,
    Ending,
    EndsNow,
    Morale,
    EarnsStar,
    OnEvent,
    AfterAction,
}

/// Every rule point, in [`Point`]'s order.
pub const POINTS: &[P] = &[
    P {
        name: "allow",
        writes: false,
    },
    P {
        name: "catch_target",
        writes: false,
    },
    P {
        name: "tackle_modifier",
        writes: false,
    },
    P {
        name: "injury",
        writes: false,
    },
    P {
        name: "goal_value",
        writes: false,
    },
    P {
        name: "ending",
        writes: false,
    },
    P {
        name: "ends_now",
        writes: false,
    },
    P {
        name: "morale",
        writes: false,
    },
    P {
        name: "earns_star",
        writes: false,
    },
    P {
        name: "on_event",
        writes: true,
    },
    P {
        name: "after_action",
        writes: true,
    },
];


fn shown(v: &Value) -> String {
    crate::script::registry::show(v)
}

fn args(lua: &Lua, values: Vec<Value>) -> mlua::Result<MultiValue> {
    let _ = lua;
    Ok(MultiValue::from_vec(values))
}

fn s(lua: &Lua, text: &str) -> mlua::Result<Value> {
    Ok(Value::String(lua.create_string(text)?))
}

/// A whole number in `lo..=hi`, or nil.
fn int_answer(values: MultiValue, lo: i64, hi: i64, what: &str) -> Result<Option<i64>, String> {
    match first(values) {
        Value::Nil => Ok(None),
        Value::Integer(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
        Value::Integer(n) => Err(format!("must return nil or {what} {lo}-{hi}, not {n}")),
        other => Err(format!(
            "must return nil or {what} {lo}-{hi}, not {}",
            shown(&other)
        )),
    }
}

/// The table `allow` and `after_action` receive.
pub fn action_table(lua: &Lua, a: Action) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set("verb", a.verb())?;
    t.set("text", a.to_string())?;
    let set_mask = |t: &Table, m: u32| -> mlua::Result<()> {
        t.set(
            "players",
            lua.create_sequence_from(members(m).map(id_name))?,
        )
    };
    match a {
        Action::Place { player, square } => {
            t.set("player", id_name(player))?;
            t.set("square", Sq(square).to_string())?;
        }
        Action::Move { player, dir } => {
            t.set("player", id_name(player))?;
            t.set("dir", dir_name(dir))?;
        }
        Action::Stay { player } | Action::Variant { player, .. } => {
            t.set("player", id_name(player))?
        }
        Action::Turn { actor, target, way } => {
            t.set("player", id_name(actor))?;
            t.set("target", id_name(target))?;
            t.set("way", way.name())?;
        }
        Action::Decline(m) | Action::Receivers(m) => set_mask(&t, m)?,
        Action::Block { blocker, opponent } => {
            t.set("player", id_name(blocker))?;
            t.set("target", id_name(opponent))?;
        }
        Action::Catch(p) => {
            if let Some(p) = p {
                t.set("player", id_name(p))?;
            }
        }
        Action::Aim(d) => t.set("dir", dir_name(d))?,
        Action::Keep(h) | Action::Spin(h) => t.set("player", id_name(h))?,
        Action::Throw { holder, dir } => {
            t.set("player", id_name(holder))?;
            t.set("dir", dir_name(dir))?;
        }
        Action::Handoff { holder, to } => {
            t.set("player", id_name(holder))?;
            t.set("target", id_name(to))?;
        }
    }
    Ok(t)
}

/// The table `on_event` receives: the log line, its first word, and the
/// player or team it names.
pub fn event_table(lua: &Lua, e: &Event) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let text = e.to_string();
    let mut words = text.split(' ');
    let kind = words.next().unwrap_or("");
    t.set("kind", kind)?;
    let player = match *e {
        Event::Roll { subject, .. } => subject,
        Event::Moved { player, .. } => Some(player),
        Event::Catch { player, .. } => Some(player),
        Event::Score(p, _) | Event::Injury(p, _) | Event::Star(p, _) => Some(p),
        Event::Out(p, _, _) | Event::Foul(p, _) | Event::Games(p, _) => Some(p),
        Event::Turned(p, _) => Some(p),
        _ => None,
    };
    if let Some(p) = player {
        t.set("player", id_name(p))?;
    }
    let team = match *e {
        Event::Set(t) | Event::NewPoint(t) | Event::Concede(t) | Event::Coin(t) => Some(t),
        Event::Match(Winner::Team(t)) => Some(t),
        _ => None,
    };
    if let Some(team) = team {
        t.set("team", team.name())?;
    }
    t.set("text", text)?;
    Ok(t)
}

/// `{winner = "RED"|"BLU"|"draw"|nil, reason = name|nil}`.
fn end_of(v: &Variant, t: &Table, pos: &Position) -> Result<(Winner, u8), String> {
    check_keys(t, &["winner", "reason"]).map_err(|m| format!("its end table has an {m}"))?;
    let winner = match t.get::<Value>("winner").unwrap_or(Value::Nil) {
        Value::Nil => crate::games::gball::flow::limit_winner(pos),
        w => match w.as_string().map(|s| s.to_string_lossy()).as_deref() {
            Some("draw") => Winner::Draw,
            Some(s) => Winner::Team(Team::parse(s).ok_or_else(|| {
                format!("`winner` must be \"RED\", \"BLU\" or \"draw\", not `{s}`")
            })?),
            None => return Err(format!("`winner` must be a string, not {}", shown(&w))),
        },
    };
    let reason = match t.get::<Value>("reason").unwrap_or(Value::Nil) {
        Value::Nil => v.end(None)?,
        Value::String(r) => v.end(Some(&r.to_string_lossy()))?,
        r => return Err(format!("`reason` must be a string, not {}", shown(&r))),
    };
    Ok((winner, reason))
}

impl Script {
    /// Whether some variant hooks `p`.
    #[inline]
    pub fn hooks(&self, p: Point) -> bool {
        self.host.hooks(p as usize)
    }

    fn ask<T>(
        &self,
        p: Point,
        pos: &Position,
        args: &dyn Fn(&Lua) -> mlua::Result<MultiValue>,
        decide: Decide<'_, T>,
    ) -> Option<T> {
        if !self.hooks(p) {
            return None;
        }
        self.host.ask(p as usize, pos, &self.rules, args, decide)
    }

    /// `allow(game, action)`: whether a variant refuses `a`.
    pub fn allows(&self, pos: &Position, a: Action) -> bool {
        self.ask(
            Point::Allow,
            pos,
            &|lua| args(lua, vec![Value::Table(action_table(lua, a)?)]),
            &mut |_, values| veto(values),
        )
        .unwrap_or(true)
    }

    pub fn catch_target(&self, pos: &Position, p: u8) -> Option<u8> {
        self.ask(
            Point::CatchTarget,
            pos,
            &|lua| args(lua, vec![s(lua, &id_name(p))?]),
            &mut |_, values| int_answer(values, 1, 13, "a catch target"),
        )
        .map(|n| n as u8)
    }

    pub fn tackle_modifier(&self, pos: &Position, p: u8, kind: &'static str) -> Option<i32> {
        self.ask(
            Point::TackleModifier,
            pos,
            &|lua| args(lua, vec![s(lua, &id_name(p))?, s(lua, kind)?]),
            &mut |_, values| int_answer(values, -6, 6, "a modifier"),
        )
        .map(|n| n as i32)
    }

    pub fn injury(&self, pos: &Position, p: u8, roll: u32) -> Option<Option<Injury>> {
        self.ask(
            Point::Injury,
            pos,
            &|lua| {
                args(
                    lua,
                    vec![s(lua, &id_name(p))?, Value::Integer(i64::from(roll))],
                )
            },
            &mut |_, values| match first(values) {
                Value::Nil => Ok(None),
                v => match v.as_string().map(|s| s.to_string_lossy()).as_deref() {
                    Some("none") => Ok(Some(None)),
                    Some("stunned") => Ok(Some(Some(Injury::Stunned))),
                    Some("minor") => Ok(Some(Some(Injury::Minor))),
                    Some("serious") => Ok(Some(Some(Injury::Serious))),
                    Some("severe") => Ok(Some(Some(Injury::Severe))),
                    _ => Err(format!(
                        "must return nil, \"none\", \"stunned\", \"minor\", \"serious\" or \"severe\", not {}",
                        shown(&v)
                    )),
                },
            },
        )
    }

    pub fn goal_value(&self, pos: &Position, team: Team) -> Option<u8> {
        self.ask(
            Point::GoalValue,
            pos,
            &|lua| args(lua, vec![s(lua, team.name())?]),
            &mut |_, values| int_answer(values, 0, 9, "the points"),
        )
        .map(|n| n as u8)
    }

    /// `ending(game, why)` where the rules end the match, or `ends_now(game)`
    /// (`why` nil) after an action.
    pub fn ending(&self, pos: &Position, why: Option<RulesEnd>) -> Option<Ending> {
        let p = if why.is_some() {
            Point::Ending
        } else {
            Point::EndsNow
        };
        self.ask(
            p,
            pos,
            &|lua| {
                args(
                    lua,
                    vec![match why {
                        Some(w) => s(lua, w.name())?,
                        None => Value::Nil,
                    }],
                )
            },
            &mut |v, values| match first(values) {
                Value::Nil => Ok(None),
                Value::Boolean(false) if why.is_some() => Ok(Some(Ending::Veto)),
                Value::Boolean(false) => Ok(None),
                Value::Table(t) => {
                    end_of(v, &t, pos).map(|(winner, reason)| Some(Ending::End { winner, reason }))
                }
                other => Err(format!(
                    "must return nil, {}or {{winner = …, reason = …}}, not {}",
                    if why.is_some() { "false " } else { "" },
                    shown(&other)
                )),
            },
        )
    }

    pub fn morale(&self, pos: &Position, team: Team, level: u8) -> Option<u8> {
        self.ask(
            Point::Morale,
            pos,
            &|lua| {
                args(
                    lua,
                    vec![s(lua, team.name())?, Value::Integer(i64::from(level))],
                )
            },
            &mut |_, values| int_answer(values, 0, 20, "a morale level"),
        )
        .map(|n| n as u8)
    }

    pub fn earns_star(&self, pos: &Position, p: u8, star: char) -> bool {
        self.ask(
            Point::EarnsStar,
            pos,
            &|lua| args(lua, vec![s(lua, &id_name(p))?, s(lua, &star.to_string())?]),
            &mut |_, values| veto(values),
        )
        .unwrap_or(true)
    }

    /// Runs `on_event` with every event of `log`, then `after_action`.
    pub fn react(&self, pos: &mut Position, action: Action, log: &[Event]) {
        let done = |p: &Position| p.winner.is_some();
        if self.hooks(Point::OnEvent) {
            for e in log {
                if done(pos) {
                    break;
                }
                *pos = self.host.react(
                    Point::OnEvent as usize,
                    pos,
                    &self.rules,
                    &|lua| args(lua, vec![Value::Table(event_table(lua, e)?)]),
                    &done,
                );
            }
        }
        if self.hooks(Point::AfterAction) && !done(pos) {
            *pos = self.host.react(
                Point::AfterAction as usize,
                pos,
                &self.rules,
                &|lua| args(lua, vec![Value::Table(action_table(lua, action)?)]),
                &done,
            );
        }
    }
}

/// The players of a team, for probes.
pub fn first_player(pos: &Position, team: Team) -> Option<u8> {
    members(pos.roster & team.mask()).next()
}
