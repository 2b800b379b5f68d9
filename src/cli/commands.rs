//! One function per subcommand, each written once for every game: the
//! command line picks the game ([`choose_game`]) and runs the command on
//! it through `games::visit`.

use std::io::Write;

use super::{Command, GameOpts, UsageError, display_name, read_input};
use crate::games::{self, Module, Visit};
use crate::kernel::game::{Game, Title};
use crate::kernel::perft;
use crate::kernel::rng::SplitMix64;

/// Safety net for `selfplay`: far beyond any real game, so a rules bug
/// cannot loop forever (a game's own net, `Game::MAX_ACTIONS`, if larger).
const SELFPLAY_MAX_ACTIONS: usize = 100_000;

/// Runs a command under the ruleset `spec` (`--ruleset`). The game is the
/// position's (`game` field), else `--game`'s, else the ruleset's; `test`
/// plays each scenario in the ruleset its `ruleset:` line names, `replay`
/// the game its record names, `compare` the game of its two rulesets.
pub fn dispatch(
    command: Command,
    game_flag: Option<&str>,
    spec: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), UsageError> {
    unused_globals(&command, game_flag, spec)?;
    let command = match command {
        Command::Test(args) => return super::test::run(args, out),
        Command::Init(args) => return super::init::run(args, game_flag, out),
        Command::Rules { ids, json } => return super::rules::run(&ids, json, out),
        Command::League(args) => return super::league::run(args, game_flag, spec, out),
        Command::Serve(args) => return super::serve::serve(args),
        Command::Gallery(args) => return super::serve::gallery(args, game_flag, spec),
        Command::Replay(args) => return super::replay::dispatch(args, game_flag, spec, out),
        Command::Compare(args) => return super::sim::dispatch_compare(args, game_flag, out),
        Command::Merge(args) => return super::sim::dispatch_merge(args, game_flag, out),
        Command::Play(args) if args.load.is_some() => {
            return super::play::dispatch_load(args, game_flag, spec);
        }
        command => command,
    };
    let position = match &command {
        Command::Legal { position, .. }
        | Command::Apply { position, .. }
        | Command::Show { position, .. }
        | Command::Perft { position, .. } => position.clone(),
        _ => None,
    };
    let text = match &position {
        Some(path) => Some((
            display_name(path),
            read_input(path, crate::files::MAX_POSITION)?,
        )),
        None => None,
    };
    let from_position = text
        .as_ref()
        .and_then(|(_, t)| crate::data::game_of_position(t));
    if let (Some(p), Some((file, _))) = (&from_position, &text)
        && !games::NAMES.contains(&p.as_str())
    {
        return Err(UsageError(format!(
            "{file}: field `game`: `{p}` is not a game this binary plays ({})",
            games::names()
        )));
    }
    let name = choose_game(from_position.as_deref(), game_flag, spec)?;
    games::visit(
        &name,
        Run {
            command,
            spec,
            text,
            out,
        },
    )
    .expect("choose_game names a registered game")
}

/// Refuses a global option the command does not use, rather than
/// ignoring it: `--ruleset` where the rules come from elsewhere, `--game`
/// where there is no game to pick.
fn unused_globals(
    command: &Command,
    game_flag: Option<&str>,
    spec: Option<&str>,
) -> Result<(), UsageError> {
    let (name, ruleset, game): (&str, Option<&str>, Option<&str>) = match command {
        Command::Test(_) => (
            "test",
            Some("each scenario plays the ruleset its `ruleset:` line names"),
            Some("each scenario's game is its ruleset's"),
        ),
        Command::Rules { .. } => (
            "rules",
            Some("it prints every game's rules"),
            Some("the id says the game (B…, T…, G…)"),
        ),
        Command::Serve(_) => (
            "serve",
            Some("each game's ruleset is picked on the home page"),
            Some("each game is picked on the home page"),
        ),
        Command::Compare(_) => ("compare", Some("its two rulesets are A and B"), None),
        Command::Merge(_) => ("merge", Some("the files name their run's ruleset"), None),
        Command::Init(_) => (
            "init",
            Some("it writes the workspace's own ruleset.toml, to edit"),
            None,
        ),
        _ => return Ok(()),
    };
    if let (Some(s), Some(why)) = (spec, ruleset) {
        return Err(UsageError(format!(
            "--ruleset {s}: `ball {name}` takes no ruleset: {why}"
        )));
    }
    if let (Some(g), Some(why)) = (game_flag, game) {
        return Err(UsageError(format!(
            "--game {g}: `ball {name}` takes no game: {why}"
        )));
    }
    Ok(())
}

