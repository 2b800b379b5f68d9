//! Rulesets: which rules a game is played by. A ruleset is a TOML file
//! naming the parameters and, with card mode, the EP table, the variant
//! scripts and each team's cards. The schema is in `docs/rulesets.md`.
//!
//! Every command takes `--ruleset NAME|FILE`; bots, the board and the
//! balance lab build their games from a `Ruleset`, one `Ball` per thread
//! (a game with scripts holds a Lua state, which is not `Send`). That is
//! why a `Ruleset` is plain data — the text of every file it read — and
//! the scripts are compiled only by [`Ruleset::game`].
//!
//! Inheritance follows Fairy-Stockfish's `variants.ini`: a ruleset
//! `extends` a parent and states only what differs. The checker follows
//! Forge's card linter: [`Ruleset::check`] reports *every* problem, each
//! with its file and line, and a "did you mean" for a misspelt key, checked
//! against the keys the loader actually reads (one table, [`PARAM_KEYS`],
//! serves both).
//!
//! **Boundary:** this module reads files (rulesets and the scripts they
//! name) but runs no script itself: problems inside Lua are
//! `crate::games::ball::script`'s, reached through the one call site in
//! [`Ruleset::check`].

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::diagnostic::{Problem, did_you_mean};
use crate::games::ball::Ball;
use crate::games::ball::action::is_card_id;
use crate::games::ball::params::{Params, Verb, Verbs};
use crate::games::ball::piece::Team;
use crate::kernel::hash::fingerprint;
use crate::toml_doc::Doc;

/// The deepest `extends` chain: each file read recurses, and a chain of
/// thousands would overflow the stack. Real chains are two or three deep.
pub const MAX_EXTENDS: usize = 32;

/// Where shipped rulesets live, under the data root.
pub use crate::data::RULESETS_DIR;
/// Where shipped cards live: `cards/<id>.lua`.
pub const CARDS_DIR: &str = "cards";
/// Where shipped variants live: `scripts/variants/<name>.lua`.
pub const VARIANTS_DIR: &str = "scripts/variants";

/// The compiled-in copy of `rulesets/standard.toml`, so that
/// [`Ruleset::standard`] needs no file and cannot fail.
const STANDARD_TOML: &str = include_str!("../../../rulesets/standard.toml");

/// The names of the shipped rulesets (`rulesets/*.toml` under every data
/// root), sorted.
pub fn shipped() -> Vec<String> {
    crate::data::shipped_rulesets()
}

/// The game a ruleset is for: `rulesets/` holds BALL's and Gateball's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Ball,
    Gateball,
}

impl GameKind {
    /// The value of a ruleset's `game` key.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Ball => "ball",
            GameKind::Gateball => "gateball",
        }
    }
}

/// The values a ruleset's top-level `game` key may take.
pub const GAMES: &[&str] = &["ball", "gateball", "gball"];

/// The game of the ruleset `spec` (a shipped name or a path): Gateball
/// when its top-level `game` key is `"gateball"`, else BALL (no `game`
/// key, `game = "ball"`, and files that cannot be read or parsed, whose
/// problems the BALL loader then reports).
pub fn game_of(spec: &str) -> GameKind {
    game_of_file(&crate::data::ruleset_path(spec))
}

/// The game of the ruleset file at `path` (see [`game_of`]).
pub fn game_of_file(path: &Path) -> GameKind {
    // A file that cannot be read (too large, a FIFO) is BALL's to refuse.
    let Ok(text) = crate::files::read_text(path, crate::files::MAX_RULESET) else {
        return GameKind::Ball;
    };
    let (table, _) = DeTable::parse_recoverable(&text);
    match table
        .get_ref()
        .get("game")
        .and_then(|v| v.get_ref().as_str())
    {
        Some("gateball") => GameKind::Gateball,
        _ => GameKind::Ball,
    }
}

/// Whether the ruleset `spec` is a G-ball one (`game = "gball"`). Kept
/// apart from [`GameKind`], whose two values the command line matches on,
/// until the command line dispatches by game name.
pub fn is_gball(spec: &str) -> bool {
    crate::games::gball::ruleset::is_gball_file(&crate::data::ruleset_path(spec))
}

/// Why a BALL command cannot use a G-ball ruleset.
fn gball_problem(spec: &str) -> String {
    format!(
        "`{spec}` is a G-ball ruleset (`game = \"gball\"`); BALL cannot play it: \
use `ball new --game gball --ruleset {spec}`"
    )
}

/// Why a BALL command cannot use a Gateball ruleset.
fn gateball_problem(spec: &str) -> String {
    format!(
        "`{spec}` is a Gateball ruleset (`game = \"gateball\"`); BALL cannot play it: \
use `ball new --game gateball --ruleset {spec}` (`ball check --ruleset {spec}` checks it)"
    )
}

/// A script file of a ruleset: its path as messages show it, and its text.
pub use crate::script::variants::Source as ScriptSource;

/// A loaded, validated ruleset. Plain data: `Clone + Send`, and every
/// script is held as text, so the fingerprint covers exactly what runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruleset {
    pub name: String,
    /// One line; empty when the ruleset gives none.
    pub description: String,
    /// The ruleset file as shown in messages (`rulesets/cards.toml`).
    pub file: String,
    pub params: Params,
    /// B11: card mode on (EP, `convert`, `card …`).
    pub card_mode: bool,
    /// B11.3: the EP table script.
    pub ep_table: Option<ScriptSource>,
    /// Variant scripts, in the order listed.
    pub variants: Vec<ScriptSource>,
    /// B11.9: each coach's cards, by `Team as usize` (ATK 0, DEF 1).
    pub cards: [Vec<ScriptSource>; 2],
    /// The ruleset files read, base of the `extends` chain first.
    pub files: Vec<ScriptSource>,
    /// Where each variant option the files set (`[options]`) was set, to
    /// point at the line when no variant declares it.
    pub options_at: Vec<(String, Problem)>,
}

/// Why a ruleset could not be loaded: one line, naming the first problem
/// (`ball check` lists them all).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ruleset `{name}`: {problem}")]
pub struct RulesetError {
    pub name: String,
    pub problem: String,
}

impl Ruleset {
    /// `docs/rules/ball.md` as decided, with the B12 defaults: the compiled-in copy
    /// of `rulesets/standard.toml` (so it is equal to
    /// `Ruleset::load("standard")` while the shipped file is unchanged).
    pub fn standard() -> Ruleset {
        let mut loader = Loader::new();
        let file = Located {
            path: PathBuf::from(format!("{RULESETS_DIR}/standard.toml")),
            display: format!("{RULESETS_DIR}/standard.toml"),
            shipped: Some("standard".into()),
        };
        let merged = loader.layer(&file, STANDARD_TOML.to_string(), 0);
        let (ruleset, problems) = loader.finish(file.display, merged);
        if problems.is_empty() {
            ruleset
        } else {
            // Unreachable while `tests::standard_is_clean` passes; the
            // plain defaults are the same rules.
            Ruleset {
                name: "standard".into(),
                description: String::new(),
                file: format!("{RULESETS_DIR}/standard.toml"),
                params: Params::default(),
                card_mode: false,
                ep_table: None,
                variants: Vec::new(),
                cards: [Vec::new(), Vec::new()],
                files: Vec::new(),
                options_at: Vec::new(),
            }
        }
    }

