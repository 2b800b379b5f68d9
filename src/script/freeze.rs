//! Scripts keep no state between hook calls. A game's course must be a
//! function of its position and ruleset, so that a saved position plays
//! on exactly as the unbroken game would; anything a script could carry
//! from one call to the next outside the position breaks that. Once a
//! ruleset's scripts are loaded, everything they can reach from one call
//! to the next is frozen in place:
//!
//! - every table reachable from what a script returned, its globals and
//!   its functions' upvalues becomes read-only (its entries move behind a
//!   proxy, so references the script holds now see a table that refuses
//!   writes: `#`, `ipairs`, `pairs` and reads work as before);
//! - an upvalue holding a number, a string or a boolean cannot be made
//!   read-only, so it is watched: a call that changed one fails (reported
//!   with the variable's name) and the value is put back;
//! - a coroutine kept between calls is refused at load: it is state.
//!
//! State that a variant needs lives in the position (`state`, `game.set`).

use std::collections::HashSet;

use mlua::{Function, Lua, Table, Value, ffi};

/// An upvalue of a scalar value, and the value it must keep.
struct Watched {
    function: Function,
    index: i32,
    name: String,
    value: Value,
}

/// What freezing found to watch.
#[derive(Default)]
pub struct Frozen {
    watched: Vec<Watched>,
}

/// The most tables and functions one ruleset's scripts may keep between
/// calls: a walk of anything larger is refused, not left half-frozen.
const MAX_FROZEN: usize = 100_000;

struct Walk<'a> {
    lua: &'a Lua,
    seen: HashSet<usize>,
    library: &'a HashSet<usize>,
    frozen: Frozen,
    /// The proxies' metamethods, made once: each finds its table's
    /// entries through the proxy's metatable.
    refuse: mlua::Function,
    len: mlua::Function,
    pairs: mlua::Function,
}

/// The entries behind a frozen table: its metatable's `__index`.
fn backing(t: &Table) -> mlua::Result<Table> {
    t.metatable()
        .and_then(|mt| mt.raw_get::<Table>("__index").ok())
        .ok_or_else(|| mlua::Error::runtime("not a frozen table"))
}

/// Freezes everything reachable from `roots` (a script's returned table
/// and its functions), leaving the sandbox's own tables (`library`, by
/// pointer) as they are.
pub fn freeze(lua: &Lua, roots: &[Value], library: &HashSet<usize>) -> Result<Frozen, String> {
    let refuse = lua
        .create_function(|lua, (_t, k): (Value, Value)| -> mlua::Result<()> {
            let key = match &k {
                Value::String(s) => format!("`{}`", s.to_string_lossy()),
                other => format!("{} key", crate::diagnostic::a(other.type_name())),
            };
            let at = lua
                .inspect_stack(1, |d| {
                    format!(
                        "{}:{}: ",
                        d.source().short_src.as_deref().unwrap_or("?"),
                        d.current_line().unwrap_or(0)
                    )
                })
                .unwrap_or_default();
            Err(mlua::Error::runtime(format!(
                "{at}{key} cannot be set: a script keeps no state between hook calls (it would not be saved with the position); keep it in the position with a variant's `state` and `game.set`"
            )))
        })
        .map_err(|e| e.to_string())?;
    let len = lua
        .create_function(|_, t: Table| Ok(backing(&t)?.raw_len()))
        .map_err(|e| e.to_string())?;
    let pairs = lua
        .create_function(|lua, t: Table| {
            let next: Function = lua.globals().raw_get("next")?;
            Ok((next, backing(&t)?, Value::Nil))
        })
        .map_err(|e| e.to_string())?;
    let mut walk = Walk {
        lua,
        seen: HashSet::new(),
        library,
        frozen: Frozen::default(),
        refuse,
        len,
        pairs,
    };
    for v in roots {
        walk.reach(v)?;
    }
    Ok(walk.frozen)
}

