//! Scenario files, for every game: a position, actions, and what must (not)
//! be legal after them — the unit of test for rules, cards and variants.
//!
//! ```text
//! # B5.4: a dodge with no free exit cannot be started.
//! setup:
//!   turn 3 ATK action 2
//!   place DEF3 K9
//! actions:
//!   move ATK3 J8
//! legal:
//!   end
//! illegal:
//!   dodge ATK3 K9 L10  B5.4
//! ```
//!
//! `setup:` edits the game's start position, one line at a time in the
//! game's own words (`Title::scenario_setup`); `position:` gives the whole
//! JSON instead. `actions:` are played in order and must all be legal;
//! `legal:` lines must be in the legal list; each `illegal:` line is an
//! action then the rule id its refusal must name (`dodge ATK3 K9 L10
//! B5.4`), `~` and words the refusal must contain (`move DEF6 F16 ~
//! already guards`), or both (`… ruleset ~ already guards`): a house
//! rule's refusals all cite `ruleset`, so only their words tell them
//! apart. The start (`setup:` or `position:`) is given once, first;
//! the other sections may repeat: a
//! `legal:` or `illegal:` section is checked where it stands, after the
//! actions above it, so a scenario can say what is refused at one step
//! and then play on. Lines starting with `#` are comments; the first
//! comment is the scenario's title.
//!
//! An optional `ruleset: NAME|PATH` line before the sections names the
//! rules the scenario is played by (a shipped ruleset, or a ruleset file
//! relative to the scenario file), and so its game; `game: NAME` names the
//! game, played by its default ruleset. Without either: BALL's `standard`.

use std::path::{Path, PathBuf};

use crate::games::{self, Module, Visit};
use crate::kernel::game::{Game, Title};

/// A parsed scenario file.
#[derive(Clone, Debug)]
pub struct Scenario<G: Game> {
    pub title: String,
    /// The `ruleset:` line as written, when there is one.
    pub ruleset: Option<String>,
    /// The game as the start position has it (a position's JSON may carry
    /// its own rules).
    pub game: G,
    pub start: G::Position,
    /// The actions and checks, in file order.
    pub steps: Vec<Step<G::Action>>,
}

/// One line of `actions:`, `legal:` or `illegal:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step<A> {
    Play(A),
    Legal(A),
    /// The action and what its refusal must say.
    Illegal(A, Expect),
}

/// What an `illegal:` line asks of a refusal: the rule id it must cite,
/// the words it must contain (`~ text`), or both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    pub rule: Option<String>,
    pub text: Option<String>,
}

impl std::fmt::Display for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.rule, &self.text) {
            (Some(r), Some(t)) => write!(f, "{r} with \"{t}\""),
            (Some(r), None) => f.write_str(r),
            (None, Some(t)) => write!(f, "a refusal saying \"{t}\""),
            (None, None) => f.write_str("any rule"),
        }
    }
}

/// Reads an `illegal:` line: `ACTION RULE`, `ACTION ~ TEXT` or
/// `ACTION RULE ~ TEXT`. Returns the action's text and the expectation.
/// With `~`, a last word that could be a rule id or a square (`H16`) is
/// the action's when the whole head parses as an action (`is_action`).
fn illegal_line<'a>(
    line: &'a str,
    is_action: &dyn Fn(&str) -> bool,
) -> Result<(&'a str, Expect), String> {
    let (head, text) = match line
        .split_once(" ~ ")
        .or_else(|| line.strip_suffix(" ~").map(|h| (h, "")))
    {
        Some((h, t)) => {
            let t = t.trim();
            if t.is_empty() {
                return Err(format!(
                    "`{line}`: `~` is followed by the words the refusal must contain"
                ));
            }
            (h.trim(), Some(t.to_string()))
        }
        None => (line, None),
    };
    if text.is_some() && is_action(head) {
        return Ok((head, Expect { rule: None, text }));
    }
    match head.rsplit_once(' ') {
        Some((a, r)) if is_rule_id(r) || r == "ruleset" => Ok((
            a.trim(),
            Expect {
                rule: Some(r.to_string()),
                text,
            },
        )),
        _ if text.is_some() => Ok((head, Expect { rule: None, text })),
        _ => Err(format!(
            "`{line}`: an illegal line ends with the rule id (`B5.4`), the words its refusal must contain (`~ no free exit`), or both"
        )),
    }
}

/// A problem in a scenario file, with its line number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct ScenarioError {
    pub line: usize,
    pub problem: String,
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    None,
    Setup,
    Position,
    Actions,
    Legal,
    Illegal,
}

