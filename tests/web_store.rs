//! `ball serve`'s promises beyond the board (issue 26): no client of an
//! unfinished game learns what predicts a die (the generator's state, the
//! seed), nothing acknowledged is lost (the SQLite store, across a
//! `kill -9`), and bounded resources (the game limit under concurrent
//! creates, a full server saying so at once).

use std::net::SocketAddr;

use ball::games::Module;
use ball::games::gateball::Gateball;
use ball::games::gball::Gball;
use serde_json::{Value, json};

use crate::web::{create, http, json_of, start, view};

/// The secrets of a position as the library writes it: its `rng` field
/// (16 hex digits).
fn rng_of<G: Module>(game: &G, pos: &G::Position) -> String {
    let v: Value = serde_json::from_str(&game.write_position(pos)).unwrap();
    v["rng"]
        .as_str()
        .expect("a position with dice has `rng`")
        .to_string()
}

/// Every body a seat and a spectator can fetch of the game: views (with
/// and without a highlighted choice), the record, the page, refused
/// acts (stale, no such choice, not their turn, a spectator's), the
/// event stream's first event.
fn every_body(addr: SocketAddr, id: &str, tokens: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for t in tokens {
        for path in [
            format!("/api/games/{id}?t={t}"),
            format!("/api/games/{id}?t={t}&hl=0"),
            format!("/api/games/{id}/record?t={t}"),
            format!("/g/{id}?t={t}"),
        ] {
            let (code, body) = http(addr, "GET", &path, None);
            assert_eq!(code, 200, "{path}: {body}");
            out.push(body);
        }
        for req in [
            json!({"do": "play", "action": "end", "version": 999}),
            json!({"do": "undo", "version": 999}),
            json!({"do": "choose", "label": "no such choice"}),
        ] {
            let (_, body) = http(
                addr,
                "POST",
                &format!("/api/games/{id}/act?t={t}"),
                Some(&req.to_string()),
            );
            out.push(body);
        }
        out.push(first_event(addr, id, t));
    }
    out
}

fn first_event(addr: SocketAddr, id: &str, t: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    write!(
        s,
        "GET /api/games/{id}/events?t={t} HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut buf = vec![0u8; 4096];
    let mut got = String::new();
    while !got.contains("data:") {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.push_str(&String::from_utf8_lossy(&buf[..n])),
        }
    }
    assert!(got.contains("event: change"), "{got}");
    got
}

/// Plays `moves` actions of an unfinished game of `G` through the server
/// (by the first choice offered, as a person would), collecting every
/// body any link can fetch after each; then replays the server's stored
/// record (with its seed) in the library and asserts that no body names
/// the seed or any generator state the game went through.
fn no_secret_reaches_a_client<G: Module>(name: &str, moves: u64) {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let addr = server.addr;
    let seed = 0x5eed_1234_u64;
    let (id, seats, watch) = create(addr, json!({"game": name, "seed": seed}));
    let tokens = [seats[0].clone(), seats[1].clone(), watch.clone()];
    let mut bodies = every_body(addr, &id, &tokens);
    let mut played = 0;
    for _ in 0..200 {
        let v = view(addr, &id, &watch);
        assert_eq!(v["over"], false, "the game must still be going");
        if v["played"].as_u64().unwrap() > played {
            played = v["played"].as_u64().unwrap();
            bodies.extend(every_body(addr, &id, &tokens));
            if played >= moves {
                break;
            }
        }
        let me = &seats[v["to_move"].as_u64().unwrap() as usize];
        let v = view(addr, &id, me);
        assert!(v["my_turn"] == true, "{v}");
        let req = if v["waiting"] == true {
            json!({"do": "confirm"})
        } else {
            json!({"do": "choose", "label": v["options"][0]["label"]})
        };
        let (code, body) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/act?t={me}"),
            Some(&req.to_string()),
        );
        assert_eq!(code, 200, "{body}");
        bodies.push(body);
    }
    assert!(played >= moves, "{name}: only {played} actions played");
    server.stop();
    // The server's own record (seed and all), replayed by the library.
    let (text, _) = crate::web::stored(dir.path(), &id);
    let record = ball::kernel::record::Record::parse(&text).unwrap();
    assert_eq!(record.get("seed"), Some(seed.to_string().as_str()));
    let rules = G::load_ruleset(G::DEFAULT_RULESET).unwrap();
    let replayed = ball::lab::replay::replay::<G>(&record, &rules).unwrap();
    let game = replayed.game;
    let mut secrets = vec![rng_of(&game, &replayed.start)];
    for (_, after, _) in &replayed.steps {
        secrets.push(rng_of(&game, after));
    }
    assert!(secrets.len() as u64 > moves);
    for body in &bodies {
        for secret in &secrets {
            assert!(
                !body.contains(secret.as_str()),
                "{name}: the generator's state {secret} reached a client: {body}"
            );
        }
        assert!(
            !body.contains("\\\"rng\\\"") && !body.contains("\"rng\""),
            "{name}: a client was sent an `rng` field: {body}"
        );
        assert!(
            !body.contains(&seed.to_string()),
            "{name}: the seed reached a client: {body}"
        );
    }
}

