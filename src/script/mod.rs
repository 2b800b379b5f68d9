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

use crate::ball::Ball;
use crate::diagnostic::Problem;
use crate::ruleset::Ruleset;

/// What a ruleset's scripts decide before any game: the parameters after
/// every variant, and whether a game needs the script host at all.
pub struct Prepared {
    pub params: crate::ball::params::Params,
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

/// Every problem in a ruleset's scripts: load errors, and hooks that fail
/// on the start position (`ball check`).
pub fn check_scripts(r: &Ruleset) -> Vec<Problem> {
    let ball = match game(r) {
        Ok(b) => b,
        Err(errors) => return errors.iter().map(ScriptError::problem).collect(),
    };
    let mut problems = Vec::new();
    if let Some(ext) = &ball.extension {
        // List the actions from the start position for both coaches, with
        // enough EP and AP that every card's hooks run.
        let mut pos = crate::ball::position::Position::start(&ball.params);
        pos.ep = [100, 100];
        for team in Team::BOTH {
            pos.to_move = team;
            let mut out = Vec::new();
            ext.extend_legal(&pos, &ball.params, &mut out);
            if let Some(e) = ext.take_error() {
                problems.push(Problem::new("", None, e));
            }
        }
    }
    problems
}

use crate::ball::piece::Team;

/// Checks one card file alone: it loads, and its hooks run on the start
/// position for both coaches (`ball check --card`).
pub fn check_card(path: &str, text: &str) -> Vec<Problem> {
    let src = crate::ruleset::ScriptSource {
        path: path.to_string(),
        text: text.to_string(),
    };
    let mut r = Ruleset::standard();
    r.card_mode = true;
    r.cards = [vec![src.clone()], vec![src]];
    check_scripts(&r)
}
pub mod targets;
