//! Legal moves (T5–T10): every step of a move judged in order. This is the
//! one place that decides what a shot, a start, a re-entry or a spark can
//! do; `apply.rs` replays the same judgement to carry a move out, so the
//! legal list and the effect never disagree.

use std::fmt;

use super::Gateball;
use super::action::{Action, Motion, Move};
use super::court::Court;
use super::position::{Phase, Place, Position, ShotKind};
use super::space::{Dir, Space, SpaceFilter};

/// What kind of move a ball makes: each kind has its own stopping rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A waiting ball's start shot from a Start-Area space (T9).
    Start,
    /// An out-ball's re-entry from its entry space (T8.4).
    Reentry,
    /// A shot of a ball on the court (T5).
    Shot,
    /// A spark after a power shot (T7.6 a).
    PowerSpark,
    /// A spark after a technical shot (T7.6 b).
    TechSpark,
}

/// How a move ended (T5.5, T7, T8, T9.3, T10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Came to rest on a court space at the end of its distance.
    At(Space),
    /// Stepped onto the Outside Line at this space (placement is T8.2's).
    Out(Space),
    /// Entered the Finish Space while eligible (T10.2).
    Goal,
    /// A valid touch of `ball` on `at`, entered from `prev` (T7.1, T7.5).
    Touch { ball: u8, at: Space, prev: Space },
    /// Touched `ball` again on `at` (T7.4).
    Twice { ball: u8, at: Space },
    /// A start shot ended without passing gate 1 (T9.3).
    FailStart,
    /// A power spark stopped on `at` before `ball` (T7.6 a).
    Collide { ball: u8, at: Space },
}

/// One gate crossing of a move, in step order (T6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passage {
    pub gate: u8,
    pub forward: bool,
    /// Scored the ball's next gate (T6.2).
    pub scored: bool,
}

/// The whole judgement of one legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub end: End,
    /// Gates scored by the moving ball after the move.
    pub gates: u8,
    passages: [Option<Passage>; 12],
}

impl Outcome {
    pub fn passages(&self) -> impl Iterator<Item = Passage> + '_ {
        self.passages.iter().map_while(|p| *p)
    }

    pub fn scored_any(&self) -> bool {
        self.passages().any(|p| p.scored)
    }
}

/// Why a move is not legal, with the rule it breaks (T5.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    OffBoard(Space),
    StartAlongLine(Space),
    ReentryLeaves(Space),
    ReentryGate(u8),
    ReentryTouch(u8),
    Finish { ball: u8, at: Space },
    Revisit(Space),
    SparkStuck(u8),
    SparkEnters(u8),
    TooShort { made: u8, needed: u8 },
    TooLong { made: u8, needed: u8 },
    StopsEarly { at: u8 },
    Distance { dist: u8, allowed: String },
    StartSpace { given: Option<Space> },
    WrongKind { expected: ShotKind },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::OffBoard(s) => write!(f, "it would leave the board beyond {s} (T1.1)"),
            Refusal::StartAlongLine(s) => write!(
                f,
                "a start shot's first step must enter the court, not {s} (T9.2)"
            ),
            Refusal::ReentryLeaves(s) => {
                write!(f, "a re-entry may not leave the court ({s}, T8.4)")
            }
            Refusal::ReentryGate(g) => write!(f, "a re-entry may not pass gate {g} (T8.4)"),
            Refusal::ReentryTouch(b) => write!(f, "a re-entry may not touch ball {b} (T8.4)"),
            Refusal::Finish { ball, at } => write!(
                f,
                "ball {ball} has not scored gate 3 and may not enter the Finish Space {at} (T10.3)"
            ),
            Refusal::Revisit(s) => write!(
                f,
                "a technical path may not enter {s} twice nor return to its origin (T5.3)"
            ),
            Refusal::SparkStuck(b) => write!(
                f,
                "the spark's first step runs into ball {b}: the sparked ball must leave the touch space (T7.6)"
            ),
            Refusal::SparkEnters(b) => write!(
                f,
                "a technical spark may not enter the space of ball {b} (T7.6)"
            ),
            Refusal::TooShort { made, needed } => write!(
                f,
                "the path has {} but the die says {needed}, and it does not end at a stopping event (T5.4)",
                crate::diagnostic::plural(*made as u64, "step")
            ),
            Refusal::TooLong { made, needed } => {
                write!(
                    f,
                    "the path has {} but the die says {needed} (T5.3)",
                    crate::diagnostic::plural(*made as u64, "step")
                )
            }
            Refusal::StopsEarly { at } => write!(
                f,
                "the move stops at step {at}: a path is written only up to its stopping event (T5.4)"
            ),
            Refusal::Distance { dist, allowed } => {
                write!(f, "distance {dist} does not fit the dice: {allowed} (T5.2)")
            }
            Refusal::StartSpace { given: Some(s) } => write!(
                f,
                "only a start shot names a Start Space, and {s} must be one of the Start Area (T9.1)"
            ),
            Refusal::StartSpace { given: None } => write!(
                f,
                "a start shot names its Start Space first, e.g. `shot T1 N 8` (T9.1, T13.3)"
            ),
            Refusal::WrongKind { expected } => write!(
                f,
                "the dice were rolled for a {} shot: write {} (T5.2, T5.3)",
                expected.name(),
                match expected {
                    ShotKind::Power => "`DIR DIST`",
                    ShotKind::Tech => "a path of n, e, s, w",
                }
            ),
        }
    }
}

