//! G-ball's Lua API: the `game` table a G-ball variant's hooks receive.
//! The reference (`docs/lua-api-gball.md`, `ball api --game gball`) and
//! the editor stubs are generated from [`API`]; a test fails when the
//! registered functions, the list and the reference drift apart.
//!
//! Reads work in every hook; writes only in the reactions (`on_event`,
//! `after_action`), on a copy that the position checks of the JSON reader
//! must accept before it is committed.

use mlua::{Lua, Table, Value};

use super::{Binding as GballBinding, Scope};
use crate::games::gball::Team;
use crate::games::gball::board::{Sq, dir_name};
use crate::games::gball::position::{
    Position, STAR_C, STAR_J, STAR_T, Winner, bit, id_name, members, number_of, parse_id,
    stars_name, team_of,
};
use crate::script::registry::{Api, Binding, Field, Schema, field, read, write};
use crate::script::registry::{fail, parsed, show};
use crate::script::variants::{Ctx, Hooked, ctx};

/// Every binding, in the order of the reference.
pub const BINDINGS: &[Binding] = &[
    read(
        "phase",
        "",
        "string",
        "`\"place\"`, `\"phase1\"`, `\"phase2\"`, `\"phase4\"` or `\"over\"` (G5.1).",
    ),
    read(
        "turn",
        "",
        "integer",
        "The turn of the point in progress (G5.1; 0 during placement).",
    ),
    read(
        "match_turns",
        "",
        "integer",
        "The turns the match has played (G3.6).",
    ),
    read("sets", "team: Team", "integer", "A team's sets won (G3.1)."),
    read(
        "points",
        "team: Team",
        "integer",
        "A team's points in the current set (G3.1).",
    ),
    read("home", "", "Team|nil", "The home team of the point (G3.3)."),
    read(
        "initiative",
        "",
        "Team|nil",
        "The team with initiative this phase (G5.2), nil between phases.",
    ),
    read(
        "morale",
        "team: Team",
        "integer|nil",
        "A team's morale this phase (G15.2), nil without `morale = true` or between phases.",
    ),
    read(
        "ball",
        "",
        "BallInfo|nil",
        "The ball: `{at, dir, spin, holder, possession}` (G2.6, G2.7; `dir` nil when it does not move), nil off court.",
    ),
    read(
        "players",
        "team?: Team",
        "Player[]",
        "The ids of the match rosters in id order (`BLU1`…`BLU9`, `RED1`…`RED9`), of one team or both.",
    ),
    read(
        "player",
        "id: Player",
        "PlayerInfo",
        "A player: `{id, team, number, at, facing, out, stars, veteran, in_play, holder}` (`at` and `facing` nil off court; `out` the status of G13.4: `\"none\"`, `\"point\"`, `\"sinbin\"`, `\"set\"`, `\"match\"`; `stars` like `\"JC\"`).",
    ),
    read(
        "pending",
        "",
        "string|nil, Team|nil",
        "The decision the match waits for (`\"place\"`, `\"move\"`, `\"turn\"`, `\"decline\"`, `\"receivers\"`, `\"block\"`, `\"catch\"`, `\"aim\"`, `\"act\"`) and whose it is; nil at the end.",
    ),
    read(
        "winner",
        "",
        "Team|\"draw\"|nil",
        "The winner of a finished match, nil while it goes on.",
    ),
    read(
        "param",
        "name: string",
        "integer|boolean|string",
        "A G18 parameter by its TOML name (`\"catch_target\"`, `\"points_to_win_set\"`, `\"match_turn_limit\"`, `\"venue\"`, …) or one of the variants' `options`; a name that is neither fails with did-you-mean.",
    ),
    read(
        "get",
        "name: string, who?: Player|Team",
        "integer",
        "A counter a variant keeps in the position (its `state`): a game counter by name, a team's or a player's with `who`. Saved, loaded and replayed with the position.",
    ),
    write(
        "set",
        "name: string, value: integer, who?: Player|Team",
        "Sets a counter of the variants' `state` (-32768..32767); `who` for a team or player counter.",
    ),
    write(
        "give_star",
        "id: Player, star: \"J\"|\"C\"|\"T\"",
        "Gives a player a star (G2.2) for the rest of the match.",
    ),
    write(
        "take_star",
        "id: Player, star: \"J\"|\"C\"|\"T\"",
        "Takes a star from a player for the rest of the match.",
    ),
];

