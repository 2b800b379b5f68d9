//! G-ball's binding to the game-free variant host (`crate::script::variants`):
//! house rules for G-ball in Lua (issue 24).
//!
//! [`api`] is the `game` table a hook reads and writes, [`points`] the
//! rule points the engine asks and the checks of their answers. Here:
//! the [`Scope`] of a variant's counters (game, team, player), a
//! ruleset's loaded [`Script`], and [`Hooked`], the engine's
//! `flow::Hooks` answered by the scripts. A ruleset without variants has
//! no `Script`: the engine runs with `()` and pays nothing.

pub mod api;
pub mod points;

use std::rc::Rc;

use mlua::{Lua, Table};

use super::action::Action;
use super::event::{Event, Injury};
use super::flow::{self, Ending, Hooks, RulesEnd};
use super::position::{Position, TackleKind};
use super::{Gball, Params, Team, Venue};
use crate::kernel::events::Sink;
use crate::script::ScriptError;
use crate::script::variants::{Host, Source};
pub use points::Point;

/// Who a G-ball counter is kept for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Game,
    /// Two slots, RED then BLU.
    Team,
    /// Eighteen slots, in id byte order (`BLU1`…`BLU9`, `RED1`…`RED9`).
    Player,
}

impl crate::script::layout::Scope for Scope {
    const ALL: &'static [Scope] = &[Scope::Game, Scope::Team, Scope::Player];
    const MAX_SLOTS: usize = 64;
    fn name(self) -> &'static str {
        match self {
            Scope::Game => "game",
            Scope::Team => "team",
            Scope::Player => "player",
        }
    }
    fn slots(self) -> usize {
        match self {
            Scope::Game => 1,
            Scope::Team => 2,
            Scope::Player => 18,
        }
    }
}

pub type Layout = crate::script::layout::Layout<Scope>;

/// What the bindings read besides the position.
#[derive(Clone, Debug)]
pub struct Rules {
    pub params: Params,
    pub layout: Rc<Layout>,
}

/// G-ball's binding.
pub struct Binding;

impl crate::script::variants::Binding for Binding {
    type Pos = Position;
    type Rules = Rules;
    type Scope = Scope;
    const POINTS: &'static [crate::script::variants::Point] = points::POINTS;
    const FIELDS: &'static [crate::script::registry::Field] = api::VARIANT_FIELDS;
    const API: &'static crate::script::registry::Api = &api::API;

    fn register(lua: &Lua, game: &Table) -> mlua::Result<()> {
        api::register(lua, game)
    }

    fn check(pos: &Position, rules: &Rules) -> Result<(), String> {
        if pos.vars.len() != rules.layout.slots() {
            return Err("the counters changed size".into());
        }
        let g = Gball::with_params(rules.params.clone());
        super::json::check_position(&g, pos).map_err(|e| format!("`{}`: {}", e.field, e.problem))
    }
}

/// A ruleset's variants, loaded.
pub struct Script {
    pub sources: Vec<Source>,
    pub host: Host<Binding>,
    pub rules: Rules,
    /// The variants' own actions, offered wherever a player may `stay`
    /// (G6.3): `resolve`, then he stays.
    pub actions: Vec<crate::script::variants::ActionDecl>,
}

