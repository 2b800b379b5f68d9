//! The rules extension a ruleset with scripts gets: card mode (B11) and
//! variant event hooks, on top of the native rules.
//!
//! **Failures are reported, never silent.** Every script failure during
//! play becomes a [`ScriptError`] in a queue the caller drains
//! (`Ball::take_script_errors`): a card whose hook failed is dropped from
//! the game's later lists, a variant hook that failed is skipped and not
//! called again in that game (a looping hook would otherwise cost its
//! budget every turn), and the action that triggered it stands.
//!
//! **Every game starts alike.** [`Scripted::reset`] rebuilds the script
//! state from the ruleset's sources: what a script kept in its upvalues,
//! which cards and hooks failed, garbage and all, is gone, so a game's
//! course depends on its seed alone, never on the games a worker played
//! before it.

use std::cell::{Cell, RefCell};

use super::host::{EpTable, Host};
use super::points::{POINTS, Point};
use super::targets::Facts;
use crate::games::ball::action::Action;
use crate::games::ball::apply;
use crate::games::ball::event::Event;
use crate::games::ball::extension::{CardSummary, EarnedBy, Extension, PlainCards, ScriptError};
use crate::games::ball::json::PositionError;
use crate::games::ball::params::{MAX_TURN_AP, Params, Verb};
use crate::games::ball::piece::Team;
use crate::games::ball::position::{CardUse, Phase, Position};
use crate::games::ball::rules::Illegal;
use crate::games::ball::ruleset::ScriptSource;
use crate::kernel::events::Sink;

/// What a script state is built from: enough to build it again.
#[derive(Clone)]
pub struct Recipe {
    /// The ruleset's parameters before the variants' own.
    pub params: Params,
    pub ep_table: Option<ScriptSource>,
    pub variants: Vec<ScriptSource>,
    pub cards: [Vec<ScriptSource>; 2],
}

/// The script state of one game: the host and what failed in it.
struct Live {
    host: Host,
    /// Cards whose script failed: dropped from every later list.
    broken: Vec<bool>,
    /// Cards whose `resolve` failed while failures are kept (`ball
    /// check`): still listed, so their other hooks are still probed, but
    /// never played again.
    failed_effect: Vec<bool>,
    /// Variant hooks that failed, by variant and `Point`.
    broken_hooks: Vec<[bool; POINTS]>,
}

impl Live {
    fn new(host: Host) -> Live {
        Live {
            broken: vec![false; host.card_count()],
            failed_effect: vec![false; host.card_count()],
            broken_hooks: vec![[false; POINTS]; host.variant_count()],
            host,
        }
    }
}

pub struct Scripted {
    recipe: Recipe,
    live: RefCell<Live>,
    /// Whether any script ran (or failed) since the state was built: a
    /// reset of a state no script touched has nothing to undo.
    touched: Cell<bool>,
    pub(crate) card_mode: bool,
    /// The EP table by index (one load a verb or an event, where the
    /// table goes through its key map) and each coach's cheapest card in
    /// EP: below it, a legal list asks no card (most lists: EP comes
    /// slowly, B11.3).
    cards: PlainCards,
    pub(crate) decks: [Vec<usize>; 2],
    /// The variants' own actions (card indices), for both coaches.
    actions: Vec<usize>,
    errors: RefCell<Vec<ScriptError>>,
    /// Reused target list: no allocation per legal list.
    scratch: RefCell<Vec<[crate::games::ball::action::Arg; 3]>>,
    /// Which rule points any variant hooks (`points::Point`): a point no
    /// variant hooks never calls Lua.
    points: [bool; POINTS],
    /// No variant hooks a point `run` asks (any but `allow`): a native
    /// action then takes the rules' own inlined path with `()` hooks and
    /// an EP count for a sink, nearly native speed (issue 23's 1.15×).
    plain_apply: bool,
    /// No variant hooks `cost` or `allow`: the legal list is the rules'
    /// plus card mode's own actions.
    plain_legal: bool,
    /// Whether what failed stays failed through [`Extension::reset`]:
    /// `ball check` probes many positions and games, each from a fresh
    /// state, and a hook that fails once (a loop that burns its whole
    /// budget) would otherwise fail again in every one of them.
    keep_failures: Cell<bool>,
}


