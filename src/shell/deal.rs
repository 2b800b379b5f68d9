//! What a game on a board is made of: its rules, the seed that deals it,
//! a start position other than the dealt one, and who sits at each seat.
//! A bot's thread deals its own copy of the game from the same recipe,
//! since a game may hold a script state that cannot cross threads.

use crate::kernel::game::Title;

/// A seat's player: a person at the board, or a bot by its spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Person,
    Bot(String),
}

impl Seat {
    pub fn is_bot(&self) -> bool {
        matches!(self, Seat::Bot(_))
    }

    /// As a match record's seat line says it: `human`, or the bot spec.
    pub fn label(&self) -> String {
        match self {
            Seat::Person => "human".into(),
            Seat::Bot(spec) => spec.clone(),
        }
    }

    /// Who sits here, in words for `viewer`: `you` for the viewer's own
    /// seat (at the terminal every person's seat is the viewer's), `a
    /// person` for another's, `greedy bot` for a bot. Boards say it
    /// beside the seat's name, so that nobody reads "you" for the other
    /// player's seat.
    pub fn words(&self, seat: usize, viewer: Viewer) -> String {
        match (self, viewer) {
            (Seat::Bot(spec), _) => format!("{spec} bot"),
            (Seat::Person, Viewer::Terminal) => "you".into(),
            (Seat::Person, Viewer::Seat(k)) if k == seat => "you".into(),
            (Seat::Person, _) => "a person".into(),
        }
    }

    /// A record's seat line read back; a spec no bot has is refused.
    pub fn from_label(label: &str) -> Result<Seat, String> {
        if label == "human" {
            return Ok(Seat::Person);
        }
        crate::bots::check_spec(label)?;
        Ok(Seat::Bot(label.to_string()))
    }
}

/// Who looks at a board: the terminal's player (every person's seat is
/// theirs: a hot seat), one seat's player (a web seat link), or a
/// spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Terminal,
    Seat(usize),
    Spectator,
}

/// A game as dealt: the game, its start position, the events of its
/// creation.
pub type Dealt<G> = (
    G,
    <G as crate::kernel::game::Game>::Position,
    Vec<<G as crate::kernel::game::Game>::Event>,
);

/// The recipe of a game: a dice game's dice and sides come from `seed`.
#[derive(Clone, Debug)]
pub struct Deal<G: Title> {
    pub ruleset: G::Ruleset,
    pub seed: u64,
    /// A start position as one line of JSON, as a record's `start:`
    /// header holds it; `None`: the position the seed deals.
    pub start: Option<String>,
}

impl<G: Title> Deal<G> {
    /// The game as `lab::replay` deals it from a record: built from the
    /// ruleset, dealt from the seed, then moved to `start` if there is
    /// one. Also the events of its creation.
    pub fn game(&self) -> Result<Dealt<G>, String> {
        let base = G::build(&self.ruleset)?;
        let (mut game, mut pos, created) = base.new_game(self.seed);
        if let Some(text) = &self.start {
            (game, pos) = game
                .read_position(text)
                .map_err(|e| format!("the start position: {e}"))?;
        }
        Ok((game, pos, created))
    }
}

/// A position's JSON on one line, as a record's `start:` header needs.
pub fn one_line(json: &str) -> String {
    match crate::json_line::parse(json) {
        Ok(v) => v.to_string(),
        Err(_) => json.split_whitespace().collect::<Vec<_>>().join(" "),
    }
}
