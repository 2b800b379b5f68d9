//! Applying a legal action, and the turn flow around it (B3.4–B3.6, B4,
//! B10.1).
//!
//! **Invariant:** the caller has checked legality (the action came from
//! [`super::movegen::legal_into`] of this position). Nothing here re-checks:
//! `apply` is the hot path of every bot and of perft.

use super::action::Action;
use super::board::Sq;
use super::event::{Event, Taking};
use super::movegen::has_task;
use super::params::Params;
use super::piece::{PieceId, Team};
use super::position::{BallState, Outcome, Phase, Position, Stack};
use crate::kernel::events::Sink;

/// Applies `action`, emitting what happens into `log`.
pub fn apply(pos: &mut Position, params: &Params, action: Action, log: &mut impl Sink<Event>) {
    apply_with_touchdown_hook(pos, params, action, log, &mut ());
}

/// What a ruleset's scripts may do at a touchdown (B3.4): the variants'
/// `touchdown_counts` and `on_touchdown`. The native rules pass `()`,
/// which counts every touchdown and does nothing after it; the methods
/// are called only when a touchdown is scored, never per action.
pub trait TouchdownHooks {
    /// Before the score goes up: `false` vetoes the touchdown. Play then
    /// goes on as if the holder were not in the scoring zone: no score, no
    /// reset, the action's ordinary sequel (after `end` the release
    /// phase), and the check runs again after the coach's next
    /// action-phase action (B3.4), so the touchdown counts once nothing
    /// vetoes it.
    fn counts(&mut self, _pos: &Position) -> bool {
        true
    }

    /// After the score and before the B3.5 reset. A hook that ends the
    /// game (sets the outcome) freezes the position as it stands (B3.6).
    fn scored(&mut self, _pos: &mut Position) {}
}

impl TouchdownHooks for () {}

/// [`apply`] with the hooks a variant runs at a touchdown: a veto before
/// the score, and `on_touchdown` after it, before the B3.5 reset.
pub fn apply_with_touchdown_hook(
    pos: &mut Position,
    params: &Params,
    action: Action,
    log: &mut impl Sink<Event>,
    on_touchdown: &mut dyn TouchdownHooks,
) {
    effect(pos, params, action, log);
    finish(pos, params, action, log, on_touchdown);
}

