//! The Lua host: sandbox, loading, the card / variant / EP-table bindings
//! and error mapping.
//!
//! **Boundary:** the rules (`ball/`) know nothing of Lua. Scripts propose,
//! the kernel validates and applies: check hooks are read-only, a card's
//! effect runs on a copy that is committed only when the whole effect
//! succeeded and the position still keeps every invariant.

pub mod api;
pub mod error;
pub mod host;
pub mod sandbox;

pub use error::ScriptError;
pub use host::Host;
pub mod scripted;

use std::rc::Rc;

use crate::diagnostic::Problem;
use crate::games::ball::Ball;
use crate::games::ball::ruleset::Ruleset;

/// What a ruleset's scripts decide before any game: the parameters after
/// every variant, and whether a game needs the script host at all.
pub struct Prepared {
    pub params: crate::games::ball::params::Params,
    /// False when the scripts only set parameters: such games run native.
    pub needs_host: bool,
}

fn load(r: &Ruleset) -> Result<host::Loaded, Vec<ScriptError>> {
    let cards = if r.card_mode {
        r.cards.clone()
    } else {
        Default::default()
    };
    let ep = if r.card_mode {
        r.ep_table.as_ref()
    } else {
        None
    };
    Host::load(&r.params, ep, &r.variants, &cards)
}

/// Loads and validates a ruleset's scripts once.
pub fn prepare(r: &Ruleset) -> Result<Prepared, Vec<ScriptError>> {
    if !r.card_mode && r.variants.is_empty() {
        return Ok(Prepared {
            params: r.params.clone(),
            needs_host: false,
        });
    }
    let loaded = load(r)?;
    Ok(Prepared {
        params: loaded.params,
        needs_host: r.card_mode || loaded.host.has_event_hooks(),
    })
}

/// A game under `r`: native when no script needs to run during play,
/// else with a script host of its own (a Lua state is not `Send`: build
/// one game per thread).
pub fn game(r: &Ruleset) -> Result<Ball, Vec<ScriptError>> {
    let prepared = prepare(r)?;
    if !prepared.needs_host {
        return Ok(Ball::new(prepared.params));
    }
    let loaded = load(r)?;
    let ext = scripted::Scripted::new(loaded.host, r.card_mode, loaded.ep, loaded.decks);
    Ok(Ball::with_extension(loaded.params, Rc::new(ext)))
}

/// The problems of one card file: readable, named like a card id, and
/// whatever the script layer finds in it.
pub fn check_card_file(path: &std::path::Path) -> Vec<Problem> {
    let shown = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            let reason = match e.kind() {
                std::io::ErrorKind::NotFound => "not found".to_string(),
                std::io::ErrorKind::InvalidData => "not valid UTF-8".to_string(),
                _ => e.to_string(),
            };
            return vec![Problem::new(
                shown,
                None,
                format!("cannot read the card: {reason}"),
            )];
        }
    };
    let mut problems = Vec::new();
    let id = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if !crate::games::ball::action::is_card_id(id) {
        problems.push(Problem::new(
            &shown,
            None,
            format!(
                "the file name `{id}` is the card's id in the notation: lower-case letters, digits, `_` or `-`"
            ),
        ));
    }
    if path.extension().is_none_or(|e| e != "lua") {
        problems.push(Problem::new(&shown, None, "a card file ends in `.lua`"));
    }
    // The card's own problems (Lua syntax, fields, hooks) are the script
    // layer's.
    problems.extend(check_card(&shown, &text));
    crate::games::ball::ruleset::dedup(&mut problems);
    problems
}

/// Every problem in a ruleset's scripts: load errors, and hooks that fail
/// on the start position (`ball check`).
pub fn check_scripts(r: &Ruleset) -> Vec<Problem> {
    let start = crate::games::ball::position::Position::start(&r.params);
    probe(r, &[start])
}

/// Loads the ruleset's scripts, then, at each position, lists every
/// card's targets for both coaches (with EP and AP to spare) and plays
/// each listed card on a copy, so `targets`, `can_play` and `resolve` all
/// run. Every failure becomes a problem.
fn probe(r: &Ruleset, positions: &[crate::games::ball::position::Position]) -> Vec<Problem> {
    let ball = match game(r) {
        Ok(b) => b,
        Err(errors) => return errors.iter().map(ScriptError::problem).collect(),
    };
    let mut problems: Vec<Problem> = Vec::new();
    let mut report = |e: Option<String>| {
        if let Some(e) = e {
            let p = Problem::new("", None, e);
            if !problems.contains(&p) {
                problems.push(p);
            }
        }
    };
    let Some(ext) = &ball.extension else {
        return problems;
    };
    for base in positions {
        for team in Team::BOTH {
            let mut pos = *base;
            pos.to_move = team;
            pos.phase = crate::games::ball::position::Phase::Action;
            pos.ap = ball.params.ap_per_turn;
            pos.ep = [100, 100];
            pos.outcome = None;
            let mut out = Vec::new();
            ext.extend_legal(&pos, &ball.params, &mut out);
            report(ext.take_error());
            for a in out
                .into_iter()
                .filter(|a| matches!(a, crate::games::ball::action::Action::Card { .. }))
            {
                let mut copy = pos;
                if let Err(e) = ext.apply(&mut copy, &ball.params, a, &mut ()) {
                    report(Some(e));
                }
                report(ext.take_error());
            }
        }
    }
    problems
}

use crate::games::ball::piece::Team;

/// Checks one card file alone in the `cards` ruleset: it loads, and its
/// hooks run on the start position and on the start of every shipped
/// scenario, for both coaches (`ball check --card`).
pub fn check_card(path: &str, text: &str) -> Vec<Problem> {
    let src = crate::games::ball::ruleset::ScriptSource {
        path: path.to_string(),
        text: text.to_string(),
    };
    let mut r = Ruleset::load("cards").unwrap_or_else(|_| Ruleset::standard());
    r.card_mode = true;
    r.cards = [vec![src.clone()], vec![src]];
    let game = crate::games::ball::Ball::new(r.params.clone());
    let mut positions = vec![crate::games::ball::position::Position::start(&r.params)];
    let dir = crate::games::ball::ruleset::data_root()
        .join("tests")
        .join("scenarios");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "scn"))
    {
        if let Ok(text) = std::fs::read_to_string(f)
            && let Ok(s) = crate::scenario::parse(&text, &game)
        {
            positions.push(s.start);
        }
    }
    probe(&r, &positions)
}
pub mod targets;
