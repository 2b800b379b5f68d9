//! The interactive board in the terminal: `ball play` and the stepping
//! viewer of `ball replay` (issue #4), on ratatui.
//!
//! - `app.rs` — the state machine: choices, cursor, dialogs, undo/redo,
//!   save. No terminal; unit-tested on its own.
//! - `view.rs` — drawing, and mapping a mouse click back to what is drawn.
//! - `history.rs` — the actions played, undo/redo, match records.
//! - `terminal.rs` — raw mode and its restoration (also on a panic),
//!   shared by both games' boards.
//! - `gateball/` — the Gateball board, its own app, view and loop.
//! - this file — BALL's event loop and the bot seats, which think on a
//!   thread of their own so the board stays responsive (Ctrl-C, undo)
//!   while a slow bot searches.
//!
//! **Boundary:** the only code that touches the terminal. It reads the
//! rules through `Ball` (`legal`, `play`) and never decides legality.

pub mod app;
pub mod gateball;
pub mod history;
pub mod terminal;
pub mod view;

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;

use crate::games::ball::action::Action;
use crate::games::ball::piece::Team;
use crate::games::ball::position::Position;
use crate::games::ball::ruleset::Ruleset;
use crate::kernel::record::Record;
use app::{App, Dialog, Level, Seat};
use history::History;
use terminal::TerminalGuard;
use view::Hit;

/// A game's board in the terminal: what `ball play` and the interactive
/// `ball replay` open. Each game implements it in its folder.
pub trait Board: crate::bots::Evaluate + crate::lab::Figures {
    /// `ball play`: the game on the board until the player quits.
    fn run_board(config: Play<Self>) -> Result<(), String>;

    /// `ball replay FILE` on a terminal: steps through a match record.
    fn replay_board(record: &Record, ruleset: &Self::Ruleset) -> Result<(), String>;
}

/// What `ball play` was asked for, for any game.
pub struct Play<G: crate::kernel::game::Title> {
    pub ruleset: G::Ruleset,
    /// The bot spec playing each seat; `None`: a person.
    pub seats: [Option<String>; 2],
    /// Seed of the game (a dice game's dice) and of the bots' choices.
    pub seed: u64,
    /// A match record to continue.
    pub load: Option<PathBuf>,
    /// The least time between two bot actions.
    pub bot_delay: Duration,
}

/// What `ball play` was asked for.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    pub ruleset: Ruleset,
    /// Who plays each team, by `Team as usize`.
    pub seats: [Seat; 2],
    /// Seed of the bots' choices (DEF's bot gets `seed + 1` when both
    /// teams are bots, so they do not mirror each other).
    pub seed: u64,
    /// A match record to continue.
    pub load: Option<PathBuf>,
    /// The least time between two bot actions, so a person can follow
    /// them in the log one by one.
    pub bot_delay: Duration,
}

/// Builds the board's state for `config`: a new game, or the loaded
/// record replayed (its warnings shown on the message line).
pub fn new_app(config: &PlayConfig) -> Result<App, String> {
    let seed = Some(config.seed);
    let Some(path) = &config.load else {
        return Ok(App::new_game(
            config.ruleset.clone(),
            config.seats.clone(),
            seed,
        ));
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let record = Record::parse(&text).map_err(|e| format!("`{}`: {e}", path.display()))?;
    let (history, warnings) = History::from_record(&record, &config.ruleset)
        .map_err(|e| format!("`{}`: {e}", path.display()))?;
    let mut app = App::new(config.ruleset.clone(), history, config.seats.clone(), seed);
    app.set_save_path(path.clone());
    let n = app.history().played().len();
    let note = match warnings.first() {
        Some(w) => (Level::Error, format!("loaded {n} actions; {w}")),
        None => (
            Level::Info,
            format!("loaded {n} actions from {}", path.display()),
        ),
    };
    app.set_message(note.0, note.1);
    Ok(app)
}

/// `ball play`: the game on the board until the player quits.
pub fn play(config: PlayConfig) -> Result<(), String> {
    let mut app = new_app(&config)?;
    let mut bots: [Option<BotWorker>; 2] = [None, None];
    let both = config.seats.iter().all(Seat::is_bot);
    for team in Team::BOTH {
        if let Seat::Bot(spec) = &config.seats[team as usize] {
            let seed = config.seed + u64::from(both && team == Team::Def);
            bots[team as usize] = Some(BotWorker::spawn(
                config.ruleset.clone(),
                spec.clone(),
                seed,
            )?);
        }
    }
    run(&mut app, &mut bots, config.bot_delay)
}

/// `ball replay FILE` (interactive): steps through a match record,
/// forwards and back, on the board. Refuses a record that does not replay
/// under `ruleset`, naming the action.
pub fn replay(record: &Record, ruleset: &Ruleset) -> Result<(), String> {
    let (history, warnings) = History::from_record(record, ruleset)?;
    let mut app = App::for_replay(ruleset.clone(), history);
    if let Some(w) = warnings.first() {
        app.set_message(Level::Error, w.clone());
    }
    run(&mut app, &mut [None, None], Duration::ZERO)
}

/// Feeds one terminal event to the app: keys as they are, mouse clicks
/// mapped through the layout of a screen of size `area`. On a screen too
/// small to draw the board only quitting is possible, so nothing can be
/// chosen blind.
pub fn handle_event(app: &mut App, event: &Event, area: Rect) {
    let screen = view::layout(area, app);
    match event {
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            if !screen.too_small {
                return app.key(*k);
            }
            let ctrl_c =
                k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL);
            if app.dialog() == Some(&Dialog::ConfirmQuit) {
                if matches!(k.code, KeyCode::Char('y' | 'n') | KeyCode::Esc) {
                    app.key(*k);
                }
            } else if k.code == KeyCode::Char('q') || ctrl_c {
                app.close_dialog();
                app.request_quit();
            }
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => match view::hit(&screen, m.column, m.row) {
                Some(Hit::Square(sq)) => app.click_square(sq),
                Some(Hit::Option(i)) => app.click_option(i),
                Some(Hit::DialogItem(i)) => app.click_dialog_item(i),
                None => {}
            },
            MouseEventKind::ScrollUp => app.scroll_log(3),
            MouseEventKind::ScrollDown => app.scroll_log(-3),
            _ => {}
        },
        _ => {}
    }
}

