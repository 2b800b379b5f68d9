//! A legal move as a person sees it before playing it: where it starts,
//! the spaces it crosses, where it ends and what the engine's judgement
//! says happens (`rules::judge_move`). The choice flow and the boards
//! read moves only through here, so what they show is what will happen.

use super::Gateball;
use super::action::{Action, Motion, Move};
use super::position::{Position, Team, Winner};
use super::rules::{self, End, Outcome};
use super::space::Space;

/// One legal move of phase `move` or `spark`, judged and traced.
#[derive(Clone, Debug)]
pub struct Judged {
    pub start: Option<Space>,
    pub motion: Motion,
    pub origin: Space,
    /// Where the moving ball comes to rest or leaves the move: the space
    /// a step stopped on (touch, collision, Outside Line) or the last one.
    pub end: Space,
    /// The spaces entered, in order (the origin not included).
    pub trace: Vec<Space>,
    pub outcome: Outcome,
}

/// The move of a `shot` or `spark` action, judged; `None` for another
/// action or one the engine refuses.
pub fn judge(game: &Gateball, pos: &Position, action: Action) -> Option<Judged> {
    let m: Move = match action {
        Action::Shot(m) | Action::Spark(m) => m,
        _ => return None,
    };
    let (ball, _, origins) = rules::mover(game, pos)?;
    let outcome = rules::judge_move(game, pos, &m).ok()?;
    let origin = m.start.unwrap_or(*origins.first()?);
    let trace = trace(game, pos, ball, origin, m.motion, outcome.end);
    let end = match outcome.end {
        End::Goal => game.court.finish,
        End::At(s)
        | End::Out(s)
        | End::Touch { at: s, .. }
        | End::Twice { at: s, .. }
        | End::Collide { at: s, .. } => s,
        End::FailStart => trace.last().copied().unwrap_or(origin),
    };
    Some(Judged {
        start: m.start,
        motion: m.motion,
        origin,
        end,
        trace,
        outcome,
    })
}

/// The spaces a judged move enters, for drawing only: a path's steps as
/// written; a straight move's steps up to the space its judgement names.
/// A failed start names none, so its trace runs until the first Outside
/// Line space or ball, as T5.5 stops it, or to its full distance.
fn trace(
    game: &Gateball,
    pos: &Position,
    ball: u8,
    origin: Space,
    motion: Motion,
    end: End,
) -> Vec<Space> {
    let court = &game.court;
    let mut out = Vec::new();
    let mut at = origin;
    match motion {
        Motion::Path { steps, len } => {
            for &d in &steps[..usize::from(len)] {
                match court.step(at, d) {
                    Some(s) => {
                        out.push(s);
                        at = s;
                    }
                    None => break,
                }
            }
        }
        Motion::Straight { dir, dist } => {
            let stop = match end {
                End::At(s)
                | End::Out(s)
                | End::Touch { at: s, .. }
                | End::Twice { at: s, .. }
                | End::Collide { at: s, .. } => Some(s),
                End::Goal => Some(court.finish),
                End::FailStart => None,
            };
            if stop == Some(origin) {
                return out;
            }
            for _ in 0..dist {
                let Some(s) = court.step(at, dir) else { break };
                out.push(s);
                at = s;
                let stopped = match stop {
                    Some(t) => s == t,
                    None => court.is_outside(s) || pos.ball_at(s, ball).is_some(),
                };
                if stopped {
                    break;
                }
            }
        }
    }
    out
}

/// The engine's judgement of a move in words: gates scored, then how it
/// ends.
pub fn describe(game: &Gateball, j: &Judged) -> String {
    let mut parts: Vec<String> = j
        .outcome
        .passages()
        .map(|p| {
            if p.scored {
                format!("scores gate {}", p.gate)
            } else if p.forward {
                format!("passes gate {} (no point)", p.gate)
            } else {
                format!("passes gate {} backward", p.gate)
            }
        })
        .collect();
    parts.push(match j.outcome.end {
        End::At(s) => format!("stops on {s}"),
        End::Out(s) => format!("leaves the court at {s}"),
        End::Goal => format!("Goal on {}", game.court.finish),
        End::Touch { ball, at, .. } => format!("touches {} on {at}: spark", ball_name(ball)),
        End::Twice { ball, at } => {
            format!(
                "touches {} again on {at}: Touched Twice, out",
                ball_name(ball)
            )
        }
        End::FailStart => "the start fails (gate 1 not passed)".into(),
        End::Collide { ball, at } => format!("stops on {at} before {}", ball_name(ball)),
    });
    parts.join(", ")
}

/// A ball as the boards draw it: `r1`, `b10`.
pub fn ball_name(n: u8) -> String {
    let t = match Team::of_ball(n) {
        Team::Red => 'r',
        Team::Blue => 'b',
    };
    format!("{t}{n}")
}

pub fn dice_text(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// `red wins 14-9`, `draw 10-10`, with a Perfect Game said.
pub fn result_text(pos: &Position) -> String {
    let (r, b) = (pos.score(Team::Red), pos.score(Team::Blue));
    let perfect = if pos.perfect {
        " by a Perfect Game"
    } else {
        ""
    };
    match pos.winner {
        Some(Winner::Team(t)) => format!("{} wins {r}-{b}{perfect}", t.name()),
        Some(Winner::Draw) => format!("draw {r}-{b}"),
        None => format!("red {r} - blue {b}"),
    }
}
