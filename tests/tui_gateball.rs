//! Gateball on the terminal board (`ball play --game gateball`), driven
//! through its input events (keys and mouse clicks, as the terminal
//! delivers them) on ratatui's `TestBackend`, with screens snapshotted by
//! insta.
//!
//! Every snapshot was read before it was accepted. Text tells what colour
//! tells on a real terminal: `[ ]` around a space that may be chosen or
//! where a power move ends (`[r1` where a ball's name leaves room for one
//! bracket only), `( )` around the chosen Start Space, path and move.
//!
//! Legality is the engine's: every test compares what the keys built with
//! `Gateball::legal` and `Gateball::play` of the same action text.
//!
//! The board is the shell's, so Gateball has what BALL has: undo and
//! redo, save and load, and the replay viewer; tested here on Gateball.

use std::collections::BTreeSet;

use ball::games::gateball::Gateball;
use ball::games::gateball::action::{self, Action, Motion};
use ball::games::gateball::flow::dir_digit;
use ball::games::gateball::position::{Phase, Place, Position, ShotKind, Team, Winner};
use ball::games::gateball::ruleset::{self, GateballRuleset};
use ball::games::gateball::space::{Dir, Space};
use ball::kernel::game::Title;
use ball::kernel::record::Record;
use ball::kernel::rng::SplitMix64;
use ball::shell::{Seat, Session};
use ball::tui::{self, App, Dialog, Level, Play};
use ratatui::crossterm::event::KeyCode;

use crate::tui_harness::Board;

fn sp(name: &str) -> Space {
    Space::parse(name).unwrap()
}

