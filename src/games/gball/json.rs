//! The position JSON of `docs/rules/gball-notation.md` ("Positions (JSON)"): written
//! in one canonical layout (the notation's key order, one top-level field
//! a line, one player a line), read leniently (unknown fields ignored) but
//! validated strictly — every check of "What a reader must check", so
//! that a position read here is one the engine can resume.
//!
//! A refused position gets one line naming the field and the rule:
//! `players[3].at: "L9" is not a square (G1.1)`.
//!
//! **Extension.** The writer adds `ball_start`: the fixed ball start of
//! the current point (G4.5), `null` for the entry die (G4.4) — what a dead
//! point replays (G3.5), which no other field records once the ball has
//! moved. Readers that do not know it ignore it; this reader takes a
//! missing `ball_start` as `null` (and, during placement, reads it off the
//! ball waiting at its start).

use std::collections::VecDeque;

use serde_json::{Map, Value, json};
use crate::json_line::inline;

use super::board::{self, NONE};
use super::position::{
    Ball, Id, Misses, PLAYERS, Pending, Phase, Player, Position, ResKind, Resolution, STAR_J,
    SetStats, Status, Tackle, TackleKind, Winner, bit, id_name, members, parse_id, pid, team_of,
};
use super::rules;
use super::teams::parse_stars;
use super::script::{Layout, Scope};
use super::{Gball, Team};
use crate::kernel::rng::SplitMix64;

/// The largest position text read: positions are untrusted input.
pub const MAX_BYTES: usize = 1 << 20;
/// The most forced dice a position may queue.
pub const MAX_DICE: usize = 100_000;

fn team_v(t: Option<Team>) -> Value {
    t.map_or(Value::Null, |t| t.name().into())
}

fn sq_v(sq: u8) -> Value {
    if sq == NONE {
        Value::Null
    } else {
        board::square_name(sq).into()
    }
}

fn dir_v(d: u8) -> Value {
    if d == NONE {
        Value::Null
    } else {
        board::dir_name(d).into()
    }
}

fn id_v(p: u8) -> Value {
    if p == NONE { Value::Null } else { id_name(p).into() }
}

fn ids_v(mask: u32) -> Value {
    Value::Array(members(mask).map(|p| id_name(p).into()).collect())
}

fn per_team(f: impl Fn(Team) -> Value) -> Value {
    let mut m = Map::new();
    m.insert("BLU".into(), f(Team::Blu));
    m.insert("RED".into(), f(Team::Red));
    Value::Object(m)
}

fn player_v(pos: &Position, p: u8) -> Value {
    let pl = &pos.players[p as usize];
    let misses = match pos.misses[p as usize] {
        Misses::None => json!(0),
        Misses::Games(n) => json!(n),
        Misses::Season => json!("season"),
        Misses::Retired => json!("retired"),
    };
    let s = pos.stats[p as usize];
    json!({
        "id": id_name(p),
        "stars": super::position::stars_name(pos.stars(p)),
        "veteran": pos.veterans & bit(p) != 0,
        "at": sq_v(pl.at),
        "facing": dir_v(pl.facing),
        "out": if pl.out == Status::None { Value::Null } else { pl.out.name().into() },
        "misses": misses,
        "set_stats": {"streak": s.streak, "catches": s.catches, "caught": s.caught,
                      "tackles": s.tackles, "won": s.won},
    })
}

fn resolution_v(r: &Resolution) -> Value {
    let opt = |m: [Option<u32>; 2]| per_team(|t| m[t.index()].map_or(Value::Null, ids_v));
    json!({
        "kind": r.kind.name(),
        "square": board::square_name(r.square),
        "declined": opt(r.declined),
        "receivers": opt(r.receivers),
        "blocks": r.blocks().iter().map(|&(b, o)| json!([id_name(b), id_name(o)])).collect::<Vec<_>>(),
        "tackles": r.tackles().iter().map(|t| json!({
            "kind": t.kind.name(),
            "players": [id_name(t.x), id_name(t.y)],
            "rolls": [t.rx, t.ry],
        })).collect::<Vec<_>>(),
        "catchers": r.catchers().iter().map(|&p| id_name(p)).collect::<Vec<_>>(),
        "turned": ids_v(r.turned),
    })
}

fn pending_v(p: &Pending) -> Value {
    let mut m = Map::new();
    m.insert("kind".into(), p.kind().into());
    m.insert("team".into(), p.team().name().into());
    match *p {
        Pending::Move(x) | Pending::Block(x) | Pending::Act(x) => {
            m.insert("player".into(), id_name(x).into());
        }
        Pending::Turn { actor, target } => {
            m.insert("actor".into(), id_name(actor).into());
            m.insert("target".into(), id_name(target).into());
        }
        _ => {}
    }
    Value::Object(m)
}

