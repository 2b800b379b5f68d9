//! BALL on the terminal board, driven through its input events (keys and
//! mouse clicks, exactly as the terminal delivers them) on ratatui's
//! `TestBackend`, with the screen snapshotted by insta.
//!
//! Every snapshot was read before it was accepted. Text tells what colour
//! tells on a real terminal: `[ ]` marks a square that may be chosen,
//! `( )` what was chosen, `›` the highlighted choice; ATK's pieces are
//! `X O □`, DEF's `x o ▪`, down ones turned (`+ ⊖ ◇`, `⁺ ө ◆`), `'` a
//! restricted one, `●` the ball.
//!
//! Card mode (B11) is played under the `cards` ruleset: `c` and the card
//! menu, a card's targets chosen on the board, `v` and `convert N`.

use std::path::Path;

use ball::games::ball::Ball;
use ball::games::ball::action::Action;
use ball::games::ball::board::Sq;
use ball::games::ball::piece::{PieceId, Team};
use ball::games::ball::position::{Phase, Position};
use ball::games::ball::ruleset::{Ruleset, ScriptSource};
use ball::games::ball::terminal::squares::Geometry;
use ball::kernel::game::Title;
use ball::kernel::record::Record;
use ball::kernel::rng::SplitMix64;
use ball::shell::{Seat, Session};
use ball::tui::{self, App, Dialog, Level, Play, layout};
use ratatui::crossterm::event::KeyCode;

use crate::tui_harness::{Board, board_part};

fn sq(s: &str) -> Sq {
    Sq::parse(s).unwrap()
}

const PEOPLE: [Seat; 2] = [Seat::Person, Seat::Person];

fn session(rs: Ruleset, seats: [Seat; 2]) -> Session<Ball> {
    Session::new(rs, seats, 0).unwrap()
}

fn hot_seat() -> App<Ball> {
    App::new(session(Ruleset::standard(), PEOPLE))
}

