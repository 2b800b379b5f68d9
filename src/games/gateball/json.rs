//! The Gateball position JSON of `docs/rules/gateball-notation.md` ("Positions
//! (JSON)"): written in one canonical layout, read leniently (unknown
//! fields ignored) but validated strictly — every condition of the
//! notation's "malformed" list, so that a position read here is one a game
//! can reach.
//!
//! A refused position gets one line that names the field and the rule it
//! breaks: `balls[3].at: "K9" is the Finish Space (T11.2)`.
//!
//! Order of the checks: first each field's type and range in the order the
//! notation lists the fields (with the court's board order, the gates'
//! numbering and the players' T2.2 as they are read), then the balls
//! against each other and the fields against the phase, then the court's
//! T1.8 ([`Court::validate`]) and, last, that the position offers a legal
//! action (T3.6). The own checks need only the court's size, which is
//! bounded as it is read, so they run before the whole-court check.

use std::collections::VecDeque;

use serde_json::{Map, Value};
use crate::json_line::inline;

use super::court::{Court, Gate};
use super::position::{BallState, Phase, Place, Position, ShotKind, Team, Winner};
use super::space::Space;
use super::script::Scripts;
use super::{Gateball, Player, Rules, SparkDice};
use crate::kernel::rng::SplitMix64;

pub use crate::json_line::JsonError;
use crate::json_line::err;

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

/// The canonical position JSON: every field of the notation in its order,
/// one top-level field a line, the court's fields one a line, and one
/// player, gate and ball a line so that positions diff well in scenario
/// files. Ends with a newline.
pub fn write(game: &Gateball, pos: &Position) -> String {
    write_form(game, pos, false)
}

/// The fields that predict a die: the generator's state and the forced
/// dice. A client of an unfinished game is never sent them.
pub const SECRET: [&str; 2] = ["rng", "dice_queue"];

/// The position as a client of an unfinished game is shown it: the
/// canonical JSON without [`SECRET`]'s fields (not a position
/// [`read_with`] takes back).
pub fn write_public(game: &Gateball, pos: &Position) -> String {
    write_form(game, pos, true)
}

fn write_form(game: &Gateball, pos: &Position, public: bool) -> String {
    let space = |s: Space| Value::String(s.to_string());
    let opt = |v: Option<Value>| v.unwrap_or(Value::Null);
    let nums = |it: &mut dyn Iterator<Item = u8>| Value::Array(it.map(Value::from).collect());

    let court = &game.court;
    let mut court_fields: Vec<(&str, String)> = vec![("name", inline(&court.name.clone().into()))];
    if let Some(d) = &court.description {
        court_fields.push(("description", inline(&d.clone().into())));
    }
    court_fields.extend([
        ("width", court.width.to_string()),
        ("height", court.height.to_string()),
        (
            "start_area",
            inline(&Value::Array(
                court.start_area.iter().map(|&s| space(s)).collect(),
            )),
        ),
        ("finish", inline(&space(court.finish))),
    ]);
    let gates: Vec<Value> = court
        .gates
        .iter()
        .zip(1u8..)
        .map(|(g, n)| {
            object([
                ("number", n.into()),
                ("bottom", space(g.bottom)),
                ("top", space(g.top)),
            ])
        })
        .collect();
    court_fields.push(("gates", lines(&gates, 4)));

    let players: Vec<Value> = game
        .players
        .iter()
        .map(|p| {
            object([
                ("name", p.name.clone().into()),
                ("team", p.team.name().into()),
                ("balls", nums(&mut p.balls.iter().copied())),
            ])
        })
        .collect();
    let balls: Vec<Value> = (1..=10u8)
        .map(|n| {
            let b = pos.ball_state(n);
            object([
                ("n", n.into()),
                ("state", b.place.name().into()),
                ("at", opt(b.place.space().map(space))),
                ("gates", b.gates.into()),
            ])
        })
        .collect();
    let rules = object([
        ("turns", game.rules.turns.into()),
        ("gate_bonus", game.rules.gate_bonus.into()),
        ("spark_dice", game.rules.spark_dice.name().into()),
    ]);

    let fields: Vec<(&str, String)> = vec![
        ("game", inline(&"gateball".into())),
        ("rules", inline(&rules)),
        ("court", block(&court_fields, 2)),
        ("players", lines(&players, 2)),
        ("turn", pos.turn.to_string()),
        ("ball", pos.ball.to_string()),
        ("phase", inline(&pos.phase.name().into())),
        (
            "shot",
            inline(&opt(pos.shot.map(|s| Value::from(s.name())))),
        ),
        ("dice", inline(&nums(&mut pos.dice.iter().copied()))),
        ("continuation", pos.continuation.to_string()),
        (
            "touched",
            inline(&nums(&mut pos.touched_list().into_iter())),
        ),
        ("spark", inline(&opt(pos.spark.map(Value::from)))),
        ("balls", lines(&balls, 2)),
        (
            "score",
            inline(&object([
                ("red", pos.score(Team::Red).into()),
                ("blue", pos.score(Team::Blue).into()),
            ])),
        ),
        ("rng", inline(&format!("{:016x}", pos.rng.state()).into())),
        (
            "dice_queue",
            inline(&nums(&mut pos.dice_queue.iter().copied())),
        ),
        (
            "winner",
            inline(&opt(pos.winner.map(|w| Value::from(w.name())))),
        ),
        ("perfect", pos.perfect.to_string()),
    ];
    let mut fields = fields;
    if public {
        fields.retain(|(k, _)| !SECRET.contains(k));
    }
    variant_fields(game, pos, &mut fields);
    let mut out = block(&fields, 0);
    out.push('\n');
    out
}

fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// An array with one item a line, closed at `indent`.
fn lines(items: &[Value], indent: usize) -> String {
    if items.is_empty() {
        return "[]".into();
    }
    let pad = " ".repeat(indent + 2);
    let items: Vec<String> = items
        .iter()
        .map(|v| format!("{pad}{}", inline(v)))
        .collect();
    format!("[\n{}\n{}]", items.join(",\n"), " ".repeat(indent))
}

/// An object with one already written field a line, closed at `indent`.
fn block(fields: &[(&str, String)], indent: usize) -> String {
    let pad = " ".repeat(indent + 2);
    let fields: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{pad}\"{k}\": {v}"))
        .collect();
    format!("{{\n{}\n{}}}", fields.join(",\n"), " ".repeat(indent))
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/// Reads a position and the game it belongs to, refusing every malformed
/// position of the notation. The court's T1.8 ([`Court::validate`]) and the
/// legal-action check (T3.6, [`super::rules::legal`]) come after all the
/// position's own checks, the legal actions last.
/// What a ruleset's variants add to a position, each only when it is not
/// its start value: a position without them is written as the notation
/// has always written it.
fn variant_fields(game: &Gateball, pos: &Position, fields: &mut Vec<(&str, String)>) {
    if pos.bonus != [0, 0] {
        fields.push((
            "bonus",
            inline(&object([
                ("red", pos.bonus[0].into()),
                ("blue", pos.bonus[1].into()),
            ])),
        ));
    }
    let Some(layout) = game.scripts.layout() else {
        return;
    };
    if let Some(name) = layout.end_name(pos.ended_by) {
        fields.push(("ended_by", inline(&name.into())));
    }
    if pos.vars.iter().any(|&v| v != 0) {
        let vars: Map<String, Value> = layout
            .vars
            .iter()
            .map(|v| {
                let values = &pos.vars[v.slots()];
                let value = match values {
                    [one] => Value::from(*one),
                    many => Value::Array(many.iter().map(|&x| Value::from(x)).collect()),
                };
                (v.name.clone(), value)
            })
            .collect();
        fields.push(("vars", inline(&Value::Object(vars))));
    }
}

/// Reads `bonus`, `ended_by` and `vars` by the variants' layout.
fn read_variant_fields(obj: &Obj, scripts: &Scripts, pos: &mut Position) -> Result<(), JsonError> {
    if let Some(v) = obj.get("bonus") {
        let Some(b) = v.as_object() else {
            return err("bonus", format!("expected {{\"red\": n, \"blue\": n}}, got {v}"));
        };
        for (i, team) in [Team::Red, Team::Blue].into_iter().enumerate() {
            let f = format!("bonus.{}", team.name());
            let n = get(b, team.name(), &f)?;
            pos.bonus[i] = n
                .as_i64()
                .filter(|n| (-999..=999).contains(n))
                .map_or_else(|| err(&f, format!("expected a whole number -999..999, got {n}")), |n| Ok(n as i16))?;
        }
        if scripts.get().is_none() && pos.bonus != [0, 0] {
            return err("bonus", "points beyond the balls' come from a ruleset's variants, and this ruleset has none");
        }
    }
    let layout = scripts.layout();
    if let Some(v) = obj.get("ended_by") {
        let name = v.as_str().unwrap_or_default();
        let k = layout.and_then(|l| l.ends.iter().position(|e| e == name));
        match k {
            Some(k) => pos.ended_by = k as u8 + 1,
            None => {
                return err(
                    "ended_by",
                    format!("{v} is not an end this ruleset's variants name"),
                );
            }
        }
    }
    if let Some(layout) = layout {
        pos.vars = vec![0; layout.slots()];
        layout.start_values(&mut pos.vars);
    }
    if let Some(v) = obj.get("vars") {
        let Some(vars) = v.as_object() else {
            return err("vars", format!("expected an object of counters, got {v}"));
        };
        for (name, value) in vars {
            let f = format!("vars.{name}");
            let decl = match layout {
                Some(l) => l.counter(name).or_else(|m| err(&f, m))?,
                None => return err(&f, "this ruleset has no variants, so no counters"),
            };
            let want = decl.slots().len();
            let values: Vec<&Value> = match value {
                Value::Array(a) => a.iter().collect(),
                one => vec![one],
            };
            if values.len() != want {
                return err(&f, format!("expected {want} value(s), got {}", values.len()));
            }
            for (k, x) in values.into_iter().enumerate() {
                pos.vars[decl.slot + k] = x
                    .as_i64()
                    .and_then(|n| i16::try_from(n).ok())
                    .map_or_else(|| err(&f, format!("{x} is not a whole number -32768..32767")), Ok)?;
            }
        }
    }
    Ok(())
}

pub fn read(text: &str) -> Result<(Gateball, Position), JsonError> {
    read_with(text, &Scripts::default())
}

/// [`read`] for a game with `scripts`: its variants' counters, ends and
/// points are read by their layout.
pub fn read_with(text: &str, scripts: &Scripts) -> Result<(Gateball, Position), JsonError> {
    let (game, pos) = parse(text, scripts)?;
    if let Err(problem) = game.court.validate() {
        return err("court", problem);
    }
    if !pos.is_over() && super::rules::legal(&game, &pos).is_empty() {
        return err(
            "phase",
            format!(
                "phase \"{}\" of ball {} offers no legal action; the engine resolves such a \
                 situation before a position is written (T3.6)",
                pos.phase.name(),
                pos.ball
            ),
        );
    }
    Ok((game, pos))
}

type Obj = Map<String, Value>;