/// Which game a command plays: the position's `game` field first, then
/// `--game`, then the ruleset's `game`; a disagreement is an error, and so
/// is a name no registered game has.
pub fn choose_game(
    position: Option<&str>,
    flag: Option<&str>,
    spec: Option<&str>,
) -> Result<String, UsageError> {
    if let Some(p) = position
        && !games::NAMES.contains(&p)
    {
        return Err(UsageError(format!(
            "the position's game `{p}` is not one this binary plays ({})",
            games::names()
        )));
    }
    // `-` names no file, so no game: the game's loader refuses it.
    let from_ruleset = spec.filter(|s| *s != "-").map(crate::data::game_of);
    if let Some(r) = &from_ruleset
        && !games::NAMES.contains(&r.as_str())
    {
        return Err(UsageError(format!(
            "the ruleset `{}` is for game `{r}`, which this binary does not play ({})",
            spec.unwrap_or_default(),
            games::names()
        )));
    }
    let spec_shown = spec.unwrap_or_default();
    if let (Some(p), Some(r)) = (position, &from_ruleset)
        && p != r
    {
        return Err(UsageError(format!(
            "the position is a {p} position but the ruleset `{spec_shown}` is for {r}"
        )));
    }
    if let (Some(p), Some(f)) = (position, flag)
        && p != f
    {
        return Err(UsageError(format!(
            "the position is a {p} position but --game says {f}"
        )));
    }
    if let (Some(r), Some(f)) = (&from_ruleset, flag)
        && r != f
    {
        return Err(UsageError(format!(
            "the ruleset `{spec_shown}` is for {r} but --game says {f}"
        )));
    }
    Ok(position
        .map(str::to_string)
        .or(flag.map(str::to_string))
        .or(from_ruleset)
        .unwrap_or_else(|| crate::data::DEFAULT_GAME.to_string()))
}

/// The ruleset `spec` of game `G` (its default without one), with the
/// game options given applied.
pub fn ruleset<G: Module>(spec: Option<&str>, opts: &GameOpts) -> Result<G::Ruleset, UsageError> {
    let mut r = G::load_ruleset(spec.unwrap_or(G::DEFAULT_RULESET)).map_err(UsageError)?;
    for (name, value) in opts.given() {
        if !G::OPTIONS.iter().any(|o| o.name == name) {
            return Err(UsageError(option_refusal::<G>(name)));
        }
        G::set_option(&mut r, name, value).map_err(UsageError)?;
    }
    Ok(r)
}

/// Why `--NAME` is refused for game `G`, naming the games that take it.
fn option_refusal<G: Title>(name: &str) -> String {
    struct Takes<'a>(&'a str);
    impl Visit for Takes<'_> {
        type Output = Option<(&'static str, &'static str)>;
        fn visit<H: Module>(self) -> Self::Output {
            H::OPTIONS
                .iter()
                .any(|o| o.name == self.0)
                .then_some((H::TITLE, H::NAME))
        }
    }
    let owners: Vec<(&str, &str)> = games::NAMES
        .iter()
        .filter_map(|n| games::visit(n, Takes(name)).flatten())
        .collect();
    match owners.as_slice() {
        [] => format!("--{name} is not an option of {}", G::TITLE),
        [(_, first), ..] => {
            let titles: Vec<&str> = owners.iter().map(|(t, _)| *t).collect();
            format!(
                "--{name} is {}'s, not {}'s: add --game {first}",
                titles.join(" and "),
                G::TITLE,
            )
        }
    }
}