/// The position as a JSON value, keys in the notation's order.
pub fn to_value(pos: &Position) -> Value {
    let mut m = Map::new();
    let score = json!({
        "sets": per_team(|t| pos.sets[t.index()].into()),
        "points": per_team(|t| pos.points[t.index()].into()),
    });
    m.insert("game".into(), "gball".into());
    m.insert("score".into(), score);
    m.insert("turn".into(), pos.turn.into());
    m.insert("match_turns".into(), pos.match_turns.into());
    m.insert("phase".into(), pos.phase.name().into());
    m.insert("home".into(), team_v(pos.home));
    m.insert("prev_winner".into(), team_v(pos.prev_winner));
    m.insert("initiative".into(), team_v(pos.initiative));
    m.insert(
        "morale".into(),
        pos.morale
            .map_or(Value::Null, |v| per_team(|t| v[t.index()].into())),
    );
    m.insert("demoralised".into(), team_v(pos.demoralised));
    let b = &pos.ball;
    m.insert(
        "ball".into(),
        json!({"at": sq_v(b.at), "dir": dir_v(b.dir), "spin": b.spin,
               "holder": id_v(b.holder), "possession": team_v(b.possession)}),
    );
    m.insert(
        "ball_start".into(),
        pos.ball_start
            .map_or(Value::Null, |(s, d)| json!({"at": sq_v(s), "dir": dir_v(d)})),
    );
    m.insert(
        "players".into(),
        Value::Array(members(pos.roster).map(|p| player_v(pos, p)).collect()),
    );
    m.insert(
        "resolution".into(),
        pos.resolution.as_ref().map_or(Value::Null, resolution_v),
    );
    m.insert(
        "turn_flags".into(),
        json!({"lost_tackle": ids_v(pos.lost_tackle), "failed_catch": ids_v(pos.failed_catch)}),
    );
    m.insert(
        "pending".into(),
        pos.pending.as_ref().map_or(Value::Null, pending_v),
    );
    m.insert(
        "rng".into(),
        format!("{:016x}", pos.rng.state()).into(),
    );
    m.insert(
        "dice".into(),
        Value::Array(pos.dice.iter().map(|&d| d.into()).collect()),
    );
    m.insert(
        "winner".into(),
        match pos.winner {
            None => Value::Null,
            Some(Winner::Draw) => "draw".into(),
            Some(Winner::Team(t)) => t.name().into(),
        },
    );
    Value::Object(m)
}

/// The canonical position JSON: one top-level field a line, one player a
/// line. Ends with a newline.
pub fn write(pos: &Position) -> String {
    write_with(pos, None)
}

/// The fields that predict a die: the generator's state and the forced
/// dice. A client of an unfinished game is never sent them.
pub const SECRET: [&str; 2] = ["rng", "dice"];

/// [`write`] with the variants' counters (`vars`, only when one is not
/// 0) and end (`ended_by`, only when a variant ended the match), named
/// by the ruleset's layout.
pub fn write_with(pos: &Position, layout: Option<&Layout>) -> String {
    write_form(pos, layout, false)
}

/// The position as a client of an unfinished game is shown it:
/// [`write_with`] without [`SECRET`]'s fields (not a position the reader
/// takes back).
pub fn write_public(pos: &Position, layout: Option<&Layout>) -> String {
    write_form(pos, layout, true)
}

fn write_form(pos: &Position, layout: Option<&Layout>, public: bool) -> String {
    let Value::Object(mut m) = to_value(pos) else {
        unreachable!()
    };
    if public {
        m.retain(|k, _| !SECRET.contains(&k.as_str()));
    }
    if pos.vars.iter().any(|&v| v != 0) {
        m.insert("vars".into(), vars_value(pos, layout));
    }
    if pos.ended_by != 0 {
        let name = layout
            .and_then(|l| l.end_name(pos.ended_by))
            .map_or_else(|| format!("#{}", pos.ended_by), str::to_string);
        m.insert("ended_by".into(), name.into());
    }
    let mut lines = Vec::new();
    for (k, v) in &m {
        let text = match (k.as_str(), v) {
            ("players", Value::Array(items)) => {
                let rows: Vec<String> = items.iter().map(|p| format!("    {}", inline(p))).collect();
                format!("[\n{}\n  ]", rows.join(",\n"))
            }
            _ => inline(v),
        };
        lines.push(format!("  \"{k}\": {text}"));
    }
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

/// The counters by name: a game counter a number, a team's `{RED, BLU}`,
/// a player's an object of the players whose counter is not 0. Without a
/// layout, the slots as a list.
fn vars_value(pos: &Position, layout: Option<&Layout>) -> Value {
    let Some(layout) = layout.filter(|l| l.slots() == pos.vars.len()) else {
        return Value::Array(pos.vars.iter().map(|&v| v.into()).collect());
    };
    let mut m = Map::new();
    for d in &layout.vars {
        let v = &pos.vars[d.slots()];
        let value = match d.scope {
            Scope::Game => v[0].into(),
            Scope::Team => json!({"RED": v[Team::Red.index()], "BLU": v[Team::Blu.index()]}),
            Scope::Player => {
                let mut o = Map::new();
                for (p, &n) in v.iter().enumerate() {
                    if n != 0 {
                        o.insert(id_name(p as u8), n.into());
                    }
                }
                Value::Object(o)
            }
        };
        m.insert(d.name.clone(), value);
    }
    Value::Object(m)
}

/// Reads `vars` by the ruleset's counter names (missing: 0).
fn read_vars(top: &Obj, layout: Option<&Layout>) -> Result<Vec<i16>, JsonError> {
    let n = layout.map_or(0, Layout::slots);
    let mut vars = vec![0i16; n];
    let Some(v) = top.get("vars") else {
        return Ok(vars);
    };
    let Some(layout) = layout else {
        return err("vars", "this ruleset has no variants to keep counters");
    };
    let o = obj(v, "vars")?;
    let value = |v: &Value, f: &str| -> Result<i16, JsonError> {
        v.as_i64()
            .and_then(|n| i16::try_from(n).ok())
            .map_or_else(|| err(f, "must be a whole number -32768..32767"), Ok)
    };
    for (name, v) in o {
        let field = format!("vars.{name}");
        let d = layout.counter(name).or_else(|m| err(&field, m))?;
        match d.scope {
            Scope::Game => vars[d.slot] = value(v, &field)?,
            Scope::Team => {
                for (k, n) in obj(v, &field)? {
                    let t = Team::parse(k).map_or_else(
                        || err(format!("{field}.{k}"), "is not RED or BLU"),
                        Ok,
                    )?;
                    vars[d.slot + t.index()] = value(n, &format!("{field}.{k}"))?;
                }
            }
            Scope::Player => {
                for (k, n) in obj(v, &field)? {
                    let p = parse_id(k).map_or_else(
                        || err(format!("{field}.{k}"), "is not a player id"),
                        Ok,
                    )?;
                    vars[d.slot + usize::from(p)] = value(n, &format!("{field}.{k}"))?;
                }
            }
        }
    }
    Ok(vars)
}

/// Checks a position a variant's hook left: every check of the reader.
pub fn check_position(game: &Gball, pos: &Position) -> Result<(), JsonError> {
    check(game, pos, &Value::Null)
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

pub use crate::json_line::JsonError;
use crate::json_line::err;

type Obj = Map<String, Value>;

fn get<'a>(o: &'a Obj, key: &str, field: &str) -> Result<&'a Value, JsonError> {
    o.get(key)
        .ok_or_else(|| JsonError {
            field: join(field, key),
            problem: "missing (gball-notation.md, Positions)".into(),
        })
}

