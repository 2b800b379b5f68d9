//! What every game's terminal board promises, checked over random games
//! of each and over crowded positions: a digit chooses in every menu (a
//! piece or a player is its number), no label leaves its cell or loses a
//! character, G-ball's turn is numbered alike in the status line and the
//! log, each game's least size is the one the help and the README state
//! and a smaller terminal says so in one line, and the log a board draws
//! is the end of the whole log.

use std::collections::HashSet;

use ball::bots::Evaluate;
use ball::games::ball::Ball;
use ball::games::ball::board::{COLS, Sq};
use ball::games::ball::piece::{PieceId, Team};
use ball::games::ball::position::{BallState, Stack};
use ball::games::ball::ruleset::Ruleset;
use ball::games::ball::terminal::squares::{Geometry, piece_text};
use ball::games::gateball::Gateball;
use ball::games::gateball::moves::ball_name;
use ball::games::gateball::space::Space;
use ball::games::gateball::terminal::court::{self, ball_on};
use ball::games::gball::board::{NONE, SQUARES};
use ball::games::gball::choices::dir_arrow;
use ball::games::gball::position::{members, number_of, team_of};
use ball::games::gball::{self, Gball};
use ball::kernel::game::{Game, Title};
use ball::kernel::rng::SplitMix64;
use ball::shell::{Flow, Key, Seat, Session};
use ball::tui::{self, App, Board as GameBoard, layout};
use ratatui::crossterm::event::KeyCode;

use crate::cli_support::ok;
use crate::tui_harness::Board;

const PEOPLE: [Seat; 2] = [Seat::Person, Seat::Person];

fn app<G: GameBoard>(ruleset: &str, seed: u64) -> App<G> {
    App::new(Session::new(G::load_ruleset(ruleset).unwrap(), PEOPLE, seed).unwrap())
}

/// Plays up to `actions` random legal actions on a `w` × `h` board,
/// calling `visit` on every position on the way (the last included).
fn walk<G: GameBoard + Evaluate>(
    app: App<G>,
    (w, h): (u16, u16),
    seed: u64,
    actions: usize,
    mut visit: impl FnMut(&mut Board<G>),
) {
    let mut b = Board::new(app, w, h);
    let mut rng = SplitMix64::new(seed);
    for _ in 0..actions {
        visit(&mut b);
        let legal: Vec<G::Action> = b.app.session().chooser().paths().map(|(a, _)| a).collect();
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.below(legal.len())];
        b.app.session_mut().play(a).unwrap();
    }
    visit(&mut b);
}

// ---- digits ----

#[derive(Default, Debug)]
struct Seen {
    /// Pieces or players offered, each found by its digit.
    pieces: usize,
    /// Menu entries (no choice of the step on the board) chosen by a digit.
    menu_digits: usize,
    /// Menu steps, by the prompt's first words.
    menus: HashSet<String>,
}

fn is_digit(k: &Key) -> bool {
    matches!(k, Key::Char(c) if c.is_ascii_digit())
}

