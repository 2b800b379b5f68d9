//! The Gateball board's state machine, apart from any terminal: the
//! position, the log, what the player has chosen so far, dialogs and the
//! bot seats. Drawing (`view.rs`) only reads it; the terminal loop
//! (`mod.rs`) only feeds it keys, clicks and bot answers, so all of it is
//! tested without a terminal.
//!
//! **Legality comes from the engine only.** Every choice the board offers
//! is read off `Gateball::legal` (T13), split along the order of decisions
//! of T4.3: the shot type (`p`, `t`, `e`), then — knowing the dice — the
//! Start Space of a start shot, then the direction and die of a power move
//! or the steps of a technical path. A partial choice is accepted only if
//! some legal action continues it, and an action is played only when the
//! choices name one action of the legal list, exactly (compared by
//! equality; its text is the notation). Where a move would end is the
//! engine's judgement too (`rules::judge_move`), shown so the player sees
//! what the notation means.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::bot::{self, Level};
use crate::games::gateball::Gateball;
use crate::games::gateball::action::{Action, Motion, Move};
use crate::games::gateball::event::Event;
use crate::games::gateball::position::{Phase, Place, Position, ShotKind, Team, Winner};
use crate::games::gateball::rules::{self, End, Outcome};
use crate::games::gateball::space::{Dir, Space};
use crate::kernel::rng::SplitMix64;

/// Who plays a team: a person at this terminal, or a bot of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Bot(Level),
}

impl Seat {
    pub fn is_bot(self) -> bool {
        matches!(self, Seat::Bot(_))
    }

    /// How the panel names the seat.
    pub fn label(self) -> &'static str {
        match self {
            Seat::Human => "you",
            Seat::Bot(Level::Random) => "random bot",
            Seat::Bot(Level::Greedy) => "greedy bot",
        }
    }
}

/// The team of a seat index: red is seat 0, blue seat 1.
pub fn team_index(team: Team) -> usize {
    match team {
        Team::Red => 0,
        Team::Blue => 1,
    }
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    pub text: String,
    pub kind: LogKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogKind {
    /// `> action`, played for this team.
    Action(Team),
    /// An engine event.
    Event,
    /// An event worth noticing: gate, goal, the end.
    Loud,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialog {
    /// The keys.
    Help,
    /// `q` in a game that is not over.
    ConfirmQuit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    Info,
    Error,
}

/// One legal move of phase `move` or `spark`, with the engine's judgement
/// of it and the spaces it crosses, for drawing.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub action: Action,
    /// The notation, `shot T1 nnen`.
    pub text: String,
    pub start: Option<Space>,
    pub motion: Motion,
    pub origin: Space,
    /// Where the moving ball comes to rest or leaves the move: the space
    /// a step stopped on (touch, collision, Outside Line) or the last one.
    pub end: Space,
    /// The spaces entered, in order (the origin not included).
    pub trace: Vec<Space>,
    pub outcome: Outcome,
}

/// What has been chosen of the move so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// A start shot's Start Space (T9.1), always one that has legal moves.
    pub start: Option<Space>,
    /// Power: the direction …
    pub dir: Option<Dir>,
    /// … and, diagonally, the distance (one die's value).
    pub dist: Option<u8>,
    /// Technical: the steps so far.
    pub steps: Vec<Dir>,
}

/// What the bot of the team to play is asked. The bot's RNG travels with
/// the request and comes back with the answer, so a game played through
/// [`App::step`] and one played by the terminal's bot thread choose the
/// same actions from the same seed.
#[derive(Clone, Debug)]
pub struct BotRequest {
    /// Answers for an older version are dropped.
    pub version: u64,
    pub team: Team,
    pub level: Level,
    pub position: Position,
    pub rng: SplitMix64,
}

/// The board's whole state.
#[derive(Clone)]
pub struct App {
    game: Gateball,
    start: Position,
    pos: Position,
    played: Vec<Action>,
    log: Vec<LogLine>,
    seats: [Seat; 2],
    rngs: [SplitMix64; 2],
    legal: Vec<Action>,
    candidates: Vec<Candidate>,
    sel: Selection,
    /// The spaces of the last shot or spark, origin first.
    last_trace: Vec<Space>,
    dialog: Option<Dialog>,
    message: Option<(Note, String)>,
    log_scroll: usize,
    version: u64,
    quit: bool,
}

