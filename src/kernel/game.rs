//! The game interface: what every generic tool of the platform (perft,
//! playouts, bots, the lab, match records and replays, the command line,
//! the boards) needs of a game, and nothing a tool does not need.
//!
//! Two traits, because two kinds of caller exist:
//!
//! - [`Game`] is the rules bound to one ruleset: the hot path
//!   (`legal_into`, `apply`) that perft, playouts and searches call
//!   millions of times, plus who is to move, the result, checked play with
//!   events, and chance. Generic code is monomorphised per game, so the
//!   hot path costs what it costs in the game's own code.
//! - [`Title`] is the game as a product: its names and seats, its rulesets
//!   (load, fingerprint, build), a new game from a seed, and the public
//!   notation (actions as text, positions as canonical JSON, the text
//!   board). The command line, records and the lab use it.
//!
//! Capabilities that belong to one layer are that layer's traits, which
//! each game implements in its own folder: `bots::Evaluate`,
//! `lab::Figures`, `shell::Flow`, `tui::Board`.
//!
//! **Chance without clairvoyance.** Dice games keep every die in the
//! position (a seeded generator and a queue of forced dice), so the same
//! seed replays the same game byte for byte. A search must still not plan
//! on dice nobody has rolled: [`Game::resample`] replaces a copy's future
//! dice with draws from the searcher's own generator, and
//! [`Game::chance_outcomes`] lists the positions one roll can lead to (or
//! says that an action rolls nothing), for bots that take an expectation
//! instead of a sample.
//!
//! Every game of the platform is for two seats; a seat is 0 or 1, in the
//! order of [`Title::SEATS`].

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::path::Path;

use super::rng::SplitMix64;
use crate::diagnostic::Problem;

/// A seat: 0 or 1, indexing [`Title::SEATS`].
pub type Seat = usize;

/// One seat's result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatResult {
    Win,
    Draw,
    Loss,
}

impl SeatResult {
    /// The score of the result: a win 1, a draw ½, a loss 0.
    pub fn points(self) -> f64 {
        match self {
            SeatResult::Win => 1.0,
            SeatResult::Draw => 0.5,
            SeatResult::Loss => 0.0,
        }
    }
}

/// How a game ended, in its rules' words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct End {
    /// A short name for reports: `touchdowns`, `turn-limit`, `variant`…
    pub name: &'static str,
    /// Whether a limit (of turns, of time) ended the game rather than
    /// play: such games count as timeouts, the others as completed.
    pub by_limit: bool,
}

/// How many different end names a process may give ([`End::named`]).
const MAX_END_NAMES: usize = 1024;

static END_NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());

impl End {
    /// An end a ruleset's script names (a house rule's "sudden-death"):
    /// reports keep `&'static str` names, so each distinct name is kept
    /// once for the life of the process. Past [`MAX_END_NAMES`] distinct
    /// names, `fallback`.
    pub fn named(name: &str, fallback: &'static str) -> End {
        let mut names = END_NAMES.lock().unwrap_or_else(|e| e.into_inner());
        let name = match names.iter().find(|n| **n == name) {
            Some(n) => *n,
            None if names.len() < MAX_END_NAMES => {
                let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
                names.push(leaked);
                leaked
            }
            None => fallback,
        };
        End {
            name,
            by_limit: false,
        }
    }

    /// Whether a ruleset's script named this end ([`End::named`]) rather
    /// than the game's rules: boards and records then say it, since the
    /// score alone does not tell an overtime win from a regular one.
    pub fn is_named(self) -> bool {
        let names = END_NAMES.lock().unwrap_or_else(|e| e.into_inner());
        names.iter().any(|n| std::ptr::eq(*n, self.name))
    }
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Each seat's result, by seat.
    pub results: [SeatResult; 2],
    /// The final score as text, as a match record's `result:` line has it
    /// (`ATK 3 - DEF 1`).
    pub score: String,
    pub end: End,
}

impl Outcome {
    /// The winning seat, if any.
    pub fn winner(&self) -> Option<Seat> {
        self.results.iter().position(|&r| r == SeatResult::Win)
    }
}

