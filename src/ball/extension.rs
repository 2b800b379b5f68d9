//! The seam between the rules and scripts: what a ruleset with card mode
//! or scripted variants adds to legal generation and to applying an
//! action. The rules define the seam and know nothing of Lua; the script
//! host implements it (`script::scripted`).
//!
//! A `Ball` without an extension never calls through here, so card mode
//! off costs nothing.

use super::action::Action;
use super::event::Event;
use super::params::Params;
use super::position::Position;
use super::rules::Illegal;
use crate::kernel::events::Sink;

pub trait Extension {
    /// Appends the extension's legal actions (`convert`, `card …`) to a
    /// list the generator filled.
    fn extend_legal(&self, pos: &Position, params: &Params, out: &mut Vec<Action>);

    /// Applies a legal action, whatever its verb: the extension wraps the
    /// native `apply` to earn EP and run event hooks. `Err` leaves `pos`
    /// as it was (B11.7).
    fn apply(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
        log: &mut dyn Sink<Event>,
    ) -> Result<(), String>;

    /// Why an action the extension owns (`convert`, `card`) is refused.
    fn explain(&self, pos: &Position, params: &Params, action: Action) -> Option<Illegal>;

    /// The first script failure since the last call, if any: scripts that
    /// fail while listing actions are dropped from the list, and the
    /// caller may want to say so.
    fn take_error(&self) -> Option<String>;
}
