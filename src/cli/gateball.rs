//! The command line for Gateball (`gateball-notation.md`, "Command-line
//! contract"): the same commands as BALL, on Gateball's positions. The
//! game is read from a position's `game` field, or chosen by `--game
//! gateball` or a ruleset whose `game` is `gateball`.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Command, UsageError, read_input};
use crate::bots::gateball::Level;
use crate::games::gateball::action;
use crate::games::gateball::event::Event;
use crate::games::gateball::position::{Position, Team};
use crate::games::gateball::{Gateball, json, setup, show};
use crate::kernel::rng::SplitMix64;

/// The game a ruleset (and the `new` flags) describe, before any position.
pub struct Chosen {
    pub rules: crate::games::gateball::Rules,
    pub court: crate::games::gateball::court::Court,
    pub setup: crate::games::gateball::Setup,
}

/// Loads a Gateball ruleset (`gateball` when none is named).
pub fn chosen(spec: Option<&str>) -> Result<Chosen, UsageError> {
    let r =
        crate::games::gateball::ruleset::load(spec.unwrap_or("gateball")).map_err(UsageError)?;
    Ok(Chosen {
        rules: r.rules,
        court: r.court,
        setup: r.setup,
    })
}

/// A new game of `chosen` with seed `seed`: the game, its start and the
/// creation events (`coin`, `turn 1`, `play 1 start`).
fn create(c: &Chosen, seed: u64) -> (Gateball, Position, Vec<Event>) {
    setup::create(c.rules, c.court.clone(), &c.setup, seed)
}

/// The position of `--position`, already read as text, or the ruleset's
/// start (seed 0) without one.
fn position(
    text: Option<(String, String)>,
    spec: Option<&str>,
) -> Result<(Gateball, Position), UsageError> {
    match text {
        Some((name, text)) => json::read(&text).map_err(|e| UsageError(format!("{name}: {e}"))),
        None => {
            let (game, pos, _) = create(&chosen(spec)?, 0);
            Ok((game, pos))
        }
    }
}

fn with_events(game: &Gateball, pos: &Position, events: &[String]) -> String {
    let position: serde_json::Value =
        serde_json::from_str(&json::write(game, pos)).expect("the writer writes JSON");
    let doc = serde_json::json!({ "position": position, "events": events });
    let mut s = serde_json::to_string_pretty(&doc).expect("JSON");
    s.push('\n');
    s
}

/// Runs `command` for Gateball. `text` is the `--position` input already
/// read (name for messages, text).
pub fn run(
    command: Command,
    spec: Option<&str>,
    text: Option<(String, String)>,
    out: &mut dyn Write,
) -> Result<(), UsageError> {
    match command {
        Command::New {
            court,
            setup: setup_file,
            seed,
            events,
        } => {
            let mut c = chosen(spec)?;
            if let Some(path) = court {
                c.court = crate::games::gateball::court_file::load(&path).map_err(UsageError)?;
            }
            if let Some(path) = setup_file {
                c.setup = crate::games::gateball::setup::load(&path).map_err(UsageError)?;
            }
            let (game, pos, log) = create(&c, seed.unwrap_or(0));
            if events {
                let lines: Vec<String> = log.iter().map(|e| e.to_string()).collect();
                write!(out, "{}", with_events(&game, &pos, &lines))?;
            } else {
                write!(out, "{}", json::write(&game, &pos))?;
            }
        }
        Command::Legal { json: as_json, .. } => {
            let (game, pos) = position(text, spec)?;
            let list: Vec<String> = game.legal(&pos).iter().map(|a| a.to_string()).collect();
            if as_json {
                writeln!(out, "{}", serde_json::to_string(&list)?)?;
            } else {
                for a in list {
                    writeln!(out, "{a}")?;
                }
            }
        }
        Command::Apply {
            events, actions, ..
        } => {
            let (game, mut pos) = position(text, spec)?;
            let n = actions.len();
            let mut lines = Vec::new();
            for (i, raw) in actions.iter().enumerate() {
                let step = |msg: String| {
                    if n == 1 {
                        UsageError(msg)
                    } else {
                        UsageError(format!("action {} of {n}: {msg}", i + 1))
                    }
                };
                let text = raw.to_str().ok_or_else(|| {
                    step(format!(
                        "malformed action `{}`: it is not valid UTF-8",
                        raw.to_string_lossy()
                    ))
                })?;
                let action = action::parse(text).map_err(|e| step(e.to_string()))?;
                let mut log: Vec<Event> = Vec::new();
                game.play(&mut pos, action, &mut log)
                    .map_err(|e| step(e.to_string()))?;
                lines.push(format!("> {action}"));
                lines.extend(log.iter().map(|e| e.to_string()));
            }
            if events {
                write!(out, "{}", with_events(&game, &pos, &lines))?;
            } else {
                write!(out, "{}", json::write(&game, &pos))?;
            }
        }
        Command::Show { .. } => {
            let (game, pos) = position(text, spec)?;
            write!(out, "{}", show::render(&game, &pos))?;
        }
        Command::Perft { depth, divide, .. } => {
            let (game, pos) = position(text, spec)?;
            super::commands::perft_command(&game, &pos, depth, divide, out)?;
        }
        Command::Selfplay { seed, events } => {
            let (game, mut pos, log) = create(&chosen(spec)?, seed);
            let mut rng = SplitMix64::new(seed ^ 0x5EED);
            writeln!(
                out,
                "# ball selfplay --game gateball --seed {seed}: dice seed {seed}, uniformly random legal actions"
            )?;
            if events {
                for e in &log {
                    writeln!(out, "        {e}")?;
                }
            }
            let mut n = 0;
            while !pos.is_over() {
                let legal = game.legal(&pos);
                let a = legal[rng.below(legal.len())];
                writeln!(
                    out,
                    "{:>3} {:>2} {:<5} {a}",
                    pos.turn,
                    pos.ball,
                    Team::of_ball(pos.ball).name()
                )?;
                let mut log: Vec<Event> = Vec::new();
                game.play(&mut pos, a, &mut log)
                    .map_err(|e| UsageError(format!("internal error: {e}")))?;
                for e in log {
                    let notable =
                        matches!(e, Event::Goal(_) | Event::Perfect(_) | Event::Over { .. });
                    if events || notable {
                        writeln!(out, "        {e}")?;
                    }
                }
                n += 1;
            }
            writeln!(out, "# {n} actions")?;
            writeln!(out)?;
            write!(out, "{}", show::render(&game, &pos))?;
        }
        Command::Play(args) => play(args, spec)?,
        Command::Sim(args) => sim(args, spec, out)?,
        Command::Check(_) => unreachable!("`check` is routed before the game is chosen"),
        other => {
            return Err(UsageError(format!(
                "`{}` is not available for Gateball yet",
                command_name(&other)
            )));
        }
    }
    Ok(())
}

