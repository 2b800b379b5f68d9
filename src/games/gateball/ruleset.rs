//! Gateball rulesets (`docs/rules/gateball-notation.md`, "Rulesets and setups
//! (TOML)"; T14): the ruleset values, the court file and the optional
//! setup file a game is played with.
//!
//! ```toml
//! game = "gateball"
//! court = "../courts/standard.toml"   # relative to this file
//! turns = 6                           # T14.1: 1–6
//! gate_bonus = false                  # T14.2
//! spark_dice = "roll"                 # T14.3: "roll" or "reuse"
//! # setup = "../setups/club.toml"     # optional (T14.5), relative to this file
//! ```
//!
//! Shipped rulesets share `rulesets/` with BALL's (`rulesets/gateball.toml`
//! is the default); [`crate::games::ball::ruleset::game_of`] tells them apart by the
//! `game` key. Every key but `game` may be left out: it then has its T14
//! default (the court `Court::standard()`, the setup T2.3's).
//! [`check`] lists every problem of the ruleset, its court file and its
//! setup file; [`load`] stops at the first.

use std::path::Path;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::court::Court;
use super::court_file;
use super::setup;
use super::{Rules, Setup, SparkDice};
use crate::diagnostic::Problem;
use crate::games::ball::ruleset::join_display;
use crate::toml_doc::Doc;

/// The shipped ruleset `ball new --game gateball` plays by default.
pub const DEFAULT: &str = "gateball";

/// The keys of a Gateball ruleset file.
pub const KEYS: &[&str] = &[
    "game",
    "description",
    "court",
    "turns",
    "gate_bonus",
    "spark_dice",
    "setup",
    "variants",
    "options",
];

/// The values of `spark_dice` (T14.3).
pub const SPARK_DICE: &[&str] = &["roll", "reuse"];

/// A loaded, valid Gateball ruleset: plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateballRuleset {
    /// The shipped name, or the file's stem.
    pub name: String,
    /// The ruleset file as messages name it (`rulesets/gateball.toml`).
    pub file: String,
    /// One line; empty when the ruleset gives none.
    pub description: String,
    pub rules: Rules,
    pub court: Court,
    /// The court file as messages name it; `None`: no `court` key, the
    /// default court (T14.4).
    pub court_file: Option<String>,
    pub setup: Setup,
    /// The setup file as messages name it; `None`: the default setup.
    pub setup_file: Option<String>,
    /// The variants' Lua files, in order (house rules); empty: the rulebook.
    pub variants: Vec<crate::script::variants::Source>,
    /// The `[options]` the file sets, each with its line.
    pub options: Vec<(crate::script::layout::OptionValue, usize)>,
}

impl GateballRuleset {
    /// The ruleset's values as TOML (what `ball check --print` shows);
    /// file paths as in messages.
    pub fn to_toml(&self) -> String {
        let mut out = String::from("game = \"gateball\"\n");
        if !self.description.is_empty() {
            out.push_str(&format!("description = {:?}\n", self.description));
        }
        match &self.court_file {
            Some(f) => out.push_str(&format!("court = {f:?}\n")),
            None => out.push_str("# court: the default court (courts/standard.toml)\n"),
        }
        out.push_str(&format!(
            "turns = {}\ngate_bonus = {}\nspark_dice = \"{}\"\n",
            self.rules.turns,
            self.rules.gate_bonus,
            self.rules.spark_dice.name()
        ));
        match &self.setup_file {
            Some(f) => out.push_str(&format!("setup = {f:?}\n")),
            None => {
                out.push_str("# setup: the default (side a \"Red\", side b \"Blue\", a first)\n")
            }
        }
        if !self.variants.is_empty() {
            let list: Vec<String> = self.variants.iter().map(|v| format!("{:?}", v.path)).collect();
            out.push_str(&format!("variants = [{}]\n", list.join(", ")));
        }
        if !self.options.is_empty() {
            out.push_str("\n[options]\n");
            for (o, _) in &self.options {
                if o.boolean {
                    out.push_str(&format!("{} = {}\n", o.name, o.value != 0));
                } else {
                    out.push_str(&format!("{} = {}\n", o.name, o.value));
                }
            }
        }
        out
    }
}