/// Every field of a variant's table.
pub const VARIANT_FIELDS: &[Field] = &[
    field(
        "name",
        "string",
        true,
        "The variant's name: how reports name it and the end it gives by default.",
    ),
    field(
        "text",
        "string",
        false,
        "One line for `ball check` and the docs.",
    ),
    field(
        "state",
        "table<string, \"game\"|\"team\"|\"player\"|{per: string, start: integer|string}>",
        false,
        "Counters kept in the position (`game.get`, `game.set`): per game, per team (RED, BLU) or per player (18); `start` is a number or one of the variant's options. Written to the position JSON as `vars` when one is not 0.",
    ),
    field(
        "options",
        "table<string, Option>",
        false,
        "The variant's parameters, set from a ruleset's `[options]` table (`game.param`).",
    ),
    field(
        "ends",
        "(string|{name: string, limit: boolean})[]",
        false,
        "The names of the variant's own ends besides its `name` (`ending`'s and `ends_now`'s `reason`); `limit = true` counts such a match as ended by a limit in the lab.",
    ),
    field(
        "allow",
        "fun(game: Game, action: ActionInfo): boolean?",
        false,
        "Read-only, for each action of a decision's legal list when it has two or more: `false` removes it (`play` then refuses it with rule `ruleset`). It can only remove, and never the last: where every action would be refused, the rules' list stands. A decision left with one action is taken as `auto` (G5.4). Asked per legal action: it costs a Lua call for each.",
    ),
    field(
        "catch_target",
        "fun(game: Game, player: Player): integer?",
        false,
        "Read-only, before a catch roll (G7.4) of `player`: the total it must reach, 1-13 (nil: `catch_target`).",
    ),
    field(
        "tackle_modifier",
        "fun(game: Game, player: Player, kind: \"block\"|\"contest\"|\"carrier\"): integer?",
        false,
        "Read-only, when `player` rolls his tackle die (G8.1, G8.2): a number -6..6 added to his die and star bonus (a total below 0 counts 0). One die is set against all his opponents, so the modifier is the player's, not a pair's.",
    ),
    field(
        "injury",
        "fun(game: Game, player: Player, roll: integer): string?",
        false,
        "Read-only, when `player` is injured (G8.2 step 3) and `roll` is his best injury die: `\"stunned\"`, `\"minor\"`, `\"serious\"`, `\"severe\"` (G13.1's results, with their statuses; a severe injury rolls its `games` die) or `\"none\"` (he is not injured and plays on); nil keeps G13.1's table.",
    ),
    field(
        "goal_value",
        "fun(game: Game, team: Team): integer?",
        false,
        "Read-only, when `team` scores a goal (G12.1): the points it is worth, 0-9 (nil: 1). The set is won when the points reach `points_to_win_set` (G3.1). A conceded point (G4.2) is always 1.",
    ),
    field(
        "ending",
        "fun(game: Game, why: \"sets\"|\"turn-limit\"|\"no-players\"): nil|false|End",
        false,
        "Read-only, where the rules end the match: a team won `sets_to_win_match` sets (G3.1), the match turn limit (G3.6), or nobody can play (G4.2). nil lets the rules' end stand; `false` plays on (asked again at the next such point: the next set won, the next turn past the limit; at `no-players` there is no playing on and the rules' end stands); an `End` table ends the match now — nil winner by G3.6 (more sets, then more points, else a draw), nil reason the variant's name. Reports name the match's end by that reason.",
    ),
    field(
        "ends_now",
        "fun(game: Game): End?",
        false,
        "Read-only, after every action of a match that goes on: an `End` table ends it now; nil goes on. Costs a Lua call per action.",
    ),
    field(
        "morale",
        "fun(game: Game, team: Team, level: integer): integer?",
        false,
        "Read-only, when morale is settled for a phase (G15.2, only with `morale = true`): `team`'s morale level, 0-20 (nil: `level`, G15.2's count). Initiative (G15.3) and demoralisation (G15.4) follow the levels returned.",
    ),
    field(
        "earns_star",
        "fun(game: Game, player: Player, star: \"J\"|\"C\"|\"T\"): boolean?",
        false,
        "Read-only, when G16 (`earned_stars = true`) gives `player` a star: `false` refuses it (he may earn it at the next check); nil or true let the rules give it.",
    ),
    field(
        "on_event",
        "fun(game: Game, event: EventInfo)",
        false,
        "After each action, once for each event of the log the action caused (its `act`/`auto` lines included), in order; may write (a checked copy). What a hook changes is not an event.",
    ),
    field(
        "after_action",
        "fun(game: Game, action: ActionInfo)",
        false,
        "After every action (and its `on_event`s); may write.",
    ),
    field(
        "actions",
        "VariantAction[]",
        false,
        "Actions the variant adds, offered where a player may `stay` (at most 8 a ruleset).",
    ),
];

