//! The script host of one game: a sandboxed state with the ruleset's
//! cards, EP table and variants loaded, and the calls into their hooks.
//!
//! **Invariant:** a hook never changes a position in place. It works on a
//! copy held by the bindings; [`Host::resolve`] and the event hooks return
//! that copy only when the hook succeeded and `json::validate` accepts it.

use mlua::{Function, MultiValue, Table, Value};

use super::api;
use super::error::ScriptError;
use super::points::Point;
use super::sandbox::Sandbox;
use crate::script::fields::{at_field, check_keys, lua_show};
use super::targets::{
    ArgSpec, BallNeed, Declared, MAX_TARGETS, PieceSpec, Requires, SquareSpec, TeamFilter,
};
use crate::games::ball::action::{Action, Arg, CardId};
use crate::games::ball::extension::EarnedBy;
use crate::games::ball::board::Sq;
use crate::games::ball::json;
use crate::games::ball::params::{Params, Verb};
use crate::games::ball::piece::{PieceId, Team};
use crate::games::ball::position::{MAX_CARD_USES, Position};
use crate::games::ball::ruleset::{ScriptParam, ScriptSource, params_problem, set_script_param};

/// The most cards one coach may hold, and the most variants a ruleset
/// may list.
pub const MAX_SCRIPTS: usize = 64;

/// The most actions one variant may add.
pub const MAX_ACTIONS: usize = 16;

/// What a card argument is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    Piece,
    Square,
    Number,
}

/// A card's template (B11.6), read once at load.
#[derive(Clone, Debug)]
pub struct CardInfo {
    pub id: CardId,
    pub name: String,
    pub text: String,
    pub file: String,
    /// EP cost.
    pub cost: u32,
    /// AP cost.
    pub ap: u8,
    /// Plays per game, when limited.
    pub uses: Option<u8>,
    /// Plays per turn, when limited.
    pub per_turn: Option<u8>,
    pub args: Vec<ArgKind>,
}

struct Card {
    info: CardInfo,
    /// `card <id>`, as failures and `ball check`'s account name it: made
    /// once, not on every play.
    owner: String,
    can_play: Option<Function>,
    targets: Targets,
    resolve: Function,
}

/// How a card's targets are found: declared as data and enumerated
/// natively (fast, see `targets.rs`), or by its own Lua function.
enum Targets {
    Declared(Declared),
    Script(Function),
}

/// A variant's event hooks (B12 and house rules). Parameters and
/// forbidden verbs it declares are folded into `Params` at load.
pub(super) struct Variant {
    pub(super) name: String,
    /// `variant NAME`, as messages name it: made once, not per hook call
    /// (`cost` and `allow` are asked per listed action).
    pub(super) owner: String,
    pub(super) file: String,
    /// The rule points it hooks (`points.rs`), by [`super::points::Point`].
    pub(super) points: [Option<Function>; super::points::POINTS],
    /// Its ends' indices in `Params::layout` (`ended_by`), by name; the
    /// first is the variant's own name.
    pub(super) ends: Vec<(String, u8)>,
}

/// The EP table keys (B11.3): verbs, then events.
pub const EP_KEYS: &[&str] = &[
    "move",
    "dodge",
    "tdodge",
    "block",
    "protect",
    "handoff",
    "spass",
    "lpass",
    "card",
    "end",
    "standup",
    "release",
    "knock_down",
    "forced_fumble",
    "take_loose_ball",
    "pass_received",
    "touchdown",
];

/// EP per verb and event, read from the EP-table script.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EpTable {
    pub values: [u32; EP_KEYS.len()],
}

/// Where each verb's key sits in [`EP_KEYS`], in [`Verb`] order; `convert`
/// has none: buying EP earns none (B11.4). Every action looks its verb up
/// here, so it is an index, not a search by name.
const VERB_KEYS: [Option<usize>; Verb::ALL.len()] = [
    Some(0),  // move
    Some(1),  // dodge
    Some(2),  // tdodge
    Some(3),  // block
    Some(4),  // protect
    Some(5),  // handoff
    Some(6),  // spass
    Some(7),  // lpass
    None,     // convert
    Some(8),  // card
    Some(9),  // end
    Some(10), // standup
    Some(11), // release
];

/// Where the first event's key sits in [`EP_KEYS`]: the events follow in
/// [`EarnedBy`] order.
const FIRST_EVENT_KEY: usize = 12;

impl EpTable {
    #[inline]
    pub fn verb(&self, v: Verb) -> u32 {
        VERB_KEYS[v as usize].map_or(0, |i| self.values[i])
    }

    #[inline]
    pub fn event(&self, e: EarnedBy) -> u32 {
        self.values[FIRST_EVENT_KEY + e as usize]
    }
}

/// Budget units all the hook calls and loads of one `ball check` may
/// spend together: as much as 20 calls that each ran out. A check makes
/// thousands of calls (`allow` alone is asked about every action of every
/// list it makes); a hook that spends nearly its whole budget on each,
/// without ever running out, would otherwise keep it busy for hours.
pub const CHECK_UNITS: u64 = 20 * super::sandbox::INSTRUCTION_BUDGET as u64;
/// The thread CPU time a check may spend in scripts: the backstop for
/// work the charges undercount (a deep Lua stack costs the collector more
/// than the units it is charged), as the time limit is for one call.
pub const CHECK_CPU: std::time::Duration = std::time::Duration::from_secs(3);
/// The error of a hook call refused because the check's budget is spent:
/// the probe drops these and reports the budget once.
pub const CHECK_SPENT: &str = "not called: `ball check`'s budget for all hook calls is spent";

