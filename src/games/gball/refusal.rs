//! Why an action is not legal: one line naming the action and the rule
//! (notation, "Command-line contract"). Only called for refused actions,
//! so it may take its time.

use super::action::{Action, Way};
use super::board::{self, NONE};
use super::position::{Id, Pending, Position, ResKind, Status, bit, team_of};
use super::rules;
use super::{Gball, Team};

fn describe(p: &Pending) -> String {
    match *p {
        Pending::Place(t) => format!("`place` for {t}"),
        Pending::Move(p) => format!("`move` of {}", Id(p)),
        Pending::Turn { actor, target } => format!("`turn {} {}`", Id(actor), Id(target)),
        Pending::Decline(t) => format!("`decline` for {t}"),
        Pending::Receivers(t) => format!("`receivers` for {t}"),
        Pending::Block(b) => format!("`block` of {}", Id(b)),
        Pending::Catch(t) => format!("`catch` for {t}"),
        Pending::Aim(t) => format!("`aim` for {t}"),
        Pending::Act(h) => format!("`act` of {}", Id(h)),
    }
}

/// The reason `action` is refused in `pos`.
pub fn why(g: &Gball, pos: &Position, action: Action) -> String {
    let head = format!("illegal action `{action}`");
    let Some(pending) = pos.pending else {
        return format!("{head}: the match is over (G3.7)");
    };
    if action.decision() != pending.kind() {
        return format!(
            "{head}: the pending decision is {} (G5.4)",
            describe(&pending)
        );
    }
    let wrong = |what: &str, rule: &str| {
        format!(
            "{head}: {what}; the pending decision is {} ({rule})",
            describe(&pending)
        )
    };
    match (pending, action) {
        (Pending::Place(t), Action::Place { player, square }) => {
            let pl = pos.player(player);
            if team_of(player) != t {
                wrong(&format!("{} is not {t}'s", Id(player)), "G4.3")
            } else if pos.roster & bit(player) == 0 {
                format!("{head}: {} is not on {t}'s roster (G2.1)", Id(player))
            } else if pl.out != Status::None {
                format!(
                    "{head}: {} is not available: status {} (G4.1, G13.4)",
                    Id(player),
                    pl.out.name()
                )
            } else if pl.at != NONE {
                format!("{head}: {} is already on court (G4.3)", Id(player))
            } else if !board::is_placement_square(square, t) {
                format!(
                    "{head}: a player is placed on a wall square of his own half, never F1 or F6 (G4.3)"
                )
            } else {
                format!("{head}: not a legal placement (G4.3)")
            }
        }
        (Pending::Move(p), Action::Move { player, dir }) => {
            if player != p {
                wrong(&format!("it is {}'s move, not {}'s", Id(p), Id(player)), "G5.3, G6.3")
            } else if pos.ball.holder == p {
                format!("{head}: a holder on a wall square stays (G6.5 JUMPING WITH THE BALL)")
            } else if !board::wall_step_ok(pos.player(p).at, dir) {
                format!(
                    "{head}: the jump leaves the court or walks along the wall (G6.5 WALL-WALKING)"
                )
            } else {
                format!(
                    "{head}: a team-mate who already moved stands there facing the same way (G6.5 GANGING)"
                )
            }
        }
        (Pending::Move(p), Action::Stay { player }) => {
            if player != p {
                wrong(&format!("it is {}'s move, not {}'s", Id(p), Id(player)), "G5.3, G6.3")
            } else {
                format!("{head}: a player on a goal square must leave it (G6.6 OFFSIDE)")
            }
        }
        (Pending::Turn { actor, target }, Action::Turn { actor: a, target: v, way }) => {
            if a != actor || v != target {
                wrong("another player's turn", "G9.2, G9.3")
            } else {
                let f = rules::turned(pos.player(target).facing, way);
                debug_assert!(way != Way::None);
                format!(
                    "{head}: a team-mate of {} on his square already faces {} (G9.1 GANGING)",
                    Id(target),
                    board::dir_name(f)
                )
            }
        }
        (Pending::Decline(t), Action::Decline(m)) => {
            let allowed = rules::decliners(pos, t);
            if m & !t.mask() != 0 {
                format!("{head}: a team declines only its own players (G8.3)")
            } else if pos.ball.holder != NONE && m & bit(pos.ball.holder) != 0 {
                format!("{head}: the holder may not decline (G8.3, G13.5 HOLDING)")
            } else {
                let _ = allowed;
                format!("{head}: only players in play on the tackle square decline (G8.3)")
            }
        }
        (Pending::Receivers(t), Action::Receivers(m)) => {
            if m & !t.mask() != 0 {
                format!("{head}: a team nominates only its own players (G8.4)")
            } else {
                format!(
                    "{head}: receivers are participants of the ruck: in play on its square, not declined (G8.4)"
                )
            }
        }
        (Pending::Block(b), Action::Block { blocker, opponent }) => {
            if blocker != b {
                wrong(&format!("it is {}'s allocation", Id(b)), "G8.4, G8.7")
            } else {
                let kind = pos.resolution.map(|r| r.kind);
                if kind == Some(ResKind::Maul) {
                    format!("{head}: {} is not a tackler of the maul (G8.7)", Id(opponent))
                } else {
                    format!(
                        "{head}: {} is not a receiver of the other team (G8.4)",
                        Id(opponent)
                    )
                }
            }
        }
        (Pending::Catch(_), Action::Catch(None)) => format!(
            "{head}: the first attempt after beating the carrier is compulsory (G8.9)"
        ),
        (Pending::Catch(t), Action::Catch(Some(p))) => {
            let kind = pos.resolution.map(|r| r.kind);
            if team_of(p) != t {
                wrong(&format!("{} is not {t}'s", Id(p)), "G7.3, G8.6")
            } else if pos.resolution.is_some_and(|r| r.catchers().contains(&p)) {
                format!("{head}: {} has already tried in this phase (G7.6)", Id(p))
            } else {
                match kind {
                    Some(ResKind::Maul) => format!(
                        "{head}: only a tackler who beat the carrier and is in play may try (G8.9)"
                    ),
                    Some(ResKind::Ruck) => format!(
                        "{head}: {} may not try now: only eligible receivers, the top contest roller first (G8.4, G8.6, G7.6)",
                        Id(p)
                    ),
                    _ => format!(
                        "{head}: only players in play on the ball's square may try (G7.3)"
                    ),
                }
            }
        }
        (Pending::Act(h), a) => act_reason(g, pos, h, a, &head),
        _ => format!("{head}: not legal now (G5.4)"),
    }
}

