//! G-ball's board in the terminal (`tui::Board`): not drawn yet; the
//! platform's board shell gives it one.

use super::Gball;
use super::ruleset::GballRuleset;
use crate::kernel::record::Record;
use crate::tui::{Board, Play};

impl Board for Gball {
    fn run_board(_config: Play<Gball>) -> Result<(), String> {
        Err("the G-ball board is not drawn yet: `ball show` draws a position".into())
    }

    fn replay_board(_record: &Record, _ruleset: &GballRuleset) -> Result<(), String> {
        Err("the G-ball board is not drawn yet: replay as text with `ball replay FILE | less`".into())
    }
}
