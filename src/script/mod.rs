//! The Lua host every game shares, and names no game: the sandbox and its
//! budgets, script errors with file and line, and the API registry from
//! which a game's reference, editor stubs and name checks are made.
//!
//! A game binds to it from its own folder (BALL: `games/ball/script/`):
//! its reads and writes as [`registry::Binding`]s registered through a
//! [`registry::Registrar`], its script tables as [`registry::Field`]
//! lists, and the rule points its engine calls.

pub mod error;
pub mod fields;
pub mod freeze;
pub mod layout;
mod order;
pub mod registry;
pub mod ruleset_keys;
pub mod sandbox;
pub mod variants;

pub use error::ScriptError;