fn join(field: &str, key: &str) -> String {
    if field.is_empty() {
        key.to_string()
    } else {
        format!("{field}.{key}")
    }
}

fn obj<'a>(v: &'a Value, field: &str) -> Result<&'a Obj, JsonError> {
    v.as_object()
        .ok_or_else(|| JsonError {
            field: field.into(),
            problem: "must be an object (gball-notation.md, Positions)".into(),
        })
}

fn arr<'a>(v: &'a Value, field: &str, max: usize) -> Result<&'a Vec<Value>, JsonError> {
    let a = v.as_array().ok_or_else(|| JsonError {
        field: field.into(),
        problem: "must be a list (gball-notation.md, Positions)".into(),
    })?;
    if a.len() > max {
        return err(
            field,
            format!("has {} items; at most {max} (gball-notation.md, Positions)", a.len()),
        );
    }
    Ok(a)
}

fn string<'a>(v: &'a Value, field: &str) -> Result<&'a str, JsonError> {
    v.as_str().ok_or_else(|| JsonError {
        field: field.into(),
        problem: "must be a string (gball-notation.md, Positions)".into(),
    })
}

fn boolean(v: &Value, field: &str) -> Result<bool, JsonError> {
    v.as_bool().ok_or_else(|| JsonError {
        field: field.into(),
        problem: "must be true or false (gball-notation.md, Positions)".into(),
    })
}

fn uint(v: &Value, field: &str, max: u64) -> Result<u64, JsonError> {
    match v.as_u64() {
        Some(n) if n <= max => Ok(n),
        Some(n) => err(
            field,
            format!("{n} is too large: at most {max} (gball-notation.md, Positions)"),
        ),
        None => err(field, "must be an integer ≥ 0 (gball-notation.md, Positions)"),
    }
}

fn opt_team(v: &Value, field: &str) -> Result<Option<Team>, JsonError> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Team::parse(s)
            .map(Some)
            .ok_or_else(|| JsonError {
                field: field.into(),
                problem: format!("{s:?} is not a team (RED, BLU) (G2.1)"),
            }),
        _ => err(field, "must be a team or null (G2.1)"),
    }
}

fn opt_square(v: &Value, field: &str) -> Result<u8, JsonError> {
    match v {
        Value::Null => Ok(NONE),
        Value::String(s) => board::parse_square(s).ok_or_else(|| JsonError {
            field: field.into(),
            problem: format!("{s:?} is not a square (A1–K6) (G1.1)"),
        }),
        _ => err(field, "must be a square or null (G1.1)"),
    }
}

fn opt_dir(v: &Value, field: &str) -> Result<u8, JsonError> {
    match v {
        Value::Null => Ok(NONE),
        Value::String(s) => board::parse_dir(s).ok_or_else(|| JsonError {
            field: field.into(),
            problem: format!("{s:?} is not a direction (N NE E SE S SW W NW) (G1.5)"),
        }),
        _ => err(field, "must be a direction or null (G1.5)"),
    }
}

fn id(v: &Value, field: &str, roster: u32) -> Result<u8, JsonError> {
    let s = string(v, field)?;
    let p = parse_id(s).ok_or_else(|| JsonError {
        field: field.into(),
        problem: format!("{s:?} is not a player id (RED1–RED9, BLU1–BLU9) (G2.1)"),
    })?;
    if roster & bit(p) == 0 {
        return err(field, format!("{s} is not on a roster (G2.1)"));
    }
    Ok(p)
}

fn opt_id(v: &Value, field: &str, roster: u32) -> Result<u8, JsonError> {
    if v.is_null() {
        Ok(NONE)
    } else {
        id(v, field, roster)
    }
}

/// A list of ids that must be sorted (byte order), as a mask.
fn id_set(v: &Value, field: &str, roster: u32) -> Result<u32, JsonError> {
    let a = arr(v, field, PLAYERS)?;
    let mut m = 0u32;
    let mut last: Option<u8> = None;
    for (i, x) in a.iter().enumerate() {
        let p = id(x, &format!("{field}[{i}]"), roster)?;
        if last.is_some_and(|l| l >= p) {
            return err(
                field,
                "ids must be sorted by id (byte order) without repeats (gball-notation.md, Positions)",
            );
        }
        last = Some(p);
        m |= bit(p);
    }
    Ok(m)
}

fn per_team_of<T>(
    v: &Value,
    field: &str,
    f: impl Fn(&Value, &str) -> Result<T, JsonError>,
) -> Result<[T; 2], JsonError> {
    let o = obj(v, field)?;
    let red = f(get(o, "RED", field)?, &join(field, "RED"))?;
    let blu = f(get(o, "BLU", field)?, &join(field, "BLU"))?;
    Ok([red, blu])
}