/// Every problem of the Gateball ruleset `spec` (a shipped name or a
/// path) and of its court and setup files, each with file and line: the
/// ruleset's first, then the court's, then the setup's. Empty when clean.
pub fn check(spec: &str) -> Vec<Problem> {
    match read(spec) {
        // `ball check` also plays the variants: a hook that fails only
        // in play is found before any game.
        Ok(r) => match super::script::load(&r.variants, &given(&r), r.rules) {
            Ok(scripts) if scripts.get().is_some() => super::script::probe(&r, scripts),
            _ => Vec::new(),
        },
        Err(p) => p,
    }
}

/// The options the ruleset file sets, without their lines.
pub(crate) fn given(r: &GateballRuleset) -> Vec<crate::script::layout::OptionValue> {
    r.options.iter().map(|(o, _)| o.clone()).collect()
}

/// The Gateball ruleset `spec` (a shipped name or a path), or its first
/// problem as one line (`rulesets/mine.toml:3: …`).
pub fn load(spec: &str) -> Result<GateballRuleset, String> {
    read(spec).map_err(|problems| crate::diagnostic::first_of_ruleset(&problems, spec))
}

/// The ruleset, or every problem.
fn read(spec: &str) -> Result<GateballRuleset, Vec<Problem>> {
    let crate::data::RulesetFile {
        path,
        shown,
        name,
        text,
    } = crate::data::read_ruleset(spec)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let (mut doc, table) = Doc::parse(&shown, &text);
    let mut files = Vec::new();
    let ruleset = fields(&mut doc, &table, &dir, &mut files, name);
    let mut problems = doc.finish();
    problems.extend(files);
    match ruleset {
        Some(r) if problems.is_empty() => {
            let problems = script_problems(&r);
            if problems.is_empty() { Ok(r) } else { Err(problems) }
        }
        _ => Err(problems),
    }
}

/// The variants' load problems: each script's, with file and line, and
/// each `[options]` key no variant declares, at its line.
fn script_problems(r: &GateballRuleset) -> Vec<Problem> {
    match super::script::load(&r.variants, &given(r), r.rules) {
        Err(errors) => errors.iter().map(crate::script::ScriptError::problem).collect(),
        Ok(scripts) => {
            let declared: Vec<&str> = scripts
                .layout()
                .map(|l| l.options.iter().map(|o| o.name.as_str()).collect())
                .unwrap_or_default();
            r.options
                .iter()
                .filter(|(o, _)| !declared.contains(&o.name.as_str()))
                .map(|(o, line)| {
                    let hint = crate::diagnostic::hint(&o.name, declared.iter().copied());
                    Problem::new(
                        r.file.clone(),
                        Some(*line),
                        format!("option `{}`: no variant of this ruleset declares it{hint}", o.name),
                    )
                })
                .collect()
        }
    }
}

/// Checks the ruleset's keys, reads its court and setup files (their
/// problems go to `files`), and builds the ruleset when all is well.
fn fields(
    doc: &mut Doc,
    table: &DeTable,
    dir: &Path,
    files: &mut Vec<Problem>,
    name: String,
) -> Option<GateballRuleset> {
    let mut ok = true;
    doc.unknown_keys_explained(table, KEYS, |k| match k {
        "params" => Some("a Gateball ruleset has no [params]: write `turns`, `gate_bonus` and \
`spark_dice` at the top level"),
        "extends" => Some("a Gateball ruleset extends no other: state the values that differ \
from the defaults (T14), the rest are the defaults"),
        "name" => Some("a Gateball ruleset has no `name`: it is named by its file name"),
        "seed" => Some("the seed is not a ruleset value (T14.6): give it to `ball new --seed N`"),
        _ => None,
    });

    let (description, described) = doc.game_and_description(table, "gateball", "Gateball")?;
    ok &= described;

    let mut rules = Rules::default();
    if let Some(v) = table.get("turns") {
        match doc.int("turns", v, 1..=6, " (T14.1)") {
            Some(n) => rules.turns = n as u8,
            None => ok = false,
        }
    }
    if let Some(v) = table.get("gate_bonus") {
        match doc.bool("gate_bonus", v, " (T14.2)") {
            Some(b) => rules.gate_bonus = b,
            None => ok = false,
        }
    }
    if let Some(v) = table.get("spark_dice") {
        match doc.choice("spark_dice", v, SPARK_DICE, "T14.3") {
            Some(0) => rules.spark_dice = SparkDice::Roll,
            Some(_) => rules.spark_dice = SparkDice::Reuse,
            None => ok = false,
        }
    }

    let court = match table.get("court") {
        None => Some((Court::standard(), None)),
        Some(v) => file(doc, "court", v, dir, files, court_file::read),
    };
    let setup = match table.get("setup") {
        None => Some((Setup::default(), None)),
        Some(v) => file(doc, "setup", v, dir, files, setup::read),
    };
    let variants = match table.get("variants") {
        None => Some(Vec::new()),
        Some(v) => crate::script::ruleset_keys::variants(doc, v, dir, "gateball"),
    };
    let options = match table.get("options") {
        None => Vec::new(),
        Some(v) => crate::script::ruleset_keys::options(doc, v),
    };
    let (Some((court, court_file)), Some((setup, setup_file)), Some(variants)) =
        (court, setup, variants)
    else {
        return None;
    };
    ok.then(|| GateballRuleset {
        name,
        file: doc.file.clone(),
        description,
        rules,
        court,
        court_file,
        setup,
        setup_file,
        variants,
        options,
    })
}

