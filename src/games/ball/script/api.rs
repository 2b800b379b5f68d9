//! The Lua API: the one place where bindings are registered. The API
//! reference (`docs/lua-api.md`) and the lua-language-server stubs
//! (`ball api --stubs`) are generated from [`BINDINGS`]; a test fails when
//! the registered functions, the list and the reference drift apart.
//!
//! Every function lives in the `game` table a hook receives. Reads work
//! in every hook; writes only in a card's `resolve` and a variant's event
//! hooks, on a copy of the position that the kernel validates before it
//! commits it (B11.7).

use std::cell::{RefCell, RefMut};
use std::rc::Rc;

use mlua::{Lua, LuaString, Table, Value};

pub use crate::script::registry::{Binding, Field};
use crate::script::registry::{Api, Gate, Schema, field, read, write};
use crate::script::registry::{fail, parsed, show};

use crate::games::ball::board::{Sq, squares};
use crate::games::ball::params::{Params, Scope};
use crate::games::ball::piece::{PieceId, Team};
use crate::games::ball::position::{BallState, Outcome, Phase, Position, Stack};

/// Every binding, in the order of the reference.
pub const BINDINGS: &[Binding] = &[
    read(
        "to_move",
        "",
        "Team",
        "The coach whose turn it is: `\"ATK\"` or `\"DEF\"`.",
    ),
    read("turn", "", "integer", "The turn number (B3.3)."),
    read("phase", "", "string", "`\"action\"` or `\"release\"`."),
    read("ap", "", "integer", "AP left this turn (B4.2)."),
    read(
        "ep",
        "team: Team",
        "integer",
        "A coach's energy points (B11.2).",
    ),
    read("score", "team: Team", "integer", "A coach's touchdowns."),
    read(
        "param",
        "name: string",
        "integer|boolean|string[]|nil",
        "A ruleset parameter by its TOML name, e.g. `\"short_pass_range\"`, `\"turn_limit\"`, `\"ap_per_turn\"` (`\"forbid\"` gives the list of forbidden verbs), or one of the variants' `options`; a name that is neither fails with did-you-mean.",
    ),
    read(
        "get",
        "name: string, who?: Piece|Team",
        "integer",
        "A counter a variant keeps in the position (its `state`): a game counter by name, a team's or a piece's with `who`. Counters start at 0; they are saved, loaded and replayed with the position.",
    ),
    read(
        "pieces",
        "team?: Team",
        "Piece[]",
        "Piece ids in id order, of one team or of both.",
    ),
    read(
        "piece",
        "id: Piece",
        "PieceInfo",
        "A piece: `{id, team, kind, at, down, restricted, stacked, ball}` (`kind` is `\"X\"`, `\"O\"` or `\"#\"`; `ball` is true for the holder).",
    ),
    read(
        "piece_at",
        "square: Square",
        "Piece|nil",
        "The piece on a square (a stack's top), or nil.",
    ),
    read(
        "stack_at",
        "square: Square",
        "StackInfo|nil",
        "The stack on a square: `{top, bottom, formed}`, or nil.",
    ),
    read(
        "ball",
        "",
        "Piece|nil, Square",
        "The holder (nil when loose) and the square the ball is on.",
    ),
    read(
        "is_empty",
        "square: Square",
        "boolean",
        "True when no piece stands on the square.",
    ),
    read(
        "is_free",
        "square: Square",
        "boolean",
        "True when neither a piece nor the loose ball is on the square.",
    ),
    read(
        "distance",
        "a: Square, b: Square",
        "integer",
        "Diagonal steps between two squares (B1.3).",
    ),
    read(
        "neighbours",
        "square: Square",
        "Square[]",
        "The adjacent squares in board order (B1.3).",
    ),
    read(
        "squares_within",
        "square: Square, k: integer",
        "Square[]",
        "Every square at distance 1..k, in board order.",
    ),
    read(
        "in_scoring_zone",
        "square: Square, team: Team",
        "boolean",
        "True when `team` scores on that square (B1.4).",
    ),
    write(
        "move",
        "piece: Piece, square: Square",
        "Puts an unstacked piece on an empty square anywhere; a loose ball there is taken and, when the piece is the moving coach's, restricts it (B9.2, B4.5).",
    ),
    write(
        "stand_up",
        "piece: Piece",
        "A down, unstacked piece becomes active where it stands.",
    ),
    write(
        "knock_down",
        "piece: Piece",
        "An active, unstacked piece is knocked down where it stands; a holder keeps the ball (use `drop_ball` to make it loose).",
    ),
    write(
        "swap",
        "a: Piece, b: Piece",
        "Two unstacked pieces of one team trade squares (a held ball goes with its holder).",
    ),
    write(
        "release",
        "top: Piece, top_square: Square, bottom_square: Square",
        "Releases `top`'s stack now, whenever it was formed: both pieces to two different free squares next to it; the top is active, the bottom keeps its state (B7.5); a held ball stays with its holder.",
    ),
    write(
        "stack",
        "top: Piece, bottom: Piece",
        "Puts an active, unstacked piece on another unstacked piece's square as the top of a new stack (block or protect from a distance); the top takes the bottom's ball (B7.3).",
    ),
    write(
        "give_ball",
        "piece: Piece",
        "The holder's ball goes to an active, unstacked team-mate of the holder.",
    ),
    write(
        "take_ball",
        "piece: Piece",
        "An active, unstacked piece takes the loose ball wherever it lies, and is restricted when it is the moving coach's (B9.2, B4.5).",
    ),
    write(
        "drop_ball",
        "square: Square",
        "The held ball lies loose on `square`, which must be free (no piece, no ball: B2.4), e.g. next to a holder that a house rule knocks down (`knock_down` alone leaves the ball with the piece).",
    ),
    write(
        "restrict",
        "piece: Piece",
        "The piece may start no further action this turn (B4.5).",
    ),
    write("unrestrict", "piece: Piece", "Lifts a restriction (B11.8)."),
    write(
        "add_ap",
        "n: integer",
        "Gives the coach to move up to `n` AP, never beyond the AP of a turn.",
    ),
    write(
        "end_game",
        "",
        "Ends the game now; more touchdowns wins, equal is a draw (B3.6). To end it with a winner and a reason of your own, use a variant's `ending`.",
    ),
    write(
        "set",
        "name: string, value: integer, who?: Piece|Team",
        "Sets a counter of the variants' `state` (-32768..32767); `who` for a team or piece counter.",
    ),
];

