//! BALL's choice flow (`shell::Flow`): every legal action split into the
//! rulebook's choices (B13) — the piece, what it does, the squares, who
//! keeps the ball — and `end`, `convert` and the cards beside them, with
//! keys that mean the same thing on every turn: a piece is its number,
//! each kind of action has its own digit, `e` ends, `v` converts, `c`
//! opens the cards.
//!
//! The words a board shows about the game are here too: prompts, log
//! lines, a card's effect in plain words, the touchdown banner.

use super::Ball;
use super::action::{Action, Arg, CardId};
use super::board::{ROWS, Sq};
use super::event::{Event, Taking};
use super::extension::CardSummary;
use super::params::Verb;
use super::piece::{PieceId, Team};
use super::position::{Phase, Position};
use crate::kernel::game::{Game, Title};
use crate::shell::{Choice, Flow, Key, Tone};

/// The digit of each kind of action a piece starts, fixed, so that `5 1`
/// is always "DEF5 moves" (the menu is never skipped).
pub fn verb_key(v: Verb) -> Option<char> {
    Some(match v {
        Verb::Move => '1',
        Verb::Dodge => '2',
        Verb::TDodge => '3',
        Verb::Block => '4',
        Verb::Protect => '5',
        Verb::Handoff => '6',
        Verb::SPass => '7',
        Verb::LPass => '8',
        Verb::StandUp => '9',
        Verb::Release => '0',
        Verb::Convert | Verb::Card | Verb::End => return None,
    })
}

/// A few words on what a verb does, for the action menu.
pub fn gloss(v: Verb) -> &'static str {
    match v {
        Verb::Move => "to an empty square",
        Verb::Dodge => "knock down, step past",
        Verb::TDodge => "jump, push aside",
        Verb::Block => "stack on an opponent",
        Verb::Protect => "stack on a team-mate",
        Verb::Handoff => "give the ball, adjacent",
        Verb::SPass => "short pass",
        Verb::LPass => "long pass, 2 AP",
        Verb::StandUp => "stand up",
        Verb::Release => "release the stack",
        Verb::Convert => "AP into EP",
        Verb::Card => "play a card",
        Verb::End => "end the action phase",
    }
}

/// Listing order of the first step: the pieces by number, then these.
const ORDER_END: u32 = 100;
const ORDER_CONVERT: u32 = 101;
const ORDER_CARDS: u32 = 102;

fn reading_order(sq: Sq) -> u32 {
    let c = sq.coord();
    u32::from(ROWS - c.row) * 16 + u32::from(c.col)
}

fn piece(pos: &Position, p: PieceId, keyed: bool) -> Choice<Sq> {
    let pc = pos.piece(p);
    let mut c = Choice::new(p.to_string())
        .at(pc.at)
        .help(format!("on {}", pc.at))
        .order(u32::from(p.0));
    if keyed {
        c = c.key(Key::Char(char::from(b'0' + p.number())));
    }
    c
}

fn verb(v: Verb) -> Choice<Sq> {
    let mut c = Choice::new(v.name())
        .help(gloss(v))
        .order(Verb::ALL.iter().position(|&x| x == v).unwrap_or(0) as u32);
    if let Some(k) = verb_key(v) {
        c = c.key(Key::Char(k));
    }
    c
}

fn square(pos: &Position, sq: Sq) -> Choice<Sq> {
    let help = match pos.piece_at(sq) {
        Some(p) => p.to_string(),
        None if pos.loose_ball() == Some(sq) => "the loose ball".into(),
        None => String::new(),
    };
    Choice::new(sq.to_string())
        .at(sq)
        .help(help)
        .order(reading_order(sq))
}

fn digit(n: usize) -> Option<Key> {
    match n {
        1..=9 => Some(Key::Char(char::from(b'0' + n as u8))),
        10 => Some(Key::Char('0')),
        _ => None,
    }
}

