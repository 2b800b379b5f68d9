//! Match figures from the event log, for the lab layer: a [`Tally`] is an
//! event sink, so a caller plays with `&mut tally` instead of a `Vec` and
//! pays for no text. Per team (index [`Team::index`]): points and sets
//! won, catch attempts and catches, tackle pairs won, injuries suffered,
//! fouls committed, players sent out, and goals by how they were scored —
//! carried in (G6.9) or caught on the goal square (G7.5: a throw, a
//! bounce or a loose ball).

use super::Team;
use super::event::{Event, Foul};
use super::position::{Winner, team_of};
use crate::kernel::events::Sink;

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    pub points: [u32; 2],
    pub sets: [u32; 2],
    pub catch_attempts: [u32; 2],
    pub catches: [u32; 2],
    pub tackles_won: [u32; 2],
    pub fumbles: u32,
    pub injuries: [u32; 2],
    pub fouls: [u32; 2],
    pub sent_out: [u32; 2],
    pub goals_carried: [u32; 2],
    pub goals_caught: [u32; 2],
    pub dead_points: u32,
    pub conceded: [u32; 2],
    pub turns: u32,
    pub winner: Option<Winner>,
    /// How the last ball reached its holder: by a move (carry) or a catch.
    #[serde(skip)]
    last: Option<(u8, bool)>,
}

impl Sink<Event> for Tally {
    fn emit(&mut self, e: Event) {
        match e {
            Event::Moved { player, .. } => self.last = Some((player, true)),
            Event::Catch { player, ok, .. } => {
                let t = team_of(player).index();
                self.catch_attempts[t] += 1;
                if ok {
                    self.catches[t] += 1;
                }
                self.last = Some((player, false));
            }
            Event::Tackle { winner, .. } => match winner {
                Some(w) => self.tackles_won[team_of(w).index()] += 1,
                None => self.fumbles += 1,
            },
            Event::Injury(p, _) => self.injuries[team_of(p).index()] += 1,
            Event::Foul(p, f) if f != Foul::None => self.fouls[team_of(p).index()] += 1,
            Event::Out(p, ..) => self.sent_out[team_of(p).index()] += 1,
            Event::Score(p, _) => {
                let t = team_of(p).index();
                self.points[t] += 1;
                match self.last {
                    Some((q, true)) if q == p => self.goals_carried[t] += 1,
                    _ => self.goals_caught[t] += 1,
                }
            }
            Event::Concede(t) => {
                self.conceded[t.index()] += 1;
                self.points[t.other().index()] += 1;
            }
            Event::Set(t) => self.sets[t.index()] += 1,
            Event::Dead => self.dead_points += 1,
            Event::Turn(_) => self.turns += 1,
            Event::Match(w) => self.winner = Some(w),
            _ => {}
        }
    }
}

impl Tally {
    pub fn team(&self, f: impl Fn(&Tally) -> [u32; 2], team: Team) -> u32 {
        f(self)[team.index()]
    }
}

/// The lab's view of a match (`lab::Figures`): the tally fed with each
/// action's events, and the figures a G-ball designer reads.
impl crate::lab::Figures for super::Gball {
    type Tally = Tally;

    const EVENTS: bool = true;

    fn tally(
        &self,
        t: &mut Tally,
        _before: &super::position::Position,
        _action: super::action::Action,
        _after: &super::position::Position,
        events: &[Event],
        _errors: &[String],
    ) {
        for e in events {
            t.emit(*e);
        }
    }

    fn section(
        games: &[crate::lab::GameResult<Tally>],
        _bots: &[String; 2],
    ) -> crate::lab::Section {
        let n = games.len().max(1) as f64;
        let sum = |f: &dyn Fn(&Tally) -> f64| games.iter().map(|g| f(&g.figures)).sum::<f64>();
        let both = |f: &dyn Fn(&Tally) -> [u32; 2]| {
            sum(&|t| f64::from(f(t)[0] + f(t)[1])) / n
        };
        let points = both(&|t| t.points);
        let sets = both(&|t| t.sets);
        let attempts = sum(&|t| f64::from(t.catch_attempts[0] + t.catch_attempts[1]));
        let caught = sum(&|t| f64::from(t.catches[0] + t.catches[1]));
        let catch_rate = if attempts == 0.0 { 0.0 } else { caught / attempts };
        let tackles = both(&|t| t.tackles_won);
        let injuries = both(&|t| t.injuries);
        let fouls = both(&|t| t.fouls);
        let carried = both(&|t| t.goals_carried);
        let thrown = both(&|t| t.goals_caught);
        let dead = sum(&|t| f64::from(t.dead_points)) / n;
        let home = [0, 1].map(|s| both(&|t| [t.points[s], 0]));
        let text = format!(
            "  {:<26} {points:>6.2}  RED (home) {:.2}, BLU {:.2}\n  {:<26} {sets:>6.2}\n  {:<26} {:>6.2}  {:.1}% of {:.2} attempts a match\n  {:<26} {tackles:>6.2}  ({:.2} fumbles)\n  {:<26} {injuries:>6.2}\n  {:<26} {fouls:>6.2}\n  {:<26} {:>6.2}  carried {carried:.2}, caught {thrown:.2}\n  {:<26} {dead:>6.2}\n",
            "points per match",
            home[0],
            home[1],
            "sets per match",
            "catches per match",
            caught / n,
            100.0 * catch_rate,
            attempts / n,
            "tackles won per match",
            sum(&|t| f64::from(t.fumbles)) / n,
            "injuries per match",
            "fouls per match",
            "goals per match",
            carried + thrown,
            "dead points per match",
        );
        crate::lab::Section {
            text,
            json: serde_json::json!({
                "points_per_match": points,
                "points_per_match_by_team": { "RED": home[0], "BLU": home[1] },
                "sets_per_match": sets,
                "catches_per_match": caught / n,
                "catch_attempts_per_match": attempts / n,
                "catch_rate": catch_rate,
                "tackles_won_per_match": tackles,
                "injuries_per_match": injuries,
                "fouls_per_match": fouls,
                "goals_carried_per_match": carried,
                "goals_caught_per_match": thrown,
                "dead_points_per_match": dead,
            }),
        }
    }

    fn samples(games: &[crate::lab::GameResult<Tally>]) -> Vec<crate::lab::Sample> {
        use crate::lab::Sample;
        let per = |f: &dyn Fn(&Tally) -> f64| -> Vec<f64> {
            games.iter().map(|g| f(&g.figures)).collect()
        };
        let both = |t: [u32; 2]| f64::from(t[0] + t[1]);
        vec![
            Sample::mean("points per match", per(&|t| both(t.points))),
            Sample::mean("sets per match", per(&|t| both(t.sets))),
            Sample::mean("catches per match", per(&|t| both(t.catches))),
            Sample::mean("tackles won per match", per(&|t| both(t.tackles_won))),
            Sample::mean("injuries per match", per(&|t| both(t.injuries))),
            Sample::mean("fouls per match", per(&|t| both(t.fouls))),
            Sample::mean("goals carried per match", per(&|t| both(t.goals_carried))),
            Sample::mean("goals caught per match", per(&|t| both(t.goals_caught))),
        ]
    }
}