impl Scripted {
    pub fn new(
        recipe: Recipe,
        host: Host,
        card_mode: bool,
        ep: EpTable,
        decks: [Vec<usize>; 2],
    ) -> Scripted {
        let points = Point::ALL.map(|p| host.hooks(p));
        let plain_apply = Point::ALL
            .iter()
            .all(|&p| p == Point::Allow || !points[p as usize]);
        let actions = host.actions().to_vec();
        let cheapest = [0, 1].map(|t: usize| {
            decks[t]
                .iter()
                .map(|&i| host.card(i).cost)
                .min()
                .unwrap_or(u32::MAX)
        });
        Scripted {
            recipe,
            live: RefCell::new(Live::new(host)),
            touched: Cell::new(false),
            card_mode,
            cards: PlainCards {
                verb_ep: Verb::ALL.map(|v| ep.verb(v)),
                event_ep: EarnedBy::ALL.map(|e| ep.event(e)),
                cheapest,
            },
            decks,
            actions,
            errors: RefCell::new(Vec::new()),
            scratch: RefCell::new(Vec::new()),
            points,
            plain_apply,
            plain_legal: !points[Point::Cost as usize] && !points[Point::Allow as usize],
            keep_failures: Cell::new(false),
        }
    }

    /// From now on a failed card or hook is not called again, not even
    /// after a reset (`ball check`).
    pub(crate) fn keep_failures(&self) {
        self.keep_failures.set(true);
    }

    /// Whether card `i`'s `resolve` failed earlier in the check, so that
    /// the probe does not play it again.
    pub(crate) fn effect_failed(&self, card: crate::games::ball::action::CardId, team: Team) -> bool {
        let Some(i) = self.find(team, card) else {
            return false;
        };
        self.live.borrow().failed_effect[i]
    }

    fn record(&self, e: ScriptError) {
        self.errors.borrow_mut().push(e);
    }

    #[inline(always)]
    fn hooked(&self, p: Point) -> bool {
        self.points[p as usize]
    }

    /// Asks rule point `p` through `f`; a variant whose hook fails is
    /// reported and not asked again this game.
    fn ask<T>(
        &self,
        p: Point,
        f: impl FnOnce(&Host, &dyn Fn(usize) -> bool, &mut dyn FnMut(usize, ScriptError)) -> T,
    ) -> T {
        self.touched.set(true);
        let slot = p as usize;
        let mut failed = Vec::new();
        let r = {
            let live = self.live.borrow();
            let broken = &live.broken_hooks;
            f(&live.host, &|k| broken[k][slot], &mut |k, e| failed.push((k, e)))
        };
        if !failed.is_empty() {
            let mut live = self.live.borrow_mut();
            for (k, e) in failed {
                live.broken_hooks[k][slot] = true;
                self.record(e);
            }
        }
        r
    }

    /// Runs the writing point `p` of every variant on `pos`.
    fn react(
        &self,
        p: Point,
        pos: &mut Position,
        params: &Params,
        arg: &dyn Fn(&Host) -> mlua::Result<mlua::Table>,
    ) {
        *pos = self.ask(p, |h, skip, failed| h.react(p, pos, params, arg, skip, failed));
    }

    /// What `action` costs in `pos`: a variant's `cost`, else the rules'
    /// (a card's own `ap`).
    fn cost_of(&self, pos: &Position, params: &Params, action: Action) -> u8 {
        if !apply::costs_ap(action) {
            return apply::native_cost(action);
        }
        // A card's play asks its price too: no script unless one sets it.
        let set = self.hooked(Point::Cost).then(|| {
            self.ask(Point::Cost, |h, skip, failed| {
                h.cost(pos, params, action, skip, failed)
            })
        });
        if let Some(Some(c)) = set {
            return c;
        }
        match action {
            Action::Card { card, .. } => self
                .find(pos.to_move, card)
                .map_or(0, |i| self.live.borrow().host.card(i).ap),
            a => apply::native_cost(a),
        }
    }

    /// The legal list when a variant sets costs: the rules' list with AP
    /// to spare, then what the coach can afford at the variant's prices.
    fn legal_at_cost(&self, pos: &Position, params: &Params, out: &mut Vec<Action>) {
        self.legal_with_ap_to_spare(pos, params, out);
        out.retain(|&a| self.cost_of(pos, params, a) <= pos.ap);
    }

