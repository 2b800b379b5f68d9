//! The position JSON of `docs/rules/ball-notation.md`: written in one canonical layout,
//! read leniently (unknown fields ignored, optional fields defaulted) but
//! validated strictly: every invariant of B1–B10 a position must keep.
//!
//! A refused position names the field and the rule it breaks.

use serde_json::{Map, Value};

use super::action::CardId;
use super::board::Sq;
use super::movegen::has_task;
use super::params::{Layout, MAX_TURN_AP, Params, Scope};
use super::piece::{Kind, N_PIECES, PieceId, Team};
use super::position::{
    BallState, CardUse, CardUses, MAX_VARS, Outcome, Phase, Piece, Position, Stack, Stacks, Vars,
};

/// A malformed position: which field, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed position: `{field}`: {problem}")]
pub struct PositionError {
    pub field: String,
    pub problem: String,
}

fn err<T>(field: impl Into<String>, problem: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError {
        field: field.into(),
        problem: problem.into(),
    })
}

/// Writes the canonical JSON: fields in the order of `docs/rules/ball-notation.md`, one
/// piece and one stack a line, so positions diff well in scenario files.
pub fn write(pos: &Position) -> String {
    write_with(pos, &Layout::default())
}

/// [`write`] with a ruleset's own data by the names its scripts gave it:
/// `vars` (only when a counter is not 0) and `ended_by` (only when a
/// script ended the game its way), so a position without scripts is
/// written as it always was.
pub fn write_with(pos: &Position, layout: &Layout) -> String {
    let mut s = String::with_capacity(1600);
    let team_pair = |v: [String; 2]| format!("{{\"ATK\": {}, \"DEF\": {}}}", v[0], v[1]);
    s.push_str("{\n  \"game\": \"ball\",\n");
    s.push_str(&format!("  \"turn\": {},\n", pos.turn));
    s.push_str(&format!("  \"to_move\": \"{}\",\n", pos.to_move));
    let phase = match pos.phase {
        Phase::Action => "action",
        Phase::Release => "release",
    };
    s.push_str(&format!("  \"phase\": \"{phase}\",\n"));
    s.push_str(&format!("  \"ap\": {},\n", pos.ap));
    s.push_str(&format!(
        "  \"score\": {},\n",
        team_pair(pos.score.map(|n| n.to_string()))
    ));
    s.push_str(&format!(
        "  \"ep\": {},\n",
        team_pair(pos.ep.map(|n| n.to_string()))
    ));
    match pos.ball {
        BallState::Held(p) => s.push_str(&format!("  \"ball\": {{\"holder\": \"{p}\"}},\n")),
        BallState::Loose(sq) => s.push_str(&format!("  \"ball\": {{\"loose\": \"{sq}\"}},\n")),
    }
    s.push_str("  \"pieces\": [\n");
    for (i, id) in PieceId::all().enumerate() {
        let p = pos.piece(id);
        s.push_str(&format!(
            "    {{\"id\": \"{id}\", \"kind\": \"{}\", \"at\": \"{}\", \"down\": {}, \"restricted\": {}}}{}\n",
            p.kind.symbol(),
            p.at,
            p.down,
            p.restricted,
            if i + 1 < N_PIECES { "," } else { "" }
        ));
    }
    s.push_str("  ],\n");
    let stacks = pos.stacks.as_slice();
    if stacks.is_empty() {
        s.push_str("  \"stacks\": [],\n");
    } else {
        s.push_str("  \"stacks\": [\n");
        for (i, st) in stacks.iter().enumerate() {
            s.push_str(&format!(
                "    {{\"at\": \"{}\", \"top\": \"{}\", \"bottom\": \"{}\", \"formed\": {}}}{}\n",
                st.at,
                st.top,
                st.bottom,
                st.formed,
                if i + 1 < stacks.len() { "," } else { "" }
            ));
        }
        s.push_str("  ],\n");
    }
    let uses: Vec<String> = pos
        .card_uses
        .iter()
        .map(|u| {
            format!(
                "{{\"team\": \"{}\", \"card\": \"{}\", \"game\": {}, \"turn\": {}}}",
                u.team,
                u.card.key(),
                u.game,
                u.turn
            )
        })
        .collect();
    s.push_str(&format!("  \"cards_used\": [{}],\n", uses.join(", ")));
    if pos.vars.iter().any(|&v| v != 0) {
        s.push_str(&format!("  \"vars\": {},\n", vars_text(pos, layout)));
    }
    if pos.ended_by != 0 {
        let name = layout
            .end_name(pos.ended_by)
            .map_or_else(|| format!("#{}", pos.ended_by), str::to_string);
        s.push_str(&format!("  \"ended_by\": {},\n", Value::String(name)));
    }
    let winner = match pos.outcome {
        None => "null".to_string(),
        Some(Outcome::Winner(t)) => format!("\"{t}\""),
        Some(Outcome::Draw) => "\"draw\"".to_string(),
    };
    s.push_str(&format!("  \"winner\": {winner}\n}}\n"));
    s
}