/// Every step of every legal action at the board's position: each entry
/// of a menu has a key; each key of an entry makes exactly that entry
/// (by the rules the board applies to a key press); a piece or player
/// (`number` reads its number from the step's prompt and its label) is
/// chosen by its digit.
fn check_keys<G: GameBoard + Evaluate>(
    b: &Board<G>,
    number: &dyn Fn(&str, &str) -> Option<u8>,
    seen: &mut Seen,
) {
    let s = b.app.session();
    let ch = s.chooser();
    let mut prefixes: HashSet<Vec<String>> = HashSet::new();
    let paths: Vec<(G::Action, Vec<_>)> = ch.paths().map(|(a, p)| (a, p.to_vec())).collect();
    for (a, path) in &paths {
        for k in 0..path.len() {
            let prompt = s.game().prompt(s.position(), *a, k);
            let number = |label: &str| number(&prompt, label);
            let labels: Vec<String> = path[..k].iter().map(|c| c.label.clone()).collect();
            if !prefixes.insert(labels.clone()) {
                continue;
            }
            let step = ch.options_after(&path[..k]);
            let menu = step.iter().all(|c| c.cell.is_none());
            let mut probe = ch.clone();
            assert!(probe.set(&labels), "{labels:?}");
            if menu {
                seen.menus
                    .insert(format!("{} {:?}", G::NAME, step[0].label));
            }
            for c in &step {
                let what = format!("{}: {} after {labels:?}", G::NAME, c.label);
                if menu {
                    assert!(!c.keys.is_empty(), "{what}: a menu entry without a key");
                    if c.keys.iter().any(is_digit) {
                        seen.menu_digits += 1;
                    }
                }
                for &key in &c.keys {
                    let mut want = labels.clone();
                    want.push(c.label.clone());
                    assert_eq!(probe.key_path(key, None), Some(want), "{what}: {key:?}");
                }
                if let Some(n) = number(&c.label) {
                    let d = Key::Char(char::from(b'0' + n));
                    let by = step
                        .iter()
                        .find(|o| o.has_key(d))
                        .unwrap_or_else(|| panic!("{what}: its digit {n} chooses nothing"));
                    assert_eq!(number(&by.label), Some(n), "{what}: {n} chose {}", by.label);
                    seen.pieces += 1;
                }
            }
        }
    }
}

fn ball_piece(_prompt: &str, label: &str) -> Option<u8> {
    let n = label
        .strip_prefix("ATK")
        .or_else(|| label.strip_prefix("DEF"))?;
    n.parse().ok().filter(|n| (1..=7).contains(n))
}

/// A player's number; not in the sets of players who decline or receive
/// (`RED9` alone is a set there, numbered by the menu).
fn gball_player(prompt: &str, label: &str) -> Option<u8> {
    if prompt.contains("decline") || prompt.contains("receivers") {
        return None;
    }
    let n = label
        .strip_prefix("RED")
        .or_else(|| label.strip_prefix("BLU"))?;
    n.parse().ok().filter(|n| (1..=9).contains(n))
}

/// A card-mode game at its start, DEF to move with 3 EP and 2 AP: every
/// card with a target of each kind is legal.
fn cards_app() -> App<Ball> {
    let rs = Ruleset::load("cards").unwrap();
    let game = Ball::build(&rs).unwrap();
    let mut start = game.start();
    start.ep = [0, 3];
    start.ap = 2;
    App::new(Session::from_position(rs, &game, &start, PEOPLE).unwrap())
}

#[test]
fn digits_choose_in_every_menu_of_ball() {
    let mut seen = Seen::default();
    walk(cards_app(), (100, 30), 1, 0, |b| {
        check_keys(b, &ball_piece, &mut seen)
    });
    for seed in 0..3 {
        walk(app::<Ball>("cards", seed), (100, 30), seed, 120, |b| {
            check_keys(b, &ball_piece, &mut seen)
        });
    }
    assert!(seen.pieces > 100, "{seen:?}");
    assert!(seen.menu_digits > 20, "{seen:?}");

    // On the board: c, Sprint by its number, then DEF5 by its number.
    let mut b = Board::new(cards_app(), 80, 24);
    b.keys("c");
    let sprint = b
        .app
        .session()
        .options()
        .iter()
        .find(|c| c.label == "Sprint")
        .unwrap()
        .keys[0];
    let Key::Char(k) = sprint else {
        panic!("{sprint:?}")
    };
    b.keys(&k.to_string());
    assert!(b.app.session().prompt().contains("choose a piece"));
    b.keys("5");
    let chosen: Vec<String> = b
        .app
        .session()
        .chosen()
        .iter()
        .map(|c| c.label.clone())
        .collect();
    assert_eq!(chosen, ["cards", "Sprint", "DEF5"]);
}

