//! `ball league` (G17, issue 25) through the binary: the file's
//! refusals, export → import → export, match records, determinism across
//! threads, a run killed with SIGKILL and resumed, two runs at once.

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
