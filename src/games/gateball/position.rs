//! The Gateball position (`docs/rules/gateball-notation.md`, "Positions"): the state
//! of one game between two actions. The court, the ruleset values and the
//! players are the game's ([`super::Gateball`]); everything that changes is
//! here, the RNG state and the dice queue included (T4.4), so that the same
//! position always has the same future.

use std::collections::VecDeque;

use super::space::Space;
use crate::kernel::rng::SplitMix64;

/// Red plays the odd balls, blue the even ones (T2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Team {
    Red,
    Blue,
}

impl Team {
    pub fn of_ball(n: u8) -> Team {
        if n % 2 == 1 { Team::Red } else { Team::Blue }
    }

    pub fn name(self) -> &'static str {
        match self {
            Team::Red => "red",
            Team::Blue => "blue",
        }
    }

    /// The team's balls in ascending order.
    pub fn balls(self) -> impl Iterator<Item = u8> {
        let first = match self {
            Team::Red => 1,
            Team::Blue => 2,
        };
        (0..5).map(move |k| first + 2 * k)
    }
}

/// Where a ball is (T9.1, T8, T10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// Off the board, before its first successful start (T9.1).
    Waiting,
    /// On a court space.
    Court(Space),
    /// An out-ball on an Outside-Line space (T8).
    Out(Space),
    /// Scored its Goal, off the board (T10.2).
    Goal,
}

impl Place {
    pub fn name(self) -> &'static str {
        match self {
            Place::Waiting => "waiting",
            Place::Court(_) => "court",
            Place::Out(_) => "out",
            Place::Goal => "goal",
        }
    }

    pub fn space(self) -> Option<Space> {
        match self {
            Place::Court(s) | Place::Out(s) => Some(s),
            Place::Waiting | Place::Goal => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BallState {
    pub place: Place,
    /// Gates scored, 0–3; the next gate is `gates + 1` (T6.1).
    pub gates: u8,
}

impl BallState {
    /// A ball's points (T12.1).
    pub fn points(self) -> u32 {
        u32::from(self.gates) + if self.place == Place::Goal { 2 } else { 0 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Choose `power`, `tech` (or `end` for a continuation).
    Shot,
    /// Dice rolled; choose the `shot`.
    Move,
    /// Spark dice rolled; choose the `spark`.
    Spark,
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Shot => "shot",
            Phase::Move => "move",
            Phase::Spark => "spark",
            Phase::Over => "over",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShotKind {
    Power,
    Tech,
}

impl ShotKind {
    pub fn name(self) -> &'static str {
        match self {
            ShotKind::Power => "power",
            ShotKind::Tech => "tech",
        }
    }

    /// Dice rolled for this kind of shot or spark (T4.3).
    pub fn dice(self) -> usize {
        match self {
            ShotKind::Power => 2,
            ShotKind::Tech => 1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    Team(Team),
    Draw,
}

impl Winner {
    pub fn name(self) -> &'static str {
        match self {
            Winner::Team(t) => t.name(),
            Winner::Draw => "draw",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// 1 … `turns` (the Turn die, T3.3).
    pub turn: u8,
    /// The ball being played, 1–10.
    pub ball: u8,
    pub phase: Phase,
    /// The type of the shot in phases `move` and `spark`.
    pub shot: Option<ShotKind>,
    /// The current roll, first die first: empty, one or two values.
    pub dice: Vec<u8>,
    /// The play has earned a continuation (T7.8, T14.2).
    pub continuation: bool,
    /// Balls touched in this play (T7.4), bit n for ball n.
    pub touched: u16,
    /// In phase `spark`: the touched ball to spark.
    pub spark: Option<u8>,
    /// Balls 1–10 at indices 0–9.
    pub balls: [BallState; 10],
    pub rng: SplitMix64,
    /// Die values used before the RNG (T4.6).
    pub dice_queue: VecDeque<u8>,
    pub winner: Option<Winner>,
    pub perfect: bool,
    /// Points a ruleset's variants added to each team's total (red,
    /// blue), beyond what the balls give (T12.1): a gate or Goal worth
    /// more, a shot that costs points. 0 without variants.
    pub bonus: [i16; 2],
    /// The counters of the ruleset's variants (`state`), by the slots of
    /// the game's layout; empty without variants.
    pub vars: Vec<i16>,
    /// How a variant ended the game: an index into the layout's `ends`
    /// (from 1); 0 when the rules ended it, or it goes on.
    pub ended_by: u8,
}

impl Position {
    pub fn ball_state(&self, n: u8) -> BallState {
        self.balls[usize::from(n - 1)]
    }

    pub fn ball_mut(&mut self, n: u8) -> &mut BallState {
        &mut self.balls[usize::from(n - 1)]
    }

    pub fn is_touched(&self, n: u8) -> bool {
        self.touched & (1 << n) != 0
    }

    /// The touched balls, ascending.
    pub fn touched_list(&self) -> Vec<u8> {
        (1..=10).filter(|&n| self.is_touched(n)).collect()
    }

    /// The team totals (T12.1), derived from the balls, plus any points
    /// a ruleset's variants gave or took.
    /// A variant's costs may take it below 0.
    pub fn score(&self, team: Team) -> i32 {
        self.ball_points(team) as i32 + i32::from(self.bonus[team as usize])
    }

    /// The points the balls give a team (T12.1), without a variant's.
    pub fn ball_points(&self, team: Team) -> u32 {
        team.balls().map(|n| self.ball_state(n).points()).sum()
    }

    /// The ball on court space `s`, other than `except`.
    pub fn ball_at(&self, s: Space, except: u8) -> Option<u8> {
        (1..=10u8).find(|&n| n != except && self.ball_state(n).place == Place::Court(s))
    }

    /// Whether any ball on the board (court or Outside Line) stands on `s`.
    pub fn occupied(&self, s: Space) -> bool {
        self.balls.iter().any(|b| b.place.space() == Some(s))
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Draws one die: from the queue while it lasts, else from the RNG (T4.6).
    pub fn roll_die(&mut self) -> u8 {
        match self.dice_queue.pop_front() {
            Some(d) => d,
            None => self.rng.die(6) as u8,
        }
    }
}

impl Position {
    /// The start of a game (T9.1, T3.1): turn 1, ball 1 to play, every ball
    /// waiting. `rng` is the generator after any coin (T2.3).
    pub fn start(rng: SplitMix64) -> Position {
        Position {
            turn: 1,
            ball: 1,
            phase: Phase::Shot,
            shot: None,
            dice: Vec::new(),
            continuation: false,
            touched: 0,
            spark: None,
            balls: [BallState {
                place: Place::Waiting,
                gates: 0,
            }; 10],
            rng,
            dice_queue: VecDeque::new(),
            winner: None,
            perfect: false,
            bonus: [0; 2],
            vars: Vec::new(),
            ended_by: 0,
        }
    }
}
