//! The turn and phase flow (G3–G13): what the engine does between two
//! decisions. Applying an action carries out its effect and then runs the
//! procedure on until the next decision with at least two legal actions
//! (decisions with one are taken and logged as `auto`, G5.4), or the end
//! of the match.
//!
//! The procedure is a loop over [`Step`]s instead of nested calls, so
//! that an `auto` decision continues the loop rather than recursing, and
//! every step resumes from the position alone: the cursor of a decision
//! (whose move, whose turn, which blocker) is the pending decision, as
//! the notation's "Derived state" says.
//!
//! Chance: [`roll`] takes the forced queue first, then the generator
//! (G14.2, G14.3). A queued value out of range for the die makes the
//! action fail as bad input; [`play`] then restores the position.

use super::action::{Action, Way};
use super::board::{self, NONE};
use super::event::{Event, Injury, RollKind};
use super::position::{
    Ball, Pending, Phase, Player, Position, ResKind, Resolution, STAR_C, STAR_J, STAR_T,
    Misses, SetStats, Status, TackleKind, Winner, bit, members, pid, team_of,
};
use super::rules::{self, groups};
use super::{Gball, Team, Venue, tackle};
use crate::kernel::events::Sink;
use crate::kernel::rng::SplitMix64;
use std::sync::Arc;

/// How the current point ended, between the moment it ends and G12.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointEnd {
    Scored { team: Team, square: u8 },
    Conceded(Team),
    Dead,
}

/// Why the rules would end the match here (a variant's `ending` is asked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesEnd {
    /// G3.1: a team won `sets_to_win_match` sets.
    Sets,
    /// G3.6: the match turn limit.
    TurnLimit,
    /// G4.2: neither team has an available player.
    NoPlayers,
}

impl RulesEnd {
    pub fn name(self) -> &'static str {
        match self {
            RulesEnd::Sets => "sets",
            RulesEnd::TurnLimit => "turn-limit",
            RulesEnd::NoPlayers => "no-players",
        }
    }
}

/// What a variant says where the rules would end the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules' end stands.
    Rules,
    /// Play on (not possible where nobody can play: G4.2's end stands).
    Veto,
    /// The match ends now: this winner, `ended_by` this end.
    End { winner: Winner, reason: u8 },
}

/// The rule points a ruleset's variants may hook, as the engine asks
/// them. Every default is the rulebook, and `()` is the rulebook: the
/// engine is monomorphised per hooks type, so an unscripted match pays
/// nothing for the points it does not use.
pub trait Hooks {
    /// G5.4: how many actions the decision offers (counted up to 2) and
    /// the first — the rules' list, or the variants' (`allow`).
    #[inline(always)]
    fn first_two(&self, g: &Gball, pos: &Position) -> (usize, Option<Action>) {
        rules::first_two_by_rules(g, pos)
    }
    /// G7.4: the total a catch roll of `p` must reach (`target` by the rules).
    #[inline(always)]
    fn catch_target(&self, _pos: &Position, _p: u8, target: u8) -> u8 {
        target
    }
    /// G8.1: what is added to `p`'s tackle die besides his star bonus.
    #[inline(always)]
    fn tackle_modifier(&self, _pos: &Position, _p: u8, _kind: TackleKind) -> i32 {
        0
    }
    /// G13.1: the injury of `p` whose best injury die is `roll`; `None`
    /// keeps the rules' table, `Some(None)` is no injury at all.
    #[inline(always)]
    fn injury(&self, _pos: &Position, _p: u8, _roll: u32) -> Option<Option<Injury>> {
        None
    }
    /// G12.1–G12.2: the points a goal of `team` scores (1 by the rules).
    #[inline(always)]
    fn goal_value(&self, _pos: &Position, _team: Team) -> u8 {
        1
    }
    /// G3.1, G3.6, G4.2: where the rules end the match.
    #[inline(always)]
    fn ending(&self, _pos: &Position, _why: RulesEnd) -> Ending {
        Ending::Rules
    }
    /// G15.2: `team`'s morale (`level` by the rules).
    #[inline(always)]
    fn morale(&self, _pos: &Position, _team: Team, level: u8) -> u8 {
        level
    }
    /// G16.2–G16.4: whether `p` earns the star (`J`, `C`, `T`) the rules give him.
    #[inline(always)]
    fn earns_star(&self, _pos: &Position, _p: u8, _star: char) -> bool {
        true
    }
}

impl Hooks for () {}

/// What one run of the procedure carries besides the position.
pub struct Ctx<'s, S: Sink<Event>, H: Hooks> {
    pub sink: &'s mut S,
    pub hooks: &'s H,
    /// The first forced die out of range (G14.3).
    pub bad: Option<String>,
    pub ended: Option<PointEnd>,
}

impl<S: Sink<Event>, H: Hooks> Ctx<'_, S, H> {
    #[inline(always)]
    pub fn emit(&mut self, e: Event) {
        self.sink.emit(e);
    }
}

