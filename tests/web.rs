//! `ball serve` over HTTP, without a browser: seats and their links,
//! refusals (each a 4xx with JSON `{error}`), server push, records kept
//! across a restart, the gallery, `ball show --svg`, and the bounded load
//! test (200 games played by bots through the HTTP interface).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

use ball::games::ball::Ball;
use ball::kernel::game::Title;
use ball::web::server::{Config, Server};
use serde_json::{Value, json};

/// A server on a free loopback port keeping its games in `dir`'s
/// `games.db`.
pub fn start(dir: &Path) -> Server {
    Server::start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: dir.join("games.db"),
        import_dir: None,
        max_games: 1000,
        idle: ball::web::server::IDLE,
    })
    .expect("the server starts")
}

/// One HTTP/1.1 request (a fresh connection each): status and body.
pub fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// The record the server stored of game `id` (seed and all), and its
/// version, read from the games file of a stopped server.
pub fn stored(dir: &Path, id: &str) -> (String, u64) {
    let (games, _) = ball::web::store::Store::open(&dir.join("games.db"))
        .unwrap()
        .load_all();
    let g = games
        .into_iter()
        .find(|g| g.id == id)
        .unwrap_or_else(|| panic!("game {id} is not in the store"));
    (g.record, g.version)
}

pub fn json_of(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

/// Creates a game: its id, the two seat tokens, the spectator token.
pub fn create(addr: SocketAddr, req: Value) -> (String, [String; 2], String) {
    let (code, body) = http(addr, "POST", "/api/games", Some(&req.to_string()));
    assert_eq!(code, 201, "{body}");
    let v = json_of(&body);
    let token = |link: &Value| {
        link.as_str()
            .unwrap()
            .split("t=")
            .nth(1)
            .unwrap()
            .to_string()
    };
    (
        v["id"].as_str().unwrap().to_string(),
        [token(&v["seats"][0]["link"]), token(&v["seats"][1]["link"])],
        token(&v["watch"]),
    )
}

pub fn view(addr: SocketAddr, id: &str, t: &str) -> Value {
    let (code, body) = http(addr, "GET", &format!("/api/games/{id}?t={t}"), None);
    assert_eq!(code, 200, "{body}");
    json_of(&body)
}

pub fn act(addr: SocketAddr, id: &str, t: &str, req: Value) -> (u16, Value) {
    let (code, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/act?t={t}"),
        Some(&req.to_string()),
    );
    (code, json_of(&body))
}

/// The position BALL's library reaches from the standard start (seed
/// `seed`) with `actions`: what the server must show.
pub fn ball_after(seed: u64, actions: &[&str]) -> String {
    let game = Ball::build(&Ball::load_ruleset("standard").unwrap()).unwrap();
    let (game, mut pos, _) = game.new_game(seed);
    for a in actions {
        let a = game.parse_action(a).unwrap();
        game.play(&mut pos, a, &mut Vec::new()).unwrap();
    }
    game.write_position(&pos)
}

/// A value's first few hundred characters, for a failure's message.
pub fn short(v: &Value) -> String {
    v.to_string().chars().take(300).collect()
}

/// The seat to move of a game.
pub fn to_move(addr: SocketAddr, id: &str, t: &str) -> usize {
    view(addr, id, t)["to_move"]
        .as_u64()
        .expect("a seat is to move") as usize
}

fn refused(code: u16, v: &Value, want: u16, words: &str) {
    assert_eq!(code, want, "{}", short(v));
    let e = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field: {v}"));
    assert!(e.contains(words), "`{e}` should say `{words}`");
}

#[test]
fn web_a_turn_by_choices_is_the_librarys_turn() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, seats, _) = create(addr, json!({"game": "ball", "seed": 3}));
    let k = to_move(addr, &id, &seats[0]);
    let me = &seats[k];
    let v = view(addr, &id, me);
    assert_eq!(v["my_turn"], true);
    assert!(v["svg"].as_str().unwrap().contains("data-choice="));
    // The first offered piece, then its first kind of action, then its
    // first square: one legal action, built from the offered choices.
    let mut labels = Vec::new();
    let mut v = v;
    while v["version"] == 0 {
        let options = v["options"].as_array().unwrap();
        let pick = options
            .iter()
            .find(|o| o["label"] != "end" && o["label"] != "cards" && o["label"] != "convert")
            .unwrap_or(&options[0])["label"]
            .as_str()
            .unwrap()
            .to_string();
        labels.push(pick.clone());
        let (code, next) = act(addr, &id, me, json!({"do": "choose", "label": pick}));
        assert_eq!(code, 200, "{}", next["error"]);
        v = next;
        if v["waiting"] == true {
            let (code, next) = act(addr, &id, me, json!({"do": "confirm"}));
            assert_eq!(code, 200, "{}", short(&next));
            v = next;
        }
        assert!(
            labels.len() < 6,
            "a BALL action is at most a few choices: {labels:?}"
        );
    }
    let played: Vec<String> = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "action")
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(played.len(), 1, "{labels:?} played one action");
    let refs: Vec<&str> = played.iter().map(String::as_str).collect();
    assert_eq!(v["position"].as_str().unwrap(), ball_after(3, &refs));
    server.stop();
}

