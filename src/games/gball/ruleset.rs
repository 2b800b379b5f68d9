//! G-ball rulesets: TOML with `game = "gball"` and any parameter of G18
//! at the top level (notation, "Teams and rulesets").
//!
//! ```toml
//! game = "gball"
//! description = "Best of three sets"
//! sets_to_win_match = 2
//! venue = "neutral"
//! morale = true
//! ```
//!
//! Every key but `game` may be left out: it then has its G18 default.
//! House rules in Lua (`docs/lua-api-gball.md`): `variants = ["x.lua"]`
//! (beside the ruleset, or shipped: `scripts/gball/x.lua`) and their
//! parameters in an `[options]` table.
//! Unknown keys are refused with file, line and a "did you mean". Shipped
//! rulesets share `rulesets/` with BALL's and Gateball's.

use std::path::Path;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use std::rc::Rc;

use super::script::{Script, Scripted};
use super::{Gball, Params, Teams, Venue};
use crate::script::ScriptError;
use crate::script::layout::OptionValue;
use crate::script::variants::Source;
use crate::data::RULESETS_DIR;
use crate::diagnostic::Problem;
use crate::toml_doc::Doc;

/// The shipped ruleset `ball new --game gball` plays by default.
pub const DEFAULT: &str = "gball";

/// Integer keys: name, smallest, largest value, rule.
const INTS: &[(&str, i64, i64, &str)] = &[
    ("players_on_court", 1, 9, "G2.4"),
    ("points_to_win_set", 1, 99, "G3.1"),
    ("sets_to_win_match", 1, 99, "G3.1"),
    ("point_turn_limit", 0, 100_000, "G3.5"),
    ("match_turn_limit", 0, 10_000_000, "G3.6"),
    ("catch_target", 1, 13, "G7.4"),
    ("star_bonus", 0, 6, "G2.2"),
    ("injury_sum", 2, 24, "G8.2"),
    ("demoralise_gap", 1, 20, "G15.4"),
    ("hat_trick", 1, 99, "G16.2"),
    ("catch_attempts_min", 0, 1_000_000, "G16.3"),
    ("catch_rate_min", 0, 1000, "G16.3"),
    ("tackles_min", 0, 1_000_000, "G16.4"),
    ("tackle_rate_min", 0, 1000, "G16.4"),
    ("budget", 0, 1_000_000, "G17.2"),
    ("max_new_veterans", 0, 9, "G17.2"),
    ("games_per_season", 1, 1000, "G17.8"),
];

/// Every key of a G-ball ruleset file.
pub const KEYS: &[&str] = &[
    "game",
    "description",
    "players_on_court",
    "points_to_win_set",
    "sets_to_win_match",
    "venue",
    "point_turn_limit",
    "match_turn_limit",
    "catch_target",
    "star_bonus",
    "injury_sum",
    "morale",
    "demoralise_gap",
    "earned_stars",
    "hat_trick",
    "catch_attempts_min",
    "catch_rate_min",
    "tackles_min",
    "tackle_rate_min",
    "budget",
    "star_cost",
    "max_new_veterans",
    "games_per_season",
    "variants",
    "options",
];

/// A loaded, valid G-ball ruleset: plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GballRuleset {
    pub name: String,
    pub file: String,
    pub description: String,
    pub params: Params,
    /// G2.3's standard rosters unless `--teams` gave a file.
    pub teams: Teams,
    pub teams_file: Option<String>,
    /// The variant scripts (`variants`), read, in order.
    pub variants: Vec<Source>,
    /// The variant options the file sets (`[options]`), each with the
    /// line that sets it.
    pub options: Vec<OptionValue>,
    pub options_at: Vec<(String, usize)>,
}

impl GballRuleset {
    /// The defaults, as if read from a file with only `game = "gball"`.
    pub fn standard() -> GballRuleset {
        GballRuleset {
            name: DEFAULT.into(),
            file: format!("{RULESETS_DIR}/{DEFAULT}.toml"),
            description: String::new(),
            params: Params::default(),
            teams: Teams::standard(),
            teams_file: None,
            variants: Vec::new(),
            options: Vec::new(),
            options_at: Vec::new(),
        }
    }

