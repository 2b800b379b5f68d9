//! A played fixture and what it changes (G17.5–G17.8): the match's
//! result, each fielded player's goals, injury, serious foul, stars after
//! the match and games to miss, read from the engine's final position
//! and events; and [`apply`], which carries it into the league: call-ups
//! join the squads, absences are counted down and new ones carried,
//! earned stars stay, a retiring veteran leaves, and the last fixture of
//! a season ends it.

use super::League;
use super::squad::{self, Player};
use crate::games::gball::event::{Event, Foul, Injury};
use crate::games::gball::position::{Misses, Position, Winner, number_of, pid, team_of};
use crate::games::gball::Team;
use crate::kernel::events::Sink;

/// Games to miss after a match, as G17.6 carries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Absence {
    None,
    Games(u32),
    Season,
    Retired,
}

impl Absence {
    pub fn of(m: Misses) -> Absence {
        match m {
            Misses::None => Absence::None,
            Misses::Games(n) => Absence::Games(n),
            Misses::Season => Absence::Season,
            Misses::Retired => Absence::Retired,
        }
    }

    pub fn text(self) -> String {
        match self {
            Absence::None => "0".into(),
            Absence::Games(n) => n.to_string(),
            Absence::Season => "season".into(),
            Absence::Retired => "retired".into(),
        }
    }

    pub fn parse(s: &str) -> Option<Absence> {
        match s {
            "0" => Some(Absence::None),
            "season" => Some(Absence::Season),
            "retired" => Some(Absence::Retired),
            n => n
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=6).contains(&n))
                .map(Absence::Games),
        }
    }
}

/// A player in a fixture's match roster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fielded {
    /// His number in the match (1–9, G2.1).
    pub number: u8,
    /// His place in his team's squad.
    pub player: u32,
    /// As fielded.
    pub stars: u8,
    pub veteran: bool,
    pub goals: u32,
    /// After the match: earned stars included (G17.7).
    pub stars_after: u8,
    /// `serious` or `severe` (G13.1); lesser injuries end with the match.
    pub injury: Option<String>,
    /// A serious foul (G13.2).
    pub serious_foul: bool,
    pub absence: Absence,
}

/// A fixture's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The bots of RED (home) and BLU (away).
    pub bots: [String; 2],
    /// RED, BLU: the sets, the points of the last set.
    pub sets: [u8; 2],
    pub points: [u8; 2],
    /// `Some(Team)` or `None` for a draw.
    pub winner: Option<Team>,
    /// How the match ended (`sets`, `turn-limit`, `no-players`, `cut`).
    pub end: String,
    pub turns: u32,
    pub actions: u32,
    /// Replacements each side called up before the match (G17.5).
    pub called_up: [u32; 2],
    pub red: Vec<Fielded>,
    pub blu: Vec<Fielded>,
}

impl Played {
    pub fn side(&self, team: Team) -> &[Fielded] {
        match team {
            Team::Red => &self.red,
            Team::Blu => &self.blu,
        }
    }
}

/// The events a league keeps from a match: goals, serious and severe
/// injuries, serious fouls. Everything else is dropped as it comes.
#[derive(Default)]
pub struct Tally {
    pub goals: [u32; 18],
    pub injury: [Option<Injury>; 18],
    pub serious_foul: [bool; 18],
}

impl Sink<Event> for Tally {
    fn emit(&mut self, e: Event) {
        match e {
            Event::Score(p, _) => self.goals[p as usize] += 1,
            Event::Injury(p, i @ (Injury::Serious | Injury::Severe)) => {
                self.injury[p as usize] = Some(i)
            }
            Event::Foul(p, Foul::Serious) => self.serious_foul[p as usize] = true,
            _ => {}
        }
    }
}

