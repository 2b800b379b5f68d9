//! The fast legal-action generator: the one source of legality.
//!
//! Everything here works on `u128` square sets built once per call from the
//! 14 pieces. The reference checker in [`super::rules`] states the same
//! rules one action at a time; the property tests hold the two equal.

use super::action::Action;
use super::board::{Sq, SqSet, each_square};
use super::params::{Params, Verbs};
use super::piece::PieceId;
use super::position::{BallState, Phase, Position};

/// The square sets the generator needs, derived from the pieces.
pub(crate) struct View {
    /// Squares with at least one piece.
    pub occupied: SqSet,
    /// The loose ball's square, or empty.
    pub ball: SqSet,
    /// Stacked pieces, one bit per id.
    pub stacked: u16,
}

impl View {
    #[inline(always)]
    pub fn of(pos: &Position) -> View {
        View {
            occupied: pos.occupied(),
            ball: match pos.ball {
                BallState::Loose(sq) => sq.bit(),
                BallState::Held(_) => 0,
            },
            stacked: pos.stacks.stacked_mask(),
        }
    }

    /// Free for a piece to be placed: no piece and no ball (B6.2, B10.2,
    /// B10.3).
    #[inline(always)]
    pub fn clear(&self) -> SqSet {
        !(self.occupied | self.ball)
    }
}

/// Writes every legal action of `pos` into `out` (cleared first).
pub fn legal_into(pos: &Position, params: &Params, out: &mut Vec<Action>) {
    out.clear();
    if pos.is_over() {
        return; // B3.6: a finished game has no legal actions.
    }
    let view = View::of(pos);
    match pos.phase {
        Phase::Action => action_phase(pos, params, &view, out),
        Phase::Release => release_phase(pos, params, &view, &mut |a| out.push(a)),
    }
    if params.forbidden != Verbs::NONE {
        // A variant's legality, declared as data (scripts never run here).
        out.retain(|a| !params.forbidden.contains(a.verb()));
    }
}

/// B10.1: is there any task left?
pub fn has_task(pos: &Position, params: &Params) -> bool {
    let view = View::of(pos);
    let mut found = false;
    release_phase(pos, params, &view, &mut |_| found = true);
    found
}

/// What a mover needs to know of one square, one byte a square: the move
/// loop tests single squares, and a byte load beats a 16-byte set test.
mod cell {
    pub const OCCUPIED: u8 = 1;
    /// B7.4: a stack.
    pub const CLOSED: u8 = 2;
    /// B5.2: a stack or a down piece, which no 2-square diagonal crosses.
    pub const BLOCKS_PATH: u8 = 4;
    /// An unstacked piece of the coach to move, in any state.
    pub const MINE: u8 = 8;
    /// An active, unstacked opponent: dodged or tactically dodged.
    pub const OPP_ACTIVE: u8 = 16;
}

/// The cell flags of every square, seen from the coach to move. 256 cells
/// so a `u8` square index needs no bounds check.
fn cells(pos: &Position, v: &View) -> [u8; 256] {
    let mut c = [0u8; 256];
    for s in pos.stacks.as_slice() {
        c[s.at.0 as usize] = cell::OCCUPIED | cell::CLOSED | cell::BLOCKS_PATH;
    }
    let me = pos.to_move as usize;
    for (i, p) in pos.pieces.iter().enumerate() {
        if v.stacked & (1 << i) != 0 {
            continue;
        }
        let mine = (i >= 7) as usize == me;
        c[p.at.0 as usize] = cell::OCCUPIED
            | if p.down { cell::BLOCKS_PATH } else { 0 }
            | if mine { cell::MINE } else { 0 }
            | if !mine && !p.down {
                cell::OPP_ACTIVE
            } else {
                0
            };
    }
    c
}