/// The game of a ruleset, scripts loaded.
pub fn build<G: Module>(ruleset: &G::Ruleset) -> Result<G, UsageError> {
    G::build(ruleset).map_err(UsageError)
}

struct Run<'a> {
    command: Command,
    spec: Option<&'a str>,
    text: Option<(String, String)>,
    out: &'a mut dyn Write,
}

impl Visit for Run<'_> {
    type Output = Result<(), UsageError>;

    fn visit<G: Module>(self) -> Self::Output {
        run::<G>(self.command, self.spec, self.text, self.out)
    }
}

fn run<G: Module>(
    command: Command,
    spec: Option<&str>,
    text: Option<(String, String)>,
    out: &mut dyn Write,
) -> Result<(), UsageError> {
    match command {
        Command::Check(args) => {
            return super::check::run::<G>(args, spec.unwrap_or(G::DEFAULT_RULESET), out);
        }
        Command::Api { stubs } => {
            let text = G::script_api(stubs).ok_or_else(|| {
                UsageError(format!(
                    "{} has no scripts, so no script API (BALL's is `ball --game ball api`)",
                    G::TITLE
                ))
            })?;
            write!(out, "{text}")?;
            return Ok(());
        }
        _ => {}
    }
    let opts = match &command {
        Command::New { opts, .. } | Command::Selfplay { opts, .. } => opts.clone(),
        Command::Play(args) => args.opts.clone(),
        Command::Sim(args) => args.opts.clone(),
        _ => GameOpts::default(),
    };
    let rules = ruleset::<G>(spec, &opts)?;
    let game = build::<G>(&rules)?;
    match command {
        Command::New { seed: Some(_), .. } if !G::HAS_CHANCE => {
            struct Dice;
            impl Visit for Dice {
                type Output = Option<&'static str>;
                fn visit<H: Module>(self) -> Self::Output {
                    H::HAS_CHANCE.then_some(H::NAME)
                }
            }
            let dice: Vec<&str> = games::NAMES
                .iter()
                .filter_map(|n| games::visit(n, Dice).flatten())
                .collect();
            return Err(UsageError(format!(
                "--seed deals a dice game's dice, and {} has none: every game starts the same (for a dice game add --game {})",
                G::TITLE,
                dice.join(" or --game ")
            )));
        }
        Command::New { seed, events, .. } => {
            let (game, pos, log) = game.new_game(seed.unwrap_or(0));
            if events {
                let lines: Vec<String> = log.iter().map(ToString::to_string).collect();
                write!(out, "{}", with_events(&game, &pos, &lines))?;
            } else {
                write!(out, "{}", game.write_position(&pos))?;
            }
        }
        Command::Legal { json, .. } => {
            let (game, pos) = load(&game, text)?;
            let list = game.canonical_legal(&pos);
            // A hook that failed while the list was made (`allow`, `cost`,
            // a card's `targets`) changed the list: say so, exit 3.
            super::report_script_errors(&game);
            if json {
                writeln!(out, "{}", serde_json::to_string(&list)?)?;
            } else {
                for a in list {
                    writeln!(out, "{a}")?;
                }
            }
        }
        Command::Apply {
            events,
            dice,
            actions,
            ..
        } => {
            let (game, mut pos) = load(&game, text)?;
            if let Some(dice) = dice {
                game.force_dice(&mut pos, &parse_dice(&dice)?)
                    .map_err(UsageError)?;
            }
            let n = actions.len();
            let mut lines = Vec::new();
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
                let action = game.parse_action(text).map_err(|e| at_step(i, n, e))?;
                let mut log = Vec::new();
                game.play(&mut pos, action, &mut log)
                    .map_err(|e| at_step(i, n, e))?;
                super::report_script_errors(&game);
                if G::ACTION_LINES {
                    lines.push(format!("> {action}"));
                }
                lines.extend(log.iter().map(ToString::to_string));
            }
            if events {
                write!(out, "{}", with_events(&game, &pos, &lines))?;
            } else {
                write!(out, "{}", game.write_position(&pos))?;
            }
        }
        Command::Show { svg, .. } => {
            let (game, pos) = load(&game, text)?;
            if svg {
                write!(out, "{}", crate::web::view::board_svg(&game, &pos))?;
            } else {
                write!(out, "{}", game.show(&pos))?;
            }
        }
        Command::Perft {
            depth,
            divide,
            json,
            ..
        } => {
            let (game, pos) = load(&game, text)?;
            perft_command(&game, &pos, depth, divide, json, out)?;
        }
        Command::Selfplay {
            seed, events, json, ..
        } => {
            let shown = Shown {
                ruleset: G::ruleset_name(&rules),
                events,
                json,
            };
            selfplay(&game, seed, &shown, out)?
        }
        Command::Play(args) => super::play::run::<G>(args, rules)?,
        Command::Sim(args) => super::sim::run_sim::<G>(args, &rules, out)?,
        Command::Check(_)
        | Command::Api { .. }
        | Command::Test(_)
        | Command::Init(_)
        | Command::Replay(_)
        | Command::Compare(_)
        | Command::Merge(_)
        | Command::Serve(_)
        | Command::Gallery(_)
        | Command::League(_)
        | Command::Rules { .. } => unreachable!("routed before the game is built"),
    }
    Ok(())
}