/// `{"name": 3, "team_name": {"ATK": 1}, "piece_name": {"DEF2": -1}}`:
/// the counters that are not 0, in the ruleset's order.
pub fn vars_text(pos: &Position, layout: &Layout) -> String {
    let mut parts = Vec::new();
    for v in &layout.vars {
        let values = &pos.vars[v.slots()];
        let key = Value::String(v.name.clone());
        match v.scope {
            Scope::Game if values[0] != 0 => parts.push(format!("{key}: {}", values[0])),
            Scope::Game => {}
            Scope::Team | Scope::Piece => {
                let whos: Vec<String> = values
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n != 0)
                    .map(|(i, n)| format!("\"{}\": {n}", who_name(v.scope, i)))
                    .collect();
                if !whos.is_empty() {
                    parts.push(format!("{key}: {{{}}}", whos.join(", ")));
                }
            }
        }
    }
    // A slot no declared counter owns (a position made under another
    // ruleset) is shown by its number rather than lost.
    let owned = |i: usize| {
        layout
            .vars
            .iter()
            .any(|v| (v.slots()).contains(&i))
    };
    for (i, n) in pos.vars.iter().enumerate() {
        if *n != 0 && !owned(i) {
            parts.push(format!("\"#{i}\": {n}"));
        }
    }
    format!("{{{}}}", parts.join(", "))
}

/// A team's or a piece's name as a counter's key: index `i` of its slots.
pub fn who_name(scope: Scope, i: usize) -> String {
    match scope {
        Scope::Game => String::new(),
        Scope::Team => Team::BOTH[i].to_string(),
        Scope::Piece => PieceId(i as u8).to_string(),
    }
}

/// Reads `vars` by the ruleset's counter names.
fn read_vars(obj: &Map<String, Value>, layout: &Layout) -> Result<Vars, PositionError> {
    let mut vars = [0i16; MAX_VARS];
    let Some(v) = obj.get("vars") else {
        return Ok(vars);
    };
    let Value::Object(map) = v else {
        return err("vars", "expected an object of the ruleset's counters");
    };
    let value = |v: &Value, field: &str| -> Result<i16, PositionError> {
        v.as_i64()
            .and_then(|n| i16::try_from(n).ok())
            .ok_or_else(|| PositionError {
                field: field.into(),
                problem: "expected a whole number from -32768 to 32767".into(),
            })
    };
    for (name, v) in map {
        let field = format!("vars.{name}");
        let decl = layout.counter(name).map_err(|problem| PositionError {
            field: field.clone(),
            problem,
        })?;
        match decl.scope {
            Scope::Game => vars[decl.slot] = value(v, &field)?,
            scope => {
                let Value::Object(whos) = v else {
                    return err(field, format!("expected an object by {}", scope.name()));
                };
                for (who, n) in whos {
                    let i = (0..scope.slots())
                        .find(|&i| who_name(scope, i) == *who)
                        .ok_or_else(|| PositionError {
                            field: format!("{field}.{who}"),
                            problem: format!("not a {}", scope.name()),
                        })?;
                    vars[decl.slot + i] = value(n, &format!("{field}.{who}"))?;
                }
            }
        }
    }
    Ok(vars)
}

