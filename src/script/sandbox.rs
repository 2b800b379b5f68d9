//! The Lua sandbox: a state with only safe libraries, frozen library
//! tables, no bytecode, no finalizers, a memory limit drawn from a
//! process-wide pool, and a budget per call that no script escapes.
//!
//! Each defence answers an attack (exercised by `tests/hostile/`):
//!
//! - `io`/`os.execute`/`require`/`load` are absent; bytecode is refused.
//! - **The budget** is counted in VM instructions by a global count hook
//!   (it covers coroutines), and C functions that do unbounded work in
//!   one call (`table.move`, `table.concat`, `table.sort`, `table.unpack`,
//!   `string.rep`, `string.find`, `string.format`, …) *charge* it for the
//!   work they are about to do, before they do it: one C call can no
//!   longer run for hours while the hook counts one instruction. Memory a
//!   call allocates is charged too, so loops over big strings run out of
//!   budget like loops over small ones. Every charge is a function of what
//!   the script does, never of the clock, so a script stops at the same
//!   line on every machine and every thread count.
//! - **A time limit** per call is the backstop for whatever the charges
//!   miss: checked every [`HOOK_EVERY`] instructions and at every charge,
//!   so every call ends within [`TIME_LIMIT`] plus a few instructions'
//!   work. It counts the thread's CPU time (read only once the wall clock
//!   says the limit may be near), so a machine with more threads than
//!   cores slows a script down without failing it.
//! - `pcall`/`xpcall`/`coroutine.resume` re-raise an exhausted budget; a
//!   new coroutine is charged the instructions it may run before its own
//!   hook count first fires (Lua starts each thread's count afresh).
//! - **Cleanup code stays under the budget.** The hook is Lua's own, not
//!   mlua's (mlua's error path runs pending `__close` handlers inside the
//!   hook, with hooks off); `xpcall` does not run a script's message
//!   handler for the hook's own error (Lua calls it with hooks still off);
//!   a coroutine the hook killed is never closed (its thread keeps hooks
//!   off), so `coroutine.wrap` is written over `create` and `resume`.
//! - **Finalizers are refused**: Lua 5.4 turns hooks off while a `__gc`
//!   metamethod runs, so a finalizer could loop forever, and it would run
//!   whenever the collector chose — inside another card's hook, with that
//!   hook's write access. `setmetatable` refuses a metatable with `__gc`.
//! - `table.insert`/`table.remove` are written in Lua (their C versions
//!   read `#t` through `__len` and then loop as long as it says); `sort`
//!   of a table with a metatable sorts a plain copy.
//! - `error`/`assert` turn a non-string error value into a message: a
//!   table would reach the user as a heap address.
//! - **The same on every run.** `pairs` and `next` give every table's
//!   keys in one order (`order.rs`; Lua's own follows heap addresses,
//!   and a table keeps an address-made order even after its object keys
//!   are gone); `tostring`, `%s` and `%p` show an object's serial number
//!   in its state, never its address; `table.sort` of more than 128
//!   elements merges runs Lua sorts, because Lua's re-seeds its pivot
//!   from the clock past that. Every state loads its chunks as bytecode
//!   compiled elsewhere, so the collector (and what a weak table keeps)
//!   runs alike in a thread's first state and the next. With the
//!   charges, a script's course is a function of what it is given.
//! - **Memory**: 16 MiB a state, reserved from a pool of
//!   [`PROCESS_MEMORY_LIMIT`] for the whole process before the state
//!   exists. A state that cannot get its reservation waits for one to be
//!   freed, so every state always has its full 16 MiB (a script's fate
//!   never depends on how many games run beside it).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use mlua::chunk::ChunkMode;
use mlua::ffi;
use mlua::{Lua, LuaOptions, StdLib, Table, Value};

/// Memory a state may use, scripts and data together.
pub const MEMORY_LIMIT: usize = 16 * 1024 * 1024;
/// Past this, the instruction hook stops the script at its current line.
pub const MEMORY_SOFT_LIMIT: usize = 12 * 1024 * 1024;
/// Memory all the Lua states of the process may reserve together: 16
/// states at once. More states wait for one to end.
pub const PROCESS_MEMORY_LIMIT: usize = 256 * 1024 * 1024;
/// How long a new state waits for a reservation before giving up (only a
/// process holding 16 states that never end gets there).
const POOL_WAIT: Duration = Duration::from_secs(60);
/// Budget units one call may spend: a unit is a VM instruction, or the
/// work of about one in a library call (an element moved, 32 bytes
/// copied or searched, 16 bytes allocated). About 50 ms of Lua, far past
/// any honest card and far below a second.
pub const INSTRUCTION_BUDGET: i64 = 5_000_000;
/// Time one call may take, whatever it does: its thread's CPU time, so
/// that a machine running more threads than cores does not stop an
/// honest script that merely waited for a core.
pub const TIME_LIMIT: Duration = Duration::from_millis(500);
/// The hook fires every this many instructions. Small, because between
/// two firings a few instructions on big strings can take milliseconds.
pub const HOOK_EVERY: u32 = 100;
/// The message a script sees when its budget is spent.
pub const BUDGET_EXCEEDED: &str = "instruction budget exceeded (an endless loop?)";
/// The message when the time limit passes first.
pub const TIME_EXCEEDED: &str = "time limit exceeded (0.5 s a hook call: an endless loop?)";
/// Bytes of string one library call may build at once.
pub const MAX_STRING_BUILD: usize = 4 * 1024 * 1024;

/// The reserved bytes of all live states, and a signal when some are freed.
static POOL: Mutex<usize> = Mutex::new(0);
static POOL_FREED: Condvar = Condvar::new();

thread_local! {
    /// States this thread holds: a thread that holds one never waits for
    /// another (it could wait for itself).
    static HELD: Cell<usize> = const { Cell::new(0) };
    /// This thread never waits for a reservation: a server's game thread,
    /// which must say at once that the server is full.
    static NO_WAIT: Cell<bool> = const { Cell::new(false) };
    /// Budget units every state of this thread has spent, calls and loads
    /// together: what a caller that makes many calls (`ball check`) bounds
    /// its whole run by. Counted from the charges, so it is the same on
    /// every run.
    static SPENT: Cell<u64> = const { Cell::new(0) };
}

/// Budget units the scripts of this thread have spent so far, in every
/// state it held: compare two readings for what the calls between them
/// cost.
pub fn units_spent_here() -> u64 {
    SPENT.with(Cell::get)
}

/// How the refusal of a state for want of memory begins: what a server
/// recognises to say it is full.
pub const POOL_FULL: &str = "the scripts' memory is used up";

/// From now on, a state made on this thread is refused at once when the
/// pool is used up, instead of waiting for one to end (`ball serve`'s
/// game threads: a full server says so at once).
pub fn never_wait_here() {
    NO_WAIT.with(|w| w.set(true));
}

/// The Lua states this thread holds now.
pub fn states_held_here() -> usize {
    HELD.with(Cell::get)
}

/// One state's share of [`PROCESS_MEMORY_LIMIT`], given back on drop.
struct Reservation;

impl Reservation {
    fn take() -> Result<Reservation, String> {
        let mut reserved = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let holds = HELD.with(Cell::get) > 0;
        let wait = if NO_WAIT.with(Cell::get) {
            Duration::ZERO
        } else {
            POOL_WAIT
        };
        let until = Instant::now() + wait;
        while !holds && *reserved + MEMORY_LIMIT > PROCESS_MEMORY_LIMIT {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!(
                    "{POOL_FULL}: {} MiB for all games of this process, {} MiB each",
                    PROCESS_MEMORY_LIMIT >> 20,
                    MEMORY_LIMIT >> 20
                ));
            }
            reserved = POOL_FREED
                .wait_timeout(reserved, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        *reserved += MEMORY_LIMIT;
        HELD.with(|h| h.set(h.get() + 1));
        Ok(Reservation)
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut reserved = POOL.lock().unwrap_or_else(|e| e.into_inner());
        *reserved = reserved.saturating_sub(MEMORY_LIMIT);
        HELD.with(|h| h.set(h.get().saturating_sub(1)));
        POOL_FREED.notify_all();
    }
}

/// Bytes reserved by all live states (for tests and diagnostics).
pub fn reserved_memory() -> usize {
    *POOL.lock().unwrap_or_else(|e| e.into_inner())
}

/// What one call may still spend, and how it ran out.
struct Meter {
    left: Cell<i64>,
    /// When the call started, by the wall clock (cheap to read).
    started: Cell<Instant>,
    /// The thread's CPU time when the call first spent anything; read
    /// once a call runs long enough to fire the hook.
    cpu_started: Cell<Option<Duration>>,
    /// Memory in use at the last hook firing: growth since is charged.
    last_used: Cell<usize>,
    /// Set once the budget or the time ran out: stays set for the call,
    /// so wrappers and every later hook firing raise again.
    tripped: Cell<bool>,
    /// The first place it ran out: the one to report (later firings may
    /// land in the sandbox's wrappers or a script's error handler).
    first: RefCell<Option<String>>,
    /// Set when the hook raised an error: Lua calls a message handler
    /// with hooks still off, so `xpcall` must not run the script's.
    hook_raised: Cell<bool>,
}