#[test]
fn web_no_client_of_an_unfinished_gateball_game_learns_its_dice() {
    no_secret_reaches_a_client::<Gateball>("gateball", 4);
}

#[test]
fn web_no_client_of_an_unfinished_gball_game_learns_its_dice() {
    no_secret_reaches_a_client::<Gball>("gball", 4);
}

#[test]
fn web_an_early_record_does_not_load() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let (id, _, watch) = create(server.addr, json!({"game": "gateball", "seed": 77}));
    let (code, record) = http(
        server.addr,
        "GET",
        &format!("/api/games/{id}/record?t={watch}"),
        None,
    );
    assert_eq!(code, 200);
    assert!(record.contains("withheld: seed"), "{record}");
    assert!(!record.contains("seed: 77"), "{record}");
    let (code, body) = http(server.addr, "POST", "/api/load", Some(&record));
    assert_eq!(code, 400, "{body}");
    assert!(
        json_of(&body)["error"]
            .as_str()
            .unwrap()
            .contains("before its game ended")
    );
    server.stop();
}

/// `ball serve` as a child process on a free port, keeping its games in
/// `db`: the child and its address.
fn serve_child(db: &std::path::Path, more: &[&str]) -> (std::process::Child, SocketAddr) {
    let (child, addr, _) = serve_child_line(db, more);
    (child, addr)
}

/// As [`serve_child`], with the line it printed.
fn serve_child_line(
    db: &std::path::Path,
    more: &[&str],
) -> (std::process::Child, SocketAddr, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        .args(more)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in `{line}`"));
    (child, addr, line)
}

/// Plays one whole action by the first choices offered; the view after.
fn one_action(addr: SocketAddr, id: &str, seats: &[String; 2], watch: &str) -> Value {
    let played = view(addr, id, watch)["played"].as_u64().unwrap();
    for _ in 0..20 {
        let w = view(addr, id, watch);
        if w["played"].as_u64().unwrap() > played {
            return w;
        }
        let me = &seats[w["to_move"].as_u64().unwrap() as usize];
        let v = view(addr, id, me);
        let req = if v["waiting"] == true {
            json!({"do": "confirm", "version": v["version"]})
        } else {
            json!({"do": "choose", "label": v["options"][0]["label"], "version": v["version"]})
        };
        let (code, body) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/act?t={me}"),
            Some(&req.to_string()),
        );
        assert_eq!(code, 200, "{body}");
    }
    panic!("no action played in 20 choices");
}

#[test]
fn web_a_kill_9_loses_nothing_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let (mut child, addr) = serve_child(&db, &[]);
    let (id, seats, watch) = create(addr, json!({"game": "gateball", "seed": 9}));
    let (id2, _, watch2) = create(addr, json!({"game": "ball"}));
    let mut v = Value::Null;
    for _ in 0..2 {
        v = one_action(addr, &id, &seats, &watch);
    }
    assert_eq!(v["played"], 2);
    let seen = v["version"].as_u64().unwrap();
    // SIGKILL: nothing is flushed, nothing is shut down.
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, addr) = serve_child(&db, &[]);
    let w = view(addr, &id, &watch);
    assert_eq!(w["played"], 2, "the acknowledged moves are there");
    assert_eq!(w["position"], v["position"]);
    assert!(
        w["version"].as_u64().unwrap() > seen,
        "versions go on across a restart: {} after {seen}",
        w["version"]
    );
    assert_eq!(view(addr, &id2, &watch2)["game"], "ball");
    // A request made before the kill is stale now, and changes nothing.
    let k = w["to_move"].as_u64().unwrap() as usize;
    let (code, body) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/act?t={}", seats[k]),
        Some(&json!({"do": "undo", "version": seen}).to_string()),
    );
    assert_eq!(code, 409, "{body}");
    assert!(body.contains("stale"), "{body}");
    assert_eq!(view(addr, &id, &watch)["played"], 2);
    // And the game goes on from there, saved as it goes.
    let after = one_action(addr, &id, &seats, &watch);
    child.kill().unwrap();
    child.wait().unwrap();
    let (record, version) = crate::web::stored(dir.path(), &id);
    assert_eq!(version, after["version"].as_u64().unwrap());
    let record = ball::kernel::record::Record::parse(&record).unwrap();
    assert_eq!(record.actions.len(), 3);
}

