//! The API registry every game's binding is written in: each function a
//! script may call ([`Binding`]) and each field of the tables a script
//! returns ([`Field`]) is declared once, as data. The loader checks names
//! against it (unknown fields, did-you-mean), and the reference
//! (`docs/lua-api.md`) and the lua-language-server stubs (`ball api
//! --stubs`) are rendered from it, so the three cannot drift.
//!
//! Nothing here names a game: a game describes its API in an [`Api`]
//! value and registers its functions through a [`Registrar`].

use mlua::{Lua, Table, Value};

/// One function of the API, for the reference and the editor stubs.
pub struct Binding {
    pub name: &'static str,
    /// Lua-language-server parameter list, e.g. `piece: Piece, square: Square`.
    pub params: &'static str,
    /// Return type(s), e.g. `Square[]`; empty for none.
    pub returns: &'static str,
    pub doc: &'static str,
    /// Changes the game: allowed only where a hook may change it.
    pub writes: bool,
}

pub const fn read(
    name: &'static str,
    params: &'static str,
    returns: &'static str,
    doc: &'static str,
) -> Binding {
    Binding {
        name,
        params,
        returns,
        doc,
        writes: false,
    }
}

pub const fn write(name: &'static str, params: &'static str, doc: &'static str) -> Binding {
    Binding {
        name,
        params,
        returns: "",
        doc,
        writes: true,
    }
}

/// One field of a script's table (a card, a variant, a target filter):
/// the one list the loader checks names against (unknown fields,
/// did-you-mean), the reference documents and the editor stubs declare.
pub struct Field {
    pub name: &'static str,
    /// Lua-language-server type, e.g. `integer`, `fun(game: Game): boolean`.
    pub ty: &'static str,
    /// Whether the table must have it.
    pub required: bool,
    pub doc: &'static str,
}

pub const fn field(
    name: &'static str,
    ty: &'static str,
    required: bool,
    doc: &'static str,
) -> Field {
    Field {
        name,
        ty,
        required,
        doc,
    }
}

/// The names of a field list, for the loader's unknown-field check.
pub fn names(fields: &[Field]) -> Vec<&'static str> {
    fields.iter().map(|f| f.name).collect()
}

/// A table a script returns or receives, as the reference and the stubs
/// show it.
pub struct Schema {
    /// The stubs' class name, e.g. `Card`.
    pub class: &'static str,
    /// The reference's heading.
    pub title: &'static str,
    pub what: &'static str,
    pub fields: &'static [Field],
}

/// A game's whole script API: what `ball api` prints for it.
pub struct Api {
    /// The file that declares it, named in the generated reference.
    pub source: &'static str,
    /// The reference's opening paragraphs (the game's words: pieces,
    /// squares, teams; which hooks may write).
    pub intro: &'static str,
    pub bindings: &'static [Binding],
    /// The opening of the "Script tables" part.
    pub tables_intro: &'static str,
    pub schemas: &'static [Schema],
    /// The stubs' aliases and info classes, after `---@meta`.
    pub stub_types: &'static str,
    /// Stub lines for what this game's sandbox removes beyond the
    /// platform's own list (e.g. `math.random` in a game without chance).
    pub stub_removed: &'static str,
}

/// The libraries and globals no script has, in any game.
pub const REMOVED: &[&str] = &[
    "io",
    "os",
    "debug",
    "package",
    "require",
    "load",
    "loadfile",
    "loadstring",
    "dofile",
    "collectgarbage",
    "print",
];

impl Api {
    pub fn binding(&self, name: &str) -> Option<&Binding> {
        self.bindings.iter().find(|b| b.name == name)
    }