fn act(text: &str) -> Action {
    action::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

fn rules() -> GateballRuleset {
    ruleset::load(ruleset::DEFAULT).unwrap()
}

const PEOPLE: [Seat; 2] = [Seat::Person, Seat::Person];

/// A game from `pos` with these seats.
fn app_at(pos: Position, seats: [Seat; 2]) -> App<Gateball> {
    let rs = rules();
    let game = Gateball::build(&rs).unwrap();
    App::new(Session::from_position(rs, &game, &pos, seats).unwrap())
}

fn hot_seat(pos: Position) -> App<Gateball> {
    app_at(pos, PEOPLE)
}

/// The start of a seed-0 game with these dice queued (T4.6).
fn start_with_dice(dice: &[u8]) -> Position {
    let mut pos = Position::start(SplitMix64::new(0));
    pos.dice_queue.extend(dice);
    pos
}

fn board(app: App<Gateball>) -> Board<Gateball> {
    Board::new(app, 120, 30)
}

/// `pos` after `actions`, each checked by the engine.
fn played(pos: &Position, actions: &[&str]) -> Position {
    let game = Gateball::standard();
    let mut p = pos.clone();
    for a in actions {
        game.play(&mut p, act(a), &mut Vec::new())
            .unwrap_or_else(|e| panic!("{a}: {e}"));
    }
    p
}

fn actions(app: &App<Gateball>) -> Vec<Action> {
    app.session().played().iter().map(|p| p.action).collect()
}

fn legal_text(pos: &Position) -> BTreeSet<String> {
    Gateball::standard()
        .legal(pos)
        .iter()
        .map(|a| a.to_string())
        .collect()
}

#[test]
fn start_screen() {
    let mut b = board(hot_seat(Position::start(SplitMix64::new(0))));
    let s = b.screen();
    insta::assert_snapshot!("gateball_start_120x30", s);
    // T1.9's court, row by row, as `ball show` writes its tokens.
    for row in [
        " 14   #   +   .   .   .   .   .   .   .   .   .   .   <   2   .   .   .   .   .   .   +   #",
        "  9   #   +   .   v   .   .   .   .   .   .   F   .   .   .   .   .   .   .   .   .   +   #",
        "  1   #   #   #   #   #   #   #   #   #   #   #   #   #   #   #   #   #   #   S   S   S   #",
    ] {
        assert!(s.contains(row), "{row}");
    }
    assert!(s.contains("red to play (you)"));
    assert!(s.contains("gateball · turn 1/6"), "the ruleset is named");
    assert!(
        b.choices_text()
            .contains("p power (two dice) or t tech (one die)")
    );
    assert!(s.contains("waiting r1 b2 r3"));
}

#[test]
fn a_wide_terminal_gets_five_column_cells() {
    let mut b = Board::new(hot_seat(Position::start(SplitMix64::new(0))), 150, 32);
    let s = b.screen();
    assert!(s.contains(
        " 14    #    +    .    .    .    .    .    .    .    .    .    .    <    2    .    .    .    .    .    .    +    #"
    ));
    assert!(s.contains(
        "       A    B    C    D    E    F    G    H    I    J    K    L    M    N    O    P    Q    R    S    T    U    V"
    ));
}

/// T4.3: power, the dice 2 6 rolled; the Start Space and a direction
/// chosen, the move shown with what it will do before Enter plays it.
#[test]
fn a_power_move_is_shown_before_enter_plays_it() {
    let start = start_with_dice(&[2, 6]);
    let mut b = board(hot_seat(start.clone()));
    b.keys("p");
    assert_eq!(b.app.session().position().phase, Phase::Move);
    assert_eq!(b.app.session().position().dice, [2, 6]);
    assert_eq!(b.labels(), ["S1", "T1", "U1"], "the Start Spaces first");
    b.key(KeyCode::Tab); // S1 → T1
    b.key(KeyCode::Up); // north, from the highlighted Start Space
    let s = b.screen();
    insta::assert_snapshot!("gateball_power_move_100x30", s);
    assert!(
        b.choices_text()
            .contains("action: shot T1 N 8 → scores gate 1, stops on T9")
    );
    assert_eq!(b.app.session().waiting(), Some(act("shot T1 N 8")));
    assert!(
        s.contains("(S)") && s.contains("(^)"),
        "start and path marked"
    );
    // Another direction before Enter: the move changes, nothing is played.
    b.keys("9");
    assert_eq!(b.labels(), ["NE 2", "NE 6"], "a diagonal asks for the die");
    b.keys("]");
    assert_eq!(b.app.session().waiting(), Some(act("shot T1 NE 6")));
    b.keys("8");
    assert_eq!(b.app.session().waiting(), Some(act("shot T1 N 8")));
    b.key(KeyCode::Enter);
    assert_eq!(
        b.app.session().position(),
        &played(&start, &["power", "shot T1 N 8"])
    );
}

#[test]
fn keys_play_a_power_shot_and_a_tech_path_as_the_engine_does() {
    let start = start_with_dice(&[2, 6, 4]);
    let mut b = board(hot_seat(start.clone()));
    b.keys("p");
    b.key(KeyCode::Tab);
    b.keys("8");
    b.key(KeyCode::Enter);
    assert_eq!(
        b.app.session().position(),
        &played(&start, &["power", "shot T1 N 8"])
    );
    assert_eq!(actions(&b.app), [act("power"), act("shot T1 N 8")]);

    // Ball 2's start: tech, a 4; the path S1 n n e n passes gate 1.
    b.keys("t");
    assert_eq!(b.app.session().position().dice, [4]);
    b.key(KeyCode::Up); // from the highlighted S1
    b.key(KeyCode::Up);
    b.key(KeyCode::Right);
    assert_eq!(b.app.session().waiting(), None, "three steps of four");
    // Enter takes the highlighted step; a move is never played unseen.
    b.key(KeyCode::Enter);
    assert_eq!(actions(&b.app).len(), 3, "an unfinished path is not played");
    assert_eq!(b.app.session().chosen().len(), 5);
    assert!(b.app.session().waiting().is_some());
    b.key(KeyCode::Backspace);
    b.key(KeyCode::Up);
    let text = b.choices_text();
    assert!(
        text.contains("action: shot S1 nnen → scores gate 1, stops on T4"),
        "{text}"
    );
    b.key(KeyCode::Enter);
    let want = played(&start, &["power", "shot T1 N 8", "tech", "shot S1 nnen"]);
    assert_eq!(b.app.session().position(), &want);
    assert_eq!(
        b.app.session().position().ball_state(2).place,
        Place::Court(sp("T4"))
    );
    let log: Vec<String> = ball::tui::log::lines(b.app.session())
        .0
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert_eq!(
        log,
        [
            "turn 1 begins",
            "red 1's play: a start shot",
            "turn 1 · red",
            "power",
            "rolled 2 and 6",
            "shot T1 N 8",
            "red 1 passes gate 1 (+1)",
            "red 1 stops on T9",
            "red 1's play ends",
            "blue 2's play: a start shot",
            "turn 1 · blue",
            "tech",
            "rolled 4",
            "shot S1 nnen",
            "blue 2 passes gate 1 (+1)",
            "blue 2 stops on T4",
            "blue 2's play ends",
            "red 3's play: a start shot",
            "turn 1 · red",
        ]
    );
}

/// Every sequence of offered choices from the move's first step, by
/// search: the whole actions they name. `Chooser` is the flow, so this is
/// what keys, clicks and a web board can build.
fn reachable(app: &App<Gateball>) -> BTreeSet<String> {
    let chooser = app.session().chooser().clone();
    let mut found = BTreeSet::new();
    let mut stack = vec![chooser];
    while let Some(c) = stack.pop() {
        if let Some(a) = c.whole() {
            found.insert(a.to_string());
        }
        for o in c.options() {
            let mut next = c.clone();
            assert!(next.push(&o.label));
            stack.push(next);
        }
    }
    found
}

/// The keys that build `text` from nothing chosen: Tab to its Start
/// Space, then its direction (and die) or its steps.
fn keys_for(app: &App<Gateball>, text: &str) -> Vec<KeyCode> {
    let (Action::Shot(m) | Action::Spark(m)) = act(text) else {
        panic!("{text}")
    };
    let mut keys = Vec::new();
    if let Some(s) = m.start {
        let starts = app.session().options();
        let to = starts
            .iter()
            .position(|c| c.label == s.to_string())
            .unwrap();
        keys.extend(std::iter::repeat_n(KeyCode::Tab, to));
    }
    let pos = app.session().position();
    match m.motion {
        Motion::Straight { dir, dist } => {
            keys.push(KeyCode::Char(dir_digit(dir)));
            if !dir.is_orthogonal() && pos.dice[0] != pos.dice[1] {
                keys.push(KeyCode::Char(if pos.dice[0] == dist { '[' } else { ']' }));
            }
        }
        Motion::Path { steps, len } => {
            for &d in &steps[..usize::from(len)] {
                keys.push(match d {
                    Dir::N => KeyCode::Up,
                    Dir::S => KeyCode::Down,
                    Dir::W => KeyCode::Left,
                    _ => KeyCode::Right,
                });
            }
        }
    }
    keys
}

/// T5.3: for a technical roll the flow reaches exactly the canonical
/// legal list — each legal action built by its keys, and nothing else
/// built by any sequence of choices.
#[test]
fn the_path_builder_reaches_exactly_the_legal_paths() {
    let game = Gateball::standard();
    // A start shot with a 6: 321 paths from three Start Spaces.
    let mut start = start_with_dice(&[6]);
    game.play(&mut start, Action::Tech, &mut Vec::new())
        .unwrap();
    // A ball on the court with balls around it: touches end paths early,
    // the Finish and gates shape them.
    let mut mid = Position::start(SplitMix64::new(0));
    mid.ball_mut(1).place = Place::Court(sp("K7"));
    mid.ball_mut(1).gates = 2;
    mid.ball_mut(2).place = Place::Court(sp("L7"));
    mid.ball_mut(2).gates = 1;
    mid.ball_mut(3).place = Place::Court(sp("K5"));
    mid.ball_mut(3).gates = 1;
    mid.dice_queue.push_back(5);
    game.play(&mut mid, Action::Tech, &mut Vec::new()).unwrap();
    for pos in [start, mid] {
        assert_eq!(pos.phase, Phase::Move);
        assert_eq!(pos.shot, Some(ShotKind::Tech));
        let legal = legal_text(&pos);
        let app = hot_seat(pos.clone());
        for text in &legal {
            let mut b = board(hot_seat(pos.clone()));
            for k in keys_for(&app, text) {
                b.key(k);
            }
            assert_eq!(
                b.app.session().waiting().map(|a| a.to_string()),
                Some(text.clone())
            );
            b.key(KeyCode::Enter);
            assert_eq!(b.app.session().position(), &played(&pos, &[text]));
        }
        assert_eq!(reachable(&app), legal);
    }
}

/// The same for a power roll with two different dice: every straight move
/// by its Start Space, direction and die.
#[test]
fn direction_die_and_start_keys_reach_exactly_the_legal_power_moves() {
    let game = Gateball::standard();
    let mut pos = start_with_dice(&[2, 5]);
    game.play(&mut pos, Action::Power, &mut Vec::new()).unwrap();
    let legal = legal_text(&pos);
    assert!(legal.iter().any(|t| t.ends_with("NE 2")) && legal.iter().any(|t| t.ends_with("NE 5")));
    let app = hot_seat(pos.clone());
    for text in &legal {
        let mut b = board(hot_seat(pos.clone()));
        for k in keys_for(&app, text) {
            b.key(k);
        }
        assert_eq!(
            b.app.session().waiting().map(|a| a.to_string()),
            Some(text.clone()),
            "{text}"
        );
        b.key(KeyCode::Enter);
        assert_eq!(b.app.session().position(), &played(&pos, &[text]));
    }
    assert_eq!(reachable(&app), legal);
}

#[test]
fn a_click_chooses_a_highlighted_end_and_a_second_click_plays_it() {
    let start = start_with_dice(&[2, 6]);
    let mut b = board(hot_seat(start.clone()));
    b.keys("p");
    b.screen();
    b.click(sp("K5")); // not reachable: nothing happens
    assert_eq!(b.app.session().waiting(), None);
    assert!(b.app.session().chosen().is_empty());
    b.click(sp("T9"));
    assert_eq!(
        b.app.session().waiting(),
        Some(act("shot T1 N 8")),
        "the Start Space follows"
    );
    b.click(sp("T9"));
    assert_eq!(
        b.app.session().position(),
        &played(&start, &["power", "shot T1 N 8"])
    );
}

#[test]
fn a_tech_path_is_extended_by_clicking_next_to_its_head() {
    let start = start_with_dice(&[4]);
    let mut b = board(hot_seat(start.clone()));
    b.keys("t");
    b.screen();
    for s in ["S1", "S2", "S3", "T3", "T4"] {
        b.click(sp(s));
    }
    assert_eq!(b.app.session().waiting(), Some(act("shot S1 nnen")));
    let s = b.screen();
    insta::assert_snapshot!("gateball_tech_path_100x30", s);
    assert!(s.contains("(^)"), "the path is marked through gate 1");
    b.click(sp("T4"));
    assert_eq!(
        b.app.session().position(),
        &played(&start, &["tech", "shot S1 nnen"])
    );
}

#[test]
fn steps_no_legal_path_takes_are_refused() {
    let mut b = board(hot_seat(start_with_dice(&[3])));
    b.keys("t");
    b.key(KeyCode::Enter); // S1
    b.key(KeyCode::Down); // south: the Outside Line runs along, T9.2
    assert_eq!(b.app.session().chosen().len(), 1);
    assert!(matches!(b.app.message(), Some((Level::Info, _))));
    b.key(KeyCode::Up);
    b.key(KeyCode::Down); // back to the origin, T5.3
    assert_eq!(b.app.session().chosen().len(), 2);
    b.key(KeyCode::Backspace);
    assert_eq!(b.app.session().chosen().len(), 1);
}

#[test]
fn end_is_offered_only_for_a_continuation() {
    // The worked example of docs/rules/gateball-notation.md: ball 3 touches
    // ball 1 and sparks it.
    let mut pos = Position::start(SplitMix64::new(0));
    pos.ball_mut(1).place = Place::Court(sp("T9"));
    pos.ball_mut(1).gates = 1;
    pos.ball = 3;
    pos.dice_queue.extend([2, 6, 4, 1]);
    let start = pos.clone();
    let mut b = board(hot_seat(pos));
    b.keys("e");
    assert!(actions(&b.app).is_empty());
    assert!(
        b.app.message().unwrap().1.contains("T7.8") || b.app.message().unwrap().1.contains("end"),
        "{:?}",
        b.app.message()
    );
    b.keys("p");
    b.key(KeyCode::Tab);
    b.key(KeyCode::Up);
    b.key(KeyCode::Enter);
    assert_eq!(b.app.session().position().phase, Phase::Spark);
    let s = b.screen();
    insta::assert_snapshot!("gateball_spark_100x30", s);
    assert!(b.choices_text().contains("spark ball 1 (power 4 1)"));
    b.key(KeyCode::Left);
    assert_eq!(b.app.session().waiting(), Some(act("spark W 5")));
    b.key(KeyCode::Enter);
    assert!(b.app.session().position().continuation);
    b.keys("e");
    assert_eq!(
        b.app.session().position(),
        &played(&start, &["power", "shot T1 N 8", "spark W 5", "end"])
    );
}

/// Random keys and clicks on random screen sizes never panic, never
/// leave choices the legal list does not continue, and never record an
/// action the engine refuses.
#[test]
fn random_keys_never_break_the_game() {
    let codes = [
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Backspace,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Home,
        KeyCode::Delete,
        KeyCode::F(5),
        KeyCode::Null,
    ];
    let chars = "ptepptt123456789[]? xur\u{e9}\u{0}q";
    let mut finished = 0;
    for seed in 0..8u64 {
        let mut rng = SplitMix64::new(seed);
        let seats = if seed % 2 == 0 {
            PEOPLE
        } else {
            [Seat::Person, Seat::Bot("random".into())]
        };
        let rs = rules();
        let mut b = board(App::new(Session::new(rs, seats, seed).unwrap()));
        for _ in 0..3000 {
            match rng.below(24) {
                0 => {
                    let (w, h) = [(120, 30), (80, 24), (130, 40), (120, 24), (20, 5)][rng.below(5)];
                    b.resize(w, h);
                }
                1..=5 => {
                    let (w, h) = (b.area().width.max(1), b.area().height.max(1));
                    b.click_at(rng.below(w as usize) as u16, rng.below(h as usize) as u16);
                }
                6 => {
                    // A click on a cell that may be chosen, where there is one.
                    let cells: Vec<Space> = b
                        .app
                        .session()
                        .options()
                        .iter()
                        .filter_map(|c| c.cell)
                        .collect();
                    if !cells.is_empty() && !layout_too_small(&b) {
                        b.click(cells[rng.below(cells.len())]);
                    }
                }
                7..=11 => b.key(codes[rng.below(codes.len())]),
                _ => {
                    let n = chars.chars().count();
                    b.key(KeyCode::Char(chars.chars().nth(rng.below(n)).unwrap()));
                }
            }
            if b.app.should_quit() {
                break;
            }
            if b.app.dialog().is_some() {
                b.key(KeyCode::Esc);
            }
            b.bot_step();
            if rng.below(8) == 0 {
                b.screen();
            }
            let s = b.app.session();
            assert!(
                s.options().is_empty() || s.chooser().matching().next().is_some(),
                "choices the legal list does not continue"
            );
            assert!(
                !matches!(b.app.message(), Some((Level::Error, _))),
                "{:?}",
                b.app.message()
            );
            if let Some(a) = s.waiting() {
                assert!(s.legal().contains(&a));
            }
            if s.to_move().is_none() {
                finished += 1;
                break;
            }
        }
        // Every recorded action replays under the engine's own check.
        let game = b.app.session().game().clone();
        let mut p = b.app.session().history().start().clone();
        for x in b.app.session().played() {
            game.play(&mut p, x.action, &mut Vec::new()).unwrap();
        }
        assert_eq!(&p, b.app.session().position());
    }
    eprintln!("{finished} of 8 random-key games reached their end");
}

fn layout_too_small(b: &Board<Gateball>) -> bool {
    ball::tui::layout::layout(b.area(), &b.app).too_small
}

/// Two bots play a whole game, as the board's bot thread would.
#[test]
fn bots_play_a_game_to_the_end() {
    for level in ["random", "greedy"] {
        let seats = [Seat::Bot(level.into()), Seat::Bot(level.into())];
        let mut b = board(App::new(Session::new(rules(), seats, 3).unwrap()));
        let mut n = 0;
        while b.bot_step() {
            n += 1;
            assert!(n < 10_000, "the game ends");
            if n % 50 == 0 {
                b.screen();
            }
        }
        assert_eq!(b.app.session().to_move(), None);
        let s = b.screen();
        assert!(s.contains("GAME OVER"), "{s}");
        assert!(s.contains("game over: "), "{s}");
        // An unsaved game asks before quitting, like any other.
        b.keys("q");
        assert_eq!(b.app.dialog(), Some(&Dialog::ConfirmQuit));
        b.keys("y");
        assert!(b.app.should_quit());
    }
    // The same seeds give the same game.
    let game = |seed| {
        let seats = [Seat::Bot("random".into()), Seat::Bot("random".into())];
        let mut b = board(App::new(Session::new(rules(), seats, seed).unwrap()));
        while b.bot_step() {}
        actions(&b.app)
    };
    assert_eq!(game(5), game(5));
}

#[test]
fn a_bot_seat_waits_for_no_keys_and_stale_answers_are_dropped() {
    let mut b = board(app_at(
        start_with_dice(&[2, 6]),
        [Seat::Person, Seat::Bot("random".into())],
    ));
    assert!(b.app.bot_request().is_none(), "red is the person");
    b.keys("p");
    b.key(KeyCode::Tab);
    b.keys("8");
    b.key(KeyCode::Enter);
    assert_eq!(b.app.session().position().ball, 2);
    let req = b.app.bot_request().expect("blue's bot is asked");
    b.keys("p");
    assert_eq!(
        b.app.session().version(),
        req.version,
        "keys do nothing on a bot's turn"
    );
    assert!(b.choices_text().contains("blue (random bot) is playing"));
    let a = ball::shell::bots::choose(b.app.session().game(), &req).unwrap();
    assert!(!b.app.bot_played(req.version + 1, a), "stale");
    // A dialog pauses the bot.
    b.keys("?");
    assert!(b.app.bot_request().is_none());
    assert!(!b.app.bot_played(req.version, a), "paused");
    b.key(KeyCode::Esc);
    assert!(b.app.bot_played(req.version, a));
    assert!(!b.app.bot_played(req.version, a), "answered once");
}

#[test]
fn a_too_small_terminal_says_so_and_q_still_asks() {
    let mut b = Board::new(hot_seat(Position::start(SplitMix64::new(0))), 80, 24);
    let s = b.screen();
    insta::assert_snapshot!("gateball_too_small", s);
    assert!(s.contains("Too small: 80x24; Gateball needs 120x24. q quits."));
    b.keys("p");
    assert!(actions(&b.app).is_empty(), "nothing is chosen blind");
    b.resize(120, 30);
    let s = b.screen();
    assert!(s.contains("court standard"));
    b.keys("q");
    assert!(b.app.should_quit(), "nothing played: nothing to lose");
}

#[test]
fn the_log_scrolls_back_and_returns() {
    let seats = [Seat::Bot("random".into()), Seat::Bot("random".into())];
    let mut b = board(App::new(Session::new(rules(), seats, 1).unwrap()));
    for _ in 0..60 {
        b.bot_step();
    }
    let s = b.screen();
    let last = b.app.session().played().last().unwrap().action.to_string();
    assert!(s.contains(&last));
    b.key(KeyCode::PageUp);
    b.key(KeyCode::PageUp);
    let s = b.screen();
    assert!(s.contains("newer (PgDn)"), "{s}");
    b.key(KeyCode::PageDown);
    b.key(KeyCode::PageDown);
    assert!(!b.screen().contains("newer (PgDn)"));
}

/// T12.5: a finished game shows the winner and the score.
#[test]
fn game_over_screen() {
    let mut pos = Position::start(SplitMix64::new(0));
    pos.turn = 6;
    pos.ball = 10;
    pos.phase = Phase::Over;
    pos.ball_mut(1).place = Place::Goal;
    pos.ball_mut(1).gates = 3;
    pos.ball_mut(4).place = Place::Court(sp("M14"));
    pos.ball_mut(4).gates = 2;
    pos.ball_mut(7).place = Place::Out(sp("A12"));
    pos.ball_mut(7).gates = 1;
    pos.winner = Some(Winner::Team(Team::Red));
    let mut b = board(hot_seat(pos));
    let s = b.screen();
    insta::assert_snapshot!("gateball_game_over_100x30", s);
    assert!(
        s.contains("GAME OVER  red wins, red 6 - blue 2 · gateball · turn 6"),
        "{s}"
    );
    assert!(s.contains("goal r1"));
    b.keys("pt");
    assert!(actions(&b.app).is_empty());
    b.keys("q");
    assert!(b.app.should_quit());
}

// ---- what Gateball has now that the board is the shell's ----

#[test]
fn undo_and_redo_take_back_a_whole_action_back_to_your_turn() {
    let start = start_with_dice(&[2, 6, 3, 3]);
    let mut b = board(app_at(
        start.clone(),
        [Seat::Person, Seat::Bot("greedy".into())],
    ));
    b.keys("p");
    b.key(KeyCode::Tab);
    b.keys("8");
    b.key(KeyCode::Enter);
    while b.bot_step() {}
    let after_bot = b.app.session().position().clone();
    let n = actions(&b.app).len();
    assert!(n > 2, "blue played");
    b.keys("u");
    assert_eq!(
        b.app.session().position(),
        &played(&start, &["power"]),
        "back to red's move, the bot's play undone with it"
    );
    assert!(b.app.session().person_to_move());
    b.keys("u");
    assert_eq!(b.app.session().position(), &start);
    b.keys("r");
    b.keys("r");
    assert_eq!(b.app.session().position(), &after_bot);
    assert_eq!(actions(&b.app).len(), n);
    assert!(b.app.message().unwrap().1.starts_with("redid"));
}

#[test]
fn a_gateball_game_saves_loads_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gb.txt");
    let seats = [Seat::Person, Seat::Bot("random".into())];
    let mut b = board(App::new(Session::new(rules(), seats, 7).unwrap()));
    b.keys("p");
    b.key(KeyCode::Enter); // the first Start Space
    b.key(KeyCode::Enter); // its first move
    b.key(KeyCode::Enter); // played
    while b.bot_step() {}
    assert!(actions(&b.app).len() >= 3);
    b.app.save_to(&path).unwrap();
    let rec = Record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(rec.get("game"), Some("gateball"));
    assert_eq!(rec.get("seed"), Some("7"));
    assert_eq!(rec.get("blue"), Some("random"));
    assert_eq!(rec.get("red"), Some("human"));
    let ok = ball::lab::replay::check::<Gateball>(&rec, &rules()).unwrap();
    assert!(ok.contains("unfinished"), "{ok}");
    // --load: the same game, the record's bot seat, saved back to the file.
    let app = tui::new_app::<Gateball>(Play {
        ruleset: rules(),
        seats: [None, None],
        seed: 0,
        load: Some((rec.clone(), Some(path.clone()))),
        bot_delay: std::time::Duration::ZERO,
    })
    .unwrap();
    assert_eq!(app.session().position(), b.app.session().position());
    assert_eq!(app.session().seat(1), &Seat::Bot("random".into()));
    assert_eq!(app.session().deal().seed, 7);
    assert!(app.dialog().is_none(), "the same rules: no warning");
    assert_eq!(app.session().save_path(), Some(path.as_path()));
}

#[test]
fn a_sim_record_replays_on_the_board_as_the_check_replays_it() {
    let cfg = ball::lab::sim::SimConfig {
        bots: ["random".into(), "random".into()],
        games: 4,
        seed: 0,
        records: true,
    };
    let results = ball::lab::sim::run::<Gateball>(&rules(), &cfg, 1, &|| {}).unwrap();
    let rec = Record::parse(results[3].record.as_ref().unwrap()).unwrap();
    let check = ball::lab::replay::replay::<Gateball>(&rec, &rules()).unwrap();
    let mut b = board(App::new(Session::replay(&rec, rules()).unwrap()));
    assert_eq!(b.app.session().position(), &check.start);
    b.key(KeyCode::Right);
    let s = b.screen();
    insta::assert_snapshot!("gateball_replay_step_1", s);
    assert!(s.contains(&format!("REPLAY 1/{}", check.steps.len())));
    b.key(KeyCode::End);
    assert_eq!(b.app.session().position(), check.last());
    assert_eq!(b.app.session().to_move(), None, "the record's game is over");
    b.key(KeyCode::Home);
    assert_eq!(b.app.session().position(), &check.start);
    b.keys("q");
    assert!(b.app.should_quit());
}