/// What the bindings work on during one hook call.
pub struct Ctx {
    pub pos: Position,
    pub params: Params,
    /// The hook running, for messages.
    pub hook: &'static str,
    /// Whether this hook may change the game.
    pub writable: bool,
    /// Whether a hook is running. The context stays in the state between
    /// calls (set up once, not once per call); outside a hook it is
    /// closed.
    pub active: bool,
}

impl Ctx {
    fn new() -> Ctx {
        let params = Params::default();
        Ctx {
            pos: Position::start(&params),
            params,
            hook: "",
            writable: false,
            active: false,
        }
    }
}

/// What the bindings share with the host: each binding holds it (the
/// registrar hands it over), so reaching the context costs no app-data
/// lookup, and the host sets the context through it before each call.
pub struct Bound {
    pub ctx: RefCell<Ctx>,
    known: Known,
}

/// The bindings' handle on [`Bound`].
pub type Shared = Rc<Bound>;

impl Gate for Shared {
    fn gate(&self, _: &Lua) -> Option<(bool, &'static str)> {
        let c = self.ctx.borrow();
        c.active.then_some((c.writable, c.hook))
    }
}

/// The piece ids and square names the host made at load (the strings it
/// passes a card's `resolve`), by the address of each Lua string. Lua
/// keeps one copy of each short string, so an argument spelt like one of
/// these is that very string while it is held here (the strings are, so
/// no other string takes an address of theirs), and is known by its
/// address without its text being read, checked as UTF-8 and parsed.
/// Any other argument is parsed as before, with the same refusals.
struct Known {
    pieces: Vec<(usize, PieceId)>,
    squares: Vec<(usize, Sq)>,
    /// The strings, held so that the addresses stay theirs.
    _held: Vec<LuaString>,
}

impl Known {
    /// Each string is read once, here, by the same parser an argument
    /// meets: what it is known as cannot depend on the order the host
    /// made its strings in. A string that is not a piece id (or square)
    /// is left out, to be parsed, and refused, at the call.
    fn new(pieces: &[LuaString], squares: &[LuaString]) -> Known {
        fn index<T>(strings: &[LuaString], parse: impl Fn(&str) -> Option<T>) -> Vec<(usize, T)> {
            let mut v: Vec<(usize, T)> = strings
                .iter()
                .filter_map(|s| Some((s.to_pointer() as usize, parse(&s.to_str().ok()?)?)))
                .collect();
            v.sort_by_key(|&(a, _)| a);
            v
        }
        Known {
            pieces: index(pieces, PieceId::parse),
            squares: index(squares, |s| Sq::parse(s).ok()),
            _held: pieces.iter().chain(squares).cloned().collect(),
        }
    }

    fn find<T: Copy>(list: &[(usize, T)], v: &Value) -> Option<T> {
        let Value::String(s) = v else { return None };
        let at = s.to_pointer() as usize;
        let i = list.binary_search_by_key(&at, |&(a, _)| a).ok()?;
        Some(list[i].1)
    }
}

fn ctx(b: &Bound) -> mlua::Result<RefMut<'_, Ctx>> {
    let c = b.ctx.borrow_mut();
    if c.active {
        Ok(c)
    } else {
        Err(mlua::Error::runtime("the game is only available inside a hook"))
    }
}

fn piece(lua: &Lua, b: &Bound, name: &str, v: &Value) -> mlua::Result<PieceId> {
    match Known::find(&b.known.pieces, v) {
        Some(id) => Ok(id),
        None => parsed(lua, name, v, "a piece id (ATK1-ATK7, DEF1-DEF7)", PieceId::parse),
    }
}

fn square(lua: &Lua, b: &Bound, name: &str, v: &Value) -> mlua::Result<Sq> {
    match Known::find(&b.known.squares, v) {
        Some(sq) => Ok(sq),
        None => parsed(lua, name, v, "a playable square", |s| Sq::parse(s).ok()),
    }
}

fn team(lua: &Lua, name: &str, v: &Value) -> mlua::Result<Team> {
    parsed(lua, name, v, "a team (\"ATK\" or \"DEF\")", Team::parse)
}

/// Registers every binding into a fresh `game` table; `pieces` and
/// `squares` are the host's strings for piece ids and squares, in any
/// order. Returns the table and what the bindings share with the host.
pub fn register(
    lua: &Lua,
    pieces: &[LuaString],
    squares: &[LuaString],
) -> mlua::Result<(Table, Shared)> {
    let game = lua.create_table()?;
    let shared = Rc::new(Bound {
        ctx: RefCell::new(Ctx::new()),
        known: Known::new(pieces, squares),
    });
    let mut reg = Registrar::with(lua, &game, &API, shared.clone());
    register_reads(&mut reg)?;
    register_writes(&mut reg)?;
    reg.finish()?;
    Ok((game, shared))
}

/// The names [`register`] registered, in order (for the drift test).
pub fn registered(lua: &Lua) -> Vec<String> {
    crate::script::registry::registered(lua)
}

type Registrar<'a> = crate::script::registry::Registrar<'a, Shared>;

fn square_list(lua: &Lua, set: u128) -> mlua::Result<Table> {
    lua.create_sequence_from(squares(set).map(|s| s.to_string()))
}

