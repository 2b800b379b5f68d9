//! The command line: clap arguments → a command → text on stdout.
//!
//! **Boundary:** the only layer that does IO. Exit status: 0 on success,
//! 2 on bad input (unreadable file, malformed or illegal action, malformed
//! position) with one line on stderr and nothing on stdout, 3 when the
//! command did its work but a script failed during it (its output is
//! printed; each failure is a `script error:` line on stderr), 1 on an
//! internal error.

mod check;
mod commands;
mod init;
mod league;
mod league_web;
mod play;
mod replay;
mod rules;
mod serve;
mod sim;
mod test;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Rules engine for BALL, Gateball and G-ball: positions, legal actions, the board, bots and the balance lab.
#[derive(Debug, Parser)]
#[command(name = "ball", version, about, long_about = None)]
#[command(
    after_help = "Positions are JSON (see `ball new`), actions are one line each \
in the notation, e.g. \"move DEF3 G9\" (BALL), \"shot T1 N 8\" (Gateball) or \"move RED2 SE\" (G-ball). The game is \
read from a position's `game` field, else --game, else the ruleset's `game`: \
`ball new --game gateball`, `ball --ruleset gateball-bonus sim`. \
Exit status: 0 ok, 2 bad input (one line on stderr), 3 done but a script failed \
(each failure on stderr)."
)]
pub struct Cli {
    /// The rules to play by: a shipped ruleset's name or a ruleset file
    /// [default: the game's own: `standard` for BALL, `gateball` for Gateball, `gball` for G-ball].
    #[arg(long, global = true, value_name = "NAME|FILE")]
    pub ruleset: Option<String>,
    /// The game: `ball`, `gateball` or `gball` [default: the position's
    /// `game` field, else the ruleset's `game`, else ball].
    #[arg(long, global = true, value_name = "GAME", value_parser = game_name)]
    pub game: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

/// `--game`: one of the registered games.
fn game_name(s: &str) -> Result<String, String> {
    if crate::games::NAMES.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(format!("expected one of: {}", crate::games::names()))
    }
}

/// A game's own options (`kernel::game::Title::OPTIONS`), offered where a
/// game is dealt from a ruleset; a game that does not take one says so.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct GameOpts {
    /// Gateball: a court file replacing the ruleset's court (T1.8).
    #[arg(long, value_name = "FILE")]
    pub court: Option<String>,
    /// Gateball: a setup file (players, sides, `first`; T2.2-T2.4).
    #[arg(long, value_name = "FILE")]
    pub setup: Option<String>,
    /// G-ball: a teams file (JSON) with both match rosters (G2.1-G2.3).
    #[arg(long, value_name = "FILE")]
    pub teams: Option<String>,
}

