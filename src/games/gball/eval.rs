//! A static evaluation for searches and greedy bots: zero-sum, in
//! "points" (one scored point is 10), a won match far above any position.
//!
//! What it rewards, for the seat's team against the other: the score
//! (sets weigh a whole set's points); holding the ball, the more the
//! closer to the opponents' goal the holder is carried; a loose ball in
//! the team's possession heading toward that goal (a throw at goal);
//! players in play, upfield, and near the ball (a team that gets to the
//! ball catches it). Cheap: one pass over the players, no allocation.
//!
//! Tuned so that a one-ply greedy bot plays as a person would call
//! sensible (`tests/gball_eval.rs`, "greedy"): it jumps toward the ball
//! and toward the goal, tries its catches, and throws forward when it
//! cannot keep the ball.

use super::board::{self, NONE};
use super::position::{Position, Winner, members, team_of};
use super::{Gball, Team};

/// A won match: far more than any score a match can reach.
pub const WIN: f64 = 100_000.0;

/// Progress toward `team`'s target goal: 0 at its own end, 1 at the goal.
const fn progress(sq: u8, team: Team) -> f64 {
    let c = board::col(sq) as f64;
    match team {
        Team::Red => c / 10.0,
        Team::Blu => (10.0 - c) / 10.0,
    }
}

/// A player in play's own term, signed for RED, by team index and
/// square. A table because the evaluation is greedy's innermost call
/// (once per action weighed) and this term is most of its work; made
/// with the very operations the sum used, so values are bit for bit the
/// same and greedy's choices with them.
static IN_PLAY: [[f64; 256]; 2] = in_play_terms();

const fn in_play_terms() -> [[f64; 256]; 2] {
    let mut t = [[0.0; 256]; 2];
    let mut sq = 0;
    while sq < board::SQUARES {
        let mut i = 0;
        while i < 2 {
            let team = Team::BOTH[i];
            let sign = if i == Team::Red.index() { 1.0 } else { -1.0 };
            // In play, and a little for being upfield: a player on a
            // wall jumps toward the goal rather than back when nothing
            // else differs (G6.5).
            t[team.index()][sq] = sign * (0.6 + 0.15 * progress(sq as u8, team));
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Where the holder will be after the next movement: a player in the
/// air goes on one square the way he faces (G6.4), so a holder flying
/// away from the goal is worth less than one flying at it; on a wall he
/// stays (G6.5: no jumping with the ball).
fn carried_to(pos: &Position, holder: u8) -> u8 {
    let pl = &pos.players[holder as usize];
    if board::is_air(pl.at) && pl.facing != NONE {
        let next = board::neighbour(pl.at, pl.facing);
        if next != NONE {
            return next;
        }
    }
    pl.at
}

/// Chebyshev distance in squares, by the ball's square (row
/// [`board::SQUARES`]: no ball, all 0) and a player's square masked to 7
/// bits (squares are below 66, so the mask changes none and spares the
/// bounds check): a table for the same reason as [`IN_PLAY`].
static DISTANCE: [[u8; 128]; board::SQUARES + 1] = distances();

const fn distances() -> [[u8; 128]; board::SQUARES + 1] {
    let mut t = [[0; 128]; board::SQUARES + 1];
    let mut a = 0;
    while a < board::SQUARES {
        let mut b = 0;
        while b < board::SQUARES {
            let dc = board::col(a as u8).abs_diff(board::col(b as u8));
            let dr = board::row(a as u8).abs_diff(board::row(b as u8));
            t[a][b] = if dc > dr { dc } else { dr };
            b += 1;
        }
        a += 1;
    }
    t
}

/// One team's pass over its players in play (`mask`): adds their
/// [`IN_PLAY`] terms to `v` in ascending index — BLU's players come
/// before RED's, so two passes add in the order one pass over all did,
/// and the sum is bit for bit the same (`mcts` averages these values, and
/// a last-bit difference would change its choices) — and gives the
/// nearest one's distance to the ball (row `to_ball` of [`DISTANCE`]; 9
/// when none is in play). A team at a time spares each player the
/// lookup of its team, which with the distance was most of the
/// evaluation's instructions.
#[inline(always)]
fn team_pass(pos: &Position, mask: u32, terms: &[f64; 256], to_ball: &[u8; 128], v: &mut f64) -> u8 {
    let mut nearest = 9;
    for p in members(mask) {
        let at = pos.players[p as usize].at;
        *v += terms[at as usize];
        nearest = nearest.min(to_ball[(at & 127) as usize]);
    }
    nearest
}

/// The value of `pos` for RED.
fn red_value(g: &Gball, pos: &Position) -> f64 {
    if let Some(w) = pos.winner {
        return match w {
            Winner::Team(Team::Red) => WIN,
            Winner::Team(Team::Blu) => -WIN,
            Winner::Draw => 0.0,
        };
    }
    let per_set = f64::from(g.params.points_to_win_set) * 10.0;
    let mut v = (f64::from(pos.sets[0]) - f64::from(pos.sets[1])) * per_set * 1.5
        + (f64::from(pos.points[0]) - f64::from(pos.points[1])) * 10.0;
    let sign = |t: Team| if t == Team::Red { 1.0 } else { -1.0 };
    let ball = pos.ball;
    if ball.holder != NONE {
        let t = team_of(ball.holder);
        v += sign(t) * (2.0 + 4.0 * progress(carried_to(pos, ball.holder), t));
    } else if let (true, Some(t)) = (ball.at != NONE, ball.possession) {
        // A throw forward beats a spinball or a throw back (G10.2): the
        // ball flies on toward the goal, where a team-mate can catch it
        // and score (G12.1).
        let toward = ball.dir != NONE && board::is_forward(ball.dir, t);
        v += sign(t) * (0.5 + if toward { 1.0 + 1.5 * progress(ball.at, t) } else { 0.0 });
    }
    let in_play = pos.in_play_mask();
    let to_ball = &DISTANCE[usize::from(ball.at).min(board::SQUARES)];
    const { assert!(Team::Blu.mask() < Team::Red.mask()) };
    let blu_near = team_pass(pos, in_play & Team::Blu.mask(), &IN_PLAY[Team::Blu.index()], to_ball, &mut v);
    let red_near = team_pass(pos, in_play & Team::Red.mask(), &IN_PLAY[Team::Red.index()], to_ball, &mut v);
    if ball.at != NONE {
        v -= 0.3 * (f64::from(red_near) - f64::from(blu_near));
    }
    v
}

impl crate::bots::Evaluate for Gball {
    fn evaluate(&self, pos: &Position, seat: usize) -> f64 {
        evaluate(self, pos, seat)
    }

    /// A point is worth 10: a point's lead is a clear edge.
    const EVAL_SCALE: f64 = 10.0;
}

/// The value of `pos` for `seat` (0 RED, 1 BLU), zero-sum.
pub fn evaluate(game: &Gball, pos: &Position, seat: usize) -> f64 {
    let v = red_value(game, pos);
    if seat == 0 { v } else { -v }
}