fn run(app: &mut App, bots: &mut [Option<BotWorker>; 2], delay: Duration) -> Result<(), String> {
    let (_guard, mut terminal) = TerminalGuard::enter().map_err(|e| match e.kind() {
        std::io::ErrorKind::Other => e.to_string(),
        _ => format!("cannot set up the terminal: {e}"),
    })?;
    let io = |e: std::io::Error| format!("terminal: {e}");
    let mut asked: Option<u64> = None;
    let mut answer: Option<(u64, Action)> = None;
    let mut version = app.version();
    let mut changed_at = Instant::now();
    loop {
        if app.version() != version {
            version = app.version();
            changed_at = Instant::now();
        }
        terminal.draw(|f| view::draw(f, app)).map_err(io)?;
        if app.should_quit() {
            return Ok(());
        }
        if let Some(req) = app.bot_request()
            && asked != Some(req.version)
            && let Some(worker) = &bots[req.team as usize]
        {
            asked = Some(req.version);
            if !worker.ask(req.version, req.position) {
                app.bot_failed("its thread has ended");
            }
        }
        if let Some((v, a)) = answer
            && changed_at.elapsed() >= delay
        {
            answer = None;
            app.bot_played(v, a);
            continue;
        }
        let timeout = match answer {
            Some(_) => delay.saturating_sub(changed_at.elapsed()),
            None if asked.is_some() => Duration::from_millis(30),
            None => Duration::from_millis(500),
        };
        if event::poll(timeout).map_err(io)? {
            let ev = event::read().map_err(io)?;
            let size = terminal.size().map_err(io)?;
            handle_event(app, &ev, Rect::new(0, 0, size.width, size.height));
        }
        for worker in bots.iter_mut().flatten() {
            while let Ok(reply) = worker.replies.try_recv() {
                match reply {
                    Reply::Action(v, a) => {
                        if asked == Some(v) {
                            asked = None;
                        }
                        answer = Some((v, a));
                    }
                    Reply::Failed(why) => {
                        app.bot_failed(&why);
                        // Whatever the dying thread printed is gone on the
                        // next full redraw.
                        terminal.clear().map_err(io)?;
                    }
                }
            }
        }
    }
}

// ---- bot seats ----

enum Reply {
    Action(u64, Action),
    Failed(String),
}

/// A bot on its own thread, with its own `Ball` (a game with scripts is
/// not `Send`, B11): asked with a position, it answers with an action.
struct BotWorker {
    requests: Sender<(u64, Position)>,
    replies: Receiver<Reply>,
}

impl BotWorker {
    fn spawn(ruleset: Ruleset, spec: String, seed: u64) -> Result<BotWorker, String> {
        // Refuse a bad spec here, before the terminal is taken.
        crate::bots::from_spec::<crate::games::ball::Ball>(&spec, seed)?;
        let (requests, rx) = channel::<(u64, Position)>();
        let (tx, replies) = channel();
        std::thread::Builder::new()
            .name(format!("ball{}", terminal::BOT_THREAD_SUFFIX))
            .spawn(move || {
                let game = ruleset.game();
                let mut bot = match crate::bots::from_spec(&spec, seed) {
                    Ok(b) => b,
                    Err(e) => return drop(tx.send(Reply::Failed(e))),
                };
                for (version, pos) in rx {
                    let legal = game.legal(&pos);
                    if legal.is_empty() {
                        continue;
                    }
                    let chosen = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        bot.choose(&game, &pos, &legal)
                    }));
                    let reply = match chosen {
                        Ok(a) => Reply::Action(version, a),
                        Err(p) => {
                            let why = crate::tui::terminal::panic_reason(p.as_ref());
                            let _ = tx.send(Reply::Failed(format!("{spec} panicked: {why}")));
                            return;
                        }
                    };
                    if tx.send(reply).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| format!("cannot start the bot: {e}"))?;
        Ok(BotWorker { requests, replies })
    }

    /// Sends a request; false if the thread is gone.
    fn ask(&self, version: u64, pos: Position) -> bool {
        self.requests.send((version, pos)).is_ok()
    }
}
