//! Reading a script's returned table: unknown keys with did-you-mean, and
//! the line where a field is written (Lua keeps no line for a table's
//! keys; the source text does). Every game's loader uses these.

use mlua::{Table, Value};

use super::error::ScriptError;

pub fn check_keys(t: &Table, known: &[&str]) -> Result<(), String> {
    // The least unknown key: the one reported must not change between
    // runs (`pairs` order does), and a table of a million junk keys must
    // not become a million strings here.
    let mut least: Option<String> = None;
    for (k, _) in t.pairs::<Value, Value>().flatten() {
        let key = lua_show(&k);
        if !known.contains(&key.as_str()) && least.as_ref().is_none_or(|l| key < *l) {
            least = Some(key);
        }
    }
    match least {
        Some(key) => {
            let hint = crate::diagnostic::hint(&key, known.iter().copied());
            Err(format!("unknown field `{key}`{hint}"))
        }
        None => Ok(()),
    }
}

/// A load error about a field (`unknown field `per_trun``, `` `cost` must
/// be …``) without a line of its own gets the line where the script
/// writes that field: Lua keeps no line for a table's keys, but the
/// source text does. The first backquoted name of the message is the
/// field; its first `name =` (or `["name"] =`) outside a comment is the
/// line. No such line (a missing field): none.
pub fn at_field(mut e: ScriptError, text: &str) -> ScriptError {
    if e.line.is_some() || e.hook != "load" {
        return e;
    }
    let field = e
        .message
        .split('`')
        .nth(1)
        .filter(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
    if let Some(field) = field {
        e.line = key_line(text, field);
    }
    e
}

/// The first line (from 1) where `text` assigns the table field `key`:
/// `key =` with no identifier character before `key`, or `["key"] =`.
pub fn key_line(text: &str, key: &str) -> Option<usize> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for (n, line) in text.lines().enumerate() {
        let code = line.split("--").next().unwrap_or("");
        let bytes = code.as_bytes();
        let mut from = 0;
        while let Some(i) = code[from..].find(key).map(|i| i + from) {
            let before_ok = i == 0 || !ident(bytes[i - 1]);
            let rest = &code[i + key.len()..];
            let after = rest.trim_start();
            let plain = before_ok
                && !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                && after.starts_with('=')
                && !after.starts_with("==");
            let bracketed = i >= 2
                && matches!(&code[i - 2..i], "[\"" | "['")
                && rest
                    .strip_prefix(['"', '\''])
                    .and_then(|r| r.trim_start().strip_prefix(']'))
                    .is_some_and(|r| {
                        r.trim_start().starts_with('=') && !r.trim_start().starts_with("==")
                    });
            if plain || bracketed {
                return Some(n + 1);
            }
            from = i + key.len();
        }
    }
    None
}

/// A key or value as a message shows it.
pub fn lua_show(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string_lossy(),
        Value::Integer(n) => n.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Boolean(b) => b.to_string(),
        other => other.type_name().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_at_their_line() {
        let text = "return {\n  -- per_trun = 1 in a comment\n  cost = 1,\n  per_trun = 2,\n  [\"x_y\"] = 3,\n  a = b == per_turn,\n}\n";
        assert_eq!(key_line(text, "per_trun"), Some(4));
        assert_eq!(key_line(text, "cost"), Some(3));
        assert_eq!(key_line(text, "x_y"), Some(5));
        assert_eq!(key_line(text, "per_turn"), None);
        assert_eq!(key_line(text, "st"), None, "not inside `cost`");
    }
}