impl App {
    /// A game from `start`, its creation events in the log. Red's bot draws
    /// from `seed`, blue's from `seed + 1`, so two bots do not mirror each
    /// other.
    pub fn new(
        game: Gateball,
        start: Position,
        events: Vec<Event>,
        seats: [Seat; 2],
        seed: u64,
    ) -> App {
        let mut app = App {
            game,
            pos: start.clone(),
            start,
            played: Vec::new(),
            log: Vec::new(),
            seats,
            rngs: [SplitMix64::new(seed), SplitMix64::new(seed.wrapping_add(1))],
            legal: Vec::new(),
            candidates: Vec::new(),
            sel: Selection::default(),
            last_trace: Vec::new(),
            dialog: None,
            message: None,
            log_scroll: 0,
            version: 0,
            quit: false,
        };
        for e in &events {
            app.push_event(e);
        }
        app.refresh();
        app
    }

    // ---- what the view reads ----

    pub fn game(&self) -> &Gateball {
        &self.game
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// Every action played, in order.
    pub fn played(&self) -> &[Action] {
        &self.played
    }

    pub fn log(&self) -> &[LogLine] {
        &self.log
    }

    pub fn log_scroll(&self) -> usize {
        self.log_scroll
    }

    pub fn seat(&self, team: Team) -> Seat {
        self.seats[team_index(team)]
    }

    /// The team whose player decides now (the playing ball's; T2.2).
    pub fn team(&self) -> Team {
        Team::of_ball(self.pos.ball)
    }

    pub fn dialog(&self) -> Option<Dialog> {
        self.dialog
    }

    pub fn message(&self) -> Option<(Note, &str)> {
        self.message.as_ref().map(|(n, m)| (*n, m.as_str()))
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Changes with every action played.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The canonical legal list of the position.
    pub fn legal(&self) -> &[Action] {
        &self.legal
    }

    pub fn selection(&self) -> &Selection {
        &self.sel
    }

    /// The person at the terminal decides now.
    pub fn human_to_move(&self) -> bool {
        !self.pos.is_over() && !self.seat(self.team()).is_bot()
    }

    /// A person chooses a move now (phase `move` or `spark`).
    pub fn choosing_move(&self) -> bool {
        self.human_to_move() && matches!(self.pos.phase, Phase::Move | Phase::Spark)
    }

    /// The kind of the move being chosen: power (straight) or tech (path).
    pub fn move_kind(&self) -> Option<ShotKind> {
        match self.pos.phase {
            Phase::Move | Phase::Spark => self.pos.shot,
            _ => None,
        }
    }

    /// The Start Spaces that have legal moves, in board order; empty unless
    /// this is a start shot.
    pub fn starts(&self) -> Vec<Space> {
        let mut v: Vec<Space> = self.candidates.iter().filter_map(|c| c.start).collect();
        v.sort();
        v.dedup();
        v
    }

    /// The legal moves from the chosen Start Space (all of them when the
    /// move is not a start shot).
    pub fn candidates(&self) -> impl Iterator<Item = &Candidate> {
        let start = self.sel.start;
        self.candidates.iter().filter(move |c| c.start == start)
    }

    /// Every legal move of the position, whatever the Start Space.
    pub fn all_candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// The legal moves that continue the selection.
    pub fn continuing(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates().filter(|c| continues(&self.sel, c))
    }

    /// The move the selection names exactly, if it names one.
    pub fn current(&self) -> Option<&Candidate> {
        self.candidates().find(|c| names(&self.sel, c))
    }

    /// The action the selection names, if it names one of the legal list.
    pub fn current_action(&self) -> Option<Action> {
        self.current().map(|c| c.action)
    }

    /// The notation of what is chosen so far: a whole action (`shot T1
    /// nnen`) or its beginning (`shot T1 nn`, `spark NE`).
    pub fn action_text(&self) -> String {
        if let Some(c) = self.current() {
            return c.text.clone();
        }
        let verb = match self.pos.phase {
            Phase::Spark => "spark",
            _ => "shot",
        };
        let mut s = verb.to_string();
        if let Some(st) = self.sel.start {
            s.push_str(&format!(" {st}"));
        }
        match self.move_kind() {
            Some(ShotKind::Power) => {
                if let Some(d) = self.sel.dir {
                    s.push_str(&format!(" {}", d.name()));
                }
            }
            Some(ShotKind::Tech) if !self.sel.steps.is_empty() => {
                s.push(' ');
                s.extend(self.sel.steps.iter().map(|d| d.letter()));
            }
            _ => {}
        }
        s
    }

    /// The selection is one the legal list continues: the test of "never
    /// in an illegal state". Trivially true outside a person's move.
    pub fn selection_is_consistent(&self) -> bool {
        let starts = self.starts();
        let start_ok = match self.sel.start {
            Some(s) => starts.contains(&s),
            None => starts.is_empty(),
        };
        if !self.choosing_move() {
            let empty =
                self.sel.dir.is_none() && self.sel.dist.is_none() && self.sel.steps.is_empty();
            return start_ok && empty;
        }
        start_ok && self.continuing().next().is_some()
    }

    /// Spaces to mark as reachable: the end spaces of the legal moves that
    /// continue the selection.
    pub fn highlighted(&self) -> Vec<Space> {
        if !self.choosing_move() {
            return Vec::new();
        }
        let mut v: Vec<Space> = match self.move_kind() {
            // Power: every end from this Start Space, so the other
            // directions stay visible once one is chosen.
            Some(ShotKind::Power) => self.candidates().map(|c| c.end).collect(),
            _ => self.continuing().map(|c| c.end).collect(),
        };
        v.sort();
        v.dedup();
        v
    }

    /// Spaces to mark as chosen: the origin, the path built so far, or the
    /// whole trace of the chosen move.
    pub fn chosen_spaces(&self) -> Vec<Space> {
        if !self.choosing_move() {
            return Vec::new();
        }
        let Some(origin) = self.origin() else {
            return Vec::new();
        };
        let mut v = vec![origin];
        if let Some(c) = self.current() {
            v.extend(&c.trace);
        } else if self.move_kind() == Some(ShotKind::Tech) {
            v.extend(self.path_spaces());
        }
        v
    }

    /// Where the move being chosen starts from: the chosen Start Space,
    /// the ball's space, the entry space, the touch space.
    pub fn origin(&self) -> Option<Space> {
        self.candidates().next().map(|c| c.origin)
    }

    /// The spaces the technical path built so far enters (it is a prefix
    /// of a legal path, whose trace it follows).
    fn path_spaces(&self) -> Vec<Space> {
        let n = self.sel.steps.len();
        self.continuing()
            .next()
            .map(|c| c.trace.iter().take(n).copied().collect())
            .unwrap_or_default()
    }

    /// The next steps the path builder accepts.
    pub fn next_steps(&self) -> Vec<Dir> {
        if self.move_kind() != Some(ShotKind::Tech) {
            return Vec::new();
        }
        Dir::ORTHOGONAL
            .into_iter()
            .filter(|&d| {
                let mut steps = self.sel.steps.clone();
                steps.push(d);
                self.candidates().any(|c| path_starts_with(c, &steps))
            })
            .collect()
    }

    /// The squares of the last shot or spark played, origin first.
    pub fn last_trace(&self) -> &[Space] {
        &self.last_trace
    }

    /// What the player is asked to do now, in a few words.
    pub fn prompt(&self) -> String {
        let pos = &self.pos;
        if pos.is_over() {
            return format!("game over: {} · q quits", result_text(pos));
        }
        let team = self.team();
        if let Seat::Bot(_) = self.seat(team) {
            return format!(
                "{} ({}) is playing ball {}",
                team.name(),
                self.seat(team).label(),
                pos.ball
            );
        }
        let b = pos.ball;
        let what = match pos.ball_state(b).place {
            Place::Waiting => "start shot".to_string(),
            Place::Out(s) => format!("re-entry from {s}"),
            Place::Court(s) => format!("shot from {s}"),
            Place::Goal => "goal".to_string(),
        };
        let dice = dice_text(&pos.dice);
        match (pos.phase, pos.shot) {
            (Phase::Shot, _) if pos.continuation => format!(
                "ball {b} ({}), continuation {what}: p power, t tech, or e end the play",
                team.name()
            ),
            (Phase::Shot, _) => format!(
                "ball {b} ({}), {what}: p power (two dice) or t tech (one die)",
                team.name()
            ),
            (Phase::Move | Phase::Spark, Some(kind)) => {
                let head = if pos.phase == Phase::Spark {
                    format!(
                        "spark ball {} ({} {dice})",
                        pos.spark.unwrap_or(0),
                        kind.name()
                    )
                } else {
                    format!("ball {b} {what} ({} {dice})", kind.name())
                };
                match kind {
                    ShotKind::Power => {
                        let die = self.sel.dir.is_some_and(|d| !d.is_orthogonal())
                            && self.dist_choices().len() > 1;
                        let what = match (die, self.sel.start.is_some()) {
                            (true, true) => "direction, die and Start Space",
                            (true, false) => "direction and die",
                            (false, true) => "direction and Start Space",
                            (false, false) => "the direction",
                        };
                        format!("{head}: choose {what}")
                    }
                    ShotKind::Tech => format!("{head}: build the path step by step"),
                }
            }
            _ => "choose".into(),
        }
    }

    /// What the chosen move does, as the engine judges it.
    pub fn outcome_text(&self) -> Option<String> {
        let c = self.current()?;
        Some(describe_outcome(&self.game, c))
    }

    /// The distances a diagonal of the chosen direction may take, in dice
    /// order.
    pub fn dist_choices(&self) -> Vec<u8> {
        let Some(dir) = self.sel.dir else {
            return Vec::new();
        };
        let mut v = Vec::new();
        for &d in &self.pos.dice {
            if !v.contains(&d)
                && self.candidates().any(|c| {
                    c.motion
                        == Motion::Straight {
                            dir,
                            dist: if dir.is_orthogonal() {
                                self.pos.dice.iter().sum()
                            } else {
                                d
                            },
                        }
                })
            {
                v.push(d);
            }
        }
        v
    }

    // ---- bots ----

    /// What the bot to play is asked, if a bot is to play and no dialog
    /// pauses the game.
    pub fn bot_request(&self) -> Option<BotRequest> {
        if self.pos.is_over() || self.dialog.is_some() {
            return None;
        }
        let team = self.team();
        match self.seat(team) {
            Seat::Bot(level) => Some(BotRequest {
                version: self.version,
                team,
                level,
                position: self.pos.clone(),
                rng: self.rngs[team_index(team)],
            }),
            Seat::Human => None,
        }
    }

    /// Asks the bot module for the request's action: the one call site of
    /// `bot::choose`.
    pub fn bot_choose(game: &Gateball, req: &BotRequest) -> (Action, SplitMix64) {
        let mut rng = req.rng;
        let a = bot::choose(game, &req.position, req.level, &mut rng);
        (a, rng)
    }

    /// A bot's answer to the request of `version`, with its RNG after the
    /// choice. Returns whether it was played: a stale answer is dropped,
    /// an illegal one (a bot bug) refused and reported.
    pub fn bot_answer(&mut self, version: u64, action: Action, rng: SplitMix64) -> bool {
        let Some(req) = self.bot_request() else {
            return false;
        };
        if req.version != version {
            return false;
        }
        if !self.legal.contains(&action) {
            self.error(format!("the bot chose `{action}`, which is not legal"));
            return false;
        }
        self.rngs[team_index(req.team)] = rng;
        self.play(action)
    }

    /// Plays one bot action at once, on this thread. Returns false when no
    /// bot is to play. The game's step function for tests and headless
    /// play.
    pub fn step(&mut self) -> bool {
        let Some(req) = self.bot_request() else {
            return false;
        };
        let (a, rng) = App::bot_choose(&self.game, &req);
        self.bot_answer(req.version, a, rng)
    }

    /// The bot could not answer: the game waits.
    pub fn bot_failed(&mut self, why: &str) {
        self.error(format!("the bot stopped: {why}"));
    }

    // ---- input ----

    /// Handles one key press. Keys that mean nothing now are ignored.
    pub fn key(&mut self, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            self.dialog = None;
            return self.request_quit();
        }
        if let Some(d) = self.dialog {
            return self.dialog_key(d, key.code);
        }
        if ctrl {
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
        if !self.human_to_move() {
            return;
        }
        self.message = None;
        match self.pos.phase {
            Phase::Shot => self.shot_key(key.code),
            Phase::Move | Phase::Spark => match self.move_kind() {
                Some(ShotKind::Power) => self.power_key(key.code),
                Some(ShotKind::Tech) => self.tech_key(key.code),
                None => {}
            },
            Phase::Over => {}
        }
    }

    fn dialog_key(&mut self, d: Dialog, code: KeyCode) {
        match d {
            Dialog::Help => self.dialog = None,
            Dialog::ConfirmQuit => match code {
                KeyCode::Char('y' | 'q') => self.quit = true,
                KeyCode::Char('n') | KeyCode::Esc => self.dialog = None,
                _ => {}
            },
        }
    }

    /// `q`: a finished game quits at once, a running one asks.
    pub fn request_quit(&mut self) {
        if self.pos.is_over() {
            self.quit = true;
        } else {
            self.dialog = Some(Dialog::ConfirmQuit);
        }
    }

    pub fn close_dialog(&mut self) {
        self.dialog = None;
    }

    /// Scrolls the log back (`lines` > 0) or forward.
    pub fn scroll_log(&mut self, lines: isize) {
        let max = self.log.len().saturating_sub(1);
        self.log_scroll = self.log_scroll.saturating_add_signed(lines).min(max);
    }

    /// T4.3 (1): the shot type, or `end` for a continuation (T7.8).
    fn shot_key(&mut self, code: KeyCode) {
        let wanted = match code {
            KeyCode::Char('p') => Action::Power,
            KeyCode::Char('t') => Action::Tech,
            KeyCode::Char('e') => Action::End,
            _ => return,
        };
        if self.legal.contains(&wanted) {
            self.play(wanted);
        } else {
            self.info(format!(
                "`{wanted}` is not legal now: only a continuation may end the play (T7.8)"
            ));
        }
    }

    fn power_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Enter | KeyCode::Char(' ') => self.enter(),
            KeyCode::Esc => self.clear(),
            KeyCode::Backspace => {
                self.sel.dir = None;
                self.sel.dist = None;
            }
            KeyCode::Tab => self.cycle_start(1),
            KeyCode::BackTab => self.cycle_start(-1),
            KeyCode::Char('[') => self.choose_die(0),
            KeyCode::Char(']') => self.choose_die(1),
            code => {
                if let Some(d) = key_dir(code, true) {
                    self.choose_dir(d);
                }
            }
        }
    }