/// Reads and validates a position.
pub fn read(text: &str, params: &Params) -> Result<Position, PositionError> {
    // A real position is about 2 KB; a huge one (a record's `start:`, a
    // scenario's `position:`) is refused before it is parsed into memory.
    if text.len() as u64 > crate::files::MAX_POSITION {
        return err(
            "(json)",
            format!(
                "{} bytes: larger than the {} a position may be",
                text.len(),
                crate::files::show_size(crate::files::MAX_POSITION)
            ),
        );
    }
    let value: Value = crate::json_line::parse(text).or_else(|e| err("(json)", e.to_string()))?;
    let Value::Object(obj) = value else {
        return err("(json)", "a position is a JSON object");
    };
    if let Some(game) = obj.get("game") {
        match game.as_str() {
            Some("ball") => {}
            Some(other @ ("gateball" | "gball")) => {
                return err("game", format!("`{other}` positions are not supported yet"));
            }
            _ => return err("game", format!("expected \"ball\", got {game}")),
        }
    }
    let turn = uint(&obj, "turn", "turn")?;
    if turn == 0 || turn > u64::from(last_turn(params)) {
        return err(
            "turn",
            format!(
                "{turn} is outside 1..={} (B3.3, B3.6: turn_limit)",
                params.turn_limit
            ),
        );
    }
    let turn = turn as u16;
    let to_move = team(required(&obj, "to_move", "to_move")?, "to_move")?;
    let phase = match required(&obj, "phase", "phase")?.as_str() {
        Some("action") => Phase::Action,
        Some("release") => Phase::Release,
        _ => return err("phase", "expected \"action\" or \"release\""),
    };
    let ap = uint(&obj, "ap", "ap")?;
    if ap > u64::from(turn_ap_cap(params)) {
        return err(
            "ap",
            format!(
                "{ap} is more than the {} AP of a turn (B4.2)",
                params.ap_per_turn
            ),
        );
    }
    if phase == Phase::Release && ap != 0 {
        return err("ap", "AP is 0 in the release phase (B4.3)");
    }
    let score = team_pair(&obj, "score", true)?.map(|n| n as u8);
    let ep = team_pair(&obj, "ep", false)?.map(|n| n as u32);
    let pieces = pieces(&obj, to_move)?;
    let stacks = stacks(&obj, &pieces, turn)?;
    check_squares(&pieces, &stacks)?;
    let ball = ball(&obj, &pieces, &stacks, params)?;
    let outcome = match obj.get("winner") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_str() {
            Some("ATK") => Some(Outcome::Winner(Team::Atk)),
            Some("DEF") => Some(Outcome::Winner(Team::Def)),
            Some("draw") => Some(Outcome::Draw),
            _ => return err("winner", "expected null, \"ATK\", \"DEF\" or \"draw\""),
        },
    };
    check_outcome(outcome, score, turn, params, obj.contains_key("ended_by"))?;
    let card_uses = card_uses(&obj)?;
    let vars = read_vars(&obj, &params.layout)?;
    let ended_by = match obj.get("ended_by") {
        None => 0,
        Some(v) => {
            let name = v.as_str().unwrap_or("");
            let k = params
                .layout
                .ends
                .iter()
                .position(|e| e == name)
                .ok_or_else(|| PositionError {
                    field: "ended_by".into(),
                    problem: format!(
                        "{v} is not one of this ruleset's ends ({})",
                        if params.layout.ends.is_empty() {
                            "it has none".to_string()
                        } else {
                            params.layout.ends.join(", ")
                        }
                    ),
                })?;
            k as u8 + 1
        }
    };
    if ended_by != 0 && outcome.is_none() {
        return err("ended_by", "only a finished game has ended (`winner` is null)");
    }
    let pos = Position {
        ended_by,
        vars,
        card_uses,
        turn,
        to_move,
        phase,
        ap: ap as u8,
        score,
        ep,
        ball,
        pieces,
        stacks,
        outcome,
    };
    // Everything once more on the value: whatever the checks above let
    // through, `check` (the one list of invariants) must not.
    check(&pos, params)?;
    Ok(pos)
}

