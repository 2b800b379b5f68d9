//! Standings, the season report and the plot of the table over the
//! rounds. Points: 2 a win, 1 a draw, 0 a loss (docs/decisions.md); the
//! table ranks by points, then set difference, then sets won, then name.

use plotters::prelude::*;
use serde::Serialize;

use super::League;
use crate::games::gball::Team as Side;

pub const WIN: u32 = 2;
pub const DRAW: u32 = 1;

#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Row {
    pub rank: u32,
    pub team: String,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub sets_for: u32,
    pub sets_against: u32,
    pub points: u32,
}

/// The table of `season` after its first `rounds` rounds (all: `u32::MAX`).
pub fn standings(l: &League, season: u32, rounds: u32) -> Vec<Row> {
    let mut rows: Vec<(u32, Row)> = l
        .teams
        .iter()
        .map(|t| {
            (
                t.id,
                Row {
                    team: t.name.clone(),
                    ..Row::default()
                },
            )
        })
        .collect();
    for f in l.fixtures.iter().filter(|f| f.season == season && f.round <= rounds) {
        let Some(p) = &f.played else { continue };
        for (team, side) in [(f.home, Side::Red), (f.away, Side::Blu)] {
            let Some((_, r)) = rows.iter_mut().find(|(id, _)| *id == team) else {
                continue;
            };
            r.played += 1;
            r.sets_for += u32::from(p.sets[side.index()]);
            r.sets_against += u32::from(p.sets[side.other().index()]);
            match p.winner {
                None => {
                    r.drawn += 1;
                    r.points += DRAW;
                }
                Some(w) if w == side => {
                    r.won += 1;
                    r.points += WIN;
                }
                Some(_) => r.lost += 1,
            }
        }
    }
    let mut rows: Vec<Row> = rows.into_iter().map(|(_, r)| r).collect();
    rows.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then((b.sets_for as i64 - b.sets_against as i64).cmp(&(a.sets_for as i64 - a.sets_against as i64)))
            .then(b.sets_for.cmp(&a.sets_for))
            .then(a.team.cmp(&b.team))
    });
    for (i, r) in rows.iter_mut().enumerate() {
        r.rank = i as u32 + 1;
    }
    rows
}

/// What a season brought: each line names the fixture.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    pub season: u32,
    pub fixtures_played: u32,
    pub fixtures: u32,
    /// Most goals first: (player, team, goals).
    pub scorers: Vec<(String, String, u32)>,
    pub injuries: Vec<String>,
    pub serious_fouls: Vec<String>,
    pub stars_earned: Vec<String>,
    pub retirements: Vec<String>,
    pub called_up: u32,
}

pub fn report(l: &League, season: u32) -> Report {
    let mut r = Report {
        season,
        ..Report::default()
    };
    let mut goals: Vec<((u32, u32), u32)> = Vec::new();
    for f in l.fixtures.iter().filter(|f| f.season == season) {
        r.fixtures += 1;
        let Some(p) = &f.played else { continue };
        r.fixtures_played += 1;
        r.called_up += p.called_up[0] + p.called_up[1];
        for (team, list) in [(f.home, &p.red), (f.away, &p.blu)] {
            for x in list {
                let name = l
                    .player(team, x.player)
                    .map_or("?".to_string(), |p| p.name.clone());
                let who = format!("{name} ({})", l.team_name(team));
                if x.goals > 0 {
                    match goals.iter_mut().find(|(k, _)| *k == (team, x.player)) {
                        Some((_, g)) => *g += x.goals,
                        None => goals.push(((team, x.player), x.goals)),
                    }
                }
                if let Some(i) = &x.injury {
                    r.injuries.push(format!(
                        "fixture {}: {who}, {i} injury, misses {}",
                        f.number,
                        absence_words(x.absence)
                    ));
                }
                if x.serious_foul {
                    r.serious_fouls
                        .push(format!("fixture {}: {who}, suspended for the next game", f.number));
                }
                let earned = x.stars_after & !x.stars;
                if earned != 0 {
                    r.stars_earned.push(format!(
                        "fixture {}: {who} earned {}",
                        f.number,
                        crate::games::gball::position::stars_name(earned)
                    ));
                }
                if x.absence == super::result::Absence::Retired {
                    r.retirements.push(format!("fixture {}: {who}", f.number));
                }
            }
        }
    }
    goals.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    r.scorers = goals
        .into_iter()
        .take(10)
        .map(|((team, i), g)| {
            let name = l.player(team, i).map_or("?".to_string(), |p| p.name.clone());
            (name, l.team_name(team).to_string(), g)
        })
        .collect();
    r
}