#[test]
fn digits_choose_in_every_menu_of_gateball() {
    let mut seen = Seen::default();
    for seed in 0..3 {
        for rs in ["gateball", "gateball-tech-limit"] {
            walk(app::<Gateball>(rs, seed), (130, 32), seed, 150, |b| {
                check_keys(b, &|_: &str, _: &str| None::<u8>, &mut seen)
            });
        }
    }
    assert!(!seen.menus.is_empty(), "{seen:?}");
}

#[test]
fn digits_choose_in_every_menu_of_gball() {
    let mut seen = Seen::default();
    for seed in 0..3 {
        walk(app::<Gball>("gball", seed), (140, 40), seed, 1500, |b| {
            check_keys(b, &gball_player, &mut seen)
        });
    }
    assert!(seen.pieces > 100, "{seen:?}");
    assert!(seen.menu_digits > 10, "{seen:?}");
    for menu in ["\"RED1\"", "\"BLU1\"", "\"keep\"", "\"left\""] {
        assert!(
            seen.menus.iter().any(|m| m.ends_with(menu)),
            "{menu} never offered: {seen:?}"
        );
    }

    // On the board: the away team places first; 3 is BLU3.
    let mut b = Board::new(app::<Gball>("gball", 0), 140, 40);
    b.keys("3");
    let chosen: Vec<String> = b
        .app
        .session()
        .chosen()
        .iter()
        .map(|c| c.label.clone())
        .collect();
    assert_eq!(chosen, ["BLU3"]);
    assert!(b.app.session().prompt().contains("places BLU3"));
    b.key(KeyCode::Esc);
    assert!(b.app.session().chosen().is_empty());
}

// ---- labels in their cells ----

/// The screen's characters from column `x0` to `x1` (excluded) of line
/// `y`.
fn cells_text<G: GameBoard + Evaluate>(b: &Board<G>, x0: u16, x1: u16, y: u16) -> String {
    let buf = b.terminal.backend().buffer();
    (x0..x1).map(|x| buf[(x, y)].symbol().to_string()).collect()
}

/// Every piece and stack of BALL whole in its cell: its square and the
/// unplayable one to its right (column M: the frame's spill columns).
/// Returns the labels checked.
fn ball_labels_fit(b: &mut Board<Ball>) -> usize {
    b.screen();
    let scr = layout::layout(b.area(), &b.app);
    if scr.too_small {
        return 0;
    }
    let g = Geometry::of(scr.board);
    let pos = *b.app.session().position();
    let mut n = 0;
    for sq in Sq::all() {
        let label = if let Some(st) = pos.stacks.at(sq) {
            let sep = if st.top.team() == st.bottom.team() {
                "="
            } else {
                "/"
            };
            format!(
                "{}{sep}{}",
                piece_text(&pos, st.top),
                piece_text(&pos, st.bottom)
            )
        } else if let Some(id) = pos.piece_at(sq) {
            piece_text(&pos, id)
        } else {
            continue;
        };
        let c = sq.coord();
        let (x, y) = g.cell(c.col, c.row);
        let end = if c.col == COLS {
            scr.board.x + scr.board.width - 1
        } else {
            x + 2 * g.cw
        };
        let text = cells_text(b, x, end, y);
        assert!(
            text.contains(&label),
            "{sq} at {}x{}: {label:?} is not whole in its cell {text:?}",
            b.area().width,
            b.area().height
        );
        n += 1;
    }
    n
}

