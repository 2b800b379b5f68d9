//! The Lua host: sandbox, loading, the card / variant / EP-table bindings
//! and error mapping.
//!
//! **Boundary:** the rules (`ball/`) know nothing of Lua. Scripts propose,
//! the kernel validates and applies: check hooks are read-only, a card's
//! effect runs on a copy that is committed only when the whole effect
//! succeeded and the position still keeps every invariant.

pub mod api;
pub mod host;
pub mod points;

pub use crate::script::{error, sandbox};

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

fn recipe(r: &Ruleset) -> scripted::Recipe {
    scripted::Recipe {
        params: r.params.clone(),
        ep_table: if r.card_mode {
            r.ep_table.clone()
        } else {
            None
        },
        variants: r.variants.clone(),
        cards: if r.card_mode {
            r.cards.clone()
        } else {
            Default::default()
        },
    }
}

fn load(recipe: &scripted::Recipe) -> Result<host::Loaded, Vec<ScriptError>> {
    Host::load(
        &recipe.params,
        recipe.ep_table.as_ref(),
        &recipe.variants,
        &recipe.cards,
    )
}

/// Loads and validates a ruleset's scripts once.
pub fn prepare(r: &Ruleset) -> Result<Prepared, Vec<ScriptError>> {
    if !r.card_mode && r.variants.is_empty() {
        return Ok(Prepared {
            params: r.params.clone(),
            needs_host: false,
        });
    }
    let loaded = load(&recipe(r))?;
    Ok(Prepared {
        params: loaded.params,
        needs_host: r.card_mode
            || points::Point::ALL.iter().any(|&p| loaded.host.hooks(p))
            || !loaded.host.actions().is_empty(),
    })
}

/// The extension of a ruleset whose scripts run during play, or `None`
/// when the game is native.
fn build(r: &Ruleset) -> Result<(Params, Option<Rc<scripted::Scripted>>), Vec<ScriptError>> {
    let prepared = prepare(r)?;
    if !prepared.needs_host {
        return Ok((prepared.params, None));
    }
    let recipe = recipe(r);
    let loaded = load(&recipe)?;
    let ext = scripted::Scripted::new(recipe, loaded.host, r.card_mode, loaded.ep, loaded.decks);
    let mut params = prepared.params;
    // A script that runs during play may end the game at any time
    // (`game.end_game()`): the game's reader must accept the position it
    // leaves. The ruleset's own parameters stay the rules it states.
    params.scripted_end = true;
    Ok((params, Some(Rc::new(ext))))
}

/// A game under `r`: native when no script needs to run during play,
/// else with a script host of its own (a Lua state is not `Send`: build
/// one game per thread). A `Ball` that plays several games is brought
/// back to its first script state by `Ball::reset_scripts`.
pub fn game(r: &Ruleset) -> Result<Ball, Vec<ScriptError>> {
    Ok(match build(r)? {
        (params, None) => Ball::new(params),
        (params, Some(ext)) => Ball::with_extension(params, ext),
    })
}

/// What a script file is, as `ball check --card FILE` decides: a card
/// or a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptKind {
    Card,
    Variant,
}

/// Which kind of script `text` is, by the fields of the table it returns:
/// one of a card's own fields (`args`, `targets`, `resolve`, `id`,
/// `uses`, `per_turn`, or a `cost` that is not a function: a variant's
/// `cost` hook is one) makes it a card; a table with none of them is a
/// variant (whose check then names any field it does not know, a
/// misspelt hook too). Run in a sandbox of its own, under the budgets; a
/// script that does not even return a table is checked as a card, whose
/// checks then say what is wrong.
pub fn script_kind(path: &str, text: &str) -> ScriptKind {
    const CARD: &[&str] = &["cost", "args", "targets", "resolve", "id", "uses", "per_turn"];
    let Ok(sb) = sandbox::Sandbox::new() else {
        return ScriptKind::Card;
    };
    sb.refill();
    let Ok(mlua::Value::Table(t)) = sb.load(path, text) else {
        return ScriptKind::Card;
    };
    let has = |k: &&str| match t.raw_get::<mlua::Value>(*k) {
        Ok(mlua::Value::Nil) | Err(_) => false,
        Ok(mlua::Value::Function(_)) => *k != "cost",
        Ok(_) => true,
    };
    if !CARD.iter().any(has) {
        ScriptKind::Variant
    } else {
        ScriptKind::Card
    }
}