/// What each hook cost in one `ball check` (on this thread): the budget
/// stays bounded, and when it runs out the report can name the hook that
/// spent it.
struct Ledger {
    /// [`super::sandbox::units_spent_here`] when the check started.
    from: u64,
    /// The thread's CPU time when the check started.
    cpu_from: std::time::Duration,
    /// Calls and units by (file, owner, hook).
    by_hook: std::collections::BTreeMap<(String, String, &'static str), (u64, u64)>,
    spent: bool,
}

thread_local! {
    static LEDGER: std::cell::RefCell<Option<Ledger>> = const { std::cell::RefCell::new(None) };
}

/// Starts `ball check`'s account on this thread: from now on every hook
/// call and load is counted against [`CHECK_UNITS`] and [`CHECK_CPU`].
pub fn check_begin() {
    LEDGER.with(|l| {
        *l.borrow_mut() = Some(Ledger {
            from: super::sandbox::units_spent_here(),
            cpu_from: super::sandbox::thread_cpu_time(),
            by_hook: Default::default(),
            spent: false,
        })
    });
}

/// The hook that spent the most of a check's budget.
pub struct Spender {
    pub file: String,
    pub owner: String,
    pub hook: &'static str,
    pub calls: u64,
    pub units: u64,
}

/// Ends the account; when the check's budget ran out, the hook that spent
/// the most of it.
pub fn check_end() -> Option<Spender> {
    let ledger = LEDGER.with(|l| l.borrow_mut().take())?;
    if !ledger.spent {
        return None;
    }
    // The most units; among equals, the first in (file, owner, hook)
    // order, so the report is the same every run.
    let mut top: Option<Spender> = None;
    for ((file, owner, hook), (calls, units)) in ledger.by_hook {
        if top.as_ref().is_none_or(|t| units > t.units) {
            top = Some(Spender {
                file,
                owner,
                hook,
                calls,
                units,
            });
        }
    }
    top
}

/// Whether the check's budget is spent: hooks are then no longer called.
pub fn check_spent() -> bool {
    LEDGER.with(|l| l.borrow().as_ref().is_some_and(|l| l.spent))
}

fn account(who: (&str, &str), hook: &'static str, units: u64) {
    LEDGER.with(|l| {
        let mut l = l.borrow_mut();
        let Some(l) = l.as_mut() else { return };
        let e = l
            .by_hook
            .entry((who.0.to_string(), who.1.to_string(), hook))
            .or_default();
        e.0 += 1;
        e.1 += units;
        let units = super::sandbox::units_spent_here().saturating_sub(l.from);
        let cpu = super::sandbox::thread_cpu_time().saturating_sub(l.cpu_from);
        if units >= CHECK_UNITS || cpu >= CHECK_CPU {
            l.spent = true;
        }
    });
}

pub struct Host {
    pub(super) sandbox: Sandbox,
    pub(super) game: Table,
    /// The bindings' context, set before each call.
    bound: api::Shared,
    cards: Vec<Card>,
    /// The variants' own actions, as indices into `cards`: both coaches
    /// may take them, card mode or not.
    actions: Vec<usize>,
    pub(super) variants: Vec<Variant>,
    pub(super) names: Names,
    /// Each script's returned table, its file and owner: what is frozen
    /// once every script has loaded.
    roots: std::cell::RefCell<Vec<(String, String, Value)>>,
    /// Upvalues each call must leave as they were (`script::freeze`).
    frozen: Vec<crate::script::freeze::Frozen>,
}

/// Every piece id and square name as a Lua string, made once at load:
/// passing a card's arguments to `resolve` then builds no string. The
/// same for the keys and verbs of an `ActionInfo` table, which `cost` and
/// `allow` are handed for every candidate of a legal list: making them
/// again for each was most of such a call's cost.
pub(super) struct Names {
    pub(super) pieces: Vec<mlua::LuaString>,
    pub(super) squares: Vec<mlua::LuaString>,
    /// [`ACTION_KEYS`], in order.
    keys: Vec<mlua::LuaString>,
    /// Each verb's name, by [`Verb`] index.
    verbs: Vec<mlua::LuaString>,
}

/// The keys an `ActionInfo` table may hold ([`Host::action_table`]).
const ACTION_KEYS: [&str; 15] = [
    "verb", "text", "piece", "to", "exit", "push", "from", "at", "ap", "card", "args", "top",
    "top_to", "bottom_to", "keep",
];

/// An index into [`ACTION_KEYS`].
#[derive(Clone, Copy)]
enum Key {
    Verb,
    Text,
    Piece,
    To,
    Exit,
    Push,
    From,
    At,
    Ap,
    Card,
    Args,
    Top,
    TopTo,
    BottomTo,
    Keep,
}

impl Names {
    fn new(lua: &mlua::Lua) -> mlua::Result<Names> {
        let strings = |names: &mut dyn Iterator<Item = String>| -> mlua::Result<Vec<_>> {
            names.map(|n| lua.create_string(n)).collect()
        };
        Ok(Names {
            pieces: strings(&mut PieceId::all().map(|p| p.to_string()))?,
            squares: strings(&mut Sq::all().map(|s| s.to_string()))?,
            keys: strings(&mut ACTION_KEYS.iter().map(|k| k.to_string()))?,
            verbs: strings(&mut Verb::ALL.iter().map(|v| v.name().to_string()))?,
        })
    }