impl Meter {
    fn new() -> Meter {
        Meter {
            left: Cell::new(INSTRUCTION_BUDGET),
            started: Cell::new(Instant::now()),
            cpu_started: Cell::new(None),
            last_used: Cell::new(0),
            tripped: Cell::new(false),
            first: RefCell::new(None),
            hook_raised: Cell::new(false),
        }
    }

    /// Spends `units`; an error (at the script's current line) when the
    /// budget or the time is gone.
    fn spend(
        &self,
        lua: &Lua,
        units: f64,
        here: impl FnOnce() -> Option<(String, usize)>,
    ) -> mlua::Result<()> {
        self.spend_with(lua.used_memory(), units, here)
            .map_err(mlua::Error::runtime)
    }

    /// [`Meter::spend`] given the memory in use; the error is the message.
    fn spend_with(
        &self,
        used: usize,
        units: f64,
        here: impl FnOnce() -> Option<(String, usize)>,
    ) -> Result<(), String> {
        let units = if units.is_finite() && units > 0.0 {
            units.min(i64::MAX as f64 / 2.0) as i64
        } else if units > 0.0 {
            i64::MAX / 2
        } else {
            0
        };
        let left = self.left.get().saturating_sub(units);
        self.left.set(left);
        let grown = used.saturating_sub(self.last_used.get());
        self.last_used.set(used);
        let grown_units = (grown / 16) as i64;
        if grown > 0 {
            self.left.set(left.saturating_sub(grown_units));
        }
        SPENT.with(|s| {
            s.set(
                s.get()
                    .saturating_add(units.saturating_add(grown_units) as u64),
            )
        });
        let over_time = self.over_time();
        if self.left.get() >= 0 && !over_time && !self.tripped.get() {
            return Ok(());
        }
        self.tripped.set(true);
        let mut first = self.first.borrow_mut();
        let msg = first.get_or_insert_with(|| {
            let what = if self.left.get() < 0 {
                BUDGET_EXCEEDED
            } else {
                TIME_EXCEEDED
            };
            // No script line when every script frame was a tail call: the
            // host then names the file the hook belongs to.
            match here() {
                Some((file, line)) => format!("{file}:{line}: {what}"),
                None => what.to_string(),
            }
        });
        Err(msg.clone())
    }
}

impl Meter {
    /// Whether the call has used its time: by the wall clock first (a
    /// vDSO read), and only past it by the thread's CPU time (a system
    /// call), which a descheduled thread does not spend.
    fn over_time(&self) -> bool {
        let cpu = self.cpu_started.get().unwrap_or_else(|| {
            let now = thread_cpu_time();
            self.cpu_started.set(Some(now));
            now
        });
        if self.started.get().elapsed() < TIME_LIMIT {
            return false;
        }
        thread_cpu_time().saturating_sub(cpu) >= TIME_LIMIT
    }
}

/// This thread's CPU time.
#[cfg(unix)]
pub(crate) fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a
    // constant every Unix the crate builds on knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return wall_since_start();
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(not(unix))]
pub(crate) fn thread_cpu_time() -> Duration {
    wall_since_start()
}

/// A monotonic clock where no CPU clock is to be had.
fn wall_since_start() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// A sandboxed Lua state and its budget.
pub struct Sandbox {
    pub lua: Lua,
    meter: Rc<Meter>,
    /// Dropped after `lua`: the memory is free before it is given back.
    _reservation: Reservation,
}

impl Sandbox {
    pub fn new() -> mlua::Result<Sandbox> {
        let reservation = Reservation::take().map_err(mlua::Error::runtime)?;
        let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
        let lua = Lua::new_with(libs, LuaOptions::default())?;
        lua.set_memory_limit(MEMORY_LIMIT)?;
        let meter = Rc::new(Meter::new());
        install_hook(&lua, &meter)?;
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
            let m = meter.clone();
            lua.create_function(move |_, ()| Ok(m.tripped.get()))?
        };
        // Whether the hook raised an error (`true` clears the mark: the
        // protected call it unwound to has turned hooks back on).
        let hook_raised = {
            let m = meter.clone();
            lua.create_function(move |_, clear: bool| {
                let raised = m.hook_raised.get();
                if clear {
                    m.hook_raised.set(false);
                }
                Ok(raised)
            })?
        };
        let charge = {
            let m = meter.clone();
            lua.create_function(move |lua, units: f64| {
                m.spend(lua, units, || caller_location(lua))
            })?
        };
        let find = {
            let m = meter.clone();
            lua.create_function(
                move |lua, (s, p, init): (mlua::LuaString, mlua::LuaString, i64)| {
                    let (s, p) = (s.as_bytes(), p.as_bytes());
                    m.spend(lua, ((s.len() + p.len()) / 32 + 1) as f64, || {
                        caller_location(lua)
                    })?;
                    // Lua's `find` returns one `nil` when it finds nothing.
                    Ok(match plain_find(&s, &p, init) {
                        Some((a, b)) => {
                            mlua::Variadic::from_iter([Value::Integer(a), Value::Integer(b)])
                        }
                        None => mlua::Variadic::from_iter([Value::Nil]),
                    })
                },
            )?
        };
        // SAFETY: `ordered_keys` keeps the C function protocol: it reads
        // its arguments, pushes its results, and raises only with no Rust
        // value alive that needs dropping.
        let ordered = unsafe { lua.create_c_function(ordered_keys)? };
        let pairs_metamethod = lua.create_function(|_, v: Value| {
            Ok(match v {
                Value::Table(t) => match t.metatable() {
                    Some(mt) => mt.raw_get::<Value>("__pairs")?,
                    None => Value::Nil,
                },
                _ => Value::Nil,
            })
        })?;
        let name_functions = lua.create_function(|lua, ()| name_functions(lua))?;
        compiled(&lua, "=sandbox", PRELUDE, None)?.call::<()>((
            exhausted,
            BUDGET_EXCEEDED,
            charge,
            find,
            MAX_STRING_BUILD as i64,
            i64::from(HOOK_EVERY),
            hook_raised,
            ordered,
            pairs_metamethod,
            name_functions,
        ))?;
        Ok(Sandbox {
            lua,
            meter,
            _reservation: reservation,
        })
    }

    /// Gives the next call its full budget and a fresh deadline.
    pub fn refill(&self) {
        let m = &self.meter;
        m.left.set(INSTRUCTION_BUDGET);
        m.started.set(Instant::now());
        m.cpu_started.set(None);
        m.last_used.set(self.lua.used_memory());
        m.tripped.set(false);
        m.hook_raised.set(false);
        m.first.borrow_mut().take();
    }

    /// Loads a script as text (never bytecode from outside) under its
    /// file name, in an environment of its own, and returns what it
    /// returns.
    pub fn load(&self, name: &str, text: &str) -> mlua::Result<Value> {
        self.refill();
        let env = self.lua.create_table()?;
        let mt = self.lua.create_table()?;
        mt.set("__index", self.lua.globals())?;
        mt.set("__metatable", false)?;
        env.set_metatable(Some(mt))?;
        env.set("_G", &env)?;
        compiled(&self.lua, &format!("@{name}"), text, Some(env))?
            .call::<Value>(())
            .map_err(|e| self.explain(e))
    }

    /// `e` with a did-you-mean when it is a call (or a use) of a name the
    /// state does not have: "attempt to call a nil value (global
    /// 'sorted_pair')" names `sorted_pairs`, `strng.rep` names `string`,
    /// `string.repp` and `s:uper()` name the library's `rep` and `upper`.
    pub fn explain(&self, e: mlua::Error) -> mlua::Error {
        match e {
            mlua::Error::RuntimeError(m) => mlua::Error::RuntimeError(self.hinted(m)),
            mlua::Error::CallbackError { traceback, cause } => mlua::Error::CallbackError {
                traceback,
                cause: std::sync::Arc::new(self.explain((*cause).clone())),
            },
            other => other,
        }
    }

    fn hinted(&self, message: String) -> String {
        const NIL: [(&str, bool); 4] = [
            ("attempt to call a nil value (global '", true),
            ("attempt to index a nil value (global '", true),
            ("attempt to call a nil value (field '", false),
            ("attempt to call a nil value (method '", false),
        ];
        let line_end = message.find('\n').unwrap_or(message.len());
        let first = &message[..line_end];
        let Some((name, global)) = NIL.iter().find_map(|(what, global)| {
            let at = first.find(what)? + what.len();
            let len = first[at..].find("')")?;
            Some((&first[at..at + len], *global))
        }) else {
            return message;
        };
        let (globals, fields) = reachable_names(&self.lua);
        let known = if global { &globals } else { &fields };
        match crate::diagnostic::did_you_mean(name, known.iter().map(String::as_str)) {
            Some(near) if near != name => {
                let mut m = message.clone();
                m.insert_str(line_end, &format!(" (did you mean `{near}`?)"));
                m
            }
            _ => message,
        }
    }
}