/// Every check but the court's T1.8 and the legal actions.
fn parse(text: &str, scripts: &Scripts) -> Result<(Gateball, Position), JsonError> {
    // A variant that decides the end may play turns past the last.
    let decides_end = scripts.layout().is_some_and(|l| l.hooks("ending"));
    let value: Value =
        crate::json_line::parse(text).or_else(|e| err("(json)", format!("not JSON: {e}")))?;
    let Value::Object(obj) = value else {
        return err("(json)", "a position is a JSON object");
    };
    let game = get(&obj, "game", "game")?;
    if game.as_str() != Some("gateball") {
        return err("game", format!("expected \"gateball\", got {game}"));
    }
    let rules = rules(get(&obj, "rules", "rules")?)?;
    let court = court(get(&obj, "court", "court")?)?;
    let players = players(get(&obj, "players", "players")?)?;
    let turn = int(
        get(&obj, "turn", "turn")?,
        "turn",
        1,
        if decides_end { u8::MAX } else { rules.turns },
        "T3.3: 1 … `rules.turns`",
    )?;
    let ball = int(get(&obj, "ball", "ball")?, "ball", 1, 10, "T2.1")?;
    let phase = match get(&obj, "phase", "phase")?.as_str() {
        Some("shot") => Phase::Shot,
        Some("move") => Phase::Move,
        Some("spark") => Phase::Spark,
        Some("over") => Phase::Over,
        _ => {
            return err(
                "phase",
                format!(
                    "expected \"shot\", \"move\", \"spark\" or \"over\", got {}",
                    obj["phase"]
                ),
            );
        }
    };
    let shot = match get(&obj, "shot", "shot")? {
        Value::Null => None,
        v => match v.as_str() {
            Some("power") => Some(ShotKind::Power),
            Some("tech") => Some(ShotKind::Tech),
            _ => {
                return err(
                    "shot",
                    format!("expected null, \"power\" or \"tech\", got {v}"),
                );
            }
        },
    };
    let dice = dice_list(get(&obj, "dice", "dice")?, "dice", "T4.1")?;
    let continuation = boolean(get(&obj, "continuation", "continuation")?, "continuation")?;
    let touched = touched(get(&obj, "touched", "touched")?)?;
    let spark = match get(&obj, "spark", "spark")? {
        Value::Null => None,
        v => Some(int(v, "spark", 1, 10, "T2.1")?),
    };
    let balls = balls(get(&obj, "balls", "balls")?, &court)?;
    let score = get(&obj, "score", "score")?;
    let Some(score) = score.as_object() else {
        return err(
            "score",
            format!("expected {{\"red\": n, \"blue\": n}}, got {score}"),
        );
    };
    let mut scores = [0i64; 2];
    for (i, team) in [Team::Red, Team::Blue].into_iter().enumerate() {
        let f = format!("score.{}", team.name());
        let v = get(score, team.name(), &f)?;
        scores[i] = v
            .as_i64()
            .map_or_else(|| err(&f, format!("expected a whole number, got {v}")), Ok)?;
    }
    let rng = get(&obj, "rng", "rng")?;
    let rng = match rng.as_str() {
        Some(s) if s.len() == 16 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) => {
            SplitMix64::new(u64::from_str_radix(s, 16).expect("16 hex digits"))
        }
        _ => {
            return err(
                "rng",
                format!("{rng} is not 16 lowercase hexadecimal digits (T4.5)"),
            );
        }
    };
    let dice_queue: VecDeque<u8> =
        dice_list(get(&obj, "dice_queue", "dice_queue")?, "dice_queue", "T4.6")?.into();
    let winner = match get(&obj, "winner", "winner")? {
        Value::Null => None,
        v => match v.as_str() {
            Some("red") => Some(Winner::Team(Team::Red)),
            Some("blue") => Some(Winner::Team(Team::Blue)),
            Some("draw") => Some(Winner::Draw),
            _ => {
                return err(
                    "winner",
                    format!("expected null, \"red\", \"blue\" or \"draw\", got {v}"),
                );
            }
        },
    };
    let perfect = boolean(get(&obj, "perfect", "perfect")?, "perfect")?;

    let mut pos = Position {
        turn,
        ball,
        phase,
        shot,
        dice,
        continuation,
        touched: touched.iter().fold(0, |m, &n| m | 1 << n),
        spark,
        balls,
        rng,
        dice_queue,
        winner,
        perfect,
        bonus: [0; 2],
        vars: Vec::new(),
        ended_by: 0,
    };
    read_variant_fields(&obj, scripts, &mut pos)?;
    let setup = super::setup::of_players(&players);
    let game = Gateball {
        rules,
        court,
        players,
        setup,
        scripts: scripts.clone(),
    };
    shared_spaces(&pos)?;
    for (i, team) in [Team::Red, Team::Blue].into_iter().enumerate() {
        let derived = i64::from(pos.score(team));
        let balls = pos.ball_points(team);
        if scores[i] != derived {
            return err(
                format!("score.{}", team.name()),
                if pos.bonus[i] == 0 {
                    format!(
                        "{}, but the balls give {derived}: a ball's points are its gates, plus 2 \
                         for a Goal (T12.1)",
                        scores[i]
                    )
                } else {
                    format!(
                        "{}, but the balls give {balls} and `bonus` {}: {derived} (T12.1)",
                        scores[i], pos.bonus[i]
                    )
                },
            );
        }
    }
    phase_fit(&pos)?;
    touches(&pos)?;
    if pos.is_over() {
        over(&pos)?;
    } else {
        not_over(&game, &pos, decides_end)?;
    }
    Ok((game, pos))
}

