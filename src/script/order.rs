//! The one order `pairs` and `next` give a table's keys, the same in
//! every run, on every thread and machine.
//!
//! Lua places a key by its hash, and hashes a table, a function, a thread
//! or a userdata by its address: its traversal order changes from run to
//! run. A string-keyed table is no safer once it has held such a key (the
//! key's node stays until a rehash, which reinserts the others in the old
//! order), so every table is ordered, not only those with object keys:
//! the keys are grouped by type, in the order of the type names
//! (boolean, function, number, string, table, thread, userdata, which
//! keeps `sorted_pairs`' numbers-then-strings); numbers by value, strings
//! byte by byte, `false` before `true`; tables by their contents (entries
//! in this order, then those of the table their metatable's `__index`
//! names: a table frozen after load keeps its entries there, an object
//! its class's; 4 levels deep); functions by name when the sandbox or
//! the game gives them one (`string.upper`, `game.move`), else by where
//! they are defined and then by their upvalues (closures of one
//! definition differ by what they captured). Keys that are equal by all
//! this come in the order of their values. Only keys equal in every way,
//! values too, keep Lua's order between them: such keys are told apart
//! by identity alone.
//!
//! Each key (and, for an object key, its value) is written as a byte
//! string whose byte order is the order above, and the byte strings are
//! sorted: a plain total order, whatever the script's tables hold.
//!
//! It works on the Lua stack through the C API, not through mlua values:
//! a table of a million keys must not become a million references (mlua
//! panics past about that many), and between the first call and the last
//! nothing allocates in Lua, so no error can unwind through this code and
//! no collection can change the table between its two traversals.

use std::os::raw::c_int;

use mlua::ffi;

/// How deep a key's contents are compared: a table in a key's table in a
/// key's table… (and a closure's upvalues) past this compare as empty. It
/// bounds the work on cyclic tables.
const MAX_DEPTH: usize = 4;
/// Stack slots the ordering needs at most: per level a table being
/// traversed (key, value) or a function and an upvalue, and a few more.
pub const STACK_NEEDED: c_int = 8 * (MAX_DEPTH as c_int + 2) + 8;
/// Budget units charged per key or value visited: each costs about as
/// much as a dozen VM instructions, and bounds the entries (16 bytes of
/// Rust memory each) one call may gather.
pub const UNITS_PER_ENTRY: u64 = 8;

// The type tags, in the order of the type names.
const END: u8 = 0x00;
const BOOLEAN: u8 = 0x10;
const FUNCTION: u8 = 0x20;
const NUMBER: u8 = 0x30;
const STRING: u8 = 0x40;
const TABLE: u8 = 0x50;
const THREAD: u8 = 0x60;
const USERDATA: u8 = 0x70;
/// A function the sandbox or the game names, and one it does not.
const NAMED: u8 = 0x01;
const DEFINED: u8 = 0x02;
/// After a table's entries: no `__index` table, or one and its entries.
const NO_INDEX: u8 = 0x00;
const INDEX: u8 = 0x01;

/// The work was about to pass the budget the caller gave.
pub struct OverBudget;

/// Writes the values on a Lua stack as ordered byte strings, counting the
/// work in budget units.
struct Writer {
    l: *mut ffi::lua_State,
    /// Absolute stack index of the table of named functions (0: none).
    names: c_int,
    /// Absolute stack index of the string `__index`, pushed before the
    /// traversals (pushing it during one could run the collector).
    index_key: c_int,
    units: u64,
    limit: u64,
}

impl Writer {
    fn spend(&mut self, units: u64) -> Result<(), OverBudget> {
        self.units = self.units.saturating_add(units);
        if self.units > self.limit {
            Err(OverBudget)
        } else {
            Ok(())
        }
    }

