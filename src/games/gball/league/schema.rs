//! The league's tables in the store (`crate::store`) and its two kinds of
//! transaction: reading the whole league, and committing one fixture with
//! everything it changes.
//!
//! Schema version 1 (`PRAGMA user_version`; `application_id` = `GBLG`):
//!
//! - `league` — one row: the seed, the ruleset's name and values, the
//!   season in progress;
//! - `teams` (id, name), `players` (team, squad place, name, stars as
//!   bits J=1 C=2 T=4, veteran, season count, games to miss, out for the
//!   season, retired);
//! - `fixtures` — number, season, round, home, away, neutral, and once
//!   played its result (bots, sets, points, winner, end, turns, actions,
//!   call-ups, and the actions themselves when a person played);
//! - `fielded` — each played fixture's match rosters: side, number,
//!   player, stars as fielded and after, goals, injury, serious foul,
//!   games to miss.

use rusqlite::{OptionalExtension, Transaction, params};

use super::League;
use super::result::{Absence, Fielded, Played};
use super::schedule::Fixture;
use super::squad::{Player, Team};
use crate::games::gball::Team as Side;
use crate::store::{Failure, Schema, Store};

/// The league's schema: `application_id` is "GBLG".
pub const SCHEMA: Schema = Schema {
    application_id: 0x4742_4C47,
    what: "a G-ball league",
    migrations: &[V1],
    convert: None,
};