/// The board's area of a screen: the cursor and highlight may move in
/// the panel, the board must not change.
fn board_area(screen: &str) -> String {
    board_part(screen)
        .lines()
        .map(|l| l.chars().take(60).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A two-person game after `actions` (each checked by the game).
fn after(actions: &[&str]) -> App<Ball> {
    let mut s = session(Ruleset::standard(), PEOPLE);
    for a in actions {
        let action = s.game().parse_action(a).unwrap();
        s.play(action).unwrap_or_else(|e| panic!("{a}: {e}"));
    }
    App::new(s)
}

/// A two-person game from `pos`.
fn from(rs: Ruleset, pos: Position) -> App<Ball> {
    let game = Ball::build(&rs).unwrap();
    App::new(Session::from_position(rs, &game, &pos, PEOPLE).unwrap())
}

fn board(app: App<Ball>) -> Board<Ball> {
    Board::new(app, 80, 24)
}

fn last_action(app: &App<Ball>) -> String {
    app.session().played().last().unwrap().action.to_string()
}

fn played(app: &App<Ball>) -> usize {
    app.session().played().len()
}

fn click(b: &mut Board<Ball>, s: &str) {
    b.click(sq(s));
}

#[test]
fn start_position() {
    let mut b = board(hot_seat());
    let s = b.screen();
    insta::assert_snapshot!("start_80x24", s);
    assert!(s.contains("DEF to play (you)"));
    assert!(
        s.contains("standard · turn 1/60 · AP 2"),
        "the ruleset is named"
    );
    // The teams by case: DEF's pieces lower-case, ATK's upper-case.
    assert!(s.contains("x3") && s.contains("X3"));
    assert!(s.contains("▪7") && s.contains("□7"));
}

#[test]
fn a_larger_terminal_gets_larger_squares_and_a_legend() {
    let mut b = Board::new(hot_seat(), 100, 30);
    let s = b.screen();
    insta::assert_snapshot!("start_100x30", s);
    assert!(s.contains("X3●/o2 block, x5=x6 protect"));
    let screen = layout::layout(b.area(), &b.app);
    assert_eq!(Geometry::of(screen.board).cw, 4, "the panel gets the room");
    let tall = Board::new(hot_seat(), 120, 42);
    let screen = layout::layout(tall.area(), &tall.app);
    assert_eq!(Geometry::of(screen.board).cw, 5);
    assert_eq!(Geometry::of(screen.board).ch, 2);
}

#[test]
fn a_piece_chosen_shows_what_it_can_do_and_where() {
    let mut b = board(hot_seat());
    click(&mut b, "I11"); // DEF3, an X: it can only move
    let s = b.screen();
    insta::assert_snapshot!("def3_action_menu", s);
    assert!(s.contains("(x3)"), "the chosen piece is marked");
    assert_eq!(b.labels(), ["move"], "the menu is shown even for one entry");
    // The highlighted action's destinations are marked already.
    for dest in ["H10", "G9", "J10", "K9", "H12", "J12", "K13"] {
        let g = Geometry::of(layout::layout(b.area(), &b.app).board);
        let c = sq(dest).coord();
        let (x, y) = g.cell(c.col, c.row);
        let line: String = s.lines().nth(y as usize).unwrap().chars().collect();
        let cell: String = line.chars().skip(x as usize + 1).take(3).collect();
        assert!(cell.starts_with('['), "{dest}: {cell:?}");
    }
    b.keys("1");
    let s = b.screen();
    insta::assert_snapshot!("def3_move_destinations", s);
    let mut got = b.labels();
    got.sort();
    assert_eq!(
        got,
        ["G9", "H10", "H12", "J10", "J12", "K13", "K9"],
        "exactly the kernel's move destinations"
    );
}

#[test]
fn a_piece_with_several_actions_gets_a_menu() {
    let mut b = board(hot_seat());
    click(&mut b, "G13"); // DEF5 can move or protect DEF6/DEF7
    let s = b.screen();
    insta::assert_snapshot!("def5_action_menu", s);
    assert!(b.app.menu_step());
    assert_eq!(b.labels(), ["move", "protect"]);
    // The second entry, protect, marks the team-mates it may stack on.
    b.key(KeyCode::Down);
    let s = b.screen();
    assert!(s.contains("[x6]") && s.contains("[▪7]"), "{s}");
    b.key(KeyCode::Enter);
    click(&mut b, "F14");
    assert_eq!(last_action(&b.app), "protect DEF5 F14");
}

#[test]
fn number_keys_mean_the_same_on_every_turn() {
    // `5 1` is DEF5 and move, whatever else can act.
    for actions in [&[][..], &["move DEF3 H10", "end", "end"][..]] {
        let mut b = board(after(actions));
        b.keys("5");
        assert_eq!(b.app.session().chosen()[0].label, "DEF5");
        b.keys("1");
        assert_eq!(b.app.session().chosen()[1].label, "move");
        // 5 here is protect, by its own digit, whatever the list shows.
        b.key(KeyCode::Backspace);
        b.keys("5");
        assert_eq!(b.app.session().chosen()[1].label, "protect");
    }
    // A piece keeps its number when others cannot act: DEF3 is 3 even
    // when DEF1 and DEF2 are down.
    let mut b = board(hot_seat());
    b.keys("3");
    assert_eq!(b.app.session().chosen()[0].label, "DEF3");
    // A verb the piece does not have is refused, not reinterpreted.
    b.keys("4");
    assert_eq!(b.app.session().chosen().len(), 1);
    assert!(b.app.message().unwrap().1.contains("not a choice"));
}

#[test]
fn the_keyboard_alone_plays_an_action() {
    let mut b = board(hot_seat());
    // Tab cycles the pieces that can act (the cursor follows); Enter
    // chooses; then the action, then Tab again to a destination.
    b.key(KeyCode::Tab);
    let first = b.app.cursor().unwrap();
    b.key(KeyCode::Enter);
    assert_eq!(
        b.app.session().chosen()[0].cell,
        Some(first),
        "the piece under the cursor"
    );
    b.key(KeyCode::Enter);
    b.key(KeyCode::Tab);
    b.key(KeyCode::Enter);
    assert_eq!(played(&b.app), 1);
    // Arrows and hjkl move the cursor over playable squares only.
    for c in "kkkkllllhhjjjjjjjjjjjjjjjjjjjjj".chars() {
        b.key(KeyCode::Char(c));
        let _ = b.app.cursor().unwrap();
    }
    for code in [KeyCode::Up, KeyCode::Right, KeyCode::Down, KeyCode::Left] {
        b.key(code);
    }
}

/// The position after DEF3 moved next to ATK3's diagonal: ATK3 can dodge.
fn dodge_ready() -> App<Ball> {
    after(&["move DEF3 K9", "end"])
}

#[test]
fn a_dodge_asks_for_its_exit_and_esc_leaves_the_game_unchanged() {
    let mut b = board(dodge_ready());
    let before = b.screen();
    let pos = *b.app.session().position();
    click(&mut b, "I7"); // ATK3
    assert!(b.app.menu_step(), "ATK3 can move or dodge");
    b.keys("2"); // dodge, always 2
    click(&mut b, "K9");
    let s = b.screen();
    insta::assert_snapshot!("dodge_asks_exit", s);
    assert_eq!(
        b.app.session().prompt(),
        "dodge DEF3: choose the exit square"
    );
    let mut exits = b.labels();
    exits.sort();
    let game = b.app.session().game().clone();
    let mut want: Vec<String> = game
        .canonical_legal(&pos)
        .iter()
        .filter_map(|a| a.strip_prefix("dodge ATK3 K9 ").map(str::to_string))
        .collect();
    want.sort();
    assert_eq!(exits, want, "the exits are the kernel's");

    b.key(KeyCode::Esc);
    let s = b.screen();
    insta::assert_snapshot!("dodge_cancelled", s);
    assert_eq!(*b.app.session().position(), pos);
    assert!(b.app.session().chosen().is_empty());
    assert_eq!(
        board_area(&s),
        board_area(&before),
        "ESC restores the board"
    );
}

#[test]
fn a_down_piece_is_drawn_turned() {
    let app = dodge_ready();
    let exit = app
        .session()
        .game()
        .canonical_legal(app.session().position())
        .into_iter()
        .find(|a| a.starts_with("dodge ATK3 K9"))
        .unwrap();
    let mut b = board(app);
    click(&mut b, "I7");
    b.keys("2");
    click(&mut b, "K9");
    click(&mut b, exit.rsplit(' ').next().unwrap());
    assert_eq!(last_action(&b.app), exit);
    click(&mut b, "K9"); // the cursor onto the down piece: the footer tells
    let s = b.screen();
    insta::assert_snapshot!("down_piece", s);
    assert!(s.contains("⁺3"), "DEF3 down on K9 is drawn ⁺3");
    assert!(s.contains("DEF3 (x, down)"));
    assert!(s.contains("DEF3 is knocked"), "the log says it");
}

#[test]
fn a_stack_shows_top_and_bottom_and_protect_apart_from_block() {
    let mut b = board(after(&["protect DEF5 F14"]));
    click(&mut b, "F14");
    let s = b.screen();
    insta::assert_snapshot!("stack", s);
    assert!(s.contains("x5=x6"), "a protection: `=`, one case");
    assert!(s.contains("stack, DEF5 (x) protects DEF6 (x)"));
}

/// DEF3 next to ATK5, the holder, DEF to move.
fn block_ready() -> Position {
    let rs = Ruleset::standard();
    let game = Ball::build(&rs).unwrap();
    let mut pos = game.start();
    pos.piece_mut(PieceId::new(Team::Def, 3)).at = sq("H6");
    pos
}

#[test]
fn a_stack_whose_top_holds_the_ball_reads_in_the_legends_form() {
    let mut b = board(from(Ruleset::standard(), block_ready()));
    b.keys("34");
    click(&mut b, "G5");
    assert_eq!(last_action(&b.app), "block DEF3 G5");
    let s = b.screen();
    insta::assert_snapshot!("block_on_the_holder", s);
    assert!(s.contains("x3●/X5"), "top, ball, `/`, bottom: {s}");
    assert!(!s.contains("x3●X5"));
}

#[test]
fn the_keeper_of_a_released_stack_defaults_to_your_own_piece() {
    let mut app = from(Ruleset::standard(), block_ready());
    let s = app.session_mut();
    for a in ["block DEF3 G5", "end", "end", "end"] {
        let action = s.game().parse_action(a).unwrap();
        s.play(action).unwrap_or_else(|e| panic!("{a}: {e}"));
    }
    let mut b = board(app);
    let pos = *b.app.session().position();
    assert_eq!((pos.to_move, pos.phase), (Team::Def, Phase::Release));
    b.keys("30"); // DEF3, release
    b.key(KeyCode::Enter); // where the top goes
    b.key(KeyCode::Enter); // where the bottom goes
    let s = b.screen();
    insta::assert_snapshot!("keep_the_ball", s);
    assert!(b.app.session().prompt().contains("who keeps the ball"));
    assert_eq!(b.labels(), ["keep DEF3", "keep ATK5"], "your piece first");
    assert_eq!(b.app.highlighted(), Some(0));
    b.key(KeyCode::Enter);
    assert!(last_action(&b.app).ends_with("keep DEF3"), "Enter keeps it");
}

#[test]
fn a_loose_ball_lies_on_its_square() {
    let mut b = board(after(&["end", "lpass ATK5 G11"]));
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
        app.session()
            .game()
            .canonical_legal(app.session().position())
            .into_iter()
            .find(|a| a.starts_with("dodge ATK3 K9"))
            .unwrap()
    };
    let mut b = board(after(&["move DEF3 K9", "end", &dodge, "end", "end"]));
    let s = b.screen();
    insta::assert_snapshot!("release_phase", s);
    assert!(b.choices_text().contains("release phase"));
    assert_eq!(b.labels(), ["DEF3"], "DEF3's stand-up is the only task");
    b.keys("e");
    assert!(
        b.app.message().unwrap().1.contains("B10.1"),
        "no `end` now: {:?}",
        b.app.message()
    );
    click(&mut b, "K9");
    b.keys("9"); // standup
    let s = b.screen();
    insta::assert_snapshot!("release_phase_standup", s);
    let dest = b.labels()[0].clone();
    click(&mut b, &dest);
    assert_eq!(last_action(&b.app), format!("standup DEF3 {dest}"));
    assert_eq!(b.app.session().position().to_move, Team::Atk);
}

#[test]
fn end_is_a_listed_choice_with_its_key() {
    let mut b = board(hot_seat());
    assert!(b.labels().contains(&"end".to_string()));
    b.click_option("end");
    assert_eq!(last_action(&b.app), "end");
    // And by its key, once something is chosen: not in the middle.
    b.keys("5e");
    assert_eq!(played(&b.app), 1);
    assert!(b.app.message().unwrap().1.contains("in progress"));
}

/// ATK5 one step from the end zone with `score` already.
fn touchdown_ready(score: [u8; 2]) -> App<Ball> {
    let rs = Ruleset::standard();
    let mut start = Ball::build(&rs).unwrap().start();
    start.to_move = Team::Atk;
    start.score = score;
    start.piece_mut(PieceId::new(Team::Atk, 5)).at = sq("G15");
    from(rs, start)
}

#[test]
fn game_over() {
    let mut b = board(touchdown_ready([2, 1]));
    click(&mut b, "G15");
    b.keys("1");
    click(&mut b, "H16");
    let s = b.screen();
    insta::assert_snapshot!("game_over", s);
    assert!(s.contains("GAME OVER"));
    assert!(s.contains("ATK wins, ATK 3 - DEF 1"));
    assert!(s.contains("TOUCHDOWN ATK · ATK 3 - DEF 1 · ATK wins"));
    assert!(b.app.session().options().is_empty());
    // Nothing can be chosen any more; undo still works.
    click(&mut b, "H16");
    b.keys("e");
    assert_eq!(played(&b.app), 1);
    b.keys("u");
    assert!(b.app.session().to_move().is_some());
    let rec = b.app.session().record();
    assert!(rec.get("start").is_some(), "a custom start is recorded");
}

#[test]
fn a_touchdown_has_a_banner_until_the_next_action() {
    let mut b = board(touchdown_ready([0, 0]));
    b.keys("51");
    click(&mut b, "H16");
    let s = b.screen();
    insta::assert_snapshot!("touchdown_banner", s);
    let top = s.lines().nth(1).unwrap();
    assert!(
        top.contains("★ TOUCHDOWN ATK · ATK 1 - DEF 0 · set up again (B3.5) ★"),
        "{top}"
    );
    assert!(
        b.log_text().contains("touchdown ATK"),
        "the log says it too"
    );
    b.keys("e");
    assert!(!b.screen().contains("TOUCHDOWN"));
}

#[test]
fn a_restricted_piece_is_marked() {
    // B8.2: the receiver of a short pass is restricted.
    let mut b = board(after(&["end", "spass ATK5 ATK2 F6"]));
    let s = b.screen();
    let row6 = s.lines().find(|l| l.starts_with("\"│ 6")).unwrap();
    assert!(row6.contains('∘'), "the reception square: {row6}");
    assert!(s.contains("O2'●"), "ATK2 holds the ball, restricted: {s}");
    // Gone after the next action.
    b.keys("e");
    assert!(!b.screen().contains('∘'));
}

#[test]
fn a_too_small_terminal_says_so_and_recovers() {
    let mut b = Board::new(hot_seat(), 60, 20);
    let s = b.screen();
    insta::assert_snapshot!("too_small", s);
    assert!(s.contains("Too small: 60x20; BALL needs 79x23. q quits."));
    // Keys and clicks do nothing blind...
    b.keys("e1");
    b.key(KeyCode::Enter);
    b.click_at(10, 10);
    assert_eq!(played(&b.app), 0);
    assert!(b.app.session().chosen().is_empty());
    // ...and the board is back as soon as there is room.
    b.resize(80, 24);
    assert!(b.screen().contains("DEF to play"));
    b.resize(1, 1);
    b.screen();
    b.resize(0, 0);
    b.terminal.draw(|f| tui::draw::draw(f, &b.app)).unwrap();
    b.resize(80, 24);
    let again = b.screen();
    assert_eq!(again, Board::new(hot_seat(), 80, 24).screen());
}

#[test]
fn quitting_an_unsaved_game_asks_even_on_a_tiny_screen() {
    let mut b = board(hot_seat());
    b.keys("e");
    b.resize(30, 10);
    b.ctrl('c');
    assert_eq!(b.app.dialog(), Some(&Dialog::ConfirmQuit));
    assert!(b.screen().contains("y quits"));
    b.keys("n");
    assert!(!b.app.should_quit());
    b.keys("q");
    b.keys("y");
    assert!(b.app.should_quit());
}

#[test]
fn a_bots_moves_appear_in_the_log_and_undo_takes_them_back() {
    let app = App::new(session(
        Ruleset::standard(),
        [Seat::Bot("random".into()), Seat::Person],
    ));
    let mut b = board(app);
    b.keys("31");
    click(&mut b, "H10");
    b.keys("e");
    b.screen();
    assert_eq!(b.app.session().prompt(), "ATK (random bot) is playing");
    assert!(b.choices_text().contains("ATK (random bot) is playing"));
    assert!(b.app.session().options().is_empty());
    click(&mut b, "C11");
    assert!(b.app.session().chosen().is_empty());
    let mut n = 0;
    while b.bot_step() {
        n += 1;
        let a = last_action(&b.app);
        let s = b.screen();
        assert!(s.contains(&a[..a.len().min(15)]), "{a} logged");
    }
    assert!(n >= 1);
    let s = b.screen();
    insta::assert_snapshot!("after_bot_turn", s);
    // Undo takes back the bot's turn and DEF's `end` together.
    b.keys("u");
    assert_eq!(played(&b.app), 1);
    assert!(b.app.session().person_to_move());
    // Redo plays them again, the bot's too.
    b.keys("r");
    assert_eq!(played(&b.app), 2 + n);
}

#[test]
fn save_load_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    let mut b = board(hot_seat());
    b.keys("31");
    click(&mut b, "H10");
    b.keys("e");
    b.keys("s");
    // Replace the suggested name with ours.
    for _ in 0..40 {
        b.key(KeyCode::Backspace);
    }
    b.keys(path.to_str().unwrap());
    b.key(KeyCode::Enter);
    assert!(b.app.dialog().is_none(), "{:?}", b.app.message());
    assert!(!b.app.session().is_dirty());
    b.keys("q");
    assert!(b.app.should_quit(), "saved: quits without asking");

    let text = std::fs::read_to_string(&path).unwrap();
    let rec = Record::parse(&text).unwrap();
    assert_eq!(
        rec.get("ruleset-hash"),
        Some(Ruleset::standard().fingerprint().as_str())
    );
    assert_eq!(rec.get("DEF"), Some("human"));
    assert_eq!(rec.actions, vec!["move DEF3 H10", "end"]);
    assert_eq!(rec.get("result"), Some("unfinished ATK 0 - DEF 0"));

    // --load continues it, undo reaches into the loaded actions.
    let mut app = load(&rec, Ruleset::standard(), Some(&path));
    assert_eq!(played(&app), 2);
    assert_eq!(app.message().unwrap().0, Level::Info);
    app.undo();
    assert_eq!(played(&app), 1);

    // The replay viewer steps forwards and back.
    let mut r = board(App::new(
        Session::replay(&rec, Ruleset::standard()).unwrap(),
    ));
    assert_eq!(played(&r.app), 0);
    r.key(KeyCode::Right);
    let s = r.screen();
    insta::assert_snapshot!("replay_step_1", s);
    assert!(s.contains("REPLAY 1/2"));
    r.key(KeyCode::End);
    assert_eq!(played(&r.app), 2);
    r.key(KeyCode::Left);
    r.key(KeyCode::Home);
    assert_eq!(played(&r.app), 0);
    r.keys("q");
    assert!(r.app.should_quit(), "a replay never asks");

    // A broken record is refused with the step, as the check says it.
    let mut broken = rec.clone();
    broken.actions = vec!["move DEF3 H10".into(), "move DEF3 Z1".into()];
    let e = Session::<Ball>::load(&broken, Ruleset::standard(), [None, None])
        .err()
        .unwrap();
    assert!(e.starts_with("step 2:"), "{e}");
}