fn register_reads(r: &mut Registrar<'_>) -> mlua::Result<()> {
    r.add("to_move", |_, b, _| Ok(ctx(b)?.pos.to_move.name()))?;
    r.add("turn", |_, b, _| Ok(ctx(b)?.pos.turn))?;
    r.add("phase", |_, b, _| {
        let p = match ctx(b)?.pos.phase {
            Phase::Action => "action",
            Phase::Release => "release",
        };
        Ok(p)
    })?;
    r.add("ap", |_, b, _| Ok(ctx(b)?.pos.ap))?;
    r.add("ep", |lua, b, a| {
        let t = team(lua, "ep", &a.0)?;
        Ok(ctx(b)?.pos.ep[t as usize])
    })?;
    r.add("score", |lua, b, a| {
        let t = team(lua, "score", &a.0)?;
        Ok(ctx(b)?.pos.score[t as usize])
    })?;
    r.add("param", |lua, b, a| {
        let name =
            a.0.as_string()
                .map(|s| s.to_string_lossy())
                .unwrap_or_default();
        let p = ctx(b)?.params.clone();
        let v: Value = match name.as_str() {
            "ap_per_turn" => Value::Integer(p.ap_per_turn.into()),
            "end_zone_depth" => Value::Integer(p.end_zone_depth.into()),
            "touchdowns_to_win" => Value::Integer(p.touchdowns_to_win.into()),
            "turn_limit" => Value::Integer(p.turn_limit.into()),
            "short_pass_range" => Value::Integer(p.short_pass_range.into()),
            "long_pass_min_distance" => Value::Integer(p.long_pass_min_distance.into()),
            "long_pass_max_distance" => p
                .long_pass_max_distance
                .map_or(Value::Nil, |d| Value::Integer(d.into())),
            "handoff_network" => Value::Boolean(p.handoff_network),
            "short_pass_loose" => Value::Boolean(p.short_pass_loose),
            "stack_top_takes_ball" => Value::Boolean(p.stack_top_takes_ball),
            "keep_choice_needs_top" => Value::Boolean(p.keep_choice_needs_top),
            "forbid" => Value::Table(
                lua.create_sequence_from(
                    crate::games::ball::params::Verb::ALL
                        .into_iter()
                        .filter(|v| p.forbidden.contains(*v))
                        .map(|v| v.name()),
                )?,
            ),
            other => match p.layout.option(other) {
                Some(o) if o.boolean => Value::Boolean(o.value != 0),
                Some(o) => Value::Integer(o.value),
                None => {
                    let known = crate::games::ball::ruleset::PARAM_KEYS
                        .iter()
                        .map(|(k, _)| *k)
                        .chain(p.layout.options.iter().map(|o| o.name.as_str()));
                    let hint = crate::diagnostic::hint(other, known);
                    return Err(fail(lua, "param", format!("no parameter `{name}`{hint}")));
                }
            },
        };
        Ok(v)
    })?;
    r.add("get", |lua, b, a| {
        let name = a.0.as_string().map(|s| s.to_string_lossy()).unwrap_or_default();
        let slot = counter_slot(lua, b, "get", &name, &a.1)?;
        Ok(i64::from(ctx(b)?.pos.vars[slot]))
    })?;
    r.add("pieces", |lua, _, a| {
        let which = match a.0 {
            Value::Nil => None,
            v => Some(team(lua, "pieces", &v)?),
        };
        let ids = PieceId::all()
            .filter(|p| which.is_none_or(|t| p.team() == t))
            .map(|p| p.to_string());
        lua.create_sequence_from(ids)
    })?;
    r.add("piece", |lua, b, a| {
        let id = piece(lua, b, "piece", &a.0)?;
        let c = ctx(b)?;
        let p = *c.pos.piece(id);
        let stacked = c.pos.is_stacked(id);
        let ball = c.pos.ball == BallState::Held(id);
        let restricted = p.restricted;
        drop(c);
        let t = lua.create_table()?;
        t.set("id", id.to_string())?;
        t.set("team", id.team().name())?;
        t.set("kind", p.kind.symbol().to_string())?;
        t.set("at", p.at.to_string())?;
        t.set("down", p.down)?;
        t.set("restricted", restricted)?;
        t.set("stacked", stacked)?;
        t.set("ball", ball)?;
        Ok(t)
    })?;
    r.add("piece_at", |lua, b, a| {
        let sq = square(lua, b, "piece_at", &a.0)?;
        let id = ctx(b)?.pos.piece_at(sq);
        Ok(id.map(|p| p.to_string()))
    })?;
    r.add("stack_at", |lua, b, a| {
        let sq = square(lua, b, "stack_at", &a.0)?;
        let s = ctx(b)?.pos.stacks.at(sq).copied();
        match s {
            None => Ok(None),
            Some(s) => {
                let t = lua.create_table()?;
                t.set("top", s.top.to_string())?;
                t.set("bottom", s.bottom.to_string())?;
                t.set("formed", s.formed)?;
                Ok(Some(t))
            }
        }
    })?;
    r.add("ball", |_, b, _| {
        let c = ctx(b)?;
        let holder = c.pos.holder().map(|p| p.to_string());
        let at = c.pos.ball_square().to_string();
        drop(c);
        Ok((holder, at))
    })?;
    r.add("is_empty", |lua, b, a| {
        let sq = square(lua, b, "is_empty", &a.0)?;
        Ok(ctx(b)?.pos.occupied() & sq.bit() == 0)
    })?;
    r.add("is_free", |lua, b, a| {
        let sq = square(lua, b, "is_free", &a.0)?;
        let c = ctx(b)?;
        Ok(c.pos.occupied() & sq.bit() == 0 && c.pos.loose_ball() != Some(sq))
    })?;
    r.add("distance", |lua, b, a| {
        let x = square(lua, b, "distance", &a.0)?;
        let y = square(lua, b, "distance", &a.1)?;
        Ok(x.distance(y))
    })?;
    r.add("neighbours", |lua, b, a| {
        let sq = square(lua, b, "neighbours", &a.0)?;
        square_list(lua, sq.neighbours())
    })?;
    r.add("squares_within", |lua, b, a| {
        let sq = square(lua, b, "squares_within", &a.0)?;
        let k = match a.1 {
            Value::Integer(k) if (0..=16).contains(&k) => k as u8,
            v => {
                return Err(fail(
                    lua,
                    "squares_within",
                    format!("{} is not a distance 0-16", show(&v)),
                ));
            }
        };
        square_list(lua, sq.within(k) & !sq.bit())
    })?;
    r.add("in_scoring_zone", |lua, b, a| {
        let sq = square(lua, b, "in_scoring_zone", &a.0)?;
        let t = team(lua, "in_scoring_zone", &a.1)?;
        let c = ctx(b)?;
        Ok(crate::games::ball::apply::in_scoring_zone(t, sq, &c.params))
    })?;
    Ok(())
}

/// A write: runs `f` on the working copy; its error message becomes the
/// script's error at the calling line.
fn change(
    lua: &Lua,
    b: &Bound,
    name: &str,
    f: impl FnOnce(&mut Position, &Params) -> Result<(), String>,
) -> mlua::Result<()> {
    let result = {
        let mut c = ctx(b)?;
        let c = &mut *c;
        f(&mut c.pos, &c.params)
    };
    result.map_err(|m| fail(lua, name, m))
}

fn unstacked(pos: &Position, id: PieceId) -> Result<(), String> {
    if pos.is_stacked(id) {
        Err(format!("{id} is in a stack"))
    } else {
        Ok(())
    }
}

fn active(pos: &Position, id: PieceId) -> Result<(), String> {
    unstacked(pos, id)?;
    if pos.piece(id).down {
        return Err(format!("{id} is down"));
    }
    Ok(())
}

