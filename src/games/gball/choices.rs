//! G-ball's choice flow (`shell::Flow`): every decision answers the
//! position's pending decision (G5.4), so the flow is the decision's own
//! words — a player then a wall square to place (G4.3), a direction (or
//! `5` to stay) for the player to move (G6.5), left/right/none for a turn
//! (G9), the players who decline or receive (G8.3, G8.4), an opponent to
//! block, a catcher, an aim, and the holder's act: keep, throw (then a
//! direction), spin, hand off (then a team-mate) (G10).
//!
//! Directions are keyed like a numeric keypad (8 north, 9 north-east …, 5
//! stays) and, for the orthogonal ones, by the arrows; a direction's cell
//! is the square it leads to, so a click there chooses it.
//! A player is his number (the players a decision offers are of one
//! team); the sets of players who decline or receive are numbered by the
//! shell's menu rule.

use super::Gball;
use super::action::{Action, Way};
use super::board::{self, NONE, Sq, dir_name};
use super::event::Event;
use super::position::{Id, Pending, Position, members, number_of};
use crate::shell::{Choice, Flow, Key, Tone};

/// The keypad digit of a direction (0 north … 7 north-west).
pub fn dir_digit(d: u8) -> char {
    ['8', '9', '6', '3', '2', '1', '4', '7'][usize::from(d % 8)]
}

/// The arrow drawn for a facing or a ball's flight.
pub fn dir_arrow(d: u8) -> char {
    if d == NONE {
        return '·';
    }
    ['↑', '↗', '→', '↘', '↓', '↙', '←', '↖'][usize::from(d % 8)]
}

fn dir_choice(d: u8, from: u8) -> Choice<u8> {
    let mut c = Choice::new(dir_name(d)).order(u32::from(d));
    c.keys.push(Key::Char(dir_digit(d)));
    c.keys.extend(match d {
        0 => Some(Key::Up),
        2 => Some(Key::Right),
        4 => Some(Key::Down),
        6 => Some(Key::Left),
        _ => None,
    });
    if from != NONE {
        let to = board::neighbour(from, d);
        if to != NONE {
            c = c.at(to);
        }
    }
    c
}

/// A player is his number: the players a decision offers are of one
/// team, so the digit names one of them.
fn player_choice(pos: &Position, p: u8) -> Choice<u8> {
    let at = pos.players[usize::from(p)].at;
    let c = Choice::new(Id(p).to_string())
        .order(u32::from(p))
        .key(Key::Char(char::from(b'0' + number_of(p))));
    if at == NONE { c } else { c.at(at) }
}

