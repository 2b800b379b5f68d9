//! Gateball's own figures in the balance lab (`lab::Figures`): what a
//! playtester judges a court or a variant by — points per team, Goals,
//! Perfect Games, failed starts, touches and out-balls.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Gateball;
use super::action::Action;
use super::event::Event;
use super::position::{Phase, Place, Position, Team};
use crate::lab::{Figures, GameResult, Sample, Section};

/// One game's counts, by team (red, blue) where a team is meant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GateballTally {
    pub points: [i32; 2],
    /// Balls that reached the Goal pole (T12.2).
    pub goals: [u32; 2],
    pub perfect: bool,
    /// Start shots played (T5.3) and those that failed to pass gate 1.
    pub start_shots: u32,
    pub failed_starts: u32,
    pub touches: u32,
    pub outs: u32,
}

const TEAMS: [Team; 2] = [Team::Red, Team::Blue];

impl Figures for Gateball {
    type Tally = GateballTally;

    const EVENTS: bool = true;

    fn tally(
        &self,
        t: &mut GateballTally,
        before: &Position,
        action: Action,
        _after: &Position,
        events: &[Event],
        _errors: &[String],
    ) {
        let start = before.phase == Phase::Move
            && before.ball_state(before.ball).place == Place::Waiting;
        if start && matches!(action, Action::Shot(_)) {
            t.start_shots += 1;
        }
        for e in events {
            match e {
                Event::FailStart(_) => t.failed_starts += 1,
                Event::Touch { .. } => t.touches += 1,
                Event::Out(..) => t.outs += 1,
                _ => {}
            }
        }
    }

    fn finish_tally(&self, t: &mut GateballTally, last: &Position) {
        for (i, team) in TEAMS.into_iter().enumerate() {
            t.points[i] = last.score(team);
            t.goals[i] = team
                .balls()
                .filter(|&n| last.ball_state(n).place == Place::Goal)
                .count() as u32;
        }
        t.perfect = last.perfect;
    }

    fn section(games: &[GameResult<GateballTally>], _bots: &[String; 2]) -> Section {
        let n = games.len().max(1) as f64;
        let mean = |f: &dyn Fn(&GateballTally) -> f64| {
            games.iter().map(|g| f(&g.figures)).sum::<f64>() / n
        };
        let red = mean(&|t| f64::from(t.points[0]));
        let blue = mean(&|t| f64::from(t.points[1]));
        let goals = mean(&|t| f64::from(t.goals[0] + t.goals[1]));
        let perfect = games.iter().filter(|g| g.figures.perfect).count();
        let starts: u32 = games.iter().map(|g| g.figures.start_shots).sum();
        let failed: u32 = games.iter().map(|g| g.figures.failed_starts).sum();
        let failed_rate = if starts == 0 {
            0.0
        } else {
            f64::from(failed) / f64::from(starts)
        };
        let touches = mean(&|t| f64::from(t.touches));
        let outs = mean(&|t| f64::from(t.outs));
        let text = format!(
            "  {:<26} red {red:.2}, blue {blue:.2}\n  {:<26} {goals:>6.2}\n  {:<26} {perfect:>6}  {:.1}% of games\n  {:<26} {:>6.1}%  of start shots (T5.3)\n  {:<26} {touches:>6.2}\n  {:<26} {outs:>6.2}\n",
            "points per game",
            "Goals per game",
            "Perfect Games",
            100.0 * perfect as f64 / n,
            "failed starts",
            100.0 * failed_rate,
            "touches per game",
            "out-balls per game",
        );
        Section {
            text,
            json: json!({
                "points_per_game": { "red": red, "blue": blue },
                "goals_per_game": goals,
                "perfect_games": perfect,
                "failed_start_rate": failed_rate,
                "touches_per_game": touches,
                "outs_per_game": outs,
            }),
        }
    }

    fn samples(games: &[GameResult<GateballTally>]) -> Vec<Sample> {
        let per = |f: &dyn Fn(&GateballTally) -> f64| -> Vec<f64> {
            games.iter().map(|g| f(&g.figures)).collect()
        };
        vec![
            Sample::mean("red points per game", per(&|t| f64::from(t.points[0]))),
            Sample::mean("blue points per game", per(&|t| f64::from(t.points[1]))),
            Sample::mean(
                "Goals per game",
                per(&|t| f64::from(t.goals[0] + t.goals[1])),
            ),
            Sample::share("Perfect Games", per(&|t| f64::from(u8::from(t.perfect)))),
            Sample::mean("touches per game", per(&|t| f64::from(t.touches))),
            Sample::mean("out-balls per game", per(&|t| f64::from(t.outs))),
        ]
    }
}