    fn tech_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Enter | KeyCode::Char(' ') => self.enter(),
            KeyCode::Esc => self.clear(),
            KeyCode::Backspace => {
                self.sel.steps.pop();
            }
            KeyCode::Tab => self.cycle_start(1),
            KeyCode::BackTab => self.cycle_start(-1),
            code => {
                if let Some(d) = key_dir(code, false) {
                    self.add_step(d);
                }
            }
        }
    }

    /// Enter: plays the selection if it names a legal action.
    fn enter(&mut self) {
        match self.current_action() {
            Some(a) => {
                self.play(a);
            }
            None => {
                let more = match self.move_kind() {
                    Some(ShotKind::Tech) => "the path is not finished",
                    _ => "choose a direction first",
                };
                self.info(format!(
                    "`{}` is not a whole action: {more}",
                    self.action_text()
                ));
            }
        }
    }

    /// Esc: drops the partial selection (the Start Space stays).
    fn clear(&mut self) {
        self.sel.dir = None;
        self.sel.dist = None;
        self.sel.steps.clear();
    }

    fn cycle_start(&mut self, by: isize) {
        let starts = self.starts();
        let Some(cur) = self.sel.start else { return };
        if starts.len() < 2 {
            return;
        }
        let i = starts.iter().position(|&s| s == cur).unwrap_or(0) as isize;
        let n = starts.len() as isize;
        self.set_start(starts[(i + by).rem_euclid(n) as usize]);
    }

    /// Moves to another Start Space, keeping what was chosen if the legal
    /// list continues it from there.
    fn set_start(&mut self, s: Space) {
        self.sel.start = Some(s);
        if self.continuing().next().is_none() {
            self.clear();
        }
        if self.sel.dir.is_some() && self.current().is_none() {
            self.sel.dist = self.dist_choices().first().copied();
        }
    }

    /// A direction key: picks it if a legal straight move goes that way;
    /// the same diagonal again switches to the other die.
    fn choose_dir(&mut self, dir: Dir) {
        let exists = self
            .candidates()
            .any(|c| matches!(c.motion, Motion::Straight { dir: d, .. } if d == dir));
        if !exists {
            let from = self
                .sel
                .start
                .map_or(String::new(), |s| format!(" from {s}"));
            return self.info(format!(
                "no legal move goes {}{from} with these dice",
                dir.name()
            ));
        }
        if self.sel.dir == Some(dir) && !dir.is_orthogonal() {
            let dists = self.dist_choices();
            if dists.len() > 1 {
                let i = dists.iter().position(|&d| Some(d) == self.sel.dist);
                self.sel.dist = Some(dists[i.map_or(0, |i| (i + 1) % dists.len())]);
            }
            return;
        }
        self.sel.dir = Some(dir);
        self.sel.dist = if dir.is_orthogonal() {
            None
        } else {
            self.dist_choices().first().copied()
        };
    }

    /// `[` / `]`: the first or the second die for a diagonal (T5.2).
    fn choose_die(&mut self, i: usize) {
        let Some(dir) = self.sel.dir else {
            return self.info("choose a diagonal direction first".into());
        };
        if dir.is_orthogonal() {
            return self.info(format!(
                "{} is orthogonal: it goes the sum of the dice",
                dir.name()
            ));
        }
        let Some(&d) = self.pos.dice.get(i) else {
            return;
        };
        if self.dist_choices().contains(&d) {
            self.sel.dist = Some(d);
        } else {
            self.info(format!("no legal move goes {} {d}", dir.name()));
        }
    }

    /// A step of the technical path, accepted only if some legal path
    /// begins with the path so extended.
    fn add_step(&mut self, dir: Dir) {
        let mut steps = self.sel.steps.clone();
        steps.push(dir);
        if self.candidates().any(|c| path_starts_with(c, &steps)) {
            self.sel.steps = steps;
        } else if self.current().is_some() {
            self.info(format!(
                "`{}` is a whole action: Enter plays it, Backspace undoes a step",
                self.action_text()
            ));
        } else {
            self.info(format!(
                "no legal path continues `{}` with {}",
                self.action_text(),
                dir.letter()
            ));
        }
    }

    /// A mouse click on a board space, in phase `move` or `spark`: a
    /// reachable end space chooses a move that ends there (clicked again,
    /// it plays); a space next to the path's head extends it.
    pub fn click_space(&mut self, s: Space) {
        if self.dialog.is_some() || !self.choosing_move() {
            return;
        }
        self.message = None;
        if let Some(c) = self.current()
            && c.end == s
        {
            let a = c.action;
            self.play(a);
            return;
        }
        if self.move_kind() == Some(ShotKind::Tech) {
            let head = self.path_spaces().last().copied().or_else(|| self.origin());
            if let Some(head) = head
                && let Some(d) = Dir::ORTHOGONAL
                    .into_iter()
                    .find(|&d| self.game.court.step(head, d) == Some(s))
                && self.next_steps().contains(&d)
            {
                self.sel.steps.push(d);
                return;
            }
        }
        // A move ending there: one that continues the selection, else any
        // from this Start Space, else any from another.
        let pick = self
            .continuing()
            .find(|c| c.end == s)
            .or_else(|| self.candidates().find(|c| c.end == s))
            .or_else(|| self.candidates.iter().find(|c| c.end == s))
            .cloned();
        let Some(c) = pick else { return };
        self.sel = selection_of(&c);
    }

    // ---- playing ----

    /// Plays a legal action through the engine and logs it. Returns
    /// whether it was played.
    fn play(&mut self, action: Action) -> bool {
        if !self.legal.contains(&action) {
            self.error(format!("`{action}` is not in the legal list"));
            return false;
        }
        let team = self.team();
        let trace = self
            .candidates
            .iter()
            .find(|c| c.action == action)
            .map(|c| {
                let mut v = vec![c.origin];
                v.extend(&c.trace);
                v
            });
        let mut next = self.pos.clone();
        let mut events: Vec<Event> = Vec::new();
        if let Err(e) = self.game.play(&mut next, action, &mut events) {
            self.error(format!("the engine refused `{action}`: {e}"));
            return false;
        }
        self.pos = next;
        self.played.push(action);
        self.log.push(LogLine {
            text: format!("> {action}"),
            kind: LogKind::Action(team),
        });
        for e in &events {
            self.push_event(e);
        }
        if let Some(t) = trace {
            self.last_trace = t;
        }
        self.log_scroll = 0;
        self.version += 1;
        self.refresh();
        true
    }

    fn push_event(&mut self, e: &Event) {
        let kind = match e {
            Event::Gate { .. } | Event::Goal(_) | Event::Perfect(_) | Event::Over { .. } => {
                LogKind::Loud
            }
            _ => LogKind::Event,
        };
        self.log.push(LogLine {
            text: e.to_string(),
            kind,
        });
    }

    /// Recomputes the legal list and the moves after a change, and resets
    /// the selection.
    fn refresh(&mut self) {
        self.legal = self.game.legal(&self.pos);
        self.candidates = candidates(&self.game, &self.pos, &self.legal);
        self.sel = Selection {
            start: self.candidates.iter().find_map(|c| c.start),
            ..Selection::default()
        };
    }

    fn info(&mut self, msg: String) {
        self.message = Some((Note::Info, msg));
    }

    fn error(&mut self, msg: String) {
        self.message = Some((Note::Error, msg));
    }
}

