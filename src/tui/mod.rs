//! The interactive board in the terminal, written once for every game:
//! `ball play` and the stepping viewer of `ball replay`, on ratatui.
//!
//! - `board.rs` — [`Board`], what a game supplies: the drawing of its
//!   board area (and any panel of its own), where its cells are, a few
//!   words for the status line and the help screen. The choice flow is
//!   the game's `shell::Flow`.
//! - `app.rs` — the board's state around a `shell::Session`: highlight,
//!   cursor, dialogs, messages; what each key and click does.
//! - `layout.rs` — where everything is, and what a click lands on.
//! - `draw.rs`, `log.rs`, `text.rs` — drawing: status, choices, log,
//!   footer, dialogs, the too-small screen.
//! - `run.rs` — the event loop and the bot thread.
//! - `terminal.rs` — raw mode and its restoration (also on a panic).
//!
//! **Boundary:** the only code that touches the terminal; names no game.
//! It plays actions only through the session (`Game::play`).

pub mod app;
pub mod board;
pub mod draw;
pub mod layout;
pub mod log;
pub mod run;
pub mod terminal;
pub mod text;

use std::time::Duration;

pub use app::{App, Dialog, Level};
pub use board::{Board, Panel, View};
pub use run::handle_event;

use crate::bots::Evaluate;
use crate::kernel::record::Record;
use crate::shell::{Seat, Session};

/// What `ball play` was asked for, for any game.
pub struct Play<G: crate::kernel::game::Title> {
    pub ruleset: G::Ruleset,
    /// Each seat's player; for a loaded game, `None` keeps the record's.
    pub seats: [Option<Seat>; 2],
    /// Seed of the game (a dice game's dice) and of the bots' choices.
    pub seed: u64,
    /// A match record to go on with, and the file it came from (saving
    /// writes back there).
    pub load: Option<(Record, Option<std::path::PathBuf>)>,
    /// The least time between two bot actions.
    pub bot_delay: Duration,
}

/// The board's state for `config`: a new game, or the loaded record
/// replayed as `ball replay --check` replays it.
pub fn new_app<G: Board>(config: Play<G>) -> Result<App<G>, String> {
    let loaded = config.load.is_some();
    let session = match config.load {
        None => Session::new(
            config.ruleset,
            config.seats.map(|s| s.unwrap_or(Seat::Person)),
            config.seed,
        )?,
        Some((record, path)) => {
            let mut s = Session::load(&record, config.ruleset, config.seats)?;
            if let Some(p) = path {
                s.set_save_path(p);
            }
            s
        }
    };
    let mut app = App::new(session);
    let n = app.session().played().len();
    if loaded {
        app.set_message(
            Level::Info,
            format!("loaded {n} action{}", if n == 1 { "" } else { "s" }),
        );
    }
    Ok(app)
}

/// `ball play`: the game on the board until the player quits.
pub fn play<G: Board + Evaluate>(config: Play<G>) -> Result<(), String> {
    let delay = config.bot_delay;
    let mut app = new_app(config)?;
    run::run(&mut app, delay)
}

/// `ball replay FILE` (interactive): steps through a match record,
/// forwards and back. Refuses a record that does not replay, naming the
/// step, as `ball replay --check` does.
pub fn replay<G: Board + Evaluate>(record: &Record, ruleset: G::Ruleset) -> Result<(), String> {
    let mut app = App::new(Session::<G>::replay(record, ruleset)?);
    run::run(&mut app, Duration::ZERO)
}
