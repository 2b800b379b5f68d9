//! The web board's load test on loopback, at any size: `cargo run
//! --release --example serve_load [GAMES] [ACTIONS]` starts a server in
//! a temporary games file, creates GAMES games (default 200) of BALL, a
//! person's seat against a random bot each, and plays each through the
//! HTTP interface — the person's seat by the first offered choice — up
//! to ACTIONS actions of the person (default 20) or the game's end, from
//! 16 client threads at once. Prints the median and 95th percentile
//! response times; fails on any error or lost game.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use ball::web::server::{Config, Server};
use serde_json::{Value, json};

fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> Result<(u16, Value), String> {
    let mut s = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    let mut raw = String::new();
    s.read_to_string(&mut raw).map_err(|e| e.to_string())?;
    let (head, rest) = raw.split_once("\r\n\r\n").ok_or("no response head")?;
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or("no status")?;
    let v = serde_json::from_str(rest).map_err(|e| format!("{e}: {rest}"))?;
    Ok((code, v))
}

fn token(link: &Value) -> String {
    link.as_str()
        .and_then(|l| l.split("t=").nth(1))
        .unwrap_or_default()
        .to_string()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let cap: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let dir = std::env::temp_dir().join(format!("ball-serve-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let db = dir.join("games.db");
    let server = Server::start(Config {
        addr: "127.0.0.1:0".parse().expect("an address"),
        db: db.clone(),
        import_dir: None,
        max_games: games + 10,
        idle: ball::web::server::IDLE,
    })
    .expect("the server starts");
    let addr = server.addr;
    let t0 = Instant::now();
    let made: Vec<(String, String)> = (0..games)
        .map(|i| {
            let body = json!({"game": "ball", "seats": ["human", "random"], "seed": i}).to_string();
            let (code, v) = http(addr, "POST", "/api/games", &body).expect("create");
            assert_eq!(code, 201, "{v}");
            (
                v["id"].as_str().unwrap_or_default().to_string(),
                token(&v["seats"][0]["link"]),
            )
        })
        .collect();
    let threads: Vec<_> = made
        .chunks(games.div_ceil(16).max(1))
        .map(|chunk| {
            let chunk = chunk.to_vec();
            std::thread::spawn(move || {
                let mut times = Vec::new();
                let mut actions = 0;
                for (id, t) in &chunk {
                    let mut mine = 0;
                    while mine < cap {
                        let s = Instant::now();
                        let (code, v) =
                            http(addr, "GET", &format!("/api/games/{id}?t={t}"), "").expect("view");
                        times.push(s.elapsed());
                        assert_eq!(code, 200, "{v}");
                        if v["over"] == true {
                            break;
                        }
                        if v["my_turn"] != true {
                            std::thread::sleep(Duration::from_millis(2));
                            continue;
                        }
                        let label = v["options"][0]["label"]
                            .as_str()
                            .unwrap_or_default()
                            .to_string();
                        let body = json!({"do": "choose", "label": label, "version": v["version"]})
                            .to_string();
                        let s = Instant::now();
                        let (code, n) =
                            http(addr, "POST", &format!("/api/games/{id}/act?t={t}"), &body)
                                .expect("act");
                        times.push(s.elapsed());
                        assert_eq!(code, 200, "{n}");
                        if n["waiting"] == true {
                            let body = json!({"do": "confirm"}).to_string();
                            let (code, n) =
                                http(addr, "POST", &format!("/api/games/{id}/act?t={t}"), &body)
                                    .expect("confirm");
                            assert_eq!(code, 200, "{n}");
                        }
                        if n["version"] != v["version"] {
                            mine += 1;
                        }
                    }
                    actions += mine;
                }
                (times, actions)
            })
        })
        .collect();
    let mut times = Vec::new();
    let mut actions = 0;
    for t in threads {
        let (ts, n) = t.join().expect("a client thread failed");
        times.extend(ts);
        actions += n;
    }
    times.sort();
    let (stored, _) = ball::web::store::Store::open(&db)
        .expect("the games file")
        .load_all();
    for (id, _) in &made {
        assert!(stored.iter().any(|s| &s.id == id), "game {id} lost");
    }
    println!(
        "serve_load: {games} games, {actions} person actions, {} requests in {:.1?}; median {:?}, p95 {:?}",
        times.len(),
        t0.elapsed(),
        times[times.len() / 2],
        times[times.len() * 95 / 100]
    );
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}