    /// The rules' list (cards and variant actions included) as if the
    /// coach had every AP a variant's price could ask: what a variant's
    /// `cost` then filters, and what a refusal at its price is told from.
    fn legal_with_ap_to_spare(&self, pos: &Position, params: &Params, out: &mut Vec<Action>) {
        let mut raised = *pos;
        raised.ap = pos.ap.max(MAX_TURN_AP);
        out.clear();
        crate::games::ball::movegen::legal_into(&raised, params, out);
        self.add_cards(&raised, params, out);
    }

    /// The deck index of `card` for `team`.
    fn find(&self, team: Team, card: crate::games::ball::action::CardId) -> Option<usize> {
        let live = self.live.borrow();
        self.decks[team as usize]
            .iter()
            .chain(&self.actions)
            .copied()
            .find(|&i| live.host.card(i).id == card)
    }

    /// B11.6: the first cost or use limit that stops card `i` now, if
    /// any. Checked natively before any script, on every legal list, so
    /// it allocates nothing; `explain` words it.
    fn limit(&self, host: &Host, pos: &Position, i: usize) -> Option<Limit> {
        let info = host.card(i);
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

    /// Runs the variants' hooks for `event` on `pos`, skipping and then
    /// marking the ones that fail.
    fn event(&self, pos: &mut Position, params: &Params, event: Point, team: Team) {
        self.touched.set(true);
        let slot = event as usize;
        let mut live = self.live.borrow_mut();
        let live = &mut *live;
        let broken = &mut live.broken_hooks;
        let skip_set: Vec<bool> = broken.iter().map(|b| b[slot]).collect();
        let mut failed = Vec::new();
        *pos = live
            .host
            .on_event(pos, params, event, team, &|k| skip_set[k], &mut |k, e| {
                failed.push((k, e))
            });
        for (k, e) in failed {
            broken[k][slot] = true;
            self.record(e);
        }
    }

    /// Runs every variant hook on `pos` for both coaches: `ball check`'s
    /// probe of the hooks (`touchdown_counts`, `touchdown_value` and
    /// `ending` too, as if a touchdown had been scored or the game were
    /// ending there; `allow`, `cost` and the reactions run on the legal
    /// lists and plays the probe makes). A hook that fails is marked as
    /// in play, and is not called again.
    pub(crate) fn probe_events(&self, pos: &Position, params: &Params) {
        use apply::Hooks;
        for team in Team::BOTH {
            let mut at = AtTouchdown {
                scripted: self,
                params,
                mover: team,
            };
            let _ = at.counts(pos);
            // The rule points that only rare moments ask (a touchdown, the
            // rules' end, a new turn), asked here as if each had come.
            let _ = at.touchdown_value(pos, team);
            for why in [apply::RulesEnd::Touchdowns, apply::RulesEnd::TurnLimit] {
                let _ = at.ending(pos, why);
            }
            let _ = at.next_team(pos, team);
            let mut turn = *pos;
            turn.to_move = team;
            let _ = at.turn_ap(&turn, params.ap_per_turn);
            if self.hooked(Point::EndsNow) {
                let _ = self.ask(Point::EndsNow, |h, skip, failed| {
                    h.ending(pos, params, None, skip, failed)
                });
            }
        }
        if !self.hooked(Point::OnTurnStart) && !self.hooked(Point::OnTouchdown) {
            return;
        }
        for event in [Point::OnTurnStart, Point::OnTouchdown] {
            for team in Team::BOTH {
                let mut copy = *pos;
                self.event(&mut copy, params, event, team);
            }
        }
    }

    /// [`Extension::apply`] for any event sink: the log-free path of bots
    /// and playouts passes `()` and `logged` false, so only the EP tally
    /// sees the events.
    #[inline(always)]
    fn run<L: Sink<Event> + ?Sized>(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
        log: &mut L,
        logged: bool,
    ) -> Result<(), String> {
        if !self.plain_apply || matches!(action, Action::Card { .. }) {
            return self.run_hooked(pos, params, action, log, logged);
        }
        // Every hook would answer the rulebook's default: the rules'
        // `apply`, which with `()` hooks compiles them away.
        if self.card_mode {
            self.cards.apply(pos, params, action, log);
        } else {
            apply::apply(pos, params, action, &mut &mut *log);
        }
        Ok(())
    }

    /// [`Scripted::run`] for a card's play or under a variant's hooks:
    /// out of line, so that the plain path stays small.
    #[inline(never)]
    fn run_hooked<L: Sink<Event> + ?Sized>(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
        log: &mut L,
        logged: bool,
    ) -> Result<(), String> {
        let mover = pos.to_move;
        // Variant hooks run per touchdown. A failing hook is reported and
        // skipped: the action itself was legal and stands.
        let mut on_touchdown = AtTouchdown {
            scripted: self,
            params,
            mover,
        };
        let mut tally = Tally {
            log,
            cards: &self.cards,
            earned: 0,
            turn_started: None,
            events: self.hooked(Point::OnEvent).then(Vec::new),
        };
        if let Action::Card { card, args } = action {
            // B11.7: the effect works on a copy, committed only whole.
            let i = self
                .find(mover, card)
                .ok_or_else(|| format!("`{}` is not one of {mover}'s cards", card.name()))?;
            self.touched.set(true);
            if self.live.borrow().failed_effect[i] {
                return Err(format!(
                    "card `{}`: its effect failed earlier",
                    card.name()
                ));
            }
            // The card's own `ap` unless a variant prices it.
            let priced = self
                .hooked(Point::Cost)
                .then(|| self.cost_of(pos, params, action));
            let mut next = *pos;
            let resolved = {
                let live = self.live.borrow();
                let info = live.host.card(i);
                let ap_cost = priced.unwrap_or(info.ap);
                next.ep[mover as usize] -= info.cost;
                next.ap = next.ap.saturating_sub(ap_cost);
                let counted = if info.uses.is_some() || info.per_turn.is_some() {
                    let (game, turn) = next.card_uses.get(mover, info.id);
                    next.card_uses.set(CardUse {
                        team: mover,
                        card: info.id,
                        game: game.saturating_add(1),
                        turn: turn.saturating_add(1),
                    })
                } else {
                    true
                };
                if counted {
                    live.host.resolve(i, &mut next, params, args)
                } else {
                    // Unreachable for a position the reader checked
                    // (`check_position`): refused rather than uncounted.
                    Err(ScriptError::kernel(
                        &info.file,
                        &format!("card {}", info.id.name()),
                        "resolve",
                        "the position's card-use record is full: the play could not be counted (B11.6)",
                    ))
                }
            };
            match resolved {
                Ok(()) => {
                    // What the play did, costs included: a script's
                    // effect emits no events of its own. Only a log or an
                    // `on_event` hook reads it (it earns no EP), and
                    // working it out is a tenth of a play's Rust side.
                    if logged || tally.events.is_some() {
                        tally.emit(Event::Card(
                            crate::games::ball::event::CardEffect::between(
                                mover, card, args, pos, &next,
                            ),
                        ));
                    }
                }
                Err(e) => {
                    let mut live = self.live.borrow_mut();
                    if self.keep_failures.get() {
                        live.failed_effect[i] = true;
                    } else {
                        live.broken[i] = true;
                    }
                    let text = e.to_string();
                    self.record(e);
                    return Err(text);
                }
            };
            if next.is_over() {
                // `game.end_game()`: frozen as the effect left it (B3.6).
                let outcome = next.outcome.expect("over");
                tally.emit(Event::GameOver { outcome });
            } else {
                apply::finish(&mut next, params, action, &mut tally, &mut on_touchdown);
            }
            *pos = next;
        } else {
            // A native action cannot fail: it works in place.
            apply::apply_with_hooks(pos, params, action, &mut tally, &mut on_touchdown);
        }
        if self.card_mode {
            let earned = tally.earned + self.cards.verb_ep[action.verb() as usize];
            pos.ep[mover as usize] = pos.ep[mover as usize].saturating_add(earned);
        }
        // The touchdown hook ran inside apply, before the reset.
        if let Some(team) = tally
            .turn_started
            .filter(|_| self.hooked(Point::OnTurnStart) && !pos.is_over()) {
            self.event(pos, params, Point::OnTurnStart, team);
        }
        // Reactions see the action whole: each of its events in order,
        // then the action itself.
        for e in tally.events.take().unwrap_or_default() {
            if pos.is_over() {
                break;
            }
            self.react(Point::OnEvent, pos, params, &|h| h.event_table(&e));
        }
        if self.hooked(Point::AfterAction) && !pos.is_over() {
            self.react(Point::AfterAction, pos, params, &|h| h.action_table(action));
        }
        // An end on a condition: asked after every action of a game that
        // goes on.
        if self.hooked(Point::EndsNow) && !pos.is_over() {
            let ending = self.ask(Point::EndsNow, |h, skip, failed| {
                h.ending(pos, params, None, skip, failed)
            });
            if let Some(apply::Ending::End { outcome, reason }) = ending {
                apply::end_by(pos, outcome, reason, tally.log);
            }
        }
        Ok(())
    }
}

impl Scripted {
    /// [`Extension::extend_legal`] when a variant sets costs or filters.
    #[inline(never)]
    fn extend_legal_hooked(&self, pos: &Position, params: &Params, out: &mut Vec<Action>) {
        if self.hooked(Point::Cost) && pos.phase == Phase::Action && !pos.is_over() {
            self.legal_at_cost(pos, params, out);
        } else {
            self.add_cards(pos, params, out);
        }
        if self.hooked(Point::Allow) && !pos.is_over() {
            self.filter_allowed(pos, params, out);
        }
    }

