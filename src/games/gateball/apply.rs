//! Carrying out actions and the play flow (T3, T5–T12): rolls, gate
//! points, touches and sparks, out-balls, Goals, the next play, the end.
//! The engine resolves every situation without a choice itself (T3.6), so
//! a position between two actions always offers one.

use std::fmt;

use super::Gateball;
use super::action::Action;
use super::event::{Event, PlayKind};
use super::position::{Phase, Place, Position, ShotKind, Team, Winner};
use super::rules::{self, End, Outcome, Refusal};
use super::space::{Space, SpaceFilter};
use crate::kernel::events::Sink;

/// Why an action is refused, with the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    Over,
    Phase { action: String, phase: Phase },
    NoContinuation,
    Move { action: String, why: Refusal },
    /// A ruleset's variant refuses it (its `allow`), or offers no such
    /// action now.
    Variant { action: String, why: String },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::Over => f.write_str("illegal action: the game is over (T12.5)"),
            Illegal::Phase { action, phase } => {
                let wants = match phase {
                    Phase::Shot => "`power`, `tech` (or `end` for a continuation)",
                    Phase::Move => "a `shot`",
                    Phase::Spark => "a `spark`",
                    Phase::Over => "nothing",
                };
                write!(
                    f,
                    "illegal action `{action}`: the position is in phase {}, which takes {wants} (T13)",
                    phase.name()
                )
            }
            Illegal::NoContinuation => f.write_str(
                "illegal action `end`: only a continuation shot may be declined; the first shot of a play is compulsory (T3.5, T7.8)",
            ),
            Illegal::Move { action, why } => write!(f, "illegal action `{action}`: {why}"),
            Illegal::Variant { action, why } => write!(f, "illegal action `{action}`: {why}"),
        }
    }
}

impl std::error::Error for Illegal {}

/// Where a ruleset's variants change a rule (`script::points`): each
/// method answers as the rulebook does by default, so `()` is the
/// rulebook and a game without variants compiles to the rules alone.
pub trait Hooks {
    /// T4.3: the dice as the shot or spark (`kind`) will use them.
    #[inline]
    fn roll(&mut self, _pos: &Position, _kind: &'static str, _dice: &mut Vec<u8>) {}
    /// T6.2: what gate `gate` scores for `ball`.
    #[inline]
    fn gate_value(&mut self, _pos: &Position, _ball: u8, _gate: u8) -> u8 {
        1
    }
    /// T10.2: what a Goal scores.
    #[inline]
    fn goal_value(&mut self, _pos: &Position, _ball: u8) -> u8 {
        2
    }
    /// T8.2: whether an out-ball goes back to wait for its start instead.
    #[inline]
    fn out_to_start(&mut self, _pos: &Position, _ball: u8, _at: Space) -> bool {
        false
    }
    /// T7.5: whether a touch gives a spark.
    #[inline]
    fn spark(&mut self, _pos: &Position, _ball: u8, _touched: u8) -> bool {
        true
    }
    /// T12.2, T12.3: where the rules end the game (`why`), a variant's
    /// say: `None` lets them.
    #[inline]
    fn ending(&mut self, _pos: &Position, _why: &'static str) -> Option<Ending> {
        None
    }
}

impl Hooks for () {}

/// A variant's answer where the rules would end the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Play on.
    Veto,
    /// End now: the winner and the end's index in the layout (`ended_by`).
    End(Winner, u8),
}

/// Checks `action` against `pos` and applies it.
pub fn play(
    game: &Gateball,
    pos: &mut Position,
    action: Action,
    sink: &mut impl Sink<Event>,
) -> Result<(), Illegal> {
    let phase_error = || Illegal::Phase {
        action: action.to_string(),
        phase: pos.phase,
    };
    if pos.phase == Phase::Over {
        return Err(Illegal::Over);
    }
    match action {
        Action::Power | Action::Tech if pos.phase != Phase::Shot => return Err(phase_error()),
        Action::End if pos.phase != Phase::Shot => return Err(phase_error()),
        Action::End if !pos.continuation => return Err(Illegal::NoContinuation),
        Action::Shot(_) if pos.phase != Phase::Move => return Err(phase_error()),
        Action::Spark(_) if pos.phase != Phase::Spark => return Err(phase_error()),
        Action::Shot(m) | Action::Spark(m) => {
            let outcome = rules::judge_move(game, pos, &m).map_err(|why| Illegal::Move {
                action: action.to_string(),
                why,
            })?;
            carry_out(game, pos, outcome, sink, &mut ());
            return Ok(());
        }
        _ => {}
    }
    apply_with(game, pos, action, sink, &mut ());
    Ok(())
}

