//! The event loop: the terminal through `terminal.rs`, keys and clicks
//! into the app, and the bot seats on a worker thread (`shell::bots`), so
//! the board stays responsive (Ctrl-C, undo) while a slow bot searches.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;

use super::app::{App, Dialog};
use super::board::Board;
use super::layout::{Hit, hit, layout};
use super::terminal::TerminalGuard;
use crate::bots::Evaluate;
use crate::shell::bots::{Reply, Worker};

/// Feeds one terminal event to the app: keys as they are, mouse clicks
/// mapped through the layout of a screen of size `area`. On a screen too
/// small to draw the board only quitting is possible, so nothing can be
/// chosen blind.
pub fn handle_event<G: Board>(app: &mut App<G>, event: &Event, area: Rect) {
    let screen = layout(area, app);
    match event {
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            if !screen.too_small {
                return app.key(*k);
            }
            let ctrl_c =
                k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL);
            match app.dialog() {
                Some(Dialog::ConfirmQuit) => {
                    if matches!(k.code, KeyCode::Char('y' | 'n') | KeyCode::Esc) {
                        app.key(*k);
                    }
                }
                Some(Dialog::Notice { .. } | Dialog::Help) => app.close_dialog(),
                _ if k.code == KeyCode::Char('q') || ctrl_c => {
                    app.close_dialog();
                    app.request_quit();
                }
                _ => {}
            }
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => match hit(&screen, app, m.column, m.row) {
                Some(Hit::Cell(c)) => app.click_cell(c),
                Some(Hit::Option(i)) => app.click_option(i),
                Some(Hit::Item(label)) => app.click_item(&label),
                None => {}
            },
            MouseEventKind::ScrollUp => app.scroll_log(3),
            MouseEventKind::ScrollDown => app.scroll_log(-3),
            _ => {}
        },
        _ => {}
    }
}

/// The least time between two redraws while bots play without a pause:
/// the actions between them are played unseen but logged, so that a
/// `--delay 0` game goes as fast as the engine, not one action a frame.
const FRAME: Duration = Duration::from_millis(40);

/// Runs the board until the player quits. `delay` is the least time
/// between two bot actions, so that a person can follow them.
pub fn run<G: Board + Evaluate>(app: &mut App<G>, delay: Duration) -> Result<(), String> {
    let worker = if app.session().seats().iter().any(|s| s.is_bot()) && !app.session().is_replay() {
        Some(Worker::spawn(app.session().deal().clone())?)
    } else {
        None
    };
    let (_guard, mut terminal) = TerminalGuard::enter().map_err(|e| match e.kind() {
        std::io::ErrorKind::Other => e.to_string(),
        _ => format!("cannot set up the terminal: {e}"),
    })?;
    let io = |e: std::io::Error| format!("terminal: {e}");
    let mut asked: Option<u64> = None;
    let mut answer: Option<(u64, G::Action)> = None;
    let mut version = app.session().version();
    let mut changed_at = Instant::now();
    let mut drawn_at: Option<Instant> = None;
    // The bot thread has stopped: nothing to wait for on its channel.
    let mut dead = false;
    loop {
        if app.session().version() != version {
            version = app.session().version();
            changed_at = Instant::now();
        }
        // While a bot is asked or answered, a redraw waits for its frame;
        // otherwise (a person to move, a pause) the screen is drawn now.
        let bots_busy = asked.is_some() || answer.is_some();
        if !bots_busy || drawn_at.is_none_or(|t| t.elapsed() >= FRAME) || app.should_quit() {
            terminal.draw(|f| super::draw::draw(f, app)).map_err(io)?;
            drawn_at = Some(Instant::now());
        }
        if app.should_quit() {
            return Ok(());
        }
        if let Some(req) = app.bot_request()
            && asked != Some(req.version)
            && let Some(w) = &worker
        {
            asked = Some(req.version);
            if !w.ask(req) {
                dead = true;
                app.bot_failed("its thread has ended");
            }
        }
        if let Some((v, a)) = answer
            && changed_at.elapsed() >= delay
            && app.dialog().is_none()
        {
            answer = None;
            app.bot_played(v, a);
            continue;
        }
        let waiting_bot = asked.is_some() && answer.is_none() && !dead;
        let timeout = match answer {
            Some(_) => delay.saturating_sub(changed_at.elapsed()),
            // The bot's reply is waited for below, on its channel.
            None if waiting_bot => Duration::ZERO,
            None => Duration::from_millis(500),
        };
        if event::poll(timeout).map_err(io)? {
            let ev = event::read().map_err(io)?;
            let size = terminal.size().map_err(io)?;
            handle_event(app, &ev, Rect::new(0, 0, size.width, size.height));
        }
        if let Some(w) = &worker {
            // Until the next frame is due, at most: keys are read again
            // then, however long the bot thinks.
            let wait = if waiting_bot {
                FRAME
                    .saturating_sub(drawn_at.map_or(FRAME, |t| t.elapsed()))
                    .max(Duration::from_millis(1))
            } else {
                Duration::ZERO
            };
            let first = w.reply_within(wait);
            for reply in first.into_iter().chain(std::iter::from_fn(|| w.reply())) {
                match reply {
                    Reply::Chose { version, action } => {
                        if asked == Some(version) {
                            asked = None;
                        }
                        answer = Some((version, action));
                    }
                    Reply::Failed(why) => {
                        dead = true;
                        app.bot_failed(&why);
                        // Whatever the dying thread printed is gone on the
                        // next full redraw.
                        terminal.clear().map_err(io)?;
                    }
                }
            }
        }
        // A request the game moved past (an undo) is asked again when it
        // comes back.
        if app.bot_request().is_none_or(|r| Some(r.version) != asked) && answer.is_none() {
            asked = None;
        }
    }
}