impl Ball {
    /// The card's number in its coach's deck, from 1: its key.
    fn deck_index(&self, team: Team, id: CardId) -> usize {
        self.cards(team)
            .iter()
            .position(|c| c.id == id)
            .map_or(usize::MAX, |i| i + 1)
    }

    /// EP that converting `ap` AP earns now: the game's own answer, by
    /// playing it on a copy.
    pub fn convert_rate(&self, pos: &Position, ap: u8) -> Option<u32> {
        let mut after = *pos;
        let team = pos.to_move as usize;
        self.play(&mut after, Action::Convert { ap }, &mut ()).ok()?;
        Some(after.ep[team].saturating_sub(pos.ep[team]))
    }
}

impl Flow for Ball {
    type Cell = Sq;

    fn choices(&self, pos: &Position, action: Action) -> Vec<Choice<Sq>> {
        let p = |id| piece(pos, id, true);
        let s = |sq| square(pos, sq);
        match action {
            Action::Move { piece, to } => vec![p(piece), verb(Verb::Move), s(to)],
            Action::Dodge { piece, to, exit } => {
                vec![p(piece), verb(Verb::Dodge), s(to), s(exit)]
            }
            Action::TDodge { piece, to, push } => {
                vec![p(piece), verb(Verb::TDodge), s(to), s(push)]
            }
            Action::Block { piece, to } => vec![p(piece), verb(Verb::Block), s(to)],
            Action::Protect { piece, to } => vec![p(piece), verb(Verb::Protect), s(to)],
            Action::Handoff { from, to } => {
                vec![p(from), verb(Verb::Handoff), s(pos.piece(to).at)]
            }
            Action::SPass { from, to, at } => {
                vec![p(from), verb(Verb::SPass), s(pos.piece(to).at), s(at)]
            }
            Action::LPass { from, to } => vec![p(from), verb(Verb::LPass), s(to)],
            Action::StandUp { piece, to } => vec![p(piece), verb(Verb::StandUp), s(to)],
            Action::Release {
                top,
                top_to,
                bottom_to,
                keep,
            } => {
                let mut v = vec![p(top), verb(Verb::Release), s(top_to), s(bottom_to)];
                if let Some(k) = keep {
                    // Your own piece first (key 1, and Enter): keeping the
                    // ball is what a coach nearly always wants.
                    let own = k.team() == pos.to_move;
                    let role = if k == top { "top" } else { "bottom" };
                    let to = if k == top { top_to } else { bottom_to };
                    v.push(
                        Choice::new(format!("keep {k}"))
                            .at(to)
                            .key(Key::Char(if own { '1' } else { '2' }))
                            .help(format!("{role}, ends on {to}"))
                            .order(if own { 0 } else { 1 }),
                    );
                }
                v
            }
            Action::End => vec![
                Choice::new("end")
                    .key(Key::Char('e'))
                    .help("end the action phase (B4.3)")
                    .order(ORDER_END),
            ],
            Action::Convert { ap } => {
                let help = match self.convert_rate(pos, ap) {
                    Some(ep) => format!("{ap} AP into {ep} EP"),
                    None => format!("{ap} AP into EP"),
                };
                vec![
                    Choice::new("convert")
                        .key(Key::Char('v'))
                        .help(convert_help(self, pos))
                        .order(ORDER_CONVERT),
                    {
                        let c = Choice::new(format!("{ap} AP"))
                            .help(help)
                            .order(u32::from(ap));
                        // Keyed by its amount; past 9 AP, by Tab and Enter.
                        match digit(usize::from(ap)).filter(|_| ap <= 9) {
                            Some(k) => c.key(k),
                            None => c,
                        }
                    },
                ]
            }
            Action::Card { card, args } => {
                let team = pos.to_move;
                let i = self.deck_index(team, card);
                let summary = self.cards(team).into_iter().find(|c| c.id == card);
                let (name, text, cost, ap) = summary
                    .map(|c| (c.name, c.text, c.cost, c.ap))
                    .unwrap_or((card.name().to_string(), String::new(), 0, 0));
                // A variant's own action costs no EP: its AP is its price.
                let price = if card.is_action() {
                    format!("{ap} AP")
                } else {
                    format!("{cost} EP")
                };
                let mut c = Choice::new(name)
                    .help(format!("{price} · {text}"))
                    .order(i as u32);
                if let Some(k) = digit(i) {
                    c = c.key(k);
                }
                let mut v = vec![
                    Choice::new("cards")
                        .key(Key::Char('c'))
                        .help("play a card (B11.6)")
                        .order(ORDER_CARDS),
                    c,
                ];
                for a in args {
                    match a {
                        Arg::None => {}
                        // A piece is its number here too; your own is
                        // listed first, so it keeps the digit when an
                        // opponent's of that number is offered with it.
                        Arg::Piece(id) => {
                            let theirs = u32::from(id.team() != pos.to_move);
                            v.push(piece(pos, id, true).order(theirs * 16 + u32::from(id.number())))
                        }
                        Arg::Square(sq) => v.push(s(sq)),
                        Arg::Number(n) => {
                            let mut c = Choice::new(n.to_string()).order(u32::from(n));
                            if n <= 9 {
                                c = c.key(Key::Char(char::from(b'0' + n)));
                            }
                            v.push(c)
                        }
                    }
                }
                v
            }
        }
    }

