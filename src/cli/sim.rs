//! `ball sim` and `ball compare`: the balance lab (issue #5).

use super::UsageError;
use crate::ruleset::Ruleset;

#[derive(Debug, clap::Args)]
pub struct SimArgs {}

#[derive(Debug, clap::Args)]
pub struct CompareArgs {}

pub fn run_sim(
    _args: SimArgs,
    _ruleset: &Ruleset,
    _out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    Err(UsageError("`ball sim` is not built yet".into()))
}

pub fn run_compare(
    _args: CompareArgs,
    _ruleset: &Ruleset,
    _out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    Err(UsageError("`ball compare` is not built yet".into()))
}
