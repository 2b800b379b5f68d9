//! `ball play`: the interactive board. The board itself is the game's
//! (`tui::Board`); this file turns the command line into its
//! configuration, the same for every game.

use std::path::PathBuf;
use std::time::Duration;

use super::{GameOpts, UsageError};
use crate::games::Module;
use crate::tui::Play;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Seats are the game's: BALL's DEF and ATK, Gateball's red and blue. --bot SEAT \
lets the greedy bot play that seat; --bot SEAT:LEVEL picks the bot (random, \
greedy, mcts, mcts:N). Give it twice to watch two bots.

BALL: arrows or hjkl move the cursor, Enter (or a mouse click) chooses, Tab jumps \
to the next choice, Esc cancels the action in progress, e ends the action phase, \
a lists the other actions, u/r undo/redo, s saves, ? shows all keys, q quits. \
Needs a terminal of at least 79x23.

Gateball (`ball play --game gateball --bot blue:greedy`): p power, t tech, e end a \
continuation; arrows or keypad digits choose a direction or add a path step, [ ] the \
die of a diagonal, Tab the Start Space, Enter plays, Backspace/Esc undo the choice, \
? all keys. Needs about 98x29 for the standard court.

Examples:
  ball play --bot ATK
  ball play --bot DEF:mcts:500 --bot ATK:greedy --delay 300
  ball play --game gateball --bot blue:greedy --seed 7
  ball play --load game.record

Exit status: 0 when the player quits; 2 bad input (a ruleset, bot or record \
that cannot be used, or no terminal).")]
pub struct PlayArgs {
    /// Let a bot play one seat: its name (BALL: DEF or ATK; Gateball: red
    /// or blue), then optionally `:LEVEL`, a bot spec (random, greedy,
    /// mcts, mcts:N) [default level: greedy].
    #[arg(long, value_name = "SEAT[:LEVEL]")]
    pub bot: Vec<String>,
    /// Continue a saved game: a match record (saved with `s` on the board).
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Seed of the game (a dice game's dice) and of the bots' choices: the
    /// same seed and the same moves give the same game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Milliseconds at least between two bot actions, so each can be
    /// followed in the log (0: as fast as the bot thinks).
    #[arg(long, value_name = "MS", default_value_t = 700)]
    pub delay: u64,
    #[command(flatten)]
    pub opts: GameOpts,
}

/// The level of `--bot SEAT` without one.
pub const DEFAULT_LEVEL: &str = "greedy";

pub fn run<G: Module>(args: PlayArgs, ruleset: G::Ruleset) -> Result<(), UsageError> {
    let mut seats: [Option<String>; 2] = [None, None];
    for text in &args.bot {
        let (seat, level) = parse_bot(text, G::SEATS)?;
        if seats[seat].is_some() {
            return Err(UsageError(format!(
                "--bot {text}: {} already has a bot",
                G::SEATS[seat]
            )));
        }
        seats[seat] = Some(level);
    }
    G::run_board(Play {
        ruleset,
        seats,
        seed: args.seed,
        load: args.load,
        bot_delay: Duration::from_millis(args.delay),
    })
    .map_err(UsageError)
}

/// `ATK`, `def:random`, `ATK:mcts:500` → the seat and the bot spec; seat
/// names are matched without regard to case.
pub fn parse_bot(text: &str, seats: [&str; 2]) -> Result<(usize, String), UsageError> {
    let (name, level) = match text.split_once(':') {
        Some((t, l)) => (t, l),
        None => (text, DEFAULT_LEVEL),
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
        let (t, l) = parse_bot("ATK:random", seats).unwrap();
        assert_eq!((t, l.as_str()), (0, "random"));
        let (t, l) = parse_bot("def:mcts:50", seats).unwrap();
        assert_eq!((t, l.as_str()), (1, "mcts:50"));
        let (_, l) = parse_bot("DEF", seats).unwrap();
        assert_eq!(l, DEFAULT_LEVEL);
        assert!(parse_bot("XYZ:random", seats).is_err());
        assert!(parse_bot("ATK:wizard", seats).is_err());
        assert!(parse_bot("", seats).is_err());
    }
}
