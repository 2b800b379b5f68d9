//! A game on a board, apart from any front end: the line of play, the
//! seats, the choice flow of the position on the board, undo and redo,
//! the bot protocol, match records and replays. The terminal board and a
//! web board drive the same session: they only show it and feed it
//! choices, keys, clicks and bot answers.

use std::path::{Path, PathBuf};

use super::bots::{BotRequest, request_seed};
use super::deal::{Deal, Seat};
use super::flow::{Choice, Chooser, Flow, Key};
use super::history::{History, Played};
use super::record;
use crate::kernel::record::Record;

/// What a choice, a key or a click did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    /// A choice was made; more are to come.
    Chose,
    /// The choices name an action, which waits to be confirmed.
    Waiting,
    /// An action was played.
    Played,
}

/// `Err`: why nothing happened, in words for the person.
pub type Step = Result<Done, String>;

pub struct Session<G: Flow> {
    deal: Deal<G>,
    game: G,
    created: Vec<G::Event>,
    /// Script failures before the first action.
    start_errors: Vec<String>,
    history: History<G>,
    seats: [Seat; 2],
    replay: bool,
    chooser: Chooser<G::Action, G::Cell>,
    /// The actions as last saved or loaded.
    saved: Vec<G::Action>,
    save_path: Option<PathBuf>,
    warnings: Vec<String>,
    version: u64,
}

impl<G: Flow> Session<G> {
    /// A new game dealt from `seed`.
    pub fn new(ruleset: G::Ruleset, seats: [Seat; 2], seed: u64) -> Result<Session<G>, String> {
        Session::dealt(
            Deal {
                ruleset,
                seed,
                start: None,
            },
            seats,
        )
    }

    /// A game from `pos` (a board set up by hand, a test): it is recorded
    /// with a `start:` header.
    pub fn from_position(
        ruleset: G::Ruleset,
        game: &G,
        pos: &G::Position,
        seats: [Seat; 2],
    ) -> Result<Session<G>, String> {
        Session::dealt(
            Deal {
                ruleset,
                seed: 0,
                start: Some(record::start_line(game, pos)),
            },
            seats,
        )
    }

    fn dealt(deal: Deal<G>, seats: [Seat; 2]) -> Result<Session<G>, String> {
        let (game, start, created) = deal.game()?;
        let start_errors = game.take_errors();
        Ok(Session::assemble(
            deal,
            game,
            created,
            start_errors,
            History::new(start),
            seats,
        ))
    }

    fn assemble(
        deal: Deal<G>,
        game: G,
        created: Vec<G::Event>,
        start_errors: Vec<String>,
        history: History<G>,
        seats: [Seat; 2],
    ) -> Session<G> {
        let saved = history.played().iter().map(|p| p.action).collect();
        let mut s = Session {
            deal,
            game,
            created,
            start_errors,
            history,
            seats,
            replay: false,
            chooser: Chooser::empty(),
            saved,
            save_path: None,
            warnings: Vec::new(),
            version: 0,
        };
        s.refresh();
        s
    }

    /// A match record replayed under `ruleset` to where it stands, to go
    /// on playing: finished if the record's game was. `seats` replaces a
    /// record's seat where given.
    pub fn load(
        record: &Record,
        ruleset: G::Ruleset,
        seats: [Option<Seat>; 2],
    ) -> Result<Session<G>, String> {
        let l = record::load::<G>(record, ruleset)?;
        let mut chosen = l.seats;
        for (s, given) in seats.into_iter().enumerate() {
            if let Some(given) = given {
                chosen[s] = given;
            }
        }
        let mut s = Session::assemble(l.deal, l.game, l.created, Vec::new(), l.history, chosen);
        s.warnings = l.warnings;
        Ok(s)
    }

    /// A viewer of a match record: at its start, every action ahead.
    pub fn replay(record: &Record, ruleset: G::Ruleset) -> Result<Session<G>, String> {
        let mut s = Session::load(record, ruleset, [None, None])?;
        while s.history.undo() {}
        s.replay = true;
        s.changed();
        Ok(s)
    }

