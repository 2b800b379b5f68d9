//! The position: a small `Copy` value holding everything that decides the
//! game from here (turn, phase, AP, score, EP, ball, pieces, stacks).
//!
//! **Invariant:** a `Position` reachable through [`super::json::read`] or
//! `apply` satisfies B2.4 (one ball, never under a piece), B7 (stacks of
//! exactly two, closed squares) and "no two pieces on a square except a
//! stack". Derived facts (occupancy, who stands where) are recomputed, not
//! stored, so they can never disagree with the pieces.

use super::board::{Sq, SqSet};
use super::params::Params;
use super::piece::{Kind, N_PIECES, PieceId, Team};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Action,
    Release,
}

/// B3.6: how a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Winner(Team),
    Draw,
}

impl Outcome {
    /// B3.6: more touchdowns wins; equal is a draw.
    pub fn by_score(score: [u8; 2]) -> Outcome {
        match score[Team::Atk as usize].cmp(&score[Team::Def as usize]) {
            std::cmp::Ordering::Greater => Outcome::Winner(Team::Atk),
            std::cmp::Ordering::Less => Outcome::Winner(Team::Def),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

/// B2.4: the ball is held by one piece or loose on one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BallState {
    Held(PieceId),
    Loose(Sq),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: Kind,
    pub at: Sq,
    /// B2.3: knocked down. A stacked bottom keeps its state (B7.5).
    pub down: bool,
    /// B4.5: gained the ball this turn in a way that ends its actions.
    pub restricted: bool,
}

/// B7: a stack of two pieces on one closed square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stack {
    pub at: Sq,
    pub top: PieceId,
    pub bottom: PieceId,
    /// B7.5: the turn the stack was formed (B10.4 reads it).
    pub formed: u16,
}

/// At most 7 stacks (14 pieces, two a stack), kept sorted by square so
/// that equal positions compare and print equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stacks {
    len: u8,
    items: [Stack; 7],
}

const EMPTY_STACK: Stack = Stack {
    at: Sq(0),
    top: PieceId(0),
    bottom: PieceId(0),
    formed: 0,
};

impl Default for Stacks {
    fn default() -> Self {
        Stacks {
            len: 0,
            items: [EMPTY_STACK; 7],
        }
    }
}