/// Applies a legal action (one from `rules::legal_into` of `pos`): by the
/// ruleset's variants when it has some, else by the rules alone.
pub fn apply(game: &Gateball, pos: &mut Position, action: Action, sink: &mut impl Sink<Event>) {
    match game.scripts.get() {
        None => apply_with(game, pos, action, sink, &mut ()),
        Some(s) => s.apply(game, pos, action, sink),
    }
}

/// [`apply`] with the rule points `h` answers.
pub fn apply_with(
    game: &Gateball,
    pos: &mut Position,
    action: Action,
    sink: &mut impl Sink<Event>,
    h: &mut impl Hooks,
) {
    match action {
        Action::Power => roll_shot(game, pos, ShotKind::Power, sink, h),
        Action::Tech => roll_shot(game, pos, ShotKind::Tech, sink, h),
        Action::End => end_play_with(game, pos, sink, h),
        Action::Shot(m) | Action::Spark(m) => {
            let outcome = rules::judge_move(game, pos, &m).expect("a legal move");
            carry_out(game, pos, outcome, sink, h);
        }
        // A variant's own action is the variants' (`Scripted::apply`).
        Action::Variant(_) => {}
    }
}

fn roll(pos: &mut Position, n: usize, kind: &'static str, sink: &mut impl Sink<Event>, h: &mut impl Hooks) {
    pos.dice.clear();
    for _ in 0..n {
        let d = pos.roll_die();
        pos.dice.push(d);
    }
    let mut dice = std::mem::take(&mut pos.dice);
    h.roll(pos, kind, &mut dice);
    pos.dice = dice;
    sink.emit(Event::Roll(pos.dice.clone()));
}

/// T4.3 (1)–(2): the shot type is chosen, the engine rolls; a roll with
/// no legal move loses the shot (T5.7).
fn roll_shot(
    game: &Gateball,
    pos: &mut Position,
    kind: ShotKind,
    sink: &mut impl Sink<Event>,
    h: &mut impl Hooks,
) {
    pos.shot = Some(kind);
    pos.phase = Phase::Move;
    roll(pos, kind.dice(), kind.name(), sink, h);
    if !rules::any_move(game, pos) {
        sink.emit(Event::NoMove(pos.ball));
        end_play_with(game, pos, sink, h);
    }
}

/// A move of `rules::moves` of `pos` with the outcome it was listed
/// with, by the rules alone: what [`apply`] does for it without judging
/// the move a second time.
pub fn apply_listed_move(game: &Gateball, pos: &mut Position, o: Outcome) {
    carry_out(game, pos, o, &mut (), &mut ());
}

/// Carries out a judged move of the ball whose move it is.
fn carry_out(
    game: &Gateball,
    pos: &mut Position,
    o: Outcome,
    sink: &mut impl Sink<Event>,
    h: &mut impl Hooks,
) {
    let sparking = pos.phase == Phase::Spark;
    let ball = if sparking {
        pos.spark.expect("a spark ball in phase spark")
    } else {
        pos.ball
    };
    for p in o.passages() {
        if p.scored {
            let value = h.gate_value(pos, ball, p.gate);
            add_bonus(pos, ball, i16::from(value) - 1);
        }
        sink.emit(if p.scored {
            Event::Gate { ball, gate: p.gate }
        } else {
            Event::Pass {
                ball,
                gate: p.gate,
                forward: p.forward,
            }
        });
    }
    pos.ball_mut(ball).gates = o.gates;
    if sparking {
        finish_spark(game, pos, ball, o.end, sink, h);
    } else {
        finish_shot(game, pos, o, sink, h);
    }
}

/// Points a variant's values add to (or take from) a ball's team.
#[inline]
fn add_bonus(pos: &mut Position, ball: u8, points: i16) {
    if points != 0 {
        let b = &mut pos.bonus[Team::of_ball(ball) as usize];
        *b = b.saturating_add(points).clamp(-999, 999);
    }
}

/// T8.2, or a variant's: an out-ball on its Outside-Line space, or back
/// to wait for its start (gates lost, as a failed start's, T9.1).
fn go_out(game: &Gateball, pos: &mut Position, ball: u8, s: Space, sink: &mut impl Sink<Event>, h: &mut impl Hooks) {
    let at = placement(game, pos, s, true);
    sink.emit(Event::Out(ball, at));
    if h.out_to_start(pos, ball, at) {
        pos.ball_mut(ball).place = Place::Waiting;
        pos.ball_mut(ball).gates = 0;
    } else {
        pos.ball_mut(ball).place = Place::Out(at);
    }
}

