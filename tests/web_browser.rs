//! The web board in a real browser: headless Chromium driven over
//! WebDriver (`webdriver.rs`) clicks through a whole BALL turn, a card play
//! and a Gateball shot, and each time the server's position must be the
//! library's for the same actions; a second browser on the spectator
//! link sees the moves and cannot act; forged and stale actions are
//! refused. Screenshots go to `target/screenshots/`.
//!
//! Without `/usr/bin/chromedriver` the tests say so loudly and pass,
//! unless `BALL_REQUIRE_BROWSER=1` (CI), where they fail.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ball::games::Module;
use ball::kernel::game::Title;
use serde_json::{Value, json};

use crate::web::{act, create, http, json_of, start, view};
use crate::webdriver::Browser;

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// Whether the browser tests can run; panics when CI requires them.
pub(crate) fn browser_here() -> bool {
    if Path::new(CHROMEDRIVER).exists() && Path::new(CHROMIUM).exists() {
        return true;
    }
    let notice = format!(
        "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\
         !!! BROWSER TESTS SKIPPED: {CHROMEDRIVER} or {CHROMIUM} is missing.\n\
         !!! apt-get install -y chromium chromium-driver\n\
         !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
    );
    if std::env::var("BALL_REQUIRE_BROWSER").as_deref() == Ok("1") {
        panic!("{notice}BALL_REQUIRE_BROWSER=1: the browser tests must run");
    }
    eprintln!("{notice}");
    false
}

/// A chromedriver of our own on a free port, ended (by its id) on drop.
pub(crate) struct Driver {
    child: Child,
    port: u16,
    _profiles: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub(crate) fn driver() -> Driver {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let t = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "chromedriver never listened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver {
        child,
        port,
        _profiles: tempfile::tempdir().unwrap(),
    }
}

/// A headless Chromium with a fresh profile.
pub(crate) fn browser(d: &Driver, name: &str) -> Browser {
    browser_sized(d, name, 1400, 1000)
}

fn screenshots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn shot(c: &Browser, name: &str) {
    let png = c.screenshot().expect("a screenshot");
    std::fs::write(screenshots().join(format!("{name}.png")), png).unwrap();
}

/// Evaluates a JS expression in the page.
pub(crate) fn js(c: &Browser, expr: &str) -> Value {
    c.execute(&format!("return ({expr});"))
        .expect("script runs")
}

