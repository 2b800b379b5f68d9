//! `ball league` (G17, issue 25) through the binary: the file's
//! refusals, export → import → export, match records, determinism across
//! threads, a run killed with SIGKILL and resumed, two runs at once, and
//! a fixture a person plays in the browser (`play --person SIDE --web`).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli_support::{ball, ok, refused};

/// A short match (one set to two points) so that debug builds play a
/// season in seconds; earned stars on.
const SHORT: &str = "game = \"gball\"\n\
description = \"league tests: one set to two points\"\n\
sets_to_win_match = 1\npoints_to_win_set = 2\nearned_stars = true\n";

struct Lg {
    dir: tempfile::TempDir,
}

impl Lg {
    fn new() -> Lg {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("short.toml"), SHORT).unwrap();
        Lg { dir }
    }

    fn p(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }

    fn ruleset(&self, games: u32) -> String {
        let path = self.p(&format!("short-{games}.toml"));
        std::fs::write(&path, format!("{SHORT}games_per_season = {games}\n")).unwrap();
        path
    }

    /// A new league of `teams` teams, `games` rounds a season.
    fn make(&self, name: &str, teams: u32, games: u32, seed: u64) -> String {
        let path = self.p(name);
        let rules = self.ruleset(games);
        ok(
            &[
                "--ruleset",
                &rules,
                "league",
                "new",
                &path,
                "--teams",
                &teams.to_string(),
                "--seed",
                &seed.to_string(),
            ],
            None,
        );
        path
    }
}

fn export(path: &str) -> String {
    ok(&["league", "export", path], None)
}