fn finish_shot(
    game: &Gateball,
    pos: &mut Position,
    o: Outcome,
    sink: &mut impl Sink<Event>,
    h: &mut impl Hooks,
) {
    let ball = pos.ball;
    let reentry = matches!(pos.ball_state(ball).place, Place::Out(_));
    match o.end {
        End::At(s) => {
            pos.ball_mut(ball).place = Place::Court(s);
            sink.emit(Event::At(ball, s));
            // T14.2: a gate scored without a touch earns a continuation.
            if game.rules.gate_bonus && o.scored_any() && !reentry {
                pos.continuation = true;
                next_shot(pos);
            } else {
                end_play_with(game, pos, sink, h);
            }
        }
        End::Out(s) => {
            go_out(game, pos, ball, s, sink, h);
            end_play_with(game, pos, sink, h);
        }
        End::Goal => {
            pos.ball_mut(ball).place = Place::Goal;
            let value = h.goal_value(pos, ball);
            add_bonus(pos, ball, i16::from(value) - 2);
            sink.emit(Event::Goal(ball));
            if !perfect(pos, sink, h) {
                end_play_with(game, pos, sink, h);
            }
        }
        End::FailStart => {
            pos.ball_mut(ball).place = Place::Waiting;
            pos.ball_mut(ball).gates = 0;
            sink.emit(Event::FailStart(ball));
            end_play_with(game, pos, sink, h);
        }
        End::Twice { ball: c, at } => {
            sink.emit(Event::Twice {
                ball,
                touched: c,
                at,
            });
            let out = placement(game, pos, at, false);
            pos.ball_mut(ball).place = Place::Out(out);
            sink.emit(Event::Out(ball, out));
            end_play_with(game, pos, sink, h);
        }
        End::Touch { ball: c, at, prev } => {
            pos.ball_mut(ball).place = Place::Court(at);
            pos.touched |= 1 << c;
            pos.continuation = true;
            sink.emit(Event::Touch {
                ball,
                touched: c,
                at,
            });
            if !h.spark(pos, ball, c) {
                // A variant's: no spark; the continuation shot at once.
                next_shot(pos);
                return;
            }
            pos.phase = Phase::Spark;
            pos.spark = Some(c);
            let kind = pos.shot.expect("a shot type in phase move");
            if game.rules.spark_dice == super::SparkDice::Roll {
                roll(pos, kind.dice(), "spark", sink, h);
            }
            // T7.7: no legal spark — the shot ball steps back.
            if !rules::any_move(game, pos) {
                sink.emit(Event::NoSpark {
                    sparked: c,
                    ball,
                    back: prev,
                });
                pos.ball_mut(ball).place = Place::Court(prev);
                next_shot(pos);
            }
        }
        End::Collide { .. } => unreachable!("only sparks collide"),
    }
}

fn finish_spark(
    game: &Gateball,
    pos: &mut Position,
    c: u8,
    end: End,
    sink: &mut impl Sink<Event>,
    h: &mut impl Hooks,
) {
    match end {
        End::At(s) => {
            pos.ball_mut(c).place = Place::Court(s);
            sink.emit(Event::At(c, s));
        }
        End::Collide { ball: d, at } => {
            pos.ball_mut(c).place = Place::Court(at);
            sink.emit(Event::Collide {
                ball: c,
                bumped: d,
                at,
            });
        }
        End::Out(s) => go_out(game, pos, c, s, sink, h),
        End::Goal => {
            pos.ball_mut(c).place = Place::Goal;
            let value = h.goal_value(pos, c);
            add_bonus(pos, c, i16::from(value) - 2);
            sink.emit(Event::Goal(c));
            // T10.4: the play goes on, unless the Goal completes a Perfect
            // Game (T12.3).
            if perfect(pos, sink, h) {
                return;
            }
        }
        End::Touch { .. } | End::Twice { .. } | End::FailStart => {
            unreachable!("sparks neither touch nor start")
        }
    }
    next_shot(pos);
}

/// Back to phase `shot` for a continuation (T7.8).
fn next_shot(pos: &mut Position) {
    pos.phase = Phase::Shot;
    pos.shot = None;
    pos.dice.clear();
    pos.spark = None;
}