    /// Loads a ruleset by name (shipped: `rulesets/NAME.toml` under the
    /// data root) or by path (anything with a `/` or ending in `.toml`),
    /// with its `extends` chain and every script it names. Fails on the
    /// first problem `check` would report (scripts' own problems aside:
    /// those surface when [`Ruleset::game`] compiles them).
    pub fn load(spec: &str) -> Result<Ruleset, RulesetError> {
        if game_of(spec) == GameKind::Gateball {
            return Err(RulesetError {
                name: spec.to_string(),
                problem: gateball_problem(spec),
            });
        }
        if is_gball(spec) {
            return Err(RulesetError {
                name: spec.to_string(),
                problem: gball_problem(spec),
            });
        }
        let (mut ruleset, mut problems) = Loader::new().run(spec);
        if problems.is_empty() {
            // The scripts are compiled once here: a broken script fails the
            // load, and the variants' parameters become the ruleset's.
            match crate::games::ball::script::prepare(&ruleset) {
                Ok(prepared) => {
                    problems.extend(undeclared_options(&ruleset, &prepared.params));
                    ruleset.params = prepared.params;
                }
                Err(errors) => problems.extend(errors.iter().map(|e| e.problem())),
            }
        }
        match problems.split_first() {
            None => Ok(ruleset),
            Some((first, rest)) => Err(RulesetError {
                name: spec.to_string(),
                problem: if first.file == spec && first.line.is_none() {
                    // The ruleset itself is missing: `ruleset `x`: x: …`
                    // would say its name twice.
                    first.message.clone()
                } else if rest.is_empty() {
                    first.to_string()
                } else {
                    format!(
                        "{first} (and {} more: `ball check --ruleset {spec}` lists them)",
                        rest.len()
                    )
                },
            }),
        }
    }

    /// Every problem of the ruleset `spec` (name or path) and of the files
    /// it names, each with file and line, in file order then line order.
    /// Empty when the ruleset is clean.
    /// A Gateball ruleset gives the one problem that it is one
    /// (`crate::games::gateball::ruleset::check` checks it).
    pub fn check(spec: &str) -> Vec<Problem> {
        if game_of(spec) == GameKind::Gateball {
            return vec![Problem::new(spec, None, gateball_problem(spec))];
        }
        if is_gball(spec) {
            return vec![Problem::new(spec, None, gball_problem(spec))];
        }
        let (ruleset, mut problems) = Loader::new().run(spec);
        // Problems inside the Lua scripts (syntax, fields, hooks) are the
        // script layer's. The best-effort `ruleset` holds every script that
        // could be read, even when the TOML has problems.
        problems.extend(crate::games::ball::script::check_scripts(&ruleset));
        if let Ok(prepared) = crate::games::ball::script::prepare(&ruleset) {
            problems.extend(undeclared_options(&ruleset, &prepared.params));
        }
        dedup(&mut problems);
        problems
    }

    /// 16 hex digits that change whenever anything the rules depend on
    /// changes: match records carry it to detect stale replays, and the
    /// shards of one run must agree on it. FNV-1a over each file's role
    /// and *text*, in a fixed order: the ruleset files (base first), the
    /// EP table, the variants, ATK's cards, DEF's. Paths are left out: the
    /// same files named as `cards`, `rulesets/cards.toml` or by an
    /// absolute path are one ruleset, and a record made under one spelling
    /// must replay under another (docs/decisions.md, "a ruleset's
    /// fingerprint"). What a path decides is in the texts already: a card's
    /// id must equal its file name (the loader checks it against the
    /// card's `id` field), a variant is named by its `name` field, and the
    /// files a ruleset lists are each hashed by their own text.
    pub fn fingerprint(&self) -> String {
        let mut bytes = Vec::new();
        let mut put = |part: &[u8]| {
            bytes.extend_from_slice(&(part.len() as u64).to_le_bytes());
            bytes.extend_from_slice(part);
        };
        // The role of each file: moving a script from one list to another
        // changes the rules even when no text changes.
        let roles: [(&str, Vec<&ScriptSource>); 5] = [
            ("ruleset", self.files.iter().collect()),
            ("ep_table", self.ep_table.iter().collect()),
            ("variant", self.variants.iter().collect()),
            ("card ATK", self.cards[Team::Atk as usize].iter().collect()),
            ("card DEF", self.cards[Team::Def as usize].iter().collect()),
        ];
        for (role, sources) in roles {
            put(role.as_bytes());
            put(&(sources.len() as u64).to_le_bytes());
            for s in sources {
                put(s.text.as_bytes());
            }
        }
        fingerprint(&bytes)
    }

    /// A fresh game under this ruleset: native when no script must run
    /// during play, else with a script host of its own (not `Send`: build
    /// one per thread). [`Ruleset::load`] already built these scripts
    /// once, so building them again from the same text cannot fail; if it
    /// somehow did, the game falls back to the ruleset's parameters alone.
    pub fn game(&self) -> Ball {
        crate::games::ball::script::game(self).unwrap_or_else(|_| Ball::new(self.params.clone()))
    }

    /// The ruleset's effective values after inheritance, as TOML (what
    /// `ball check --print` shows). Script paths are as in messages.
    pub fn to_toml(&self) -> String {
        let q = |s: &str| toml_string(s);
        let list = |v: &[ScriptSource]| {
            let items: Vec<String> = v.iter().map(|s| q(&s.path)).collect();
            format!("[{}]", items.join(", "))
        };
        let mut out = format!("name = {}\n", q(&self.name));
        if !self.description.is_empty() {
            out.push_str(&format!("description = {}\n", q(&self.description)));
        }
        out.push_str(&format!("card_mode = {}\n", self.card_mode));
        if let Some(ep) = &self.ep_table {
            out.push_str(&format!("ep_table = {}\n", q(&ep.path)));
        }
        out.push_str(&format!("variants = {}\n", list(&self.variants)));
        out.push_str("\n[params]\n");
        out.push_str(&params_toml(&self.params));
        out.push_str("\n[cards]\n");
        for team in Team::BOTH {
            out.push_str(&format!(
                "{} = {}\n",
                team.name(),
                list(&self.cards[team as usize])
            ));
        }
        out
    }
}

// ------------------------------------------------------------------ keys

/// The type and range of a `[params]` key.
#[derive(Clone, Copy, Debug)]
pub enum ParamKind {
    /// An integer in `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    Bool,
    /// An array of verb names (`forbid`).
    Verbs,
}