impl GameOpts {
    /// The options given, as (name, value).
    pub fn given(&self) -> Vec<(&'static str, &str)> {
        let mut v = Vec::new();
        if let Some(c) = &self.court {
            v.push(("court", c.as_str()));
        }
        if let Some(s) = &self.setup {
            v.push(("setup", s.as_str()));
        }
        if let Some(t) = &self.teams {
            v.push(("teams", t.as_str()));
        }
        v
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the start position as JSON (BALL B3.1; Gateball T9.1; G-ball G4.3).
    #[command(
        after_help = "Examples:\n  ball new > start.json\n  ball new --game gateball --seed 7 > g.json\n  ball new --game gateball --court courts/narrow.toml --setup setups/club.toml --events\n  ball --ruleset cards new\n\nExit status: 0 ok; 2 bad input (an unreadable file, a malformed position, a malformed or illegal action) with one line on stderr and nothing on stdout."
    )]
    New {
        #[command(flatten)]
        opts: GameOpts,
        /// The seed a new game is dealt from: a dice game's dice (Gateball
        /// T4.5), 0 to 2^64-1 [default: 0]. BALL has no chance.
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// Print {"position": …, "events": […]} with the events of the
        /// game's creation (Gateball: coin, turn 1, play 1 start).
        #[arg(long)]
        events: bool,
    },
    /// Print the legal actions of a position, one a line, sorted.
    #[command(
        after_help = "The canonical list: every legal action in the notation, sorted by byte order, no duplicates; a finished game has none. The game is the position's `game` field.\n\nExamples:\n  ball legal\n  ball legal --position next.json --json\n  ball apply \"move DEF3 H10\" | ball legal --position -\n\nExit status: 0 ok; 2 bad input (an unreadable file, a malformed position, a malformed or illegal action) with one line on stderr and nothing on stdout."
    )]
    Legal {
        /// Position JSON file, or `-` for standard input [default: the start position].
        #[arg(long, value_name = "FILE")]
        position: Option<PathBuf>,
        /// Print a JSON array of strings instead.
        #[arg(long)]
        json: bool,
    },
    /// Apply actions in order and print the resulting position as JSON.
    #[command(
        after_help = "Each argument is one action in the notation. The first illegal or malformed action stops the command: nothing is printed on stdout, and the one-line reason names the action (`action 2 of 3: …`) and the rule.\n\nExamples:\n  ball apply --position start.json \"move DEF3 H10\" \"move DEF7 I13\" end > next.json\n  ball apply --events \"move DEF3 G9\"\n  ball new --game gateball | ball apply --position - --dice 3,1 power \"shot T1 N 4\"\n\nExit status: 0 ok; 2 bad input (an unreadable file, a malformed position, a malformed or illegal action) with one line on stderr and nothing on stdout."
    )]
    Apply {
        /// Position JSON file, or `-` for standard input [default: the start position].
        #[arg(long, value_name = "FILE")]
        position: Option<PathBuf>,
        /// Print {"position": …, "events": […]}: the position and, for each
        /// action, a line `> ACTION` followed by what happened.
        #[arg(long)]
        events: bool,
        /// Dice games: die values to roll before the generator's, in order,
        /// comma-separated (Gateball T4.6), e.g. --dice 3,1.
        #[arg(long, value_name = "V,V,…")]
        dice: Option<String>,
        /// The actions, one an argument, e.g. "move DEF3 G9" "end".
        #[arg(value_name = "ACTION", required = true, allow_hyphen_values = true)]
        actions: Vec<std::ffi::OsString>,
    },
    /// Draw a position as a text board.
    #[command(
        after_help = "Examples:\n  ball show\n  ball show --position next.json\n  ball show --svg > board.svg\n  ball new --game gateball | ball show --position -\n\nExit status: 0 ok; 2 bad input (an unreadable file, a malformed position, a malformed or illegal action) with one line on stderr and nothing on stdout."
    )]
    Show {
        /// Position JSON file, or `-` for standard input [default: the start position].
        #[arg(long, value_name = "FILE")]
        position: Option<PathBuf>,
        /// Draw the board as an SVG document instead (the web board's drawing).
        #[arg(long)]
        svg: bool,
    },
    /// Count the leaves of the action tree DEPTH actions deep.
    #[command(
        after_help = "Every action is one ply, whoever plays it; the count is on stdout, the time on stderr. Golden counts are in tests/perft/.\n\nExamples:\n  ball perft 4\n  ball perft 3 --divide --position next.json\n  ball perft 3 --game gateball\n  ball new --game gball | ball perft 2 --position - --json\n\nExit status: 0 ok; 2 bad input (an unreadable file, a malformed position, a malformed or illegal action) with one line on stderr and nothing on stdout."
    )]
    Perft {
        /// Plies to count (0-64); every action (`end`, release tasks) is one ply.
        #[arg(value_parser = clap::value_parser!(u32).range(0..=64))]
        depth: u32,
        /// Split the count by first action.
        #[arg(long)]
        divide: bool,
        /// Position JSON file, or `-` for standard input [default: the start position].
        #[arg(long, value_name = "FILE")]
        position: Option<PathBuf>,
        /// Print `{"depth", "leaves", "divide": [{"action", "leaves"}]}`
        /// instead (docs/json-output.md).
        #[arg(long)]
        json: bool,
    },
    /// Play a seeded random game; print its action log and final board.
    #[command(
        after_help = "One line per action (turn, seat, action), then the result and the final board. The same seed plays the same game; in a dice game the seed also deals the dice.\n\nExamples:\n  ball selfplay --seed 7\n  ball selfplay --game gateball --seed 3 --events\n  ball --ruleset three-ap selfplay\n  ball selfplay --game gball --json | jq .result\n\nExit status: 0 ok; 2 bad input (a ruleset or option that cannot be used)."
    )]
    Selfplay {
        #[command(flatten)]
        opts: GameOpts,
        /// Seed of the game and of the random choices: same seed, same game.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Also print the events of each action.
        #[arg(long)]
        events: bool,
        /// Print the game as one JSON object instead: its actions, result
        /// and final position (docs/json-output.md).
        #[arg(long)]
        json: bool,
    },
    /// Play on a board in the terminal, against a person or a bot.
    Play(play::PlayArgs),
    /// Serve the board in a web browser, with shareable seat links.
    Serve(serve::ServeArgs),
    /// Write the card gallery of a ruleset as static files.
    Gallery(serve::GalleryArgs),
    /// Step through a match record, or check that it still replays.
    Replay(replay::ReplayArgs),
    /// G-ball's league (G17) in one SQLite file: new, play, table, export, import, record.
    League(league::LeagueArgs),
    /// Run many seeded bot games and report balance figures.
    Sim(sim::SimArgs),
    /// Run two rulesets on the same seeds and compare their figures.
    Compare(sim::CompareArgs),
    /// Merge the --out files of a sharded `ball sim` into the run's report.
    Merge(sim::MergeArgs),
    /// Check a ruleset (or one card script) and print every problem as `file:line: message`.
    Check(check::CheckArgs),
    /// Run scenario files and compare their reports with the stored snapshots.
    Test(test::TestArgs),
    /// Write a designer's workspace: a ruleset, an example card, a scenario with its snapshot, editor annotations.
    Init(init::InitArgs),
    /// Print the rules behind the ids that refusals cite (`ball rules B5.1`).
    #[command(
        after_help = "Each ID is a rule (B6.3), or a section with all its rules (B6), \
of BALL (B…), Gateball (T…) or G-ball (G…); case does not matter. Without an ID, lists every \
id with its title. The text is that of docs/rules/*.md, built into the binary. Exit status: 0 ok, 2 an unknown id (one line on stderr, nothing on stdout).\n\n\
Examples:\n  ball rules B11.6\n  ball rules T3.5 T7.8\n  ball rules G8\n  ball rules | grep -i dodge"
    )]
    Rules {
        /// Rule or section ids, e.g. B11.6, T7, g20.41.
        #[arg(value_name = "ID")]
        ids: Vec<String>,
        /// Print a JSON array instead: `[{"id", "title"}]` without ids,
        /// `[{"id", "title", "file", "text"}]` with them.
        #[arg(long)]
        json: bool,
    },
    /// Print the Lua API: the reference (Markdown) or editor annotations.
    #[command(
        after_help = "The API of BALL's card and variant scripts, generated from the bindings the host registers (docs/lua-api.md is this output).\n\nExamples:\n  ball api > lua-api.md\n  ball api --stubs > ball.lua\n\nExit status: 0 ok; 2 for a game without scripts."
    )]
    Api {
        /// lua-language-server annotations (`ball api --stubs > ball.lua`)
        /// instead of the Markdown reference of docs/lua-api.md.
        #[arg(long)]
        stubs: bool,
    },
}

