//! Scenario files: a position, actions, and what must (not) be legal after
//! them — the unit of test for rules, cards and variants.
//!
//! ```text
//! # B5.4: a dodge with no free exit cannot be started.
//! setup:
//!   turn 3 ATK action 2
//!   place DEF3 K9
//!   place DEF1 J10 down
//!   ball held ATK5
//!   stack H8 DEF2 ATK2 2
//! actions:
//!   move ATK3 J8
//! legal:
//!   end
//! illegal:
//!   dodge ATK3 K9 L10  B5.4
//! ```
//!
//! `setup:` edits the start position (or `position:` gives the whole JSON
//! instead); `actions:` are played in order and must all be legal;
//! `legal:` lines must be in the final legal list; each `illegal:` line is
//! an action then the rule id its refusal must name. Lines starting with
//! `#` are comments; the first comment is the scenario's title.
//!
//! An optional `ruleset: NAME|PATH` line before the sections names the
//! rules the scenario is played by (a shipped ruleset, or a ruleset file
//! relative to the scenario file); without it, `standard`. [`load`] builds
//! the game from it; [`parse`] takes a game and only records the line.

use std::path::Path;

use super::Ball;
use super::action::{self, Action};
use super::board::Sq;
use super::event::Event;
use super::json;
use super::piece::{PieceId, Team};
use super::position::{BallState, Phase, Position, Stack};

/// A parsed scenario file.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub title: String,
    /// The `ruleset:` line as written, when there is one.
    pub ruleset: Option<String>,
    pub start: Position,
    pub actions: Vec<Action>,
    pub legal: Vec<Action>,
    pub illegal: Vec<(Action, String)>,
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

/// Parses a scenario. Positions built by `setup:` are validated like any
/// position JSON, so a scenario can never start from an impossible board.
pub fn parse(text: &str, game: &Ball) -> Result<Scenario, ScenarioError> {
    let mut title = String::new();
    let mut ruleset = None;
    let mut section = Section::None;
    let mut pos = Position::start(&game.params);
    let mut json_text = String::new();
    let mut json_line = 0;
    let mut used_setup = false;
    let mut actions = Vec::new();
    let mut legal = Vec::new();
    let mut illegal = Vec::new();
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
            if h == Section::Position {
                json_line = n;
            }
            section = h;
            continue;
        }
        if let Some(spec) = line.strip_prefix("ruleset:") {
            if section != Section::None {
                return Err(err("the `ruleset:` line goes before the sections".into()));
            }
            if ruleset.is_some() {
                return Err(err("a scenario names one ruleset".into()));
            }
            if spec.trim().is_empty() {
                return Err(err(
                    "`ruleset:` needs a ruleset name or a path, e.g. `ruleset: cards`".into(),
                ));
            }
            ruleset = Some(spec.trim().to_string());
            continue;
        }
        let action = |s: &str| action::parse(s).map_err(|e| err(e.to_string()));
        match section {
            Section::None => {
                return Err(err(format!(
                    "`{line}` outside a section (ruleset:, setup:, position:, actions:, legal:, illegal:)"
                )));
            }
            Section::Setup => {
                used_setup = true;
                edit(&mut pos, line).map_err(err)?;
            }
            Section::Position => {
                json_text.push_str(raw);
                json_text.push('\n');
            }
            Section::Actions => actions.push(action(line)?),
            Section::Legal => legal.push(action(line)?),
            Section::Illegal => {
                let (a, rule) = line
                    .rsplit_once(' ')
                    .filter(|(_, r)| r.starts_with('B') || *r == "ruleset")
                    .ok_or_else(|| {
                        err(format!(
                            "`{line}`: an illegal line ends with the rule id, e.g. `B5.4`"
                        ))
                    })?;
                illegal.push((action(a)?, rule.to_string()));
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
        pos = json::read(&json_text, &game.params).map_err(|e| ScenarioError {
            line: json_line,
            problem: e.to_string(),
        })?;
    } else {
        // Round-trip through the reader: the same validation as any input.
        pos = json::read(&json::write(&pos), &game.params).map_err(|e| ScenarioError {
            line: 0,
            problem: format!("the setup gives an impossible position: {e}"),
        })?;
    }
    Ok(Scenario {
        title,
        ruleset,
        start: pos,
        actions,
        legal,
        illegal,
    })
}

/// The `ruleset:` line of a scenario: its line number and what it names.
/// Scans only up to the first section, as `parse` accepts it only there.
pub fn ruleset_line(text: &str) -> Option<(usize, &str)> {
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(spec) = line.strip_prefix("ruleset:") {
            return Some((i + 1, spec.trim()));
        }
        if line.ends_with(':') && !line.starts_with('#') {
            return None;
        }
    }
    None
}