/// Every key of `[params]`: the one list the loader reads and the checker
/// suggests from. The ranges keep the engine's tables and counters sound:
/// distances stop at 16 (the board's longest Chebyshev distance), an end
/// zone must leave the board a middle (17 rows), and a zero AP, turn limit
/// or touchdown target would end games before they start.
pub const PARAM_KEYS: &[(&str, ParamKind)] = &[
    ("ap_per_turn", ParamKind::Int { min: 1, max: 10 }),
    ("end_zone_depth", ParamKind::Int { min: 1, max: 7 }),
    ("touchdowns_to_win", ParamKind::Int { min: 1, max: 99 }),
    ("turn_limit", ParamKind::Int { min: 1, max: 999 }),
    ("short_pass_range", ParamKind::Int { min: 1, max: 16 }),
    ("long_pass_min_distance", ParamKind::Int { min: 0, max: 16 }),
    ("long_pass_max_distance", ParamKind::Int { min: 1, max: 16 }),
    ("handoff_network", ParamKind::Bool),
    ("short_pass_loose", ParamKind::Bool),
    ("stack_top_takes_ball", ParamKind::Bool),
    ("keep_choice_needs_top", ParamKind::Bool),
    ("forbid", ParamKind::Verbs),
];

/// The top-level keys of a ruleset file.
const TOP_KEYS: &[&str] = &[
    "game",
    "name",
    "description",
    "extends",
    "card_mode",
    "ep_table",
    "variants",
    "params",
    "cards",
    "options",
];

/// Verbs a ruleset may not forbid: without them a game can stall.
const UNFORBIDDABLE: &[(Verb, &str)] = &[
    (Verb::End, "a turn could never end"),
    (Verb::StandUp, "release-phase tasks are mandatory (B10.1)"),
    (Verb::Release, "release-phase tasks are mandatory (B10.1)"),
];

/// One value of a `[params]` key, checked against its kind.
enum ParamValue {
    Int(i64),
    Bool(bool),
    Verbs(Verbs),
}

/// Sets one parameter. The exhaustive `match` on [`PARAM_KEYS`]' names
/// and [`params_toml`]'s exhaustive destructuring make a new `Params`
/// field a compile error or a test failure until it has a key.
fn set_param(params: &mut Params, key: &str, value: ParamValue) {
    let int = |v: &ParamValue| match v {
        ParamValue::Int(n) => *n,
        _ => 0,
    };
    let flag = |v: &ParamValue| matches!(v, ParamValue::Bool(true));
    // Ranges were checked against PARAM_KEYS: the casts cannot truncate.
    match key {
        "ap_per_turn" => params.ap_per_turn = int(&value) as u8,
        "end_zone_depth" => params.end_zone_depth = int(&value) as u8,
        "touchdowns_to_win" => params.touchdowns_to_win = int(&value) as u8,
        "turn_limit" => params.turn_limit = int(&value) as u16,
        "short_pass_range" => params.short_pass_range = int(&value) as u8,
        "long_pass_min_distance" => params.long_pass_min_distance = int(&value) as u8,
        "long_pass_max_distance" => params.long_pass_max_distance = Some(int(&value) as u8),
        "handoff_network" => params.handoff_network = flag(&value),
        "short_pass_loose" => params.short_pass_loose = flag(&value),
        "stack_top_takes_ball" => params.stack_top_takes_ball = flag(&value),
        "keep_choice_needs_top" => params.keep_choice_needs_top = flag(&value),
        "forbid" => {
            if let ParamValue::Verbs(v) = value {
                params.forbidden = v;
            }
        }
        _ => {}
    }
}

/// A parameter's value as a script gives it (a variant's `params = {…}`).
#[derive(Clone, Copy, Debug)]
pub enum ScriptParam {
    Int(i64),
    Bool(bool),
    /// Anything else: its Lua type name, for the message.
    Other(&'static str),
}

/// Sets one parameter a script gives, with exactly the ranges of a
/// ruleset file's `[params]` ([`PARAM_KEYS`]): a variant may set only what
/// `check` would accept in TOML, so `check --print` always prints a
/// ruleset `check` accepts.
pub fn set_script_param(params: &mut Params, key: &str, value: ScriptParam) -> Result<(), String> {
    let Some(&(name, kind)) = PARAM_KEYS.iter().find(|(p, _)| *p == key) else {
        return Err(unknown(
            "parameter",
            key,
            PARAM_KEYS.iter().map(|(p, _)| *p),
        ));
    };
    let parsed = match (kind, value) {
        (ParamKind::Int { min, max }, ScriptParam::Int(n)) if (min..=max).contains(&n) => {
            ParamValue::Int(n)
        }
        (ParamKind::Int { min, max }, ScriptParam::Int(n)) => {
            return Err(format!(
                "parameter `{key}` = {n} is out of range {min}..={max}"
            ));
        }
        (ParamKind::Int { min, max }, _) => {
            return Err(format!(
                "parameter `{key}` must be a whole number from {min} to {max}"
            ));
        }
        (ParamKind::Bool, ScriptParam::Bool(b)) => ParamValue::Bool(b),
        (ParamKind::Bool, _) => return Err(format!("parameter `{key}` must be true or false")),
        (ParamKind::Verbs, _) => {
            return Err(format!(
                "`{key}` is not a parameter of `params` in a variant: list the verbs in the variant's own `forbid`"
            ));
        }
    };
    set_param(params, name, parsed);
    Ok(())
}

/// What the parameters say together that no single range can: checked
/// after every ruleset file and after every variant.
pub fn params_problem(params: &Params) -> Option<String> {
    match params.long_pass_max_distance {
        Some(max) if max < params.long_pass_min_distance => Some(format!(
            "long_pass_max_distance {max} is below long_pass_min_distance {}: \
no long pass could ever be legal",
            params.long_pass_min_distance
        )),
        _ => None,
    }
}

/// The `[params]` lines of `params`, every key (the body of
/// `rulesets/standard.toml` for the defaults).
pub fn params_toml(params: &Params) -> String {
    let Params {
        ap_per_turn,
        end_zone_depth,
        touchdowns_to_win,
        turn_limit,
        short_pass_range,
        long_pass_min_distance,
        long_pass_max_distance,
        handoff_network,
        short_pass_loose,
        stack_top_takes_ball,
        keep_choice_needs_top,
        forbidden,
        setup: _,        // B3.1 is not a ruleset parameter yet.
        scripted_end: _, // the script host's, not a key
        layout: _,
    } = params;
    let forbid: Vec<String> = Verb::ALL
        .into_iter()
        .filter(|v| forbidden.contains(*v))
        .map(|v| toml_string(v.name()))
        .collect();
    let mut out = format!(
        "ap_per_turn = {ap_per_turn}\nend_zone_depth = {end_zone_depth}\n\
touchdowns_to_win = {touchdowns_to_win}\nturn_limit = {turn_limit}\n\
short_pass_range = {short_pass_range}\nlong_pass_min_distance = {long_pass_min_distance}\n"
    );
    match long_pass_max_distance {
        Some(max) => out.push_str(&format!("long_pass_max_distance = {max}\n")),
        None => out.push_str("# long_pass_max_distance: none\n"),
    }
    out.push_str(&format!(
        "handoff_network = {handoff_network}\nshort_pass_loose = {short_pass_loose}\n\
stack_top_takes_ball = {stack_top_takes_ball}\nkeep_choice_needs_top = {keep_choice_needs_top}\n\
forbid = [{}]\n",
        forbid.join(", ")
    ));
    out
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// ---------------------------------------------------------------- loader

/// A ruleset file to read: where it is and how messages name it.
#[derive(Clone, Debug)]
struct Located {
    path: PathBuf,
    display: String,
    /// The shipped name, when found as `rulesets/NAME.toml` under the
    /// data root: its `name` must be NAME.
    shipped: Option<String>,
}

/// Where a value was stated: `level` 0 is the file being loaded, 1 its
/// parent, and so on (a problem that two values make together is reported
/// at the one nearer the file being loaded).
#[derive(Clone, Debug)]
struct Origin {
    file: String,
    line: usize,
    level: usize,
}

/// A script a ruleset names, resolved. `path` is `None` when the file was
/// not found (a problem is already recorded).
#[derive(Clone, Debug)]
struct ScriptRef {
    display: String,
    path: Option<PathBuf>,
    origin: Origin,
}

/// The values of a ruleset file with its ancestors', merged.
#[derive(Clone, Debug, Default)]
struct Merged {
    name: Option<String>,
    description: String,
    params: Params,
    param_origin: BTreeMap<&'static str, Origin>,
    card_mode: bool,
    card_mode_origin: Option<Origin>,
    ep_table: Option<ScriptRef>,
    variants: Vec<ScriptRef>,
    cards: [Vec<ScriptRef>; 2],
    cards_origin: [Option<Origin>; 2],
    options_at: Vec<(String, Problem)>,
}

/// One ruleset file being read: its text for line numbers, its directory
/// for relative paths, and its problems.
struct FileCtx<'t> {
    /// The file's text, its problems and its syntax errors.
    doc: Doc<'t>,
    dir: PathBuf,
    level: usize,
}

impl FileCtx<'_> {
    fn line(&self, offset: usize) -> usize {
        self.doc.line(offset)
    }