    /// Card mode's own actions (`convert`, the cards' targets), appended.
    fn add_cards(&self, pos: &Position, params: &Params, out: &mut Vec<Action>) {
        self.add_cards_inline(pos, params, out);
    }

    /// [`Scripted::add_cards`], inlined into the plain legal list: most
    /// lists end at the EP check, before any card is looked at, and a call
    /// more cost them a tenth of card mode's overhead.
    #[inline(always)]
    fn add_cards_inline(&self, pos: &Position, params: &Params, out: &mut Vec<Action>) {
        if pos.is_over() || pos.phase != Phase::Action {
            return;
        }
        if !self.actions.is_empty() {
            self.add_playable(pos, params, &self.actions, out);
        }
        if !self.card_mode {
            return;
        }
        PlainCards::convert_into(pos, params, out);
        if !self.cards.card_affordable(pos, params) {
            return;
        }
        self.add_playable(pos, params, &self.decks[pos.to_move as usize], out);
    }

    /// The targets of each card (or variant action) of `which` that the
    /// coach may play now, appended. Out of line: few lists get here.
    #[inline(never)]
    fn add_playable(&self, pos: &Position, params: &Params, which: &[usize], out: &mut Vec<Action>) {
        // The position's facts for declared targets, gathered at most once.
        let mut facts = None;
        let mut targets = self.scratch.borrow_mut();
        let mut failed = Vec::new();
        {
            let live = self.live.borrow();
            let host = &live.host;
            for &i in which {
                if self.limit(host, pos, i).is_some() || live.broken[i] {
                    continue;
                }
                let id = host.card(i).id;
                targets.clear();
                if let Some(d) = host.declared(i) {
                    let facts = facts.get_or_insert_with(|| Facts::new(pos));
                    d.enumerate_with(facts, params, &mut |args| {
                        out.push(Action::Card { card: id, args })
                    });
                    continue;
                }
                self.touched.set(true);
                match host.targets(i, pos, params, &mut targets) {
                    Ok(()) => {
                        out.extend(targets.iter().map(|&args| Action::Card { card: id, args }))
                    }
                    Err(e) => failed.push((i, e)),
                }
            }
        }
        if !failed.is_empty() {
            let mut live = self.live.borrow_mut();
            for (i, e) in failed {
                live.broken[i] = true;
                self.record(e);
            }
        }
    }

