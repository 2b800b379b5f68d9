//! A fixture one side of which a person plays, on any board (the
//! terminal's or a browser's): the squad offered, the match roster named
//! (refused by `roster::match_roster`'s rules), and the finished match
//! committed from its actions. Both boards call these, so the two paths
//! cannot commit differently: the result is always the actions replayed
//! from the fixture's own seed (`play::replay_moves`), never what a board
//! says it reached.

use super::League;
use super::play::{self, Prepared};
use super::result::{self, Played};
use super::roster;
use super::schedule::Fixture;
use super::schema;
use super::squad::Player;
use crate::games::gball::position::stars_name;
use crate::games::gball::ruleset::GballRuleset;
use crate::kernel::game::Game;

/// The next fixture, offered to the person of one side.
#[derive(Clone, Debug)]
pub struct Offer {
    pub fixture: Fixture,
    /// 0 home (RED), 1 away (BLU).
    pub side: usize,
    pub team: u32,
    /// The person's squad with its call-ups (G17.5), retired players too.
    pub squad: Vec<Player>,
    pub called_up: usize,
    /// The bots' best nine: what the person gets by naming nobody.
    pub best: Vec<u32>,
    prepared: Prepared,
}

/// The next fixture to play, for `side`; `None` when the league has none
/// left.
pub fn offer(l: &League, side: usize) -> Result<Option<Offer>, String> {
    let Some(&n) = l.next_round(|_| true).first() else {
        return Ok(None);
    };
    let prepared = play::prepare(l, n)?;
    let fixture = l
        .fixture(n)
        .ok_or_else(|| format!("there is no fixture {n}"))?
        .clone();
    let side = side.min(1);
    let team = [fixture.home, fixture.away][side];
    let mut squad = l.squad(team);
    squad.extend(prepared.callups[side].iter().cloned());
    let best = roster::best_nine(&l.params, &squad);
    Ok(Some(Offer {
        called_up: prepared.callups[side].len(),
        fixture,
        side,
        team,
        squad,
        best,
        prepared,
    }))
}

/// Whether a player may be named, in words.
pub fn availability(p: &Player) -> String {
    if p.available() {
        "yes".to_string()
    } else if p.retired {
        "retired".to_string()
    } else if p.out_for_season {
        "out for the season".to_string()
    } else {
        format!("misses {} more", p.misses)
    }
}

/// A player's stars as the notation names them.
pub fn stars(p: &Player) -> String {
    stars_name(p.stars)
}

impl Offer {
    pub fn number(&self) -> u32 {
        self.fixture.number
    }

    /// Who plays whom, and for whom the person plays.
    pub fn heading(&self, l: &League) -> String {
        let f = &self.fixture;
        format!(
            "Fixture {} (season {}, round {}): {} (home, RED) v {} (away, BLU). You are {}.",
            f.number,
            f.season,
            f.round,
            l.team_name(f.home),
            l.team_name(f.away),
            l.team_name(self.team)
        )
    }

    /// The match with the person's roster: squad places, numbered 1–9 in
    /// the order given; refused in words as `roster::match_roster`
    /// refuses.
    pub fn with_roster(&self, chosen: &[u32]) -> Result<Prepared, String> {
        let named = roster::match_roster(&self.squad, chosen)?;
        let mut p = self.prepared.clone();
        p.sides[self.side] = named.iter().map(|(r, i)| (r.number, *i, r.stars)).collect();
        let list = named.into_iter().map(|(r, _)| r).collect();
        if self.side == 0 {
            p.game.teams.red = list;
        } else {
            p.game.teams.blu = list;
        }
        Ok(p)
    }
}

/// The ruleset a board plays the prepared match by: the league's, with
/// the fixture's values and rosters.
pub fn ruleset(l: &League, p: &Prepared) -> Result<GballRuleset, String> {
    Ok(GballRuleset {
        params: p.game.params.clone(),
        teams: p.game.teams.clone(),
        ..l.ruleset()?
    })
}

/// What became of a person's match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Committed: the result line, and the season it ended, if it did.
    Committed { line: String, ended: Option<u32> },
    /// The match was not over: nothing committed.
    Unfinished,
    /// Another run committed the fixture while the person played.
    Taken,
}

impl Outcome {
    /// What the person is told, one line each.
    pub fn lines(&self, number: u32) -> Vec<String> {
        match self {
            Outcome::Committed { line, ended } => {
                let mut v = vec![line.clone()];
                if let Some(s) = ended {
                    v.push(format!("season {s} ends"));
                }
                v
            }
            Outcome::Unfinished => vec![format!(
                "fixture {number}: the match was left unfinished; nothing committed"
            )],
            Outcome::Taken => vec![format!(
                "fixture {number}: another run committed it while you played; yours is not kept"
            )],
        }
    }
}

/// Commits the person's match, played as `moves` (the notation) from the
/// prepared fixture, in one transaction (`schema::commit`); `bots` are
/// RED's and BLU's bots, the person's side labelled `person`. Actions a
/// replay refuses are an error; a match not over commits nothing.
pub fn commit(
    store: &mut crate::store::Store,
    l: &League,
    p: &Prepared,
    side: usize,
    bots: &[String; 2],
    moves: &[String],
) -> Result<Outcome, String> {
    let m = play::replay_moves(p, moves)?;
    if p.game.to_move(&m.end).is_some() {
        return Ok(Outcome::Unfinished);
    }
    let mut labels = bots.clone();
    labels[side.min(1)] = result::PERSON.to_string();
    let mut played = play::played(p, &m, &labels);
    played.moves = Some(moves.to_vec());
    let line = result_line(l, p.number, &played);
    let season = l.fixture(p.number).map_or(0, |f| f.season);
    Ok(
        match schema::commit(store, p.number, p.callups.clone(), played)? {
            schema::Committed::Done(ended) => Outcome::Committed {
                line,
                ended: ended.then_some(season),
            },
            schema::Committed::AlreadyPlayed => Outcome::Taken,
        },
    )
}

/// A played fixture in one line: the teams and the sets.
pub fn result_line(l: &League, n: u32, p: &Played) -> String {
    let Some(f) = l.fixture(n) else {
        return format!("fixture {n}: {} - {}", p.sets[0], p.sets[1]);
    };
    format!(
        "fixture {n} (season {}, round {}): {} {} - {} {}{}",
        f.season,
        f.round,
        l.team_name(f.home),
        p.sets[0],
        p.sets[1],
        l.team_name(f.away),
        if p.winner.is_none() { " (draw)" } else { "" }
    )
}