#[test]
fn web_only_the_seat_to_move_acts_and_only_legally() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, all, watch) = create(addr, json!({"game": "ball"}));
    // seats[0] is the seat to move (DEF moves first, B4.1), seats[1] the other.
    let k = to_move(addr, &id, &watch);
    let seats = [all[k].clone(), all[1 - k].clone()];
    let (first, second) = (Ball::SEATS[k], Ball::SEATS[1 - k]);
    let end = json!({"do": "play", "action": "end"});
    let (c, v) = act(addr, &id, &watch, end.clone());
    refused(c, &v, 403, "spectator");
    let (c, v) = act(addr, &id, &seats[1], end.clone());
    refused(c, &v, 403, &format!("not {second}'s turn"));
    let (c, v) = act(addr, &id, "0123456789abcdef0123456789abcdef", end.clone());
    refused(c, &v, 404, "no game");
    let (c, v) = act(
        addr,
        &id,
        &seats[0],
        json!({"do": "play", "action": format!("move {first}1 A1")}),
    );
    assert!(c == 422 || c == 400, "{c} {v}");
    assert!(v["error"].is_string());
    let (c, v) = act(
        addr,
        &id,
        &seats[0],
        json!({"do": "choose", "label": "no such choice"}),
    );
    refused(c, &v, 422, "not a choice");
    let (c, v) = act(addr, &id, &seats[0], json!({"do": "click", "cell": "Z99"}));
    refused(c, &v, 400, "no cell");
    let (c, v) = act(addr, &id, &seats[0], json!({"do": "fly"}));
    refused(c, &v, 400, "malformed request");
    let (code, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/act?t={}", seats[0]),
        Some("{\"do\":"),
    );
    refused(code, &json_of(&body), 400, "malformed");
    let deep = "[".repeat(10_000);
    let (code, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/act?t={}", seats[0]),
        Some(&deep),
    );
    refused(code, &json_of(&body), 400, "malformed");
    let big = format!("{{\"do\":\"play\",\"action\":\"{}\"}}", "x".repeat(100_000));
    let (code, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/act?t={}", seats[0]),
        Some(&big),
    );
    assert_eq!(code, 413, "{body}");
    assert!(json_of(&body)["error"].is_string());
    // Stale: an act made on version 0 after the game moved on.
    let (c, _) = act(
        addr,
        &id,
        &seats[0],
        json!({"do": "play", "action": "end", "version": 0}),
    );
    assert_eq!(c, 200);
    let (c, v) = act(
        addr,
        &id,
        &seats[1],
        json!({"do": "play", "action": "end", "version": 0}),
    );
    refused(c, &v, 409, "stale");
    // Undo belongs to the seat whose action it is.
    let (c, v) = act(addr, &id, &seats[1], json!({"do": "undo"}));
    refused(c, &v, 403, &format!("{first}'s"));
    let (c, v) = act(addr, &id, &seats[0], json!({"do": "undo"}));
    assert_eq!(c, 200, "{}", v["error"]);
    assert_eq!(v["played"], 0);
    let (c, v) = act(addr, &id, &seats[0], json!({"do": "redo"}));
    assert_eq!(c, 200, "{}", v["error"]);
    assert_eq!(v["played"], 1);
    let (code, body) = http(addr, "GET", "/api/games/zz?t=1", None);
    refused(code, &json_of(&body), 404, "no game");
    let (code, body) = http(addr, "POST", "/api/games", Some("{\"game\":\"chess\"}"));
    refused(code, &json_of(&body), 400, "no game `chess`");
    let (code, body) = http(
        addr,
        "POST",
        "/api/games",
        Some("{\"ruleset\":\"../../etc/passwd\"}"),
    );
    assert!((400..500).contains(&code), "{body}");
    let (code, body) = http(
        addr,
        "POST",
        "/api/games",
        Some("{\"seats\":[\"human\",\"alphazero\"]}"),
    );
    refused(code, &json_of(&body), 400, "seat 2");
    server.stop();
}