    /// Why card mode's own action (`convert`, a card) is refused.
    fn explain_cards(&self, pos: &Position, action: Action) -> Option<Illegal> {
        let illegal = |rule: &'static str, reason: String| {
            Some(Illegal {
                action,
                rule,
                reason,
            })
        };
        let own_action = matches!(action, Action::Card { card, .. } if card.is_action());
        if !(self.card_mode || own_action && !self.actions.is_empty())
            || !matches!(action, Action::Convert { .. } | Action::Card { .. })
        {
            return None;
        }
        if pos.is_over() {
            return illegal("B3.6", "the game is over".into());
        }
        // A variant's action is the house rule's, not card mode's: its
        // refusals cite `ruleset` (as `allow`'s do), and B4.2 for its AP,
        // not the B11 card rules a reader would look up in vain.
        let rule = |card_rule: &'static str| if own_action { "ruleset" } else { card_rule };
        if pos.phase != Phase::Action {
            let what = if own_action {
                "a variant's actions"
            } else {
                "cards and `convert`"
            };
            return illegal(rule("B11.6"), format!("{what} belong to the action phase"));
        }
        match action {
            Action::Convert { ap } => {
                illegal("B11.4", format!("{ap} AP to convert and {} left", pos.ap))
            }
            Action::Card { card, .. } => {
                let Some(i) = self.find(pos.to_move, card) else {
                    return illegal(
                        rule("B11.9"),
                        if card.is_action() {
                            format!("`{}` is not an action of this ruleset", card.name())
                        } else {
                            format!("`{}` is not one of {}'s cards", card.name(), pos.to_move)
                        },
                    );
                };
                let live = self.live.borrow();
                if live.broken[i] {
                    return illegal(
                        rule("B11.7"),
                        "its script failed earlier in this game".into(),
                    );
                }
                let info = live.host.card(i);
                let team = pos.to_move;
                let why = match self.limit(&live.host, pos, i) {
                    Some(Limit::Ep) => Some((
                        rule("B11.6"),
                        format!(
                            "it costs {} EP and {team} has {}",
                            info.cost, pos.ep[team as usize]
                        ),
                    )),
                    Some(Limit::Ap) => Some((
                        if own_action { "B4.2" } else { "B11.6" },
                        format!("it costs {} AP and {} are left", info.ap, pos.ap),
                    )),
                    Some(Limit::PerGame) => Some((
                        rule("B11.6"),
                        format!(
                            "it may be played {} a game",
                            crate::diagnostic::times(info.uses.unwrap_or(0))
                        ),
                    )),
                    Some(Limit::PerTurn) => Some((
                        rule("B11.6"),
                        format!(
                            "it may be played {} a turn",
                            crate::diagnostic::times(info.per_turn.unwrap_or(0))
                        ),
                    )),
                    None => None,
                };
                if let Some((cited, reason)) = why {
                    return illegal(cited, reason);
                }
                let what = if card.is_action() { "action" } else { "card" };
                illegal(
                    rule("B11.6"),
                    format!("not one of the targets {what} `{}` offers now", card.name()),
                )
            }
            _ => None,
        }
    }


