//! The choice flow: how a person builds one legal action out of the
//! rulebook's choices (BALL: a piece, what it does, where to; Gateball:
//! power or tech, then the shot), for every front end alike.
//!
//! A game says, for each legal action, which choices make it up
//! ([`Flow::choices`]); the flow offers the next choices of the legal
//! actions that start with what was chosen so far. It never decides
//! legality itself: whatever sequence of offered choices a person makes,
//! it can only ever name an action of the legal list, and every action of
//! the list can be named. The choices of one step are told apart by their
//! label, so two actions share a choice exactly when their labels agree.
//!
//! [`Chooser`] is that state for one position; `Session` keeps one for the
//! position on the board and plays the action once it is named.

use std::fmt::Debug;

use crate::kernel::game::Title;

/// A key a choice can be made with, as every front end can name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Char(char),
    Up,
    Down,
    Left,
    Right,
}

impl Key {
    /// How a key list shows it: `e`, `↑`.
    pub fn name(self) -> String {
        match self {
            Key::Char(c) => c.to_string(),
            Key::Up => "↑".into(),
            Key::Down => "↓".into(),
            Key::Left => "←".into(),
            Key::Right => "→".into(),
        }
    }
}

/// One choice of the flow: what a front end lists, highlights and lets
/// the person pick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<C> {
    /// What it is called, short (`DEF3`, `move`, `H10`, `power`); also
    /// what tells it apart from the other choices of its step.
    pub label: String,
    /// The board cell it is made on, if any: a front end highlights it
    /// and a click there makes it.
    pub cell: Option<C>,
    /// Keys that make it, the first one shown; stable from turn to turn,
    /// so that the same keys always mean the same thing.
    pub keys: Vec<Key>,
    /// A few words on what it does, for a menu or a tooltip.
    pub help: String,
    /// Where it is listed among its step's choices (lower first); equal
    /// ones keep the legal list's order.
    pub order: u32,
}

impl<C> Choice<C> {
    pub fn new(label: impl Into<String>) -> Choice<C> {
        Choice {
            label: label.into(),
            cell: None,
            keys: Vec::new(),
            help: String::new(),
            order: 0,
        }
    }

    pub fn at(mut self, cell: C) -> Self {
        self.cell = Some(cell);
        self
    }

    pub fn key(mut self, key: Key) -> Self {
        self.keys.push(key);
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = help.into();
        self
    }

    pub fn order(mut self, order: u32) -> Self {
        self.order = order;
        self
    }

    pub fn has_key(&self, key: Key) -> bool {
        self.keys.contains(&key)
    }
}

/// How loud a log line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// A detail of an action (a piece knocked down, a roll).
    Quiet,
    /// Something worth noticing (a touchdown, a Goal, the end).
    Loud,
}

/// What a game supplies so that a person can play it on any board: its
/// choice flow, and the words a board shows about it. Implemented in each
/// game's folder (`flow.rs`).
///
/// Positions and actions cross to a bot's thread, hence `Send`.
pub trait Flow: Title<Position: Send, Action: Send> {
    /// A square or space of the game's board.
    type Cell: Copy + Eq + Debug + Send + 'static;

    /// The bot a board seats when none is named (`--bot SEAT`): the
    /// strongest of the bots that still answers at once.
    const DEFAULT_BOT: &'static str = "mcts";

    /// The choices that make up `action`, a legal action of `pos`, in the
    /// order a person makes them. Every legal action must have at least
    /// one, and no two legal actions the same labels.
    fn choices(&self, pos: &Self::Position, action: Self::Action) -> Vec<Choice<Self::Cell>>;

    /// What the person is asked now, in a few words: `next` is one legal
    /// action that continues the `depth` choices made so far.
    fn prompt(&self, pos: &Self::Position, next: Self::Action, depth: usize) -> String;

    /// Whether a named action waits for a confirmation (Enter, a second
    /// click) before it is played, so that its effect can be read first.
    fn confirm(&self, _pos: &Self::Position, _action: Self::Action) -> bool {
        false
    }