/// The arrow keys and the numeric keypad's layout on the digits: 8 north,
/// 2 south, 4 west, 6 east, and (power only) 7 9 1 3 the diagonals.
pub fn key_dir(code: KeyCode, diagonals: bool) -> Option<Dir> {
    let d = match code {
        KeyCode::Up | KeyCode::Char('8') => Dir::N,
        KeyCode::Down | KeyCode::Char('2') => Dir::S,
        KeyCode::Left | KeyCode::Char('4') => Dir::W,
        KeyCode::Right | KeyCode::Char('6') => Dir::E,
        KeyCode::Char('7') => Dir::NW,
        KeyCode::Char('9') => Dir::NE,
        KeyCode::Char('1') => Dir::SW,
        KeyCode::Char('3') => Dir::SE,
        _ => return None,
    };
    (diagonals || d.is_orthogonal()).then_some(d)
}

/// The keys that make `c` from an empty selection with its Start Space
/// chosen: the direction (and the die: the direction again), or the steps.
pub fn selection_of(c: &Candidate) -> Selection {
    match c.motion {
        Motion::Straight { dir, dist } => Selection {
            start: c.start,
            dir: Some(dir),
            dist: (!dir.is_orthogonal()).then_some(dist),
            steps: Vec::new(),
        },
        Motion::Path { steps, len } => Selection {
            start: c.start,
            dir: None,
            dist: None,
            steps: steps[..usize::from(len)].to_vec(),
        },
    }
}