#[test]
fn web_concurrent_creates_stay_within_the_limit_and_a_refused_one_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = ball::web::server::Server::start(ball::web::server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: dir.path().join("games.db"),
        import_dir: None,
        max_games: 5,
        idle: ball::web::server::IDLE,
    })
    .unwrap();
    let addr = server.addr;
    // A create refused for its input leaves nothing.
    let (code, body) = http(addr, "POST", "/api/games", Some(r#"{"ruleset": "nosuch"}"#));
    assert_eq!(code, 422, "{body}");
    let threads: Vec<_> = (0..16)
        .map(|i| {
            std::thread::spawn(move || {
                let body = json!({"game": "ball", "seed": i}).to_string();
                http(addr, "POST", "/api/games", Some(&body))
            })
        })
        .collect();
    let answers: Vec<(u16, String)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let made: Vec<String> = answers
        .iter()
        .filter(|(c, _)| *c == 201)
        .map(|(_, b)| json_of(b)["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(made.len(), 5, "{answers:?}");
    for (code, body) in answers.iter().filter(|(c, _)| *c != 201) {
        assert_eq!(*code, 503, "{body}");
        assert!(
            json_of(body)["error"]
                .as_str()
                .unwrap()
                .contains("the server is full")
        );
    }
    server.stop();
    let (rows, problems) = ball::web::store::Store::open(&dir.path().join("games.db"))
        .unwrap()
        .load_all();
    assert!(problems.is_empty(), "{problems:?}");
    let mut ids: Vec<String> = rows.into_iter().map(|r| r.id).collect();
    ids.sort();
    let mut made = made;
    made.sort();
    assert_eq!(ids, made, "exactly the acknowledged games are stored");
}

#[test]
fn web_a_server_full_of_card_games_says_so_at_once_and_idle_games_give_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let (mut child, addr) = serve_child(&db, &["--idle-secs", "2"]);
    let req = json!({"game": "ball", "ruleset": "cards"}).to_string();
    let mut made = Vec::new();
    let mut refused = None;
    for _ in 0..40 {
        let t = std::time::Instant::now();
        let (code, body) = http(addr, "POST", "/api/games", Some(&req));
        if code == 201 {
            made.push(json_of(&body));
            continue;
        }
        refused = Some((code, body, t.elapsed()));
        break;
    }
    let (code, body, took) = refused.expect("the scripts' memory runs out at some point");
    assert_eq!(code, 503, "{body}");
    assert!(body.contains("the server is full"), "{body}");
    assert!(
        took < std::time::Duration::from_secs(5),
        "said after {took:?}"
    );
    println!("full after {} card games, said in {took:?}", made.len());
    // Nobody asks for the games: their Lua states are given back, and the
    // server takes a new game again; an old one is rebuilt when asked.
    std::thread::sleep(std::time::Duration::from_secs(4));
    let (code, body) = http(addr, "POST", "/api/games", Some(&req));
    assert_eq!(code, 201, "{body}");
    let first = &made[0];
    let id = first["id"].as_str().unwrap();
    let watch = first["watch"].as_str().unwrap().split("t=").nth(1).unwrap();
    let v = view(addr, id, watch);
    assert_eq!(v["ruleset"], "cards");
    child.kill().unwrap();
    child.wait().unwrap();
    // A restart reloads every game, more than the pool could hold at
    // once: a reloaded game holds no Lua state until it is asked for.
    let (mut child, addr, line) = serve_child_line(&db, &["--idle-secs", "2"]);
    let all = made.len() + 1;
    assert!(line.contains(&format!("({all} games reloaded")), "{line}");
    assert_eq!(view(addr, id, watch)["ruleset"], "cards");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn web_a_request_with_a_key_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let (code, body) = http(
        server.addr,
        "POST",
        "/api/games",
        Some(r#"{"game": "ball", "game": "gateball"}"#),
    );
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("duplicate key"), "{body}");
    let (id, seats, _) = create(server.addr, json!({"game": "ball"}));
    let (code, body) = http(
        server.addr,
        "POST",
        &format!("/api/games/{id}/act?t={}", seats[0]),
        Some(r#"{"do": "undo", "do": "redo"}"#),
    );
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("duplicate key"), "{body}");
    server.stop();
}

#[test]
fn web_import_dir_moves_a_directory_of_games_into_the_store() {
    let old = tempfile::tempdir().unwrap();
    let links = ball::web::seats::Links::new().unwrap();
    let id = "00000000000000ab";
    std::fs::write(
        old.path().join(format!("{id}.links")),
        serde_json::to_string(&links).unwrap(),
    )
    .unwrap();
    std::fs::write(
        old.path().join(format!("{id}.record")),
        "format: 1\ngame: ball\nruleset: standard\nseed: 3\nactions:\nend\n",
    )
    .unwrap();
    // A game whose links are malformed is named and left out.
    std::fs::write(old.path().join("00000000000000cd.links"), "{\"seats\": 1}").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let config = ball::web::server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: dir.path().join("games.db"),
        import_dir: Some(old.path().to_path_buf()),
        max_games: 10,
        idle: ball::web::server::IDLE,
    };
    let server = ball::web::server::Server::start(config.clone()).unwrap();
    assert_eq!(
        (server.imported, server.reloaded),
        (1, 1),
        "{:?}",
        server.notes
    );
    assert!(
        server.notes.iter().any(|n| n.contains("00000000000000cd")),
        "{:?}",
        server.notes
    );
    let v = view(server.addr, id, &links.watch);
    assert_eq!(v["played"], 1);
    server.stop();
    // Importing again adds nothing: the store holds the game already.
    let server = ball::web::server::Server::start(config).unwrap();
    assert_eq!(
        (server.imported, server.reloaded),
        (0, 1),
        "{:?}",
        server.notes
    );
    assert!(
        server
            .notes
            .iter()
            .any(|n| n.contains("holds this game already"))
    );
    server.stop();
}

#[test]
fn web_a_file_that_is_not_a_games_file_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    std::fs::write(&db, "not a database").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(["serve", "--port", "0", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a `ball serve` games file"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), b"not a database");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(["serve", "--port", "0", "--dir", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--import-dir x"));
}