/// A failure the user can act on: printed as one line, exit status 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl UsageError {
    /// Exit status 2 with nothing more on stderr: the command (`check`,
    /// `test`) has printed its report, summary included, on stdout.
    pub fn reported() -> UsageError {
        UsageError(String::new())
    }
}

impl<E: std::error::Error> From<E> for UsageError {
    fn from(e: E) -> Self {
        UsageError(e.to_string())
    }
}

impl Cli {
    /// The subcommands' names, in the order `ball --help` lists them.
    fn command_names() -> Vec<String> {
        use clap::CommandFactory;
        Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect()
    }
}

/// Runs the parsed command, writing its output to `out`.
pub fn run(cli: Cli, out: &mut dyn std::io::Write) -> Result<(), UsageError> {
    commands::dispatch(
        cli.command,
        cli.game.as_deref(),
        cli.ruleset.as_deref(),
        out,
    )
}

/// The binary's entry point.
pub fn main() -> ExitCode {
    let cli = match parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(Parsed::Clap(e)) => return clap_failure(&e),
        Err(Parsed::Refused(UsageError(msg))) => {
            eprintln!("error: {}", one_line(&msg));
            return ExitCode::from(2);
        }
    };
    // `check` and `test` report problems on stdout and still fail: their
    // output is kept when they do. Every other command prints nothing on
    // stdout when it fails.
    let report_on_failure = matches!(cli.command, Command::Check(_) | Command::Test(_));
    let mut buf = Vec::new();
    match run(cli, &mut buf) {
        Ok(()) => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`ball legal | head`) is not an error worth a panic.
            let _ = stdout.write_all(&buf).and_then(|_| stdout.flush());
            if SCRIPT_FAILED.load(std::sync::atomic::Ordering::Relaxed) {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(UsageError(msg)) => {
            if report_on_failure {
                use std::io::Write;
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(&buf).and_then(|_| stdout.flush());
            }
            if !msg.is_empty() {
                eprintln!("error: {}", one_line(&msg));
            }
            ExitCode::from(2)
        }
    }
}

