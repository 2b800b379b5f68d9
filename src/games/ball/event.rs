//! What happens inside an action, beyond the action itself: the event log
//! (B8.2 records the reception square there) and, later, the EP table's
//! input (B11.3).

use super::action::{Arg, CardId};
use super::board::Sq;
use super::piece::{PieceId, Team};
use super::position::{Outcome, Position};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// B5.4, B6.2: a piece was knocked down on `at`.
    KnockedDown { piece: PieceId, at: Sq },
    /// A piece took the ball, and how.
    BallTaken { piece: PieceId, how: Taking },
    /// B6.3, B8.3: the ball now lies loose on `at`.
    BallLoose { at: Sq },
    /// B8.2: the ball arrived at the reception square `at`.
    PassReceived { piece: PieceId, at: Sq },
    /// B7.1.
    StackFormed {
        top: PieceId,
        bottom: PieceId,
        at: Sq,
    },
    /// B10.3.
    StackReleased { top: PieceId, bottom: PieceId },
    /// B10.2.
    StoodUp { piece: PieceId },
    /// B3.4.
    Touchdown { team: Team },
    /// A variant's `touchdown_counts` vetoed `team`'s touchdown: the
    /// holder stands in the scoring zone, no score, play goes on.
    TouchdownVetoed { team: Team, holder: PieceId },
    /// B3.5, B10.1: `team` starts turn `turn`.
    TurnStarted { team: Team, turn: u16 },
    /// B3.6.
    GameOver { outcome: Outcome },
    /// B11.7: a card's effect, as it changed the position (a script's
    /// effect emits no events of its own, so this says what it did).
    Card(CardEffect),
}

/// What a card's effect changed, in a fixed-size summary so that events
/// stay `Copy`: the first [`CardEffect::MAX`] changes to pieces, stacks
/// and the ball, then how many more, and the AP and EP the effect moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CardEffect {
    pub team: Team,
    pub card: CardId,
    pub args: [Arg; 3],
    pub changes: [Option<Change>; CardEffect::MAX],
    /// Changes past the first `MAX`.
    pub more: u8,
    /// AP and the coach's EP before and after the play (costs included).
    pub ap: (u8, u8),
    pub ep: (u32, u32),
}

/// One change a card's effect made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Change {
    Moved { piece: PieceId, to: Sq },
    Down { piece: PieceId },
    StoodUp { piece: PieceId },
    Restricted { piece: PieceId },
    Unrestricted { piece: PieceId },
    Stacked { top: PieceId, bottom: PieceId },
    Released { top: PieceId, bottom: PieceId },
    Holds { piece: PieceId },
    Loose { at: Sq },
}

impl CardEffect {
    pub const MAX: usize = 8;

    /// The play of `card` by `team` with `args`, from the position
    /// before it to the one after: its costs (AP, EP) and its effect.
    pub fn between(
        team: Team,
        card: CardId,
        args: [Arg; 3],
        before: &Position,
        after: &Position,
    ) -> CardEffect {
        let mut e = CardEffect {
            team,
            card,
            args,
            changes: [None; CardEffect::MAX],
            more: 0,
            ap: (before.ap, after.ap),
            ep: (before.ep[team as usize], after.ep[team as usize]),
        };
        let mut n = 0;
        let mut push = |c: Change| {
            if n < CardEffect::MAX {
                e.changes[n] = Some(c);
                n += 1;
            } else {
                e.more = e.more.saturating_add(1);
            }
        };
        for id in PieceId::all() {
            let (a, b) = (before.piece(id), after.piece(id));
            if a.at != b.at {
                push(Change::Moved { piece: id, to: b.at });
            }
            match (a.down, b.down) {
                (false, true) => push(Change::Down { piece: id }),
                (true, false) => push(Change::StoodUp { piece: id }),
                _ => {}
            }
            match (a.restricted, b.restricted) {
                (false, true) => push(Change::Restricted { piece: id }),
                (true, false) => push(Change::Unrestricted { piece: id }),
                _ => {}
            }
        }
        let (old, new) = (before.stacks.as_slice(), after.stacks.as_slice());
        for s in new {
            if !old.iter().any(|t| t.top == s.top && t.bottom == s.bottom) {
                push(Change::Stacked { top: s.top, bottom: s.bottom });
            }
        }
        for s in old {
            if !new.iter().any(|t| t.top == s.top && t.bottom == s.bottom) {
                push(Change::Released { top: s.top, bottom: s.bottom });
            }
        }
        if before.ball != after.ball {
            match (after.holder(), after.loose_ball()) {
                (Some(piece), _) => push(Change::Holds { piece }),
                (None, Some(at)) => push(Change::Loose { at }),
                _ => {}
            }
        }
        e
    }
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Change::Moved { piece, to } => write!(f, "{piece} goes to {to}"),
            Change::Down { piece } => write!(f, "{piece} is knocked down"),
            Change::StoodUp { piece } => write!(f, "{piece} stands up"),
            Change::Restricted { piece } => write!(f, "{piece} is restricted this turn"),
            Change::Unrestricted { piece } => write!(f, "{piece} is no longer restricted"),
            Change::Stacked { top, bottom } => write!(f, "{top} stacks on {bottom}"),
            Change::Released { top, bottom } => write!(f, "{top} releases {bottom}"),
            Change::Holds { piece } => write!(f, "{piece} holds the ball"),
            Change::Loose { at } => write!(f, "the ball lies loose on {at}"),
        }
    }
}

