//! Where shipped files are, and which game a ruleset is for: what the
//! command line needs before it knows the game.
//!
//! The shipped files are compiled into the binary (`build.rs`) and
//! extracted once into a cache folder named by their hash, so that every
//! reader keeps working on real paths (a designer can open the file an
//! error names) and an installed binary needs nothing beside it.
//! `$BALL_HOME`, when set, is looked in first: a file there adds to the
//! shipped ones, or overrides the shipped file of the same path.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use toml::de::DeTable;

/// The game a ruleset without a `game` key is for.
pub const DEFAULT_GAME: &str = "ball";

/// The path of the ruleset `spec`: a path as given (anything with a `/`
/// or ending in `.toml`), else the shipped `rulesets/NAME.toml`.
pub fn ruleset_path(spec: &str) -> PathBuf {
    if crate::games::ball::ruleset::is_ruleset_path(spec) {
        PathBuf::from(spec)
    } else {
        let rel = format!("{RULESETS_DIR}/{spec}.toml");
        find(&rel).unwrap_or_else(|| embedded_root().join(rel))
    }
}

/// The `game` key of the ruleset `spec` (a shipped name or a path):
/// [`DEFAULT_GAME`] without one, and for a file that cannot be read or
/// parsed (whose problems that game's loader then reports).
pub fn game_of(spec: &str) -> String {
    game_of_file(&ruleset_path(spec))
}

/// The `game` key of the ruleset file at `path` (see [`game_of`]).
pub fn game_of_file(path: &Path) -> String {
    // Bounded, and never a FIFO or a device: the game's loader then names
    // what is wrong with the file.
    let Ok(text) = crate::files::read_text(path, crate::files::MAX_RULESET) else {
        return DEFAULT_GAME.into();
    };
    let (table, _) = DeTable::parse_recoverable(&text);
    table
        .get_ref()
        .get("game")
        .and_then(|v| v.get_ref().as_str())
        .unwrap_or(DEFAULT_GAME)
        .to_string()
}

/// The `game` field of a position's JSON, when it has one that names a
/// game (a position without one is BALL's, but `--game` may say more;
/// a malformed field is left for the game's reader to name).
pub fn game_of_position(text: &str) -> Option<String> {
    let v: serde_json::Value = crate::json_line::parse(text).ok()?;
    v.get("game")?.as_str().map(str::to_string)
}

/// Where shipped rulesets live, under a data root.
pub const RULESETS_DIR: &str = "rulesets";

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// The folders shipped names are looked up in, first match wins:
/// `$BALL_HOME` when set and not empty, then the binary's own copy.
pub fn roots() -> Vec<PathBuf> {
    let mut roots = Vec::with_capacity(2);
    if let Some(home) = std::env::var_os("BALL_HOME").filter(|h| !h.is_empty()) {
        roots.push(PathBuf::from(home));
    }
    roots.push(embedded_root().to_path_buf());
    roots
}

/// The file at `rel` (a `/`-separated path such as `cards/magnet.lua`)
/// under the first root that has it.
pub fn find(rel: &str) -> Option<PathBuf> {
    roots()
        .into_iter()
        .map(|r| r.join(rel))
        .find(|p| p.is_file())
}

/// The stems of the files `DIR/*.EXT` under every root, sorted, each once.
pub fn stems(dir: &str, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = roots()
        .iter()
        .flat_map(|r| {
            std::fs::read_dir(r.join(dir))
                .into_iter()
                .flatten()
                .flatten()
        })
        .filter_map(|e| {
            let path = e.path();
            (path.extension()? == ext && path.is_file()).then_some(())?;
            Some(path.file_stem()?.to_str()?.to_string())
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// How messages name `path`: its path under the root that holds it
/// (`rulesets/cards.toml`), else `fallback` (as the user wrote it).
pub fn display(path: &Path, fallback: &str) -> String {
    let Ok(path) = std::fs::canonicalize(path) else {
        return fallback.to_string();
    };
    roots()
        .iter()
        .filter_map(|root| {
            let root = std::fs::canonicalize(root).ok()?;
            let rel = path.strip_prefix(&root).ok()?;
            let parts: Option<Vec<&str>> =
                rel.components().map(|c| c.as_os_str().to_str()).collect();
            parts.map(|p| p.join("/"))
        })
        .next()
        .unwrap_or_else(|| fallback.to_string())
}

/// The binary's own copy of the shipped files, extracted on first use.
/// When no folder can be written, the source folder the binary was built
/// from (which may still be there) is the last resort, and readers then
/// name whichever file is missing.
pub fn embedded_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        cache_bases()
            .into_iter()
            .find_map(|base| extract(&base).ok())
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
    })
}

/// Where the copy may go, best first: the user's cache, then the
/// system's temporary folder.
fn cache_bases() -> Vec<PathBuf> {
    let mut bases = Vec::new();
    if let Some(xdg) = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        bases.push(PathBuf::from(xdg).join("ball"));
    }
    if let Some(home) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        bases.push(PathBuf::from(home).join(".cache").join("ball"));
    }
    bases.push(std::env::temp_dir().join("ball-data"));
    bases
}

/// The marker written last into a complete copy.
const COMPLETE: &str = ".complete";