/// B11.6: the optional record of use-limited cards played.
fn card_uses(obj: &Map<String, Value>) -> Result<CardUses, PositionError> {
    let mut uses = CardUses::default();
    let list = match obj.get("cards_used") {
        None | Some(Value::Null) => return Ok(uses),
        Some(Value::Array(list)) => list,
        Some(_) => return err("cards_used", "expected an array"),
    };
    for (i, v) in list.iter().enumerate() {
        let f = |k: &str| format!("cards_used[{i}].{k}");
        let Some(o) = v.as_object() else {
            return err(format!("cards_used[{i}]"), "expected an object");
        };
        let team = team(required(o, "team", &f("team"))?, &f("team"))?;
        let card_v = required(o, "card", &f("card"))?;
        let card = match card_v.as_str().map(CardId::intern) {
            Some(Ok(c)) => c,
            Some(Err(m)) => return err(f("card"), m),
            None => return err(f("card"), format!("{card_v} is not a card id")),
        };
        let count = |k: &str| -> Result<u8, PositionError> {
            let n = uint(o, k, &f(k))?;
            u8::try_from(n).or_else(|_| err(f(k), format!("{n} is more than 255")))
        };
        let u = CardUse {
            team,
            card,
            game: count("game")?,
            turn: count("turn")?,
        };
        if uses.get(team, card) != (0, 0) {
            return err(f("card"), format!("{team} {} appears twice", card.name()));
        }
        if !uses.set(u) {
            return err("cards_used", "more than 16 entries");
        }
    }
    Ok(uses)
}

fn required<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    field: &str,
) -> Result<&'a Value, PositionError> {
    obj.get(key).ok_or_else(|| PositionError {
        field: field.to_string(),
        problem: "missing".into(),
    })
}

fn uint(obj: &Map<String, Value>, key: &str, field: &str) -> Result<u64, PositionError> {
    let v = required(obj, key, field)?;
    v.as_u64().map_or_else(
        || err(field, format!("expected a whole number ≥ 0, got {v}")),
        Ok,
    )
}

fn team(v: &Value, field: &str) -> Result<Team, PositionError> {
    v.as_str().and_then(Team::parse).map_or_else(
        || err(field, format!("expected \"ATK\" or \"DEF\", got {v}")),
        Ok,
    )
}

fn team_pair(obj: &Map<String, Value>, key: &str, needed: bool) -> Result<[u64; 2], PositionError> {
    let Some(v) = obj.get(key) else {
        return if needed {
            err(key, "missing")
        } else {
            Ok([0, 0])
        };
    };
    let Some(o) = v.as_object() else {
        return err(key, "expected {\"ATK\": n, \"DEF\": n}");
    };
    let mut out = [0; 2];
    for t in Team::BOTH {
        let n = uint(o, t.name(), &format!("{key}.{t}"))?;
        let most = if key == "score" {
            255
        } else {
            u64::from(u32::MAX)
        };
        if n > most {
            return err(format!("{key}.{t}"), format!("{n} is more than {most}"));
        }
        out[t as usize] = n;
    }
    Ok(out)
}

fn piece_id(v: &Value, field: &str) -> Result<PieceId, PositionError> {
    v.as_str()
        .filter(|s| s.len() == 4 && s.bytes().all(|b| !b.is_ascii_lowercase()))
        .and_then(PieceId::parse)
        .map_or_else(
            || {
                err(
                    field,
                    format!("{v} is not a piece id (B2.1: ATK1-ATK7, DEF1-DEF7)"),
                )
            },
            Ok,
        )
}

fn square(v: &Value, field: &str) -> Result<Sq, PositionError> {
    let Some(s) = v.as_str() else {
        return err(field, format!("expected a square name, got {v}"));
    };
    if s.bytes().any(|b| b.is_ascii_lowercase()) {
        return err(field, format!("`{s}`: square names are upper case (B1.1)"));
    }
    Sq::parse(s).or_else(|e| err(field, e.describe(s)))
}

fn flag(o: &Map<String, Value>, key: &str, field: &str) -> Result<bool, PositionError> {
    match o.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => err(field, format!("expected true or false, got {v}")),
    }
}

