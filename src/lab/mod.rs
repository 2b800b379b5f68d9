//! The balance lab: seeded bot games in bulk, the figures of
//! `docs/balance-metrics.md`, comparisons of rulesets, plots, and the
//! replay check of match records.
//!
//! **Boundary:** no IO but what callers hand in (the CLI prints and writes
//! files); depends on `ball`, `bots`, `kernel` and `ruleset`.

pub mod compare;
pub mod gateball;
pub mod metrics;
pub mod plot;
pub mod replay;
pub mod report;
pub mod sim;
pub mod stats;
