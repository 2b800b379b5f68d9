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
    apply_with_hooks(pos, params, action, log, &mut ());
}

/// Why the rules would end the game now (B3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesEnd {
    Touchdowns,
    TurnLimit,
}

impl RulesEnd {
    pub fn name(self) -> &'static str {
        match self {
            RulesEnd::Touchdowns => "touchdowns",
            RulesEnd::TurnLimit => "turn-limit",
        }
    }
}

/// What a ruleset's scripts decide where the rules would end the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules' end stands.
    Rules,
    /// Play goes on (sudden death, overtime).
    Veto,
    /// The game ends now, with this result, for the ruleset's end `reason`
    /// (an index into `Params::layout`'s end names, from 1).
    End { outcome: Outcome, reason: u8 },
}

/// The rule points of BALL that a ruleset's scripts may change: the cost
/// of an action, a touchdown (veto, value, what follows), the start of a
/// turn (who, with how many AP) and the end of the game. The native rules
/// pass `()`, whose defaults are the rulebook's, and every method is
/// generic, so a game without scripts pays nothing for them.
pub trait Hooks {
    /// The AP `action` costs in `pos`, when the scripts set it; `None`
    /// keeps the rules' cost (B4.2).
    fn cost(&mut self, _pos: &Position, _action: Action) -> Option<u8> {
        None
    }

    /// Before the score goes up: `false` vetoes the touchdown. Play then
    /// goes on as if the holder were not in the scoring zone: no score, no
    /// reset, the action's ordinary sequel (after `end` the release
    /// phase), and the check runs again after the coach's next
    /// action-phase action (B3.4), so the touchdown counts once nothing
    /// vetoes it.
    fn counts(&mut self, _pos: &Position) -> bool {
        true
    }

    /// What `team`'s touchdown scores, and for whom (B3.4: one, for the
    /// scorer).
    fn touchdown_value(&mut self, _pos: &Position, team: Team) -> (u8, Team) {
        (1, team)
    }

    /// After the score and before the B3.5 reset. A hook that ends the
    /// game (sets the outcome) freezes the position as it stands (B3.6).
    fn scored(&mut self, _pos: &mut Position) {}

    /// Where the rules end the game (B3.6): the scripts may let it stand,
    /// play on, or end it their way.
    fn ending(&mut self, _pos: &Position, _why: RulesEnd) -> Ending {
        Ending::Rules
    }

    /// Who moves next when a turn starts: `team` by the rules.
    fn next_team(&mut self, _pos: &Position, team: Team) -> Team {
        team
    }

    /// The AP a turn starts with: `ap` by the rules (B4.2). `pos` is the
    /// new turn's position, its AP not yet set.
    fn turn_ap(&mut self, _pos: &Position, ap: u8) -> u8 {
        ap
    }
}

impl Hooks for () {}

/// [`apply`] with the rule points a ruleset's scripts hook.
pub fn apply_with_hooks<H: Hooks + ?Sized>(
    pos: &mut Position,
    params: &Params,
    action: Action,
    log: &mut impl Sink<Event>,
    hooks: &mut H,
) {
    let cost = if costs_ap(action) {
        hooks.cost(pos, action)
    } else {
        None
    };
    let before = pos.ap;
    effect(pos, params, action, log);
    if let Some(c) = cost {
        pos.ap = before.saturating_sub(c);
    }
    finish(pos, params, action, log, hooks);
}

/// Whether an action's AP cost is a rule point: every action-phase action
/// a piece takes. `end` spends what is left, `convert` its own number,
/// and the release tasks cost nothing (B10).
pub fn costs_ap(action: Action) -> bool {
    !matches!(action, Action::End | Action::Convert { .. }) && !action.is_task()
}

/// The rules' AP cost of an action (B4.2, B8); a card's is its own.
pub fn native_cost(action: Action) -> u8 {
    match action {
        Action::Move { .. }
        | Action::Dodge { .. }
        | Action::TDodge { .. }
        | Action::Block { .. }
        | Action::Protect { .. }
        | Action::SPass { .. } => 1,
        Action::LPass { .. } => 2,
        Action::Convert { ap } => ap,
        _ => 0,
    }
}