    fn prompt(&self, pos: &Position, next: Action, depth: usize) -> String {
        let team = pos.to_move;
        if depth == 0 {
            let pieces = self.legal(pos).iter().any(|a| {
                !matches!(a, Action::End | Action::Convert { .. } | Action::Card { .. })
            });
            return match (pos.phase, pieces) {
                (Phase::Release, _) => format!("{team}, release phase: choose a piece with a task"),
                (_, false) => format!("{team}: no piece can act; e ends the action phase"),
                (_, true) => format!("{team}: choose a piece (its number), or e to end"),
            };
        }
        let occupant = |sq: Sq| pos.piece_at(sq).map_or(sq.to_string(), |p| p.to_string());
        match (next, depth) {
            (Action::Convert { .. }, _) => format!("convert: how many AP of {}?", pos.ap),
            // Without card mode the menu holds only the variants' actions.
            (Action::Card { .. }, 1) if !self.card_mode() => "choose an action".into(),
            (Action::Card { .. }, 1) => "choose a card".into(),
            (Action::Card { card, args }, k) => {
                let name = self
                    .cards(team)
                    .into_iter()
                    .find(|c| c.id == card)
                    .map_or(card.name().to_string(), |c| c.name);
                let n = args.iter().filter(|a| **a != Arg::None).count();
                let what = match args.get(k - 2) {
                    Some(Arg::Piece(_)) => "a piece",
                    Some(Arg::Square(_)) => "a square",
                    Some(Arg::Number(_)) => "a number",
                    _ => "a target",
                };
                format!(
                    "card {name}: choose {what} (target {} of {n}); Esc cancels",
                    k - 1
                )
            }
            (a, 1) => format!("{}: choose what it does", actor(a)),
            (Action::Dodge { piece, .. }, 2) => format!("{piece} dodge: choose the opponent"),
            (Action::TDodge { piece, .. }, 2) => {
                format!("{piece} tdodge: choose the landing square")
            }
            (Action::Handoff { from, .. } | Action::SPass { from, .. }, 2) => {
                format!("{from} {}: choose the receiver", next.verb().name())
            }
            (Action::LPass { from, .. }, 2) => format!("{from} lpass: choose where the ball lands"),
            (Action::Release { top, .. }, 2) => format!("release: choose where {top} (top) goes"),
            (a, 2) => format!("{} {}: choose the destination", actor(a), a.verb().name()),
            (Action::Dodge { to, .. }, 3) => {
                format!("dodge {}: choose the exit square", occupant(to))
            }
            (Action::TDodge { piece, to, .. }, 3) => {
                let jumped = pos
                    .piece(piece)
                    .at
                    .midpoint(to)
                    .and_then(|m| pos.piece_at(m))
                    .map_or("the opponent".to_string(), |p| p.to_string());
                format!("tdodge: choose where {jumped} is pushed")
            }
            (Action::SPass { to, .. }, 3) => {
                format!("spass to {to}: choose the reception square")
            }
            (Action::Release { top, .. }, 3) => {
                let bottom = pos
                    .stacks
                    .with_top(top)
                    .map_or("the bottom".to_string(), |s| s.bottom.to_string());
                format!("release: choose where {bottom} (bottom) goes")
            }
            (Action::Release { .. }, 4) => "release: who keeps the ball? (1: yours)".into(),
            _ => "choose".into(),
        }
    }