/// Reads server-sent events until one named `change` arrives.
fn next_change(r: &mut BufReader<TcpStream>) -> String {
    let mut line = String::new();
    let mut event = String::new();
    loop {
        line.clear();
        assert!(r.read_line(&mut line).unwrap() > 0, "the stream ended");
        let l = line.trim_end();
        if let Some(e) = l.strip_prefix("event: ") {
            event = e.to_string();
        } else if let Some(d) = l.strip_prefix("data: ")
            && event == "change"
        {
            return d.to_string();
        }
    }
}

#[test]
fn web_every_client_is_told_of_a_change_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, seats, watch) = create(addr, json!({"game": "ball"}));
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET /api/games/{id}/events?t={watch} HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut r = BufReader::new(s);
    assert_eq!(next_change(&mut r), "0:0");
    let t = Instant::now();
    let k = to_move(addr, &id, &watch);
    let (c, _) = act(addr, &id, &seats[k], json!({"do": "play", "action": "end"}));
    assert_eq!(c, 200);
    assert_eq!(next_change(&mut r), "1:0");
    println!("change pushed in {:?}", t.elapsed());
    let v = view(addr, &id, &watch);
    assert_eq!(v["my_turn"], false);
    assert_eq!(
        v["options"].as_array().unwrap().len(),
        0,
        "a spectator is offered nothing"
    );
    server.stop();
}

#[test]
fn web_a_restart_loses_nothing_saved() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let (id, seats, watch) = create(server.addr, json!({"game": "gateball", "seed": 5}));
    let me = &seats[to_move(server.addr, &id, &watch)];
    // A whole action, by the first choices offered.
    let mut v = view(server.addr, &id, me);
    for _ in 0..8 {
        if v["played"] != 0 {
            break;
        }
        let (c, next) = if v["waiting"] == true {
            act(server.addr, &id, me, json!({"do": "confirm"}))
        } else {
            let l = v["options"][0]["label"].as_str().unwrap().to_string();
            act(server.addr, &id, me, json!({"do": "choose", "label": l}))
        };
        assert_eq!(c, 200, "{}", next["error"]);
        v = next;
    }
    assert_eq!(v["played"], 1, "{}", v["prompt"]);
    let (code, record) = http(
        server.addr,
        "GET",
        &format!("/api/games/{id}/record?t={watch}"),
        None,
    );
    assert_eq!(code, 200);
    assert!(record.contains("game: gateball"), "{record}");
    assert!(!record.contains("seed:"), "unfinished: no seed\n{record}");
    server.stop();
    let again = start(dir.path());
    assert_eq!(again.reloaded, 1, "{:?}", again.notes);
    let w = view(again.addr, &id, &watch);
    assert_eq!(w["position"], v["position"]);
    assert_eq!(w["played"], 1);
    // The seats' links still act, for their seats only.
    let (c, _) = act(again.addr, &id, &watch, json!({"do": "undo"}));
    assert_eq!(c, 403);
    // A record downloaded before the end has no seed, and does not load.
    let (code, body) = http(again.addr, "POST", "/api/load", Some(&record));
    assert_eq!(code, 400, "{body}");
    again.stop();
}

