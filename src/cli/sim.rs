//! `ball sim`, `ball compare` and `ball merge`: the balance lab (issue
//! #5). Glue only: arguments, files, the progress bar; the work is in
//! `crate::lab`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::{GameOpts, UsageError};
use crate::bots::SPECS;
use crate::games::{self, Module, Visit};
use crate::lab::shard::{self, Merger, RunHeader};
use crate::lab::sim::{GameResult, Shard, SimConfig};
use crate::lab::{compare, metrics, plot, report, sim};

/// The largest `--games`: a typo must not start a week-long run.
const MAX_GAMES: usize = 10_000_000;

/// The bots of `sim` and `compare` when `--bots` is not given: the ones
/// `docs/balance-metrics.md` recommends for balance, where the measurement
/// is. Random against random draws 98.6% of BALL's games (nobody scores),
/// so its figures describe the move generator; greedy against greedy
/// decides 72% of BALL's games and 95% of Gateball's, at 0.4 ms (BALL) or
/// about 70 ms (Gateball) a game; mcts is 50–150× slower and no more
/// decisive.
pub const DEFAULT_BOTS: &str = "greedy,greedy";

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Bots: greedy,greedy unless --bots says otherwise, the pair docs/balance-metrics.md \
recommends for balance (random,random draws 98.6% of BALL's games; greedy,greedy decides \
72% of them, and 95% of Gateball's, at under a millisecond a BALL game).

Seats: bot A plays the seat that moves first (BALL: DEF, B3.2; Gateball: red, \
T2.1; G-ball: the away team, BLU by default, G3.3, G4.3) in even-numbered games (0, 2, …) and the other seat in odd ones, so an odd \
--games leaves the seats unbalanced (a warning says so). Game i's seed is output i of \
SplitMix64(--seed), so the results are the same for any --threads, and --shard K/N plays \
exactly games K, K+N, K+2N, … of the same run. A game is cut after 20000 actions (a bug \
net; counted as unfinished). The report's figures are defined in \
docs/balance-metrics.md; only its last line (throughput) depends on the clock. \
Files are written whole or not at all, and a path that cannot be written is refused \
before the first game.

