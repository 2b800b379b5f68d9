//! The line of play: every action with the position before and after it,
//! its events and any script failure it caused, and how far along the
//! line the game stands. Undo and redo move along the line; a new action
//! cuts what lay ahead, as in any editor.
//!
//! Every action enters through [`Game::play`], the checked path: a board
//! offers only actions of the legal list, and this is the second line
//! that makes an illegal action impossible to record.

use crate::kernel::game::Game;

/// One action played.
#[derive(Clone, Debug)]
pub struct Played<G: Game> {
    pub action: G::Action,
    pub before: G::Position,
    pub after: G::Position,
    pub events: Vec<G::Event>,
    /// Script failures reported while it was played and while the next
    /// legal list was made (`Game::take_errors`).
    pub errors: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct History<G: Game> {
    start: G::Position,
    line: Vec<Played<G>>,
    /// How many actions of `line` stand played; the rest can be redone.
    now: usize,
}

impl<G: Game> History<G> {
    pub fn new(start: G::Position) -> History<G> {
        History {
            start,
            line: Vec::new(),
            now: 0,
        }
    }

    pub fn start(&self) -> &G::Position {
        &self.start
    }

    /// The position now.
    pub fn position(&self) -> &G::Position {
        match self.now {
            0 => &self.start,
            n => &self.line[n - 1].after,
        }
    }

    /// The actions that stand played, in order.
    pub fn played(&self) -> &[Played<G>] {
        &self.line[..self.now]
    }

    /// The actions undone, in the order they would be redone.
    pub fn ahead(&self) -> &[Played<G>] {
        &self.line[self.now..]
    }

    /// Plays `action` through the game's checked `play`, dropping what
    /// lay ahead.
    pub fn play(&mut self, game: &G, action: G::Action) -> Result<&Played<G>, String> {
        let before = self.position().clone();
        let mut after = before.clone();
        let mut events = Vec::new();
        game.play(&mut after, action, &mut events)?;
        let mut errors = Vec::new();
        errors.extend(game.take_errors());
        self.line.truncate(self.now);
        self.line.push(Played {
            action,
            before,
            after,
            events,
            errors,
        });
        self.now += 1;
        Ok(&self.line[self.now - 1])
    }

    /// An action replayed elsewhere (a record checked by `lab::replay`),
    /// taken as it is.
    pub fn push(&mut self, played: Played<G>) {
        self.line.truncate(self.now);
        self.line.push(played);
        self.now += 1;
    }

    /// Notes a script failure on the last action (or nowhere before the
    /// first, where the caller keeps it).
    pub fn note_error(&mut self, error: String) -> Result<(), String> {
        match self.now {
            0 => Err(error),
            n => {
                self.line[n - 1].errors.push(error);
                Ok(())
            }
        }
    }

    pub fn undo(&mut self) -> bool {
        if self.now == 0 {
            return false;
        }
        self.now -= 1;
        true
    }

    pub fn redo(&mut self) -> bool {
        if self.now == self.line.len() {
            return false;
        }
        self.now += 1;
        true
    }
}
