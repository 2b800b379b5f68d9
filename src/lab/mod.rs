//! The balance lab, written once for every game: seeded bot games in bulk
//! (`sim`), the figures of `docs/balance-metrics.md`, comparisons of
//! rulesets, plots, and the replay check of match records.
//!
//! The lab measures what every game shares (seat and first-player
//! advantage, draws, completion, how games ended, length, branching, the
//! actions played by kind); a
//! game adds its own figures through [`Figures`] (BALL: touchdowns, card
//! use and the EP economy; Gateball: points, Goals, Perfect Games, failed
//! starts), implemented in its folder.
//!
//! **Boundary:** no IO but what callers hand in (the CLI prints and writes
//! files); plays only through the game interface, with actions its bots
//! took from the legal list.

pub mod compare;
pub mod kinds;
pub mod metrics;
pub mod plot;
pub mod replay;
pub mod report;
pub mod shard;
pub mod sim;
pub mod stats;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::kernel::game::Title;
pub use sim::GameResult;

/// A game's own figures: counted while a game is played, kept in each
/// game's `--out` line (so that shards of a run can be merged), and
/// summed up into the report's section of the game's own.
pub trait Figures: Title {
    /// One game's counts.
    type Tally: Default
        + Clone
        + std::fmt::Debug
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;

    /// Whether [`Figures::tally`] reads the events of each action: the
    /// lab then plays with the log on (it costs a little).
    const EVENTS: bool = false;

    /// The tally of a game about to start from `start`.
    fn start_tally(&self, _start: &Self::Position) -> Self::Tally {
        Self::Tally::default()
    }

    /// Counts one action: the position before, the action, the position
    /// after, (when [`Figures::EVENTS`]) what happened, and the script
    /// failures it caused (`Game::take_errors`).
    fn tally(
        &self,
        tally: &mut Self::Tally,
        before: &Self::Position,
        action: Self::Action,
        after: &Self::Position,
        events: &[Self::Event],
        errors: &[String],
    );

    /// Counts the position a game ended in (or was cut at).
    fn finish_tally(&self, _tally: &mut Self::Tally, _last: &Self::Position) {}

    /// The game's own figures over a run, for the report.
    fn section(games: &[GameResult<Self::Tally>], bots: &[String; 2]) -> Section;

    /// Per-game values that `ball compare` tests for a difference.
    fn samples(games: &[GameResult<Self::Tally>]) -> Vec<Sample>;
}

/// The part of a report that is the game's own: lines for the table and
/// the same figures as JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Section {
    pub text: String,
    pub json: serde_json::Value,
}

/// How `compare` tests a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SampleKind {
    /// A number per game: means, Welch's t-test.
    Mean,
    /// 0 or 1 per game: shares, the two-proportion z-test.
    Share,
}

/// One figure, one value per game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sample {
    pub name: String,
    pub kind: SampleKind,
    pub values: Vec<f64>,
    /// The figures that exist only under some rules (BALL's card figures:
    /// `cards`). A side that lacks one sample of a group it has counts 0 in
    /// each of the group's games (a card the other ruleset does not
    /// hold), but a group only one side has is not compared at all: every
    /// row of it would measure the group's rules themselves (card mode).
    /// `None`: a figure every ruleset of the game has.
    pub group: Option<&'static str>,
}

impl Sample {
    pub fn mean(name: impl Into<String>, values: Vec<f64>) -> Sample {
        Sample {
            name: name.into(),
            kind: SampleKind::Mean,
            values,
            group: None,
        }
    }

    pub fn share(name: impl Into<String>, values: Vec<f64>) -> Sample {
        Sample {
            name: name.into(),
            kind: SampleKind::Share,
            values,
            group: None,
        }
    }

    /// The sample as one of `group`'s ([`Sample::group`]).
    pub fn in_group(mut self, group: &'static str) -> Sample {
        self.group = Some(group);
        self
    }
}