/// The globals of a state, and the fields of its global tables (the
/// libraries behind their frozen proxies, the game's bindings): what a
/// misspelt name is most likely a slip for.
fn reachable_names(lua: &Lua) -> (Vec<String>, Vec<String>) {
    let (mut globals, mut fields) = (Vec::new(), Vec::new());
    for (k, v) in lua.globals().pairs::<Value, Value>().flatten() {
        let Value::String(k) = k else { continue };
        let k = k.to_string_lossy();
        if let Value::Table(t) = &v
            && k != "_G"
        {
            let mut tables = vec![t.clone()];
            if let Some(Value::Table(inner)) = t.metatable().and_then(|m| m.raw_get("__index").ok())
            {
                tables.push(inner);
            }
            for t in tables {
                for (f, _) in t.pairs::<Value, Value>().flatten() {
                    if let Value::String(f) = f {
                        fields.push(f.to_string_lossy());
                    }
                }
            }
        }
        globals.push(k);
    }
    // The first of equally near names must not follow the table's order.
    globals.sort();
    fields.sort();
    fields.dedup();
    (globals, fields)
}

/// Compiled chunks by (chunk name, source text).
type ChunkCache = std::collections::HashMap<(String, String), Rc<Vec<u8>>>;

/// How many compiled chunks a thread keeps (a lab worker needs the
/// prelude and a ruleset's dozen scripts).
const CHUNK_CACHE: usize = 256;

thread_local! {
    /// Compiled chunks by (chunk name, source text): a game is built
    /// afresh for every lab game (so that each starts from the same
    /// script state), and parsing the same text again each time was most
    /// of that cost. Only the compiler's own output is ever stored, so
    /// loading it as a binary chunk is as safe as compiling the text.
    static CHUNKS: RefCell<ChunkCache> =
        RefCell::new(Default::default());
}

/// `text` compiled as a chunk named `name` (with `env` as its `_ENV`),
/// from the thread's cache of compiled chunks when it is there.
///
/// Every state loads the chunk from bytecode, the first one on a thread
/// too: the compiler runs in a scratch state. Compiling in the state
/// itself left the parser's garbage and a grown string table in the
/// first state of each thread only, and the collector, paced by memory,
/// then ran at other moments there than in the states after it: what a
/// weak table still held, and the memory growth the budget charges,
/// depended on which game a thread had played first.
fn compiled(lua: &Lua, name: &str, text: &str, env: Option<Table>) -> mlua::Result<mlua::Function> {
    let key = (name.to_string(), text.to_string());
    let code = match CHUNKS.with(|c| c.borrow().get(&key).cloned()) {
        Some(code) => code,
        None => {
            let code = Rc::new(compile(name, text)?);
            CHUNKS.with(|c| {
                let mut c = c.borrow_mut();
                if c.len() >= CHUNK_CACHE {
                    c.clear();
                }
                c.insert(key, code.clone());
            });
            code
        }
    };
    let chunk = lua
        .load(&code[..])
        .set_mode(ChunkMode::Binary)
        .set_name(name);
    match env {
        Some(env) => chunk.set_environment(env).into_function(),
        None => chunk.into_function(),
    }
}

/// The compiler's bytecode for `text`, made in a state of its own (with
/// the memory limit a sandbox has) and kept with its debug information,
/// so errors still name their lines.
fn compile(name: &str, text: &str) -> mlua::Result<Vec<u8>> {
    let scratch = Lua::new_with(StdLib::NONE, LuaOptions::default())?;
    scratch.set_memory_limit(MEMORY_LIMIT)?;
    let f = scratch
        .load(text)
        .set_mode(ChunkMode::Text)
        .set_name(name)
        .into_function()?;
    Ok(f.dump(false))
}

/// The registry key of the meter the hook reads.
static METER_KEY: u8 = 0;

/// Sets the budget hook: Lua's own count hook, called every
/// [`HOOK_EVERY`] instructions on the main thread and on every coroutine
/// a script creates (a new thread copies its creator's hook).
///
/// Not mlua's hook: when an mlua hook returns an error, mlua resets the
/// stack top of the interrupted function while still inside the hook,
/// which runs that function's pending `__close` handlers with hooks off
/// (an endless one never ended). This one raises the error the way Lua's
/// own interrupt does, so Lua closes those variables after it has turned
/// hooks back on.
fn install_hook(lua: &Lua, meter: &Rc<Meter>) -> mlua::Result<()> {
    let ptr = Rc::as_ptr(meter) as *mut std::ffi::c_void;
    // SAFETY: the meter outlives the state: `Sandbox` holds an `Rc` and
    // drops the state first. The key is a static's address.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            ffi::lua_pushlightuserdata(state, ptr);
            ffi::lua_rawsetp(
                state,
                ffi::LUA_REGISTRYINDEX,
                &METER_KEY as *const u8 as *const std::ffi::c_void,
            );
            ffi::lua_sethook(
                state,
                Some(budget_hook),
                ffi::LUA_MASKCOUNT,
                HOOK_EVERY as std::ffi::c_int,
            );
        })
    }
}

/// The count hook: spends the budget and checks the soft memory limit;
/// on either, raises the error at the script's line.
unsafe extern "C-unwind" fn budget_hook(l: *mut ffi::lua_State, ar: *mut ffi::lua_Debug) {
    // SAFETY (whole function): `l` is the running thread, `ar` its hook
    // record; the stack holds the two slots checked for; no Rust value
    // with a destructor is alive when `lua_error` unwinds past this frame.
    unsafe {
        if ffi::lua_checkstack(l, 2) == 0 {
            return;
        }
        ffi::lua_rawgetp(
            l,
            ffi::LUA_REGISTRYINDEX,
            &METER_KEY as *const u8 as *const std::ffi::c_void,
        );
        let meter = ffi::lua_touserdata(l, -1) as *const Meter;
        ffi::lua_pop(l, 1);
        let Some(meter) = meter.as_ref() else {
            return;
        };
        let used = (ffi::lua_gc(l, ffi::LUA_GCCOUNT, 0) as usize) * 1024
            + ffi::lua_gc(l, ffi::LUA_GCCOUNTB, 0) as usize;
        let failure = match meter.spend_with(used, f64::from(HOOK_EVERY), || raw_location(l, ar)) {
            Err(msg) => Some(msg),
            Ok(()) if used >= MEMORY_SOFT_LIMIT => {
                let at = raw_location(l, ar)
                    .map(|(file, line)| format!("{file}:{line}: "))
                    .unwrap_or_default();
                Some(format!(
                    "{at}memory limit exceeded ({} MiB): a memory bomb or endless recursion?",
                    MEMORY_SOFT_LIMIT / (1024 * 1024)
                ))
            }
            Ok(()) => None,
        };
        if let Some(msg) = failure {
            meter.hook_raised.set(true);
            ffi::lua_pushlstring(l, msg.as_ptr() as *const std::ffi::c_char, msg.len());
            drop(msg);
            ffi::lua_error(l);
        }
    }
}

/// Where the hook fired, as the script author sees it: the running
/// function, or, when that is one of the sandbox's own wrappers or a C
/// function, the nearest script line below it.
///
/// # Safety
/// `l` is a live thread and `ar` the hook's record for it.
unsafe fn raw_location(l: *mut ffi::lua_State, ar: *mut ffi::lua_Debug) -> Option<(String, usize)> {
    let script_line = |ar: *mut ffi::lua_Debug| -> Option<(String, usize)> {
        // SAFETY: `ar` was filled by `lua_getstack`/the hook for `l`.
        unsafe {
            if ffi::lua_getinfo(l, c"Sl".as_ptr(), ar) == 0 {
                return None;
            }
            let src = std::ffi::CStr::from_ptr((*ar).short_src.as_ptr()).to_string_lossy();
            let line = (*ar).currentline;
            (src != "sandbox" && src != "[C]" && line > 0)
                .then(|| (src.into_owned(), line as usize))
        }
    };
    if let Some(here) = script_line(ar) {
        return Some(here);
    }
    for level in 1..24 {
        // SAFETY: an all-zero lua_Debug is a valid out-parameter.
        let mut d: ffi::lua_Debug = unsafe { std::mem::MaybeUninit::zeroed().assume_init() };
        // SAFETY: `l` is live; `d` is written by Lua.
        if unsafe { ffi::lua_getstack(l, level, &mut d) } == 0 {
            return None;
        }
        if let Some(here) = script_line(&mut d) {
            return Some(here);
        }
    }
    None
}

/// The meter of the state `l` belongs to, as the hook finds it.
///
/// # Safety
/// `l` is a thread of a sandbox's state with a free stack slot.
unsafe fn meter_of<'a>(l: *mut ffi::lua_State) -> Option<&'a Meter> {
    // SAFETY: the registry entry is the `Rc<Meter>`'s pointer, which
    // outlives the state (see `install_hook`).
    unsafe {
        ffi::lua_rawgetp(
            l,
            ffi::LUA_REGISTRYINDEX,
            &METER_KEY as *const u8 as *const std::ffi::c_void,
        );
        let meter = ffi::lua_touserdata(l, -1) as *const Meter;
        ffi::lua_pop(l, 1);
        meter.as_ref()
    }
}