    fn key(&self, k: Key) -> &mlua::LuaString {
        &self.keys[k as usize]
    }
}

/// What loading produced beyond the host.
pub struct Loaded {
    pub host: Host,
    /// The ruleset's parameters after every variant's changes.
    pub params: Params,
    pub ep: EpTable,
    /// Each coach's cards, as indices into [`Host::card`].
    pub decks: [Vec<usize>; 2],
}

impl Host {
    /// Loads every script of a ruleset; reports every problem found.
    pub fn load(
        params: &Params,
        ep_table: Option<&ScriptSource>,
        variants: &[ScriptSource],
        cards: &[Vec<ScriptSource>; 2],
    ) -> Result<Loaded, Vec<ScriptError>> {
        let sandbox = Sandbox::new()
            .map_err(|e| vec![ScriptError::from_lua(&e, "sandbox", "host", "start")])?;
        let names = Names::new(&sandbox.lua)
            .map_err(|e| vec![ScriptError::from_lua(&e, "api", "host", "start")])?;
        let (game, bound) = api::register(&sandbox.lua, &names.pieces, &names.squares)
            .and_then(|(g, b)| Ok((crate::script::variants::read_only(&sandbox.lua, g)?, b)))
            .map_err(|e| vec![ScriptError::from_lua(&e, "api", "host", "start")])?;
        let _ = sandbox.lua.globals().set("game", &game);
        let mut host = Host {
            sandbox,
            game,
            bound,
            cards: Vec::new(),
            actions: Vec::new(),
            variants: Vec::new(),
            names,
            roots: Default::default(),
            frozen: Vec::new(),
        };
        let mut errors = Vec::new();
        // Every card's targets go into every legal list, every variant's
        // hooks run at every event: a ruleset of thousands would make
        // each list and each turn as slow as it likes.
        for (list, what) in [
            (cards[0].as_slice(), "ATK's cards"),
            (cards[1].as_slice(), "DEF's cards"),
            (variants, "variants"),
        ] {
            if list.len() > MAX_SCRIPTS {
                return Err(vec![ScriptError::kernel(
                    &list[MAX_SCRIPTS].path,
                    "ruleset",
                    "load",
                    format!(
                        "{} {what}: a ruleset lists at most {MAX_SCRIPTS}",
                        list.len()
                    ),
                )]);
            }
        }
        let mut params = params.clone();
        {
            // What the variants declare is built afresh from their text:
            // `params` may be a game's, already holding it.
            std::sync::Arc::make_mut(&mut params.layout).reset();
        }
        let mut ep = EpTable::default();
        if let Some(src) = ep_table {
            match host.load_ep(src) {
                Ok(t) => ep = t,
                Err(e) => errors.push(e),
            }
        }
        for src in variants {
            if let Err(e) = host.load_variant(src, &mut params) {
                errors.push(at_field(e, &src.text));
            }
        }
        {
            let layout = std::sync::Arc::make_mut(&mut params.layout);
            layout.hooked = Point::ALL
                .into_iter()
                .filter(|&p| host.hooks(p))
                .map(Point::name)
                .collect();
        }
        let mut decks: [Vec<usize>; 2] = Default::default();
        for team in Team::BOTH {
            for src in &cards[team as usize] {
                let existing = host.cards.iter().position(|c| c.info.file == src.path);
                let index = match existing {
                    Some(i) => i,
                    None => match host.load_card(src) {
                        Ok(card) => {
                            if let Some(other) =
                                host.cards.iter().find(|c| c.info.id == card.info.id)
                            {
                                errors.push(ScriptError::kernel(
                                    &src.path,
                                    &format!("card {}", card.info.id.name()),
                                    "load",
                                    format!(
                                        "card id `{}` is also the id of {}",
                                        card.info.id.name(),
                                        other.info.file
                                    ),
                                ));
                                continue;
                            }
                            host.cards.push(card);
                            host.cards.len() - 1
                        }
                        Err(e) => {
                            errors.push(at_field(e, &src.text));
                            continue;
                        }
                    },
                };
                if decks[team as usize].contains(&index) {
                    errors.push(ScriptError::kernel(
                        &src.path,
                        &format!("card {}", src.id()),
                        "load",
                        format!("{team} lists this card twice"),
                    ));
                    continue;
                }
                decks[team as usize].push(index);
            }
        }
        // Every use-limited card a coach holds needs a slot in the
        // position's record (B11.6): past the last slot, plays would go
        // uncounted and the limit would not hold.
        let mut limited = 0;
        for team in Team::BOTH {
            for &i in &decks[team as usize] {
                let info = &host.cards[i].info;
                if info.uses.is_none() && info.per_turn.is_none() {
                    continue;
                }
                limited += 1;
                if limited > MAX_CARD_USES {
                    errors.push(ScriptError::kernel(
                        &info.file,
                        &format!("card {}", info.id.name()),
                        "load",
                        format!(
                            "more than {MAX_CARD_USES} use-limited cards (`uses` or `per_turn`) in the ruleset, \
ATK's and DEF's together: a position records the plays of at most {MAX_CARD_USES}"
                        ),
                    ));
                }
            }
        }
        if errors.is_empty() {
            // Nothing a script holds may change between calls: its state
            // is the position's (`script::freeze`).
            let library = crate::script::freeze::library(&host.sandbox.lua);
            for (file, owner, root) in host.roots.take() {
                match crate::script::freeze::freeze(&host.sandbox.lua, &[root], &library) {
                    Ok(f) if f.is_empty() => {}
                    Ok(f) => host.frozen.push(f),
                    Err(m) => errors.push(ScriptError::kernel(&file, &owner, "load", m)),
                }
            }
        }
        if errors.is_empty() {
            Ok(Loaded {
                host,
                params,
                ep,
                decks,
            })
        } else {
            Err(errors)
        }
    }

    pub fn card(&self, index: usize) -> &CardInfo {
        &self.cards[index].info
    }

    /// A card's declared targets, when they are all there is to its
    /// targets (no `can_play`): the caller enumerates them natively.
    pub fn declared(&self, index: usize) -> Option<&Declared> {
        let card = &self.cards[index];
        match (&card.can_play, &card.targets) {
            (None, Targets::Declared(d)) => Some(d),
            _ => None,
        }
    }

    /// The variants' own actions, as card indices.
    pub fn actions(&self) -> &[usize] {
        &self.actions
    }

    pub fn card_count(&self) -> usize {
        self.cards.len()
    }


    fn load_table(&self, src: &ScriptSource, owner: &str) -> Result<Table, ScriptError> {
        let before = super::sandbox::units_spent_here();
        let loaded = self.sandbox.load(&src.path, &src.text);
        account((&src.path, owner), "load", super::sandbox::units_spent_here() - before);
        match loaded {
            Ok(Value::Table(t)) => {
                self.roots.borrow_mut().push((
                    src.path.clone(),
                    owner.to_string(),
                    Value::Table(t.clone()),
                ));
                Ok(t)
            }
            Ok(other) => Err(ScriptError::kernel(
                &src.path,
                owner,
                "load",
                format!(
                    "the script must return a table, it returned {}",
                    crate::diagnostic::a(other.type_name())
                ),
            )),
            Err(e) => Err(ScriptError::from_lua(&e, &src.path, owner, "load")),
        }
    }

    fn load_ep(&self, src: &ScriptSource) -> Result<EpTable, ScriptError> {
        let owner = "EP table";
        let t = self.load_table(src, owner)?;
        let mut ep = EpTable::default();
        let mut pairs = t
            .pairs::<Value, Value>()
            .map(|pair| {
                let (k, v) = pair?;
                Ok((lua_show(&k), v))
            })
            .collect::<mlua::Result<Vec<_>>>()
            .map_err(|e| ScriptError::from_lua(&e, &src.path, owner, "load"))?;
        // In key order: the first problem must not change between runs.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        for (key, v) in pairs {
            let Some(i) = EP_KEYS.iter().position(|e| *e == key) else {
                let hint = crate::diagnostic::hint(&key, EP_KEYS.iter().copied());
                return Err(ScriptError::kernel(
                    &src.path,
                    owner,
                    "load",
                    format!("unknown EP key `{key}`{hint}; keys: {}", EP_KEYS.join(", ")),
                ));
            };
            match v {
                Value::Integer(n) if (0..=100).contains(&n) => ep.values[i] = n as u32,
                other => {
                    return Err(ScriptError::kernel(
                        &src.path,
                        owner,
                        "load",
                        format!(
                            "`{key}` must be a whole number 0-100, not {}",
                            other.type_name()
                        ),
                    ));
                }
            }
        }
        Ok(ep)
    }

