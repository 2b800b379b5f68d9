//! The Gateball board in the terminal: `ball play --game gateball`.
//!
//! - `app.rs` — the state machine: the position, the log, the choice
//!   being built (T4.3's order of decisions), dialogs, bot seats. No
//!   terminal; tested on its own and through `tests/tui_gateball.rs`.
//! - `view.rs` — drawing (the court with T1.9's tokens, the panel, the
//!   log) and mapping a click back to a space.
//! - `bot.rs` — the bot seats' one call into the Gateball bots.
//! - this file — the terminal: raw mode and its restoration (also on a
//!   panic), the event loop, and the bot thread, so the board stays
//!   responsive while a bot thinks.
//!
//! It is its own app, next to the BALL board (`crate::tui`), and shares
//! nothing with it but the conventions. **Boundary:** it reads the rules
//! through `Gateball` (`legal`, `play`, the judgement of a move) and never
//! decides legality.

pub mod app;
pub mod bot;
pub mod view;

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    self, Event as TermEvent, KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;

use crate::tui::terminal::TerminalGuard;

use crate::games::gateball::Gateball;
use crate::games::gateball::action::Action;
use crate::games::gateball::event::Event;
use crate::games::gateball::position::Position;
use crate::kernel::rng::SplitMix64;
pub use app::{App, Seat};
pub use bot::Level;

/// What `ball play --game gateball` was asked for.
#[derive(Clone, Debug)]
pub struct GateballPlayConfig {
    /// The rules: court, ruleset values, players.
    pub game: Gateball,
    /// The position to play from (usually the game's start).
    pub start: Position,
    /// The events that made `start` (`coin`, `turn 1`, `play 1 start`),
    /// shown at the top of the log.
    pub events: Vec<Event>,
    /// Who plays each team: `[red, blue]`.
    pub seats: [Seat; 2],
    /// Seed of the bots' choices: red's bot draws from `seed`, blue's from
    /// `seed + 1`. (The dice come from the position's own RNG, T4.5.)
    pub seed: u64,
    /// The least time between two bot actions, so a person can follow
    /// them one by one.
    pub delay: Duration,
}

/// Builds the board's state for `config`.
pub fn new_app(config: &GateballPlayConfig) -> App {
    App::new(
        config.game.clone(),
        config.start.clone(),
        config.events.clone(),
        config.seats,
        config.seed,
    )
}

/// `ball play --game gateball`: the game on the board until the player
/// quits. Errors are the terminal's (not a terminal, raw mode refused, a
/// failed write); the terminal is restored in every case.
pub fn run(config: GateballPlayConfig) -> std::io::Result<()> {
    let mut app = new_app(&config);
    let worker = if config.seats.iter().any(|s| s.is_bot()) {
        Some(BotWorker::spawn(config.game.clone())?)
    } else {
        None
    };
    event_loop(&mut app, worker.as_ref(), config.delay)
}

/// Feeds one terminal event to the app: keys as they are, mouse clicks
/// mapped through the layout of a screen of size `area`. On a screen too
/// small to draw the court only quitting is possible, so nothing is
/// chosen blind.
pub fn handle_event(app: &mut App, event: &TermEvent, area: Rect) {
    let screen = view::layout(area, app);
    match event {
        TermEvent::Key(k) if k.kind != KeyEventKind::Release => {
            if !screen.too_small {
                return app.key(*k);
            }
            let ctrl_c =
                k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL);
            if app.dialog().is_some() {
                if matches!(k.code, KeyCode::Char('y' | 'n' | 'q') | KeyCode::Esc) || ctrl_c {
                    app.key(*k);
                }
            } else if k.code == KeyCode::Char('q') || ctrl_c {
                app.request_quit();
            }
        }
        TermEvent::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if let Some(s) = view::hit(&screen, m.column, m.row) {
                    app.click_space(s);
                }
            }
            MouseEventKind::ScrollUp => app.scroll_log(3),
            MouseEventKind::ScrollDown => app.scroll_log(-3),
            _ => {}
        },
        _ => {}
    }
}

fn event_loop(app: &mut App, worker: Option<&BotWorker>, delay: Duration) -> std::io::Result<()> {
    let (_guard, mut terminal) = TerminalGuard::enter()?;
    let mut asked: Option<u64> = None;
    let mut answer: Option<(u64, Action, SplitMix64)> = None;
    let mut version = app.version();
    let mut changed_at = Instant::now();
    loop {
        if app.version() != version {
            version = app.version();
            changed_at = Instant::now();
        }
        terminal.draw(|f| view::draw(f, app))?;
        if app.should_quit() {
            return Ok(());
        }
        if let Some(req) = app.bot_request()
            && asked != Some(req.version)
            && let Some(w) = worker
        {
            asked = Some(req.version);
            if !w.ask(req) {
                app.bot_failed("its thread has ended");
            }
        }
        if let Some((v, a, rng)) = answer
            && changed_at.elapsed() >= delay
        {
            answer = None;
            app.bot_answer(v, a, rng);
            continue;
        }
        let timeout = match answer {
            Some(_) => delay.saturating_sub(changed_at.elapsed()),
            None if asked.is_some() => Duration::from_millis(30),
            None => Duration::from_millis(500),
        };
        if event::poll(timeout)? {
            let ev = event::read()?;
            let size = terminal.size()?;
            handle_event(app, &ev, Rect::new(0, 0, size.width, size.height));
        }
        if let Some(w) = worker {
            while let Ok(reply) = w.replies.try_recv() {
                match reply {
                    Reply::Action(v, a, rng) => {
                        if asked == Some(v) {
                            asked = None;
                        }
                        answer = Some((v, a, rng));
                    }
                    Reply::Failed(why) => {
                        app.bot_failed(&why);
                        terminal.clear()?;
                    }
                }
            }
        }
        // A request answered while a dialog paused the game is asked again.
        if app.bot_request().is_none() {
            asked = None;
        }
    }
}

// ---- the bot thread ----

enum Reply {
    Action(u64, Action, SplitMix64),
    Failed(String),
}

/// The bots on a thread of their own: asked with a request (position,
/// level, RNG), it answers with the action and the RNG after it.
struct BotWorker {
    requests: Sender<app::BotRequest>,
    replies: Receiver<Reply>,
}

impl BotWorker {
    fn spawn(game: Gateball) -> std::io::Result<BotWorker> {
        let (requests, rx) = channel::<app::BotRequest>();
        let (tx, replies) = channel();
        std::thread::Builder::new()
            .name(format!(
                "gateball{}",
                crate::tui::terminal::BOT_THREAD_SUFFIX
            ))
            .spawn(move || {
                for req in rx {
                    if req.position.is_over() {
                        continue;
                    }
                    let chosen =
                        std::panic::catch_unwind(AssertUnwindSafe(|| App::bot_choose(&game, &req)));
                    let reply = match chosen {
                        Ok((a, rng)) => Reply::Action(req.version, a, rng),
                        Err(p) => {
                            let why = crate::tui::terminal::panic_reason(p.as_ref());
                            let _ = tx.send(Reply::Failed(format!("the bot panicked: {why}")));
                            return;
                        }
                    };
                    if tx.send(reply).is_err() {
                        return;
                    }
                }
            })?;
        Ok(BotWorker { requests, replies })
    }

    /// Sends a request; false if the thread is gone.
    fn ask(&self, req: app::BotRequest) -> bool {
        self.requests.send(req).is_ok()
    }
}