/// A games file a server before the action rows made (schema version 3:
/// the whole record in `games.record`) is converted when a server opens
/// it: its game reloads and goes on, each action a row of its own.
#[test]
fn web_a_games_file_of_the_old_schema_reloads_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let links = ball::web::seats::Links::new().unwrap();
    let id = "00000000000000ef";
    let record =
        "# ball match record\nformat: 1\ngame: ball\nruleset: standard\nseed: 3\nactions:\nend\n";
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.pragma_update(None, "application_id", 0x4241_4C73_i64)
            .unwrap();
        conn.execute_batch(
            "CREATE TABLE games (id TEXT PRIMARY KEY, record TEXT NOT NULL,
                links TEXT NOT NULL, saved INTEGER NOT NULL DEFAULT 0);
             ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
             ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
             ALTER TABLE games ADD COLUMN open INTEGER NOT NULL DEFAULT 0;",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO games (id, record, links, saved, version) VALUES (?1, ?2, ?3, 2, 5)",
            rusqlite::params![id, record, serde_json::to_string(&links).unwrap()],
        )
        .unwrap();
        conn.pragma_update(None, "user_version", 3).unwrap();
    }
    let config = ball::web::server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: db.clone(),
        import_dir: None,
        max_games: 10,
        idle: ball::web::server::IDLE,
    };
    let server = ball::web::server::Server::start(config).unwrap();
    assert_eq!(server.reloaded, 1, "{:?}", server.notes);
    let v = view(server.addr, id, &links.watch);
    assert_eq!(v["played"], 1);
    assert!(v["version"].as_u64().unwrap() > 5);
    let seats = links.seats.clone();
    let after = one_action(server.addr, id, &seats, &links.watch);
    server.stop();
    let (stored, version) = crate::web::stored(dir.path(), id);
    assert_eq!(version, after["version"].as_u64().unwrap());
    let stored = ball::kernel::record::Record::parse(&stored).unwrap();
    assert_eq!(stored.actions.len(), 2);
    assert_eq!(stored.actions[0], "end");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (rows, header): (i64, String) = conn
        .query_row(
            "SELECT (SELECT count(*) FROM game_actions WHERE id = ?1), record FROM games WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(rows, 2, "each action a row");
    assert!(header.ends_with("actions:\n"), "{header}");
}
