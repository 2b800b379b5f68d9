//! BALL: the rules of `docs/rules/ball.md` (B1–B11) and its notation.
//!
//! **Boundary:** depends on the kernel only; knows nothing of Lua, clap or
//! the terminal.

pub mod action;
pub mod apply;
pub mod board;
pub mod eval;
pub mod event;
pub mod extension;
pub mod figures;
pub mod flow;
pub mod game;
pub mod json;
pub mod movegen;
pub mod params;
pub mod piece;
pub mod position;
pub mod rules;
pub mod ruleset;
pub mod scenario;
pub mod script;
pub mod setup;
pub mod show;
pub mod svg;
pub mod terminal;


use std::rc::Rc;

use crate::kernel::events::Sink;
use action::Action;
use event::Event;
use extension::Extension;
use params::Params;
use position::Position;
use rules::Illegal;

/// The rules of BALL under one set of parameters, with the scripts of a
/// ruleset when it has any (card mode, scripted variants).
#[derive(Clone, Default)]
pub struct Ball {
    pub params: Params,
    pub extension: Option<Rc<dyn Extension>>,
    /// The extension's [`Extension::plain_cards`], asked once.
    plain: Option<extension::PlainCards>,
}

impl std::fmt::Debug for Ball {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ball")
            .field("params", &self.params)
            .field("scripted", &self.extension.is_some())
            .finish()
    }
}

impl Ball {
    pub fn new(params: Params) -> Ball {
        Ball {
            params,
            extension: None,
            plain: None,
        }
    }

    pub fn with_extension(params: Params, extension: Rc<dyn Extension>) -> Ball {
        Ball {
            params,
            plain: extension.plain_cards(),
            extension: Some(extension),
        }
    }

    /// This game with every list and action going through the extension,
    /// as before [`Extension::plain_cards`]: the reference the tests hold
    /// the plain path to.
    #[doc(hidden)]
    pub fn through_extension(self) -> Ball {
        Ball { plain: None, ..self }
    }

    /// The start position (B3.1).
    pub fn start(&self) -> Position {
        Position::start(&self.params)
    }

    pub fn legal(&self, pos: &Position) -> Vec<Action> {
        let mut out = Vec::new();
        crate::kernel::game::Game::legal_into(self, pos, &mut out);
        out
    }

    /// The cards `team` may play (empty without card mode).
    pub fn cards(&self, team: piece::Team) -> Vec<extension::CardSummary> {
        self.extension
            .as_ref()
            .map(|e| e.cards(team))
            .unwrap_or_default()
    }

    /// Whether this game is played in card mode (B11).
    pub fn card_mode(&self) -> bool {
        self.extension.as_ref().is_some_and(|e| e.card_mode())
    }

    /// Every script failure since the last call, in order (see
    /// [`Extension::take_errors`]): what a command prints on stderr, the
    /// board logs and the lab counts. Empty for a native game.
    pub fn take_script_errors(&self) -> Vec<extension::ScriptError> {
        self.extension
            .as_ref()
            .map(|e| e.take_errors())
            .unwrap_or_default()
    }

    /// The first script failure since the last call, as text; the others
    /// are dropped with it.
    pub fn take_script_error(&self) -> Option<String> {
        self.extension.as_ref().and_then(|e| e.take_error())
    }

    /// Brings the scripts back to the state they had when this game was
    /// built (see [`Extension::reset`]). Call it before each game when one
    /// `Ball` plays several: then every game starts from the same script
    /// state, whatever the scripts did in the games before, and results
    /// depend on the game alone, not on the thread or the order it ran in.
    /// Cheap when no script ran; a fresh script state otherwise (about a
    /// millisecond).
    pub fn reset_scripts(&self) {
        if let Some(e) = &self.extension {
            e.reset();
        }
    }

    /// Reads a position JSON for this game: [`json::read`], and what only
    /// the ruleset's scripts can check (its card-use record names this
    /// ruleset's use-limited cards). Every command reading a position
    /// from outside goes through here.
    pub fn read_position(&self, text: &str) -> Result<Position, json::PositionError> {
        let pos = json::read(text, &self.params)?;
        if let Some(e) = &self.extension {
            e.check_position(&pos)?;
        } else if let Some(u) = pos.card_uses.iter().next() {
            return Err(json::PositionError {
                field: "cards_used[0].card".into(),
                problem: format!(
                    "{} holds no card `{}`: this ruleset has no card mode (B11)",
                    u.team,
                    u.card.name()
                ),
            });
        }
        Ok(pos)
    }

    /// The canonical legal list of `docs/rules/ball-notation.md`: strings in byte order.
    pub fn canonical_legal(&self, pos: &Position) -> Vec<String> {
        let mut list: Vec<String> = self.legal(pos).iter().map(|a| a.to_string()).collect();
        list.sort_unstable();
        list.dedup();
        list
    }

    /// Plays `action` if it is in the legal list; otherwise leaves `pos`
    /// unchanged and says which rule forbids it.
    pub fn play(
        &self,
        pos: &mut Position,
        action: Action,
        log: &mut impl Sink<Event>,
    ) -> Result<(), Illegal> {
        if !self.legal(pos).contains(&action) {
            if let Some(why) = self
                .extension
                .as_ref()
                .and_then(|e| e.explain(pos, &self.params, action))
            {
                return Err(why);
            }
            return Err(match rules::check(pos, &self.params, action) {
                Err(illegal) => illegal,
                // The generator is the authority; the checker only explains.
                Ok(()) => Illegal {
                    action,
                    rule: "B4.4",
                    reason: "it is not a legal action in this position".into(),
                },
            });
        }
        match &self.extension {
            None => apply::apply(pos, &self.params, action, log),
            Some(ext) => {
                let mut log: &mut dyn Sink<Event> = log;
                ext.apply(pos, &self.params, action, &mut log)
                    .map_err(|reason| Illegal {
                        action,
                        rule: "B11.7",
                        reason,
                    })?;
            }
        }
        Ok(())
    }
}
