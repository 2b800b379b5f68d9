//! BALL: the rules of `../shared/spec/ball.md` (B1–B10) and its notation.
//!
//! **Boundary:** depends on the kernel only; knows nothing of Lua, clap or
//! the terminal.

pub mod action;
pub mod apply;
pub mod board;
pub mod event;
pub mod json;
pub mod movegen;
pub mod params;
pub mod piece;
pub mod position;
pub mod rules;
pub mod scenario;
pub mod setup;
pub mod show;

use crate::kernel::events::Sink;
use crate::kernel::game::Game;
use action::Action;
use event::Event;
use params::Params;
use position::Position;
use rules::Illegal;

/// The rules of BALL under one set of parameters.
#[derive(Clone, Debug, Default)]
pub struct Ball {
    pub params: Params,
}

impl Ball {
    pub fn new(params: Params) -> Ball {
        Ball { params }
    }

    pub fn legal(&self, pos: &Position) -> Vec<Action> {
        let mut out = Vec::new();
        movegen::legal_into(pos, &self.params, &mut out);
        out
    }

    /// The canonical legal list of `notation.md`: strings in byte order.
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
            return Err(match rules::check(pos, &self.params, action) {
                Err(illegal) => illegal,
                // The generator is the authority; the checker only explains.
                Ok(()) => Illegal {
                    action: action.to_string(),
                    rule: "B4.4",
                    reason: "it is not a legal action in this position".into(),
                },
            });
        }
        apply::apply(pos, &self.params, action, log);
        Ok(())
    }
}

impl Game for Ball {
    type Position = Position;
    type Action = Action;

    fn start(&self) -> Position {
        Position::start(&self.params)
    }

    #[inline]
    fn legal_into(&self, pos: &Position, out: &mut Vec<Action>) {
        movegen::legal_into(pos, &self.params, out);
    }

    #[inline]
    fn apply(&self, pos: &mut Position, action: Action) {
        apply::apply(pos, &self.params, action, &mut ());
    }
}
