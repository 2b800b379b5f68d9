//! G-ball's league (G17, issue 25): squads carried from game to game,
//! seasons, fixtures played by bots, kept in one SQLite file
//! (`crate::store`).
//!
//! One module a concern: [`squad`] (players, G17.1–G17.5: new teams on
//! the star budget, d66 season counts, veterans by season, call-ups),
//! [`schedule`] (fixtures, rounds, seasons and venues, G17.8–G17.9, and
//! each fixture's seed), [`roster`] (the coach's match roster of up to
//! nine available players), [`result`] (what a played fixture changes,
//! G17.6–G17.8), [`play`] (a fixture played by bots on the engine as it
//! is), [`person`] (a fixture a person plays, on any board: the
//! roster named, the match committed from its actions), [`schema`] (the league's tables and its transactions),
//! [`export`] (the JSON of `docs/league.md`), [`table`] (standings, the
//! season report, the plot).
//!
//! **Boundary:** the rules modules (`squad`, `schedule`, `roster`,
//! `result`) depend on the G-ball engine and the kernel; `schema` on
//! `crate::store`; `play` on `crate::bots` (the one edge upwards: the
//! league is played by bots, as `lab` plays games).

pub mod export;
pub mod person;
pub mod play;
pub mod result;
pub mod roster;
pub mod schedule;
pub mod schema;
pub mod squad;
pub mod table;

use super::ruleset::{self, GballRuleset};
use super::{Params, Venue};
use crate::kernel::rng::SplitMix64;
use schedule::Fixture;
use squad::{Player, Team};

/// The most teams a league may have.
pub const MAX_TEAMS: usize = 64;

/// A whole league in memory (small: a few hundred players, fixtures by
/// the hundred), as one transaction of the store reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct League {
    pub seed: u64,
    /// The ruleset's name (a shipped name or the path it was read from)
    /// and its values as TOML (`GballRuleset::to_toml`): the league plays
    /// by these values whatever happens to the file later.
    pub ruleset_name: String,
    pub ruleset_toml: String,
    /// The season in progress (from 1).
    pub season: u32,
    pub teams: Vec<Team>,
    pub players: Vec<Player>,
    pub fixtures: Vec<Fixture>,
    pub params: Params,
}

impl League {
    /// A new league of `n` teams (G17.2), season 1 drawn.
    pub fn new(seed: u64, rules: &GballRuleset, n: usize) -> Result<League, String> {
        if !(2..=MAX_TEAMS).contains(&n) {
            return Err(format!("--teams {n}: a league has 2 to {MAX_TEAMS} teams"));
        }
        if !rules.variants.is_empty() {
            return Err(format!(
                "ruleset `{}` has variants (house rules in Lua): a league plays by G18's values alone",
                rules.name
            ));
        }
        let mut rng = SplitMix64::new(seed);
        let mut teams = Vec::new();
        let mut players = Vec::new();
        for i in 0..n {
            let id = i as u32 + 1;
            teams.push(Team {
                id,
                name: squad::team_name(i),
            });
            let mut team_rng = SplitMix64::new(rng.next_u64());
            players.extend(squad::new_team(&rules.params, id, &mut team_rng));
        }
        let mut league = League {
            seed,
            ruleset_name: rules.name.clone(),
            ruleset_toml: rules.to_toml(),
            season: 1,
            teams,
            players,
            fixtures: Vec::new(),
            params: rules.params.clone(),
        };
        let ids: Vec<u32> = league.teams.iter().map(|t| t.id).collect();
        league.fixtures = schedule::season_fixtures(
            &ids,
            1,
            league.games_per_season(),
            1,
            league.neutral(),
        );
        Ok(league)
    }

    /// The ruleset the league plays by, from its stored values.
    pub fn ruleset(&self) -> Result<GballRuleset, String> {
        parse_ruleset(&self.ruleset_name, &self.ruleset_toml)
    }

    /// G17.9: fixtures are neutral when the ruleset's venue is.
    pub fn neutral(&self) -> bool {
        self.params.venue == Venue::Neutral
    }

    pub fn games_per_season(&self) -> u32 {
        self.params.games_per_season
    }

    pub fn squad(&self, team: u32) -> Vec<Player> {
        self.players
            .iter()
            .filter(|p| p.team == team)
            .cloned()
            .collect()
    }

    pub fn team_name(&self, id: u32) -> &str {
        self.teams
            .iter()
            .find(|t| t.id == id)
            .map_or("?", |t| t.name.as_str())
    }

    pub fn fixture(&self, number: u32) -> Option<&Fixture> {
        self.fixtures.iter().find(|f| f.number == number)
    }

    pub fn player(&self, team: u32, index: u32) -> Option<&Player> {
        self.players
            .iter()
            .find(|p| p.team == team && p.index == index)
    }

    /// The next fixtures to play: the unplayed ones of the earliest round
    /// that has any, among those `wanted` accepts. Their teams' earlier
    /// fixtures are all played, so they can be played in any order, at
    /// once.
    pub fn next_round(&self, wanted: impl Fn(&Fixture) -> bool) -> Vec<u32> {
        let Some(first) = self
            .fixtures
            .iter()
            .filter(|f| f.played.is_none())
            .min_by_key(|f| (f.season, f.round, f.number))
        else {
            return Vec::new();
        };
        self.fixtures
            .iter()
            .filter(|f| f.played.is_none() && (f.season, f.round) == (first.season, first.round))
            .filter(|f| wanted(f))
            .map(|f| f.number)
            .collect()
    }
}

/// A league's ruleset from its stored TOML.
pub fn parse_ruleset(name: &str, toml: &str) -> Result<GballRuleset, String> {
    ruleset::parse("the league's ruleset", toml, name).map_err(|problems| {
        problems
            .first()
            .map_or("the league's ruleset: unreadable".into(), |p| p.to_string())
    })
}
