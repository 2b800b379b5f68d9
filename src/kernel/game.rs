//! The `new / legal / apply` contract every game of the platform keeps.
//!
//! Perft, random self-play and the property tests are written once against
//! this trait. It holds only what those generic tools need.

/// A game's rules, bound to its parameters.
pub trait Game {
    type Position: Clone;
    type Action: Copy + Eq;

    /// The start position.
    fn start(&self) -> Self::Position;

    /// Writes every legal action of `pos` into `out` (cleared first), in a
    /// deterministic order. Empty exactly when the game is over.
    fn legal_into(&self, pos: &Self::Position, out: &mut Vec<Self::Action>);

    /// Applies an action taken from `legal_into` of the same position.
    /// Anything else is a logic error of the caller.
    fn apply(&self, pos: &mut Self::Position, action: Self::Action);
}