    /// Appends the byte string of the value at absolute index `i`.
    ///
    /// # Safety
    /// `i` is a valid absolute index of `self.l`, which has
    /// [`STACK_NEEDED`] free slots.
    unsafe fn value(
        &mut self,
        i: c_int,
        depth: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), OverBudget> {
        // SAFETY: the caller's contract; every call below reads the stack
        // or pushes at most the slots reserved, and none allocates.
        unsafe {
            match ffi::lua_type(self.l, i) {
                ffi::LUA_TBOOLEAN => {
                    out.push(BOOLEAN);
                    out.push(u8::from(ffi::lua_toboolean(self.l, i) != 0));
                }
                ffi::LUA_TNUMBER => {
                    out.push(NUMBER);
                    let mut is_int = 0;
                    let n = ffi::lua_tointegerx(self.l, i, &mut is_int);
                    if is_int != 0 {
                        number(Number::Int(n), out);
                    } else {
                        number(
                            Number::Float(ffi::lua_tonumberx(self.l, i, std::ptr::null_mut())),
                            out,
                        );
                    }
                }
                ffi::LUA_TSTRING => {
                    out.push(STRING);
                    let mut len = 0;
                    // A string: read in place, no conversion, no allocation.
                    let p = ffi::lua_tolstring(self.l, i, &mut len);
                    let bytes = if p.is_null() {
                        &[][..]
                    } else {
                        std::slice::from_raw_parts(p as *const u8, len)
                    };
                    self.spend(bytes.len() as u64 / 2)?;
                    string(bytes, out);
                }
                ffi::LUA_TTABLE => {
                    out.push(TABLE);
                    self.contents(i, depth + 1, out)?;
                }
                ffi::LUA_TFUNCTION => {
                    out.push(FUNCTION);
                    self.function(i, depth, out)?;
                }
                ffi::LUA_TTHREAD => out.push(THREAD),
                _ => out.push(USERDATA),
            }
        }
        self.spend(UNITS_PER_ENTRY)
    }

    /// A table's entries, then its `__index` table's (and so on), each
    /// part ended so that no table's form is a prefix of another's.
    ///
    /// # Safety
    /// As [`Writer::value`]; `t` holds a table.
    unsafe fn contents(
        &mut self,
        t: c_int,
        depth: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), OverBudget> {
        if depth > MAX_DEPTH {
            out.push(END);
            out.push(NO_INDEX);
            return Ok(());
        }
        // SAFETY: as above; the metatable and its `__index` are read raw,
        // so no metamethod runs.
        unsafe {
            self.table(t, depth, out)?;
            out.push(END);
            if ffi::lua_getmetatable(self.l, t) == 0 {
                out.push(NO_INDEX);
                return Ok(());
            }
            ffi::lua_pushvalue(self.l, self.index_key);
            ffi::lua_rawget(self.l, -2);
            let top = ffi::lua_gettop(self.l);
            let r = if ffi::lua_type(self.l, top) == ffi::LUA_TTABLE {
                out.push(INDEX);
                self.contents(top, depth + 1, out)
            } else {
                out.push(NO_INDEX);
                Ok(())
            };
            ffi::lua_settop(self.l, top - 2);
            r
        }
    }

    /// A table's own entries, each key then value, in byte order.
    ///
    /// # Safety
    /// As [`Writer::value`]; `t` holds a table.
    unsafe fn table(
        &mut self,
        t: c_int,
        depth: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), OverBudget> {
        let mut bytes = Vec::new();
        let mut spans: Vec<(usize, usize)> = Vec::new();
        // SAFETY: as above; `lua_next` on a table from its own traversal.
        unsafe {
            ffi::lua_pushnil(self.l);
            while ffi::lua_next(self.l, t) != 0 {
                let top = ffi::lua_gettop(self.l);
                let start = bytes.len();
                let r = self
                    .value(top - 1, depth, &mut bytes)
                    .and_then(|()| self.value(top, depth, &mut bytes));
                if r.is_err() {
                    ffi::lua_settop(self.l, top - 2);
                    return r;
                }
                spans.push((start, bytes.len()));
                ffi::lua_settop(self.l, top - 1);
            }
        }
        self.spend(sort_units(spans.len()))?;
        spans.sort_unstable_by(|a, b| bytes[a.0..a.1].cmp(&bytes[b.0..b.1]));
        for (a, b) in spans {
            out.extend_from_slice(&bytes[a..b]);
        }
        Ok(())
    }