/// Reads a position for `game`'s ruleset, refusing every malformed one.
pub fn read(game: &Gball, text: &str) -> Result<Position, JsonError> {
    if text.len() > MAX_BYTES {
        return err(
            "(json)",
            format!("longer than {MAX_BYTES} bytes (gball-notation.md, Positions)"),
        );
    }
    let v: Value =
        crate::json_line::parse(text)
        .or_else(|e| err("(json)", format!("not JSON: {e} (gball-notation.md, Positions)")))?;
    let pos = parse(game, &v)?;
    check(game, &pos, &v)?;
    Ok(pos)
}

fn parse(game: &Gball, v: &Value) -> Result<Position, JsonError> {
    let top = obj(v, "(top level)")?;
    match top.get("game") {
        Some(Value::String(s)) if s == "gball" => {}
        Some(_) => return err("game", "must be \"gball\" (gball-notation.md)"),
        None => {
            return err(
                "game",
                "missing: a position without `game` is a BALL position (gball-notation.md)",
            );
        }
    }
    let score = obj(get(top, "score", "")?, "score")?;
    let small = |v: &Value, f: &str| uint(v, f, 255).map(|n| n as u8);
    let sets = per_team_of(get(score, "sets", "score")?, "score.sets", small)?;
    let points = per_team_of(get(score, "points", "score")?, "score.points", small)?;
    let turn = uint(get(top, "turn", "")?, "turn", u64::from(u32::MAX))? as u32;
    let match_turns = uint(get(top, "match_turns", "")?, "match_turns", u64::from(u32::MAX))? as u32;
    let phase = match string(get(top, "phase", "")?, "phase")? {
        "place" => Phase::Place,
        "phase1" => Phase::Phase1,
        "phase2" => Phase::Phase2,
        "phase4" => Phase::Phase4,
        "over" => Phase::Over,
        s => {
            return err(
                "phase",
                format!("{s:?} is not a phase (place, phase1, phase2, phase4, over) (G5.1)"),
            );
        }
    };
    let home = opt_team(get(top, "home", "")?, "home")?;
    let prev_winner = opt_team(get(top, "prev_winner", "")?, "prev_winner")?;
    let initiative = opt_team(get(top, "initiative", "")?, "initiative")?;
    let morale = match get(top, "morale", "")? {
        Value::Null => None,
        m => Some(per_team_of(m, "morale", small)?),
    };
    let demoralised = opt_team(get(top, "demoralised", "")?, "demoralised")?;

    // Players first: every id elsewhere must be on a roster.
    let list = arr(get(top, "players", "")?, "players", PLAYERS)?;
    let mut players = [Player::default(); PLAYERS];
    let mut veterans = 0u32;
    let mut star_sets = [0u32; 3];
    let mut misses_of = [Misses::None; PLAYERS];
    let mut stats_of = [SetStats::default(); PLAYERS];
    let mut roster = 0u32;
    let mut last: Option<u8> = None;
    for (i, pv) in list.iter().enumerate() {
        let f = format!("players[{i}]");
        let po = obj(pv, &f)?;
        let s = string(get(po, "id", &f)?, &join(&f, "id"))?;
        let p = parse_id(s).ok_or_else(|| JsonError {
            field: join(&f, "id"),
            problem: format!("{s:?} is not a player id (RED1–RED9, BLU1–BLU9) (G2.1)"),
        })?;
        if last == Some(p) {
            return err(join(&f, "id"), format!("{s}: a number repeats (G2.1)"));
        }
        if last.is_some_and(|l| l > p) {
            return err(
                "players",
                "players must be sorted by id (byte order) (gball-notation.md, Positions)",
            );
        }
        last = Some(p);
        roster |= bit(p);
        let stars_s = string(get(po, "stars", &f)?, &join(&f, "stars"))?;
        let stars = parse_stars(stars_s).ok_or_else(|| JsonError {
            field: join(&f, "stars"),
            problem: format!("{stars_s:?} is not a subset of JCT in that order (G2.2)"),
        })?;
        let veteran = boolean(get(po, "veteran", &f)?, &join(&f, "veteran"))?;
        if veteran && stars != 0 {
            return err(join(&f, "stars"), "a veteran has no stars (G2.2)");
        }
        let at = opt_square(get(po, "at", &f)?, &join(&f, "at"))?;
        let facing = opt_dir(get(po, "facing", &f)?, &join(&f, "facing"))?;
        if (at == NONE) != (facing == NONE) {
            return err(
                join(&f, "facing"),
                "a player on court has a facing and one off court has none (G2.4)",
            );
        }
        let out = match get(po, "out", &f)? {
            Value::Null => Status::None,
            Value::String(s) => match s.as_str() {
                "point" => Status::Point,
                "sinbin" => Status::Sinbin,
                "set" => Status::Set,
                "match" => Status::Match,
                _ => {
                    return err(
                        join(&f, "out"),
                        format!("{s:?} is not a status (point, sinbin, set, match) (G13.4)"),
                    );
                }
            },
            _ => return err(join(&f, "out"), "must be a status or null (G13.4)"),
        };
        let misses = match get(po, "misses", &f)? {
            Value::String(s) if s == "season" => Misses::Season,
            Value::String(s) if s == "retired" => Misses::Retired,
            m @ Value::Number(_) => match uint(m, &join(&f, "misses"), 1000)? {
                0 => Misses::None,
                n => Misses::Games(n as u32),
            },
            _ => {
                return err(
                    join(&f, "misses"),
                    "must be an integer ≥ 0, \"season\" or \"retired\" (G13.1, G17.6)",
                );
            }
        };
        let sf = join(&f, "set_stats");
        let so = obj(get(po, "set_stats", &f)?, &sf)?;
        let n = |k: &str| -> Result<u32, JsonError> {
            uint(get(so, k, &sf)?, &join(&sf, k), u64::from(u32::MAX)).map(|n| n as u32)
        };
        let stats = SetStats {
            streak: n("streak")?,
            catches: n("catches")?,
            caught: n("caught")?,
            tackles: n("tackles")?,
            won: n("won")?,
        };
        players[p as usize] = Player {
            at,
            out,
            facing,
        };
        for (i, set) in star_sets.iter_mut().enumerate() {
            *set |= u32::from(stars >> i & 1) << p;
        }
        if veteran {
            veterans |= bit(p);
        }
        misses_of[p as usize] = misses;
        stats_of[p as usize] = stats;
    }
    for t in Team::BOTH {
        if roster & t.mask() == 0 {
            return err("players", format!("{t}'s roster is empty (G2.1)"));
        }
    }

    let bo = obj(get(top, "ball", "")?, "ball")?;
    let ball = Ball {
        at: opt_square(get(bo, "at", "ball")?, "ball.at")?,
        dir: opt_dir(get(bo, "dir", "ball")?, "ball.dir")?,
        spin: boolean(get(bo, "spin", "ball")?, "ball.spin")?,
        holder: opt_id(get(bo, "holder", "ball")?, "ball.holder", roster)?,
        possession: opt_team(get(bo, "possession", "ball")?, "ball.possession")?,
    };
    let ball_start = match top.get("ball_start") {
        None | Some(Value::Null) => None,
        Some(s) => {
            let so = obj(s, "ball_start")?;
            let at = opt_square(get(so, "at", "ball_start")?, "ball_start.at")?;
            let dir = opt_dir(get(so, "dir", "ball_start")?, "ball_start.dir")?;
            if !is_start(at, dir) {
                return err(
                    "ball_start",
                    "a fixed start is F1 or F6 with a G4.5 diagonal (F1 NW/NE, F6 SW/SE) (G4.5)",
                );
            }
            Some((at, dir))
        }
    };

    let resolution = match get(top, "resolution", "")? {
        Value::Null => None,
        r => Some(resolution(r, roster)?),
    };
    let tf = obj(get(top, "turn_flags", "")?, "turn_flags")?;
    let lost_tackle = id_set(
        get(tf, "lost_tackle", "turn_flags")?,
        "turn_flags.lost_tackle",
        roster,
    )?;
    let failed_catch = id_set(
        get(tf, "failed_catch", "turn_flags")?,
        "turn_flags.failed_catch",
        roster,
    )?;
    let pending = match get(top, "pending", "")? {
        Value::Null => None,
        p => Some(pending(p, roster)?),
    };
    let rng_s = string(get(top, "rng", "")?, "rng")?;
    if rng_s.len() != 16
        || !rng_s
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return err("rng", "must be 16 lowercase hex digits (G14.1)");
    }
    let rng = SplitMix64::new(u64::from_str_radix(rng_s, 16).unwrap_or(0));
    let mut dice = VecDeque::new();
    for (i, d) in arr(get(top, "dice", "")?, "dice", MAX_DICE)?.iter().enumerate() {
        let f = format!("dice[{i}]");
        match d.as_u64() {
            Some(n) if n >= 1 && n <= u64::from(u32::MAX) => dice.push_back(n as u32),
            Some(_) | None if d.is_number() => {
                return err(f, "a forced die is a value ≥ 1 (G14.3)");
            }
            _ => return err(f, "must be an integer (G14.3)"),
        }
    }
    let winner = match get(top, "winner", "")? {
        Value::Null => None,
        Value::String(s) if s == "draw" => Some(Winner::Draw),
        Value::String(s) => match Team::parse(s) {
            Some(t) => Some(Winner::Team(t)),
            None => return err("winner", format!("{s:?} is not RED, BLU or draw (G3.6)")),
        },
        _ => return err("winner", "must be RED, BLU, draw or null (G3.6)"),
    };
    let layout = game.layout();
    let vars = read_vars(top, layout)?;
    let ended_by = match top.get("ended_by") {
        None => 0,
        Some(Value::String(name)) => {
            let k = layout
                .and_then(|l| l.ends.iter().position(|e| e == name))
                .map(|k| k as u8 + 1);
            match k {
                Some(k) => k,
                None => return err("ended_by", format!("{name:?} is not an end of this ruleset's variants")),
            }
        }
        Some(_) => return err("ended_by", "must be the name of a variant's end"),
    };
    if ended_by != 0 && winner.is_none() {
        return err("ended_by", "only a finished match has ended (`winner` is null)");
    }
    Ok(Position {
        sets,
        points,
        turn,
        match_turns,
        phase,
        home,
        prev_winner,
        initiative,
        morale,
        demoralised,
        ball,
        ball_start,
        roster,
        players,
        veterans,
        star_sets,
        misses: std::sync::Arc::new(misses_of),
        stats: std::sync::Arc::new(stats_of),
        resolution,
        lost_tackle,
        failed_catch,
        pending,
        rng,
        dice,
        winner,
        vars,
        ended_by,
    })
}

