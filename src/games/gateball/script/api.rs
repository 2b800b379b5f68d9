//! Gateball's Lua API: the functions of the `game` table a variant's
//! hooks receive, and the fields of a variant's table. `docs/lua-api-gateball.md`
//! and the editor stubs (`ball api --game gateball [--stubs]`) are made
//! from [`API`]; a test keeps the registered functions, the list and the
//! reference together.
//!
//! Reads work in every hook; writes (`set`, `add_points`) only in the
//! reactions (`on_event`, `after_action`) and a variant action's
//! `resolve`, on a copy of the position the kernel checks.

use mlua::{Lua, Table, Value};

use super::{Frame, GateballBinding, Scope};
use crate::games::gateball::event::Event;
use crate::games::gateball::position::Team;
use crate::script::registry::{Api, Binding, Field, Schema, field, read, write};
use crate::script::registry::{Registrar, fail, parsed, show};
use crate::script::variants::{Hooked, ctx};

/// Every binding, in the order of the reference.
pub const BINDINGS: &[Binding] = &[
    read("turn", "", "integer", "The turn being played (T3.3)."),
    read("turns", "", "integer", "The ruleset's number of turns (T14.1)."),
    read("ball", "", "Ball", "The ball whose play it is, 1-10 (T3.4)."),
    read("team_of", "ball: Ball", "Team", "The team a ball plays for: `\"red\"` (odd balls) or `\"blue\"` (even) (T2.1)."),
    read("phase", "", "string", "`\"shot\"`, `\"move\"`, `\"spark\"` or `\"over\"` (T13)."),
    read("shot", "", "string|nil", "The type of the shot being played, `\"power\"` or `\"tech\"`, or nil in phase `shot`."),
    read("dice", "", "integer[]", "The roll on the table, first die first (T4.1); empty in phase `shot`."),
    read("continuation", "", "boolean", "Whether the play has earned a continuation shot (T7.8, T14.2)."),
    read("place", "ball: Ball", "string", "Where a ball is: `\"waiting\"`, `\"court\"`, `\"out\"` or `\"goal\"` (T9.1, T8, T10)."),
    read("space", "ball: Ball", "Space|nil", "The space a ball stands on (court or Outside Line), or nil."),
    read("gates", "ball: Ball", "integer", "The gates a ball has scored, 0-3 (T6.1)."),
    read("score", "team: Team", "integer", "A team's points: the balls' (T12.1) and any a variant gave."),
    read("param", "name: string", "integer|boolean|string", "A ruleset value by its TOML name (`\"turns\"`, `\"gate_bonus\"`, `\"spark_dice\"`, T14) or one of the variants' `options`, with the ruleset's value; an unknown name fails with did-you-mean."),
    read("get", "name: string, who?: Ball|Team", "integer", "A counter a variant keeps in the position (its `state`): a game counter by name, a team's (`\"red\"`, `\"blue\"`) or a ball's (1-10) with `who`."),
    write("set", "name: string, value: integer, who?: Ball|Team", "Sets a counter of the variants' `state` (-32768..32767)."),
    write("add_points", "team: Team, points: integer", "Adds points (-99..99) to a team's score, beyond what its balls give."),
];