#[test]
fn web_a_bot_seat_answers() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    // DEF moves first (B4.1): the bot's turn, then the person's.
    let (id, seats, _) = create(
        addr,
        json!({"game": "ball", "seats": ["human", "random"], "seed": 1}),
    );
    let t = Instant::now();
    let mut ended = false;
    loop {
        let v = view(addr, &id, &seats[0]);
        if v["my_turn"] == true && !ended {
            assert!(v["played"].as_u64().unwrap() >= 1, "the bot played first");
            let (c, v) = act(addr, &id, &seats[0], json!({"do": "play", "action": "end"}));
            assert_eq!(c, 200, "{}", v["error"]);
            ended = true;
        } else if v["my_turn"] == true {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "the bot never answered"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    server.stop();
}

#[test]
fn web_pages_and_the_gallery() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (code, home) = http(addr, "GET", "/", None);
    assert_eq!(code, 200);
    for g in ball::games::NAMES {
        assert!(home.contains(&format!("value=\"{g}\"")), "{g}");
    }
    // Every game's board is served, with its cells named.
    for g in ball::games::NAMES {
        let (id, seats, watch) = create(addr, json!({"game": g}));
        let v = view(addr, &id, &watch);
        assert_eq!(v["game"], *g);
        assert!(
            v["svg"].as_str().unwrap().matches("data-cell=").count() > 30,
            "{g}"
        );
        let k = v["to_move"].as_u64().unwrap() as usize;
        let mine = view(addr, &id, &seats[k]);
        assert!(
            !mine["options"].as_array().unwrap().is_empty(),
            "{g}: choices offered"
        );
        let (code, page) = http(addr, "GET", &format!("/g/{id}?t={watch}"), None);
        assert_eq!(code, 200);
        assert!(page.contains("boardPage()"));
    }
    let (code, js) = http(addr, "GET", "/page.js", None);
    assert_eq!(code, 200);
    assert!(js.contains("EventSource"));
    let (code, page) = http(addr, "GET", "/gallery?ruleset=cards", None);
    assert_eq!(code, 200, "{page}");
    let cards = page.matches("<section class=\"card\"").count();
    assert!(cards >= 10, "{cards} cards");
    assert!(page.contains("card-shove"));
    assert_eq!(
        page.matches("no scenario").count(),
        0,
        "every card has its _works scenario"
    );
    assert_eq!(page.matches("<svg").count(), 2 * cards);
    let (code, body) = http(addr, "GET", "/gallery?ruleset=standard", None);
    assert_eq!(code, 404, "{body}");
    assert!(
        json_of(&body)["error"]
            .as_str()
            .unwrap()
            .contains("no cards")
    );
    server.stop();
}