/// The action's own effect on the board. A card's effect is not here: the
/// script host computes it on a copy (B11.7) and then calls [`finish`].
fn effect(pos: &mut Position, params: &Params, action: Action, log: &mut impl Sink<Event>) {
    match action {
        Action::Move { piece, to } => {
            pos.ap -= 1;
            pos.piece_mut(piece).at = to;
            take_loose_ball(pos, piece, to, log);
        }
        Action::Dodge { piece, to, exit } => {
            pos.ap -= 1;
            let opponent = unstacked_at(pos, to);
            pos.piece_mut(opponent).down = true;
            log.emit(Event::KnockedDown {
                piece: opponent,
                at: to,
            });
            pos.piece_mut(piece).at = exit;
            if pos.ball == BallState::Held(opponent) {
                // B5.4: forced fumble; the mover is restricted (B4.5).
                pos.ball = BallState::Held(piece);
                pos.piece_mut(piece).restricted = true;
                log.emit(Event::BallTaken {
                    piece,
                    how: Taking::Fumble,
                });
            } else {
                take_loose_ball(pos, piece, exit, log);
            }
        }
        Action::TDodge { piece, to, push } => {
            pos.ap -= 1;
            let from = pos.piece(piece).at;
            let mid = from
                .midpoint(to)
                .expect("a tactical dodge has a middle square");
            let opponent = unstacked_at(pos, mid);
            let p = pos.piece_mut(opponent);
            p.at = push;
            p.down = true;
            log.emit(Event::KnockedDown {
                piece: opponent,
                at: push,
            });
            // B6.4: a ball already loose on the landing square is taken. It
            // cannot be the jumped opponent's ball, which was held.
            pos.piece_mut(piece).at = to;
            if pos.ball == BallState::Held(opponent) {
                // B6.3: away from the push, or on the middle square.
                let away = mid.direction_to(push).and_then(|d| mid.step(3 - d));
                let at = match away {
                    Some(sq) if !pos.pieces.iter().any(|p| p.at == sq) => sq,
                    _ => mid,
                };
                pos.ball = BallState::Loose(at);
                log.emit(Event::BallLoose { at });
            } else {
                take_loose_ball(pos, piece, to, log);
            }
        }
        Action::Block { piece, to } | Action::Protect { piece, to } => {
            pos.ap -= 1;
            let bottom = unstacked_at(pos, to);
            pos.piece_mut(piece).at = to;
            let placed = pos.stacks.insert(Stack {
                at: to,
                top: piece,
                bottom,
                formed: pos.turn,
            });
            // Two unstacked pieces: never an eighth stack.
            debug_assert!(placed, "a legal block or protect has room for its stack");
            log.emit(Event::StackFormed {
                top: piece,
                bottom,
                at: to,
            });
            if pos.ball == BallState::Held(bottom) && params.stack_top_takes_ball {
                // B7.3: the top takes it, unrestricted (B4.5).
                pos.ball = BallState::Held(piece);
                log.emit(Event::BallTaken {
                    piece,
                    how: Taking::Stack,
                });
            }
        }
        Action::Handoff { to, .. } => {
            pos.ball = BallState::Held(to);
            log.emit(Event::BallTaken {
                piece: to,
                how: Taking::Handoff,
            });
        }
        Action::SPass { at, .. } if params.short_pass_loose => {
            // B12.2 (SV): the ball lies loose on the reception square.
            pos.ap -= 1;
            pos.ball = BallState::Loose(at);
            log.emit(Event::BallLoose { at });
        }
        Action::SPass { to, at, .. } => {
            pos.ap -= 1;
            pos.ball = BallState::Held(to);
            pos.piece_mut(to).restricted = true;
            log.emit(Event::PassReceived { piece: to, at });
            log.emit(Event::BallTaken {
                piece: to,
                how: Taking::Pass,
            });
        }
        Action::LPass { to, .. } => {
            pos.ap -= 2;
            pos.ball = BallState::Loose(to);
            log.emit(Event::BallLoose { at: to });
        }
        Action::Convert { ap } => {
            // B11.4; reachable only in card mode.
            pos.ap -= ap;
            pos.ep[pos.to_move as usize] += u32::from(ap);
        }
        Action::End => {
            pos.ap = 0; // B4.3
        }
        Action::Card { .. } => {}
        Action::StandUp { piece, to } => {
            let p = pos.piece_mut(piece);
            p.at = to;
            p.down = false;
            log.emit(Event::StoodUp { piece });
        }
        Action::Release {
            top,
            top_to,
            bottom_to,
            keep,
        } => {
            let at = pos.piece(top).at;
            let stack = pos.stacks.remove_at(at).expect("release of a stack");
            // B10.3: the top is active; the bottom keeps its own state (B7.5).
            let t = pos.piece_mut(top);
            t.at = top_to;
            t.down = false;
            pos.piece_mut(stack.bottom).at = bottom_to;
            log.emit(Event::StackReleased {
                top,
                bottom: stack.bottom,
            });
            if let Some(keeper) = keep {
                pos.ball = BallState::Held(keeper);
                log.emit(Event::BallTaken {
                    piece: keeper,
                    how: Taking::Keep,
                });
            }
        }
    }
}

/// What follows every action: the release phase's end (B10.1), or the
/// touchdown check (B3.4) and the start of the release phase after `end`.
pub fn finish(
    pos: &mut Position,
    params: &Params,
    action: Action,
    log: &mut impl Sink<Event>,
    on_touchdown: &mut dyn TouchdownHooks,
) {
    if action.is_task() {
        // B10.1: the phase ends when no task is left.
        if !has_task(pos, params) {
            pass_turn(pos, params, log);
        }
        return;
    }
    // B3.4: every action-phase action may score; release tasks never do.
    if touchdown(pos, params, log, on_touchdown) {
        return;
    }
    if action == Action::End {
        pos.phase = Phase::Release;
        if !has_task(pos, params) {
            pass_turn(pos, params, log);
        }
    }
}