fn action_phase(pos: &Position, params: &Params, v: &View, out: &mut Vec<Action>) {
    let me = pos.to_move;
    if pos.ap >= 1 {
        let c = cells(pos, v);
        for id in PieceId::of_team(me) {
            let p = pos.piece(id);
            // B4.4: only an active, unrestricted, unstacked piece acts.
            if p.down || p.restricted || v.stacked & (1 << id.0) != 0 {
                continue;
            }
            let from = p.at;
            for d in 0..4 {
                let Some(s1) = from.step(d) else { continue };
                let c1 = c[s1.0 as usize];
                if c1 & cell::OCCUPIED == 0 {
                    out.push(Action::Move { piece: id, to: s1 });
                } else if c1 & cell::CLOSED == 0 {
                    // B7.1: onto exactly one piece.
                    if c1 & cell::MINE != 0 {
                        out.push(Action::Protect { piece: id, to: s1 });
                    } else {
                        out.push(Action::Block { piece: id, to: s1 });
                    }
                }
                if !p.kind.moves_two_diagonally() {
                    continue;
                }
                let Some(s2) = from.step2(d) else { continue };
                // B5.2: the middle square may not be closed or hold a down piece.
                if c1 & cell::BLOCKS_PATH != 0 {
                    continue;
                }
                let c2 = c[s2.0 as usize];
                if c2 & cell::OCCUPIED == 0 {
                    out.push(Action::Move { piece: id, to: s2 });
                    if c1 & cell::OPP_ACTIVE != 0 {
                        tactical_dodges(id, d, s1, s2, v, out);
                    }
                } else if c2 & cell::OPP_ACTIVE != 0 {
                    dodges(id, s2, v, out);
                }
            }
            if p.kind.jumps_orthogonally() {
                for d in 0..4 {
                    // B5.2: an orthogonal jump is blocked only by its destination.
                    let Some(s2) = from.orth2(d) else { continue };
                    let c2 = c[s2.0 as usize];
                    if c2 & cell::OCCUPIED == 0 {
                        out.push(Action::Move { piece: id, to: s2 });
                    } else if c2 & cell::OPP_ACTIVE != 0 {
                        dodges(id, s2, v, out);
                    }
                }
            }
        }
    }
    if let BallState::Held(holder) = pos.ball {
        ball_actions(pos, params, v, holder, out);
    }
    out.push(Action::End); // B4.3: always legal in the action phase.
}

/// B5.4: one dodge per exit square next to the opponent holding no piece.
#[inline(always)]
fn dodges(id: PieceId, to: Sq, v: &View, out: &mut Vec<Action>) {
    each_square(to.neighbours() & !v.occupied, |exit| {
        out.push(Action::Dodge {
            piece: id,
            to,
            exit,
        })
    });
}

/// B6.1–B6.2: the jumped opponent goes to a square beside the path.
#[inline(always)]
fn tactical_dodges(id: PieceId, d: usize, mid: Sq, to: Sq, v: &View, out: &mut Vec<Action>) {
    let free = v.clear();
    // The two directions crossing the path are those other than d and 3 - d.
    let across = if d == 0 || d == 3 { [1, 2] } else { [0, 3] };
    for e in across {
        if let Some(push) = mid.step(e)
            && free & push.bit() != 0
        {
            out.push(Action::TDodge {
                piece: id,
                to,
                push,
            });
        }
    }
}