fn get<'a>(obj: &'a Obj, key: &str, field: &str) -> Result<&'a Value, JsonError> {
    obj.get(key).ok_or_else(|| JsonError {
        field: field.to_string(),
        problem: "missing".into(),
    })
}

/// A whole number in `lo..=hi`; `why` names the rule of the range.
fn int(v: &Value, field: &str, lo: u8, hi: u8, why: &str) -> Result<u8, JsonError> {
    let Some(n) = v.as_u64() else {
        return err(field, format!("expected a whole number, got {v}"));
    };
    if n < u64::from(lo) || n > u64::from(hi) {
        return err(field, format!("{n} is outside {lo}–{hi} ({why})"));
    }
    Ok(n as u8)
}

fn boolean(v: &Value, field: &str) -> Result<bool, JsonError> {
    v.as_bool().map_or_else(
        || err(field, format!("expected true or false, got {v}")),
        Ok,
    )
}

fn string<'a>(v: &'a Value, field: &str) -> Result<&'a str, JsonError> {
    v.as_str()
        .map_or_else(|| err(field, format!("expected a string, got {v}")), Ok)
}

fn array<'a>(v: &'a Value, field: &str) -> Result<&'a Vec<Value>, JsonError> {
    v.as_array()
        .map_or_else(|| err(field, format!("expected an array, got {v}")), Ok)
}

fn object_at<'a>(v: &'a Value, field: &str) -> Result<&'a Obj, JsonError> {
    v.as_object()
        .map_or_else(|| err(field, format!("expected an object, got {v}")), Ok)
}

/// A space name written exactly as T1.2 says.
fn space(v: &Value, field: &str) -> Result<Space, JsonError> {
    let s = string(v, field)?;
    let letters = s.bytes().take_while(u8::is_ascii_uppercase).count();
    let digits = &s[letters..];
    let written = letters > 0
        && !digits.is_empty()
        && !digits.starts_with('0')
        && digits.bytes().all(|b| b.is_ascii_digit());
    match Space::parse(s) {
        Some(sp) => Ok(sp),
        None if written => err(
            field,
            format!("\"{s}\" lies far off any board (T1.1, T1.2)"),
        ),
        None => err(
            field,
            format!(
                "\"{s}\" is not a space name (T1.2: uppercase column letters, then the row \
                 number without leading zeros)"
            ),
        ),
    }
}

/// Die values, each 1–6.
fn dice_list(v: &Value, field: &str, why: &str) -> Result<Vec<u8>, JsonError> {
    array(v, field)?
        .iter()
        .enumerate()
        .map(|(i, d)| int(d, &format!("{field}[{i}]"), 1, 6, why))
        .collect()
}

fn touched(v: &Value) -> Result<Vec<u8>, JsonError> {
    let list = array(v, "touched")?;
    let mut out: Vec<u8> = Vec::with_capacity(list.len());
    for (i, n) in list.iter().enumerate() {
        let f = format!("touched[{i}]");
        let n = int(n, &f, 1, 10, "T2.1")?;
        if let Some(&before) = out.last()
            && n <= before
        {
            return err(
                f,
                format!("{n} after {before}: `touched` lists each ball once, ascending (T7.4)"),
            );
        }
        out.push(n);
    }
    Ok(out)
}

fn rules(v: &Value) -> Result<Rules, JsonError> {
    let o = object_at(v, "rules")?;
    let turns = int(
        get(o, "turns", "rules.turns")?,
        "rules.turns",
        1,
        6,
        "T14.1",
    )?;
    let gate_bonus = boolean(
        get(o, "gate_bonus", "rules.gate_bonus")?,
        "rules.gate_bonus",
    )?;
    let sd = get(o, "spark_dice", "rules.spark_dice")?;
    let spark_dice = match sd.as_str() {
        Some("roll") => SparkDice::Roll,
        Some("reuse") => SparkDice::Reuse,
        _ => {
            return err(
                "rules.spark_dice",
                format!("expected \"roll\" or \"reuse\", got {sd} (T14.3)"),
            );
        }
    };
    Ok(Rules {
        turns,
        gate_bonus,
        spark_dice,
    })
}

fn court(v: &Value) -> Result<Court, JsonError> {
    let o = object_at(v, "court")?;
    let name = string(get(o, "name", "court.name")?, "court.name")?;
    if name.is_empty()
        || name.len() > 32
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return err(
            "court.name",
            format!("\"{name}\" is not 1–32 characters from a–z, 0–9 and - (court files)"),
        );
    }
    let description = match o.get("description") {
        None => None,
        Some(d) => Some(string(d, "court.description")?.to_string()),
    };
    let width = int(
        get(o, "width", "court.width")?,
        "court.width",
        5,
        30,
        "T1.8",
    )?;
    let height = int(
        get(o, "height", "court.height")?,
        "court.height",
        5,
        30,
        "T1.8",
    )?;
    let list = array(
        get(o, "start_area", "court.start_area")?,
        "court.start_area",
    )?;
    let mut start_area: Vec<Space> = Vec::with_capacity(list.len());
    for (i, s) in list.iter().enumerate() {
        let f = format!("court.start_area[{i}]");
        let s = space(s, &f)?;
        if let Some(&before) = start_area.last() {
            if s == before {
                return err(
                    f,
                    format!("\"{s}\" twice: the Start Area's spaces are distinct (T1.8)"),
                );
            }
            if s < before {
                return err(
                    f,
                    format!(
                        "\"{s}\" after \"{before}\": `start_area` is in board order (T1.2: by \
                         column, then row)"
                    ),
                );
            }
        }
        start_area.push(s);
    }
    let finish = space(get(o, "finish", "court.finish")?, "court.finish")?;
    let list = array(get(o, "gates", "court.gates")?, "court.gates")?;
    let mut gates: Vec<(u8, Gate)> = Vec::with_capacity(3);
    for (i, g) in list.iter().enumerate() {
        let f = |k: &str| format!("court.gates[{i}].{k}");
        let go = object_at(g, &format!("court.gates[{i}]"))?;
        let number = int(get(go, "number", &f("number"))?, &f("number"), 1, 3, "T1.6")?;
        let bottom = space(get(go, "bottom", &f("bottom"))?, &f("bottom"))?;
        let top = space(get(go, "top", &f("top"))?, &f("top"))?;
        gates.push((number, Gate { bottom, top }));
    }
    let mut numbers: Vec<u8> = gates.iter().map(|g| g.0).collect();
    numbers.sort_unstable();
    if numbers != [1, 2, 3] {
        return err(
            "court.gates",
            format!("gates {numbers:?}: gates 1, 2 and 3 each appear exactly once (T1.8)"),
        );
    }
    if let Some(i) = (1..3).find(|&i| gates[i].0 < gates[i - 1].0) {
        return err(
            format!("court.gates[{i}].number"),
            format!(
                "gate {} after gate {}: `gates` is sorted by number",
                gates[i].0,
                gates[i - 1].0
            ),
        );
    }
    Ok(Court {
        name: name.to_string(),
        description,
        width,
        height,
        start_area,
        finish,
        gates: [gates[0].1, gates[1].1, gates[2].1],
    })
}

