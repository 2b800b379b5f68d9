//! The position JSON of `docs/rules/ball-notation.md`: written in one canonical layout,
//! read leniently (unknown fields ignored, optional fields defaulted) but
//! validated strictly: every invariant of B1–B10 a position must keep.
//!
//! A refused position names the field and the rule it breaks.

use serde_json::{Map, Value};

use super::action::CardId;
use super::board::Sq;
use super::movegen::has_task;
use super::params::Params;
use super::piece::{Kind, N_PIECES, PieceId, Team};
use super::position::{
    BallState, CardUse, CardUses, Outcome, Phase, Piece, Position, Stack, Stacks,
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
                u.card.name(),
                u.game,
                u.turn
            )
        })
        .collect();
    s.push_str(&format!("  \"cards_used\": [{}],\n", uses.join(", ")));
    let winner = match pos.outcome {
        None => "null".to_string(),
        Some(Outcome::Winner(t)) => format!("\"{t}\""),
        Some(Outcome::Draw) => "\"draw\"".to_string(),
    };
    s.push_str(&format!("  \"winner\": {winner}\n}}\n"));
    s
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
    let value: Value = serde_json::from_str(text).or_else(|e| err("(json)", e.to_string()))?;
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
    if turn == 0 || turn > u64::from(params.turn_limit) {
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
    if ap > u64::from(params.ap_per_turn) {
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
    check_outcome(outcome, score, turn, params)?;
    let card_uses = card_uses(&obj)?;
    let pos = Position {
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
) -> Result<(), PositionError> {
    let [atk, def] = score;
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
    if pos.turn == 0 || pos.turn > params.turn_limit {
        return err(
            "turn",
            format!(
                "{} is outside 1..={} (B3.3, B3.6: turn_limit)",
                pos.turn, params.turn_limit
            ),
        );
    }
    if pos.ap > params.ap_per_turn {
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
    check_outcome(pos.outcome, pos.score, pos.turn, params)?;
    if pos.phase == Phase::Release && !pos.is_over() && !has_task(pos, params) {
        return err(
            "phase",
            "a release phase with no legal task never rests: the turn has passed (B10.1)",
        );
    }
    Ok(())
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