fn register_writes(r: &mut Registrar<'_>) -> mlua::Result<()> {
    r.add("move", |lua, b, a| {
        let id = piece(lua, b, "move", &a.0)?;
        let to = square(lua, b, "move", &a.1)?;
        change(lua, b, "move", |pos, _| {
            unstacked(pos, id)?;
            if pos.occupied() & to.bit() != 0 {
                return Err(format!("{to} is not empty"));
            }
            pos.piece_mut(id).at = to;
            if pos.loose_ball() == Some(to) {
                pos.ball = BallState::Held(id);
                // B4.5: a restriction lasts the turn, so only the moving
                // coach's pieces carry one.
                pos.piece_mut(id).restricted = id.team() == pos.to_move;
            }
            Ok(())
        })
    })?;
    r.add("stand_up", |lua, b, a| {
        let id = piece(lua, b, "stand_up", &a.0)?;
        change(lua, b, "stand_up", |pos, _| {
            unstacked(pos, id)?;
            if !pos.piece(id).down {
                return Err(format!("{id} is not down"));
            }
            pos.piece_mut(id).down = false;
            Ok(())
        })
    })?;
    r.add("knock_down", |lua, b, a| {
        let id = piece(lua, b, "knock_down", &a.0)?;
        change(lua, b, "knock_down", |pos, _| {
            active(pos, id)?;
            pos.piece_mut(id).down = true;
            Ok(())
        })
    })?;
    r.add("swap", |lua, b, a| {
        let x = piece(lua, b, "swap", &a.0)?;
        let y = piece(lua, b, "swap", &a.1)?;
        change(lua, b, "swap", |pos, _| {
            unstacked(pos, x)?;
            unstacked(pos, y)?;
            if x.team() != y.team() || x == y {
                return Err(format!("{x} and {y} are not two pieces of one team"));
            }
            let (ax, ay) = (pos.piece(x).at, pos.piece(y).at);
            pos.piece_mut(x).at = ay;
            pos.piece_mut(y).at = ax;
            Ok(())
        })
    })?;
    r.add("release", |lua, b, a| {
        let top = piece(lua, b, "release", &a.0)?;
        let ta = square(lua, b, "release", &a.1)?;
        let ba = square(lua, b, "release", &a.2)?;
        change(lua, b, "release", |pos, _| {
            let Some(s) = pos.stacks.with_top(top).copied() else {
                return Err(format!("{top} is not the top of a stack"));
            };
            let free = |pos: &Position, sq: Sq| {
                pos.occupied() & sq.bit() == 0 && pos.loose_ball() != Some(sq)
            };
            if ta == ba
                || s.at.distance(ta) != 1
                || s.at.distance(ba) != 1
                || !free(pos, ta)
                || !free(pos, ba)
            {
                return Err(format!(
                    "{ta} and {ba} are not two different free squares next to {}",
                    s.at
                ));
            }
            pos.stacks.remove_at(s.at);
            pos.piece_mut(top).at = ta;
            pos.piece_mut(s.bottom).at = ba;
            Ok(())
        })
    })?;
    r.add("stack", |lua, b, a| {
        let top = piece(lua, b, "stack", &a.0)?;
        let bottom = piece(lua, b, "stack", &a.1)?;
        change(lua, b, "stack", |pos, params| {
            active(pos, top)?;
            unstacked(pos, bottom)?;
            if top == bottom {
                return Err("a stack is two pieces".into());
            }
            let at = pos.piece(bottom).at;
            pos.piece_mut(top).at = at;
            let formed = pos.turn;
            if !pos.stacks.insert(Stack {
                at,
                top,
                bottom,
                formed,
            }) {
                return Err("no room for another stack (B7.1: at most 7)".into());
            }
            if pos.ball == BallState::Held(bottom) && params.stack_top_takes_ball {
                pos.ball = BallState::Held(top);
            }
            Ok(())
        })
    })?;
    r.add("give_ball", |lua, b, a| {
        let to = piece(lua, b, "give_ball", &a.0)?;
        change(lua, b, "give_ball", |pos, _| {
            let Some(h) = pos.holder() else {
                return Err("the ball is loose: nobody gives it".into());
            };
            active(pos, to)?;
            if to.team() != h.team() {
                return Err(format!("{to} is not a team-mate of the holder {h}"));
            }
            pos.ball = BallState::Held(to);
            Ok(())
        })
    })?;
    r.add("take_ball", |lua, b, a| {
        let id = piece(lua, b, "take_ball", &a.0)?;
        change(lua, b, "take_ball", |pos, _| {
            active(pos, id)?;
            if pos.loose_ball().is_none() {
                return Err("the ball is not loose".into());
            }
            pos.ball = BallState::Held(id);
            pos.piece_mut(id).restricted = id.team() == pos.to_move;
            Ok(())
        })
    })?;
    r.add("drop_ball", |lua, b, a| {
        let sq = square(lua, b, "drop_ball", &a.0)?;
        change(lua, b, "drop_ball", |pos, _| {
            if pos.loose_ball().is_some() {
                return Err("the ball is already loose".into());
            }
            if pos.pieces.iter().any(|p| p.at == sq) {
                return Err(format!("{sq} holds a piece: a loose ball lies on a free square (B2.4)"));
            }
            pos.ball = BallState::Loose(sq);
            Ok(())
        })
    })?;
    r.add("restrict", |lua, b, a| {
        let id = piece(lua, b, "restrict", &a.0)?;
        change(lua, b, "restrict", |pos, _| {
            if id.team() != pos.to_move {
                return Err(format!(
                    "{id} is not the moving coach's: restrictions last only this turn"
                ));
            }
            pos.piece_mut(id).restricted = true;
            Ok(())
        })
    })?;
    r.add("unrestrict", |lua, b, a| {
        let id = piece(lua, b, "unrestrict", &a.0)?;
        change(lua, b, "unrestrict", |pos, _| {
            pos.piece_mut(id).restricted = false;
            Ok(())
        })
    })?;
    r.add("add_ap", |lua, b, a| {
        let n = match a.0 {
            Value::Integer(n) if n >= 0 => n.min(255) as u8,
            v => {
                return Err(fail(
                    lua,
                    "add_ap",
                    format!("{} is not a whole number ≥ 0", show(&v)),
                ));
            }
        };
        change(lua, b, "add_ap", |pos, params| {
            if pos.phase != Phase::Action {
                return Err("AP exist only in the action phase".into());
            }
            pos.ap = pos.ap.saturating_add(n).min(params.ap_per_turn);
            Ok(())
        })
    })?;
    r.add("end_game", |lua, b, _| {
        change(lua, b, "end_game", |pos, _| {
            pos.outcome = Some(Outcome::by_score(pos.score));
            Ok(())
        })
    })?;
    r.add("set", |lua, b, a| {
        let name = a.0.as_string().map(|s| s.to_string_lossy()).unwrap_or_default();
        let value = match a.1 {
            Value::Integer(n) => i16::try_from(n).map_err(|_| {
                fail(lua, "set", format!("{n} is outside -32768..32767"))
            })?,
            ref v => {
                return Err(fail(
                    lua,
                    "set",
                    format!("the value must be a whole number, not {}", show(v)),
                ));
            }
        };
        let slot = counter_slot(lua, b, "set", &name, &a.2)?;
        change(lua, b, "set", |pos, _| {
            pos.vars[slot] = value;
            Ok(())
        })
    })?;
    Ok(())
}