    /// The game of this ruleset, its variants loaded (their failures
    /// with file and line).
    pub fn build(&self) -> Result<Gball, Vec<ScriptError>> {
        let script = if self.variants.is_empty() {
            if let Some(o) = self.options.first() {
                return Err(vec![ScriptError::kernel(
                    &self.file,
                    "ruleset",
                    "load",
                    format!("option `{}`: this ruleset has no variants", o.name),
                )]);
            }
            None
        } else {
            let s = Script::load(&self.variants, &self.params, self.options.clone())?;
            let known: Vec<&str> = s.layout().options.iter().map(|o| o.name.as_str()).collect();
            if let Some(o) = self.options.iter().find(|o| !known.contains(&o.name.as_str())) {
                let hint = crate::diagnostic::hint(&o.name, known.iter().copied());
                let mut e = ScriptError::kernel(
                    &self.file,
                    "ruleset",
                    "load",
                    format!("option `{}`: no variant of this ruleset declares it{hint}", o.name),
                );
                e.line = self.options_at.iter().find(|(n, _)| *n == o.name).map(|&(_, l)| l);
                return Err(vec![e]);
            }
            Some(Scripted(Rc::new(s)))
        };
        Ok(Gball {
            params: self.params.clone(),
            teams: self.teams.clone(),
            script,
        })
    }

