//! Gateball's binding to the Lua host (`crate::script::variants`): house
//! rules as variant scripts. A ruleset lists them (`variants = [...]`);
//! the rules ask them at Gateball's rule points (`points.rs`) through
//! `apply::Hooks`, and the legal list through [`Scripted::legal`].
//!
//! A game without variants holds no host and no Lua state: every rule
//! point is the rulebook's, inlined (`()` hooks).

pub mod api;
pub mod points;

use std::rc::Rc;
use std::sync::Arc;

use mlua::{Lua, Table};

use super::position::Position;
use crate::script::ScriptError;
use crate::script::variants::{self, Binding, Host, Point, Source};

/// Who a Gateball counter is kept for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Game,
    Team,
    Ball,
}

impl Scope {
    pub fn word(self) -> &'static str {
        crate::script::layout::Scope::name(self)
    }
}

impl crate::script::layout::Scope for Scope {
    const ALL: &'static [Scope] = &[Scope::Game, Scope::Team, Scope::Ball];
    const MAX_SLOTS: usize = MAX_VARS;

    fn name(self) -> &'static str {
        match self {
            Scope::Game => "game",
            Scope::Team => "team",
            Scope::Ball => "ball",
        }
    }

    fn slots(self) -> usize {
        match self {
            Scope::Game => 1,
            Scope::Team => 2,
            Scope::Ball => 10,
        }
    }
}

/// The most counter slots a position keeps.
pub const MAX_VARS: usize = 32;

pub type Layout = crate::script::layout::Layout<Scope>;

/// What the bindings read beside the position.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    pub layout: Arc<Layout>,
    /// The ruleset's T14 values.
    pub rules: super::Rules,
}

/// Gateball's binding.
pub struct GateballBinding;

impl Binding for GateballBinding {
    type Pos = Position;
    type Rules = Frame;
    type Scope = Scope;
    const POINTS: &'static [Point] = points::POINTS;
    const FIELDS: &'static [crate::script::registry::Field] = api::VARIANT_FIELDS;
    const API: &'static crate::script::registry::Api = &api::API;

    fn register(lua: &Lua, game: &Table) -> mlua::Result<()> {
        api::register(lua, game)
    }

    /// A variant writes counters and points only, each bounded as it is
    /// written: every position it leaves is one the rules accept.
    fn check(_pos: &Position, _rules: &Frame) -> Result<(), String> {
        Ok(())
    }
}

/// One action a variant adds: the host's declaration, and whether the
/// play ends after it (`ends_play`, T3.4).
pub struct VariantAction {
    pub decl: variants::ActionDecl,
    pub ends_play: bool,
}

impl std::ops::Deref for VariantAction {
    type Target = variants::ActionDecl;
    fn deref(&self) -> &variants::ActionDecl {
        &self.decl
    }
}

/// A ruleset's variants, loaded: one per game object (a thread's).
pub struct Scripted {
    pub host: Host<GateballBinding>,
    pub sources: Vec<Source>,
    pub frame: Frame,
    pub actions: Vec<VariantAction>,
}

/// A game's scripts: none for the rulebook. Compared and hashed by their
/// text and options, as the rules they are.
#[derive(Clone, Default)]
pub struct Scripts(pub Option<Rc<Scripted>>);

impl Scripts {
    pub fn get(&self) -> Option<&Scripted> {
        self.0.as_deref()
    }

    /// The variants' layout (empty without variants).
    pub fn layout(&self) -> Option<&Layout> {
        self.get().map(|s| &*s.frame.layout)
    }

    fn key(&self) -> Option<(&[Source], &[crate::script::layout::OptionValue])> {
        self.get()
            .map(|s| (s.sources.as_slice(), s.frame.layout.options.as_slice()))
    }
}

impl PartialEq for Scripts {
    fn eq(&self, other: &Scripts) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Scripts {}

impl std::hash::Hash for Scripts {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl std::fmt::Debug for Scripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.get() {
            None => f.write_str("Scripts(none)"),
            Some(s) => f
                .debug_list()
                .entries(s.sources.iter().map(|s| &s.path))
                .finish(),
        }
    }
}

/// Loads a ruleset's variants for a game by `rules`, with the
/// options the ruleset file gives (an option no variant declares is the
/// ruleset reader's problem, at its line). No variants: no host.
pub fn load(
    sources: &[Source],
    given: &[crate::script::layout::OptionValue],
    rules: super::Rules,
) -> Result<Scripts, Vec<ScriptError>> {
    if sources.is_empty() {
        return Ok(Scripts(None));
    }
    let mut layout = Layout {
        given: given.to_vec(),
        ..Layout::default()
    };
    let host = Host::<GateballBinding>::load(sources, &mut layout)?;
    let mut errors = Vec::new();
    let mut decls = Vec::new();
    for (k, v) in host.variants.iter().enumerate() {
        if let Err(e) = variants::read_actions(v, k, api::ACTION_FIELDS, &points::WORDS, &mut decls)
        {
            errors.push(crate::script::fields::at_field(e, &sources[k].text));
        }
    }
    let mut actions = Vec::new();
    for decl in decls {
        let v = &host.variants[decl.variant];
        match decl.table.get::<Option<bool>>("ends_play") {
            Ok(ends) => actions.push(VariantAction {
                ends_play: ends.unwrap_or(true),
                decl,
            }),
            Err(_) => errors.push(ScriptError::kernel(
                &v.file,
                &v.owner,
                "load",
                format!("action `{}`: `ends_play` must be a boolean", decl.name),
            )),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Scripts(Some(Rc::new(Scripted {
        host,
        sources: sources.to_vec(),
        frame: Frame {
            layout: Arc::new(layout),
            rules,
        },
        actions,
    }))))
}

impl Scripted {
    /// This game's script failures, one line each with file and line.
    pub fn take_errors(&self) -> Vec<String> {
        self.host
            .take_errors()
            .iter()
            .map(ScriptError::render)
            .collect()
    }
}

/// `ball check`'s run of a ruleset's variants: seeded random games
/// through every rule point they hook; each hook's first failure is a
/// problem with file and line (a failed hook is not asked again in its
/// game, so a hostile one costs one call a game).
pub fn probe(r: &super::ruleset::GateballRuleset, scripts: Scripts) -> Vec<crate::diagnostic::Problem> {
    use crate::kernel::game::Game;
    let Some(s) = scripts.get() else {
        return Vec::new();
    };
    let mut errors: Vec<ScriptError> = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..PROBE_GAMES {
        let (mut game, mut pos, _) = super::setup::create(r.rules, r.court.clone(), &r.setup, seed);
        if let Some(layout) = scripts.layout() {
            pos.vars = vec![0; layout.slots()];
            layout.start_values(&mut pos.vars);
        }
        game.scripts = scripts.clone();
        s.host.reset();
        let mut rng = crate::kernel::rng::SplitMix64::new(seed ^ 0x5eed);
        for _ in 0..PROBE_ACTIONS {
            game.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            game.apply(&mut pos, a);
            for e in s.host.take_errors() {
                if !errors.iter().any(|x| x.owner == e.owner && x.hook == e.hook) {
                    errors.push(e);
                }
            }
        }
    }
    errors.iter().map(ScriptError::problem).collect()
}

/// The random games `ball check` plays, and their length bound.
const PROBE_GAMES: u64 = 3;
const PROBE_ACTIONS: usize = 3000;

/// The name of a variant action, for the notation.
pub fn action_name(id: u8) -> &'static str {
    variants::action_name(id)
}
