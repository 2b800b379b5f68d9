//! The board in a web browser (`ball serve`), for every game alike.
//!
//! - `svg.rs` — [`Svg`], what a game supplies: the drawing of its board as
//!   SVG (implemented in each game's folder, `svg.rs`), and the shared
//!   drawing kit ([`svg::Sheet`]) the games draw with, so that the page,
//!   `ball show --svg` and the card gallery share one renderer.
//! - `view.rs` — what a client is shown of a session: the board, the
//!   prompt, the offered choices, the log in plain words, the game's own
//!   panels (BALL's card menu), whose seat is whose.
//! - `table.rs` — a game on the server: a [`table::Table`] is a session of
//!   any game behind one object-safe interface, run on a thread of its own
//!   (a game may hold a Lua state, which cannot cross threads).
//! - `seats.rs` — the secret links: one token a seat, one for spectators.
//! - `lobby.rs` — the home page's choices (a game's rulesets and seats)
//!   and the lobby of listed games with a seat still to claim.
//! - `store.rs` — the games' record files in the server's directory.
//! - `server.rs` — the HTTP server: routes, limits, server push (SSE).
//! - `page.rs` — the page and its script (`page.js`, embedded).
//! - `gallery.rs` — the card gallery of a ruleset (page and static files).
//!
//! **Boundary:** names no game: everything game-specific comes through
//! `games::Module` (which includes [`Svg`]). Actions are played only
//! through the shell's `Session`, which plays only legal actions; a
//! request is refused unless it comes with the token of the seat to move.

pub mod gallery;
pub mod lobby;
pub mod page;
pub mod seats;
pub mod server;
pub mod store;
pub mod svg;
pub mod table;
pub mod view;

pub use svg::{Marks, Svg};