    /// What a named action will do, shown while it waits.
    fn preview(&self, _pos: &Self::Position, _action: Self::Action) -> Option<String> {
        None
    }

    /// Why a key of the game's makes no choice now (`e` in a release
    /// phase), in one line or a few; empty when there is nothing to say.
    /// `depth` is how many choices are made of the action in progress.
    fn unavailable(&self, _pos: &Self::Position, _depth: usize, _key: Key) -> Vec<String> {
        Vec::new()
    }

    /// The log line of an event, if it is worth one.
    fn event_line(&self, event: &Self::Event) -> Option<(String, Tone)> {
        Some((event.to_string(), Tone::Quiet))
    }

    /// Plain words about an action the notation alone does not make clear
    /// (a card's effect), for the log, after the action's own line.
    fn narrate(
        &self,
        _before: &Self::Position,
        _action: Self::Action,
        _after: &Self::Position,
        _events: &[Self::Event],
    ) -> Vec<String> {
        Vec::new()
    }

    /// A banner for an action that changed the game at a stroke (a
    /// touchdown that resets the board), shown until the next action.
    fn banner(
        &self,
        _before: &Self::Position,
        _action: Self::Action,
        _after: &Self::Position,
        _events: &[Self::Event],
    ) -> Option<String> {
        None
    }
}

/// The choices of every legal action of one position, and the ones made
/// so far.
#[derive(Clone, Debug)]
pub struct Chooser<A, C> {
    paths: Vec<(A, Vec<Choice<C>>)>,
    chosen: Vec<Choice<C>>,
    options: Vec<Choice<C>>,
}

/// Where a key or a click leads: the whole prefix of choices to make.
pub type Path = Vec<String>;

fn is_digit(k: &Key) -> bool {
    matches!(k, Key::Char(c) if c.is_ascii_digit())
}

/// Makes every key of a step name one choice, and gives a menu digits.
///
/// A key two choices of the step share would choose whichever is listed
/// first without saying so, so only the first keeps it (a game lists the
/// one it means first: BALL, your own piece of that number). A menu
/// (no choice on the board) whose game gave it no digits numbers its
/// unkeyed entries 1 … 9, 0 in listing order, so that a digit chooses in
/// every menu, as the boards promise.
fn number_menu<C>(step: &mut [Choice<C>]) {
    let mut seen: Vec<Key> = Vec::new();
    for c in step.iter_mut() {
        c.keys.retain(|k| {
            let fresh = !seen.contains(k);
            seen.push(*k);
            fresh
        });
    }
    let menu = step.iter().all(|c| c.cell.is_none());
    if !menu || seen.iter().any(is_digit) {
        return;
    }
    let unkeyed = step.iter_mut().filter(|c| c.keys.is_empty());
    for (c, n) in unkeyed.zip(1u32..=10) {
        c.keys
            .push(Key::Char(char::from_digit(n % 10, 10).unwrap_or('0')));
    }
}

impl<A: Copy + PartialEq, C: Copy + PartialEq> Chooser<A, C> {
    /// Nothing to choose (a bot's turn, a finished game).
    pub fn empty() -> Self {
        Chooser {
            paths: Vec::new(),
            chosen: Vec::new(),
            options: Vec::new(),
        }
    }

    /// The flow over `legal`, each action split by `split`.
    pub fn new(legal: &[A], mut split: impl FnMut(A) -> Vec<Choice<C>>) -> Self {
        let paths = legal.iter().map(|&a| (a, split(a))).collect();
        let mut c = Chooser {
            paths,
            chosen: Vec::new(),
            options: Vec::new(),
        };
        c.refresh();
        c
    }

    pub fn chosen(&self) -> &[Choice<C>] {
        &self.chosen
    }

    /// What may be chosen next, in listing order.
    pub fn options(&self) -> &[Choice<C>] {
        &self.options
    }