/// The position slot of counter `name` for `who` (nil for a game
/// counter), or an error that says what the ruleset keeps.
fn counter_slot(lua: &Lua, b: &Bound, binding: &str, name: &str, who: &Value) -> mlua::Result<usize> {
    let layout = ctx(b)?.params.layout.clone();
    let decl = layout.counter(name).map_err(|e| fail(lua, binding, e))?;
    let index = match (decl.scope, who) {
        (Scope::Game, Value::Nil) => 0,
        (Scope::Team, v) => team(lua, binding, v)? as usize,
        (Scope::Piece, v) => piece(lua, b, binding, v)?.0 as usize,
        (Scope::Game, v) => {
            return Err(fail(
                lua,
                binding,
                format!("`{name}` is a game counter: it takes no {}", show(v)),
            ));
        }
    };
    Ok(decl.slot + index)
}

/// The names of a field list, for the loader's unknown-field check.
pub use crate::script::registry::names;

/// A card's table (B11.6), `cards/<id>.lua`.
pub const CARD_FIELDS: &[Field] = &[
    field("id", "string", true, "The card's id in the notation (`card sprint …`): its file name without `.lua`, lower-case letters, digits, `_`, `-`."),
    field("name", "string", true, "The name a player sees."),
    field("text", "string", true, "The rules text, as the card states it."),
    field("cost", "integer", true, "EP it costs, 0-100 (B11.6)."),
    field("ap", "integer", false, "AP it costs, 0-10 (default 0)."),
    field("uses", "integer", false, "Plays per game, 0-100 (default: no limit)."),
    field("per_turn", "integer", false, "Plays per turn, 0-100 (default: no limit)."),
    field("args", "(\"piece\"|\"square\"|\"number\")[]", true, "The kinds of its up to 3 arguments, in order; `{}` for none."),
    field("requires", "Requires", false, "With declared targets only: what the whole card needs (below)."),
    field("can_play", "fun(game: Game): boolean", false, "Read-only: false when the card may not be played at all now; asked before its targets."),
    field("targets", "TargetFilter[]|fun(game: Game): any[]", true, "Declared targets, one filter an argument (below; enumerated natively, no Lua per legal list), or a read-only function returning the list of targets, each a value or a list of `#args` values."),
    field("resolve", "fun(game: Game, ...: Piece|Square|integer)", true, "The effect: called with the card's arguments; may write (B11.7). Runs on a copy, committed only when the whole call succeeded and the position keeps every rule."),
];

/// A variant's own action (`actions`): a card's fields but the EP cost,
/// and named by its `id`, not a file.
pub const VARIANT_ACTION_FIELDS: &[Field] = &[
    field("id", "string", true, "Its verb in the notation (`rally ATK3 G9`): lower-case letters, digits, `_`, `-`; not a verb of the rules."),
    field("name", "string", true, "The name a player sees."),
    field("text", "string", true, "What it does, in one sentence."),
    field("ap", "integer", false, "AP it costs, 0-10 (default 0); a variant's `cost` may change it."),
    field("uses", "integer", false, "Plays per game, 0-100 (default: no limit)."),
    field("per_turn", "integer", false, "Plays per turn, 0-100 (default: no limit)."),
    field("args", "(\"piece\"|\"square\"|\"number\")[]", true, "The kinds of its up to 3 arguments, in order; `{}` for none."),
    field("requires", "Requires", false, "With declared targets only: what it needs (as a card's)."),
    field("can_play", "fun(game: Game): boolean", false, "Read-only: false when it may not be taken at all now."),
    field("targets", "TargetFilter[]|fun(game: Game): any[]", true, "Declared targets, as a card's (enumerated natively), or a read-only function."),
    field("resolve", "fun(game: Game, ...: Piece|Square|integer)", true, "The effect, as a card's `resolve`: may write, on a checked copy."),
];

