//! Gateball scenarios: `tests/gateball/scenarios/*.scn`, each a position
//! built in a few lines and the actions played on it; the snapshot is the
//! event log and the final board (`ball show`). Read every `.snap` you
//! accept: it is the rules' answer.
//!
//! Format, one item a line (`#` starts a comment):
//! - `place: N WHERE GATES` — ball N on a court space, `out:SPACE` or `goal`;
//!   every ball not placed waits;
//! - `ball: N` — the ball whose play it is (phase `shot`);
//! - `turn: T` — the turn (default 1);
//! - `queue: D …` — die values appended to the dice queue (T4.6);
//! - `> ACTION` — an action, checked and applied.

use ball::games::gateball::event::Event;
use ball::games::gateball::position::{Place, Position};
use ball::games::gateball::space::Space;
use ball::games::gateball::{Gateball, action, show};
use ball::kernel::rng::SplitMix64;

fn run(text: &str) -> String {
    let game = Gateball::standard();
    let mut pos = Position::start(SplitMix64::new(0));
    let mut out = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let at = |what: &str| format!("line {}: {what}: {raw}", i + 1);
        if let Some(a) = line.strip_prefix("> ") {
            let action = action::parse(a).unwrap_or_else(|e| panic!("{}", at(&e.to_string())));
            let mut log: Vec<Event> = Vec::new();
            match game.play(&mut pos, action, &mut log) {
                Ok(()) => {
                    out.push_str(&format!("> {a}\n"));
                    for e in log {
                        out.push_str(&format!("{e}\n"));
                    }
                }
                Err(e) => out.push_str(&format!("> {a}\nrefused: {e}\n")),
            }
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{}", at("no key")));
        let words: Vec<&str> = value.split_whitespace().collect();
        match key {
            "place" => {
                let [n, place, gates] = words[..] else {
                    panic!("{}", at("place: N WHERE GATES"))
                };
                let n: u8 = n.parse().unwrap();
                let b = pos.ball_mut(n);
                b.gates = gates.parse().unwrap();
                b.place = match place {
                    "goal" => Place::Goal,
                    p => match p.strip_prefix("out:") {
                        Some(s) => Place::Out(Space::parse(s).unwrap()),
                        None => Place::Court(Space::parse(p).unwrap()),
                    },
                };
            }
            "ball" => pos.ball = words[0].parse().unwrap(),
            "turn" => pos.turn = words[0].parse().unwrap(),
            "queue" => pos
                .dice_queue
                .extend(words.iter().map(|w| w.parse::<u8>().unwrap())),
            _ => panic!("{}", at("unknown key")),
        }
    }
    out.push('\n');
    out.push_str(&show::render(&game, &pos));
    out
}

#[test]
fn scenarios() {
    insta::glob!("gateball/scenarios/*.scn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(run(&text));
    });
}
