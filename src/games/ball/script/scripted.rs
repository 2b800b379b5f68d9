//! The rules extension a ruleset with scripts gets: card mode (B11) and
//! variant event hooks, on top of the native rules.

use std::cell::RefCell;

use super::host::{EpEvent, EpTable, EventHook, Host};
use super::targets::Facts;
use crate::games::ball::action::Action;
use crate::games::ball::apply;
use crate::games::ball::event::{Event, Taking};
use crate::games::ball::extension::{CardSummary, Extension};
use crate::games::ball::params::{Params, Verb};
use crate::games::ball::piece::Team;
use crate::games::ball::position::{CardUse, Phase, Position};
use crate::games::ball::rules::Illegal;
use crate::kernel::events::Sink;

pub struct Scripted {
    pub(crate) host: Host,
    pub(crate) card_mode: bool,
    pub(crate) ep: EpTable,
    pub(crate) decks: [Vec<usize>; 2],
    /// Cards whose script failed: dropped from every later list.
    broken: RefCell<Vec<bool>>,
    error: RefCell<Option<String>>,
    /// Reused target list: no allocation per legal list.
    scratch: RefCell<Vec<[crate::games::ball::action::Arg; 3]>>,
    /// Whether any variant hooks an event: without, applying an action
    /// never looks for one.
    hooks: bool,
    /// Each coach's cheapest card in EP: below it, a legal list asks no
    /// card (most lists: EP comes slowly, B11.3).
    cheapest: [u32; 2],
}

impl Scripted {
    pub fn new(host: Host, card_mode: bool, ep: EpTable, decks: [Vec<usize>; 2]) -> Scripted {
        let n = host.card_count();
        let hooks = host.has_event_hooks();
        let cheapest = [0, 1].map(|t: usize| {
            decks[t]
                .iter()
                .map(|&i| host.card(i).cost)
                .min()
                .unwrap_or(u32::MAX)
        });
        Scripted {
            host,
            card_mode,
            ep,
            decks,
            broken: RefCell::new(vec![false; n]),
            error: RefCell::new(None),
            scratch: RefCell::new(Vec::new()),
            hooks,
            cheapest,
        }
    }

    fn record(&self, e: String) {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    /// The deck index of `card` for `team`.
    fn find(&self, team: Team, card: crate::games::ball::action::CardId) -> Option<usize> {
        self.decks[team as usize]
            .iter()
            .copied()
            .find(|&i| self.host.card(i).id == card)
    }

    /// B11.6: the first cost or use limit that stops card `i` now, if
    /// any. Checked natively before any script, on every legal list, so
    /// it allocates nothing; `explain` words it.
    fn limit(&self, pos: &Position, i: usize) -> Option<Limit> {
        let info = self.host.card(i);
        let team = pos.to_move;
        if pos.ep[team as usize] < info.cost {
            return Some(Limit::Ep);
        }
        if pos.ap < info.ap {
            return Some(Limit::Ap);
        }
        if info.uses.is_none() && info.per_turn.is_none() {
            return None;
        }
        let (game, turn) = pos.card_uses.get(team, info.id);
        if info.uses.is_some_and(|u| game >= u) {
            return Some(Limit::PerGame);
        }
        if info.per_turn.is_some_and(|u| turn >= u) {
            return Some(Limit::PerTurn);
        }
        None
    }

    /// [`Extension::apply`] for any event sink: the log-free path of bots
    /// and playouts passes `()`, so only the EP tally sees the events.
    fn run<L: Sink<Event> + ?Sized>(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
        log: &mut L,
    ) -> Result<(), String> {
        let mover = pos.to_move;
        let hooks = self.hooks;
        // Variant hooks run per event. A failing hook is reported and
        // skipped: the action itself was legal and stands.
        let mut on_touchdown = |p: &mut Position| {
            if !hooks {
                return;
            }
            match self.host.on_event(p, params, EventHook::Touchdown, mover) {
                Ok(after) => *p = after,
                Err(e) => self.record(e.to_string()),
            }
        };
        let mut tally = Tally {
            log,
            ep: &self.ep,
            earned: 0,
            turn_started: None,
        };
        if let Action::Card { card, args } = action {
            // B11.7: the effect works on a copy, committed only whole.
            let i = self
                .find(mover, card)
                .ok_or_else(|| format!("`{}` is not one of {mover}'s cards", card.name()))?;
            let info = self.host.card(i);
            let mut next = *pos;
            next.ep[mover as usize] -= info.cost;
            next.ap -= info.ap;
            if info.uses.is_some() || info.per_turn.is_some() {
                let (game, turn) = next.card_uses.get(mover, info.id);
                next.card_uses.set(CardUse {
                    team: mover,
                    card: info.id,
                    game: game.saturating_add(1),
                    turn: turn.saturating_add(1),
                });
            }
            next = self.host.resolve(i, &next, params, args).map_err(|e| {
                self.broken.borrow_mut()[i] = true;
                e.to_string()
            })?;
            apply::finish(&mut next, params, action, &mut tally, &mut on_touchdown);
            *pos = next;
        } else {
            // A native action cannot fail: it works in place.
            apply::apply_with_touchdown_hook(pos, params, action, &mut tally, &mut on_touchdown);
        }
        if self.card_mode {
            let earned = tally.earned + self.ep.verb(action.verb());
            pos.ep[mover as usize] = pos.ep[mover as usize].saturating_add(earned);
        }
        // The touchdown hook ran inside apply, before the reset.
        if let Some(team) = tally.turn_started.filter(|_| hooks && !pos.is_over()) {
            match self.host.on_event(pos, params, EventHook::TurnStart, team) {
                Ok(p) => *pos = p,
                Err(e) => self.record(e.to_string()),
            }
        }
        Ok(())
    }
}

/// Why an affordable-looking card is not playable now (B11.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Limit {
    Ep,
    Ap,
    PerGame,
    PerTurn,
}