fn command_name(c: &Command) -> &'static str {
    match c {
        Command::Replay(_) => "replay",
        Command::Compare(_) => "compare",
        Command::Test(_) => "test",
        Command::Api { .. } => "api",
        _ => "this command",
    }
}

fn sim(
    args: super::sim::SimArgs,
    spec: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), UsageError> {
    if args.plot.is_some() {
        return Err(UsageError(
            "--plot is not available for Gateball yet".into(),
        ));
    }
    let parts: Vec<&str> = args.bots.split(',').map(str::trim).collect();
    let [a, b] = parts[..] else {
        return Err(UsageError(format!(
            "--bots `{}`: expected two bots separated by a comma, e.g. greedy,random",
            args.bots
        )));
    };
    let bots = [
        Level::parse(a).map_err(|e| UsageError(format!("--bots: {e}")))?,
        Level::parse(b).map_err(|e| UsageError(format!("--bots: {e}")))?,
    ];
    let games = super::sim::games(args.games)?;
    let threads = super::sim::threads(args.threads)?;
    let mut c = chosen(spec)?;
    if let Some(path) = &args.court {
        c.court = crate::games::gateball::court_file::load(path).map_err(UsageError)?;
    }
    let (game, _, _) = create(&c, 0);
    let bar = super::sim::progress(games, "sim gateball");
    let started = std::time::Instant::now();
    let results =
        crate::lab::gateball::run(&game, bots, games, args.seed, threads, &|_| bar.inc(1))
            .map_err(UsageError)?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    if let Some(path) = &args.out {
        let mut text = String::new();
        for r in &results {
            text.push_str(&serde_json::to_string(r)?);
            text.push('\n');
        }
        super::sim::write_file(path, &text)?;
    }
    let report = crate::lab::gateball::report(&results, bots, args.seed);
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write!(out, "{report}")?;
        writeln!(
            out,
            "court {}, turns {}, gate_bonus {}, spark_dice {}",
            game.court.name,
            game.rules.turns,
            game.rules.gate_bonus,
            game.rules.spark_dice.name()
        )?;
        writeln!(
            out,
            "{:.2} s on {threads} thread(s), {:.0} games/s",
            secs,
            games as f64 / secs.max(1e-9)
        )?;
    }
    Ok(())
}

/// `ball play --game gateball`: the dice and the bots both take `--seed`.
fn play(args: super::play::PlayArgs, spec: Option<&str>) -> Result<(), UsageError> {
    use crate::tui::gateball::{GateballPlayConfig, Seat};
    if args.load.is_some() {
        return Err(UsageError(
            "--load is not available for Gateball yet: a Gateball game is not saved as a record"
                .into(),
        ));
    }
    let mut seats = [Seat::Human, Seat::Human];
    for text in &args.bot {
        let (team, level) = match text.split_once(':') {
            Some((t, l)) => (
                t,
                Level::parse(l).map_err(|e| UsageError(format!("--bot {text}: {e}")))?,
            ),
            None => (text.as_str(), Level::Greedy),
        };
        let i = match team.to_ascii_lowercase().as_str() {
            "red" => 0,
            "blue" => 1,
            _ => {
                return Err(UsageError(format!(
                    "--bot {text}: expected RED or BLUE, then optionally :LEVEL (random, greedy), e.g. blue:greedy"
                )));
            }
        };
        if matches!(seats[i], Seat::Bot(_)) {
            return Err(UsageError(format!(
                "--bot {text}: {team} already has a bot"
            )));
        }
        seats[i] = Seat::Bot(level);
    }
    let (game, start, events) = create(&chosen(spec)?, args.seed);
    crate::tui::gateball::run(GateballPlayConfig {
        game,
        start,
        events,
        seats,
        seed: args.seed,
        delay: std::time::Duration::from_millis(args.delay),
    })
    .map_err(|e| UsageError(format!("the board: {e}")))
}

/// Reads `--position` once, for games chosen by its `game` field.
pub fn read_position(path: &Option<PathBuf>) -> Result<Option<(String, String)>, UsageError> {
    let Some(path) = path else { return Ok(None) };
    let text = read_input(path)?;
    Ok(Some((display_name(path), text)))
}

pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        format!("`{}`", path.display())
    }
}

/// The `game` field of a position's JSON, when it has one.
pub fn game_field(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    v.get("game")?.as_str().map(str::to_string)
}
