//! One function per subcommand.

use std::io::Write;

use super::{Command, GameKind, UsageError, gateball};
use crate::games::ball::action::{self, Action};
use crate::games::ball::event::Event;
use crate::games::ball::position::Position;
use crate::games::ball::ruleset::Ruleset;
use crate::games::ball::{Ball, json, show};
use crate::kernel::perft;
use crate::kernel::rng::SplitMix64;

/// Safety net for `selfplay`: far beyond any real game (turn limit × the
/// longest plausible turn), so a rules bug cannot loop forever.
const SELFPLAY_MAX_ACTIONS: usize = 100_000;

/// Runs a command under the ruleset `spec` (`--ruleset`). `check` and
/// `test` load rulesets themselves: `check` must report a broken ruleset
/// rather than fail to load it, and `test` plays each scenario in the
/// ruleset its `ruleset:` line names.
pub fn dispatch(
    command: Command,
    game_flag: Option<GameKind>,
    spec: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), UsageError> {
    let command = match command {
        Command::Check(args) => {
            let default = match game_flag {
                Some(GameKind::Gateball) => crate::games::gateball::ruleset::DEFAULT,
                _ => "standard",
            };
            return super::check::run(args, spec.unwrap_or(default), out);
        }
        Command::Test(args) => return super::test::run(args, out),
        Command::Rules { ids } => return super::rules::run(&ids, out),
        command => command,
    };
    let position = match &command {
        Command::Legal { position, .. }
        | Command::Apply { position, .. }
        | Command::Show { position }
        | Command::Perft { position, .. } => position.clone(),
        _ => None,
    };
    let text = gateball::read_position(&position)?;
    let kind = choose_game(game_flag, spec, text.as_ref().map(|(_, t)| t.as_str()))?;
    match kind {
        GameKind::Gateball => gateball::run(command, spec, text, out),
        GameKind::Ball => run(
            command,
            &Ruleset::load(spec.unwrap_or("standard"))?,
            text,
            out,
        ),
    }
}

/// Which game a command plays: the position's `game` field first, then
/// `--game`, then the ruleset's `game`; a disagreement is an error.
fn choose_game(
    flag: Option<GameKind>,
    spec: Option<&str>,
    position: Option<&str>,
) -> Result<GameKind, UsageError> {
    let parse = |name: &str| match name {
        "ball" => Some(GameKind::Ball),
        "gateball" => Some(GameKind::Gateball),
        _ => None,
    };
    let from_position = position
        .and_then(gateball::game_field)
        .and_then(|g| parse(&g));
    let from_ruleset = spec.map(|spec| match crate::games::ball::ruleset::game_of(spec) {
        crate::games::ball::ruleset::GameKind::Ball => GameKind::Ball,
        crate::games::ball::ruleset::GameKind::Gateball => GameKind::Gateball,
    });
    let name = |k: GameKind| match k {
        GameKind::Ball => "ball",
        GameKind::Gateball => "gateball",
    };
    if let (Some(p), Some(r)) = (from_position, from_ruleset)
        && p != r
    {
        return Err(UsageError(format!(
            "the position is a {} position but the ruleset `{}` is for {}",
            name(p),
            spec.unwrap_or_default(),
            name(r)
        )));
    }
    if let (Some(p), Some(f)) = (from_position, flag)
        && p != f
    {
        return Err(UsageError(format!(
            "the position is a {} position but --game says {}",
            name(p),
            name(f)
        )));
    }
    if let (Some(r), Some(f)) = (from_ruleset, flag)
        && r != f
    {
        return Err(UsageError(format!(
            "the ruleset `{}` is for {} but --game says {}",
            spec.unwrap_or_default(),
            name(r),
            name(f)
        )));
    }
    Ok(from_position
        .or(flag)
        .or(from_ruleset)
        .unwrap_or(GameKind::Ball))
}