fn is_start(at: u8, dir: u8) -> bool {
    let f1 = board::square(5, 0);
    let f6 = board::square(5, 5);
    (at == f1 && (dir == 7 || dir == 1)) || (at == f6 && (dir == 5 || dir == 3))
}

fn resolution(v: &Value, roster: u32) -> Result<Resolution, JsonError> {
    let f = "resolution";
    let o = obj(v, f)?;
    let kind = match string(get(o, "kind", f)?, "resolution.kind")? {
        "catch" => ResKind::Catch,
        "ruck" => ResKind::Ruck,
        "maul" => ResKind::Maul,
        s => {
            return err(
                "resolution.kind",
                format!("{s:?} is not catch, ruck or maul (G7.2)"),
            );
        }
    };
    let square = opt_square(get(o, "square", f)?, "resolution.square")?;
    if square == NONE {
        return err("resolution.square", "must be a square (G7.2)");
    }
    let mut r = Resolution::new(kind, square);
    let opt_set = |v: &Value, fld: &str| -> Result<Option<u32>, JsonError> {
        if v.is_null() {
            Ok(None)
        } else {
            id_set(v, fld, roster).map(Some)
        }
    };
    let d = per_team_of(get(o, "declined", f)?, "resolution.declined", opt_set)?;
    let rc = per_team_of(get(o, "receivers", f)?, "resolution.receivers", opt_set)?;
    for t in Team::BOTH {
        let i = t.index();
        // per_team_of gives [RED, BLU]; Team::index is RED 0, BLU 1.
        r.declined[i] = d[i];
        r.receivers[i] = rc[i];
        for (what, m) in [("declined", d[i]), ("receivers", rc[i])] {
            if m.unwrap_or(0) & !t.mask() != 0 {
                return err(
                    format!("resolution.{what}.{t}"),
                    "lists a player of the other team (G8.3, G8.4)",
                );
            }
        }
        if rc[i].unwrap_or(0).count_ones() > 2 {
            return err(
                format!("resolution.receivers.{t}"),
                "a team nominates at most two receivers (G8.4)",
            );
        }
    }
    for (i, b) in arr(get(o, "blocks", f)?, "resolution.blocks", super::position::MAX_BLOCKS)?
        .iter()
        .enumerate()
    {
        let bf = format!("resolution.blocks[{i}]");
        let pair = arr(b, &bf, 2)?;
        if pair.len() != 2 {
            return err(bf, "a block is [blocker, opponent] (G8.4)");
        }
        let x = id(&pair[0], &format!("{bf}[0]"), roster)?;
        let y = id(&pair[1], &format!("{bf}[1]"), roster)?;
        if team_of(x) == team_of(y) {
            return err(bf, "a blocker opposes a player of the other team (G8.4, G8.7)");
        }
        r.push_block(x, y);
    }
    for (i, t) in arr(get(o, "tackles", f)?, "resolution.tackles", super::position::MAX_TACKLES)?
        .iter()
        .enumerate()
    {
        let tf = format!("resolution.tackles[{i}]");
        let to = obj(t, &tf)?;
        let kind = match string(get(to, "kind", &tf)?, &join(&tf, "kind"))? {
            "block" => TackleKind::Block,
            "contest" => TackleKind::Contest,
            "carrier" => TackleKind::Carrier,
            s => {
                return err(
                    join(&tf, "kind"),
                    format!("{s:?} is not block, contest or carrier (G8.1)"),
                );
            }
        };
        let ps = arr(get(to, "players", &tf)?, &join(&tf, "players"), 2)?;
        let rs = arr(get(to, "rolls", &tf)?, &join(&tf, "rolls"), 2)?;
        if ps.len() != 2 || rs.len() != 2 {
            return err(tf, "a tackle has two players and two rolls (G8.1)");
        }
        let x = id(&ps[0], &format!("{tf}.players[0]"), roster)?;
        let y = id(&ps[1], &format!("{tf}.players[1]"), roster)?;
        if team_of(x) == team_of(y) {
            return err(tf, "a tackle is between opposing players (G8.1)");
        }
        let rx = uint(&rs[0], &format!("{tf}.rolls[0]"), 255)? as u8;
        let ry = uint(&rs[1], &format!("{tf}.rolls[1]"), 255)? as u8;
        r.push_tackle(Tackle { kind, x, y, rx, ry });
    }
    let cs = arr(get(o, "catchers", f)?, "resolution.catchers", 2)?;
    for (i, c) in cs.iter().enumerate() {
        let p = id(c, &format!("resolution.catchers[{i}]"), roster)?;
        if r.catchers().contains(&p) {
            return err(
                "resolution.catchers",
                "nobody tries twice in one phase (G7.6)",
            );
        }
        r.push_catcher(p);
    }
    r.turned = id_set(get(o, "turned", f)?, "resolution.turned", roster)?;
    Ok(r)
}