    /// The legal actions that continue what was chosen, with their
    /// choices.
    pub fn matching(&self) -> impl Iterator<Item = (A, &[Choice<C>])> {
        self.paths_after(&self.chosen)
    }

    /// Every legal action with its choices.
    pub fn paths(&self) -> impl Iterator<Item = (A, &[Choice<C>])> {
        self.paths.iter().map(|(a, s)| (*a, s.as_slice()))
    }

    /// The action the choices name exactly, if they name one.
    pub fn whole(&self) -> Option<A> {
        let n = self.chosen.len();
        self.matching().find(|(_, s)| s.len() == n).map(|(a, _)| a)
    }

    /// Makes the choice labelled `label`, if it is offered.
    pub fn push(&mut self, label: &str) -> bool {
        let Some(c) = self.options.iter().find(|c| c.label == label).cloned() else {
            return false;
        };
        self.chosen.push(c);
        self.refresh();
        true
    }

    /// Takes back the last choice.
    pub fn pop(&mut self) -> Option<Choice<C>> {
        let c = self.chosen.pop()?;
        self.refresh();
        Some(c)
    }

    pub fn clear(&mut self) {
        self.chosen.clear();
        self.refresh();
    }

    /// Replaces the choices made by `path`, if every step of it is
    /// offered in turn; otherwise nothing changes.
    pub fn set(&mut self, path: &[String]) -> bool {
        let saved = self.chosen.clone();
        self.chosen.clear();
        self.refresh();
        for label in path {
            if !self.push(label) {
                self.chosen = saved;
                self.refresh();
                return false;
            }
        }
        true
    }

    /// The next choices after `prefix`, in listing order.
    pub fn options_after(&self, prefix: &[Choice<C>]) -> Vec<Choice<C>> {
        let n = prefix.len();
        let mut out: Vec<Choice<C>> = Vec::new();
        for (_, s) in self.paths_after(prefix) {
            if let Some(c) = s.get(n)
                && !out.iter().any(|o| o.label == c.label)
            {
                out.push(c.clone());
            }
        }
        // Stable: equal orders keep the legal list's order.
        out.sort_by_key(|c| c.order);
        number_menu(&mut out);
        out
    }

