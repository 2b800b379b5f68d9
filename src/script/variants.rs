//! House rules for any game: a ruleset's variant scripts loaded into one
//! sandbox, their rule points asked by the game's engine, and every
//! failure kept as a [`ScriptError`] with file and line.
//!
//! A game binds to it with a [`Binding`]: its position and rules (what a
//! hook reads and may change), its rule points by name, its variant
//! fields, its API (`game.…`) and the check every change a hook makes
//! must pass. The game then asks its points through [`Host::ask`] (a
//! question: the first variant that answers decides) and [`Host::react`]
//! (a reaction: each variant in turn changes a copy). BALL's variants live
//! in its own host beside its cards; Gateball and G-ball bind here.
//!
//! A failing hook answers as the rules would and is not asked again in
//! that game (its error waits in [`Host::take_errors`]); a change the game's
//! check refuses is dropped the same way: a script never corrupts a game.

use std::cell::RefCell;
use std::marker::PhantomData;

use mlua::{AppDataRefMut as RefMut, Function, Lua, MultiValue, Table, Value};

use super::error::ScriptError;
use super::fields::{at_field, check_keys};
use super::freeze::Frozen;
use super::layout::{self, Layout};
use super::registry::{Api, Field, Gate};
use super::sandbox::Sandbox;

/// A hook's first value; nil when it returned none.
pub fn first(values: MultiValue) -> Value {
    values.into_iter().next().unwrap_or(Value::Nil)
}

/// A yes-or-veto answer (`allow`, `spark`, `earns_star`): `false`
/// refuses (`Some(false)`); nil or `true` leaves it to the next variant.
pub fn veto(values: MultiValue) -> Result<Option<bool>, String> {
    match first(values) {
        Value::Nil | Value::Boolean(true) => Ok(None),
        Value::Boolean(false) => Ok(Some(false)),
        other => Err(format!(
            "must return nil, true or false, not {}",
            super::registry::show(&other)
        )),
    }
}

/// A ruleset's script file: its path as messages show it, and its text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    pub path: String,
    pub text: String,
}

impl Source {
    /// The file name without directory and extension: a variant's id.
    pub fn id(&self) -> &str {
        let name = self.path.rsplit(['/', '\\']).next().unwrap_or(&self.path);
        name.strip_suffix(".lua").unwrap_or(name)
    }
}

/// The names of the variants' own actions, for every game of the
/// process: an action is a `Copy` value holding its index, and the
/// notation writes it by name.
static ACTION_NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());

/// The index of a variant action's name, adding it once for the life of
/// the process; `None` past 255 names.
pub fn intern_action(name: &str) -> Option<u8> {
    let mut names = ACTION_NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(k) = names.iter().position(|n| *n == name) {
        return u8::try_from(k).ok();
    }
    let k = u8::try_from(names.len()).ok()?;
    names.push(Box::leak(name.to_string().into_boxed_str()));
    Some(k)
}

/// The name of interned action `k`.
pub fn action_name(k: u8) -> &'static str {
    let names = ACTION_NAMES.lock().unwrap_or_else(|e| e.into_inner());
    names.get(usize::from(k)).copied().unwrap_or("?")
}

/// An action a variant declares in its `actions`: what every game reads
/// of it (a game reads its own extra fields from `table`).
pub struct ActionDecl {
    /// Its interned word ([`intern_action`]).
    pub id: u8,
    pub name: String,
    pub text: String,
    /// The index of the variant that declares it.
    pub variant: usize,
    pub can: Option<Function>,
    pub resolve: Option<Function>,
    pub table: Table,
}

/// A ruleset's variants add at most this many actions: each is asked on
/// every legal list where it may be taken.
pub const MAX_ACTIONS: usize = 8;

