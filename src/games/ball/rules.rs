//! The reference checker: each rule of `docs/rules/ball.md` stated for one action at a
//! time, in the order a reader checks them, returning the rule that
//! forbids the action.
//!
//! It serves two purposes: it tells a user *why* an action is illegal, and
//! it is the slow, plain second opinion the property tests hold the fast
//! generator ([`super::movegen`]) to. Keep it plain: coordinates and
//! loops, no square sets shared with the generator.

use super::action::Action;
use super::board::Sq;
use super::params::Params;
use super::piece::{Kind, PieceId};
use super::position::{BallState, Phase, Position};

/// Why an action is not legal: the rule id and a sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal action `{action}`: {reason} ({rule})")]
pub struct Illegal {
    pub action: Action,
    pub rule: &'static str,
    pub reason: String,
}

type Check = Result<(), (&'static str, String)>;

fn fail(rule: &'static str, reason: impl Into<String>) -> Check {
    Err((rule, reason.into()))
}

/// Is `action` legal in `pos`? `Err` names the first rule it breaks.
pub fn check(pos: &Position, params: &Params, action: Action) -> Result<(), Illegal> {
    check_inner(pos, params, action).map_err(|(rule, reason)| Illegal {
        action,
        rule,
        reason,
    })
}

fn check_inner(pos: &Position, params: &Params, a: Action) -> Check {
    if pos.is_over() {
        return fail("B3.6", "the game is over");
    }
    if params.forbidden.contains(a.verb()) {
        return fail(
            "ruleset",
            format!(
                "`{}` is forbidden by this ruleset's variant",
                a.verb().name()
            ),
        );
    }
    match (pos.phase, a.is_task()) {
        (Phase::Action, true) => {
            return fail(
                "B10.1",
                "standup and release are release-phase tasks, after `end`",
            );
        }
        (Phase::Release, false) => {
            return fail(
                "B10.1",
                "the release phase allows only its tasks (standup, release)",
            );
        }
        _ => {}
    }
    match a {
        Action::Move { piece, to } => {
            actor(pos, piece)?;
            cost(pos, 1)?;
            let jump = geometry(pos, piece, to)?;
            if jump == Jump::Diagonal2 {
                path(pos, piece, to)?;
            }
            if occupants(pos, to) > 0 {
                return fail(
                    "B5.3",
                    format!("{to} holds a piece: a plain move needs an empty square"),
                );
            }
            Ok(())
        }
        Action::Dodge { piece, to, exit } => {
            actor(pos, piece)?;
            cost(pos, 1)?;
            let jump = geometry(pos, piece, to)?;
            if jump == Jump::Diagonal1 {
                return fail("B5.3", "a dodge is a 2-square move");
            }
            if jump == Jump::Diagonal2 {
                path(pos, piece, to)?;
            }
            lone_active_opponent(pos, piece, to, "B5.3")?;
            if to.distance(exit) != 1 {
                return fail("B5.4", format!("the exit {exit} is not next to {to}"));
            }
            if occupants(pos, exit) > 0 {
                return fail("B5.4", format!("the exit {exit} holds a piece"));
            }
            Ok(())
        }
        Action::TDodge { piece, to, push } => {
            actor(pos, piece)?;
            cost(pos, 1)?;
            let from = pos.piece(piece).at;
            let jump = geometry(pos, piece, to)?;
            if jump != Jump::Diagonal2 {
                return fail("B6.1", "a tactical dodge is a 2-square diagonal move");
            }
            let mid = midpoint(from, to);
            lone_active_opponent(pos, piece, mid, "B6.1")?;
            if occupants(pos, to) > 0 {
                return fail("B6.1", format!("the landing square {to} holds a piece"));
            }
            if mid.distance(push) != 1 || push == to || push == from {
                return fail(
                    "B6.2",
                    format!("{push} is not a square beside the path next to {mid}"),
                );
            }
            if occupants(pos, push) > 0 || pos.loose_ball() == Some(push) {
                return fail("B6.2", format!("the push square {push} is not empty"));
            }
            Ok(())
        }
        Action::Block { piece, to } | Action::Protect { piece, to } => {
            actor(pos, piece)?;
            cost(pos, 1)?;
            if pos.piece(piece).at.distance(to) != 1 {
                return fail("B7.1", "a block or protect is a 1-square diagonal move");
            }
            if pos.stacks.at(to).is_some() {
                return fail("B7.4", format!("{to} holds a stack and is closed"));
            }
            let Some(bottom) = single_piece(pos, to) else {
                return fail("B7.1", format!("{to} holds no piece to stack on"));
            };
            let own = bottom.team() == piece.team();
            match (a, own) {
                (Action::Block { .. }, true) => fail(
                    "B7.1",
                    format!("{bottom} is a team-mate: that is `protect`"),
                ),
                (Action::Protect { .. }, false) => {
                    fail("B7.1", format!("{bottom} is an opponent: that is `block`"))
                }
                _ => Ok(()),
            }
        }
        Action::Handoff { from, to } => {
            holder(pos, from)?;
            receiver(pos, from, to)?;
            let d = pos.piece(from).at.distance(pos.piece(to).at);
            if params.handoff_network {
                if !network(pos, from).contains(&to) {
                    return fail(
                        "B12.1",
                        format!("{to} is not in {from}'s network of adjacent active team-mates"),
                    );
                }
            } else if d != 1 {
                return fail("B8.1", format!("{to} is not next to {from} (distance {d})"));
            }
            Ok(())
        }
        Action::SPass { from, to, at } => {
            holder(pos, from)?;
            cost(pos, 1)?;
            receiver(pos, from, to)?;
            let d = pos.piece(from).at.distance(pos.piece(to).at);
            if d > params.short_pass_range {
                return fail(
                    "B8.2",
                    format!(
                        "{to} is {d} squares away; a short pass reaches {}",
                        params.short_pass_range
                    ),
                );
            }
            if pos.piece(to).at.distance(at) != 1 {
                return fail(
                    "B8.2",
                    format!("the reception square {at} is not next to {to}"),
                );
            }
            if occupants(pos, at) > 0 {
                return fail("B8.2", format!("the reception square {at} holds a piece"));
            }
            Ok(())
        }
        Action::LPass { from, to } => {
            holder(pos, from)?;
            cost(pos, 2)?;
            if occupants(pos, to) > 0 {
                return fail("B8.3", format!("{to} holds a piece"));
            }
            if let Some(max) = params.long_pass_max_distance {
                let d = pos.piece(from).at.distance(to);
                if d > max {
                    return fail(
                        "ruleset",
                        format!("{to} is {d} from {from}; this ruleset's long pass reaches {max}"),
                    );
                }
            }
            for id in PieceId::of_team(from.team()) {
                let d = pos.piece(id).at.distance(to);
                if d < params.long_pass_min_distance {
                    return fail(
                        "B8.3",
                        format!(
                            "{to} is {d} from {id}; a long pass lands at least {} from every own piece",
                            params.long_pass_min_distance
                        ),
                    );
                }
            }
            Ok(())
        }
        Action::Convert { .. } => fail("B11.4", "`convert` needs card mode, which is off"),
        Action::Card { .. } => fail("B11.6", "card actions need card mode, which is off"),
        Action::End => Ok(()),
        Action::StandUp { piece, to } => {
            own(pos, piece)?;
            let p = pos.piece(piece);
            if !p.down {
                return fail("B10.2", format!("{piece} is not down"));
            }
            if pos.is_stacked(piece) {
                return fail("B10.2", format!("{piece} is in a stack"));
            }
            if p.at.distance(to) != 1 {
                return fail("B10.2", format!("{to} is not next to {piece}"));
            }
            if occupants(pos, to) > 0 || pos.loose_ball() == Some(to) {
                return fail("B10.2", format!("{to} is not empty"));
            }
            Ok(())
        }
        Action::Release {
            top,
            top_to,
            bottom_to,
            keep,
        } => {
            let Some(stack) = pos.stacks.with_top(top).copied() else {
                return fail("B10.3", format!("{top} is not the top of a stack"));
            };
            if top.team() != pos.to_move {
                return fail("B10.4", format!("{top} belongs to the other coach"));
            }
            if stack.formed >= pos.turn {
                return fail("B10.4", "the stack was formed this turn");
            }
            for (who, sq) in [("top", top_to), ("bottom", bottom_to)] {
                if stack.at.distance(sq) != 1 {
                    return fail(
                        "B10.3",
                        format!("the {who}'s {sq} is not next to {}", stack.at),
                    );
                }
                if occupants(pos, sq) > 0 || pos.loose_ball() == Some(sq) {
                    return fail("B10.3", format!("the {who}'s {sq} is not empty"));
                }
            }
            if top_to == bottom_to {
                return fail("B10.3", "top and bottom need two different squares");
            }
            let holder = pos.holder();
            let ball_in_stack = holder == Some(top) || holder == Some(stack.bottom);
            match keep {
                None if ball_in_stack => fail(
                    "B10.3",
                    "the stack has the ball: say who keeps it (`keep` + piece)",
                ),
                Some(_) if !ball_in_stack => fail("B10.3", "the stack has no ball to keep"),
                Some(k) if k != top && k != stack.bottom => {
                    fail("B10.3", format!("{k} is not in this stack"))
                }
                Some(k)
                    if params.keep_choice_needs_top
                        && holder == Some(stack.bottom)
                        && k != stack.bottom =>
                {
                    fail(
                        "B12.3",
                        format!(
                            "only a top holding the ball lets the coach choose: {} keeps it",
                            stack.bottom
                        ),
                    )
                }
                _ => Ok(()),
            }
        }
    }
}

/// B12.1 (SV): every team-mate joined to `holder` through adjacent active,
/// unstacked team-mates.
fn network(pos: &Position, holder: PieceId) -> Vec<PieceId> {
    let mut reached = vec![holder];
    let mut i = 0;
    while i < reached.len() {
        let at = pos.piece(reached[i]).at;
        for q in PieceId::of_team(holder.team()) {
            let r = pos.piece(q);
            if !reached.contains(&q) && !r.down && !pos.is_stacked(q) && at.distance(r.at) == 1 {
                reached.push(q);
            }
        }
        i += 1;
    }
    reached.remove(0);
    reached
}

/// B4.2: the AP the action costs.
fn cost(pos: &Position, ap: u8) -> Check {
    if pos.ap < ap {
        return fail(
            "B4.2",
            format!(
                "it costs {ap} AP and {} AP {} left",
                pos.ap,
                if pos.ap == 1 { "is" } else { "are" }
            ),
        );
    }
    Ok(())
}

fn own(pos: &Position, piece: PieceId) -> Check {
    if piece.team() != pos.to_move {
        return fail(
            "B4.4",
            format!(
                "{piece} is not a piece of {}, whose turn it is",
                pos.to_move
            ),
        );
    }
    Ok(())
}

/// B4.4: only an own, active, unrestricted, unstacked piece starts an action.
fn actor(pos: &Position, piece: PieceId) -> Check {
    own(pos, piece)?;
    if pos.piece(piece).down {
        return fail("B4.4", format!("{piece} is down"));
    }
    if pos.is_stacked(piece) {
        return fail("B7.2", format!("{piece} is in a stack"));
    }
    if pos.piece(piece).restricted {
        return fail("B4.5", format!("{piece} is restricted this turn"));
    }
    Ok(())
}

/// B8.4: the active, unrestricted ball holder.
fn holder(pos: &Position, piece: PieceId) -> Check {
    actor(pos, piece)?;
    if pos.ball != BallState::Held(piece) {
        return fail("B8.4", format!("{piece} does not hold the ball"));
    }
    Ok(())
}

/// B8.1, B8.2, B7.2: an active, unstacked team-mate.
fn receiver(pos: &Position, from: PieceId, to: PieceId) -> Check {
    if to == from {
        return fail("B8.1", format!("{from} cannot pass to itself"));
    }
    if to.team() != from.team() {
        return fail("B8.1", format!("{to} is not a team-mate of {from}"));
    }
    if pos.piece(to).down {
        return fail("B8.1", format!("{to} is down"));
    }
    if pos.is_stacked(to) {
        return fail("B7.2", format!("{to} is in a stack"));
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Jump {
    Diagonal1,
    Diagonal2,
    Orthogonal2,
}

/// B5.1: the kind's move patterns.
fn geometry(pos: &Position, piece: PieceId, to: Sq) -> Result<Jump, (&'static str, String)> {
    let p = pos.piece(piece);
    let (a, b) = (p.at.coord(), to.coord());
    let (dc, dr) = (a.col.abs_diff(b.col), a.row.abs_diff(b.row));
    let jump = match (dc, dr) {
        (1, 1) => Some(Jump::Diagonal1),
        (2, 2) => Some(Jump::Diagonal2),
        (2, 0) | (0, 2) => Some(Jump::Orthogonal2),
        _ => None,
    };
    let allowed = matches!(
        (p.kind, jump),
        (_, Some(Jump::Diagonal1))
            | (Kind::X | Kind::Square, Some(Jump::Diagonal2))
            | (Kind::O | Kind::Square, Some(Jump::Orthogonal2))
    );
    match jump {
        Some(j) if allowed => Ok(j),
        _ => Err((
            "B5.1",
            format!(
                "{piece} ({}) cannot reach {to} from {}: {}",
                p.kind.symbol(),
                p.at,
                match p.kind {
                    Kind::X => "X moves 1 or 2 squares diagonally",
                    Kind::O => "O moves 1 square diagonally or 2 orthogonally",
                    Kind::Square => "# moves 1 or 2 squares diagonally or 2 orthogonally",
                }
            ),
        )),
    }
}

/// B5.2: the middle square of a 2-square diagonal move.
fn path(pos: &Position, piece: PieceId, to: Sq) -> Check {
    let mid = midpoint(pos.piece(piece).at, to);
    if pos.stacks.at(mid).is_some() {
        return fail("B5.2", format!("the path crosses the stack on {mid}"));
    }
    if let Some(p) = single_piece(pos, mid)
        && pos.piece(p).down
    {
        return fail(
            "B5.2",
            format!("the path crosses {p}, which is down on {mid}"),
        );
    }
    Ok(())
}

/// Exactly one active, unstacked opponent of `piece` on `sq`.
fn lone_active_opponent(pos: &Position, piece: PieceId, sq: Sq, rule: &'static str) -> Check {
    if pos.stacks.at(sq).is_some() {
        return fail(rule, format!("{sq} holds a stack"));
    }
    match single_piece(pos, sq) {
        None => fail(rule, format!("{sq} holds no opponent")),
        Some(o) if o.team() == piece.team() => fail(rule, format!("{o} on {sq} is a team-mate")),
        Some(o) if pos.piece(o).down => fail(rule, format!("{o} on {sq} is down")),
        Some(_) => Ok(()),
    }
}

fn occupants(pos: &Position, sq: Sq) -> usize {
    pos.pieces.iter().filter(|p| p.at == sq).count()
}

/// The piece on `sq` when there is exactly one.
fn single_piece(pos: &Position, sq: Sq) -> Option<PieceId> {
    let mut on = PieceId::all().filter(|&p| pos.piece(p).at == sq);
    let first = on.next()?;
    on.next().is_none().then_some(first)
}

fn midpoint(from: Sq, to: Sq) -> Sq {
    from.midpoint(to)
        .expect("a 2-square diagonal has a middle square")
}

/// A superset of the legal actions of `pos`: every action whose pieces and
/// squares are near enough to matter, legal or not. The property tests
/// check each against the generator; it is deliberately generous (any
/// piece, either team, either phase) so that refusals are exercised too.
pub fn candidates(pos: &Position) -> Vec<Action> {
    use super::board::squares;
    let mut out = vec![Action::End, Action::Convert { ap: 1 }];
    for piece in PieceId::all() {
        let at = pos.piece(piece).at;
        for to in squares(at.within(2)) {
            out.push(Action::Move { piece, to });
            out.push(Action::Block { piece, to });
            out.push(Action::Protect { piece, to });
            out.push(Action::StandUp { piece, to });
            for exit in squares(to.within(1)) {
                out.push(Action::Dodge { piece, to, exit });
            }
            let around = at.midpoint(to).unwrap_or(to);
            for push in squares(around.within(1)) {
                out.push(Action::TDodge { piece, to, push });
            }
        }
        for to in PieceId::all() {
            out.push(Action::Handoff { from: piece, to });
            for at in squares(pos.piece(to).at.within(1)) {
                out.push(Action::SPass {
                    from: piece,
                    to,
                    at,
                });
            }
        }
        for to in Sq::all() {
            out.push(Action::LPass { from: piece, to });
        }
        let mut keeps = vec![None, Some(piece)];
        if let Some(s) = pos.stacks.with_top(piece) {
            keeps.push(Some(s.bottom));
        }
        for top_to in squares(at.within(1)) {
            for bottom_to in squares(at.within(1)) {
                for &keep in &keeps {
                    out.push(Action::Release {
                        top: piece,
                        top_to,
                        bottom_to,
                        keep,
                    });
                }
            }
        }
    }
    out
}