    fn paths_after<'a>(
        &'a self,
        prefix: &'a [Choice<C>],
    ) -> impl Iterator<Item = (A, &'a [Choice<C>])> {
        self.paths
            .iter()
            .filter(move |(_, s)| {
                s.len() >= prefix.len() && s.iter().zip(prefix).all(|(a, b)| a.label == b.label)
            })
            .map(|(a, s)| (*a, s.as_slice()))
    }

    fn refresh(&mut self) {
        self.options = self.options_after(&self.chosen);
    }

    fn labels(&self, upto: usize) -> Path {
        self.chosen[..upto]
            .iter()
            .map(|c| c.label.clone())
            .collect()
    }

    /// Where a key leads, by three rules that keep a key's meaning fixed:
    ///
    /// 1. a key of an offered choice makes it;
    /// 2. when nothing more is offered (a named action waits for its
    ///    confirmation), a key of an earlier step makes that step's
    ///    choice again, dropping the later ones (Gateball: another
    ///    direction before Enter);
    /// 3. before anything is chosen, when the first step's choices have no
    ///    keys, a key of the second step makes the `highlighted` first
    ///    choice and then its own (Gateball: a direction key shoots from
    ///    the highlighted Start Space).
    pub fn key_path(&self, key: Key, highlighted: Option<&str>) -> Option<Path> {
        if let Some(c) = self.options.iter().find(|c| c.has_key(key)) {
            let mut p = self.labels(self.chosen.len());
            p.push(c.label.clone());
            return Some(p);
        }
        if self.options.is_empty() {
            for k in (0..self.chosen.len()).rev() {
                let here = self.options_after(&self.chosen[..k]);
                if let Some(c) = here.iter().find(|c| c.has_key(key)) {
                    let mut p = self.labels(k);
                    p.push(c.label.clone());
                    return Some(p);
                }
            }
            return None;
        }
        if self.chosen.is_empty() && self.options.iter().all(|c| c.keys.is_empty()) {
            let first = self
                .options
                .iter()
                .find(|c| Some(c.label.as_str()) == highlighted)
                .or(self.options.first())?;
            let next = self.options_after(std::slice::from_ref(first));
            let c = next.iter().find(|c| c.has_key(key))?;
            return Some(vec![first.label.clone(), c.label.clone()]);
        }
        None
    }

    /// Where a click on `cell` leads. From the current step back to the
    /// first: a choice of that step made on the cell, else one of the
    /// step after it (a BALL destination clicked while the action menu
    /// is open, when one kind of action leads there; a Gateball end
    /// space). Among several, the one continuing the `highlighted` choice
    /// or the choice already made; `Err` lists them when that does not
    /// settle it.
    pub fn cell_path(
        &self,
        cell: C,
        highlighted: Option<&str>,
    ) -> Result<Option<Path>, Vec<String>> {
        for k in (0..=self.chosen.len()).rev() {
            let prefix = &self.chosen[..k];
            let here = self.options_after(prefix);
            let on: Vec<&Choice<C>> = here.iter().filter(|c| c.cell == Some(cell)).collect();
            if !on.is_empty() {
                let pick = on
                    .iter()
                    .find(|c| k == self.chosen.len() && Some(c.label.as_str()) == highlighted)
                    .unwrap_or(&on[0]);
                let mut p = self.labels(k);
                p.push(pick.label.clone());
                return Ok(Some(p));
            }
            // One step further: every way through this step to a choice
            // on the cell.
            let mut ways: Vec<(String, String)> = Vec::new();
            for c in &here {
                let mut longer = prefix.to_vec();
                longer.push(c.clone());
                for d in self.options_after(&longer) {
                    if d.cell == Some(cell) && !ways.iter().any(|w| w.0 == c.label) {
                        ways.push((c.label.clone(), d.label.clone()));
                    }
                }
            }
            let prefer = if k == self.chosen.len() {
                highlighted
            } else {
                Some(self.chosen[k].label.as_str())
            };
            let way = match ways.as_slice() {
                [] => continue,
                [one] => Some(one),
                many => many.iter().find(|w| Some(w.0.as_str()) == prefer),
            };
            return match way {
                Some((a, b)) => {
                    let mut p = self.labels(k);
                    p.push(a.clone());
                    p.push(b.clone());
                    Ok(Some(p))
                }
                None => Err(ways.into_iter().map(|w| w.0).collect()),
            };
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy flow: an action `(a, b)` is "piece a" on cell a (key = its
    /// digit), then "to b" on cell 10 + b; `(9, 0)` is a keyed whole
    /// action of one choice (`e`).
    fn split(&(a, b): &(u8, u8)) -> Vec<Choice<u8>> {
        if a == 9 {
            return vec![Choice::new("end").key(Key::Char('e'))];
        }
        vec![
            Choice::new(format!("piece {a}"))
                .at(a)
                .key(Key::Char(char::from(b'0' + a))),
            Choice::new(format!("to {b}"))
                .at(10 + b)
                .order(u32::from(b)),
        ]
    }

    fn toy() -> Chooser<(u8, u8), u8> {
        let legal = [(1, 3), (1, 2), (2, 3), (9, 0)];
        Chooser::new(&legal, |a| split(&a))
    }

    fn labels(c: &Chooser<(u8, u8), u8>) -> Vec<String> {
        c.options().iter().map(|o| o.label.clone()).collect()
    }

    #[test]
    fn options_are_the_next_choices_of_the_actions_that_continue() {
        let mut c = toy();
        assert_eq!(labels(&c), ["piece 1", "piece 2", "end"]);
        assert!(c.push("piece 1"));
        assert_eq!(labels(&c), ["to 2", "to 3"], "sorted by order");
        assert!(!c.push("to 7"), "not offered: refused");
        assert!(c.push("to 3"));
        assert_eq!(c.whole(), Some((1, 3)));
        assert!(c.options().is_empty());
        c.pop();
        assert_eq!(c.whole(), None);
        c.clear();
        assert!(c.chosen().is_empty());
    }

    #[test]
    fn keys_make_the_offered_choice_and_nothing_else() {
        let mut c = toy();
        assert_eq!(
            c.key_path(Key::Char('2'), None),
            Some(vec!["piece 2".into()])
        );
        assert_eq!(c.key_path(Key::Char('7'), None), None);
        c.push("piece 1");
        // An earlier step's key while choices are offered means nothing.
        assert_eq!(c.key_path(Key::Char('2'), None), None);
        c.push("to 3");
        // With nothing more offered, an earlier step's key re-chooses it.
        assert_eq!(
            c.key_path(Key::Char('2'), None),
            Some(vec!["piece 2".into()])
        );
    }

    #[test]
    fn a_menu_without_digits_is_numbered_and_a_shared_key_names_one_choice() {
        // Three menu actions without keys and one keyed `e`; then two
        // actions whose first choices share the key `x`: the second loses
        // it and is numbered with the unkeyed.
        let legal = [0u8, 1, 2, 3, 4, 5];
        let c = Chooser::new(&legal, |a| {
            vec![match a {
                0 => Choice::new("end").key(Key::Char('e')),
                4 | 5 => Choice::<u8>::new(format!("x{a}"))
                    .key(Key::Char('x'))
                    .order(9),
                _ => Choice::new(format!("entry {a}")).order(u32::from(a)),
            }]
        });
        let keys: Vec<Vec<Key>> = c.options().iter().map(|o| o.keys.clone()).collect();
        assert_eq!(
            keys,
            [
                vec![Key::Char('e')],
                vec![Key::Char('1')],
                vec![Key::Char('2')],
                vec![Key::Char('3')],
                vec![Key::Char('x')],
                vec![Key::Char('4')],
            ]
        );
        assert_eq!(
            c.key_path(Key::Char('2'), None),
            Some(vec!["entry 2".into()])
        );
        assert_eq!(c.key_path(Key::Char('x'), None), Some(vec!["x4".into()]));
        // A step on the board, or one with digits of its own, is not
        // renumbered.
        assert_eq!(toy().key_path(Key::Char('3'), None), None);
    }

    #[test]
    fn a_cell_makes_its_choice_here_one_step_ahead_or_earlier() {
        let mut c = toy();
        assert_eq!(c.cell_path(2, None), Ok(Some(vec!["piece 2".into()])));
        // `to 2` (cell 12) is one step ahead, through piece 1 only.
        assert_eq!(
            c.cell_path(12, None),
            Ok(Some(vec!["piece 1".into(), "to 2".into()]))
        );
        // `to 3` (cell 13) is reached through both pieces: the
        // highlighted one settles it, else it is refused with both.
        assert_eq!(
            c.cell_path(13, Some("piece 2")),
            Ok(Some(vec!["piece 2".into(), "to 3".into()]))
        );
        assert_eq!(
            c.cell_path(13, None),
            Err(vec!["piece 1".into(), "piece 2".into()])
        );
        assert_eq!(c.cell_path(99, None), Ok(None));
        // From piece 1's step, a click on piece 2 starts again with it.
        c.push("piece 1");
        assert_eq!(c.cell_path(2, None), Ok(Some(vec!["piece 2".into()])));
        assert!(c.set(&["piece 2".into(), "to 3".into()]));
        assert_eq!(c.whole(), Some((2, 3)));
        assert!(
            !c.set(&["piece 2".into(), "to 2".into()]),
            "not legal: unchanged"
        );
        assert_eq!(c.whole(), Some((2, 3)));
    }
}
