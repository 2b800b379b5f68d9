//! A game on the server: a session of any game behind one object-safe
//! interface ([`Table`]), so that the server, which names no game, holds
//! them all alike. Each table lives on a thread of its own
//! (`server::spawn_table`): a game may hold a Lua state, which cannot
//! cross threads, and one slow bot then holds up only its own game.
//!
//! Every request is judged here against the session: the seat must be the
//! one to move (or, for undo and redo, the one whose action it is), the
//! version must be the one the client saw, and the choice, key, click or
//! action must be one the shell's `Chooser` offers or the legal list
//! holds. A refusal says why, with the HTTP status it is sent with.

use serde::Deserialize;
use serde_json::Value;

use crate::games::{Module, Visit};
use crate::kernel::game::Title;
use crate::kernel::record::Record;
use crate::shell::bots::Answerer;
use crate::shell::{Key, Seat, Session};
use crate::web::view::{Held, Who, log_page, log_start, redo_seat, undo_seat, view};

/// What a client asks of the game.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "do", rename_all = "lowercase")]
pub enum Act {
    /// Makes the offered choice of this label.
    Choose {
        label: String,
    },
    /// A click on a board cell, by its name.
    Click {
        cell: String,
        #[serde(default)]
        highlighted: Option<String>,
    },
    /// A key, as the terminal board takes it (`e`, `1`, `ArrowUp`).
    Key {
        key: String,
        #[serde(default)]
        highlighted: Option<String>,
    },
    /// Backspace: takes back the last choice.
    Back,
    /// Escape: drops every choice made.
    Cancel,
    /// Enter: plays the action the choices name.
    Confirm,
    Undo,
    Redo,
    /// An action in the notation, played if the legal list holds it.
    Play {
        action: String,
    },
}

/// A request: the act and the version of the game the client saw (an
/// act made on an older board is refused as stale).
#[derive(Clone, Debug, Deserialize)]
pub struct Request {
    #[serde(flatten)]
    pub act: Act,
    #[serde(default)]
    pub version: Option<u64>,
}

/// Why a request was refused, and the HTTP status it is sent with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub error: String,
}

fn refuse(status: u16, error: impl Into<String>) -> Refusal {
    Refusal {
        status,
        error: error.into(),
    }
}

/// A session of some game, as the server holds it.
pub trait Table {
    /// The `game` name (`ball`, `gateball`).
    fn game(&self) -> &'static str;
    /// What `who` is shown, with the `highlighted` offered choice, less
    /// what the client says it `held`s already (its log, its board).
    fn view(&self, who: Who, highlighted: Option<usize>, held: Held) -> Value;
    /// The page of the log before action `before` (`view::log_page`).
    fn log_page(&self, before: usize) -> Value;
    /// Carries out a request of `who`, or refuses it.
    fn act(&mut self, who: Who, req: &Request) -> Result<(), Refusal>;
    /// A bot is to move.
    fn bot_due(&self) -> bool;
    /// Plays the bot's action, if a bot is to move; `Err` when the bot
    /// cannot answer (the seat then waits).
    fn bot_step(&mut self) -> Result<bool, String>;
    /// Changes with every action and every choice: what the server
    /// compares to know that clients must be told.
    fn stamp(&self) -> (u64, usize);
    /// The version of the line of play (changes with actions only).
    fn version(&self) -> u64;
    /// Continues the version past a stored one (a reloaded game).
    fn continue_after(&mut self, version: u64);
    /// The match record as it stands.
    fn record(&self) -> String;
    /// The record's header as it stands, without the actions: with
    /// [`Table::actions_from`], what the server stores after an action,
    /// at a cost that does not grow with the game's length.
    fn record_header(&self) -> String;
    /// The actions that stand played from the `k`-th on, in the
    /// notation (none when fewer stand).
    fn actions_from(&self, k: usize) -> Vec<String>;
    /// How many actions stand played.
    fn actions_len(&self) -> usize;
    /// The match record as a client may download it: until the game
    /// ends, without its seed and start position (they predict the dice).
    fn client_record(&self) -> String;
    /// The position on the board, in the game's JSON.
    fn position(&self) -> String;
    /// The game is over.
    fn over(&self) -> bool;
}

/// A session and the bots of its seats.
pub struct Live<G: Module> {
    session: Session<G>,
    answerer: Answerer<G>,
    /// Each undo: the version it made and the actions it left, so that a
    /// client's log past it is sent again (`view::log_start`). At most
    /// [`MAX_CUTS`]; older ones are forgotten by raising `floor`.
    cuts: Vec<(u64, usize)>,
    /// The first version this table knows the undos since: a client that
    /// saw an earlier one is sent its log afresh.
    floor: u64,
}

/// How many undos a table remembers for its clients' logs.
const MAX_CUTS: usize = 256;

impl<G: Module> Live<G> {
    pub fn new(session: Session<G>) -> Live<G> {
        let floor = session.version();
        Live {
            session,
            answerer: Answerer::default(),
            cuts: Vec::new(),
            floor,
        }
    }