fn path_starts_with(c: &Candidate, prefix: &[Dir]) -> bool {
    match c.motion {
        Motion::Path { steps, len } => steps[..usize::from(len)].starts_with(prefix),
        Motion::Straight { .. } => false,
    }
}

/// The candidate goes on from the selection (its Start Space is the
/// caller's filter).
fn continues(sel: &Selection, c: &Candidate) -> bool {
    match c.motion {
        Motion::Straight { dir, dist } => {
            sel.dir.is_none_or(|d| d == dir) && sel.dist.is_none_or(|d| d == dist)
        }
        Motion::Path { .. } => path_starts_with(c, &sel.steps),
    }
}

/// The selection names exactly this candidate.
fn names(sel: &Selection, c: &Candidate) -> bool {
    match c.motion {
        Motion::Straight { dir, dist } => {
            sel.dir == Some(dir) && (dir.is_orthogonal() || sel.dist == Some(dist))
        }
        Motion::Path { steps, len } => sel.steps == steps[..usize::from(len)],
    }
}

/// The moves of the legal list, each judged by the engine and traced for
/// drawing. Empty outside phases `move` and `spark`.
pub fn candidates(game: &Gateball, pos: &Position, legal: &[Action]) -> Vec<Candidate> {
    let Some((ball, _, origins)) = rules::mover(game, pos) else {
        return Vec::new();
    };
    legal
        .iter()
        .filter_map(|&action| {
            let m: Move = match action {
                Action::Shot(m) | Action::Spark(m) => m,
                _ => return None,
            };
            let outcome = rules::judge_move(game, pos, &m).ok()?;
            let origin = m.start.unwrap_or(*origins.first()?);
            let trace = trace(game, pos, ball, origin, m.motion, outcome.end);
            let end = match outcome.end {
                End::Goal => game.court.finish,
                End::At(s)
                | End::Out(s)
                | End::Touch { at: s, .. }
                | End::Twice { at: s, .. }
                | End::Collide { at: s, .. } => s,
                End::FailStart => trace.last().copied().unwrap_or(origin),
            };
            Some(Candidate {
                action,
                text: action.to_string(),
                start: m.start,
                motion: m.motion,
                origin,
                end,
                trace,
                outcome,
            })
        })
        .collect()
}

