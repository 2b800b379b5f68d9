//! Gateball's choice flow (`shell::Flow`), in T4.3's order of decisions:
//! the shot type (`p` power, `t` tech, `e` end a continuation), then —
//! knowing the dice — the Start Space of a start shot, then the direction
//! (and, for a diagonal with two different dice, the die: `[` or `]`) or
//! the steps of a technical path one at a time. Directions and steps are
//! keyed like a numeric keypad (8 north, 9 north-east …) and, for the
//! orthogonal ones, by the arrows. A move waits for Enter with its
//! judgement shown (`shot T1 N 8 → scores gate 1, stops on T9`).

use super::Gateball;
use super::action::{Action, Motion};
use super::event::Event;
use super::moves::{self, ball_name, dice_text};
use super::position::{Phase, Place, Position, ShotKind, Team};
use super::space::{Dir, Space};
use crate::shell::{Choice, Flow, Key, Tone};

/// The keypad digit of a direction.
pub fn dir_digit(d: Dir) -> char {
    match d {
        Dir::N => '8',
        Dir::NE => '9',
        Dir::E => '6',
        Dir::SE => '3',
        Dir::S => '2',
        Dir::SW => '1',
        Dir::W => '4',
        Dir::NW => '7',
    }
}

fn dir_keys(d: Dir) -> Vec<Key> {
    let mut v = vec![Key::Char(dir_digit(d))];
    v.extend(match d {
        Dir::N => Some(Key::Up),
        Dir::S => Some(Key::Down),
        Dir::W => Some(Key::Left),
        Dir::E => Some(Key::Right),
        _ => None,
    });
    v
}

fn dir_order(d: Dir) -> u32 {
    Dir::ALL.iter().position(|&x| x == d).unwrap_or(0) as u32
}

fn board_order(s: Space) -> u32 {
    u32::from(s.row) * 64 + u32::from(s.col)
}

/// Whether a diagonal of this roll needs its die chosen: two dice that
/// differ give two distances.
fn two_dice(pos: &Position) -> bool {
    pos.dice.len() >= 2 && pos.dice[0] != pos.dice[1]
}

impl Flow for Gateball {
    type Cell = Space;

    /// greedy takes the expectation over the roll, and beats `mcts` (1000
    /// iterations over eight draws of the dice) in 15 of 20 games
    /// (`ball sim --game gateball --bots mcts,greedy --games 20 --seed 1`).
    const DEFAULT_BOT: &'static str = "greedy";

    fn choices(&self, pos: &Position, action: Action) -> Vec<Choice<Space>> {
        let shot = |label: &str, key: char, help: &str, order: u32| {
            vec![
                Choice::new(label)
                    .key(Key::Char(key))
                    .help(help)
                    .order(order),
            ]
        };
        match action {
            Action::Power => shot("power", 'p', "two dice, a straight move (T5.2)", 0),
            Action::Tech => shot("tech", 't', "one die, a path step by step (T5.3)", 1),
            Action::End => shot("end", 'e', "end the play: no continuation shot (T7.8)", 2),
            Action::Variant(k) => {
                let text = self
                    .scripts
                    .get()
                    .and_then(|s| s.action(k))
                    .map_or_else(String::new, |a| a.text.clone());
                vec![Choice::new(action.to_string()).help(&text).order(3 + u32::from(k))]
            }
            Action::Shot(_) | Action::Spark(_) => {
                let Some(j) = moves::judge(self, pos, action) else {
                    // The engine listed it, so it judges it; a move it
                    // would not judge is still offered, by its notation.
                    return vec![Choice::new(action.to_string())];
                };
                let said = moves::describe(self, &j);
                let mut v = Vec::new();
                if let Some(s) = j.start {
                    v.push(
                        Choice::new(s.to_string())
                            .at(s)
                            .help("Start Space (T9.1)")
                            .order(board_order(s)),
                    );
                }
                match j.motion {
                    Motion::Straight { dir, dist } if !dir.is_orthogonal() && two_dice(pos) => {
                        let mut c = Choice::new(dir.name())
                            .help("then the die: [ or ]")
                            .order(dir_order(dir));
                        c.keys = dir_keys(dir);
                        v.push(c);
                        let key = if pos.dice[0] == dist { '[' } else { ']' };
                        v.push(
                            Choice::new(format!("{} {dist}", dir.name()))
                                .at(j.end)
                                .key(Key::Char(key))
                                .help(said)
                                .order(u32::from(key == ']')),
                        );
                    }
                    Motion::Straight { dir, dist } => {
                        let mut c = Choice::new(dir.name())
                            .at(j.end)
                            .help(format!("{dist}: {said}"))
                            .order(dir_order(dir));
                        c.keys = dir_keys(dir);
                        v.push(c);
                    }
                    Motion::Path { steps, len } => {
                        let n = usize::from(len);
                        for (i, &d) in steps[..n].iter().enumerate() {
                            let mut c = Choice::new(d.letter().to_string())
                                .order(dir_order(d))
                                .help(if i + 1 == n { said.clone() } else { String::new() });
                            if let Some(&s) = j.trace.get(i) {
                                c = c.at(s);
                            }
                            c.keys = dir_keys(d);
                            v.push(c);
                        }
                    }
                }
                v
            }
        }
    }

