//! What a ruleset's variants add to a game's data, for any game: the
//! names of their ends, their counters in the position (`state`) and their
//! own parameters (`options`). The rules read none of it; a game's
//! position JSON writes and reads the counters by these names, and its lab
//! and boards name an end by it.
//!
//! A counter is kept per game, per team or per piece; what a "piece" is and
//! how many there are is the game's ([`Scope`]): BALL's 14 pieces,
//! Gateball's 10 balls, G-ball's 18 players.

use mlua::{Table, Value};

use super::fields::check_keys;
use super::registry::show;

/// Who a counter is kept for, in one game's words.
pub trait Scope: Copy + Eq + std::fmt::Debug + 'static {
    /// Every scope, in the order `state` documents them.
    const ALL: &'static [Self];
    /// The position's counter slots (`MAX_VARS`).
    const MAX_SLOTS: usize;
    /// The scope's name in a variant's `state`: `"game"`, `"team"`, ….
    fn name(self) -> &'static str;
    /// The slots a counter of this scope takes.
    fn slots(self) -> usize;

    fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.name() == s)
    }
}

/// One counter a variant keeps in the position (`state`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VarDecl<S> {
    pub name: String,
    pub scope: S,
    /// Its value in the start position.
    pub start: i16,
    /// Its first slot in the position's counters.
    pub slot: usize,
}

impl<S: Scope> VarDecl<S> {
    /// Its slots in the position's counters.
    pub fn slots(&self) -> std::ops::Range<usize> {
        self.slot..self.slot + self.scope.slots()
    }
}

/// A parameter a variant declares (`options`): its value under this
/// ruleset (the default, or the ruleset file's).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OptionValue {
    pub name: String,
    pub value: i64,
    pub boolean: bool,
}

/// What a ruleset's scripts add to the game's data.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout<S> {
    /// The names of the ways a variant may end the game; `ended_by` k is
    /// `ends[k - 1]`.
    pub ends: Vec<String>,
    /// The ends that are limits (a tiebreak at the last turn): the lab
    /// counts such games as timeouts, not as decided by play.
    pub limit_ends: Vec<String>,
    pub vars: Vec<VarDecl<S>>,
    pub options: Vec<OptionValue>,
    /// The variant options the ruleset file sets, before the variants
    /// that declare them are loaded (which then check them).
    pub given: Vec<OptionValue>,
    /// The rule points some variant hooks, by name: what the rules and
    /// the position reader must allow for (a variant that decides the end
    /// lets turns pass the limit).
    pub hooked: Vec<&'static str>,
}

impl<S> Default for Layout<S> {
    fn default() -> Self {
        Layout {
            ends: Vec::new(),
            limit_ends: Vec::new(),
            vars: Vec::new(),
            options: Vec::new(),
            given: Vec::new(),
            hooked: Vec::new(),
        }
    }
}

impl<S: Scope> Layout<S> {
    pub fn var(&self, name: &str) -> Option<&VarDecl<S>> {
        self.vars.iter().find(|v| v.name == name)
    }

    /// Counter `name`, or why there is none (with did-you-mean): the one
    /// refusal the JSON readers, scenario lines and `game.get`/`set` give.
    pub fn counter(&self, name: &str) -> Result<&VarDecl<S>, String> {
        self.var(name).ok_or_else(|| {
            let hint = crate::diagnostic::hint(name, self.vars.iter().map(|v| v.name.as_str()));
            format!("this ruleset's variants keep no counter `{name}` (their `state`){hint}")
        })
    }

    /// The end name of `ended_by`, if it is one of this ruleset's.
    pub fn end_name(&self, ended_by: u8) -> Option<&str> {
        (ended_by as usize)
            .checked_sub(1)
            .and_then(|i| self.ends.get(i))
            .map(String::as_str)
    }

    /// Whether end `ended_by` is a limit (a tiebreak), not play.
    pub fn is_limit(&self, ended_by: u8) -> bool {
        self.end_name(ended_by)
            .is_some_and(|n| self.limit_ends.iter().any(|l| l == n))
    }

    pub fn option(&self, name: &str) -> Option<&OptionValue> {
        self.options.iter().find(|o| o.name == name)
    }

    /// Whether some variant hooks the rule point `name`.
    pub fn hooks(&self, name: &str) -> bool {
        self.hooked.contains(&name)
    }

