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

/// What a player needs to know of one card (B11.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardSummary {
    pub id: super::action::CardId,
    pub name: String,
    /// The rules text, as the card states it.
    pub text: String,
    /// EP cost.
    pub cost: u32,
    /// AP cost.
    pub ap: u8,
    /// Plays per game and per turn, when limited.
    pub uses: Option<u8>,
    pub per_turn: Option<u8>,
}

/// A failed script (plain data, the platform's: every game reports
/// failures alike).
pub use crate::script::ScriptError;

pub trait Extension {
    /// Card mode (B11): EP, `convert`, cards.
    fn card_mode(&self) -> bool;

    /// The cards a coach may play under this ruleset (B11.9), in its
    /// ruleset's order. Empty without card mode.
    fn cards(&self, team: super::piece::Team) -> Vec<CardSummary>;

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

    /// [`Extension::apply`] without an event log: the hot path of bots
    /// and playouts.
    fn apply_quiet(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
    ) -> Result<(), String> {
        self.apply(pos, params, action, &mut ())
    }

    /// Why an action the extension owns (`convert`, `card`) is refused.
    fn explain(&self, pos: &Position, params: &Params, action: Action) -> Option<Illegal>;

    /// Every script failure since the last call, in the order they
    /// happened: a card whose hook failed is dropped from the game's later
    /// lists, a failed variant hook is skipped (and not called again this
    /// game), and nothing else tells the user.
    fn take_errors(&self) -> Vec<ScriptError>;

    /// The first of [`Extension::take_errors`], as text (the rest are
    /// dropped).
    fn take_error(&self) -> Option<String> {
        self.take_errors().first().map(ToString::to_string)
    }

    /// Puts the scripts back as they were when the extension was built: a
    /// fresh script state (nothing a script kept from an earlier game), no
    /// card or hook dropped, no failure pending. A caller that plays many
    /// games with one `Ball` calls it before each, so every game starts
    /// alike.
    fn reset(&self);

    /// What only the extension can check in a position read from outside:
    /// that its card-use record names this ruleset's use-limited cards.
    fn check_position(&self, pos: &Position) -> Result<(), super::json::PositionError>;
}