/// What `allow` and `after_action` get.
/// A variant's own action.
pub const VARIANT_ACTION_FIELDS: &[Field] = &[
    field(
        "id",
        "string",
        true,
        "Its word in the notation (lower-case letters, `_`), not a word the notation has: `rest RED3`.",
    ),
    field("text", "string", true, "What it does, for the boards."),
    field(
        "can",
        "fun(game: Game, player: Player): boolean",
        false,
        "Read-only: whether `player` may take it now (default: wherever he may `stay`, G6.3).",
    ),
    field(
        "resolve",
        "fun(game: Game, player: Player)",
        false,
        "Its effect, before the player stays; may write (a checked copy).",
    ),
];

pub const ACTION_FIELDS: &[Field] = &[
    field(
        "verb",
        "string",
        true,
        "The notation's verb: `place`, `move`, `stay`, `turn`, `decline`, `receivers`, `block`, `catch`, `aim`, `keep`, `throw`, `spin`, `handoff`.",
    ),
    field(
        "text",
        "string",
        true,
        "The action in the notation, e.g. `\"throw RED3 NE\"`.",
    ),
    field(
        "player",
        "Player",
        false,
        "The acting player: the placed, moving, turning (actor), blocking, catching player or the holder; nil for `decline`, `receivers`, `aim` and `catch none`.",
    ),
    field(
        "target",
        "Player",
        false,
        "`turn`'s target, `block`'s opponent, `handoff`'s receiver.",
    ),
    field(
        "dir",
        "string",
        false,
        "`move`'s, `throw`'s and `aim`'s direction (`N`, `NE`, …).",
    ),
    field("square", "Square", false, "`place`'s square."),
    field(
        "way",
        "string",
        false,
        "`turn`'s way: `left`, `right` or `none`.",
    ),
    field(
        "players",
        "Player[]",
        false,
        "`decline`'s and `receivers`' players.",
    ),
];

/// What `on_event` gets.
pub const EVENT_FIELDS: &[Field] = &[
    field(
        "kind",
        "string",
        true,
        "The event's first word in the log (`docs/rules/gball-notation.md`, Events): `act`, `auto`, `roll`, `moved`, `tackle`, `catch`, `score`, `set`, `match`, `injury`, `out`, `star`, `turn`, `phase`, …",
    ),
    field(
        "text",
        "string",
        true,
        "The whole log line, e.g. `\"score RED3 A4\"`.",
    ),
    field(
        "player",
        "Player",
        false,
        "The player it is about, when it names one first (`moved`, `catch`, `score`, `injury`, `out`, `star`, `roll` of a player).",
    ),
    field(
        "team",
        "Team",
        false,
        "The team, for `set`, `newpoint`, `concede`, `coin`, and `match` with a winner.",
    ),
];

/// What `ending` and `ends_now` return to end the match.
pub const END_FIELDS: &[Field] = &[
    field(
        "winner",
        "Team|\"draw\"",
        false,
        "Who won; nil: G3.6 (more sets, then more points in the set, else a draw).",
    ),
    field(
        "reason",
        "string",
        false,
        "How reports name the end: the variant's name (nil) or one of its `ends`.",
    ),
];

/// A variant's declared parameter (`options`).
pub const OPTION_FIELDS: &[Field] = &[
    field(
        "default",
        "integer|boolean",
        true,
        "Its value when the ruleset does not set it.",
    ),
    field(
        "min",
        "integer",
        false,
        "The least value a ruleset may set (numbers only).",
    ),
    field(
        "max",
        "integer",
        false,
        "The greatest value a ruleset may set (numbers only).",
    ),
    field("text", "string", true, "What it sets, in one sentence."),
];

