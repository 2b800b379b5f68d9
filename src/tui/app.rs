//! The terminal board's state around a session: what is highlighted, the
//! cursor, dialogs, the message line, the log's scroll; and what every
//! key and click does. No terminal: drawing (`draw.rs`) only reads it and
//! the event loop (`run.rs`) only feeds it, so all of it is tested
//! without one.

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::board::{Board, View};
use crate::shell::bots::BotRequest;
use crate::shell::{Done, Key, Session, Step};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dialog {
    /// The keys.
    Help,
    /// Where to save the match record; `overwrite` once warned that the
    /// file exists.
    Save { path: String, overwrite: bool },
    /// Quitting would lose unsaved actions.
    ConfirmQuit,
    /// Something to read in full (what loading a record found); any key
    /// closes it.
    Notice { title: String, lines: Vec<String> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Error,
}

pub struct App<G: Board> {
    session: Session<G>,
    highlight: usize,
    cursor: Option<G::Cell>,
    dialog: Option<Dialog>,
    message: Option<(Level, String)>,
    /// Log lines scrolled back from the newest.
    log_scroll: usize,
    quit_after_save: bool,
    quit: bool,
}

impl<G: Board> App<G> {
    pub fn new(session: Session<G>) -> App<G> {
        let cursor = session.game().cursor_start();
        let dialog = (!session.warnings().is_empty()).then(|| Dialog::Notice {
            title: " loaded, with warnings (any key closes) ".into(),
            lines: session.warnings().to_vec(),
        });
        App {
            session,
            highlight: 0,
            cursor,
            dialog,
            message: None,
            log_scroll: 0,
            quit_after_save: false,
            quit: false,
        }
    }

    // ---- what drawing reads ----

    pub fn session(&self) -> &Session<G> {
        &self.session
    }

    pub fn session_mut(&mut self) -> &mut Session<G> {
        &mut self.session
    }

    pub fn view(&self) -> View<'_, G> {
        View {
            session: &self.session,
            highlighted: self.highlighted(),
            cursor: self.cursor,
            viewer: crate::shell::Viewer::Terminal,
        }
    }

    /// The highlighted entry of the offered choices.
    pub fn highlighted(&self) -> Option<usize> {
        (self.highlight < self.session.options().len()).then_some(self.highlight)
    }

    fn highlighted_label(&self) -> Option<String> {
        self.highlighted()
            .map(|i| self.session.options()[i].label.clone())
    }

    pub fn cursor(&self) -> Option<G::Cell> {
        self.cursor
    }

    pub fn dialog(&self) -> Option<&Dialog> {
        self.dialog.as_ref()
    }

    pub fn message(&self) -> Option<(Level, &str)> {
        self.message.as_ref().map(|(l, m)| (*l, m.as_str()))
    }

    pub fn log_scroll(&self) -> usize {
        self.log_scroll
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The next step is made in a menu (no choice of it is on the board):
    /// up and down move the highlight rather than the cursor.
    pub fn menu_step(&self) -> bool {
        let o = self.session.options();
        !o.is_empty() && o.iter().all(|c| c.cell.is_none())
    }

    /// One line about the cell under the cursor.
    pub fn describe_cursor(&self) -> Option<String> {
        let c = self.cursor?;
        Some(
            self.session
                .game()
                .describe_cell(self.session.position(), c),
        )
    }

    pub fn set_message(&mut self, level: Level, msg: String) {
        self.message = Some((level, msg));
    }

    /// Closes any dialog; a pending save-and-quit is dropped with it.
    pub fn close_dialog(&mut self) {
        self.dialog = None;
        self.quit_after_save = false;
    }

    // ---- bots ----

    /// What the bot to move is asked, unless a dialog pauses the game.
    pub fn bot_request(&self) -> Option<BotRequest<G>> {
        if self.dialog.is_some() {
            return None;
        }
        self.session.bot_request()
    }

    /// A bot's answer; whether it was played (a stale one is dropped).
    pub fn bot_played(&mut self, version: u64, action: G::Action) -> bool {
        if self.dialog.is_some() {
            return false;
        }
        match self.session.bot_answer(version, action) {
            Ok(played) => {
                if played {
                    self.after_change();
                }
                played
            }
            Err(e) => {
                self.error(e);
                false
            }
        }
    }

    /// The bot could not answer: the game stays as it is, to save or undo.
    pub fn bot_failed(&mut self, why: &str) {
        self.error(format!("the bot stopped: {why}"));
    }

    // ---- input ----

    /// Handles one key press. Keys that mean nothing now are ignored.
    pub fn key(&mut self, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            // Ctrl-C means "quit" wherever it is pressed.
            if self.dialog != Some(Dialog::ConfirmQuit) {
                self.close_dialog();
                return self.request_quit();
            }
        }
        if self.dialog.is_some() {
            return self.dialog_key(key.code, ctrl);
        }
        self.message = None;
        if ctrl {
            match key.code {
                KeyCode::Char('z') => self.undo(),
                KeyCode::Char('y') => self.redo(),
                KeyCode::Char('s') => self.open_save(),
                _ => {}
            }
            return;
        }
        match key.code {
            KeyCode::Char('q') => return self.request_quit(),
            KeyCode::Char('?') => {
                self.dialog = Some(Dialog::Help);
                return;
            }
            KeyCode::PageUp => return self.scroll_log(5),
            KeyCode::PageDown => return self.scroll_log(-5),
            _ => {}
        }
        if self.session.is_replay() {
            return self.replay_key(key.code);
        }
        match key.code {
            KeyCode::Char('u') => return self.undo(),
            KeyCode::Char('r') => return self.redo(),
            KeyCode::Char('s') => return self.open_save(),
            _ => {}
        }
        if !self.session.person_to_move() {
            return;
        }
        match key.code {
            KeyCode::Esc => {
                if self.session.cancel() {
                    self.info("cancelled".into());
                }
                return self.after_change();
            }
            KeyCode::Backspace => {
                self.session.back();
                return self.after_change();
            }
            KeyCode::Enter | KeyCode::Char(' ') => return self.enter(),
            KeyCode::Tab => return self.cycle(1),
            KeyCode::BackTab => return self.cycle(-1),
            _ => {}
        }
        let shell_key = match key.code {
            KeyCode::Char(c) => Some(Key::Char(c)),
            KeyCode::Up => Some(Key::Up),
            KeyCode::Down => Some(Key::Down),
            KeyCode::Left => Some(Key::Left),
            KeyCode::Right => Some(Key::Right),
            _ => None,
        };
        let Some(k) = shell_key else { return };
        let label = self.highlighted_label();
        if let Some(step) = self.session.press(k, label.as_deref()) {
            return self.done(step);
        }
        // Not a choice: the arrows (and h j k l) move the highlight in a
        // menu, the cursor on the board.
        let arrow = match k {
            Key::Char('k') => Key::Up,
            Key::Char('j') => Key::Down,
            Key::Char('h') => Key::Left,
            Key::Char('l') => Key::Right,
            other => other,
        };
        match arrow {
            Key::Up if self.menu_step() => self.move_highlight(-1),
            Key::Down if self.menu_step() => self.move_highlight(1),
            Key::Up | Key::Down | Key::Left | Key::Right if self.cursor.is_some() => {
                self.move_cursor(arrow)
            }
            Key::Up | Key::Down | Key::Left | Key::Right => {
                self.info(format!("{}: not a choice now", k.name()))
            }
            Key::Char(c) if c.is_ascii_alphanumeric() => {
                let s = &self.session;
                let mut why = s.game().unavailable(s.position(), s.chosen().len(), k);
                match why.len() {
                    0 => self.info(format!(
                        "{c}: not a choice now (the choices list their keys)"
                    )),
                    1 => self.info(why.remove(0)),
                    _ => {
                        self.dialog = Some(Dialog::Notice {
                            title: format!(" {c}: not now (any key closes) "),
                            lines: why,
                        })
                    }
                }
            }
            Key::Char(_) => {}
        }
    }

    /// Enter: plays the action that waits; else makes the choice under
    /// the cursor, or the highlighted one.
    fn enter(&mut self) {
        if self.session.waiting().is_some() {
            let step = self.session.confirm();
            return self.done(step);
        }
        let on_cursor = self.cursor.and_then(|cur| {
            self.session
                .options()
                .iter()
                .find(|c| c.cell == Some(cur))
                .map(|c| c.label.clone())
        });
        let label = on_cursor.or_else(|| self.highlighted_label());
        if let Some(l) = label {
            let step = self.session.choose(&l);
            self.done(step);
        }
    }

    fn done(&mut self, step: Step) {
        match step {
            Ok(Done::Played) => self.log_scroll = 0,
            Ok(_) => {}
            Err(e) => self.info(e),
        }
        self.after_change();
    }

    /// After the choices or the game changed: the highlight back on the
    /// first choice, and the cursor on its cell if the cursor is not on
    /// a choice already.
    fn after_change(&mut self) {
        self.highlight = 0;
        if let Some(cur) = self.cursor
            && let Some(i) = self
                .session
                .options()
                .iter()
                .position(|c| c.cell == Some(cur))
        {
            self.highlight = i;
        }
    }

    fn cycle(&mut self, dir: isize) {
        let n = self.session.options().len();
        if n == 0 {
            return;
        }
        let on = self.cursor.and_then(|cur| {
            self.session
                .options()
                .iter()
                .position(|c| c.cell == Some(cur))
        });
        let from = on.unwrap_or(self.highlight) as isize;
        let next = if on.is_none() && self.cursor.is_some() && dir > 0 {
            0
        } else {
            (from + dir).rem_euclid(n as isize) as usize
        };
        self.highlight = next;
        if let Some(cell) = self.session.options()[next].cell
            && self.cursor.is_some()
        {
            self.cursor = Some(cell);
        }
    }

    fn move_highlight(&mut self, dir: isize) {
        let n = self.session.options().len();
        if n > 0 {
            self.highlight = (self.highlight as isize + dir).clamp(0, n as isize - 1) as usize;
        }
    }

    fn move_cursor(&mut self, k: Key) {
        let Some(cur) = self.cursor else { return };
        if let Some(next) = self.session.game().cursor_move(cur, k) {
            self.cursor = Some(next);
            if let Some(i) = self
                .session
                .options()
                .iter()
                .position(|c| c.cell == Some(next))
            {
                self.highlight = i;
            }
        }
    }

    fn replay_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Right | KeyCode::Char('l' | 'n' | ' ') | KeyCode::Enter => {
                self.session.step(true);
            }
            KeyCode::Left | KeyCode::Char('h' | 'p') | KeyCode::Backspace => {
                self.session.step(false);
            }
            KeyCode::Home | KeyCode::Char('g') => while self.session.step(false) {},
            KeyCode::End | KeyCode::Char('G') => while self.session.step(true) {},
            KeyCode::Esc => self.quit = true,
            _ => {}
        }
    }

    fn dialog_key(&mut self, code: KeyCode, ctrl: bool) {
        let Some(dialog) = self.dialog.clone() else {
            return;
        };
        match dialog {
            Dialog::Help | Dialog::Notice { .. } => self.dialog = None,
            Dialog::ConfirmQuit => match code {
                KeyCode::Char('y') if !ctrl => self.quit = true,
                KeyCode::Char('s') if !ctrl => {
                    self.quit_after_save = true;
                    self.open_save();
                }
                KeyCode::Char('n') | KeyCode::Esc => self.dialog = None,
                _ => {}
            },
            Dialog::Save { mut path, .. } => match code {
                KeyCode::Esc => self.close_dialog(),
                KeyCode::Enter => self.save_typed(),
                KeyCode::Backspace => {
                    path.pop();
                    self.dialog = Some(Dialog::Save {
                        path,
                        overwrite: false,
                    });
                }
                KeyCode::Char(c) if !ctrl && !c.is_control() && path.len() < 4096 => {
                    path.push(c);
                    self.dialog = Some(Dialog::Save {
                        path,
                        overwrite: false,
                    });
                }
                _ => {}
            },
        }
    }

    /// A click on a board cell: the cursor goes there, and the flow makes
    /// whatever choice the cell stands for.
    pub fn click_cell(&mut self, cell: G::Cell) {
        if self.dialog.is_some() {
            return;
        }
        self.message = None;
        if self.cursor.is_some() {
            self.cursor = Some(cell);
        }
        if !self.session.person_to_move() {
            return;
        }
        let label = self.highlighted_label();
        let step = self.session.click(cell, label.as_deref());
        if let Err(why) = &step {
            let what = self
                .session
                .game()
                .describe_cell(self.session.position(), cell);
            self.info(format!("{what} · {why}"));
            return self.after_change();
        }
        self.done(step);
    }

    /// A click on entry `i` of the listed choices.
    pub fn click_option(&mut self, i: usize) {
        if self.dialog.is_some() || !self.session.person_to_move() {
            return;
        }
        self.message = None;
        if let Some(c) = self.session.options().get(i) {
            let label = c.label.clone();
            let step = self.session.choose(&label);
            self.done(step);
        }
    }

    /// A click on a line of the game's own panel that stands for a choice.
    pub fn click_item(&mut self, label: &str) {
        if self.dialog.is_some() || !self.session.person_to_move() {
            return;
        }
        self.message = None;
        let step = self.session.choose(label);
        self.done(step);
    }

    /// Scrolls the log `lines` back (negative: forward).
    pub fn scroll_log(&mut self, lines: i32) {
        self.log_scroll = if lines >= 0 {
            self.log_scroll.saturating_add(lines as usize).min(100_000)
        } else {
            self.log_scroll
                .saturating_sub(lines.unsigned_abs() as usize)
        };
    }

    // ---- undo, redo, save, quit ----

    pub fn undo(&mut self) {
        match self.session.undo() {
            Ok(n) => {
                self.info(format!("undid {n} action{}; r redoes", plural(n)));
                self.log_scroll = 0;
            }
            Err(e) => self.info(e),
        }
        self.after_change();
    }

    pub fn redo(&mut self) {
        match self.session.redo() {
            Ok(n) => self.info(format!("redid {n} action{}", plural(n))),
            Err(e) => self.info(e),
        }
        self.after_change();
    }

    /// Where a game is saved unless the player types another path.
    pub fn default_save_path() -> String {
        format!("{}-match.txt", G::NAME)
    }

    fn open_save(&mut self) {
        let path = self
            .session
            .save_path()
            .map_or_else(Self::default_save_path, |p| p.display().to_string());
        self.dialog = Some(Dialog::Save {
            path,
            overwrite: false,
        });
    }

    fn save_typed(&mut self) {
        let Some(Dialog::Save { path, overwrite }) = self.dialog.clone() else {
            return;
        };
        if path.trim().is_empty() {
            return self.error("type a file name".into());
        }
        let target = PathBuf::from(&path);
        let ours = self.session.save_path() == Some(target.as_path());
        if target.exists() && !ours && !overwrite {
            self.dialog = Some(Dialog::Save {
                path,
                overwrite: true,
            });
            return self.error(format!(
                "{} exists: Enter again overwrites it",
                target.display()
            ));
        }
        match self.save_to(&target) {
            Ok(()) => {
                self.dialog = None;
                if self.quit_after_save {
                    self.quit = true;
                }
            }
            Err(e) => self.error(e),
        }
    }

    /// Writes the match record to `path`.
    pub fn save_to(&mut self, path: &std::path::Path) -> Result<(), String> {
        self.session.save(path)?;
        let n = self.session.played().len();
        self.info(format!(
            "saved {n} action{} to {}",
            plural(n),
            path.display()
        ));
        Ok(())
    }

    /// `q` or Ctrl-C: quits at once when nothing would be lost, else asks.
    pub fn request_quit(&mut self) {
        if self.session.is_dirty() {
            self.dialog = Some(Dialog::ConfirmQuit);
        } else {
            self.quit = true;
        }
    }

    fn info(&mut self, msg: String) {
        self.message = Some((Level::Info, msg));
    }

    fn error(&mut self, msg: String) {
        self.message = Some((Level::Error, msg));
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