/// Rolls an n-sided die (G14.2), forced dice first (G14.3), and logs it.
pub fn roll<S: Sink<Event>, H: Hooks>(
    pos: &mut Position,
    cx: &mut Ctx<S, H>,
    kind: RollKind,
    subject: Option<u8>,
    n: u32,
) -> u32 {
    let value = match pos.dice.pop_front() {
        Some(v) if (1..=n).contains(&v) => v,
        Some(v) => {
            if cx.bad.is_none() {
                cx.bad = Some(format!(
                    "the forced die {v} for `roll {} {}` is not a value of {} die (G14.3)",
                    kind.name(),
                    subject.map_or("-".to_string(), super::position::id_name),
                    crate::diagnostic::a(&format!("{n}-sided"))
                ));
            }
            1
        }
        None => pos.rng.die(n),
    };
    cx.emit(Event::Roll {
        kind,
        subject,
        value,
    });
    value
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // `TurnStep` is G9.3's name
enum Step {
    Decide,
    Stop,
    PointStart,
    /// The team that placed last (the home team before the first
    /// placement, so that the away team starts, G4.3).
    PlaceNext(Team),
    PlacementDone,
    TurnStart,
    Phase(u8),
    MoveFrom(usize),
    MateTurnsFrom(usize),
    Resolve,
    Declines,
    Receivers,
    BlockFrom(usize),
    Engage,
    CatchNext,
    AfterCatching,
    TurnStep,
    /// The actor's key in the movement order (`rules::Groups`), and the
    /// next target id to look at (18: his self-turn).
    TurnFrom(usize, u8),
    Ganging,
    Act,
    EndPhase,
    EndTurn,
    EndPoint,
}

const SELF: u8 = 18;

/// A new match from `seed` (notation `new`): the coin toss of a neutral
/// venue, then the first point up to its first decision.
pub fn new_match<S: Sink<Event>>(g: &Gball, seed: u64, sink: &mut S) -> Position {
    new_match_with(g, seed, sink, &())
}

/// [`new_match`] with a ruleset's rule points.
pub fn new_match_with<S: Sink<Event>, H: Hooks>(
    g: &Gball,
    seed: u64,
    sink: &mut S,
    hooks: &H,
) -> Position {
    let mut pos = Position {
        sets: [0; 2],
        points: [0; 2],
        turn: 0,
        match_turns: 0,
        phase: Phase::Place,
        home: Some(Team::Red),
        prev_winner: None,
        initiative: None,
        morale: None,
        demoralised: None,
        ball: Ball::OFF,
        ball_start: None,
        roster: 0,
        players: [Player::default(); 18],
        veterans: 0,
        star_sets: [0; 3],
        misses: Arc::new([Misses::None; 18]),
        stats: Arc::new([SetStats::default(); 18]),
        resolution: None,
        lost_tackle: 0,
        failed_catch: 0,
        pending: None,
        rng: SplitMix64::new(seed),
        dice: Default::default(),
        winner: None,
        vars: g.start_vars(),
        ended_by: 0,
    };
    for team in Team::BOTH {
        for entry in g.teams.roster(team) {
            let p = pid(team, entry.number);
            pos.roster |= bit(p);
            pos.set_stars(p, entry.stars);
            if entry.veteran {
                pos.veterans |= bit(p);
            }
        }
    }
    let mut cx = Ctx {
        sink,
        hooks,
        bad: None,
        ended: None,
    };
    if g.params.venue == Venue::Neutral {
        coin(&mut pos, &mut cx);
    }
    run(g, &mut pos, &mut cx, Step::PointStart);
    pos
}

/// G3.3: the coin of a neutral venue decides the home team of a set's
/// first point.
fn coin<S: Sink<Event>, H: Hooks>(pos: &mut Position, cx: &mut Ctx<S, H>) {
    let v = roll(pos, cx, RollKind::Coin, None, 2);
    let home = if v == 1 { Team::Red } else { Team::Blu };
    pos.home = Some(home);
    cx.emit(Event::Coin(home));
}

/// Applies a legal action with its events (the hot path passes `()`).
/// Returns the first out-of-range forced die, if any: the position is
/// then not meaningful and the caller restores it.
pub fn apply<S: Sink<Event>>(
    g: &Gball,
    pos: &mut Position,
    action: Action,
    sink: &mut S,
) -> Option<String> {
    apply_with(g, pos, action, sink, &())
}

/// [`apply`] with a ruleset's rule points.
pub fn apply_with<S: Sink<Event>, H: Hooks>(
    g: &Gball,
    pos: &mut Position,
    action: Action,
    sink: &mut S,
    hooks: &H,
) -> Option<String> {
    let mut cx = Ctx {
        sink,
        hooks,
        bad: None,
        ended: None,
    };
    cx.emit(Event::Act(action));
    let step = effect(g, pos, &mut cx, action);
    run(g, pos, &mut cx, step);
    cx.bad
}

/// Starts phase `k` (1–4) of the position's turn from the players and
/// ball a scenario's `setup:` lines placed (`super::scenario`), and runs
/// the procedure to the first decision, as if the turn had come there by
/// play: the engine, not the designer, settles initiative (G5.2), moves
/// the loose ball (G6.1) and takes the one-action decisions (G5.4).
/// Returns the first out-of-range forced die, as [`apply`] does.
pub fn begin_phase<S: Sink<Event>>(
    g: &Gball,
    pos: &mut Position,
    k: u8,
    sink: &mut S,
) -> Option<String> {
    begin_phase_with(g, pos, k, sink, &())
}

/// [`begin_phase`] with a ruleset's rule points.
pub fn begin_phase_with<S: Sink<Event>, H: Hooks>(
    g: &Gball,
    pos: &mut Position,
    k: u8,
    sink: &mut S,
    hooks: &H,
) -> Option<String> {
    let mut cx = Ctx {
        sink,
        hooks,
        bad: None,
        ended: None,
    };
    pos.pending = None;
    pos.resolution = None;
    run(g, pos, &mut cx, Step::Phase(k.clamp(1, 4)));
    cx.bad
}

/// Checks `action` against the legal list and applies it; a refused
/// action, or one that reaches a forced die out of range, leaves `pos`
/// unchanged and logs nothing.
pub fn play<S: Sink<Event>>(
    g: &Gball,
    pos: &mut Position,
    action: Action,
    sink: &mut S,
) -> Result<(), String> {
    if !rules::is_legal(g, pos, action) {
        if rules::is_legal_by_rules(g, pos, action) {
            return Err(format!(
                "`{action}` is refused by this ruleset's variants (`allow`; rule `ruleset`)"
            ));
        }
        return Err(super::refusal::why(g, pos, action));
    }
    let backup = pos.clone();
    let mut log = Vec::new();
    if let Some(bad) = g.apply_any(pos, action, &mut log) {
        *pos = backup;
        return Err(format!("bad input for action `{action}`: {bad}"));
    }
    for e in log {
        sink.emit(e);
    }
    Ok(())
}

fn run<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>, mut step: Step) {
    loop {
        step = match step {
            Step::Stop => return,
            Step::Decide => {
                let (n, first) = cx.hooks.first_two(g, pos);
                match (n, first) {
                    (1, Some(a)) => {
                        cx.emit(Event::Auto(a));
                        effect(g, pos, cx, a)
                    }
                    _ => {
                        debug_assert!(n >= 2, "a decision without a choice: {:?}", pos.pending);
                        return;
                    }
                }
            }
            Step::PointStart => point_start(g, pos, cx),
            Step::PlaceNext(last) => place_next(g, pos, last),
            Step::PlacementDone => placement_done(pos, cx),
            Step::TurnStart => {
                pos.turn += 1;
                pos.lost_tackle = 0;
                pos.failed_catch = 0;
                cx.emit(Event::Turn(pos.turn));
                Step::Phase(1)
            }
            Step::Phase(k) => phase_start(g, pos, cx, k),
            Step::MoveFrom(i) => move_from(g, pos, cx, i),
            Step::MateTurnsFrom(i) => mate_turns_from(pos, i),
            Step::Resolve => resolve(pos),
            Step::Declines => declines(pos),
            Step::Receivers => receivers(pos),
            Step::BlockFrom(i) => block_from(pos, i),
            Step::Engage => {
                let kind = pos.resolution.as_ref().map(|r| r.kind);
                match kind {
                    Some(ResKind::Maul) => match tackle::maul(g, pos, cx) {
                        tackle::Next::TurnStep => Step::TurnStep,
                        tackle::Next::Catch => Step::CatchNext,
                        tackle::Next::EndPhase => Step::EndPhase,
                    },
                    _ => match tackle::ruck(g, pos, cx) {
                        tackle::Next::TurnStep => Step::TurnStep,
                        tackle::Next::Catch => Step::CatchNext,
                        tackle::Next::EndPhase => Step::EndPhase,
                    },
                }
            }
            Step::CatchNext => {
                let (team, allowed, _) = rules::catch_options(pos);
                if allowed == 0 {
                    Step::AfterCatching
                } else {
                    pos.pending = Some(Pending::Catch(team));
                    Step::Decide
                }
            }
            Step::AfterCatching => after_catching(pos),
            Step::TurnStep => {
                accidents(pos, cx);
                Step::TurnFrom(0, 0)
            }
            Step::TurnFrom(i, from) => turn_from(pos, i, from),
            Step::Ganging => ganging(pos, cx),
            Step::Act => {
                if pos.ball.holder != NONE {
                    pos.pending = Some(Pending::Act(pos.ball.holder));
                    Step::Decide
                } else {
                    Step::EndPhase
                }
            }
            Step::EndPhase => end_phase(pos, cx),
            Step::EndTurn => end_turn(g, pos, cx),
            Step::EndPoint => end_point(g, pos, cx),
        };
    }
}

