//! Script errors: every failure of a script, at load time or in a hook,
//! becomes one message with file, line, owner (card or variant) and hook.
//! The type is plain data, so a game's rules can hand it to any caller
//! without knowing Lua; reading it out of a Lua error is the host's, here.

/// A failed script: where, whose, which hook, and what happened. Plain
/// data, so a caller of `Ball` can report it without knowing Lua: the
/// commands print it on stderr, the lab counts it, the board logs it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct ScriptError {
    pub file: String,
    pub line: Option<usize>,
    /// `card sprint`, `variant mercy-rule`, `EP table`.
    pub owner: String,
    /// `load`, `targets`, `resolve`, `on_touchdown` …
    pub hook: String,
    pub message: String,
}

impl ScriptError {
    /// `file:line: message (owner, hook `h`)`: one line.
    pub fn render(&self) -> String {
        let at = match self.line {
            Some(l) => format!("{}:{l}", self.file),
            None => self.file.clone(),
        };
        format!(
            "{at}: {} ({}, hook `{}`)",
            self.message, self.owner, self.hook
        )
    }
}

/// The longest message kept: a script can raise a 4 MiB string.
const MAX_MESSAGE: usize = 300;

impl ScriptError {
    /// Builds one from a Lua error, reading its `file:line:` prefix.
    pub fn from_lua(e: &mlua::Error, file: &str, owner: &str, hook: &str) -> ScriptError {
        let text = describe(e);
        let first = text.lines().next().unwrap_or("").trim();
        let (file_found, line, message) = split_location(first);
        // `?` is the location Lua gives when it has none.
        let file_found = file_found.filter(|f| *f != "?" && !f.is_empty());
        ScriptError {
            file: file_found.unwrap_or(file).to_string(),
            line: line.filter(|&l| l > 0),
            owner: owner.to_string(),
            hook: hook.to_string(),
            message: tidy(message),
        }
    }

    /// A problem the kernel found in what a hook returned or did.
    pub fn kernel(file: &str, owner: &str, hook: &str, message: impl Into<String>) -> ScriptError {
        ScriptError {
            file: file.to_string(),
            line: None,
            owner: owner.to_string(),
            hook: hook.to_string(),
            message: tidy(&message.into()),
        }
    }

    pub fn problem(&self) -> crate::diagnostic::Problem {
        crate::diagnostic::Problem::new(
            self.file.clone(),
            self.line,
            format!("{} ({}, hook `{}`)", self.message, self.owner, self.hook),
        )
    }
}

/// The innermost message of a Lua error.
fn describe(e: &mlua::Error) -> String {
    match e {
        mlua::Error::CallbackError { cause, .. } => describe(cause),
        mlua::Error::WithContext { cause, .. } => describe(cause),
        mlua::Error::RuntimeError(m) => m.clone(),
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::MemoryError(_) => format!(
            "memory limit exceeded ({} MiB)",
            super::sandbox::MEMORY_LIMIT / (1024 * 1024)
        ),
        other => other.to_string(),
    }
}

/// A message fit for one line of `check` output, the same on every run:
/// heap addresses (`table: 0x55…`, which differ between runs) become the
/// type alone, control characters are escaped, and a long message is cut.
fn tidy(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4 * MAX_MESSAGE));
    let mut i = 0;
    while i < message.len() && out.chars().count() <= MAX_MESSAGE {
        let rest = &message[i..];
        if let Some(after) = rest.strip_prefix(": 0x") {
            let hex = after.bytes().take_while(u8::is_ascii_hexdigit).count();
            let typed = ["table", "function", "thread", "userdata", "builtin"]
                .into_iter()
                .any(|k| out.ends_with(k));
            if hex > 0 && typed {
                i += 4 + hex;
                continue;
            }
        }
        // A bare address (`string.format("%p", t)`): as long as a pointer.
        if let Some(after) = rest.strip_prefix("0x") {
            let hex = after.bytes().take_while(u8::is_ascii_hexdigit).count();
            if hex >= 8 {
                out.push_str("0x…");
                i += 2 + hex;
                continue;
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
        i += c.len_utf8();
    }
    if out.chars().count() > MAX_MESSAGE {
        out = out.chars().take(MAX_MESSAGE).collect::<String>() + "…";
    }
    out
}

/// `cards/x.lua:12: msg` → (`cards/x.lua`, 12, `msg`). Also skips the
/// `[string "…"]` form some errors carry.
fn split_location(s: &str) -> (Option<&str>, Option<usize>, &str) {
    let mut search = 0;
    while let Some(colon) = s[search..].find(':').map(|i| i + search) {
        let rest = &s[colon + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with(": ") {
            let line = rest[..digits].parse().ok();
            return (Some(&s[..colon]), line, &rest[digits + 2..]);
        }
        search = colon + 1;
    }
    (None, None, s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_the_same_every_run() {
        assert_eq!(
            tidy("bad value table: 0x5588ae5befd0 here"),
            "bad value table here"
        );
        assert_eq!(tidy("a function: 0xdeadbeef"), "a function");
        assert_eq!(tidy("x: 0x1 is hex"), "x: 0x1 is hex");
        assert_eq!(tidy("at 0x55d1c3a0b2f0 now"), "at 0x… now");
        assert_eq!(tidy("two\nlines"), "two\\nlines");
        assert_eq!(tidy(&"x".repeat(1000)).chars().count(), MAX_MESSAGE + 1);
    }

    #[test]
    fn locations_are_read() {
        assert_eq!(
            split_location("cards/x.lua:12: attempt to index a nil value"),
            (
                Some("cards/x.lua"),
                Some(12),
                "attempt to index a nil value"
            )
        );
        assert_eq!(split_location("no location"), (None, None, "no location"));
    }
}