--out FILE.jsonl: line 1 is the run header ({\"run\": …}: game, ruleset and its hash, seed, \
bots, games, shard), then one game a line. `ball merge` reads it; `ball replay FILE.jsonl:N` \
replays game N. Sharding for a batch engine (Kubernetes, Slurm): docs/sharding.md.

Examples:
  ball sim --games 1000 --seed 1 --plot lab.svg
  ball sim --bots greedy,random --games 1000 --seed 1
  ball --ruleset cards sim --games 200 --out games.jsonl
  ball sim --game gateball --games 400 --json
  ball sim --games 100000 --seed 1 --shard 2/8 --out shard-2.jsonl

Exit status: 0 ok; 2 bad input or an unwritable file (one line on stderr, nothing on stdout); \
3 the games were played and the report (and --out) written, but a script failed during them \
(the report counts the failures and gives the first with its file:line; one `script error:` \
line on stderr).")]
pub struct SimArgs {
    /// The two bots, A and B, comma-separated.
    #[arg(long, value_name = "A,B", default_value = DEFAULT_BOTS, help = format!("The two bots, A and B, comma-separated [bots: {SPECS}]"))]
    pub bots: String,
    /// Number of games (of the whole run, when sharded).
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub games: usize,
    /// Seed of the whole run: same seed, same games, same report.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    /// Worker threads [default: the machine's cores].
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Write the run header and one JSON object per game (seed, seats,
    /// results, how it ended, turns, actions, the game's own tally and
    /// the full match record) to FILE.
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Draw win rates with intervals and a game-length histogram as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Play only shard K of N (K from 0): games K, K+N, K+2N, …, written
    /// to --out; `ball merge` of all N files prints the run's report.
    #[arg(long, value_name = "K/N", requires = "out", conflicts_with_all = ["json", "plot"])]
    pub shard: Option<String>,
    #[command(flatten)]
    pub opts: GameOpts,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Both rulesets, of one game, play the same seeds and bots (seats as in `ball sim`; \
bots greedy,greedy unless --bots says otherwise, as docs/balance-metrics.md recommends); \
the global --ruleset is not used. An odd --games is warned about (the seats are unbalanced). Each row shows both values, the difference B − A with \
a 95% interval (rates: Newcombe's hybrid score interval; means: Welch's interval), the raw \
two-sided p (rates: pooled two-proportion z-test; means: Welch's t-test) and p adjusted by \
Holm–Bonferroni over all tested rows. \"significant\" means adjusted p < 0.05. Bot A / bot B \
rows are left out when both bots are the same spec. The actions per game of each kind follow \
(not tested), then each side's script failures, if any. docs/balance-metrics.md defines every row.

Exit status: 0 ok; 2 bad input or an unwritable file (one line on stderr, nothing on stdout); \
3 the comparison was printed, but a script failed during a side's games (a `script error:` line \
on stderr for each such side: its count and first failure with file:line).

Examples:
  ball compare standard mercy-rule --games 200 --seed 1
  ball compare standard my-variant.toml --games 2000 --plot diff.svg
  ball compare gateball gateball-bonus --bots greedy,random --games 400 --json")]
pub struct CompareArgs {
    /// The first ruleset: a shipped name or a file.
    #[arg(value_name = "A")]
    pub a: String,
    /// The second ruleset: a shipped name or a file.
    #[arg(value_name = "B")]
    pub b: String,
    #[arg(long, value_name = "A,B", default_value = DEFAULT_BOTS, help = format!("The two bots, comma-separated [bots: {SPECS}]"))]
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
    /// Draw both rulesets' rates with intervals, and every difference
    /// with its interval, as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Each FILE is the --out of `ball sim --shard K/N` (or of a whole run, which is shard 0/1), \
in any order; their concatenation works too. The game and ruleset are the files' own \
(the global --ruleset is not used). The merge checks that they are one run's — \
the same game, ruleset hash, seed, bots, games and number of shards, every shard once and \
each of its games once, each game's seed the run's — and prints the report the unsharded \
run prints, byte for byte, but for the throughput line (not measured: the shards printed \
their own). Anything else is refused with one line naming the file and line.

Exit status: 0 ok; 2 files of different runs, a missing or repeated shard or game, an \
unreadable or malformed file (one line on stderr, nothing on stdout); 3 the report was \
printed, but scripts failed in the run's games (as the unsharded run exits).

Examples:
  ball merge shard-0.jsonl shard-1.jsonl shard-2.jsonl shard-3.jsonl
  ball merge results/shard-*.jsonl --json > report.json
  ball merge results/shard-*.jsonl --plot lab.svg")]
pub struct MergeArgs {
    /// The shard files.
    #[arg(value_name = "FILE.jsonl", required = true)]
    pub files: Vec<PathBuf>,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Draw win rates with intervals and a game-length histogram as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

pub(super) fn parse_bots(s: &str) -> Result<[String; 2], UsageError> {
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

/// Runs a shard's games with a progress bar; returns them and the wall
/// time.
fn run_games<G: Module>(
    ruleset: &G::Ruleset,
    cfg: &SimConfig,
    shard: Shard,
    threads: usize,
    label: &str,
) -> Result<(Games<G>, f64), UsageError> {
    let bar = progress(shard.len(cfg.games), label);
    let started = Instant::now();
    let results =
        sim::run_shard::<G>(ruleset, cfg, shard, threads, &|| bar.inc(1)).map_err(UsageError)?;
    let secs = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    Ok((results, secs))
}

/// The temporary file `write_atomic` writes `path` through: beside it, so
/// that the rename stays on one file system and is atomic.
fn cannot_write(path: &Path, e: impl std::fmt::Display) -> UsageError {
    UsageError(format!("cannot write `{}`: {e}", path.display()))
}

/// Refuses, before a long run starts, an output path that the run could
/// not write at its end (`files::check_writable`).
pub(super) fn check_writable(path: &Path) -> Result<(), UsageError> {
    if path.as_os_str() == "-" {
        return Err(cannot_write(
            path,
            "`-` is not an output here (standard output has the report): name a file, or /dev/stdout",
        ));
    }
    if path.as_os_str().is_empty() || path.is_dir() {
        return Err(cannot_write(path, "it is a directory"));
    }
    crate::files::check_writable(path).map_err(|e| cannot_write(path, e))
}

/// Writes a file a user keeps (`--out`, `--plot`) whole or not at all
/// (`files::write_atomic`): an interrupted run or a full disk leaves the
/// old file (or none), never half of one that a later `ball merge` would
/// take for a shard cut short.
pub(super) fn write_atomic(path: &Path, text: &str) -> Result<(), UsageError> {
    crate::files::write_atomic(path, text.as_bytes()).map_err(|e| cannot_write(path, e))
}

/// Checks every output path of a command before it runs.
fn check_outputs(paths: &[&Option<PathBuf>]) -> Result<(), UsageError> {
    let given: Vec<&PathBuf> = paths.iter().filter_map(|p| p.as_ref()).collect();
    for (i, p) in given.iter().enumerate() {
        if given[..i].contains(p) {
            return Err(UsageError(format!(
                "`{}` is given for two outputs",
                p.display()
            )));
        }
        check_writable(p)?;
    }
    Ok(())
}

/// The warnings of a run, on standard error (the report repeats them).
fn warn(lines: &[String]) {
    for w in lines {
        eprintln!("{w}");
    }
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

fn run_info(h: &RunHeader) -> report::RunInfo {
    report::RunInfo {
        game: h.game.clone(),
        first: h.first,
        ruleset: h.ruleset.clone(),
        ruleset_hash: h.ruleset_hash.clone(),
        seed: h.seed,
    }
}

fn plot_title(h: &RunHeader, title: &str) -> String {
    format!(
        "ball sim: {} vs {}, {} games, seed {}, {title} ruleset {}",
        h.bots[0], h.bots[1], h.games, h.seed, h.ruleset
    )
}

pub fn run_sim<G: Module>(
    args: SimArgs,
    ruleset: &G::Ruleset,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let bots = parse_bots(&args.bots)?;
    let threads = threads(args.threads)?;
    let shard = match &args.shard {
        Some(s) => Shard::parse(s).map_err(UsageError)?,
        None => Shard::WHOLE,
    };
    let cfg = SimConfig {
        bots: bots.clone(),
        games: games(args.games)?,
        seed: args.seed,
        records: args.out.is_some(),
    };
    check_outputs(&[&args.out, &args.plot])?;
    let header = RunHeader {
        format: shard::FORMAT.to_string(),
        engine: format!("ball {}", env!("CARGO_PKG_VERSION")),
        game: G::NAME.to_string(),
        ruleset: G::ruleset_name(ruleset),
        ruleset_hash: G::fingerprint(ruleset),
        first: first_seat::<G>(ruleset),
        seed: args.seed,
        bots: bots.clone(),
        games: cfg.games,
        shard,
    };
    let early = compare::odd_games_warning(cfg.games);
    warn(early.as_slice());
    let label = if shard == Shard::WHOLE {
        "sim".to_string()
    } else {
        format!("sim {shard}")
    };
    let (results, secs) = run_games::<G>(ruleset, &cfg, shard, threads, &label)?;
    if let Some(path) = &args.out {
        let mut text = header.line();
        text.push('\n');
        for g in &results {
            text.push_str(&report::game_line(g));
            text.push('\n');
        }
        write_atomic(path, &text)?;
    }
    let actions: u64 = results.iter().map(|g| u64::from(g.actions)).sum();
    let tp = report::Throughput::new(secs, threads, results.len(), actions);
    script_failures(&metrics::compute(&results, &bots, G::SEATS));
    if shard != Shard::WHOLE {
        out.write_all(shard_summary(&header, &results, args.out.as_deref(), &tp).as_bytes())?;
        return Ok(());
    }
    let r = metrics::report::<G>(&results, &bots);
    let info = run_info(&header);
    if let Some(path) = &args.plot {
        let svg = plot::svg(
            &r.metrics,
            &results,
            info.first,
            &plot_title(&header, G::TITLE),
        )
        .map_err(UsageError)?;
        write_atomic(path, &svg)?;
    }
    let text = if args.json {
        report::json(&r, &info, &tp)
    } else {
        report::text(&r, &info, &tp)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// A run whose games had script failures: one `script error:` line on
/// standard error (its report, kept, says the same) and exit status 3, so
/// that 0 still means every game ran the ruleset as written.
fn script_failures(m: &metrics::Metrics) {
    if let Some(line) = report::script_errors_line(m) {
        super::report_script_failure(&line);
    }
}

/// What a shard prints instead of a report: its games are every N-th of
/// the run — all of one parity when N is even, so bot A sat on one seat
/// in all of them — and only the merge of all shards is the run.
fn shard_summary<T>(
    h: &RunHeader,
    results: &[GameResult<T>],
    path: Option<&Path>,
    tp: &report::Throughput,
) -> String {
    let n = h.shard.count;
    let games: Vec<String> = results.iter().map(|g| g.game.to_string()).collect();
    let listed = match games.len() {
        0 => "no games".to_string(),
        1..=3 => format!("games {}", games.join(", ")),
        _ => format!(
            "games {}, {}, …, {}",
            games[0],
            games[1],
            games[games.len() - 1]
        ),
    };
    let mut s = format!(
        "ball sim: shard {} of A = {} vs B = {}, {} games, seed {}, {} ruleset {} ({})\n",
        h.shard, h.bots[0], h.bots[1], h.games, h.seed, h.game, h.ruleset, h.ruleset_hash
    );
    s.push_str(&format!(
        "shard {}: {listed} ({} of {}) written to {}; the report: `ball merge` the {n} shards' files\n",
        h.shard,
        results.len(),
        h.games,
        path.map_or("?".to_string(), |p| format!("`{}`", p.display())),
    ));
    s.push_str(&tp.line(results.len()));
    s.push('\n');
    s
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
    check_outputs(&[&args.plot])?;
    let warnings: Vec<String> = compare::odd_games_warning(cfg.games).into_iter().collect();
    warn(&warnings);
    let (res_a, _) = run_games::<G>(&ra, &cfg, Shard::WHOLE, threads, &args.a)?;
    let (res_b, _) = run_games::<G>(&rb, &cfg, Shard::WHOLE, threads, &args.b)?;
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
    let actions = compare::action_rows(&res_a, &res_b);
    // A side whose scripts failed did not play its ruleset as written, so
    // its differences are not the ruleset's: said on stderr and by exit 3,
    // as `sim` says it, with the table kept.
    for (name, m) in [(&args.a, &ma.metrics), (&args.b, &mb.metrics)] {
        if let Some(line) = compare::script_errors_line(name, m) {
            super::report_script_failure(&line);
        }
    }
    if let Some(path) = &args.plot {
        let title = format!(
            "ball compare: {} vs {}: {} vs {}, {} games each, seed {}",
            args.a, args.b, bots[0], bots[1], cfg.games, args.seed
        );
        let svg = plot::compare_svg([&args.a, &args.b], &ma.metrics, &mb.metrics, &rows, &title)
            .map_err(UsageError)?;
        write_atomic(path, &svg)?;
    }
    if args.json {
        let v = serde_json::json!({
            "game": G::NAME,
            "a": { "ruleset": G::ruleset_name(&ra), "ruleset_hash": G::fingerprint(&ra), "metrics": ma.metrics, "game": ma.game.json },
            "b": { "ruleset": G::ruleset_name(&rb), "ruleset_hash": G::fingerprint(&rb), "metrics": mb.metrics, "game": mb.game.json },
            "seed": args.seed,
            "warnings": warnings,
            "alpha": compare::ALPHA,
            "intervals": { "level": 0.95, "rates": "newcombe", "means": "welch" },
            "correction": "holm-bonferroni",
            "tested": compare::tested(&rows),
            "rows": rows,
            "actions_per_game": actions,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        let t = compare::text(
            [&args.a, &args.b],
            [&ma.metrics, &mb.metrics],
            &rows,
            &actions,
        );
        out.write_all(t.as_bytes())?;
    }
    Ok(())
}

/// A file of `ball merge`, opened to be read a line at a time (`-`:
/// standard input), and how messages name it.
fn open(path: &Path) -> Result<(crate::files::Lines, String), UsageError> {
    let name = if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let lines = crate::files::lines(path, crate::files::MAX_RECORD)
        .map_err(|e| super::cannot_read(path, &e))?;
    Ok((lines, name))
}

/// `ball merge`: the game is the one the first file's header names.
pub fn dispatch_merge(
    args: MergeArgs,
    game_flag: Option<&str>,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    // The first file is read once, header and all: standard input cannot
    // be opened twice (and is given once: `cli::parse`).
    let (mut first, name) = open(&args.files[0])?;
    let line = first
        .next_line()
        .map_err(|e| UsageError(format!("cannot read {name}: {e}")))?
        .map(|(_, l)| l)
        .unwrap_or_default();
    let header = shard::header_of(&line)
        .map_err(|e| UsageError(format!("{name}:1: {e}")))?
        .ok_or_else(|| {
            UsageError(format!(
                "{name}:1: no run header: not a `ball sim --out` file (format {})",
                shard::FORMAT
            ))
        })?;
    if let Some(g) = game_flag
        && g != header.game
    {
        return Err(UsageError(format!(
            "--game {g}, but {name} is a {} run",
            header.game
        )));
    }
    let game = header.game.clone();
    games::visit(
        &game,
        Merge {
            args,
            first: (first, name.clone(), line),
            out,
        },
    )
    .ok_or_else(|| {
        UsageError(format!(
            "{name}:1: a run of game `{game}`, which this binary does not play ({})",
            games::names()
        ))
    })?
}

struct Merge<'a> {
    args: MergeArgs,
    /// The first file, its header line read.
    first: (crate::files::Lines, String, String),
    out: &'a mut dyn std::io::Write,
}

impl Visit for Merge<'_> {
    type Output = Result<(), UsageError>;

    fn visit<G: Module>(self) -> Self::Output {
        run_merge::<G>(self.args, self.first, self.out)
    }
}

fn run_merge<G: Module>(
    args: MergeArgs,
    first: (crate::files::Lines, String, String),
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    check_outputs(&[&args.plot])?;
    let mut merger = Merger::<G::Tally>::new();
    let (lines, name, header) = first;
    merger.line(&name, 1, &header).map_err(UsageError)?;
    // One file open at a time, however many shards.
    let mut file = Some((lines, name));
    let mut rest = args.files[1..].iter();
    while let Some((mut lines, name)) = file.take() {
        while let Some((i, line)) = lines
            .next_line()
            .map_err(|e| UsageError(format!("cannot read {name}: {e}")))?
        {
            merger.line(&name, i, &line).map_err(UsageError)?;
        }
        if let Some(path) = rest.next() {
            file = Some(open(path)?);
        }
    }
    let (header, results) = merger.finish().map_err(UsageError)?;
    let r = metrics::report::<G>(&results, &header.bots);
    warn(&report::warnings(&r.metrics));
    // The merged run's status, as the unsharded run gave it.
    script_failures(&r.metrics);
    let info = run_info(&header);
    if let Some(path) = &args.plot {
        let svg = plot::svg(
            &r.metrics,
            &results,
            info.first,
            &plot_title(&header, G::TITLE),
        )
        .map_err(UsageError)?;
        write_atomic(path, &svg)?;
    }
    let files = args.files.len();
    let text = if args.json {
        report::json_with(&r, &info, serde_json::Value::Null)
    } else {
        let mut s = report::body(&r, &info);
        s.push_str(&format!(
            "throughput: not measured: {} games merged from {files} file{} (each shard printed its own)\n",
            r.metrics.games,
            if files == 1 { "" } else { "s" }
        ));
        s
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}