/// A file the ruleset names by a path relative to itself (`court`,
/// `setup`), read by `read`: its value and how messages name it, or
/// `None` with the problems recorded (the file's own go to `files`).
fn file<T>(
    doc: &mut Doc,
    key: &str,
    value: &Spanned<DeValue>,
    dir: &Path,
    files: &mut Vec<Problem>,
    read: fn(&Path, &str) -> Result<T, Vec<Problem>>,
) -> Option<(T, Option<String>)> {
    let rel = doc.string(key, value)?;
    if rel.trim().is_empty() {
        doc.problem(value.span().start, format!("the {key} file path is empty"));
        return None;
    }
    let path = dir.join(rel);
    if !path.is_file() {
        doc.problem(
            value.span().start,
            format!("{key} file `{rel}` not found (paths are relative to this ruleset file)"),
        );
        return None;
    }
    let shown = crate::data::display(&path, &join_display(&doc.file, rel));
    match read(&path, &shown) {
        Ok(v) => Some((v, Some(shown))),
        Err(p) => {
            files.extend(p);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems_of(text: &str) -> Vec<String> {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("r.toml");
        std::fs::write(&path, text).unwrap();
        check(path.to_str().unwrap())
            .iter()
            .map(|p| p.to_string().replace(path.to_str().unwrap(), "r.toml"))
            .collect()
    }

    #[test]
    fn t14_ruleset_keys() {
        let p = problems_of("game = \"gateball\"\nturn = 6\n");
        assert_eq!(p, ["r.toml:2: unknown key `turn`; did you mean `turns`?"]);
        let p = problems_of("game = \"gateball\"\nturns = 7\n");
        assert_eq!(p, ["r.toml:2: `turns` must be 1–6, found 7 (T14.1)"]);
        let p = problems_of("game = \"gateball\"\ngate_bonus = \"yes\"\n");
        assert_eq!(
            p,
            ["r.toml:2: `gate_bonus` must be true or false, found a string (T14.2)"]
        );
        let p = problems_of("game = \"gateball\"\nspark_dice = \"reroll\"\n");
        assert!(p[0].starts_with("r.toml:2: `spark_dice` must be \"roll\" or \"reuse\" (T14.3)"));
        let p = problems_of("game = \"gateball\"\ncourt = \"nowhere.toml\"\n");
        assert_eq!(
            p,
            [
                "r.toml:2: court file `nowhere.toml` not found (paths are relative to this ruleset file)"
            ]
        );
        let p = problems_of("turns = 6\n");
        assert!(p[0].starts_with("r.toml:1: missing `game`"), "{p:?}");
        let p = problems_of("game = \"gateball\"\n[params]\nturns = 6\n");
        assert!(p[0].contains("has no [params]"), "{p:?}");
    }

    #[test]
    fn defaults_without_a_court_or_setup() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("r.toml");
        std::fs::write(&path, "game = \"gateball\"\ngate_bonus = true\n").unwrap();
        let r = load(path.to_str().unwrap()).unwrap();
        assert_eq!(r.name, "r");
        assert_eq!(r.court, Court::standard());
        assert_eq!(r.court_file, None);
        assert_eq!(r.setup, Setup::default());
        assert_eq!(
            r.rules,
            Rules {
                gate_bonus: true,
                ..Rules::default()
            }
        );
    }

    #[test]
    fn unknown_shipped_name() {
        let p = check("gatebal");
        assert_eq!(p.len(), 1);
        assert!(p[0].message.contains("did you mean `gateball`?"), "{p:?}");
    }
}