fn pending(v: &Value, roster: u32) -> Result<Pending, JsonError> {
    let f = "pending";
    let o = obj(v, f)?;
    let kind = string(get(o, "kind", f)?, "pending.kind")?;
    let team = opt_team(get(o, "team", f)?, "pending.team")?.ok_or_else(|| JsonError {
        field: "pending.team".into(),
        problem: "must be a team (G5.4)".into(),
    })?;
    let player = |k: &str| -> Result<u8, JsonError> { id(get(o, k, f)?, &join(f, k), roster) };
    let p = match kind {
        "place" => Pending::Place(team),
        "move" => Pending::Move(player("player")?),
        "turn" => Pending::Turn {
            actor: player("actor")?,
            target: player("target")?,
        },
        "decline" => Pending::Decline(team),
        "receivers" => Pending::Receivers(team),
        "block" => Pending::Block(player("player")?),
        "catch" => Pending::Catch(team),
        "aim" => Pending::Aim(team),
        "act" => Pending::Act(player("player")?),
        s => {
            return err(
                "pending.kind",
                format!(
                    "{s:?} is not a decision (place move turn decline receivers block catch aim act) (G5.4)"
                ),
            );
        }
    };
    if p.team() != team {
        let who = match p {
            Pending::Turn { .. } => "pending.actor",
            _ => "pending.player",
        };
        return err(who, format!("does not belong to pending.team {team} (G5.4)"));
    }
    Ok(p)
}

