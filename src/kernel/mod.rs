//! The game-agnostic kernel: what every game of the platform shares.
//!
//! **Boundary:** nothing here knows BALL, Lua, clap or the terminal.

pub mod events;
pub mod game;
pub mod grid;
pub mod hash;
pub mod perft;
pub mod playout;
pub mod record;
pub mod rng;