/// The problems of one script file, a card or a variant (`ball check
/// --card FILE`): readable, and whatever the script layer finds in it. A
/// card must be named like a card id and end in `.lua`, and is checked in
/// the `cards` ruleset; a variant is checked as the only variant of
/// `standard`, its hooks run as `ball check --ruleset` runs them.
pub fn check_card_file(path: &std::path::Path) -> Vec<Problem> {
    let stdin = path.as_os_str() == "-";
    let mut shown = path.display().to_string();
    // Bounded, and never a FIFO or a device: `--card /dev/zero` or a named
    // pipe must not read forever.
    let text = match crate::files::read_input(path, crate::files::MAX_SCRIPT) {
        Ok(t) => t,
        Err(reason) => {
            return vec![Problem::new(
                shown,
                None,
                format!("cannot read the card: {reason}"),
            )];
        }
    };
    if script_kind(&shown, &text) == ScriptKind::Variant {
        let mut r = Ruleset::standard();
        r.variants = vec![crate::games::ball::ruleset::ScriptSource {
            path: if stdin { "<stdin>/variant.lua".into() } else { shown },
            text,
        }];
        return check_scripts(&r);
    }
    // A card is named by its file; from standard input its `id` field
    // names it, and messages say where it came from (`<stdin>/leap.lua`).
    if stdin {
        shown = format!("<stdin>/{}.lua", stdin_card_id(&text).unwrap_or("card"));
    }
    let mut problems = Vec::new();
    let id = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    // From standard input there is no file name to hold to the card's id.
    if !stdin && !crate::games::ball::action::is_card_id(id) {
        problems.push(Problem::new(
            &shown,
            None,
            format!(
                "the file name `{id}` is the card's id in the notation: lower-case letters, digits, `_` or `-`"
            ),
        ));
    }
    if !stdin && path.extension().is_none_or(|e| e != "lua") {
        problems.push(Problem::new(&shown, None, "a card file ends in `.lua`"));
    }
    // The card's own problems (Lua syntax, fields, hooks) are the script
    // layer's.
    problems.extend(check_card(&shown, &text));
    crate::games::ball::ruleset::dedup(&mut problems);
    problems
}

/// The id a card read from standard input gives itself: the string of
/// its first `id = "..."` (the load then checks the rest as for a file).
fn stdin_card_id(text: &str) -> Option<&str> {
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix("id")?.trim_start();
        let rest = rest.strip_prefix('=')?.trim_start();
        let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let body = &rest[1..];
        let id = &body[..body.find(quote)?];
        crate::games::ball::action::is_card_id(id).then_some(id)
    })
}

/// Every problem in a ruleset's scripts: load errors, and hooks that fail
/// in real game situations (`ball check`): the start position and the
/// start of every shipped scenario, and a few seeded random games.
pub fn check_scripts(r: &Ruleset) -> Vec<Problem> {
    let params = match prepare(r) {
        Ok(p) => p.params,
        Err(errors) => return errors.iter().map(ScriptError::problem).collect(),
    };
    probe(r, &situations(&params))
}

/// Random games `ball check` plays to run the hooks where play takes
/// them, and how long each may be.
const PROBE_GAMES: u64 = 3;
/// The most targets of one card `check` plays in one position.
const PROBE_PLAYS: usize = 12;
const PROBE_ACTIONS: usize = 600;

/// Loads the ruleset's scripts, then, at each position, lists every
/// card's targets for both coaches (with EP and AP to spare) and plays
/// each listed card on a copy, so `targets`, `can_play` and `resolve` all
/// run; runs every variant hook there for both coaches; and plays a few
/// seeded random games through the whole extension. Every failure becomes
/// a problem, each once.
///
/// A card or hook that failed is not called again for the rest of the
/// probe, as in a game (where it is not called again that game): one that
/// loops until its budget runs out then costs one call, not one per
/// position and game. All the calls together spend at most
/// [`host::CHECK_UNITS`]: past that, the probe stops and says which hook
/// spent the most.
fn probe(r: &Ruleset, positions: &[Position]) -> Vec<Problem> {
    host::check_begin();
    let mut problems = probe_hooks(r, positions);
    if let Some(host::Spender {
        file,
        owner,
        hook,
        calls,
        units,
    }) = host::check_end()
    {
        problems.retain(|p| !p.message.starts_with(host::CHECK_SPENT));
        problems.push(Problem::new(
            file,
            None,
            format!(
                "`ball check` stopped early: its hook calls spent the budget of the whole check \
({} million units, {} calls' worth); `{hook}` of {owner} spent the most, {:.1} million units a \
call over {} (every game would pay that too)",
                host::CHECK_UNITS / 1_000_000,
                host::CHECK_UNITS / sandbox::INSTRUCTION_BUDGET as u64,
                units as f64 / calls.max(1) as f64 / 1e6,
                crate::diagnostic::plural(calls, "call"),
            ),
        ));
    }
    problems
}

