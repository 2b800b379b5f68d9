//! The board's state machine, apart from any terminal: what is chosen so
//! far, what may be chosen next, the cursor, dialogs, undo and redo, save.
//! Drawing (`view.rs`) only reads it, and the terminal loop (`mod.rs`)
//! only feeds it keys, clicks and bot actions, so all of it is tested
//! without a terminal.
//!
//! **Legality comes from the kernel only.** Every legal action is split
//! into the choices the rulebook's flow asks for ([`steps`]: piece, action,
//! destination, follow-ups). What the board offers at any moment is the
//! next choice of the legal actions that start with what was chosen so
//! far; when the choices name one whole action, it is played through
//! [`Ball::play`](crate::games::ball::Ball::play). Nothing here decides what is
//! legal, so nothing here can offer an illegal action.

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::history::History;
use crate::games::ball::action::{Action, Arg, CardId};
use crate::games::ball::board::{COLS, ROWS, Sq, SqSet, is_playable};
use crate::games::ball::extension::CardSummary;
use crate::games::ball::piece::{PieceId, Team};
use crate::games::ball::position::{Outcome, Phase, Position};
use crate::games::ball::ruleset::Ruleset;
use crate::kernel::grid::Coord;
use crate::kernel::record::Record;

/// The kinds of action a piece can start are the notation's verbs
/// (`Verb`); the action menu lists them in `Verb::ALL` order.
pub use crate::games::ball::params::Verb;

/// A few words on what a verb does, for the action menu.
fn gloss(v: Verb) -> &'static str {
    match v {
        Verb::Move => "to an empty square",
        Verb::Dodge => "knock down, step past",
        Verb::TDodge => "jump, push aside",
        Verb::Block => "stack on opponent",
        Verb::Protect => "stack on team-mate",
        Verb::Handoff => "give ball, adjacent",
        Verb::SPass => "short pass",
        Verb::LPass => "long pass, 2 AP",
        Verb::StandUp => "stand up",
        Verb::Release => "release the stack",
        Verb::Convert => "AP into EP",
        Verb::Card => "play a card",
        Verb::End => "end the action phase",
    }
}

/// One choice of the rulebook's flow (B13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Choice {
    /// The acting piece (chosen on the board).
    Piece(PieceId),
    /// What it does (chosen in the menu).
    Verb(Verb),
    /// A square: destination, exit, push, receiver's square, reception
    /// square, release squares (chosen on the board).
    Square(Sq),
    /// Who keeps the ball after a release (chosen in the menu).
    Keep(PieceId),
    /// The card to play (B11.6, chosen in the card menu); its piece and
    /// square arguments are then chosen on the board as `Piece` and
    /// `Square`, a number argument in the menu.
    Card(CardId),
    /// A card's number argument (chosen in the menu).
    Number(u8),
}

/// The choices that make up `action`, in the order the board asks for
/// them; `None` for an action not started by a piece on the board, which
/// the board offers whole in its action menu (`a`).
///
/// This is the board's one extension point for new kinds of action: an
/// action this function does not split — `end`, `convert N` — is offered
/// by its notation in the menu, straight from the legal list. A card
/// action (B11.6) is split into its card, chosen in the card menu (`c`),
/// and then its arguments one at a time.
pub fn steps(pos: &Position, action: Action) -> Option<Vec<Choice>> {
    use Choice::{Keep, Piece, Square};
    let v = Choice::Verb;
    Some(match action {
        Action::Move { piece, to } => vec![Piece(piece), v(Verb::Move), Square(to)],
        Action::Dodge { piece, to, exit } => {
            vec![Piece(piece), v(Verb::Dodge), Square(to), Square(exit)]
        }
        Action::TDodge { piece, to, push } => {
            vec![Piece(piece), v(Verb::TDodge), Square(to), Square(push)]
        }
        Action::Block { piece, to } => vec![Piece(piece), v(Verb::Block), Square(to)],
        Action::Protect { piece, to } => vec![Piece(piece), v(Verb::Protect), Square(to)],
        Action::Handoff { from, to } => {
            vec![Piece(from), v(Verb::Handoff), Square(pos.piece(to).at)]
        }
        Action::SPass { from, to, at } => vec![
            Piece(from),
            v(Verb::SPass),
            Square(pos.piece(to).at),
            Square(at),
        ],
        Action::LPass { from, to } => vec![Piece(from), v(Verb::LPass), Square(to)],
        Action::StandUp { piece, to } => vec![Piece(piece), v(Verb::StandUp), Square(to)],
        Action::Release {
            top,
            top_to,
            bottom_to,
            keep,
        } => {
            let mut s = vec![
                Piece(top),
                v(Verb::Release),
                Square(top_to),
                Square(bottom_to),
            ];
            s.extend(keep.map(Keep));
            s
        }
        Action::Card { card, args } => {
            let mut s = vec![Choice::Card(card)];
            s.extend(args.iter().filter_map(|a| match *a {
                Arg::None => None,
                Arg::Piece(p) => Some(Piece(p)),
                Arg::Square(q) => Some(Square(q)),
                Arg::Number(n) => Some(Choice::Number(n)),
            }));
            s
        }
        _ => return None,
    })
}

/// Who plays a team: a person at this terminal, or a bot by its spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Bot(String),
}

impl Seat {
    pub fn is_bot(&self) -> bool {
        matches!(self, Seat::Bot(_))
    }

    /// As the match record's `DEF:`/`ATK:` header says it.
    pub fn label(&self) -> String {
        match self {
            Seat::Human => "human".into(),
            Seat::Bot(spec) => spec.clone(),
        }
    }
}

/// The board cursor, always on a playable square. `want_col` is the
/// column the player steers along: going up and down a column zigzags by
/// one (only every other square of a row is playable), and comes back to
/// the same squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    col: u8,
    row: u8,
    want_col: u8,
}

impl Cursor {
    pub fn at(sq: Sq) -> Cursor {
        let c = sq.coord();
        Cursor {
            col: c.col,
            row: c.row,
            want_col: c.col,
        }
    }

    pub fn square(self) -> Sq {
        Sq::from_coord(Coord {
            col: self.col,
            row: self.row,
        })
        .expect("the cursor stays on playable squares")
    }

