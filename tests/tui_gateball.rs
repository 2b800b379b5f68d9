//! The Gateball board (`ball play --game gateball`), driven through its
//! input events (keys and mouse clicks, as the terminal delivers them) on
//! ratatui's `TestBackend`, with screens snapshotted by insta.
//!
//! Every snapshot was read before it was accepted. Text tells what colour
//! tells on a real terminal: `[ ]` around a reachable end space (`[r1`
//! where a ball's name leaves room for one bracket only), `( )` around the
//! chosen Start Space, path and end.
//!
//! Legality is the engine's: every test compares what the keys built with
//! `Gateball::legal` and `Gateball::play` of the same action text.

use std::collections::BTreeSet;

use ball::games::gateball::Gateball;
use ball::games::gateball::action::{self, Action, Motion};
use ball::games::gateball::event::{Event, PlayKind};
use ball::games::gateball::position::{Phase, Place, Position, ShotKind};
use ball::games::gateball::space::{Dir, Space};
use ball::kernel::rng::SplitMix64;
use ball::tui::gateball::app::{App, Dialog, Note, Seat};
use ball::tui::gateball::{self as gb, GateballPlayConfig, Level, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};
use ratatui::layout::Rect;

struct Board {
    app: App,
    terminal: Terminal<TestBackend>,
}

impl Board {
    fn new(app: App, w: u16, h: u16) -> Board {
        Board {
            app,
            terminal: Terminal::new(TestBackend::new(w, h)).unwrap(),
        }
    }

    fn area(&self) -> Rect {
        let s = self.terminal.size().unwrap();
        Rect::new(0, 0, s.width, s.height)
    }

    fn event(&mut self, ev: TermEvent) {
        let area = self.area();
        gb::handle_event(&mut self.app, &ev, area);
    }

    fn key(&mut self, code: KeyCode) {
        self.event(TermEvent::Key(KeyEvent::new_with_kind(
            code,
            KeyModifiers::NONE,
            KeyEventKind::Press,
        )));
    }

    fn keys(&mut self, text: &str) {
        for c in text.chars() {
            self.key(KeyCode::Char(c));
        }
    }

    fn click_at(&mut self, column: u16, row: u16) {
        self.event(TermEvent::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }));
    }

    /// Clicks a space where the layout draws it.
    fn click(&mut self, space: &str) {
        let s = Space::parse(space).unwrap();
        let screen = view::layout(self.area(), &self.app);
        let (x, y) = screen.board.cell(s);
        self.click_at(x + 1, y);
    }

    fn screen(&mut self) -> String {
        self.terminal.draw(|f| view::draw(f, &self.app)).unwrap();
        self.terminal.backend().to_string()
    }

    fn resize(&mut self, w: u16, h: u16) {
        self.terminal.backend_mut().resize(w, h);
        self.terminal.resize(Rect::new(0, 0, w, h)).unwrap();
    }
}

fn sp(name: &str) -> Space {
    Space::parse(name).unwrap()
}