fn pieces(obj: &Map<String, Value>, to_move: Team) -> Result<[Piece; N_PIECES], PositionError> {
    let Some(list) = required(obj, "pieces", "pieces")?.as_array() else {
        return err("pieces", "expected an array of the 14 pieces");
    };
    let mut out: [Option<Piece>; N_PIECES] = [None; N_PIECES];
    for (i, v) in list.iter().enumerate() {
        let f = |k: &str| format!("pieces[{i}].{k}");
        let Some(o) = v.as_object() else {
            return err(format!("pieces[{i}]"), "expected an object");
        };
        let id = piece_id(required(o, "id", &f("id"))?, &f("id"))?;
        let kind_v = required(o, "kind", &f("kind"))?;
        let kind = kind_v.as_str().and_then(Kind::parse).map_or_else(
            || {
                err(
                    f("kind"),
                    format!("{kind_v} is not a kind (B2.2: \"X\", \"O\" or \"#\")"),
                )
            },
            Ok,
        )?;
        let at = square(required(o, "at", &f("at"))?, &f("at"))?;
        let piece = Piece {
            kind,
            at,
            down: flag(o, "down", &f("down"))?,
            restricted: flag(o, "restricted", &f("restricted"))?,
        };
        if piece.restricted && id.team() != to_move {
            return err(
                f("restricted"),
                format!(
                    "{id} is restricted, but restrictions end when the turn passes and it is {to_move}'s turn (B4.5)"
                ),
            );
        }
        if out[id.index()].replace(piece).is_some() {
            return err(f("id"), format!("{id} appears twice (B2.1)"));
        }
    }
    let mut pieces = [Piece {
        kind: Kind::X,
        at: Sq(0),
        down: false,
        restricted: false,
    }; N_PIECES];
    for id in PieceId::all() {
        match out[id.index()] {
            Some(p) => pieces[id.index()] = p,
            None => {
                return err(
                    "pieces",
                    format!("{id} is missing: a position has all 14 pieces (B2.1)"),
                );
            }
        }
    }
    Ok(pieces)
}

fn stacks(
    obj: &Map<String, Value>,
    pieces: &[Piece; N_PIECES],
    turn: u16,
) -> Result<Stacks, PositionError> {
    let mut stacks = Stacks::default();
    let list = match obj.get("stacks") {
        None | Some(Value::Null) => return Ok(stacks),
        Some(Value::Array(list)) => list,
        Some(_) => return err("stacks", "expected an array"),
    };
    let mut used: u16 = 0;
    for (i, v) in list.iter().enumerate() {
        let f = |k: &str| format!("stacks[{i}].{k}");
        let Some(o) = v.as_object() else {
            return err(format!("stacks[{i}]"), "expected an object");
        };
        let at = square(required(o, "at", &f("at"))?, &f("at"))?;
        let top = piece_id(required(o, "top", &f("top"))?, &f("top"))?;
        let bottom = piece_id(required(o, "bottom", &f("bottom"))?, &f("bottom"))?;
        let formed = uint(o, "formed", &f("formed"))?;
        if formed == 0 || formed > u64::from(turn) {
            return err(
                f("formed"),
                format!("turn {formed} is not between 1 and the current turn {turn}"),
            );
        }
        if top == bottom {
            return err(
                f("bottom"),
                format!("{top} cannot be both top and bottom: a stack is two pieces (B7.1)"),
            );
        }
        for (who, id) in [("top", top), ("bottom", bottom)] {
            if used & (1 << id.0) != 0 {
                return err(f(who), format!("{id} is in two stacks (B7.1)"));
            }
            used |= 1 << id.0;
            if pieces[id.index()].at != at {
                return err(
                    f(who),
                    format!(
                        "{id} stands on {}, not on the stack's {at}",
                        pieces[id.index()].at
                    ),
                );
            }
        }
        if pieces[top.index()].down {
            return err(
                f("top"),
                format!("{top} is down, but a top is the piece that moved on (B7.1)"),
            );
        }
        if stacks.at(at).is_some() {
            return err(f("at"), format!("two stacks on {at} (B7.4)"));
        }
        if !stacks.insert(Stack {
            at,
            top,
            bottom,
            formed: formed as u16,
        }) {
            return err(
                format!("stacks[{i}]"),
                "more than 7 stacks (B7.1: 14 pieces, two a stack)",
            );
        }
    }
    Ok(stacks)
}