/// Whether `s` looks like a rule id: a letter, digits, and `.digits`
/// parts (`B5.4`, `T12.5`, `G8`).
fn is_rule_id(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && !chars.as_str().is_empty()
        && chars
            .as_str()
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a refusal message cites `rule` (as a whole id, not a prefix of
/// a longer one).
pub fn cites(message: &str, rule: &str) -> bool {
    message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .any(|w| w.trim_end_matches('.') == rule)
}

/// Parses a scenario of game `G`, played by `game`. Positions built by
/// `setup:` are read back like any position JSON, so a scenario can never
/// start from an impossible board.
pub fn parse<G: Title>(text: &str, game: &G) -> Result<Scenario<G>, ScenarioError> {
    let mut title = String::new();
    let mut ruleset = None;
    let mut section = Section::None;
    let (mut game, mut pos, _) = game.new_game(0);
    let mut json_text = String::new();
    let mut json_line = 0;
    let mut used_setup = false;
    let mut steps = Vec::new();
    // Where the start section and the first step section are.
    let mut start_section: Option<(&str, usize)> = None;
    let mut first_step: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let err = |problem: String| ScenarioError { line: n, problem };
        let line = raw.trim();
        if let Some(comment) = line.strip_prefix('#') {
            if title.is_empty() && section == Section::None {
                title = comment.trim().to_string();
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let header = match line {
            "setup:" => Some(Section::Setup),
            "position:" => Some(Section::Position),
            "actions:" => Some(Section::Actions),
            "legal:" => Some(Section::Legal),
            "illegal:" => Some(Section::Illegal),
            _ => None,
        };
        if let Some(h) = header {
            // The start position is given once, before anything is played:
            // a second `setup:` was merged into the first, unseen.
            if matches!(h, Section::Setup | Section::Position) {
                if let Some((first, at)) = start_section {
                    return Err(err(format!(
                        "a second start section `{line}` (`{first}` is at line {at}): a scenario has one `setup:` or `position:`"
                    )));
                }
                if let Some(at) = first_step {
                    return Err(err(format!(
                        "`{line}` after the steps (line {at}): the start position comes before `actions:`, `legal:` and `illegal:`"
                    )));
                }
                start_section = Some((line, n));
            } else {
                first_step.get_or_insert(n);
            }
            if h == Section::Position {
                json_line = n;
            }
            section = h;
            continue;
        }
        for key in ["ruleset:", "game:"] {
            if let Some(spec) = line.strip_prefix(key) {
                if section != Section::None {
                    return Err(err(format!("the `{key}` line goes before the sections")));
                }
                if spec.trim().is_empty() {
                    return Err(err(format!(
                        "`{key}` needs a name, e.g. `ruleset: cards` or `game: gateball`"
                    )));
                }
            }
        }
        if let Some(spec) = line.strip_prefix("ruleset:") {
            if ruleset.is_some() {
                return Err(err("a scenario names one ruleset".into()));
            }
            ruleset = Some(spec.trim().to_string());
            continue;
        }
        if line.starts_with("game:") {
            continue;
        }
        let action = |s: &str| game.parse_action(s).map_err(err);
        match section {
            Section::None => {
                return Err(err(format!(
                    "`{line}` outside a section (ruleset:, game:, setup:, position:, actions:, legal:, illegal:)"
                )));
            }
            Section::Setup => {
                used_setup = true;
                game.scenario_setup(&mut pos, line).map_err(err)?;
            }
            Section::Position => {
                json_text.push_str(raw);
                json_text.push('\n');
            }
            Section::Actions => steps.push(Step::Play(action(line)?)),
            Section::Legal => steps.push(Step::Legal(action(line)?)),
            Section::Illegal => {
                let (a, expect) =
                    illegal_line(line, &|a| game.parse_action(a).is_ok()).map_err(err)?;
                steps.push(Step::Illegal(action(a)?, expect));
            }
        }
    }
    if !json_text.is_empty() {
        if used_setup {
            return Err(ScenarioError {
                line: json_line,
                problem: "use either setup: or position:, not both".into(),
            });
        }
        (game, pos) = game
            .read_position(&json_text)
            .map_err(|problem| ScenarioError {
                line: json_line,
                problem,
            })?;
    } else {
        // Round-trip through the reader: the same validation as any input.
        (game, pos) = game
            .read_position(&game.write_position(&pos))
            .map_err(|e| ScenarioError {
                line: 0,
                problem: format!("the setup gives an impossible position: {e}"),
            })?;
    }
    Ok(Scenario {
        title,
        ruleset,
        game,
        start: pos,
        steps,
    })
}

/// A header line's number and value.
pub type Header<'a> = (usize, &'a str);

/// The `ruleset:` and `game:` lines of a scenario, each with its line
/// number. Scans only up to the first section, as `parse` accepts them
/// only there.
pub fn header_lines(text: &str) -> (Option<Header<'_>>, Option<Header<'_>>) {
    let (mut ruleset, mut game) = (None, None);
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(spec) = line.strip_prefix("ruleset:") {
            ruleset.get_or_insert((i + 1, spec.trim()));
        } else if let Some(name) = line.strip_prefix("game:") {
            game.get_or_insert((i + 1, name.trim()));
        } else if line.ends_with(':') && !line.starts_with('#') {
            break;
        }
    }
    (ruleset, game)
}

/// What running a scenario produced: a readable report for snapshots, and
/// the failures of its expectations.
pub struct Outcome {
    pub report: String,
    pub failures: Vec<String>,
}

/// The canonical list, one line per run of actions that differ only in
/// their last argument (`lpass ATK5: A1 A3 …`), so snapshots stay short.
pub fn grouped(legal: &[String]) -> String {
    let mut out = String::new();
    let mut current: Option<(&str, Vec<&str>)> = None;
    let flush = |out: &mut String, group: Option<(&str, Vec<&str>)>| match group {
        Some((head, lasts)) if !head.is_empty() => {
            out.push_str(&format!("  {head}: {}\n", lasts.join(" ")))
        }
        Some((_, lasts)) => lasts.iter().for_each(|a| out.push_str(&format!("  {a}\n"))),
        None => {}
    };
    for a in legal {
        let (head, last) = a.rsplit_once(' ').unwrap_or(("", a.as_str()));
        match &mut current {
            Some((h, lasts)) if *h == head => lasts.push(last),
            _ => {
                flush(&mut out, current.take());
                current = Some((head, vec![last]));
            }
        }
    }
    flush(&mut out, current);
    out
}

/// Plays a scenario and checks its expectations.
pub fn run<G: Title>(s: &Scenario<G>) -> Outcome {
    let game = &s.game;
    let mut report = String::new();
    let mut failures = Vec::new();
    let mut pos = s.start.clone();
    report.push_str(&format!("# {}\n\n", s.title));
    if let Some(r) = &s.ruleset {
        report.push_str(&format!("ruleset: {r}\n\n"));
    }
    // Checks after the last action are the final position's, reported
    // after its board; the others where they stand.
    let last_play = s.steps.iter().rposition(|st| matches!(st, Step::Play(_)));
    let mut finals = Vec::new();
    for (k, step) in s.steps.iter().enumerate() {
        if last_play.is_none_or(|l| k > l) && !matches!(step, Step::Play(_)) {
            finals.push(step);
            continue;
        }
        match step {
            Step::Play(a) => {
                let mut log = Vec::new();
                match game.play(&mut pos, *a, &mut log) {
                    Ok(()) => {
                        report.push_str(&format!("> {a}\n"));
                        for e in log {
                            report.push_str(&format!("    {e}\n"));
                        }
                        for e in game.take_errors() {
                            failures.push(format!("script error during `{a}`: {e}"));
                            report.push_str(&format!("    SCRIPT ERROR: {e}\n"));
                        }
                    }
                    Err(e) => {
                        failures.push(format!("action `{a}` was refused: {e}"));
                        report.push_str(&format!("> {a}\n    REFUSED: {e}\n"));
                        break;
                    }
                }
            }
            Step::Legal(a) => {
                if !game.canonical_legal(&pos).contains(&a.to_string()) {
                    failures.push(format!("`{a}` should be legal after step {k} but is not"));
                }
                report.push_str(&format!("  legal here: {a}\n"));
            }
            Step::Illegal(a, rule) => {
                if let Some(e) = refusal(game, &pos, *a, rule, &mut failures) {
                    report.push_str(&format!("  refused here: {e}\n"));
                }
            }
        }
    }
    report.push('\n');
    report.push_str(&game.show(&pos));
    // An end a ruleset's script named (an overtime rule) is not visible
    // on the board: the report says it.
    if let Some(o) = game.outcome(&pos).filter(|o| o.end.is_named()) {
        report.push_str(&format!("ended by: {}\n", o.end.name));
    }
    let legal = game.canonical_legal(&pos);
    report.push_str(&format!("\nlegal ({}):\n", legal.len()));
    report.push_str(&grouped(&legal));
    for step in &finals {
        if let Step::Legal(a) = step
            && !legal.contains(&a.to_string())
        {
            failures.push(format!("`{a}` should be legal but is not"));
        }
    }
    if finals.iter().any(|st| matches!(st, Step::Illegal(..))) {
        report.push_str("\nrefused:\n");
    }
    for step in &finals {
        if let Step::Illegal(a, rule) = step
            && let Some(e) = refusal(game, &pos, *a, rule, &mut failures)
        {
            report.push_str(&format!("  {e}\n"));
        }
    }
    Outcome { report, failures }
}

/// Tries `a` on a copy of `pos`: its refusal, or a failure when it is
/// legal or refused otherwise than `expect` says (another rule, or
/// without its words).
fn refusal<G: Game>(
    game: &G,
    pos: &G::Position,
    a: G::Action,
    expect: &Expect,
    failures: &mut Vec<String>,
) -> Option<String> {
    let mut copy = pos.clone();
    match game.play(&mut copy, a, &mut Vec::new()) {
        Ok(()) => {
            failures.push(format!("`{a}` should be refused by {expect} but is legal"));
            None
        }
        Err(e) => {
            let rule_ok = expect.rule.as_ref().is_none_or(|r| cites(&e, r));
            let text_ok = expect.text.as_ref().is_none_or(|t| e.contains(t.as_str()));
            if !(rule_ok && text_ok) {
                failures.push(format!("`{a}` should be refused by {expect}, was: {e}"));
            }
            Some(e)
        }
    }
}

/// Loads a scenario file's text (its game from its `ruleset:` or `game:`
/// line; a ruleset path is relative to `dir`, the file's directory) and
/// plays it.
pub fn run_text(text: &str, dir: &Path) -> Result<Outcome, ScenarioError> {
    let (ruleset, game) = header_lines(text);
    let spec = ruleset.map(|(line, spec)| {
        let spec = if spec.contains(['/', '\\']) || spec.ends_with(".toml") {
            dir.join(spec).to_string_lossy().into_owned()
        } else {
            spec.to_string()
        };
        (line, spec)
    });
    let name = match (&spec, game) {
        (Some((line, spec)), Some((_, g))) => {
            let of = crate::data::game_of(spec);
            if of != g {
                return Err(ScenarioError {
                    line: *line,
                    problem: format!("the ruleset `{spec}` is for {of}, but `game:` says {g}"),
                });
            }
            of
        }
        (Some((_, spec)), None) => crate::data::game_of(spec),
        (None, Some((_, g))) => g.to_string(),
        (None, None) => crate::data::DEFAULT_GAME.to_string(),
    };
    let line = game.map_or(0, |(l, _)| l);
    struct Play<'a> {
        text: &'a str,
        spec: Option<(usize, String)>,
    }
    impl Visit for Play<'_> {
        type Output = Result<Outcome, ScenarioError>;
        fn visit<G: Module>(self) -> Self::Output {
            let (line, spec) = self.spec.unwrap_or((0, G::DEFAULT_RULESET.to_string()));
            let err = |problem| ScenarioError { line, problem };
            let ruleset = G::load_ruleset(&spec).map_err(err)?;
            let game = G::build(&ruleset).map_err(err)?;
            Ok(run(&parse(self.text, &game)?))
        }
    }
    games::visit(&name, Play { text, spec }).ok_or_else(|| ScenarioError {
        line,
        problem: format!(
            "`{name}` is not a game this binary plays ({})",
            games::names()
        ),
    })?
}