    // ---- what front ends read ----

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn ruleset(&self) -> &G::Ruleset {
        &self.deal.ruleset
    }

    pub fn deal(&self) -> &Deal<G> {
        &self.deal
    }

    pub fn position(&self) -> &G::Position {
        self.history.position()
    }

    pub fn history(&self) -> &History<G> {
        &self.history
    }

    /// The actions that stand played.
    pub fn played(&self) -> &[Played<G>] {
        self.history.played()
    }

    /// The events of the game's creation (Gateball's coin and first play).
    pub fn created(&self) -> &[G::Event] {
        &self.created
    }

    pub fn start_errors(&self) -> &[String] {
        &self.start_errors
    }

    pub fn seats(&self) -> &[Seat; 2] {
        &self.seats
    }

    pub fn seat(&self, seat: usize) -> &Seat {
        &self.seats[seat]
    }

    pub fn is_replay(&self) -> bool {
        self.replay
    }

    /// What loading found worth saying (other rules, another result).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Changes with every action played, undone or redone: a bot's
    /// answer must bring back the version it was asked at.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Continues the version counter past `version` (a server's game
    /// reloaded from its store: a request made before the restart is
    /// then stale).
    pub fn continue_after(&mut self, version: u64) {
        self.version = self.version.max(version.saturating_add(1));
    }

    /// The legal list of the position on the board.
    pub fn legal(&self) -> Vec<G::Action> {
        let mut v = Vec::new();
        self.game.legal_into(self.position(), &mut v);
        v
    }