/// `ordered_keys(t, names)`: a new list of `t`'s keys in the one order
/// `pairs` and `next` give (see `order.rs`), and their number; `names` is
/// the table of named functions. Charged like the other C loops: the
/// entries visited and compared, before the list is made when it would
/// pass the budget at once.
unsafe extern "C-unwind" fn ordered_keys(l: *mut ffi::lua_State) -> std::ffi::c_int {
    // SAFETY (whole function): the C function protocol; `order::order`'s
    // contract is set up below (table at 1, names at 2 or none, `__index`
    // at 3, the list at 4 with room for every key, the stack slots it
    // needs). Nothing
    // that may raise a Lua error runs while a Rust value needing a drop
    // is alive, but for the error message itself, as in the hook.
    unsafe {
        let refuse = |why: &std::ffi::CStr| -> std::ffi::c_int {
            ffi::lua_pushstring(l, why.as_ptr());
            ffi::lua_error(l)
        };
        if ffi::lua_type(l, 1) != ffi::LUA_TTABLE {
            return refuse(c"pairs: table expected");
        }
        let names = if ffi::lua_type(l, 2) == ffi::LUA_TTABLE {
            2
        } else {
            0
        };
        ffi::lua_settop(l, 2);
        if ffi::lua_checkstack(l, super::order::STACK_NEEDED + 4) == 0 {
            return refuse(c"stack overflow (ordering a table's keys)");
        }
        // At 3, before the traversals: pushing a string may run the
        // collector, which must not run between them.
        ffi::lua_pushstring(l, c"__index".as_ptr());
        let Some(meter) = meter_of(l) else {
            return refuse(c"pairs: no budget to charge");
        };
        let limit = meter.left.get().max(0) as u64;
        let n = super::order::count(l, 1);
        let failed = if (n as u64).saturating_mul(super::order::UNITS_PER_ENTRY) > limit {
            // Over the budget before anything is built.
            Some(limit.saturating_add(1))
        } else {
            ffi::lua_createtable(l, n.min(i32::MAX as usize) as std::ffi::c_int, 0);
            match super::order::order(l, 1, 4, names, 3, limit) {
                Ok((count, units)) => {
                    ffi::lua_pushinteger(l, count as ffi::lua_Integer);
                    let used = (ffi::lua_gc(l, ffi::LUA_GCCOUNT, 0) as usize) * 1024
                        + ffi::lua_gc(l, ffi::LUA_GCCOUNTB, 0) as usize;
                    match meter.spend_with(used, units as f64, || caller_of_c(l)) {
                        Ok(()) => return 2,
                        Err(msg) => {
                            ffi::lua_pushlstring(
                                l,
                                msg.as_ptr() as *const std::ffi::c_char,
                                msg.len(),
                            );
                            drop(msg);
                            ffi::lua_error(l)
                        }
                    }
                }
                Err(super::order::OverBudget) => Some(limit.saturating_add(1)),
            }
        };
        let used = (ffi::lua_gc(l, ffi::LUA_GCCOUNT, 0) as usize) * 1024
            + ffi::lua_gc(l, ffi::LUA_GCCOUNTB, 0) as usize;
        let units = failed.unwrap_or(0) as f64;
        match meter.spend_with(used, units, || caller_of_c(l)) {
            Ok(()) => 0,
            Err(msg) => {
                ffi::lua_pushlstring(l, msg.as_ptr() as *const std::ffi::c_char, msg.len());
                drop(msg);
                ffi::lua_error(l)
            }
        }
    }
}

/// The script line that called the running C function.
///
/// # Safety
/// `l` is the running thread.
unsafe fn caller_of_c(l: *mut ffi::lua_State) -> Option<(String, usize)> {
    // SAFETY: level 0 is the running C function, which `raw_location`
    // skips for the nearest script line below it.
    unsafe {
        let mut ar: ffi::lua_Debug = std::mem::MaybeUninit::zeroed().assume_init();
        if ffi::lua_getstack(l, 0, &mut ar) == 0 {
            return None;
        }
        raw_location(l, &mut ar)
    }
}