/// Extracts the shipped files under `base`, into a folder named by their
/// hash: written whole in a temporary folder and renamed into place, so
/// that a crash or a second process never leaves half a copy in use.
fn extract(base: &Path) -> std::io::Result<PathBuf> {
    let name = format!("data-{}-{:016x}", env!("CARGO_PKG_VERSION"), embedded::HASH);
    let dir = base.join(&name);
    if dir.join(COMPLETE).is_file() {
        return Ok(dir);
    }
    std::fs::create_dir_all(base)?;
    let tmp = base.join(format!("{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let written = (|| {
        for (rel, bytes) in embedded::FILES {
            let path = tmp.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, bytes)?;
        }
        std::fs::write(tmp.join(COMPLETE), b"")
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    // A folder in the way without the marker is no copy of ours (it was
    // made by hand, or emptied): it gives way.
    if dir.exists() && !dir.join(COMPLETE).is_file() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    match std::fs::rename(&tmp, &dir) {
        Ok(()) => Ok(dir),
        // Another process got there first: its copy is the same files.
        Err(_) if dir.join(COMPLETE).is_file() => {
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(dir)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Err(e)
        }
    }
}

/// The names of the shipped rulesets, under every root, sorted.
pub fn shipped_rulesets() -> Vec<String> {
    stems(RULESETS_DIR, "toml")
}

/// The file of the ruleset `spec` for a game's loader: a path (with a `/`
/// or ending in `.toml`) or a shipped name; with how messages name it and
/// the ruleset's name.
pub fn locate_ruleset(spec: &str) -> Result<(PathBuf, String, String), crate::diagnostic::Problem> {
    use crate::diagnostic::{Problem, did_you_mean};
    if spec == "-" {
        return Err(stdin_ruleset());
    }
    if spec.trim().is_empty() {
        return Err(Problem::new(
            "--ruleset",
            None,
            "no ruleset named: give a shipped name or a path",
        ));
    }
    if crate::games::ball::ruleset::is_ruleset_path(spec) {
        let path = PathBuf::from(spec);
        if !path.is_file() {
            return Err(Problem::new(spec, None, "no such ruleset file"));
        }
        let name = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        return Ok((path.clone(), display(&path, spec), name));
    }
    let shown = format!("{RULESETS_DIR}/{spec}.toml");
    let plain = spec
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if plain && let Some(path) = find(&shown) {
        return Ok((path, shown, spec.to_string()));
    }
    let known = shipped_rulesets();
    let hint = match did_you_mean(spec, known.iter().map(String::as_str)) {
        Some(k) => format!("; did you mean `{k}`?"),
        None => format!(" (shipped: {})", known.join(", ")),
    };
    Err(Problem::new(
        spec,
        None,
        format!("no shipped ruleset `{spec}`{hint}"),
    ))
}

/// A game's ruleset file, read: where it is, how messages name it, the
/// ruleset's name and the text.
pub struct RulesetFile {
    pub path: PathBuf,
    pub shown: String,
    pub name: String,
    pub text: String,
}

/// Locates and reads the ruleset `spec` for a game's loader (bounded,
/// and never a FIFO or a device).
pub fn read_ruleset(spec: &str) -> Result<RulesetFile, Vec<crate::diagnostic::Problem>> {
    let (path, shown, name) = locate_ruleset(spec).map_err(|p| vec![p])?;
    let text = crate::files::read_text(&path, crate::files::MAX_RULESET).map_err(|e| {
        vec![crate::diagnostic::Problem::new(
            &shown,
            None,
            format!("cannot read the ruleset: {e}"),
        )]
    })?;
    Ok(RulesetFile {
        path,
        shown,
        name,
        text,
    })
}

/// Why `--ruleset -` is refused: a ruleset names its scripts, courts and
/// parents by paths beside it, and standard input has no "beside".
pub fn stdin_ruleset() -> crate::diagnostic::Problem {
    crate::diagnostic::Problem::new(
        "--ruleset",
        None,
        "`-`: a ruleset is not read from standard input (it names files beside it): give its path",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped file is in the binary, byte for byte.
    #[test]
    fn the_copy_holds_every_shipped_file() {
        let root = embedded_root();
        assert!(root.join(COMPLETE).is_file(), "{}", root.display());
        assert!(embedded::FILES.len() > 20);
        for (rel, bytes) in embedded::FILES {
            assert_eq!(std::fs::read(root.join(rel)).unwrap(), *bytes, "{rel}");
        }
        for rel in [
            "rulesets/standard.toml",
            "cards/magnet.lua",
            "courts/standard.toml",
        ] {
            assert!(embedded::FILES.iter().any(|(r, _)| *r == rel), "{rel}");
        }
    }

    /// A half-written copy (no marker) is never used: it is written again.
    #[test]
    fn an_unfinished_copy_is_replaced() {
        let base = tempfile::tempdir().unwrap();
        let dir = extract(base.path()).unwrap();
        std::fs::remove_file(dir.join(COMPLETE)).unwrap();
        std::fs::remove_file(dir.join("rulesets/standard.toml")).unwrap();
        assert_eq!(extract(base.path()).unwrap(), dir);
        assert!(dir.join("rulesets/standard.toml").is_file());
        assert!(dir.join(COMPLETE).is_file());
    }
}