    /// A function: its name, else where it is defined and its upvalues.
    ///
    /// # Safety
    /// As [`Writer::value`]; `f` holds a function.
    unsafe fn function(
        &mut self,
        f: c_int,
        depth: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), OverBudget> {
        // SAFETY: as above. `lua_getinfo` with `>S` pops the copy pushed
        // for it and only reads the function's prototype.
        unsafe {
            if self.names != 0 {
                ffi::lua_pushvalue(self.l, f);
                ffi::lua_rawget(self.l, self.names);
                let named = ffi::lua_type(self.l, -1) == ffi::LUA_TSTRING;
                if named {
                    out.push(NAMED);
                    let top = ffi::lua_gettop(self.l);
                    let r = self.value(top, depth, out);
                    ffi::lua_pop(self.l, 1);
                    return r;
                }
                ffi::lua_pop(self.l, 1);
            }
            out.push(DEFINED);
            let mut ar: ffi::lua_Debug = std::mem::MaybeUninit::zeroed().assume_init();
            ffi::lua_pushvalue(self.l, f);
            if ffi::lua_getinfo(self.l, c">S".as_ptr(), &mut ar) != 0 && !ar.source.is_null() {
                let source = std::ffi::CStr::from_ptr(ar.source).to_bytes();
                string(source, out);
            } else {
                string(b"", out);
            }
            number(Number::Int(ar.linedefined.into()), out);
            number(Number::Int(ar.lastlinedefined.into()), out);
            if depth < MAX_DEPTH {
                for n in 1..=255 {
                    let name = ffi::lua_getupvalue(self.l, f, n);
                    if name.is_null() {
                        break;
                    }
                    // Every function of a script shares its `_ENV`: the
                    // script's globals, not part of what the function is.
                    if std::ffi::CStr::from_ptr(name).to_bytes() == b"_ENV" {
                        ffi::lua_pop(self.l, 1);
                        continue;
                    }
                    let top = ffi::lua_gettop(self.l);
                    let r = self.value(top, depth + 1, out);
                    ffi::lua_pop(self.l, 1);
                    r?;
                }
            }
            out.push(END);
        }
        Ok(())
    }
}

/// The units a sort of `n` byte strings is charged: n log2 n.
fn sort_units(n: usize) -> u64 {
    let n = n as u64;
    n * (u64::BITS - n.leading_zeros()) as u64
}

enum Number {
    Int(i64),
    Float(f64),
}

/// A number as 16 bytes in the order of its value, integers and floats
/// alike: the nearest float (in an order-keeping form of its bits), then
/// what an integer differs from it by.
fn number(n: Number, out: &mut Vec<u8>) {
    let (near, diff) = match n {
        Number::Int(i) => {
            let near = i as f64;
            (near, (i128::from(i) - near as i128) as i64)
        }
        Number::Float(f) => (f, 0),
    };
    let bits = near.to_bits();
    let ordered = if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    };
    out.extend_from_slice(&ordered.to_be_bytes());
    out.extend_from_slice(&((diff as u64) ^ (1 << 63)).to_be_bytes());
}

/// A string's bytes, ended so that no string's form is a prefix of
/// another's: a zero byte is written 0 0xFF, the end 0 0.
fn string(bytes: &[u8], out: &mut Vec<u8>) {
    for &b in bytes {
        out.push(b);
        if b == 0 {
            out.push(0xFF);
        }
    }
    out.extend_from_slice(&[0, 0]);
}

/// Counts the entries of the table at absolute index `t`.
///
/// # Safety
/// `t` holds a table of `l`, which has 2 free stack slots.
pub unsafe fn count(l: *mut ffi::lua_State, t: c_int) -> usize {
    let mut n = 0;
    // SAFETY: the caller's contract.
    unsafe {
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, t) != 0 {
            n += 1;
            ffi::lua_pop(l, 1);
        }
    }
    n
}