pub fn run(
    command: Command,
    ruleset: &Ruleset,
    text: Option<(String, String)>,
    out: &mut dyn Write,
) -> Result<(), UsageError> {
    let game = ruleset.game();
    match command {
        Command::New {
            court,
            setup,
            seed,
            events,
        } => {
            if court.is_some() || setup.is_some() || seed.is_some() || events {
                return Err(UsageError(
                    "--court, --setup, --seed and --events of `new` are Gateball's: add --game gateball"
                        .into(),
                ));
            }
            write!(out, "{}", json::write(&Position::start(&game.params)))?;
        }
        Command::Legal { json, .. } => {
            let pos = load(&game, text)?;
            let list = game.canonical_legal(&pos);
            if json {
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
            let mut pos = load(&game, text)?;
            let n = actions.len();
            for (i, raw) in actions.iter().enumerate() {
                let text = raw.to_str().ok_or_else(|| {
                    at_step(
                        i,
                        n,
                        format!(
                            "malformed action `{}`: it is not valid UTF-8",
                            raw.to_string_lossy()
                        ),
                    )
                })?;
                let action = action::parse(text).map_err(|e| at_step(i, n, e.to_string()))?;
                let mut log: Vec<Event> = Vec::new();
                game.play(&mut pos, action, &mut log)
                    .map_err(|e| at_step(i, n, e.to_string()))?;
                if events {
                    for e in log {
                        eprintln!("{action}: {e}");
                    }
                }
            }
            write!(out, "{}", json::write(&pos))?;
        }
        Command::Show { .. } => {
            let pos = load(&game, text)?;
            write!(out, "{}", show::render(&pos, &game.params))?;
        }
        Command::Perft { depth, divide, .. } => {
            let pos = load(&game, text)?;
            perft_command(&game, &pos, depth, divide, out)?;
        }
        Command::Selfplay { seed, events } => selfplay(&game, seed, events, out)?,
        Command::Play(args) => super::play::run(args, ruleset, out)?,
        Command::Replay(args) => super::replay::run(args, ruleset, out)?,
        Command::Sim(args) => super::sim::run_sim(args, ruleset, out)?,
        Command::Compare(args) => super::sim::run_compare(args, ruleset, out)?,
        Command::Api { stubs } => {
            let text = if stubs {
                crate::games::ball::script::api::stubs()
            } else {
                crate::games::ball::script::api::reference()
            };
            write!(out, "{text}")?;
        }
        // Reached only by callers of `run` itself (`dispatch` routes these
        // before loading): check the ruleset already loaded.
        Command::Check(args) => {
            let shipped = ruleset.file == format!("rulesets/{}.toml", ruleset.name);
            let spec = if shipped {
                &ruleset.name
            } else {
                &ruleset.file
            };
            super::check::run(args, spec, out)?
        }
        Command::Test(args) => super::test::run(args, out)?,
        Command::Rules { ids } => super::rules::run(&ids, out)?,
    }
    Ok(())
}

/// `ball perft` for any game: the count (or the split by first action,
/// sorted as text) on stdout, the time on stderr.
pub(super) fn perft_command<G: crate::kernel::game::Game>(
    game: &G,
    pos: &G::Position,
    depth: u32,
    divide: bool,
    out: &mut dyn Write,
) -> Result<(), UsageError>
where
    G::Action: std::fmt::Display,
{
    if divide && depth == 0 {
        return Err(UsageError(
            "--divide splits by first action: it needs a depth of at least 1".into(),
        ));
    }
    let started = std::time::Instant::now();
    let total = if divide {
        let mut rows: Vec<(String, u64)> = perft::divide(game, pos, depth)
            .into_iter()
            .map(|(a, n)| (a.to_string(), n))
            .collect();
        rows.sort();
        for (a, n) in &rows {
            writeln!(out, "{a}: {n}")?;
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft(game, pos, depth)
    };
    writeln!(out, "perft({depth}) = {total}")?;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{secs:.3} s, {:.1} M leaves/s",
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

fn at_step(i: usize, n: usize, msg: String) -> UsageError {
    if n == 1 {
        UsageError(msg)
    } else {
        UsageError(format!("action {} of {n}: {msg}", i + 1))
    }
}

/// The `--position` read by `dispatch` (name for messages, text), or the
/// start position without one.
fn load(game: &Ball, text: Option<(String, String)>) -> Result<Position, UsageError> {
    match text {
        None => Ok(Position::start(&game.params)),
        Some((name, text)) => {
            json::read(&text, &game.params).map_err(|e| UsageError(format!("{name}: {e}")))
        }
    }
}

fn selfplay(game: &Ball, seed: u64, events: bool, out: &mut dyn Write) -> Result<(), UsageError> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::start(&game.params);
    let mut legal: Vec<Action> = Vec::new();
    writeln!(
        out,
        "# ball selfplay --seed {seed}: uniformly random legal actions"
    )?;
    let mut n = 0;
    while n < SELFPLAY_MAX_ACTIONS {
        legal = game.legal(&pos);
        if legal.is_empty() {
            break;
        }
        let action = legal[rng.below(legal.len())];
        let mut log: Vec<Event> = Vec::new();
        writeln!(out, "{:>3} {} {action}", pos.turn, pos.to_move)?;
        game.play(&mut pos, action, &mut log)
            .map_err(|e| UsageError(format!("internal error: {e}")))?;
        for e in log {
            let notable = matches!(e, Event::Touchdown { .. } | Event::GameOver { .. });
            if events || notable {
                writeln!(out, "        {e}")?;
            }
        }
        n += 1;
    }
    legal.clear();
    writeln!(out, "# {n} actions")?;
    writeln!(out)?;
    write!(out, "{}", show::render(&pos, &game.params))?;
    Ok(())
}