    /// Every name a script may call on `game`, for did-you-mean.
    pub fn binding_names(&self) -> Vec<&'static str> {
        self.bindings.iter().map(|b| b.name).collect()
    }

    /// The API reference in Markdown, as `docs/lua-api.md` holds it.
    pub fn reference(&self) -> String {
        let mut s = format!(
            "# The Lua API\n\nGenerated from `{}` by `ball api`; a test fails when\nthe two drift. {}",
            self.source, self.intro
        );
        for (title, writes) in [("Reads", false), ("Writes", true)] {
            s.push_str(&format!("## {title}\n\n"));
            for b in self.bindings.iter().filter(|b| b.writes == writes) {
                let ret = if b.returns.is_empty() {
                    String::new()
                } else {
                    format!(" → `{}`", b.returns)
                };
                s.push_str(&format!(
                    "### `game.{}({})`{ret}\n\n{}\n\n",
                    b.name, b.params, b.doc
                ));
            }
        }
        s.push_str("# Script tables\n\n");
        s.push_str(self.tables_intro);
        for sc in self.schemas {
            s.push_str(&format!(
                "## {} (`{}`)\n\n{}\n\n",
                sc.title, sc.class, sc.what
            ));
            s.push_str("| field | type | | what |\n|---|---|---|---|\n");
            for f in sc.fields {
                s.push_str(&format!(
                    "| `{}` | `{}` | {} | {} |\n",
                    f.name,
                    f.ty.replace('|', "\\|"),
                    if f.required { "required" } else { "optional" },
                    f.doc.replace('|', "\\|")
                ));
            }
            s.push('\n');
        }
        s.trim_end().to_string() + "\n"
    }

    /// lua-language-server annotations: completion and type checks for
    /// script authors (`ball api --stubs > ball.lua`).
    pub fn stubs(&self) -> String {
        let mut s = String::from(
            "---@meta\n-- Generated by `ball api --stubs`: editor annotations for ball scripts.\n\n",
        );
        s.push_str(self.stub_types);
        s.push_str("---@class Game\ngame = {}\n\n");
        for b in self.bindings {
            s.push_str(&format!("--- {}\n", b.doc));
            for p in b.params.split(", ").filter(|p| !p.is_empty()) {
                let (n, t) = p.split_once(": ").unwrap_or((p, "any"));
                s.push_str(&format!("---@param {n} {t}\n"));
            }
            if !b.returns.is_empty() {
                s.push_str(&format!("---@return {}\n", b.returns));
            }
            let names: Vec<&str> = b
                .params
                .split(", ")
                .filter(|p| !p.is_empty())
                .map(|p| p.split(':').next().unwrap_or(p).trim_end_matches('?'))
                .collect();
            s.push_str(&format!(
                "function game.{}({}) end\n\n",
                b.name,
                names.join(", ")
            ));
        }
        s.push_str("--- Iterates a table in the fixed order `pairs` gives too (kept for older scripts).\n---@generic K, V\n---@param t table<K, V>\n---@return fun(): K, V\nfunction sorted_pairs(t) end\n");
        s.push_str(
            "\n-- The tables a script returns. `---@type Card` (or `Variant`) above the\n\
             -- returned table makes the editor flag a misspelt field (`per_trun`,\n\
             -- `on_touchdwon`). `(exact)`: no field beyond these.\n\n\
             ---@alias TargetFilter PieceFilter|SquareFilter|NumberFilter\n\n",
        );
        for sc in self.schemas {
            s.push_str(&format!(
                "--- {}\n---@class (exact) {}\n",
                sc.what, sc.class
            ));
            for f in sc.fields {
                let opt = if f.required { "" } else { "?" };
                s.push_str(&format!("---@field {}{opt} {} {}\n", f.name, f.ty, f.doc));
            }
            s.push('\n');
        }
        s.push_str("-- Not available in ball scripts: the sandbox removes them.\n");
        for name in REMOVED {
            s.push_str(&format!(
                "---@deprecated `{name}` is not available in ball scripts (sandbox)\n{name} = nil\n"
            ));
        }
        s.push_str(
            "---@deprecated not available in ball scripts (sandbox)\nfunction string.pack() end\n\
             ---@deprecated not available in ball scripts (sandbox)\nfunction string.unpack() end\n\
             ---@deprecated not available in ball scripts (sandbox)\nfunction string.packsize() end\n",
        );
        s.push_str(self.stub_removed);
        s
    }
}

/// What a binding needs to know of the hook running: whether it may
/// write, and its name for the refusal. A game's handle on its hook
/// context implements it; the registrar enforces read-only hooks for
/// every game alike. Every binding gets the handle: a game whose context
/// lives in an `Rc` reaches it without an app-data lookup per call.
pub trait Gate: Clone + 'static {
    /// `None` outside a hook.
    fn gate(&self, lua: &Lua) -> Option<(bool, &'static str)>;
}

/// An error located at the calling script's line.
pub fn fail(lua: &Lua, name: &str, msg: impl std::fmt::Display) -> mlua::Error {
    let at = lua
        .inspect_stack(1, |d| {
            let s = d.source();
            format!(
                "{}:{}: ",
                s.short_src.as_deref().unwrap_or("?"),
                d.current_line().unwrap_or(0)
            )
        })
        .unwrap_or_default();
    mlua::Error::runtime(format!("{at}game.{name}: {msg}"))
}