    pub fn session(&self) -> &Session<G> {
        &self.session
    }

    /// Remembers an undo for the clients' logs.
    fn cut(&mut self) {
        if self.cuts.len() >= MAX_CUTS {
            let (v, _) = self.cuts.remove(0);
            self.floor = self.floor.max(v);
        }
        self.cuts
            .push((self.session.version(), self.session.played().len()));
    }
}

/// A key's name from the page (`KeyboardEvent.key`) as the shell's key.
pub fn key_named(name: &str) -> Option<Key> {
    match name {
        "ArrowUp" => Some(Key::Up),
        "ArrowDown" => Some(Key::Down),
        "ArrowLeft" => Some(Key::Left),
        "ArrowRight" => Some(Key::Right),
        _ => {
            let mut cs = name.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) if !c.is_control() => Some(Key::Char(c)),
                _ => None,
            }
        }
    }
}

impl<G: Module> Table for Live<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn view(&self, who: Who, highlighted: Option<usize>, held: Held) -> Value {
        let s = &self.session;
        let from = log_start(
            held.log,
            s.played().len(),
            &self.cuts,
            self.floor,
            s.version(),
        );
        view(s, who, highlighted, from, held.svg)
    }

    fn log_page(&self, before: usize) -> Value {
        log_page(&self.session, before)
    }

    fn act(&mut self, who: Who, req: &Request) -> Result<(), Refusal> {
        let Who::Seat(seat) = who else {
            return Err(refuse(
                403,
                "a spectator's link cannot act: it only watches",
            ));
        };
        let s = &mut self.session;
        if let Some(v) = req.version
            && v != s.version()
        {
            return Err(refuse(
                409,
                format!(
                    "stale: this was asked of version {v} of the game, which is now at version {}; the board has been brought up to date",
                    s.version()
                ),
            ));
        }
        let name = G::SEATS[seat];
        match &req.act {
            Act::Undo | Act::Redo => {
                let (whose, what) = if matches!(req.act, Act::Undo) {
                    (undo_seat(&self.session), "undo")
                } else {
                    (redo_seat(&self.session), "redo")
                };
                match whose {
                    Some(k) if k == seat => {}
                    Some(k) => {
                        return Err(refuse(
                            403,
                            format!(
                                "{name} cannot {what}: the action to {what} is {}'s",
                                G::SEATS[k]
                            ),
                        ));
                    }
                    None => return Err(refuse(409, format!("nothing to {what}"))),
                }
                let s = &mut self.session;
                let r = if matches!(req.act, Act::Undo) {
                    let r = s.undo();
                    if r.is_ok() {
                        self.cut();
                    }
                    r
                } else {
                    s.redo()
                };
                return r.map(|_| ()).map_err(|e| refuse(409, e));
            }
            _ => {}
        }
        match s.to_move() {
            None => {
                return Err(refuse(
                    409,
                    format!("the game is over: {}", s.result_text()),
                ));
            }
            Some(k) if k != seat => {
                return Err(refuse(
                    403,
                    format!("it is not {name}'s turn: {} is to move", G::SEATS[k]),
                ));
            }
            Some(_) if s.seat(seat).is_bot() => {
                return Err(refuse(403, format!("{name} is a bot's seat")));
            }
            Some(_) => {}
        }
        let step = match &req.act {
            Act::Choose { label } => s.choose(label).map(|_| ()),
            Act::Click { cell, highlighted } => {
                let Some(c) = s.game().cell_named(cell) else {
                    return Err(refuse(
                        400,
                        format!("`{}` is no cell of this board", clip(cell)),
                    ));
                };
                s.click(c, highlighted.as_deref()).map(|_| ())
            }
            Act::Key { key, highlighted } => {
                let Some(k) = key_named(key) else {
                    return Err(refuse(400, format!("`{}` is not a key", clip(key))));
                };
                let why = s.game().unavailable(s.position(), s.chosen().len(), k);
                match s.press(k, highlighted.as_deref()) {
                    Some(step) => step.map(|_| ()),
                    None if why.is_empty() => {
                        Err(format!("the key `{}` makes no choice now", k.name()))
                    }
                    None => Err(why.join(" ")),
                }
            }
            Act::Back => {
                if s.back() {
                    Ok(())
                } else {
                    Err("no choice to take back".into())
                }
            }
            Act::Cancel => {
                s.cancel();
                Ok(())
            }
            Act::Confirm => s.confirm().map(|_| ()),
            Act::Play { action } => {
                let a = s.game().parse_action(action).map_err(|e| {
                    refuse(400, format!("malformed action `{}`: {e}", clip(action)))
                })?;
                if !s.legal().contains(&a) {
                    return Err(refuse(422, format!("`{a}` is not a legal action now")));
                }
                s.play(a)
            }
            Act::Undo | Act::Redo => unreachable!("handled above"),
        };
        step.map_err(|e| refuse(422, e))
    }

    fn bot_due(&self) -> bool {
        self.session.bot_request().is_some()
    }

    fn bot_step(&mut self) -> Result<bool, String> {
        let Some(req) = self.session.bot_request() else {
            return Ok(false);
        };
        let a = self.answerer.answer(self.session.game(), &req)?;
        self.session.bot_answer(req.version, a)
    }

    fn stamp(&self) -> (u64, usize) {
        (self.session.version(), self.session.chosen().len())
    }

    fn version(&self) -> u64 {
        self.session.version()
    }

    fn continue_after(&mut self, version: u64) {
        self.session.continue_after(version);
        self.floor = self.floor.max(self.session.version());
    }

    fn record(&self) -> String {
        self.session.record().write()
    }

    fn record_header(&self) -> String {
        self.session.record_header().write()
    }

    fn actions_from(&self, k: usize) -> Vec<String> {
        let played = self.session.played();
        played
            .get(k..)
            .unwrap_or_default()
            .iter()
            .map(|p| p.action.to_string())
            .collect()
    }

    fn actions_len(&self) -> usize {
        self.session.played().len()
    }

    fn client_record(&self) -> String {
        let mut r = self.session.record();
        if self.session.to_move().is_some() {
            withhold(&mut r);
        }
        r.write()
    }

    fn position(&self) -> String {
        self.session.game().write_position(self.session.position())
    }

    fn over(&self) -> bool {
        self.session.to_move().is_none()
    }
}

