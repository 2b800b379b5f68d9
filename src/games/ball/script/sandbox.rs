//! The Lua sandbox: a state with only safe libraries, frozen library
//! tables, no bytecode, a memory limit and an instruction budget per call.
//!
//! Each defence here answers one attack (exercised by `tests/hostile/`): `io`/`os.execute`/
//! `require` are absent; bytecode is refused (text mode); loops, also in
//! coroutines and under `pcall`, hit the budget (global hook + re-raising
//! `pcall` wrappers); memory bombs hit the limit; deep recursion hits Lua's
//! stack limit; pattern matching, the one library call a count hook cannot
//! interrupt, is replaced by plain find and errors naming the function.

use std::cell::Cell;
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState};

/// Memory a state may use, scripts and data together.
pub const MEMORY_LIMIT: usize = 16 * 1024 * 1024;
/// Past this, the instruction hook stops the script at its current line.
pub const MEMORY_SOFT_LIMIT: usize = 12 * 1024 * 1024;
/// VM instructions one hook call may run: about 50 ms of Lua under the
/// hook, far past any honest card and far below a second.
pub const INSTRUCTION_BUDGET: i64 = 5_000_000;
/// The hook fires every this many instructions.
const HOOK_EVERY: u32 = 1000;
/// The message a script sees when its budget is spent.
pub const BUDGET_EXCEEDED: &str = "instruction budget exceeded (an endless loop?)";

/// A sandboxed Lua state and its budget.
pub struct Sandbox {
    pub lua: Lua,
    budget: Rc<Cell<i64>>,
    first_exhaustion: Rc<std::cell::RefCell<Option<String>>>,
}

impl Sandbox {
    pub fn new() -> mlua::Result<Sandbox> {
        let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
        let lua = Lua::new_with(libs, LuaOptions::default())?;
        lua.set_memory_limit(MEMORY_LIMIT)?;
        let budget = Rc::new(Cell::new(INSTRUCTION_BUDGET));
        let b = budget.clone();
        // The first place the budget ran out is the one to report: later
        // hook calls may land in the sandbox's own wrappers.
        let first: Rc<std::cell::RefCell<Option<String>>> = Rc::default();
        let first_seen = first.clone();
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(HOOK_EVERY),
            move |lua, debug| {
                let left = b.get() - i64::from(HOOK_EVERY);
                b.set(left);
                // A soft memory limit checked here names the line; the hard
                // limit (below) stops single huge allocations without one.
                if left >= 0 && lua.used_memory() < MEMORY_SOFT_LIMIT {
                    return Ok(VmState::Continue);
                }
                if left >= 0 {
                    let (file, line) = script_location(lua, debug);
                    return Err(mlua::Error::runtime(format!(
                        "{file}:{line}: memory limit exceeded ({} MiB): a memory bomb or endless recursion?",
                        MEMORY_SOFT_LIMIT / (1024 * 1024)
                    )));
                }
                let mut first = first_seen.borrow_mut();
                let msg = first.get_or_insert_with(|| {
                    let (file, line) = script_location(lua, debug);
                    format!("{file}:{line}: {BUDGET_EXCEEDED}")
                });
                Err(mlua::Error::runtime(msg.clone()))
            },
        )?;
        let g = lua.globals();
        for k in [
            "dofile",
            "loadfile",
            "load",
            "loadstring",
            "require",
            "collectgarbage",
            "print",
        ] {
            g.set(k, Value::Nil)?;
        }
        // `math.random` is chance; BALL has none (B11.9).
        let math: Table = g.get("math")?;
        math.set("random", Value::Nil)?;
        math.set("randomseed", Value::Nil)?;
        let exhausted = {
            let b = budget.clone();
            lua.create_function(move |_, ()| Ok(b.get() < 0))?
        };
        lua.load(PRELUDE)
            .set_name("=sandbox")
            .set_mode(ChunkMode::Text)
            .call::<()>((exhausted, BUDGET_EXCEEDED))?;
        Ok(Sandbox {
            lua,
            budget,
            first_exhaustion: first,
        })
    }

    /// Gives the next call its full budget.
    pub fn refill(&self) {
        self.budget.set(INSTRUCTION_BUDGET);
        self.first_exhaustion.borrow_mut().take();
    }

    /// Loads a script as text (never bytecode) under its file name, in an
    /// environment of its own, and returns what it returns.
    pub fn load(&self, name: &str, text: &str) -> mlua::Result<Value> {
        self.refill();
        let env = self.lua.create_table()?;
        let mt = self.lua.create_table()?;
        mt.set("__index", self.lua.globals())?;
        mt.set("__metatable", false)?;
        env.set_metatable(Some(mt))?;
        env.set("_G", &env)?;
        self.lua
            .load(text)
            .set_name(format!("@{name}"))
            .set_mode(ChunkMode::Text)
            .set_environment(env)
            .eval::<Value>()
    }
}

/// Where a hook fired, as the script author sees it: when it fired inside
/// the sandbox's own wrappers (`string.rep`, `pcall` …), the nearest
/// calling script line instead.
fn script_location(lua: &Lua, debug: &mlua::debug::Debug) -> (String, usize) {
    let here = (
        debug
            .source()
            .short_src
            .as_deref()
            .unwrap_or("?")
            .to_string(),
        debug.current_line().unwrap_or(0),
    );
    if here.0 != "sandbox" {
        return here;
    }
    (1..16)
        .filter_map(|level| {
            lua.inspect_stack(level, |d| {
                (
                    d.source().short_src.as_deref().unwrap_or("?").to_string(),
                    d.current_line().unwrap_or(0),
                )
            })
        })
        .find(|(file, line)| file != "sandbox" && file != "[C]" && *line > 0)
        .unwrap_or(here)
}