    /// The first variant whose `allow` refuses `action`, and its reason;
    /// failing hooks are reported and skipped from then on.
    fn ask_allow(
        &self,
        pos: &Position,
        params: &Params,
        action: Action,
    ) -> Option<(usize, Option<String>)> {
        self.touched.set(true);
        let mut live = self.live.borrow_mut();
        let live = &mut *live;
        let broken = &mut live.broken_hooks;
        let mut failed = Vec::new();
        let refused = live.host.refused(
            pos,
            params,
            action,
            &|k| broken[k][Point::Allow as usize],
            &mut |k, e| failed.push((k, e)),
        );
        for (k, e) in failed {
            broken[k][Point::Allow as usize] = true;
            self.record(e);
        }
        refused
    }

    /// Removes from `out` what a variant's `allow` refuses. Only removes:
    /// an action the rules do not list is never asked about. `end` and
    /// the release tasks are never asked, so a turn can always end.
    fn filter_allowed(&self, pos: &Position, params: &Params, out: &mut Vec<Action>) {
        out.retain(|&a| !asks_allow(a) || self.ask_allow(pos, params, a).is_none());
    }
}

/// Whether `allow` is asked about an action: every verb but `end`,
/// `standup` and `release`, which a ruleset cannot forbid either (the
/// turn could not end).
fn asks_allow(a: Action) -> bool {
    !matches!(a, Action::End) && !a.is_task()
}

/// The variants' hooks at a touchdown, for `apply`.
struct AtTouchdown<'a> {
    scripted: &'a Scripted,
    params: &'a Params,
    mover: Team,
}