    fn vertical(&mut self, up: bool) {
        let row = if up { self.row + 1 } else { self.row - 1 };
        if !(1..=ROWS).contains(&row) {
            return;
        }
        let col = if is_playable(self.want_col, row) {
            self.want_col
        } else if self.want_col < COLS {
            self.want_col + 1
        } else {
            self.want_col - 1
        };
        self.row = row;
        self.col = col;
    }

    fn horizontal(&mut self, right: bool) {
        let col = if right {
            self.col + 2
        } else {
            self.col.wrapping_sub(2)
        };
        if is_playable(col, self.row) {
            self.col = col;
            self.want_col = col;
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dialog {
    /// The keys.
    Help,
    /// The legal actions not started by a piece: `end`, `convert N`, and
    /// in card mode a last entry that opens the card menu.
    Actions { selected: usize },
    /// Card mode (B11): the coach's cards, then the `convert N` actions.
    /// `confirm` once Enter was pressed on a card without arguments: the
    /// next Enter plays it.
    Cards { selected: usize, confirm: bool },
    /// Where to save the match record; `overwrite` once warned that the
    /// file exists.
    Save { path: String, overwrite: bool },
    /// Quitting would lose unsaved actions.
    ConfirmQuit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Error,
}

/// Bot seats are played outside the state machine (a thread in the
/// terminal loop, a plain call in tests): this is what the bot is asked.
#[derive(Clone, Debug)]
pub struct BotRequest {
    /// Answers for an older version are dropped (the game was undone or
    /// reloaded meanwhile).
    pub version: u64,
    pub team: Team,
    pub spec: String,
    pub position: Position,
}

/// Where a new game's record is saved unless the player types another path.
pub const DEFAULT_SAVE_PATH: &str = "ball-match.txt";

pub struct App {
    ruleset: Ruleset,
    history: History,
    seats: [Seat; 2],
    seed: Option<u64>,
    replay: bool,
    /// Cache of the current position's legal list, split into the actions
    /// the board builds from choices and the ones offered whole.
    paths: Vec<(Action, Vec<Choice>)>,
    whole: Vec<Action>,
    /// Each coach's cards (B11.6), by `Team as usize`; empty without card
    /// mode.
    cards: [Vec<CardSummary>; 2],
    chosen: Vec<Choice>,
    /// The highlighted entry of a menu step.
    menu: usize,
    cursor: Cursor,
    dialog: Option<Dialog>,
    message: Option<(Level, String)>,
    /// The actions as last saved or loaded: quitting with others asks.
    saved: Vec<Action>,
    save_path: Option<PathBuf>,
    quit_after_save: bool,
    /// Log lines scrolled back from the newest.
    log_scroll: usize,
    version: u64,
    quit: bool,
}

impl App {
    /// A game from `history` (new or loaded) with these seats. `seed` is
    /// the bots' seed, recorded when a bot plays.
    pub fn new(ruleset: Ruleset, history: History, seats: [Seat; 2], seed: Option<u64>) -> App {
        let saved = history.actions();
        let cards = [Team::Atk, Team::Def].map(|t| {
            let mut v = history.game().cards(t);
            v.sort_by_key(|c| c.id);
            v.dedup_by_key(|c| c.id);
            v
        });
        let mut app = App {
            ruleset,
            history,
            seats,
            seed,
            replay: false,
            paths: Vec::new(),
            whole: Vec::new(),
            cards,
            chosen: Vec::new(),
            menu: 0,
            cursor: Cursor::at(Sq::parse("G9").expect("G9 is playable")),
            dialog: None,
            message: None,
            saved,
            save_path: None,
            quit_after_save: false,
            log_scroll: 0,
            version: 0,
            quit: false,
        };
        app.refresh();
        app
    }

    /// A fresh game from the ruleset's start position.
    pub fn new_game(ruleset: Ruleset, seats: [Seat; 2], seed: Option<u64>) -> App {
        let game = ruleset.game();
        let start = Position::start(&game.params);
        App::new(ruleset, History::new(game, start), seats, seed)
    }

    /// A viewer of a finished record: positioned at its start, every
    /// action waiting to be stepped through.
    pub fn for_replay(ruleset: Ruleset, mut history: History) -> App {
        while history.undo().is_some() {}
        let mut app = App::new(ruleset, history, [Seat::Human, Seat::Human], None);
        app.replay = true;
        app.refresh();
        app
    }

    /// Remembers where the game was loaded from: saving writes back there.
    pub fn set_save_path(&mut self, path: PathBuf) {
        self.save_path = Some(path);
    }

    /// Shows a note on the message line (e.g. what loading found).
    pub fn set_message(&mut self, level: Level, msg: String) {
        self.message = Some((level, msg));
    }

    /// Closes any dialog; a pending save-and-quit is dropped with it.
    pub fn close_dialog(&mut self) {
        self.dialog = None;
        self.quit_after_save = false;
    }

    // ---- what the view reads ----

    pub fn position(&self) -> &Position {
        self.history.position()
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    pub fn seat(&self, team: Team) -> &Seat {
        &self.seats[team as usize]
    }

    pub fn is_replay(&self) -> bool {
        self.replay
    }

    pub fn chosen(&self) -> &[Choice] {
        &self.chosen
    }

    pub fn cursor(&self) -> Sq {
        self.cursor.square()
    }

    pub fn dialog(&self) -> Option<&Dialog> {
        self.dialog.as_ref()
    }

    pub fn message(&self) -> Option<(Level, &str)> {
        self.message.as_ref().map(|(l, m)| (*l, m.as_str()))
    }

    pub fn menu_index(&self) -> usize {
        self.menu
    }

    pub fn log_scroll(&self) -> usize {
        self.log_scroll
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Changes with every action played, undone or redone.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Unsaved actions would be lost by quitting.
    pub fn is_dirty(&self) -> bool {
        !self.replay && self.history.actions() != self.saved
    }

    /// The person at the terminal may choose an action now.
    pub fn human_to_move(&self) -> bool {
        let pos = self.position();
        !self.replay && !pos.is_over() && !self.seat(pos.to_move).is_bot()
    }

    /// The legal actions the board offers whole (the `a` menu).
    pub fn whole_actions(&self) -> &[Action] {
        &self.whole
    }

    /// The game is played in card mode (B11): the board shows EP, and
    /// `c` opens the card menu.
    pub fn card_mode(&self) -> bool {
        self.history.game().card_mode()
    }

    /// The cards of the coach to move, in a fixed order.
    pub fn cards(&self) -> &[CardSummary] {
        &self.cards[self.position().to_move as usize]
    }

    /// One card of the coach to move.
    pub fn card(&self, id: CardId) -> Option<&CardSummary> {
        self.cards().iter().find(|c| c.id == id)
    }

    /// A card is playable now exactly when some `card <id> …` action is in
    /// the legal list.
    pub fn card_playable(&self, id: CardId) -> bool {
        self.card_choices().contains(&Choice::Card(id))
    }

    /// The cards playable now, as the first choice of their actions.
    fn card_choices(&self) -> Vec<Choice> {
        let mut v: Vec<Choice> = self
            .paths
            .iter()
            .map(|(_, s)| s[0])
            .filter(|c| matches!(c, Choice::Card(_)))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// What the use limits of a card leave, e.g. `1/2 left`, `0/1 this
    /// turn`; `None` for an unlimited card.
    pub fn uses_left(&self, card: &CardSummary) -> Option<String> {
        let pos = self.position();
        let (game, turn) = pos.card_uses.get(pos.to_move, card.id);
        let mut parts = Vec::new();
        if let Some(u) = card.uses {
            parts.push(format!("{}/{u} left", u.saturating_sub(game)));
        }
        if let Some(u) = card.per_turn {
            parts.push(format!("{}/{u} this turn", u.saturating_sub(turn)));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// The `convert N` actions of the legal list, for the card menu.
    pub fn converts(&self) -> Vec<Action> {
        self.whole
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Convert { .. }))
            .collect()
    }

    /// Entries of the card menu: the cards, then the converts.
    pub fn card_menu_len(&self) -> usize {
        self.cards().len() + self.converts().len()
    }

    /// The card highlighted in the card menu, if the highlight is on one.
    pub fn card_menu_card(&self) -> Option<&CardSummary> {
        match self.dialog {
            Some(Dialog::Cards { selected, .. }) => self.cards().get(selected),
            _ => None,
        }
    }

    /// The card being played, while its arguments are chosen.
    pub fn card_in_play(&self) -> Option<CardId> {
        match self.chosen.first() {
            Some(&Choice::Card(id)) => Some(id),
            _ => None,
        }
    }

    /// The legal actions that start with the choices made so far, with
    /// their choices.
    fn matching(&self, prefix: &[Choice]) -> impl Iterator<Item = &(Action, Vec<Choice>)> {
        self.paths
            .iter()
            .filter(move |(_, s)| s.starts_with(prefix))
    }

    /// What may be chosen next, sorted: menu entries in menu order, board
    /// choices in reading order (top row first, then left to right).
    pub fn options(&self) -> Vec<Choice> {
        if !self.human_to_move() {
            return Vec::new();
        }
        self.options_after(&self.chosen)
    }

    /// The next choices after `prefix`; cards are not among the first
    /// choices (the board starts with a piece), they are chosen in the
    /// card menu.
    fn options_after(&self, prefix: &[Choice]) -> Vec<Choice> {
        let n = prefix.len();
        let mut out: Vec<Choice> = self
            .matching(prefix)
            .filter_map(|(_, s)| s.get(n).copied())
            .filter(|c| !matches!(c, Choice::Card(_)))
            .collect();
        out.sort_by_key(|&c| (self.reading_order(c), c));
        out.dedup();
        out
    }

    fn reading_order(&self, c: Choice) -> (u8, u8) {
        match self.square_of(c) {
            Some(sq) => (ROWS - sq.row(), sq.coord().col),
            None => (0, 0),
        }
    }

    /// The square a board choice stands for.
    pub fn square_of(&self, c: Choice) -> Option<Sq> {
        match c {
            Choice::Piece(p) => Some(self.position().piece(p).at),
            Choice::Square(s) => Some(s),
            Choice::Verb(_) | Choice::Keep(_) | Choice::Card(_) | Choice::Number(_) => None,
        }
    }

    /// The next choice is made in a menu (action, keeper, a card's
    /// number) rather than on the board.
    pub fn menu_step(&self) -> bool {
        self.options()
            .first()
            .is_some_and(|c| matches!(c, Choice::Verb(_) | Choice::Keep(_) | Choice::Number(_)))
    }

    /// Squares to highlight as choosable: the board options, or in the
    /// action menu the destinations of the highlighted action.
    pub fn highlighted(&self) -> SqSet {
        let opts = self.options();
        let mut set = 0;
        if let Some(&Choice::Verb(v)) = opts.get(self.menu) {
            let mut prefix = self.chosen.clone();
            prefix.push(Choice::Verb(v));
            for c in self.options_after(&prefix) {
                set |= self.square_of(c).map_or(0, Sq::bit);
            }
            return set;
        }
        for c in opts {
            set |= self.square_of(c).map_or(0, Sq::bit);
        }
        set
    }

    /// Squares chosen so far (the piece, then destinations), in order.
    pub fn chosen_squares(&self) -> Vec<Sq> {
        self.chosen
            .iter()
            .filter_map(|&c| self.square_of(c))
            .collect()
    }

    /// The squares of the last action played (where the piece started,
    /// and its destinations), so that a bot's move can be followed.
    pub fn last_squares(&self) -> Vec<Sq> {
        let Some(last) = self.history.played().last() else {
            return Vec::new();
        };
        steps(&last.before, last.action)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|c| match c {
                Choice::Piece(p) => Some(last.before.piece(p).at),
                Choice::Square(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    /// B8.2: the reception square of a short pass just played, drawn as
    /// where the ball arrived.
    pub fn reception_square(&self) -> Option<Sq> {
        match self.history.played().last()?.action {
            Action::SPass { at, .. } => Some(at),
            _ => None,
        }
    }

    /// What the player is asked to do now, in a few words.
    pub fn prompt(&self) -> String {
        let pos = self.position();
        if self.replay {
            let n = self.history.played().len();
            let total = n + self.history.redo_list().count();
            return format!("replay: action {n} of {total}");
        }
        if let Some(outcome) = pos.outcome {
            return format!("game over: {}", result_text(outcome, pos.score));
        }
        let team = pos.to_move;
        if let Seat::Bot(spec) = self.seat(team) {
            return format!("{team} ({spec} bot) is playing");
        }
        if let Some(id) = self.card_in_play() {
            return self.card_prompt(id);
        }
        let piece = |i: usize| match self.chosen.get(i) {
            Some(Choice::Piece(p)) => p.to_string(),
            _ => "?".into(),
        };
        let verb = match self.chosen.get(1) {
            Some(&Choice::Verb(v)) => Some(v),
            _ => None,
        };
        let occupant = |i: usize| match self.chosen.get(i) {
            Some(&Choice::Square(s)) => pos.piece_at(s).map_or(s.to_string(), |p| p.to_string()),
            _ => "?".into(),
        };
        match (self.chosen.len(), verb) {
            (0, _) if pos.phase == Phase::Release => {
                format!("{team}, release phase: choose a piece with a task")
            }
            (0, _) if self.options_after(&[]).is_empty() => {
                format!("{team}: no piece can act; e ends the action phase")
            }
            (0, _) => format!("{team}: choose a piece, or e to end the action phase"),
            (1, _) => format!("{}: choose an action", piece(0)),
            (2, Some(Verb::Dodge)) => format!("{} dodge: choose the opponent", piece(0)),
            (2, Some(Verb::TDodge)) => format!("{} tdodge: choose the landing square", piece(0)),
            (2, Some(Verb::Handoff | Verb::SPass)) => {
                format!("{} {}: choose the receiver", piece(0), verb.unwrap().name())
            }
            (2, Some(Verb::LPass)) => format!("{} lpass: choose where the ball lands", piece(0)),
            (2, Some(Verb::Release)) => format!("release: choose where {} (top) goes", piece(0)),
            (2, Some(v)) => format!("{} {}: choose the destination", piece(0), v.name()),
            (3, Some(Verb::Dodge)) => format!("dodge {}: choose the exit square", occupant(2)),
            (3, Some(Verb::TDodge)) => {
                let jumped = match (self.chosen.first(), self.chosen.get(2)) {
                    (Some(&Choice::Piece(p)), Some(&Choice::Square(to))) => pos
                        .piece(p)
                        .at
                        .midpoint(to)
                        .and_then(|m| pos.piece_at(m))
                        .map_or("the opponent".to_string(), |p| p.to_string()),
                    _ => "the opponent".into(),
                };
                format!("tdodge: choose where {jumped} is pushed")
            }
            (3, Some(Verb::SPass)) => {
                format!("spass to {}: choose the reception square", occupant(2))
            }
            (3, Some(Verb::Release)) => {
                let bottom = match self.chosen.first() {
                    Some(&Choice::Piece(p)) => pos
                        .stacks
                        .with_top(p)
                        .map_or("the bottom".to_string(), |s| s.bottom.to_string()),
                    _ => "the bottom".into(),
                };
                format!("release: choose where {bottom} (bottom) goes")
            }
            (4, _) => "release: who keeps the ball?".into(),
            _ => "choose".into(),
        }
    }

    /// While a card's arguments are chosen: which card, which argument.
    fn card_prompt(&self, id: CardId) -> String {
        let name = self.card(id).map_or(id.name(), |c| c.name.as_str());
        let total = self
            .matching(&self.chosen)
            .map(|(_, s)| s.len() - 1)
            .max()
            .unwrap_or(0);
        let k = self.chosen.len();
        let what = match self.options().first() {
            Some(Choice::Piece(_)) => "a piece",
            Some(Choice::Square(_)) => "a square",
            Some(Choice::Number(_)) => "a number",
            _ => "a target",
        };
        format!("card {name}: choose {what} (target {k} of {total}); Esc cancels")
    }

    /// The label of a menu or board option, for the panel.
    pub fn option_label(&self, c: Choice) -> String {
        let pos = self.position();
        match c {
            Choice::Piece(p) => format!("{p} on {}", pos.piece(p).at),
            Choice::Verb(v) => {
                let mut prefix = self.chosen.clone();
                prefix.push(c);
                let n = self.options_after(&prefix).len();
                format!("{} ({n})", v.name())
            }
            Choice::Square(s) => match pos.piece_at(s) {
                Some(p) => format!("{s} {p}"),
                None => s.to_string(),
            },
            Choice::Keep(k) => {
                let role = match self.chosen.first() {
                    Some(&Choice::Piece(top)) if top == k => "top",
                    _ => "bottom",
                };
                format!("{k} keeps the ball ({role})")
            }
            Choice::Card(id) => self
                .card(id)
                .map_or(id.name().to_string(), |c| c.name.clone()),
            Choice::Number(n) => n.to_string(),
        }
    }

    /// A few words more about an option, shown when there is room.
    pub fn option_gloss(&self, c: Choice) -> Option<&'static str> {
        match c {
            Choice::Verb(v) => Some(gloss(v)),
            _ => None,
        }
    }

    /// One line about the square under the cursor: who is there, in what
    /// state, and the ball.
    pub fn describe_cursor(&self) -> String {
        describe_square(self.position(), self.cursor())
    }

    // ---- bots ----

    /// What the bot to move is asked, if a bot is to move and the game is
    /// not paused by a dialog.
    pub fn bot_request(&self) -> Option<BotRequest> {
        let pos = self.position();
        if self.replay || pos.is_over() || self.dialog.is_some() {
            return None;
        }
        match self.seat(pos.to_move) {
            Seat::Bot(spec) => Some(BotRequest {
                version: self.version,
                team: pos.to_move,
                spec: spec.clone(),
                position: *pos,
            }),
            Seat::Human => None,
        }
    }

    /// A bot's answer to the request of `version`. Returns whether it was
    /// played: a stale answer is dropped, and an illegal one (a bot bug)
    /// is refused by the kernel and reported.
    pub fn bot_played(&mut self, version: u64, action: Action) -> bool {
        if version != self.version || self.bot_request().is_none() {
            return false;
        }
        match self.history.play(action) {
            Ok(()) => {
                self.changed();
                true
            }
            Err(e) => {
                self.error(format!("the bot chose an illegal action: {e}"));
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
        let ctrl_c = ctrl && key.code == KeyCode::Char('c');
        if ctrl_c && !matches!(self.dialog, None | Some(Dialog::ConfirmQuit)) {
            // Ctrl-C means "quit" wherever it is pressed, even mid-dialog.
            self.close_dialog();
        }
        if self.dialog.is_some() {
            self.dialog_key(key.code, ctrl);
            return;
        }
        self.message = None;
        if ctrl {
            match key.code {
                KeyCode::Char('c') => self.request_quit(),
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
        if self.replay {
            return self.replay_key(key.code);
        }
        match key.code {
            KeyCode::Char('u') => return self.undo(),
            KeyCode::Char('r') => return self.redo(),
            KeyCode::Char('s') => return self.open_save(),
            _ => {}
        }
        if !self.human_to_move() {
            return;
        }
        let menu = self.menu_step();
        match key.code {
            KeyCode::Esc => self.cancel(),
            KeyCode::Backspace => self.back(),
            KeyCode::Char('e') => self.end_turn(),
            KeyCode::Char('a') => self.open_actions(),
            KeyCode::Char('c') => self.open_cards(0),
            KeyCode::Char(d @ '1'..='9') => {
                let i = d as usize - '1' as usize;
                if let Some(&c) = self.options().get(i) {
                    self.choose(c);
                }
            }
            KeyCode::Tab => self.cycle(1),
            KeyCode::BackTab => self.cycle(-1),
            KeyCode::Up | KeyCode::Char('k') if menu => self.move_menu(-1),
            KeyCode::Down | KeyCode::Char('j') if menu => self.move_menu(1),
            KeyCode::Enter | KeyCode::Char(' ') if menu => {
                if let Some(&c) = self.options().get(self.menu) {
                    self.choose(c);
                }
            }
            KeyCode::Up | KeyCode::Char('k') => self.cursor.vertical(true),
            KeyCode::Down | KeyCode::Char('j') => self.cursor.vertical(false),
            KeyCode::Left | KeyCode::Char('h') => self.cursor.horizontal(false),
            KeyCode::Right | KeyCode::Char('l') => self.cursor.horizontal(true),
            KeyCode::Enter | KeyCode::Char(' ') => self.pick_square(self.cursor()),
            _ => {}
        }
    }

    fn replay_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Right | KeyCode::Char('l' | 'n' | ' ') | KeyCode::Enter => {
                self.step_replay(true);
            }
            KeyCode::Left | KeyCode::Char('h' | 'p') | KeyCode::Backspace => {
                self.step_replay(false);
            }
            KeyCode::Home | KeyCode::Char('g') => while self.step_replay(false) {},
            KeyCode::End | KeyCode::Char('G') => while self.step_replay(true) {},
            KeyCode::Esc => self.quit = true,
            _ => {}
        }
    }

    fn step_replay(&mut self, forward: bool) -> bool {
        let moved = if forward {
            matches!(self.history.redo(), Some(Ok(_)))
        } else {
            self.history.undo().is_some()
        };
        if moved {
            self.changed();
        }
        moved
    }

    fn dialog_key(&mut self, code: KeyCode, ctrl: bool) {
        let Some(dialog) = self.dialog.clone() else {
            return;
        };
        match dialog {
            Dialog::Help => self.dialog = None,
            Dialog::ConfirmQuit => match code {
                KeyCode::Char('y') if !ctrl => self.quit = true,
                KeyCode::Char('s') if !ctrl => {
                    self.quit_after_save = true;
                    self.open_save();
                }
                KeyCode::Char('n') | KeyCode::Esc => self.dialog = None,
                _ => {}
            },
            Dialog::Cards { selected, confirm } => {
                let n = self.card_menu_len();
                let to = |selected| {
                    Some(Dialog::Cards {
                        selected,
                        confirm: false,
                    })
                };
                match code {
                    KeyCode::Esc if confirm => self.dialog = to(selected),
                    KeyCode::Esc => self.dialog = None,
                    KeyCode::Up | KeyCode::Char('k') => {
                        self.dialog = to(selected.saturating_sub(1))
                    }
                    KeyCode::Down | KeyCode::Char('j') => {
                        self.dialog = to((selected + 1).min(n.saturating_sub(1)));
                    }
                    KeyCode::Enter | KeyCode::Char(' ') => self.card_menu_pick(selected),
                    KeyCode::Char(d @ '1'..='9') => {
                        let i = d as usize - '1' as usize;
                        if i < n {
                            if i != selected {
                                self.dialog = to(i);
                            }
                            self.card_menu_pick(i);
                        }
                    }
                    _ => {}
                }
            }
            Dialog::Actions { selected } => {
                let n = self.whole.len() + usize::from(self.card_mode());
                match code {
                    KeyCode::Esc => self.dialog = None,
                    KeyCode::Up | KeyCode::Char('k') => {
                        self.dialog = Some(Dialog::Actions {
                            selected: selected.saturating_sub(1),
                        });
                    }
                    KeyCode::Down | KeyCode::Char('j') => {
                        self.dialog = Some(Dialog::Actions {
                            selected: (selected + 1).min(n.saturating_sub(1)),
                        });
                    }
                    KeyCode::Enter | KeyCode::Char(' ') => self.play_whole(selected),
                    KeyCode::Char(d @ '1'..='9') => self.play_whole(d as usize - '1' as usize),
                    _ => {}
                }
            }
            Dialog::Save { mut path, .. } => match code {
                KeyCode::Esc => {
                    self.dialog = None;
                    self.quit_after_save = false;
                }
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

    /// A click on a board square: as if the cursor were moved there and
    /// Enter pressed.
    pub fn click_square(&mut self, sq: Sq) {
        if self.dialog.is_some() {
            return;
        }
        self.message = None;
        self.cursor = Cursor::at(sq);
        if self.human_to_move() {
            self.pick_square(sq);
        }
    }

    /// A click on entry `i` of the panel's option list.
    pub fn click_option(&mut self, i: usize) {
        if self.dialog.is_some() || !self.human_to_move() {
            return;
        }
        self.message = None;
        if let Some(&c) = self.options().get(i) {
            self.choose(c);
        }
    }

    /// A click on entry `i` of the open action or card menu: as if it
    /// were highlighted and Enter pressed.
    pub fn click_dialog_item(&mut self, i: usize) {
        match self.dialog {
            Some(Dialog::Actions { .. }) => self.play_whole(i),
            Some(Dialog::Cards { selected, confirm }) => {
                if i != selected || !confirm {
                    self.dialog = Some(Dialog::Cards {
                        selected: i,
                        confirm: false,
                    });
                }
                self.card_menu_pick(i);
            }
            _ => {}
        }
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

    // ---- the choosing flow ----

    fn choose(&mut self, c: Choice) {
        self.chosen.push(c);
        self.settle();
    }

    /// After a choice: play the action if it is now whole, skip a menu
    /// with a single entry, else wait for the next choice.
    fn settle(&mut self) {
        loop {
            let n = self.chosen.len();
            let mut any = false;
            let mut whole = None;
            for (a, s) in self.matching(&self.chosen) {
                any = true;
                if s.len() == n {
                    whole = Some(*a);
                }
            }
            if let Some(action) = whole {
                self.chosen.clear();
                self.commit(action);
                return;
            }
            if !any {
                // Only reachable if the position changed under the
                // choices; start again from what is legal now.
                self.chosen.clear();
                return;
            }
            self.menu = 0;
            let opts = self.options();
            match opts.as_slice() {
                [only @ Choice::Verb(_)] => self.chosen.push(*only),
                _ => return,
            }
        }
    }

    fn commit(&mut self, action: Action) {
        match self.history.play(action) {
            Ok(()) => self.changed(),
            Err(e) => self.error(e.to_string()),
        }
    }

    /// ESC (B13): drop the action in progress; the game is untouched.
    fn cancel(&mut self) {
        if !self.chosen.is_empty() {
            self.chosen.clear();
            self.info("cancelled".into());
        }
    }

    /// Backspace: take back the last choice (and a menu that was skipped
    /// because it had one entry, which would only be skipped again).
    fn back(&mut self) {
        if let [Choice::Card(id)] = self.chosen.as_slice() {
            let i = self.cards().iter().position(|c| c.id == *id).unwrap_or(0);
            self.chosen.clear();
            return self.open_cards(i);
        }
        self.chosen.pop();
        while !self.chosen.is_empty() {
            let opts = self.options();
            if matches!(opts.as_slice(), [Choice::Verb(_)]) {
                self.chosen.pop();
            } else {
                break;
            }
        }
        self.menu = 0;
    }

    /// Enter or a click on a square, in a board step.
    fn pick_square(&mut self, sq: Sq) {
        let opts = self.options();
        if let Some(&c) = opts.iter().find(|&&c| self.square_of(c) == Some(sq)) {
            return self.choose(c);
        }
        // In the action menu a destination may be clicked directly when
        // only one kind of action leads there.
        if opts.iter().any(|c| matches!(c, Choice::Verb(_))) {
            let verbs: Vec<Choice> = opts
                .iter()
                .copied()
                .filter(|&v| {
                    let mut prefix = self.chosen.clone();
                    prefix.push(v);
                    self.options_after(&prefix).contains(&Choice::Square(sq))
                })
                .collect();
            match verbs.as_slice() {
                [v] => {
                    self.chosen.push(*v);
                    return self.choose(Choice::Square(sq));
                }
                [] => {}
                many => {
                    let names: Vec<&str> = many
                        .iter()
                        .filter_map(|c| match c {
                            Choice::Verb(v) => Some(v.name()),
                            _ => None,
                        })
                        .collect();
                    return self.info(format!(
                        "{sq}: {} lead there; choose one in the menu",
                        names.join(" or ")
                    ));
                }
            }
        }
        // Another piece that can act: start again with it.
        if !self.chosen.is_empty()
            && self.card_in_play().is_none()
            && let Some(c) = self
                .options_after(&[])
                .into_iter()
                .find(|&c| self.square_of(c) == Some(sq))
        {
            self.chosen.clear();
            return self.choose(c);
        }
        let pos = self.position();
        if self.card_in_play().is_some() {
            return self.info(format!(
                "{} · not a target; Backspace goes back, Esc cancels the card",
                describe_square(pos, sq)
            ));
        }
        let why = match (self.chosen.is_empty(), pos.piece_at(sq)) {
            (true, Some(p)) if p.team() != pos.to_move => "not yours",
            (true, Some(_)) => "no legal action now",
            (true, None) => "choose a highlighted piece",
            (false, _) => "not a choice now; Esc cancels",
        };
        self.info(format!("{} · {why}", describe_square(pos, sq)));
    }

    fn cycle(&mut self, dir: isize) {
        let opts = self.options();
        if opts.is_empty() {
            return;
        }
        if self.menu_step() {
            return self.move_menu(dir);
        }
        let squares: Vec<Sq> = opts.iter().filter_map(|&c| self.square_of(c)).collect();
        let here = squares.iter().position(|&s| s == self.cursor());
        let n = squares.len() as isize;
        let next = match here {
            Some(i) => (i as isize + dir).rem_euclid(n),
            None if dir > 0 => 0,
            None => n - 1,
        };
        self.cursor = Cursor::at(squares[next as usize]);
    }

    fn move_menu(&mut self, dir: isize) {
        let n = self.options().len();
        if n > 0 {
            self.menu = (self.menu as isize + dir).clamp(0, n as isize - 1) as usize;
        }
    }

    fn end_turn(&mut self) {
        if !self.chosen.is_empty() {
            return self.info("an action is in progress: finish it, or Esc first".into());
        }
        if self.whole.contains(&Action::End) {
            self.commit(Action::End);
        } else {
            self.info("no `end` now: the release phase's tasks come first (B10.1)".into());
        }
    }

    fn open_actions(&mut self) {
        if self.whole.is_empty() {
            self.info("no other action now".into());
        } else {
            self.chosen.clear();
            self.dialog = Some(Dialog::Actions { selected: 0 });
        }
    }

    fn play_whole(&mut self, i: usize) {
        if let Some(&a) = self.whole.get(i) {
            self.dialog = None;
            self.commit(a);
        } else if i == self.whole.len() && self.card_mode() {
            self.open_cards(0);
        }
    }

    /// `c`: the card menu, with entry `selected` highlighted.
    fn open_cards(&mut self, selected: usize) {
        if !self.card_mode() {
            return self.info("no cards: this ruleset has no card mode (--ruleset cards)".into());
        }
        if self.card_menu_len() == 0 {
            return self.info("no cards and no convert now".into());
        }
        self.chosen.clear();
        self.dialog = Some(Dialog::Cards {
            selected: selected.min(self.card_menu_len() - 1),
            confirm: false,
        });
    }

    /// Enter on entry `i` of the card menu: a convert plays; a playable
    /// card starts choosing its arguments (one without arguments asks
    /// for Enter again first); an unplayable one says why not.
    fn card_menu_pick(&mut self, i: usize) {
        let Some(Dialog::Cards { confirm, .. }) = self.dialog else {
            return;
        };
        let n_cards = self.cards().len();
        if i >= n_cards {
            if let Some(&a) = self.converts().get(i - n_cards) {
                self.dialog = None;
                self.commit(a);
            }
            return;
        }
        let card = self.cards()[i].clone();
        if !self.card_playable(card.id) {
            let pos = self.position();
            let ep = pos.ep[pos.to_move as usize];
            let why = if card.cost > ep {
                format!("needs {} EP, {} has {ep}", card.cost, pos.to_move)
            } else if card.ap > pos.ap {
                format!("needs {} AP, {} left", card.ap, pos.ap)
            } else if self.uses_left(&card).is_some_and(|u| u.starts_with('0')) {
                "no use left".into()
            } else {
                "no legal target now".into()
            };
            return self.info(format!("{} is not playable now: {why}", card.name));
        }
        let whole = self
            .paths
            .iter()
            .any(|(_, s)| s.as_slice() == [Choice::Card(card.id)]);
        if whole && !confirm {
            self.dialog = Some(Dialog::Cards {
                selected: i,
                confirm: true,
            });
            return;
        }
        self.dialog = None;
        self.chosen = vec![Choice::Card(card.id)];
        self.settle();
    }

    // ---- undo, redo ----

    /// Takes back the player's last action, and every bot action after
    /// it, so that it is a person's turn again.
    pub fn undo(&mut self) {
        let played = self.history.played();
        let Some(mut k) = played.len().checked_sub(1) else {
            return self.info("nothing to undo".into());
        };
        while self.seat(played[k].before.to_move).is_bot() {
            if k == 0 {
                return self.info("nothing of yours to undo".into());
            }
            k -= 1;
        }
        let n = played.len() - k;
        for _ in 0..n {
            self.history.undo();
        }
        self.changed();
        self.info(format!(
            "undid {n} action{}; r redoes",
            if n == 1 { "" } else { "s" }
        ));
    }

    /// Plays again the last undone action, and the bot actions that
    /// followed it.
    pub fn redo(&mut self) {
        let mut n = 0;
        loop {
            match self.history.redo() {
                None => break,
                Some(Err(e)) => {
                    self.changed();
                    return self.error(format!("cannot redo: {e}"));
                }
                Some(Ok(_)) => n += 1,
            }
            let pos = self.position();
            if pos.is_over() || !self.seat(pos.to_move).is_bot() {
                break;
            }
        }
        if n == 0 {
            return self.info("nothing to redo".into());
        }
        self.changed();
        self.info(format!("redid {n} action{}", if n == 1 { "" } else { "s" }));
    }

    // ---- save, quit ----

    /// The match record of the game as it stands.
    pub fn record(&self) -> Record {
        let seats = [
            self.seats[Team::Atk as usize].label(),
            self.seats[Team::Def as usize].label(),
        ];
        let seed = self.seed.filter(|_| self.seats.iter().any(Seat::is_bot));
        self.history.record(&self.ruleset, &seats, seed)
    }

    fn open_save(&mut self) {
        let path = self
            .save_path
            .as_ref()
            .map_or(DEFAULT_SAVE_PATH.to_string(), |p| p.display().to_string());
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
        let ours = self.save_path.as_ref() == Some(&target);
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
        let text = self.record().write();
        std::fs::write(path, text)
            .map_err(|e| format!("cannot save to {}: {e}", path.display()))?;
        self.saved = self.history.actions();
        self.save_path = Some(path.to_path_buf());
        let n = self.saved.len();
        self.info(format!(
            "saved {n} action{} to {}",
            if n == 1 { "" } else { "s" },
            path.display()
        ));
        Ok(())
    }

    /// `q` or Ctrl-C: quits at once when nothing would be lost, else asks.
    pub fn request_quit(&mut self) {
        if self.is_dirty() {
            self.dialog = Some(Dialog::ConfirmQuit);
        } else {
            self.quit = true;
        }
    }

    // ---- bookkeeping ----

    fn info(&mut self, msg: String) {
        self.message = Some((Level::Info, msg));
    }

    fn error(&mut self, msg: String) {
        self.message = Some((Level::Error, msg));
    }

    /// After the game changed: new legal list, nothing chosen, the log
    /// back at its newest line.
    fn changed(&mut self) {
        self.version += 1;
        self.chosen.clear();
        self.log_scroll = 0;
        self.refresh();
    }

    fn refresh(&mut self) {
        let pos = *self.position();
        let legal = self.history.game().legal(&pos);
        self.paths.clear();
        self.whole.clear();
        for a in legal {
            match steps(&pos, a) {
                Some(s) => self.paths.push((a, s)),
                None => self.whole.push(a),
            }
        }
        self.whole
            .sort_by_key(|a| (!matches!(a, Action::End), a.to_string()));
        self.whole.dedup();
        self.menu = 0;
    }
}

/// "ATK wins 3-1", "draw 2-2".
pub fn result_text(outcome: Outcome, score: [u8; 2]) -> String {
    let (a, d) = (score[Team::Atk as usize], score[Team::Def as usize]);
    match outcome {
        Outcome::Winner(t) => format!("{t} wins, ATK {a} - DEF {d}"),
        Outcome::Draw => format!("draw, ATK {a} - DEF {d}"),
    }
}

/// Who is on `sq` and in what state, for the info line.
pub fn describe_square(pos: &Position, sq: Sq) -> String {
    let piece = |p: PieceId| {
        let pc = pos.piece(p);
        let mut s = format!("{p} ({})", pc.kind.symbol());
        if pc.down {
            s.push_str(" down");
        }
        if pc.restricted {
            s.push_str(" restricted");
        }
        if pos.holder() == Some(p) {
            s.push_str(" holds the ball");
        }
        s
    };
    if let Some(st) = pos.stacks.at(sq) {
        let how = if st.top.team() == st.bottom.team() {
            "protects"
        } else {
            "blocks"
        };
        return format!(
            "{sq}: stack, {} {how} {} (formed turn {})",
            piece(st.top),
            piece(st.bottom),
            st.formed
        );
    }
    if let Some(p) = pos.piece_at(sq) {
        return format!("{sq}: {}", piece(p));
    }
    if pos.loose_ball() == Some(sq) {
        return format!("{sq}: the loose ball");
    }
    format!("{sq}: empty")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventKind;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new_with_kind(code, KeyModifiers::NONE, KeyEventKind::Press)
    }

    fn sq(s: &str) -> Sq {
        Sq::parse(s).unwrap()
    }

    fn hot_seat() -> App {
        App::new_game(Ruleset::standard(), [Seat::Human, Seat::Human], None)
    }

    /// Every action the board can build is in the kernel's legal list,
    /// and every legal action can be built: walk the whole choice tree.
    #[test]
    fn choices_build_exactly_the_legal_list() {
        fn walk(app: &App, prefix: &mut Vec<Choice>, out: &mut Vec<Action>) {
            let n = prefix.len();
            for (a, s) in app.matching(prefix) {
                if s.len() == n {
                    out.push(*a);
                }
            }
            let mut next = app.options_after(prefix);
            if prefix.is_empty() {
                next.extend(app.card_choices());
            }
            for c in next {
                prefix.push(c);
                walk(app, prefix, out);
                prefix.pop();
            }
        }
        // Along seeded random games, so that dodges, passes, stacks,
        // releases with a keeper and stand-ups all come up.
        for seed in 0..4 {
            let mut app = hot_seat();
            let mut rng = crate::kernel::rng::SplitMix64::new(seed);
            for _ in 0..400 {
                let game = app.history().game().clone();
                let pos = *app.position();
                let mut built = Vec::new();
                walk(&app, &mut Vec::new(), &mut built);
                built.extend(app.whole_actions());
                let mut got: Vec<String> = built.iter().map(|a| a.to_string()).collect();
                got.sort();
                got.dedup();
                assert_eq!(got, game.canonical_legal(&pos), "seed {seed}, {pos:?}");
                let legal = game.legal(&pos);
                if legal.is_empty() {
                    break;
                }
                app.commit(legal[rng.below(legal.len())]);
            }
        }
    }

    #[test]
    fn escape_leaves_the_game_unchanged() {
        let mut app = hot_seat();
        let before = *app.position();
        app.click_square(sq("I11")); // DEF3
        assert_eq!(app.chosen().len(), 2, "DEF3 can only move: menu skipped");
        app.key(key(KeyCode::Esc));
        assert!(app.chosen().is_empty());
        assert_eq!(*app.position(), before);
        assert_eq!(app.version(), 0);
    }

    #[test]
    fn a_whole_action_by_clicks() {
        let mut app = hot_seat();
        app.click_square(sq("I11"));
        app.click_square(sq("H10"));
        assert_eq!(app.history().actions()[0].to_string(), "move DEF3 H10");
        assert!(app.is_dirty());
    }

    #[test]
    fn clicking_a_non_choice_changes_nothing() {
        let mut app = hot_seat();
        app.click_square(sq("G5")); // ATK5: not DEF's
        assert!(app.chosen().is_empty());
        assert!(app.message().unwrap().1.contains("not yours"));
        app.click_square(sq("I11"));
        app.click_square(sq("A1"));
        assert_eq!(app.chosen().len(), 2);
        assert!(app.history().played().is_empty());
    }

    #[test]
    fn cursor_moves_stay_on_playable_squares_and_come_back() {
        let mut c = Cursor::at(sq("G9"));
        for _ in 0..30 {
            c.vertical(true);
            let _ = c.square();
        }
        assert_eq!(c.square().row(), 17);
        for _ in 0..30 {
            c.horizontal(true);
            c.vertical(false);
            let _ = c.square();
        }
        let mut c = Cursor::at(sq("G9"));
        c.vertical(true);
        c.vertical(false);
        assert_eq!(c.square(), sq("G9"));
        let mut edge = Cursor::at(sq("M17"));
        edge.vertical(false);
        assert_eq!(edge.square(), sq("L16"));
        edge.horizontal(true);
        assert_eq!(edge.square(), sq("L16"));
    }

    #[test]
    fn undo_with_a_bot_returns_to_the_humans_turn() {
        let mut app = App::new_game(
            Ruleset::standard(),
            [Seat::Bot("random".into()), Seat::Human],
            Some(1),
        );
        app.click_square(sq("I11"));
        app.click_square(sq("H10"));
        app.key(key(KeyCode::Char('e')));
        // The bot (ATK) plays its turn.
        let game = app.history().game().clone();
        let mut bot = crate::bots::from_spec("random", 1).unwrap();
        while let Some(req) = app.bot_request() {
            let legal = game.legal(&req.position);
            let a = bot.choose(&game, &req.position, &legal);
            assert!(app.bot_played(req.version, a));
        }
        assert!(app.human_to_move());
        let before_end = app.history().played()[1].before;
        app.undo();
        assert_eq!(
            *app.position(),
            before_end,
            "undid the bot's turn and DEF's end"
        );
        assert_eq!(app.history().played().len(), 1);
        app.redo();
        assert!(app.human_to_move());
        assert!(app.history().played().len() > 2);
    }

    #[test]
    fn a_stale_bot_answer_is_dropped() {
        let mut app = App::new_game(
            Ruleset::standard(),
            [Seat::Human, Seat::Bot("random".into())],
            Some(1),
        );
        let req = app.bot_request().unwrap();
        assert_eq!(req.team, Team::Def);
        // An illegal answer is refused by the kernel.
        assert!(!app.bot_played(req.version, "move ATK5 G7".parse().unwrap()));
        assert!(!app.bot_played(req.version + 1, Action::End));
        assert!(app.bot_played(req.version, Action::End));
    }

    #[test]
    fn quitting_asks_only_when_something_would_be_lost() {
        let mut app = hot_seat();
        app.key(key(KeyCode::Char('q')));
        assert!(app.should_quit());
        let mut app = hot_seat();
        app.key(key(KeyCode::Char('e')));
        app.key(key(KeyCode::Char('q')));
        assert_eq!(app.dialog(), Some(&Dialog::ConfirmQuit));
        app.key(key(KeyCode::Char('x')));
        assert!(!app.should_quit());
        app.key(key(KeyCode::Esc));
        assert!(app.dialog().is_none());
        app.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        app.key(key(KeyCode::Char('y')));
        assert!(app.should_quit());
    }
}