    /// The slots the counters take: the length of a position's counters.
    pub fn slots(&self) -> usize {
        self.vars.iter().map(|v| v.scope.slots()).sum()
    }

    /// The counters of a new game: each at its `start`.
    pub fn start_values(&self, vars: &mut [i16]) {
        for v in &self.vars {
            vars[v.slots()].fill(v.start);
        }
    }

    /// Empties what the variants declared, keeping the options the ruleset
    /// file gives: a layout is built afresh from the variants' text.
    pub fn reset(&mut self) {
        let given = std::mem::take(&mut self.given);
        *self = Layout::default();
        self.given = given;
    }
}

/// Reads a variant's `state`, `options` and `ends` into the ruleset's
/// layout, and returns its ends by name with their `ended_by` index (the
/// first is the variant's own `name`).
pub fn declare<S: Scope>(
    t: &Table,
    name: &str,
    layout: &mut Layout<S>,
) -> Result<Vec<(String, u8)>, String> {
    if let Some(options) = t
        .get::<Option<Table>>("options")
        .map_err(|_| "`options` must be a table".to_string())?
    {
        for (k, v) in sorted::<S>(&options)? {
            let value = declare_option(layout, &k, &v)?;
            layout.options.push(value);
        }
    }
    if let Some(state) = t
        .get::<Option<Table>>("state")
        .map_err(|_| "`state` must be a table of counter names".to_string())?
    {
        for (k, v) in sorted::<S>(&state)? {
            let (scope, start) = state_entry(layout, &k, &v)?;
            if !is_name(&k) {
                return Err(format!(
                    "state `{k}`: a counter's name is lower-case letters, digits and `_`"
                ));
            }
            if layout.var(&k).is_some() {
                return Err(format!(
                    "state `{k}`: another variant keeps a counter of that name"
                ));
            }
            let slot = layout.slots();
            if slot + scope.slots() > S::MAX_SLOTS {
                let sizes: Vec<String> = S::ALL
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let takes = if i == 0 { " takes" } else { "" };
                        format!("a {} counter{takes} {}", s.name(), s.slots())
                    })
                    .collect();
                return Err(format!(
                    "state `{k}`: a position keeps at most {} counter slots ({})",
                    S::MAX_SLOTS,
                    sizes.join(", ")
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
                        None => {
                            return Err(
                                "ends: an entry is a name or {name = …, limit = true}".into()
                            );
                        }
                    }
                }
                _ => return Err("ends: an entry is a name or {name = …, limit = true}".into()),
            };
            if v.is_empty() || v.len() > 40 || v.chars().any(|c| c.is_control()) {
                return Err(format!("ends: `{v}` is not a name (1-40 characters)"));
            }
            if limit && !layout.limit_ends.contains(&v) {
                layout.limit_ends.push(v.clone());
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
fn declare_option<S: Scope>(layout: &Layout<S>, k: &str, v: &Value) -> Result<OptionValue, String> {
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
    check_keys(spec, &["default", "min", "max", "text"])
        .map_err(|m| format!("option `{k}`: {m}"))?;
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
        (
            min.unwrap_or(i64::from(i16::MIN)),
            max.unwrap_or(i64::from(i16::MAX)),
        )
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
                if boolean {
                    "a boolean"
                } else {
                    "a whole number"
                }
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
fn state_entry<S: Scope>(layout: &Layout<S>, k: &str, v: &Value) -> Result<(S, i16), String> {
    let scope_of = |v: &Value| {
        v.as_string()
            .and_then(|s| S::parse(&s.to_string_lossy()))
            .ok_or_else(|| {
                let names: Vec<String> =
                    S::ALL.iter().map(|s| format!("\"{}\"", s.name())).collect();
                format!("state `{k}`: expected {}", or_list(&names))
            })
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
                format!(
                    "state `{k}`: option `{name}` = {} is outside -32768..32767",
                    o.value
                )
            })?
        }
        other => {
            return Err(format!(
                "state `{k}`: start must be a whole number or an option's name, not {}",
                show(&other)
            ));
        }
    };
    Ok((scope, start))
}

/// `"a", "b" or "c"`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
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
fn sorted<S: Scope>(t: &Table) -> Result<Vec<(String, Value)>, String> {
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
        if out.len() > S::MAX_SLOTS * 4 {
            return Err("too many entries".into());
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}