impl Walk<'_> {
    /// What a script returned: the host reads its data at load and hands
    /// no script table to a hook, so only what its functions can reach
    /// (their upvalues, their globals) is frozen; the rest is searched for
    /// functions. A table a function also reaches is frozen when met
    /// there.
    fn reach(&mut self, v: &Value) -> Result<(), String> {
        let mut seen = HashSet::new();
        let mut stack = vec![v.clone()];
        while let Some(v) = stack.pop() {
            match v {
                Value::Function(f) => self.function(&f)?,
                Value::Thread(_) => self.value(&v)?,
                Value::Table(t) => {
                    if !seen.insert(t.to_pointer() as usize) {
                        continue;
                    }
                    if seen.len() > MAX_FROZEN {
                        return Err(format!(
                            "more than {MAX_FROZEN} tables and functions kept between calls"
                        ));
                    }
                    for pair in t.pairs::<Value, Value>() {
                        let (k, v) = pair.map_err(|e| e.to_string())?;
                        stack.push(k);
                        stack.push(v);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn value(&mut self, v: &Value) -> Result<(), String> {
        match v {
            Value::Table(t) => self.table(t),
            Value::Function(f) => self.function(f),
            Value::Thread(_) => Err(
                "a coroutine kept between hook calls is state the position does not hold: create it inside the hook".into(),
            ),
            _ => Ok(()),
        }
    }

    fn first_visit(&mut self, ptr: *const std::ffi::c_void) -> Result<bool, String> {
        let p = ptr as usize;
        if self.library.contains(&p) || !self.seen.insert(p) {
            return Ok(false);
        }
        if self.seen.len() > MAX_FROZEN {
            return Err(format!(
                "more than {MAX_FROZEN} tables and functions kept between calls"
            ));
        }
        Ok(true)
    }

    fn table(&mut self, t: &Table) -> Result<(), String> {
        if !self.first_visit(t.to_pointer())? {
            return Ok(());
        }
        let e = |e: mlua::Error| e.to_string();
        let mut entries = Vec::new();
        for pair in t.clone().pairs::<Value, Value>() {
            entries.push(pair.map_err(e)?);
        }
        for (k, v) in &entries {
            self.value(k)?;
            self.value(v)?;
        }
        let lua = self.lua;
        let backing = lua.create_table().map_err(e)?;
        for (k, v) in entries {
            t.raw_set(k.clone(), Value::Nil).map_err(e)?;
            backing.raw_set(k, v).map_err(e)?;
        }
        // The table's own metatable (a class's `__index`, an environment's
        // globals) now serves the entries behind the proxy.
        backing.set_metatable(t.metatable()).map_err(e)?;
        let mt = lua.create_table().map_err(e)?;
        mt.raw_set("__index", &backing).map_err(e)?;
        mt.raw_set("__newindex", &self.refuse).map_err(e)?;
        mt.raw_set("__len", &self.len).map_err(e)?;
        mt.raw_set("__pairs", &self.pairs).map_err(e)?;
        mt.raw_set("__metatable", false).map_err(e)?;
        t.set_metatable(Some(mt)).map_err(e)?;
        Ok(())
    }

    fn function(&mut self, f: &Function) -> Result<(), String> {
        if !self.first_visit(f.to_pointer())? {
            return Ok(());
        }
        // The host's functions (bindings, the sandbox's own wrappers) keep
        // what the host gave them; only a script's own functions are
        // walked.
        let info = f.info();
        if info.what == "C" || info.source.as_deref() == Some("=sandbox") {
            return Ok(());
        }
        for index in 1.. {
            let Some((name, v)) = upvalue(self.lua, f, index).map_err(|e| e.to_string())? else {
                break;
            };
            match &v {
                Value::Table(_) | Value::Function(_) | Value::Thread(_) => self.value(&v)?,
                Value::Integer(_) | Value::Number(_) | Value::String(_) | Value::Boolean(_) => {
                    self.frozen.watched.push(Watched {
                        function: f.clone(),
                        index,
                        name,
                        value: v,
                    })
                }
                _ => {}
            }
        }
        Ok(())
    }
}

impl Frozen {
    /// Whether any upvalue is watched: without, a call checks nothing.
    pub fn is_empty(&self) -> bool {
        self.watched.is_empty()
    }

    /// After a hook call: every watched upvalue still has its value, or
    /// the first that changed is named (and all are put back).
    pub fn verify(&self, lua: &Lua) -> Result<(), String> {
        let mut changed = None;
        for w in &self.watched {
            let now = upvalue(lua, &w.function, w.index)
                .ok()
                .flatten()
                .map(|(_, v)| v);
            if now.as_ref() != Some(&w.value) {
                let _ = set_upvalue(lua, &w.function, w.index, &w.value);
                changed.get_or_insert_with(|| w.name.clone());
            }
        }
        match changed {
            None => Ok(()),
            Some(name) => Err(format!(
                "the hook changed `{name}`, a variable of the script kept between calls: a script keeps no state between hook calls (it would not be saved with the position); keep it in the position with a variant's `state` and `game.set`"
            )),
        }
    }
}

/// The `n`th upvalue of `f`: its name and value, or `None` past the last.
fn upvalue(lua: &Lua, f: &Function, n: i32) -> mlua::Result<Option<(String, Value)>> {
    // SAFETY: `exec_raw` pushes `f` at index 1 and restores the stack;
    // `lua_getupvalue` pushes one value when it returns a name, nothing
    // otherwise, and reads an upvalue without running any Lua.
    let values = unsafe {
        lua.exec_raw::<mlua::MultiValue>(f.clone(), |s| {
            let name = ffi::lua_getupvalue(s, 1, n);
            if name.is_null() {
                ffi::lua_settop(s, 0);
            } else {
                let text = std::ffi::CStr::from_ptr(name)
                    .to_string_lossy()
                    .into_owned();
                ffi::lua_remove(s, 1);
                ffi::lua_pushlstring(s, text.as_ptr().cast(), text.len());
            }
        })?
    };
    let mut it = values.into_iter();
    match (it.next(), it.next()) {
        (Some(v), Some(Value::String(name))) => Ok(Some((name.to_string_lossy(), v))),
        _ => Ok(None),
    }
}

fn set_upvalue(lua: &Lua, f: &Function, n: i32, v: &Value) -> mlua::Result<()> {
    // SAFETY: stack [f, v]; `lua_setupvalue` pops the value when the
    // upvalue exists and leaves it otherwise; the stack is then cleared.
    unsafe {
        lua.exec_raw::<()>((f.clone(), v.clone()), |s| {
            ffi::lua_setupvalue(s, 1, n);
            ffi::lua_settop(s, 0);
        })
    }
}

/// The sandbox's own tables, which scripts share and which stay as the
/// sandbox made them: the globals, the libraries in them, and `game`.
pub fn library(lua: &Lua) -> HashSet<usize> {
    let mut set = HashSet::new();
    let g = lua.globals();
    set.insert(g.to_pointer() as usize);
    for (_, v) in g.pairs::<Value, Value>().flatten() {
        match v {
            Value::Table(t) => {
                set.insert(t.to_pointer() as usize);
                // A library proxy's contents (`string.rep` behind a
                // frozen `string`).
                if let Some(mt) = t.metatable() {
                    set.insert(mt.to_pointer() as usize);
                    if let Ok(Value::Table(inner)) = mt.raw_get::<Value>("__index") {
                        set.insert(inner.to_pointer() as usize);
                    }
                }
            }
            Value::Function(f) => {
                set.insert(f.to_pointer() as usize);
            }
            _ => {}
        }
    }
    set
}