/// A G-ball parameter's value, for `game.param`.
pub enum ParamValue {
    Int(i64),
    Bool(bool),
    Text(&'static str),
}

/// G18 parameter `name`, or one of the variants' options.
pub fn param(rules: &Rules, name: &str) -> Option<ParamValue> {
    let p = &rules.params;
    use ParamValue::*;
    Some(match name {
        "players_on_court" => Int(p.players_on_court.into()),
        "points_to_win_set" => Int(p.points_to_win_set.into()),
        "sets_to_win_match" => Int(p.sets_to_win_match.into()),
        "venue" => Text(match p.venue {
            Venue::Home => "home",
            Venue::Neutral => "neutral",
        }),
        "point_turn_limit" => Int(p.point_turn_limit.into()),
        "match_turn_limit" => Int(p.match_turn_limit.into()),
        "catch_target" => Int(p.catch_target.into()),
        "star_bonus" => Int(p.star_bonus.into()),
        "injury_sum" => Int(p.injury_sum.into()),
        "morale" => Bool(p.morale),
        "demoralise_gap" => Int(p.demoralise_gap.into()),
        "earned_stars" => Bool(p.earned_stars),
        "hat_trick" => Int(p.hat_trick.into()),
        "catch_attempts_min" => Int(p.catch_attempts_min.into()),
        "catch_rate_min" => Int(p.catch_rate_min.into()),
        "tackles_min" => Int(p.tackles_min.into()),
        "tackle_rate_min" => Int(p.tackle_rate_min.into()),
        other => match rules.layout.option(other) {
            Some(o) if o.boolean => Bool(o.value != 0),
            Some(o) => Int(o.value),
            None => return None,
        },
    })
}

impl Script {
    /// Loads `sources` with the options the ruleset sets (`given`).
    pub fn load(
        sources: &[Source],
        params: &Params,
        given: Vec<crate::script::layout::OptionValue>,
    ) -> Result<Script, Vec<ScriptError>> {
        let mut layout = Layout {
            given,
            ..Layout::default()
        };
        let host = Host::<Binding>::load(sources, &mut layout)?;
        let mut actions = Vec::new();
        let mut errors = Vec::new();
        for (k, v) in host.variants.iter().enumerate() {
            let taken = [
                "place", "move", "stay", "turn", "decline", "receivers", "block", "catch", "aim",
                "keep", "throw", "spin", "handoff",
            ];
            let fields = api::VARIANT_ACTION_FIELDS;
            if let Err(e) = crate::script::variants::read_actions(v, k, fields, &taken, &mut actions) {
                errors.push(crate::script::fields::at_field(e, &sources[k].text));
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Script {
            actions,
            sources: sources.to_vec(),
            host,
            rules: Rules {
                params: params.clone(),
                layout: Rc::new(layout),
            },
        })
    }

    pub fn layout(&self) -> &Layout {
        &self.rules.layout
    }

    /// The variant actions player `p` may take now (where he may stay).
    pub fn actions_for(&self, pos: &Position, p: u8) -> Vec<Action> {
        let who = super::position::id_name(p);
        let args = |lua: &mlua::Lua| {
            Ok(mlua::MultiValue::from_vec(vec![mlua::Value::String(lua.create_string(&who)?)]))
        };
        self.actions
            .iter()
            .filter(|a| self.host.can(a, pos, &self.rules, &args))
            .map(|a| Action::Variant { id: a.id, player: p })
            .collect()
    }

    /// What variant action `id` does, for the boards.
    pub fn action_text(&self, id: u8) -> Option<String> {
        self.actions.iter().find(|a| a.id == id).map(|a| a.text.clone())
    }

    /// The variant action `word PLAYER` names, if this ruleset has it.
    pub fn parse_action(&self, text: &str) -> Option<Action> {
        let (word, player) = text.split_once(' ')?;
        let a = self.actions.iter().find(|a| a.name == word)?;
        let player = super::position::parse_id(player)?;
        Some(Action::Variant { id: a.id, player })
    }

    /// A variant action's `resolve`, on a checked copy.
    fn resolve(&self, pos: &mut Position, id: u8, player: u8) {
        let Some(a) = self.actions.iter().find(|a| a.id == id) else {
            return;
        };
        let who = super::position::id_name(player);
        self.host.resolve(a, pos, &self.rules, &|lua| {
            Ok(mlua::MultiValue::from_vec(vec![mlua::Value::String(lua.create_string(&who)?)]))
        });
    }

    /// The counters of a new match.
    pub fn start_vars(&self) -> Vec<i16> {
        let mut v = vec![0; self.layout().slots()];
        self.layout().start_values(&mut v);
        v
    }

    /// The failures so far, each with its file and line (a bad answer,
    /// which Lua gives no line, at the line where the variant writes the
    /// hook); emptied.
    pub fn take_errors(&self) -> Vec<ScriptError> {
        let mut errors = self.host.take_errors();
        for e in &mut errors {
            if e.line.is_none()
                && let Some(src) = self.sources.iter().find(|s| s.path == e.file)
            {
                e.line = crate::script::fields::key_line(&src.text, &e.hook);
            }
        }
        errors
    }

    /// The legal list as the variants' `allow` leaves it (never empty).
    pub fn allowed(&self, g: &Gball, pos: &Position) -> Vec<Action> {
        let mut raw = Vec::new();
        super::rules::raw_visit(g, pos, &mut |a| {
            raw.push(a);
            true
        });
        if raw.len() < 2 {
            return raw;
        }
        let kept: Vec<Action> = raw
            .iter()
            .copied()
            .filter(|&a| self.allows(pos, a))
            .collect();
        if kept.is_empty() { raw } else { kept }
    }

    /// Applies `action` with the rule points, then the reactions and
    /// `ends_now`. The first forced die out of range, as `flow::apply`.
    #[inline(never)]
    pub fn apply<S: Sink<Event>>(
        &self,
        g: &Gball,
        pos: &mut Position,
        action: Action,
        sink: &mut S,
    ) -> Option<String> {
        if let Action::Variant { id, player } = action {
            self.resolve(pos, id, player);
        }
        let hooks = Hooked(self);
        let reacts = self.hooks(Point::OnEvent) || self.hooks(Point::AfterAction);
        if reacts {
            let mut log = Vec::new();
            let bad = flow::apply_with(g, pos, action, &mut log, &hooks);
            for e in &log {
                sink.emit(*e);
            }
            if bad.is_some() {
                return bad;
            }
            self.react(pos, action, &log);
        } else {
            let bad = flow::apply_with(g, pos, action, sink, &hooks);
            if bad.is_some() {
                return bad;
            }
        }
        if pos.winner.is_none()
            && let Some(Ending::End { winner, reason }) = self.ending(pos, None)
        {
            sink.emit(Event::Match(winner));
            flow::finish(pos, winner);
            pos.ended_by = reason;
        }
        None
    }
}

/// The engine's rule points, answered by a ruleset's variants.
pub struct Hooked<'a>(pub &'a Script);

impl Hooks for Hooked<'_> {
    fn first_two(&self, g: &Gball, pos: &Position) -> (usize, Option<Action>) {
        super::rules::first_two(g, pos)
    }
    fn catch_target(&self, pos: &Position, p: u8, target: u8) -> u8 {
        self.0.catch_target(pos, p).unwrap_or(target)
    }
    fn tackle_modifier(&self, pos: &Position, p: u8, kind: TackleKind) -> i32 {
        self.0.tackle_modifier(pos, p, kind.name()).unwrap_or(0)
    }
    fn injury(&self, pos: &Position, p: u8, roll: u32) -> Option<Option<Injury>> {
        self.0.injury(pos, p, roll)
    }
    fn goal_value(&self, pos: &Position, team: Team) -> u8 {
        self.0.goal_value(pos, team).unwrap_or(1)
    }
    fn ending(&self, pos: &Position, why: RulesEnd) -> Ending {
        self.0.ending(pos, Some(why)).unwrap_or(Ending::Rules)
    }
    fn morale(&self, pos: &Position, team: Team, level: u8) -> u8 {
        self.0.morale(pos, team, level).unwrap_or(level)
    }
    fn earns_star(&self, pos: &Position, p: u8, star: char) -> bool {
        self.0.earns_star(pos, p, star)
    }
}

