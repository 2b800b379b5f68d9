//! `ball play`: the interactive board. The board is written once
//! (`crate::tui` over `crate::shell`); this file turns the command line
//! into its configuration, the same for every game. `--load` plays on
//! from a match record under the record's own game, ruleset and seats.

use std::path::PathBuf;
use std::time::Duration;

use super::{GameOpts, UsageError};
use crate::games::{self, Module, Visit};
use crate::kernel::record::Record;
use crate::shell::Seat;
use crate::tui::Play;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Seats are the game's: BALL's DEF and ATK, Gateball's red and blue, G-ball's RED and BLU. --bot SEAT \
lets the game's default bot play that seat. BALL's is mcts (1000 iterations a \
decision): in a release build it answers in about 1 ms, at most about 10 ms, and \
it beats greedy in 96% of games (greedy often ends its turn without acting and \
never converts AP). Gateball's is greedy, which takes the expectation over the \
dice and beat mcts in 15 of 20 games; it answers in under 6 ms. G-ball's is greedy \
(a catch weighed by its odds). --bot \
SEAT:LEVEL picks the bot (random, greedy, mcts, mcts:N). Give it twice to \
watch two bots.

Every choice lists its key, the same on every turn; a piece or player is its \
number, and a menu without keys of its own is numbered 1-9, 0. BALL: a piece by \
its number (1-7), then what it does (1 move 2 dodge 3 tdodge 4 block 5 protect \
6 handoff 7 spass 8 lpass 9 standup 0 release), then its squares on the board \
(arrows or hjkl and Enter, Tab, or a click); e ends the action phase, c plays a \
card (by its number; a target piece by its number) and v converts AP in card \
mode. Needs a terminal of at least 79x23.

Gateball: p power, t tech, e end a continuation; then the Start Space of a start \
shot, and a direction (keypad digits or arrows; [ ] the die of a diagonal) or the \
steps of a path; the move and what it will do are shown until Enter plays it. \
Needs 120x24 for the standard court.

G-ball: a player by his number (1-9) then a wall square to place him; a direction \
on the keypad or the arrows (5 stays) to move; , or <- left, . or -> right, n none \
to turn; a player by his number to block, catch or receive a hand-off, n none; \
the players who decline or receive by the menu's numbers; k keep, t throw and a \
direction, p spin, h hand off for the holder. Needs 113x19.

A smaller terminal shows one line saying what size the game needs; the game \
waits until there is room.

Everywhere: Backspace takes back a choice, Esc cancels, u/r undo/redo a whole \
action (with a bot, back to your turn), s saves the match record, ? all keys, q \
quits. --load FILE goes on with a saved game (or FILE.jsonl:N, game N of a \
`ball sim --out` file) under the record's ruleset (--ruleset overrides; other \
rules than the record's are a warning) and with its bot seats (--bot overrides \
one).

Examples:
  ball play --bot ATK
  ball play --bot DEF:mcts:500 --bot ATK:greedy --delay 300
  ball play --game gateball --bot blue:greedy --seed 7
  ball play --load ball-match.txt
  ball play --game gateball --load games.jsonl:3

Exit status: 0 when the player quits; 2 bad input (a ruleset, bot or record \
that cannot be used, or no terminal).")]
pub struct PlayArgs {
    /// Let a bot play one seat: its name (BALL: DEF or ATK; Gateball: red
    /// or blue; G-ball: RED or BLU), then optionally `:LEVEL`, a bot spec
    /// (random, greedy, mcts, mcts:N) [default level: the game's default
    /// bot: mcts for BALL, greedy for Gateball and G-ball].
    #[arg(long, value_name = "SEAT[:LEVEL]")]
    pub bot: Vec<String>,
    /// Continue a saved game: a match record (saved with `s` on the
    /// board), or FILE.jsonl:N for game N of a `ball sim --out` file.
    #[arg(long, value_name = "FILE")]
    pub load: Option<String>,
    /// Seed of a new game (a dice game's dice) and of the bots' choices:
    /// the same seed and the same moves give the same game [default: 0;
    /// a loaded game keeps its record's].
    #[arg(long, value_name = "N", conflicts_with = "load")]
    pub seed: Option<u64>,
    /// Milliseconds at least between two bot actions, so each can be
    /// followed in the log (0: as fast as the bot thinks) [default: 700].
    #[arg(long, value_name = "MS")]
    pub delay: Option<u64>,
    #[command(flatten)]
    pub opts: GameOpts,
}