/// Puts the keys of the table at `t` into the array part of the table at
/// `out` (made with room for at least their number), in the canonical
/// order; the table of named functions is at `names` (0: none), the
/// string `__index` at `index_key`. Returns
/// the number of keys and the budget units the work cost, or
/// [`OverBudget`] as soon as that would pass `limit`.
///
/// # Safety
/// `t`, `out` and `names` are absolute indices of `l` holding tables
/// (`names` may be 0), `index_key` one holding the string `__index`,
/// `out` has an array part of at least
/// [`count`]`(t)` slots, and `l` has [`STACK_NEEDED`] free slots.
pub unsafe fn order(
    l: *mut ffi::lua_State,
    t: c_int,
    out: c_int,
    names: c_int,
    index_key: c_int,
    limit: u64,
) -> Result<(usize, u64), OverBudget> {
    let mut w = Writer {
        l,
        names,
        index_key,
        units: 0,
        limit,
    };
    let mut bytes = Vec::new();
    // (start, end, position in Lua's own traversal) of each key.
    let mut spans: Vec<(usize, usize, u32)> = Vec::new();
    // SAFETY: the caller's contract; both traversals see the same table
    // in the same state, since nothing between them allocates in Lua (so
    // no collection can clear a weak entry) or runs Lua code.
    unsafe {
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, t) != 0 {
            let top = ffi::lua_gettop(l);
            let start = bytes.len();
            let mut r = w.value(top - 1, 0, &mut bytes);
            // Numbers, strings and booleans are keys once each; keys that
            // are objects may tie, and are then ordered by their values.
            if r.is_ok() && !is_plain(ffi::lua_type(l, top - 1)) {
                r = w.value(top, 0, &mut bytes);
            }
            if let Err(e) = r {
                ffi::lua_settop(l, top - 2);
                return Err(e);
            }
            spans.push((start, bytes.len(), spans.len() as u32));
            ffi::lua_settop(l, top - 1);
        }
        w.spend(sort_units(spans.len()))?;
        // Stable: keys equal in every way keep Lua's order between them.
        spans.sort_by(|a, b| bytes[a.0..a.1].cmp(&bytes[b.0..b.1]));
        let mut rank = vec![0u32; spans.len()];
        for (r, s) in spans.iter().enumerate() {
            rank[s.2 as usize] = r as u32;
        }
        let mut seen = 0;
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, t) != 0 {
            ffi::lua_pop(l, 1);
            let Some(&r) = rank.get(seen) else {
                ffi::lua_pop(l, 1);
                break;
            };
            ffi::lua_pushvalue(l, -1);
            ffi::lua_rawseti(l, out, ffi::lua_Integer::from(r) + 1);
            seen += 1;
        }
        Ok((spans.len(), w.units))
    }
}

fn is_plain(ty: c_int) -> bool {
    matches!(ty, ffi::LUA_TNUMBER | ffi::LUA_TSTRING | ffi::LUA_TBOOLEAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: Number) -> Vec<u8> {
        let mut v = Vec::new();
        number(n, &mut v);
        v
    }

    #[test]
    fn numbers_keep_their_order() {
        use Number::{Float, Int};
        let ordered = [
            num(Float(f64::NEG_INFINITY)),
            num(Int(i64::MIN)),
            num(Float(-1.5)),
            num(Int(-1)),
            num(Float(-0.5)),
            num(Int(0)),
            num(Float(0.5)),
            num(Int(1)),
            num(Int((1 << 53) + 1)),
            num(Float(2f64.powi(60))),
            num(Int((1 << 60) + 1)),
            num(Int(i64::MAX)),
            num(Float(f64::INFINITY)),
        ];
        for w in ordered.windows(2) {
            assert!(w[0] < w[1], "{:?} {:?}", w[0], w[1]);
        }
        assert_eq!(num(Int(3)), num(Float(3.0)));
    }

    #[test]
    fn strings_keep_their_order_and_never_prefix() {
        let s = |b: &[u8]| {
            let mut v = Vec::new();
            string(b, &mut v);
            v
        };
        assert!(s(b"") < s(b"\0"));
        assert!(s(b"a") < s(b"a\0"));
        assert!(s(b"a\0") < s(b"a\x01"));
        assert!(s(b"ab") < s(b"b"));
        assert!(s(b"a\0b") < s(b"a\x01"));
    }
}