/// The state of a move between two steps.
#[derive(Clone, Copy)]
struct Walk {
    at: Space,
    gates: u8,
    steps: u8,
    passages: [Option<Passage>; 12],
    /// Spaces entered so far, the origin first (T5.3).
    visited: [Space; 7],
}

enum Step {
    Go,
    Stop(End),
}

/// Judges the moves of one ball from one origin.
pub struct Judge<'a> {
    pub court: &'a Court,
    pub pos: &'a Position,
    pub ball: u8,
    pub kind: MoveKind,
    /// Where the other balls on court may stand, and where a gate may be
    /// crossed from: most steps enter an empty space away from the gates,
    /// and these two masks say so before the exact searches run (they
    /// were a fifth of a greedy bot's time).
    balls: SpaceFilter,
    gates: SpaceFilter,
}

impl<'a> Judge<'a> {
    pub fn new(court: &'a Court, pos: &'a Position, ball: u8, kind: MoveKind) -> Judge<'a> {
        let mut balls = SpaceFilter::default();
        for (n, b) in (1..=10u8).zip(pos.balls.iter()) {
            if let Place::Court(s) = b.place
                && n != ball
            {
                balls.add(s);
            }
        }
        let mut gates = SpaceFilter::default();
        for g in &court.gates {
            gates.add(g.bottom);
            gates.add(g.top);
        }
        Judge {
            court,
            pos,
            ball,
            kind,
            balls,
            gates,
        }
    }
    fn begin(&self, origin: Space) -> Walk {
        Walk {
            at: origin,
            gates: self.pos.ball_state(self.ball).gates,
            steps: 0,
            passages: [None; 12],
            visited: [origin; 7],
        }
    }

    /// One step (T5.5): the gate it crosses, then the space it enters.
    fn step(&self, w: &mut Walk, dir: Dir, path: bool) -> Result<Step, Refusal> {
        let from = w.at;
        let to = self.court.step(from, dir).ok_or(Refusal::OffBoard(from))?;
        if path && w.visited[..=usize::from(w.steps)].contains(&to) {
            return Err(Refusal::Revisit(to));
        }
        if self.kind == MoveKind::Start && w.steps == 0 && !self.court.is_court(to) {
            return Err(Refusal::StartAlongLine(to));
        }
        let other = if self.balls.may_hold(to) && self.court.is_court(to) {
            self.pos.ball_at(to, self.ball)
        } else {
            None
        };
        // T7.6 a: a power spark stops before a ball; the blocked step is
        // not made, so it crosses no gate.
        if self.kind == MoveKind::PowerSpark
            && let Some(b) = other
        {
            return if w.steps == 0 {
                Err(Refusal::SparkStuck(b))
            } else {
                Ok(Step::Stop(End::Collide { ball: b, at: from }))
            };
        }
        w.steps += 1;
        w.at = to;
        if path {
            w.visited[usize::from(w.steps)] = to;
        }
        if dir.is_orthogonal()
            && self.gates.may_hold(from)
            && let Some(c) = self.court.crossing(from, to)
        {
            if self.kind == MoveKind::Reentry {
                return Err(Refusal::ReentryGate(c.gate));
            }
            let scored = c.forward && c.gate == w.gates + 1;
            if scored {
                w.gates += 1;
            }
            let slot = w.passages.iter().position(Option::is_none).unwrap_or(11);
            w.passages[slot] = Some(Passage {
                gate: c.gate,
                forward: c.forward,
                scored,
            });
        }
        if self.court.is_outside(to) {
            return match self.kind {
                MoveKind::Reentry => Err(Refusal::ReentryLeaves(to)),
                MoveKind::Start if w.gates == 0 => Ok(Step::Stop(End::FailStart)),
                _ => Ok(Step::Stop(End::Out(to))),
            };
        }
        if to == self.court.finish {
            return if w.gates == 3 {
                Ok(Step::Stop(End::Goal))
            } else {
                Err(Refusal::Finish {
                    ball: self.ball,
                    at: to,
                })
            };
        }
        if let Some(b) = other {
            return match self.kind {
                MoveKind::Reentry => Err(Refusal::ReentryTouch(b)),
                MoveKind::TechSpark => Err(Refusal::SparkEnters(b)),
                MoveKind::Start if w.gates == 0 => Ok(Step::Stop(End::FailStart)),
                _ if self.pos.is_touched(b) => Ok(Step::Stop(End::Twice { ball: b, at: to })),
                _ => Ok(Step::Stop(End::Touch {
                    ball: b,
                    at: to,
                    prev: from,
                })),
            };
        }
        Ok(Step::Go)
    }

    /// Where a move that ran its whole distance ends: a start shot that
    /// never passed gate 1 fails (T9.3).
    fn rest(&self, w: &Walk) -> End {
        if self.kind == MoveKind::Start && w.gates == 0 {
            End::FailStart
        } else {
            End::At(w.at)
        }
    }

    fn outcome(w: &Walk, end: End) -> Outcome {
        Outcome {
            end,
            gates: w.gates,
            passages: w.passages,
        }
    }

    /// A straight move of `dist` steps (T5.2, T7.6 a).
    pub fn straight(&self, origin: Space, dir: Dir, dist: u8) -> Result<Outcome, Refusal> {
        let mut w = self.begin(origin);
        for _ in 0..dist {
            if let Step::Stop(end) = self.step(&mut w, dir, false)? {
                return Ok(Self::outcome(&w, end));
            }
        }
        Ok(Self::outcome(&w, self.rest(&w)))
    }

    /// A technical path of `die` steps written as `steps` (T5.3, T5.4).
    pub fn path(&self, origin: Space, steps: &[Dir], die: u8) -> Result<Outcome, Refusal> {
        let needed = die;
        let made = steps.len() as u8;
        if made > needed {
            return Err(Refusal::TooLong { made, needed });
        }
        let mut w = self.begin(origin);
        for (i, &dir) in steps.iter().enumerate() {
            if let Step::Stop(end) = self.step(&mut w, dir, true)? {
                if i + 1 < steps.len() {
                    return Err(Refusal::StopsEarly { at: i as u8 + 1 });
                }
                return Ok(Self::outcome(&w, end));
            }
        }
        if made < needed {
            return Err(Refusal::TooShort { made, needed });
        }
        Ok(Self::outcome(&w, self.rest(&w)))
    }

    /// Every legal technical path of `die` steps, each with its outcome,
    /// while `out` returns true; false when `out` stopped the walk.
    pub fn paths(
        &self,
        origin: Space,
        die: u8,
        out: &mut impl FnMut(Motion, Outcome) -> bool,
    ) -> bool {
        let mut steps = [Dir::N; 6];
        self.extend(self.begin(origin), &mut steps, die, out)
    }

    fn extend(
        &self,
        w: Walk,
        steps: &mut [Dir; 6],
        die: u8,
        out: &mut impl FnMut(Motion, Outcome) -> bool,
    ) -> bool {
        for dir in Dir::ORTHOGONAL {
            let mut next = w;
            let len = usize::from(w.steps);
            steps[len] = dir;
            let go_on = match self.step(&mut next, dir, true) {
                Err(_) => true,
                Ok(Step::Stop(end)) => out(Motion::path(&steps[..=len]), Self::outcome(&next, end)),
                Ok(Step::Go) if next.steps == die => out(
                    Motion::path(&steps[..=len]),
                    Self::outcome(&next, self.rest(&next)),
                ),
                Ok(Step::Go) => self.extend(next, steps, die, out),
            };
            if !go_on {
                return false;
            }
        }
        true
    }

    /// Every legal straight move for `dice` (T5.2): orthogonally their sum,
    /// diagonally one die (each distinct value once), while `out` returns
    /// true; false when `out` stopped.
    pub fn straights(
        &self,
        origin: Space,
        dice: &[u8],
        out: &mut impl FnMut(Motion, Outcome) -> bool,
    ) -> bool {
        for dir in Dir::ALL {
            let mut try_dist = |dist: u8| match self.straight(origin, dir, dist) {
                Ok(o) => out(Motion::Straight { dir, dist }, o),
                Err(_) => true,
            };
            let go_on = if dir.is_orthogonal() {
                try_dist(dice.iter().sum())
            } else {
                try_dist(dice[0]) && (dice.len() < 2 || dice[1] == dice[0] || try_dist(dice[1]))
            };
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// The ball whose move is chosen in phase `move` or `spark`, its kind of
/// move and its origins (several for a start shot, T9.1).
pub fn mover(game: &Gateball, pos: &Position) -> Option<(u8, MoveKind, Vec<Space>)> {
    let shot = pos.shot?;
    match pos.phase {
        Phase::Move => {
            let b = pos.ball_state(pos.ball);
            match b.place {
                Place::Waiting => Some((pos.ball, MoveKind::Start, game.court.start_area.clone())),
                Place::Out(s) => {
                    Some((pos.ball, MoveKind::Reentry, vec![game.court.entry_space(s)]))
                }
                Place::Court(s) => Some((pos.ball, MoveKind::Shot, vec![s])),
                Place::Goal => None,
            }
        }
        Phase::Spark => {
            let c = pos.spark?;
            let at = pos.ball_state(c).place.space()?;
            let kind = match shot {
                ShotKind::Power => MoveKind::PowerSpark,
                ShotKind::Tech => MoveKind::TechSpark,
            };
            Some((c, kind, vec![at]))
        }
        Phase::Shot | Phase::Over => None,
    }
}

/// Every legal move of phase `move` or `spark`, with its outcome, in
/// generation order. Empty in the other phases.
pub fn moves(game: &Gateball, pos: &Position, out: &mut impl FnMut(Move, Outcome)) {
    moves_while(game, pos, &mut |m, o| {
        out(m, o);
        true
    });
}

/// [`moves`] while `out` returns true: false when it stopped the search
/// (`any_move` needs one move, not all of them).
fn moves_while(game: &Gateball, pos: &Position, out: &mut impl FnMut(Move, Outcome) -> bool) -> bool {
    let Some((ball, kind, origins)) = mover(game, pos) else {
        return true;
    };
    let Some(shot) = pos.shot else { return true };
    let start = kind == MoveKind::Start;
    let judge = Judge::new(&game.court, pos, ball, kind);
    for origin in origins {
        let mut emit = |motion: Motion, o: Outcome| {
            out(
                Move {
                    start: start.then_some(origin),
                    motion,
                },
                o,
            )
        };
        let go_on = match shot {
            ShotKind::Power => judge.straights(origin, &pos.dice, &mut emit),
            ShotKind::Tech => judge.paths(origin, pos.dice[0], &mut emit),
        };
        if !go_on {
            return false;
        }
    }
    true
}

/// Whether phase `move`/`spark` of `pos` has any legal move (T5.7, T7.7).
pub fn any_move(game: &Gateball, pos: &Position) -> bool {
    // Stopped at the first move found: a roll's T5.7 check, asked after
    // every roll (36 times a `power` when greedy weighs it), needs no more.
    !moves_while(game, pos, &mut |_, _| false)
}

/// Every legal action of `pos` in generation order (deterministic).
pub fn legal_into(game: &Gateball, pos: &Position, out: &mut Vec<Action>) {
    out.clear();
    match pos.phase {
        Phase::Over => {}
        Phase::Shot => {
            if pos.continuation {
                out.push(Action::End);
            }
            out.push(Action::Power);
            out.push(Action::Tech);
        }
        Phase::Move => moves(game, pos, &mut |m, _| out.push(Action::Shot(m))),
        Phase::Spark => moves(game, pos, &mut |m, _| out.push(Action::Spark(m))),
    }
    if let Some(s) = game.scripts.get() {
        s.legal(game, pos, out);
    }
}

/// Every legal action of `pos`, in canonical order (sorted as text, no
/// duplicates).
pub fn legal(game: &Gateball, pos: &Position) -> Vec<Action> {
    let mut out = Vec::new();
    legal_into(game, pos, &mut out);
    let mut keyed: Vec<(String, Action)> = out.into_iter().map(|a| (a.to_string(), a)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.dedup_by(|a, b| a.0 == b.0);
    keyed.into_iter().map(|(_, a)| a).collect()
}

/// Judges one move written by a player in phase `move` or `spark`: its
/// outcome, or the rule it breaks.
pub fn judge_move(game: &Gateball, pos: &Position, m: &Move) -> Result<Outcome, Refusal> {
    let Some((ball, kind, origins)) = mover(game, pos) else {
        return Err(Refusal::StartSpace { given: m.start });
    };
    let origin = if kind == MoveKind::Start {
        match m.start {
            Some(s) if origins.contains(&s) => s,
            given => return Err(Refusal::StartSpace { given }),
        }
    } else if m.start.is_some() {
        return Err(Refusal::StartSpace { given: m.start });
    } else {
        origins[0]
    };
    let judge = Judge::new(&game.court, pos, ball, kind);
    let shot = pos.shot.unwrap_or(ShotKind::Power);
    match (shot, m.motion) {
        (ShotKind::Power, Motion::Straight { dir, dist }) => {
            let fits = if dir.is_orthogonal() {
                dist == pos.dice.iter().sum::<u8>()
            } else {
                pos.dice.contains(&dist)
            };
            if !fits {
                let allowed = match pos.dice.as_slice() {
                    [a, b] => format!("orthogonally {}, diagonally {a} or {b}", a + b),
                    d => format!("{d:?}"),
                };
                return Err(Refusal::Distance { dist, allowed });
            }
            judge.straight(origin, dir, dist)
        }
        (ShotKind::Tech, Motion::Path { steps, len }) => {
            judge.path(origin, &steps[..usize::from(len)], pos.dice[0])
        }
        (expected, _) => Err(Refusal::WrongKind { expected }),
    }
}

/// T1.8's last condition: on the empty court some start shot passes gate 1
/// forward, for some roll (the 36 power rolls and the 6 technical dice).
pub fn start_can_pass_gate1(court: &Court) -> bool {
    let pos = Position::start(crate::kernel::rng::SplitMix64::new(0));
    let passes = |o: &Outcome| o.passages().any(|p| p.scored && p.gate == 1);
    court.start_area.iter().any(|&origin| {
        let judge = Judge::new(court, &pos, 1, MoveKind::Start);
        let mut found = false;
        for d1 in 1..=6u8 {
            judge.paths(origin, d1, &mut |_, o| {
                found |= passes(&o);
                !found
            });
            for d2 in 1..=6u8 {
                judge.straights(origin, &[d1, d2], &mut |_, o| {
                    found |= passes(&o);
                    !found
                });
            }
        }
        found
    })
}