/// The action's own effect on the board. A card's effect is not here: the
/// script host computes it on a copy (B11.7) and then calls [`finish`].
#[inline(always)]
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
pub fn finish<H: Hooks + ?Sized>(
    pos: &mut Position,
    params: &Params,
    action: Action,
    log: &mut impl Sink<Event>,
    hooks: &mut H,
) {
    if action.is_task() {
        // B10.1: the phase ends when no task is left.
        if !has_task(pos, params) {
            pass_turn(pos, params, log, hooks);
        }
        return;
    }
    // B3.4: every action-phase action may score; release tasks never do.
    if touchdown(pos, params, log, hooks) {
        return;
    }
    // A tag test: the derived `==` is an out-of-line call in a generic
    // `finish`.
    if matches!(action, Action::End) {
        pos.phase = Phase::Release;
        if !has_task(pos, params) {
            pass_turn(pos, params, log, hooks);
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
fn touchdown<H: Hooks + ?Sized>(
    pos: &mut Position,
    params: &Params,
    log: &mut impl Sink<Event>,
    hooks: &mut H,
) -> bool {
    let me = pos.to_move;
    let BallState::Held(holder) = pos.ball else {
        return false;
    };
    if holder.team() != me || !in_scoring_zone(me, pos.piece(holder).at, params) {
        return false;
    }
    if !hooks.counts(pos) {
        log.emit(Event::TouchdownVetoed { team: me, holder });
        return false;
    }
    let (points, to) = hooks.touchdown_value(pos, me);
    pos.score[to as usize] = pos.score[to as usize].saturating_add(points);
    log.emit(Event::Touchdown { team: me });
    let won = pos.score.iter().any(|&s| s >= params.touchdowns_to_win);
    let rules_end = if won {
        Some(RulesEnd::Touchdowns)
    } else if pos.turn >= params.turn_limit {
        Some(RulesEnd::TurnLimit)
    } else {
        None
    };
    if let Some(why) = rules_end {
        match hooks.ending(pos, why) {
            Ending::Rules => {
                game_over(pos, log); // frozen as it stood: phase action, AP as left
                return true;
            }
            Ending::End { outcome, reason } => {
                end_by(pos, outcome, reason, log);
                return true;
            }
            Ending::Veto => {}
        }
    }
    hooks.scored(pos);
    if let Some(outcome) = pos.outcome {
        // A variant ended the game here: frozen, no reset (B3.6).
        log.emit(Event::GameOver { outcome });
        return true;
    }
    pos.reset_pieces(params, me.other());
    let next = hooks.next_team(pos, me);
    start_turn(pos, params, next, log, hooks);
    true
}

/// B10.1, B3.6: the turn passes, or the game ends after the last turn.
fn pass_turn<H: Hooks + ?Sized>(
    pos: &mut Position,
    params: &Params,
    log: &mut impl Sink<Event>,
    hooks: &mut H,
) {
    if pos.turn >= params.turn_limit {
        let ending = hooks.ending(pos, RulesEnd::TurnLimit);
        if ending != Ending::Veto {
            pos.phase = Phase::Release;
            pos.ap = 0;
            match ending {
                Ending::End { outcome, reason } => end_by(pos, outcome, reason, log),
                _ => game_over(pos, log),
            }
            return;
        }
    }
    let next = hooks.next_team(pos, pos.to_move.other());
    start_turn(pos, params, next, log, hooks);
}

fn start_turn<H: Hooks + ?Sized>(
    pos: &mut Position,
    params: &Params,
    team: Team,
    log: &mut impl Sink<Event>,
    hooks: &mut H,
) {
    pos.turn = pos.turn.saturating_add(1);
    pos.to_move = team;
    pos.phase = Phase::Action;
    pos.ap = 0;
    pos.ap = hooks.turn_ap(pos, params.ap_per_turn);
    for p in pos.pieces.iter_mut() {
        p.restricted = false; // B4.5: restrictions end when the turn passes.
    }
    pos.card_uses.new_turn();
    log.emit(Event::TurnStarted {
        team,
        turn: pos.turn,
    });
}

/// The game ends the way a ruleset's script said, for its reason.
pub fn end_by<L: Sink<Event> + ?Sized>(pos: &mut Position, outcome: Outcome, reason: u8, log: &mut L) {
    pos.outcome = Some(outcome);
    pos.ended_by = reason;
    log.emit(Event::GameOver { outcome });
}

/// B3.6: the game is over; the position stays as it stands.
fn game_over(pos: &mut Position, log: &mut impl Sink<Event>) {
    let outcome = Outcome::by_score(pos.score);
    pos.outcome = Some(outcome);
    log.emit(Event::GameOver { outcome });
}
