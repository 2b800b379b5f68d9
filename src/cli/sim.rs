//! `ball sim` and `ball compare`: the balance lab (issue #5). Glue only:
//! arguments, files, the progress bar; the work is in `crate::lab`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::UsageError;
use crate::bots::SPECS;
use crate::games::ball::ruleset::Ruleset;
use crate::lab::sim::{GameResult, SimConfig};
use crate::lab::{compare, metrics, plot, report, sim};

/// The largest `--games`: a typo must not start a week-long run.
const MAX_GAMES: usize = 10_000_000;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Seats: bot A plays DEF (who moves first, B3.2) in even-numbered games (0, 2, …) \
and ATK in odd ones. Game i's seed is output i of SplitMix64(--seed), so the \
results are the same for any --threads. A game is cut after 20000 actions \
(a bug net; counted as unfinished). The report's figures are defined in \
docs/balance-metrics.md; only its last line (throughput) depends on the clock.

Example: ball sim --bots greedy,random --games 1000 --seed 1 --plot lab.svg")]
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
    /// Gateball: play on this court file instead of the ruleset's (T1.8).
    #[arg(long, value_name = "FILE")]
    pub court: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Both rulesets play the same seeds and bots (seats as in `ball sim`); the global \
--ruleset is not used. A difference is marked significant when p < 0.05: rates \
by a pooled two-proportion z-test, means by Welch's t-test (docs/balance-metrics.md).

Example: ball compare standard my-variant.toml --bots greedy,greedy --games 2000")]
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

/// Runs the games with a progress bar; returns them and the wall time.
fn run_games(
    ruleset: &Ruleset,
    cfg: &SimConfig,
    threads: usize,
    label: &str,
) -> Result<(Vec<GameResult>, f64), UsageError> {
    let bar = progress(cfg.games, label);
    let started = Instant::now();
    let results = sim::run(ruleset, cfg, threads, &|| bar.inc(1)).map_err(UsageError)?;
    let secs = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    Ok((results, secs))
}

pub(super) fn write_file(path: &PathBuf, text: &str) -> Result<(), UsageError> {
    std::fs::write(path, text)
        .map_err(|e| UsageError(format!("cannot write `{}`: {e}", path.display())))
}

pub fn run_sim(
    args: SimArgs,
    ruleset: &Ruleset,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    if args.court.is_some() {
        return Err(UsageError(
            "--court is Gateball's: add --game gateball".into(),
        ));
    }
    let bots = parse_bots(&args.bots)?;
    let threads = threads(args.threads)?;
    let cfg = SimConfig {
        bots: bots.clone(),
        games: games(args.games)?,
        seed: args.seed,
        records: args.out.is_some(),
    };
    let (results, secs) = run_games(ruleset, &cfg, threads, "sim")?;
    if let Some(path) = &args.out {
        let mut text = String::new();
        for g in &results {
            text.push_str(&report::game_line(g));
            text.push('\n');
        }
        write_file(path, &text)?;
    }
    let m = metrics::compute(&results, &bots);
    let actions: u64 = results.iter().map(|g| u64::from(g.actions)).sum();
    let tp = report::Throughput::new(secs, threads, results.len(), actions);
    let info = report::RunInfo {
        ruleset: ruleset.name.clone(),
        ruleset_hash: ruleset.fingerprint(),
        seed: args.seed,
    };
    if let Some(path) = &args.plot {
        let title = format!(
            "ball sim: {} vs {}, {} games, seed {}, ruleset {}",
            bots[0], bots[1], m.games, args.seed, ruleset.name
        );
        let svg = plot::svg(&m, &results, &title).map_err(UsageError)?;
        write_file(path, &svg)?;
    }
    let text = if args.json {
        report::json(&m, &info, &tp)
    } else {
        report::text(&m, &info, &tp)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

pub fn run_compare(
    args: CompareArgs,
    _ruleset: &Ruleset,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let ra = Ruleset::load(&args.a)?;
    let rb = Ruleset::load(&args.b)?;
    let bots = parse_bots(&args.bots)?;
    let threads = threads(args.threads)?;
    let cfg = SimConfig {
        bots: bots.clone(),
        games: games(args.games)?,
        seed: args.seed,
        records: false,
    };
    let (res_a, _) = run_games(&ra, &cfg, threads, &args.a)?;
    let (res_b, _) = run_games(&rb, &cfg, threads, &args.b)?;
    let (ma, mb) = (
        metrics::compute(&res_a, &bots),
        metrics::compute(&res_b, &bots),
    );
    let rows = compare::compare(
        &ma,
        &metrics::samples(&res_a),
        &mb,
        &metrics::samples(&res_b),
    );
    if args.json {
        let v = serde_json::json!({
            "a": { "ruleset": ra.name, "ruleset_hash": ra.fingerprint(), "metrics": ma },
            "b": { "ruleset": rb.name, "ruleset_hash": rb.fingerprint(), "metrics": mb },
            "seed": args.seed,
            "alpha": compare::ALPHA,
            "rows": rows,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        out.write_all(compare::text(&args.a, &args.b, &ma, &rows).as_bytes())?;
    }
    Ok(())
}