/// A variant's table.
pub const VARIANT_FIELDS: &[Field] = &[
    field("name", "string", true, "The variant's name: reports, and the end it gives when `ending` or `ends_now` names no `reason`."),
    field("text", "string", false, "What the house rule does, in one line."),
    field("state", "table<string, \"game\"|\"team\"|\"ball\"|{per: string, start: integer|string}>", false, "Counters the variant keeps in the position, by name: per game, per team or per ball, starting at 0 or `start` (a number or one of its options). Saved, loaded and replayed with the position (`vars`)."),
    field("options", "table<string, {default: integer|boolean, min?: integer, max?: integer, text: string}>", false, "The variant's own parameters: a ruleset sets them in its `[options]` table; `game.param(name)` reads them."),
    field("ends", "(string|{name: string, limit?: boolean})[]", false, "The names of the ways the variant ends a game (`reason`), beside its own name; `limit = true` marks a tiebreak the lab counts as a timeout."),
    field("allow", "fun(game: Game, action: string): boolean|nil", false, "Legality: `false` takes the action (`power`, `tech`, `end`, a `shot …`, a `spark …` or a variant action, as the notation writes it) off the legal list. A list the variants would empty keeps the rules' actions."),
    field("cost", "fun(game: Game, action: string): integer|nil", false, "What an action costs its team, in points (0-9), taken from its score when it is played: a shot's price."),
    field("roll", "fun(game: Game, kind: string, dice: integer[]): integer[]|nil", false, "A die roll's use: after a `power`, `tech` or spark roll (`kind` `\"power\"`, `\"tech\"`, `\"spark\"`), the dice as the shot will use them (the same number of dice, each 1-6). nil keeps the roll."),
    field("gate_value", "fun(game: Game, ball: Ball, gate: integer): integer|nil", false, "What passing gate 1-3 scores (T6.2: 1), 0-9."),
    field("goal_value", "fun(game: Game, ball: Ball): integer|nil", false, "What a Goal scores (T10.2: 2), 0-9."),
    field("out_ball", "fun(game: Game, ball: Ball, space: Space): string|nil", false, "A ball that leaves the court (T8.2): nil places it as the rules do; `\"waiting\"` sends it back to start again (its gates kept)."),
    field("spark", "fun(game: Game, ball: Ball, touched: Ball): boolean|nil", false, "A touch (T7.4): `false` gives no spark — the touching ball stays and the play goes on to its continuation shot."),
    field("ending", "fun(game: Game, why: string): false|{winner: Team|\"draw\", reason?: string}|nil", false, "Asked where the rules end the game (`why` `\"turns-played\"`, T12.2, or `\"perfect-game\"`, T12.3): nil lets the rules end it, `false` plays on (another turn after the last, or the play after a Perfect Game), a table ends it with that winner and reason."),
    field("ends_now", "fun(game: Game): {winner: Team|\"draw\", reason?: string}|nil", false, "Asked after every action: a table ends the game at once."),
    field("on_event", "fun(game: Game, event: Event)", false, "After every action, once for each of its events in order (a gate, a touch, a Goal, an out-ball, a new turn…); may write."),
    field("after_action", "fun(game: Game, action: string, team: Team)", false, "After every action and its events, with the team that took it; may write."),
    field("actions", "VariantAction[]", false, "Actions the variant adds, offered in phase `shot` instead of a shot (at most 8)."),
];

/// A variant's own action.
pub const ACTION_FIELDS: &[Field] = &[
    field("id", "string", true, "Its word in the notation (lower-case letters, `_`), e.g. `\"pass\"`: not a word of the notation already."),
    field("text", "string", true, "What it does, for the boards."),
    field("can", "fun(game: Game): boolean", false, "Whether the playing ball's team may take it now (default: always in phase `shot`)."),
    field("resolve", "fun(game: Game)", false, "Its effect; may write."),
    field("ends_play", "boolean", false, "Whether the play ends after it (default true, T3.4); false: the ball still shoots."),
];

/// An event as `on_event` receives it.
pub const EVENT_FIELDS: &[Field] = &[
    field("kind", "string", true, "`coin`, `turn`, `play`, `roll`, `gate`, `pass`, `touch`, `twice`, `failstart`, `collide`, `nospark`, `out`, `goal`, `at`, `nomove`, `noentry`, `endplay`, `perfect`, `over`: the notation's event words."),
    field("ball", "Ball", false, "The ball the event is about."),
    field("other", "Ball", false, "The touched, bumped or sparked ball."),
    field("gate", "integer", false, "The gate of `gate` and `pass`."),
    field("space", "Space", false, "Where it happened."),
    field("team", "Team", false, "The team of `perfect`, the winner of `over`."),
    field("turn", "integer", false, "The new turn of `turn`."),
    field("text", "string", true, "The event as the notation writes it (`gate 3 1`)."),
];

pub const END_FIELDS: &[Field] = &[
    field("winner", "Team|\"draw\"", true, "Who wins."),
    field("reason", "string", false, "One of the variant's `ends` (default: its name)."),
];