impl Stacks {
    #[inline(always)]
    pub fn as_slice(&self) -> &[Stack] {
        &self.items[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a stack, keeping board order; `false` (and no change) when
    /// all 7 places are taken. Rules that stack two unstacked pieces never
    /// get there (14 pieces, two a stack); input that names more stacks
    /// must be refused, not crash.
    #[must_use]
    pub fn insert(&mut self, stack: Stack) -> bool {
        let n = self.len as usize;
        if n == self.items.len() {
            return false;
        }
        let pos = self.items[..n]
            .iter()
            .position(|s| s.at > stack.at)
            .unwrap_or(n);
        self.items.copy_within(pos..n, pos + 1);
        self.items[pos] = stack;
        self.len += 1;
        true
    }

    pub fn remove_at(&mut self, at: Sq) -> Option<Stack> {
        let n = self.len as usize;
        let pos = self.items[..n].iter().position(|s| s.at == at)?;
        let removed = self.items[pos];
        self.items.copy_within(pos + 1..n, pos);
        self.items[n - 1] = EMPTY_STACK;
        self.len -= 1;
        Some(removed)
    }

    pub fn clear(&mut self) {
        *self = Stacks::default();
    }

    pub fn at(&self, sq: Sq) -> Option<&Stack> {
        self.as_slice().iter().find(|s| s.at == sq)
    }

    pub fn with_top(&self, top: PieceId) -> Option<&Stack> {
        self.as_slice().iter().find(|s| s.top == top)
    }

    /// Set of stacked piece ids, one bit per piece.
    #[inline(always)]
    pub fn stacked_mask(&self) -> u16 {
        self.as_slice()
            .iter()
            .fold(0, |m, s| m | 1 << s.top.0 | 1 << s.bottom.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// B3.3: counts every turn of either coach, from 1.
    pub turn: u16,
    pub to_move: Team,
    pub phase: Phase,
    /// B4.2: AP left this turn; 0 through the release phase (B4.3).
    pub ap: u8,
    /// Touchdowns, indexed by `Team as usize`.
    pub score: [u8; 2],
    /// B11.2: energy points, indexed by `Team as usize`.
    pub ep: [u32; 2],
    pub ball: BallState,
    /// Indexed by `PieceId::index`.
    pub pieces: [Piece; N_PIECES],
    pub stacks: Stacks,
    /// B11.6: how often each coach played its use-limited cards.
    pub card_uses: CardUses,
    /// B3.6: set when the game is over; the position is then frozen.
    pub outcome: Option<Outcome>,
    /// How a finished game ended when a ruleset's script ended it its own
    /// way: an index from 1 into the ruleset's end names
    /// (`Params::layout`); 0 when the rules (or `end_game()`) did.
    pub ended_by: u8,
    /// A ruleset's own counters (its variants' `state`), by slot of
    /// `Params::layout`: part of the position, so save, load and replay
    /// see the same game. All zero without scripts.
    pub vars: Vars,
}

/// How many counters a ruleset's scripts may keep in a position.
pub const MAX_VARS: usize = 28;

/// The counters' values; a slot's meaning is the ruleset's.
pub type Vars = [i16; MAX_VARS];

/// One coach's record of one card with a use limit (B11.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CardUse {
    pub team: Team,
    pub card: crate::games::ball::action::CardId,
    /// Plays this game.
    pub game: u8,
    /// Plays this turn; cleared when the turn passes.
    pub turn: u8,
}

/// How many use-limited (coach, card) pairs a position can record: the
/// script host refuses a ruleset with more, so every play is counted.
pub const MAX_CARD_USES: usize = 16;

/// Up to [`MAX_CARD_USES`] use-limited (coach, card) pairs, kept sorted so
/// equal positions compare equal. Cards without limits are not tracked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardUses {
    entries: [Option<CardUse>; MAX_CARD_USES],
}

impl CardUses {
    pub fn get(&self, team: Team, card: crate::games::ball::action::CardId) -> (u8, u8) {
        self.iter()
            .find(|u| u.team == team && u.card == card)
            .map_or((0, 0), |u| (u.game, u.turn))
    }

    pub fn iter(&self) -> impl Iterator<Item = &CardUse> {
        self.entries.iter().flatten()
    }

    /// Sets a pair's counts; `false` when all slots are taken (the caller
    /// must not ignore it: an uncounted play bypasses the limit).
    #[must_use]
    pub fn set(&mut self, u: CardUse) -> bool {
        if let Some(e) = self
            .entries
            .iter_mut()
            .flatten()
            .find(|e| e.team == u.team && e.card == u.card)
        {
            *e = u;
            return true;
        }
        let Some(slot) = self.entries.iter_mut().find(|e| e.is_none()) else {
            return false;
        };
        *slot = Some(u);
        // By name, not by handle: handles are numbered in the order a
        // process first met each id, and the JSON must not depend on it.
        let mut used: Vec<CardUse> = self.iter().copied().collect();
        used.sort_by_key(|u| (u.team, u.card.name()));
        self.entries = [None; MAX_CARD_USES];
        for (slot, u) in self.entries.iter_mut().zip(used) {
            *slot = Some(u);
        }
        true
    }

    /// B4.1: per-turn counts end with the turn.
    pub fn new_turn(&mut self) {
        for e in self.entries.iter_mut().flatten() {
            e.turn = 0;
        }
    }
}

impl Position {
    /// B3.1, B3.2: the start position of a ruleset.
    pub fn start(params: &Params) -> Position {
        let mut pos = Position {
            turn: 1,
            to_move: Team::Def,
            phase: Phase::Action,
            ap: params.ap_per_turn,
            score: [0; 2],
            ep: [0; 2],
            ball: BallState::Held(PieceId::new(Team::Atk, 5)),
            pieces: [Piece {
                kind: Kind::X,
                at: Sq(0),
                down: false,
                restricted: false,
            }; N_PIECES],
            stacks: Stacks::default(),
            card_uses: CardUses::default(),
            outcome: None,
            ended_by: 0,
            vars: [0; MAX_VARS],
        };
        pos.reset_pieces(params, Team::Atk);
        for v in &params.layout.vars {
            pos.vars[v.slots()].fill(v.start);
        }
        pos
    }

    /// B3.5: every piece back on its setup square, active, unrestricted,
    /// no stacks, and `ball_team`'s #5 holding the ball.
    pub fn reset_pieces(&mut self, params: &Params, ball_team: Team) {
        for (piece, &(kind, at)) in self.pieces.iter_mut().zip(params.setup.iter()) {
            *piece = Piece {
                kind,
                at,
                down: false,
                restricted: false,
            };
        }
        self.stacks.clear();
        self.ball = BallState::Held(PieceId::new(ball_team, 5));
    }

    #[inline(always)]
    pub fn piece(&self, id: PieceId) -> &Piece {
        &self.pieces[id.index()]
    }

    #[inline(always)]
    pub fn piece_mut(&mut self, id: PieceId) -> &mut Piece {
        &mut self.pieces[id.index()]
    }

    /// The unstacked piece on `sq`, or a stack's top.
    pub fn piece_at(&self, sq: Sq) -> Option<PieceId> {
        if let Some(s) = self.stacks.at(sq) {
            return Some(s.top);
        }
        PieceId::all().find(|&p| self.piece(p).at == sq)
    }

    pub fn is_stacked(&self, id: PieceId) -> bool {
        self.stacks.stacked_mask() & (1 << id.0) != 0
    }

    pub fn holder(&self) -> Option<PieceId> {
        match self.ball {
            BallState::Held(p) => Some(p),
            BallState::Loose(_) => None,
        }
    }

    pub fn loose_ball(&self) -> Option<Sq> {
        match self.ball {
            BallState::Loose(sq) => Some(sq),
            BallState::Held(_) => None,
        }
    }

    /// The square the ball is on, held or loose.
    pub fn ball_square(&self) -> Sq {
        match self.ball {
            BallState::Held(p) => self.piece(p).at,
            BallState::Loose(sq) => sq,
        }
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Squares holding at least one piece.
    pub fn occupied(&self) -> SqSet {
        self.pieces.iter().fold(0, |m, p| m | p.at.bit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position is cheap to copy: bots and perft clone one per node.
    #[test]
    fn position_and_action_stay_small() {
        let size = std::mem::size_of::<Position>();
        assert!(size <= 256, "{size} bytes");
        assert_eq!(std::mem::size_of::<crate::games::ball::action::Action>(), 8);
    }

    /// Every record `set` made, in whatever order, has its turn count
    /// cleared by `new_turn` and its game count kept.
    #[test]
    fn a_new_turn_clears_every_recorded_turn_count() {
        use crate::games::ball::action::CardId;
        let names = ["sprint", "switch", "quick-step", "magnet", "shove"];
        for n in 1..=names.len() {
            let mut uses = CardUses::default();
            for (i, name) in names[..n].iter().rev().enumerate() {
                for team in [Team::Def, Team::Atk] {
                    let u = CardUse {
                        team,
                        card: CardId::intern(name).unwrap(),
                        game: i as u8 + 2,
                        turn: i as u8 + 1,
                    };
                    assert!(uses.set(u));
                }
            }
            uses.new_turn();
            assert_eq!(uses.iter().count(), 2 * n);
            for team in [Team::Def, Team::Atk] {
                for (i, name) in names[..n].iter().rev().enumerate() {
                    let card = CardId::intern(name).unwrap();
                    assert_eq!(uses.get(team, card), (i as u8 + 2, 0), "{name} of {team}");
                }
            }
        }
    }
}