    fn problem(&mut self, offset: usize, message: impl Into<String>) {
        self.doc.problem(offset, message);
    }

    fn origin(&self, offset: usize) -> Origin {
        Origin {
            file: self.doc.file.clone(),
            line: self.line(offset),
            level: self.level,
        }
    }
}

/// Reads a ruleset, its `extends` chain and its scripts, collecting every
/// problem instead of stopping at the first.
struct Loader {
    /// Problems of every file, in the order the files were read.
    problems: Vec<Problem>,
    /// The ruleset files read, base first.
    files: Vec<ScriptSource>,
    /// The canonical paths of the files being read, child first: a file
    /// met again is an `extends` cycle.
    stack: Vec<(PathBuf, String)>,
}

impl Loader {
    fn new() -> Loader {
        Loader {
            problems: Vec::new(),
            files: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// Loads `spec` (name or path): the best-effort ruleset and every
    /// problem.
    fn run(mut self, spec: &str) -> (Ruleset, Vec<Problem>) {
        let file = match self.locate_top(spec) {
            Ok(file) => file,
            Err(problem) => {
                let (mut ruleset, _) = self.finish(spec.to_string(), Merged::default());
                ruleset.name = spec.to_string();
                return (ruleset, vec![problem]);
            }
        };
        let merged = match crate::files::read_text(&file.path, crate::files::MAX_RULESET) {
            Ok(text) => self.file(&file, text, 0),
            Err(reason) => {
                self.problems.push(Problem::new(
                    &file.display,
                    None,
                    format!("cannot read the ruleset: {reason}"),
                ));
                Merged::default()
            }
        };
        self.finish(file.display, merged)
    }

    /// The top-level file of `spec`, or why there is none.
    fn locate_top(&self, spec: &str) -> Result<Located, Problem> {
        if spec == "-" {
            return Err(crate::data::stdin_ruleset());
        }
        if spec.trim().is_empty() {
            return Err(Problem::new(
                "--ruleset",
                None,
                "no ruleset named: give a shipped name or a path",
            ));
        }
        if is_ruleset_path(spec) {
            let path = PathBuf::from(spec);
            if !path.exists() {
                return Err(Problem::new(spec, None, "no such ruleset file"));
            }
            if let Err(reason) = crate::files::regular_file(&path) {
                return Err(Problem::new(
                    spec,
                    None,
                    format!("cannot read the ruleset: {reason}"),
                ));
            }
            let shipped = self.shipped_name(&path);
            return Ok(Located {
                display: self.display(&path, spec),
                path,
                shipped,
            });
        }
        self.locate_shipped(spec)
            .map_err(|m| Problem::new(spec, None, m))
    }

    /// `rulesets/NAME.toml` under the data root, or why not.
    fn locate_shipped(&self, name: &str) -> Result<Located, String> {
        let display = format!("{RULESETS_DIR}/{name}.toml");
        if is_card_id(name)
            && let Some(path) = crate::data::find(&display)
        {
            return Ok(Located {
                path,
                display,
                shipped: Some(name.to_string()),
            });
        }
        let known = crate::data::stems(RULESETS_DIR, "toml");
        let hint = match did_you_mean(name, known.iter().map(String::as_str)) {
            Some(k) => format!("; did you mean `{k}`?"),
            None => format!(" (shipped: {})", known.join(", ")),
        };
        Err(format!("no shipped ruleset `{name}`{hint}"))
    }

    /// The shipped name of a ruleset file given by path, when it is one.
    fn shipped_name(&self, path: &Path) -> Option<String> {
        let shown = crate::data::display(path, "");
        let stem = shown.strip_prefix(RULESETS_DIR)?.strip_prefix('/')?;
        let name = stem.strip_suffix(".toml")?;
        (!name.contains('/')).then(|| name.to_string())
    }

    /// How messages name `path`: relative to the data root when under it,
    /// else `fallback` (the path as the user would write it).
    fn display(&self, path: &Path, fallback: &str) -> String {
        crate::data::display(path, fallback)
    }

    /// Reads one ruleset file (its text already read) and its ancestors:
    /// the merged values, with problems recorded.
    fn file(&mut self, file: &Located, text: String, level: usize) -> Merged {
        let canonical = std::fs::canonicalize(&file.path).unwrap_or_else(|_| file.path.clone());
        self.stack.push((canonical, file.display.clone()));
        let merged = self.layer(file, text, level);
        self.stack.pop();
        merged
    }

    /// Parses and checks one file's text, reads its parent, and applies
    /// this file's values over the parent's.
    fn layer(&mut self, file: &Located, text: String, level: usize) -> Merged {
        let dir = file
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let (doc, table) = Doc::parse(&file.display, &text);
        let syntax_ok = doc.syntax_ok();
        let mut ctx = FileCtx { doc, dir, level };

        // The parent first: this file's values go over it.
        let mut merged = match table.get("extends") {
            Some(v) => self.parent(&mut ctx, v, level),
            None => Merged::default(),
        };
        apply_layer(self, &mut ctx, &table, &mut merged, syntax_ok);

        if let Some(shipped) = &file.shipped
            && let Some(name) = table.get("name").and_then(|v| v.get_ref().as_str())
            && name != shipped
        {
            let offset = table.get("name").map_or(0, |v| v.span().start);
            ctx.problem(
                offset,
                format!(
                    "a shipped ruleset's name must be its file name: `{shipped}`, not `{name}`"
                ),
            );
        }

        // This file's problems go before its ancestors' (recorded while
        // reading `extends`): the file being checked is listed first.
        let mut problems = ctx.doc.finish();
        problems.append(&mut self.problems);
        self.problems = problems;
        self.files.push(ScriptSource {
            path: file.display.clone(),
            text,
        });
        merged
    }

    /// Resolves and reads the parent named by `extends`.
    fn parent(&mut self, ctx: &mut FileCtx, value: &Spanned<DeValue>, level: usize) -> Merged {
        let offset = value.span().start;
        let Some(spec) = value.get_ref().as_str() else {
            ctx.problem(
                offset,
                format!(
                    "`extends` must be a string (a shipped ruleset's name or a path), found {}",
                    type_name(value.get_ref())
                ),
            );
            return Merged::default();
        };
        let located = if is_ruleset_path(spec) {
            let path = ctx.dir.join(spec);
            if path.is_file() {
                let fallback = join_display(&ctx.doc.file, spec);
                Ok(Located {
                    shipped: self.shipped_name(&path),
                    display: self.display(&path, &fallback),
                    path,
                })
            } else if let (true, Err(what)) = (path.exists(), crate::files::regular_file(&path)) {
                // A FIFO, a device or a folder: say what it is, not "no such file".
                Err(format!("extends `{spec}`: {what}"))
            } else {
                Err(format!(
                    "extends `{spec}`: no such file (paths are relative to this file)"
                ))
            }
        } else {
            self.locate_shipped(spec)
                .map_err(|m| format!("extends `{spec}`: {m}"))
        };
        let located = match located {
            Ok(l) => l,
            Err(m) => {
                ctx.problem(offset, m);
                return Merged::default();
            }
        };
        if game_of_file(&located.path) == GameKind::Gateball {
            ctx.problem(
                offset,
                format!("extends `{spec}`: a Gateball ruleset; a BALL ruleset extends only BALL rulesets"),
            );
            return Merged::default();
        }
        if level + 1 >= MAX_EXTENDS {
            ctx.problem(
                offset,
                format!(
                    "extends `{spec}`: the `extends` chain is more than {MAX_EXTENDS} files deep"
                ),
            );
            return Merged::default();
        }
        let canonical =
            std::fs::canonicalize(&located.path).unwrap_or_else(|_| located.path.clone());
        if let Some(i) = self.stack.iter().position(|(p, _)| *p == canonical) {
            let mut cycle: Vec<&str> = self.stack[i..].iter().map(|(_, d)| d.as_str()).collect();
            cycle.push(&self.stack[i].1);
            ctx.problem(offset, format!("extends cycle: {}", cycle.join(" → ")));
            return Merged::default();
        }
        match crate::files::read_text(&located.path, crate::files::MAX_RULESET) {
            Ok(text) => self.file(&located, text, level + 1),
            Err(reason) => {
                ctx.problem(
                    offset,
                    format!(
                        "extends `{spec}`: cannot read {}: {reason}",
                        located.display
                    ),
                );
                Merged::default()
            }
        }
    }

    /// Finds a script a ruleset names. `Card` and `Variant` entries are
    /// shipped names unless they look like a path; paths are looked up
    /// relative to the ruleset file, then to the data root.
    fn script(&self, ctx: &mut FileCtx, kind: ScriptKind, entry: &str, offset: usize) -> ScriptRef {
        let origin = ctx.origin(offset);
        let missing = |display: String| ScriptRef {
            display,
            path: None,
            origin: origin.clone(),
        };
        let what = kind.what();
        if kind != ScriptKind::EpTable && !is_script_path(entry) {
            if !is_card_id(entry) {
                ctx.problem(
                    offset,
                    format!(
                        "`{entry}` is not a {what} name (lower-case letters, digits, `_`, `-`) \
or a path (with a `/` or ending in `.lua`)"
                    ),
                );
                return missing(entry.to_string());
            }
            let dir = kind.shipped_dir();
            let display = format!("{dir}/{entry}.lua");
            if let Some(path) = crate::data::find(&display) {
                return ScriptRef {
                    display,
                    path: Some(path),
                    origin,
                };
            }
            let known = crate::data::stems(dir, "lua");
            let hint = match did_you_mean(entry, known.iter().map(String::as_str)) {
                Some(k) => format!("; did you mean `{k}`?"),
                None => String::new(),
            };
            ctx.problem(
                offset,
                format!("{what} `{entry}` not found: no file {display}{hint}"),
            );
            return missing(display);
        }
        if entry.trim().is_empty() {
            ctx.problem(offset, format!("the {what} path is empty"));
            return missing(String::new());
        }
        let beside = ctx.dir.join(entry);
        let shipped = crate::data::find(entry).unwrap_or_default();
        let candidates = [
            (beside, join_display(&ctx.doc.file, entry)),
            (shipped, entry.to_string()),
        ];
        for (path, fallback) in candidates {
            if !path.as_os_str().is_empty() && path.is_file() {
                return ScriptRef {
                    display: self.display(&path, &fallback),
                    path: Some(path),
                    origin,
                };
            }
        }
        // There but not a file (a FIFO, a device, a folder): say what it is.
        let beside = ctx.dir.join(entry);
        if let (true, Err(is)) = (beside.exists(), crate::files::regular_file(&beside)) {
            ctx.problem(offset, format!("{what} file `{entry}`: {is}"));
            return missing(entry.to_string());
        }
        ctx.problem(
            offset,
            format!(
                "{what} file `{entry}` not found (looked beside {} and among the shipped files)",
                ctx.doc.file,
            ),
        );
        missing(entry.to_string())
    }

    /// Reads the final scripts, checks what the merged values say
    /// together, and builds the ruleset.
    fn finish(mut self, file: String, merged: Merged) -> (Ruleset, Vec<Problem>) {
        let mut late = Vec::new();
        let mut cache: BTreeMap<PathBuf, Option<String>> = BTreeMap::new();
        let mut read = |r: &ScriptRef, late: &mut Vec<Problem>| -> Option<ScriptSource> {
            let path = r.path.as_ref()?;
            let text = cache
                .entry(path.clone())
                .or_insert_with(
                    || match crate::files::read_text(path, crate::files::MAX_SCRIPT) {
                        Ok(t) => Some(t),
                        Err(reason) => {
                            late.push(Problem::new(
                                &r.origin.file,
                                Some(r.origin.line),
                                format!("cannot read {}: {reason}", r.display),
                            ));
                            None
                        }
                    },
                )
                .clone()?;
            Some(ScriptSource {
                path: r.display.clone(),
                text,
            })
        };
        let ep_table = merged.ep_table.as_ref().and_then(|r| read(r, &mut late));
        let variants = merged
            .variants
            .iter()
            .filter_map(|r| read(r, &mut late))
            .collect();
        let cards = [0, 1].map(|t| {
            merged.cards[t]
                .iter()
                .filter_map(|r| read(r, &mut late))
                .collect::<Vec<_>>()
        });

        // What the values say together.
        let has_cards = merged.cards.iter().any(|c| !c.is_empty());
        if has_cards && !merged.card_mode {
            let cards_at = (0..2)
                .filter(|&t| !merged.cards[t].is_empty())
                .filter_map(|t| merged.cards_origin[t].as_ref())
                .min_by_key(|o| o.level);
            let at = match (&merged.card_mode_origin, cards_at) {
                (Some(m), Some(c)) if m.level < c.level => Some(m),
                (_, Some(c)) => Some(c),
                (m, None) => m.as_ref(),
            };
            if let Some(at) = at {
                late.push(Problem::new(
                    &at.file,
                    Some(at.line),
                    "[cards] lists cards but card_mode is off, so they can never be played: \
set `card_mode = true` or remove [cards]",
                ));
            }
        }
        if let Some(message) = params_problem(&merged.params) {
            let at = [
                merged.param_origin.get("long_pass_max_distance"),
                merged.param_origin.get("long_pass_min_distance"),
            ]
            .into_iter()
            .flatten()
            .min_by_key(|o| o.level);
            if let Some(at) = at {
                late.push(Problem::new(&at.file, Some(at.line), message));
            }
        }
        let mut problems = std::mem::take(&mut self.problems);
        problems.extend(late);
        // Files in reading order, then lines within each file.
        let order: std::collections::HashMap<String, usize> = {
            let mut seen = std::collections::HashMap::new();
            for p in &problems {
                let next = seen.len();
                seen.entry(p.file.clone()).or_insert(next);
            }
            seen
        };
        problems.sort_by_key(|p| (order.get(&p.file).copied(), p.line));

        // `layer` pushes a file after its parent: base first already.
        let files = std::mem::take(&mut self.files);
        let ruleset = Ruleset {
            name: merged.name.unwrap_or_default(),
            description: merged.description,
            file,
            params: merged.params,
            card_mode: merged.card_mode,
            ep_table,
            variants,
            cards,
            files,
            options_at: merged.options_at,
        };
        (ruleset, problems)
    }
}

/// The kinds of script a ruleset names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ScriptKind {
    Card,
    Variant,
    EpTable,
}

impl ScriptKind {
    fn what(self) -> &'static str {
        match self {
            ScriptKind::Card => "card",
            ScriptKind::Variant => "variant",
            ScriptKind::EpTable => "EP table",
        }
    }