fn players(v: &Value) -> Result<Vec<Player>, JsonError> {
    let list = array(v, "players")?;
    if !(2..=10).contains(&list.len()) {
        return err(
            "players",
            format!(
                "{} player{}: a game has 2–10 (T2.2)",
                list.len(),
                if list.len() == 1 { "" } else { "s" }
            ),
        );
    }
    let mut players: Vec<Player> = Vec::with_capacity(list.len());
    let mut owner: [Option<usize>; 11] = [None; 11];
    for (i, p) in list.iter().enumerate() {
        let f = |k: &str| format!("players[{i}].{k}");
        let o = object_at(p, &format!("players[{i}]"))?;
        let name = string(get(o, "name", &f("name"))?, &f("name"))?;
        if let Some(j) = players.iter().position(|q| q.name == name) {
            return err(
                f("name"),
                format!("\"{name}\" is also the name of players[{j}]: names are distinct (T2.2)"),
            );
        }
        let team_v = get(o, "team", &f("team"))?;
        let team = match team_v.as_str() {
            Some("red") => Team::Red,
            Some("blue") => Team::Blue,
            _ => {
                return err(
                    f("team"),
                    format!("expected \"red\" or \"blue\", got {team_v}"),
                );
            }
        };
        let balls_v = array(get(o, "balls", &f("balls"))?, &f("balls"))?;
        if balls_v.is_empty() {
            return err(
                f("balls"),
                format!("\"{name}\" has no ball: every player has at least one (T2.2)"),
            );
        }
        let mut balls: Vec<u8> = Vec::with_capacity(balls_v.len());
        for (j, b) in balls_v.iter().enumerate() {
            let fb = format!("players[{i}].balls[{j}]");
            let b = int(b, &fb, 1, 10, "T2.1")?;
            if Team::of_ball(b) != team {
                return err(
                    fb,
                    format!(
                        "ball {b} is {}, but \"{name}\" plays {}: a ball is in the charge of a \
                         player of its own team (T2.2)",
                        Team::of_ball(b).name(),
                        team.name()
                    ),
                );
            }
            if let Some(&before) = balls.last()
                && b <= before
            {
                return err(fb, format!("{b} after {before}: `balls` is ascending"));
            }
            if let Some(k) = owner[usize::from(b)] {
                return err(
                    fb,
                    format!(
                        "ball {b} is also in the charge of \"{}\": every ball has exactly one \
                         player (T2.2)",
                        players[k].name
                    ),
                );
            }
            owner[usize::from(b)] = Some(i);
            balls.push(b);
        }
        players.push(Player {
            name: name.to_string(),
            team,
            balls,
        });
    }
    for team in [Team::Red, Team::Blue] {
        let count = players.iter().filter(|p| p.team == team).count();
        if !(1..=5).contains(&count) {
            return err(
                "players",
                format!(
                    "{count} {} players: a team has one to five (T2.2)",
                    team.name()
                ),
            );
        }
    }
    if let Some(b) = (1..=10u8).find(|&b| owner[usize::from(b)].is_none()) {
        return err(
            "players",
            format!("ball {b} is in nobody's charge: every ball has exactly one player (T2.2)"),
        );
    }
    Ok(players)
}