/// Carries out one decision and says where the procedure goes on.
fn effect<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>, action: Action) -> Step {
    let pending = pos.pending.take();
    match action {
        Action::Place { player, square } => {
            let team = team_of(player);
            let pl = &mut pos.players[player as usize];
            pl.at = square;
            pl.facing = board::forward(team);
            Step::PlaceNext(team)
        }
        Action::Move { player, dir } => {
            let from = pos.players[player as usize].at;
            let to = board::neighbour(from, dir);
            let pl = &mut pos.players[player as usize];
            pl.at = to;
            pl.facing = dir;
            cx.emit(Event::Moved { player, from, to });
            Step::MoveFrom(rules::order_key(pos, player) + 1)
        }
        // A variant's action has had its effect (`Script::apply`): the
        // player then stays.
        Action::Stay { player } | Action::Variant { player, .. } => {
            Step::MoveFrom(rules::order_key(pos, player) + 1)
        }
        Action::Turn { actor, target, way } => {
            if way != Way::None {
                let pl = &mut pos.players[target as usize];
                pl.facing = rules::turned(pl.facing, way);
                cx.emit(Event::Turned(target, pl.facing));
            }
            let i = rules::order_key(pos, actor);
            match pos.resolution.as_mut() {
                None => Step::MateTurnsFrom(i + 1),
                Some(r) => {
                    r.turned |= bit(target);
                    if target == actor {
                        Step::TurnFrom(i + 1, 0)
                    } else {
                        Step::TurnFrom(i, target + 1)
                    }
                }
            }
        }
        Action::Decline(m) => {
            let team = pending.map_or(Team::Red, |p| p.team());
            if let Some(r) = pos.resolution.as_mut() {
                r.declined[team.index()] = Some(m);
            }
            Step::Declines
        }
        Action::Receivers(m) => {
            let team = pending.map_or(Team::Red, |p| p.team());
            if let Some(r) = pos.resolution.as_mut() {
                r.receivers[team.index()] = Some(m);
            }
            Step::Receivers
        }
        Action::Block { blocker, opponent } => {
            if let Some(r) = pos.resolution.as_mut() {
                r.push_block(blocker, opponent);
            }
            let (mut k, mut found) = (0, usize::MAX - 1);
            blockers_each(pos, &mut |b| {
                if b == blocker {
                    found = k;
                }
                k += 1;
            });
            Step::BlockFrom(found + 1)
        }
        Action::Catch(Some(p)) => {
            if let Some(r) = pos.resolution.as_mut() {
                r.push_catcher(p);
            }
            let ok = catch_roll(g, pos, cx, p);
            if ok {
                let team = team_of(p);
                pos.ball = Ball {
                    at: pos.players[p as usize].at,
                    dir: NONE,
                    spin: false,
                    holder: p,
                    possession: Some(team),
                };
                if board::is_goal_of(pos.ball.at, team.other()) {
                    return score(g, pos, cx, p);
                }
            }
            Step::CatchNext
        }
        Action::Catch(None) => Step::AfterCatching,
        Action::Aim(d) => {
            pos.ball.dir = d;
            Step::TurnStep
        }
        Action::Keep(h) => after_act(pos, h),
        Action::Throw { holder, dir } => {
            pos.ball.holder = NONE;
            pos.ball.dir = dir;
            pos.ball.spin = false;
            after_act(pos, holder)
        }
        Action::Spin(h) => {
            pos.ball.holder = NONE;
            pos.ball.dir = NONE;
            pos.ball.spin = true;
            after_act(pos, h)
        }
        Action::Handoff { holder, to } => {
            let sq = pos.players[holder as usize].at;
            if board::is_air(sq) {
                if catch_roll(g, pos, cx, to) {
                    pos.ball.holder = to;
                } else {
                    pos.ball = Ball {
                        at: sq,
                        dir: NONE,
                        spin: true,
                        holder: NONE,
                        possession: None,
                    };
                }
            } else {
                pos.ball.holder = to;
            }
            after_act(pos, holder)
        }
    }
}