/// The checks between fields (notation, "What a reader must check").
fn check(game: &Gball, pos: &Position, _v: &Value) -> Result<(), JsonError> {
    let pr = &game.params;
    let phase = pos.phase;
    let over = phase == Phase::Over;
    let place = phase == Phase::Place;

    for t in Team::BOTH {
        let n = pos.on_court(t).count_ones();
        if n > u32::from(pr.players_on_court) {
            return err(
                "players",
                format!(
                    "{n} {t} players on court; at most players_on_court = {} (G2.4)",
                    pr.players_on_court
                ),
            );
        }
    }
    // phase, pending, winner, turn, initiative, home.
    if pos.pending.is_none() != over {
        return err(
            "pending",
            if over {
                "must be null in a final position (G3.7)"
            } else {
                "is null only in a final position (G5.4)"
            },
        );
    }
    if let Some(p) = &pos.pending {
        let ok = match p {
            Pending::Place(_) => phase == Phase::Place,
            Pending::Move(_) => phase == Phase::Phase1,
            Pending::Aim(_) => phase == Phase::Phase2,
            _ => matches!(phase, Phase::Phase2 | Phase::Phase4),
        };
        if !ok {
            return err(
                "pending.kind",
                format!(
                    "a `{}` decision does not come in phase \"{}\" (gball-notation.md, Pending decision)",
                    p.kind(),
                    phase.name()
                ),
            );
        }
    }
    if pos.winner.is_some() != over {
        return err("winner", "is set exactly in a final position (G3.7)");
    }
    if (pos.turn == 0) != (place || over) {
        return err(
            "turn",
            "is 0 exactly during placement and in a final position (G5.1)",
        );
    }
    if pos.initiative.is_none() != (place || over) {
        return err(
            "initiative",
            "is null exactly during placement and in a final position (G5.2)",
        );
    }
    if pos.home.is_none() != over {
        return err("home", "is null exactly in a final position (G3.3, G3.7)");
    }
    // Morale (G15).
    let want_morale = pr.morale && !place && !over;
    if pos.morale.is_some() != want_morale {
        return err(
            "morale",
            if pr.morale {
                "is set exactly outside placement and the final position when the morale rule is on (G15.5)"
            } else {
                "must be null: the morale rule is off (G15.5)"
            },
        );
    }
    match pos.morale {
        Some(m) => {
            let (r, b) = (m[0], m[1]);
            let want = if r.abs_diff(b) >= pr.demoralise_gap {
                Some(if r < b { Team::Red } else { Team::Blu })
            } else {
                None
            };
            if pos.demoralised != want {
                return err(
                    "demoralised",
                    format!(
                        "must be {} for morale RED {r}, BLU {b} and demoralise_gap {} (G15.4)",
                        want.map_or("null", |t| t.name()),
                        pr.demoralise_gap
                    ),
                );
            }
            if r != b {
                let hi = if r > b { Team::Red } else { Team::Blu };
                if pos.initiative != Some(hi) {
                    return err(
                        "initiative",
                        format!("the team with higher morale ({hi}) has initiative (G15.3)"),
                    );
                }
            }
        }
        None => {
            if pos.demoralised.is_some() {
                return err("demoralised", "must be null without morale (G15.4)");
            }
        }
    }
    // Resolution.
    if let Some(r) = &pos.resolution {
        if matches!(phase, Phase::Place | Phase::Phase1 | Phase::Over) {
            return err(
                "resolution",
                format!("must be null in phase \"{}\" (G7.1)", phase.name()),
            );
        }
        if r.square != pos.ball.at {
            return err("resolution.square", "must be the ball's square (G7.2)");
        }
    }
    // Pending needs.
    if let Some(p) = pos.pending {
        let kind = pos.resolution.map(|r| r.kind);
        let need = |ok: bool, what: &str| -> Result<(), JsonError> {
            if ok {
                Ok(())
            } else {
                err("pending.kind", what.to_string())
            }
        };
        match p {
            Pending::Decline(_) | Pending::Block(_) => need(
                matches!(kind, Some(ResKind::Ruck | ResKind::Maul)),
                "`decline` and `block` need a ruck or maul resolution (G8.3, G8.4, G8.7)",
            )?,
            Pending::Receivers(_) => need(
                kind == Some(ResKind::Ruck),
                "`receivers` needs a ruck resolution (G8.4)",
            )?,
            Pending::Catch(_) => need(
                kind.is_some() && pos.ball.holder == NONE,
                "`catch` needs a resolution and a loose ball (G7.3, G8.6, G8.9)",
            )?,
            Pending::Aim(_) => need(
                kind == Some(ResKind::Maul) && beaten_loose(pos),
                "`aim` needs the ball beaten loose in a maul (G8.9)",
            )?,
            Pending::Act(h) if pos.ball.holder != h => {
                return err("pending.player", "the act's player is the holder (G10.1)");
            }
            _ => {}
        }
        let players: &[(&str, u8, bool)] = match p {
            Pending::Move(x) => &[("pending.player", x, true)],
            Pending::Block(x) | Pending::Act(x) => &[("pending.player", x, false)],
            Pending::Turn { actor, target } => {
                &[("pending.actor", actor, true), ("pending.target", target, true)]
            }
            _ => &[],
        };
        for &(f, x, must_play) in players {
            if pos.players[x as usize].at == NONE {
                return err(f, format!("{} is not on court (G5.4)", Id(x)));
            }
            if must_play && !pos.in_play(x) {
                return err(f, format!("{} is not in play (G2.5)", Id(x)));
            }
        }
        if let Pending::Move(x) = p
            && board::is_air(pos.players[x as usize].at)
        {
            return err(
                "pending.player",
                format!(
                    "{} is in an air square: only a player on a wall square decides his move (G6.3–G6.5)",
                    Id(x)
                ),
            );
        }
    }
    ball_state(pos)?;
    // Statuses on court (G10.6).
    for p in members(pos.roster) {
        let pl = &pos.players[p as usize];
        if pl.out != Status::None && pl.at != NONE {
            let leaving_ok = pos.ball.holder == p
                && match pos.pending {
                    Some(Pending::Act(_)) => matches!(phase, Phase::Phase2 | Phase::Phase4),
                    Some(Pending::Turn { .. }) => {
                        phase == Phase::Phase2
                            && pos.resolution.map(|r| r.kind) == Some(ResKind::Maul)
                    }
                    _ => false,
                };
            if !leaving_ok {
                return err(
                    format!("players[{}].out", index_in(pos, p)),
                    format!(
                        "{} has a status and is on court; only a leaving holder before his act stays (G2.5, G10.6)",
                        Id(p)
                    ),
                );
            }
        }
    }
    if place {
        for p in members(pos.roster) {
            let pl = &pos.players[p as usize];
            let t = team_of(p);
            if pl.at != NONE
                && (!board::is_placement_square(pl.at, t) || pl.facing != board::forward(t))
            {
                return err(
                    format!("players[{}].at", index_in(pos, p)),
                    format!(
                        "{} is placed off a wall square of his own half, or not facing forward (G4.3)",
                        Id(p)
                    ),
                );
            }
        }
    }
    if over {
        final_position(pos)?;
    } else {
        let (n, _) = rules::first_two(game, pos);
        if n < 2 {
            return err(
                "pending",
                format!(
                    "the `{}` decision has {n} legal action{}; a position never rests on fewer than two (G5.4)",
                    pos.pending.map_or("", |p| p.kind()),
                    if n == 1 { "" } else { "s" }
                ),
            );
        }
    }
    let _ = STAR_J;
    let _ = pid;
    Ok(())
}

