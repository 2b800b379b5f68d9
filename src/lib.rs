//! `ball`: a rules platform for tabletop games, starting with BALL.
//!
//! See ARCHITECTURE.md for the map of the layers.

pub mod bots;
pub mod cli;
pub mod data;
pub mod diagnostic;
pub mod files;
pub mod games;
pub mod json_line;
pub mod kernel;
pub mod lab;
pub mod rules_text;
pub mod scenario;
pub mod script;
pub mod shell;
pub mod store;
pub mod toml_doc;
pub mod tui;
pub mod web;