#[test]
fn web_show_svg_and_gallery_commands() {
    let bin = env!("CARGO_BIN_EXE_ball");
    for game in ball::games::NAMES {
        let out = std::process::Command::new(bin)
            .args(["--game", game, "show", "--svg"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{game}");
        let svg = String::from_utf8(out.stdout).unwrap();
        assert!(svg.starts_with("<svg"), "{game}");
        assert!(svg.matches("data-cell=").count() > 30, "{game}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(bin)
        .args(["--ruleset", "cards", "gallery", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert!(page.contains("card-shove"));
}

/// Plays one game to its end (or `cap` actions) by the first legal
/// action of the view's position, through HTTP only, answering for
/// whichever seat is to move: the other seat is a bot.
fn play_out(
    addr: SocketAddr,
    id: &str,
    seats: &[String; 2],
    cap: usize,
    times: &mut Vec<Duration>,
) -> usize {
    let mut actions = 0;
    let mut idle = Instant::now();
    while actions < cap {
        let t = Instant::now();
        let v = view(addr, id, &seats[0]);
        times.push(t.elapsed());
        if v["over"] == true {
            break;
        }
        if v["my_turn"] != true {
            assert!(
                idle.elapsed() < Duration::from_secs(60),
                "game {id} is stuck"
            );
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        idle = Instant::now();
        let label = v["options"][0]["label"].as_str().unwrap().to_string();
        let t = Instant::now();
        let (code, next) = act(addr, id, &seats[0], json!({"do": "choose", "label": label}));
        times.push(t.elapsed());
        assert_eq!(code, 200, "{}", short(&next));
        if next["waiting"] == true {
            let (code, next) = act(addr, id, &seats[0], json!({"do": "confirm"}));
            assert_eq!(code, 200, "{}", short(&next));
        }
        if next["played"].as_u64().unwrap_or(0) as usize > actions {
            actions = next["played"].as_u64().unwrap() as usize;
        }
    }
    actions
}

/// 200 games at once, each a person's seat driven through HTTP against
/// a random bot; every game must end or reach its cap with no error and
/// no game lost. The median response time is printed, not asserted.
pub fn load_test(games: usize, cap: usize) -> (Duration, usize) {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let made: Vec<(String, [String; 2], String)> = (0..games)
        .map(|i| {
            create(
                addr,
                json!({"game": "ball", "seats": ["human", "random"], "seed": i}),
            )
        })
        .collect();
    let threads: Vec<_> = made
        .chunks(games.div_ceil(16).max(1))
        .map(|chunk| {
            let chunk = chunk.to_vec();
            std::thread::spawn(move || {
                let mut times = Vec::new();
                let mut total = 0;
                for (id, seats, _) in &chunk {
                    total += play_out(addr, id, seats, cap, &mut times);
                }
                (times, total)
            })
        })
        .collect();
    let mut times = Vec::new();
    let mut total = 0;
    for t in threads {
        let (ts, n) = t.join().expect("a client thread failed");
        times.extend(ts);
        total += n;
    }
    times.sort();
    let median = times[times.len() / 2];
    // No game lost: every one still answers, and its record is stored.
    let (stored, _) = ball::web::store::Store::open(&dir.path().join("games.db"))
        .unwrap()
        .load_all();
    for (id, _, watch) in &made {
        let _ = view(addr, id, watch);
        assert!(stored.iter().any(|s| &s.id == id), "game {id} lost");
    }
    server.stop();
    (median, total)
}

#[test]
fn web_load_200_games_by_bots() {
    let t = Instant::now();
    let (median, actions) = load_test(200, 6);
    println!(
        "load: 200 games, {actions} person actions, median response {median:?}, {:?} in all",
        t.elapsed()
    );
}

#[test]
fn web_serve_command_prints_the_real_address() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(["serve", "--port", "0", "--db"])
        .arg(dir.path().join("games.db"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in `{line}`"));
    assert!(addr.ip().is_loopback(), "127.0.0.1 by default: {line}");
    assert_ne!(addr.port(), 0, "the real port is printed");
    let (code, _) = http(addr, "GET", "/", None);
    // Ends the server this test started, by its own id.
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(code, 200);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(["serve", "--bind", "not-an-address"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn web_bad_requests_are_refused_with_json_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, seats, _) = create(addr, json!({"game": "ball"}));
    let t = &seats[0];
    let bad: Vec<(&str, String, Option<String>)> = vec![
        ("GET", format!("/api/games/{id}?t={t}&hl=abc"), None),
        ("GET", format!("/api/games/{id}?t=%ZZ"), None),
        ("GET", format!("/api/games/{id}"), None),
        ("GET", "/api/games/../../etc/passwd".into(), None),
        ("GET", "/nothing/here".into(), None),
        (
            "POST",
            format!("/api/games/{id}/act?t={t}"),
            Some(String::new()),
        ),
        (
            "POST",
            format!("/api/games/{id}/act?t={t}"),
            Some("null".into()),
        ),
        (
            "POST",
            format!("/api/games/{id}/act?t={t}"),
            Some("{\"do\":\"key\",\"key\":\"Enterprise\"}".into()),
        ),
        (
            "POST",
            format!("/api/games/{id}/act?t={t}"),
            Some("{\"do\":\"play\",\"action\":\"\\u0000\"}".into()),
        ),
        ("POST", "/api/games".into(), Some("{\"seed\":-1}".into())),
        ("POST", "/api/games".into(), Some("{\"bogus\":1}".into())),
        (
            "POST",
            "/api/games".into(),
            Some(format!("{{\"seats\":[\"{}\",\"human\"]}}", "m".repeat(100))),
        ),
        (
            "POST",
            "/api/load".into(),
            Some("not a record at all".into()),
        ),
        (
            "POST",
            "/api/load".into(),
            Some("game: ball\nruleset: /etc/passwd\nactions:\n".into()),
        ),
        (
            "POST",
            "/api/load".into(),
            Some("game: ball\nactions:\nfly away\n".into()),
        ),
        ("POST", "/api/load".into(), Some("x".repeat(2 << 20))),
        ("GET", "/gallery?ruleset=../../x".into(), None),
    ];
    for (method, path, body) in &bad {
        let (code, text) = http(addr, method, path, body.as_deref());
        assert!((400..500).contains(&code), "{method} {path}: {code} {text}");
        let v = json_of(&text);
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{method} {path}: {text}"
        );
    }
    // The game is untouched and still answers.
    let v = view(addr, &id, t);
    assert_eq!(v["played"], 0);
    server.stop();
}

/// The lobby over HTTP: a listed game shows its open seat and no token;
/// the creator is not given the open seat's link; of many people joining
/// at once exactly one gets it, and a restart keeps the claim.
#[test]
fn web_lobby_claims_a_seat_once_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (code, body) = http(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "gball", "seats": ["human", "human"], "listed": true}).to_string()),
    );
    assert_eq!(code, 201, "{body}");
    let made = json_of(&body);
    let id = made["id"].as_str().unwrap().to_string();
    assert!(made["seats"][0]["link"].is_string(), "{made}");
    assert_eq!(
        made["seats"][1]["link"],
        Value::Null,
        "the open seat's link is for the joiner"
    );
    // An unlisted game is not in the lobby, nor is a listed one with one
    // person's seat (its creator's): nothing is open in it.
    let _ = create(addr, json!({"game": "ball", "seats": ["human", "human"]}));
    let (code, body) = http(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "ball", "seats": ["human", "greedy"], "listed": true}).to_string()),
    );
    assert_eq!(code, 201, "{body}");
    let alone = json_of(&body);
    assert_eq!(alone["listed"], json!(false));
    assert!(alone["seats"][1]["link"].is_string(), "{alone}");
    let (code, body) = http(addr, "GET", "/api/lobby", None);
    assert_eq!(code, 200, "{body}");
    let lobby = json_of(&body);
    let games = lobby["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{lobby}");
    assert_eq!(games[0]["id"], json!(id));
    assert_eq!(games[0]["seats"][1]["open"], json!(true));
    assert!(!body.contains("?t="), "no token in the lobby: {body}");
    // Eight people join at once: one seat, one winner.
    let answers: Vec<(u16, String)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8)
            .map(|_| s.spawn(|| http(addr, "POST", &format!("/api/lobby/{id}/join"), Some(""))))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let won: Vec<&(u16, String)> = answers.iter().filter(|(c, _)| *c == 200).collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    assert!(
        answers.iter().all(|(c, _)| *c == 200 || *c == 409),
        "{answers:?}"
    );
    let joined = json_of(&won[0].1);
    assert_eq!(joined["seat"], json!(1));
    let token = joined["link"]
        .as_str()
        .unwrap()
        .split("t=")
        .nth(1)
        .unwrap()
        .to_string();
    assert_eq!(view(addr, &id, &token)["you"], json!(1));
    let (_, body) = http(addr, "GET", "/api/lobby", None);
    assert_eq!(json_of(&body)["games"], json!([]));
    // Watching goes by a redirect to the spectators' link.
    let (code, _) = http(addr, "GET", &format!("/lobby/{id}/watch"), None);
    assert_eq!(code, 303);
    let (code, _) = http(addr, "GET", "/lobby/0123456789abcdef/watch", None);
    assert_eq!(code, 404);
    server.stop();
    let server = start(dir.path());
    let addr = server.addr;
    let (code, body) = http(
        addr,
        "POST",
        &format!("/api/lobby/{id}/join"),
        Some("{\"seat\": 1}"),
    );
    assert_eq!(code, 409, "a restart keeps the claim: {body}");
    let (code, _) = http(
        addr,
        "POST",
        &format!("/api/lobby/{id}/join"),
        Some("{\"seat\": 99}"),
    );
    assert_eq!(code, 409);
    let (code, _) = http(
        addr,
        "POST",
        &format!("/api/lobby/{id}/join"),
        Some("{\"seat\": -1}"),
    );
    assert_eq!(code, 400);
    let (code, _) = http(addr, "POST", "/api/lobby/nothex/join", Some(""));
    assert_eq!(code, 404);
    assert_eq!(view(addr, &id, &token)["you"], json!(1));
    server.stop();
}