    fn load_variant(&mut self, src: &ScriptSource, params: &mut Params) -> Result<(), ScriptError> {
        let owner = format!("variant {}", src.id());
        let t = self.load_table(src, &owner)?;
        let err = |m: String| ScriptError::kernel(&src.path, &owner, "load", m);
        // The reference's list (`api::VARIANT_FIELDS`): the loader, the
        // docs and the editor stubs cannot disagree on a name.
        check_keys(&t, &api::names(api::VARIANT_FIELDS)).map_err(&err)?;
        let name: String = t
            .get::<Option<String>>("name")
            .ok()
            .flatten()
            .ok_or_else(|| err("a variant needs `name`".into()))?;
        if let Ok(Some(p)) = t.get::<Option<Table>>("params") {
            // In key order: `pairs` order changes between runs, and so
            // would which problem is reported first.
            let mut pairs = p
                .pairs::<String, Value>()
                .collect::<mlua::Result<Vec<_>>>()
                .map_err(|e| ScriptError::from_lua(&e, &src.path, &owner, "load"))?;
            pairs.sort_by(|a, b| a.0.cmp(&b.0));
            for (k, v) in pairs {
                let value = match v {
                    Value::Integer(n) => ScriptParam::Int(n),
                    Value::Boolean(b) => ScriptParam::Bool(b),
                    other => ScriptParam::Other(other.type_name()),
                };
                set_script_param(params, &k, value).map_err(&err)?;
            }
            if let Some(problem) = params_problem(params) {
                return Err(err(problem));
            }
        }
        if let Ok(Some(f)) = t.get::<Option<Table>>("forbid") {
            for v in f.sequence_values::<String>() {
                let v = v.map_err(|e| ScriptError::from_lua(&e, &src.path, &owner, "load"))?;
                let verb = Verb::parse(&v).ok_or_else(|| err(format!("`{v}` is not a verb")))?;
                if matches!(verb, Verb::End | Verb::StandUp | Verb::Release) {
                    return Err(err(format!(
                        "`{v}` cannot be forbidden: the turn could not end"
                    )));
                }
                params.forbidden.insert(verb);
            }
        }
        let hook = |k: &str| {
            t.get::<Option<Function>>(k)
                .map_err(|_| err(format!("`{k}` must be a function")))
        };
        let actions = t
            .get::<Option<Table>>("actions")
            .map_err(|_| err("`actions` must be a list of action tables".into()))?;
        if let Some(list) = actions {
            for (i, a) in list.sequence_values::<Value>().enumerate() {
                let Ok(Value::Table(a)) = a else {
                    return Err(err(format!("actions[{}] must be a table", i + 1)));
                };
                if i >= MAX_ACTIONS {
                    return Err(err(format!(
                        "more than {MAX_ACTIONS} actions: each is listed on every legal list"
                    )));
                }
                let owner = format!("variant {} action {}", src.id(), i + 1);
                let card = self.card_from(&a, &src.path, &owner, None)?;
                if let Some(other) = self.cards.iter().find(|c| c.info.id == card.info.id) {
                    return Err(err(format!(
                        "action `{}` is declared twice (also in {})",
                        card.info.id.name(),
                        other.info.file
                    )));
                }
                self.cards.push(card);
                self.actions.push(self.cards.len() - 1);
            }
        }
        let mut points: [Option<Function>; super::points::POINTS] = Default::default();
        for p in super::points::Point::ALL {
            points[p as usize] = hook(p.name())?;
        }
        let ends = crate::script::layout::declare(&t, &name, std::sync::Arc::make_mut(&mut params.layout))
            .map_err(&err)?;
        self.variants.push(Variant {
            owner: format!("variant {name}"),
            name,
            file: src.path.clone(),
            points,
            ends,
        });
        Ok(())
    }

    fn load_card(&self, src: &ScriptSource) -> Result<Card, ScriptError> {
        let owner = format!("card {}", src.id());
        let t = self.load_table(src, &owner)?;
        self.card_from(&t, &src.path, &owner, Some(src.id()))
    }

    /// A card, or a variant's action (`file_id` None: named by its `id`,
    /// no EP cost, written in the notation as a verb of its own), from
    /// its table.
    fn card_from(
        &self,
        t: &Table,
        path: &str,
        owner: &str,
        file_id: Option<&str>,
    ) -> Result<Card, ScriptError> {
        let err = |m: String| ScriptError::kernel(path, owner, "load", m);
        let fields = if file_id.is_some() {
            api::CARD_FIELDS
        } else {
            api::VARIANT_ACTION_FIELDS
        };
        check_keys(t, &api::names(fields)).map_err(&err)?;
        let text_field = |k: &str| -> Result<String, ScriptError> {
            match t.get::<Value>(k) {
                Ok(Value::String(s)) if !s.to_string_lossy().trim().is_empty() => {
                    Ok(s.to_string_lossy())
                }
                _ => Err(err(format!(
                    "`{k}` is missing: a card needs id, name, text, cost, args, targets and resolve"
                ))),
            }
        };
        let id_text = text_field("id")?;
        // A card is named by its file (docs/rulesets.md): a file that
        // calls itself `sprint` would pass for the shipped card in every
        // record and legal list.
        let id = match file_id {
            Some(file_id) if id_text != file_id => {
                return Err(err(format!(
                    "`id = \"{id_text}\"` must be the card's file name, `{file_id}`: a card is named by its file"
                )));
            }
            Some(_) => CardId::intern(&id_text).map_err(&err)?,
            None => {
                if crate::games::ball::action::VERBS
                    .iter()
                    .any(|(v, _)| *v == id_text)
                {
                    return Err(err(format!(
                        "action id `{id_text}` is a verb of the rules: an action needs a name of its own"
                    )));
                }
                CardId::intern_action(&id_text).map_err(&err)?
            }
        };
        let small = |k: &str, max: i64, default: Option<i64>| -> Result<Option<i64>, ScriptError> {
            match t.get::<Value>(k) {
                Ok(Value::Nil) => Ok(default),
                Ok(Value::Integer(n)) if (0..=max).contains(&n) => Ok(Some(n)),
                Ok(v) => Err(err(format!(
                    "`{k}` must be a whole number 0-{max}, not {}",
                    v.type_name()
                ))),
                Err(e) => Err(ScriptError::from_lua(&e, path, owner, "load")),
            }
        };
        let cost = if file_id.is_some() {
            small("cost", 100, None)?
                .ok_or_else(|| err("`cost` is missing (EP, a whole number)".into()))?
                as u32
        } else {
            0
        };
        let ap = small("ap", 10, Some(0))?.unwrap_or(0) as u8;
        let uses = small("uses", 100, None)?.map(|n| n as u8);
        let per_turn = small("per_turn", 100, None)?.map(|n| n as u8);
        let mut args = Vec::new();
        match t.get::<Value>("args") {
            Ok(Value::Table(a)) => {
                for v in a.sequence_values::<String>() {
                    let v = v.map_err(|e| ScriptError::from_lua(&e, path, owner, "load"))?;
                    args.push(match v.as_str() {
                        "piece" => ArgKind::Piece,
                        "square" => ArgKind::Square,
                        "number" => ArgKind::Number,
                        other => {
                            return Err(err(format!(
                                "argument kind `{other}` is not piece, square or number"
                            )));
                        }
                    });
                }
            }
            _ => {
                return Err(err(
                    "`args` is missing: a list like {\"piece\", \"square\"} (may be empty)".into(),
                ));
            }
        }
        if args.len() > 3 {
            return Err(err(format!(
                "{} arguments; a card takes at most 3",
                args.len()
            )));
        }
        let func = |k: &str, needed: bool| -> Result<Option<Function>, ScriptError> {
            match t.get::<Value>(k) {
                Ok(Value::Function(f)) => Ok(Some(f)),
                Ok(Value::Nil) if !needed => Ok(None),
                _ => Err(err(format!(
                    "`{k}` must be a function{}",
                    if needed { " (it is required)" } else { "" }
                ))),
            }
        };
        let targets = match t.get::<Value>("targets") {
            Ok(Value::Function(f)) => {
                if !matches!(t.get::<Value>("requires"), Ok(Value::Nil)) {
                    return Err(err("`requires` goes with declared targets; a `targets` function checks for itself".into()));
                }
                Targets::Script(f)
            }
            Ok(Value::Table(list)) => {
                let d = declared(t, &list, &args).map_err(&err)?;
                if d.bound() > MAX_TARGETS {
                    return Err(err(format!(
                        "`targets` could offer up to {} targets in one position (each argument's \
candidates multiplied); a card offers at most {MAX_TARGETS}: narrow a filter (`team`, `from` with \
`distance`, a smaller number range)",
                        d.bound()
                    )));
                }
                Targets::Declared(d)
            }
            _ => return Err(err("`targets` is missing: a list of argument filters, or a function (game) returning the targets".into())),
        };
        let resolve = func("resolve", true)?.expect("required");
        Ok(Card {
            owner: format!("card {}", id.name()),
            info: CardInfo {
                id,
                name: text_field("name")?,
                text: text_field("text")?,
                file: path.to_string(),
                cost,
                ap,
                uses,
                per_turn,
                args,
            },
            can_play: func("can_play", false)?,
            targets,
            resolve,
        })
    }

