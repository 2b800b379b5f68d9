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
