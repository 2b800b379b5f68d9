//! Gateball's board in the terminal (`tui::Board`): the board of
//! `src/tui/gateball/`.

use super::Gateball;
use super::ruleset::GateballRuleset;
use crate::kernel::game::Title;
use crate::kernel::record::Record;
use crate::tui::gateball::{GateballPlayConfig, Level, Seat};
use crate::tui::{Board, Play};

impl Board for Gateball {
    fn run_board(c: Play<Gateball>) -> Result<(), String> {
        if c.load.is_some() {
            return Err("--load is not available for Gateball yet".into());
        }
        let mut seats = [Seat::Human, Seat::Human];
        for (i, s) in c.seats.iter().enumerate() {
            if let Some(spec) = s {
                seats[i] = Seat::Bot(Level::parse(spec)?);
            }
        }
        let (game, start, events) = Gateball::build(&c.ruleset)?.new_game(c.seed);
        crate::tui::gateball::run(GateballPlayConfig {
            game,
            start,
            events,
            seats,
            seed: c.seed,
            delay: c.bot_delay,
        })
        .map_err(|e| format!("the board: {e}"))
    }

    fn replay_board(_record: &Record, _ruleset: &GateballRuleset) -> Result<(), String> {
        Err("the Gateball board cannot step through a record yet".into())
    }
}