    /// Runs `f` with the bindings pointed at a copy of `pos`. After a call
    /// that succeeded, the copy as the call left it stays in the context
    /// ([`Host::left`]): a writing hook's caller reads it there, a
    /// read-only one pays no copy for it.
    /// `who` is the script's (file, owner), for `ball check`'s account of
    /// what each hook costs.
    pub(super) fn call<R>(
        &self,
        who: (&str, &str),
        pos: &Position,
        params: &Params,
        hook: &'static str,
        writable: bool,
        f: impl FnOnce(&Table) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        if check_spent() {
            return Err(mlua::Error::runtime(CHECK_SPENT));
        }
        let before = super::sandbox::units_spent_here();
        let r = self.call_unaccounted(pos, params, hook, writable, f);
        account(who, hook, super::sandbox::units_spent_here() - before);
        r
    }

    /// The position the last call's bindings left.
    pub(super) fn left(&self) -> std::cell::Ref<'_, Position> {
        std::cell::Ref::map(self.bound.ctx.borrow(), |c| &c.pos)
    }

    fn call_unaccounted<R>(
        &self,
        pos: &Position,
        params: &Params,
        hook: &'static str,
        writable: bool,
        f: impl FnOnce(&Table) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        self.sandbox.refill();
        let lua = &self.sandbox.lua;
        // The context is made once and reused: no allocation per call.
        {
            let mut c = self.bound.ctx.borrow_mut();
            c.pos = *pos;
            c.params.clone_from(params);
            c.hook = hook;
            c.writable = writable;
            c.active = true;
        }
        let mut r = f(&self.game).map_err(|e| self.sandbox.explain(e));
        if r.is_ok() {
            for frozen in &self.frozen {
                if let Err(m) = frozen.verify(lua) {
                    r = Err(mlua::Error::runtime(m));
                    break;
                }
            }
        }
        self.bound.ctx.borrow_mut().active = false;
        if r.is_err() {
            // A memory error leaves garbage behind; the next call starts clean.
            let _ = lua.gc_collect();
        }
        r
    }

    /// Whether the card may be played at all now (its optional
    /// `can_play`), then its targets (B11.6). Read-only.
    pub fn targets(
        &self,
        index: usize,
        pos: &Position,
        params: &Params,
        out: &mut Vec<[Arg; 3]>,
    ) -> Result<(), ScriptError> {
        let card = &self.cards[index];
        let info = &card.info;
        let owner = format!("card {}", info.id.name());
        if let Some(can) = &card.can_play {
            let r = self.call((&info.file, &owner), pos, params, "can_play", false, |g| {
                can.call::<Value>(g.clone())
            });
            match r {
                Ok(Value::Boolean(true)) => {}
                Ok(Value::Boolean(false)) | Ok(Value::Nil) => return Ok(()),
                Ok(v) => {
                    return Err(ScriptError::kernel(
                        &info.file,
                        &owner,
                        "can_play",
                        format!("must return true or false, not {}", v.type_name()),
                    ));
                }
                Err(e) => return Err(ScriptError::from_lua(&e, &info.file, &owner, "can_play")),
            }
        }
        let func = match &card.targets {
            Targets::Declared(d) => {
                d.enumerate(pos, params, out);
                return Ok(());
            }
            Targets::Script(f) => f,
        };
        let r = self.call((&info.file, &owner), pos, params, "targets", false, |g| {
            func.call::<Value>(g.clone())
        });
        let list = match r {
            Ok(Value::Table(t)) => t,
            Ok(Value::Nil) => return Ok(()),
            Ok(v) => {
                return Err(ScriptError::kernel(
                    &info.file,
                    &owner,
                    "targets",
                    format!("must return a list of targets, not {}", v.type_name()),
                ));
            }
            Err(e) => return Err(ScriptError::from_lua(&e, &info.file, &owner, "targets")),
        };
        let bad = |m: String| ScriptError::kernel(&info.file, &owner, "targets", m);
        let start = out.len();
        for (n, target) in list.sequence_values::<Value>().enumerate() {
            if n as u64 >= MAX_TARGETS {
                return Err(bad(format!(
                    "returned more than {MAX_TARGETS} targets; a card offers at most {MAX_TARGETS}"
                )));
            }
            let target =
                target.map_err(|e| ScriptError::from_lua(&e, &info.file, &owner, "targets"))?;
            let values: Vec<Value> = match target {
                Value::Table(t) => t
                    .sequence_values::<Value>()
                    .collect::<mlua::Result<_>>()
                    .map_err(|e| ScriptError::from_lua(&e, &info.file, &owner, "targets"))?,
                single => vec![single],
            };
            if values.len() != info.args.len() {
                return Err(bad(format!(
                    "target {} has {} values; the card's args say {}",
                    n + 1,
                    values.len(),
                    info.args.len()
                )));
            }
            let mut args = [Arg::None; 3];
            for (i, (v, kind)) in values.iter().zip(&info.args).enumerate() {
                args[i] = to_arg(v, *kind).ok_or_else(|| {
                    bad(format!(
                        "target {}: {} is not a {kind:?}",
                        n + 1,
                        lua_show(v)
                    ))
                })?;
            }
            out.push(args);
        }
        // A script's list, in any order, with repeats: made canonical.
        out[start..].sort_by_key(|a| a.map(arg_key));
        let mut seen = std::collections::HashSet::new();
        let mut kept: Vec<[Arg; 3]> = out.drain(start..).filter(|a| seen.insert(*a)).collect();
        out.append(&mut kept);
        Ok(())
    }

    /// B11.7: the card's effect, worked on a copy of `pos`; `pos` becomes
    /// that copy only when the whole effect succeeded and the result keeps
    /// every invariant, and is left as it was otherwise.
    pub fn resolve(
        &self,
        index: usize,
        pos: &mut Position,
        params: &Params,
        args: [Arg; 3],
    ) -> Result<(), ScriptError> {
        let card = &self.cards[index];
        let info = &card.info;
        let owner = card.owner.as_str();
        let [a, b, c] = args.map(|a| self.arg_value(a));
        let r = self.call((&info.file, owner), pos, params, "resolve", true, |g| {
            // Exactly the card's arguments, as `select('#', ...)` sees them.
            let f = &card.resolve;
            match info.args.len() {
                0 => f.call::<()>(g),
                1 => f.call::<()>((g, a)),
                2 => f.call::<()>((g, a, b)),
                _ => f.call::<()>((g, a, b, c)),
            }
        });
        r.map_err(|e| ScriptError::from_lua(&e, &info.file, owner, "resolve"))?;
        let after = self.left();
        json::check(&after, params).map_err(|e| {
            ScriptError::kernel(
                &info.file,
                owner,
                "resolve",
                format!(
                    "the effect would break the rules: `{}`: {}",
                    e.field, e.problem
                ),
            )
        })?;
        *pos = *after;
        Ok(())
    }

    /// A card argument as the script sees it: piece ids and square names
    /// are the strings made at load, numbers are integers.
    pub(super) fn arg_value(&self, a: Arg) -> Value {
        match a {
            Arg::None => Value::Nil,
            Arg::Piece(p) => Value::String(self.names.pieces[p.0 as usize].clone()),
            Arg::Square(s) => Value::String(self.names.squares[s.0 as usize].clone()),
            Arg::Number(n) => Value::Integer(n.into()),
        }
    }

    /// How many variants are loaded (each may hook events).
    pub fn variant_count(&self) -> usize {
        self.variants.len()
    }

    /// Runs every variant's hook for an event, in the ruleset's order, each
    /// on the result of the ones before. A hook that fails (an error, its
    /// budget, a change that breaks the rules) is reported through
    /// `failed` and leaves the position as the hooks before it left it;
    /// the hooks after it still run. `skip(k)` leaves out variant `k`.
    pub fn on_event(
        &self,
        pos: &Position,
        params: &Params,
        event: Point,
        team: Team,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
    ) -> Position {
        let mut cur = *pos;
        for (k, v) in self.variants.iter().enumerate() {
            let (hook, name) = (&v.points[event as usize], event.name());
            let Some(f) = hook else { continue };
            if skip(k) {
                continue;
            }
            match self.write_hook(v, f, name, &cur, params, &|h, g| {
                Ok(MultiValue::from_vec(vec![
                    Value::Table(g.clone()),
                    Value::String(h.sandbox.lua.create_string(team.name())?),
                ]))
            }) {
                Ok(after) => cur = after,
                Err(e) => failed(k, e),
            }
        }
        cur
    }
}

