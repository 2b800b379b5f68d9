//! The seam between the rules and scripts: what a ruleset with card mode
//! or scripted variants adds to legal generation and to applying an
//! action. The rules define the seam and know nothing of Lua; the script
//! host implements it (`script::scripted`).
//!
//! A `Ball` without an extension never calls through here, so card mode
//! off costs nothing.

use super::action::Action;
use super::event::{Event, Taking};
use super::params::{Params, Verb};
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

    /// Card mode as plain data, when no script sees a native action and
    /// the extension adds no actions of its own but `convert` and cards:
    /// `Ball` then applies native actions and lists `convert` itself,
    /// without a call through the trait, and calls the extension only
    /// for a card (issue 23: that call on every action was a tenth of
    /// card mode's overhead). Asked once, when the `Ball` is made.
    fn plain_cards(&self) -> Option<PlainCards> {
        None
    }

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

/// What card mode does around a native action when no script sees it:
/// the EP each verb and event earns (B11.3), and each coach's cheapest
/// card, below which a legal list holds no card (EP comes slowly, so most
/// lists). See [`Extension::plain_cards`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainCards {
    /// By `Verb` index.
    pub verb_ep: [u32; Verb::ALL.len()],
    /// By [`EarnedBy`] index.
    pub event_ep: [u32; EarnedBy::ALL.len()],
    /// By `Team` index; `u32::MAX` for a coach without cards.
    pub cheapest: [u32; 2],
}

/// The events the EP table pays for (B11.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EarnedBy {
    KnockDown,
    ForcedFumble,
    TakeLooseBall,
    PassReceived,
    Touchdown,
}

impl EarnedBy {
    pub const ALL: [EarnedBy; 5] = [
        EarnedBy::KnockDown,
        EarnedBy::ForcedFumble,
        EarnedBy::TakeLooseBall,
        EarnedBy::PassReceived,
        EarnedBy::Touchdown,
    ];

    /// What, if anything, `event` earns.
    #[inline(always)]
    pub fn of(event: &Event) -> Option<EarnedBy> {
        Some(match event {
            Event::KnockedDown { .. } => EarnedBy::KnockDown,
            Event::BallTaken {
                how: Taking::Fumble,
                ..
            } => EarnedBy::ForcedFumble,
            Event::BallTaken {
                how: Taking::Loose, ..
            } => EarnedBy::TakeLooseBall,
            Event::PassReceived { .. } => EarnedBy::PassReceived,
            Event::Touchdown { .. } => EarnedBy::Touchdown,
            _ => return None,
        })
    }
}

impl PlainCards {
    /// What `event` earns its coach.
    #[inline(always)]
    pub fn earned(&self, event: &Event) -> u32 {
        EarnedBy::of(event).map_or(0, |e| self.event_ep[e as usize])
    }

    /// Applies a native action (never a card: its script runs) and pays
    /// the mover what it earned; `log` sees the rules' events.
    #[inline(always)]
    pub fn apply<L: Sink<Event> + ?Sized>(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
        log: &mut L,
    ) {
        let mover = pos.to_move as usize;
        let mut earned = Earned {
            log,
            cards: self,
            earned: 0,
        };
        super::apply::apply(pos, params, action, &mut earned);
        let earned = earned.earned + self.verb_ep[action.verb() as usize];
        pos.ep[mover] = pos.ep[mover].saturating_add(earned);
    }

    /// Appends `convert 1` … `convert <AP left>` (B11.4), unless the
    /// ruleset forbids it.
    #[inline(always)]
    pub fn convert_into(pos: &Position, params: &Params, out: &mut Vec<Action>) {
        if params.forbidden.contains(Verb::Convert) {
            return;
        }
        // The rulebook's 2 AP a turn as a fixed copy cut to length: no
        // branch on how many AP are left in the hot list.
        let ap = usize::from(pos.ap);
        if ap <= CONVERTS.len() {
            let keep = out.len() + ap;
            out.extend_from_slice(&CONVERTS);
            out.truncate(keep);
        } else {
            out.extend((1..=pos.ap).map(|ap| Action::Convert { ap }));
        }
    }

    /// Whether the coach to move may play a card and has the EP for the
    /// deck's cheapest: below it a list asks no card.
    #[inline(always)]
    pub fn card_affordable(&self, pos: &Position, params: &Params) -> bool {
        !params.forbidden.contains(Verb::Card) && pos.ep[pos.to_move as usize] >= self.cheapest[pos.to_move as usize]
    }
}

const CONVERTS: [Action; 2] = [Action::Convert { ap: 1 }, Action::Convert { ap: 2 }];

/// The event sink of [`PlainCards::apply`]: counts EP, forwards events.
struct Earned<'a, 'b, L: ?Sized> {
    log: &'a mut L,
    cards: &'b PlainCards,
    earned: u32,
}

impl<L: Sink<Event> + ?Sized> Sink<Event> for Earned<'_, '_, L> {
    #[inline(always)]
    fn emit(&mut self, event: Event) {
        self.earned += self.cards.earned(&event);
        self.log.emit(event);
    }
}