/// A string argument read by `parse` (a piece, a team, a square in the
/// game's notation), or the refusal at the script's line: "`X` is not
/// `what`", where `what` names the kind and its spellings. Every game's
/// bindings read their notation arguments this one way.
pub fn parsed<T>(
    lua: &Lua,
    name: &str,
    v: &Value,
    what: &str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> mlua::Result<T> {
    v.as_string()
        .and_then(|s| s.to_str().ok().and_then(|s| parse(&s)))
        .ok_or_else(|| fail(lua, name, format!("{} is not {what}", show(v))))
}

/// A Lua value as a message shows it: strings quoted, others by type.
pub fn show(v: &Value) -> String {
    match v {
        Value::String(s) => format!("`{}`", s.to_string_lossy()),
        Value::Nil => "nil".into(),
        // A number is shown as itself: `-3 is not a whole number ≥ 0`.
        Value::Integer(n) => n.to_string(),
        Value::Number(x) => x.to_string(),
        other => crate::diagnostic::a(other.type_name()),
    }
}

/// A binding's arguments: up to three, missing ones nil (no binding
/// takes more). Read straight off the Lua stack: no list is built.
pub type Args = (Value, Value, Value);

/// Fills a game's `game` table: each function is looked up in the
/// game's [`Api`] (so an undeclared one cannot be registered unnoticed)
/// and a writing one refuses to run in a read-only hook.
pub struct Registrar<'a, G: Gate> {
    pub lua: &'a Lua,
    pub game: &'a Table,
    pub api: &'static Api,
    pub names: Vec<&'static str>,
    gate: G,
}

/// The registry key holding the names registered, for the drift test.
const REGISTERED: &str = "ball.registered";

impl<'a, G: Gate + Default> Registrar<'a, G> {
    pub fn new(lua: &'a Lua, game: &'a Table, api: &'static Api) -> Self {
        Registrar::with(lua, game, api, G::default())
    }
}

impl<'a, G: Gate> Registrar<'a, G> {
    /// A registrar whose bindings each get a clone of `gate`.
    pub fn with(lua: &'a Lua, game: &'a Table, api: &'static Api, gate: G) -> Self {
        Registrar {
            lua,
            game,
            api,
            names: Vec::new(),
            gate,
        }
    }

    pub fn add<R: mlua::IntoLuaMulti>(
        &mut self,
        name: &'static str,
        f: impl Fn(&Lua, &G, Args) -> mlua::Result<R> + 'static,
    ) -> mlua::Result<()> {
        let writes = self.api.binding(name).is_some_and(|b| b.writes);
        let gate = self.gate.clone();
        let func = self.lua.create_function(move |lua, args: Args| {
            if writes {
                match gate.gate(lua) {
                    None => {
                        return Err(mlua::Error::runtime(
                            "the game is only available inside a hook",
                        ));
                    }
                    Some((false, hook)) => {
                        return Err(fail(
                            lua,
                            name,
                            format!(
                                "the kernel refuses changes during `{hook}`: it is a read-only check"
                            ),
                        ));
                    }
                    Some((true, _)) => {}
                }
            }
            f(lua, &gate, args)
        })?;
        self.game.set(name, func)?;
        self.names.push(name);
        Ok(())
    }

    /// Records what was registered and makes a call of an unknown name on
    /// `game` fail with did-you-mean rather than "attempt to call a nil
    /// value".
    pub fn finish(self) -> mlua::Result<()> {
        self.lua
            .set_named_registry_value(REGISTERED, self.names.join(","))?;
        let known: Vec<&'static str> = self.names.clone();
        let meta = self.lua.create_table()?;
        meta.set(
            "__index",
            self.lua
                .create_function(move |lua, (_t, key): (Value, Value)| {
                    let name = match &key {
                        Value::String(s) => s.to_string_lossy(),
                        _ => return Ok(Value::Nil),
                    };
                    let hint = crate::diagnostic::hint(&name, known.iter().copied());
                    Err(fail(
                        lua,
                        &name,
                        format!("no such function in the API{hint}"),
                    ))
                })?,
        )?;
        self.game.set_metatable(Some(meta))?;
        Ok(())
    }
}

/// The names [`Registrar::finish`] recorded, in order (for the drift test).
pub fn registered(lua: &Lua) -> Vec<String> {
    lua.named_registry_value::<String>(REGISTERED)
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_default()
}