/// The seats `--bot` asks for; `None` where none was given.
fn seats<G: Module>(args: &PlayArgs) -> Result<[Option<Seat>; 2], UsageError> {
    let mut seats: [Option<Seat>; 2] = [None, None];
    for text in &args.bot {
        let (seat, level) = parse_bot(text, G::SEATS, G::DEFAULT_BOT)?;
        if seats[seat].is_some() {
            return Err(UsageError(format!(
                "--bot {text}: {} already has a bot",
                G::SEATS[seat]
            )));
        }
        seats[seat] = Some(Seat::Bot(level));
    }
    Ok(seats)
}

/// The pause between bot actions: 700 ms unless `--delay` says.
const DEFAULT_DELAY_MS: u64 = 700;

/// `ball play` without `--load`: a new game.
pub fn run<G: Module>(args: PlayArgs, ruleset: G::Ruleset) -> Result<(), UsageError> {
    let seats = seats::<G>(&args)?;
    if let Some(ms) = args.delay
        && seats.iter().all(Option::is_none)
    {
        return Err(UsageError(format!(
            "--delay {ms} paces the bots, and no seat has one: add --bot SEAT"
        )));
    }
    crate::tui::play::<G>(Play {
        ruleset,
        seats: seats.map(|s| Some(s.unwrap_or(Seat::Person))),
        seed: args.seed.unwrap_or(0),
        load: None,
        bot_delay: Duration::from_millis(args.delay.unwrap_or(DEFAULT_DELAY_MS)),
    })
    .map_err(UsageError)
}

/// `ball play --load FILE`: the game is the record's (`game:`), the
/// ruleset `--ruleset`'s or else the record's own (`ruleset:`), as for
/// `ball replay`.
pub fn dispatch_load(
    args: PlayArgs,
    game_flag: Option<&str>,
    spec: Option<&str>,
) -> Result<(), UsageError> {
    let file = args.load.clone().unwrap_or_default();
    let record = super::replay::load_record(&file)?;
    let game = record
        .get("game")
        .unwrap_or(crate::data::DEFAULT_GAME)
        .to_string();
    let spec = spec.or(record.get("ruleset")).map(str::to_string);
    let name = super::commands::choose_game(Some(&game), game_flag, spec.as_deref())?;
    // A plain file is saved back to; a game of a sim output is not.
    let path = std::path::Path::new(&file)
        .exists()
        .then(|| PathBuf::from(&file));
    games::visit(
        &name,
        Load {
            args,
            record,
            path,
            spec,
        },
    )
    .expect("choose_game names a registered game")
}

struct Load {
    args: PlayArgs,
    record: Record,
    path: Option<PathBuf>,
    spec: Option<String>,
}

impl Visit for Load {
    type Output = Result<(), UsageError>;

    fn visit<G: Module>(self) -> Self::Output {
        let ruleset = super::commands::ruleset::<G>(self.spec.as_deref(), &self.args.opts)?;
        let seats = seats::<G>(&self.args)?;
        crate::tui::play::<G>(Play {
            ruleset,
            seats,
            seed: 0,
            load: Some((self.record, self.path)),
            bot_delay: Duration::from_millis(self.args.delay.unwrap_or(DEFAULT_DELAY_MS)),
        })
        .map_err(UsageError)
    }
}

/// `ATK`, `def:random`, `ATK:mcts:500` → the seat and the bot spec
/// (`default` without a level); seat names are matched without regard to
/// case.
pub fn parse_bot(
    text: &str,
    seats: [&str; 2],
    default: &str,
) -> Result<(usize, String), UsageError> {
    let (name, level) = match text.split_once(':') {
        Some((t, l)) => (t, l),
        None => (text, default),
    };
    let seat = seats
        .iter()
        .position(|s| s.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            UsageError(format!(
                "--bot {text}: expected {} or {}, then optionally :LEVEL (e.g. {}:random)",
                seats[0], seats[1], seats[1]
            ))
        })?;
    crate::bots::check_spec(level).map_err(|e| UsageError(format!("--bot {text}: {e}")))?;
    Ok((seat, level.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_flags() {
        let seats = ["ATK", "DEF"];
        let (t, l) = parse_bot("ATK:random", seats, "mcts").unwrap();
        assert_eq!((t, l.as_str()), (0, "random"));
        let (t, l) = parse_bot("def:mcts:50", seats, "mcts").unwrap();
        assert_eq!((t, l.as_str()), (1, "mcts:50"));
        let (_, l) = parse_bot("DEF", seats, "mcts").unwrap();
        assert_eq!(l, "mcts");
        assert!(parse_bot("XYZ:random", seats, "mcts").is_err());
        assert!(parse_bot("ATK:wizard", seats, "mcts").is_err());
        assert!(parse_bot("", seats, "mcts").is_err());
    }
}
