//! The terminal board of any game on ratatui's `TestBackend`, driven
//! through the events the terminal delivers (keys, mouse clicks), as
//! `tests/tui.rs` and `tests/tui_gateball.rs` use it.

use ball::bots::Evaluate;
use ball::shell::bots::Answerer;
use ball::tui::{self, App, Board as GameBoard, layout};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

pub struct Board<G: GameBoard + Evaluate> {
    pub app: App<G>,
    pub terminal: Terminal<TestBackend>,
    /// The bots, as the board's bot thread keeps them.
    pub bots: Answerer<G>,
}

impl<G: GameBoard + Evaluate> Board<G> {
    pub fn new(app: App<G>, w: u16, h: u16) -> Board<G> {
        Board {
            app,
            terminal: Terminal::new(TestBackend::new(w, h)).unwrap(),
            bots: Answerer::default(),
        }
    }

    pub fn area(&self) -> Rect {
        let s = self.terminal.size().unwrap();
        Rect::new(0, 0, s.width, s.height)
    }

    pub fn event(&mut self, ev: Event) {
        let area = self.area();
        tui::handle_event(&mut self.app, &ev, area);
    }

    pub fn key(&mut self, code: KeyCode) {
        self.event(Event::Key(KeyEvent::new_with_kind(
            code,
            KeyModifiers::NONE,
            KeyEventKind::Press,
        )));
    }

    pub fn ctrl(&mut self, c: char) {
        self.event(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::CONTROL,
        )));
    }

    pub fn keys(&mut self, text: &str) {
        for c in text.chars() {
            self.key(KeyCode::Char(c));
        }
    }

    pub fn click_at(&mut self, column: u16, row: u16) {
        self.event(Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }));
    }

    /// Clicks a cell where the layout draws it.
    pub fn click(&mut self, cell: G::Cell) {
        let screen = layout::layout(self.area(), &self.app);
        let (x, y) = self
            .app
            .session()
            .game()
            .cell_place(screen.board, cell)
            .expect("on the board");
        self.click_at(x + 1, y);
    }

    /// Clicks the listed choice labelled `label`.
    pub fn click_option(&mut self, label: &str) {
        let screen = layout::layout(self.area(), &self.app);
        let i = self
            .app
            .session()
            .options()
            .iter()
            .position(|c| c.label == label)
            .unwrap_or_else(|| panic!("{label} is not offered"));
        let (r, _) = screen.options.iter().find(|(_, j)| *j == i).unwrap();
        self.click_at(r.x + 2, r.y);
    }

    pub fn screen(&mut self) -> String {
        self.terminal
            .draw(|f| tui::draw::draw(f, &self.app))
            .unwrap();
        self.terminal.backend().to_string()
    }

    /// The text drawn in `r`, its lines joined by spaces, borders and
    /// runs of blanks squeezed out: what a wrapped text says.
    pub fn text_in(&mut self, r: Rect) -> String {
        self.screen();
        let buf = self.terminal.backend().buffer();
        let mut words = Vec::new();
        for y in r.y..r.y + r.height {
            let line: String = (r.x..r.x + r.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect();
            words.extend(
                line.split(|c: char| c.is_whitespace() || "│┌┐└┘─".contains(c))
                    .filter(|w| !w.is_empty())
                    .map(str::to_string),
            );
        }
        words.join(" ")
    }

    /// The choices box's text (prompt, the action that waits, choices).
    pub fn choices_text(&mut self) -> String {
        let r = layout::layout(self.area(), &self.app).choices;
        self.text_in(r)
    }

    /// The log's text.
    pub fn log_text(&mut self) -> String {
        let r = layout::layout(self.area(), &self.app).log;
        self.text_in(r)
    }

    pub fn resize(&mut self, w: u16, h: u16) {
        self.terminal.backend_mut().resize(w, h);
        self.terminal.resize(Rect::new(0, 0, w, h)).unwrap();
    }

    /// The bot to move plays one action, on this thread, exactly as the
    /// board's bot thread would answer. False when no bot is to move.
    pub fn bot_step(&mut self) -> bool {
        let Some(req) = self.app.bot_request() else {
            return false;
        };
        let a = self.bots.answer(self.app.session().game(), &req).unwrap();
        self.app.bot_played(req.version, a)
    }

    pub fn labels(&self) -> Vec<String> {
        self.app
            .session()
            .options()
            .iter()
            .map(|c| c.label.clone())
            .collect()
    }
}

/// The screen without its two footer lines (message and keys).
pub fn board_part(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    lines[..lines.len() - 2].join("\n")
}
