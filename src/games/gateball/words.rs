//! The board's log in plain words: each event of the notation's log
//! (`event.rs`, the contract for tools and `--events`) said as a person
//! at the board reads it. `touch 3 2 T4` means nothing to a player;
//! "red 3 touches blue 2 on T4" does. The notation's line stays in the
//! records and on the command line; this is only the boards' wording
//! (the terminal's log and the web page's, through `Flow::event_line`).

use super::event::{Event, PlayKind};
use super::position::{Team, Winner};

/// A ball as a player names it: its team and number, `red 3`.
pub fn ball(n: u8) -> String {
    format!("{} {n}", Team::of_ball(n).name())
}

/// The event in plain words.
pub fn plain(e: &Event) -> String {
    match e {
        Event::Coin(side) => format!("the coin gives red to side {} (T2.3)", side.name()),
        Event::Turn(t) => format!("turn {t} begins"),
        Event::Play(b, PlayKind::Start) => format!("{}'s play: a start shot", ball(*b)),
        Event::Play(b, PlayKind::Reentry) => format!("{}'s play: a re-entry", ball(*b)),
        Event::Play(b, PlayKind::Court) => format!("{}'s play, from the court", ball(*b)),
        Event::Roll(dice) => match dice.as_slice() {
            [d] => format!("rolled {d}"),
            [a, b] => format!("rolled {a} and {b}"),
            more => format!(
                "rolled {}",
                more.iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
        Event::Gate { ball: b, gate } => format!("{} passes gate {gate} (+1)", ball(*b)),
        Event::Pass {
            ball: b,
            gate,
            forward: true,
        } => format!("{} goes through gate {gate}, not its next: no point", ball(*b)),
        Event::Pass {
            ball: b,
            gate,
            forward: false,
        } => format!("{} goes back through gate {gate}: no point", ball(*b)),
        Event::Touch { ball: b, touched, at } => {
            format!("{} touches {} on {at}", ball(*b), ball(*touched))
        }
        Event::Twice { ball: b, touched, at } => format!(
            "{} touches {} again on {at}: touched twice, it goes out (T7.4)",
            ball(*b),
            ball(*touched)
        ),
        Event::FailStart(b) => format!("{}'s start shot fails: it waits (T9.3)", ball(*b)),
        Event::Collide { ball: b, bumped, at } => format!(
            "sparked {} stops on {at}, before {} (T7.6)",
            ball(*b),
            ball(*bumped)
        ),
        Event::NoSpark {
            sparked,
            ball: b,
            back,
        } => format!(
            "no legal spark for {}: {} goes back to {back} (T7.7)",
            ball(*sparked),
            ball(*b)
        ),
        Event::Out(b, at) => format!("{} goes out on {at} (T8)", ball(*b)),
        Event::Goal(b) => format!("{} scores a Goal (+2)", ball(*b)),
        Event::At(b, at) => format!("{} stops on {at}", ball(*b)),
        Event::NoMove(b) => format!(
            "no legal move for {} with this roll: the shot is lost (T5.7)",
            ball(*b)
        ),
        Event::NoEntry(b) => format!(
            "{}'s entry space is taken: no re-entry this turn (T8.4)",
            ball(*b)
        ),
        Event::EndPlay(b) => format!("{}'s play ends", ball(*b)),
        Event::Perfect(t) => format!("a Perfect Game for {}!", t.name()),
        Event::Over { winner, red, blue } => match winner {
            Winner::Team(t) => format!("game over: {} wins, red {red} - blue {blue}", t.name()),
            Winner::Draw => format!("game over: a draw, red {red} - blue {blue}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gateball::space::Space;

    #[test]
    fn the_log_says_balls_by_team_and_what_happened() {
        let t4 = Space::parse("T4").unwrap();
        assert_eq!(plain(&Event::Gate { ball: 1, gate: 1 }), "red 1 passes gate 1 (+1)");
        assert_eq!(
            plain(&Event::Touch {
                ball: 3,
                touched: 2,
                at: t4
            }),
            "red 3 touches blue 2 on T4"
        );
        assert_eq!(plain(&Event::Goal(4)), "blue 4 scores a Goal (+2)");
        assert_eq!(plain(&Event::Roll(vec![3, 5])), "rolled 3 and 5");
        // No event is said in its code.
        for e in [
            Event::Turn(2),
            Event::NoMove(5),
            Event::EndPlay(6),
            Event::Out(7, t4),
        ] {
            let said = plain(&e);
            assert_ne!(said, e.to_string());
            assert!(said.contains(' '), "{said}");
        }
    }
}