/// Every scenario file (`*.scn`) under `root`, in subfolders too, sorted:
/// what `ball test DIR` runs and what `tests/scenarios.rs` walks, so the
/// two never disagree on which files a folder holds.
pub fn files_under(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "scn") {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids() {
        for id in ["B5.4", "T12.5", "G8", "B11.6"] {
            assert!(is_rule_id(id), "{id}");
        }
        for bad in ["b5.4", "B", "B5.", "B.4", "5.4", "B5x"] {
            assert!(!is_rule_id(bad), "{bad}");
        }
        assert!(cites("illegal action `x`: B5.4: no exit", "B5.4"));
        assert!(!cites("illegal action `x`: B5.40: no exit", "B5.4"));
        assert!(cites("... (T4.3, T7.8)", "T7.8"));
    }

    #[test]
    fn illegal_lines() {
        let moves = |a: &str| a.split_whitespace().count() == 3;
        let e = |rule: Option<&str>, text: Option<&str>| Expect {
            rule: rule.map(str::to_string),
            text: text.map(str::to_string),
        };
        assert_eq!(
            illegal_line("move A B  B5.4", &moves).unwrap(),
            ("move A B", e(Some("B5.4"), None))
        );
        assert_eq!(
            illegal_line("move A H16 ~ one guard", &moves).unwrap(),
            ("move A H16", e(None, Some("one guard")))
        );
        assert_eq!(
            illegal_line("move A B ruleset ~ guards", &moves).unwrap(),
            ("move A B", e(Some("ruleset"), Some("guards")))
        );
        assert!(illegal_line("move A B", &moves).is_err());
        assert!(illegal_line("move A B ~", &moves).is_err());
    }

    #[test]
    fn header_lines_stop_at_the_first_section() {
        let text = "# t\nruleset: cards\ngame: ball\nsetup:\nruleset: later\n";
        assert_eq!(header_lines(text), (Some((2, "cards")), Some((3, "ball"))));
        assert_eq!(header_lines("setup:\nruleset: x\n"), (None, None));
    }
}