/// The fielded players of `team` as the final position and the tally
/// leave them; `squad_of` lists (number, squad place, stars as fielded).
pub fn fielded(
    pos: &Position,
    tally: &Tally,
    team: Team,
    squad_of: &[(u8, u32, u8)],
) -> Vec<Fielded> {
    squad_of
        .iter()
        .map(|&(number, player, stars)| {
            let p = pid(team, number);
            debug_assert_eq!((team_of(p), number_of(p)), (team, number));
            let st = &pos.players[p as usize];
            Fielded {
                number,
                player,
                stars,
                veteran: st.veteran,
                goals: tally.goals[p as usize],
                stars_after: st.stars,
                injury: tally.injury[p as usize].map(|i| {
                    if i == Injury::Serious {
                        "serious".to_string()
                    } else {
                        "severe".to_string()
                    }
                }),
                serious_foul: tally.serious_foul[p as usize],
                absence: Absence::of(st.misses),
            }
        })
        .collect()
}

/// The winner of a final position (`None` for a draw or a cut match).
pub fn winner_of(pos: &Position) -> Option<Team> {
    match pos.winner {
        Some(Winner::Team(t)) => Some(t),
        _ => None,
    }
}

/// Carries a played fixture into the league: its call-ups, then each
/// side's players (G17.6, G17.7), then the fixture; the season's end if
/// this was its last fixture (G17.8). `callups` are the replacements the
/// sides called up (G17.5), RED then BLU. Returns whether the season
/// ended.
pub fn apply(league: &mut League, number: u32, callups: [Vec<Player>; 2], played: Played) -> bool {
    let Some(fi) = league.fixtures.iter().position(|f| f.number == number) else {
        return false;
    };
    let (home, away) = (league.fixtures[fi].home, league.fixtures[fi].away);
    for side in callups {
        league.players.extend(side);
    }
    for (team, fielded) in [(home, &played.red), (away, &played.blu)] {
        for p in league.players.iter_mut().filter(|p| p.team == team) {
            match fielded.iter().find(|f| f.player == p.index) {
                // G17.6: he missed this game; one fewer to miss.
                None => {
                    if !p.retired && p.misses > 0 {
                        p.misses -= 1;
                    }
                }
                Some(f) => {
                    // G17.7: earned stars stay (a veteran has none, G2.2).
                    if !p.veteran {
                        p.stars = f.stars_after;
                    }
                    match f.absence {
                        Absence::None => {}
                        Absence::Games(n) => p.misses = n,
                        // G17.6: the rest of the season.
                        Absence::Season => p.out_for_season = true,
                        // G17.6: a veteran's severe 6 retires him.
                        Absence::Retired => p.retired = true,
                    }
                }
            }
        }
    }
    let season = league.fixtures[fi].season;
    league.fixtures[fi].played = Some(played);
    let over = league
        .fixtures
        .iter()
        .filter(|f| f.season == season)
        .all(|f| f.played.is_some());
    if over && league.season == season {
        end_season(league);
        return true;
    }
    false
}

/// G17.8: the season ends: every player still in a squad goes up one
/// season (G17.4: from the 5th he is a veteran without stars), a
/// season-long absence is served, and the next season's fixtures are
/// drawn. Games still to miss carry on into the new season.
pub fn end_season(league: &mut League) {
    for p in league.players.iter_mut().filter(|p| !p.retired) {
        p.season += 1;
        squad::apply_season_rule(p);
        p.out_for_season = false;
    }
    league.season += 1;
    let ids: Vec<u32> = league.teams.iter().map(|t| t.id).collect();
    let first = league.fixtures.iter().map(|f| f.number).max().unwrap_or(0) + 1;
    let neutral = league.neutral();
    league.fixtures.extend(super::schedule::season_fixtures(
        &ids,
        league.season,
        league.games_per_season(),
        first,
        neutral,
    ));
}

/// Plays no part in the rules: the actions cap of a league match, far
/// beyond a real one (a bug net; the match is then `cut`, a draw).
pub const MAX_ACTIONS: usize = <crate::games::gball::Gball as crate::kernel::game::Game>::MAX_ACTIONS;

/// How a match ended, by the engine's names.
pub fn end_name(g: &crate::games::gball::Gball, pos: &Position) -> String {
    if pos.winner.is_none() {
        return "cut".into();
    }
    crate::games::gball::game::end_of(g, pos).name.to_string()
}