/// No two pieces on a square except the two of a stack (B2.5, B7.4).
fn check_squares(pieces: &[Piece; N_PIECES], stacks: &Stacks) -> Result<(), PositionError> {
    // Fast path (every script's change passes here): the squares holding
    // two pieces are the stacks' squares, and the counts add up to two
    // pieces a stack square, one on every other.
    let (mut seen, mut doubled) = (0u128, 0u128);
    for p in pieces {
        doubled |= seen & p.at.bit();
        seen |= p.at.bit();
    }
    let stacked: u128 = stacks.as_slice().iter().fold(0, |m, s| m | s.at.bit());
    if doubled == stacked
        && stacked.count_ones() as usize == stacks.as_slice().len()
        && seen.count_ones() as usize + stacks.as_slice().len() == N_PIECES
    {
        return Ok(());
    }
    for sq in Sq::all() {
        let on: Vec<PieceId> = PieceId::all()
            .filter(|p| pieces[p.index()].at == sq)
            .collect();
        let stacked = stacks.at(sq).is_some();
        match (on.len(), stacked) {
            (0 | 1, false) | (2, true) => {}
            (_, false) => {
                let names: Vec<String> = on.iter().map(|p| p.to_string()).collect();
                return err(
                    "pieces",
                    format!(
                        "{} share {sq} without a stack (B7.1: only a stack puts two pieces on a square)",
                        names.join(" and ")
                    ),
                );
            }
            (n, true) => {
                return err(
                    "stacks",
                    format!(
                        "the stack on {sq} has {n} pieces there; a stack is exactly two (B7.1)"
                    ),
                );
            }
        }
    }
    Ok(())
}

fn ball(
    obj: &Map<String, Value>,
    pieces: &[Piece; N_PIECES],
    stacks: &Stacks,
    params: &Params,
) -> Result<BallState, PositionError> {
    let v = required(obj, "ball", "ball")?;
    let Some(o) = v.as_object() else {
        return err(
            "ball",
            "expected {\"holder\": piece} or {\"loose\": square}",
        );
    };
    match (o.get("holder"), o.get("loose")) {
        (Some(h), None) => {
            let id = piece_id(h, "ball.holder")?;
            if params.stack_top_takes_ball && stacks.as_slice().iter().any(|s| s.bottom == id) {
                return err(
                    "ball.holder",
                    format!("{id} is a stack's bottom; its top takes the ball (B7.3)"),
                );
            }
            Ok(BallState::Held(id))
        }
        (None, Some(l)) => {
            let sq = square(l, "ball.loose")?;
            if pieces.iter().any(|p| p.at == sq) {
                return err(
                    "ball.loose",
                    format!("{sq} holds a piece; a loose ball lies on a square with none (B2.4)"),
                );
            }
            Ok(BallState::Loose(sq))
        }
        _ => err(
            "ball",
            "exactly one of \"holder\" and \"loose\" (B2.4: one ball)",
        ),
    }
}

/// B3.6 between `winner` and the score: the reader's and [`check`]'s one
/// rule (a winner is the score's, and a game that has one has ended;
/// touchdowns enough end it).
fn check_outcome(
    outcome: Option<Outcome>,
    score: [u8; 2],
    turn: u16,
    params: &Params,
    by_script: bool,
) -> Result<(), PositionError> {
    let [atk, def] = score;
    if by_script {
        // A variant's end names its own winner, whenever it likes.
        return Ok(());
    }
    match outcome {
        Some(outcome) => {
            if outcome != Outcome::by_score(score) {
                return err(
                    "winner",
                    format!(
                        "the score is ATK {atk} - DEF {def}; more touchdowns wins, equal is a draw (B3.6)"
                    ),
                );
            }
            if atk.max(def) < params.touchdowns_to_win
                && turn < params.turn_limit
                && !params.scripted_end
            {
                return err(
                    "winner",
                    format!(
                        "a game ends at {} touchdowns or after turn {} (B3.6); this one has neither",
                        params.touchdowns_to_win, params.turn_limit
                    ),
                );
            }
        }
        None if params.layout.hooks("ending") => {}
        None => {
            for t in Team::BOTH {
                if score[t as usize] >= params.touchdowns_to_win {
                    return err(
                        format!("score.{t}"),
                        format!(
                            "{} touchdowns end the game (B3.6: touchdowns_to_win = {}), but `winner` is null",
                            score[t as usize], params.touchdowns_to_win
                        ),
                    );
                }
            }
        }
    }
    Ok(())
}

