//! The games of the platform, one folder each, and the registry the
//! generic tools dispatch through.
//!
//! A game's folder holds its rules and everything only it knows (notation,
//! JSON, text board, evaluation, its own lab figures, its board view and
//! choice flow, its file readers), and implements the platform's traits:
//! `kernel::game::{Game, Title}` and the layers' own. Adding a game is its
//! folder and one line in [`registry!`]'s invocation below
//! (`docs/adding-a-game.md`).

use crate::bots::Evaluate;
use crate::kernel::game::Title;
use crate::lab::Figures;
use crate::shell::Flow;
use crate::tui::Board;
use crate::web::Svg;

/// Everything a registered game implements: the bound every generic
/// command is written against.
pub trait Module: Title + Evaluate + Figures + Flow + Board + Svg {}

impl<G: Title + Evaluate + Figures + Flow + Board + Svg> Module for G {}

/// A generic piece of work to run on whichever game a name picks: the way
/// a command written once (`fn run<G: Module>`) reaches every game.
pub trait Visit {
    type Output;
    fn visit<G: Module>(self) -> Self::Output;
}

macro_rules! registry {
    ($($module:ident :: $game:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// The `game` names of every registered game, in registry order.
        pub const NAMES: &[&str] = &[$(<$module::$game as Title>::NAME),+];

        /// Runs `work` on the game called `name` (`None`: no such game).
        pub fn visit<V: Visit>(name: &str, work: V) -> Option<V::Output> {
            $(
                if name == <$module::$game as Title>::NAME {
                    return Some(work.visit::<$module::$game>());
                }
            )+
            None
        }
    };
}

registry!(ball::Ball, gateball::Gateball, gball::Gball);

/// `ball, gateball`: for messages that list the games.
pub fn names() -> String {
    NAMES.join(", ")
}