/// The functions a script can reach by a name — the globals, the
/// libraries' fields, the game's bindings (`pairs`, `string.upper`,
/// `game.move`) — as a table from function to its first name in byte
/// order: what orders them as keys, where their definitions (C, or one
/// line of the sandbox for many wrappers) cannot. Made at the first
/// ordering, after the game has registered its bindings.
fn name_functions(lua: &Lua) -> mlua::Result<Table> {
    let mut found: Vec<(String, mlua::Function)> = Vec::new();
    let fields = |prefix: &str, t: &Table, found: &mut Vec<(String, mlua::Function)>| {
        // A frozen table's fields are its metatable's `__index`.
        let mut tables = vec![t.clone()];
        if let Some(Value::Table(inner)) = t.metatable().and_then(|m| m.raw_get("__index").ok()) {
            tables.push(inner);
        }
        for t in tables {
            for (k, v) in t.pairs::<Value, Value>().flatten() {
                if let (Value::String(k), Value::Function(f)) = (k, v) {
                    found.push((format!("{prefix}.{}", k.to_string_lossy()), f));
                }
            }
        }
    };
    for (k, v) in lua.globals().pairs::<Value, Value>().flatten() {
        let Value::String(k) = k else { continue };
        let k = k.to_string_lossy();
        match v {
            Value::Function(f) => found.push((k, f)),
            Value::Table(t) if k != "_G" => fields(&k, &t, &mut found),
            _ => {}
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    let names = lua.create_table()?;
    for (name, f) in found {
        if names.raw_get::<Value>(&f)?.is_nil() {
            names.raw_set(f, name)?;
        }
    }
    Ok(names)
}

/// Lua's `string.find(s, p, init, true)` in linear time (Lua's own plain
/// search compares the pattern at every position: quadratic).
fn plain_find(s: &[u8], p: &[u8], init: i64) -> Option<(i64, i64)> {
    let len = s.len() as i64;
    let init = match init {
        i if i > 0 => i,
        0 => 1,
        i if i < -len => 1,
        i => len + i + 1,
    };
    if init > len + 1 {
        return None;
    }
    let from = (init - 1) as usize;
    let at = memchr::memmem::find(&s[from..], p)?;
    let start = (from + at) as i64 + 1;
    Some((start, start + p.len() as i64 - 1))
}

/// The script line that called into a Rust function of the sandbox.
fn caller_location(lua: &Lua) -> Option<(String, usize)> {
    nearest_script_line(lua, 1)
}

fn nearest_script_line(lua: &Lua, from: usize) -> Option<(String, usize)> {
    (from..from + 24)
        .map_while(|level| {
            lua.inspect_stack(level, |d| {
                (
                    d.source().short_src.as_deref().unwrap_or("?").to_string(),
                    d.current_line().unwrap_or(0),
                )
            })
        })
        .find(|(file, line)| file != "sandbox" && file != "[C]" && *line > 0)
}

/// Runs once per state, before any script: the charging wrappers, the
/// budget-keeping `pcall`s, the refused finalizers, frozen library tables
/// and the ordered iteration helper. Wrappers call the raw functions only
/// with arguments they checked and charged for, so no value a script
/// controls (a lying `__len`, a numeric string) reaches a C loop.
const PRELUDE: &str = r##"
local exhausted, budget_msg, charge, linear_find, max_build, hook_every, hook_raised,
  ordered_keys, pairs_metamethod, name_functions = ...
local raw_rawequal, raw_tostring, raw_sub, raw_byte = rawequal, tostring, string.sub, string.byte
local raw_pcall, raw_xpcall, raw_resume = pcall, xpcall, coroutine.resume
local raw_create, raw_wrap = coroutine.create, coroutine.wrap
local raw_error, raw_setmetatable, rawget, getmetatable = error, setmetatable, rawget, getmetatable
local pack, unpack, type, tostring, tonumber, select = table.pack, table.unpack, type, tostring, tonumber, select
local tointeger, floor, huge = math.tointeger, math.floor, math.huge
local raw_find, raw_rep, raw_format = string.find, string.rep, string.format
local raw_move, raw_concat, raw_sort = table.move, table.concat, table.sort

-- error(v) with a table or a function would reach the user as
-- "table: 0x…", a heap address that changes every run.
local function message(v)
  local t = type(v)
  if t == "string" or t == "number" or t == "nil" then return v end
  return "error raised with a " .. t .. " value (give `error` a message string)"
end
error = function(v, level)
  if level == nil then level = 1 end
  if type(level) ~= "number" then return raw_error(message(v), 2) end
  if level > 0 then level = level + 1 end
  return raw_error(message(v), level)
end
assert = function(v, m, ...)
  if v then return v, m, ... end
  if m == nil then return raw_error("assertion failed!", 2) end
  return raw_error(message(m), 2)
end

local function check(r)
  -- The protected call returned: hooks are on again.
  hook_raised(true)
  if exhausted() then
    -- Keep the file:line of the hook's error when it is there.
    local msg = r[2]
    if type(msg) == "string" and raw_find(msg, budget_msg, 1, true) then raw_error(msg, 0) end
    raw_error(budget_msg, 2)
  end
  return unpack(r, 1, r.n)
end
pcall = function(...) return check(pack(raw_pcall(...))) end
-- Lua calls a message handler where the error was raised: after the
-- hook raised it, with hooks still off. The script's handler then runs
-- only for errors of its own.
xpcall = function(f, handler, ...)
  local guarded = function(m)
    if hook_raised(false) or exhausted() then return m end
    return handler(m)
  end
  return check(pack(raw_xpcall(f, guarded, ...)))
end
-- A coroutine killed by the hook keeps hooks off for good: Lua's own
-- close of it (`coroutine.close`, and `coroutine.wrap` on an error) would
-- run its pending `__close` handlers unhooked. Such a coroutine is never
-- closed; `wrap` is written over `create` and `resume` to match.
local failed = raw_setmetatable({}, { __mode = "k" })
local raw_close, raw_status = coroutine.close, coroutine.status
local function resume(co, ...)
  local r = pack(raw_resume(co, ...))
  if not r[1] then failed[co] = r[2] end
  return check(r)
end
coroutine.resume = resume
coroutine.create = function(f) charge(hook_every) return raw_create(f) end
coroutine.wrap = function(f)
  charge(hook_every)
  local co = raw_create(f)
  return function(...)
    local r = pack(resume(co, ...))
    if r[1] then return unpack(r, 2, r.n) end
    local e = r[2]
    if type(e) == "string" then raw_error(e, 2) end
    raw_error(e, 0)
  end
end
coroutine.close = function(co)
  if failed[co] ~= nil then return false, failed[co] end
  return raw_close(co)
end

setmetatable = function(t, mt)
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    raw_error("setmetatable: `__gc` (a finalizer) is not available to scripts: it would run outside the budget, inside another hook", 2)
  end
  return raw_setmetatable(t, mt)
end

local function argerror(n, fname, msg)
  raw_error("bad argument #" .. n .. " to '" .. fname .. "' (" .. msg .. ")", 3)
end
local function int_arg(v, n, fname)
  local i = tointeger(v)
  if i == nil then
    argerror(n, fname, type(v) == "number" and "number has no integer representation" or ("number expected, got " .. type(v)))
  end
  return i
end
local function table_arg(t, n, fname)
  if type(t) ~= "table" then argerror(n, fname, "table expected, got " .. type(t)) end
end
local function length(t, fname)
  local n = tointeger(#t)
  if n == nil then raw_error("object length is not an integer", 3) end
  return n
end
-- The number of elements i..j, as a float: no integer overflow.
local function span(i, j)
  if j < i then return 0 end
  return (j + 0.0) - i + 1
end

-- An object's address would make `tostring`, `%s` and `%p` print
-- differently every run: each object gets a serial number instead, in
-- the order a script first shows it (never reused).
local serials = raw_setmetatable({}, { __mode = "k" })
local last_serial = 0
local objects = { table = true, ["function"] = true, thread = true, userdata = true }
local function serial(v)
  local n = serials[v]
  if n == nil then
    last_serial = last_serial + 1
    n = last_serial
    serials[v] = n
  end
  return "#" .. n
end
local function shown(v)
  local s = raw_tostring(v)
  if objects[type(v)] then
    -- Lua's text for an object ends in its address (after `__name`'s
    -- or the type's name); a `__tostring`'s own text is left as it is.
    local p = raw_format("%p", v)
    if #s > #p and raw_sub(s, -#p) == p then s = raw_sub(s, 1, -#p - 1) .. serial(v) end
  end
  return s
end
-- (`_G.`: the prelude's own `tostring` is a local, the raw one.)
_G.tostring = function(...)
  if select("#", ...) == 0 then raw_error("bad argument #1 to 'tostring' (value expected)", 2) end
  return (shown((...)))
end

-- Pattern matching runs inside one C call that no hook can interrupt, and
-- a crafted pattern backtracks for hours: only plain search is offered,
-- in linear time (Lua's own plain search is quadratic).
local function no_patterns(name)
  return function() raw_error("string." .. name .. " is not available to scripts: pattern matching cannot be interrupted (use string.find, which searches plain text)", 2) end
end
string.find = function(s, p, init)
  if type(s) == "number" then s = tostring(s) end
  if type(p) == "number" then p = tostring(p) end
  if type(s) ~= "string" then argerror(1, "find", "string expected, got " .. type(s)) end
  if type(p) ~= "string" then argerror(2, "find", "string expected, got " .. type(p)) end
  local i = 1
  if init ~= nil then i = int_arg(init, 3, "find") end
  return linear_find(s, p, i)
end
string.match = no_patterns("match")
string.gmatch = no_patterns("gmatch")
string.gsub = no_patterns("gsub")
string.dump = nil
-- Binary packing has no use in a card and builds strings of any size.
string.pack, string.unpack, string.packsize = nil, nil, nil

-- One call of string.rep can ask for gigabytes (refused at the calling
-- line instead of failing in the allocator with no line), or loop 2^62
-- times copying nothing.
string.rep = function(s, n, sep)
  if type(s) == "number" then s = tostring(s) end
  if type(s) ~= "string" then argerror(1, "rep", "string expected, got " .. type(s)) end
  local count = int_arg(n, 2, "rep")
  if sep == nil then sep = "" elseif type(sep) == "number" then sep = tostring(sep) end
  if type(sep) ~= "string" then argerror(3, "rep", "string expected, got " .. type(sep)) end
  if count <= 0 or #s + #sep == 0 then return "" end
  local size = (#s + #sep) * (count + 0.0) - #sep
  if size > max_build then
    raw_error("string.rep: a " .. raw_format("%.0f", size) .. "-byte string is over the 4 MiB a script may build at once", 2)
  end
  charge(size / 32 + 1)
  return raw_rep(s, count, sep)
end
-- `%s` of an object and `%p` print what `tostring` prints, never an
-- address (`%p` of a value that is not an object: `(null)`, as Lua's).
local function deterministic(fmt, args, n)
  local i, k = 1, 0
  while true do
    local at = raw_find(fmt, "%", i, true)
    if at == nil then return fmt end
    if raw_byte(fmt, at + 1) == 37 then
      i = at + 2
    else
      k = k + 1
      local j = at + 1
      while j <= #fmt and raw_find("-+ #0123456789.", raw_sub(fmt, j, j), 1, true) do j = j + 1 end
      local conv = raw_sub(fmt, j, j)
      if k <= n then
        local v = args[k]
        if conv == "p" then
          fmt = raw_sub(fmt, 1, j - 1) .. "s" .. raw_sub(fmt, j + 1)
          args[k] = objects[type(v)] and serial(v) or "(null)"
        elseif conv == "s" and objects[type(v)] then
          args[k] = shown(v)
        end
      end
      i = j + 1
    end
  end
end
string.format = function(fmt, ...)
  local n = select("#", ...)
  local bytes = type(fmt) == "string" and #fmt or 0
  local object = false
  for k = 1, n do
    local v = select(k, ...)
    local t = type(v)
    if t == "string" then bytes = bytes + #v elseif objects[t] then object = true end
  end
  charge(bytes / 32 + 1)
  if type(fmt) == "string" and (object or raw_find(fmt, "p", 1, true)) then
    local args = pack(...)
    fmt = deterministic(fmt, args, n)
    return raw_format(fmt, unpack(args, 1, n))
  end
  return raw_format(fmt, ...)
end
-- Every other string function is linear in its subject: charged so.
for _, name in ipairs({ "upper", "lower", "reverse", "sub", "byte", "len" }) do
  local raw = string[name]
  string[name] = function(s, ...)
    if type(s) == "string" then charge(#s / 32 + 1) end
    return raw(s, ...)
  end
end
for _, name in ipairs({ "len", "offset", "codepoint" }) do
  local raw = utf8[name]
  utf8[name] = function(s, ...)
    if type(s) == "string" then charge(#s / 32 + 1) end
    return raw(s, ...)
  end
end
tonumber = function(v, ...)
  if type(v) == "string" then charge(#v / 32 + 1) end
  return tonumber(v, ...)
end

-- The table functions loop in C over ranges a script chooses: each is
-- charged its range, and given explicit bounds so that a `__len` cannot
-- say one length to the charge and another to the loop.
table.move = function(a1, f, e, t, a2)
  table_arg(a1, 1, "move")
  local fi, ei, ti = int_arg(f, 2, "move"), int_arg(e, 3, "move"), int_arg(t, 4, "move")
  if a2 ~= nil then table_arg(a2, 5, "move") end
  charge(span(fi, ei) + 1)
  if a2 == nil then return raw_move(a1, fi, ei, ti) end
  return raw_move(a1, fi, ei, ti, a2)
end
table.concat = function(list, sep, i, j)
  table_arg(list, 1, "concat")
  if sep == nil then sep = "" end
  local ii = 1
  if i ~= nil then ii = int_arg(i, 3, "concat") end
  local jj
  if j ~= nil then jj = int_arg(j, 4, "concat") else jj = length(list, "concat") end
  charge(span(ii, jj) + 1)
  return raw_concat(list, sep, ii, jj)
end
table.unpack = function(list, i, j)
  local ii = 1
  if i ~= nil then ii = int_arg(i, 2, "unpack") end
  local jj
  if j ~= nil then jj = int_arg(j, 3, "unpack") else jj = length(list, "unpack") end
  charge(span(ii, jj) + 1)
  return unpack(list, ii, jj)
end
-- In Lua, so the budget counts every element shifted.
table.insert = function(t, ...)
  table_arg(t, 1, "insert")
  local n = select("#", ...)
  local e = length(t, "insert") + 1
  if n == 1 then
    t[e] = ...
    return
  end
  if n ~= 2 then raw_error("wrong number of arguments to 'insert'", 2) end
  local pos, v = ...
  pos = int_arg(pos, 2, "insert")
  if pos < 1 or pos > e then argerror(2, "insert", "position out of bounds") end
  for k = e, pos + 1, -1 do t[k] = t[k - 1] end
  t[pos] = v
end
table.remove = function(t, pos)
  table_arg(t, 1, "remove")
  local size = length(t, "remove")
  if pos == nil then pos = size else pos = int_arg(pos, 2, "remove") end
  if pos ~= size and (pos < 1 or pos > size + 1) then
    argerror(2, "remove", "position out of bounds")
  end
  local r = t[pos]
  while pos < size do
    t[pos] = t[pos + 1]
    pos = pos + 1
  end
  t[pos] = nil
  return r
end
-- Lua's sort re-seeds its pivot from the clock after a badly unbalanced
-- split of more than 128 elements: equal elements, and the calls of the
-- comparator, then land differently on every run. Below that it never
-- does; a longer list is sorted in runs of 64 by Lua's sort, then merged
-- here: the same on every run (and, like Lua's, not stable).
local run_length = 64
local function less(a, b) return a < b end
local function merge_sort(t, n, lt)
  for i = 1, n, run_length do
    local j = i + run_length - 1
    if j > n then j = n end
    local run = raw_move(t, i, j, 1, {})
    raw_sort(run, lt)
    raw_move(run, 1, j - i + 1, i, t)
  end
  local src, dst, width = t, {}, run_length
  while width < n do
    for lo = 1, n, 2 * width do
      local mid, hi = lo + width, lo + 2 * width
      if mid > n + 1 then mid = n + 1 end
      if hi > n + 1 then hi = n + 1 end
      local a, b, k = lo, mid, lo
      while a < mid and b < hi do
        local x, y = src[a], src[b]
        if lt(y, x) then
          dst[k] = y
          b = b + 1
        else
          dst[k] = x
          a = a + 1
        end
        k = k + 1
      end
      while a < mid do dst[k] = src[a] a = a + 1 k = k + 1 end
      while b < hi do dst[k] = src[b] b = b + 1 k = k + 1 end
    end
    src, dst = dst, src
    width = width * 2
  end
  if src ~= t then raw_move(src, 1, n, 1, t) end
end
table.sort = function(t, comp)
  table_arg(t, 1, "sort")
  if comp ~= nil and type(comp) ~= "function" then argerror(2, "sort", "function expected, got " .. type(comp)) end
  local n = length(t, "sort")
  if n < 2 then return end
  local log = 1
  while (1 << log) < n and log < 62 do log = log + 1 end
  charge((n + 0.0) * log + 1)
  -- A table with metamethods: sort a plain copy of exactly n elements
  -- (the C sort would read the length again, through `__len`).
  local plain = getmetatable(t) == nil
  if n <= 128 then
    if plain then return raw_sort(t, comp) end
    local copy = raw_move(t, 1, n, 1, {})
    raw_sort(copy, comp)
    for k = 1, n do t[k] = copy[k] end
    return
  end
  local target = plain and t or raw_move(t, 1, n, 1, {})
  local ok, e = check(pack(raw_pcall(merge_sort, target, n, comp or less)))
  if not ok then
    -- A comparison the merge made fails at the script's line, not the
    -- sandbox's.
    if type(e) == "string" and raw_sub(e, 1, 8) == "sandbox:" then
      local at = raw_find(e, ": ", 9, true)
      if at then raw_error(raw_sub(e, at + 2), 2) end
    end
    raw_error(e, 0)
  end
  if not plain then
    for k = 1, n do t[k] = target[k] end
  end
end

-- `pairs` and `next` give every table's keys in one order, the same on
-- every run (src/script/order.rs): Lua's own order follows addresses.
local names -- the named functions: made at the first ordering, once the game's are registered
local function order_of(t)
  if names == nil then names = name_functions() end
  local keys, n = ordered_keys(t, names)
  return { keys = keys, n = n, at = 0 }
end
-- The entry after position i of order o; keys assigned nil since the
-- order was made are skipped (Lua allows clearing fields mid-traversal).
local function after(t, o, i)
  local keys = o.keys
  for j = i + 1, o.n do
    local k = keys[j]
    local v = rawget(t, k)
    if v ~= nil then
      o.at = j
      return k, v
    end
  end
  o.at = 0
  return nil
end
-- Where key k is in order o: at once for the key returned last (a
-- loop), else through an index made on the first such question.
local function find(o, k)
  if k == nil then return 0 end
  if raw_rawequal(o.keys[o.at], k) then return o.at end
  local index = o.index
  if index == nil then
    index = {}
    local keys = o.keys
    for j = 1, o.n do index[keys[j]] = j end
    o.index = index
  end
  return index[k]
end
-- `next(t, k)` continues the order its `next(t, nil)` made.
local orders = raw_setmetatable({}, { __mode = "k" })
next = function(t, k)
  if type(t) ~= "table" then argerror(1, "next", "table expected, got " .. type(t)) end
  local o = orders[t]
  if k == nil or o == nil then
    o = order_of(t)
    orders[t] = o
  end
  local i = find(o, k)
  if i == nil then
    -- A key added since the order was made: order again.
    o = order_of(t)
    orders[t] = o
    i = find(o, k)
    if i == nil then raw_error("invalid key to 'next'", 2) end
  end
  local key, v = after(t, o, i)
  if key == nil then
    orders[t] = nil
    return nil
  end
  return key, v
end
-- Each `pairs` loop has an order of its own: loops over one table nest.
local function ordered_pairs(t)
  local o = order_of(t)
  return function(_, k)
    local i = find(o, k)
    if i == nil then return next(t, k) end
    return after(t, o, i)
  end, t, nil
end
pairs = function(t)
  local mm = pairs_metamethod(t)
  if mm ~= nil then
    local f, s, c = mm(t)
    return f, s, c
  end
  if type(t) ~= "table" then argerror(1, "pairs", "table expected, got " .. type(t)) end
  return ordered_pairs(t)
end
--- Iterates a table in the fixed order `pairs` now gives too; kept for
--- the scripts written when `pairs` order changed between runs. A table
--- with `__pairs` is iterated in the order of the keys it yields.
function sorted_pairs(t)
  if type(t) ~= "table" then argerror(1, "sorted_pairs", "table expected, got " .. type(t)) end
  if pairs_metamethod(t) == nil then return ordered_pairs(t) end
  local seen = {}
  for k in pairs(t) do seen[k] = true end
  local o = order_of(seen)
  local i = 0
  return function()
    i = i + 1
    local k = o.keys[i]
    if k ~= nil then return k, t[k] end
  end
end


local function frozen(name, t)
  return raw_setmetatable({}, {
    __index = t,
    __metatable = false,
    __newindex = function(_, k) raw_error("attempt to modify read-only table '" .. name .. "." .. shown(k) .. "'", 2) end,
  })
end
getmetatable("").__metatable = false
for _, n in ipairs({ "string", "table", "math", "utf8", "coroutine" }) do _G[n] = frozen(n, _G[n]) end
rawset = nil
rawequal = nil
"##;

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test chunk returns, as text.
    fn result_text(sb: &Sandbox, src: &str) -> String {
        match sb
            .load("t.lua", src)
            .unwrap_or_else(|e| panic!("{src}: {e}"))
        {
            Value::String(s) => s.to_str().unwrap().to_string(),
            Value::Integer(n) => n.to_string(),
            other => format!("{other:?}"),
        }
    }

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
            "return string.pack('i4', 1)",
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
            "local _ = table.move({}, 1, 1 << 50, 1, {})",
            "while true do coroutine.wrap(function() local x = 0 for i = 1, 50 do x = x + i end end)() end",
            "local s = string.rep('a', 4 * 1024 * 1024) while true do local t = s .. 'x' end",
            "local s = string.rep('a', 1024 * 1024) while true do local t = s < s .. 'x' end",
            "local s = string.rep('a', 4 * 1024 * 1024) while true do local t = s:upper() end",
            "local s = string.rep('a', 4 * 1024 * 1024) while true do local t = s:find('b') end",
            "local _ = table.concat(setmetatable({}, {__index = rawlen}), '', 1, 1 << 50)",
            "local t = setmetatable({}, {__len = function() return 1 << 40 end}) table.insert(t, 1, 'x')",
            // Close handlers and message handlers run after an error; after
            // the hook's error, Lua (and mlua) ran some with hooks off.
            "local x <close> = setmetatable({}, {__close = function() while true do end end}) while true do end",
            "local function f() local x <close> = setmetatable({}, {__close = function() for i = 1, 1e9 do end end}) while true do end end local ok = pcall(f)",
            "xpcall(function() error('x') end, function() while true do end end)",
            "xpcall(function() while true do end end, function() while true do end end)",
            "local co = coroutine.wrap(function() local x <close> = setmetatable({}, {__close = function() while true do end end}) while true do end end) co()",
            "local co = coroutine.create(function() local x <close> = setmetatable({}, {__close = function() while true do end end}) local t = {} for i = 1, 1e8 do t[i] = i end end) local ok = coroutine.resume(co) coroutine.close(co) while true do end",
            "local t = {} local ok = pcall(function() for i = 1, 1e8 do t[i] = i end end) t = nil while true do end",
            "local t = setmetatable({}, {__index = function() while true do end end}) local _ = t.x",
            "local t = setmetatable({}, {__tostring = function() while true do end end}) local _ = tostring(t)",
            "local t = {} for i = 1, 100000 do t[i] = i end while true do table.insert(t, 1, 0) table.remove(t, 1) end",
            "local t = {} for i = 1, 100000 do t[i] = 'x' end while true do local s = table.concat(t) end",
            "local t = {} for i = 1, 100000 do t[i] = 100000 - i end while true do table.sort(t) end",
            "local t = {} for i = 1, 100000 do t[i] = i end while true do local a = {table.unpack(t)} end",
        ] {
            let started = Instant::now();
            let e = match eval(src) {
                Ok(v) => panic!("{src} returned {v:?}"),
                Err(e) => e.to_string(),
            };
            assert!(
                e.contains(BUDGET_EXCEEDED)
                    || e.contains(TIME_EXCEEDED)
                    || e.contains("memory limit"),
                "{src}: {e}"
            );
            assert!(e.contains("test.lua:1:"), "{src}: {e}");
            assert!(started.elapsed() < Duration::from_secs(3), "{src}");
        }
    }

    /// A `__len` that answers small to the charge and huge to the C loop:
    /// the loop is given the charged bounds, so it ends at once.
    #[test]
    fn lying_lengths_do_not_stretch_c_loops() {
        let lie = "local n = 0 local t = setmetatable({}, {__len = function() n = n + 1 \
                   return n == 1 and 2 or 1 << 30 end, __index = rawlen, __newindex = type})";
        for op in [
            "table.sort(t)",
            "local _ = table.concat(t)",
            "local _ = table.unpack(t)",
            "table.insert(t, 1, 1)",
            "table.remove(t, 1)",
        ] {
            let src = format!("{lie} {op}");
            let started = Instant::now();
            let _ = eval(&src);
            assert!(started.elapsed() < Duration::from_secs(2), "{op}");
        }
    }

    #[test]
    fn finalizers_are_refused() {
        let e = eval("local _ = setmetatable({}, {__gc = function() while true do end end})")
            .unwrap_err()
            .to_string();
        assert!(e.contains("test.lua:1:") && e.contains("__gc"), "{e}");
        assert!(eval("return setmetatable({}, {__index = {x = 1}}).x").is_ok());
    }

    #[test]
    fn error_values_are_messages() {
        let e = eval("local x = 1\nerror({})").unwrap_err().to_string();
        assert!(!e.contains("0x"), "{e}");
        assert!(
            e.contains("test.lua:2:") && e.contains("table value"),
            "{e}"
        );
        let e = eval("local function f() error('deep', 2) end\nf()")
            .unwrap_err()
            .to_string();
        assert!(e.contains("test.lua:2: deep"), "{e}");
        let e = eval("local x = 1\nassert(false, 'why')")
            .unwrap_err()
            .to_string();
        assert!(e.contains("test.lua:2: why"), "{e}");
    }

    #[test]
    fn library_functions_keep_their_meaning() {
        let sb = Sandbox::new().unwrap();
        for (src, want) in [
            (
                "local t = {5, 3, 4} table.insert(t, 1) table.insert(t, 2, 9) \
                 local r = table.remove(t, 1) table.sort(t) return r .. ':' .. table.concat(t, ',')",
                "5:1,3,4,9",
            ),
            ("return select('#', table.unpack({1, 2, 3}))", "3"),
            (
                "return table.concat(table.move({1, 2, 3}, 1, 3, 2, {}), ',', 2, 4)",
                "1,2,3",
            ),
            ("return (select(2, ('hello'):find('l')))", "3"),
            ("return (string.find('hello', 'lo', -3))", "4"),
            ("return tostring(string.find('a', '', 5))", "nil"),
            (
                "return string.rep('ab', 3, '-') .. ('x'):rep(0)",
                "ab-ab-ab",
            ),
            (
                "local t = setmetatable({3, 1, 2}, {}) table.sort(t, function(a, b) return a > b end) return table.concat(t)",
                "321",
            ),
            ("return tostring(table.remove({}))", "nil"),
            ("return string.format('%d-%s', 7, 'x')", "7-x"),
            // Nothing to copy: no 2^62-step loop copying nothing.
            (
                "return string.rep('', 1 << 62) .. string.rep('', 1 << 62, '')",
                "",
            ),
        ] {
            let got = result_text(&sb, src);
            assert_eq!(got, want, "{src}");
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

    /// A script that shows every order and text the address of an object
    /// could reach: tables keyed by tables, by functions (closures of one
    /// definition among them), mixed with strings and numbers; a string
    /// table that once held table keys; `next` loops; `tostring`, `%s`
    /// and `%p` of objects.
    const ORDERS: &str = r#"
local out = {}
local function show(t)
  local s = {}
  for k, v in pairs(t) do
    local kt = type(k)
    if kt == "table" then s[#s + 1] = "{" .. tostring(k.id) .. "}"
    elseif kt == "function" then s[#s + 1] = "f" .. tostring(k())
    else s[#s + 1] = tostring(k) end
    s[#s + 1] = "=" .. tostring(type(v) == "function" and v() or v) .. " "
  end
  out[#out + 1] = table.concat(s)
end
local by_table, by_function, mixed = {}, {}, { z = 1, a = 2, [3] = 3, [true] = 4 }
for i = 1, 12 do
  by_table[{ id = i }] = i
  by_function[function() return i end] = i
  mixed[{ id = -i }] = i
  mixed[function() return -i end] = i
  mixed["k" .. i] = i
end
show(by_table) show(by_function) show(mixed)
-- Keys equal in content, told apart by their values.
local ties = {}
for i = 1, 6 do ties[{}] = i ties[{ 1 }] = -i end
show(ties)
-- Functions of one line, told apart by their upvalues or their values.
local same = {}
for i = 1, 6 do local f = function() return i end same[f] = f end
show(same)
-- Library functions by name.
local lib = { [string.upper] = "upper", [string.lower] = "lower", [math.floor] = "floor", [pairs] = "pairs" }
local names = {}
for k, v in pairs(lib) do names[#names + 1] = v end
out[#out + 1] = table.concat(names, ",")
-- A table that held table keys: its string keys' places followed them.
local tainted, held = {}, {}
for i = 1, 10 do held[i] = {} tainted[held[i]] = i end
for i = 1, 26 do tainted[string.char(96 + i)] = i end
for i = 1, 10 do tainted[held[i]] = nil end
tainted.zz = 0
show(tainted)
-- Tables whose entries are behind `__index` (as a table frozen after
-- load keeps them), ordered by those entries.
local proxied = {}
for i = 1, 8 do proxied[setmetatable({}, { __index = { id = i }, __metatable = false })] = 0 end
show(proxied)
-- `next` loops, clearing fields as they go.
local s, k, v = {}, next(by_table)
while k do s[#s + 1] = v by_table[k] = nil k, v = next(by_table, k) end
out[#out + 1] = table.concat(s, ",") .. ":" .. tostring(next(by_table))
-- Objects as text.
local a, b, f = {}, setmetatable({}, { __name = "Thing" }), function() end
out[#out + 1] = tostring(a) .. tostring(b) .. tostring(f) .. tostring(coroutine.create(f))
  .. string.format("|%s|%p|%10p|%s|%p|", a, b, f, 1.5, "str")
return table.concat(out, "\n")
"#;

    #[test]
    fn pairs_next_and_object_texts_are_the_same_every_run() {
        let run = || {
            Sandbox::new()
                .unwrap()
                .load("orders.lua", ORDERS)
                .map(|v| v.as_string().unwrap().to_str().unwrap().to_string())
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let first = run();
        // Fresh states, on this thread and on others at once: addresses
        // differ every time.
        let others: Vec<String> = (0..4)
            .map(|_| std::thread::spawn(move || (0..3).map(|_| run()).collect::<Vec<_>>()))
            .collect::<Vec<_>>()
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect();
        for other in &others {
            assert_eq!(&first, other);
        }
        let lines: Vec<&str> = first.lines().collect();
        let keys = |line: &str| {
            line.split_whitespace()
                .map(|e| e.split('=').next().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        // Tables by content, functions by what they captured, the types
        // in the order of their names, numbers by value.
        let by_table: Vec<String> = (1..=12).map(|i| format!("{{{i}}}")).collect();
        assert_eq!(keys(lines[0]), by_table, "{first}");
        let by_function: Vec<String> = (1..=12).map(|i| format!("f{i}")).collect();
        assert_eq!(keys(lines[1]), by_function, "{first}");
        let mixed = keys(lines[2]);
        assert_eq!(mixed[0], "true", "{first}");
        assert_eq!(mixed[1], "f-1", "{first}");
        assert_eq!(mixed[13], "3", "{first}");
        assert_eq!(mixed[14], "a", "{first}");
        assert_eq!(mixed[15..20], ["k1", "k10", "k11", "k12", "k2"], "{first}");
        assert_eq!(mixed[27], "z", "{first}");
        assert_eq!(mixed[28], "{-12}", "{first}");
        assert_eq!(
            lines[3],
            "{nil}=1 {nil}=2 {nil}=3 {nil}=4 {nil}=5 {nil}=6 {nil}=-6 {nil}=-5 {nil}=-4 {nil}=-3 {nil}=-2 {nil}=-1 ",
            "{first}"
        );
        // `math.floor`, `pairs`, `string.lower`, `string.upper`.
        assert_eq!(lines[5], "floor,pairs,lower,upper", "{first}");
        assert!(lines[6].starts_with("a=1 b=2 c=3 "), "{first}");
        assert!(lines[6].ends_with("z=26 zz=0 "), "{first}");
        assert_eq!(
            lines[7], "{1}=0 {2}=0 {3}=0 {4}=0 {5}=0 {6}=0 {7}=0 {8}=0 ",
            "{first}"
        );
        assert_eq!(lines[8], "1,2,3,4,5,6,7,8,9,10,11,12:nil", "{first}");
        assert!(!first.contains("0x"), "{first}");
        assert!(
            lines[9].starts_with("table: #") && lines[9].contains("Thing: #"),
            "{first}"
        );
    }

    /// An input McIlroy's adversary builds makes Lua's sort split badly,
    /// and Lua then re-seeds its pivot from the clock: the order of equal
    /// elements and the comparator's calls differed on every run.
    const SORT: &str = r#"
local n = 600
local val, gas, solid, candidate = {}, n + 1, 0, nil
local a = {}
for i = 1, n do a[i] = i val[i] = gas end
table.sort(a, function(x, y)
  if val[x] == gas and val[y] == gas then
    solid = solid + 1
    if x == candidate then val[x] = solid else val[y] = solid end
  end
  if val[x] == gas then candidate = x elseif val[y] == gas then candidate = y end
  return val[x] < val[y]
end)
local b = {}
for i = 1, n do b[i] = { v = val[i] // 3, id = i } end
local calls = 0
table.sort(b, function(x, y) calls = calls + 1 return x.v < y.v end)
local ids = {}
for i = 1, n do ids[i] = b[i].id end
for i = 2, n do assert(b[i - 1].v <= b[i].v, "sorted") end
return calls .. ":" .. table.concat(ids, ",")
"#;

    #[test]
    fn sort_is_the_same_every_run() {
        let run = || {
            let sb = Sandbox::new().unwrap();
            let v = sb.load("sort.lua", SORT).unwrap();
            v.as_string().unwrap().to_str().unwrap().to_string()
        };
        let first = run();
        for _ in 0..6 {
            // The clock Lua would seed from moves on.
            std::thread::sleep(Duration::from_millis(3));
            assert_eq!(first, run());
        }
        // Sorted past 128 elements, with a comparator or without, on a
        // plain table or through its metamethods.
        let v = eval(
            "local t = {} for i = 1, 1000 do t[i] = {k = (i * 7919) % 1000, i = i} end \
             table.sort(t, function(a, b) return a.k < b.k end) \
             for j = 2, 1000 do assert(t[j - 1].k < t[j].k, 'sorted') end \
             local u = setmetatable({}, {__index = function() return 0 end}) \
             for i = 1, 300 do u[i] = (i * 37) % 301 end table.sort(u) \
             for j = 2, 300 do assert(u[j - 1] <= u[j]) end return #t",
        )
        .unwrap();
        assert_eq!(v.as_integer(), Some(1000));
        // A comparison that fails is at the script's line.
        let e = eval("local t = {} for i = 1, 200 do t[i] = i end t[150] = 'x'\ntable.sort(t)")
            .unwrap_err()
            .to_string();
        let line = e.lines().next().unwrap();
        assert!(line.contains("test.lua:2: attempt to compare"), "{e}");
        let e = eval("local t = {} for i = 1, 200 do t[i] = i end\ntable.sort(t, function(a, b) while true do end end)")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("test.lua:2:") && e.contains(BUDGET_EXCEEDED),
            "{e}"
        );
    }

    /// Lua's `next` contract: fields cleared during a traversal, loops
    /// that nest, `__pairs`, and a key that is not there.
    #[test]
    fn pairs_and_next_keep_their_contract() {
        let sb = Sandbox::new().unwrap();
        for (src, want) in [
            (
                "local t = {c = 3, a = 1, b = 2} local s = '' for k in pairs(t) do t[k] = nil s = s .. k end \
                 return s .. tostring(next(t))",
                "abcnil",
            ),
            (
                "local t = {1, 2, 3} local n = 0 for _ in pairs(t) do for _ in pairs(t) do n = n + 1 end end return n",
                "9",
            ),
            (
                "local t = setmetatable({}, {__pairs = function(t) return function(_, k) if not k then return 1, 'x' end end, t, nil end}) \
                 local s = '' for k, v in pairs(t) do s = s .. k .. v end return s",
                "1x",
            ),
            (
                "local t = setmetatable({b = 1, a = 2}, {__metatable = false}) local s = '' for k in sorted_pairs(t) do s = s .. k end return s",
                "ab",
            ),
            (
                "return select(2, pcall(next, {a = 1}, 'b'))",
                "invalid key to 'next'",
            ),
            ("return tostring(next({}))", "nil"),
            ("return select('#', next({}))", "1"),
            // A key added during a traversal is not part of it (Lua
            // leaves that undefined); the next traversal has it.
            (
                "local t = {x = 1} local k = next(t) t.y = 2 return tostring(next(t, k)) .. next(t, nil)",
                "nilx",
            ),
        ] {
            let got = result_text(&sb, src);
            assert!(got.contains(want), "{src}: {got}");
        }
    }

    /// Ordering charges its work: a table too big to order in one call's
    /// budget stops at the script's line, never a panic or a hang; so
    /// does a key whose contents multiply (shared tables four deep).
    #[test]
    fn ordering_is_charged() {
        for src in [
            "local t = {} for i = 1, 400000 do t[i] = i end\nfor k in pairs(t) do end",
            "local w = {} for i = 1, 60 do w[i] = i end local x = {} for i = 1, 60 do x[i] = w end \
             local y = {} for i = 1, 60 do y[i] = x end\nlocal t = {[{y, y}] = 1, [{y}] = 2} for k in pairs(t) do end",
            "local t = {} for i = 1, 2000 do t[{i}] = i end\nwhile true do for k in pairs(t) do end end",
        ] {
            let started = Instant::now();
            let e = eval(src).unwrap_err().to_string();
            assert!(e.contains(BUDGET_EXCEEDED), "{src}: {e}");
            assert!(e.contains("test.lua:2:"), "{src}: {e}");
            assert!(started.elapsed() < Duration::from_secs(3), "{src}");
        }
    }

    /// A misspelt global or library function says what it may be a slip
    /// for, on the first line with the script's file:line, like a
    /// misspelt field; a name near nothing gets no guess.
    #[test]
    fn misspelt_names_get_did_you_mean() {
        for (src, near) in [
            (
                "local t = {}\nfor k in sorted_pair(t) do end",
                Some("sorted_pairs"),
            ),
            ("local s = strng.rep('a', 2)", Some("string")),
            ("local s = string.repp('a', 2)", Some("rep")),
            ("local s = ('a'):uper()", Some("upper")),
            ("local t = {} table.insrt(t, 1)", Some("insert")),
            ("local x = tostrin(1)", Some("tostring")),
            ("local x = quux(1)", None),
            ("local t = {} local x = t.y.z", None),
        ] {
            let e = eval(src).unwrap_err().to_string();
            let first = e.lines().next().unwrap();
            match near {
                Some(n) => {
                    assert!(
                        first.contains(&format!("(did you mean `{n}`?)")),
                        "{src}: {e}"
                    );
                    let err = crate::script::ScriptError::from_lua(
                        &eval(src).unwrap_err(),
                        "test.lua",
                        "card x",
                        "load",
                    );
                    assert!(err.line.is_some(), "{err}");
                    assert!(
                        err.message.ends_with(&format!("(did you mean `{n}`?)")),
                        "{err}"
                    );
                }
                None => assert!(!first.contains("did you mean"), "{src}: {e}"),
            }
        }
    }

    /// A thread's first state compiled its chunks in itself, the next
    /// ones loaded the bytecode: the parser's garbage made the collector
    /// run at other moments in the first, so a weak table kept other
    /// entries there (and the memory charged differed). Every state now
    /// loads bytecode, and they all see the same.
    #[test]
    fn a_threads_first_state_runs_like_the_next() {
        let differ = std::thread::spawn(|| {
            (0..12)
                .filter(|step| {
                    let src = format!(
                        "local w = setmetatable({{}}, {{__mode = 'k'}}) for i = 1, 300 do w[{{}}] = i end \
                         local junk = {{}} for i = 1, {} do junk[i] = {{i}} end \
                         local n = 0 for _ in pairs(w) do n = n + 1 end return tostring(n)",
                        step * 10
                    );
                    let name = format!("weak{step}.lua");
                    let run = || {
                        let sb = Sandbox::new().unwrap();
                        let v = sb.load(&name, &src).unwrap();
                        v.as_string().unwrap().to_str().unwrap().to_string()
                    };
                    run() != run()
                })
                .count()
        })
        .join()
        .unwrap();
        assert_eq!(differ, 0);
    }

    #[test]
    fn plain_find_is_luas() {
        assert_eq!(plain_find(b"hello", b"l", 1), Some((3, 3)));
        assert_eq!(plain_find(b"hello", b"lo", -3), Some((4, 5)));
        assert_eq!(plain_find(b"hello", b"", 6), Some((6, 5)));
        assert_eq!(plain_find(b"hello", b"", 7), None);
        assert_eq!(plain_find(b"hello", b"h", -100), Some((1, 1)));
        assert_eq!(plain_find(b"hello", b"x", 0), None);
    }
}