pub static API: Api = Api {
    source: "src/games/gateball/script/api.rs",
    intro: "A Gateball ruleset lists Lua variants (`variants = [\"scripts/gateball/x.lua\"]`). \
Each returns a table: its `name`, the rule points it hooks, its counters and options. \
Hooks receive `game`, whose functions read the position: balls are numbers 1-10 \
(odd red, even blue), spaces are names (`K9`), teams `\"red\"` and `\"blue\"`. \
Reads work in every hook; writes (`set`, `add_points`) only in `on_event`, \
`after_action` and an action's `resolve`, on a copy of the position the kernel checks \
before it keeps it. A hook that fails is reported with file and line, answers as the \
rules would, and is not asked again in that game.\n\n",
    bindings: BINDINGS,
    tables_intro: "The tables a variant returns and receives. A field not listed is refused at load (`file:line: unknown field`, with \"did you mean\").\n\n",
    schemas: &[
        Schema {
            class: "Variant",
            title: "Variant",
            what: "What a variant script returns.",
            fields: VARIANT_FIELDS,
        },
        Schema {
            class: "VariantAction",
            title: "Variant action",
            what: "One entry of a variant's `actions`.",
            fields: ACTION_FIELDS,
        },
        Schema {
            class: "Event",
            title: "Event",
            what: "What `on_event` receives.",
            fields: EVENT_FIELDS,
        },
        Schema {
            class: "End",
            title: "End",
            what: "What `ending` and `ends_now` return to end the game.",
            fields: END_FIELDS,
        },
    ],
    stub_types: "---@alias Ball integer\n---@alias Space string\n---@alias Team \"red\"|\"blue\"\n",
    stub_removed: "",
};

type Reg<'a> = Registrar<'a, Hooked<GateballBinding>>;

fn c(lua: &Lua) -> mlua::Result<crate::script::variants::CtxRef<'_, GateballBinding>> {
    ctx::<GateballBinding>(lua)
}

fn ball(lua: &Lua, name: &str, v: &Value) -> mlua::Result<u8> {
    match v {
        Value::Integer(n) if (1..=10).contains(n) => Ok(*n as u8),
        _ => Err(fail(lua, name, format!("{} is not a ball (1-10)", show(v)))),
    }
}

fn team(lua: &Lua, name: &str, v: &Value) -> mlua::Result<Team> {
    parsed(lua, name, v, "a team (\"red\" or \"blue\")", |s| match s {
        "red" => Some(Team::Red),
        "blue" => Some(Team::Blue),
        _ => None,
    })
}

/// The slot of counter `name` for `who` (nil, a team or a ball).
fn slot(lua: &Lua, binding: &str, frame: &Frame, name: &Value, who: &Value) -> mlua::Result<usize> {
    let name = name.as_string().map(|s| s.to_string_lossy()).unwrap_or_default();
    let v = frame
        .layout
        .counter(&name)
        .map_err(|m| fail(lua, binding, m))?;
    let k = match (v.scope, who) {
        (Scope::Game, Value::Nil) => 0,
        (Scope::Team, w) if !w.is_nil() => team(lua, binding, w)? as usize,
        (Scope::Ball, w) if !w.is_nil() => usize::from(ball(lua, binding, w)? - 1),
        (scope, _) => {
            return Err(fail(
                lua,
                binding,
                format!(
                    "counter `{name}` is kept per {}: {}",
                    scope.word(),
                    match scope {
                        Scope::Game => "give no `who`",
                        Scope::Team => "give the team (\"red\" or \"blue\")",
                        Scope::Ball => "give the ball (1-10)",
                    }
                ),
            ));
        }
    };
    Ok(v.slot + k)
}