fn probe_hooks(r: &Ruleset, positions: &[Position]) -> Vec<Problem> {
    let (params, ext) = match build(r) {
        Ok(b) => b,
        Err(errors) => return errors.iter().map(ScriptError::problem).collect(),
    };
    let mut problems: Vec<Problem> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let Some(ext) = ext else {
        return problems;
    };
    ext.keep_failures();
    // The first failure of each hook of each script.
    let mut report = |errors: Vec<ScriptError>, problems: &mut Vec<Problem>| {
        for e in errors {
            if seen.insert((e.file.clone(), e.owner.clone(), e.hook.clone())) {
                problems.push(e.problem());
            }
        }
    };
    for base in positions {
        if host::check_spent() {
            return problems;
        }
        ext.reset();
        ext.probe_events(base, &params);
        report(ext.take_errors(), &mut problems);
        for team in Team::BOTH {
            let mut pos = *base;
            pos.to_move = team;
            pos.phase = crate::games::ball::position::Phase::Action;
            pos.ap = params.ap_per_turn;
            pos.ep = [100, 100];
            pos.outcome = None;
            for p in pos.pieces.iter_mut() {
                p.restricted = false;
            }
            // The rules' own list first: a variant's `allow` is asked
            // about each of its actions.
            let mut out = Vec::new();
            crate::games::ball::movegen::legal_into(&pos, &params, &mut out);
            ext.extend_legal(&pos, &params, &mut out);
            report(ext.take_errors(), &mut problems);
            // Each card's effect on a spread of its targets (a card may
            // offer 4,096, and 64 cards a coach would make that millions
            // of plays for one check).
            let mut by_card: std::collections::BTreeMap<_, Vec<Action>> = Default::default();
            for a in out {
                if let Action::Card { card, .. } = a {
                    by_card.entry(card).or_default().push(a);
                }
            }
            for (&card, plays) in &by_card {
                let step = plays.len().div_ceil(PROBE_PLAYS).max(1);
                for &a in plays.iter().step_by(step) {
                    if host::check_spent() || ext.effect_failed(card, team) {
                        break;
                    }
                    let mut copy = pos;
                    let _ = ext.apply(&mut copy, &params, a, &mut ());
                    report(ext.take_errors(), &mut problems);
                }
            }
        }
    }
    let ball = Ball::with_extension(params, ext.clone());
    for seed in 0..PROBE_GAMES {
        ball.reset_scripts();
        let mut rng = crate::kernel::rng::SplitMix64::new(seed);
        let mut pos = ball.start();
        let mut legal = Vec::new();
        for _ in 0..PROBE_ACTIONS {
            if host::check_spent() {
                return problems;
            }
            ball.legal_into(&pos, &mut legal);
            report(ball.take_script_errors(), &mut problems);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            ball.apply(&mut pos, a);
            report(ball.take_script_errors(), &mut problems);
        }
    }
    problems
}

/// The positions `check` runs hooks on: the start, and the start of every
/// shipped scenario that is a position under these parameters.
fn situations(params: &Params) -> Vec<Position> {
    let game = Ball::new(params.clone());
    let mut positions = vec![Position::start(params)];
    let mut files: Vec<std::path::PathBuf> = crate::data::roots()
        .iter()
        .flat_map(|r| std::fs::read_dir(r.join("tests/scenarios")).into_iter().flatten())
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "scn"))
    {
        if let Ok(text) = crate::files::read_text(f, crate::files::MAX_SCENARIO)
            && let Ok(s) = crate::scenario::parse(&text, &game)
            && !positions.contains(&s.start)
        {
            positions.push(s.start);
        }
    }
    positions
}

use crate::games::ball::action::Action;
use crate::games::ball::extension::Extension;
use crate::games::ball::params::Params;
use crate::games::ball::piece::Team;
use crate::games::ball::position::Position;
use crate::kernel::game::Game;

/// Checks one card file alone in the `cards` ruleset: it loads, and its
/// hooks run on the start position and on the start of every shipped
/// scenario, for both coaches, and in a few random games
/// (`ball check --card`).
pub fn check_card(path: &str, text: &str) -> Vec<Problem> {
    let src = crate::games::ball::ruleset::ScriptSource {
        path: path.to_string(),
        text: text.to_string(),
    };
    // Without the shipped ruleset and scenarios there is nothing to run
    // the card's hooks on, and "no problems" would be a lie: say so.
    let mut r = match Ruleset::load("cards") {
        Ok(r) => r,
        Err(e) => {
            return vec![Problem::new(
                path,
                None,
                format!("cannot check the card: the `cards` ruleset it is checked in does not load: {e}"),
            )];
        }
    };
    r.card_mode = true;
    r.cards = [vec![src.clone()], vec![src]];
    let positions = situations(&r.params);
    if positions.len() < MIN_SITUATIONS {
        return vec![Problem::new(
            path,
            None,
            format!(
                "cannot check the card: only {} of the shipped scenarios' positions were found to run it on",
                positions.len()
            ),
        )];
    }
    probe(&r, &positions)
}

/// Fewer positions than this means the shipped scenarios are missing
/// (there are dozens): a check on the start position alone misses most
/// of what a card can do.
const MIN_SITUATIONS: usize = 8;
pub mod targets;