fn absence_words(a: super::result::Absence) -> String {
    use super::result::Absence;
    match a {
        Absence::None => "no game".into(),
        Absence::Games(1) => "the next game".into(),
        Absence::Games(n) => format!("the next {n} games"),
        Absence::Season => "the rest of the season".into(),
        Absence::Retired => "everything: retires".into(),
    }
}

/// The table and the report as text.
pub fn text(l: &League, season: u32) -> String {
    let rows = standings(l, season, u32::MAX);
    let width = rows.iter().map(|r| r.team.chars().count()).max().unwrap_or(4).max(4);
    let mut s = format!("Season {season}\n");
    s.push_str(&format!(
        "{:>3}  {:<width$}  {:>2} {:>2} {:>2} {:>2}  {:>5}  {:>3}\n",
        "#", "team", "P", "W", "D", "L", "sets", "pts"
    ));
    for r in &rows {
        s.push_str(&format!(
            "{:>3}  {:<width$}  {:>2} {:>2} {:>2} {:>2}  {:>2}-{:<2}  {:>3}\n",
            r.rank, r.team, r.played, r.won, r.drawn, r.lost, r.sets_for, r.sets_against, r.points
        ));
    }
    let rep = report(l, season);
    s.push_str(&format!(
        "\n{} of {} fixtures played; {} players called up\n",
        rep.fixtures_played, rep.fixtures, rep.called_up
    ));
    s.push_str("\nScorers\n");
    if rep.scorers.is_empty() {
        s.push_str("  none\n");
    }
    for (name, team, g) in &rep.scorers {
        s.push_str(&format!("  {g:>3}  {name} ({team})\n"));
    }
    for (title, list) in [
        ("Injuries", &rep.injuries),
        ("Serious fouls", &rep.serious_fouls),
        ("Stars earned", &rep.stars_earned),
        ("Retirements", &rep.retirements),
    ] {
        s.push_str(&format!("\n{title}\n"));
        if list.is_empty() {
            s.push_str("  none\n");
        }
        for line in list.iter() {
            s.push_str(&format!("  {line}\n"));
        }
    }
    s
}

/// The SVG of each team's points after each round of `season`.
pub fn plot(l: &League, season: u32) -> Result<String, String> {
    let rounds = l
        .fixtures
        .iter()
        .filter(|f| f.season == season && f.played.is_some())
        .map(|f| f.round)
        .max()
        .unwrap_or(0);
    let series: Vec<(String, Vec<(u32, u32)>)> = l
        .teams
        .iter()
        .map(|t| {
            let pts = (0..=rounds)
                .map(|r| {
                    let row = standings(l, season, r);
                    let p = row.iter().find(|x| x.team == t.name).map_or(0, |x| x.points);
                    (r, p)
                })
                .collect();
            (t.name.clone(), pts)
        })
        .collect();
    let top = series
        .iter()
        .flat_map(|(_, v)| v.iter().map(|p| p.1))
        .max()
        .unwrap_or(0)
        .max(1);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 520)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<std::io::Error>| format!("cannot draw the plot: {e}");
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("Season {season}: points after each round"), ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(35)
            .y_label_area_size(40)
            .build_cartesian_2d(0u32..rounds.max(1), 0u32..top + 1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("round")
            .y_desc("points")
            .draw()
            .map_err(err)?;
        for (i, (name, pts)) in series.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
                .map_err(err)?
                .label(name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}
