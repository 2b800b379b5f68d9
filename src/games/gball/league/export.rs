//! The league as JSON (`ball league export`, `ball league import`;
//! `docs/league.md` gives the shape). Everything the file holds is in it,
//! so export → import → export is the same text. The reader is strict:
//! unknown and repeated keys are refused, sizes are bounded, every
//! reference is checked, and the first problem is one line naming where.

use serde::{Deserialize, Serialize};

use super::League;
use super::result::{Absence, Fielded, Played};
use super::schedule::Fixture;
use super::squad::{Player, Team};
use crate::games::gball::Team as Side;
use crate::games::gball::teams::parse_stars;

/// The format's name and version.
pub const FORMAT: &str = "ball-league";
pub const VERSION: u32 = 1;
/// An import is refused beyond this size.
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;
pub const MAX_PLAYERS: usize = 10_000;
pub const MAX_FIXTURES: usize = 200_000;
const MAX_NAME: usize = 100;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Doc {
    pub format: String,
    pub version: u32,
    pub seed: u64,
    pub ruleset: RulesetDoc,
    pub season: u32,
    pub teams: Vec<TeamDoc>,
    pub fixtures: Vec<FixtureDoc>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetDoc {
    pub name: String,
    pub toml: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamDoc {
    pub name: String,
    pub players: Vec<PlayerDoc>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerDoc {
    pub name: String,
    pub stars: Vec<String>,
    pub veteran: bool,
    pub season: u32,
    /// Games still to miss: a number, or `"season"`.
    pub misses: serde_json::Value,
    pub retired: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixtureDoc {
    pub number: u32,
    pub season: u32,
    pub round: u32,
    pub home: String,
    pub away: String,
    pub venue: String,
    pub result: Option<ResultDoc>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultDoc {
    /// `home`, `away` or `draw`.
    pub winner: String,
    /// Home's, away's.
    pub sets: [u8; 2],
    pub points: [u8; 2],
    pub end: String,
    pub turns: u32,
    pub actions: u32,
    pub bots: [String; 2],
    pub called_up: [u32; 2],
    pub home_roster: Vec<FieldedDoc>,
    pub away_roster: Vec<FieldedDoc>,
    /// The actions, when a person played a side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<String>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldedDoc {
    pub number: u8,
    /// His place in his team's `players`, from 0.
    pub player: u32,
    pub stars: String,
    pub veteran: bool,
    pub goals: u32,
    pub stars_after: String,
    pub injury: Option<String>,
    pub serious_foul: bool,
    /// Games to miss after the match: `0`…`6`, `season` or `retired`.
    pub games: String,
}

fn stars_text(b: u8) -> String {
    crate::games::gball::position::stars_name(b)
}

/// The league as its JSON document.
pub fn to_doc(l: &League) -> Doc {
    let teams = l
        .teams
        .iter()
        .map(|t| TeamDoc {
            name: t.name.clone(),
            players: l
                .squad(t.id)
                .iter()
                .map(|p| PlayerDoc {
                    name: p.name.clone(),
                    stars: p.star_list(),
                    veteran: p.veteran,
                    season: p.season,
                    misses: if p.out_for_season {
                        serde_json::json!("season")
                    } else {
                        serde_json::json!(p.misses)
                    },
                    retired: p.retired,
                })
                .collect(),
        })
        .collect();
    let fielded = |list: &[Fielded]| -> Vec<FieldedDoc> {
        list.iter()
            .map(|f| FieldedDoc {
                number: f.number,
                player: f.player,
                stars: stars_text(f.stars),
                veteran: f.veteran,
                goals: f.goals,
                stars_after: stars_text(f.stars_after),
                injury: f.injury.clone(),
                serious_foul: f.serious_foul,
                games: f.absence.text(),
            })
            .collect()
    };
    let fixtures = l
        .fixtures
        .iter()
        .map(|f| FixtureDoc {
            number: f.number,
            season: f.season,
            round: f.round,
            home: l.team_name(f.home).to_string(),
            away: l.team_name(f.away).to_string(),
            venue: if f.neutral { "neutral" } else { "home" }.into(),
            result: f.played.as_ref().map(|p| ResultDoc {
                winner: match p.winner {
                    Some(Side::Red) => "home",
                    Some(Side::Blu) => "away",
                    None => "draw",
                }
                .into(),
                sets: p.sets,
                points: p.points,
                end: p.end.clone(),
                turns: p.turns,
                actions: p.actions,
                bots: p.bots.clone(),
                called_up: p.called_up,
                home_roster: fielded(&p.red),
                away_roster: fielded(&p.blu),
                moves: p.moves.clone(),
            }),
        })
        .collect();
    Doc {
        format: FORMAT.into(),
        version: VERSION,
        seed: l.seed,
        ruleset: RulesetDoc {
            name: l.ruleset_name.clone(),
            toml: l.ruleset_toml.clone(),
        },
        season: l.season,
        teams,
        fixtures,
    }
}

/// The export's text: pretty JSON and a final newline.
pub fn write(l: &League) -> String {
    let mut s = serde_json::to_string_pretty(&to_doc(l)).expect("plain data");
    s.push('\n');
    s
}

fn name_ok(what: &str, s: &str) -> Result<(), String> {
    if s.trim().is_empty() || s.chars().count() > MAX_NAME || s.chars().any(char::is_control) {
        return Err(format!(
            "{what}: a name is 1 to {MAX_NAME} printable characters"
        ));
    }
    Ok(())
}

/// Reads an export back into a league, checking everything.
pub fn read(text: &str) -> Result<League, String> {
    let doc: Doc = crate::json_line::from_str(text).map_err(|e| format!("not a league export: {e}"))?;
    if doc.format != FORMAT || doc.version != VERSION {
        return Err(format!(
            "format `{}` version {}: this binary reads `{FORMAT}` version {VERSION}",
            doc.format, doc.version
        ));
    }
    let rn = &doc.ruleset.name;
    if rn.is_empty() || rn.len() > 4096 || rn.chars().any(char::is_control) {
        return Err("ruleset.name: 1 to 4096 bytes, no control characters".into());
    }
    let rules = super::parse_ruleset(&doc.ruleset.name, &doc.ruleset.toml)
        .map_err(|e| format!("ruleset.toml: {e}"))?;
    if doc.teams.len() < 2 || doc.teams.len() > super::MAX_TEAMS {
        return Err(format!("teams: a league has 2 to {} teams", super::MAX_TEAMS));
    }
    if doc.season == 0 || doc.season > 100_000 {
        return Err("season: must be 1 to 100000".into());
    }
    let mut teams = Vec::new();
    let mut players = Vec::new();
    for (i, t) in doc.teams.iter().enumerate() {
        let at = format!("teams[{i}]");
        name_ok(&format!("{at}.name"), &t.name)?;
        if teams.iter().any(|x: &Team| x.name == t.name) {
            return Err(format!("{at}.name: `{}` repeats: team names are distinct", t.name));
        }
        if t.players.len() > MAX_PLAYERS {
            return Err(format!("{at}.players: at most {MAX_PLAYERS} players"));
        }
        let id = i as u32 + 1;
        teams.push(Team {
            id,
            name: t.name.clone(),
        });
        for (k, p) in t.players.iter().enumerate() {
            let at = format!("{at}.players[{k}]");
            name_ok(&format!("{at}.name"), &p.name)?;
            let joined: String = p.stars.concat();
            let stars = parse_stars(&joined)
                .filter(|_| p.stars.iter().all(|s| s.len() == 1))
                .ok_or_else(|| format!("{at}.stars: a list of `J`, `C`, `T` in that order (G2.2)"))?;
            if p.veteran && stars != 0 {
                return Err(format!("{at}: a veteran has no stars (G2.2, G17.4)"));
            }
            if p.season == 0 || p.season > 1000 {
                return Err(format!("{at}.season: 1 to 1000 (G17.3)"));
            }
            let (misses, out_for_season) = match &p.misses {
                serde_json::Value::String(s) if s == "season" => (0, true),
                serde_json::Value::Number(n) => match n.as_u64() {
                    Some(n) if n <= 1000 => (n as u32, false),
                    _ => return Err(format!("{at}.misses: 0 to 1000 or \"season\" (G17.6)")),
                },
                _ => return Err(format!("{at}.misses: a number or \"season\" (G17.6)")),
            };
            players.push(Player {
                team: id,
                index: k as u32,
                name: p.name.clone(),
                stars,
                veteran: p.veteran,
                season: p.season,
                misses,
                out_for_season,
                retired: p.retired,
            });
        }
    }
    if doc.fixtures.len() > MAX_FIXTURES {
        return Err(format!("fixtures: at most {MAX_FIXTURES}"));
    }
    let team_id = |at: &str, name: &str| {
        teams
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.id)
            .ok_or_else(|| format!("{at}: no team `{name}`"))
    };
    let mut fixtures = Vec::new();
    for (i, f) in doc.fixtures.iter().enumerate() {
        let at = format!("fixtures[{i}]");
        if f.number != i as u32 + 1 {
            return Err(format!("{at}.number: fixtures are numbered 1, 2, … in order"));
        }
        if f.season == 0 || f.season > doc.season || f.round == 0 {
            return Err(format!("{at}: season 1 to {} and round from 1", doc.season));
        }
        let home = team_id(&format!("{at}.home"), &f.home)?;
        let away = team_id(&format!("{at}.away"), &f.away)?;
        if home == away {
            return Err(format!("{at}: a team does not play itself"));
        }
        let neutral = match f.venue.as_str() {
            "home" => false,
            "neutral" => true,
            v => return Err(format!("{at}.venue: `{v}`: home or neutral (G17.9)")),
        };
        let played = match &f.result {
            None => None,
            Some(r) => Some(read_result(&at, r, home, away, &players)?),
        };
        fixtures.push(Fixture {
            number: f.number,
            season: f.season,
            round: f.round,
            home,
            away,
            neutral,
            played,
        });
    }
    // The season in progress always has a fixture to play: the last
    // fixture of a season draws the next (G17.8).
    if !fixtures
        .iter()
        .any(|f| f.season == doc.season && f.played.is_none())
    {
        return Err(format!(
            "fixtures: season {} (the season in progress) has no fixture left to play (G17.8)",
            doc.season
        ));
    }
    Ok(League {
        seed: doc.seed,
        ruleset_name: doc.ruleset.name,
        ruleset_toml: doc.ruleset.toml,
        season: doc.season,
        teams,
        players,
        fixtures,
        params: rules.params,
    })
}

fn read_result(
    at: &str,
    r: &ResultDoc,
    home: u32,
    away: u32,
    players: &[Player],
) -> Result<Played, String> {
    let winner = match r.winner.as_str() {
        "home" => Some(Side::Red),
        "away" => Some(Side::Blu),
        "draw" => None,
        w => return Err(format!("{at}.result.winner: `{w}`: home, away or draw")),
    };
    for b in &r.bots {
        if b != super::result::PERSON {
            crate::bots::check_spec(b).map_err(|e| format!("{at}.result.bots: {e}"))?;
        }
    }
    if let Some(m) = &r.moves
        && m.iter().any(|a| a.len() > 80 || a.contains(['\n', '\r']))
    {
        return Err(format!("{at}.result.moves: one action a string, each one line"));
    }
    if r.end.len() > 20 {
        return Err(format!("{at}.result.end: too long"));
    }
    let side = |key: &str, team: u32, list: &[FieldedDoc]| -> Result<Vec<Fielded>, String> {
        if list.len() > 9 {
            return Err(format!("{at}.result.{key}: at most 9 players (G2.1)"));
        }
        let mut out: Vec<Fielded> = Vec::new();
        for (k, f) in list.iter().enumerate() {
            let at = format!("{at}.result.{key}[{k}]");
            if !(1..=9).contains(&f.number) || out.iter().any(|x| x.number == f.number) {
                return Err(format!("{at}.number: distinct numbers 1 to 9 (G2.1)"));
            }
            if out.iter().any(|x| x.player == f.player)
                || !players.iter().any(|p| p.team == team && p.index == f.player)
            {
                return Err(format!("{at}.player: not a player of the team, or named twice"));
            }
            let stars = parse_stars(&f.stars).ok_or_else(|| format!("{at}.stars: JCT (G2.2)"))?;
            let stars_after =
                parse_stars(&f.stars_after).ok_or_else(|| format!("{at}.stars_after: JCT (G2.2)"))?;
            if let Some(i) = &f.injury
                && i != "serious"
                && i != "severe"
            {
                return Err(format!("{at}.injury: serious, severe or null (G13.1)"));
            }
            let absence = Absence::parse(&f.games)
                .ok_or_else(|| format!("{at}.games: 0 to 6, season or retired (G17.6)"))?;
            out.push(Fielded {
                number: f.number,
                player: f.player,
                stars,
                veteran: f.veteran,
                goals: f.goals,
                stars_after,
                injury: f.injury.clone(),
                serious_foul: f.serious_foul,
                absence,
            });
        }
        Ok(out)
    };
    Ok(Played {
        bots: r.bots.clone(),
        sets: r.sets,
        points: r.points,
        winner,
        end: r.end.clone(),
        turns: r.turns,
        actions: r.actions,
        called_up: r.called_up,
        red: side("home_roster", home, &r.home_roster)?,
        blu: side("away_roster", away, &r.away_roster)?,
        moves: r.moves.clone(),
    })
}