/// The ten balls, each placed by T11.2.
fn balls(v: &Value, court: &Court) -> Result<[BallState; 10], JsonError> {
    let list = array(v, "balls")?;
    if list.len() != 10 {
        return err(
            "balls",
            format!("{} balls: `balls` lists all ten (T2.1)", list.len()),
        );
    }
    let mut out = [BallState {
        place: Place::Waiting,
        gates: 0,
    }; 10];
    for (i, b) in list.iter().enumerate() {
        let f = |k: &str| format!("balls[{i}].{k}");
        let o = object_at(b, &format!("balls[{i}]"))?;
        let n = int(get(o, "n", &f("n"))?, &f("n"), 1, 10, "T2.1")?;
        if usize::from(n) != i + 1 {
            return err(
                f("n"),
                format!("{n} at index {i}: `balls` lists balls 1–10 in order"),
            );
        }
        let state_v = get(o, "state", &f("state"))?;
        let state = state_v.as_str().unwrap_or("");
        let at_v = get(o, "at", &f("at"))?;
        let at = match at_v {
            Value::Null => None,
            v => Some(space(v, &f("at"))?),
        };
        let gates = int(get(o, "gates", &f("gates"))?, &f("gates"), 0, 3, "T6.1")?;
        let place = match (state, at) {
            ("waiting" | "goal", Some(s)) => {
                let why = if state == "waiting" { "T9.1" } else { "T10.2" };
                return err(
                    f("at"),
                    format!(
                        "\"{s}\", but a {} is off the board: `at` is null (T11.2, {why})",
                        if state == "waiting" {
                            "waiting ball"
                        } else {
                            "ball that scored a Goal"
                        }
                    ),
                );
            }
            ("waiting", None) => Place::Waiting,
            ("goal", None) => Place::Goal,
            ("court" | "out", None) => {
                return err(
                    f("at"),
                    format!("null, but a ball in state \"{state}\" stands on a space (T11.2)"),
                );
            }
            ("court", Some(s)) => {
                if !court.is_court(s) {
                    return err(f("at"), format!("\"{s}\" is not a court space (T11.2)"));
                }
                if s == court.finish {
                    return err(f("at"), format!("\"{s}\" is the Finish Space (T11.2)"));
                }
                Place::Court(s)
            }
            ("out", Some(s)) => {
                if !court.is_outside(s) {
                    return err(
                        f("at"),
                        format!("\"{s}\" is not on the Outside Line: out-balls are (T11.2)"),
                    );
                }
                if court.is_start(s) {
                    return err(f("at"), format!("\"{s}\" is a Start-Area space (T11.2)"));
                }
                Place::Out(s)
            }
            _ => {
                return err(
                    f("state"),
                    format!("expected \"waiting\", \"court\", \"out\" or \"goal\", got {state_v}"),
                );
            }
        };
        let gates_ok = match place {
            Place::Waiting => gates == 0,
            Place::Court(_) | Place::Out(_) => gates >= 1,
            Place::Goal => gates == 3,
        };
        if !gates_ok {
            let why = match place {
                Place::Waiting => "a waiting ball has scored no gate (T11.2, T9.3)",
                Place::Goal => {
                    "a ball that scored a Goal has scored all three gates (T11.2, T10.1)"
                }
                _ => "a ball on the board has scored at least gate 1 (T11.2, T9.3)",
            };
            return err(f("gates"), format!("{gates}, but {why}"));
        }
        out[i] = BallState { place, gates };
    }
    Ok(out)
}

/// T11.1: no two balls on a space, but the playing ball and the ball it
/// touched on the touch space while the spark is pending.
fn shared_spaces(pos: &Position) -> Result<(), JsonError> {
    for j in 1..=10u8 {
        let Some(s) = pos.ball_state(j).place.space() else {
            continue;
        };
        if let Some(i) = (1..j).find(|&i| pos.ball_state(i).place.space() == Some(s)) {
            let pair = [i, j];
            let spark_pair = pos.phase == Phase::Spark
                && pos
                    .spark
                    .is_some_and(|c| pair.contains(&c) && pair.contains(&pos.ball));
            if !spark_pair {
                return err(
                    format!("balls[{}].at", j - 1),
                    format!(
                        "\"{s}\" is also ball {i}'s space: two balls share a space only while \
                         the playing ball's spark is pending (T11.1)"
                    ),
                );
            }
        }
    }
    Ok(())
}

/// `shot`, `dice`, `spark` and `continuation` against the phase.
fn phase_fit(pos: &Position) -> Result<(), JsonError> {
    let phase = pos.phase.name();
    match pos.phase {
        Phase::Over => {
            // T12.5: whether the game ended after the last play or in
            // mid-play, the play's fields are cleared.
            let cleared = |field: &str, value: String| {
                err(
                    field,
                    format!(
                        "{value} in phase \"over\": the final position clears the play's \
                         fields (T12.5)"
                    ),
                )
            };
            if let Some(s) = pos.shot {
                return cleared("shot", format!("\"{}\"", s.name()));
            }
            if !pos.dice.is_empty() {
                return cleared("dice", format!("{:?}", pos.dice));
            }
            if let Some(c) = pos.spark {
                return cleared("spark", c.to_string());
            }
            if pos.continuation {
                return cleared("continuation", "true".into());
            }
            if pos.touched != 0 {
                return cleared("touched", format!("{:?}", pos.touched_list()));
            }
        }
        Phase::Shot => {
            if let Some(s) = pos.shot {
                return err(
                    "shot",
                    format!(
                        "\"{}\" in phase \"shot\": the shot type is set only in phases move \
                         and spark (T4.3)",
                        s.name()
                    ),
                );
            }
            if !pos.dice.is_empty() {
                return err(
                    "dice",
                    format!(
                        "{:?} in phase \"shot\": no dice are rolled before the shot type is \
                         chosen (T4.3)",
                        pos.dice
                    ),
                );
            }
            if let Some(c) = pos.spark {
                return err(
                    "spark",
                    format!("{c} in phase \"shot\": a spark is pending only in phase spark (T7.5)"),
                );
            }
        }
        Phase::Move | Phase::Spark => {
            let Some(kind) = pos.shot else {
                return err(
                    "shot",
                    format!(
                        "null in phase \"{phase}\": the shot type is chosen before the dice are \
                         rolled (T4.3)"
                    ),
                );
            };
            if pos.dice.len() != kind.dice() {
                let what = if pos.phase == Phase::Move {
                    format!("a {} shot rolls {} (T4.3)", kind.name(), kind.dice())
                } else {
                    format!(
                        "a spark after a {} shot has {} (T4.3, T7.5, T14.3)",
                        kind.name(),
                        kind.dice()
                    )
                };
                return err(
                    "dice",
                    format!(
                        "{} value{} in phase \"{phase}\": {what}",
                        pos.dice.len(),
                        if pos.dice.len() == 1 { "" } else { "s" }
                    ),
                );
            }
            if pos.phase == Phase::Move {
                if let Some(c) = pos.spark {
                    return err(
                        "spark",
                        format!(
                            "{c} in phase \"move\": a spark is pending only in phase spark (T7.5)"
                        ),
                    );
                }
            } else {
                spark_fit(pos)?;
            }
        }
    }
    Ok(())
}