/// Reads variant `k`'s `actions` into `out`: each checked against
/// `fields`, its `id` a new word (not one of `taken`, the notation's).
pub fn read_actions(
    v: &Variant,
    k: usize,
    fields: &[Field],
    taken: &[&str],
    out: &mut Vec<ActionDecl>,
) -> Result<(), ScriptError> {
    let err = |m: String| ScriptError::kernel(&v.file, &v.owner, "load", m);
    let Some(list) = v
        .table
        .get::<Option<Table>>("actions")
        .map_err(|_| err("`actions` must be a list of action tables".into()))?
    else {
        return Ok(());
    };
    for (i, a) in list.sequence_values::<Value>().enumerate() {
        let Ok(Value::Table(a)) = a else {
            return Err(err(format!("actions[{}] must be a table", i + 1)));
        };
        if out.len() >= MAX_ACTIONS {
            return Err(err(format!(
                "more than {MAX_ACTIONS} actions: each is asked on every legal list"
            )));
        }
        check_keys(&a, &super::registry::names(fields))
            .map_err(|m| err(format!("actions[{}]: {m}", i + 1)))?;
        let name: String = a
            .get::<Option<String>>("id")
            .ok()
            .flatten()
            .ok_or_else(|| err(format!("actions[{}] needs `id`", i + 1)))?;
        let word_ok = !name.is_empty()
            && name.len() <= 24
            && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
        if !word_ok {
            return Err(err(format!(
                "action `{name}`: an id is 1-24 lower-case letters or `_`"
            )));
        }
        if taken.contains(&name.as_str()) || out.iter().any(|o| o.name == name) {
            return Err(err(format!(
                "action `{name}`: the notation already has that word"
            )));
        }
        let text: String = a
            .get::<Option<String>>("text")
            .ok()
            .flatten()
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| err(format!("action `{name}`: `text` says what it does")))?;
        let func = |f: &str| {
            a.get::<Option<Function>>(f)
                .map_err(|_| err(format!("action `{name}`: `{f}` must be a function")))
        };
        let id = intern_action(&name)
            .ok_or_else(|| err("too many variant actions in this process".into()))?;
        out.push(ActionDecl {
            id,
            name: name.clone(),
            text,
            variant: k,
            can: func("can")?,
            resolve: func("resolve")?,
            table: a,
        });
    }
    Ok(())
}

/// A ruleset lists at most this many variants: each is asked at every
/// rule point it hooks.
pub const MAX_VARIANTS: usize = 64;

/// One rule point: its field name in a variant's table, and whether its
/// hook may change the game (on a copy the game's check accepts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub name: &'static str,
    pub writes: bool,
}

/// How a game binds to the host.
pub trait Binding: Sized + 'static {
    /// What a hook reads and a reaction changes.
    type Pos: Clone + 'static;
    /// What else the bindings read: the game's rules and its layout. Set
    /// per call with `clone_from`, so keep it cheap.
    type Rules: Clone + 'static;
    type Scope: layout::Scope;
    /// Every rule point, in the order the game numbers them.
    const POINTS: &'static [Point];
    /// Every field of a variant's table (its hooks among them).
    const FIELDS: &'static [Field];
    const API: &'static Api;
    /// Fills a new `game` table with the game's bindings.
    fn register(lua: &Lua, game: &Table) -> mlua::Result<()>;
    /// Whether a position a hook left is one the rules accept.
    fn check(pos: &Self::Pos, rules: &Self::Rules) -> Result<(), String>;
}

/// What the bindings work on during one hook call.
pub struct Ctx<B: Binding> {
    pub pos: B::Pos,
    pub rules: B::Rules,
    /// The hook running, for messages.
    pub hook: &'static str,
    pub writable: bool,
    /// Whether a hook is running: the context stays in the state between
    /// calls (made once), closed outside them.
    pub active: bool,
}

/// The registrar's gate for a game on this host: the hook context is
/// the state's app data ([`Ctx`]).
pub struct Hooked<B>(std::marker::PhantomData<B>);

impl<B> Clone for Hooked<B> {
    fn clone(&self) -> Self {
        Hooked(std::marker::PhantomData)
    }
}