fn act(text: &str) -> Action {
    action::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

fn start_events() -> Vec<Event> {
    vec![Event::Turn(1), Event::Play(1, PlayKind::Start)]
}

/// The start of a seed-0 game with these dice queued (T4.6).
fn start_with_dice(dice: &[u8]) -> Position {
    let mut pos = Position::start(SplitMix64::new(0));
    pos.dice_queue.extend(dice);
    pos
}

fn app_at(pos: Position, seats: [Seat; 2]) -> App {
    App::new(Gateball::standard(), pos, start_events(), seats, 7)
}

fn hot_seat(pos: Position) -> App {
    app_at(pos, [Seat::Human, Seat::Human])
}

/// `pos` after `actions`, each checked by the engine.
fn played(game: &Gateball, pos: &Position, actions: &[&str]) -> Position {
    let mut p = pos.clone();
    for a in actions {
        game.play(&mut p, act(a), &mut ())
            .unwrap_or_else(|e| panic!("{a}: {e}"));
    }
    p
}

/// The app's position replayed from its start through `Gateball::play`.
fn replayed(app: &App) -> Position {
    let mut p = app.start_position().clone();
    for &a in app.played() {
        app.game().play(&mut p, a, &mut ()).unwrap();
    }
    p
}

fn legal_text(game: &Gateball, pos: &Position) -> BTreeSet<String> {
    game.legal(pos).iter().map(|a| a.to_string()).collect()
}

#[test]
fn start_screen() {
    let mut b = Board::new(hot_seat(Position::start(SplitMix64::new(0))), 100, 30);
    let s = b.screen();
    insta::assert_snapshot!("gateball_start_100x30", s);
    // T1.9's court, row by row, as `ball show` writes its tokens.
    for row in [
        " 14  #  +  .  .  .  .  .  .  .  .  .  .  <  2  .  .  .  .  .  .  +  #",
        "  9  #  +  .  v  .  .  .  .  .  .  F  .  .  .  .  .  .  .  .  .  +  #",
        "  1  #  #  #  #  #  #  #  #  #  #  #  #  #  #  #  #  #  #  S  S  S  #",
    ] {
        assert!(s.contains(row), "{row}");
    }
    assert!(s.contains("red to play (you)"));
    assert!(s.contains("p power (two dice) or t tech (one die)"));
    assert!(s.contains("waiting r1 b2 r3"));
    assert!(s.contains("play 1 start"));
}

#[test]
fn a_wide_terminal_draws_the_court_exactly_as_ball_show() {
    let mut b = Board::new(hot_seat(Position::start(SplitMix64::new(0))), 130, 32);
    let s = b.screen();
    assert_eq!(view::layout(b.area(), &b.app).board.cw, 4);
    assert!(s.contains(
        " 14   #   +   .   .   .   .   .   .   .   .   .   .   <   2   .   .   .   .   .   .   +   #"
    ));
    assert!(s.contains(
        "      A   B   C   D   E   F   G   H   I   J   K   L   M   N   O   P   Q   R   S   T   U   V"
    ));
}

/// T4.3: power, the dice 2 6 rolled; a direction and the Start Space
/// chosen, the reachable ends highlighted.
#[test]
fn phase_move_screen() {
    let mut b = Board::new(hot_seat(start_with_dice(&[2, 6])), 100, 30);
    b.key(KeyCode::Char('p'));
    assert_eq!(b.app.position().phase, Phase::Move);
    assert_eq!(b.app.position().dice, [2, 6]);
    b.key(KeyCode::Tab); // S1 → T1
    b.key(KeyCode::Up);
    let s = b.screen();
    insta::assert_snapshot!("gateball_power_move_100x30", s);
    assert!(s.contains("action: shot T1 N 8 → scores gate 1, stops on T9"));
    assert_eq!(b.app.current_action(), Some(act("shot T1 N 8")));
    // T1 is the chosen Start Space, the path up to T9 is marked.
    assert!(s.contains("(S)"));
    assert!(s.contains("(^)"));
    // Every end from T1 is highlighted, and only those.
    let ends: BTreeSet<Space> = b
        .app
        .all_candidates()
        .iter()
        .filter(|c| c.start == Some(sp("T1")))
        .map(|c| c.end)
        .collect();
    assert_eq!(
        b.app.highlighted().into_iter().collect::<BTreeSet<_>>(),
        ends
    );
}

#[test]
fn keys_play_a_power_shot_and_a_tech_path_as_the_engine_does() {
    let game = Gateball::standard();
    let start = start_with_dice(&[2, 6, 4]);
    let mut b = Board::new(hot_seat(start.clone()), 100, 30);
    b.key(KeyCode::Char('p'));
    b.key(KeyCode::Tab);
    b.key(KeyCode::Char('8'));
    b.key(KeyCode::Enter);
    let want = played(&game, &start, &["power", "shot T1 N 8"]);
    assert_eq!(b.app.position(), &want);
    assert_eq!(b.app.played(), [act("power"), act("shot T1 N 8")]);

    // Ball 2's start: tech, a 4; the path S1 n n e n passes gate 1.
    b.key(KeyCode::Char('t'));
    assert_eq!(b.app.position().dice, [4]);
    assert_eq!(b.app.selection().start, Some(sp("S1")));
    b.key(KeyCode::Up);
    b.key(KeyCode::Up);
    b.key(KeyCode::Right);
    assert_eq!(b.app.current_action(), None, "three steps of four");
    b.key(KeyCode::Enter);
    assert_eq!(b.app.played().len(), 3, "an unfinished path is not played");
    b.key(KeyCode::Up);
    let s = b.screen();
    assert!(s.contains("action: shot S1 nnen → scores gate 1, stops on T4"));
    b.key(KeyCode::Enter);
    let want = played(
        &game,
        &start,
        &["power", "shot T1 N 8", "tech", "shot S1 nnen"],
    );
    assert_eq!(b.app.position(), &want);
    assert_eq!(b.app.position().ball_state(2).place, Place::Court(sp("T4")));
    let log: Vec<&str> = b.app.log().iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        log,
        [
            "turn 1",
            "play 1 start",
            "> power",
            "roll 2 6",
            "> shot T1 N 8",
            "gate 1 1",
            "at 1 T9",
            "endplay 1",
            "play 2 start",
            "> tech",
            "roll 4",
            "> shot S1 nnen",
            "gate 2 1",
            "at 2 T4",
            "endplay 2",
            "play 3 start",
        ]
    );
}