/// The rules of one game under one ruleset.
pub trait Game: Clone + 'static {
    /// What changes between actions: a value, cheap to clone.
    /// `'static` so that a bot can keep buffers of positions between
    /// decisions (greedy's scratch) without naming the game.
    type Position: Clone + PartialEq + Debug + 'static;
    /// One decision, written in the notation by `Display`. `Hash`, so
    /// that the lab can remember each action's kind (`lab::kinds`) rather
    /// than write its text every time it is played.
    type Action: Copy + Eq + Hash + Debug + Display + 'static;
    /// What happens inside an action, written as a log line by `Display`.
    type Event: Clone + Debug + Display;

    /// Writes every legal action of `pos` into `out` (cleared first), in
    /// a deterministic order. Empty exactly when the game is over.
    fn legal_into(&self, pos: &Self::Position, out: &mut Vec<Self::Action>);

    /// Applies an action taken from `legal_into` of the same position,
    /// without events. Anything else is a logic error of the caller.
    fn apply(&self, pos: &mut Self::Position, action: Self::Action);

    /// [`Game::apply`] with the action's events collected: the path of
    /// tools that read what happened (the lab's figures, the boards' logs)
    /// on actions they took from the legal list.
    fn apply_logged(
        &self,
        pos: &mut Self::Position,
        action: Self::Action,
        log: &mut Vec<Self::Event>,
    );

    /// Applies `action` if it is legal in `pos`, collecting its events;
    /// otherwise leaves `pos` unchanged and says why, in one line that
    /// names the action and the rule that forbids it.
    fn play(
        &self,
        pos: &mut Self::Position,
        action: Self::Action,
        log: &mut Vec<Self::Event>,
    ) -> Result<(), String>;

    /// The seat that decides next; `None` when the game is over.
    fn to_move(&self, pos: &Self::Position) -> Option<Seat>;

    /// The result, once the game is over.
    fn outcome(&self, pos: &Self::Position) -> Option<Outcome>;

    /// The turn the game is in (1 at the start), for lengths and logs.
    fn turn(&self, pos: &Self::Position) -> u32;

    /// The score as text, at any moment (`ATK 1 - DEF 0`): what a match
    /// record's `result:` line and a board's status line show.
    fn score_text(&self, pos: &Self::Position) -> String;

    /// The failures of a game's scripts since the last call, one line
    /// each with file and line: a script that fails during play must be
    /// reported where the user is looking, not swallowed.
    fn take_errors(&self) -> Vec<String> {
        Vec::new()
    }

    /// Puts the game's scripts back as they were when it was built, so
    /// that a game object that plays many games starts each from the same
    /// script state (results then depend on the game alone, not on what
    /// the thread played before).
    fn reset(&self) {}

    /// A bug net for tools that play a game to its end (the lab, `ball
    /// selfplay`): a game still going after this many actions is cut and
    /// counted as unfinished. Far past any real game of the game's.
    const MAX_ACTIONS: usize = 20_000;

    /// Whether any action can roll dice: a search then samples them
    /// ([`Game::resample`]) instead of planning on one future.
    const HAS_CHANCE: bool = false;

    /// Replaces every die of `pos` that has not been rolled yet (the
    /// generator's state, forced dice) with draws from `rng`. Dice already
    /// rolled, which a player can see, stay. A game without chance
    /// leaves `pos` and `rng` untouched.
    fn resample(&self, _pos: &mut Self::Position, _rng: &mut SplitMix64) {}

    /// What `action`'s dice come to, for bots that take an expectation
    /// instead of a sample: [`Chance::Sure`] when it rolls no die (`out`
    /// then holds its one position), [`Chance::Listed`] when `out` lists
    /// the positions its roll can lead to, each with its probability
    /// (summing to 1), and [`Chance::Sampled`] when the game does not
    /// enumerate it (a caller then applies it, after
    /// [`Game::resample`] if it must not peek). `out` is the caller's so
    /// that a search weighing every action of a list reuses the same
    /// positions rather than allocating new ones per action.
    fn chance_outcomes(
        &self,
        _pos: &Self::Position,
        _action: Self::Action,
        out: &mut Outcomes<Self::Position>,
    ) -> Chance {
        out.clear();
        Chance::Sampled
    }

    /// Each action of [`Game::legal_into`], in its order, with the position
    /// it leads to; `prepare` runs on each copy before the action (a search
    /// resamples the dice there). The same as listing and applying, which
    /// is the default; a game whose move generator already works out each
    /// move's result overrides it, so that a one-ply search does not judge
    /// every move twice (Gateball's shots: half of greedy's time).
    ///
    /// `legal` and `next` are the caller's buffers, reused from call to
    /// call (a copy of a position may own allocations).
    fn children(
        &self,
        pos: &Self::Position,
        legal: &mut Vec<Self::Action>,
        next: &mut Option<Self::Position>,
        prepare: &mut impl FnMut(&mut Self::Position),
        visit: &mut impl FnMut(Self::Action, &Self::Position),
    ) {
        children_by_apply(self, pos, legal, next, prepare, visit);
    }
}