/// G10.6: a leaving holder leaves right after his act, with no event.
fn after_act(pos: &mut Position, h: u8) -> Step {
    let pl = &mut pos.players[h as usize];
    if pl.out != Status::None {
        pl.at = NONE;
        pl.facing = NONE;
    }
    Step::EndPhase
}

/// G7.4: a catch roll, with its counters (G16.3), possession (G2.7) and
/// the per-turn record of a failure (G5.5).
pub fn catch_roll<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>, p: u8) -> bool {
    let v = roll(pos, cx, RollKind::Catch, Some(p), 6);
    let total = v + rules::bonus(g, pos, p, STAR_C);
    let target = cx.hooks.catch_target(pos, p, g.params.catch_target);
    let ok = total >= u32::from(target);
    let st = &mut Arc::make_mut(&mut pos.stats)[p as usize];
    st.catches += 1;
    if ok {
        st.caught += 1;
        pos.ball.possession = Some(team_of(p));
    } else {
        pos.failed_catch |= bit(p);
        pos.ball.possession = None;
    }
    cx.emit(Event::Catch {
        player: p,
        total,
        ok,
    });
    earn(g, pos, cx, p);
    ok
}

/// G16.3–G16.4: the catching and tackling thresholds, checked after every
/// catch roll and engagement.
pub fn earn<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>, p: u8) {
    if !g.params.earned_stars {
        return;
    }
    let pr = &g.params;
    if pos.veterans & bit(p) != 0 {
        return;
    }
    let s = pos.stats[p as usize];
    if !pos.has_star(p, STAR_C)
        && s.catches >= pr.catch_attempts_min
        && 1000 * u64::from(s.caught) >= u64::from(pr.catch_rate_min) * u64::from(s.catches)
        && cx.hooks.earns_star(pos, p, 'C')
    {
        pos.give_star(p, STAR_C);
        cx.emit(Event::Star(p, 'C'));
    }
    if !pos.has_star(p, STAR_T)
        && s.tackles >= pr.tackles_min
        && 1000 * u64::from(s.won) >= u64::from(pr.tackle_rate_min) * u64::from(s.tackles)
        && cx.hooks.earns_star(pos, p, 'T')
    {
        pos.give_star(p, STAR_T);
        cx.emit(Event::Star(p, 'T'));
    }
}

/// G12.1: `p` holds the ball on the opponents' goal. The point ends at
/// once (G5.6); the hat-trick run (G16.2) is updated here, since the
/// `star J` event follows the score.
fn score<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>, p: u8) -> Step {
    let sq = pos.players[p as usize].at;
    cx.emit(Event::Score(p, sq));
    for q in members(pos.roster) {
        if q != p {
            Arc::make_mut(&mut pos.stats)[q as usize].streak = 0;
        }
    }
    Arc::make_mut(&mut pos.stats)[p as usize].streak += 1;
    if g.params.earned_stars
        && pos.veterans & bit(p) == 0
        && !pos.has_star(p, STAR_J)
        && pos.stats[p as usize].streak >= u32::from(g.params.hat_trick)
        && cx.hooks.earns_star(pos, p, 'J')
    {
        pos.give_star(p, STAR_J);
        cx.emit(Event::Star(p, 'J'));
    }
    cx.ended = Some(PointEnd::Scored {
        team: team_of(p),
        square: sq,
    });
    Step::EndTurn
}

fn available(pos: &Position, team: Team) -> u32 {
    members(pos.roster & team.mask())
        .filter(|&p| pos.players[p as usize].out == Status::None)
        .count() as u32
}

fn point_start<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>) -> Step {
    let home = pos.home.unwrap_or(Team::Red);
    cx.emit(Event::NewPoint(home));
    let (red, blu) = (available(pos, Team::Red), available(pos, Team::Blu));
    if red == 0 && blu == 0 {
        // G4.2: nobody can play; G3.6's rule decides (a variant may name
        // the winner and the end, but not play on: nobody could).
        end_match(pos, cx, RulesEnd::NoPlayers);
        return Step::Stop;
    }
    if red == 0 || blu == 0 {
        let t = if red == 0 { Team::Red } else { Team::Blu };
        cx.emit(Event::Concede(t));
        cx.ended = Some(PointEnd::Conceded(t.other()));
        return Step::EndPoint;
    }
    pos.phase = Phase::Place;
    pos.turn = 0;
    pos.initiative = None;
    pos.morale = None;
    pos.demoralised = None;
    pos.resolution = None;
    pos.lost_tackle = 0;
    pos.failed_catch = 0;
    pos.ball = Ball::OFF;
    if let Some((square, dir)) = pos.ball_start {
        pos.ball.at = square;
        pos.ball.dir = dir;
        cx.emit(Event::Entry { square, dir });
    }
    let _ = g;
    Step::PlaceNext(home)
}