const V1: &str = "
CREATE TABLE league (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seed INTEGER NOT NULL,
    ruleset_name TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    season INTEGER NOT NULL
);
CREATE TABLE teams (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE players (
    team INTEGER NOT NULL REFERENCES teams(id),
    idx INTEGER NOT NULL,
    name TEXT NOT NULL,
    stars INTEGER NOT NULL,
    veteran INTEGER NOT NULL,
    season INTEGER NOT NULL,
    misses INTEGER NOT NULL,
    out_for_season INTEGER NOT NULL,
    retired INTEGER NOT NULL,
    PRIMARY KEY (team, idx)
);
CREATE TABLE fixtures (
    number INTEGER PRIMARY KEY,
    season INTEGER NOT NULL,
    round INTEGER NOT NULL,
    home INTEGER NOT NULL REFERENCES teams(id),
    away INTEGER NOT NULL REFERENCES teams(id),
    neutral INTEGER NOT NULL,
    played INTEGER NOT NULL DEFAULT 0,
    red_bot TEXT, blu_bot TEXT,
    red_sets INTEGER, blu_sets INTEGER,
    red_points INTEGER, blu_points INTEGER,
    winner TEXT, end_name TEXT,
    turns INTEGER, actions INTEGER,
    red_called_up INTEGER, blu_called_up INTEGER,
    moves TEXT
);
CREATE TABLE fielded (
    fixture INTEGER NOT NULL REFERENCES fixtures(number),
    side TEXT NOT NULL,
    number INTEGER NOT NULL,
    player INTEGER NOT NULL,
    stars INTEGER NOT NULL,
    veteran INTEGER NOT NULL,
    goals INTEGER NOT NULL,
    stars_after INTEGER NOT NULL,
    injury TEXT,
    serious_foul INTEGER NOT NULL,
    absence TEXT NOT NULL,
    PRIMARY KEY (fixture, side, number)
);
";

fn bad(what: String) -> Failure {
    Failure::Refused(what)
}

/// Reads the whole league in one snapshot.
pub fn load(tx: &Transaction) -> Result<League, Failure> {
    let row: Option<(i64, String, String, u32)> = tx
        .query_row(
            "SELECT seed, ruleset_name, ruleset, season FROM league WHERE id = 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    let Some((seed, ruleset_name, ruleset_toml, season)) = row else {
        return Err(bad("not a whole league: it has no `league` row".into()));
    };
    let rules = super::parse_ruleset(&ruleset_name, &ruleset_toml).map_err(bad)?;
    let mut st = tx.prepare("SELECT id, name FROM teams ORDER BY id")?;
    let teams = st
        .query_map([], |r| {
            Ok(Team {
                id: r.get(0)?,
                name: r.get(1)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut st = tx.prepare(
        "SELECT team, idx, name, stars, veteran, season, misses, out_for_season, retired
         FROM players ORDER BY team, idx",
    )?;
    let players = st
        .query_map([], |r| {
            Ok(Player {
                team: r.get(0)?,
                index: r.get(1)?,
                name: r.get(2)?,
                stars: r.get(3)?,
                veteran: r.get(4)?,
                season: r.get(5)?,
                misses: r.get(6)?,
                out_for_season: r.get(7)?,
                retired: r.get(8)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut fielded: std::collections::BTreeMap<(u32, String), Vec<Fielded>> = Default::default();
    let mut st = tx.prepare(
        "SELECT fixture, side, number, player, stars, veteran, goals, stars_after, injury,
                serious_foul, absence
         FROM fielded ORDER BY fixture, side, number",
    )?;
    let rows = st.query_map([], |r| {
        Ok((
            r.get::<_, u32>(0)?,
            r.get::<_, String>(1)?,
            Fielded {
                number: r.get(2)?,
                player: r.get(3)?,
                stars: r.get(4)?,
                veteran: r.get(5)?,
                goals: r.get(6)?,
                stars_after: r.get(7)?,
                injury: r.get(8)?,
                serious_foul: r.get(9)?,
                absence: Absence::None,
            },
            r.get::<_, String>(10)?,
        ))
    })?;
    for row in rows {
        let (fixture, side, mut f, absence) = row?;
        f.absence = Absence::parse(&absence)
            .ok_or_else(|| bad(format!("fixture {fixture}: games to miss `{absence}`")))?;
        fielded.entry((fixture, side)).or_default().push(f);
    }
    let mut st = tx.prepare(
        "SELECT number, season, round, home, away, neutral, played, red_bot, blu_bot,
                red_sets, blu_sets, red_points, blu_points, winner, end_name, turns, actions,
                red_called_up, blu_called_up, moves
         FROM fixtures ORDER BY number",
    )?;
    let mut fixtures = Vec::new();
    let mut rows = st.query([])?;
    while let Some(r) = rows.next()? {
        let number: u32 = r.get(0)?;
        let played: bool = r.get(6)?;
        let result = if played {
            let winner: String = r.get(13)?;
            Some(Played {
                bots: [r.get(7)?, r.get(8)?],
                sets: [r.get(9)?, r.get(10)?],
                points: [r.get(11)?, r.get(12)?],
                winner: match winner.as_str() {
                    "draw" => None,
                    w => Some(
                        Side::parse(w)
                            .ok_or_else(|| bad(format!("fixture {number}: winner `{w}`")))?,
                    ),
                },
                end: r.get(14)?,
                turns: r.get(15)?,
                actions: r.get(16)?,
                called_up: [r.get(17)?, r.get(18)?],
                red: fielded.remove(&(number, "RED".into())).unwrap_or_default(),
                blu: fielded.remove(&(number, "BLU".into())).unwrap_or_default(),
                moves: r
                    .get::<_, Option<String>>(19)?
                    .map(|m| m.lines().map(str::to_string).collect()),
            })
        } else {
            None
        };
        fixtures.push(Fixture {
            number,
            season: r.get(1)?,
            round: r.get(2)?,
            home: r.get(3)?,
            away: r.get(4)?,
            neutral: r.get(5)?,
            played: result,
        });
    }
    Ok(League {
        seed: seed as u64,
        ruleset_name,
        ruleset_toml,
        season,
        teams,
        players,
        fixtures,
        params: rules.params,
    })
}

fn save_meta(tx: &Transaction, l: &League) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO league (id, seed, ruleset_name, ruleset, season) VALUES (1, ?1, ?2, ?3, ?4)
         ON CONFLICT(id) DO UPDATE SET season = ?4",
        params![l.seed as i64, l.ruleset_name, l.ruleset_toml, l.season],
    )?;
    Ok(())
}

fn save_player(tx: &Transaction, p: &Player) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT OR REPLACE INTO players
         (team, idx, name, stars, veteran, season, misses, out_for_season, retired)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            p.team,
            p.index,
            p.name,
            p.stars,
            p.veteran,
            p.season,
            p.misses,
            p.out_for_season,
            p.retired
        ],
    )?;
    Ok(())
}

fn save_fixture(tx: &Transaction, f: &Fixture) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO fixtures (number, season, round, home, away, neutral, played)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0) ON CONFLICT(number) DO NOTHING",
        params![f.number, f.season, f.round, f.home, f.away, f.neutral],
    )?;
    let Some(p) = &f.played else { return Ok(()) };
    let winner = p.winner.map_or("draw", |t| t.name());
    tx.execute(
        "UPDATE fixtures SET played = 1, red_bot = ?2, blu_bot = ?3, red_sets = ?4,
         blu_sets = ?5, red_points = ?6, blu_points = ?7, winner = ?8, end_name = ?9,
         turns = ?10, actions = ?11, red_called_up = ?12, blu_called_up = ?13, moves = ?14
         WHERE number = ?1",
        params![
            f.number,
            p.bots[0],
            p.bots[1],
            p.sets[0],
            p.sets[1],
            p.points[0],
            p.points[1],
            winner,
            p.end,
            p.turns,
            p.actions,
            p.called_up[0],
            p.called_up[1],
            p.moves.as_ref().map(|m| m.join("\n"))
        ],
    )?;
    for (side, list) in [("RED", &p.red), ("BLU", &p.blu)] {
        for x in list.iter() {
            tx.execute(
                "INSERT OR REPLACE INTO fielded (fixture, side, number, player, stars, veteran,
                 goals, stars_after, injury, serious_foul, absence)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    f.number,
                    side,
                    x.number,
                    x.player,
                    x.stars,
                    x.veteran,
                    x.goals,
                    x.stars_after,
                    x.injury,
                    x.serious_foul,
                    x.absence.text()
                ],
            )?;
        }
    }
    Ok(())
}

