//! `ball`: a rules platform for tabletop games, starting with BALL.
//!
//! See ARCHITECTURE.md for the map of the layers.

pub mod ball;
pub mod bots;
pub mod cli;
pub mod diagnostic;
pub mod gateball;
pub mod kernel;
pub mod lab;
pub mod ruleset;
pub mod script;
pub mod toml_doc;
pub mod tui;