fn place_next(g: &Gball, pos: &mut Position, last: Team) -> Step {
    // Over the team's nine slots without a branch: greedy weighs each
    // placement, and each asks this.
    let need = |pos: &Position, t: Team| {
        let (mut free, mut on) = (0u32, 0u32);
        for (i, pl) in pos.team_players(t).iter().enumerate() {
            free |= u32::from(pl.out == Status::None) << i;
            on |= u32::from(pl.at != NONE) << i;
        }
        let team = pos.roster >> pid(t, 1);
        let want = (free & team).count_ones().min(u32::from(g.params.players_on_court));
        want.saturating_sub((on & team).count_ones())
    };
    let next = if need(pos, last.other()) > 0 {
        last.other()
    } else if need(pos, last) > 0 {
        last
    } else {
        return Step::PlacementDone;
    };
    pos.pending = Some(Pending::Place(next));
    Step::Decide
}

const F1: u8 = board::square(5, 0);
const F6: u8 = board::square(5, 5);

/// G4.4: the entry die, after the last placement, for a ball off court.
fn placement_done<S: Sink<Event>, H: Hooks>(pos: &mut Position, cx: &mut Ctx<S, H>) -> Step {
    if pos.ball.at == NONE {
        let v = roll(pos, cx, RollKind::Entry, None, 6);
        // G1.8: RED's left is north (F6), BLU's south (F1).
        let (left, right) = match pos.home.unwrap_or(Team::Red) {
            Team::Red => (F6, F1),
            Team::Blu => (F1, F6),
        };
        let square = if v <= 3 { left } else { right };
        let dir = if square == F6 { 4 } else { 0 };
        pos.ball.at = square;
        pos.ball.dir = dir;
        cx.emit(Event::Entry { square, dir });
    }
    Step::TurnStart
}

/// G4.5: where the ball starts after a point scored on `goal`, conceded
/// by `conceding`.
pub fn start_after_score(goal: u8, conceding: Team) -> (u8, u8) {
    let low = board::row(goal) <= 2; // rows 2–3
    let sq = if low { F1 } else { F6 };
    let dir = match (conceding, low) {
        (Team::Red, true) => 7,  // NW
        (Team::Red, false) => 5, // SW
        (Team::Blu, true) => 1,  // NE
        (Team::Blu, false) => 3, // SE
    };
    (sq, dir)
}

/// G5.2, G15: initiative, morale and demoralisation for a phase.
pub fn settle(g: &Gball, pos: &mut Position) {
    settle_with(g, pos, &());
}

/// [`settle`] with a ruleset's rule points (`morale`).
pub fn settle_with<H: Hooks>(g: &Gball, pos: &mut Position, hooks: &H) {
    let home = pos.home.unwrap_or(Team::Red);
    let fallback = pos.ball.possession.unwrap_or(home);
    if !g.params.morale {
        pos.morale = None;
        pos.demoralised = None;
        pos.initiative = Some(fallback);
        return;
    }
    let mut m = morale_levels(g, pos);
    for t in Team::BOTH {
        m[t.index()] = hooks.morale(pos, t, m[t.index()]);
    }
    pos.morale = Some(m);
    let (r, b) = (m[0], m[1]);
    pos.initiative = Some(match r.cmp(&b) {
        std::cmp::Ordering::Greater => Team::Red,
        std::cmp::Ordering::Less => Team::Blu,
        std::cmp::Ordering::Equal => fallback,
    });
    pos.demoralised = if r.abs_diff(b) >= g.params.demoralise_gap {
        Some(if r < b { Team::Red } else { Team::Blu })
    } else {
        None
    };
}

/// G15.2: both teams' morale, by team index.
pub fn morale_levels(g: &Gball, pos: &Position) -> [u8; 2] {
    let mut m = [0u8; 2];
    for team in Team::BOTH {
        let vets = members(pos.roster & team.mask())
            .filter(|&p| pos.in_play(p) && pos.veterans & bit(p) != 0)
            .count() as u8;
        let mut v = vets;
        if pos.ball.possession == Some(team) {
            v += 1;
        }
        if pos.prev_winner == Some(team) {
            v += 1;
        }
        if g.params.venue == Venue::Home && pos.home == Some(team) {
            v += 1;
        }
        m[team.index()] = v;
    }
    m
}

/// G6.1, G11.1: a loose moving ball moves one square, bouncing (G6.2).
fn move_ball<S: Sink<Event>, H: Hooks>(pos: &mut Position, cx: &mut Ctx<S, H>) {
    if !pos.ball.is_moving() {
        return;
    }
    let from = pos.ball.at;
    let to = board::neighbour(from, pos.ball.dir);
    if to == NONE {
        debug_assert!(false, "a ball direction off the grid");
        return;
    }
    let dir = board::bounce(to, pos.ball.dir);
    pos.ball.at = to;
    pos.ball.dir = dir;
    cx.emit(Event::Ball { from, to, dir });
}

fn phase_start<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>, k: u8) -> Step {
    settle_with(g, pos, cx.hooks);
    cx.emit(Event::Phase {
        phase: k,
        initiative: pos.initiative.unwrap_or(Team::Red),
    });
    pos.resolution = None;
    match k {
        1 => {
            pos.phase = Phase::Phase1;
            move_ball(pos, cx);
            Step::MoveFrom(0)
        }
        2 => {
            pos.phase = Phase::Phase2;
            Step::MateTurnsFrom(0)
        }
        3 => {
            move_ball(pos, cx);
            Step::Phase(4)
        }
        _ => {
            pos.phase = Phase::Phase4;
            Step::Resolve
        }
    }
}