/// BALL's most crowded labels side by side: on one row, a protection of
/// two restricted pieces with the ball (8 columns) on column M, a block on
/// K and a restricted protection on I; the other pieces around them.
fn crowded_ball() -> App<Ball> {
    let rs = Ruleset::standard();
    let game = Ball::build(&rs).unwrap();
    let mut pos = game.start();
    pos.turn = 3;
    let me = pos.to_move;
    let them = if me == Team::Atk {
        Team::Def
    } else {
        Team::Atk
    };
    let on = |col: u8, row: u8| {
        Sq::all()
            .find(|s| s.coord().col == col && s.coord().row == row)
            .unwrap_or_else(|| panic!("no square at column {col}, row {row}"))
    };
    let row = (6..=12)
        .find(|&r| Sq::all().any(|s| s.coord().col == COLS && s.coord().row == r))
        .unwrap();
    let mine = |n| PieceId::new(me, n);
    let theirs = |n| PieceId::new(them, n);
    let places = [
        (mine(1), on(COLS, row)),
        (mine(2), on(COLS, row)),
        (mine(5), on(COLS - 2, row)),
        (theirs(1), on(COLS - 2, row)),
        (mine(3), on(COLS - 4, row)),
        (mine(4), on(COLS - 4, row)),
        (mine(6), on(COLS - 1, row + 1)),
        (mine(7), on(COLS - 3, row + 1)),
        (theirs(2), on(COLS - 1, row - 1)),
        (theirs(3), on(COLS - 3, row - 1)),
        (theirs(4), on(COLS - 5, row - 1)),
        (theirs(5), on(COLS - 5, row + 1)),
        (theirs(6), on(COLS - 7, row + 1)),
        (theirs(7), on(COLS - 7, row - 1)),
    ];
    for (id, sq) in places {
        let p = pos.piece_mut(id);
        p.at = sq;
        p.down = false;
        p.restricted = false;
    }
    for id in [mine(1), mine(2), mine(3), mine(4)] {
        pos.piece_mut(id).restricted = true;
    }
    pos.piece_mut(mine(7)).down = true;
    pos.piece_mut(theirs(3)).down = true;
    pos.stacks.clear();
    for (at, top, bottom) in [
        (on(COLS, row), mine(1), mine(2)),
        (on(COLS - 2, row), mine(5), theirs(1)),
        (on(COLS - 4, row), mine(3), mine(4)),
    ] {
        assert!(pos.stacks.insert(Stack {
            at,
            top,
            bottom,
            formed: 2,
        }));
    }
    pos.ball = BallState::Held(mine(1));
    App::new(Session::from_position(rs, &game, &pos, PEOPLE).unwrap())
}

#[test]
fn no_ball_label_leaves_its_cell_or_loses_a_character() {
    for (w, h) in [(79, 23), (80, 24), (100, 30), (130, 45)] {
        let mut b = Board::new(crowded_ball(), w, h);
        assert_eq!(ball_labels_fit(&mut b), 11, "{w}x{h}");
        let s = b.screen();
        assert!(s.contains("'●="), "the 8-column stack: {s}");
    }
    let mut labels = 0;
    for seed in 0..2 {
        walk(app::<Ball>("standard", seed), (79, 23), seed, 150, |b| {
            labels += ball_labels_fit(b)
        });
    }
    assert!(labels > 1000, "{labels}");
}

/// Every ball on Gateball's court whole in its cell, the cell's first
/// column never part of it (so `b10` never reads `vb10`). Returns the balls
/// checked, and whether `b10` was among them.
fn gateball_labels_fit(b: &mut Board<Gateball>) -> (usize, bool) {
    b.screen();
    let scr = layout::layout(b.area(), &b.app);
    assert!(!scr.too_small);
    let game = b.app.session().game().clone();
    let g = court::Geometry::of(&game.court, scr.board);
    let pos = b.app.session().position().clone();
    let (mut n, mut ten) = (0, false);
    for col in 1..=g.cols {
        for row in 1..=g.rows {
            let sp = Space::new(col, row);
            let Some(ball) = ball_on(&pos, sp) else {
                continue;
            };
            let token = ball_name(ball);
            let (x, y) = g.cell(sp);
            let text = cells_text(b, x, x + g.cw, y);
            assert!(text.contains(&token), "{sp}: {token} not whole in {text:?}");
            let first = text.chars().next().unwrap();
            assert!(
                !first.is_alphanumeric(),
                "{sp}: {text:?} fills its cell and runs into its neighbour"
            );
            n += 1;
            ten |= ball == 10;
        }
    }
    (n, ten)
}