impl Extension for Scripted {
    fn card_mode(&self) -> bool {
        self.card_mode
    }

    fn cards(&self, team: Team) -> Vec<CardSummary> {
        if !self.card_mode {
            return Vec::new();
        }
        self.decks[team as usize]
            .iter()
            .map(|&i| {
                let c = self.host.card(i);
                CardSummary {
                    id: c.id,
                    name: c.name.clone(),
                    text: c.text.clone(),
                    cost: c.cost,
                    ap: c.ap,
                    uses: c.uses,
                    per_turn: c.per_turn,
                }
            })
            .collect()
    }

    fn extend_legal(&self, pos: &Position, params: &Params, out: &mut Vec<Action>) {
        if !self.card_mode || pos.is_over() || pos.phase != Phase::Action {
            return;
        }
        if !params.forbidden.contains(Verb::Convert) {
            out.reserve(pos.ap as usize);
            for ap in 1..pos.ap + 1 {
                out.push(Action::Convert { ap }); // B11.4
            }
        }
        if params.forbidden.contains(Verb::Card)
            || pos.ep[pos.to_move as usize] < self.cheapest[pos.to_move as usize]
        {
            return;
        }
        // The position's facts for declared targets, gathered at most once.
        let mut facts = None;
        let mut targets = self.scratch.borrow_mut();
        for &i in &self.decks[pos.to_move as usize] {
            if self.limit(pos, i).is_some() || self.broken.borrow()[i] {
                continue;
            }
            let id = self.host.card(i).id;
            targets.clear();
            if let Some(d) = self.host.declared(i) {
                let facts = facts.get_or_insert_with(|| Facts::new(pos));
                d.enumerate_with(facts, params, &mut |args| {
                    out.push(Action::Card { card: id, args })
                });
                continue;
            }
            match self.host.targets(i, pos, params, &mut targets) {
                Ok(()) => out.extend(targets.iter().map(|&args| Action::Card { card: id, args })),
                Err(e) => {
                    self.broken.borrow_mut()[i] = true;
                    self.record(e.to_string());
                }
            }
        }
    }

    fn apply(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
        log: &mut dyn Sink<Event>,
    ) -> Result<(), String> {
        self.run(pos, params, action, log)
    }

    fn apply_quiet(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
    ) -> Result<(), String> {
        self.run(pos, params, action, &mut ())
    }

    fn explain(&self, pos: &Position, params: &Params, action: Action) -> Option<Illegal> {
        let illegal = |rule: &'static str, reason: String| {
            Some(Illegal {
                action: action.to_string(),
                rule,
                reason,
            })
        };
        if !self.card_mode || !matches!(action, Action::Convert { .. } | Action::Card { .. }) {
            return None;
        }
        if pos.is_over() {
            return illegal("B3.6", "the game is over".into());
        }
        if pos.phase != Phase::Action {
            return illegal(
                "B11.6",
                "cards and `convert` belong to the action phase".into(),
            );
        }
        match action {
            Action::Convert { ap } => {
                illegal("B11.4", format!("{ap} AP to convert and {} left", pos.ap))
            }
            Action::Card { card, .. } => {
                let Some(i) = self.find(pos.to_move, card) else {
                    return illegal(
                        "B11.9",
                        format!("`{}` is not one of {}'s cards", card.name(), pos.to_move),
                    );
                };
                if self.broken.borrow()[i] {
                    return illegal("B11.7", "its script failed earlier in this game".into());
                }
                let info = self.host.card(i);
                let team = pos.to_move;
                let why = match self.limit(pos, i) {
                    Some(Limit::Ep) => Some(format!(
                        "it costs {} EP and {team} has {}",
                        info.cost, pos.ep[team as usize]
                    )),
                    Some(Limit::Ap) => {
                        Some(format!("it costs {} AP and {} are left", info.ap, pos.ap))
                    }
                    Some(Limit::PerGame) => Some(format!(
                        "it may be played {} times a game",
                        info.uses.unwrap_or(0)
                    )),
                    Some(Limit::PerTurn) => Some(format!(
                        "it may be played {} times a turn",
                        info.per_turn.unwrap_or(0)
                    )),
                    None => None,
                };
                if let Some(reason) = why {
                    return illegal("B11.6", reason);
                }
                let _ = params;
                illegal(
                    "B11.6",
                    format!("not one of the targets card `{}` offers now", card.name()),
                )
            }
            _ => None,
        }
    }

    fn take_error(&self) -> Option<String> {
        self.error.borrow_mut().take()
    }
}

/// Forwards events and counts what the EP table pays for them.
struct Tally<'a, 'b, L: ?Sized> {
    log: &'a mut L,
    ep: &'b EpTable,
    earned: u32,
    turn_started: Option<Team>,
}

impl<L: Sink<Event> + ?Sized> Sink<Event> for Tally<'_, '_, L> {
    fn emit(&mut self, event: Event) {
        let key = match event {
            Event::KnockedDown { .. } => Some(EpEvent::KnockDown),
            Event::BallTaken {
                how: Taking::Fumble,
                ..
            } => Some(EpEvent::ForcedFumble),
            Event::BallTaken {
                how: Taking::Loose, ..
            } => Some(EpEvent::TakeLooseBall),
            Event::PassReceived { .. } => Some(EpEvent::PassReceived),
            Event::Touchdown { .. } => Some(EpEvent::Touchdown),
            Event::TurnStarted { team, .. } => {
                self.turn_started = Some(team);
                None
            }
            _ => None,
        };
        if let Some(k) = key {
            self.earned += self.ep.event(k);
        }
        self.log.emit(event);
    }
}