/// Writes a whole league into a new store (`league new`, `import`), in
/// the transaction that makes its schema.
pub fn create(path: &std::path::Path, l: &League) -> Result<Store, String> {
    Store::create_with(path, &SCHEMA, |tx| {
        save_meta(tx, l)?;
        for t in &l.teams {
            tx.execute(
                "INSERT INTO teams (id, name) VALUES (?1, ?2)",
                params![t.id, t.name],
            )?;
        }
        for p in &l.players {
            save_player(tx, p)?;
        }
        for f in &l.fixtures {
            save_fixture(tx, f)?;
        }
        Ok(())
    })
}

pub fn open(path: &std::path::Path) -> Result<Store, String> {
    Store::open(path, &SCHEMA)
}

pub fn read(store: &mut Store) -> Result<League, String> {
    store.read(load)
}

/// What committing a fixture did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Committed {
    /// Committed; `true` when it ended the season.
    Done(bool),
    /// Another process had committed it already (the same result: a
    /// fixture plays the same whoever plays it).
    AlreadyPlayed,
}

/// Commits fixture `number`'s result and everything it changes — the
/// two squads (call-ups, absences, stars, retirements), the fixture and
/// its rosters, and at a season's end every player, the new fixtures and
/// the season — in one transaction, on the league as the file holds it
/// inside that transaction.
pub fn commit(
    store: &mut Store,
    number: u32,
    callups: [Vec<Player>; 2],
    played: Played,
) -> Result<Committed, String> {
    store.try_write(|tx| {
        let mut l = load(tx)?;
        let Some(f) = l.fixture(number).cloned() else {
            return Err(bad(format!("there is no fixture {number}")));
        };
        if f.played.is_some() {
            return Ok(Committed::AlreadyPlayed);
        }
        let fixtures_before = l.fixtures.len();
        let ended = super::result::apply(&mut l, number, callups, played);
        if ended {
            save_meta(tx, &l)?;
            for p in &l.players {
                save_player(tx, p)?;
            }
            for f in &l.fixtures[fixtures_before..] {
                save_fixture(tx, f)?;
            }
        } else {
            for p in l.players.iter().filter(|p| p.team == f.home || p.team == f.away) {
                save_player(tx, p)?;
            }
        }
        let done = l.fixture(number).expect("just applied");
        save_fixture(tx, done)?;
        Ok(Committed::Done(ended))
    })
}