fn played(path: &str) -> usize {
    let v: serde_json::Value = serde_json::from_str(&export(path)).unwrap();
    v["fixtures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| !f["result"].is_null())
        .count()
}

#[test]
fn new_refuses_an_existing_file_and_bad_counts() {
    let lg = Lg::new();
    let path = lg.make("a.league", 4, 2, 1);
    let before = std::fs::read(&path).unwrap();
    let e = refused(&["league", "new", &path, "--teams", "4"], None);
    assert!(e.contains("exists"), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let e = refused(&["league", "new", &lg.p("b.league"), "--teams", "1"], None);
    assert!(e.contains("2 to 64"), "{e}");
    assert!(!Path::new(&lg.p("b.league")).exists());
}

#[test]
fn new_teams_follow_g17_2_in_the_export() {
    let lg = Lg::new();
    let path = lg.make("a.league", 6, 2, 9);
    let v: serde_json::Value = serde_json::from_str(&export(&path)).unwrap();
    let cost = |n: usize| [0, 20, 60, 100][n];
    for t in v["teams"].as_array().unwrap() {
        let players = t["players"].as_array().unwrap();
        assert_eq!(players.len(), 9, "G17.2");
        let spent: usize = players
            .iter()
            .map(|p| cost(p["stars"].as_array().unwrap().len()))
            .sum();
        assert!(spent <= 140, "G17.2 budget: {spent}");
        let vets = players.iter().filter(|p| p["veteran"] == true).count();
        assert!(vets <= 2, "G17.2 veterans: {vets}");
        for p in players {
            assert!(p["name"].is_string());
            assert_eq!(p["misses"], 0);
            assert_eq!(p["retired"], false);
        }
    }
}

#[test]
fn export_import_export_is_the_same_and_records_replay() {
    let lg = Lg::new();
    let path = lg.make("a.league", 4, 3, 5);
    let out = ok(
        &["league", "play", &path, "--season", "--threads", "2"],
        None,
    );
    assert!(out.contains("season 1 ends"), "{out}");
    let one = export(&path);
    std::fs::write(lg.p("a.json"), &one).unwrap();
    ok(
        &["league", "import", &lg.p("a.json"), &lg.p("b.league")],
        None,
    );
    assert_eq!(export(&lg.p("b.league")), one);
    // From standard input too.
    ok(&["league", "import", "-", &lg.p("c.league")], Some(&one));
    assert_eq!(export(&lg.p("c.league")), one);
    // Fixture 2's record replays under `ball replay --check`.
    let rec = ok(&["league", "record", &lg.p("b.league"), "2"], None);
    std::fs::write(lg.p("f2.record"), &rec).unwrap();
    let check = ok(&["replay", "--check", &lg.p("f2.record")], None);
    assert!(check.starts_with("ok:"), "{check}");
    // An unplayed fixture has no record.
    let e = refused(&["league", "record", &path, "9"], None);
    assert!(e.contains("not been played"), "{e}");
    // The table, as JSON, with a plot.
    let t = ok(
        &[
            "league",
            "table",
            &path,
            "--json",
            "--season",
            "1",
            "--plot",
            &lg.p("t.svg"),
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&t).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let total: u64 = rows.iter().map(|r| r["played"].as_u64().unwrap()).sum();
    assert_eq!(total, 12, "3 rounds of 2 fixtures");
    for r in rows {
        let (w, d, l) = (
            r["won"].as_u64().unwrap(),
            r["drawn"].as_u64().unwrap(),
            r["lost"].as_u64().unwrap(),
        );
        assert_eq!(w + d + l, 3);
        assert_eq!(r["points"].as_u64().unwrap(), 2 * w + d);
    }
    assert!(
        std::fs::read_to_string(lg.p("t.svg"))
            .unwrap()
            .starts_with("<svg")
    );
}

#[test]
fn import_refuses_malformed_exports() {
    let lg = Lg::new();
    let path = lg.make("a.league", 2, 1, 1);
    let good = export(&path);
    let dup = good.replacen("\"version\": 1,", "\"version\": 1, \"version\": 1,", 1);
    let e = refused(&["league", "import", "-", &lg.p("x.league")], Some(&dup));
    assert!(e.contains("duplicate"), "{e}");
    let unknown = good.replacen("\"version\": 1,", "\"version\": 1, \"extra\": 2,", 1);
    refused(
        &["league", "import", "-", &lg.p("x.league")],
        Some(&unknown),
    );
    let vet = good.replacen("\"veteran\": false", "\"veteran\": true", 1);
    // A veteran with stars, if the first player had any; else still a
    // valid league.
    let r = ball(&["league", "import", "-", &lg.p("y.league")], Some(&vet));
    assert!(
        r.code == Some(0) || r.stderr.contains("veteran"),
        "{}",
        r.stderr
    );
    refused(&["league", "import", "-", &lg.p("x.league")], Some("[1, 2"));
    assert!(!Path::new(&lg.p("x.league")).exists());
}

/// Refused in one line, exit 2, the file byte for byte as it was.
fn refused_untouched(path: &str, expect: &str) {
    let before = std::fs::read(path).unwrap();
    for args in [
        vec!["league", "export", path],
        vec!["league", "play", path],
        vec!["league", "table", path],
    ] {
        let e = refused(&args, None);
        assert!(e.contains(expect), "{args:?}: {e}");
        assert_eq!(
            std::fs::read(path).unwrap(),
            before,
            "{args:?} changed the file"
        );
    }
}

#[test]
fn corrupt_newer_and_foreign_files_are_refused_and_left_as_they_are() {
    let lg = Lg::new();
    let path = lg.make("a.league", 4, 1, 2);
    let good = std::fs::read(&path).unwrap();
    // A newer schema version (user_version at byte 60).
    let mut newer = good.clone();
    newer[60..64].copy_from_slice(&7u32.to_be_bytes());
    std::fs::write(lg.p("newer.league"), &newer).unwrap();
    refused_untouched(&lg.p("newer.league"), "newer");
    // Another application's SQLite file (application_id at byte 68).
    let mut other = good.clone();
    other[68..72].copy_from_slice(&1u32.to_be_bytes());
    std::fs::write(lg.p("other.league"), &other).unwrap();
    refused_untouched(&lg.p("other.league"), "not a G-ball league");
    // Not SQLite at all.
    std::fs::write(lg.p("text.league"), "hello, world\n".repeat(20)).unwrap();
    refused_untouched(&lg.p("text.league"), "not an SQLite");
    // Corrupt pages after the first.
    let mut corrupt = good.clone();
    let page = u16::from_be_bytes([good[16], good[17]]) as usize;
    assert!(corrupt.len() >= 3 * page);
    for b in &mut corrupt[page..3 * page] {
        *b = 0xA5;
    }
    std::fs::write(lg.p("corrupt.league"), &corrupt).unwrap();
    refused_untouched(&lg.p("corrupt.league"), "corrupt");
    // Truncated.
    std::fs::write(lg.p("short.league"), &good[..good.len() / 2]).unwrap();
    let e = refused(&["league", "export", &lg.p("short.league")], None);
    assert!(e.contains("corrupt") || e.contains("malformed"), "{e}");
}

#[test]
fn the_same_season_for_any_threads() {
    let lg = Lg::new();
    let a = lg.make("a.league", 6, 2, 11);
    let b = lg.make("b.league", 6, 2, 11);
    ok(&["league", "play", &a, "--season", "--threads", "1"], None);
    // Round by round, then fixture by fixture, on two threads.
    ok(&["league", "play", &b, "--round", "--threads", "2"], None);
    ok(
        &["league", "play", &b, "--fixture", "5", "--threads", "2"],
        None,
    );
    ok(&["league", "play", &b], None);
    assert_eq!(played(&b), 6);
    assert_eq!(export(&a), export(&b));
}

fn spawn_play(path: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(["league", "play", path, "--season", "--threads", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_season_killed_and_resumed_ends_as_an_unbroken_one() {
    let lg = Lg::new();
    let whole = lg.make("whole.league", 6, 5, 21);
    ok(
        &["league", "play", &whole, "--season", "--threads", "1"],
        None,
    );
    let total = played(&whole);
    assert_eq!(total, 15);
    let mut killed_mid_way = false;
    for attempt in 0..3 {
        let broken = lg.make(&format!("broken{attempt}.league"), 6, 5, 21);
        let mut child = spawn_play(&broken);
        let started = Instant::now();
        // Kill it (SIGKILL) once it has committed a fixture or two.
        loop {
            let n = played(&broken);
            if n >= 2 || started.elapsed() > Duration::from_secs(60) {
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        let n = played(&broken);
        killed_mid_way |= n < total;
        // Resume: to the end of the season (`--fixture 15`: a run that
        // did finish must not go on into season 2).
        ok(
            &[
                "league",
                "play",
                &broken,
                "--fixture",
                "15",
                "--threads",
                "2",
            ],
            None,
        );
        assert_eq!(
            export(&broken),
            export(&whole),
            "attempt {attempt}: {n} played when killed"
        );
        if killed_mid_way {
            break;
        }
    }
    assert!(killed_mid_way, "the run always finished before the kill");
}

#[test]
fn two_runs_on_one_file_never_corrupt_it() {
    let lg = Lg::new();
    let alone = lg.make("alone.league", 6, 3, 33);
    ok(
        &["league", "play", &alone, "--season", "--threads", "1"],
        None,
    );
    let shared = lg.make("shared.league", 6, 3, 33);
    let a = spawn_play(&shared);
    let b = spawn_play(&shared);
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        // Each either played its share or was refused in one clear line.
        assert!(
            out.status.code() == Some(0)
                || (out.status.code() == Some(2)
                    && err.lines().count() == 1
                    && err.contains("another process")),
            "{:?}: {err}",
            out.status
        );
    }
    // Whatever was refused is played now; the league is the same.
    ok(&["league", "play", &shared, "--fixture", "9"], None);
    assert_eq!(export(&shared), export(&alone));
}

#[test]
fn every_league_command_has_examples() {
    for sub in ["new", "play", "table", "export", "import", "record"] {
        let help = ok(&["league", sub, "--help"], None);
        assert!(help.contains("Examples:"), "league {sub}");
    }
}

/// A fixture a person played (`play --person`, on the terminal board) is
/// kept with its actions: its record is those actions, and the export
/// carries them. Played here by a bot standing in for the person.
#[test]
fn a_person_s_fixture_keeps_its_actions() {
    use ball::games::gball::league::{play, result, schema};
    let lg = Lg::new();
    let path = lg.make("p.league", 2, 2, 8);
    let mut store = schema::open(Path::new(&path)).unwrap();
    let l = schema::read(&mut store).unwrap();
    let p = play::prepare(&l, 1).unwrap();
    let bots = ["greedy".to_string(), "greedy".to_string()];
    let m = play::run(&p, &bots, true).unwrap();
    let labels = [result::PERSON.to_string(), "greedy".to_string()];
    let mut played = play::played(&p, &m, &labels);
    played.moves = Some(m.actions.clone());
    schema::commit(&mut store, 1, p.callups.clone(), played).unwrap();
    drop(store);
    // `person` is no bot: the record can only come from the actions.
    let rec = ok(&["league", "record", &path, "1"], None);
    assert!(rec.contains("RED: person"), "{rec}");
    std::fs::write(lg.p("p1.record"), &rec).unwrap();
    let check = ok(&["replay", "--check", &lg.p("p1.record")], None);
    assert!(check.starts_with("ok:"), "{check}");
    let one = export(&path);
    assert!(one.contains("\"moves\""));
    ok(&["league", "import", "-", &lg.p("q.league")], Some(&one));
    assert_eq!(export(&lg.p("q.league")), one);
    // The next fixture is the bots' again, and its record has no moves.
    ok(&["league", "play", &path], None);
    let v: serde_json::Value = serde_json::from_str(&export(&path)).unwrap();
    assert!(v["fixtures"][1]["result"].get("moves").is_none());
    // Without a terminal, --person is refused in one line.
    let e = refused(&["league", "play", &path, "--person", "home"], None);
    assert!(e.contains("terminal"), "{e}");
}

/// `play --person SIDE --web` started as a person starts it: its
/// stdout (read on), its process, the page's address and token.
struct WebFixture {
    child: std::process::Child,
    out: std::io::BufReader<std::process::ChildStdout>,
    addr: std::net::SocketAddr,
    token: String,
}

impl WebFixture {
    fn start(path: &str, side: &str) -> WebFixture {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_ball"))
            .args([
                "league",
                "play",
                path,
                "--person",
                side,
                "--web",
                "--bots",
                "random,random",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut printed = String::new();
        let link = loop {
            let mut line = String::new();
            assert!(
                out.read_line(&mut line).unwrap() > 0,
                "no link printed: {printed}"
            );
            printed.push_str(&line);
            if let Some(at) = line.find("http://") {
                break line[at..].split_whitespace().next().unwrap().to_string();
            }
        };
        assert!(printed.contains("Fixture 1"), "{printed}");
        let rest = link.trim_start_matches("http://");
        let (addr, query) = rest.split_once("/league?t=").expect("a /league link");
        WebFixture {
            child,
            out,
            addr: addr.parse().unwrap(),
            token: query.to_string(),
        }
    }

    fn status(&self) -> serde_json::Value {
        let (code, body) = crate::web::http(
            self.addr,
            "GET",
            &format!("/league/api?t={}", self.token),
            None,
        );
        assert_eq!(code, 200, "{body}");
        crate::web::json_of(&body)
    }

    fn roster(&self, places: &str) -> (u16, serde_json::Value) {
        let (code, body) = crate::web::http(
            self.addr,
            "POST",
            &format!("/league/api/roster?t={}", self.token),
            Some(&serde_json::json!({ "roster": places }).to_string()),
        );
        (code, crate::web::json_of(&body))
    }

    /// Waits for the command to end: its exit code and the rest of its
    /// stdout.
    fn finish(mut self) -> (Option<i32>, String) {
        use std::io::Read;
        let started = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if started.elapsed() > Duration::from_secs(60) {
                self.child.kill().unwrap();
                panic!("the command did not end");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut rest = String::new();
        self.out.read_to_string(&mut rest).unwrap();
        (status.code(), rest)
    }
}

/// The person's seat of the board at `board` (`/g/ID?t=TOKEN`) plays
/// offered choices picked by a seeded generator, up to `cap` actions or
/// the end: the view as it then is.
fn play_by_choices(addr: std::net::SocketAddr, board: &str, cap: usize) -> serde_json::Value {
    use serde_json::json;
    let (id, t) = board
        .trim_start_matches("/g/")
        .split_once("?t=")
        .expect("a board link");
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let started = Instant::now();
    let mut acted = 0;
    loop {
        let v = crate::web::view(addr, id, t);
        if v["over"] == true || acted >= cap {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "the match does not end"
        );
        if v["my_turn"] != true {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        let options = v["options"].as_array().unwrap();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let label = options[(rng % options.len() as u64) as usize]["label"]
            .as_str()
            .unwrap()
            .to_string();
        let (code, next) = crate::web::act(addr, id, t, json!({"do": "choose", "label": label}));
        assert_eq!(code, 200, "{next}");
        if next["waiting"] == true {
            let (code, next) = crate::web::act(addr, id, t, json!({"do": "confirm"}));
            assert_eq!(code, 200, "{next}");
        }
        acted += 1;
    }
}

/// A league whose matches end in a few turns (G3.6), for a person's
/// seat played through HTTP.
fn quick_league(lg: &Lg, name: &str) -> String {
    let rules = lg.p("quick.toml");
    std::fs::write(
        &rules,
        format!("{SHORT}games_per_season = 2\nmatch_turn_limit = 4\n"),
    )
    .unwrap();
    let path = lg.p(name);
    ok(
        &[
            "--ruleset",
            &rules,
            "league",
            "new",
            &path,
            "--teams",
            "2",
            "--seed",
            "12",
        ],
        None,
    );
    path
}

/// `play --person away --web`: the roster page refuses a bad roster in
/// words, the match is played on the web board through HTTP, and the
/// league then holds exactly what the terminal path commits for the same
/// roster and actions; its record replays.
#[test]
fn a_fixture_played_in_the_browser_is_committed_as_on_the_terminal() {
    use ball::games::gball::league::{person, schema};
    let lg = Lg::new();
    let path = quick_league(&lg, "w.league");
    let twin = lg.p("twin.league");
    std::fs::copy(&path, &twin).unwrap();
    let f = WebFixture::start(&path, "away");
    let s = f.status();
    assert_eq!(s["state"], "roster");
    assert_eq!(s["side"], "away");
    assert_eq!(s["best"].as_array().unwrap().len(), 9);
    assert!(s["squad"][0]["availability"].is_string(), "{s}");
    assert!(!s.to_string().contains("seed"), "{s}");
    // The page itself, and a wrong token.
    let (code, page) = crate::web::http(f.addr, "GET", &format!("/league?t={}", f.token), None);
    assert_eq!(code, 200);
    assert!(page.contains("Your match roster"), "{page}");
    let (code, _) = crate::web::http(f.addr, "GET", "/league/api?t=0123", None);
    assert_eq!(code, 404);
    // Refusals, in the words of the terminal's roster question.
    for (roster, words) in [
        ("99", "no player 99 in the squad"),
        ("0 0", "named twice"),
        ("0 1 2 3 4 5 6 7 8 0", "1 to 9 players"),
        ("three", "whole numbers"),
    ] {
        let (code, v) = f.roster(roster);
        assert_eq!(code, 422, "{roster}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(words), "{roster}: `{e}`");
    }
    assert_eq!(f.status()["state"], "roster");
    let chosen = [8u32, 6, 4, 2, 0];
    let text: Vec<String> = chosen.iter().map(u32::to_string).collect();
    let (code, v) = f.roster(&text.join(", "));
    assert_eq!(code, 200, "{v}");
    let board = v["board"].as_str().unwrap().to_string();
    let (code, _) = f.roster("");
    assert_eq!(code, 422, "a second roster once the match is on");
    // Before the end the record a client gets has no seed.
    let (id, t) = board.trim_start_matches("/g/").split_once("?t=").unwrap();
    let (_, early) = crate::web::http(
        f.addr,
        "GET",
        &format!("/api/games/{id}/record?t={t}"),
        None,
    );
    assert!(
        early.contains("withheld") && !early.contains("\nseed:"),
        "{early}"
    );
    let end = play_by_choices(f.addr, &board, usize::MAX);
    assert_eq!(end["over"], true);
    let (code, record) = crate::web::http(
        f.addr,
        "GET",
        &format!("/api/games/{id}/record?t={t}"),
        None,
    );
    assert_eq!(code, 200, "{record}");
    let moves = ball::kernel::record::Record::parse(&record)
        .unwrap()
        .actions;
    assert!(!moves.is_empty());
    let started = Instant::now();
    let done = loop {
        let s = f.status();
        if s["state"] != "playing" {
            break s;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "not committed");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(done["state"], "committed", "{done}");
    let line = done["lines"][0].as_str().unwrap().to_string();
    assert!(line.starts_with("fixture 1 (season 1, round 1)"), "{line}");
    let (code, rest) = f.finish();
    assert_eq!(code, Some(0), "{rest}");
    assert!(rest.contains(&line), "{rest}");
    // The league holds the fixture with the person's actions…
    let v: serde_json::Value = serde_json::from_str(&export(&path)).unwrap();
    let r = &v["fixtures"][0]["result"];
    assert_eq!(r["moves"], serde_json::json!(moves), "{r}");
    assert!(r.to_string().contains("person"), "{r}");
    // …exactly as the terminal path commits them.
    let mut store = schema::open(Path::new(&twin)).unwrap();
    let l = schema::read(&mut store).unwrap();
    let offer = person::offer(&l, 1).unwrap().unwrap();
    let p = offer.with_roster(&chosen).unwrap();
    let bots = ["random".to_string(), "random".to_string()];
    let outcome = person::commit(&mut store, &l, &p, 1, &bots, &moves).unwrap();
    assert_eq!(
        outcome,
        person::Outcome::Committed {
            line: line.clone(),
            ended: None
        }
    );
    drop(store);
    assert_eq!(export(&twin), export(&path));
    // Its record replays.
    let rec = ok(&["league", "record", &path, "1"], None);
    std::fs::write(lg.p("w1.record"), &rec).unwrap();
    let check = ok(&["replay", "--check", &lg.p("w1.record")], None);
    assert!(check.starts_with("ok:"), "{check}");
}

/// Ctrl-C before the match ends commits nothing, and says so.
#[test]
fn a_browser_fixture_left_unfinished_commits_nothing() {
    let lg = Lg::new();
    let path = quick_league(&lg, "u.league");
    let before = export(&path);
    let f = WebFixture::start(&path, "home");
    let (code, v) = f.roster("");
    assert_eq!(code, 200, "{v}");
    let board = v["board"].as_str().unwrap().to_string();
    let mid = play_by_choices(f.addr, &board, 3);
    assert_eq!(mid["over"], false, "the match ended in three actions");
    let killed = Command::new("kill")
        .args(["-INT", &f.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let (code, rest) = f.finish();
    assert_eq!(code, Some(0), "{rest}");
    assert!(
        rest.contains("fixture 1: the match was left unfinished; nothing committed"),
        "{rest}"
    );
    assert_eq!(export(&path), before);
}

/// A fixture another run committed while the person played is not
/// committed again: the page and the command say so, and the league
/// keeps the other run's result.
#[test]
fn a_browser_fixture_another_run_committed_meanwhile_is_not_kept() {
    let lg = Lg::new();
    let path = quick_league(&lg, "t.league");
    let f = WebFixture::start(&path, "home");
    let (code, v) = f.roster("");
    assert_eq!(code, 200, "{v}");
    let board = v["board"].as_str().unwrap().to_string();
    ok(&["league", "play", &path], None);
    let theirs = export(&path);
    let end = play_by_choices(f.addr, &board, usize::MAX);
    assert_eq!(end["over"], true);
    let started = Instant::now();
    let done = loop {
        let s = f.status();
        if s["state"] != "playing" {
            break s;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "no outcome");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(done["state"], "taken", "{done}");
    let (code, rest) = f.finish();
    assert_eq!(code, Some(0), "{rest}");
    assert!(
        rest.contains("fixture 1: another run committed it while you played; yours is not kept"),
        "{rest}"
    );
    assert_eq!(export(&path), theirs);
}

/// The roster page in a real browser (headless Chromium, as
/// `web_browser.rs`): ticking a box changes the roster, a refusal is
/// shown in words, a roster accepted shows the board, and when the match
/// (played here through HTTP) ends the page shows the committed line.
#[test]
fn league_web_browser_the_roster_page_and_the_result() {
    use crate::web_browser::{browser, browser_here, click_css, driver, js, shot, until};
    if !browser_here() {
        return;
    }
    let lg = Lg::new();
    let path = quick_league(&lg, "b.league");
    let f = WebFixture::start(&path, "home");
    let d = driver();
    let c = browser(&d, "league");
    c.goto(&format!("http://{}/league?t={}", f.addr, f.token))
        .unwrap();
    until(&c, "!!document.getElementById('places')", "the roster page");
    let best = js(&c, "document.getElementById('places').value");
    let first = f.status()["best"][0].to_string();
    // Unticking the best player takes him off the roster.
    click_css(&c, &format!("#squad input[data-place='{first}']"));
    let after = js(&c, "document.getElementById('places').value");
    assert_ne!(after, best);
    assert!(
        !after.as_str().unwrap().split(' ').any(|w| w == first),
        "{after}"
    );
    js(
        &c,
        "(document.getElementById('places').value = '0 0', true)",
    );
    click_css(&c, "#name");
    until(
        &c,
        "document.getElementById('message').textContent.includes('named twice')",
        "the refusal in words",
    );
    js(&c, "(document.getElementById('places').value = '', true)");
    click_css(&c, "#name");
    until(
        &c,
        "!document.getElementById('play').hidden && document.getElementById('naming').hidden",
        "the board",
    );
    let board = js(
        &c,
        "document.getElementById('boardlink').getAttribute('href')",
    );
    let board = board.as_str().unwrap().to_string();
    until(
        &c,
        "!!document.getElementById('board').contentDocument.querySelector('#board svg')",
        "the board drawn in the page",
    );
    shot(&c, "league-board");
    let end = play_by_choices(f.addr, &board, usize::MAX);
    assert_eq!(end["over"], true);
    until(
        &c,
        "document.getElementById('result').textContent.startsWith('fixture 1 (season 1, round 1)')",
        "the committed line on the page",
    );
    shot(&c, "league-result");
    let _ = c.close();
    let (code, rest) = f.finish();
    assert_eq!(code, Some(0), "{rest}");
    assert_eq!(played(&path), 1);
}

/// The commit both boards share: a match not over commits nothing, an
/// action the replay refuses is an error, and neither changes the file.
#[test]
fn a_person_s_match_not_over_or_not_legal_commits_nothing() {
    use ball::games::gball::league::{person, play, schema};
    let lg = Lg::new();
    let path = quick_league(&lg, "n.league");
    let before = export(&path);
    let mut store = schema::open(Path::new(&path)).unwrap();
    let l = schema::read(&mut store).unwrap();
    let offer = person::offer(&l, 0).unwrap().unwrap();
    let e = offer.with_roster(&[0, 99]).unwrap_err();
    assert!(e.contains("no player 99"), "{e}");
    let p = offer.with_roster(&offer.best).unwrap();
    let bots = ["greedy".to_string(), "greedy".to_string()];
    let m = play::run(&p, &bots, true).unwrap();
    assert!(m.actions.len() > 2);
    let half = &m.actions[..m.actions.len() / 2];
    assert_eq!(
        person::commit(&mut store, &l, &p, 0, &bots, half).unwrap(),
        person::Outcome::Unfinished
    );
    let mut wrong = m.actions.clone();
    wrong[1] = "no such action".into();
    assert!(person::commit(&mut store, &l, &p, 0, &bots, &wrong).is_err());
    drop(store);
    assert_eq!(export(&path), before);
}