/// Parses a scenario file's text and builds its game from its `ruleset:`
/// line (standard without one). A path there is relative to `dir`, the
/// scenario file's directory; a name is a shipped ruleset.
///
/// This is the one place `ball/` reaches up to `crate::games::ball::ruleset`: a
/// scenario is a test of a whole ruleset, scripts included.
pub fn load(text: &str, dir: &Path) -> Result<(Scenario, Ball), ScenarioError> {
    let (line, spec) = ruleset_line(text).unwrap_or((0, "standard"));
    let spec = if spec.contains(['/', '\\']) || spec.ends_with(".toml") {
        dir.join(spec).to_string_lossy().into_owned()
    } else {
        spec.to_string()
    };
    let ruleset = crate::games::ball::ruleset::Ruleset::load(&spec).map_err(|e| ScenarioError {
        line,
        problem: e.to_string(),
    })?;
    let game = ruleset.game();
    let scenario = parse(text, &game)?;
    Ok((scenario, game))
}

/// One `setup:` line.
fn edit(pos: &mut Position, line: &str) -> Result<(), String> {
    let t: Vec<&str> = line.split_whitespace().collect();
    let piece = |s: &str| PieceId::parse(s).ok_or_else(|| format!("`{s}` is not a piece id"));
    let square = |s: &str| Sq::parse(s).map_err(|e| e.describe(s));
    let number = |s: &str| {
        s.parse::<u16>()
            .map_err(|_| format!("`{s}` is not a number"))
    };
    match t.as_slice() {
        ["turn", turn, team, phase, ap] => {
            pos.turn = number(turn)?;
            pos.to_move = Team::parse(team).ok_or_else(|| format!("`{team}` is not ATK or DEF"))?;
            pos.phase = match *phase {
                "action" => Phase::Action,
                "release" => Phase::Release,
                _ => return Err(format!("`{phase}` is not action or release")),
            };
            pos.ap = number(ap)? as u8;
        }
        ["place", id, at, flags @ ..] => {
            let id = piece(id)?;
            let p = pos.piece_mut(id);
            p.at = square(at)?;
            p.down = false;
            p.restricted = false;
            for f in flags {
                match *f {
                    "down" => p.down = true,
                    "restricted" => p.restricted = true,
                    _ => return Err(format!("`{f}`: a piece flag is down or restricted")),
                }
            }
        }
        ["ball", "held", id] => pos.ball = BallState::Held(piece(id)?),
        ["ball", "loose", at] => pos.ball = BallState::Loose(square(at)?),
        ["stack", at, top, bottom, formed] => {
            let at = square(at)?;
            let (top, bottom) = (piece(top)?, piece(bottom)?);
            pos.piece_mut(top).at = at;
            pos.piece_mut(bottom).at = at;
            pos.stacks.insert(Stack {
                at,
                top,
                bottom,
                formed: number(formed)?,
            });
        }
        ["score", atk, def] => pos.score = [number(atk)? as u8, number(def)? as u8],
        _ => {
            return Err(format!(
                "`{line}`: expected `turn N TEAM PHASE AP`, `place PIECE SQUARE [down] [restricted]`, \
`ball held PIECE`, `ball loose SQUARE`, `stack SQUARE TOP BOTTOM FORMED` or `score ATK DEF`"
            ));
        }
    }
    Ok(())
}

/// What running a scenario produced: a readable report for snapshots, and
/// the failures of its `legal:` / `illegal:` expectations.
pub struct Outcome {
    pub report: String,
    pub failures: Vec<String>,
    pub end: Position,
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
pub fn run(s: &Scenario, game: &Ball) -> Outcome {
    let mut report = String::new();
    let mut failures = Vec::new();
    let mut pos = s.start;
    report.push_str(&format!("# {}\n\n", s.title));
    if let Some(r) = &s.ruleset {
        report.push_str(&format!("ruleset: {r}\n\n"));
    }
    for &a in &s.actions {
        let mut log: Vec<Event> = Vec::new();
        match game.play(&mut pos, a, &mut log) {
            Ok(()) => {
                report.push_str(&format!("> {a}\n"));
                for e in log {
                    report.push_str(&format!("    {e}\n"));
                }
            }
            Err(e) => {
                failures.push(format!("action `{a}` was refused: {e}"));
                report.push_str(&format!("> {a}\n    REFUSED: {e}\n"));
                break;
            }
        }
    }
    report.push('\n');
    report.push_str(&super::show::render(&pos, &game.params));
    let legal = game.canonical_legal(&pos);
    report.push_str(&format!("\nlegal ({}):\n", legal.len()));
    report.push_str(&grouped(&legal));
    for a in &s.legal {
        if !legal.contains(&a.to_string()) {
            failures.push(format!("`{a}` should be legal but is not"));
        }
    }
    if !s.illegal.is_empty() {
        report.push_str("\nrefused:\n");
    }
    for (a, rule) in &s.illegal {
        let mut copy = pos;
        match game.play(&mut copy, *a, &mut ()) {
            Ok(()) => failures.push(format!("`{a}` should be refused by {rule} but is legal")),
            Err(e) => {
                if e.rule != rule {
                    failures.push(format!("`{a}` should be refused by {rule}, was: {e}"));
                }
                report.push_str(&format!("  {e}\n"));
            }
        }
    }
    Outcome {
        report,
        failures,
        end: pos,
    }
}