impl<B> Default for Hooked<B> {
    fn default() -> Self {
        Hooked(std::marker::PhantomData)
    }
}

impl<B: Binding> Gate for Hooked<B> {
    fn gate(&self, lua: &Lua) -> Option<(bool, &'static str)> {
        let c = lua.app_data_ref::<Ctx<B>>()?;
        c.active.then_some((c.writable, c.hook))
    }
}

/// The running hook's context, as a binding holds it.
pub type CtxRef<'a, B> = RefMut<'a, Ctx<B>>;

/// The running hook's context, for a binding.
pub fn ctx<B: Binding>(lua: &Lua) -> mlua::Result<CtxRef<'_, B>> {
    lua.app_data_mut::<Ctx<B>>()
        .filter(|c| c.active)
        .ok_or_else(|| mlua::Error::runtime("the game is only available inside a hook"))
}

/// One loaded variant.
pub struct Variant {
    pub name: String,
    /// `variant NAME`, as messages name it.
    pub owner: String,
    pub file: String,
    /// Its hooks, by the index of [`Binding::POINTS`].
    pub points: Vec<Option<Function>>,
    /// Its ends' `ended_by` indices, by name; the first is its own name.
    pub ends: Vec<(String, u8)>,
    /// Its table, for the fields a game reads itself (`actions`).
    pub table: Table,
}

impl Variant {
    /// The `ended_by` of end `reason` of this variant (nil: its own name).
    pub fn end(&self, reason: Option<&str>) -> Result<u8, String> {
        let name = reason.unwrap_or(&self.name);
        self.ends
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, k)| k)
            .ok_or_else(|| {
                let hint = crate::diagnostic::hint(name, self.ends.iter().map(|(n, _)| n.as_str()));
                format!("`{name}` is not one of the variant's `ends`{hint}")
            })
    }
}

pub struct Host<B: Binding> {
    pub sandbox: Sandbox,
    /// The frozen `game` table every hook receives.
    pub game: Table,
    pub variants: Vec<Variant>,
    frozen: Vec<Frozen>,
    /// A failed hook of variant k, point p is at `k * POINTS.len() + p`.
    failed: RefCell<Vec<bool>>,
    errors: RefCell<Vec<ScriptError>>,
    /// Whether some variant hooks point p, fixed at load: the engines ask
    /// it on every action before any Lua (`hooks`).
    hooked: Vec<bool>,
    binding: PhantomData<B>,
}

/// How a question reads a variant's answer: `Some` decides, `None` asks
/// the next variant, `Err` is the answer's problem.
pub type Decide<'a, T> = &'a mut dyn FnMut(&Variant, MultiValue) -> Result<Option<T>, String>;