/// The scripts a [`Gball`] plays with: shared, and compared and hashed by
/// the variants' text and the options' values, so that two games built
/// from the same ruleset are equal.
#[derive(Clone)]
pub struct Scripted(pub Rc<Script>);

impl Scripted {
    fn key(&self) -> (&[Source], &[crate::script::layout::OptionValue]) {
        (&self.0.sources, &self.0.layout().options)
    }
}

impl std::ops::Deref for Scripted {
    type Target = Script;
    fn deref(&self) -> &Script {
        &self.0
    }
}

impl PartialEq for Scripted {
    fn eq(&self, other: &Scripted) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Scripted {}

impl std::hash::Hash for Scripted {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl std::fmt::Debug for Scripted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids: Vec<&str> = self.0.sources.iter().map(Source::id).collect();
        f.debug_struct("Scripted").field("variants", &ids).finish()
    }
}

/// The probes `ball check` runs a ruleset's variants on: every read-only
/// hook on positions along a few random matches, and the matches played
/// with the scripts to a bounded length. The failures, with file and line.
pub fn probe(g: &Gball) -> Vec<ScriptError> {
    use crate::kernel::game::{Game, Title};
    use crate::kernel::rng::SplitMix64;
    let Some(s) = g.script.as_ref() else {
        return Vec::new();
    };
    s.host.reset();
    let mut errors = Vec::new();
    let mut rng = SplitMix64::new(24);
    let mut legal = Vec::new();
    for seed in 0..3u64 {
        let (game, mut pos, _) = g.new_game(seed);
        for step in 0..4000 {
            if pos.winner.is_some() {
                break;
            }
            if step % 200 == 0 {
                probe_position(s, &pos);
            }
            game.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
            game.apply(&mut pos, a);
        }
        probe_position(s, &pos);
        errors.extend(s.take_errors());
        s.host.reset();
    }
    errors.sort_by(|a, b| (&a.file, a.line, &a.hook).cmp(&(&b.file, b.line, &b.hook)));
    errors.dedup_by(|a, b| a.file == b.file && a.line == b.line && a.hook == b.hook);
    errors
}

/// Asks every read-only point once on `pos`.
fn probe_position(s: &Script, pos: &Position) {
    let red = points::first_player(pos, Team::Red).unwrap_or(9);
    let h = Hooked(s);
    let _ = h.catch_target(pos, red, 3);
    let _ = h.tackle_modifier(pos, red, TackleKind::Block);
    let _ = h.injury(pos, red, 3);
    let _ = h.goal_value(pos, Team::Red);
    let _ = h.ending(pos, RulesEnd::TurnLimit);
    let _ = h.ending(pos, RulesEnd::Sets);
    let _ = h.morale(pos, Team::Blu, 1);
    let _ = h.earns_star(pos, red, 'C');
    let _ = s.ending(pos, None);
}