    /// The seat to move; `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        self.game.to_move(self.position())
    }

    /// A person at the board chooses now.
    pub fn person_to_move(&self) -> bool {
        !self.replay && self.to_move().is_some_and(|s| !self.seats[s].is_bot())
    }

    /// Unsaved actions would be lost by quitting.
    pub fn is_dirty(&self) -> bool {
        !self.replay
            && !self
                .played()
                .iter()
                .map(|p| p.action)
                .eq(self.saved.iter().copied())
    }

    pub fn save_path(&self) -> Option<&Path> {
        self.save_path.as_deref()
    }

    pub fn set_save_path(&mut self, path: PathBuf) {
        self.save_path = Some(path);
    }

    // ---- the choice flow ----

    /// What may be chosen next (empty unless a person is to move).
    pub fn options(&self) -> &[Choice<G::Cell>] {
        self.chooser.options()
    }

    pub fn chosen(&self) -> &[Choice<G::Cell>] {
        self.chooser.chosen()
    }

    /// The flow of the position on the board.
    pub fn chooser(&self) -> &Chooser<G::Action, G::Cell> {
        &self.chooser
    }

    /// The action the choices name, not played yet: it waits for a
    /// confirmation, or more choices could make a longer one.
    pub fn waiting(&self) -> Option<G::Action> {
        self.chooser.whole()
    }

    /// The choices of `action` in `pos`, e.g. to mark the squares of the
    /// last action.
    pub fn choices_of(&self, pos: &G::Position, action: G::Action) -> Vec<Choice<G::Cell>> {
        self.game.choices(pos, action)
    }

    /// Makes the offered choice labelled `label`; plays the action once
    /// the choices name one that needs nothing more.
    pub fn choose(&mut self, label: &str) -> Step {
        self.person()?;
        if !self.chooser.push(label) {
            return Err(format!("`{label}` is not a choice now"));
        }
        self.settle()
    }

    /// Plays the action the choices name.
    pub fn confirm(&mut self) -> Step {
        self.person()?;
        match self.waiting() {
            Some(a) => self.play(a).map(|_| Done::Played),
            None => Err("nothing is chosen to play yet".into()),
        }
    }

    /// Takes back the last choice; false when none was made.
    pub fn back(&mut self) -> bool {
        self.chooser.pop().is_some()
    }

    /// Drops every choice made; the game is untouched.
    pub fn cancel(&mut self) -> bool {
        let any = !self.chooser.chosen().is_empty();
        self.chooser.clear();
        any
    }

    /// A key, by the rules of [`Chooser::key_path`]; `None` when it makes
    /// no choice now.
    pub fn press(&mut self, key: Key, highlighted: Option<&str>) -> Option<Step> {
        if !self.person_to_move() {
            return None;
        }
        let path = self.chooser.key_path(key, highlighted)?;
        Some(self.go(&path))
    }

    /// A click on a board cell, by the rules of [`Chooser::cell_path`].
    /// A click on the cell of the last choice of an action that waits
    /// confirms it.
    pub fn click(&mut self, cell: G::Cell, highlighted: Option<&str>) -> Step {
        self.person()?;
        match self.chooser.cell_path(cell, highlighted) {
            Ok(Some(path)) => self.go(&path),
            Ok(None) => Err("not a choice now".into()),
            Err(ways) => Err(format!(
                "{} lead there: choose one first",
                ways.join(" or ")
            )),
        }
    }

    fn go(&mut self, path: &[String]) -> Step {
        let same = self
            .chooser
            .chosen()
            .iter()
            .map(|c| c.label.as_str())
            .eq(path.iter().map(String::as_str));
        if same && self.waiting().is_some() {
            return self.confirm();
        }
        if !self.chooser.set(path) {
            return Err("not a choice now".into());
        }
        self.settle()
    }

    fn settle(&mut self) -> Step {
        match self.chooser.whole() {
            Some(a)
                if self.chooser.options().is_empty() && !self.game.confirm(self.position(), a) =>
            {
                self.play(a).map(|_| Done::Played)
            }
            Some(_) => Ok(Done::Waiting),
            None => Ok(Done::Chose),
        }
    }

    fn person(&self) -> Result<(), String> {
        if self.replay {
            return Err("this is a replay".into());
        }
        match self.to_move() {
            None => Err("the game is over".into()),
            Some(s) if self.seats[s].is_bot() => Err(format!("{} is a bot's seat", G::SEATS[s])),
            Some(_) => Ok(()),
        }
    }

    /// What the person is asked now, or what the board is doing.
    pub fn prompt(&self) -> String {
        if self.replay {
            let n = self.played().len();
            let total = n + self.history.ahead().len();
            return format!("replay: action {n} of {total}");
        }
        let pos = self.position();
        let Some(seat) = self.to_move() else {
            return format!("game over: {}", self.result_text());
        };
        if let Seat::Bot(spec) = &self.seats[seat] {
            return format!("{} ({spec} bot) is playing", G::SEATS[seat]);
        }
        match self.chooser.matching().next() {
            Some((a, _)) => self.game.prompt(pos, a, self.chooser.chosen().len()),
            None => "nothing to choose".into(),
        }
    }

    /// `ATK wins, ATK 3 - DEF 1`; the score while the game goes on.
    pub fn result_text(&self) -> String {
        let pos = self.position();
        match self.game.outcome(pos) {
            Some(o) => {
                let how = if o.end.is_named() {
                    format!(" ({})", o.end.name)
                } else {
                    String::new()
                };
                match o.winner() {
                    Some(w) => format!("{} wins{how}, {}", G::SEATS[w], o.score),
                    None => format!("draw{how}, {}", o.score),
                }
            }
            None => self.game.score_text(pos),
        }
    }

    // ---- playing, undo, redo ----

    /// Plays a legal action (the game's checked `play` refuses any other).
    pub fn play(&mut self, action: G::Action) -> Result<(), String> {
        self.history.play(&self.game, action)?;
        self.changed();
        Ok(())
    }

    /// Takes back the last action of a person, and every bot action after
    /// it, so that it is a person's turn again. Returns how many.
    pub fn undo(&mut self) -> Result<usize, String> {
        if self.replay {
            return Err("this is a replay: ← steps back".into());
        }
        let played = self.history.played();
        let Some(mut k) = played.len().checked_sub(1) else {
            return Err("nothing to undo".into());
        };
        while self.is_bot_at(&played[k].before) {
            if k == 0 {
                return Err("nothing of yours to undo".into());
            }
            k -= 1;
        }
        let n = played.len() - k;
        for _ in 0..n {
            self.history.undo();
        }
        self.changed();
        Ok(n)
    }

    /// Plays again the last action undone, and the bot actions that
    /// followed it. Returns how many.
    pub fn redo(&mut self) -> Result<usize, String> {
        if self.replay {
            return Err("this is a replay: → steps on".into());
        }
        let mut n = 0;
        while self.history.redo() {
            n += 1;
            if !self.is_bot_at(self.history.position()) {
                break;
            }
        }
        if n == 0 {
            return Err("nothing to redo".into());
        }
        self.changed();
        Ok(n)
    }

    fn is_bot_at(&self, pos: &G::Position) -> bool {
        self.game
            .to_move(pos)
            .is_some_and(|s| self.seats[s].is_bot())
    }

    /// A replay's step forwards or back; false at either end.
    pub fn step(&mut self, forward: bool) -> bool {
        let moved = if forward {
            self.history.redo()
        } else {
            self.history.undo()
        };
        if moved {
            self.changed();
        }
        moved
    }

    // ---- bots ----

    /// What the bot to move is asked, if a bot is to move.
    pub fn bot_request(&self) -> Option<BotRequest<G>> {
        if self.replay {
            return None;
        }
        let seat = self.to_move()?;
        let Seat::Bot(spec) = &self.seats[seat] else {
            return None;
        };
        // The run: this seat's decisions of this turn so far, back to
        // where the seat or the turn last changed.
        let played = self.played();
        let key = |p: &G::Position| (self.game.turn(p), self.game.to_move(p));
        let now = key(self.position());
        let start = played
            .iter()
            .rposition(|p| key(&p.before) != now)
            .map_or(0, |i| i + 1);
        Some(BotRequest {
            version: self.version,
            seat,
            spec: spec.clone(),
            seed: request_seed(self.deal.seed, seat, start),
            run: played[start..].iter().map(|p| p.before.clone()).collect(),
            position: self.position().clone(),
        })
    }

    /// A bot's answer to the request of `version`: `Ok(false)` when it is
    /// stale (the game changed since) and dropped; an illegal one (a bot
    /// bug) is refused by the game and reported.
    pub fn bot_answer(&mut self, version: u64, action: G::Action) -> Result<bool, String> {
        if version != self.version || self.bot_request().is_none() {
            return Ok(false);
        }
        self.play(action)
            .map(|_| true)
            .map_err(|e| format!("the bot chose an illegal action: {e}"))
    }

    // ---- records ----

    /// The match record of the game as it stands.
    pub fn record(&self) -> Record {
        record::write(&self.deal, &self.game, &self.history, &self.seats)
    }

    /// The record's header alone (no actions): cheap at any length.
    pub fn record_header(&self) -> Record {
        record::header(&self.deal, &self.game, &self.history, &self.seats)
    }

    /// Saves the record to `path` (atomically: the old file stays whole
    /// until the new one is).
    pub fn save(&mut self, path: &Path) -> Result<(), String> {
        record::write_atomic(path, &self.record().write())?;
        self.saved = self.played().iter().map(|p| p.action).collect();
        self.save_path = Some(path.to_path_buf());
        Ok(())
    }

    // ---- bookkeeping ----

    fn changed(&mut self) {
        self.version += 1;
        self.refresh();
    }

    fn refresh(&mut self) {
        if !self.person_to_move() {
            self.chooser = Chooser::empty();
            return;
        }
        let pos = self.history.position().clone();
        let mut legal = Vec::new();
        self.game.legal_into(&pos, &mut legal);
        for e in self.game.take_errors() {
            if let Err(e) = self.history.note_error(e) {
                self.start_errors.push(e);
            }
        }
        let game = &self.game;
        self.chooser = Chooser::new(&legal, |a| game.choices(&pos, a));
    }
}
