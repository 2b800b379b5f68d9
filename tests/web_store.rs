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