    /// Every value, as TOML.
    pub fn to_toml(&self) -> String {
        let p = &self.params;
        let mut out = String::from("game = \"gball\"\n");
        if !self.description.is_empty() {
            out.push_str(&format!("description = {:?}\n", self.description));
        }
        let venue = match p.venue {
            Venue::Home => "home",
            Venue::Neutral => "neutral",
        };
        out.push_str(&format!(
            "players_on_court = {}\npoints_to_win_set = {}\nsets_to_win_match = {}\n\
             venue = \"{venue}\"\npoint_turn_limit = {}\nmatch_turn_limit = {}\n\
             catch_target = {}\nstar_bonus = {}\ninjury_sum = {}\nmorale = {}\n\
             demoralise_gap = {}\nearned_stars = {}\nhat_trick = {}\n\
             catch_attempts_min = {}\ncatch_rate_min = {}\ntackles_min = {}\n\
             tackle_rate_min = {}\nbudget = {}\nstar_cost = [{}, {}, {}]\n\
             max_new_veterans = {}\ngames_per_season = {}\n",
            p.players_on_court,
            p.points_to_win_set,
            p.sets_to_win_match,
            p.point_turn_limit,
            p.match_turn_limit,
            p.catch_target,
            p.star_bonus,
            p.injury_sum,
            p.morale,
            p.demoralise_gap,
            p.earned_stars,
            p.hat_trick,
            p.catch_attempts_min,
            p.catch_rate_min,
            p.tackles_min,
            p.tackle_rate_min,
            p.budget,
            p.star_cost[0],
            p.star_cost[1],
            p.star_cost[2],
            p.max_new_veterans,
            p.games_per_season,
        ));
        if !self.variants.is_empty() {
            let list: Vec<String> = self.variants.iter().map(|v| format!("{:?}", v.path)).collect();
            out.push_str(&format!("variants = [{}]\n", list.join(", ")));
        }
        if !self.options.is_empty() {
            out.push_str("\n[options]\n");
            for o in &self.options {
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

/// Every problem of the ruleset `spec` (a shipped name or a path), each
/// with file and line. Empty when clean.
pub fn check(spec: &str) -> Vec<Problem> {
    let r = match read(spec) {
        Ok(r) => r,
        Err(problems) => return problems,
    };
    if r.variants.is_empty() && r.options.is_empty() {
        return Vec::new();
    }
    match r.build() {
        Err(errors) => errors.iter().map(ScriptError::problem).collect(),
        Ok(g) => super::script::probe(&g)
            .iter()
            .map(ScriptError::problem)
            .collect(),
    }
}

/// The ruleset `spec`, or its first problem as one line.
pub fn load(spec: &str) -> Result<GballRuleset, String> {
    read(spec).map_err(|problems| crate::diagnostic::first_of_ruleset(&problems, spec))
}

/// Reads a ruleset from its text (for tests and callers that hold it).
pub fn parse(shown: &str, text: &str, name: &str) -> Result<GballRuleset, Vec<Problem>> {
    parse_at(shown, text, name, Path::new("."))
}

/// [`parse`] for a file in `dir` (where its variants are looked for first).
pub fn parse_at(
    shown: &str,
    text: &str,
    name: &str,
    dir: &Path,
) -> Result<GballRuleset, Vec<Problem>> {
    let (mut doc, table) = Doc::parse(shown, text);
    let ruleset = fields(&mut doc, &table, name.to_string(), dir);
    let problems = doc.finish();
    match ruleset {
        Some(r) if problems.is_empty() => Ok(r),
        _ if problems.is_empty() => Err(vec![Problem::new(shown, None, "not a G-ball ruleset")]),
        _ => Err(problems),
    }
}

fn read(spec: &str) -> Result<GballRuleset, Vec<Problem>> {
    let file = crate::data::read_ruleset(spec)?;
    let dir = file.path.parent().unwrap_or(Path::new(".")).to_path_buf();
    parse_at(&file.shown, &file.text, &file.name, &dir)
}

fn int_key(doc: &mut Doc, key: &str, v: &Spanned<DeValue>) -> Option<i64> {
    let &(_, lo, hi, rule) = INTS.iter().find(|(k, ..)| *k == key)?;
    doc.int(key, v, lo..=hi, &format!(" ({rule})"))
}

fn fields(doc: &mut Doc, table: &DeTable, name: String, dir: &Path) -> Option<GballRuleset> {
    let mut ok = true;
    doc.unknown_keys_explained(table, KEYS, |k| match k {
        "params" => Some("a G-ball ruleset has no [params]: write the G18 parameters at the top \
level"),
        "teams" | "rosters" => Some("the rosters are not a ruleset value (G18): give a teams file \
to `--teams FILE`"),
        "seed" => Some("the seed is not a ruleset value (G14.2): give it to `ball new --seed N`"),
        _ => None,
    });
    let (description, described) = doc.game_and_description(table, "gball", "G-ball")?;
    ok &= described;
    let mut p = Params::default();
    for &(key, ..) in INTS {
        let Some(v) = table.get(key) else { continue };
        let Some(n) = int_key(doc, key, v) else {
            ok = false;
            continue;
        };
        match key {
            "players_on_court" => p.players_on_court = n as u8,
            "points_to_win_set" => p.points_to_win_set = n as u8,
            "sets_to_win_match" => p.sets_to_win_match = n as u8,
            "point_turn_limit" => p.point_turn_limit = n as u32,
            "match_turn_limit" => p.match_turn_limit = n as u32,
            "catch_target" => p.catch_target = n as u8,
            "star_bonus" => p.star_bonus = n as u8,
            "injury_sum" => p.injury_sum = n as u8,
            "demoralise_gap" => p.demoralise_gap = n as u8,
            "hat_trick" => p.hat_trick = n as u8,
            "catch_attempts_min" => p.catch_attempts_min = n as u32,
            "catch_rate_min" => p.catch_rate_min = n as u32,
            "tackles_min" => p.tackles_min = n as u32,
            "tackle_rate_min" => p.tackle_rate_min = n as u32,
            "budget" => p.budget = n as u32,
            "max_new_veterans" => p.max_new_veterans = n as u8,
            "games_per_season" => p.games_per_season = n as u32,
            _ => {}
        }
    }
    for (key, rule) in [("morale", "G15"), ("earned_stars", "G16")] {
        if let Some(v) = table.get(key) {
            match doc.bool(key, v, &format!(" ({rule})")) {
                Some(b) if key == "morale" => p.morale = b,
                Some(b) => p.earned_stars = b,
                None => ok = false,
            }
        }
    }
    if let Some(v) = table.get("venue") {
        match doc.choice("venue", v, &["home", "neutral"], "G3.3") {
            Some(0) => p.venue = Venue::Home,
            Some(_) => p.venue = Venue::Neutral,
            None => ok = false,
        }
    }
    if let Some(v) = table.get("star_cost") {
        let good = v.get_ref().as_array().and_then(|a| {
            let n: Vec<i64> = a
                .iter()
                .filter_map(|x| x.get_ref().as_integer())
                .filter_map(|i| i64::from_str_radix(i.as_str(), i.radix()).ok())
                .collect();
            (a.len() == 3 && n.len() == 3 && n.iter().all(|&x| (0..=1_000_000).contains(&x)))
                .then(|| [n[0] as u32, n[1] as u32, n[2] as u32])
        });
        match good {
            Some(c) => p.star_cost = c,
            None => {
                doc.problem(
                    v.span().start,
                    "`star_cost` must be a list of three integers from 0 to 1000000 (G17.2)",
                );
                ok = false;
            }
        }
    }
    // The keys every game's variants use (`script::ruleset_keys`).
    let variants = match table.get("variants") {
        None => Vec::new(),
        Some(v) => crate::script::ruleset_keys::variants(doc, v, dir, "gball").unwrap_or_else(|| {
            ok = false;
            Vec::new()
        }),
    };
    let (options, options_at) = match table.get("options") {
        None => Default::default(),
        Some(v) => crate::script::ruleset_keys::options(doc, v)
            .into_iter()
            .map(|(o, line)| {
                let at = (o.name.clone(), line);
                (o, at)
            })
            .unzip(),
    };
    ok.then(|| GballRuleset {
        name,
        file: doc.file.clone(),
        description,
        params: p,
        teams: Teams::standard(),
        teams_file: None,
        variants,
        options,
        options_at,
    })
}

/// Whether the file at `path` says `game = "gball"` (how the platform's
/// ruleset router tells a G-ball ruleset from BALL's and Gateball's).
pub fn is_gball_file(path: &Path) -> bool {
    let Ok(text) = crate::files::read_text(path, crate::files::MAX_RULESET) else {
        return false;
    };
    let (table, _) = DeTable::parse_recoverable(&text);
    table
        .get_ref()
        .get("game")
        .and_then(|v| v.get_ref().as_str())
        == Some("gball")
}