const SCHEMAS: &[Schema] = &[
    Schema {
        class: "Variant",
        title: "Variants",
        what: "A G-ball variant file returns this table. Hooks run in the ruleset's order; for a question the first variant that answers decides. A hook that fails (an error, its budget, a bad answer, a change that breaks the rules) is reported with file:line (`script error:` on stderr, the lab's exit 3) and is not called again that match: the rules answer instead.",
        fields: VARIANT_FIELDS,
    },
    Schema {
        class: "VariantAction",
        title: "A variant's `actions`",
        what: "An action a variant adds, offered to a player wherever the rules let him `stay` (a move decision, G6.3) and its `can` allows: its `resolve` runs, then he stays. At most 8 a ruleset.",
        fields: VARIANT_ACTION_FIELDS,
    },
    Schema {
        class: "Option",
        title: "A variant's `options`",
        what: "One parameter a variant declares. A ruleset sets it in its `[options]` table; `ball check` refuses a value out of range or a name no variant declares.",
        fields: OPTION_FIELDS,
    },
    Schema {
        class: "ActionInfo",
        title: "`allow`'s and `after_action`'s action",
        what: "The action: its verb, its text and its arguments by name.",
        fields: ACTION_FIELDS,
    },
    Schema {
        class: "EventInfo",
        title: "`on_event`'s event",
        what: "One line of the event log.",
        fields: EVENT_FIELDS,
    },
    Schema {
        class: "End",
        title: "`ending`'s end",
        what: "What `ending` or `ends_now` returns to end the match now.",
        fields: END_FIELDS,
    },
];

/// G-ball's script API: what `ball api --game gball` prints and
/// `docs/lua-api-gball.md` holds.
pub static API: Api = Api {
    source: "src/games/gball/script/api.rs",
    intro: "This is G-ball's API (`ball api --game gball`); BALL's is\n\
         `docs/lua-api.md`. A G-ball ruleset lists its variants as\n\
         `variants = [\"scripts/gball/x.lua\"]` and sets their options in an\n\
         `[options]` table.\n\n\
         Every hook receives the `game` table as its first argument (it is also the\n\
         global `game`). Players are ids (`\"RED3\"`, `\"BLU1\"`), squares are names\n\
         (`\"F6\"`), directions are `\"N\"`, `\"NE\"`, … (G1.5), teams are `\"RED\"` / `\"BLU\"`.\n\n\
         G-ball has no movement allowance to spend: a player moves one square a turn\n\
         the way he faces (G6.3), so there is no `cost` point. A variant changes the\n\
         rules where the engine asks a question — what is legal (`allow`), a catch\n\
         roll's target, a tackle die's modifier, an injury's result, a goal's value,\n\
         morale, a star, the end of the match — or reacts to what happened.\n\n\
         Reads work in every hook. **Writes** work only in `on_event` and\n\
         `after_action`; they change a copy of the match that the position checks\n\
         (those of the JSON reader) must accept, committed only when the whole hook\n\
         succeeded. Called from any other hook they fail: those are read-only\n\
         questions.\n\n\
         **A script keeps no state between hook calls**: what a house rule must\n\
         remember goes in the position, as the variant's `state` (`game.get`,\n\
         `game.set`). The sandbox, its budgets and its fixed `pairs` order are\n\
         BALL's (`docs/lua-api.md`); `math.random` is not available: G-ball's dice\n\
         are the engine's (G14).\n\n",
    bindings: BINDINGS,
    tables_intro: "What a G-ball variant file returns. A field not listed is refused at load\n\
         (`file:line: unknown field`, with \"did you mean\").\n\n",
    schemas: SCHEMAS,
    stub_types: "---@alias Player string\n---@alias Square string\n---@alias Team \"RED\"|\"BLU\"\n\
         ---@class PlayerInfo\n---@field id Player\n---@field team Team\n---@field number integer\n\
         ---@field at Square|nil\n---@field facing string|nil\n---@field out string\n---@field stars string\n\
         ---@field veteran boolean\n---@field in_play boolean\n---@field holder boolean\n\
         ---@class BallInfo\n---@field at Square\n---@field dir string|nil\n---@field spin boolean\n\
         ---@field holder Player|nil\n---@field possession Team|nil\n\n",
    stub_removed: "---@deprecated not available in ball scripts: G-ball's dice are the engine's\nfunction math.random() end\n\
         ---@deprecated not available in ball scripts: G-ball's dice are the engine's\nfunction math.randomseed() end\n",
};

fn c(lua: &Lua) -> mlua::Result<mlua::AppDataRefMut<'_, Ctx<GballBinding>>> {
    ctx::<GballBinding>(lua)
}

type Registrar<'a> = crate::script::registry::Registrar<'a, Hooked<GballBinding>>;

fn player(lua: &Lua, name: &str, v: &Value) -> mlua::Result<u8> {
    parsed(lua, name, v, "a player id (RED1-RED9, BLU1-BLU9)", parse_id)
}