impl Host {
    /// Asks every variant's `touchdown_counts` (read-only, in the
    /// ruleset's order) whether `team`'s touchdown in `pos` counts. The
    /// first `false` vetoes it: its variant's index is returned. A hook
    /// that fails is reported through `failed` and counts as "yes": a
    /// broken house rule must not take a touchdown away.
    pub fn touchdown_vetoed(
        &self,
        pos: &Position,
        params: &Params,
        team: Team,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
    ) -> Option<usize> {
        const HOOK: &str = "touchdown_counts";
        for (k, v) in self.variants.iter().enumerate() {
            let Some(f) = &v.points[Point::TouchdownCounts as usize] else {
                continue;
            };
            if skip(k) {
                continue;
            }
            let owner = v.owner.as_str();
            let r = self.call((&v.file, owner), pos, params, HOOK, false, |g| {
                f.call::<Value>((g.clone(), team.name()))
            });
            match r {
                Ok(Value::Boolean(false)) => return Some(k),
                Ok(Value::Boolean(true)) | Ok(Value::Nil) => {}
                Ok(Value::Table(t)) => match t.get::<Value>("count") {
                    Ok(Value::Boolean(false)) => return Some(k),
                    Ok(Value::Boolean(true)) | Ok(Value::Nil) => {}
                    _ => failed(
                        k,
                        ScriptError::kernel(
                            &v.file,
                            owner,
                            HOOK,
                            "`count` must be true or false",
                        ),
                    ),
                },
                Ok(other) => failed(
                    k,
                    ScriptError::kernel(
                        &v.file,
                        owner,
                        HOOK,
                        format!(
                            "must return true, false or {{count = false}}, not {}",
                            other.type_name()
                        ),
                    ),
                ),
                Err(e) => failed(k, ScriptError::from_lua(&e, &v.file, owner, HOOK)),
            }
        }
        None
    }

    /// Asks every variant's `allow` (read-only) about `action` in `pos`:
    /// the first that returns `false` refuses it, with its variant's
    /// index and the reason it gave (a second return value), if any. A
    /// hook that fails is reported through `failed` and allows: a broken
    /// house rule must not empty the legal list.
    pub fn refused(
        &self,
        pos: &Position,
        params: &Params,
        action: Action,
        skip: &dyn Fn(usize) -> bool,
        failed: &mut dyn FnMut(usize, ScriptError),
    ) -> Option<(usize, Option<String>)> {
        const HOOK: &str = "allow";
        for (k, v) in self.variants.iter().enumerate() {
            let Some(f) = &v.points[Point::Allow as usize] else {
                continue;
            };
            if skip(k) {
                continue;
            }
            let owner = v.owner.as_str();
            let r = self.call((&v.file, owner), pos, params, HOOK, false, |g| {
                let t = self.action_table(action)?;
                f.call::<mlua::MultiValue>((g.clone(), t))
            });
            let values = match r {
                Ok(values) => values,
                Err(e) => {
                    failed(k, ScriptError::from_lua(&e, &v.file, owner, HOOK));
                    continue;
                }
            };
            let mut values = values.into_iter();
            match values.next().unwrap_or(Value::Nil) {
                Value::Boolean(true) | Value::Nil => {}
                Value::Boolean(false) => {
                    let reason = match values.next() {
                        Some(Value::String(s)) => Some(s.to_string_lossy()),
                        _ => None,
                    };
                    return Some((k, reason));
                }
                other => failed(
                    k,
                    ScriptError::kernel(
                        &v.file,
                        owner,
                        HOOK,
                        format!("must return true or false, not {}", other.type_name()),
                    ),
                ),
            }
        }
        None
    }

