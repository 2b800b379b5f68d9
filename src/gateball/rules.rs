//! Legal moves (T5–T10): every step of a move judged in order, the one
//! place that decides what a shot, a spark or a start can do.

use super::Gateball;
use super::action::Action;
use super::court::Court;
use super::position::Position;

/// Every legal action of `pos`, in canonical order (sorted as text).
pub fn legal(game: &Gateball, pos: &Position) -> Vec<Action> {
    let _ = (game, pos);
    todo!("rules")
}

/// T1.8's last condition: on the empty court some start shot passes gate 1
/// forward, for some roll.
pub fn start_can_pass_gate1(court: &Court) -> bool {
    let _ = court;
    todo!("rules")
}