    fn shipped_dir(self) -> &'static str {
        match self {
            ScriptKind::Card => CARDS_DIR,
            _ => VARIANTS_DIR,
        }
    }
}

/// Checks one file's keys and applies its values over `merged` (its
/// parent's values). `syntax_ok` is false when the TOML had syntax errors:
/// a missing `name` may then be a broken line, and is not reported.
fn apply_layer(
    loader: &Loader,
    ctx: &mut FileCtx,
    table: &DeTable,
    merged: &mut Merged,
    syntax_ok: bool,
) {
    let level = ctx.level;
    let mut name_seen = false;
    for (key, value) in table.iter() {
        let k = key.get_ref().as_ref();
        let at = value.span().start;
        let v = value.get_ref();
        match k {
            "name" => {
                name_seen = true;
                if let Some(s) = ctx.doc.string(k, value) {
                    if s.trim().is_empty() {
                        ctx.problem(at, "`name` is empty");
                    } else if s.len() > 64 || s.chars().any(char::is_control) {
                        ctx.problem(at, "`name` must be one line of at most 64 characters");
                    } else if level == 0 {
                        merged.name = Some(s.to_string());
                    }
                }
            }
            "description" => {
                if let Some(s) = ctx.doc.string(k, value) {
                    if s.chars().any(char::is_control) {
                        ctx.problem(at, "`description` must be one line");
                    }
                    merged.description = s.to_string();
                }
            }
            "extends" => {} // read first, by `Loader::parent`
            "game" => {
                // `game_of` routed Gateball rulesets away before loading;
                // one met here is a parent or a file given some other way.
                if let Some(g) = ctx.doc.string(k, value) {
                    match g {
                        "ball" => {}
                        "gateball" => ctx.problem(
                            at,
                            "`game = \"gateball\"`: a Gateball ruleset, which BALL cannot load",
                        ),
                        _ => ctx.problem(at, unknown("game", g, GAMES.iter().copied())),
                    }
                }
            }
            "card_mode" => match v.as_bool() {
                Some(b) => {
                    merged.card_mode = b;
                    merged.card_mode_origin = Some(ctx.origin(at));
                }
                None => ctx.problem(
                    at,
                    format!("`card_mode` must be true or false, found {}", type_name(v)),
                ),
            },
            "ep_table" => {
                if let Some(s) = ctx.doc.string(k, value) {
                    let r = loader.script(ctx, ScriptKind::EpTable, s, at);
                    merged.ep_table = Some(r);
                }
            }
            "variants" => {
                if let Some(list) = strings(ctx, k, value) {
                    merged.variants = scripts(loader, ctx, ScriptKind::Variant, &list, "variants");
                }
            }
            "params" => match v.as_table() {
                Some(t) => params_table(ctx, t, merged),
                None => ctx.problem(
                    at,
                    format!(
                        "`params` must be a table ([params]), found {}",
                        type_name(v)
                    ),
                ),
            },
            "options" => match v.as_table() {
                Some(t) => options_table(ctx, t, merged),
                None => ctx.problem(
                    at,
                    format!(
                        "`options` must be a table ([options]), found {}",
                        type_name(v)
                    ),
                ),
            },
            "cards" => match v.as_table() {
                Some(t) => cards_table(loader, ctx, t, merged),
                None => ctx.problem(
                    at,
                    format!("`cards` must be a table ([cards]), found {}", type_name(v)),
                ),
            },
            _ => {
                let at = key.span().start;
                let message = if PARAM_KEYS.iter().any(|(p, _)| *p == k) {
                    format!("`{k}` is a parameter: put it under [params]")
                } else {
                    unknown("key", k, TOP_KEYS.iter().copied())
                };
                ctx.problem(at, message);
            }
        }
    }
    if !name_seen && syntax_ok {
        ctx.problem(
            0,
            "missing `name` (every ruleset file names itself: `name = \"…\"`)",
        );
    }
}