fn set_label(mask: u32) -> String {
    if mask == 0 {
        return "none".into();
    }
    members(mask)
        .map(|p| Id(p).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn at_of(pos: &Position, p: u8) -> String {
    Sq(pos.players[usize::from(p)].at).to_string()
}

impl Flow for Gball {
    type Cell = u8;

    /// A match lasts tens of thousands of decisions: greedy answers at
    /// once; mcts's trees over eight draws of the dice cost far more.
    const DEFAULT_BOT: &'static str = "greedy";

    fn choices(&self, pos: &Position, action: Action) -> Vec<Choice<u8>> {
        let word = |label: &str, key: char, help: &str, order: u32| {
            Choice::new(label)
                .key(Key::Char(key))
                .help(help)
                .order(order)
        };
        match action {
            Action::Place { player, square } => vec![
                player_choice(pos, player).help("a player not on court yet"),
                Choice::new(Sq(square).to_string())
                    .at(square)
                    .help("a wall square of its half (G4.3)"),
            ],
            Action::Move { player, dir } => {
                let from = pos.players[usize::from(player)].at;
                vec![dir_choice(dir, from).help(format!("{} moves {}", Id(player), dir_name(dir)))]
            }
            Action::Stay { player } => vec![word(
                "stay",
                '5',
                &format!("{} stays on {}", Id(player), at_of(pos, player)),
                8,
            )],
            // A variant's action: by its word, after `stay` (no key of
            // its own: the board's keys are the rules').
            Action::Variant { id, player } => {
                let text = self
                    .script
                    .as_ref()
                    .and_then(|s| s.action_text(id))
                    .unwrap_or_default();
                vec![
                    Choice::new(action.verb())
                        .help(format!("{} (house rule): {text}", Id(player)))
                        .order(9 + u32::from(id)),
                ]
            }
            // Not `r`, `s`, `u`, `q`: the board takes those for redo,
            // save, undo and quit before a game sees them, so `r` for
            // right would redo instead.
            Action::Turn { way, .. } => {
                let (key, arrow, order, help) = match way {
                    Way::Left => (',', Some(Key::Left), 0, "45° to the left (G9.1)"),
                    Way::Right => ('.', Some(Key::Right), 1, "45° to the right (G9.1)"),
                    Way::None => ('n', None, 2, "no turn: the facing stays (G9.1)"),
                };
                let mut c = word(way.name(), key, help, order);
                c.keys.extend(arrow);
                vec![c]
            }
            Action::Decline(mask) | Action::Receivers(mask) => {
                let mut c = Choice::new(set_label(mask)).order(mask.count_ones());
                if mask == 0 {
                    c = c.key(Key::Char('n'));
                }
                vec![c]
            }
            Action::Block { opponent, .. } => {
                vec![player_choice(pos, opponent).help("the opponent to block (G8.4)")]
            }
            Action::Catch(Some(p)) => vec![player_choice(pos, p).help("tries to catch (G7.3)")],
            Action::Catch(None) => vec![word("none", 'n', "nobody tries", 99)],
            Action::Aim(d) => {
                vec![dir_choice(d, pos.ball.at).help("where the beaten ball goes (G8.9)")]
            }
            Action::Keep(_) => vec![word("keep", 'k', "keep the ball (G10.5)", 0)],
            Action::Throw { holder, dir } => {
                let from = pos.players[usize::from(holder)].at;
                vec![
                    word("throw", 't', "throw the ball (G10.2)", 1),
                    dir_choice(dir, from).help(format!("throw {}", dir_name(dir))),
                ]
            }
            Action::Spin(_) => vec![word("spin", 'p', "make it a spinball (G10.3)", 2)],
            Action::Handoff { to, .. } => vec![
                word("handoff", 'h', "hand it to a team-mate (G10.4)", 3),
                player_choice(pos, to),
            ],
        }
    }

    fn prompt(&self, pos: &Position, next: Action, depth: usize) -> String {
        let Some(pending) = pos.pending else {
            return "the match is over".into();
        };
        let square = pos
            .resolution
            .map_or(String::new(), |r| Sq(r.square).to_string());
        match pending {
            Pending::Place(t) if depth == 0 => format!("{t} places a player (G4.3): who?"),
            Pending::Place(t) => {
                let who = match next {
                    Action::Place { player, .. } => Id(player).to_string(),
                    _ => t.to_string(),
                };
                format!("{t} places {who}: on which wall square of its half?")
            }
            Pending::Move(p) => {
                let pl = &pos.players[usize::from(p)];
                // On a goal square he may not stay while he can jump
                // (G6.6): offering `5` there would be a key that fails.
                let stay = super::rules::is_legal(self, pos, Action::Stay { player: p });
                format!(
                    "{} on {} facing {}: a direction (keypad, arrows){}",
                    Id(p),
                    Sq(pl.at),
                    dir_name(pl.facing),
                    if stay {
                        " or 5 stays (G6.5)"
                    } else {
                        ": he must leave the goal square (G6.6)"
                    }
                )
            }
            Pending::Turn { actor, target } if actor == target => format!(
                "{} may turn himself (G9.2): ← or , left, → or . right, n none",
                Id(actor)
            ),
            Pending::Turn { actor, target } => format!(
                "{} turns the beaten {} (G9.3): ← or , left, → or . right, n none",
                Id(actor),
                Id(target)
            ),
            Pending::Decline(t) => {
                format!("{t}: which players decline the tackle on {square}? (G8.3; n none)")
            }
            Pending::Receivers(t) => {
                format!("{t}: up to two receivers of the ruck on {square} (G8.4; n none)")
            }
            Pending::Block(b) => format!("{} blocks: which opponent? (G8.4)", Id(b)),
            Pending::Catch(t) => format!("{t}: who tries to catch on {square}? (G7.3; n none)"),
            Pending::Aim(t) => format!("{t} aims the ball it beat loose: a direction (G8.9)"),
            Pending::Act(h) if depth == 0 => format!(
                "{} holds the ball on {}: k keep, t throw, p spin, h hand off (G10)",
                Id(h),
                at_of(pos, h)
            ),
            Pending::Act(h) => match next {
                Action::Throw { .. } => format!("{} throws: which way? (G10.2)", Id(h)),
                _ => format!("{} hands off: to whom? (G10.4)", Id(h)),
            },
        }
    }

    fn event_line(&self, e: &Event) -> Option<(String, Tone)> {
        let tone = match e {
            Event::Score(..) | Event::Set(_) | Event::Match(_) | Event::Injury(..) | Event::Out(..) => {
                Tone::Loud
            }
            _ => Tone::Quiet,
        };
        Some((super::words::plain(self, e)?, tone))
    }

    fn narrate(&self, before: &Position, action: Action, _: &Position, _: &[Event]) -> Vec<String> {
        super::words::action(before, action).into_iter().collect()
    }

    fn banner(&self, _: &Position, _: Action, after: &Position, events: &[Event]) -> Option<String> {
        events.iter().rev().find_map(|e| match e {
            Event::Match(w) => Some(format!("MATCH OVER: {}", match w {
                super::position::Winner::Team(t) => format!("{t} wins"),
                super::position::Winner::Draw => "a draw".into(),
            })),
            Event::Set(t) => Some(format!(
                "SET {t} · sets RED {} - BLU {}",
                after.sets[0], after.sets[1]
            )),
            Event::Score(p, _) => Some(format!(
                "POINT {}! · points RED {} - BLU {}",
                Id(*p),
                after.points[0],
                after.points[1]
            )),
            _ => None,
        })
    }
}