/// Phase `spark`: the `spark` ball is a touched ball on the court, on the
/// playing ball's space (T7.1, T7.5), and the touch gave the continuation.
fn spark_fit(pos: &Position) -> Result<(), JsonError> {
    let Some(c) = pos.spark else {
        return err(
            "spark",
            "null in phase \"spark\": the touched ball to spark is named (T7.5)",
        );
    };
    if !pos.is_touched(c) {
        return err(
            "spark",
            format!(
                "ball {c} is not in `touched`: the sparked ball is the one just touched (T7.5)"
            ),
        );
    }
    let Place::Court(at) = pos.ball_state(c).place else {
        return err(
            "spark",
            format!(
                "ball {c} is {}, not on the court: the sparked ball is on the touch space \
                 (T7.1)",
                pos.ball_state(c).place.name()
            ),
        );
    };
    if pos.ball_state(pos.ball).place != Place::Court(at) {
        return err(
            "spark",
            format!(
                "ball {c} is on {at}, but the playing ball {} is not: both share the touch \
                 space until the spark (T7.1)",
                pos.ball
            ),
        );
    }
    if !pos.continuation {
        return err(
            "continuation",
            "false in phase \"spark\": a valid touch gives the continuation (T7.5, T7.8)",
        );
    }
    Ok(())
}

/// `touched` and `continuation` against the play (T7.4, T7.8).
fn touches(pos: &Position) -> Result<(), JsonError> {
    if pos.is_touched(pos.ball) {
        return err(
            "touched",
            format!(
                "holds ball {}, the ball being played: a ball touches others (T7.1, T7.4)",
                pos.ball
            ),
        );
    }
    if let Some(n) = pos
        .touched_list()
        .into_iter()
        .find(|&n| pos.ball_state(n).place == Place::Waiting)
    {
        return err(
            "touched",
            format!("holds ball {n}, a waiting ball: waiting balls are never touched (T7.2)"),
        );
    }
    if !pos.continuation && pos.touched != 0 {
        return err(
            "touched",
            format!(
                "{:?} while `continuation` is false: the play's first valid touch gives the \
                 continuation (T7.5, T7.8)",
                pos.touched_list()
            ),
        );
    }
    if pos.continuation && !matches!(pos.ball_state(pos.ball).place, Place::Court(_)) {
        return err(
            "continuation",
            format!(
                "true, but ball {} is {}: a continuation is played from the court (T7.8)",
                pos.ball,
                pos.ball_state(pos.ball).place.name()
            ),
        );
    }
    Ok(())
}

/// The team whose five balls have all scored a Goal (T12.3).
fn perfect_team(pos: &Position) -> Option<Team> {
    [Team::Red, Team::Blue]
        .into_iter()
        .find(|t| t.balls().all(|n| pos.ball_state(n).place == Place::Goal))
}

fn not_over(game: &Gateball, pos: &Position, decides_end: bool) -> Result<(), JsonError> {
    let phase = pos.phase.name();
    if let Some(w) = pos.winner {
        return err(
            "winner",
            format!(
                "\"{}\" in phase \"{phase}\": the winner is set when the game ends (T12.5)",
                w.name()
            ),
        );
    }
    if pos.perfect {
        return err(
            "perfect",
            format!("true in phase \"{phase}\": a Perfect Game ends the game (T12.3)"),
        );
    }
    if let Some(t) = perfect_team(pos).filter(|_| !decides_end) {
        return err(
            "phase",
            format!(
                "\"{phase}\", but {}'s five balls have all scored a Goal: a Perfect Game ends \
                 the game at once (T12.3)",
                t.name()
            ),
        );
    }
    let playing = pos.ball_state(pos.ball);
    if playing.place == Place::Goal {
        return err(
            "ball",
            format!(
                "ball {} has scored its Goal: such a ball is skipped (T3.2)",
                pos.ball
            ),
        );
    }
    if let (Phase::Shot | Phase::Move, Place::Out(s)) = (pos.phase, playing.place) {
        let entry = game.court.entry_space(s);
        if let Some(other) = pos.ball_at(entry, pos.ball) {
            return err(
                "ball",
                format!(
                    "ball {} is out on {s} and its entry space {entry} holds ball {other}: it \
                     cannot re-enter, which the engine resolves before a position is written \
                     (T8.4)",
                    pos.ball
                ),
            );
        }
    }
    Ok(())
}

