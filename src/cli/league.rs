//! `ball league`: G-ball's league (G17) in one SQLite file. Glue only:
//! arguments, files, the progress bar, the threads; the rules are in
//! `games::gball::league`, the file in `crate::store`.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::UsageError;
use crate::games::gball::league::{League, export, person, play, schema, table};
use crate::games::gball::ruleset::{self, GballRuleset};
use crate::games::gball::{Gball, json};

#[derive(Debug, clap::Args)]
#[command(after_help = "\
A league of G-ball teams (G17) lives in one SQLite file: its squads, its fixtures and their \
results. Every fixture commits in one transaction with all it changes, so a killed run loses \
nothing it reported and `ball league play` resumes where it stopped. docs/league.md has the \
JSON of `export`; README.md a walk-through.

Examples:
  ball league new my.league --teams 8 --seed 7
  ball league play my.league --season
  ball league table my.league --plot season.svg
  ball league record my.league 3 > f3.record && ball replay --check f3.record
  ball league export my.league > my.json && ball league import my.json copy.league")]
pub struct LeagueArgs {
    #[command(subcommand)]
    pub command: LeagueCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum LeagueCommand {
    /// Make a new league of N generated teams (G17.2) in a new file.
    #[command(after_help = "\
Each team has nine players bought on the ruleset's `budget` with `star_cost`, at most \
`max_new_veterans` veterans, season counts rolled as d66 (G17.2, G17.3). Season 1's fixtures \
are drawn: `games_per_season` rounds of a round robin (G17.8); the ruleset's `venue` makes \
them home or neutral (G17.9). The ruleset is --ruleset (default `gball`); its values are kept \
in the file. An existing file is never written over.

Examples:
  ball league new my.league --teams 8
  ball --ruleset gball-veterans league new vets.league --teams 6 --seed 42

Exit status: 0 ok; 2 bad input (an existing file, a ruleset that cannot be read, --teams out \
of 2-64) with one line on stderr.")]
    New {
        /// The league file to make.
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// How many teams (2-64).
        #[arg(long, value_name = "N")]
        teams: usize,
        /// The league's seed: its teams, and every fixture's dice.
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
    },
    /// Play fixtures with bots: the next one, a round, up to a fixture, or the season.
    #[command(after_help = "\
The bots pick the rosters (call-ups to have nine available, then the best nine: most stars \
first) and play: A the home team (RED), B the away team. A round's fixtures are played at \
once on --threads, and committed one by one in fixture order; each fixture's dice come from \
the league's seed and its number alone, so the season is the same for any --threads, and a \
run killed half-way and started again ends exactly as an unbroken one. Two runs on one file \
end as one run would: a fixture the other run committed first is skipped (\"already played \
by another run\"; it had the same result). A progress bar is \
drawn on stderr when it is a terminal; each fixture played is a line on stdout.

Examples:
  ball league play my.league
  ball league play my.league --round
  ball league play my.league --season --bots greedy,random
  ball league play my.league --fixture 12 --threads 2
  ball league play my.league --person home --bots greedy,greedy
  ball league play my.league --person away --web

--person SIDE: the next fixture on the terminal board (G-ball's keys: `ball play --help`). \
Replacements are called up to nine available players as for the bots; you then name your \
match roster from the squad's available players (Enter takes the bots' best nine). The match \
is committed when it is over, with its actions (its record is then the one you played); \
quitting before the end commits nothing.

--person SIDE --web: the same in a web browser. The command serves a page on this machine \
(127.0.0.1, --port or any free port) and prints its link: the squad with stars, veteran, season \
and availability, the bots' best nine ticked; name up to nine available players (refused in \
words, as on the terminal), then play on the web board against the other side's bot. When the \
match ends its result is committed as on the terminal, the page shows the result line and the \
command exits; Ctrl-C before then commits nothing.

  ball league play my.league --person away --web
  ball league play my.league --person home --web --port 8090 --bots greedy,mcts

Exit status: 0 ok (also when nothing was left to play); 2 bad input with one line on stderr.")]
    Play {
        /// The league file.
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// Play to the end of the current season.
        #[arg(long, group = "how")]
        season: bool,
        /// Play the rest of the current round.
        #[arg(long, group = "how")]
        round: bool,
        /// Play every fixture up to and including number N.
        #[arg(long, value_name = "N", group = "how")]
        fixture: Option<u32>,
        /// The bots, home and away, comma-separated [random, greedy, mcts, mcts:N].
        #[arg(long, value_name = "A,B", default_value = "greedy,greedy")]
        bots: String,
        /// Worker threads [default: the machine's cores].
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Play the next fixture yourself, for the home or the away team,
        /// on the terminal board: name your roster first; the other side
        /// is its bot of --bots.
        #[arg(long, value_name = "SIDE", value_parser = ["home", "away"], conflicts_with = "how")]
        person: Option<String>,
        /// With --person: play in a web browser instead: the command
        /// serves the roster page and the board on this machine, prints
        /// the link, and exits when the match is committed.
        #[arg(long, requires = "person")]
        web: bool,
        /// With --web: the port [default: any free one; the link is printed].
        #[arg(long, value_name = "N", requires = "web")]
        port: Option<u16>,
    },
    /// Standings and the season report: scorers, injuries, stars earned, retirements.
    #[command(after_help = "\
Points: 2 a win, 1 a draw, 0 a loss; ranked by points, then set difference, sets won, name. \
--json prints {\"season\", \"points\", \"rows\": [{\"rank\", \"team\", \"played\", \"won\", \
\"drawn\", \"lost\", \"sets_for\", \"sets_against\", \"points\"}], \"report\"}. --plot draws \
each team's points after each round (SVG, written whole or not at all).

Examples:
  ball league table my.league
  ball league table my.league --json --season 1
  ball league table my.league --plot season.svg

Exit status: 0 ok; 2 bad input with one line on stderr.")]
    Table {
        /// The league file.
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// The season [default: the latest with a fixture played, else the current one].
        #[arg(long, value_name = "S")]
        season: Option<u32>,
        /// Draw the table over the rounds as SVG.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
    },
    /// Print the whole league as JSON (docs/league.md).
    #[command(after_help = "\
Examples:
  ball league export my.league > my.json
  ball league export my.league | jq '.teams[0].players'

Exit status: 0 ok; 2 bad input with one line on stderr.")]
    Export {
        /// The league file.
        #[arg(value_name = "PATH")]
        path: PathBuf,
    },
    /// Make a new league file from an export's JSON.
    #[command(after_help = "\
JSON is a file or `-` for standard input, as `ball league export` writes it (docs/league.md); \
every field is checked (unknown or repeated keys, sizes, references) and the first problem \
named. PATH must not exist.

Examples:
  ball league import my.json copy.league
  ball league export a.league | ball league import - b.league

Exit status: 0 ok; 2 bad input with one line on stderr.")]
    Import {
        /// The export to read, or `-` for standard input.
        #[arg(value_name = "JSON")]
        json: PathBuf,
        /// The league file to make (must not exist).
        #[arg(value_name = "PATH")]
        path: PathBuf,
    },
    /// Print fixture N's match record, which `ball replay --check` accepts.
    #[command(after_help = "\
The match is played again from what the league stored (rosters, seed, bots) and must end as \
stored. The record's `start:` holds the rosters; its ruleset is the league's (by name: give \
`ball replay --ruleset FILE` when the league's ruleset was a file that has moved).

Examples:
  ball league record my.league 3 > f3.record
  ball replay --check f3.record

Exit status: 0 ok; 2 bad input (no such fixture, not played yet) with one line on stderr.")]
    Record {
        /// The league file.
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// The fixture's number.
        #[arg(value_name = "N")]
        number: u32,
    },
}

pub(super) fn open(path: &Path) -> Result<(crate::store::Store, League), UsageError> {
    let mut store = schema::open(path).map_err(UsageError)?;
    let league = schema::read(&mut store).map_err(UsageError)?;
    Ok((store, league))
}

pub fn run(
    args: LeagueArgs,
    game_flag: Option<&str>,
    spec: Option<&str>,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    if let Some(g) = game_flag
        && g != "gball"
    {
        return Err(UsageError(format!(
            "--game {g}: a league is G-ball's (G17)"
        )));
    }
    if spec.is_some() && !matches!(args.command, LeagueCommand::New { .. }) {
        return Err(UsageError(
            "--ruleset: a league plays by the ruleset it was made with, kept in its file; give --ruleset to `ball league new`".into(),
        ));
    }
    match args.command {
        LeagueCommand::New { path, teams, seed } => {
            let spec = spec.unwrap_or(ruleset::DEFAULT);
            let mut rules = ruleset::load(spec).map_err(UsageError)?;
            // The name match records give (`ruleset:`): a shipped name as
            // it is, a file by its absolute path, so that `ball replay`
            // finds it from anywhere.
            rules.name = match Path::new(spec).is_file() {
                true => std::fs::canonicalize(spec)
                    .map_or(spec.to_string(), |p| p.display().to_string()),
                false => spec.to_string(),
            };
            let league = League::new(seed, &rules, teams).map_err(UsageError)?;
            schema::create(&path, &league).map_err(UsageError)?;
            writeln!(
                out,
                "{}: {} teams, season 1 of {} fixtures, ruleset `{}`",
                path.display(),
                league.teams.len(),
                league.fixtures.len(),
                league.ruleset_name
            )?;
        }
        LeagueCommand::Play {
            path,
            season,
            round,
            fixture,
            bots,
            threads,
            person,
            web,
            port,
        } => {
            let bots = super::sim::parse_bots(&bots)?;
            let threads = super::sim::threads(threads)?;
            match person.as_deref() {
                Some(side) if web => super::league_web::play_web(
                    &path,
                    usize::from(side == "away"),
                    &bots,
                    port.unwrap_or(0),
                    out,
                )?,
                Some(side) => play_person(&path, usize::from(side == "away"), &bots, out)?,
                None => play_cmd(&path, season, round, fixture, &bots, threads, out)?,
            }
        }
        LeagueCommand::Table {
            path,
            json,
            season,
            plot,
        } => {
            let (_, l) = open(&path)?;
            let season = match season {
                Some(s) if s == 0 || s > l.season => {
                    return Err(UsageError(format!(
                        "--season {s}: the league has seasons 1 to {}",
                        l.season
                    )));
                }
                Some(s) => s,
                None => l
                    .fixtures
                    .iter()
                    .filter(|f| f.played.is_some())
                    .map(|f| f.season)
                    .max()
                    .unwrap_or(l.season),
            };
            if let Some(p) = &plot {
                crate::files::check_writable(p)
                    .map_err(|e| UsageError(format!("--plot `{}`: {e}", p.display())))?;
                let svg = table::plot(&l, season).map_err(UsageError)?;
                crate::files::write_atomic(p, svg.as_bytes())
                    .map_err(|e| UsageError(format!("--plot `{}`: {e}", p.display())))?;
            }
            if json {
                let v = serde_json::json!({
                    "season": season,
                    "points": {"win": table::WIN, "draw": table::DRAW, "loss": 0},
                    "rows": table::standings(&l, season, u32::MAX),
                    "report": table::report(&l, season),
                });
                writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
            } else {
                write!(out, "{}", table::text(&l, season))?;
            }
        }
        LeagueCommand::Export { path } => {
            let (_, l) = open(&path)?;
            write!(out, "{}", export::write(&l))?;
        }
        LeagueCommand::Import { json, path } => {
            let text = crate::files::read_input(&json, export::MAX_BYTES).map_err(|e| {
                UsageError(format!("cannot read {}: {e}", super::display_name(&json)))
            })?;
            let l = export::read(&text)
                .map_err(|e| UsageError(format!("{}: {e}", super::display_name(&json))))?;
            schema::create(&path, &l).map_err(UsageError)?;
            writeln!(
                out,
                "{}: {} teams, {} fixtures ({} played)",
                path.display(),
                l.teams.len(),
                l.fixtures.len(),
                l.fixtures.iter().filter(|f| f.played.is_some()).count()
            )?;
        }
        LeagueCommand::Record { path, number } => {
            let (_, l) = open(&path)?;
            write!(out, "{}", record(&l, number)?)?;
        }
    }
    Ok(())
}

/// Which fixtures a `play` run plays.
enum Target {
    Next,
    Round(u32, u32),
    Season(u32),
    UpTo(u32),
}

impl Target {
    fn accepts(&self, f: &crate::games::gball::league::schedule::Fixture) -> bool {
        match *self {
            Target::Next => true,
            Target::Round(s, r) => (f.season, f.round) == (s, r),
            Target::Season(s) => f.season == s,
            Target::UpTo(n) => f.number <= n,
        }
    }
}

fn play_cmd(
    path: &Path,
    season: bool,
    round: bool,
    fixture: Option<u32>,
    bots: &[String; 2],
    threads: usize,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let (mut store, l) = open(path)?;
    let first = l.next_round(|_| true);
    let target = if season {
        Target::Season(l.season)
    } else if round {
        match first.first().and_then(|&n| l.fixture(n)) {
            Some(f) => Target::Round(f.season, f.round),
            None => Target::Next,
        }
    } else if let Some(n) = fixture {
        if l.fixture(n).is_none() {
            return Err(UsageError(format!(
                "--fixture {n}: the league has fixtures 1 to {}",
                l.fixtures.len()
            )));
        }
        Target::UpTo(n)
    } else {
        Target::Next
    };
    let todo = l
        .fixtures
        .iter()
        .filter(|f| f.played.is_none() && target.accepts(f))
        .count();
    let todo = if matches!(target, Target::Next) {
        todo.min(1)
    } else {
        todo
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| UsageError(format!("cannot start {threads} threads: {e}")))?;
    let bar = super::sim::progress(todo, "league");
    let mut done = 0usize;
    while done < todo {
        let l = schema::read(&mut store).map_err(UsageError)?;
        let mut numbers = l.next_round(|f| target.accepts(f));
        numbers.truncate(todo - done);
        if numbers.is_empty() {
            break;
        }
        let results: Vec<_> = pool.install(|| {
            numbers
                .par_iter()
                .map(|&n| play::play_fixture(&l, n, bots))
                .collect()
        });
        for (n, r) in numbers.iter().zip(results) {
            let (played, callups) = r.map_err(UsageError)?;
            let line = person::result_line(&l, *n, &played);
            match schema::commit(&mut store, *n, callups, played).map_err(UsageError)? {
                schema::Committed::Done(ended) => {
                    writeln!(out, "{line}")?;
                    if ended {
                        writeln!(out, "season {} ends", l.fixture(*n).map_or(0, |f| f.season))?;
                    }
                }
                schema::Committed::AlreadyPlayed => {
                    writeln!(out, "fixture {n}: already played by another run")?;
                }
            }
            done += 1;
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    if todo == 0 {
        writeln!(out, "nothing to play")?;
    }
    Ok(())
}

/// `play --person SIDE`: the next fixture, one side a person's, on the
/// terminal board; the roster named first on the terminal. The roster's
/// rules and the commit are `league::person`'s, shared with `--web`.
fn play_person(
    path: &Path,
    side: usize,
    bots: &[String; 2],
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    use std::io::{BufRead, IsTerminal, Write};
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(UsageError(
            "--person: the terminal board needs a terminal on standard input and output (--web plays it in a browser)".into(),
        ));
    }
    let (mut store, l) = open(path)?;
    let Some(offer) = person::offer(&l, side).map_err(UsageError)? else {
        writeln!(out, "nothing to play")?;
        return Ok(());
    };
    let n = offer.number();
    // The squad and the question, straight on the terminal.
    let mut term = std::io::stdout().lock();
    writeln!(term, "{}", offer.heading(&l))?;
    writeln!(
        term,
        "\n place  name                  stars  vet  season  available"
    )?;
    for x in offer.squad.iter().filter(|x| !x.retired) {
        writeln!(
            term,
            " {:>5}  {:<20}  {:<5}  {:<3}  {:>6}  {}",
            x.index,
            x.name,
            person::stars(x),
            if x.veteran { "yes" } else { "" },
            x.season,
            person::availability(x)
        )?;
    }
    if offer.called_up > 0 {
        writeln!(
            term,
            "({} called up to have nine available, G17.5)",
            offer.called_up
        )?;
    }
    let best_text: Vec<String> = offer.best.iter().map(u32::to_string).collect();
    let stdin = std::io::stdin();
    let p = loop {
        write!(
            term,
            "\nYour match roster: up to nine places, numbered 1-9 in the order given [Enter: {}]: ",
            best_text.join(" ")
        )?;
        term.flush()?;
        let mut line = String::new();
        if stdin.lock().read_line(&mut line)? == 0 {
            return Err(UsageError(
                "--person: no roster named (end of input)".into(),
            ));
        }
        let chosen = match parse_places(&line) {
            Ok(c) if c.is_empty() => offer.best.clone(),
            Ok(c) => c,
            Err(e) => {
                writeln!(term, "{e}")?;
                continue;
            }
        };
        match offer.with_roster(&chosen) {
            Ok(p) => break p,
            Err(e) => writeln!(term, "{e}")?,
        }
    };
    drop(term);
    let rules = person::ruleset(&l, &p).map_err(UsageError)?;
    let seats = [0, 1].map(|k| {
        Some(if k == side {
            crate::shell::Seat::Person
        } else {
            crate::shell::Seat::Bot(bots[k].clone())
        })
    });
    let mut app = crate::tui::new_app(crate::tui::Play::<Gball> {
        ruleset: rules,
        seats,
        seed: p.seed,
        load: None,
        bot_delay: std::time::Duration::from_millis(500),
    })
    .map_err(UsageError)?;
    crate::tui::run::run(&mut app, std::time::Duration::from_millis(500)).map_err(UsageError)?;
    let moves: Vec<String> = app
        .session()
        .played()
        .iter()
        .map(|x| x.action.to_string())
        .collect();
    let outcome = person::commit(&mut store, &l, &p, side, bots, &moves).map_err(UsageError)?;
    for line in outcome.lines(n) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Squad places as a person types them: whole numbers, split by commas
/// or spaces.
pub(super) fn parse_places(line: &str) -> Result<Vec<u32>, String> {
    line.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.parse::<u32>()
                .map_err(|_| "squad places are whole numbers, e.g. 0 3 4".to_string())
        })
        .collect()
}

/// Fixture `n`'s match record, replayed from what the league stored.
fn record(l: &League, n: u32) -> Result<String, UsageError> {
    let (prepared, played) = play::prepare_played(l, n).map_err(UsageError)?;
    let m = match &played.moves {
        Some(moves) => play::replay_moves(&prepared, moves),
        None => play::run(&prepared, &played.bots, true),
    }
    .map_err(UsageError)?;
    let again = play::played(&prepared, &m, &played.bots);
    if (again.sets, again.points, again.winner, again.actions)
        != (played.sets, played.points, played.winner, played.actions)
    {
        return Err(UsageError(format!(
            "fixture {n} does not replay to its stored result (the engine or the bots changed since it was played)"
        )));
    }
    // The record names the league's ruleset with the match's values
    // (its venue); the rosters are in `start`.
    let rules = GballRuleset {
        params: prepared.game.params.clone(),
        ..l.ruleset().map_err(UsageError)?
    };
    let mut r = crate::lab::sim::record_header::<Gball>(&rules, prepared.seed, &played.bots);
    let f = l.fixture(n).expect("prepared");
    r.set("league-fixture", n.to_string());
    r.set("home", l.team_name(f.home));
    r.set("away", l.team_name(f.away));
    r.set("start", serde_json::to_string(&json::to_value(&m.start))?);
    r.set(
        "result",
        crate::lab::sim::result_text(&prepared.game, &m.end),
    );
    r.actions = m.actions;
    Ok(r.write())
}