#[test]
fn no_gateball_label_leaves_its_cell_or_runs_into_the_next() {
    let (w, h) = tui::layout::min_size(app::<Gateball>("gateball", 0).session().game());
    let (mut balls, mut ten) = (0, false);
    for size in [(w, h), (160, 30)] {
        for seed in 0..3 {
            walk(app::<Gateball>("gateball", seed), size, seed, 400, |b| {
                let (n, t) = gateball_labels_fit(b);
                balls += n;
                ten |= t;
            });
        }
    }
    assert!(balls > 1000, "{balls}");
    assert!(ten, "ball 10 never on the court");
}

/// Every G-ball player of a square of one or two whole in its cell with
/// his facing; a crowd counted; the ball shown. Returns the squares of two
/// players checked.
fn gball_labels_fit(b: &mut Board<Gball>) -> usize {
    b.screen();
    let scr = layout::layout(b.area(), &b.app);
    assert!(!scr.too_small);
    let game = b.app.session().game().clone();
    let pos = b.app.session().position().clone();
    let mut pairs = 0;
    for sq in 0..SQUARES as u8 {
        let (x, y) = game.cell_place(scr.board, sq).unwrap();
        let lines = format!(
            "{}\n{}",
            cells_text(b, x, x + 7, y),
            cells_text(b, x, x + 7, y + 1)
        );
        let on: Vec<u8> = members(pos.roster)
            .filter(|&p| pos.players[usize::from(p)].at == sq)
            .collect();
        if on.len() <= 2 {
            for &p in &on {
                let t = if team_of(p) == gball::Team::Red {
                    'R'
                } else {
                    'B'
                };
                let want = format!(
                    "{t}{}{}",
                    number_of(p),
                    dir_arrow(pos.players[usize::from(p)].facing)
                );
                assert!(
                    lines.contains(&want),
                    "square {sq}: {want} not whole in {lines:?}"
                );
            }
            pairs += usize::from(on.len() == 2);
        } else {
            let reds = on
                .iter()
                .filter(|&&p| team_of(p) == gball::Team::Red)
                .count();
            let want = format!("R{reds} B{}", on.len() - reds);
            assert!(
                lines.contains(&want),
                "square {sq}: {want} not in {lines:?}"
            );
        }
        let holder = pos.ball.holder;
        if pos.ball.at == sq && (holder == NONE || on.contains(&holder)) {
            assert!(
                lines.contains('●'),
                "square {sq}: the ball is not in {lines:?}"
            );
        }
    }
    pairs
}

#[test]
fn no_gball_label_leaves_its_cell_or_loses_a_facing() {
    let (w, h) = tui::layout::min_size(app::<Gball>("gball", 0).session().game());
    let mut pairs = 0;
    for seed in 0..3 {
        walk(app::<Gball>("gball", seed), (w, h), seed, 1500, |b| {
            pairs += gball_labels_fit(b)
        });
    }
    assert!(pairs > 20, "two players on a square only {pairs} times");
}

// ---- turns ----