/// Why a command line was not parsed.
pub enum Parsed {
    /// Clap's refusal, or `--help` / `--version`.
    Clap(clap::Error),
    /// A command line clap takes but the commands cannot.
    Refused(UsageError),
}

/// Parses a command line (the program's name first), and refuses
/// standard input named twice: it can be read once.
pub fn parse<I, T>(args: I) -> Result<Cli, Parsed>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::command();
    let matches = command
        .clone()
        .try_get_matches_from(args)
        .map_err(Parsed::Clap)?;
    let stdin = stdin_args(&command, &matches);
    if stdin.len() > 1 {
        return Err(Parsed::Refused(UsageError(format!(
            "`-` (standard input) is given for more than one file ({}): it can be read once",
            stdin.join(", ")
        ))));
    }
    Cli::from_arg_matches(&matches).map_err(Parsed::Clap)
}

/// Whether an argument names a file to read or write: its value name says
/// FILE, PATH or JSON (`FILE`, `FILE.lua`, `NAME|FILE`, `PATH`). Every one that
/// is read takes `-` for standard input (`files::read_input`).
pub fn is_file_arg(arg: &clap::Arg) -> bool {
    arg.get_action().takes_values()
        && arg.get_value_names().is_some_and(|names| {
            names
                .iter()
                .any(|n| n.contains("FILE") || n.contains("PATH") || *n == "JSON")
        })
}

/// The file arguments given as `-`, named as on the command line
/// (`--court`, `FILE`), each value once.
fn stdin_args(command: &clap::Command, matches: &clap::ArgMatches) -> Vec<String> {
    let mut found = Vec::new();
    for arg in command.get_arguments().filter(|a| is_file_arg(a)) {
        let Ok(Some(values)) = matches.try_get_raw(arg.get_id().as_str()) else {
            continue;
        };
        let name = match arg.get_long() {
            Some(l) => format!("--{l}"),
            None => arg
                .get_value_names()
                .and_then(|n| n.first())
                .map_or_else(|| arg.get_id().to_string(), |n| n.to_string()),
        };
        let n = values.filter(|v| *v == "-").count();
        found.extend(std::iter::repeat_n(name, n));
    }
    if let Some((name, sub)) = matches.subcommand()
        && let Some(c) = command.find_subcommand(name)
    {
        found.extend(stdin_args(c, sub));
    }
    found
}