/// What [`Game::chance_outcomes`] found out about an action's dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chance {
    /// No die rolled: the outcomes hold the one position, probability 1.
    /// Since no die was rolled, resampling it afterwards gives exactly
    /// the position a resample before the action would have.
    Sure,
    /// The outcomes list every roll's position with its probability.
    Listed,
    /// Not enumerated (several dice, or a game that does not say): the
    /// outcomes mean nothing.
    Sampled,
}

/// The positions [`Game::chance_outcomes`] writes. Entries past the
/// length are kept, so a position copied in over an earlier one reuses
/// its storage (a G-ball position holds a queue and a `Vec`): greedy asks
/// this once per legal action of every decision.
#[derive(Clone, Debug)]
pub struct Outcomes<P> {
    items: Vec<(f64, P)>,
    len: usize,
}

impl<P> Default for Outcomes<P> {
    fn default() -> Self {
        Outcomes {
            items: Vec::new(),
            len: 0,
        }
    }
}

impl<P: Clone> Outcomes<P> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a copy of `pos` with probability `p` and returns it, for
    /// the game to apply the roll to.
    pub fn push_copy(&mut self, p: f64, pos: &P) -> &mut P {
        if self.len < self.items.len() {
            let slot = &mut self.items[self.len];
            slot.0 = p;
            slot.1.clone_from(pos);
        } else {
            self.items.push((p, pos.clone()));
        }
        self.len += 1;
        &mut self.items[self.len - 1].1
    }

    pub fn as_slice(&self) -> &[(f64, P)] {
        &self.items[..self.len]
    }

    pub fn as_mut_slice(&mut self) -> &mut [(f64, P)] {
        &mut self.items[..self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// [`Game::children`] by listing the legal actions and applying each to a
/// copy: what every game does unless it knows better.
pub fn children_by_apply<G: Game>(
    game: &G,
    pos: &G::Position,
    legal: &mut Vec<G::Action>,
    next: &mut Option<G::Position>,
    prepare: &mut impl FnMut(&mut G::Position),
    visit: &mut impl FnMut(G::Action, &G::Position),
) {
    game.legal_into(pos, legal);
    for &a in legal.iter() {
        let next = copy_into(next, pos);
        prepare(next);
        game.apply(next, a);
        visit(a, next);
    }
}

/// `pos` copied into the buffer `slot`, reusing what it owns.
pub fn copy_into<'a, P: Clone>(slot: &'a mut Option<P>, pos: &P) -> &'a mut P {
    match slot {
        Some(n) => {
            n.clone_from(pos);
            n
        }
        None => slot.insert(pos.clone()),
    }
}

/// A command-line option of one game's own (Gateball's `--court`), which
/// changes the game a ruleset describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOption {
    /// The flag without dashes: `court`.
    pub name: &'static str,
    /// Its value, for `--help`: `FILE`.
    pub value: &'static str,
    pub help: &'static str,
}