#[test]
fn gball_numbers_its_turns_alike_in_the_status_line_and_the_log() {
    let mut checked = 0;
    let mut turns = HashSet::new();
    walk(app::<Gball>("gball", 4), (140, 40), 4, 1500, |b| {
        let pos = b.app.session().position().clone();
        let Some(seat) = b.app.session().game().to_move(&pos) else {
            return;
        };
        let want = if pos.turn == 0 {
            "placement".to_string()
        } else {
            format!("turn {}", pos.turn)
        };
        let screen = b.screen();
        let status = screen.lines().next().unwrap();
        assert!(
            status.contains(&format!("{want} ({} played)", pos.match_turns)),
            "{status}"
        );
        let (log, _) = tui::log::lines(b.app.session());
        let header = log
            .iter()
            .rev()
            .find(|l| l.indent == 0)
            .map(|l| l.text.clone())
            .unwrap();
        assert_eq!(header, format!("{want} · {}", Gball::SEATS[seat]));
        // The log's own `turn N of the point` is the same number.
        if let Some(p) = b.app.session().played().last()
            && pos.turn > 0
        {
            let game = b.app.session().game();
            let said = p
                .events
                .iter()
                .rev()
                .filter_map(|e| game.event_line(e))
                .filter_map(|(text, _)| text.strip_suffix(" of the point").map(str::to_string))
                .next();
            if let Some(n) = said {
                assert_eq!(n, want);
            }
        }
        turns.insert(pos.turn);
        checked += 1;
    });
    assert!(checked > 1000 && turns.len() > 10, "{checked} {turns:?}");
    // The end says how many turns the match played, as G3.6 counts them.
    let (game, mut pos, _) = Gball::build(&Gball::load_ruleset("gball").unwrap())
        .unwrap()
        .new_game(0);
    pos.pending = None;
    pos.match_turns = 17;
    assert_eq!(game.turn_text(&pos), "17 turns played");
}

// ---- sizes ----

/// The non-blank lines of the screen.
fn written(screen: &str) -> Vec<String> {
    screen
        .lines()
        .map(|l| l.trim_matches(|c| c == '"' || c == ' ').to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn check_size<G: GameBoard + Evaluate>(app: impl Fn() -> App<G>, help: &str, readme: &str) {
    let (w, h) = tui::layout::min_size(app().session().game());
    assert!(
        help.contains(&format!("{w}x{h}")),
        "{}: {w}x{h} not in the help",
        G::TITLE
    );
    assert!(
        readme.contains(&format!("{w} × {h}")),
        "{}: {w} × {h} not in the README",
        G::TITLE
    );
    let mut b = Board::new(app(), w, h);
    assert!(!b.screen().contains("Too small"));
    for (tw, th) in [(w - 1, h), (w, h - 1), (60, 20), (10, 1)] {
        b.resize(tw, th);
        let lines = written(&b.screen());
        assert_eq!(lines.len(), 1, "{}: {lines:?}", G::TITLE);
        let want = format!("Too small: {tw}x{th}; {} needs {w}x{h}. q quits.", G::TITLE);
        assert!(want.starts_with(&lines[0]), "{lines:?}");
        if tw >= 60 {
            assert_eq!(lines[0], want);
        }
    }
}

#[test]
fn each_games_least_size_is_the_one_stated_and_a_smaller_screen_says_so() {
    let help = ok(&["play", "--help"], None);
    let readme = include_str!("../README.md");
    check_size(|| app::<Ball>("standard", 0), &help, readme);
    check_size(|| app::<Gateball>("gateball", 0), &help, readme);
    check_size(|| app::<Gball>("gball", 0), &help, readme);
}

// ---- the log's tail ----

#[test]
fn the_log_drawn_is_the_end_of_the_whole_log() {
    walk(app::<Gball>("gball", 2), (140, 40), 2, 600, |b| {
        let (all, _) = tui::log::lines(b.app.session());
        for want in [1, 5, 40] {
            let (tail, _) = tui::log::tail(b.app.session(), want);
            assert!(tail.len() <= all.len());
            let end = &all[all.len() - tail.len()..];
            let same = tail
                .iter()
                .zip(end)
                .all(|(a, b)| a.text == b.text && a.indent == b.indent);
            assert!(
                same,
                "the last {want} actions' lines are not the log's last lines"
            );
            let actions = tail.iter().filter(|l| l.indent == 1).count();
            assert!(actions >= want.min(b.app.session().played().len()));
        }
    });
}
