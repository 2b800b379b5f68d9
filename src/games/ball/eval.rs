//! The static evaluation of a BALL position (`bots::Evaluate`), which
//! `greedy` (one ply) and `mcts` (leaf values and the order it tries
//! actions in) search on.
//!
//! The value is in "points" from one team's point of view; the other
//! team's value is its negation (zero-sum), so a search can back up one
//! number. The terms, in order of weight:
//!
//! | term | weight | why |
//! |---|---|---|
//! | game won / lost | ±[`WIN`] | nothing else matters once the game is over |
//! | touchdown difference | [`TOUCHDOWN`] each | a touchdown is the only way to win (B3.6) |
//! | possession | [`POSSESSION`] | only the holder's team can pass and score |
//! | ball progress | [`PROGRESS`] a row | rows the ball still has to travel to the scoring end zone (B1.4) |
//! | holder safety | [`THREAT`] an opponent | active, unstacked opponents within 2 squares can block (1 square) or dodge (2 squares) the holder and take the ball next turn (B5.4, B7.3) |
//! | support | [`SUPPORT`] | a free team-mate the holder can reach with a 0-AP hand-off or a short pass, nearer the goal: the ball can travel further next turn (B8.1, B8.2) |
//! | loose ball | [`LOOSE`] a square | whose active pieces are nearer to a loose ball (B9.2) |
//! | pieces down | [`DOWN`] a piece | a down piece cannot act until it stands up (B10.2) |
//!
//! The weights are hand-set, in that order of magnitude on purpose: a
//! touchdown outweighs any position, possession outweighs a few rows.

use crate::bots::Evaluate;
use crate::games::ball::Ball;
use crate::games::ball::action::Action;
use crate::games::ball::board::Sq;
use crate::games::ball::params::Params;
use crate::games::ball::piece::{PieceId, Team};
use crate::games::ball::position::{BallState, Outcome, Position};

/// A finished game, won or lost.
pub const WIN: f64 = 1_000_000.0;
/// One touchdown of difference.
pub const TOUCHDOWN: f64 = 1_000.0;
/// Holding the ball.
pub const POSSESSION: f64 = 60.0;
/// Each row the ball has advanced toward the holder's scoring end zone.
pub const PROGRESS: f64 = 10.0;
/// Each opponent that threatens the holder.
pub const THREAT: f64 = 12.0;
/// The best hand-off/pass target's lead over the holder, per row.
pub const SUPPORT: f64 = 4.0;
/// Per square of lead in the race to a loose ball.
pub const LOOSE: f64 = 6.0;
/// Each down piece.
pub const DOWN: f64 = 8.0;

impl Evaluate for Ball {
    fn evaluate(&self, pos: &Position, seat: usize) -> f64 {
        evaluate(pos, &self.params, Team::BOTH[seat])
    }

    /// 100 points (about a possession and four rows) is a clear edge.
    const EVAL_SCALE: f64 = 100.0;

    /// `end` (B4.3): greedy keeps acting while something improves.
    fn is_pass(&self, action: Action) -> bool {
        action == Action::End
    }
}

/// The value of `pos` for `me`: positive is good for `me`.
pub fn evaluate(pos: &Position, params: &Params, me: Team) -> f64 {
    let v = evaluate_atk(pos, params);
    if me == Team::Atk { v } else { -v }
}

/// The value of `pos` for ATK (DEF's value is its negation).
pub fn evaluate_atk(pos: &Position, params: &Params) -> f64 {
    let atk = Team::Atk as usize;
    let def = Team::Def as usize;
    let score = f64::from(pos.score[atk]) - f64::from(pos.score[def]);
    match pos.outcome {
        Some(Outcome::Winner(Team::Atk)) => return WIN + score,
        Some(Outcome::Winner(Team::Def)) => return -WIN + score,
        Some(Outcome::Draw) => return 0.0,
        None => {}
    }
    let stacked = pos.stacks.stacked_mask();
    let free = |id: PieceId| {
        let p = pos.piece(id);
        !p.down && stacked & (1 << id.0) == 0
    };
    let mut v = TOUCHDOWN * score;
    match pos.ball {
        BallState::Held(holder) => {
            let team = holder.team();
            let at = pos.piece(holder).at;
            let mut h = POSSESSION + PROGRESS * progress(team, at, params);
            if stacked & (1 << holder.0) == 0 {
                let threats = PieceId::of_team(team.other())
                    .filter(|&o| free(o) && pos.piece(o).at.distance(at) <= 2)
                    .count();
                h -= THREAT * threats as f64;
                // The best free team-mate within short-pass range, ahead.
                let here = progress(team, at, params);
                let best = PieceId::of_team(team)
                    .filter(|&m| {
                        m != holder
                            && free(m)
                            && pos.piece(m).at.distance(at) <= params.short_pass_range
                    })
                    .map(|m| progress(team, pos.piece(m).at, params) - here)
                    .fold(0.0, f64::max);
                h += SUPPORT * best;
            }
            v += if team == Team::Atk { h } else { -h };
        }
        BallState::Loose(at) => {
            let nearest = |team: Team| {
                PieceId::of_team(team)
                    .filter(|&p| free(p))
                    .map(|p| pos.piece(p).at.distance(at))
                    .min()
                    .unwrap_or(16)
            };
            let lead = f64::from(nearest(Team::Def)) - f64::from(nearest(Team::Atk));
            v += LOOSE * lead.clamp(-4.0, 4.0);
            // Whoever is nearer will carry it on from there.
            let ahead = if lead > 0.0 {
                progress(Team::Atk, at, params)
            } else if lead < 0.0 {
                -progress(Team::Def, at, params)
            } else {
                0.0
            };
            v += PROGRESS * 0.5 * ahead;
        }
    }
    for id in PieceId::all() {
        if pos.piece(id).down {
            v += if id.team() == Team::Atk { -DOWN } else { DOWN };
        }
    }
    v
}