/// `--dice 3,1`: die values.
fn parse_dice(text: &str) -> Result<Vec<u32>, UsageError> {
    text.split(',')
        .map(|v| {
            let v = v.trim();
            v.parse::<u32>().map_err(|_| {
                UsageError(format!(
                    "--dice `{text}`: `{v}` is not a die value (whole numbers, comma-separated, e.g. --dice 3,1)"
                ))
            })
        })
        .collect()
}

/// `{"position": …, "events": […]}`, pretty-printed, as the notations'
/// `--events` has it.
fn with_events<G: Title>(game: &G, pos: &G::Position, events: &[String]) -> String {
    let position: serde_json::Value =
        serde_json::from_str(&game.write_position(pos)).expect("the writer writes JSON");
    let doc = serde_json::json!({ "position": position, "events": events });
    let mut s = serde_json::to_string_pretty(&doc).expect("JSON");
    s.push('\n');
    s
}

/// `ball perft` for any game: the count (or the split by first action,
/// sorted as text) on stdout, the time on stderr.
pub(super) fn perft_command<G: Game>(
    game: &G,
    pos: &G::Position,
    depth: u32,
    divide: bool,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), UsageError> {
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
        let total = rows.iter().map(|(_, n)| n).sum();
        if json {
            let split: Vec<serde_json::Value> = rows
                .iter()
                .map(|(a, n)| serde_json::json!({ "action": a, "leaves": n }))
                .collect();
            let v = serde_json::json!({ "depth": depth, "leaves": total, "divide": split });
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        } else {
            for (a, n) in &rows {
                writeln!(out, "{a}: {n}")?;
            }
        }
        total
    } else {
        perft::perft(game, pos, depth)
    };
    if !json {
        writeln!(out, "perft({depth}) = {total}")?;
    } else if !divide {
        let v = serde_json::json!({ "depth": depth, "leaves": total });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    }
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
/// start position of seed 0 without one.
fn load<G: Title>(
    game: &G,
    text: Option<(String, String)>,
) -> Result<(G, G::Position), UsageError> {
    match text {
        None => {
            let (game, pos, _) = game.new_game(0);
            Ok((game, pos))
        }
        Some((name, text)) => game
            .read_position(&text)
            .map_err(|e| UsageError(format!("{name}: {e}"))),
    }
}

