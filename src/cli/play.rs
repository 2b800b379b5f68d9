//! `ball play`: the interactive board (issue #4).

use super::UsageError;
use crate::ruleset::Ruleset;

#[derive(Debug, clap::Args)]
pub struct PlayArgs {}

pub fn run(
    _args: PlayArgs,
    _ruleset: &Ruleset,
    _out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    Err(UsageError("`ball play` is not built yet".into()))
}