/// A variant's table (B12 and house rules), `scripts/variants/<name>.lua`.
pub const VARIANT_FIELDS: &[Field] = &[
    field("name", "string", true, "The variant's name, in messages."),
    field("text", "string", false, "What the house rule says, in one sentence."),
    field("params", "table<string, integer|boolean>", false, "Ruleset parameters it sets, by their TOML names and ranges (docs/rulesets.md); folded in at load."),
    field("forbid", "string[]", false, "Verbs it forbids (not `end`, `standup`, `release`)."),
    field("on_touchdown", "fun(game: Game, team: Team)", false, "After a touchdown is scored (the score already counts it) and before the B3.5 reset; may write, e.g. `game.end_game()`. `team` scored."),
    field("on_turn_start", "fun(game: Game, team: Team)", false, "When `team`'s turn starts (after a reset, after the release phase); may write. Not for turn 1: the start position is B3.1's (a counter's first value is its `state` `start`)."),
    field("touchdown_counts", "fun(game: Game, team: Team): boolean|{count: boolean}", false, "Read-only, before a touchdown of `team` counts (its holder ends an action-phase action in the scoring zone, B3.4): `false` or `{count = false}` vetoes it; `true`/nil counts. A vetoed touchdown scores nothing and resets nothing: play goes on as if the holder were outside the zone (the action's own sequel; after `end`, the release phase), and the check runs again after the coach's next action-phase action."),
    field("actions", "VariantAction[]", false, "Actions the variant adds for both coaches, in the action phase, with or without card mode (below): listed by `legal` in the notation by their `id` (`rally ATK3 G9`), offered on the boards' `c` menu, chosen by bots, counted by the lab. Example: `rulesets/dash.toml`."),
    field("state", "table<string, \"game\"|\"team\"|\"piece\"|{per: string, start: integer|string}>", false, "Counters the variant keeps in the position, by name: one for the game, one a team or one a piece (`\"team\"`, or `{per = \"team\", start = 6}` where `start` is a number or one of the variant's `options` by name), each a whole number starting at 0 or its `start` (`game.get`, `game.set`). They are the only state a script keeps between hook calls, and the position JSON carries them (`vars`), so save, load and replay see the same game. At most 28 slots a ruleset (a game counter takes 1, a team counter 2, a piece counter 14). Example: `state = { tired = \"piece\", streak = \"team\", overtime = \"game\" }`."),
    field("options", "table<string, Option>", false, "Parameters the variant declares (below): the ruleset file sets them under `[options]` (checked against `min`/`max`, did-you-mean on names); `game.param(name)` reads them. Example (`rulesets/overtime.toml`): `options = { extra_turns = { default = 10, min = 0, max = 100, text = \"Turns of overtime.\" } }`, set by `[options] extra_turns = 5`."),
    field("ends", "(string|{name: string, limit: boolean})[]", false, "The names `ending` may give as `reason`, besides the variant's own name: how `sim`, `compare`, the boards and records name a game it ended. `{name = \"standing\", limit = true}` marks an end that is a limit (a tiebreak after the last turn): the lab counts it as a timeout, not as decided by play."),
    field("cost", "fun(game: Game, action: ActionInfo): integer?", false, "Read-only: the AP an action-phase action costs (0-20; nil keeps the rules' cost: 1, a long pass 2, a hand-off 0, a card its `ap`). `legal` lists only what the coach can afford at these prices; a refusal says what it costs. Not asked of `end`, `convert` or the release tasks (`standup` and `release`: a down piece stands up for free in the release phase, B10.2; to price getting up, add a variant action). Asked of every action a legal list could hold, so it costs a Lua call per candidate; a ruleset without `cost` calls none. Example: `cost = function(game, a) if a.verb == \"lpass\" then return 3 end end`."),
    field("touchdown_value", "fun(game: Game, team: Team): integer?, Team?", false, "Read-only, when `team`'s touchdown counts: the points it scores (0-9; nil: 1) and, optionally, the team they go to. The game ends when a score reaches `touchdowns_to_win` (B3.6). Example (`rulesets/comeback.toml`): `touchdown_value = function(game, team) if game.score(team) + 2 == game.score(team == \"ATK\" and \"DEF\" or \"ATK\") then return 2 end end`."),
    field("ending", "fun(game: Game, why: \"touchdowns\"|\"turn-limit\"): nil|false|End", false, "Read-only, asked only where the rules would end the game (`why` says which rule: a score reached `touchdowns_to_win`, or the last turn ended). nil lets the rules' end stand; `false` plays on past it (it is asked again at the next such point: after the next touchdown, or the next turn); an `End` table ends the game now — nil winner by the score, nil reason the variant's name, another reason one of its `ends`. Reports name the game's end by that reason. Example: sudden death after the turn limit (`rulesets/overtime.toml`)."),
    field("ends_now", "fun(game: Game): End?", false, "Read-only, after every action of a game that goes on: an `End` table ends it now (a condition of the variant's own: a lead, a count), nil goes on. Asked per action, so it costs a Lua call on every action; `ending` costs one only where the rules end. Example, a three-touchdown lead wins: `ends_now = function(game) if math.abs(game.score(\"ATK\") - game.score(\"DEF\")) >= 3 then return { reason = \"mercy\" } end end` (with `ends = { \"mercy\" }`)."),
    field("next_turn", "fun(game: Game, team: Team): Team?", false, "Read-only, when a turn starts: which coach moves (`team` is the rules' choice: B10.1 after a release phase, B3.5 after a touchdown); nil keeps it. Example, the scorer moves again: `next_turn = function(game, team) return game.get(\"scored\") == 1 and (team == \"ATK\" and \"DEF\" or \"ATK\") or nil end`."),
    field("turn_ap", "fun(game: Game, team: Team): integer?", false, "Read-only, when `team`'s turn starts: its AP (0-20; nil: `ap_per_turn`). Example (`rulesets/comeback.toml`): `turn_ap = function(game, team) if game.score(team) < game.score(team == \"ATK\" and \"DEF\" or \"ATK\") then return game.param(\"ap_per_turn\") + 1 end end`."),
    field("on_event", "fun(game: Game, event: EventInfo)", false, "After each action, once for each rule event the action caused, in order (below); may write (a checked copy, as `resolve`). What a hook changes is not an event: it is not logged (a card's play is, as one `card` line) and raises no further `on_event`. Example (`rulesets/fatigue.toml`): `on_event = function(game, e) if e.kind == \"turn_started\" then for _, p in ipairs(game.pieces()) do game.set(\"tired\", 0, p) end end end`."),
    field("after_action", "fun(game: Game, action: ActionInfo)", false, "After every action (and its `on_event`s); may write. `action` is the action just played. Example (`rulesets/fatigue.toml`): `after_action = function(game, a) local p = a.piece or a.from if p then game.set(\"tired\", game.get(\"tired\", p) + 1, p) end end`."),
    field("allow", "fun(game: Game, action: ActionInfo): boolean, string?", false, "Read-only, for each action of the rules' legal list but `end`, `standup` and `release`: `false` removes it (an optional second value is the reason a refusal gives, rule `ruleset`). It can only remove: an action the rules refuse is never asked about. Asked per action: a ruleset without `allow` calls no Lua per legal list."),
];

/// What `allow` gets: the action, by the notation's argument names.
pub const ACTION_FIELDS: &[Field] = &[
    field("verb", "string", true, "`move`, `dodge`, `tdodge`, `block`, `protect`, `handoff`, `spass`, `lpass`, `convert`, `card`, a variant action's id (`dash`), or — for `after_action`, which sees every action — `end`, `standup` and `release` (`allow` and `cost` are never asked about those)."),
    field("text", "string", true, "The action in the notation, e.g. `\"move ATK3 G9\"`."),
    field("piece", "Piece", false, "The acting piece of `move`, `dodge`, `tdodge`, `block`, `protect`."),
    field("from", "Piece", false, "The holder of `handoff`, `spass`, `lpass`."),
    field("to", "Piece|Square", false, "The destination square (`move`, `dodge`'s opponent, `tdodge`'s landing, `block`, `protect`, `lpass`) or the receiver (`handoff`, `spass`)."),
    field("exit", "Square", false, "`dodge`'s exit square."),
    field("push", "Square", false, "`tdodge`'s push square."),
    field("at", "Square", false, "`spass`'s reception square."),
    field("ap", "integer", false, "`convert`'s AP."),
    field("card", "string", false, "`card`'s id."),
    field("args", "(Piece|Square|integer)[]", false, "`card`'s arguments."),
];