fn team(lua: &Lua, name: &str, v: &Value) -> mlua::Result<Team> {
    parsed(lua, name, v, "a team (\"RED\" or \"BLU\")", Team::parse)
}

fn star(lua: &Lua, name: &str, v: &Value) -> mlua::Result<u8> {
    parsed(lua, name, v, "a star (\"J\", \"C\" or \"T\")", |s| match s {
        "J" => Some(STAR_J),
        "C" => Some(STAR_C),
        "T" => Some(STAR_T),
        _ => None,
    })
}

fn roster_player(lua: &Lua, name: &str, pos: &Position, p: u8) -> mlua::Result<()> {
    if pos.roster & bit(p) == 0 {
        return Err(fail(
            lua,
            name,
            format!("{} is not on a match roster", id_name(p)),
        ));
    }
    Ok(())
}

fn team_name(t: Option<Team>) -> Option<&'static str> {
    t.map(Team::name)
}

/// Registers every binding into `game`.
pub fn register(lua: &Lua, game: &Table) -> mlua::Result<()> {
    let mut r = Registrar::new(lua, game, &API);
    r.add("phase", |lua, _, _| Ok(c(lua)?.pos.phase.name()))?;
    r.add("turn", |lua, _, _| Ok(c(lua)?.pos.turn))?;
    r.add("match_turns", |lua, _, _| Ok(c(lua)?.pos.match_turns))?;
    r.add("sets", |lua, _, a| {
        let t = team(lua, "sets", &a.0)?;
        Ok(c(lua)?.pos.sets[t.index()])
    })?;
    r.add("points", |lua, _, a| {
        let t = team(lua, "points", &a.0)?;
        Ok(c(lua)?.pos.points[t.index()])
    })?;
    r.add("home", |lua, _, _| Ok(team_name(c(lua)?.pos.home)))?;
    r.add("initiative", |lua, _, _| Ok(team_name(c(lua)?.pos.initiative)))?;
    r.add("morale", |lua, _, a| {
        let t = team(lua, "morale", &a.0)?;
        Ok(c(lua)?.pos.morale.map(|m| m[t.index()]))
    })?;
    r.add("ball", |lua, _, _| {
        let b = c(lua)?.pos.ball;
        if b.at == crate::games::gball::board::NONE {
            return Ok(None);
        }
        let t = lua.create_table()?;
        t.set("at", Sq(b.at).to_string())?;
        if b.dir != crate::games::gball::board::NONE {
            t.set("dir", dir_name(b.dir))?;
        }
        t.set("spin", b.spin)?;
        if b.holder != crate::games::gball::board::NONE {
            t.set("holder", id_name(b.holder))?;
        }
        t.set("possession", team_name(b.possession))?;
        Ok(Some(t))
    })?;
    r.add("players", |lua, _, a| {
        let mask = match a.0 {
            Value::Nil => u32::MAX,
            v => team(lua, "players", &v)?.mask(),
        };
        let roster = c(lua)?.pos.roster;
        lua.create_sequence_from(members(roster & mask).map(id_name))
    })?;
    r.add("player", |lua, _, a| {
        let p = player(lua, "player", &a.0)?;
        let cx = c(lua)?;
        roster_player(lua, "player", &cx.pos, p)?;
        let pl = cx.pos.players[p as usize];
        let veteran = cx.pos.veterans & (1 << p) != 0;
        let stars = cx.pos.stars(p);
        let in_play = cx.pos.in_play(p);
        let holder = cx.pos.ball.holder == p;
        drop(cx);
        let t = lua.create_table()?;
        t.set("id", id_name(p))?;
        t.set("team", team_of(p).name())?;
        t.set("number", number_of(p))?;
        if pl.at != crate::games::gball::board::NONE {
            t.set("at", Sq(pl.at).to_string())?;
        }
        if pl.facing != crate::games::gball::board::NONE {
            t.set("facing", dir_name(pl.facing))?;
        }
        t.set("out", pl.out.name())?;
        t.set("stars", stars_name(stars))?;
        t.set("veteran", veteran)?;
        t.set("in_play", in_play)?;
        t.set("holder", holder)?;
        Ok(t)
    })?;
    r.add("pending", |lua, _, _| {
        let p = c(lua)?.pos.pending;
        Ok(match p {
            None => (None, None),
            Some(p) => (Some(p.kind()), Some(p.team().name())),
        })
    })?;
    r.add("winner", |lua, _, _| {
        Ok(match c(lua)?.pos.winner {
            None => None,
            Some(Winner::Draw) => Some("draw"),
            Some(Winner::Team(t)) => Some(t.name()),
        })
    })?;
    r.add("param", |lua, _, a| {
        let name =
            a.0.as_string()
                .map(|s| s.to_string_lossy())
                .unwrap_or_default();
        let cx = c(lua)?;
        let v = super::param(&cx.rules, &name);
        drop(cx);
        match v {
            Some(super::ParamValue::Int(n)) => Ok(Value::Integer(n)),
            Some(super::ParamValue::Bool(b)) => Ok(Value::Boolean(b)),
            Some(super::ParamValue::Text(s)) => Ok(Value::String(lua.create_string(s)?)),
            None => {
                let cx = c(lua)?;
                let known: Vec<String> = crate::games::gball::ruleset::KEYS
                    .iter()
                    .filter(|k| !matches!(**k, "game" | "description" | "variants" | "options"))
                    .map(|k| k.to_string())
                    .chain(cx.rules.layout.options.iter().map(|o| o.name.clone()))
                    .collect();
                drop(cx);
                let hint = crate::diagnostic::hint(&name, known.iter().map(String::as_str));
                Err(fail(lua, "param", format!("no parameter `{name}`{hint}")))
            }
        }
    })?;
    r.add("get", |lua, _, a| {
        let name =
            a.0.as_string()
                .map(|s| s.to_string_lossy())
                .unwrap_or_default();
        let slot = counter_slot(lua, "get", &name, &a.1)?;
        Ok(i64::from(c(lua)?.pos.vars.get(slot).copied().unwrap_or(0)))
    })?;
    r.add("set", |lua, _, a| {
        let name =
            a.0.as_string()
                .map(|s| s.to_string_lossy())
                .unwrap_or_default();
        let value = match a.1 {
            Value::Integer(n) => i16::try_from(n)
                .map_err(|_| fail(lua, "set", format!("{n} is outside -32768..32767")))?,
            ref v => {
                return Err(fail(
                    lua,
                    "set",
                    format!("the value must be a whole number, not {}", show(v)),
                ));
            }
        };
        let slot = counter_slot(lua, "set", &name, &a.2)?;
        let mut cx = c(lua)?;
        match cx.pos.vars.get_mut(slot) {
            Some(v) => *v = value,
            None => {
                drop(cx);
                return Err(fail(lua, "set", "the position keeps no such counter"));
            }
        }
        Ok(())
    })?;
    for (name, give) in [("give_star", true), ("take_star", false)] {
        r.add(name, move |lua, _, a| {
            let p = player(lua, name, &a.0)?;
            let s = star(lua, name, &a.1)?;
            let mut cx = c(lua)?;
            if let Err(e) = roster_player(lua, name, &cx.pos, p) {
                drop(cx);
                return Err(e);
            }
            let now = cx.pos.stars(p);
            cx.pos.set_stars(p, if give { now | s } else { now & !s });
            Ok(())
        })?;
    }
    r.finish()
}

