//! What happens inside an action, beyond the action itself: the event log
//! (B8.2 records the reception square there) and, later, the EP table's
//! input (B11.3).

use super::board::Sq;
use super::piece::{PieceId, Team};
use super::position::Outcome;

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
    /// B3.5, B10.1: `team` starts turn `turn`.
    TurnStarted { team: Team, turn: u16 },
    /// B3.6.
    GameOver { outcome: Outcome },
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
            Event::TurnStarted { team, turn } => write!(f, "turn {turn}: {team} to play"),
            Event::GameOver { outcome } => match outcome {
                Outcome::Winner(t) => write!(f, "game over: {t} wins"),
                Outcome::Draw => write!(f, "game over: draw"),
            },
        }
    }
}