fn act_reason(_g: &Gball, pos: &Position, h: u8, a: Action, head: &str) -> String {
    let holder = match a {
        Action::Keep(x) | Action::Spin(x) => x,
        Action::Throw { holder, .. } | Action::Handoff { holder, .. } => holder,
        _ => NONE,
    };
    if holder != h {
        return format!(
            "{head}: {} holds the ball; the act is his (G10.1)",
            Id(h)
        );
    }
    let sq = pos.player(h).at;
    let team: Team = team_of(h);
    match a {
        Action::Keep(_) => {
            if pos.player(h).out != Status::None {
                format!("{head}: a leaving holder may not keep the ball (G10.6)")
            } else {
                format!(
                    "{head}: a holder on his own goal square must throw or spin (G10.5 OFFSIDE)"
                )
            }
        }
        Action::Throw { dir, .. } => {
            if board::neighbour(sq, dir) == NONE {
                format!("{head}: a throw aims at a square of the court (G10.2)")
            } else if board::is_wall(sq) && !board::wall_step_ok(sq, dir) {
                format!("{head}: a throw along the wall (G10.2 PARALLEL PASS)")
            } else {
                let _ = team;
                format!(
                    "{head}: forward only from an air square or the own end wall (G10.2 ILLEGAL FORWARD PASS)"
                )
            }
        }
        Action::Handoff { to, .. } => {
            let why = rules::handoff_bar(pos, h, to).unwrap_or("not a legal hand-off (G10.4)");
            format!("{head}: {why}")
        }
        _ => format!("{head}: not legal now (G10)"),
    }
}