/// The slot of counter `name` for `who` (nil, a team or a player).
fn counter_slot(lua: &Lua, hook: &str, name: &str, who: &Value) -> mlua::Result<usize> {
    let cx = ctx::<GballBinding>(lua)?;
    let decl = match cx.rules.layout.counter(name) {
        Ok(d) => d.clone(),
        Err(m) => {
            drop(cx);
            return Err(fail(lua, hook, m));
        }
    };
    drop(cx);
    match (decl.scope, who) {
        (Scope::Game, Value::Nil) => Ok(decl.slot),
        (Scope::Team, v @ Value::String(_)) => Ok(decl.slot + team(lua, hook, v)?.index()),
        (Scope::Player, v @ Value::String(_)) => Ok(decl.slot + usize::from(player(lua, hook, v)?)),
        (scope, v) => Err(fail(
            lua,
            hook,
            format!(
                "`{name}` is a {} counter: {}, not {}",
                crate::script::layout::Scope::name(scope),
                match scope {
                    Scope::Game => "give no `who`",
                    Scope::Team => "give a team",
                    Scope::Player => "give a player",
                },
                show(v)
            ),
        )),
    }
}

/// The API reference in Markdown (`docs/lua-api-gball.md`).
pub fn reference() -> String {
    API.reference()
}

/// lua-language-server annotations.
pub fn stubs() -> String {
    API.stubs()
}