/// T8.2: the Outside-Line space an out-ball is placed on. `entered` is the
/// space its step entered (kept when free and not Start Area); for a
/// Touched-Twice penalty it is the touch space and the nearest space is
/// always searched.
fn placement(game: &Gateball, pos: &Position, entered: Space, stepped: bool) -> Space {
    let court = &game.court;
    let mut taken = SpaceFilter::default();
    for b in &pos.balls {
        if let Some(s) = b.place.space() {
            taken.add(s);
        }
    }
    let occupied = |s: Space| taken.may_hold(s) && pos.occupied(s);
    let free = |s: Space| !court.is_start(s) && !occupied(s);
    if stepped && free(entered) {
        return entered;
    }
    court
        .outside_spaces()
        .filter(|&s| free(s))
        .min_by_key(|&s| s.dist2(entered))
        .expect("more Outside-Line spaces than balls")
}

/// T12.3: a team whose five balls all scored a Goal wins at once.
fn perfect(pos: &mut Position, sink: &mut impl Sink<Event>, h: &mut impl Hooks) -> bool {
    for team in [Team::Red, Team::Blue] {
        if team.balls().all(|n| pos.ball_state(n).place == Place::Goal) {
            // A variant may play on, while some ball is left to play.
            let left = (1..=10).any(|n| pos.ball_state(n).place != Place::Goal);
            let ending = if left { h.ending(pos, "perfect-game") } else { None };
            match ending {
                Some(Ending::Veto) => return false,
                Some(Ending::End(winner, by)) => {
                    pos.ended_by = by;
                    game_over(pos, winner, sink);
                }
                None => {
                    sink.emit(Event::Perfect(team));
                    pos.perfect = true;
                    game_over(pos, Winner::Team(team), sink);
                }
            }
            return true;
        }
    }
    false
}

/// The game ends with `winner` (T12).
pub fn game_over(pos: &mut Position, winner: Winner, sink: &mut impl Sink<Event>) {
    next_shot(pos);
    pos.phase = Phase::Over;
    pos.continuation = false;
    pos.touched = 0;
    pos.winner = Some(winner);
    sink.emit(Event::Over {
        winner,
        red: pos.score(Team::Red),
        blue: pos.score(Team::Blue),
    });
}

/// T12.2 at the last play of the last turn: whether a variant plays on
/// (another turn); a variant that ends the game ends it here.
fn play_on(pos: &mut Position, sink: &mut impl Sink<Event>, h: &mut impl Hooks) -> bool {
    match h.ending(pos, "turns-played") {
        None => false,
        Some(Ending::Veto) => true,
        Some(Ending::End(winner, by)) => {
            pos.ended_by = by;
            game_over(pos, winner, sink);
            true
        }
    }
}

/// T3.4: the play ends; the next ball that has not scored a Goal plays,
/// turn by turn, until the last play of the last turn (T12.2).
pub fn end_play(game: &Gateball, pos: &mut Position, sink: &mut impl Sink<Event>) {
    end_play_with(game, pos, sink, &mut ());
}

/// [`end_play`] with the rule points `h` answers.
pub fn end_play_with(
    game: &Gateball,
    pos: &mut Position,
    sink: &mut impl Sink<Event>,
    h: &mut impl Hooks,
) {
    loop {
        sink.emit(Event::EndPlay(pos.ball));
        next_shot(pos);
        pos.continuation = false;
        pos.touched = 0;
        let later = (pos.ball + 1..=10).find(|&n| pos.ball_state(n).place != Place::Goal);
        let next = match later {
            Some(n) => n,
            None if pos.turn >= game.rules.turns
                && (pos.turn == u8::MAX || !play_on(pos, sink, h)) =>
            {
                let (red, blue) = (pos.score(Team::Red), pos.score(Team::Blue));
                let winner = match red.cmp(&blue) {
                    std::cmp::Ordering::Greater => Winner::Team(Team::Red),
                    std::cmp::Ordering::Less => Winner::Team(Team::Blue),
                    std::cmp::Ordering::Equal => Winner::Draw,
                };
                game_over(pos, winner, sink);
                return;
            }
            None if pos.is_over() => return,
            None => {
                pos.turn += 1;
                sink.emit(Event::Turn(pos.turn));
                (1..=10)
                    .find(|&n| pos.ball_state(n).place != Place::Goal)
                    .expect("no Perfect Game, so some ball has not scored")
            }
        };
        pos.ball = next;
        let state = pos.ball_state(next);
        let kind = match state.place {
            Place::Waiting => PlayKind::Start,
            Place::Out(_) => PlayKind::Reentry,
            _ => PlayKind::Court,
        };
        sink.emit(Event::Play(next, kind));
        // T8.4: an out-ball whose entry space is taken waits a turn.
        if let Place::Out(s) = state.place {
            let entry = game.court.entry_space(s);
            if pos.ball_at(entry, next).is_some() {
                sink.emit(Event::NoEntry(next));
                continue;
            }
        }
        return;
    }
}