impl<B: Binding> Host<B> {
    /// Loads a ruleset's variants, declaring their state, options and
    /// ends into `layout` (built afresh); reports every problem.
    pub fn load(
        sources: &[Source],
        layout: &mut Layout<B::Scope>,
    ) -> Result<Host<B>, Vec<ScriptError>> {
        let start = |e: mlua::Error| vec![ScriptError::from_lua(&e, "sandbox", "host", "start")];
        let sandbox = Sandbox::new().map_err(start)?;
        let game = sandbox.lua.create_table().map_err(start)?;
        B::register(&sandbox.lua, &game).map_err(start)?;
        let game = read_only(&sandbox.lua, game).map_err(start)?;
        let _ = sandbox.lua.globals().set("game", &game);
        if sources.len() > MAX_VARIANTS {
            return Err(vec![ScriptError::kernel(
                &sources[MAX_VARIANTS].path,
                "ruleset",
                "load",
                format!(
                    "{} variants: a ruleset lists at most {MAX_VARIANTS}",
                    sources.len()
                ),
            )]);
        }
        layout.reset();
        let mut host = Host {
            sandbox,
            game,
            variants: Vec::new(),
            frozen: Vec::new(),
            failed: RefCell::new(Vec::new()),
            errors: RefCell::new(Vec::new()),
            hooked: Vec::new(),
            binding: PhantomData,
        };
        let mut errors = Vec::new();
        let mut roots = Vec::new();
        for src in sources {
            match host.load_variant(src, layout) {
                Ok(v) => {
                    roots.push((
                        v.file.clone(),
                        v.owner.clone(),
                        Value::Table(v.table.clone()),
                    ));
                    host.variants.push(v);
                }
                Err(e) => errors.push(at_field(e, &src.text)),
            }
        }
        host.hooked = (0..B::POINTS.len())
            .map(|p| host.variants.iter().any(|v| v.points[p].is_some()))
            .collect();
        layout.hooked = B::POINTS
            .iter()
            .enumerate()
            .filter(|&(p, _)| host.hooks(p))
            .map(|(_, point)| point.name)
            .collect();
        if errors.is_empty() {
            // A script keeps nothing between calls: its state is the
            // position's (`script::freeze`).
            let library = super::freeze::library(&host.sandbox.lua);
            for (file, owner, root) in roots {
                match super::freeze::freeze(&host.sandbox.lua, &[root], &library) {
                    Ok(f) if f.is_empty() => {}
                    Ok(f) => host.frozen.push(f),
                    Err(m) => errors.push(ScriptError::kernel(&file, &owner, "load", m)),
                }
            }
        }
        *host.failed.borrow_mut() = vec![false; host.variants.len() * B::POINTS.len()];
        if errors.is_empty() {
            Ok(host)
        } else {
            Err(errors)
        }
    }

    fn load_variant(
        &self,
        src: &Source,
        layout: &mut Layout<B::Scope>,
    ) -> Result<Variant, ScriptError> {
        let id = src.id();
        let owner = format!("variant {id}");
        let err = |m: String| ScriptError::kernel(&src.path, &owner, "load", m);
        let t = match self.sandbox.load(&src.path, &src.text) {
            Ok(Value::Table(t)) => t,
            Ok(other) => {
                return Err(err(format!(
                    "the script must return a table, it returned {}",
                    crate::diagnostic::a(other.type_name())
                )));
            }
            Err(e) => return Err(ScriptError::from_lua(&e, &src.path, &owner, "load")),
        };
        check_keys(&t, &super::registry::names(B::FIELDS)).map_err(&err)?;
        let name: String = t
            .get::<Option<String>>("name")
            .ok()
            .flatten()
            .ok_or_else(|| err("a variant needs `name`".into()))?;
        let mut points = Vec::with_capacity(B::POINTS.len());
        for p in B::POINTS {
            points.push(
                t.get::<Option<Function>>(p.name)
                    .map_err(|_| err(format!("`{}` must be a function", p.name)))?,
            );
        }
        let ends = layout::declare(&t, &name, layout).map_err(&err)?;
        Ok(Variant {
            owner: format!("variant {name}"),
            name,
            file: src.path.clone(),
            points,
            ends,
            table: t,
        })
    }

    /// Whether some variant hooks point `p`.
    #[inline]
    pub fn hooks(&self, p: usize) -> bool {
        self.hooked[p]
    }

    /// The errors of this game so far, oldest first; emptied.
    pub fn take_errors(&self) -> Vec<ScriptError> {
        std::mem::take(&mut *self.errors.borrow_mut())
    }

    /// A new game: every hook is asked again, no error is pending.
    pub fn reset(&self) {
        self.failed.borrow_mut().fill(false);
        self.errors.borrow_mut().clear();
    }

    /// Records a failure of variant `k`'s point `p`: not asked again.
    pub fn fail(&self, k: usize, p: usize, e: ScriptError) {
        if let Some(f) = self.failed.borrow_mut().get_mut(k * B::POINTS.len() + p) {
            *f = true;
        }
        self.report(e);
    }