/// How far `sq` is along the way to `team`'s scoring end zone, in rows:
/// 0 on the team's own back row, the full length once in the zone (B1.4).
pub fn progress(team: Team, sq: Sq, params: &Params) -> f64 {
    let rows = crate::games::ball::board::ROWS;
    let row = sq.row();
    // Rows still to go before the first row of the scoring zone.
    let to_go = match team {
        Team::Atk => (rows - params.end_zone_depth + 1).saturating_sub(row),
        Team::Def => row.saturating_sub(params.end_zone_depth),
    };
    f64::from(rows - params.end_zone_depth) - f64::from(to_go)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{Bot, GreedyBot, MctsBot};
    use crate::games::ball::action::parse;
    use crate::games::ball::piece::PieceId;
    use crate::kernel::game::Game;

    #[test]
    fn progress_counts_rows_to_the_scoring_zone() {
        let p = Params::default();
        let sq = |s: &str| Sq::parse(s).unwrap();
        // ATK scores in rows 16-17, DEF in rows 1-2.
        assert_eq!(progress(Team::Atk, sq("H16"), &p), 15.0);
        assert_eq!(progress(Team::Atk, sq("G17"), &p), 15.0);
        assert_eq!(progress(Team::Atk, sq("A1"), &p), 0.0);
        assert_eq!(progress(Team::Def, sq("A1"), &p), 15.0);
        assert_eq!(progress(Team::Def, sq("G3"), &p), 14.0);
        assert_eq!(progress(Team::Def, sq("G17"), &p), 0.0);
    }

    #[test]
    fn zero_sum_and_symmetric_at_the_start() {
        let game = Ball::default();
        let pos = game.start();
        let a = evaluate(&pos, &game.params, Team::Atk);
        assert_eq!(a, -evaluate(&pos, &game.params, Team::Def));
        // ATK holds the ball at the start: ATK is ahead.
        assert!(a > 0.0);
    }

    #[test]
    fn moving_the_ball_forward_is_better() {
        let game = Ball::default();
        let mut pos = game.start();
        game.play(&mut pos, parse("end").unwrap(), &mut ()).unwrap();
        let before = evaluate(&pos, &game.params, Team::Atk);
        // ATK5 (holder, G5) steps forward to H6.
        game.play(&mut pos, parse("move ATK5 H6").unwrap(), &mut ())
            .unwrap();
        assert!(evaluate(&pos, &game.params, Team::Atk) > before);
    }

    #[test]
    fn a_won_game_outweighs_everything() {
        let game = Ball::default();
        let mut pos = game.start();
        pos.score = [3, 0];
        pos.outcome = Some(Outcome::Winner(Team::Atk));
        assert!(evaluate(&pos, &game.params, Team::Atk) >= WIN);
        assert!(evaluate(&pos, &game.params, Team::Def) <= -WIN);
    }

    /// ATK to move with its holder one step from DEF's end zone.
    fn touchdown_in_one() -> (Ball, Position) {
        let game = Ball::default();
        let mut pos = game.start();
        game.play(&mut pos, parse("end").unwrap(), &mut ()).unwrap();
        pos.piece_mut(PieceId::new(Team::Atk, 5)).at = Sq::parse("B14").unwrap();
        (game, pos)
    }

    #[test]
    fn greedy_takes_the_touchdown() {
        let (game, pos) = touchdown_in_one();
        let legal = game.legal(&pos);
        let a = GreedyBot::new(1).choose(&game, &pos, &legal);
        assert_eq!(a.to_string().split(' ').next(), Some("move"));
        let mut next = pos;
        game.apply(&mut next, a);
        assert_eq!(next.score[Team::Atk as usize], 1, "{a}");
    }

    /// With nothing to gain (only `end` and worse actions), greedy ends.
    #[test]
    fn greedy_ends_when_nothing_improves() {
        let game = Ball::default();
        let mut pos = game.start();
        pos.ap = 0; // only hand-offs (none here: ATK has the ball) and `end`
        let legal = game.legal(&pos);
        assert_eq!(legal, vec![Action::End]);
        assert_eq!(GreedyBot::new(0).choose(&game, &pos, &legal), Action::End);
    }

    #[test]
    fn greedy_same_seed_same_choices() {
        let game = Ball::default();
        let pos = game.start();
        let legal = game.legal(&pos);
        let a: Vec<Action> = (0..5)
            .map(|_| GreedyBot::new(9).choose(&game, &pos, &legal))
            .collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
    }

    /// With a touchdown one action away, the search finds it.
    #[test]
    fn mcts_finds_the_touchdown() {
        let (game, pos) = touchdown_in_one();
        let legal = game.legal(&pos);
        let a = MctsBot::new(3, 200).choose(&game, &pos, &legal);
        let mut next = pos;
        game.apply(&mut next, a);
        assert_eq!(next.score[Team::Atk as usize], 1, "{a}");
    }

    #[test]
    fn mcts_same_seed_same_choice() {
        let game = Ball::default();
        let pos = game.start();
        let legal = game.legal(&pos);
        let a = MctsBot::new(5, 100).choose(&game, &pos, &legal);
        let b = MctsBot::new(5, 100).choose(&game, &pos, &legal);
        assert_eq!(a, b);
    }
}
