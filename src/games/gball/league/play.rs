//! A fixture played by bots on the engine as it is: the coaches call up
//! and name their rosters (`roster`), the match is set up from the two
//! rosters (`Gball { params, teams }`, RED the home team, G17.9) and
//! played to its end, and its result read from the final position and the
//! events (`result`). Everything random comes from the fixture's seed
//! (`schedule::fixture_seed`): the match's dice, the bots' own draws, the
//! call-ups' names and season counts.

use super::League;
use super::result::{self, Played, Tally};
use super::roster;
use super::schedule::fixture_seed;
use super::squad::Player;
use crate::bots;
use crate::games::gball::position::Position;
use crate::games::gball::{Gball, Team, Teams, Venue, flow};
use crate::kernel::game::Game;
use crate::kernel::rng::SplitMix64;

/// A fixture ready to be played.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub number: u32,
    /// The match: the league's values (`venue` the fixture's), the two
    /// match rosters.
    pub game: Gball,
    pub seed: u64,
    pub bot_seeds: [u64; 2],
    /// RED's and BLU's call-ups (G17.5).
    pub callups: [Vec<Player>; 2],
    /// RED's and BLU's (number, squad place, stars) as fielded.
    pub sides: [Vec<(u8, u32, u8)>; 2],
}

/// Sets up fixture `number` from the league as it stands (its teams'
/// earlier fixtures played).
pub fn prepare(league: &League, number: u32) -> Result<Prepared, String> {
    let f = league
        .fixture(number)
        .ok_or_else(|| format!("there is no fixture {number}"))?;
    let mut rng = SplitMix64::new(fixture_seed(league.seed, number));
    let seed = rng.next_u64();
    let bot_seeds = [rng.next_u64(), rng.next_u64()];
    let mut callups: [Vec<Player>; 2] = Default::default();
    let mut sides: [Vec<(u8, u32, u8)>; 2] = Default::default();
    let mut teams = Teams {
        red: Vec::new(),
        blu: Vec::new(),
    };
    for (k, team) in [f.home, f.away].into_iter().enumerate() {
        let mut side_rng = SplitMix64::new(rng.next_u64());
        let mut squad = league.squad(team);
        callups[k] = roster::call_ups(&squad, team, &mut side_rng);
        squad.extend(callups[k].iter().cloned());
        let chosen = roster::best_nine(&league.params, &squad);
        let named = roster::match_roster(&squad, &chosen)
            .map_err(|e| format!("fixture {number}, {}: {e}", league.team_name(team)))?;
        sides[k] = named.iter().map(|(r, i)| (r.number, *i, r.stars)).collect();
        let list = named.into_iter().map(|(r, _)| r).collect();
        if k == 0 {
            teams.red = list;
        } else {
            teams.blu = list;
        }
    }
    let mut params = league.params.clone();
    params.venue = if f.neutral {
        Venue::Neutral
    } else {
        Venue::Home
    };
    Ok(Prepared {
        number,
        game: Gball {
            params,
            teams,
            script: None,
        },
        seed,
        bot_seeds,
        callups,
        sides,
    })
}

/// A match played to its end.
pub struct Match {
    pub start: Position,
    pub end: Position,
    pub tally: Tally,
    /// The actions as text, when asked for (a match record).
    pub actions: Vec<String>,
    pub count: u32,
}