/// G6.3–G6.9: players move in movement order from index `i`.
fn move_from<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>, i: usize) -> Step {
    for (_, p) in groups(pos).from(i) {
        if !pos.in_play(p) {
            continue;
        }
        let from = pos.players[p as usize].at;
        if board::is_wall(from) {
            pos.pending = Some(Pending::Move(p));
            return Step::Decide;
        }
        let to = board::neighbour(from, pos.players[p as usize].facing);
        pos.players[p as usize].at = to;
        cx.emit(Event::Moved {
            player: p,
            from,
            to,
        });
        if pos.ball.holder == p {
            pos.ball.at = to;
            if board::is_goal_of(to, team_of(p).other()) {
                return score(g, pos, cx, p);
            }
        }
    }
    Step::Phase(2)
}

/// G9.2: team-mate turns, in movement order from index `i`.
fn mate_turns_from(pos: &mut Position, i: usize) -> Step {
    // Who is on the ball's square, found once for the tackle square here
    // and for the resolution that follows when nobody turns (the
    // position is the same): asked after every phase 1 of every action
    // greedy weighs.
    let on_ball = rules::on_ball(pos);
    let ts = rules::tackle_square(pos, on_ball);
    // The players in play on an air square other than the tackle square
    // who share it with a team-mate.
    // Squares as bits, per team: one pass finds the shared squares, a
    // second (only when there is one) the players on them. Asked after
    // every phase 1 of every action greedy weighs; a pair-by-pair scan
    // was 7 % of its instructions.
    let inplay = pos.in_play_mask();
    // Air squares as bits (`board::AIR`): a square outside it (a wall,
    // the tackle square) is dropped at the end, not tested per player.
    let keep = board::AIR & !(1u64 << (ts & 63) & board::AIR);
    let mut seen = [0u64; 2];
    let mut shared = [0u64; 2];
    for t in Team::BOTH {
        let (seen, shared) = (&mut seen[t.index()], &mut shared[t.index()]);
        for p in members(inplay & t.mask()) {
            let b = 1u64 << (pos.players[p as usize].at & 63);
            *shared |= *seen & b;
            *seen |= b;
        }
        *shared &= keep;
    }
    if shared == [0, 0] {
        return resolve_on(pos, on_ball);
    }
    let mut sharing = 0u32;
    for t in Team::BOTH {
        for p in members(inplay & t.mask()) {
            if shared[t.index()] & 1u64 << (pos.players[p as usize].at & 63) != 0 {
                sharing |= bit(p);
            }
        }
    }
    for (_, p) in groups(pos).from(i) {
        if sharing & bit(p) != 0 {
            pos.pending = Some(Pending::Turn {
                actor: p,
                target: p,
            });
            return Step::Decide;
        }
    }
    resolve_on(pos, on_ball)
}

/// G7.2, G11.2: which ball resolution the phase has.
fn resolve(pos: &mut Position) -> Step {
    resolve_on(pos, rules::on_ball(pos))
}

/// [`resolve`] with the players in play on the ball's square, `on`.
fn resolve_on(pos: &mut Position, on: u32) -> Step {
    let sq = pos.ball.at;
    if sq == NONE {
        return Step::Act;
    }
    let (red, blu) = (on & Team::Red.mask() != 0, on & Team::Blu.mask() != 0);
    let kind = if pos.ball.holder == NONE {
        if red && blu {
            ResKind::Ruck
        } else if red || blu {
            ResKind::Catch
        } else {
            return Step::Act;
        }
    } else if pos.phase == Phase::Phase2 && board::is_air(sq) && red && blu {
        ResKind::Maul
    } else {
        return Step::Act;
    };
    pos.resolution = Some(Resolution::new(kind, sq));
    match kind {
        ResKind::Catch => Step::CatchNext,
        _ => Step::Declines,
    }
}

/// G8.3: the team without initiative declines first.
fn declines(pos: &mut Position) -> Step {
    let init = pos.initiative.unwrap_or(Team::Red);
    let Some(r) = pos.resolution else {
        return Step::Act;
    };
    for t in [init.other(), init] {
        if r.declined[t.index()].is_none() {
            pos.pending = Some(Pending::Decline(t));
            return Step::Decide;
        }
    }
    let part = rules::participants(pos);
    let (red, blu) = (part & Team::Red.mask(), part & Team::Blu.mask());
    match r.kind {
        ResKind::Ruck => {
            if red != 0 && blu != 0 {
                Step::Receivers
            } else {
                // G8.4 step 2: one side catches as in a plain catch; with
                // nobody, nobody catches (AfterCatching goes to step 7).
                Step::CatchNext
            }
        }
        _ => {
            let carrier_team = team_of(pos.ball.holder);
            if part & carrier_team.other().mask() == 0 {
                Step::TurnStep
            } else {
                Step::BlockFrom(0)
            }
        }
    }
}

fn receivers(pos: &mut Position) -> Step {
    let init = pos.initiative.unwrap_or(Team::Red);
    let Some(r) = pos.resolution else {
        return Step::Act;
    };
    for t in [init.other(), init] {
        if r.receivers[t.index()].is_none() {
            pos.pending = Some(Pending::Receivers(t));
            return Step::Decide;
        }
    }
    Step::BlockFrom(0)
}

/// The blockers in allocation order (G8.4 step 4, G8.7 step 3).
pub fn blockers(pos: &Position) -> Vec<u8> {
    let mut out = Vec::new();
    blockers_each(pos, &mut |b| out.push(b));
    out
}