    /// Keeps a failure for [`Host::take_errors`] (at most 64 are pending:
    /// a hook that fails every call fills no memory).
    pub fn report(&self, e: ScriptError) {
        let mut errors = self.errors.borrow_mut();
        if errors.len() < 64 && !errors.contains(&e) {
            errors.push(e);
        }
    }

    fn has_failed(&self, k: usize, p: usize) -> bool {
        self.failed.borrow()[k * B::POINTS.len() + p]
    }

    /// Calls `f` with the bindings on a copy of `pos`: its result and the
    /// copy as the call left it.
    pub fn call<R>(
        &self,
        pos: &B::Pos,
        rules: &B::Rules,
        hook: &'static str,
        writable: bool,
        f: impl FnOnce(&Table) -> mlua::Result<R>,
    ) -> (mlua::Result<R>, B::Pos) {
        self.sandbox.refill();
        let lua = &self.sandbox.lua;
        let open = lua.app_data_mut::<Ctx<B>>().map(|mut c| {
            c.pos.clone_from(pos);
            c.rules.clone_from(rules);
            c.hook = hook;
            c.writable = writable;
            c.active = true;
        });
        if open.is_none() {
            lua.set_app_data(Ctx::<B> {
                pos: pos.clone(),
                rules: rules.clone(),
                hook,
                writable,
                active: true,
            });
        }
        let mut r = f(&self.game).map_err(|e| self.sandbox.explain(e));
        if r.is_ok() {
            for frozen in &self.frozen {
                if let Err(m) = frozen.verify(lua) {
                    r = Err(mlua::Error::runtime(m));
                    break;
                }
            }
        }
        let after = match lua.app_data_mut::<Ctx<B>>() {
            Some(mut c) => {
                c.active = false;
                c.pos.clone()
            }
            None => pos.clone(),
        };
        if r.is_err() {
            // A memory error leaves garbage behind; the next call starts clean.
            let _ = lua.gc_collect();
        }
        (r, after)
    }

    /// Asks point `p` of every variant in order until one answers:
    /// `decide` reads an answer (`Some` decides, `None` asks the next
    /// variant, `Err` is the answer's problem, a failure like an error).
    pub fn ask<T>(
        &self,
        p: usize,
        pos: &B::Pos,
        rules: &B::Rules,
        args: &dyn Fn(&Lua) -> mlua::Result<MultiValue>,
        decide: Decide<'_, T>,
    ) -> Option<T> {
        let name = B::POINTS[p].name;
        for (k, v) in self.variants.iter().enumerate() {
            let Some(f) = &v.points[p] else { continue };
            if self.has_failed(k, p) {
                continue;
            }
            let (r, _) = self.call(pos, rules, name, false, |g| {
                let mut a = args(&self.sandbox.lua)?;
                a.push_front(Value::Table(g.clone()));
                f.call::<MultiValue>(a)
            });
            match r {
                Err(e) => self.fail(k, p, ScriptError::from_lua(&e, &v.file, &v.owner, name)),
                Ok(values) => match decide(v, values) {
                    Ok(Some(t)) => return Some(t),
                    Ok(None) => {}
                    Err(m) => self.fail(k, p, ScriptError::kernel(&v.file, &v.owner, name, m)),
                },
            }
        }
        None
    }

    /// Runs writing point `p` of every variant in order, each on the
    /// result of the ones before; a change [`Binding::check`] refuses is
    /// a failure and is dropped. `done` stops the round (the game ended).
    pub fn react(
        &self,
        p: usize,
        pos: &B::Pos,
        rules: &B::Rules,
        args: &dyn Fn(&Lua) -> mlua::Result<MultiValue>,
        done: &dyn Fn(&B::Pos) -> bool,
    ) -> B::Pos {
        let name = B::POINTS[p].name;
        let mut cur = pos.clone();
        for (k, v) in self.variants.iter().enumerate() {
            let Some(f) = &v.points[p] else { continue };
            if self.has_failed(k, p) || done(&cur) {
                continue;
            }
            let checked = self.write_call(v, f, name, &cur, rules, args);
            match checked {
                Ok(after) => cur = after,
                Err(e) => self.fail(k, p, e),
            }
        }
        cur
    }
}