pub fn register(lua: &Lua, game: &Table) -> mlua::Result<()> {
    let mut r = Reg::new(lua, game, &API);
    r.add("turn", |lua, _, _| Ok(i64::from(c(lua)?.pos.turn)))?;
    r.add("turns", |lua, _, _| Ok(i64::from(c(lua)?.rules.rules.turns)))?;
    r.add("ball", |lua, _, _| Ok(i64::from(c(lua)?.pos.ball)))?;
    r.add("team_of", |lua, _, a| {
        Ok(Team::of_ball(ball(lua, "team_of", &a.0)?).name())
    })?;
    r.add("phase", |lua, _, _| Ok(c(lua)?.pos.phase.name()))?;
    r.add("shot", |lua, _, _| Ok(c(lua)?.pos.shot.map(|s| s.name())))?;
    r.add("dice", |lua, _, _| {
        let dice = c(lua)?.pos.dice.clone();
        lua.create_sequence_from(dice)
    })?;
    r.add("continuation", |lua, _, _| Ok(c(lua)?.pos.continuation))?;
    r.add("place", |lua, _, a| {
        let n = ball(lua, "place", &a.0)?;
        Ok(c(lua)?.pos.ball_state(n).place.name())
    })?;
    r.add("space", |lua, _, a| {
        let n = ball(lua, "space", &a.0)?;
        Ok(c(lua)?.pos.ball_state(n).place.space().map(|s| s.to_string()))
    })?;
    r.add("gates", |lua, _, a| {
        let n = ball(lua, "gates", &a.0)?;
        Ok(i64::from(c(lua)?.pos.ball_state(n).gates))
    })?;
    r.add("score", |lua, _, a| {
        let t = team(lua, "score", &a.0)?;
        Ok(i64::from(c(lua)?.pos.score(t)))
    })?;
    r.add("param", |lua, _, a| {
        let name = a.0.as_string().map(|s| s.to_string_lossy()).unwrap_or_default();
        let cx = c(lua)?;
        let rules = cx.rules.rules;
        match name.as_str() {
            "turns" => return Ok(Value::Integer(i64::from(rules.turns))),
            "gate_bonus" => return Ok(Value::Boolean(rules.gate_bonus)),
            "spark_dice" => {
                return Ok(Value::String(lua.create_string(rules.spark_dice.name())?));
            }
            _ => {}
        }
        match cx.rules.layout.option(&name) {
            Some(o) if o.boolean => Ok(Value::Boolean(o.value != 0)),
            Some(o) => Ok(Value::Integer(o.value)),
            None => {
                let known = ["turns", "gate_bonus", "spark_dice"]
                    .into_iter()
                    .chain(cx.rules.layout.options.iter().map(|o| o.name.as_str()));
                let hint = crate::diagnostic::hint(&name, known);
                Err(fail(
                    lua,
                    "param",
                    format!("no ruleset value or variant option `{name}`{hint}"),
                ))
            }
        }
    })?;
    r.add("get", |lua, _, a| {
        let cx = c(lua)?;
        let k = slot(lua, "get", &cx.rules, &a.0, &a.1)?;
        Ok(i64::from(cx.pos.vars[k]))
    })?;
    r.add("set", |lua, _, a| {
        let value = match a.1 {
            Value::Integer(n) => i16::try_from(n).ok(),
            _ => None,
        }
        .ok_or_else(|| fail(lua, "set", format!("{} is not a whole number -32768..32767", show(&a.1))))?;
        let mut cx = c(lua)?;
        let k = slot(lua, "set", &cx.rules, &a.0, &a.2)?;
        cx.pos.vars[k] = value;
        Ok(())
    })?;
    r.add("add_points", |lua, _, a| {
        let t = team(lua, "add_points", &a.0)?;
        let n = match a.1 {
            Value::Integer(n) if (-99..=99).contains(&n) => n as i16,
            ref v => {
                return Err(fail(lua, "add_points", format!("{} is not a number of points -99..99", show(v))));
            }
        };
        let mut cx = c(lua)?;
        let b = &mut cx.pos.bonus[t as usize];
        *b = b.saturating_add(n).clamp(-999, 999);
        Ok(())
    })?;
    r.finish()
}

/// An event as `on_event` sees it.
pub fn event_table(lua: &Lua, e: &Event) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let text = e.to_string();
    let kind = text.split(' ').next().unwrap_or("").to_string();
    t.set("kind", kind)?;
    t.set("text", text)?;
    match *e {
        Event::Coin(_) | Event::Roll(_) => {}
        Event::Turn(n) => t.set("turn", n)?,
        Event::Play(b, _) | Event::FailStart(b) | Event::NoMove(b) | Event::NoEntry(b) | Event::EndPlay(b) | Event::Goal(b) => t.set("ball", b)?,
        Event::Gate { ball, gate } | Event::Pass { ball, gate, .. } => {
            t.set("ball", ball)?;
            t.set("gate", gate)?;
        }
        Event::Touch { ball, touched, at } | Event::Twice { ball, touched, at } => {
            t.set("ball", ball)?;
            t.set("other", touched)?;
            t.set("space", at.to_string())?;
        }
        Event::Collide { ball, bumped, at } => {
            t.set("ball", ball)?;
            t.set("other", bumped)?;
            t.set("space", at.to_string())?;
        }
        Event::NoSpark { sparked, ball, back } => {
            t.set("ball", ball)?;
            t.set("other", sparked)?;
            t.set("space", back.to_string())?;
        }
        Event::Out(b, s) | Event::At(b, s) => {
            t.set("ball", b)?;
            t.set("space", s.to_string())?;
        }
        Event::Perfect(team) => t.set("team", team.name())?,
        Event::Over { winner, .. } => t.set("team", winner.name())?,
    }
    Ok(t)
}
