//! `ball play`: the interactive board (issue #4). The board itself is
//! `crate::tui`; this file turns the command line into its configuration.

use std::path::PathBuf;
use std::time::Duration;

use super::UsageError;
use crate::games::ball::piece::Team;
use crate::games::ball::ruleset::Ruleset;
use crate::tui::app::Seat;
use crate::tui::{self, PlayConfig};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Keys: arrows or hjkl move the cursor, Enter (or a mouse click) chooses, \
Tab jumps to the next choice, Esc cancels the action in progress, e ends the action phase, \
a lists the other actions, u/r undo/redo, s saves, ? shows all keys, q quits. \
Needs a terminal of at least 79x23.

Gateball (`ball play --game gateball --bot blue:greedy`): p power, t tech, e end a \
continuation; arrows or keypad digits choose a direction or add a path step, [ ] the \
die of a diagonal, Tab the Start Space, Enter plays, Backspace/Esc undo the choice, \
? all keys. Needs about 98x29 for the standard court."
)]
pub struct PlayArgs {
    /// Let a bot play one team: DEF or ATK, then optionally `:LEVEL`, a
    /// bot spec (random, greedy, mcts, mcts:N). Without LEVEL the
    /// strongest quick bot is used (greedy, else random). Give it twice
    /// (once per team) to watch two bots. Gateball: RED or BLUE, levels
    /// random and greedy.
    #[arg(long, value_name = "DEF|ATK[:LEVEL]")]
    pub bot: Vec<String>,
    /// Continue a saved game: a match record (saved with `s` on the board).
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Seed of the bots' choices: the same seed and the same moves give the
    /// same bot replies. Gateball: also the dice's seed (T4.5).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Milliseconds at least between two bot actions, so each can be
    /// followed in the log (0: as fast as the bot thinks).
    #[arg(long, value_name = "MS", default_value_t = 700)]
    pub delay: u64,
}

pub fn run(
    args: PlayArgs,
    ruleset: &Ruleset,
    _out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let mut seats = [Seat::Human, Seat::Human];
    for spec in &args.bot {
        let (team, level) = parse_bot(spec)?;
        if seats[team as usize].is_bot() {
            return Err(UsageError(format!(
                "--bot {spec}: {team} already has a bot"
            )));
        }
        crate::bots::from_spec(&level, args.seed)
            .map_err(|e| UsageError(format!("--bot {spec}: {e}")))?;
        seats[team as usize] = Seat::Bot(level);
    }
    let config = PlayConfig {
        ruleset: ruleset.clone(),
        seats,
        seed: args.seed,
        load: args.load,
        bot_delay: Duration::from_millis(args.delay),
    };
    tui::play(config).map_err(UsageError)
}

/// `ATK`, `def:random`, `ATK:mcts:500` → the team and the bot spec.
pub fn parse_bot(text: &str) -> Result<(Team, String), UsageError> {
    let (team, level) = match text.split_once(':') {
        Some((t, l)) => (t, Some(l)),
        None => (text, None),
    };
    let team = Team::parse(&team.to_ascii_uppercase()).ok_or_else(|| {
        UsageError(format!(
            "--bot {text}: expected DEF or ATK, then optionally :LEVEL (e.g. ATK:random)"
        ))
    })?;
    let level = match level {
        Some(l) => l.to_string(),
        None => default_level(),
    };
    Ok((team, level))
}

/// The best bot that answers quickly enough for play: `greedy` where the
/// build has it, else `random`.
pub fn default_level() -> String {
    if crate::bots::from_spec("greedy", 0).is_ok() {
        "greedy".into()
    } else {
        "random".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_flags() {
        let (t, l) = parse_bot("ATK:random").unwrap();
        assert_eq!((t, l.as_str()), (Team::Atk, "random"));
        let (t, l) = parse_bot("def:mcts:50").unwrap();
        assert_eq!((t, l.as_str()), (Team::Def, "mcts:50"));
        let (_, l) = parse_bot("DEF").unwrap();
        assert_eq!(l, default_level());
        assert!(parse_bot("XYZ:random").is_err());
        assert!(parse_bot("").is_err());
    }
}