/// The `[params]` table: each key checked and merged over the parent's.
fn params_table(ctx: &mut FileCtx, table: &DeTable, merged: &mut Merged) {
    for (key, value) in table.iter() {
        let k = key.get_ref().as_ref();
        let at = value.span().start;
        let v = value.get_ref();
        let Some(&(name, kind)) = PARAM_KEYS.iter().find(|(p, _)| *p == k) else {
            let message = match k {
                "forbidden" => "unknown parameter `forbidden`; did you mean `forbid`?".to_string(),
                "setup" => "the setup (B3.1) is not a ruleset parameter".to_string(),
                _ => unknown("parameter", k, PARAM_KEYS.iter().map(|(p, _)| *p)),
            };
            ctx.problem(key.span().start, message);
            continue;
        };
        let parsed = match kind {
            ParamKind::Int { min, max } => match v {
                DeValue::Integer(i) => match i128::from_str_radix(i.as_str(), i.radix()).ok() {
                    Some(n) if n >= i128::from(min) && n <= i128::from(max) => {
                        Some(ParamValue::Int(n as i64))
                    }
                    _ => {
                        ctx.problem(
                            at,
                            format!("`{k}` = {} is out of range {min}..={max}", i.as_str()),
                        );
                        None
                    }
                },
                _ => {
                    let hint = if name == "long_pass_max_distance" {
                        " (leave it out for no maximum)"
                    } else {
                        ""
                    };
                    ctx.problem(
                        at,
                        format!(
                            "`{k}` must be an integer from {min} to {max}{hint}, found {}",
                            type_name(v)
                        ),
                    );
                    None
                }
            },
            ParamKind::Bool => match v.as_bool() {
                Some(b) => Some(ParamValue::Bool(b)),
                None => {
                    ctx.problem(
                        at,
                        format!("`{k}` must be true or false, found {}", type_name(v)),
                    );
                    None
                }
            },
            ParamKind::Verbs => forbid(ctx, value).map(ParamValue::Verbs),
        };
        if let Some(p) = parsed {
            set_param(&mut merged.params, name, p);
            merged.param_origin.insert(name, ctx.origin(at));
        }
    }
}