/// The header fields that predict a die, taken out of an unfinished
/// game's record before a client sees it; a `withheld` line says so.
pub const WITHHELD: [&str; 2] = ["seed", "start"];

fn withhold(r: &mut Record) {
    r.header.retain(|(k, _)| !WITHHELD.contains(&k.as_str()));
    r.set(
        "withheld",
        "seed and start position, until the game ends (they predict the dice)",
    );
}

/// At most this much of a client's text is echoed in a message.
fn clip(s: &str) -> String {
    let t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        format!("{t}…")
    } else {
        t
    }
}

/// A ruleset a web client may name: a shipped ruleset's name, never a
/// path (the server reads no file a client names).
pub fn check_ruleset_name(spec: &str) -> Result<(), String> {
    let ok = !spec.is_empty()
        && spec.len() <= 64
        && spec
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{}` is not a shipped ruleset's name (letters, digits, `-`)",
            clip(spec)
        ))
    }
}

/// How a table is opened.
pub enum Open {
    /// A new game of a ruleset (the game's default if none), seats, seed.
    New {
        ruleset: Option<String>,
        seats: [Seat; 2],
        seed: u64,
    },
    /// A match record, played on from where it stands.
    Record(String),
    /// A table its caller builds, on the game's thread: a game set up
    /// as no shipped ruleset's name says (a league fixture, its rosters
    /// and seed), by a caller of `server::Host` — never by a client. A
    /// table holding Lua states is rebuilt from its record when it sits
    /// idle (`Open::Record`, by its ruleset's name), so such a table must
    /// be one its record rebuilds; a league fixture holds none.
    Built(Box<dyn FnOnce() -> Result<Box<dyn Table>, String> + Send>),
}

impl Visit for Open {
    type Output = Result<Box<dyn Table>, String>;

    fn visit<G: Module>(self) -> Self::Output {
        let session = match self {
            Open::New {
                ruleset,
                seats,
                seed,
            } => {
                let spec = ruleset.unwrap_or_else(|| G::DEFAULT_RULESET.to_string());
                check_ruleset_name(&spec)?;
                let rules = G::load_ruleset(&spec)?;
                Session::<G>::new(rules, seats, seed)?
            }
            Open::Record(text) => {
                let record = Record::parse(&text).map_err(|e| e.to_string())?;
                let spec = record
                    .get("ruleset")
                    .unwrap_or(G::DEFAULT_RULESET)
                    .to_string();
                check_ruleset_name(&spec)?;
                let rules = G::load_ruleset(&spec)?;
                Session::<G>::load(&record, rules, [None, None])?
            }
            Open::Built(make) => return make(),
        };
        Ok(Box::new(Live::new(session)))
    }
}

/// The game a record is of (its `game:` line, else the default game).
pub fn game_of_record(text: &str) -> Result<String, String> {
    let record = Record::parse(text).map_err(|e| e.to_string())?;
    Ok(record
        .get("game")
        .unwrap_or(crate::data::DEFAULT_GAME)
        .to_string())
}

/// Whether a title of this name is registered.
pub fn is_game(name: &str) -> bool {
    crate::games::NAMES.contains(&name)
}

/// `Title::SEATS` of a game by name, through the registry.
pub fn seat_names(name: &str) -> Option<[&'static str; 2]> {
    struct Seats;
    impl Visit for Seats {
        type Output = [&'static str; 2];
        fn visit<G: Module>(self) -> [&'static str; 2] {
            <G as Title>::SEATS
        }
    }
    crate::games::visit(name, Seats)
}