/// A variant's declared parameter (`options`).
pub const OPTION_FIELDS: &[Field] = &[
    field("default", "integer|boolean", true, "Its value when the ruleset does not set it; a boolean option is set with true/false."),
    field("min", "integer", false, "The least value a ruleset may set (numbers only)."),
    field("max", "integer", false, "The greatest value a ruleset may set (numbers only)."),
    field("text", "string", true, "What it sets, in one sentence (shown by `check`)."),
];

/// What `on_event` gets.
pub const EVENT_FIELDS: &[Field] = &[
    field("kind", "string", true, super::points::EVENT_KINDS),
    field("piece", "Piece", false, "The piece it happened to."),
    field("at", "Square", false, "Where."),
    field("team", "Team", false, "The team (touchdown, turn_started, card)."),
    field("top", "Piece", false, "A stack's top."),
    field("bottom", "Piece", false, "A stack's bottom."),
    field("how", "string", false, "How the ball was taken."),
    field("turn", "integer", false, "The turn that started."),
    field("card", "string", false, "The card played."),
];

/// What `ending` returns to end the game.
pub const END_FIELDS: &[Field] = &[
    field("winner", "Team|\"draw\"", false, "Who won; nil: more touchdowns wins, equal is a draw."),
    field("reason", "string", false, "How reports name the end: the variant's name (nil) or one of its `ends`."),
];

/// A declared target's filters for a `"piece"` argument.
pub const PIECE_FILTERS: &[Field] = &[
    field("team", "\"own\"|\"opponent\"", false, "Whose piece (default: either), from the coach to move."),
    field("down", "boolean", false, "Knocked down (true) or active (false)."),
    field("stacked", "boolean", false, "In a stack, top or bottom."),
    field("restricted", "boolean", false, "Restricted this turn (B4.5)."),
    field("ball", "boolean", false, "Holds the ball."),
    field("top", "boolean", false, "A stack's top."),
    field("from", "integer", false, "With `distance`: measured from this earlier argument (1-based), piece or square."),
    field("distance", "{[1]: integer, [2]: integer}", false, "`{min, max}`, 0-16, from `from`."),
    field("ball_distance", "{[1]: integer, [2]: integer}", false, "`{min, max}` from the ball."),
    field("after", "integer", false, "A later piece id than this earlier argument's, so a pair is listed once."),
];

/// A declared target's filters for a `"square"` argument.
pub const SQUARE_FILTERS: &[Field] = &[
    field("empty", "boolean", false, "No piece on it."),
    field("free", "boolean", false, "No piece and no loose ball on it."),
    field("from", "integer", false, "With `distance`: measured from this earlier argument."),
    field("distance", "{[1]: integer, [2]: integer}", false, "`{min, max}`, 0-16, from `from`."),
    field("ball_distance", "{[1]: integer, [2]: integer}", false, "`{min, max}` from the ball."),
    field("beyond", "{[1]: integer, [2]: integer}", false, "`{i, j}`: the square one step past argument j on the line from argument i."),
    field("unlike", "integer", false, "Not the square of this earlier argument."),
    field("line", "boolean", false, "With `from`: on a straight line from it (a diagonal, its row or its column)."),
    field("forward", "boolean", false, "With `from`: in a row nearer the end zone the coach to move attacks (B1.4)."),
];

/// A declared target's filters for a `"number"` argument.
pub const NUMBER_FILTERS: &[Field] = &[
    field("min", "integer", false, "0-255 (default 0)."),
    field("max", "integer", false, "min-255 (default `min`)."),
];

/// A card's `requires`, with declared targets.
pub const REQUIRES_FIELDS: &[Field] = &[
    field("ball", "\"loose\"|\"held\"|\"own\"", false, "The ball is loose, held, or held by the coach to move."),
    field("ap_below_turn", "boolean", false, "The coach has spent AP this turn."),
];

const SCHEMAS: &[Schema] = &[
    Schema {
        class: "Card",
        title: "Cards",
        what: "A card file returns this table (B11.6). Two piece arguments are always different pieces.",
        fields: CARD_FIELDS,
    },
    Schema {
        class: "Requires",
        title: "`requires`",
        what: "With declared targets: what the whole card needs.",
        fields: REQUIRES_FIELDS,
    },
    Schema {
        class: "PieceFilter",
        title: "Target filters: a `\"piece\"` argument",
        what: "One entry of `targets` for a piece argument; every filter given must hold.",
        fields: PIECE_FILTERS,
    },
    Schema {
        class: "SquareFilter",
        title: "Target filters: a `\"square\"` argument",
        what: "One entry of `targets` for a square argument.",
        fields: SQUARE_FILTERS,
    },
    Schema {
        class: "NumberFilter",
        title: "Target filters: a `\"number\"` argument",
        what: "One entry of `targets` for a number argument: every whole number from `min` to `max`.",
        fields: NUMBER_FILTERS,
    },
    Schema {
        class: "Variant",
        title: "Variants",
        what: "A variant file returns this table. Hooks run in the ruleset's order; read-only hooks cannot write. A hook that fails (an error, its budget, a change that breaks the rules) is reported with file:line (`Game::take_errors`, `script error:` on stderr) and is not called again that game: a failed `touchdown_counts` counts the touchdown, a failed `allow` allows.",
        fields: VARIANT_FIELDS,
    },
    Schema {
        class: "VariantAction",
        title: "A variant's `actions`",
        what: "An action a variant adds, declared like a card (targets, cost in AP, `resolve`) but free of EP and named by its `id`.",
        fields: VARIANT_ACTION_FIELDS,
    },
    Schema {
        class: "Option",
        title: "A variant's `options`",
        what: "One parameter a variant declares, by name. A ruleset sets it in its `[options]` table; `ball check` refuses a value out of range or a name no variant declares.",
        fields: OPTION_FIELDS,
    },
    Schema {
        class: "EventInfo",
        title: "`on_event`'s event",
        what: "One rule event of the action just played: its `kind` and the fields that kind has.",
        fields: EVENT_FIELDS,
    },
    Schema {
        class: "End",
        title: "`ending`'s end",
        what: "What `ending` returns to end the game now.",
        fields: END_FIELDS,
    },
    Schema {
        class: "ActionInfo",
        title: "`allow`'s action",
        what: "The table `allow` receives: the verb, the text, and the action's arguments by name.",
        fields: ACTION_FIELDS,
    },
];