    /// The variant `k`'s name.
    pub fn variant_name(&self, k: usize) -> &str {
        &self.variants[k].name
    }

    /// An action as `allow` sees it: `{verb, text}` and the notation's
    /// arguments by name (`piece`, `from`, `to`, `exit`, `push`, `at`,
    /// `top`, `top_to`, `bottom_to`, `keep`, `ap`, `card`, `args`).
    pub(super) fn action_table(&self, action: Action) -> mlua::Result<Table> {
        let lua = &self.sandbox.lua;
        let n = &self.names;
        // Raw sets on a table of the right size: it has no metatable to
        // ask, and never grows.
        let t = lua.create_table_with_capacity(0, 5)?;
        let set = |k: Key, v: &mlua::LuaString| t.raw_set(n.key(k), v);
        let piece = |k: Key, p: PieceId| set(k, &n.pieces[p.0 as usize]);
        let square = |k: Key, s: Sq| set(k, &n.squares[s.0 as usize]);
        match action {
            // A variant's own action is known by its verb, its id.
            Action::Card { card, .. } if card.is_action() => t.raw_set(n.key(Key::Verb), card.name())?,
            _ => set(Key::Verb, &n.verbs[action.verb() as usize])?,
        }
        t.raw_set(n.key(Key::Text), action.to_string())?;
        match action {
            Action::Move { piece: p, to }
            | Action::Block { piece: p, to }
            | Action::Protect { piece: p, to }
            | Action::StandUp { piece: p, to } => {
                piece(Key::Piece, p)?;
                square(Key::To, to)?;
            }
            Action::Dodge { piece: p, to, exit } => {
                piece(Key::Piece, p)?;
                square(Key::To, to)?;
                square(Key::Exit, exit)?;
            }
            Action::TDodge { piece: p, to, push } => {
                piece(Key::Piece, p)?;
                square(Key::To, to)?;
                square(Key::Push, push)?;
            }
            Action::Handoff { from, to } => {
                piece(Key::From, from)?;
                piece(Key::To, to)?;
            }
            Action::SPass { from, to, at } => {
                piece(Key::From, from)?;
                piece(Key::To, to)?;
                square(Key::At, at)?;
            }
            Action::LPass { from, to } => {
                piece(Key::From, from)?;
                square(Key::To, to)?;
            }
            Action::Convert { ap } => t.raw_set(n.key(Key::Ap), ap)?,
            Action::Card { card, args } => {
                t.raw_set(n.key(Key::Card), card.name())?;
                let list = lua.create_table()?;
                for a in args.iter().filter(|a| **a != Arg::None) {
                    list.push(self.arg_value(*a))?;
                }
                t.raw_set(n.key(Key::Args), list)?;
            }
            Action::Release {
                top,
                top_to,
                bottom_to,
                keep,
            } => {
                piece(Key::Top, top)?;
                square(Key::TopTo, top_to)?;
                square(Key::BottomTo, bottom_to)?;
                if let Some(k) = keep {
                    piece(Key::Keep, k)?;
                }
            }
            Action::End => {}
        }
        Ok(t)
    }
}