    fn prompt(&self, pos: &Position, next: Action, depth: usize) -> String {
        let b = pos.ball;
        let team = Team::of_ball(b);
        let what = match pos.ball_state(b).place {
            Place::Waiting => "start shot".to_string(),
            Place::Out(s) => format!("re-entry from {s}"),
            Place::Court(s) => format!("shot from {s}"),
            Place::Goal => "goal".to_string(),
        };
        let dice = dice_text(&pos.dice);
        let Some(kind) = pos.shot.filter(|_| matches!(pos.phase, Phase::Move | Phase::Spark)) else {
            return if pos.continuation {
                format!(
                    "ball {b} ({}), continuation {what}: p power, t tech, or e end the play",
                    team.name()
                )
            } else {
                format!(
                    "ball {b} ({}), {what}: p power (two dice) or t tech (one die)",
                    team.name()
                )
            };
        };
        let head = if pos.phase == Phase::Spark {
            format!(
                "spark ball {} ({} {dice})",
                pos.spark.unwrap_or(0),
                kind.name()
            )
        } else {
            format!("ball {b} {what} ({} {dice})", kind.name())
        };
        let start = matches!(next, Action::Shot(m) | Action::Spark(m) if m.start.is_some());
        // The choices made of the move itself, past its Start Space.
        let Some(depth) = depth.checked_sub(usize::from(start)) else {
            let then = match kind {
                ShotKind::Power => "a direction key shoots from the highlighted one",
                ShotKind::Tech => "a step key starts the path from the highlighted one",
            };
            return format!("{head}: choose the Start Space (Tab, click), or {then}");
        };
        // The move is named (it waits for Enter): no choice is left to ask
        // for, whatever the kind (an orthogonal shot has no die to
        // choose; a path of the die's length has no step left).
        let moves = self.choices(pos, next).len().saturating_sub(usize::from(start));
        if depth >= moves {
            return format!("{head}: Enter plays it, Backspace takes back a choice");
        }
        match kind {
            ShotKind::Power if depth == 1 => format!(
                "{head}: choose the die: [ {} or ] {}",
                pos.dice.first().copied().unwrap_or(0),
                pos.dice.get(1).copied().unwrap_or(0)
            ),
            ShotKind::Power => format!("{head}: choose the direction"),
            ShotKind::Tech => {
                let die = pos.dice.first().copied().unwrap_or(0);
                format!("{head}: build the path, step {} of at most {die}", depth + 1)
            }
        }
    }

    fn confirm(&self, _pos: &Position, action: Action) -> bool {
        matches!(action, Action::Shot(_) | Action::Spark(_))
    }

    fn preview(&self, pos: &Position, action: Action) -> Option<String> {
        let j = moves::judge(self, pos, action)?;
        Some(format!("{action} → {}", moves::describe(self, &j)))
    }

    fn unavailable(&self, pos: &Position, _depth: usize, key: Key) -> Vec<String> {
        let action = match key {
            Key::Char('p') => Action::Power,
            Key::Char('t') => Action::Tech,
            Key::Char('e') => Action::End,
            _ => return Vec::new(),
        };
        if pos.phase != Phase::Shot {
            return Vec::new();
        }
        let mut copy = pos.clone();
        match self.play(&mut copy, action, &mut Vec::new()) {
            Err(e) => vec![e.to_string()],
            Ok(()) => Vec::new(),
        }
    }

    fn event_line(&self, e: &Event) -> Option<(String, Tone)> {
        let tone = match e {
            Event::Gate { .. } | Event::Goal(_) | Event::Perfect(_) | Event::Over { .. } => {
                Tone::Loud
            }
            _ => Tone::Quiet,
        };
        // Plain words (`words.rs`); the notation's codes stay in records
        // and `--events`.
        Some((super::words::plain(e), tone))
    }

    fn banner(&self, _: &Position, _: Action, after: &Position, events: &[Event]) -> Option<String> {
        events.iter().rev().find_map(|e| match e {
            Event::Perfect(t) => Some(format!("PERFECT GAME for {}!", t.name())),
            Event::Goal(b) => Some(format!(
                "GOAL {}! {}",
                ball_name(*b),
                moves::result_text(after)
            )),
            _ => None,
        })
    }
}