/// `card second-wind DEF3: DEF3 stands up, +1 AP`: the card as the
/// notation writes it, then what it did in plain words.
impl std::fmt::Display for CardEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.card.is_action() {
            f.write_str(self.card.name())?;
        } else {
            write!(f, "card {}", self.card.name())?;
        }
        for a in self.args.iter().filter(|a| **a != Arg::None) {
            write!(f, " {a}")?;
        }
        let mut words: Vec<String> = self.changes.iter().flatten().map(|c| c.to_string()).collect();
        if self.more > 0 {
            words.push(format!("{} more changes", self.more));
        }
        let (a, b) = self.ap;
        if b != a {
            words.push(format!("{:+} AP", i32::from(b) - i32::from(a)));
        }
        let (a, b) = self.ep;
        if b != a {
            words.push(format!("{:+} EP", i64::from(b) - i64::from(a)));
        }
        if words.is_empty() {
            words.push("no change".into());
        }
        write!(f, ": {}", words.join(", "))
    }
}

/// How a piece came to hold the ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Taking {
    /// B9.2: ended an action on the loose ball.
    Loose,
    /// B5.4: forced fumble.
    Fumble,
    /// B7.3: a stack's top took it from the bottom.
    Stack,
    /// B8.1.
    Handoff,
    /// B8.2.
    Pass,
    /// B10.3: chosen with `keep`.
    Keep,
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Event::KnockedDown { piece, at } => write!(f, "{piece} is knocked down on {at}"),
            Event::BallTaken { piece, how } => {
                let how = match how {
                    Taking::Loose => "picks up the loose ball",
                    Taking::Fumble => "takes the ball (forced fumble)",
                    Taking::Stack => "takes the ball from the bottom of its stack",
                    Taking::Handoff => "receives a hand-off",
                    Taking::Pass => "catches the pass",
                    Taking::Keep => "keeps the ball",
                };
                write!(f, "{piece} {how}")
            }
            Event::BallLoose { at } => write!(f, "the ball lies loose on {at}"),
            Event::PassReceived { piece, at } => write!(f, "{piece} receives the pass at {at}"),
            Event::StackFormed { top, bottom, at } => write!(f, "{top} stacks on {bottom} at {at}"),
            Event::StackReleased { top, bottom } => write!(f, "{top} releases {bottom}"),
            Event::StoodUp { piece } => write!(f, "{piece} stands up"),
            Event::Touchdown { team } => write!(f, "touchdown {team}"),
            Event::TouchdownVetoed { team, holder } => write!(
                f,
                "{holder} stands in the end zone, but the variant does not count {team}'s touchdown: play goes on"
            ),
            Event::TurnStarted { team, turn } => write!(f, "turn {turn}: {team} to play"),
            Event::GameOver { outcome } => match outcome {
                Outcome::Winner(t) => write!(f, "game over: {t} wins"),
                Outcome::Draw => write!(f, "game over: draw"),
            },
            Event::Card(effect) => write!(f, "{effect}"),
        }
    }
}