/// Waits until the JS expression is true.
pub(crate) fn until(c: &Browser, expr: &str, what: &str) {
    let t = Instant::now();
    loop {
        if js(c, expr) == Value::Bool(true) {
            return;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "waited in vain for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn page_version(c: &Browser) -> u64 {
    js(c, "+(document.body.dataset.version || -1)")
        .as_i64()
        .unwrap_or(-1)
        .max(-1) as u64
}

/// Finds and clicks what `css` selects, again if the page redrew it in
/// between (a stale element).
pub(crate) fn click_css(c: &Browser, css: &str) {
    let mut last = String::new();
    for _ in 0..5 {
        match c.find(css) {
            Ok(e) => match e.click() {
                Ok(()) => return,
                Err(err) => last = err.to_string(),
            },
            Err(err) => last = err.to_string(),
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("cannot click {css}: {last}");
}

/// Clicks a board cell by name, and waits for the page to redraw.
fn click_cell(c: &Browser, cell: &str) {
    let before = js(
        c,
        "document.getElementById('board').innerHTML.length + ':' + document.getElementById('chosen').textContent + document.body.dataset.version",
    );
    click_css(c, &format!("#board [data-cell=\"{cell}\"] rect"));
    redrawn(c, before);
}

fn redrawn(c: &Browser, before: Value) {
    let t = Instant::now();
    while js(
        c,
        "document.getElementById('board').innerHTML.length + ':' + document.getElementById('chosen').textContent + document.body.dataset.version",
    ) == before
    {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "the page did not change"
        );
        std::thread::sleep(Duration::from_millis(30));
    }
}

fn click_option(c: &Browser, label: &str) {
    let before = js(
        c,
        "document.getElementById('board').innerHTML.length + ':' + document.getElementById('chosen').textContent + document.body.dataset.version",
    );
    click_css(c, &format!("#options button[data-label=\"{label}\"]"));
    redrawn(c, before);
}

fn press(c: &Browser, key: &str) {
    let before = js(
        c,
        "document.getElementById('board').innerHTML.length + ':' + document.getElementById('chosen').textContent + document.body.dataset.version",
    );
    c.find("body").unwrap().send_keys(key).unwrap();
    redrawn(c, before);
}

/// The cells that carry a choice now.
fn choice_cells(c: &Browser) -> Vec<String> {
    let v = js(
        c,
        "[...document.querySelectorAll('#board [data-choice]')].map(e => e.dataset.cell)",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The actions the server says were played, from its record.
fn played(addr: SocketAddr, id: &str, t: &str) -> Vec<String> {
    let (code, record) = http(addr, "GET", &format!("/api/games/{id}/record?t={t}"), None);
    assert_eq!(code, 200);
    let rec = ball::kernel::record::Record::parse(&record).unwrap();
    rec.actions
}

/// The library's position after `actions` from the start of a ruleset
/// and seed, or from `start` (a position's JSON).
fn library<G: Module>(ruleset: &str, seed: u64, start: Option<&str>, actions: &[String]) -> String {
    let game = G::build(&G::load_ruleset(ruleset).unwrap()).unwrap();
    let (mut game, mut pos, _) = game.new_game(seed);
    if let Some(s) = start {
        (game, pos) = game.read_position(s).unwrap();
    }
    for a in actions {
        let a = game.parse_action(a).unwrap();
        game.play(&mut pos, a, &mut Vec::new()).unwrap();
    }
    // What a client of an unfinished game is shown: no generator state.
    game.write_public_position(&pos)
}

#[test]
fn web_browser_a_ball_turn_by_clicks_and_a_spectator() {
    if !browser_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, all, watch) = create(addr, json!({"game": "ball", "seed": 11}));
    // seats[0]: the seat to move (DEF moves first, B4.1); seats[1]: the other.
    let k = crate::web::to_move(addr, &id, &watch);
    let seats = [all[k].clone(), all[1 - k].clone()];
    let d = driver();
    {
        let a = browser(&d, "seat");
        let b = browser(&d, "watch");
        a.goto(&format!("http://{addr}/g/{id}?t={}", seats[0]))
            .unwrap();
        b.goto(&format!("http://{addr}/g/{id}?t={watch}")).unwrap();
        until(
            &a,
            "document.body.dataset.version === '0'",
            "the seat's board",
        );
        until(
            &b,
            "document.body.dataset.version === '0'",
            "the spectator's board",
        );
        // Piece: a piece that can move, by its cell.
        let pieces = choice_cells(&a);
        assert!(!pieces.is_empty(), "pieces are offered on the board");
        let v = view(addr, &id, &seats[0]);
        let mover = v["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["cell"].is_string())
            .unwrap()["cell"]
            .as_str()
            .unwrap()
            .to_string();
        click_cell(&a, &mover);
        // Action: `move` from the menu.
        click_option(&a, "move");
        shot(&a, "ball-destinations");
        // Backspace takes the action back; Esc drops the piece too.
        press(&a, "\u{E003}");
        assert_eq!(
            js(&a, "document.getElementById('chosen').textContent"),
            json!(format!(
                "chosen: {}",
                v["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|o| o["cell"] == json!(mover))
                    .unwrap()["label"]
                    .as_str()
                    .unwrap()
            ))
        );
        press(&a, "\u{E00C}");
        assert_eq!(
            js(&a, "document.getElementById('chosen').textContent"),
            json!("")
        );
        click_cell(&a, &mover);
        click_option(&a, "move");
        // Destination: the first square offered.
        let to = choice_cells(&a);
        assert!(!to.is_empty(), "destinations are offered");
        click_cell(&a, &to[0]);
        until(
            &a,
            "document.body.dataset.version === '1'",
            "the move played",
        );
        until(
            &b,
            "document.body.dataset.version === '1'",
            "the spectator sees the move",
        );
        shot(&a, "ball-turn");
        // End the action phase by its key.
        press(&a, "e");
        until(
            &a,
            "document.body.dataset.version === '2'",
            "the turn ended",
        );
        until(
            &b,
            "document.body.dataset.version === '2'",
            "the spectator sees the end",
        );
        shot(&b, "ball-spectator");
        let actions = played(addr, &id, &watch);
        assert_eq!(actions.len(), 2, "{actions:?}");
        assert_eq!(actions[1], "end");
        let v = view(addr, &id, &watch);
        assert_eq!(
            v["position"].as_str().unwrap(),
            library::<ball::games::ball::Ball>("standard", 11, None, &actions)
        );
        // The spectator is offered nothing, and its page cannot act.
        assert_eq!(choice_cells(&b).len(), 0);
        assert_eq!(
            js(&b, "document.querySelectorAll('#options button').length"),
            json!(0)
        );
        let r = b
            .execute_async(
                &format!("const done = arguments[0]; fetch('/api/games/{id}/act?t={watch}', {{method: 'POST', body: JSON.stringify({{do: 'play', action: 'end'}})}}).then(r => r.json().then(j => done([r.status, j.error])));"))
            .unwrap();
        assert_eq!(r[0], json!(403), "{r}");
        // The other seat, now to move: a forged action and a stale one,
        // from its page.
        a.goto(&format!("http://{addr}/g/{id}?t={}", seats[1]))
            .unwrap();
        until(
            &a,
            "document.body.dataset.version === '2'",
            "the other seat's board",
        );
        let forged = a
            .execute_async(
                &format!("const done = arguments[0]; fetch('/api/games/{id}/act?t={}', {{method: 'POST', body: JSON.stringify({{do: 'play', action: 'move ATK1 A1'}})}}).then(r => r.json().then(j => done([r.status, j.error])));", seats[1]))
            .unwrap();
        assert!(
            forged[0] == json!(422) || forged[0] == json!(400),
            "{forged}"
        );
        let stale = a
            .execute_async(
                &format!("const done = arguments[0]; fetch('/api/games/{id}/act?t={}', {{method: 'POST', body: JSON.stringify({{do: 'play', action: 'end', version: 1}})}}).then(r => r.json().then(j => done([r.status, j.error])));", seats[1]))
            .unwrap();
        assert_eq!(stale[0], json!(409), "{stale}");
        assert!(stale[1].as_str().unwrap().contains("stale"));
        assert_eq!(page_version(&b), 2, "nothing changed");
        a.close().unwrap();
        b.close().unwrap();
    }
    server.stop();
}

#[test]
fn web_browser_a_card_play_by_clicks() {
    if !browser_here() {
        return;
    }
    use ball::games::ball::Ball;
    // The shove scenario's board (tests/scenarios/card_shove_works.scn).
    let rules = Ball::load_ruleset("cards").unwrap();
    let game = Ball::build(&rules).unwrap();
    let (game, mut pos, _) = game.new_game(0);
    for line in [
        "turn 2 ATK action 2",
        "place ATK3 H8",
        "place DEF3 I9",
        "ball held DEF3",
    ] {
        game.scenario_setup(&mut pos, line).unwrap();
    }
    let start_json = game.write_position(&pos);
    let session = ball::shell::Session::from_position(
        rules,
        &game,
        &pos,
        [ball::shell::Seat::Person, ball::shell::Seat::Person],
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (code, body) = http(addr, "POST", "/api/load", Some(&session.record().write()));
    assert_eq!(code, 201, "{body}");
    let links = json_of(&body);
    let id = links["id"].as_str().unwrap().to_string();
    let token = |l: &Value| l.as_str().unwrap().split("t=").nth(1).unwrap().to_string();
    let atk = token(&links["seats"][0]["link"]);
    let def = token(&links["seats"][1]["link"]);
    let d = driver();
    {
        let a = browser(&d, "atk");
        a.goto(&format!("http://{addr}/g/{id}?t={atk}")).unwrap();
        until(&a, "document.body.dataset.version === '0'", "the board");
        // Convert 2 AP (v, then the amount), end; DEF ends.
        press(&a, "v");
        click_option(&a, "2 AP");
        until(
            &a,
            "document.body.dataset.version === '1'",
            "the conversion",
        );
        press(&a, "e");
        until(&a, "document.body.dataset.version === '2'", "ATK's end");
        let (c, v) = act(addr, &id, &def, json!({"do": "play", "action": "end"}));
        assert_eq!(c, 200, "{v}");
        until(
            &a,
            "document.body.dataset.version === '3'",
            "DEF's end, pushed",
        );
        // The card menu: its rules text, then the card, then its targets.
        press(&a, "c");
        until(
            &a,
            "!document.getElementById('panel').hidden",
            "the card menu",
        );
        let panel = js(&a, "document.getElementById('panel').textContent");
        assert!(panel.as_str().unwrap().contains("Shove"), "{panel}");
        shot(&a, "ball-card-menu");
        let before = js(
            &a,
            "document.getElementById('board').innerHTML.length + ':' + document.getElementById('chosen').textContent + document.body.dataset.version",
        );
        click_css(&a, "#panel .item[data-label=\"Shove\"]");
        redrawn(&a, before);
        for cell in ["H8", "I9", "J10"] {
            let offered = choice_cells(&a);
            assert!(
                offered.contains(&cell.to_string()),
                "{cell} among {offered:?}"
            );
            click_cell(&a, cell);
        }
        until(
            &a,
            "document.body.dataset.version === '4'",
            "the card played",
        );
        shot(&a, "ball-card-played");
        let actions = played(addr, &id, &atk);
        assert_eq!(
            actions.last().unwrap(),
            "card shove ATK3 DEF3 J10",
            "{actions:?}"
        );
        let v = view(addr, &id, &atk);
        assert_eq!(
            v["position"].as_str().unwrap(),
            library::<Ball>("cards", 0, Some(&start_json), &actions)
        );
        let log = js(&a, "document.getElementById('log').textContent");
        assert!(log.as_str().unwrap().contains("card shove"), "{log}");
        a.close().unwrap();
    }
    server.stop();
}

#[test]
fn web_browser_a_gateball_shot_by_clicks() {
    if !browser_here() {
        return;
    }
    use ball::games::gateball::Gateball;
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, seats, _) = create(addr, json!({"game": "gateball", "seed": 5}));
    let first = view(addr, &id, &seats[0]);
    let me = if first["my_turn"] == true { 0 } else { 1 };
    let d = driver();
    {
        let a = browser(&d, "gate");
        a.goto(&format!("http://{addr}/g/{id}?t={}", seats[me]))
            .unwrap();
        until(
            &a,
            "document.body.dataset.myTurn === 'true'",
            "the shooter's board",
        );
        // The rulebook's order: a choice on the board where there is one
        // (the Start Space, where a move ends), else the first offered
        // (power), and Enter once the move waits with its judgement.
        let mut dice = json!(0);
        // `power` rolls the dice (an action of its own, T4.3); the shot
        // follows.
        for _ in 0..16 {
            if page_version(&a) >= 2 {
                break;
            }
            let waiting = js(&a, "!document.getElementById('confirm').disabled") == json!(true);
            if waiting {
                dice = js(&a, "document.querySelectorAll('#board [data-die]').length");
                shot(&a, "gateball-waiting");
                press(&a, "\u{E007}");
                continue;
            }
            let cells = choice_cells(&a);
            if let Some(c) = cells.first() {
                click_cell(&a, c);
            } else {
                let label = js(
                    &a,
                    "document.querySelector('#options button').dataset.label",
                );
                click_option(&a, label.as_str().unwrap());
            }
        }
        until(&a, "+document.body.dataset.version >= 2", "the shot played");
        shot(&a, "gateball-shot");
        let actions = played(addr, &id, &seats[0]);
        assert!(actions.len() >= 2, "{actions:?}");
        assert!(actions[1].starts_with("shot"), "{actions:?}");
        assert!(
            dice.as_u64().unwrap() >= 1 || actions.len() > 2,
            "the dice are drawn"
        );
        let v = view(addr, &id, &seats[0]);
        assert_eq!(
            v["position"].as_str().unwrap(),
            library::<Gateball>(Gateball::DEFAULT_RULESET, 5, None, &actions)
        );
        println!("gateball: {actions:?}, {dice} dice drawn");
        a.close().unwrap();
    }
    server.stop();
}

/// Loads a match record on the server: the game's id and its links'
/// tokens (two seats, the spectators').
fn load(addr: SocketAddr, record: &str) -> (String, [String; 2], String) {
    let (code, body) = http(addr, "POST", "/api/load", Some(record));
    assert_eq!(code, 201, "{body}");
    let links = json_of(&body);
    let token = |l: &Value| l.as_str().unwrap().split("t=").nth(1).unwrap().to_string();
    (
        links["id"].as_str().unwrap().to_string(),
        [
            token(&links["seats"][0]["link"]),
            token(&links["seats"][1]["link"]),
        ],
        token(&links["watch"]),
    )
}

#[test]
fn web_browser_whose_turn_it_is_and_the_end_banner() {
    if !browser_here() {
        return;
    }
    use ball::games::gateball::Gateball;
    use ball::shell::{Seat, Session};
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, seats, watch) = create(addr, json!({"game": "gateball", "seed": 5}));
    let k = crate::web::to_move(addr, &id, &watch);
    let name = ["red", "blue"][k];
    let d = driver();
    {
        let a = browser(&d, "mover");
        let b = browser(&d, "other");
        let c = browser(&d, "spectator");
        a.goto(&format!("http://{addr}/g/{id}?t={}", seats[k]))
            .unwrap();
        b.goto(&format!("http://{addr}/g/{id}?t={}", seats[1 - k]))
            .unwrap();
        c.goto(&format!("http://{addr}/g/{id}?t={watch}")).unwrap();
        for p in [&a, &b, &c] {
            until(p, "document.body.dataset.version === '0'", "the board");
        }
        let text =
            |p: &Browser, el: &str| js(p, &format!("document.getElementById('{el}').textContent"));
        assert_eq!(text(&a, "turn"), json!(format!("your turn ({name})")));
        assert!(text(&a, "prompt").as_str().unwrap().contains("power"));
        for p in [&b, &c] {
            assert_eq!(
                text(p, "turn"),
                json!(format!("waiting for {name} (a person)"))
            );
            assert_eq!(text(p, "prompt"), json!(""), "not the mover's prompt");
        }
        assert_eq!(
            text(&c, "seats"),
            json!("red: a person · blue: a person · watching")
        );
        let me = if k == 0 {
            "red: you · blue: a person"
        } else {
            "red: a person · blue: you"
        };
        assert_eq!(text(&a, "seats"), json!(me));
        // Nothing to undo yet: undo is off on every page; after the
        // mover's power, on for the mover only.
        for p in [&a, &b, &c] {
            assert_eq!(
                js(p, "document.getElementById('undo').disabled"),
                json!(true)
            );
        }
        click_option(&a, "power");
        until(
            &a,
            "!document.getElementById('undo').disabled",
            "undo for the mover",
        );
        until(
            &b,
            "document.body.dataset.version === '1'",
            "the other seat sees it",
        );
        assert_eq!(
            js(&b, "document.getElementById('undo').disabled"),
            json!(true)
        );
        assert_eq!(
            js(&c, "document.getElementById('undo').disabled"),
            json!(true)
        );
        assert_eq!(js(&a, "document.getElementById('end').hidden"), json!(true));
        shot(&b, "gateball-waiting-for");
        for p in [a, b, c] {
            p.close().unwrap();
        }
    }
    // A finished game: the banner says who won, the score and how.
    let rules = Gateball::load_ruleset(Gateball::DEFAULT_RULESET).unwrap();
    let mut s = Session::<Gateball>::new(rules, [Seat::Person, Seat::Person], 3).unwrap();
    let mut rng = 7u64;
    while s.to_move().is_some() {
        let legal = s.legal();
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s.play(legal[(rng >> 33) as usize % legal.len()]).unwrap();
    }
    let outcome = {
        use ball::kernel::game::Game;
        s.game().outcome(s.position()).unwrap()
    };
    let (id, _, watch) = load(addr, &s.record().write());
    {
        let c = browser(&d, "end");
        c.goto(&format!("http://{addr}/g/{id}?t={watch}")).unwrap();
        until(
            &c,
            "!document.getElementById('end').hidden",
            "the end banner",
        );
        let banner = js(&c, "document.getElementById('end').textContent");
        let banner = banner.as_str().unwrap();
        assert!(banner.contains(&outcome.score), "{banner}");
        assert!(banner.contains(outcome.end.name), "{banner}");
        match outcome.winner() {
            Some(w) => assert!(
                banner.contains(&format!("{} wins", Gateball::SEATS[w])),
                "{banner}"
            ),
            None => assert!(banner.contains("draw"), "{banner}"),
        }
        assert_eq!(
            js(&c, "document.getElementById('turn').textContent"),
            json!("")
        );
        shot(&c, "gateball-end-banner");
        c.close().unwrap();
    }
    server.stop();
}

/// The body sizes of the views of game `id` the page fetched, in order.
fn view_sizes(c: &Browser, id: &str) -> Vec<u64> {
    let sizes = js(
        c,
        &format!(
            "performance.getEntriesByType('resource').filter(e => e.name.includes('/api/games/{id}?')).map(e => e.encodedBodySize)"
        ),
    );
    sizes
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect()
}

/// A G-ball game of random bots (`gball-short`): all its actions, and
/// the record of the game `keep` actions before its end (the server's
/// bots play those again: their answers depend only on the game and the
/// seed).
fn long_gball(seed: u64, keep: usize) -> (usize, String) {
    use ball::games::gball::Gball;
    use ball::shell::bots::Answerer;
    use ball::shell::{Seat, Session};
    let rules = Gball::load_ruleset("gball-short").unwrap();
    let seats = [Seat::Bot("random".into()), Seat::Bot("random".into())];
    let mut s = Session::<Gball>::new(rules.clone(), seats.clone(), seed).unwrap();
    let mut bots = Answerer::default();
    while let Some(req) = s.bot_request() {
        let a = bots.answer(s.game(), &req).unwrap();
        assert!(s.bot_answer(req.version, a).unwrap());
    }
    let actions: Vec<_> = s.played().iter().map(|p| p.action).collect();
    let mut t = Session::<Gball>::new(rules, seats, seed).unwrap();
    for a in &actions[..actions.len() - keep] {
        t.play(*a).unwrap();
    }
    (actions.len(), t.record().write())
}

#[test]
fn web_browser_a_long_bot_game_watched_to_its_end() {
    if !browser_here() {
        return;
    }
    // A game of 30,000 actions or so; its last `KEEP` are played by the
    // server's bots while the page watches.
    const KEEP: usize = 400;
    let (total, record) = long_gball(LONG_SEED, KEEP);
    assert!(total >= 25_000, "a long game: {total} actions");
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let d = driver();
    // Early in a game: a new one, watched for a few seconds.
    {
        let (id, _, watch) = create(
            addr,
            json!({"game": "gball", "ruleset": "gball-short", "seed": LONG_SEED, "seats": ["random", "random"]}),
        );
        let c = browser(&d, "early");
        c.goto(&format!("http://{addr}/g/{id}?t={watch}")).unwrap();
        js(&c, "performance.setResourceTimingBufferSize(100000)");
        until(&c, "!!document.body.dataset.version", "the board");
        std::thread::sleep(Duration::from_secs(3));
        let sizes = view_sizes(&c, &id);
        let played = view(addr, &id, &watch)["played"].clone();
        let most = sizes.iter().skip(1).max().copied().unwrap_or(0);
        let mean = sizes.iter().skip(1).sum::<u64>() / (sizes.len().max(2) - 1) as u64;
        println!(
            "early in a game: {played} actions in 3 s, {} updates, first {} bytes, mean {mean}, most {most}",
            sizes.len().saturating_sub(1),
            sizes.first().copied().unwrap_or(0)
        );
        assert!(sizes.len() >= 3, "the page followed the game: {sizes:?}");
        // An update carries the actions since the page's last fetch, so
        // its size follows the bots' pace (15-20 actions an update here):
        // the bound is tens of kilobytes, against a whole view's hundreds
        // of kilobytes by 1,500 actions before views carried changes.
        assert!(most < UPDATE_BOUND, "an update: {most} bytes");
        c.close().unwrap();
    }
    let t0 = Instant::now();
    let (id, _, watch) = load(addr, &record);
    {
        let c = browser(&d, "long");
        c.goto(&format!("http://{addr}/g/{id}?t={watch}")).unwrap();
        js(&c, "performance.setResourceTimingBufferSize(100000)");
        until(&c, "!!document.body.dataset.version", "the board");
        let deadline = Instant::now() + Duration::from_secs(90);
        let mut most_lines = 0;
        loop {
            // The page answers at once however long the game is.
            let asked = Instant::now();
            let lines = js(&c, "document.getElementById('log').childElementCount")
                .as_u64()
                .unwrap();
            assert!(
                asked.elapsed() < Duration::from_secs(2),
                "the page is slow to answer"
            );
            most_lines = most_lines.max(lines);
            if js(&c, "!document.getElementById('end').hidden") == json!(true) {
                break;
            }
            assert!(Instant::now() < deadline, "the game did not end in time");
            std::thread::sleep(Duration::from_millis(250));
        }
        let v = view(addr, &id, &watch);
        assert_eq!(
            v["played"].as_u64().unwrap() as usize,
            total,
            "played to its end"
        );
        until(
            &c,
            &format!("document.body.dataset.version === '{}'", v["version"]),
            "the last version",
        );
        // Every view the page fetched: the first a page of the log, each
        // update a few kilobytes.
        let sizes = view_sizes(&c, &id);
        // How many updates the page fetched depends on how fast the bots
        // play the last actions (a change coalesces those before it): on
        // a busy machine the faster engine may finish them before the
        // page's first update, and the first view is then the end. The
        // updates' sizes are checked when there are some (and always in
        // the early game above); the first view's and the log's always.
        assert!(!sizes.is_empty(), "the page fetched no view: {sizes:?}");
        let (first, rest) = sizes.split_first().unwrap();
        let most = rest.iter().max().copied().unwrap_or(0);
        let mean = rest.iter().sum::<u64>() / rest.len().max(1) as u64;
        println!(
            "long game: {total} actions, watched the last {KEEP} in {:.1} s: first view {first} bytes, {} updates, mean {mean} bytes, most {most}; at most {most_lines} log lines",
            t0.elapsed().as_secs_f64(),
            rest.len()
        );
        assert!(*first < 150_000, "the first view: {first} bytes");
        assert!(most < UPDATE_BOUND, "an update: {most} bytes");
        assert!(most_lines <= 600, "the page's log holds {most_lines} lines");
        let end = js(&c, "document.getElementById('end').textContent");
        assert!(
            end.as_str()
                .unwrap()
                .contains(v["end"]["score"].as_str().unwrap()),
            "{end}"
        );
        // "older" brings the earlier lines back, above the others.
        let top = js(&c, "document.getElementById('log').firstChild.textContent");
        let before = js(&c, "document.getElementById('log').childElementCount")
            .as_u64()
            .unwrap();
        click_css(&c, "#older");
        until(
            &c,
            &format!("document.getElementById('log').childElementCount > {before}"),
            "an older page",
        );
        let after = js(&c, "document.getElementById('log').firstChild.textContent");
        assert_ne!(top, after, "older lines on top");
        shot(&c, "gball-long-game-end");
        c.close().unwrap();
    }
    server.stop();
}

/// The seed of `long_gball`'s game: 30,743 actions (seeds 1 to 5 give
/// 8,418 to 25,155).
const LONG_SEED: u64 = 6;

/// The most an update of the watched page may carry: kilobytes, whatever
/// the game's length (a whole view near its end is 11-13 MB).
const UPDATE_BOUND: u64 = 160_000;

/// A headless Chromium whose window is `w` × `h` (a phone: 390 wide).
fn browser_sized(d: &Driver, name: &str, w: u32, h: u32) -> Browser {
    let profile = d._profiles.path().join(name);
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", format!("--window-size={},{h}", w.max(500)),
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    // A window is at least 500 wide: a phone's width is emulated.
    if w < 500 {
        caps["goog:chromeOptions"]["mobileEmulation"] = json!({
            "deviceMetrics": {"width": w, "height": h, "pixelRatio": 1.0},
        });
    }
    let driver = SocketAddr::from(([127, 0, 0, 1], d.port));
    Browser::start(driver, serde_json::Value::Object(caps)).expect("a browser session")
}

/// A screenshot for the documentation: into `target/screenshots/`, and
/// into `docs/screenshots/` (what the README shows) when
/// `BALL_DOC_SCREENSHOTS=1` — only then, so that an ordinary test run
/// leaves the work tree as it was.
fn doc_shot(c: &Browser, name: &str) {
    let png = c.screenshot().expect("a screenshot");
    assert!(png.len() > 5000, "{name}: an empty screenshot");
    std::fs::write(screenshots().join(format!("{name}.png")), &png).unwrap();
    if std::env::var("BALL_DOC_SCREENSHOTS").as_deref() == Ok("1") {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs")
            .join("screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), &png).unwrap();
    }
}

/// Whether the page scrolls sideways (it must not, even on a phone).
fn scrolls_sideways(c: &Browser) -> bool {
    js(
        c,
        "document.documentElement.scrollWidth > window.innerWidth || document.body.scrollWidth > window.innerWidth",
    ) == Value::Bool(true)
}

/// Plays one action of the seat this page is, by what the page offers:
/// Enter for a move that waits, else the first cell that carries a
/// choice, else the first option; until the game's version moves on.
fn play_one(c: &Browser) {
    until(
        c,
        "document.body.dataset.myTurn === 'true'",
        "this seat's turn",
    );
    let v0 = page_version(c);
    for _ in 0..30 {
        if page_version(c) > v0 {
            return;
        }
        if js(c, "!document.getElementById('confirm').disabled") == Value::Bool(true) {
            press(c, "\u{E007}");
            continue;
        }
        let cells = choice_cells(c);
        if let Some(cell) = cells.first() {
            click_cell(c, cell);
            continue;
        }
        let label = js(
            c,
            "(document.querySelector('#options button') || {dataset: {}}).dataset.label || null",
        );
        match label.as_str() {
            Some(l) => click_option(c, l),
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    }
    let t = Instant::now();
    while page_version(c) <= v0 {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "no action was played"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Plays until each of the two pages has played `each` actions (both
/// seats of one game), at most `cap` actions in all; how many each
/// played.
fn play_both(pages: [&Browser; 2], each: usize, cap: usize) -> [usize; 2] {
    let mut done = [0, 0];
    for _ in 0..cap {
        if done.iter().all(|&n| n >= each) {
            break;
        }
        let k = (0..2)
            .find(|&k| js(pages[k], "document.body.dataset.myTurn === 'true'") == Value::Bool(true))
            .unwrap_or_else(|| {
                std::thread::sleep(Duration::from_millis(200));
                usize::from(
                    js(pages[1], "document.body.dataset.myTurn === 'true'") == Value::Bool(true),
                )
            });
        play_one(pages[k]);
        done[k] += 1;
        let v = page_version(pages[k]);
        until(
            pages[1 - k],
            &format!("+document.body.dataset.version >= {v}"),
            "the other seat sees the move",
        );
    }
    done
}

/// Two browsers, one a seat each, play a few actions of `game` by
/// clicks; the server's position is then the library's for the actions
/// it recorded, and the board is photographed.
fn two_seats<G: Module>(game: &str, seed: u64) {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, seats, watch) = create(
        addr,
        json!({"game": game, "seed": seed, "seats": ["human", "human"]}),
    );
    let d = driver();
    {
        let a = browser_sized(&d, "one", 1280, 1200);
        let b = browser_sized(&d, "two", 1280, 1200);
        a.goto(&format!("http://{addr}/g/{id}?t={}", seats[0]))
            .unwrap();
        b.goto(&format!("http://{addr}/g/{id}?t={}", seats[1]))
            .unwrap();
        for c in [&a, &b] {
            until(c, "document.body.dataset.version === '0'", "the board");
        }
        let done = play_both([&a, &b], 2, 40);
        assert!(
            done.iter().all(|&n| n >= 2),
            "{game}: each seat plays: {done:?}"
        );
        let actions = played(addr, &id, &watch);
        assert_eq!(actions.len(), done[0] + done[1], "{actions:?}");
        let v = view(addr, &id, &watch);
        assert_eq!(
            v["position"].as_str().unwrap(),
            library::<G>(G::DEFAULT_RULESET, seed, None, &actions),
            "{game}"
        );
        // The board as drawn: cells, and no terminal characters.
        let svg = v["svg"].as_str().unwrap();
        assert!(svg.matches("data-cell=").count() > 30);
        doc_shot(&a, &format!("board-{game}"));
        println!("{game}: {done:?} {actions:?}");
        a.close().unwrap();
        b.close().unwrap();
    }
    server.stop();
}

/// A position of `G` from a file of the tests, loaded into a server as
/// a record and photographed from a seat: boards in the middle of play
/// for the documentation (a touch in Gateball, a point in G-ball).
fn position_shot<G: Module>(file: &str, name: &str) {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let rules = G::load_ruleset(G::DEFAULT_RULESET).unwrap();
    let game = G::build(&rules).unwrap();
    let (game, pos) = game.read_position(&text).unwrap();
    let people = [ball::shell::Seat::Person, ball::shell::Seat::Person];
    let session = ball::shell::Session::from_position(rules, &game, &pos, people).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (code, body) = http(addr, "POST", "/api/load", Some(&session.record().write()));
    assert_eq!(code, 201, "{body}");
    let links = json_of(&body);
    let link = links["seats"][0]["link"].as_str().unwrap();
    let d = driver();
    {
        let a = browser_sized(&d, "shot", 1280, 1200);
        a.goto(&format!("http://{addr}{link}")).unwrap();
        until(&a, "document.body.dataset.version === '0'", "the board");
        doc_shot(&a, name);
        a.close().unwrap();
    }
    server.stop();
}

#[test]
fn web_browser_boards_in_play() {
    if !browser_here() {
        return;
    }
    position_shot::<ball::games::gateball::Gateball>(
        "tests/gateball/positions/spark.json",
        "board-gateball-touch",
    );
    position_shot::<ball::games::gball::Gball>("tests/gball/mid-catch.json", "board-gball-play");
}

#[test]
fn web_browser_two_seats_play_ball() {
    if !browser_here() {
        return;
    }
    two_seats::<ball::games::ball::Ball>("ball", 3);
}

#[test]
fn web_browser_two_seats_play_gateball() {
    if !browser_here() {
        return;
    }
    two_seats::<ball::games::gateball::Gateball>("gateball", 4);
}

#[test]
fn web_browser_two_seats_play_gball() {
    if !browser_here() {
        return;
    }
    two_seats::<ball::games::gball::Gball>("gball", 2);
}

/// The lobby: one browser creates a listed game from the home page (its
/// rulesets and seat names come from the server) and takes its seat; a
/// second browser, phone-sized, finds it in the lobby and joins; both
/// seats play. Neither page scrolls sideways.
#[test]
fn web_browser_the_lobby_from_two_browsers() {
    if !browser_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let d = driver();
    {
        let a = browser_sized(&d, "creator", 1280, 900);
        let b = browser_sized(&d, "phone", 390, 844);
        a.goto(&format!("http://{addr}/")).unwrap();
        until(
            &a,
            "document.body.dataset.choices === 'ball'",
            "BALL's choices",
        );
        a.execute(
            "const g = document.getElementById('game'); g.value = 'gateball'; g.dispatchEvent(new Event('change'));",
        )
        .unwrap();
        until(
            &a,
            "document.body.dataset.choices === 'gateball'",
            "Gateball's choices",
        );
        let rulesets = js(
            &a,
            "[...document.querySelectorAll('#ruleset option')].map(o => o.value)",
        );
        let rulesets: Vec<&str> = rulesets
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert!(
            rulesets.contains(&"gateball") && rulesets.contains(&"gateball-bonus"),
            "{rulesets:?}"
        );
        assert!(!rulesets.contains(&"standard"), "{rulesets:?}");
        a.execute(
            "const r = document.getElementById('ruleset'); r.value = 'gateball-bonus'; r.dispatchEvent(new Event('change'));",
        )
        .unwrap();
        let about = js(&a, "document.getElementById('ruleset-about').textContent");
        assert!(about.as_str().unwrap().contains("continuation"), "{about}");
        let seat1 = js(&a, "document.getElementById('seatname1').textContent");
        assert!(seat1.as_str().unwrap().starts_with("red"), "{seat1}");
        a.execute("document.getElementById('seat2').value = 'human';")
            .unwrap();
        click_css(&a, "#listed");
        click_css(&a, "#create");
        until(
            &a,
            "document.querySelectorAll('#links .seat-link').length === 1",
            "the creator's links",
        );
        assert_eq!(
            js(&a, "document.querySelectorAll('#links .open').length"),
            json!(1)
        );
        assert_eq!(
            js(&a, "document.querySelectorAll('#links button.copy').length"),
            json!(2)
        );
        until(
            &a,
            "document.querySelectorAll('#lobby .game').length === 1",
            "the game in the lobby",
        );
        doc_shot(&a, "home-desktop");
        let mine = js(&a, "document.querySelector('#links .seat-link').value");
        a.goto(mine.as_str().unwrap()).unwrap();
        until(
            &a,
            "document.body.dataset.version === '0'",
            "the creator's board",
        );
        // The phone: the lobby, then the seat.
        b.goto(&format!("http://{addr}/")).unwrap();
        until(
            &b,
            "document.querySelectorAll('#lobby button.join').length === 1",
            "the lobby on the phone",
        );
        assert!(
            !scrolls_sideways(&b),
            "the home page scrolls sideways on a phone"
        );
        let lobby = js(&b, "document.getElementById('lobby').innerHTML");
        assert!(
            !lobby.as_str().unwrap().contains("?t="),
            "a token in the lobby: {lobby}"
        );
        doc_shot(&b, "home-phone");
        click_css(&b, "#lobby button.join");
        until(&b, "location.pathname.startsWith('/g/')", "the joined seat");
        until(
            &b,
            "document.body.dataset.version === '0'",
            "the joiner's board",
        );
        assert!(
            !scrolls_sideways(&b),
            "the board page scrolls sideways on a phone"
        );
        let width = js(
            &b,
            "document.querySelector('#board svg').getBoundingClientRect().width",
        );
        let inner = js(&b, "window.innerWidth");
        assert!(
            width.as_f64().unwrap() <= 390.0,
            "the board scales: {width} in {inner}"
        );
        doc_shot(&b, "board-phone");
        let id = js(&b, "location.pathname.split('/').pop()");
        let id = id.as_str().unwrap();
        let t = js(&b, "new URLSearchParams(location.search).get('t')");
        assert_eq!(view(addr, id, t.as_str().unwrap())["you"], json!(1));
        // Nobody else can join now.
        let (code, _) = http(addr, "POST", &format!("/api/lobby/{id}/join"), Some(""));
        assert_eq!(code, 409);
        let done = play_both([&a, &b], 2, 30);
        assert!(done.iter().all(|&n| n >= 2), "{done:?}");
        a.close().unwrap();
        b.close().unwrap();
    }
    server.stop();
}