/// `[options]`: the variants' own parameters, by name. Which names exist
/// and their ranges are the variants' (`options` in their scripts),
/// checked once the scripts are loaded; here, only the values' kinds.
fn options_table(ctx: &mut FileCtx, table: &DeTable, merged: &mut Merged) {
    for (key, value) in table.iter() {
        let k = key.get_ref().as_ref();
        let at = value.span().start;
        let (n, boolean) = match value.get_ref() {
            DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
                Ok(n) => (n, false),
                Err(_) => {
                    ctx.problem(at, format!("option `{k}` = {} is out of range", i.as_str()));
                    continue;
                }
            },
            DeValue::Boolean(b) => (i64::from(*b), true),
            other => {
                ctx.problem(
                    at,
                    format!(
                        "option `{k}` must be a whole number or true/false, found {}",
                        type_name(other)
                    ),
                );
                continue;
            }
        };
        let layout = std::sync::Arc::make_mut(&mut merged.params.layout);
        layout.given.retain(|g| g.name != k);
        layout.given.push(crate::games::ball::params::OptionValue {
            name: k.to_string(),
            value: n,
            boolean,
        });
        let line = ctx.line(at);
        merged.options_at.retain(|(name, _)| name != k);
        merged.options_at.push((
            k.to_string(),
            Problem::new(ctx.doc.file.clone(), Some(line), String::new()),
        ));
    }
}

/// The options a ruleset sets that none of its variants declares.
pub fn undeclared_options(ruleset: &Ruleset, params: &Params) -> Vec<Problem> {
    let known: Vec<&str> = params.layout.options.iter().map(|o| o.name.as_str()).collect();
    ruleset
        .options_at
        .iter()
        .filter(|(name, _)| !known.contains(&name.as_str()))
        .map(|(name, at)| {
            let message = if known.is_empty() {
                format!("option `{name}`: no variant of this ruleset declares options")
            } else {
                unknown("option", name, known.iter().copied())
            };
            Problem::new(at.file.clone(), at.line, message)
        })
        .collect()
}

/// `forbid = ["tdodge", …]`: verb names.
fn forbid(ctx: &mut FileCtx, value: &Spanned<DeValue>) -> Option<Verbs> {
    let list = strings(ctx, "forbid", value)?;
    let mut verbs = Verbs::NONE;
    let mut ok = true;
    for (name, at) in list {
        match Verb::parse(name) {
            Some(v) => {
                if let Some((_, why)) = UNFORBIDDABLE.iter().find(|(u, _)| *u == v) {
                    ctx.problem(at, format!("`{name}` cannot be forbidden: {why}"));
                    ok = false;
                } else {
                    verbs.insert(v);
                }
            }
            None => {
                ctx.problem(
                    at,
                    unknown("verb", name, Verb::ALL.iter().map(|v| v.name())),
                );
                ok = false;
            }
        }
    }
    ok.then_some(verbs)
}

/// The `[cards]` table: `ATK` and `DEF` lists, each replacing the
/// parent's.
fn cards_table(loader: &Loader, ctx: &mut FileCtx, table: &DeTable, merged: &mut Merged) {
    for (key, value) in table.iter() {
        let k = key.get_ref().as_ref();
        let Some(team) = Team::parse(k) else {
            let message = match Team::BOTH.iter().find(|t| t.name().eq_ignore_ascii_case(k)) {
                Some(t) => format!(
                    "unknown team `{k}` in [cards]; did you mean `{}`?",
                    t.name()
                ),
                None => format!("unknown team `{k}` in [cards] (teams: ATK, DEF)"),
            };
            ctx.problem(key.span().start, message);
            continue;
        };
        let Some(list) = strings(ctx, k, value) else {
            continue;
        };
        let what = format!("{}'s cards", team.name());
        merged.cards[team as usize] = scripts(loader, ctx, ScriptKind::Card, &list, &what);
        merged.cards_origin[team as usize] = Some(ctx.origin(key.span().start));
    }
}

/// Resolves a list of cards or variants, reporting duplicates by id.
fn scripts(
    loader: &Loader,
    ctx: &mut FileCtx,
    kind: ScriptKind,
    list: &[(&str, usize)],
    what: &str,
) -> Vec<ScriptRef> {
    let mut out: Vec<ScriptRef> = Vec::new();
    let mut ids: std::collections::HashMap<String, usize> = Default::default();
    for &(entry, at) in list {
        // The id before the file is looked up: a duplicate is reported
        // once, as a duplicate, even when the file is also missing.
        let id = ScriptSource {
            path: entry.to_string(),
            text: String::new(),
        }
        .id()
        .to_string();
        if let Some(first) = ids.get(&id) {
            let first = ctx.line(*first);
            ctx.problem(
                at,
                format!(
                    "{} `{id}` is listed twice in {what} (first on line {first})",
                    kind.what()
                ),
            );
            continue;
        }
        if kind == ScriptKind::Card && is_script_path(entry) && !is_card_id(&id) {
            ctx.problem(
                at,
                format!(
                    "card file `{entry}`: its name `{id}` is the card's id in the notation and must be \
lower-case letters, digits, `_` or `-`"
                ),
            );
        }
        ids.insert(id, at);
        out.push(loader.script(ctx, kind, entry, at));
    }
    out
}

