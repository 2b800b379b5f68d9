//! BALL's board in the terminal (`tui::Board`): the board of `src/tui/`.

use super::Ball;
use super::ruleset::Ruleset;
use crate::kernel::record::Record;
use crate::tui::app::Seat;
use crate::tui::{Board, Play, PlayConfig};

impl Board for Ball {
    fn run_board(c: Play<Ball>) -> Result<(), String> {
        let seats = c.seats.map(|s| s.map_or(Seat::Human, Seat::Bot));
        crate::tui::play(PlayConfig {
            ruleset: c.ruleset,
            seats,
            seed: c.seed,
            load: c.load,
            bot_delay: c.bot_delay,
        })
    }

    fn replay_board(record: &Record, ruleset: &Ruleset) -> Result<(), String> {
        crate::tui::replay(record, ruleset)
    }
}
