//! `ball replay`: step through a match record (issue #4) or check that it
//! still replays under the current rules (issue #5).

use super::UsageError;
use crate::ruleset::Ruleset;

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {}

pub fn run(
    _args: ReplayArgs,
    _ruleset: &Ruleset,
    _out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    Err(UsageError("`ball replay` is not built yet".into()))
}