/// The spaces a judged move enters, for drawing only: a path's steps as
/// written; a straight move's steps up to the space its judgement names.
/// A failed start names none, so its trace runs until the first Outside
/// Line space or ball, as T5.5 stops it, or to its full distance.
fn trace(
    game: &Gateball,
    pos: &Position,
    ball: u8,
    origin: Space,
    motion: Motion,
    end: End,
) -> Vec<Space> {
    let court = &game.court;
    let mut out = Vec::new();
    let mut at = origin;
    match motion {
        Motion::Path { steps, len } => {
            for &d in &steps[..usize::from(len)] {
                match court.step(at, d) {
                    Some(s) => {
                        out.push(s);
                        at = s;
                    }
                    None => break,
                }
            }
        }
        Motion::Straight { dir, dist } => {
            let stop = match end {
                End::At(s)
                | End::Out(s)
                | End::Touch { at: s, .. }
                | End::Twice { at: s, .. }
                | End::Collide { at: s, .. } => Some(s),
                End::Goal => Some(court.finish),
                End::FailStart => None,
            };
            if stop == Some(origin) {
                return out;
            }
            for _ in 0..dist {
                let Some(s) = court.step(at, dir) else { break };
                out.push(s);
                at = s;
                let stopped = match stop {
                    Some(t) => s == t,
                    None => court.is_outside(s) || pos.ball_at(s, ball).is_some(),
                };
                if stopped {
                    break;
                }
            }
        }
    }
    out
}