/// B5.5, B6.4, B9.2: ending on the loose ball takes it and restricts.
#[inline(always)]
fn take_loose_ball(pos: &mut Position, piece: PieceId, at: Sq, log: &mut impl Sink<Event>) {
    if pos.ball == BallState::Loose(at) {
        pos.ball = BallState::Held(piece);
        pos.piece_mut(piece).restricted = true;
        log.emit(Event::BallTaken {
            piece,
            how: Taking::Loose,
        });
    }
}

/// The one unstacked piece on `sq`; legality guarantees there is one.
#[inline(always)]
fn unstacked_at(pos: &Position, sq: Sq) -> PieceId {
    let stacked = pos.stacks.stacked_mask();
    PieceId::all()
        .find(|p| pos.piece(*p).at == sq && stacked & (1 << p.0) == 0)
        .expect("a piece on the target square")
}

/// B1.4: is `sq` in `team`'s scoring end zone (the opponent's)?
pub fn in_scoring_zone(team: Team, sq: Sq, params: &Params) -> bool {
    let row = sq.row();
    match team {
        Team::Atk => row > super::board::ROWS - params.end_zone_depth,
        Team::Def => row <= params.end_zone_depth,
    }
}

/// B3.4–B3.6: scores, then ends the game or resets for the scorer's turn.
fn touchdown(
    pos: &mut Position,
    params: &Params,
    log: &mut impl Sink<Event>,
    on_touchdown: &mut dyn TouchdownHooks,
) -> bool {
    let me = pos.to_move;
    let BallState::Held(holder) = pos.ball else {
        return false;
    };
    if holder.team() != me || !in_scoring_zone(me, pos.piece(holder).at, params) {
        return false;
    }
    if !on_touchdown.counts(pos) {
        log.emit(Event::TouchdownVetoed { team: me, holder });
        return false;
    }
    pos.score[me as usize] += 1;
    log.emit(Event::Touchdown { team: me });
    if pos.score[me as usize] >= params.touchdowns_to_win || pos.turn >= params.turn_limit {
        game_over(pos, log); // frozen as it stood: phase action, AP as left
        return true;
    }
    on_touchdown.scored(pos);
    if let Some(outcome) = pos.outcome {
        // A variant ended the game here: frozen, no reset (B3.6).
        log.emit(Event::GameOver { outcome });
        return true;
    }
    pos.reset_pieces(params, me.other());
    start_turn(pos, params, me, log);
    true
}

/// B10.1, B3.6: the turn passes, or the game ends after the last turn.
fn pass_turn(pos: &mut Position, params: &Params, log: &mut impl Sink<Event>) {
    if pos.turn >= params.turn_limit {
        pos.phase = Phase::Release;
        pos.ap = 0;
        game_over(pos, log);
        return;
    }
    let next = pos.to_move.other();
    start_turn(pos, params, next, log);
}

fn start_turn(pos: &mut Position, params: &Params, team: Team, log: &mut impl Sink<Event>) {
    pos.turn += 1;
    pos.to_move = team;
    pos.phase = Phase::Action;
    pos.ap = params.ap_per_turn;
    for p in pos.pieces.iter_mut() {
        p.restricted = false; // B4.5: restrictions end when the turn passes.
    }
    pos.card_uses.new_turn();
    log.emit(Event::TurnStarted {
        team,
        turn: pos.turn,
    });
}

/// B3.6: the game is over; the position stays as it stands.
fn game_over(pos: &mut Position, log: &mut impl Sink<Event>) {
    let outcome = Outcome::by_score(pos.score);
    pos.outcome = Some(outcome);
    log.emit(Event::GameOver { outcome });
}
