//! The session layer of every board, apart from any front end: the
//! terminal board (`crate::tui`) and a web board drive it alike.
//!
//! - `flow.rs` — the choice flow: [`Flow`], what a game supplies (each
//!   legal action split into the rulebook's choices, prompts, log words),
//!   and [`Chooser`], which offers the next choices of the legal actions
//!   that start with what was chosen, never deciding legality itself.
//! - `session.rs` — [`Session`]: the game on a board; seats, the flow of
//!   the position, undo/redo of whole actions, replays, bot requests.
//! - `history.rs` — the line of play, with undo and redo.
//! - `deal.rs` — a game's recipe (rules, seed, start) and its seats.
//! - `record.rs` — save and load through the lab's own record code, so
//!   that a saved game passes `ball replay --check` and a loaded one is
//!   the game the check replays; the atomic save.
//! - `bots.rs` — the bot protocol: requests with their version and seed,
//!   a worker thread, stale answers dropped.
//!
//! **Boundary:** no terminal, no file other than a record saved; names no
//! game. Actions are played only through `Game::play`.

pub mod bots;
pub mod deal;
pub mod flow;
pub mod history;
pub mod record;
pub mod session;

pub use deal::{Deal, Seat, Viewer};
pub use flow::{Choice, Chooser, Flow, Key, Tone};
pub use history::{History, Played};
pub use session::{Done, Session, Step};
