//! Gateball rules, one or more tests per rule id of gateball.md, and the
//! worked example of gateball-notation.md.

use ball::gateball::Gateball;
use ball::gateball::action::{self, Action};
use ball::gateball::event::Event;
use ball::gateball::position::{Phase, Place, Position};
use ball::gateball::space::Space;
use ball::kernel::game::Game;
use ball::kernel::perft::perft;
use ball::kernel::rng::SplitMix64;

fn sp(name: &str) -> Space {
    Space::parse(name).unwrap()
}

fn act(text: &str) -> Action {
    action::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays `actions`, returning the events as text lines with the `> ` lines.
fn run(game: &Gateball, pos: &mut Position, actions: &[&str]) -> Vec<String> {
    let mut lines = Vec::new();
    for a in actions {
        let mut log: Vec<Event> = Vec::new();
        game.play(pos, act(a), &mut log)
            .unwrap_or_else(|e| panic!("{a}: {e}"));
        lines.push(format!("> {a}"));
        lines.extend(log.iter().map(|e| e.to_string()));
    }
    lines
}

fn legal_text(game: &Gateball, pos: &Position) -> Vec<String> {
    game.legal(pos).iter().map(|a| a.to_string()).collect()
}

/// gateball-notation.md, "Events": ball 1 on T9, ball 3's start shot.
#[test]
fn notation_worked_example() {
    let game = Gateball::standard();
    let mut pos = Position::start(SplitMix64::new(0));
    pos.ball_mut(1).place = Place::Court(sp("T9"));
    pos.ball_mut(1).gates = 1;
    pos.ball = 3;
    pos.dice_queue.extend([2, 6, 4, 1]);
    let lines = run(
        &game,
        &mut pos,
        &["power", "shot T1 N 8", "spark W 5", "end"],
    );
    assert_eq!(
        lines,
        [
            "> power",
            "roll 2 6",
            "> shot T1 N 8",
            "gate 3 1",
            "touch 3 1 T9",
            "roll 4 1",
            "> spark W 5",
            "at 1 O9",
            "> end",
            "endplay 3",
            "play 4 start",
        ]
    );
    assert_eq!(pos.ball_state(1).place, Place::Court(sp("O9")));
    assert_eq!(pos.ball_state(3).place, Place::Court(sp("T9")));
    assert_eq!(pos.ball_state(3).gates, 1);
    assert_eq!(pos.ball, 4);
}

#[test]
fn start_perft_seed_0() {
    let game = Gateball::standard();
    let pos = game.start();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&game, &pos, d)).collect();
    eprintln!("perft {counts:?}");
    assert_eq!(counts[0], 2);
}

#[test]
fn t3_5_first_shot_compulsory() {
    let game = Gateball::standard();
    let pos = game.start();
    assert_eq!(legal_text(&game, &pos), ["power", "tech"]);
}

/// gateball-notation.md: "a start shot with a 6 from the default Start
/// Area has 321" technical paths.
#[test]
fn t5_3_start_tech_six_has_321_paths() {
    let game = Gateball::standard();
    let mut pos = game.start();
    pos.dice_queue.push_back(6);
    run(&game, &mut pos, &["tech"]);
    assert_eq!(pos.phase, Phase::Move);
    assert_eq!(game.legal(&pos).len(), 321);
}