fn index_in(pos: &Position, p: u8) -> usize {
    (pos.roster & (bit(p) - 1)).count_ones() as usize
}

fn beaten_loose(pos: &Position) -> bool {
    let b = &pos.ball;
    b.at != NONE
        && b.dir == NONE
        && !b.spin
        && b.holder == NONE
        && b.possession.is_none()
        && pos.resolution.is_some_and(|r| r.kind == ResKind::Maul && r.square == b.at)
}

/// The six ball states of the notation's *Ball* table, each in its phases.
fn ball_state(pos: &Position) -> Result<(), JsonError> {
    let b = &pos.ball;
    let phase = pos.phase;
    let pk = pos.pending.map(|p| p.kind());
    let bad = |why: &str| err("ball", format!("{why} (G2.6, gball-notation.md Ball)"));
    if b.at == NONE {
        if b.dir != NONE || b.spin || b.holder != NONE || b.possession.is_some() {
            return bad("a ball off court has no direction, spin, holder or possession");
        }
        if phase == Phase::Place && pos.ball_start.is_some() {
            return err(
                "ball_start",
                "a point with a fixed start has its ball waiting there during placement (G4.5)",
            );
        }
        if !matches!(phase, Phase::Place | Phase::Over) {
            return bad("the ball is off court only during placement and in a final position");
        }
        return Ok(());
    }
    if phase == Phase::Over {
        return bad("a final position has the ball off court (G3.7)");
    }
    if phase == Phase::Place {
        if !is_start(b.at, b.dir) || b.spin || b.holder != NONE || b.possession.is_some() {
            return bad(
                "during placement the ball is off court or waits at its start: F1 or F6 with a G4.5 diagonal",
            );
        }
        if pos.ball_start.is_some_and(|s| s != (b.at, b.dir)) {
            return err("ball_start", "must be where the ball waits (G4.5)");
        }
        return Ok(());
    }
    if b.holder != NONE {
        let h = b.holder;
        let pl = &pos.players[h as usize];
        if b.dir != NONE || b.spin {
            return bad("a held ball has no direction and no spin");
        }
        if pl.at == NONE {
            return err("ball.holder", format!("{} is off court (G2.6)", Id(h)));
        }
        if b.at != pl.at {
            return err("ball.at", "a held ball is on its holder's square (G2.6)");
        }
        if board::is_goal_of(pl.at, team_of(h).other()) {
            return err(
                "ball.holder",
                format!("{} holds the ball on the opponents' goal: he would have scored (G12.1)", Id(h)),
            );
        }
        if b.possession != Some(team_of(h)) {
            return err(
                "ball.possession",
                "a held ball's possession is the holder's team (G2.7)",
            );
        }
        return Ok(());
    }
    if b.spin {
        if b.dir != NONE {
            return bad("a spinball has no direction");
        }
        if !matches!(phase, Phase::Phase1 | Phase::Phase2) {
            return bad("a spinball at the start of phase 3 skips phases 3–4 (G11.1)");
        }
        return Ok(());
    }
    if b.dir == NONE {
        if beaten_loose(pos) && phase == Phase::Phase2 && matches!(pk, Some("catch" | "aim")) {
            return Ok(());
        }
        return bad(
            "a loose ball without direction or spin is only the ball beaten loose in a maul, at its catch or aim",
        );
    }
    if !board::ball_dir_ok(b.at, b.dir) {
        return err(
            "ball.dir",
            "a moving ball points at a square of the grid, never along the wall (G6.2)",
        );
    }
    Ok(())
}

fn final_position(pos: &Position) -> Result<(), JsonError> {
    let bad = |f: &str, why: &str| err(f, format!("{why} in a final position (G3.7)"));
    if pos.turn != 0 {
        return bad("turn", "must be 0");
    }
    if pos.prev_winner.is_some() {
        return bad("prev_winner", "must be null");
    }
    if pos.demoralised.is_some() {
        return bad("demoralised", "must be null");
    }
    if pos.resolution.is_some() {
        return bad("resolution", "must be null");
    }
    if pos.lost_tackle != 0 || pos.failed_catch != 0 {
        return bad("turn_flags", "must be two empty lists");
    }
    if pos.ball != Ball::OFF {
        return bad("ball", "must be off court with nobody in possession");
    }
    if pos.ball_start.is_some() {
        return bad("ball_start", "must be null");
    }
    for p in members(pos.roster) {
        let pl = &pos.players[p as usize];
        if pl.at != NONE || pl.out != Status::None {
            return bad(
                &format!("players[{}]", index_in(pos, p)),
                "every player is off court with no status",
            );
        }
    }
    Ok(())
}