fn blockers_each(pos: &Position, f: &mut impl FnMut(u8)) {
    let Some(r) = &pos.resolution else { return };
    let part = rules::participants(pos);
    match r.kind {
        ResKind::Ruck => {
            let init = pos.initiative.unwrap_or(Team::Red);
            for t in [init.other(), init] {
                if r.receivers[t.other().index()].unwrap_or(0) == 0 {
                    continue;
                }
                let rec = r.receivers[t.index()].unwrap_or(0);
                for b in members(part & t.mask() & !rec) {
                    f(b);
                }
            }
        }
        ResKind::Maul => {
            let h = pos.ball.holder;
            if h == NONE {
                return;
            }
            for b in members(part & team_of(h).mask() & !bit(h)) {
                f(b);
            }
        }
        ResKind::Catch => {}
    }
}

fn block_from(pos: &mut Position, i: usize) -> Step {
    let mut k = 0;
    let mut next = NONE;
    blockers_each(pos, &mut |b| {
        if k == i && next == NONE {
            next = b;
        }
        k += 1;
    });
    if next == NONE {
        return Step::Engage;
    }
    pos.pending = Some(Pending::Block(next));
    Step::Decide
}

fn after_catching(pos: &mut Position) -> Step {
    let Some(r) = pos.resolution else {
        return Step::Act;
    };
    match r.kind {
        ResKind::Catch => Step::Act,
        ResKind::Maul if pos.ball.holder == NONE => {
            let (team, _, _) = rules::catch_options(pos);
            pos.pending = Some(Pending::Aim(team));
            Step::Decide
        }
        _ if board::is_air(r.square) => Step::TurnStep,
        _ => Step::Act,
    }
}

/// G9.4: accidental turns, in movement order.
fn accidents<S: Sink<Event>, H: Hooks>(pos: &mut Position, cx: &mut Ctx<S, H>) {
    let Some(r) = pos.resolution else { return };
    let mut fumblers = 0u32;
    for t in r.tackles() {
        if t.kind == TackleKind::Block && t.rx == t.ry {
            fumblers |= bit(t.x) | bit(t.y);
        }
    }
    if fumblers == 0 {
        return;
    }
    for (_, p) in groups(pos).from(0) {
        if fumblers & bit(p) == 0 || !pos.in_play(p) {
            continue;
        }
        let v = roll(pos, cx, RollKind::Accident, Some(p), 6);
        let way = match v {
            1 | 2 => Way::Left,
            5 | 6 => Way::Right,
            _ => Way::None,
        };
        if way != Way::None {
            let pl = &mut pos.players[p as usize];
            pl.facing = rules::turned(pl.facing, way);
            cx.emit(Event::Turned(p, pl.facing));
            if let Some(r) = pos.resolution.as_mut() {
                r.turned |= bit(p);
            }
        }
    }
}

/// G9.3 step 2: the turn decisions, from actor index `i`, target `from`.
fn turn_from(pos: &mut Position, i: usize, from: u8) -> Step {
    let Some(r) = pos.resolution else {
        return Step::Ganging;
    };
    let part = rules::participants(pos);
    for (k, a) in groups(pos).from(i) {
        if part & bit(a) == 0 {
            continue;
        }
        let start = if k == i { from } else { 0 };
        let mut beaten = 0u32;
        let mut tackled = false;
        let mut won_all = true;
        for t in r.tackles() {
            if !t.involves(a) {
                continue;
            }
            tackled = true;
            match t.winner() {
                Some(w) if w == a => beaten |= bit(if t.x == a { t.y } else { t.x }),
                _ => won_all = false,
            }
        }
        if start < SELF {
            for v in members(beaten) {
                if v >= start && pos.in_play(v) && r.turned & bit(v) == 0 {
                    pos.pending = Some(Pending::Turn {
                        actor: a,
                        target: v,
                    });
                    return Step::Decide;
                }
            }
        }
        if start <= SELF && r.turned & bit(a) == 0 {
            let ok = if tackled {
                won_all
            } else {
                let sq = pos.players[a as usize].at;
                pos.in_play_on(sq) & team_of(a).mask() & !bit(a) != 0
            };
            if ok {
                pos.pending = Some(Pending::Turn {
                    actor: a,
                    target: a,
                });
                return Step::Decide;
            }
        }
    }
    Step::Ganging
}

/// G9.5: team-mates facing alike on an air square are sent out.
fn ganging<S: Sink<Event>, H: Hooks>(pos: &mut Position, cx: &mut Ctx<S, H>) -> Step {
    let inplay = pos.in_play_mask();
    let mut out = 0u32;
    for p in members(inplay) {
        let pl = pos.players[p as usize];
        if !board::is_air(pl.at) {
            continue;
        }
        for q in members(inplay & team_of(p).mask() & !bit(p)) {
            let ql = &pos.players[q as usize];
            if ql.at == pl.at && ql.facing == pl.facing {
                out |= bit(p);
            }
        }
    }
    for p in members(out) {
        cx.emit(Event::Out(p, Status::Point, super::event::OutCause::Ganging));
        send_out(pos, p, Status::Point);
    }
    Step::Act
}

/// Gives `p` a status and takes him off court — except a holder, who
/// stays as a leaving holder until his act (G10.6).
pub fn send_out(pos: &mut Position, p: u8, status: Status) {
    let pl = &mut pos.players[p as usize];
    if pl.out == Status::None {
        pl.out = status;
    }
    if pos.ball.holder != p {
        pl.at = NONE;
        pl.facing = NONE;
    }
}

fn end_phase<S: Sink<Event>, H: Hooks>(pos: &mut Position, cx: &mut Ctx<S, H>) -> Step {
    pos.resolution = None;
    // Whether anyone is in play: the first one found will do.
    let anyone = (pos.players.iter().enumerate())
        .any(|(i, pl)| pl.at != NONE && pl.out == Status::None && pos.roster & bit(i as u8) != 0);
    if !anyone {
        cx.ended = Some(PointEnd::Dead);
        return Step::EndTurn;
    }
    if pos.phase == Phase::Phase2 {
        if pos.ball.is_loose() && pos.ball.spin {
            Step::EndTurn
        } else {
            Step::Phase(3)
        }
    } else {
        Step::EndTurn
    }
}