/// The engine's judgement of a move in words: gates scored, then how it
/// ends.
pub fn describe_outcome(game: &Gateball, c: &Candidate) -> String {
    let mut parts: Vec<String> = c
        .outcome
        .passages()
        .map(|p| {
            if p.scored {
                format!("scores gate {}", p.gate)
            } else if p.forward {
                format!("passes gate {} (no point)", p.gate)
            } else {
                format!("passes gate {} backward", p.gate)
            }
        })
        .collect();
    let name = |b: u8| ball_name(b);
    parts.push(match c.outcome.end {
        End::At(s) => format!("stops on {s}"),
        End::Out(s) => format!("leaves the court at {s}"),
        End::Goal => format!("Goal on {}", game.court.finish),
        End::Touch { ball, at, .. } => format!("touches {} on {at}: spark", name(ball)),
        End::Twice { ball, at } => {
            format!("touches {} again on {at}: Touched Twice, out", name(ball))
        }
        End::FailStart => "the start fails (gate 1 not passed)".into(),
        End::Collide { ball, at } => format!("stops on {at} before {}", name(ball)),
    });
    parts.join(", ")
}

/// A ball as the board draws it: `r1`, `b10`.
pub fn ball_name(n: u8) -> String {
    let t = match Team::of_ball(n) {
        Team::Red => 'r',
        Team::Blue => 'b',
    };
    format!("{t}{n}")
}