/// The home page's choices: each game's own rulesets, described, and its
/// seats; an unknown game is refused with one line.
#[test]
fn web_rulesets_of_each_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (code, body) = http(addr, "GET", "/api/rulesets?game=gateball", None);
    assert_eq!(code, 200, "{body}");
    let v = json_of(&body);
    assert_eq!(v["default"], json!("gateball"));
    let rs = v["rulesets"].as_array().unwrap();
    assert!(
        rs.iter()
            .all(|r| r["name"].as_str().unwrap().starts_with("gateball")),
        "{v}"
    );
    assert!(
        rs.iter()
            .any(|r| r["description"].as_str().unwrap().contains("T14")),
        "{v}"
    );
    let (_, body) = http(addr, "GET", "/api/rulesets?game=ball", None);
    assert_eq!(
        json_of(&body)["seats"][1]["label"],
        json!("DEF (moves first)")
    );
    let (code, body) = http(addr, "GET", "/api/rulesets?game=chess", None);
    assert_eq!(code, 404);
    assert!(
        json_of(&body)["error"]
            .as_str()
            .unwrap()
            .contains("no game")
    );
    server.stop();
}

/// Makes the mover's choices, preferring one keyed by an arrow (an
/// orthogonal direction or step), until the action waits for Enter.
/// Returns the waiting view and whether an arrow's choice was made.
fn choose_until_waiting(addr: SocketAddr, id: &str, t: &str, mut v: Value) -> (Value, bool) {
    let mut arrow = false;
    for _ in 0..12 {
        if v["waiting"] == true {
            return (v, arrow);
        }
        let options = v["options"].as_array().unwrap().clone();
        assert!(!options.is_empty(), "nothing offered: {}", v["prompt"]);
        let pick = options
            .iter()
            .find(|o| {
                o["keys"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|k| ["↑", "↓", "←", "→"].contains(&k.as_str().unwrap()))
            })
            .inspect(|_| arrow = true)
            .unwrap_or(&options[0]);
        let label = pick["label"].as_str().unwrap().to_string();
        let (code, next) = act(addr, id, t, json!({"do": "choose", "label": label}));
        assert_eq!(code, 200, "{}", short(&next));
        v = next;
    }
    panic!("the action never waited: {}", v["prompt"]);
}