/// BALL's script API: what `ball api` prints and `docs/lua-api.md` holds.
pub static API: Api = Api {
    source: "src/games/ball/script/api.rs",
    intro: "Every hook receives the `game` table as its first argument\n\
         (it is also the global `game`). Pieces are ids (`\"ATK3\"`), squares are names\n\
         (`\"H8\"`), teams are `\"ATK\"` / `\"DEF\"`.\n\n\
         Reads work in every hook. **Writes** work only in a card's or a variant\n\
         action's `resolve` and a variant's reactions (`on_event`, `after_action`,\n\
         `on_touchdown`, `on_turn_start`); they change a copy of the game that the\n\
         kernel validates (B11.7) and commits only when the whole hook succeeded.\n\
         Called from any other hook they fail: those are read-only questions the\n\
         rules ask (`cost`, `allow`, `ending`, …).\n\n\
         **A script keeps no state between hook calls.** Once loaded, the tables it\n\
         holds are read-only and a hook that changes one of its variables fails:\n\
         what a house rule must remember goes in the position, as the variant's\n\
         `state` (`game.get`, `game.set`), so a saved game plays on the same.\n\n\
         A script does the same on every run: `pairs` and `next` give a table's keys\n\
         in one fixed order (by type — booleans, functions, numbers, strings, tables —\n\
         then numbers by value, strings byte by byte, tables by their contents,\n\
         functions by name or where they are defined); `tostring` of a table or a\n\
         function, and `%s` or `%p` in `string.format`, give a serial number\n\
         (`table: #3`), never an address; `table.sort` never depends on the clock.\n\
         `sorted_pairs(t)` is the same order as `pairs`, kept for older scripts.\n\n\
         Also available: the `string` (plain `find` only: no patterns),\n\
         `table`, `math` (no `random`: BALL has no chance), `utf8` and `coroutine`\n\
         libraries. Not available: `io`, `os`, `require`, `load`, `dofile`, `debug`,\n\
         `string.pack`, and finalizers (`__gc` in `setmetatable`).\n\n\
         Every hook call has a budget: VM instructions, plus the work of library calls\n\
         (elements moved or sorted, bytes copied or searched, memory allocated), and at\n\
         most 0.5 s of wall time. A call that spends it stops with an error at its line.\n\
         Memory: 16 MiB a game. `error` takes a message string.\n\n",
    bindings: BINDINGS,
    tables_intro: "What a card or variant file returns. A field not listed is refused at load\n\
         (`file:line: unknown field`, with \"did you mean\"); `ball api --stubs` declares\n\
         the same tables for the editor (`---@type Card`, `---@type Variant`).\n\n",
    schemas: SCHEMAS,
    stub_types: "---@alias Piece string\n---@alias Square string\n---@alias Team \"ATK\"|\"DEF\"\n\
         ---@class PieceInfo\n---@field id Piece\n---@field team Team\n---@field kind \"X\"|\"O\"|\"#\"\n\
         ---@field at Square\n---@field down boolean\n---@field restricted boolean\n---@field stacked boolean\n---@field ball boolean\n\
         ---@class StackInfo\n---@field top Piece\n---@field bottom Piece\n---@field formed integer\n\n",
    stub_removed: "---@deprecated not available in ball scripts: BALL has no chance\nfunction math.random() end\n\
         ---@deprecated not available in ball scripts: BALL has no chance\nfunction math.randomseed() end\n",
};

/// The API reference in Markdown, as `docs/lua-api.md` holds it.
pub fn reference() -> String {
    API.reference()
}

/// lua-language-server annotations (`ball api --stubs > ball.lua`).
pub fn stubs() -> String {
    API.stubs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::sandbox::Sandbox;

    /// What the bindings answer about every piece id and every name a
    /// square could have (playable or not), reading the position at the
    /// start: with the host's strings known by address (made in reverse
    /// order, so that no order is assumed) or with none, every argument
    /// parsed.
    fn answers(known: bool) -> Vec<String> {
        let sb = Sandbox::new().unwrap();
        let lua = &sb.lua;
        let strings = |names: Vec<String>| -> Vec<LuaString> {
            names.into_iter().rev().map(|s| lua.create_string(s).unwrap()).collect()
        };
        let pieces = strings(PieceId::all().map(|p| p.to_string()).collect());
        let squares = strings(Sq::all().map(|s| s.to_string()).collect());
        let (game, shared) = if known {
            register(lua, &pieces, &squares)
        } else {
            register(lua, &[], &[])
        }
        .unwrap();
        {
            let mut c = shared.ctx.borrow_mut();
            c.active = true;
            c.hook = "test";
        }
        lua.globals().set("game", game).unwrap();
        sb.refill();
        lua.load(
            r#"
            local out = {}
            for n = 0, 8 do
              for _, t in ipairs({ "ATK", "DEF" }) do
                local ok, p = pcall(game.piece, t .. n)
                out[#out + 1] = t .. n .. " " .. (ok and (p.id .. "@" .. p.at) or tostring(p))
              end
            end
            for c = string.byte("A"), string.byte("N") do
              for r = 0, 18 do
                local s = string.char(c) .. r
                local ok, v = pcall(game.piece_at, s)
                local d = ok and game.distance(s, "G9") or ""
                out[#out + 1] = s .. " " .. tostring(ok) .. " " .. tostring(v) .. " " .. d
              end
            end
            return out
            "#,
        )
        .eval()
        .unwrap()
    }

    /// An argument known by its address reads as its parse would, and
    /// one that is no piece or square is refused the same way.
    #[test]
    fn known_strings_answer_as_their_parse() {
        let (known, parsed) = (answers(true), answers(false));
        assert_eq!(known, parsed);
        assert!(known.contains(&"ATK5 ATK5@G5".to_string()), "{known:?}");
        assert!(known.iter().any(|l| l.starts_with("A2 false") && l.contains("a playable square")));
        assert!(known.iter().any(|l| l.starts_with("ATK0 ") && l.contains("a piece id")));
        assert!(known.iter().any(|l| l.starts_with("G5 true ATK5 ")), "{known:?}");
    }
}
