//! The interactive board, driven through its input events (keys and mouse
//! clicks, exactly as the terminal delivers them) on ratatui's
//! `TestBackend`, with the screen snapshotted by insta.
//!
//! Every snapshot was read before it was accepted. Text tells what colour
//! tells on a real terminal: `[ ]` marks a square that may be chosen,
//! `( )` what was chosen; `+ ⊖ ◇` are down pieces, `●` the ball.
//!
//! Card mode (B11) is played under the `cards` ruleset: the card menu
//! (`c`), a card's targets chosen on the board, `convert N`.

use ball::games::ball::action::Action;
use ball::games::ball::board::Sq;
use ball::games::ball::piece::{PieceId, Team};
use ball::games::ball::position::Position;
use ball::games::ball::ruleset::Ruleset;
use ball::kernel::record::Record;
use ball::kernel::rng::SplitMix64;
use ball::tui::app::{App, Choice, Dialog, Level, Seat};
use ball::tui::history::History;
use ball::tui::{self, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
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

    fn event(&mut self, ev: Event) {
        let area = self.area();
        tui::handle_event(&mut self.app, &ev, area);
    }

    fn key(&mut self, code: KeyCode) {
        self.event(Event::Key(KeyEvent::new_with_kind(
            code,
            KeyModifiers::NONE,
            KeyEventKind::Press,
        )));
    }

    fn ctrl(&mut self, c: char) {
        self.event(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::CONTROL,
        )));
    }

    fn keys(&mut self, text: &str) {
        for c in text.chars() {
            self.key(KeyCode::Char(c));
        }
    }

    fn click_at(&mut self, column: u16, row: u16) {
        self.event(Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }));
    }

    /// Clicks the middle of a square, where the layout draws it.
    fn click(&mut self, square: &str) {
        let sq = Sq::parse(square).unwrap();
        let screen = view::layout(self.area(), &self.app);
        let c = sq.coord();
        let (x, y) = screen.board.cell(c.col, c.row);
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

fn hot_seat() -> App {
    App::new_game(Ruleset::standard(), [Seat::Human, Seat::Human], None)
}

/// A two-person game after `actions` (each checked by the kernel).
fn after(actions: &[&str]) -> App {
    let rs = Ruleset::standard();
    let mut rec = Record::new("ball");
    rec.actions = actions.iter().map(|s| s.to_string()).collect();
    let (history, _) = History::from_record(&rec, &rs).unwrap();
    App::new(rs, history, [Seat::Human, Seat::Human], None)
}

fn last_action(app: &App) -> String {
    app.history().played().last().unwrap().action.to_string()
}

/// The screen without its two footer lines (message and keys).
fn board_part(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    lines[..lines.len() - 2].join("\n")
}

#[test]
fn start_position() {
    let mut b = Board::new(hot_seat(), 80, 24);
    let s = b.screen();
    insta::assert_snapshot!("start_80x24", s);
    assert!(s.contains("DEF to play (you)"));
    assert!(s.contains("turn 1/60"));
    assert!(s.contains("AP 2"));
}

#[test]
fn a_larger_terminal_gets_larger_squares_and_a_legend() {
    let mut b = Board::new(hot_seat(), 100, 30);
    let s = b.screen();
    insta::assert_snapshot!("start_100x30", s);
    assert!(s.contains("X3/O2 stack"));
    let area = b.area();
    assert_eq!(view::layout(area, &b.app).board.cw, 5);
    let mut tall = Board::new(hot_seat(), 120, 42);
    let _ = tall.screen();
    assert_eq!(view::layout(tall.area(), &tall.app).board.ch, 2);
}

#[test]
fn a_piece_selected_shows_its_destinations() {
    let mut b = Board::new(hot_seat(), 80, 24);
    b.click("I11"); // DEF3, an X: it can only move, so the menu is skipped
    let s = b.screen();
    insta::assert_snapshot!("def3_selected", s);
    assert!(s.contains("(X3)"), "the chosen piece is marked");
    for dest in ["H10", "G9", "J10", "K9", "H12", "J12", "K13"] {
        assert!(s.contains(dest), "{dest} listed");
    }
    let want: Vec<Choice> = ["G9", "H10", "H12", "J10", "J12", "K9", "K13"]
        .iter()
        .map(|s| Choice::Square(Sq::parse(s).unwrap()))
        .collect();
    let mut got = b.app.options();
    got.sort();
    assert_eq!(got, want, "exactly the kernel's move destinations");
}

#[test]
fn a_piece_with_several_actions_gets_a_menu() {
    let mut b = Board::new(hot_seat(), 80, 24);
    b.click("G13"); // DEF5 can move or protect DEF6/DEF7
    let s = b.screen();
    insta::assert_snapshot!("def5_action_menu", s);
    assert!(b.app.menu_step());
    // The second entry, protect, highlights the team-mates it may stack on.
    b.key(KeyCode::Down);
    let s = b.screen();
    assert!(s.contains("[X6]") && s.contains("[□7]"), "{s}");
    b.key(KeyCode::Enter);
    b.click("F14");
    assert_eq!(last_action(&b.app), "protect DEF5 F14");
}

#[test]
fn the_keyboard_alone_plays_an_action() {
    let mut b = Board::new(hot_seat(), 80, 24);
    // Tab cycles the pieces that can act; Enter chooses; Tab again cycles
    // the destinations.
    b.key(KeyCode::Tab);
    let first = b.app.cursor();
    b.key(KeyCode::Enter);
    assert!(!b.app.chosen().is_empty());
    assert_eq!(
        b.app.chosen()[0],
        Choice::Piece(b.app.position().piece_at(first).unwrap())
    );
    if b.app.menu_step() {
        b.key(KeyCode::Enter);
    }
    b.key(KeyCode::Tab);
    b.key(KeyCode::Enter);
    assert_eq!(b.app.history().played().len(), 1);
    // Arrows and hjkl move the cursor over playable squares only.
    for c in "kkkkllllhhjjjjjjjjjjjjjjjjjjjjj".chars() {
        b.key(KeyCode::Char(c));
        let _ = b.app.cursor();
    }
    for code in [KeyCode::Up, KeyCode::Right, KeyCode::Down, KeyCode::Left] {
        b.key(code);
    }
}

/// The position after DEF3 moved next to ATK3's diagonal: ATK3 can dodge.
fn dodge_ready() -> App {
    after(&["move DEF3 K9", "end"])
}

#[test]
fn a_dodge_asks_for_its_exit_and_esc_leaves_the_game_unchanged() {
    let mut b = Board::new(dodge_ready(), 80, 24);
    let before = b.screen();
    let pos = *b.app.position();
    b.click("I7"); // ATK3
    b.screen();
    assert!(b.app.menu_step(), "ATK3 can move or dodge");
    let dodge = b
        .app
        .options()
        .iter()
        .position(|c| *c == Choice::Verb(ball::tui::app::Verb::Dodge))
        .unwrap();
    b.key(KeyCode::Char(char::from(b'1' + dodge as u8)));
    b.click("K9");
    let s = b.screen();
    insta::assert_snapshot!("dodge_asks_exit", s);
    assert_eq!(b.app.prompt(), "dodge DEF3: choose the exit square");
    let exits: Vec<String> = b
        .app
        .options()
        .iter()
        .map(|c| match c {
            Choice::Square(s) => s.to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    let mut want: Vec<String> = b
        .app
        .history()
        .game()
        .canonical_legal(&pos)
        .iter()
        .filter_map(|a| a.strip_prefix("dodge ATK3 K9 ").map(str::to_string))
        .collect();
    want.sort();
    let mut exits_sorted = exits.clone();
    exits_sorted.sort();
    assert_eq!(exits_sorted, want, "the exits are the kernel's");

    b.key(KeyCode::Esc);
    let s = b.screen();
    insta::assert_snapshot!("dodge_cancelled", s);
    assert_eq!(*b.app.position(), pos);
    assert!(b.app.chosen().is_empty());
    assert_eq!(
        board_part(&s),
        board_part(&before),
        "ESC restores the board"
    );
}

#[test]
fn a_down_piece_is_drawn_rotated() {
    let mut app = dodge_ready();
    let exit = app
        .history()
        .game()
        .canonical_legal(app.position())
        .into_iter()
        .find(|a| a.starts_with("dodge ATK3 K9"))
        .unwrap();
    let mut b = Board::new(std::mem::replace(&mut app, hot_seat()), 80, 24);
    b.click("I7");
    b.keys("2"); // dodge is the second entry (move, dodge)
    b.click("K9");
    b.click(exit.rsplit(' ').next().unwrap());
    assert_eq!(last_action(&b.app), exit);
    b.click("K9"); // the cursor onto the down piece: the footer tells
    let s = b.screen();
    insta::assert_snapshot!("down_piece", s);
    assert!(s.contains("+3"), "DEF3 down on K9 is drawn +3");
    assert!(s.contains("DEF3 (X) down"));
    assert!(s.contains("DEF3 is knocked"), "the log says it");
}

#[test]
fn a_stack_shows_top_and_bottom() {
    let mut b = Board::new(after(&["protect DEF5 F14"]), 80, 24);
    b.click("F14");
    let s = b.screen();
    insta::assert_snapshot!("stack", s);
    assert!(s.contains("X5/X6"));
    assert!(s.contains("stack, DEF5 (X) protects DEF6 (X)"));
}

#[test]
fn a_loose_ball_lies_on_its_square() {
    let mut b = Board::new(after(&["end", "lpass ATK5 G11"]), 80, 24);
    let s = b.screen();
    insta::assert_snapshot!("loose_ball", s);
    let g11_line = s.lines().find(|l| l.contains("11 ")).unwrap();
    assert!(g11_line.contains('●'), "{g11_line}");
    assert!(!s.contains("X5●"), "ATK5 no longer holds it");
}

#[test]
fn the_release_phase_offers_the_tasks() {
    // ATK3 dodges DEF3, which is down; DEF ends: standing up is its task.
    let dodge = {
        let app = dodge_ready();
        app.history()
            .game()
            .canonical_legal(app.position())
            .into_iter()
            .find(|a| a.starts_with("dodge ATK3 K9"))
            .unwrap()
    };
    let mut b = Board::new(
        after(&["move DEF3 K9", "end", &dodge, "end", "end"]),
        80,
        24,
    );
    let s = b.screen();
    insta::assert_snapshot!("release_phase", s);
    assert!(s.contains("release phase"));
    assert_eq!(
        b.app.options(),
        vec![Choice::Piece(PieceId::new(Team::Def, 3))],
        "DEF3's stand-up is the only task"
    );
    b.key(KeyCode::Char('e'));
    assert!(b.app.message().unwrap().1.contains("B10.1"), "no `end` now");
    b.click("K9");
    let s = b.screen();
    insta::assert_snapshot!("release_phase_standup", s);
    let dest = match b.app.options()[0] {
        Choice::Square(s) => s,
        other => panic!("{other:?}"),
    };
    b.click(&dest.to_string());
    assert_eq!(last_action(&b.app), format!("standup DEF3 {dest}"));
    assert_eq!(
        b.app.position().to_move,
        Team::Atk,
        "no task left: turn passes"
    );
}

#[test]
fn other_actions_are_offered_whole_from_the_legal_list() {
    // Today the menu holds `end`; `convert N` and card actions (B11) land
    // in it from the legal list with no change to the board.
    let mut b = Board::new(hot_seat(), 80, 24);
    b.key(KeyCode::Char('a'));
    let s = b.screen();
    insta::assert_snapshot!("other_actions_menu", s);
    assert_eq!(b.app.whole_actions(), &[Action::End]);
    // A click on the entry plays it.
    let screen = view::layout(b.area(), &b.app);
    let (r, _) = screen.dialog_items[0];
    b.click_at(r.x + 2, r.y);
    assert_eq!(last_action(&b.app), "end");
    assert!(b.app.dialog().is_none());
}

#[test]
fn game_over() {
    // ATK5 one step from the end zone with two touchdowns already.
    let rs = Ruleset::standard();
    let game = rs.game();
    let mut start = Position::start(&game.params);
    start.to_move = Team::Atk;
    start.score = [2, 1];
    start.piece_mut(PieceId::new(Team::Atk, 5)).at = Sq::parse("G15").unwrap();
    let app = App::new(
        rs,
        History::new(game, start),
        [Seat::Human, Seat::Human],
        None,
    );
    let mut b = Board::new(app, 80, 24);
    b.click("G15");
    b.click("H16");
    let s = b.screen();
    insta::assert_snapshot!("game_over", s);
    assert!(s.contains("GAME OVER"));
    assert!(s.contains("ATK wins, ATK 3 - DEF 1"));
    assert!(b.app.options().is_empty());
    // Nothing can be chosen any more; undo still works.
    b.click("H16");
    b.key(KeyCode::Char('e'));
    assert_eq!(b.app.history().played().len(), 1);
    b.key(KeyCode::Char('u'));
    assert!(!b.app.position().is_over());
    let rec = b.app.record();
    assert!(rec.get("start").is_some(), "a custom start is recorded");
}

#[test]
fn a_too_small_terminal_says_so_and_recovers() {
    let mut b = Board::new(hot_seat(), 60, 20);
    let s = b.screen();
    insta::assert_snapshot!("too_small", s);
    assert!(s.contains("too small"));
    // Keys and clicks do nothing blind...
    b.keys("e1");
    b.key(KeyCode::Enter);
    b.click_at(10, 10);
    assert!(b.app.history().played().is_empty());
    assert!(b.app.chosen().is_empty());
    // ...and the board is back as soon as there is room.
    b.resize(80, 24);
    let s = b.screen();
    assert!(s.contains("DEF to play"));
    b.resize(1, 1);
    b.screen();
    b.resize(0, 0);
    b.terminal.draw(|f| view::draw(f, &b.app)).unwrap();
    b.resize(80, 24);
    let again = b.screen();
    assert_eq!(again, Board::new(hot_seat(), 80, 24).screen());
}

#[test]
fn quitting_an_unsaved_game_asks_even_on_a_tiny_screen() {
    let mut b = Board::new(hot_seat(), 80, 24);
    b.key(KeyCode::Char('e'));
    b.resize(30, 10);
    b.ctrl('c');
    assert_eq!(b.app.dialog(), Some(&Dialog::ConfirmQuit));
    assert!(b.screen().contains("y quits"));
    b.key(KeyCode::Char('n'));
    assert!(!b.app.should_quit());
    b.key(KeyCode::Char('q'));
    b.key(KeyCode::Char('y'));
    assert!(b.app.should_quit());
}

#[test]
fn a_bots_moves_appear_in_the_log() {
    let app = App::new_game(
        Ruleset::standard(),
        [Seat::Bot("random".into()), Seat::Human],
        Some(7),
    );
    let mut b = Board::new(app, 80, 24);
    b.click("I11");
    b.click("H10");
    b.key(KeyCode::Char('e'));
    b.screen();
    assert_eq!(b.app.prompt(), "ATK (random bot) is playing");
    assert!(
        b.app.options().is_empty(),
        "nothing to choose on the bot's turn"
    );
    b.click("C11");
    assert!(b.app.chosen().is_empty());
    // One bot action at a time, as the terminal loop does.
    let game = b.app.history().game().clone();
    let mut bot = ball::bots::from_spec("random", 7).unwrap();
    let mut n = 0;
    while let Some(req) = b.app.bot_request() {
        let legal = game.legal(&req.position);
        let a = bot.choose(&game, &req.position, &legal);
        assert!(b.app.bot_played(req.version, a));
        n += 1;
        let s = b.screen();
        assert!(
            s.contains(&a.to_string()[..a.to_string().len().min(15)]),
            "{a} logged"
        );
    }
    assert!(n >= 1);
    let s = b.screen();
    insta::assert_snapshot!("after_bot_turn", s);
    // Undo takes back the bot's turn and DEF's `end` together.
    b.key(KeyCode::Char('u'));
    assert_eq!(b.app.history().played().len(), 1);
    assert!(b.app.human_to_move());
}

#[test]
fn save_load_and_replay() {
    let dir = std::env::temp_dir().join(format!("ball-tui-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.txt");
    let mut b = Board::new(hot_seat(), 80, 24);
    b.click("I11");
    b.click("H10");
    b.key(KeyCode::Char('e'));
    b.key(KeyCode::Char('s'));
    // Replace the suggested name with ours.
    for _ in 0..40 {
        b.key(KeyCode::Backspace);
    }
    b.keys(path.to_str().unwrap());
    b.key(KeyCode::Enter);
    assert!(b.app.dialog().is_none(), "{:?}", b.app.message());
    assert!(!b.app.is_dirty());
    b.key(KeyCode::Char('q'));
    assert!(b.app.should_quit(), "saved: quits without asking");

    let text = std::fs::read_to_string(&path).unwrap();
    let rec = Record::parse(&text).unwrap();
    assert_eq!(
        rec.get("ruleset-hash"),
        Some(Ruleset::standard().fingerprint().as_str())
    );
    assert_eq!(rec.get("DEF"), Some("human"));
    assert_eq!(rec.actions, vec!["move DEF3 H10", "end"]);

    // --load continues it, undo reaches into the loaded actions.
    let config = tui::PlayConfig {
        ruleset: Ruleset::standard(),
        seats: [Seat::Human, Seat::Human],
        seed: 0,
        load: Some(path.clone()),
        bot_delay: std::time::Duration::ZERO,
    };
    let mut app = tui::new_app(&config).unwrap();
    assert_eq!(app.history().actions(), b.app.history().actions());
    assert_eq!(app.message().unwrap().0, Level::Info);
    app.undo();
    assert_eq!(app.history().played().len(), 1);

    // The replay viewer steps forwards and back.
    let (history, _) = History::from_record(&rec, &Ruleset::standard()).unwrap();
    let mut r = Board::new(App::for_replay(Ruleset::standard(), history), 80, 24);
    assert!(r.app.history().played().is_empty());
    r.key(KeyCode::Right);
    let s = r.screen();
    insta::assert_snapshot!("replay_step_1", s);
    assert!(s.contains("REPLAY 1/2"));
    r.key(KeyCode::End);
    assert_eq!(r.app.history().played().len(), 2);
    r.key(KeyCode::Left);
    r.key(KeyCode::Home);
    assert!(r.app.history().played().is_empty());
    r.key(KeyCode::Char('q'));
    assert!(r.app.should_quit(), "a replay never asks");

    // A broken record is refused with the action's number.
    std::fs::write(&path, "format: 1\nactions:\nmove DEF3 H10\nmove DEF3 Z1\n").unwrap();
    let e = tui::new_app(&config).err().unwrap();
    assert!(e.contains("action 2 of 2"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Random keys and clicks on random screen sizes never panic and never
/// record an action the kernel does not allow.
#[test]
fn nothing_typed_breaks_the_game() {
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
        KeyCode::End,
        KeyCode::Delete,
        KeyCode::F(5),
        KeyCode::Null,
    ];
    let chars = "hjkl 123456789eauarz?xq\u{e9}\u{1b}\u{0}";
    for seed in 0..12u64 {
        let mut rng = SplitMix64::new(seed);
        let mut b = Board::new(hot_seat(), 80, 24);
        for _ in 0..1500 {
            match rng.below(20) {
                0 => {
                    let (w, h) = [(80, 24), (100, 30), (40, 10), (79, 23), (130, 45)][rng.below(5)];
                    b.resize(w, h);
                }
                1..=6 => {
                    let (w, h) = (b.area().width.max(1), b.area().height.max(1));
                    b.click_at(rng.below(w as usize) as u16, rng.below(h as usize) as u16);
                }
                7..=9 => b.key(codes[rng.below(codes.len())]),
                _ => {
                    let c = chars.chars().nth(rng.below(chars.chars().count())).unwrap();
                    if c == 'y' || (c == 'q' && rng.below(2) == 0) {
                        continue;
                    }
                    b.key(KeyCode::Char(c));
                }
            }
            if b.app.should_quit() {
                break;
            }
            if b.app.dialog() == Some(&Dialog::ConfirmQuit) {
                b.key(KeyCode::Esc);
            }
            if b.app
                .dialog()
                .is_some_and(|d| matches!(d, Dialog::Save { .. }))
            {
                b.key(KeyCode::Esc);
            }
            if rng.below(10) == 0 {
                b.screen();
            }
            assert!(
                !matches!(b.app.message(), Some((Level::Error, _))),
                "{:?}",
                b.app.message()
            );
        }
        // Every recorded action replays under the kernel's own check.
        let rs = Ruleset::standard();
        let game = rs.game();
        let mut pos = Position::start(&game.params);
        for p in b.app.history().played() {
            game.play(&mut pos, p.action, &mut ()).unwrap();
        }
        assert_eq!(&pos, b.app.position());
        assert!(!b.app.should_quit() || !b.app.is_dirty());
    }
}

#[test]
fn a_short_pass_marks_where_the_ball_arrived() {
    // B8.2: the reception square is drawn as where the ball arrived.
    let mut b = Board::new(after(&["end", "spass ATK5 ATK2 F6"]), 80, 24);
    let s = b.screen();
    let row6 = s.lines().find(|l| l.starts_with("\"│ 6")).unwrap();
    assert!(row6.contains('∘'), "{row6}");
    assert!(s.contains("O2●"), "ATK2 holds the ball");
    // Gone after the next action.
    b.key(KeyCode::Char('e'));
    assert!(!b.screen().contains('∘'));
}

// ---- card mode (B11) ----

/// A two-person card-mode game at its start, DEF to move with `ep` EP and
/// `ap` AP.
fn cards_app(ep: u32, ap: u8) -> App {
    let rs = Ruleset::load("cards").unwrap();
    let game = rs.game();
    assert!(game.card_mode());
    let mut start = Position::start(&game.params);
    start.ep = [0, ep];
    start.ap = ap;
    App::new(
        rs,
        History::new(game, start),
        [Seat::Human, Seat::Human],
        None,
    )
}

/// The legal card actions of the position, in the notation.
fn legal_cards(app: &App) -> Vec<String> {
    app.history()
        .game()
        .canonical_legal(app.position())
        .into_iter()
        .filter(|a| a.starts_with("card "))
        .collect()
}

/// Highlights the card menu's entry named `name`.
fn select_card(b: &mut Board, name: &str) {
    let i = b.app.cards().iter().position(|c| c.name == name).unwrap();
    for _ in 0..20 {
        b.key(KeyCode::Up);
    }
    for _ in 0..i {
        b.key(KeyCode::Down);
    }
    assert_eq!(b.app.card_menu_card().unwrap().name, name);
}

#[test]
fn the_card_menu_lists_the_cards_with_their_rules_text() {
    let mut b = Board::new(cards_app(3, 2), 80, 24);
    let s = b.screen();
    assert!(s.contains("EP ATK 0 DEF 3"), "EP in the status line");
    b.key(KeyCode::Char('c'));
    let s = b.screen();
    insta::assert_snapshot!("card_menu", s);
    assert!(s.contains("cards · DEF has 3 EP, 2 AP"));
    // Every card, its costs, and the highlighted one's text in full.
    for c in b.app.cards() {
        assert!(s.contains(&c.name), "{} listed", c.name);
    }
    assert!(s.contains("2/2 left"), "Switch's uses");
    assert!(s.contains("straight ahead along a diagonal"));
    assert!(s.contains("restricted afterwards."), "the last words too");
    assert!(s.contains("convert 1") && s.contains("convert 2"));
    // Playable exactly when a `card <id> …` action is legal.
    let legal = legal_cards(&b.app);
    for c in b.app.cards() {
        let want = legal
            .iter()
            .any(|a| a.split(' ').nth(1) == Some(c.id.name()));
        assert_eq!(b.app.card_playable(c.id), want, "{}", c.name);
    }
    let switch = b
        .app
        .cards()
        .iter()
        .position(|c| c.name == "Switch")
        .unwrap();
    assert!(s.lines().nth(3 + switch).unwrap().contains("✓ Switch"));
    assert!(!s.contains("✓ Magnet"), "3 EP but no target at the start");
    // Down: the next card's text.
    select_card(&mut b, "Shove");
    let s = b.screen();
    assert!(
        s.contains("Shove (2 EP)") && s.contains("pushes an adjacent"),
        "{s}"
    );
    assert!(!s.contains("straight ahead along a diagonal"));
    // An unplayable card says why and starts nothing.
    b.key(KeyCode::Enter);
    assert!(b.app.message().unwrap().1.contains("not playable now"));
    assert!(b.app.chosen().is_empty());
    assert!(b.app.history().played().is_empty());
    // The `a` menu leads here too.
    b.key(KeyCode::Esc);
    assert!(b.app.dialog().is_none());
    b.key(KeyCode::Char('a'));
    let n = b.app.whole_actions().len();
    b.key(KeyCode::Char(char::from(b'1' + n as u8)));
    assert!(matches!(b.app.dialog(), Some(Dialog::Cards { .. })));
}

#[test]
fn convert_through_the_card_menu_earns_ep() {
    let mut b = Board::new(cards_app(0, 2), 80, 24);
    b.key(KeyCode::Char('c'));
    let n = b.app.cards().len();
    for _ in 0..n + 1 {
        b.key(KeyCode::Down); // past the cards, to `convert 2`
    }
    b.key(KeyCode::Enter);
    assert_eq!(last_action(&b.app), "convert 2");
    let ep = b.app.position().ep[Team::Def as usize];
    assert!(ep > 0);
    assert!(b.screen().contains(&format!("EP ATK 0 DEF {ep}")));
}

#[test]
fn a_cards_target_is_chosen_on_the_board_and_plays_the_legal_action() {
    let mut b = Board::new(cards_app(3, 2), 80, 24);
    let before = *b.app.position();
    let legal = legal_cards(&b.app);
    b.key(KeyCode::Char('c'));
    select_card(&mut b, "Sprint");
    b.key(KeyCode::Enter);
    assert!(b.app.dialog().is_none());
    assert!(b.app.prompt().contains("card Sprint: choose a piece"));
    // The pieces offered are the first arguments of the legal sprints.
    let mut pieces: Vec<String> = b
        .app
        .options()
        .iter()
        .map(|c| match c {
            Choice::Piece(p) => p.to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    pieces.sort();
    let mut want: Vec<String> = legal
        .iter()
        .filter_map(|a| a.strip_prefix("card sprint "))
        .map(|a| a.split(' ').next().unwrap().to_string())
        .collect();
    want.dedup();
    want.sort();
    assert_eq!(pieces, want);
    b.click("G13"); // DEF5
    let s = b.screen();
    insta::assert_snapshot!("card_target", s);
    assert!(s.contains("(X5)"), "the chosen piece is marked");
    assert!(b.app.prompt().contains("choose a square (target 2 of 2)"));
    let mut squares: Vec<String> = b
        .app
        .options()
        .iter()
        .map(|c| match c {
            Choice::Square(s) => s.to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    squares.sort();
    let mut want: Vec<String> = legal
        .iter()
        .filter_map(|a| a.strip_prefix("card sprint DEF5 "))
        .map(str::to_string)
        .collect();
    want.sort();
    assert_eq!(squares, want, "exactly the kernel's targets");
    // A square that is not a target changes nothing.
    b.click("G9");
    assert_eq!(b.app.chosen().len(), 2);
    assert!(b.app.message().unwrap().1.contains("not a target"));
    // Backspace goes back one choice: the piece again...
    b.key(KeyCode::Backspace);
    assert_eq!(b.app.chosen().len(), 1);
    b.click("G13");
    let target = want[0].clone();
    b.click(&target);
    let action = format!("card sprint DEF5 {target}");
    assert_eq!(b.app.history().actions().len(), 1);
    assert_eq!(last_action(&b.app), action);
    // ...and the position is the kernel's after exactly that action.
    let mut expect = before;
    let game = b.app.history().game().clone();
    game.play(&mut expect, action.parse().unwrap(), &mut ())
        .unwrap();
    assert_eq!(*b.app.position(), expect);
}

#[test]
fn esc_in_the_middle_of_a_card_leaves_the_game_unchanged() {
    let mut b = Board::new(cards_app(3, 2), 80, 24);
    let before_screen = b.screen();
    let pos = *b.app.position();
    b.key(KeyCode::Char('c'));
    select_card(&mut b, "Sprint");
    b.key(KeyCode::Enter);
    b.click("G13");
    assert_eq!(b.app.chosen().len(), 2);
    b.key(KeyCode::Esc);
    assert!(b.app.chosen().is_empty());
    assert_eq!(*b.app.position(), pos);
    assert_eq!(b.app.version(), 0);
    assert!(b.app.history().played().is_empty());
    assert_eq!(board_part(&b.screen()), board_part(&before_screen));
    // Backspace from the first target goes back to the card menu; Esc
    // closes it, still unchanged.
    b.key(KeyCode::Char('c'));
    select_card(&mut b, "Sprint");
    b.key(KeyCode::Enter);
    b.key(KeyCode::Backspace);
    assert!(matches!(
        b.app.dialog(),
        Some(Dialog::Cards { selected: 0, .. })
    ));
    b.key(KeyCode::Esc);
    assert!(b.app.dialog().is_none() && b.app.chosen().is_empty());
    assert_eq!(*b.app.position(), pos);
}

#[test]
fn a_card_without_targets_asks_for_confirmation() {
    let mut b = Board::new(cards_app(2, 1), 80, 24);
    b.key(KeyCode::Char('c'));
    select_card(&mut b, "Quick Step");
    b.key(KeyCode::Enter);
    assert!(b.app.history().played().is_empty(), "not yet");
    assert!(b.screen().contains("Enter again plays Quick Step"));
    b.key(KeyCode::Esc);
    assert!(b.app.dialog().is_some(), "Esc takes back the confirmation");
    assert!(b.app.history().played().is_empty());
    b.key(KeyCode::Enter);
    b.key(KeyCode::Enter);
    assert_eq!(last_action(&b.app), "card quick-step");
    assert_eq!(b.app.position().ap, 2);
}