#[test]
fn web_gateball_prompts_ask_only_for_choices_that_exist() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    // (a) A straight power shot (an orthogonal direction: no die to
    // choose) waits for Enter, and the prompt says so.
    let (id, seats, _) = create(addr, json!({"game": "gateball", "seed": 5}));
    let me = to_move(addr, &id, &seats[0]);
    let (code, v) = act(
        addr,
        &id,
        &seats[me],
        json!({"do": "choose", "label": "power"}),
    );
    assert_eq!(code, 200, "{}", short(&v));
    let (v, arrow) = choose_until_waiting(addr, &id, &seats[me], v);
    assert!(arrow, "a straight (orthogonal) shot was offered and chosen");
    let prompt = v["prompt"].as_str().unwrap();
    assert!(!prompt.contains("choose the die"), "{prompt}");
    assert!(prompt.contains("Enter plays it"), "{prompt}");
    // (b) A technical path built to its end: no step past the die.
    let (id, seats, _) = create(addr, json!({"game": "gateball", "seed": 5}));
    let me = to_move(addr, &id, &seats[0]);
    let (code, v) = act(
        addr,
        &id,
        &seats[me],
        json!({"do": "choose", "label": "tech"}),
    );
    assert_eq!(code, 200, "{}", short(&v));
    let (v, _) = choose_until_waiting(addr, &id, &seats[me], v);
    let prompt = v["prompt"].as_str().unwrap();
    assert!(!prompt.contains("step"), "{prompt}");
    assert!(prompt.contains("Enter plays it"), "{prompt}");
    server.stop();
}

#[test]
fn web_every_page_says_who_sits_where_and_whose_turn_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    // (c) Gateball's panel and the seats line, for each viewer.
    let (id, seats, watch) = create(
        addr,
        json!({"game": "gateball", "seed": 5, "seats": ["human", "greedy"]}),
    );
    let side = |t: &str| view(addr, &id, t)["side"].to_string();
    assert!(
        side(&seats[0]).contains("red: you · blue: greedy bot"),
        "{}",
        side(&seats[0])
    );
    assert!(
        side(&watch).contains("red: a person · blue: greedy bot"),
        "{}",
        side(&watch)
    );
    let v = view(addr, &id, &watch);
    assert_eq!(v["seats"][0]["who"], "a person");
    assert_eq!(v["seats"][1]["who"], "greedy bot");
    // Two people: the mover is asked, the other seat and a spectator are
    // told whom the game waits for, never the mover's prompt.
    let (id, seats, watch) = create(addr, json!({"game": "gateball", "seed": 5}));
    let me = to_move(addr, &id, &seats[0]);
    let name = ["red", "blue"][me];
    let mover = view(addr, &id, &seats[me]);
    assert_eq!(mover["turn"], format!("your turn ({name})"));
    assert!(
        mover["prompt"].as_str().unwrap().contains("power"),
        "{}",
        mover["prompt"]
    );
    for t in [&seats[1 - me], &watch] {
        let v = view(addr, &id, t);
        let words = format!("waiting for {name} (a person)");
        assert_eq!(v["turn"], words);
        assert_eq!(v["prompt"], words, "not the mover's prompt");
        assert_eq!(v["options"], json!([]));
    }
    server.stop();
}