/// Plays the prepared match with `bots` (RED's, BLU's).
pub fn run(p: &Prepared, bots: &[String; 2], keep_actions: bool) -> Result<Match, String> {
    let g = &p.game;
    let start = flow::new_match(g, p.seed, &mut ());
    let mut players: Vec<Box<dyn bots::Bot<Gball>>> = Vec::new();
    for (spec, seed) in bots.iter().zip(p.bot_seeds) {
        players.push(bots::from_spec::<Gball>(spec, seed)?);
    }
    let mut pos = start.clone();
    let mut tally = Tally::default();
    let mut legal = Vec::with_capacity(64);
    let mut actions = Vec::new();
    let mut count = 0u32;
    while (count as usize) < result::MAX_ACTIONS {
        let Some(seat) = g.to_move(&pos) else { break };
        g.legal_into(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        let a = players[seat].choose(g, &pos, &legal);
        if keep_actions {
            actions.push(a.to_string());
        }
        flow::apply(g, &mut pos, a, &mut tally);
        count += 1;
    }
    Ok(Match {
        start,
        end: pos,
        tally,
        actions,
        count,
    })
}

/// The fixture's result from its match.
pub fn played(p: &Prepared, m: &Match, bots: &[String; 2]) -> Played {
    Played {
        bots: bots.clone(),
        sets: m.end.sets,
        points: m.end.points,
        winner: result::winner_of(&m.end),
        end: result::end_name(&p.game, &m.end),
        turns: m.end.match_turns,
        actions: m.count,
        called_up: [p.callups[0].len() as u32, p.callups[1].len() as u32],
        red: result::fielded(&m.end, &m.tally, Team::Red, &p.sides[0]),
        blu: result::fielded(&m.end, &m.tally, Team::Blu, &p.sides[1]),
        moves: None,
    }
}

/// Prepares and plays fixture `number`: its result and call-ups.
pub fn play_fixture(
    league: &League,
    number: u32,
    bots: &[String; 2],
) -> Result<(Played, [Vec<Player>; 2]), String> {
    let p = prepare(league, number)?;
    let m = run(&p, bots, false)?;
    Ok((played(&p, &m, bots), p.callups))
}

/// Fixture `number` set up again from what the league stored of it (its
/// rosters as fielded, its seed, its venue), to replay it for its match
/// record: the squads have moved on since.
pub fn prepare_played(league: &League, number: u32) -> Result<(Prepared, Played), String> {
    let f = league
        .fixture(number)
        .ok_or_else(|| format!("there is no fixture {number}"))?;
    let played = f
        .played
        .clone()
        .ok_or_else(|| format!("fixture {number} has not been played yet"))?;
    let mut rng = SplitMix64::new(fixture_seed(league.seed, number));
    let seed = rng.next_u64();
    let bot_seeds = [rng.next_u64(), rng.next_u64()];
    let roster = |list: &[result::Fielded]| -> Vec<crate::games::gball::Roster> {
        let mut v: Vec<_> = list
            .iter()
            .map(|x| crate::games::gball::Roster {
                number: x.number,
                stars: x.stars,
                veteran: x.veteran,
            })
            .collect();
        v.sort_by_key(|r| r.number);
        v
    };
    let side = |list: &[result::Fielded]| list.iter().map(|x| (x.number, x.player, x.stars)).collect();
    let mut params = league.params.clone();
    params.venue = if f.neutral {
        Venue::Neutral
    } else {
        Venue::Home
    };
    let prepared = Prepared {
        number,
        game: Gball {
            params,
            teams: Teams {
                red: roster(&played.red),
                blu: roster(&played.blu),
            },
            script: None,
        },
        seed,
        bot_seeds,
        callups: Default::default(),
        sides: [side(&played.red), side(&played.blu)],
    };
    Ok((prepared, played))
}

/// Plays the prepared match again from stored actions (a match a person
/// played), each checked as `ball replay --check` checks it.
pub fn replay_moves(p: &Prepared, moves: &[String]) -> Result<Match, String> {
    let g = &p.game;
    let start = flow::new_match(g, p.seed, &mut ());
    let mut pos = start.clone();
    let mut tally = Tally::default();
    for (k, text) in moves.iter().enumerate() {
        let a = crate::games::gball::action::parse(text)
            .map_err(|e| format!("fixture {}, action {}: {e}", p.number, k + 1))?;
        flow::play(g, &mut pos, a, &mut tally)
            .map_err(|e| format!("fixture {}, action {}: {e}", p.number, k + 1))?;
    }
    Ok(Match {
        start,
        end: pos,
        tally,
        actions: moves.to_vec(),
        count: moves.len() as u32,
    })
}