impl apply::Hooks for AtTouchdown<'_> {
    fn counts(&mut self, pos: &Position) -> bool {
        let s = self.scripted;
        if !s.hooked(Point::TouchdownCounts) {
            return true;
        }
        s.touched.set(true);
        let mut live = s.live.borrow_mut();
        let live = &mut *live;
        let broken = &mut live.broken_hooks;
        let mut failed = Vec::new();
        let veto = live.host.touchdown_vetoed(
            pos,
            self.params,
            self.mover,
            &|k| broken[k][Point::TouchdownCounts as usize],
            &mut |k, e| failed.push((k, e)),
        );
        for (k, e) in failed {
            broken[k][Point::TouchdownCounts as usize] = true;
            s.record(e);
        }
        veto.is_none()
    }

    fn scored(&mut self, pos: &mut Position) {
        if self.scripted.hooked(Point::OnTouchdown) {
            self.scripted
                .event(pos, self.params, Point::OnTouchdown, self.mover);
        }
    }

    #[inline]
    fn cost(&mut self, pos: &Position, action: Action) -> Option<u8> {
        let s = self.scripted;
        if !s.hooked(Point::Cost) {
            return None;
        }
        s.ask(Point::Cost, |h, skip, failed| {
            h.cost(pos, self.params, action, skip, failed)
        })
    }

    #[inline]
    fn touchdown_value(&mut self, pos: &Position, team: Team) -> (u8, Team) {
        let s = self.scripted;
        if !s.hooked(Point::TouchdownValue) {
            return (1, team);
        }
        s.ask(Point::TouchdownValue, |h, skip, failed| {
            h.touchdown_value(pos, self.params, team, skip, failed)
        })
        .unwrap_or((1, team))
    }

    #[inline]
    fn ending(&mut self, pos: &Position, why: apply::RulesEnd) -> apply::Ending {
        let s = self.scripted;
        if !s.hooked(Point::Ending) {
            return apply::Ending::Rules;
        }
        s.ask(Point::Ending, |h, skip, failed| {
            h.ending(pos, self.params, Some(why), skip, failed)
        })
        .unwrap_or(apply::Ending::Rules)
    }

    #[inline]
    fn next_team(&mut self, pos: &Position, team: Team) -> Team {
        let s = self.scripted;
        if !s.hooked(Point::NextTurn) {
            return team;
        }
        s.ask(Point::NextTurn, |h, skip, failed| {
            h.next_turn(pos, self.params, team, skip, failed)
        })
        .unwrap_or(team)
    }

    #[inline]
    fn turn_ap(&mut self, pos: &Position, ap: u8) -> u8 {
        let s = self.scripted;
        if !s.hooked(Point::TurnAp) {
            return ap;
        }
        s.ask(Point::TurnAp, |h, skip, failed| {
            h.turn_ap(pos, self.params, pos.to_move, skip, failed)
        })
        .unwrap_or(ap)
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

    fn plain_cards(&self) -> Option<PlainCards> {
        let plain = self.plain_apply && self.plain_legal && self.actions.is_empty();
        (self.card_mode && plain).then_some(self.cards)
    }

    fn cards(&self, team: Team) -> Vec<CardSummary> {
        let live = self.live.borrow();
        let deck: &[usize] = if self.card_mode {
            &self.decks[team as usize]
        } else {
            &[]
        };
        deck.iter()
            .chain(&self.actions)
            .map(|&i| {
                let c = live.host.card(i);
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
        if self.plain_legal {
            self.add_cards_inline(pos, params, out);
        } else {
            self.extend_legal_hooked(pos, params, out);
        }
    }

    fn apply(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
        log: &mut dyn Sink<Event>,
    ) -> Result<(), String> {
        self.run(pos, params, action, log, true)
    }

    fn apply_quiet(
        &self,
        pos: &mut Position,
        params: &Params,
        action: Action,
    ) -> Result<(), String> {
        self.run(pos, params, action, &mut (), false)
    }

    fn explain(&self, pos: &Position, params: &Params, action: Action) -> Option<Illegal> {
        if self.hooked(Point::Cost) && pos.phase == Phase::Action && !pos.is_over() {
            let mut list = Vec::new();
            self.legal_with_ap_to_spare(pos, params, &mut list);
            if list.contains(&action) {
                let cost = self.cost_of(pos, params, action);
                if cost > pos.ap {
                    return Some(Illegal {
                        action,
                        rule: "B4.2",
                        reason: format!("it costs {cost} AP under this ruleset and {} are left", pos.ap),
                    });
                }
            }
        }
        if !self.hooked(Point::Allow) || !asks_allow(action) || pos.is_over() {
            return self.explain_cards(pos, action);
        }
        // Refused by `allow` only if the rules without it list it: a
        // natively illegal action (a card's too) keeps its own refusal.
        let mut unfiltered = Vec::new();
        crate::games::ball::movegen::legal_into(pos, params, &mut unfiltered);
        self.add_cards(pos, params, &mut unfiltered);
        if !unfiltered.contains(&action) {
            return self.explain_cards(pos, action);
        }
        let Some((k, reason)) = self.ask_allow(pos, params, action) else {
            return self.explain_cards(pos, action);
        };
        let live = self.live.borrow();
        let name = live.host.variant_name(k);
        Some(Illegal {
            action,
            rule: "ruleset",
            reason: match reason {
                Some(r) => format!("variant {name}: {r}"),
                None => format!("variant {name} does not allow it here"),
            },
        })
    }

    fn take_errors(&self) -> Vec<ScriptError> {
        std::mem::take(&mut *self.errors.borrow_mut())
    }

    fn reset(&self) {
        self.errors.borrow_mut().clear();
        if !self.touched.replace(false) {
            return;
        }
        let r = &self.recipe;
        let mut live = self.live.borrow_mut();
        // Built from the same text that built this one, which loaded: it
        // loads again. Should it somehow not, the old state stays, with
        // its failures cleared. (The new state is built while the old one
        // lives: a thread that holds a state never waits for the memory
        // pool, and a fresh state uses little of its reservation.)
        let fresh = Host::load(&r.params, r.ep_table.as_ref(), &r.variants, &r.cards);
        let keep = self.keep_failures.get();
        match fresh {
            Ok(loaded) => {
                let mut next = Live::new(loaded.host);
                if keep {
                    next.broken.clone_from(&live.broken);
                    next.failed_effect.clone_from(&live.failed_effect);
                    next.broken_hooks.clone_from(&live.broken_hooks);
                }
                *live = next;
            }
            Err(_) if keep => {}
            Err(_) => {
                live.broken.iter_mut().for_each(|b| *b = false);
                live.broken_hooks.iter_mut().for_each(|b| *b = [false; POINTS]);
            }
        }
    }

    fn check_position(&self, pos: &Position) -> Result<(), PositionError> {
        let live = self.live.borrow();
        for (n, u) in pos.card_uses.iter().enumerate() {
            let held = self.decks[u.team as usize]
                .iter()
                .chain(&self.actions)
                .map(|&i| live.host.card(i))
                .find(|c| c.id == u.card);
            let problem = match held {
                None => format!(
                    "{} holds no card `{}` under this ruleset",
                    u.team,
                    u.card.name()
                ),
                Some(c) if c.uses.is_none() && c.per_turn.is_none() => format!(
                    "`{}` has no use limit: its plays are not recorded (B11.6)",
                    u.card.name()
                ),
                Some(_) => continue,
            };
            return Err(PositionError {
                field: format!("cards_used[{n}].card"),
                problem,
            });
        }
        Ok(())
    }
}

/// Forwards events and counts what the EP table pays for them.
struct Tally<'a, 'b, L: ?Sized> {
    log: &'a mut L,
    cards: &'b PlainCards,
    earned: u32,
    turn_started: Option<Team>,
    /// The action's events, kept for `on_event` when a variant hooks it.
    events: Option<Vec<Event>>,
}

impl<L: Sink<Event> + ?Sized> Sink<Event> for Tally<'_, '_, L> {
    fn emit(&mut self, event: Event) {
        if let Event::TurnStarted { team, .. } = event {
            self.turn_started = Some(team);
        }
        self.earned += self.cards.earned(&event);
        if let Some(events) = &mut self.events {
            events.push(event);
        }
        self.log.emit(event);
    }
}
