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
    /// The actions, one a string, when a person played a side (`bots`
    /// then says `person`): such a match cannot be played again by bots,
    /// so its record is kept. `None` for bots' matches.
    pub moves: Option<Vec<String>>,
}

/// The seat label of a person in `Played::bots`.
pub const PERSON: &str = "person";

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
            Fielded {
                number,
                player,
                stars,
                veteran: pos.veterans & (1 << p) != 0,
                goals: tally.goals[p as usize],
                stars_after: pos.stars(p),
                injury: tally.injury[p as usize].map(|i| {
                    if i == Injury::Serious {
                        "serious".to_string()
                    } else {
                        "severe".to_string()
                    }
                }),
                serious_foul: tally.serious_foul[p as usize],
                absence: Absence::of(pos.misses[p as usize]),
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


#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gball::Venue;
    use crate::games::gball::position::{STAR_C, STAR_T};
    use crate::games::gball::ruleset::GballRuleset;

    /// Two teams, `games` rounds a season.
    fn league(games: u32) -> League {
        let mut rules = GballRuleset::standard();
        rules.params.games_per_season = games;
        League::new(1, &rules, 2).unwrap()
    }

    fn fielded(player: u32, stars: u8, absence: Absence) -> Fielded {
        Fielded {
            number: player as u8 + 1,
            player,
            stars,
            veteran: false,
            goals: 0,
            stars_after: stars,
            injury: None,
            serious_foul: false,
            absence,
        }
    }

    fn played(red: Vec<Fielded>, blu: Vec<Fielded>) -> Played {
        Played {
            bots: ["greedy".into(), "greedy".into()],
            sets: [1, 0],
            points: [0, 0],
            winner: Some(Team::Red),
            end: "sets".into(),
            turns: 10,
            actions: 100,
            called_up: [0, 0],
            red,
            blu,
            moves: None,
        }
    }

    fn player(l: &League, team: u32, i: u32) -> Player {
        l.player(team, i).unwrap().clone()
    }

    #[test]
    fn g17_6_absences_are_carried_and_counted_down() {
        let mut l = league(3);
        let f1 = &l.fixtures[0];
        let (home, away) = (f1.home, f1.away);
        // Home's player 0: 2 games (severe), player 1: serious (1 game),
        // player 2: the season; away's player 0 a serious foul.
        let mut red: Vec<Fielded> = (0..9).map(|i| fielded(i, 0, Absence::None)).collect();
        red[0].absence = Absence::Games(2);
        red[1].absence = Absence::Games(1);
        red[2].absence = Absence::Season;
        let mut blu: Vec<Fielded> = (0..9).map(|i| fielded(i, 0, Absence::None)).collect();
        blu[0].absence = Absence::Games(1);
        blu[0].serious_foul = true;
        assert!(!apply(&mut l, 1, Default::default(), played(red, blu)));
        assert_eq!(player(&l, home, 0).misses, 2);
        assert_eq!(player(&l, home, 1).misses, 1);
        assert!(player(&l, home, 2).out_for_season);
        assert!(!player(&l, home, 2).available());
        assert_eq!(player(&l, away, 0).misses, 1);
        // Fixture 2: they sit it out; one fewer each.
        let f2 = l.fixtures[1].clone();
        let side = |l: &League, team: u32| -> Vec<Fielded> {
            l.squad(team)
                .iter()
                .filter(|p| p.available())
                .take(9)
                .map(|p| fielded(p.index, p.stars, Absence::None))
                .collect()
        };
        let (r, b) = (side(&l, f2.home), side(&l, f2.away));
        apply(&mut l, 2, Default::default(), played(r, b));
        assert_eq!(player(&l, home, 0).misses, 1);
        assert_eq!(player(&l, home, 1).misses, 0);
        assert!(player(&l, home, 1).available());
        assert_eq!(player(&l, away, 0).misses, 0);
        assert!(player(&l, home, 2).out_for_season, "the season is not over");
        // Fixture 3 ends season 1: the 2-game absence is counted down to
        // its end and the season-long one served.
        let f3 = l.fixtures[2].clone();
        let (r, b) = (side(&l, f3.home), side(&l, f3.away));
        assert!(apply(&mut l, 3, Default::default(), played(r, b)));
        assert_eq!(player(&l, home, 0).misses, 0);
        assert!(!player(&l, home, 2).out_for_season, "served at the season's end");
        assert_eq!(l.season, 2);
    }

    #[test]
    fn g17_6_a_veteran_retires_and_g17_7_earned_stars_stay() {
        let mut l = league(2);
        let (home, away) = (l.fixtures[0].home, l.fixtures[0].away);
        let mut red: Vec<Fielded> = (0..9).map(|i| fielded(i, 0, Absence::None)).collect();
        red[8].veteran = true;
        red[8].absence = Absence::Retired;
        let before = player(&l, home, 3).stars;
        red[3].stars = before;
        red[3].stars_after = before | STAR_T | STAR_C;
        let blu: Vec<Fielded> = (0..9).map(|i| fielded(i, 0, Absence::None)).collect();
        apply(&mut l, 1, Default::default(), played(red, blu));
        assert!(player(&l, home, 8).retired);
        assert!(!player(&l, home, 8).available());
        assert_eq!(player(&l, home, 3).stars, before | STAR_T | STAR_C);
        let _ = away;
    }

    #[test]
    fn g17_8_the_season_end_counts_seasons_and_draws_the_next() {
        let mut l = league(1);
        let seasons: Vec<u32> = l.players.iter().map(|p| p.season).collect();
        let stars_of_fourth: Vec<(u32, u32)> = l
            .players
            .iter()
            .filter(|p| p.season == 4 && p.stars != 0)
            .map(|p| (p.team, p.index))
            .collect();
        let red: Vec<Fielded> = (0..9).map(|i| fielded(i, 0, Absence::None)).collect();
        let blu = red.clone();
        // Earned stars are kept as fielded: give back each player's own.
        let mut p = played(red, blu);
        for (team, side) in [(l.fixtures[0].home, &mut p.red), (l.fixtures[0].away, &mut p.blu)] {
            for x in side.iter_mut() {
                let s = l.player(team, x.player).unwrap().stars;
                x.stars = s;
                x.stars_after = s;
            }
        }
        assert!(apply(&mut l, 1, Default::default(), p));
        assert_eq!(l.season, 2);
        for (pl, before) in l.players.iter().zip(seasons) {
            assert_eq!(pl.season, before + 1);
            assert_eq!(pl.veteran, pl.season >= 5, "G17.4");
            assert!(!pl.veteran || pl.stars == 0, "G17.4");
        }
        for (team, i) in stars_of_fourth {
            assert_eq!(l.player(team, i).unwrap().stars, 0, "G17.4: stars gone");
        }
        // Season 2's fixture is drawn, numbered on.
        assert_eq!(l.fixtures.len(), 2);
        assert_eq!((l.fixtures[1].number, l.fixtures[1].season), (2, 2));
    }

    #[test]
    fn g17_9_the_venue_is_home_or_neutral() {
        let l = league(1);
        assert!(!l.fixtures[0].neutral);
        let p = super::super::play::prepare(&l, 1).unwrap();
        assert_eq!(p.game.params.venue, Venue::Home);
        let mut rules = GballRuleset::standard();
        rules.params.venue = Venue::Neutral;
        let l = League::new(1, &rules, 2).unwrap();
        assert!(l.fixtures.iter().all(|f| f.neutral));
        let p = super::super::play::prepare(&l, 1).unwrap();
        assert_eq!(p.game.params.venue, Venue::Neutral);
        // The home team plays as RED.
        let home = l.squad(l.fixtures[0].home);
        let first = super::super::roster::best_nine(&l.params, &home)[0];
        assert_eq!(p.sides[0][0].1, first);
    }

    #[test]
    fn g17_5_a_short_squad_calls_up_before_the_match() {
        let mut l = league(1);
        let home = l.fixtures[0].home;
        for p in l.players.iter_mut().filter(|p| p.team == home).take(4) {
            p.misses = 2;
        }
        let p = super::super::play::prepare(&l, 1).unwrap();
        assert_eq!(p.callups[0].len(), 4);
        assert!(p.callups[0].iter().all(|c| c.stars == 0 && !c.veteran));
        assert_eq!(p.sides[0].len(), 9);
        assert_eq!(p.callups[1].len(), 0);
    }
}
