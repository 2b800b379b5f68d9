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

    /// A record's seat line read back; a spec no bot has is refused.
    pub fn from_label(label: &str) -> Result<Seat, String> {
        if label == "human" {
            return Ok(Seat::Person);
        }
        crate::bots::check_spec(label)?;
        Ok(Seat::Bot(label.to_string()))
    }
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