pub fn dice_text(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// `red wins 14-9`, `draw 10-10`, with a Perfect Game said.
pub fn result_text(pos: &Position) -> String {
    let (r, b) = (pos.score(Team::Red), pos.score(Team::Blue));
    let perfect = if pos.perfect {
        " by a Perfect Game"
    } else {
        ""
    };
    match pos.winner {
        Some(Winner::Team(t)) => format!("{} wins {r}-{b}{perfect}", t.name()),
        Some(Winner::Draw) => format!("draw {r}-{b}"),
        None => format!("red {r} - blue {b}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gateball::event::PlayKind;

    fn app() -> App {
        App::new(
            Gateball::standard(),
            Position::start(SplitMix64::new(0)),
            vec![Event::Turn(1), Event::Play(1, PlayKind::Start)],
            [Seat::Human, Seat::Human],
            0,
        )
    }

    fn press(app: &mut App, code: KeyCode) {
        app.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    #[test]
    fn the_shot_type_is_chosen_by_its_key() {
        let mut a = app();
        press(&mut a, KeyCode::Char('e'));
        assert!(a.played().is_empty(), "no continuation: end is not legal");
        press(&mut a, KeyCode::Char('p'));
        assert_eq!(a.played(), [Action::Power]);
        assert_eq!(a.position().phase, Phase::Move);
        assert_eq!(a.selection().start, a.starts().first().copied());
    }

    #[test]
    fn keypad_digits_are_directions() {
        assert_eq!(key_dir(KeyCode::Char('9'), true), Some(Dir::NE));
        assert_eq!(key_dir(KeyCode::Char('9'), false), None);
        assert_eq!(key_dir(KeyCode::Up, false), Some(Dir::N));
        assert_eq!(key_dir(KeyCode::Char('5'), true), None);
    }
}