/// G11.3.
fn end_turn<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>) -> Step {
    pos.match_turns += 1;
    if cx.ended.is_some() {
        return Step::EndPoint;
    }
    let limit = g.params.point_turn_limit;
    if limit > 0 && pos.turn >= limit {
        cx.ended = Some(PointEnd::Dead);
        return Step::EndPoint;
    }
    let mlimit = g.params.match_turn_limit;
    if mlimit > 0 && pos.match_turns >= mlimit && end_match(pos, cx, RulesEnd::TurnLimit) {
        return Step::Stop;
    }
    Step::TurnStart
}

/// G3.6: more sets, else more points in the current set, else a draw.
pub fn limit_winner(pos: &Position) -> Winner {
    use std::cmp::Ordering::*;
    match pos.sets[0].cmp(&pos.sets[1]).then(pos.points[0].cmp(&pos.points[1])) {
        Greater => Winner::Team(Team::Red),
        Less => Winner::Team(Team::Blu),
        Equal => Winner::Draw,
    }
}

/// Where the rules end the match (`why`): the match ends as the rules
/// or a variant say, or plays on when a variant vetoes it (not where
/// nobody can play). Whether it ended.
fn end_match<S: Sink<Event>, H: Hooks>(
    pos: &mut Position,
    cx: &mut Ctx<S, H>,
    why: RulesEnd,
) -> bool {
    let (w, reason) = match cx.hooks.ending(pos, why) {
        Ending::Veto if why != RulesEnd::NoPlayers => return false,
        // G3.1's winner has more sets; G3.6 and G4.2 judge by sets, then points.
        Ending::Rules | Ending::Veto => (limit_winner(pos), 0),
        Ending::End { winner, reason } => (winner, reason),
    };
    cx.emit(Event::Match(w));
    finish(pos, w);
    pos.ended_by = reason;
    true
}

/// G3.7: the final position.
pub fn finish(pos: &mut Position, w: Winner) {
    pos.phase = Phase::Over;
    pos.pending = None;
    pos.winner = Some(w);
    pos.turn = 0;
    pos.home = None;
    pos.prev_winner = None;
    pos.initiative = None;
    pos.morale = None;
    pos.demoralised = None;
    pos.resolution = None;
    pos.lost_tackle = 0;
    pos.failed_catch = 0;
    pos.ball = Ball::OFF;
    pos.ball_start = None;
    for p in members(pos.roster) {
        let pl = &mut pos.players[p as usize];
        pl.at = NONE;
        pl.facing = NONE;
        pl.out = Status::None;
    }
}

/// G12.2.
fn end_point<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>) -> Step {
    let end = cx.ended.take().unwrap_or(PointEnd::Dead);
    let mut set_won = false;
    let mut winner = None;
    match end {
        PointEnd::Dead => cx.emit(Event::Dead),
        PointEnd::Scored { team, .. } | PointEnd::Conceded(team) => {
            if matches!(end, PointEnd::Conceded(_)) {
                // G16.2: a conceded point breaks every run.
                for p in members(pos.roster) {
                    Arc::make_mut(&mut pos.stats)[p as usize].streak = 0;
                }
            }
            winner = Some(team);
            let value = match end {
                PointEnd::Scored { .. } => cx.hooks.goal_value(pos, team),
                _ => 1,
            };
            pos.points[team.index()] = pos.points[team.index()].saturating_add(value);
            if pos.points[team.index()] >= g.params.points_to_win_set {
                pos.sets[team.index()] = pos.sets[team.index()].saturating_add(1);
                pos.points = [0, 0];
                set_won = true;
                cx.emit(Event::Set(team));
                if pos.sets[team.index()] >= g.params.sets_to_win_match
                    && end_match(pos, cx, RulesEnd::Sets)
                {
                    return Step::Stop;
                }
            }
        }
    }
    let mlimit = g.params.match_turn_limit;
    if mlimit > 0 && pos.match_turns >= mlimit && end_match(pos, cx, RulesEnd::TurnLimit) {
        return Step::Stop;
    }
    // G13.4: everyone leaves; statuses age.
    for p in members(pos.roster) {
        let pl = &mut pos.players[p as usize];
        pl.at = NONE;
        pl.facing = NONE;
        pl.out = match pl.out {
            Status::Point => Status::None,
            Status::Sinbin => Status::Point,
            Status::Set if set_won => Status::None,
            s => s,
        };
    }
    match (end, winner) {
        (PointEnd::Dead, _) | (_, None) => {}
        (_, Some(w)) if set_won => {
            pos.prev_winner = None;
            for p in members(pos.roster) {
                Arc::make_mut(&mut pos.stats)[p as usize] = SetStats::default();
            }
            if g.params.venue == Venue::Neutral {
                coin(pos, cx);
            }
            let _ = w;
        }
        (_, Some(w)) => {
            pos.prev_winner = Some(w);
            if g.params.venue == Venue::Neutral {
                pos.home = Some(w);
            }
        }
    }
    pos.ball_start = match end {
        PointEnd::Dead => pos.ball_start,
        PointEnd::Scored { team, square } if !set_won => {
            Some(start_after_score(square, team.other()))
        }
        _ => None,
    };
    pos.ball = Ball::OFF;
    pos.resolution = None;
    pos.pending = None;
    pos.lost_tackle = 0;
    pos.failed_catch = 0;
    pos.initiative = None;
    pos.morale = None;
    pos.demoralised = None;
    pos.turn = 0;
    Step::PointStart
}