/// Every invariant a position must keep, on the value: what the reader
/// accepts, and what a card's effect or a variant's change must pass
/// before it is committed (B11.7). The reader runs it on every position it
/// reads, so a position this accepts is one `read(write(pos))` accepts:
/// the engine never prints a position it would refuse. Fields are named
/// as `write` lays them out (pieces in id order, stacks in board order).
pub fn check(pos: &Position, params: &Params) -> Result<(), PositionError> {
    if pos.turn == 0 || pos.turn > last_turn(params) {
        return err(
            "turn",
            format!(
                "{} is outside 1..={} (B3.3, B3.6: turn_limit)",
                pos.turn,
                last_turn(params)
            ),
        );
    }
    if pos.ap > turn_ap_cap(params) {
        return err(
            "ap",
            format!(
                "{} is more than the {} AP of a turn (B4.2)",
                pos.ap, params.ap_per_turn
            ),
        );
    }
    if pos.phase == Phase::Release && pos.ap != 0 {
        return err("ap", "AP is 0 in the release phase (B4.3)");
    }
    for id in PieceId::all() {
        if pos.piece(id).restricted && id.team() != pos.to_move {
            return err(
                format!("pieces[{}].restricted", id.index()),
                format!(
                    "{id} is restricted, but restrictions end when the turn passes and it is {}'s turn (B4.5)",
                    pos.to_move
                ),
            );
        }
    }
    let mut used: u16 = 0;
    for (i, s) in pos.stacks.as_slice().iter().enumerate() {
        let f = |k: &str| format!("stacks[{i}].{k}");
        if s.formed == 0 || s.formed > pos.turn {
            return err(
                f("formed"),
                format!(
                    "turn {} is not between 1 and the current turn {}",
                    s.formed, pos.turn
                ),
            );
        }
        if s.top == s.bottom {
            return err(
                f("bottom"),
                format!(
                    "{} cannot be both top and bottom: a stack is two pieces (B7.1)",
                    s.top
                ),
            );
        }
        for (who, id) in [("top", s.top), ("bottom", s.bottom)] {
            if used & (1 << id.0) != 0 {
                return err(f(who), format!("{id} is in two stacks (B7.1)"));
            }
            used |= 1 << id.0;
            if pos.piece(id).at != s.at {
                return err(
                    f(who),
                    format!(
                        "{id} stands on {}, not on the stack's {}",
                        pos.piece(id).at,
                        s.at
                    ),
                );
            }
        }
        if pos.piece(s.top).down {
            return err(
                f("top"),
                format!(
                    "{} is down, but a top is the piece that moved on (B7.1)",
                    s.top
                ),
            );
        }
        if pos.stacks.as_slice()[..i].iter().any(|o| o.at == s.at) {
            return err(f("at"), format!("two stacks on {} (B7.4)", s.at));
        }
    }
    check_squares(&pos.pieces, &pos.stacks)?;
    match pos.ball {
        BallState::Held(id) => {
            if params.stack_top_takes_ball && pos.stacks.as_slice().iter().any(|s| s.bottom == id) {
                return err(
                    "ball.holder",
                    format!("{id} is a stack's bottom; its top takes the ball (B7.3)"),
                );
            }
        }
        BallState::Loose(sq) => {
            if pos.pieces.iter().any(|p| p.at == sq) {
                return err(
                    "ball.loose",
                    format!("{sq} holds a piece; a loose ball lies on a square with none (B2.4)"),
                );
            }
        }
    }
    check_outcome(pos.outcome, pos.score, pos.turn, params, pos.ended_by != 0)?;
    if pos.ended_by != 0 && (pos.outcome.is_none() || params.layout.end_name(pos.ended_by).is_none()) {
        return err("ended_by", "not one of this ruleset's ends of a finished game");
    }
    if pos.phase == Phase::Release && !pos.is_over() && !has_task(pos, params) {
        return err(
            "phase",
            "a release phase with no legal task never rests: the turn has passed (B10.1)",
        );
    }
    Ok(())
}

/// The last turn a position may have: `turn_limit`, or any while a
/// variant that decides the end plays on.
fn last_turn(params: &Params) -> u16 {
    if params.layout.hooks("ending") {
        u16::MAX
    } else {
        params.turn_limit
    }
}

/// The most AP a position may have left.
fn turn_ap_cap(params: &Params) -> u8 {
    if params.layout.hooks("turn_ap") {
        params.ap_per_turn.max(MAX_TURN_AP)
    } else {
        params.ap_per_turn
    }
}

/// [`check`], under the name the script host has always called it.
pub fn validate(pos: &Position, params: &Params) -> Result<(), PositionError> {
    check(pos, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let params = Params::default();
        let pos = Position::start(&params);
        let text = write(&pos);
        assert_eq!(read(&text, &params), Ok(pos));
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["pieces"][0]["id"], "ATK1");
        assert_eq!(v["ball"]["holder"], "ATK5");
        assert_eq!(v["winner"], Value::Null);
    }
}
