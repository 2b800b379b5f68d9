//! Script errors: every failure of a script, at load time or in a hook,
//! becomes one message with file, line, owner (card or variant) and hook.

/// A failed script: where, whose, which hook, and what happened.
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
    fn render(&self) -> String {
        let at = match self.line {
            Some(l) => format!("{}:{l}", self.file),
            None => self.file.clone(),
        };
        format!(
            "{at}: {} ({}, hook `{}`)",
            self.message, self.owner, self.hook
        )
    }

    /// Builds one from a Lua error, reading its `file:line:` prefix.
    pub fn from_lua(e: &mlua::Error, file: &str, owner: &str, hook: &str) -> ScriptError {
        let text = describe(e);
        let first = text.lines().next().unwrap_or("").trim();
        let (file_found, line, message) = split_location(first);
        ScriptError {
            file: file_found.unwrap_or(file).to_string(),
            line,
            owner: owner.to_string(),
            hook: hook.to_string(),
            message: message.to_string(),
        }
    }

    /// A problem the kernel found in what a hook returned or did.
    pub fn kernel(file: &str, owner: &str, hook: &str, message: impl Into<String>) -> ScriptError {
        ScriptError {
            file: file.to_string(),
            line: None,
            owner: owner.to_string(),
            hook: hook.to_string(),
            message: message.into(),
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