    /// A card without targets waits for Enter: nothing else would stand
    /// between opening the card menu and spending the EP.
    fn confirm(&self, _pos: &Position, action: Action) -> bool {
        matches!(action, Action::Card { args, .. } if args.iter().all(|a| *a == Arg::None))
    }

    fn preview(&self, pos: &Position, action: Action) -> Option<String> {
        let Action::Card { card, .. } = action else {
            return None;
        };
        let c = self.cards(pos.to_move).into_iter().find(|c| c.id == card)?;
        Some(format!("{}: {}", c.name, c.text))
    }

    fn unavailable(&self, pos: &Position, depth: usize, key: Key) -> Vec<String> {
        let Key::Char(c) = key else {
            return Vec::new();
        };
        let legal = self.legal(pos);
        let refusal = |a: Action| {
            let mut copy = *pos;
            self.play(&mut copy, a, &mut ()).err().map(|e| e.to_string())
        };
        match c {
            'e' | 'v' | 'c' if depth > 0 => {
                vec!["an action is in progress: finish it, or Esc first".into()]
            }
            'e' => refusal(Action::End).into_iter().collect(),
            'v' if !self.card_mode() => {
                vec!["no cards: this ruleset has no card mode (--ruleset cards)".into()]
            }
            'c' if !self.card_mode() && self.cards(pos.to_move).is_empty() => {
                vec!["no cards: this ruleset has no card mode (--ruleset cards) and no variant actions".into()]
            }
            'v' => refusal(Action::Convert { ap: 1 }).into_iter().collect(),
            'c' => {
                let mut v = vec![format!("no card of {}'s is playable now:", pos.to_move)];
                for card in self.cards(pos.to_move) {
                    let playable = legal
                        .iter()
                        .any(|a| matches!(a, Action::Card { card: id, .. } if *id == card.id));
                    if !playable
                        && let Some(why) = why_not(self, pos, &card)
                    {
                        v.push(format!("{}: {why}", card.name));
                    }
                }
                v
            }
            _ => Vec::new(),
        }
    }

    fn event_line(&self, e: &Event) -> Option<(String, Tone)> {
        match e {
            Event::KnockedDown { .. } | Event::BallLoose { .. } => Some((e.to_string(), Tone::Quiet)),
            Event::BallTaken { how, .. } if !matches!(how, Taking::Handoff | Taking::Pass) => {
                Some((e.to_string(), Tone::Quiet))
            }
            Event::Touchdown { .. } | Event::TouchdownVetoed { .. } | Event::GameOver { .. } => {
                Some((e.to_string(), Tone::Loud))
            }
            _ => None,
        }
    }

    fn narrate(&self, before: &Position, action: Action, after: &Position, _: &[Event]) -> Vec<String> {
        let team = before.to_move;
        match action {
            Action::Convert { ap } => {
                let ep = after.ep[team as usize].saturating_sub(before.ep[team as usize]);
                vec![format!("{team} turns {ap} AP into {ep} EP")]
            }
            Action::Card { card, .. } => {
                let mut v = Vec::new();
                if let Some(c) = self.cards(team).into_iter().find(|c| c.id == card) {
                    v.push(format!("{}: {}", c.name, c.text));
                }
                v.extend(changes(before, after));
                v
            }
            _ => Vec::new(),
        }
    }