/// Reads a card's declared targets (see `targets.rs` for the keys).
fn declared(card: &Table, list: &Table, kinds: &[ArgKind]) -> Result<Declared, String> {
    let mut requires = Requires::default();
    let mut args = Vec::with_capacity(kinds.len());
    if let Ok(Some(req)) = card.get::<Option<Table>>("requires") {
        check_keys(&req, &api::names(api::REQUIRES_FIELDS))?;
        requires.ball = match req
            .get::<Option<String>>("ball")
            .map_err(|_| "`requires.ball` must be a string".to_string())?
            .as_deref()
        {
            None => None,
            Some("loose") => Some(BallNeed::Loose),
            Some("held") => Some(BallNeed::Held),
            Some("own") => Some(BallNeed::Own),
            Some(o) => {
                return Err(format!(
                    "`requires.ball = \"{o}\"`: expected \"loose\", \"held\" or \"own\""
                ));
            }
        };
        requires.ap_below_turn = req
            .get::<Option<bool>>("ap_below_turn")
            .map_err(|_| "`requires.ap_below_turn` must be true or false".to_string())?
            .unwrap_or(false);
    }
    let specs: Vec<Table> = list
        .sequence_values::<Table>()
        .collect::<mlua::Result<_>>()
        .map_err(|_| "each entry of `targets` must be a table of filters".to_string())?;
    if specs.len() != kinds.len() {
        return Err(format!(
            "`targets` has {} entries; `args` has {}",
            specs.len(),
            kinds.len()
        ));
    }
    for (k, (spec, kind)) in specs.iter().zip(kinds).enumerate() {
        let at = |m: String| format!("targets[{}]: {m}", k + 1);
        let earlier = |key: &str, v: i64| -> Result<usize, String> {
            if v >= 1 && (v as usize) <= k {
                Ok(v as usize - 1)
            } else {
                Err(at(format!(
                    "`{key} = {v}` must name an earlier argument (1-{k})"
                )))
            }
        };
        let range = |key: &str| -> Result<Option<(u8, u8)>, String> {
            match spec.get::<Value>(key) {
                Ok(Value::Nil) => Ok(None),
                Ok(Value::Table(t)) => {
                    let lo = t
                        .get::<i64>(1)
                        .map_err(|_| at(format!("`{key}` is {{min, max}}")))?;
                    let hi = t
                        .get::<i64>(2)
                        .map_err(|_| at(format!("`{key}` is {{min, max}}")))?;
                    if !(0..=16).contains(&lo) || !(lo..=16).contains(&hi) {
                        return Err(at(format!(
                            "`{key}` = {{{lo}, {hi}}} is not 0 ≤ min ≤ max ≤ 16"
                        )));
                    }
                    Ok(Some((lo as u8, hi as u8)))
                }
                _ => Err(at(format!("`{key}` is {{min, max}}"))),
            }
        };
        let flag = |key: &str| {
            spec.get::<Option<bool>>(key)
                .map_err(|_| at(format!("`{key}` must be true or false")))
        };
        let index = |key: &str| -> Result<Option<usize>, String> {
            match spec.get::<Option<i64>>(key) {
                Ok(None) => Ok(None),
                Ok(Some(v)) => earlier(key, v).map(Some),
                Err(_) => Err(at(format!("`{key}` must be an argument number"))),
            }
        };
        let from = |spec_from: Option<usize>,
                    dist: Option<(u8, u8)>|
         -> Result<Option<(usize, u8, u8)>, String> {
            match (spec_from, dist) {
                (Some(i), Some((lo, hi))) => Ok(Some((i, lo, hi))),
                (None, None) => Ok(None),
                _ => Err(at("`from` and `distance` go together".into())),
            }
        };
        args.push(match kind {
            ArgKind::Piece => {
                check_keys(spec, &api::names(api::PIECE_FILTERS)).map_err(&at)?;
                let team = match spec
                    .get::<Option<String>>("team")
                    .map_err(|_| at("`team` must be a string".into()))?
                    .as_deref()
                {
                    None => None,
                    Some("own") => Some(TeamFilter::Own),
                    Some("opponent") => Some(TeamFilter::Opponent),
                    Some(o) => {
                        return Err(at(format!(
                            "`team = \"{o}\"`: expected \"own\" or \"opponent\""
                        )));
                    }
                };
                ArgSpec::Piece(PieceSpec {
                    team,
                    down: flag("down")?,
                    stacked: flag("stacked")?,
                    restricted: flag("restricted")?,
                    ball: flag("ball")?,
                    top: flag("top")?,
                    from: from(index("from")?, range("distance")?)?,
                    ball_distance: range("ball_distance")?,
                    after: index("after")?,
                })
            }
            ArgKind::Square => {
                check_keys(spec, &api::names(api::SQUARE_FILTERS)).map_err(&at)?;
                let beyond = match spec.get::<Value>("beyond") {
                    Ok(Value::Nil) => None,
                    Ok(Value::Table(t)) => {
                        let i = t
                            .get::<i64>(1)
                            .map_err(|_| at("`beyond` is {from, past}".into()))?;
                        let j = t
                            .get::<i64>(2)
                            .map_err(|_| at("`beyond` is {from, past}".into()))?;
                        Some((earlier("beyond", i)?, earlier("beyond", j)?))
                    }
                    _ => return Err(at("`beyond` is {from, past}".into())),
                };
                let from = from(index("from")?, range("distance")?)?;
                let line = flag("line")?.unwrap_or(false);
                let forward = flag("forward")?.unwrap_or(false);
                if (line || forward) && from.is_none() {
                    let key = if line { "line" } else { "forward" };
                    return Err(at(format!(
                        "`{key}` goes with `from`: it is measured from that argument"
                    )));
                }
                ArgSpec::Square(SquareSpec {
                    empty: flag("empty")?.unwrap_or(false),
                    free: flag("free")?.unwrap_or(false),
                    from,
                    ball_distance: range("ball_distance")?,
                    beyond,
                    unlike: index("unlike")?,
                    line,
                    forward,
                })
            }
            ArgKind::Number => {
                check_keys(spec, &api::names(api::NUMBER_FILTERS)).map_err(&at)?;
                let lo = spec.get::<Option<i64>>("min").ok().flatten().unwrap_or(0);
                let hi = spec.get::<Option<i64>>("max").ok().flatten().unwrap_or(lo);
                if !(0..=255).contains(&lo) || !(lo..=255).contains(&hi) {
                    return Err(at(format!(
                        "min {lo} and max {hi} must be 0 ≤ min ≤ max ≤ 255"
                    )));
                }
                ArgSpec::Number(lo as u8, hi as u8)
            }
        });
    }
    Ok(Declared::new(requires, args))
}


fn to_arg(v: &Value, kind: ArgKind) -> Option<Arg> {
    match (kind, v) {
        (ArgKind::Piece, Value::String(s)) => PieceId::parse(&s.to_str().ok()?).map(Arg::Piece),
        (ArgKind::Square, Value::String(s)) => Sq::parse(&s.to_str().ok()?).ok().map(Arg::Square),
        (ArgKind::Number, Value::Integer(n)) => u8::try_from(*n).ok().map(Arg::Number),
        _ => None,
    }
}

/// A sort key for an argument: kind, then id or square index.
fn arg_key(a: Arg) -> (u8, u8) {
    match a {
        Arg::None => (0, 0),
        Arg::Piece(p) => (1, p.0),
        Arg::Square(s) => (2, s.0),
        Arg::Number(n) => (3, n),
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    /// The index tables name the keys the EP-table script uses.
    /// The premade `ActionInfo` keys and verb names sit where their
    /// indices say.
    #[test]
    fn action_keys_and_verbs_are_where_their_indices_say() {
        let pairs = [
            (Key::Verb, "verb"),
            (Key::Text, "text"),
            (Key::Piece, "piece"),
            (Key::To, "to"),
            (Key::Exit, "exit"),
            (Key::Push, "push"),
            (Key::From, "from"),
            (Key::At, "at"),
            (Key::Ap, "ap"),
            (Key::Card, "card"),
            (Key::Args, "args"),
            (Key::Top, "top"),
            (Key::TopTo, "top_to"),
            (Key::BottomTo, "bottom_to"),
            (Key::Keep, "keep"),
        ];
        assert_eq!(pairs.len(), ACTION_KEYS.len());
        let lua = mlua::Lua::new();
        let names = Names::new(&lua).unwrap();
        for (k, name) in pairs {
            assert_eq!(names.key(k).to_str().unwrap(), name);
        }
        for v in Verb::ALL {
            assert_eq!(names.verbs[v as usize].to_str().unwrap(), v.name());
        }
    }

    #[test]
    fn ep_indices_match_the_key_names() {
        for v in Verb::ALL {
            match VERB_KEYS[v as usize] {
                Some(i) => assert_eq!(EP_KEYS[i], v.name()),
                None => assert_eq!(v, Verb::Convert),
            }
        }
        for (e, name) in [
            (EarnedBy::KnockDown, "knock_down"),
            (EarnedBy::ForcedFumble, "forced_fumble"),
            (EarnedBy::TakeLooseBall, "take_loose_ball"),
            (EarnedBy::PassReceived, "pass_received"),
            (EarnedBy::Touchdown, "touchdown"),
        ] {
            assert_eq!(EP_KEYS[FIRST_EVENT_KEY + e as usize], name);
        }
        assert_eq!(FIRST_EVENT_KEY + EarnedBy::ALL.len(), EP_KEYS.len());
        assert_eq!(EP_KEYS.len(), 17);
    }
}