#[test]
fn web_buttons_are_enabled_exactly_when_the_server_takes_them() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, seats, watch) = create(addr, json!({"game": "gateball", "seed": 5}));
    let me = to_move(addr, &id, &seats[0]);
    let ts = [seats[me].clone(), seats[1 - me].clone(), watch.clone()];
    // For each page, what it says it can do must be what the server does;
    // each try is undone by the opposite act where it worked.
    let check = |what: &str| {
        for t in &ts {
            let v = view(addr, &id, t);
            for act_name in ["undo", "redo"] {
                let can = v["can"][act_name] == true;
                let (code, r) = act(addr, &id, t, json!({"do": act_name}));
                assert_eq!(can, code == 200, "{what}: {act_name} by {t}: {}", short(&r));
                if code == 200 {
                    let back = if act_name == "undo" { "redo" } else { "undo" };
                    let (code, r) = act(addr, &id, t, json!({"do": back}));
                    assert_eq!(code, 200, "{}", short(&r));
                }
            }
        }
    };
    check("at the start");
    let v = view(addr, &id, &ts[0]);
    for k in ["back", "cancel", "confirm", "undo", "redo"] {
        assert_eq!(v["can"][k], false, "{k} at the start");
    }
    let (code, v) = act(addr, &id, &ts[0], json!({"do": "choose", "label": "power"}));
    assert_eq!(code, 200, "{}", short(&v));
    assert_eq!(v["can"]["undo"], true, "the mover's power can be undone");
    check("after power");
    let (code, v) = act(addr, &id, &ts[0], json!({"do": "undo"}));
    assert_eq!(code, 200, "{}", short(&v));
    assert_eq!(v["can"]["redo"], true);
    assert_eq!(v["can"]["undo"], false);
    check("after an undo");
    let (code, v) = act(addr, &id, &ts[0], json!({"do": "redo"}));
    assert_eq!(code, 200, "{}", short(&v));
    let (v, _) = choose_until_waiting(addr, &id, &ts[0], v);
    assert_eq!(v["can"]["confirm"], true);
    assert_eq!(v["can"]["back"], true);
    assert_eq!(v["can"]["cancel"], true);
    server.stop();
}

#[test]
fn web_a_view_carries_only_what_the_client_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let (id, seats, watch) = create(addr, json!({"game": "gateball", "seed": 5}));
    let me = to_move(addr, &id, &seats[0]);
    let t = &seats[me];
    let first = view(addr, &id, &watch);
    assert_eq!(first["log_from"], 0);
    let held = |v: &Value| {
        format!(
            "&since={}&v={}&svg={}",
            v["log_to"],
            v["version"],
            v["svg_hash"].as_str().unwrap()
        )
    };
    let get = |q: String| {
        let (code, body) = http(addr, "GET", &format!("/api/games/{id}?t={watch}{q}"), None);
        assert_eq!(code, 200, "{body}");
        json_of(&body)
    };
    // One action: its lines only, from where the client was, the same
    // lines a whole log has.
    let (code, _) = act(addr, &id, t, json!({"do": "choose", "label": "power"}));
    assert_eq!(code, 200);
    let next = get(held(&first));
    assert_eq!(next["log_from"], 0);
    assert_eq!(next["log_to"], 1);
    assert!(next["log"].to_string().contains("power"));
    let whole = get(String::new());
    assert_eq!(next["log"], whole["log"]);
    // Nothing changed since: no board, and of the log only the header of
    // the turn to come, if any.
    let same = get(held(&next));
    assert_eq!(same["svg"], Value::Null);
    assert_eq!(same["log_from"], 1);
    assert!(
        same["log"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["kind"] == "header" && e["at"] == 1),
        "{}",
        same["log"]
    );
    assert!(next["svg"].is_string(), "a board the client did not show");
    // An undo cuts below the client's log: it is sent again from the cut.
    let (code, _) = act(addr, &id, t, json!({"do": "undo"}));
    assert_eq!(code, 200);
    let cut = get(held(&next));
    assert_eq!(cut["log_from"], 0, "resent from the undo");
    assert!(!cut["log"].to_string().contains("\"power\""));
    // Older pages: before action 1, the lines of action 0.
    let (code, _) = act(addr, &id, t, json!({"do": "redo"}));
    assert_eq!(code, 200);
    let (code, body) = http(
        addr,
        "GET",
        &format!("/api/games/{id}?t={watch}&older=1"),
        None,
    );
    assert_eq!(code, 200, "{body}");
    let page = json_of(&body);
    assert_eq!(page["log_from"], 0);
    assert_eq!(page["log_to"], 1);
    assert!(page["log"].to_string().contains("power"));
    assert!(page["log"].as_array().unwrap().iter().all(|e| e["at"] == 0));
    server.stop();
}