    fn banner(&self, _: &Position, _: Action, after: &Position, events: &[Event]) -> Option<String> {
        let team = events.iter().find_map(|e| match e {
            Event::Touchdown { team } => Some(*team),
            _ => None,
        })?;
        let score = self.score_text(after);
        Some(match self.outcome(after) {
            Some(o) => match o.winner() {
                Some(w) => format!("TOUCHDOWN {team} · {score} · {} wins", Ball::SEATS[w]),
                None => format!("TOUCHDOWN {team} · {score} · a draw"),
            },
            None => format!("TOUCHDOWN {team} · {score} · set up again (B3.5)"),
        })
    }
}

/// Why a card cannot be played now: the game's refusal of its action,
/// asked on a copy. `None` when the game would play it.
pub fn why_not(game: &Ball, pos: &Position, card: &CardSummary) -> Option<String> {
    let mut copy = *pos;
    let action = Action::Card {
        card: card.id,
        args: [Arg::None; 3],
    };
    let refusal = game.play(&mut copy, action, &mut ()).err()?;
    // Asked without its targets, a card is refused as "not one of the
    // targets it offers": what that means here is that no target, or no
    // condition the card requires (Quick Step's AP), is met now.
    let reason = if refusal.reason.starts_with("not one of the targets") {
        "no target/condition now".to_string()
    } else {
        refusal.reason
    };
    Some(format!("{reason} ({})", refusal.rule))
}

fn convert_help(game: &Ball, pos: &Position) -> String {
    match game.convert_rate(pos, 1) {
        Some(ep) => format!("AP into EP: {ep} EP an AP now (B11.4)"),
        None => "AP into EP (B11.4)".into(),
    }
}

fn actor(a: Action) -> String {
    match a {
        Action::Move { piece, .. }
        | Action::Dodge { piece, .. }
        | Action::TDodge { piece, .. }
        | Action::Block { piece, .. }
        | Action::Protect { piece, .. }
        | Action::StandUp { piece, .. } => piece.to_string(),
        Action::Handoff { from, .. } | Action::SPass { from, .. } | Action::LPass { from, .. } => {
            from.to_string()
        }
        Action::Release { top, .. } => top.to_string(),
        _ => "?".into(),
    }
}

/// What an action changed, in words: pieces moved, knocked down, stood
/// up or restricted, stacks, the ball, AP and EP. A card's effect is a
/// script's, so its events alone may not say it.
pub fn changes(before: &Position, after: &Position) -> Vec<String> {
    let mut v = Vec::new();
    for id in PieceId::all() {
        let (a, b) = (before.piece(id), after.piece(id));
        if a.at != b.at {
            v.push(format!("{id} goes from {} to {}", a.at, b.at));
        }
        match (a.down, b.down) {
            (false, true) => v.push(format!("{id} is knocked down")),
            (true, false) => v.push(format!("{id} stands up")),
            _ => {}
        }
        if !a.restricted && b.restricted {
            v.push(format!("{id} is restricted this turn"));
        }
    }
    for s in after.stacks.as_slice() {
        if !before.stacks.as_slice().contains(s) {
            v.push(format!("{} stacks on {} at {}", s.top, s.bottom, s.at));
        }
    }
    for s in before.stacks.as_slice() {
        if !after.stacks.as_slice().iter().any(|t| t.top == s.top && t.bottom == s.bottom) {
            v.push(format!("the stack {}/{} is released", s.top, s.bottom));
        }
    }
    if before.ball != after.ball {
        v.push(match (after.holder(), after.loose_ball()) {
            (Some(p), _) => format!("{p} holds the ball"),
            (None, Some(sq)) => format!("the ball lies loose on {sq}"),
            _ => "the ball moves".into(),
        });
    }
    if before.to_move == after.to_move && before.ap != after.ap {
        v.push(format!("AP {} → {}", before.ap, after.ap));
    }
    for t in Team::BOTH {
        let (a, b) = (before.ep[t as usize], after.ep[t as usize]);
        if a != b {
            v.push(format!("{t} EP {a} → {b}"));
        }
    }
    v
}
