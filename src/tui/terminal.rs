//! The terminal the board runs in: raw mode on the alternate screen with
//! mouse capture, restored exactly once — on return, on error, on
//! unwinding, and by a panic hook before a panic's message is printed. A
//! panicking bot thread (named `…-bot`) is reported on its board instead,
//! since its message would only garble the screen.

use std::io::{IsTerminal, Stdout, stdout};
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use crate::shell::bots::BOT_THREAD_SUFFIX;

/// Set while the terminal is in raw mode on the alternate screen.
static RAW: AtomicBool = AtomicBool::new(false);

fn restore_terminal() {
    if RAW.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
        let _ = execute!(
            stdout(),
            DisableMouseCapture,
            LeaveAlternateScreen,
            ratatui::crossterm::cursor::Show
        );
    }
}

fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let bot = std::thread::current()
                .name()
                .is_some_and(|n| n.ends_with(BOT_THREAD_SUFFIX));
            if bot && RAW.load(Ordering::SeqCst) {
                return;
            }
            restore_terminal();
            previous(info);
        }));
    });
}

/// Restores the terminal when dropped.
pub struct TerminalGuard;

impl TerminalGuard {
    pub fn enter() -> std::io::Result<(TerminalGuard, Terminal<CrosstermBackend<Stdout>>)> {
        if !stdout().is_terminal() || !std::io::stdin().is_terminal() {
            return Err(std::io::Error::other(
                "the board needs a terminal: standard input and output must both be one",
            ));
        }
        install_panic_hook();
        enable_raw_mode()?;
        RAW.store(true, Ordering::SeqCst);
        let guard = TerminalGuard;
        execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
        let terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
        Ok((guard, terminal))
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}