/// A game as the platform offers it: names, rulesets, the notation.
pub trait Title: Game {
    /// The `game` field of positions, rulesets and records: `ball`.
    const NAME: &'static str;
    /// The name people read: `BALL`.
    const TITLE: &'static str;
    /// The seats' names as the notation writes them, by seat.
    const SEATS: [&'static str; 2];
    /// The shipped ruleset played when none is named.
    const DEFAULT_RULESET: &'static str;
    /// The game's own options of `new`, `sim`, `play` (see [`GameOption`]).
    const OPTIONS: &'static [GameOption] = &[];
    /// Whether `apply --events` writes `> ACTION` before each action's
    /// events. A game whose own log already names every action (G-ball's
    /// `act`, `gball-notation.md`) says no, so that its `--events` list is
    /// exactly its notation's event lines.
    const ACTION_LINES: bool = true;

    /// A ruleset: plain data that threads share; each builds its own
    /// game from it ([`Title::build`]), since a game may hold a script
    /// state that is not `Send`.
    type Ruleset: Clone + Send + Sync + 'static;

    /// Loads a shipped ruleset by name or a ruleset file by path.
    fn load_ruleset(spec: &str) -> Result<Self::Ruleset, String>;

    /// The ruleset's name, as records and reports show it.
    fn ruleset_name(ruleset: &Self::Ruleset) -> String;

    /// A stable hash of everything the ruleset's rules were read from:
    /// records carry it so that a replay can tell the rules changed.
    fn fingerprint(ruleset: &Self::Ruleset) -> String;

    /// Every problem of the ruleset `spec` and the files it names, each
    /// with file and line (`ball check`); empty when it is clean.
    fn check_ruleset(spec: &str) -> Vec<Problem>;

    /// The ruleset's effective values as the game's TOML (`ball check
    /// --print`).
    fn ruleset_toml(ruleset: &Self::Ruleset) -> String;

    /// Checks one script file of the game's on its own (`ball check
    /// --card`); `None` when the game has no such scripts.
    fn check_script(_path: &Path) -> Option<Vec<Problem>> {
        None
    }

    /// The game's script API: the reference in Markdown, or editor stubs
    /// (`ball api`); `None` when the game has no scripts.
    fn script_api(_stubs: bool) -> Option<String> {
        None
    }

    /// Applies one of [`Title::OPTIONS`] to a ruleset.
    fn set_option(_ruleset: &mut Self::Ruleset, name: &str, _value: &str) -> Result<(), String> {
        Err(format!("--{name} is not an option of {}", Self::TITLE))
    }

    /// The game of a ruleset, scripts loaded.
    fn build(ruleset: &Self::Ruleset) -> Result<Self, String>;

    /// A new game: the game as this seed deals it (a coin may decide who
    /// plays which side), its start position, whose dice come from `seed`
    /// in a dice game, and the events of its creation.
    fn new_game(&self, seed: u64) -> (Self, Self::Position, Vec<Self::Event>);

    /// Reads one action in the notation.
    fn parse_action(&self, text: &str) -> Result<Self::Action, String>;

    /// The position as canonical JSON (the notation's key order), ending
    /// with a newline.
    fn write_position(&self, pos: &Self::Position) -> String;

    /// The position as a client of an unfinished game may be shown it
    /// (`ball serve`): the canonical JSON without what would predict a
    /// die (a generator's state, forced dice). The default, for a game
    /// whose positions hold neither, is the whole position.
    fn write_public_position(&self, pos: &Self::Position) -> String {
        self.write_position(pos)
    }

    /// Reads a position's JSON, refusing a malformed one with a line that
    /// names the field and the rule. A game whose positions carry their
    /// own rules (Gateball's court) returns the game they describe.
    fn read_position(&self, text: &str) -> Result<(Self, Self::Position), String>;

    /// The text board.
    fn show(&self, pos: &Self::Position) -> String;

    /// Appends forced dice to the position's queue (`apply --dice`).
    fn force_dice(&self, _pos: &mut Self::Position, _dice: &[u32]) -> Result<(), String> {
        Err(format!(
            "{} has no dice: --dice is not an option",
            Self::TITLE
        ))
    }

    /// Applies one `setup:` line of a scenario file to `pos`, in the
    /// game's own words (`crate::scenario`).
    fn scenario_setup(&self, _pos: &mut Self::Position, line: &str) -> Result<(), String> {
        Err(format!(
            "`{line}`: {} scenarios have no setup: lines; give the whole position under position:",
            Self::TITLE
        ))
    }

    /// The canonical legal list: every legal action as text, sorted by
    /// byte order, without duplicates.
    fn canonical_legal(&self, pos: &Self::Position) -> Vec<String> {
        let mut legal = Vec::new();
        self.legal_into(pos, &mut legal);
        let mut list: Vec<String> = legal.iter().map(ToString::to_string).collect();
        list.sort_unstable();
        list.dedup();
        list
    }

    /// The seat's name.
    fn seat_name(seat: Seat) -> &'static str {
        Self::SEATS[seat]
    }
}
