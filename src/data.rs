//! Where shipped files are, and which game a ruleset is for: what the
//! command line needs before it knows the game.

use std::path::{Path, PathBuf};

use toml::de::DeTable;

/// The game a ruleset without a `game` key is for.
pub const DEFAULT_GAME: &str = "ball";

/// The path of the ruleset `spec`: a path as given (anything with a `/`
/// or ending in `.toml`), else the shipped `rulesets/NAME.toml`.
pub fn ruleset_path(spec: &str) -> PathBuf {
    if crate::games::ball::ruleset::is_ruleset_path(spec) {
        PathBuf::from(spec)
    } else {
        crate::games::ball::ruleset::data_root()
            .join(crate::games::ball::ruleset::RULESETS_DIR)
            .join(format!("{spec}.toml"))
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
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    v.get("game")?.as_str().map(str::to_string)
}