/// An array of strings with their offsets, or a problem (one per element
/// that is not a string).
fn strings<'v>(
    ctx: &mut FileCtx,
    key: &str,
    value: &'v Spanned<DeValue>,
) -> Option<Vec<(&'v str, usize)>> {
    let Some(items) = value.get_ref().as_array() else {
        ctx.problem(
            value.span().start,
            format!(
                "`{key}` must be an array of strings, found {}",
                type_name(value.get_ref())
            ),
        );
        return None;
    };
    let mut out = Vec::new();
    let mut ok = true;
    for item in items.iter() {
        match item.get_ref().as_str() {
            Some(s) => out.push((s, item.span().start)),
            None => {
                ctx.problem(
                    item.span().start,
                    format!(
                        "`{key}` must be an array of strings, found {} in it",
                        type_name(item.get_ref())
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// "unknown KIND `word`", with a suggestion when one is close.
pub(crate) fn unknown<'a>(
    kind: &str,
    word: &str,
    known: impl IntoIterator<Item = &'a str> + Clone,
) -> String {
    match did_you_mean(word, known.clone()) {
        Some(k) => format!("unknown {kind} `{word}`; did you mean `{k}`?"),
        None => {
            let all: Vec<&str> = known.into_iter().collect();
            format!("unknown {kind} `{word}` (known: {})", all.join(", "))
        }
    }
}

/// How messages name a TOML value's type ("found an integer").
pub(crate) fn type_name(v: &DeValue) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// `extends` and `--ruleset` values that are paths, not shipped names.
pub(crate) fn is_ruleset_path(s: &str) -> bool {
    s.contains(['/', '\\']) || s.ends_with(".toml")
}

/// Card and variant entries that are paths, not shipped names.
fn is_script_path(s: &str) -> bool {
    s.contains(['/', '\\']) || s.ends_with(".lua")
}

/// `rel` as seen from the directory of the file shown as `file`, with
/// `.` and `..` folded where possible.
pub(crate) fn join_display(file: &str, rel: &str) -> String {
    if Path::new(rel).is_absolute() {
        return rel.to_string();
    }
    let base = Path::new(file).parent().unwrap_or(Path::new(""));
    let mut parts: Vec<String> = Vec::new();
    for c in base.join(rel).components() {
        match c {
            Component::CurDir => {}
            // Joined with `/` below, an empty first part is the root.
            Component::RootDir => parts.push(String::new()),
            Component::ParentDir if parts.last().is_some_and(|p| !p.is_empty() && p != "..") => {
                parts.pop();
            }
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    parts.join("/")
}

/// Drops repeated problems, keeping the first of each (a card both teams
/// hold is checked twice, and its problems are the same).
pub fn dedup(problems: &mut Vec<Problem>) {
    let mut seen = std::collections::HashSet::new();
    problems.retain(|p| seen.insert(p.to_string()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_is_clean() {
        let s = Ruleset::standard();
        assert_eq!(s.name, "standard");
        assert_eq!(s.params, Params::default());
        assert!(!s.card_mode);
        assert_eq!(s.files.len(), 1, "standard() parses the compiled-in file");
    }

    #[test]
    fn standard_writes_every_parameter_out() {
        // Every key of PARAM_KEYS appears in the shipped standard.toml
        // (long_pass_max_distance as a comment: its default is "none").
        for (key, _) in PARAM_KEYS {
            assert!(
                STANDARD_TOML.contains(&format!("{key} ="))
                    || STANDARD_TOML.contains(&format!("# {key}")),
                "rulesets/standard.toml does not write `{key}` out"
            );
        }
        // And every line params_toml writes is a key the loader reads.
        for line in params_toml(&Params::default()).lines() {
            let key = line
                .trim_start_matches("# ")
                .split([' ', ':'])
                .next()
                .unwrap_or("");
            assert!(PARAM_KEYS.iter().any(|(k, _)| *k == key), "{key}");
        }
    }

    #[test]
    fn set_param_knows_every_key() {
        // Two different values of every key must give two different Params.
        for (key, kind) in PARAM_KEYS {
            let (a, b) = match kind {
                ParamKind::Int { min, max } => (ParamValue::Int(*min), ParamValue::Int(*max)),
                ParamKind::Bool => (ParamValue::Bool(false), ParamValue::Bool(true)),
                ParamKind::Verbs => (ParamValue::Verbs(Verbs::NONE), ParamValue::Verbs(Verbs(1))),
            };
            let (mut pa, mut pb) = (Params::default(), Params::default());
            set_param(&mut pa, key, a);
            set_param(&mut pb, key, b);
            assert_ne!(pa, pb, "set_param ignores `{key}`");
        }
    }

    /// The fingerprint is of the files' roles and text: how a path was
    /// spelled (relative, absolute, shipped) changes nothing, while the
    /// same text in another role (a card moved from ATK's deck to DEF's,
    /// a variant that becomes a card) is other rules.
    #[test]
    fn fingerprint_is_of_text_and_role_not_path() {
        let src = |path: &str, text: &str| ScriptSource {
            path: path.into(),
            text: text.into(),
        };
        let mut a = Ruleset::standard();
        a.card_mode = true;
        a.cards = [vec![src("cards/x.lua", "return {id = 'x'}")], Vec::new()];
        let mut b = a.clone();
        b.files[0].path = "/somewhere/else/rulesets/standard.toml".into();
        b.cards[0][0].path = "/abs/../cards/x.lua".into();
        assert_eq!(a.fingerprint(), b.fingerprint());
        b.cards[0][0].text.push(' ');
        assert_ne!(a.fingerprint(), b.fingerprint(), "text");
        let mut moved = a.clone();
        moved.cards = [Vec::new(), a.cards[0].clone()];
        assert_ne!(a.fingerprint(), moved.fingerprint(), "ATK's card to DEF");
        let mut variant = a.clone();
        variant.variants = a.cards[0].clone();
        variant.cards = [Vec::new(), Vec::new()];
        assert_ne!(a.fingerprint(), variant.fingerprint(), "a card as a variant");
        let mut ep = a.clone();
        ep.ep_table = Some(a.cards[0][0].clone());
        ep.cards = [Vec::new(), Vec::new()];
        assert_ne!(variant.fingerprint(), ep.fingerprint(), "a variant as the EP table");
    }

    #[test]
    fn join_display_folds_dots() {
        assert_eq!(join_display("a/b/r.toml", "../c/x.lua"), "a/c/x.lua");
        assert_eq!(join_display("r.toml", "./x.lua"), "x.lua");
        assert_eq!(join_display("r.toml", "../x.lua"), "../x.lua");
        assert_eq!(join_display("/tmp/r.toml", "x.lua"), "/tmp/x.lua");
    }

    #[test]
    fn script_ids() {
        let s = |p: &str| ScriptSource {
            path: p.into(),
            text: String::new(),
        };
        assert_eq!(s("cards/sprint.lua").id(), "sprint");
        assert_eq!(s("x.lua").id(), "x");
    }

    #[test]
    fn toml_strings_escape() {
        assert_eq!(toml_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000A\"");
    }
}