/// B8: hand-offs, short and long passes of an active, unrestricted holder.
fn ball_actions(pos: &Position, params: &Params, v: &View, holder: PieceId, out: &mut Vec<Action>) {
    let me = pos.to_move;
    let h = pos.piece(holder);
    // B8.4: only an own, active, unrestricted, unstacked holder passes.
    if holder.team() != me || h.down || h.restricted || v.stacked & (1 << holder.0) != 0 {
        return;
    }
    let hc = h.at.coord();
    let network = if params.handoff_network {
        handoff_network(pos, v, holder)
    } else {
        0
    };
    for to in PieceId::of_team(me) {
        let r = pos.piece(to);
        if to == holder || r.down || v.stacked & (1 << to.0) != 0 {
            continue;
        }
        let dist = hc.distance(r.at.coord());
        if dist == 1 || network & (1 << to.0) != 0 {
            out.push(Action::Handoff { from: holder, to }); // B8.1, B12.1
        }
        if pos.ap >= 1 && dist <= params.short_pass_range {
            // B8.2: a reception square next to the receiver, holding no piece.
            each_square(r.at.neighbours() & !v.occupied, |at| {
                out.push(Action::SPass {
                    from: holder,
                    to,
                    at,
                })
            });
        }
    }
    if pos.ap >= 2 {
        // B8.3: at distance ≥ min from every own piece, whatever its state.
        let reach = params.long_pass_min_distance.saturating_sub(1);
        let mut near: SqSet = 0;
        if params.long_pass_min_distance > 0 {
            for id in PieceId::of_team(me) {
                near |= pos.piece(id).at.within(reach);
            }
        }
        let reachable = match params.long_pass_max_distance {
            Some(max) => h.at.within(max),
            None => super::board::ALL,
        };
        each_square(reachable & !v.occupied & !near, |to| {
            out.push(Action::LPass { from: holder, to })
        });
    }
}

/// B12.1 (SV): the team-mates joined to the holder through a chain of
/// adjacent active, unstacked team-mates, one bit per piece id.
pub(crate) fn handoff_network(pos: &Position, v: &View, holder: PieceId) -> u16 {
    let team = holder.team();
    let mut reached: u16 = 1 << holder.0;
    let mut frontier = vec![holder];
    while let Some(p) = frontier.pop() {
        let at = pos.piece(p).at;
        for q in PieceId::of_team(team) {
            let r = pos.piece(q);
            if reached & (1 << q.0) == 0
                && !r.down
                && v.stacked & (1 << q.0) == 0
                && at.distance(r.at) == 1
            {
                reached |= 1 << q.0;
                frontier.push(q);
            }
        }
    }
    reached & !(1 << holder.0)
}

/// Who may keep the ball when a stack is released (B10.3, B12.3).
pub(crate) enum Keepers {
    NoBall,
    Choice([PieceId; 2]),
    Only(PieceId),
}

pub(crate) fn keepers(pos: &Position, params: &Params, top: PieceId, bottom: PieceId) -> Keepers {
    match pos.ball {
        BallState::Held(h) if h == top => Keepers::Choice([top, bottom]),
        BallState::Held(h) if h == bottom && params.keep_choice_needs_top => Keepers::Only(bottom),
        BallState::Held(h) if h == bottom => Keepers::Choice([top, bottom]),
        _ => Keepers::NoBall,
    }
}

/// B10: the mandatory tasks of the coach to move.
fn release_phase(pos: &Position, params: &Params, v: &View, emit: &mut impl FnMut(Action)) {
    let me = pos.to_move;
    let free = v.clear();
    for id in PieceId::of_team(me) {
        let p = pos.piece(id);
        // B10.2: own down pieces that are not stacked stand up.
        if p.down && v.stacked & (1 << id.0) == 0 {
            each_square(p.at.neighbours() & free, |to| {
                emit(Action::StandUp { piece: id, to })
            });
        }
    }
    for s in pos.stacks.as_slice() {
        // B10.3, B10.4: own tops of stacks formed in an earlier turn.
        if s.top.team() != me || s.formed >= pos.turn {
            continue;
        }
        let exits = s.at.neighbours() & free;
        let keepers = keepers(pos, params, s.top, s.bottom);
        for top_to in super::board::squares(exits) {
            for bottom_to in super::board::squares(exits & !top_to.bit()) {
                let release = |keep| Action::Release {
                    top: s.top,
                    top_to,
                    bottom_to,
                    keep,
                };
                match keepers {
                    Keepers::Choice(ks) => ks.into_iter().for_each(|k| emit(release(Some(k)))),
                    Keepers::Only(k) => emit(release(Some(k))),
                    Keepers::NoBall => emit(release(None)),
                }
            }
        }
    }
}