impl<B: Binding> Host<B> {
    /// Calls `f` (variant `v`'s hook `name`), which may write, on a copy
    /// of `pos`: the copy it leaves if the call succeeded and
    /// [`Binding::check`] accepts it, else the failure.
    pub fn write_call(
        &self,
        v: &Variant,
        f: &Function,
        name: &'static str,
        pos: &B::Pos,
        rules: &B::Rules,
        args: &dyn Fn(&Lua) -> mlua::Result<MultiValue>,
    ) -> Result<B::Pos, ScriptError> {
        let (r, after) = self.call(pos, rules, name, true, |g| {
            let mut a = args(&self.sandbox.lua)?;
            a.push_front(Value::Table(g.clone()));
            f.call::<()>(a)
        });
        match r {
            Err(e) => Err(ScriptError::from_lua(&e, &v.file, &v.owner, name)),
            Ok(()) => B::check(&after, rules).map(|()| after).map_err(|m| {
                ScriptError::kernel(
                    &v.file,
                    &v.owner,
                    name,
                    format!("the change would break the rules: {m}"),
                )
            }),
        }
    }
}

impl<B: Binding> Host<B> {
    /// Whether variant action `a` may be taken now (its `can`, read-only;
    /// none: yes). A failure or a bad answer is reported and says no.
    pub fn can(
        &self,
        a: &ActionDecl,
        pos: &B::Pos,
        rules: &B::Rules,
        args: &dyn Fn(&Lua) -> mlua::Result<MultiValue>,
    ) -> bool {
        let Some(f) = &a.can else { return true };
        let v = &self.variants[a.variant];
        let (r, _) = self.call(pos, rules, "can", false, |g| {
            let mut x = args(&self.sandbox.lua)?;
            x.push_front(Value::Table(g.clone()));
            f.call::<Value>(x)
        });
        match r {
            Ok(Value::Boolean(b)) => b,
            Ok(other) => {
                self.report(ScriptError::kernel(
                    &v.file,
                    &v.owner,
                    "can",
                    format!(
                        "action `{}`: must return true or false, not {}",
                        a.name,
                        super::registry::show(&other)
                    ),
                ));
                false
            }
            Err(e) => {
                self.report(ScriptError::from_lua(&e, &v.file, &v.owner, "can"));
                false
            }
        }
    }

    /// Variant action `a`'s `resolve` on a checked copy of `pos`; a
    /// failure is reported and changes nothing.
    pub fn resolve(
        &self,
        a: &ActionDecl,
        pos: &mut B::Pos,
        rules: &B::Rules,
        args: &dyn Fn(&Lua) -> mlua::Result<MultiValue>,
    ) {
        let Some(f) = &a.resolve else { return };
        let v = &self.variants[a.variant];
        match self.write_call(v, f, "resolve", pos, rules, args) {
            Ok(after) => *pos = after,
            Err(e) => self.report(e),
        }
    }
}

/// The `game` table, read-only: a script cannot replace `game.x` for the
/// scripts loaded after it.
pub fn read_only(lua: &Lua, game: Table) -> mlua::Result<Table> {
    let proxy = lua.create_table()?;
    let mt = lua.create_table()?;
    mt.set("__index", game)?;
    mt.set("__metatable", false)?;
    mt.set(
        "__newindex",
        lua.create_function(|_, (_t, k): (Value, Value)| -> mlua::Result<()> {
            Err(mlua::Error::runtime(format!(
                "attempt to modify read-only table 'game.{}'",
                super::fields::lua_show(&k)
            )))
        })?,
    )?;
    proxy.set_metatable(Some(mt))?;
    Ok(proxy)
}