/// A command line clap refuses: one `error:` line on stderr and exit 2,
/// as every other refusal (clap's own text is several lines of usage);
/// `--help` and `--version` print as clap has them, on stdout, exit 0.
fn clap_failure(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    eprintln!("error: {}", clap_line(e));
    ExitCode::from(2)
}

/// Clap's error as one line: its message and tip, then where the usage
/// is (`ball perft --help`), without the usage block.
pub(crate) fn clap_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let rendered = e.render().to_string();
    // The command whose help to point at: the first word of the command
    // line that names one (not the value of a global option).
    let names = Cli::command_names();
    let mut words = std::env::args().skip(1);
    let mut command = "ball".to_string();
    while let Some(w) = words.next() {
        if w == "--ruleset" || w == "--game" {
            words.next();
        } else if names.contains(&w) {
            command = format!("ball {w}");
            break;
        }
    }
    let message = match e.kind() {
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            let valid = match e.get(ContextKind::ValidSubcommand) {
                Some(ContextValue::Strings(v)) => v.join(", "),
                _ => names.join(", "),
            };
            format!("`{command}` needs a command: one of {valid}")
        }
        _ => {
            // The message is the text before the first blank line, less
            // clap's `error: ` and the usage; an indented list (the
            // missing arguments) joins the line.
            let head = rendered.split("\n\n").next().unwrap_or_default();
            let mut parts: Vec<String> = head
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("Usage:"))
                .map(|l| l.strip_prefix("error: ").unwrap_or(l).to_string())
                .collect();
            // A tip (`a similar argument exists: '--divide'`) follows.
            for block in rendered.split("\n\n").skip(1) {
                let block = block.trim();
                if let Some(tip) = block.strip_prefix("tip: ") {
                    parts.push(format!("({})", tip.trim()));
                }
            }
            parts.join(" ")
        }
    };
    one_line(&format!("{message}; `{command} --help` shows the usage"))
}

/// The message as one printable line: input echoed in it may carry
/// newlines or terminal escape sequences, which must not reach the
/// user's terminal raw.
pub(crate) fn one_line(msg: &str) -> String {
    msg.lines()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

/// How a file is named in messages: `` `path` ``, or standard input.
pub(crate) fn display_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        format!("`{}`", path.display())
    }
}

/// Set when a command reported a script failure: the exit status is 3.
static SCRIPT_FAILED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Prints each script failure of the game so far on stderr, one line
/// each, and makes the exit status 3: a failed hook was skipped, a failed
/// card dropped, and the user must know the game was not the ruleset's.
pub(crate) fn report_script_errors<G: crate::kernel::game::Game>(game: &G) {
    for e in game.take_errors() {
        eprintln!("script error: {}", one_line(&e));
        SCRIPT_FAILED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Reports script failures summed up by the lab (a run's count and first
/// message, one line, not one a failure: a run may fail in every game)
/// and makes the exit status 3, as a failure in a single game does.
pub(crate) fn report_script_failure(summary: &str) {
    eprintln!("script error: {}", one_line(summary));
    SCRIPT_FAILED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Reads a file, or standard input for `-`, of at most `limit` bytes; a
/// FIFO or a device where a file is expected is refused, not read.
pub(crate) fn read_input(path: &std::path::Path, limit: u64) -> Result<String, UsageError> {
    crate::files::read_input(path, limit).map_err(|e| cannot_read(path, &e))
}

/// Why a file argument could not be read; a pipe or a device given by
/// its path (`/dev/stdin`, `<(…)`) is pointed to `-`.
pub(crate) fn cannot_read(path: &std::path::Path, e: &str) -> UsageError {
    let hint = if e.contains("not a regular file") && !e.contains("directory") {
        " (`-` reads standard input)"
    } else {
        ""
    };
    UsageError(format!("cannot read {}: {e}{hint}", display_name(path)))
}