fn load(rec: &Record, rs: Ruleset, path: Option<&Path>) -> App<Ball> {
    tui::new_app::<Ball>(Play {
        ruleset: rs,
        seats: [None, None],
        seed: 0,
        load: Some((rec.clone(), path.map(Path::to_path_buf))),
        bot_delay: std::time::Duration::ZERO,
    })
    .unwrap()
}

#[test]
fn a_record_of_other_rules_loads_with_a_warning_in_full() {
    let mut b = board(hot_seat());
    b.keys("31");
    click(&mut b, "H10");
    let mut rec = b.app.session().record();
    rec.set("ruleset", "three-ap");
    rec.set("ruleset-hash", "00000000deadbeef");
    let app = load(&rec, Ruleset::standard(), None);
    let Some(Dialog::Notice { lines, .. }) = app.dialog() else {
        panic!("no notice: {:?}", app.dialog());
    };
    let warning = lines[0].clone();
    assert!(warning.contains("three-ap") && warning.contains("00000000deadbeef"));
    assert!(warning.contains(&Ruleset::standard().fingerprint()));
    let mut b = board(app);
    let s = b.screen();
    insta::assert_snapshot!("other_rules_warning", s);
    // Every word of it is on the screen, wrapped, none cut off.
    let shown: String = s
        .lines()
        .map(|l| l.trim_matches(|c| c == '"' || c == '│' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    for word in warning.split(' ') {
        assert!(shown.contains(word), "`{word}` not shown");
    }
    // Any key closes it; the log keeps it.
    b.keys("x");
    assert!(b.app.dialog().is_none());
    b.resize(130, 60);
    assert!(b.log_text().contains("warning: other rules"));
}

#[test]
fn a_finished_record_loads_finished_and_a_saved_game_checks() {
    let mut b = board(touchdown_ready([2, 1]));
    b.keys("51");
    click(&mut b, "H16");
    let rec = b.app.session().record();
    assert_eq!(rec.get("result"), Some("ATK 3 - DEF 1"));
    ball::lab::replay::check::<Ball>(&rec, &Ruleset::standard()).unwrap();
    let app = load(&rec, Ruleset::standard(), None);
    assert_eq!(app.session().to_move(), None, "loads as finished");
    // A save in the middle of a game passes the check too.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mid.txt");
    let mut b = board(after(&["move DEF3 H10", "end", "move ATK3 H8"]));
    b.app.save_to(&path).unwrap();
    let rec = Record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let ok = ball::lab::replay::check::<Ball>(&rec, &Ruleset::standard()).unwrap();
    assert!(ok.contains("unfinished"), "{ok}");
}

#[test]
fn saving_replaces_the_file_whole_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    std::fs::write(&path, "an older game").unwrap();
    let mut b = board(after(&["move DEF3 H10"]));
    b.app.save_to(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# ball match record"), "{text}");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["game.txt"], "no temporary file left");
    // A save that cannot be written leaves the old file as it was.
    let missing = dir.path().join("no-such-dir").join("game.txt");
    assert!(b.app.save_to(&missing).is_err());
    assert!(b.app.session().is_dirty() || b.app.session().save_path() == Some(&path));
}

/// Random keys and clicks on random screen sizes never panic and never
/// record an action the game does not allow.
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
    let chars = "hjkl 1234567890eacvurz?xq\u{e9}\u{1b}\u{0}";
    for seed in 0..12u64 {
        let mut rng = SplitMix64::new(seed);
        let rs = if seed % 3 == 2 {
            Ruleset::load("cards").unwrap()
        } else {
            Ruleset::standard()
        };
        let mut b = board(App::new(session(rs.clone(), PEOPLE)));
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
            if matches!(
                b.app.dialog(),
                Some(Dialog::ConfirmQuit | Dialog::Save { .. })
            ) {
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
        // Every recorded action replays under the game's own check.
        let game = Ball::build(&rs).unwrap();
        let mut pos = game.start();
        for p in b.app.session().played() {
            game.play(&mut pos, p.action, &mut Vec::new()).unwrap();
        }
        assert_eq!(&pos, b.app.session().position());
        assert!(!b.app.should_quit() || !b.app.session().is_dirty());
    }
}

#[test]
fn a_failing_variant_hook_is_shown_in_the_log() {
    let mut rs = Ruleset::standard();
    rs.name = "broken-hook".into();
    rs.variants.push(ScriptSource {
        path: "broken-hook.lua".into(),
        text: "return { name = 'broken-hook', text = 'fails', \
               on_turn_start = function(game, team) error('the hook broke') end }"
            .into(),
    });
    let mut b = Board::new(App::new(session(rs, PEOPLE)), 130, 40);
    b.keys("e");
    let log = b.log_text();
    assert!(log.contains("script error"), "{log}");
    assert!(log.contains("the hook broke"), "{log}");
    let p = b.app.session().played().last().unwrap();
    assert!(
        p.errors.iter().any(|e| e.contains("broken-hook.lua")),
        "{:?}",
        p.errors
    );
}

// ---- card mode (B11) ----

/// A two-person card-mode game at its start, DEF to move with `ep` EP and
/// `ap` AP.
fn cards_app(ep: u32, ap: u8) -> App<Ball> {
    let rs = Ruleset::load("cards").unwrap();
    let game = Ball::build(&rs).unwrap();
    assert!(game.card_mode());
    let mut start = game.start();
    start.ep = [0, ep];
    start.ap = ap;
    from(rs, start)
}

/// The legal card actions of the position, in the notation.
fn legal_cards(app: &App<Ball>) -> Vec<String> {
    let s = app.session();
    s.game()
        .canonical_legal(s.position())
        .into_iter()
        .filter(|a| a.starts_with("card "))
        .collect()
}

/// Highlights the card menu's entry named `name`.
fn select_card(b: &mut Board<Ball>, name: &str) {
    let i = b.labels().iter().position(|c| c == name).unwrap();
    for _ in 0..20 {
        b.key(KeyCode::Up);
    }
    for _ in 0..i {
        b.key(KeyCode::Down);
    }
    assert_eq!(b.labels()[b.app.highlighted().unwrap()], name);
}

#[test]
fn the_card_menu_lists_the_cards_and_says_why_one_is_not_playable() {
    let mut b = board(cards_app(3, 2));
    let s = b.screen();
    assert!(s.contains("cards · turn 1/60"), "the ruleset is named");
    assert!(s.contains("EP ATK 0 DEF 3"), "EP in the status line");
    b.keys("c");
    let s = b.screen();
    insta::assert_snapshot!("card_menu", s);
    assert!(s.contains("cards · DEF has 3 EP, 2 AP"));
    let deck = b.app.session().game().cards(Team::Def);
    for c in &deck {
        assert!(s.contains(&c.name), "{} listed", c.name);
    }
    assert!(s.contains("2/2 left"), "Switch's uses");
    assert!(s.contains("straight ahead along a diagonal"));
    assert!(s.contains("restricted afterwards."), "the last words too");
    // Playable exactly when a `card <id> …` action is legal.
    let legal = legal_cards(&b.app);
    for c in &deck {
        let want = legal
            .iter()
            .any(|a| a.split(' ').nth(1) == Some(c.id.name()));
        assert_eq!(b.labels().contains(&c.name), want, "{}", c.name);
        let line = s.lines().find(|l| l.contains(&c.name)).unwrap();
        assert_eq!(line.contains('✓'), want, "{line}");
        if !want {
            assert!(line.contains("(B11.6)"), "why not, with the rule: {line}");
        }
    }
    // Magnet is affordable but has nothing to pull: the game says so.
    let magnet = s.lines().find(|l| l.contains("Magnet")).unwrap();
    assert!(
        magnet.contains("no target/condition now (B11.6)"),
        "{magnet}"
    );
    // What convert pays, on the menu.
    assert!(s.contains("EP an AP now"), "{s}");
    // Down: the next card's text.
    select_card(&mut b, "Switch");
    let s = b.screen();
    assert!(s.contains("Switch (2 EP)"), "{s}");
    assert!(!s.contains("straight ahead along a diagonal"));
    b.key(KeyCode::Esc);
    assert!(b.app.session().chosen().is_empty());
}

#[test]
fn with_no_card_playable_c_says_why_for_each() {
    let mut b = board(cards_app(0, 2));
    b.keys("c");
    let Some(Dialog::Notice { lines, .. }) = b.app.dialog() else {
        panic!("{:?} {:?}", b.app.dialog(), b.app.message());
    };
    assert!(
        lines
            .iter()
            .any(|l| l == "Sprint: it costs 2 EP and DEF has 0 (B11.6)"),
        "{lines:?}"
    );
    let s = b.screen();
    insta::assert_snapshot!("no_card_playable", s);
}

#[test]
fn convert_states_its_rate_and_the_log_says_what_it_earned() {
    let mut b = board(cards_app(0, 2));
    b.keys("v");
    assert!(b.choices_text().contains("2 AP into"));
    let rate = b.app.session().options()[1].help.clone();
    b.keys("2");
    assert_eq!(last_action(&b.app), "convert 2");
    let ep = b.app.session().position().ep[Team::Def as usize];
    assert!(ep > 0);
    assert_eq!(rate, format!("2 AP into {ep} EP"));
    let s = b.screen();
    assert!(s.contains(&format!("EP ATK 0 DEF {ep}")), "{s}");
    let log = b.log_text();
    assert!(
        log.contains(&format!("DEF turns 2 AP into {ep} EP")),
        "{log}"
    );
}

#[test]
fn a_cards_target_is_chosen_on_the_board_and_plays_the_legal_action() {
    let mut b = board(cards_app(3, 2));
    let before = *b.app.session().position();
    let legal = legal_cards(&b.app);
    b.keys("c");
    select_card(&mut b, "Sprint");
    b.key(KeyCode::Enter);
    assert!(
        b.app
            .session()
            .prompt()
            .contains("card Sprint: choose a piece")
    );
    // The pieces offered are the first arguments of the legal sprints.
    let mut pieces = b.labels();
    pieces.sort();
    let mut want: Vec<String> = legal
        .iter()
        .filter_map(|a| a.strip_prefix("card sprint "))
        .map(|a| a.split(' ').next().unwrap().to_string())
        .collect();
    want.dedup();
    want.sort();
    assert_eq!(pieces, want);
    click(&mut b, "G13"); // DEF5
    let s = b.screen();
    insta::assert_snapshot!("card_target", s);
    assert!(s.contains("(x5)"), "the chosen piece is marked");
    assert!(
        b.app
            .session()
            .prompt()
            .contains("choose a square (target 2 of 2)")
    );
    let mut squares = b.labels();
    squares.sort();
    let mut want: Vec<String> = legal
        .iter()
        .filter_map(|a| a.strip_prefix("card sprint DEF5 "))
        .map(str::to_string)
        .collect();
    want.sort();
    assert_eq!(squares, want, "exactly the kernel's targets");
    // A square that is not a target changes nothing.
    click(&mut b, "G9");
    assert_eq!(b.app.session().chosen().len(), 3);
    assert!(b.app.message().unwrap().1.contains("not a choice"));
    // Backspace goes back one choice: the piece again...
    b.key(KeyCode::Backspace);
    assert_eq!(b.app.session().chosen().len(), 2);
    click(&mut b, "G13");
    let target = want[0].clone();
    click(&mut b, &target);
    let action = format!("card sprint DEF5 {target}");
    assert_eq!(played(&b.app), 1);
    assert_eq!(last_action(&b.app), action);
    // ...and the position is the game's after exactly that action.
    let mut expect = before;
    let game = b.app.session().game().clone();
    game.play(
        &mut expect,
        game.parse_action(&action).unwrap(),
        &mut Vec::new(),
    )
    .unwrap();
    assert_eq!(*b.app.session().position(), expect);
    // The log says what the card did, in words.
    b.resize(130, 60);
    let log = b.log_text();
    assert!(log.contains("Sprint: One of your active pieces"), "{log}");
    assert!(
        log.contains(&format!("DEF5 goes from G13 to {target}")),
        "{log}"
    );
    assert!(log.contains("DEF EP 3 → 1"), "{log}");
}

#[test]
fn esc_in_the_middle_of_a_card_leaves_the_game_unchanged() {
    let mut b = board(cards_app(3, 2));
    let before_screen = b.screen();
    let pos = *b.app.session().position();
    let version = b.app.session().version();
    b.keys("c");
    select_card(&mut b, "Sprint");
    b.key(KeyCode::Enter);
    click(&mut b, "G13");
    assert_eq!(b.app.session().chosen().len(), 3);
    b.key(KeyCode::Esc);
    assert!(b.app.session().chosen().is_empty());
    assert_eq!(*b.app.session().position(), pos);
    assert_eq!(b.app.session().version(), version);
    assert_eq!(played(&b.app), 0);
    assert_eq!(board_area(&b.screen()), board_area(&before_screen));
    // Backspace from the first target goes back to the card menu.
    b.keys("c");
    select_card(&mut b, "Sprint");
    b.key(KeyCode::Enter);
    b.key(KeyCode::Backspace);
    assert!(b.screen().contains("cards · DEF has 3 EP"));
    b.key(KeyCode::Esc);
    assert!(b.app.session().chosen().is_empty());
    assert_eq!(*b.app.session().position(), pos);
}

#[test]
fn a_card_without_targets_waits_for_enter() {
    let mut b = board(cards_app(2, 1));
    b.keys("c");
    select_card(&mut b, "Quick Step");
    b.key(KeyCode::Enter);
    assert_eq!(played(&b.app), 0, "not yet");
    let s = b.screen();
    assert!(s.contains("Enter plays it"), "{s}");
    b.key(KeyCode::Backspace);
    assert_eq!(played(&b.app), 0);
    select_card(&mut b, "Quick Step");
    b.key(KeyCode::Enter);
    b.key(KeyCode::Enter);
    assert_eq!(last_action(&b.app), "card quick-step");
    assert_eq!(b.app.session().position().ap, 2);
    assert!(b.log_text().contains("AP 1 → 2"), "the effect in words");
}

#[test]
fn actions_are_never_offered_whole_only_through_choices() {
    // Every legal action of the start has choices: `end` is one.
    let app = hot_seat();
    let s = app.session();
    let all: Vec<Action> = s.legal();
    for a in all {
        assert!(!s.choices_of(s.position(), a).is_empty(), "{a}");
    }
}