fn over(pos: &Position) -> Result<(), JsonError> {
    // The cleared fields are `phase_fit`'s.
    let Some(winner) = pos.winner else {
        return err(
            "winner",
            "null in phase \"over\": a finished game has a winner or a draw (T12.5)",
        );
    };
    if pos.ended_by != 0 {
        // A variant ended the game and named its winner.
        return Ok(());
    }
    let five = perfect_team(pos);
    if pos.perfect {
        if five.map(Winner::Team) != Some(winner) {
            return err(
                "perfect",
                format!(
                    "true, but the winner \"{}\" has not brought all five balls to the Goal \
                     (T12.3)",
                    winner.name()
                ),
            );
        }
    } else {
        if let Some(t) = five {
            return err(
                "perfect",
                format!(
                    "false, but {}'s five balls have all scored a Goal (T12.3)",
                    t.name()
                ),
            );
        }
        let (red, blue) = (pos.score(Team::Red), pos.score(Team::Blue));
        let by_score = match red.cmp(&blue) {
            std::cmp::Ordering::Greater => Winner::Team(Team::Red),
            std::cmp::Ordering::Less => Winner::Team(Team::Blue),
            std::cmp::Ordering::Equal => Winner::Draw,
        };
        if winner != by_score {
            return err(
                "winner",
                format!(
                    "\"{}\", but the score is red {red} blue {blue}: the higher score wins, \
                     equal scores draw (T12.4)",
                    winner.name()
                ),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Gateball {
        Gateball::standard()
    }

    fn sp(s: &str) -> Space {
        Space::parse(s).unwrap()
    }

    fn at(pos: &mut Position, n: u8, place: Place, gates: u8) {
        *pos.ball_mut(n) = BallState { place, gates };
    }

    /// The notation's `ball show` example: ball 5 has touched ball 2 on P8.
    fn spark_position() -> Position {
        let mut pos = Position::start(SplitMix64::new(0x0123_4567_89ab_cdef));
        pos.turn = 2;
        pos.ball = 5;
        pos.phase = Phase::Spark;
        pos.shot = Some(ShotKind::Power);
        pos.dice = vec![3, 2];
        pos.continuation = true;
        pos.touched = 1 << 2;
        pos.spark = Some(2);
        at(&mut pos, 1, Place::Court(sp("K5")), 1);
        at(&mut pos, 2, Place::Court(sp("P8")), 1);
        at(&mut pos, 3, Place::Out(sp("A12")), 1);
        at(&mut pos, 5, Place::Court(sp("P8")), 1);
        pos
    }

    fn over_position() -> Position {
        let mut pos = Position::start(SplitMix64::new(u64::MAX));
        pos.turn = 6;
        pos.ball = 10;
        pos.phase = Phase::Over;
        pos.winner = Some(Winner::Team(Team::Blue));
        at(&mut pos, 2, Place::Goal, 3);
        at(&mut pos, 4, Place::Court(sp("C3")), 2);
        at(&mut pos, 1, Place::Out(sp("V8")), 3);
        pos.dice_queue = [6, 1].into();
        pos
    }

    #[test]
    fn round_trips() {
        let mut g = game();
        for pos in [
            Position::start(SplitMix64::new(0)),
            spark_position(),
            over_position(),
        ] {
            let text = write(&g, &pos);
            assert!(text.ends_with("}\n"));
            assert_eq!(parse(&text, &Scripts::default()), Ok((g.clone(), pos.clone())), "{text}");
        }
        g.court.description = Some("a \"quoted\" court".into());
        g.rules = Rules {
            turns: 3,
            gate_bonus: true,
            spark_dice: SparkDice::Reuse,
        };
        let pos = spark_position();
        let text = write(&g, &pos);
        assert_eq!(parse(&text, &Scripts::default()), Ok((g, pos)));
    }

    #[test]
    fn writes_every_field_in_order() {
        let text = write(&game(), &spark_position());
        let v: Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "game",
                "rules",
                "court",
                "players",
                "turn",
                "ball",
                "phase",
                "shot",
                "dice",
                "continuation",
                "touched",
                "spark",
                "balls",
                "score",
                "rng",
                "dice_queue",
                "winner",
                "perfect"
            ]
        );
        let court: Vec<&str> = v["court"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            court,
            ["name", "width", "height", "start_area", "finish", "gates"]
        );
        assert_eq!(v["rng"], "0123456789abcdef");
        assert_eq!(v["score"], serde_json::json!({"red": 3, "blue": 1}));
        assert_eq!(v["touched"], serde_json::json!([2]));
        assert_eq!(
            v["balls"][2],
            serde_json::json!({"n": 3, "state": "out", "at": "A12", "gates": 1})
        );
        assert!(text.contains(
            "\n  \"rules\": {\"turns\": 6, \"gate_bonus\": false, \"spark_dice\": \"roll\"},\n"
        ));
        assert!(
            text.contains(
                "\n    {\"n\": 1, \"state\": \"court\", \"at\": \"K5\", \"gates\": 1},\n"
            )
        );
    }

    /// Unknown fields are ignored, at every level.
    #[test]
    fn unknown_fields_ignored() {
        let g = game();
        let pos = spark_position();
        let mut v: Value = serde_json::from_str(&write(&g, &pos)).unwrap();
        v["comment"] = "hello".into();
        v["court"]["colour"] = "green".into();
        v["balls"][0]["note"] = 1.into();
        assert_eq!(parse(&v.to_string(), &Scripts::default()), Ok((g, pos)));
    }

    #[test]
    fn error_names_field_and_rule() {
        let mut v: Value = serde_json::from_str(&write(&game(), &spark_position())).unwrap();
        v["balls"][3]["state"] = "court".into();
        v["balls"][3]["at"] = "K9".into();
        v["balls"][3]["gates"] = 1.into();
        let e = parse(&v.to_string(), &Scripts::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "balls[3].at: \"K9\" is the Finish Space (T11.2)"
        );
    }

    #[test]
    fn read_accepts_written_positions() {
        let g = game();
        for pos in [
            Position::start(SplitMix64::new(7)),
            spark_position(),
            over_position(),
        ] {
            assert_eq!(read(&write(&g, &pos)), Ok((g.clone(), pos)));
        }
    }
}
