//! `ball sim` and `ball compare`: the balance lab (issue #5). Glue only:
//! arguments, files, the progress bar; the work is in `crate::lab`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::{GameOpts, UsageError};
use crate::bots::SPECS;
use crate::games::{self, Module, Visit};
use crate::lab::sim::{GameResult, SimConfig};
use crate::lab::{compare, metrics, plot, report, sim};

/// The largest `--games`: a typo must not start a week-long run.
const MAX_GAMES: usize = 10_000_000;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Seats: bot A plays the seat that moves first (BALL: DEF, B3.2; Gateball: red, \
T2.1) in even-numbered games (0, 2, …) and the other seat in odd ones. Game i's seed is output i of SplitMix64(--seed), so the \
results are the same for any --threads. A game is cut after 20000 actions \
(a bug net; counted as unfinished). The report's figures are defined in \
docs/balance-metrics.md; only its last line (throughput) depends on the clock.

Examples:
  ball sim --bots greedy,random --games 1000 --seed 1 --plot lab.svg
  ball --ruleset cards sim --bots greedy,greedy --games 200 --out games.jsonl
  ball sim --game gateball --bots greedy,random --games 400 --json

Exit status: 0 ok; 2 bad input (a ruleset, bot, count or file that cannot be used).")]
pub struct SimArgs {
    /// The two bots, A and B, comma-separated.
    #[arg(long, value_name = "A,B", default_value = "random,random", help = format!("The two bots, A and B, comma-separated [bots: {SPECS}]"))]
    pub bots: String,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub games: usize,
    /// Seed of the whole run: same seed, same games, same report.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    /// Worker threads [default: the machine's cores].
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Write one JSON object per game (seed, seats, winner, score, turns,
    /// actions and the full match record) to FILE.
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Draw win rates with intervals and a game-length histogram as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub opts: GameOpts,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Both rulesets, of one game, play the same seeds and bots (seats as in `ball sim`); \
the global --ruleset is not used. A difference is marked significant when p < 0.05: rates \
by a pooled two-proportion z-test, means by Welch's t-test (docs/balance-metrics.md).

Examples:
  ball compare standard my-variant.toml --bots greedy,greedy --games 2000
  ball compare gateball gateball-bonus --games 400 --json

Exit status: 0 ok; 2 bad input (a ruleset, bot or count that cannot be used).")]
pub struct CompareArgs {
    /// The first ruleset: a shipped name or a file.
    #[arg(value_name = "A")]
    pub a: String,
    /// The second ruleset: a shipped name or a file.
    #[arg(value_name = "B")]
    pub b: String,
    #[arg(long, value_name = "A,B", default_value = "random,random", help = format!("The two bots, comma-separated [bots: {SPECS}]"))]
    pub bots: String,
    /// Number of games per ruleset.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub games: usize,
    /// Seed of both runs.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    /// Worker threads [default: the machine's cores].
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Print the comparison as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

fn parse_bots(s: &str) -> Result<[String; 2], UsageError> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let [a, b] = parts[..] else {
        return Err(UsageError(format!(
            "--bots `{s}`: expected two bots separated by a comma, e.g. greedy,random"
        )));
    };
    let bots = [a.to_string(), b.to_string()];
    sim::check_bots(&bots).map_err(|e| UsageError(format!("--bots: {e}")))?;
    Ok(bots)
}

pub(super) fn threads(t: Option<usize>) -> Result<usize, UsageError> {
    match t {
        Some(0) => Err(UsageError("--threads must be at least 1".into())),
        Some(t) if t > 1024 => Err(UsageError(format!("--threads {t}: at most 1024"))),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

pub(super) fn games(n: usize) -> Result<usize, UsageError> {
    if n == 0 || n > MAX_GAMES {
        return Err(UsageError(format!(
            "--games {n}: expected 1 to {MAX_GAMES}"
        )));
    }
    Ok(n)
}

/// A progress bar on a terminal's stderr; nothing when stderr is piped.
pub(super) fn progress(n: usize, label: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} games, {elapsed}, eta {eta}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(label.to_string());
    bar
}

type Games<G> = Vec<GameResult<<G as crate::lab::Figures>::Tally>>;

/// Runs the games with a progress bar; returns them and the wall time.
fn run_games<G: Module>(
    ruleset: &G::Ruleset,
    cfg: &SimConfig,
    threads: usize,
    label: &str,
) -> Result<(Games<G>, f64), UsageError> {
    let bar = progress(cfg.games, label);
    let started = Instant::now();
    let results = sim::run::<G>(ruleset, cfg, threads, &|| bar.inc(1)).map_err(UsageError)?;
    let secs = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    Ok((results, secs))
}

pub(super) fn write_file(path: &PathBuf, text: &str) -> Result<(), UsageError> {
    std::fs::write(path, text)
        .map_err(|e| UsageError(format!("cannot write `{}`: {e}", path.display())))
}

/// The seat to move at the start of a game of this ruleset, when every
/// seed gives the same one.
fn first_seat<G: Module>(ruleset: &G::Ruleset) -> Option<usize> {
    let game = G::build(ruleset).ok()?;
    let first = |seed| {
        let (g, pos, _) = game.new_game(seed);
        g.to_move(&pos)
    };
    let f = first(0)?;
    (1..8).all(|s| first(s) == Some(f)).then_some(f)
}

pub fn run_sim<G: Module>(
    args: SimArgs,
    ruleset: &G::Ruleset,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let bots = parse_bots(&args.bots)?;
    let threads = threads(args.threads)?;
    let cfg = SimConfig {
        bots: bots.clone(),
        games: games(args.games)?,
        seed: args.seed,
        records: args.out.is_some(),
    };
    let (results, secs) = run_games::<G>(ruleset, &cfg, threads, "sim")?;
    if let Some(path) = &args.out {
        let mut text = String::new();
        for g in &results {
            text.push_str(&report::game_line(g));
            text.push('\n');
        }
        write_file(path, &text)?;
    }
    let r = metrics::report::<G>(&results, &bots);
    let actions: u64 = results.iter().map(|g| u64::from(g.actions)).sum();
    let tp = report::Throughput::new(secs, threads, results.len(), actions);
    let info = report::RunInfo {
        game: G::NAME.to_string(),
        first: first_seat::<G>(ruleset),
        ruleset: G::ruleset_name(ruleset),
        ruleset_hash: G::fingerprint(ruleset),
        seed: args.seed,
    };
    if let Some(path) = &args.plot {
        let title = format!(
            "ball sim: {} vs {}, {} games, seed {}, {} ruleset {}",
            bots[0],
            bots[1],
            r.metrics.games,
            args.seed,
            G::TITLE,
            info.ruleset
        );
        let svg = plot::svg(&r.metrics, &results, info.first, &title).map_err(UsageError)?;
        write_file(path, &svg)?;
    }
    let text = if args.json {
        report::json(&r, &info, &tp)
    } else {
        report::text(&r, &info, &tp)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// `ball compare`: both rulesets must be of one game (`--game`, else
/// theirs).
pub fn dispatch_compare(
    args: CompareArgs,
    game_flag: Option<&str>,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let (ga, gb) = (crate::data::game_of(&args.a), crate::data::game_of(&args.b));
    if ga != gb {
        return Err(UsageError(format!(
            "`{}` is a {ga} ruleset and `{}` a {gb} one: compare two rulesets of one game",
            args.a, args.b
        )));
    }
    let name = super::commands::choose_game(None, game_flag, Some(&args.a))?;
    games::visit(&name, Compare { args, out }).expect("choose_game names a registered game")
}

struct Compare<'a> {
    args: CompareArgs,
    out: &'a mut dyn std::io::Write,
}

impl Visit for Compare<'_> {
    type Output = Result<(), UsageError>;

    fn visit<G: Module>(self) -> Self::Output {
        run_compare::<G>(self.args, self.out)
    }
}

fn run_compare<G: Module>(
    args: CompareArgs,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let ra = G::load_ruleset(&args.a).map_err(UsageError)?;
    let rb = G::load_ruleset(&args.b).map_err(UsageError)?;
    let bots = parse_bots(&args.bots)?;
    let threads = threads(args.threads)?;
    let cfg = SimConfig {
        bots: bots.clone(),
        games: games(args.games)?,
        seed: args.seed,
        records: false,
    };
    let (res_a, _) = run_games::<G>(&ra, &cfg, threads, &args.a)?;
    let (res_b, _) = run_games::<G>(&rb, &cfg, threads, &args.b)?;
    let (ma, mb) = (
        metrics::report::<G>(&res_a, &bots),
        metrics::report::<G>(&res_b, &bots),
    );
    let rows = compare::compare(
        &ma.metrics,
        &metrics::samples::<G>(&res_a),
        &mb.metrics,
        &metrics::samples::<G>(&res_b),
    );
    if args.json {
        let v = serde_json::json!({
            "game": G::NAME,
            "a": { "ruleset": G::ruleset_name(&ra), "ruleset_hash": G::fingerprint(&ra), "metrics": ma.metrics, "game": ma.game.json },
            "b": { "ruleset": G::ruleset_name(&rb), "ruleset_hash": G::fingerprint(&rb), "metrics": mb.metrics, "game": mb.game.json },
            "seed": args.seed,
            "alpha": compare::ALPHA,
            "rows": rows,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        out.write_all(compare::text(&args.a, &args.b, &ma.metrics, &rows).as_bytes())?;
    }
    Ok(())
}