/// What `ball selfplay` prints besides the actions.
struct Shown {
    /// The ruleset's name, for `--json`.
    ruleset: String,
    events: bool,
    json: bool,
}

/// `ball selfplay`: a game of uniformly random legal actions. The game is
/// dealt from `seed`; the choices come from `SplitMix64(seed)`, or in a
/// dice game from `SplitMix64(seed xor 0x5EED)`, so that they never reuse
/// the dice's stream. As text: one line an action, the result, the final
/// board; `--json`: one object (docs/json-output.md).
fn selfplay<G: Title>(
    game: &G,
    seed: u64,
    shown: &Shown,
    out: &mut dyn Write,
) -> Result<(), UsageError> {
    let events = shown.events;
    let (game, mut pos, created) = game.new_game(seed);
    let mut rng = SplitMix64::new(if G::HAS_CHANCE { seed ^ 0x5EED } else { seed });
    let mut text = String::new();
    let mut steps = Vec::new();
    text.push_str(&format!(
        "# ball selfplay --game {} --seed {seed}: uniformly random legal actions\n",
        G::NAME
    ));
    let created: Vec<String> = created.iter().map(ToString::to_string).collect();
    if events {
        for e in &created {
            text.push_str(&format!("        {e}\n"));
        }
    }
    let mut legal = Vec::new();
    let mut n = 0;
    while n < SELFPLAY_MAX_ACTIONS.max(G::MAX_ACTIONS) {
        game.legal_into(&pos, &mut legal);
        let Some(seat) = game.to_move(&pos) else {
            break;
        };
        if legal.is_empty() {
            break;
        }
        let action = legal[rng.below(legal.len())];
        let turn = game.turn(&pos);
        text.push_str(&format!("{turn:>3} {} {action}\n", G::seat_name(seat)));
        let mut log = Vec::new();
        // A listed card whose effect fails is refused (B11.7) and dropped
        // from the lists that follow: the game goes on.
        let refused = game.play(&mut pos, action, &mut log).err();
        if let Some(e) = &refused {
            text.push_str(&format!("        refused: {e}\n"));
        }
        super::report_script_errors(&game);
        let log: Vec<String> = log.iter().map(ToString::to_string).collect();
        if events {
            for e in &log {
                text.push_str(&format!("        {e}\n"));
            }
        }
        n += 1;
        if shown.json {
            let mut step = serde_json::json!({
                "step": n,
                "turn": turn,
                "seat": G::seat_name(seat),
                "action": action.to_string(),
            });
            if let Some(e) = refused {
                step["refused"] = serde_json::Value::String(e.to_string());
            }
            if events {
                step["events"] = serde_json::json!(log);
            }
            steps.push(step);
        }
    }
    let outcome = game.outcome(&pos);
    if shown.json {
        let position: serde_json::Value =
            serde_json::from_str(&game.write_position(&pos)).expect("the writer writes JSON");
        let result = match &outcome {
            Some(o) => serde_json::json!({ "finished": true, "score": o.score, "end": o.end.name }),
            None => serde_json::json!({ "finished": false, "score": game.score_text(&pos) }),
        };
        let mut v = serde_json::json!({
            "game": G::NAME,
            "ruleset": shown.ruleset,
            "seed": seed,
        });
        if events {
            v["created"] = serde_json::json!(created);
        }
        v["steps"] = serde_json::Value::Array(steps);
        v["actions"] = serde_json::json!(n);
        v["result"] = result;
        v["position"] = position;
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(());
    }
    text.push_str(&format!(
        "# {}\n",
        crate::diagnostic::plural(n as u64, "action")
    ));
    match outcome {
        Some(o) => text.push_str(&format!("# result: {} ({})\n", o.score, o.end.name)),
        None => text.push_str(&format!("# result: unfinished {}\n", game.score_text(&pos))),
    }
    text.push('\n');
    text.push_str(&game.show(&pos));
    out.write_all(text.as_bytes())?;
    Ok(())
}