/// The keys that build `c`'s action from a fresh selection: Tab to its
/// Start Space, then the direction (the diagonal again for the other die)
/// or the steps.
fn keys_for(app: &App, text: &str) -> Vec<KeyCode> {
    let c = app
        .all_candidates()
        .iter()
        .find(|c| c.text == text)
        .unwrap();
    let mut keys = Vec::new();
    if let Some(s) = c.start {
        let starts = app.starts();
        let from = starts
            .iter()
            .position(|&x| Some(x) == app.selection().start)
            .unwrap();
        let to = starts.iter().position(|&x| x == s).unwrap();
        for _ in 0..(to + starts.len() - from) % starts.len() {
            keys.push(KeyCode::Tab);
        }
    }
    let digit = |d: Dir| match d {
        Dir::N => '8',
        Dir::NE => '9',
        Dir::E => '6',
        Dir::SE => '3',
        Dir::S => '2',
        Dir::SW => '1',
        Dir::W => '4',
        Dir::NW => '7',
    };
    match c.motion {
        Motion::Straight { dir, dist } => {
            keys.push(KeyCode::Char(digit(dir)));
            if !dir.is_orthogonal() && app.position().dice[0] != dist {
                keys.push(KeyCode::Char(']'));
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

/// Every selection the keys can reach from a fresh one (Tab, direction
/// and die keys, path steps, Backspace), by search: the whole actions
/// among them.
fn reachable_actions(app: &App) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut stack = vec![app.clone()];
    let keys = [
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Char('7'),
        KeyCode::Char('9'),
        KeyCode::Char('1'),
        KeyCode::Char('3'),
        KeyCode::Char('['),
        KeyCode::Char(']'),
        KeyCode::Backspace,
        KeyCode::Tab,
        KeyCode::BackTab,
    ];
    while let Some(a) = stack.pop() {
        assert_eq!(a.position(), app.position(), "building never plays");
        assert!(a.selection_is_consistent(), "{:?}", a.selection());
        if !seen.insert(format!("{:?}", a.selection())) {
            continue;
        }
        if let Some(x) = a.current_action() {
            found.insert(x.to_string());
        }
        for &k in &keys {
            let mut next = a.clone();
            next.key(KeyEvent::new(k, KeyModifiers::NONE));
            stack.push(next);
        }
    }
    found
}

/// T5.3: for a technical roll the path builder reaches exactly the
/// canonical legal list — each legal action built by its keys, and
/// nothing else built by any keys.
#[test]
fn the_path_builder_reaches_exactly_the_legal_paths() {
    let game = Gateball::standard();
    // A start shot with a 6: 321 paths from three Start Spaces.
    let mut start = start_with_dice(&[6]);
    game.play(&mut start, Action::Tech, &mut ()).unwrap();
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
    game.play(&mut mid, Action::Tech, &mut ()).unwrap();
    for pos in [start, mid] {
        assert_eq!(pos.phase, Phase::Move);
        assert_eq!(pos.shot, Some(ShotKind::Tech));
        let legal = legal_text(&game, &pos);
        let app = hot_seat(pos.clone());
        for text in &legal {
            let mut a = hot_seat(pos.clone());
            for k in keys_for(&app, text) {
                a.key(KeyEvent::new(k, KeyModifiers::NONE));
            }
            assert_eq!(a.action_text(), *text);
            assert_eq!(
                a.current_action().map(|x| x.to_string()),
                Some(text.clone())
            );
            a.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
            assert_eq!(a.position(), &played(&game, &pos, &[text]));
        }
        assert_eq!(reachable_actions(&app), legal);
    }
}

/// The same for a power roll with two different dice: every straight move
/// by its direction, the die and the Start Space.
#[test]
fn direction_die_and_start_keys_reach_exactly_the_legal_power_moves() {
    let game = Gateball::standard();
    let mut pos = start_with_dice(&[2, 5]);
    game.play(&mut pos, Action::Power, &mut ()).unwrap();
    let legal = legal_text(&game, &pos);
    assert!(legal.iter().any(|t| t.ends_with("NE 2")) && legal.iter().any(|t| t.ends_with("NE 5")));
    let app = hot_seat(pos.clone());
    for text in &legal {
        let mut a = hot_seat(pos.clone());
        for k in keys_for(&app, text) {
            a.key(KeyEvent::new(k, KeyModifiers::NONE));
        }
        assert_eq!(a.action_text(), *text);
        a.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        assert_eq!(a.position(), &played(&game, &pos, &[text]));
    }
    assert_eq!(reachable_actions(&app), legal);
}

#[test]
fn the_same_diagonal_again_switches_the_die() {
    let mut b = Board::new(hot_seat(start_with_dice(&[2, 5])), 100, 30);
    b.key(KeyCode::Char('p'));
    b.key(KeyCode::Tab); // T1
    b.key(KeyCode::Char('7'));
    assert_eq!(b.app.action_text(), "shot T1 NW 2");
    b.key(KeyCode::Char('7'));
    assert_eq!(b.app.action_text(), "shot T1 NW 5");
    b.key(KeyCode::Char('['));
    assert_eq!(b.app.action_text(), "shot T1 NW 2");
    b.key(KeyCode::Esc);
    assert_eq!(b.app.current_action(), None);
    assert_eq!(b.app.action_text(), "shot T1");
}

#[test]
fn a_click_chooses_a_highlighted_end_and_a_second_click_plays_it() {
    let game = Gateball::standard();
    let start = start_with_dice(&[2, 6]);
    let mut b = Board::new(hot_seat(start.clone()), 100, 30);
    b.key(KeyCode::Char('p'));
    b.screen();
    b.click("K5"); // not reachable: nothing happens
    assert_eq!(b.app.current_action(), None);
    b.click("T9");
    assert_eq!(
        b.app.action_text(),
        "shot T1 N 8",
        "the Start Space follows"
    );
    b.click("T9");
    assert_eq!(
        b.app.position(),
        &played(&game, &start, &["power", "shot T1 N 8"])
    );
}

#[test]
fn a_tech_path_is_extended_by_clicking_next_to_its_head() {
    let game = Gateball::standard();
    let start = start_with_dice(&[4]);
    let mut b = Board::new(hot_seat(start.clone()), 100, 30);
    b.key(KeyCode::Char('t'));
    b.screen();
    for s in ["S2", "S3", "T3", "T4"] {
        b.click(s);
    }
    assert_eq!(b.app.action_text(), "shot S1 nnen");
    let s = b.screen();
    insta::assert_snapshot!("gateball_tech_path_100x30", s);
    assert!(s.contains("(^)"), "the path is marked through gate 1");
    b.click("T4");
    assert_eq!(
        b.app.position(),
        &played(&game, &start, &["tech", "shot S1 nnen"])
    );
}

#[test]
fn steps_no_legal_path_takes_are_refused() {
    let mut b = Board::new(hot_seat(start_with_dice(&[3])), 100, 30);
    b.key(KeyCode::Char('t'));
    b.key(KeyCode::Down); // S1 south: the Outside Line runs along, T9.2
    assert!(b.app.selection().steps.is_empty());
    assert!(matches!(b.app.message(), Some((Note::Info, _))));
    b.key(KeyCode::Up);
    b.key(KeyCode::Down); // back to the origin, T5.3
    assert_eq!(b.app.selection().steps, [Dir::N]);
    b.key(KeyCode::Backspace);
    assert!(b.app.selection().steps.is_empty());
}

#[test]
fn end_is_offered_only_for_a_continuation() {
    let game = Gateball::standard();
    // The worked example of docs/rules/gateball-notation.md: ball 3 touches
    // ball 1 and sparks it.
    let mut pos = Position::start(SplitMix64::new(0));
    pos.ball_mut(1).place = Place::Court(sp("T9"));
    pos.ball_mut(1).gates = 1;
    pos.ball = 3;
    pos.dice_queue.extend([2, 6, 4, 1]);
    let start = pos.clone();
    let mut b = Board::new(hot_seat(pos), 100, 30);
    b.key(KeyCode::Char('e'));
    assert!(b.app.played().is_empty());
    b.key(KeyCode::Char('p'));
    b.key(KeyCode::Tab);
    b.key(KeyCode::Up);
    b.key(KeyCode::Enter);
    assert_eq!(b.app.position().phase, Phase::Spark);
    let s = b.screen();
    insta::assert_snapshot!("gateball_spark_100x30", s);
    assert!(s.contains("spark ball 1 (power 4 1)"));
    b.key(KeyCode::Left);
    assert_eq!(b.app.action_text(), "spark W 5");
    b.key(KeyCode::Enter);
    assert!(b.app.position().continuation);
    b.key(KeyCode::Char('e'));
    assert_eq!(
        b.app.position(),
        &played(&game, &start, &["power", "shot T1 N 8", "spark W 5", "end"])
    );
}

/// Random keys and clicks on random screen sizes never panic, never leave
/// a selection the legal list does not continue, and never record an
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
    let chars = "ptepptt123456789[]? x\u{e9}\u{0}q";
    let mut finished = 0;
    for seed in 0..8u64 {
        let mut rng = SplitMix64::new(seed);
        let seats = if seed % 2 == 0 {
            [Seat::Human, Seat::Human]
        } else {
            [Seat::Human, Seat::Bot(Level::Random)]
        };
        let app = App::new(
            Gateball::standard(),
            Position::start(SplitMix64::new(seed)),
            start_events(),
            seats,
            seed,
        );
        let mut b = Board::new(app, 100, 30);
        for _ in 0..3000 {
            match rng.below(24) {
                0 => {
                    let (w, h) = [(100, 30), (80, 24), (130, 40), (98, 29), (20, 5)][rng.below(5)];
                    b.resize(w, h);
                }
                1..=5 => {
                    let (w, h) = (b.area().width.max(1), b.area().height.max(1));
                    b.click_at(rng.below(w as usize) as u16, rng.below(h as usize) as u16);
                }
                6 => {
                    // A click on a highlighted space, where there is one.
                    let hl = b.app.highlighted();
                    if !hl.is_empty() {
                        let s = hl[rng.below(hl.len())];
                        b.click(&s.to_string());
                    }
                }
                7..=11 => b.key(codes[rng.below(codes.len())]),
                _ => {
                    let n = chars.chars().count();
                    b.key(KeyCode::Char(chars.chars().nth(rng.below(n)).unwrap()));
                }
            }
            if b.app.dialog().is_some() {
                b.key(KeyCode::Esc);
            }
            b.app.step();
            if rng.below(8) == 0 {
                b.screen();
            }
            assert!(b.app.selection_is_consistent(), "{:?}", b.app.selection());
            assert!(
                !matches!(b.app.message(), Some((Note::Error, _))),
                "{:?}",
                b.app.message()
            );
            if let Some(a) = b.app.current_action() {
                assert!(b.app.game().legal(b.app.position()).contains(&a));
            }
            if b.app.position().is_over() {
                finished += 1;
                break;
            }
        }
        assert!(!b.app.should_quit());
        assert_eq!(&replayed(&b.app), b.app.position());
    }
    eprintln!("{finished} of 8 random-key games reached their end");
}

/// Two bots play a whole game through the app's step function.
#[test]
fn bots_play_a_game_to_the_end() {
    for level in [Level::Random, Level::Greedy] {
        let app = App::new(
            Gateball::standard(),
            Position::start(SplitMix64::new(3)),
            start_events(),
            [Seat::Bot(level), Seat::Bot(level)],
            11,
        );
        let mut b = Board::new(app, 100, 30);
        let mut n = 0;
        while b.app.step() {
            n += 1;
            assert!(n < 10_000, "the game ends");
            if n % 50 == 0 {
                b.screen();
            }
        }
        assert!(b.app.position().is_over());
        assert_eq!(&replayed(&b.app), b.app.position());
        let last = &b.app.log().last().unwrap().text;
        assert!(last.starts_with("over "), "{last}");
        let s = b.screen();
        assert!(s.contains("GAME OVER"), "{s}");
        assert!(s.contains("game over: "), "{s}");
        // A finished game quits without asking.
        b.key(KeyCode::Char('q'));
        assert!(b.app.should_quit());
    }
    // The same seeds give the same game (the bots' RNG travels with the
    // requests the terminal's bot thread answers).
    let game = |seed| {
        let mut a = App::new(
            Gateball::standard(),
            Position::start(SplitMix64::new(3)),
            start_events(),
            [Seat::Bot(Level::Random), Seat::Bot(Level::Random)],
            seed,
        );
        while a.step() {}
        a.played().to_vec()
    };
    assert_eq!(game(5), game(5));
}

#[test]
fn a_bot_seat_waits_for_no_keys_and_stale_answers_are_dropped() {
    let mut b = Board::new(
        app_at(
            start_with_dice(&[2, 6]),
            [Seat::Human, Seat::Bot(Level::Random)],
        ),
        100,
        30,
    );
    assert!(b.app.bot_request().is_none(), "red is the person");
    b.keys("p");
    b.key(KeyCode::Tab);
    b.keys("8");
    b.key(KeyCode::Enter);
    assert_eq!(b.app.position().ball, 2);
    let req = b.app.bot_request().expect("blue's bot is asked");
    b.keys("p");
    assert_eq!(
        b.app.version(),
        req.version,
        "keys do nothing on a bot's turn"
    );
    let s = b.screen();
    assert!(s.contains("blue (random bot) is playing ball 2"), "{s}");
    let (a, rng) = App::bot_choose(b.app.game(), &req);
    assert!(!b.app.bot_answer(req.version + 1, a, rng), "stale");
    // A dialog pauses the bot.
    b.key(KeyCode::Char('?'));
    assert!(b.app.bot_request().is_none());
    assert!(!b.app.bot_answer(req.version, a, rng), "paused");
    b.key(KeyCode::Esc);
    assert!(b.app.bot_answer(req.version, a, rng));
    assert!(!b.app.bot_answer(req.version, a, rng), "answered once");
}

#[test]
fn a_too_small_terminal_says_so_and_q_still_asks() {
    let mut b = Board::new(hot_seat(Position::start(SplitMix64::new(0))), 80, 24);
    let s = b.screen();
    insta::assert_snapshot!("gateball_too_small", s);
    assert!(s.contains("Terminal too small: 80x24."));
    b.keys("p");
    assert!(b.app.played().is_empty(), "nothing is chosen blind");
    b.key(KeyCode::Char('q'));
    assert_eq!(b.app.dialog(), Some(Dialog::ConfirmQuit));
    b.key(KeyCode::Char('n'));
    assert!(!b.app.should_quit());
    b.resize(100, 30);
    let s = b.screen();
    assert!(s.contains("court standard"));
    b.key(KeyCode::Char('q'));
    let s = b.screen();
    assert!(s.contains("The game is not over."));
    b.key(KeyCode::Char('y'));
    assert!(b.app.should_quit());
}

#[test]
fn the_log_scrolls_back_and_returns() {
    let mut app = app_at(
        Position::start(SplitMix64::new(1)),
        [Seat::Bot(Level::Random), Seat::Bot(Level::Random)],
    );
    for _ in 0..60 {
        app.step();
    }
    let mut b = Board::new(app, 100, 30);
    let newest = b.app.log().last().unwrap().text.clone();
    let s = b.screen();
    assert!(s.contains(&newest));
    b.key(KeyCode::PageUp);
    b.key(KeyCode::PageUp);
    let s = b.screen();
    assert!(s.contains("newer (PgDn)"), "{s}");
    b.key(KeyCode::PageDown);
    b.key(KeyCode::PageDown);
    let s = b.screen();
    assert!(!s.contains("newer (PgDn)"));
}

#[test]
fn the_config_builds_the_app() {
    let config = GateballPlayConfig {
        game: Gateball::standard(),
        start: Position::start(SplitMix64::new(9)),
        events: start_events(),
        seats: [Seat::Human, Seat::Bot(Level::Greedy)],
        seed: 4,
        delay: std::time::Duration::from_millis(300),
    };
    let app = gb::new_app(&config);
    assert_eq!(app.position(), &config.start);
    assert_eq!(app.log().len(), 2);
    assert_eq!(
        app.seat(ball::games::gateball::position::Team::Blue),
        Seat::Bot(Level::Greedy)
    );
}

/// T12.5: a finished game shows the winner and the score, and `q` quits
/// without asking.
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
    pos.winner = Some(ball::games::gateball::position::Winner::Team(
        ball::games::gateball::position::Team::Red,
    ));
    let mut b = Board::new(hot_seat(pos), 100, 30);
    let s = b.screen();
    insta::assert_snapshot!("gateball_game_over_100x30", s);
    assert!(s.contains("GAME OVER  red wins 6-2"));
    assert!(s.contains("goal r1"));
    assert!(s.contains(" game over · PgUp/PgDn log · q quit"));
    b.keys("pt");
    assert!(b.app.played().is_empty());
    b.key(KeyCode::Char('q'));
    assert!(b.app.should_quit());
}