/// Runs once per state, before any script: re-raising wrappers around
/// `pcall`/`xpcall`/`coroutine.resume` (they would swallow the budget
/// error), pattern functions replaced, library tables frozen, and the
/// ordered iteration helper.
const PRELUDE: &str = r#"
local exhausted, budget_msg = ...
local raw_pcall, raw_xpcall, raw_resume = pcall, xpcall, coroutine.resume
local pack, unpack, error, type, tostring = table.pack, table.unpack, error, type, tostring
local function check(r)
  if exhausted() then
    -- Keep the file:line of the hook's error when it is there.
    local msg = r[2]
    if type(msg) == "string" and string.find(msg, budget_msg, 1, true) then error(msg, 0) end
    error(budget_msg, 2)
  end
  return unpack(r, 1, r.n)
end
pcall = function(...) return check(pack(raw_pcall(...))) end
xpcall = function(...) return check(pack(raw_xpcall(...))) end
coroutine.resume = function(...) return check(pack(raw_resume(...))) end

-- Pattern matching runs inside one C call that no hook can interrupt, and
-- a crafted pattern backtracks for hours: only plain search is offered.
local raw_find = string.find
local function no_patterns(name)
  return function() error("string." .. name .. " is not available to scripts: pattern matching cannot be interrupted (use string.find, which searches plain text)", 2) end
end
string.find = function(s, p, init) return raw_find(s, p, init, true) end
string.match = no_patterns("match")
string.gmatch = no_patterns("gmatch")
string.gsub = no_patterns("gsub")
string.dump = nil
-- One call of string.rep can ask for gigabytes: refuse it at the calling
-- line instead of failing inside the allocator with no line.
local raw_rep = string.rep
string.rep = function(s, n, sep)
  local size = #tostring(s) * (tonumber(n) or 0) + #(sep or "") * math.max((tonumber(n) or 0) - 1, 0)
  if size > 4 * 1024 * 1024 then
    error("string.rep: a " .. string.format("%.0f", size) .. "-byte string is over the 4 MiB a script may build at once", 2)
  end
  return raw_rep(s, n, sep)
end

--- Iterates a table in a fixed order (numbers, then strings, each
--- sorted): `pairs` order varies between runs and would break replays.
function sorted_pairs(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "number" or ta == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then return k, t[k] end
  end
end

local function frozen(name, t)
  return setmetatable({}, {
    __index = t,
    __metatable = false,
    __newindex = function(_, k) error("attempt to modify read-only table '" .. name .. "." .. tostring(k) .. "'", 2) end,
  })
end
getmetatable("").__metatable = false
for _, n in ipairs({ "string", "table", "math", "utf8", "coroutine" }) do _G[n] = frozen(n, _G[n]) end
rawset = nil
rawequal = nil
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(src: &str) -> mlua::Result<Value> {
        Sandbox::new().unwrap().load("test.lua", src)
    }

    #[test]
    fn unsafe_libraries_are_absent() {
        for src in [
            "return io.open('x')",
            "return os.execute('true')",
            "return require('x')",
            "return load('return 1')",
            "return dofile('x')",
            "return math.random()",
            "return string.dump(print)",
        ] {
            assert!(eval(src).is_err(), "{src}");
        }
    }

    #[test]
    fn loops_stop_everywhere() {
        for src in [
            "while true do end",
            "coroutine.wrap(function() while true do end end)()",
            "while true do pcall(function() while true do end end) end",
            "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
            "local t = {3,2,1} table.sort(t, function() while true do end end)",
        ] {
            let e = eval(src).unwrap_err().to_string();
            assert!(e.contains(BUDGET_EXCEEDED), "{src}: {e}");
            assert!(e.contains("test.lua:"), "{src}: {e}");
        }
    }

    #[test]
    fn memory_and_recursion_and_patterns_stop() {
        assert!(eval("local t = {} for i = 1, 1e8 do t[i] = i end").is_err());
        let e = eval("local s = string.rep('x', 1e9) return s")
            .unwrap_err()
            .to_string();
        assert!(e.contains("test.lua:1:") && e.contains("4 MiB"), "{e}");
        assert!(eval("local function f() return 1 + f() end return f()").is_err());
        let e = eval("return string.find(string.rep('a', 3000), '.-.-.-.-b')");
        assert!(e.is_ok(), "plain find of a long text is fast");
        let e = eval("return ('abc'):gsub('a', 'b')")
            .unwrap_err()
            .to_string();
        assert!(e.contains("string.gsub is not available"), "{e}");
    }

    #[test]
    fn libraries_are_frozen_and_globals_private() {
        assert!(eval("string.upper = nil").is_err());
        assert!(eval("getmetatable('').__index = {}").is_err());
        let sb = Sandbox::new().unwrap();
        sb.load("a.lua", "x = 1").unwrap();
        let v = sb.load("b.lua", "return x").unwrap();
        assert!(v.is_nil(), "a global of one script is not another's");
    }

    #[test]
    fn bytecode_is_refused() {
        let sb = Sandbox::new().unwrap();
        let e = sb.load("b.lua", "\x1bLua\x54\x00").unwrap_err().to_string();
        assert!(
            e.contains("binary chunk") || e.contains("attempt to load"),
            "{e}"
        );
    }

    #[test]
    fn sorted_pairs_is_ordered() {
        let sb = Sandbox::new().unwrap();
        let v = sb.load("t.lua", "local out = {} for k, v in sorted_pairs({b=1, a=2, [2]=3, [1]=4}) do out[#out+1] = tostring(k) end return table.concat(out, ',')").unwrap();
        assert_eq!(v.as_string().unwrap().to_str().unwrap(), "1,2,a,b");
    }
}
