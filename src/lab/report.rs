//! The `ball sim` report: a text table for people, JSON for machines,
//! and the per-game JSON lines of `--out`.
//!
//! Everything but the last line (throughput, a wall-clock figure) is a
//! function of the results, so a run's report is the same on any number
//! of threads.

use serde::Serialize;
use serde_json::json;

use super::metrics::Report;
use super::sim::GameResult;
use super::stats::Interval;

/// What a run was: printed at the top of the report.
#[derive(Clone, Debug, Serialize)]
pub struct RunInfo {
    /// The game's `game` name.
    pub game: String,
    /// The seat that moves first at the start (`None`: it varies).
    pub first: Option<usize>,
    pub ruleset: String,
    pub ruleset_hash: String,
    pub seed: u64,
}

/// Wall-clock cost of a run: the one figure that changes between runs.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Throughput {
    pub seconds: f64,
    pub threads: usize,
    pub games_per_second: f64,
    /// Wall time × threads / actions: the cost of one action (the bots'
    /// thinking included) on one thread.
    pub us_per_action: f64,
}

impl Throughput {
    pub fn new(seconds: f64, threads: usize, games: usize, actions: u64) -> Throughput {
        let s = seconds.max(1e-9);
        Throughput {
            seconds,
            threads,
            games_per_second: games as f64 / s,
            us_per_action: if actions == 0 {
                0.0
            } else {
                s * threads as f64 * 1e6 / actions as f64
            },
        }
    }

    pub fn line(&self, games: usize) -> String {
        format!(
            "throughput: {games} games in {:.2} s on {} thread{}: {:.1} games/s, {:.3} µs per action",
            self.seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.games_per_second,
            self.us_per_action
        )
    }
}

pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

pub fn interval(i: &Interval) -> String {
    format!("[{}, {}]", pct(i.lo), pct(i.hi))
}

/// The text report, the throughput on its last line.
pub fn text(r: &Report, run: &RunInfo, tp: &Throughput) -> String {
    let mut s = body(r, run);
    s.push_str(&tp.line(r.metrics.games));
    s.push('\n');
    s
}

/// The warnings of a run's report: one line each, also printed on
/// standard error by the command.
pub fn warnings(m: &super::metrics::Metrics) -> Vec<String> {
    super::compare::odd_games_warning(m.games)
        .into_iter()
        .collect()
}

/// The text report but its throughput line: a function of the results
/// alone, so that merged shards print what the whole run prints.
pub fn body(r: &Report, run: &RunInfo) -> String {
    let m = &r.metrics;
    let mut s = String::new();
    let [a, b] = &m.bots;
    let [s0, s1] = &m.seats;
    s.push_str(&format!(
        "ball sim: A = {a} vs B = {b}, {} games, seed {}, {} ruleset {} ({})\n",
        m.games, run.seed, run.game, run.ruleset, run.ruleset_hash
    ));
    let (first, other) = match run.first {
        Some(1) => (s1, s0),
        _ => (s0, s1),
    };
    s.push_str(&format!(
        "seats: A plays {first} (moves first) in even games, {other} in odd games\n"
    ));
    for w in warnings(m) {
        s.push_str(&w);
        s.push('\n');
    }
    s.push('\n');
    let row = |s: &mut String, name: &str, k: usize, i: &Interval| {
        s.push_str(&format!(
            "  {name:<26} {k:>6}  {:>6}  {}\n",
            pct(i.p),
            interval(i)
        ));
    };
    s.push_str(&format!(
        "{:<28} {:>6}  {:>6}  95% Wilson interval\n",
        "outcomes", "games", "rate"
    ));
    row(
        &mut s,
        &format!("{s0} wins"),
        m.seat_wins[0],
        &m.seat_win_rate[0],
    );
    row(
        &mut s,
        &format!("{s1} wins"),
        m.seat_wins[1],
        &m.seat_win_rate[1],
    );
    row(&mut s, "draws", m.draws, &m.draw_rate);
    if m.unfinished > 0 {
        s.push_str(&format!(
            "  {:<26} {:>6}  (cut by the action cap: a bug)\n",
            "unfinished", m.unfinished
        ));
    }
    row(
        &mut s,
        &format!("A ({a}) wins"),
        m.bot_wins[0],
        &m.bot_win_rate[0],
    );
    row(
        &mut s,
        &format!("B ({b}) wins"),
        m.bot_wins[1],
        &m.bot_win_rate[1],
    );
    s.push('\n');
    s.push_str(&format!(
        "  {:<26} {:>6}  {:>6}  {}  the first mover's mean score (win 1, draw ½)\n",
        "first-mover advantage",
        "",
        pct(m.first_mover.p),
        interval(&m.first_mover)
    ));
    fig(
        &mut s,
        "balance",
        m.balance,
        &format!("1 − |w_{s0} − w_{s1}|"),
    );
    fig(
        &mut s,
        "completion",
        m.completion,
        "decided by play, before any limit",
    );
    fig(&mut s, "drawishness", m.drawishness, "draws");
    fig(&mut s, "timeouts", m.timeouts, "ended by a limit (or cut)");
    s.push_str(&format!(
        "\n{:<28} {:>6}  {:>6}\n",
        "how games ended", "games", "rate"
    ));
    for (end, k) in &m.ends {
        s.push_str(&format!(
            "  {end:<26} {k:>6}  {:>6}\n",
            pct(*k as f64 / m.games.max(1) as f64)
        ));
    }
    s.push('\n');
    s.push_str(&format!(
        "{:<28} {:>8} {:>8} {:>8} {:>8} {:>8}\n",
        "duration", "mean", "median", "sd", "min", "max"
    ));
    for (name, d) in [("turns", &m.turns), ("actions", &m.actions)] {
        s.push_str(&format!(
            "  {name:<26} {:>8.1} {:>8.1} {:>8.1} {:>8} {:>8}\n",
            d.mean, d.median, d.sd, d.min, d.max
        ));
    }
    s.push_str(&format!(
        "  {:<26} {:>6.1}  legal actions per decision\n",
        "mean branching factor", m.branching_factor
    ));
    actions_text(&mut s, m);
    if let Some(line) = script_errors_line(m) {
        s.push_str(&format!("\n  {:<26} {line}\n", "script errors"));
    }
    if !r.game.text.is_empty() {
        s.push('\n');
        s.push_str(&r.game.text);
    }
    s.push('\n');
    s
}

/// The "actions per game" table: each kind played, its mean count per
/// game, in kind order (`lab::kinds`).
fn actions_text(s: &mut String, m: &super::metrics::Metrics) {
    if m.actions_per_game.is_empty() {
        return;
    }
    s.push_str(&format!("\n{:<28} {:>8}\n", "actions per game", "mean"));
    for (kind, mean) in &m.actions_per_game {
        s.push_str(&format!("  {kind:<26} {mean:>8.2}\n"));
    }
}

/// The script failures of a run in one line (`None` without any): how
/// many, in how many games, and the first one's message, which names its
/// file and line.
pub fn script_errors_line(m: &super::metrics::Metrics) -> Option<String> {
    (m.script_errors > 0).then(|| {
        format!(
            "{} in {} of {}; first: {}",
            crate::diagnostic::plural(m.script_errors as u64, "failure"),
            m.script_error_games,
            crate::diagnostic::plural(m.games as u64, "game"),
            m.first_script_error.as_deref().unwrap_or("?")
        )
    })
}

/// A figure's line: name, value, note.
pub fn fig(s: &mut String, name: &str, v: f64, note: &str) {
    s.push_str(&format!("  {name:<26} {v:>6.3}  {note}\n"));
}

/// At most `n` characters.
pub fn trunc(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The `--json` report: the same figures, throughput under its own key.
pub fn json(r: &Report, run: &RunInfo, tp: &Throughput) -> String {
    json_with(r, run, json!(tp))
}

/// The `--json` report with `throughput` as given (`null` for merged
/// shards, whose wall time no one measured).
pub fn json_with(r: &Report, run: &RunInfo, throughput: serde_json::Value) -> String {
    let v = json!({
        "run": run,
        "warnings": warnings(&r.metrics),
        "metrics": r.metrics,
        "game": r.game.json,
        "throughput": throughput,
    });
    let mut s = serde_json::to_string_pretty(&v).expect("figures serialize");
    s.push('\n');
    s
}

/// One `--out` line: the game as a JSON object (no newline).
pub fn game_line<T: Serialize>(g: &GameResult<T>) -> String {
    serde_json::to_string(g).expect("a game result serializes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::metrics::{compute, tests::four};

    fn info() -> RunInfo {
        RunInfo {
            game: "ball".into(),
            first: Some(1),
            ruleset: "standard".into(),
            ruleset_hash: "0123456789abcdef".into(),
            seed: 7,
        }
    }

    fn report() -> Report {
        Report {
            metrics: compute(&four(), &["greedy".into(), "random".into()], ["ATK", "DEF"]),
            game: crate::lab::Section {
                text: "  touchdowns per game  2.250\n".into(),
                json: json!({"touchdowns": 2.25}),
            },
        }
    }

    #[test]
    fn text_report_has_every_figure_and_throughput_last() {
        let tp = Throughput::new(2.0, 2, 4, 20300);
        let t = text(&report(), &info(), &tp);
        for needle in [
            "ATK wins",
            "DEF wins",
            "draws",
            "unfinished",
            "A (greedy) wins",
            "B (random) wins",
            "A plays DEF (moves first)",
            "first-mover advantage",
            "balance",
            "completion",
            "drawishness",
            "how games ended",
            "turn-limit",
            "turns",
            "actions",
            "mean branching factor",
            "touchdowns per game",
        ] {
            assert!(t.contains(needle), "{needle} missing from\n{t}");
        }
        let last = t.lines().last().unwrap();
        assert!(last.starts_with("throughput: 4 games in 2.00 s on 2 threads: 2.0 games/s"));
        // 2 s × 2 threads / 20300 actions = 197.044 µs.
        assert!(last.ends_with("197.044 µs per action"), "{last}");
    }

    #[test]
    fn an_odd_number_of_games_is_warned_in_the_header() {
        let tp = Throughput::new(1.0, 1, 3, 100);
        let mut r = report();
        assert!(!text(&r, &info(), &tp).contains("warning"));
        r.metrics = compute(
            &four()[..3],
            &["greedy".into(), "random".into()],
            ["ATK", "DEF"],
        );
        let t = text(&r, &info(), &tp);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[2].starts_with("warning: --games 3 is odd"), "{t}");
        let v: serde_json::Value = serde_json::from_str(&json(&r, &info(), &tp)).unwrap();
        assert!(v["warnings"][0].as_str().unwrap().contains("odd"));
    }

    /// The kinds of action, sorted by name with their means, between the
    /// duration table and the game's own section; the script failures as
    /// a count, the games they were in, and the first with its file:line.
    #[test]
    fn actions_per_game_and_script_errors_in_the_text() {
        let mut games = four();
        games[0].kinds = [("move".into(), 8), ("end".into(), 2)].into();
        games[2].kinds = [("lpass".into(), 1)].into();
        games[2].script_errors = 2;
        games[2].first_script_error = Some("cards/x.lua:3: boom".into());
        let mut r = report();
        r.metrics = compute(&games, &["greedy".into(), "random".into()], ["ATK", "DEF"]);
        let t = body(&r, &info());
        let section: Vec<&str> = t
            .split("\nactions per game")
            .nth(1)
            .expect(&t)
            .lines()
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(
            section,
            [
                "  end                            0.50",
                "  lpass                          0.25",
                "  move                           2.00"
            ]
        );
        assert!(
            t.contains(
                "script errors              2 failures in 1 of 4 games; first: cards/x.lua:3: boom"
            ),
            "{t}"
        );
        assert!(t.find("actions per game") < t.find("touchdowns per game"));
        let v: serde_json::Value =
            serde_json::from_str(&json(&r, &info(), &Throughput::new(1.0, 1, 4, 100))).unwrap();
        assert_eq!(v["metrics"]["actions_per_game"]["move"], 2.0);
        assert_eq!(v["metrics"]["script_error_games"], 1);
    }

    #[test]
    fn json_report_parses() {
        let j = json(&report(), &info(), &Throughput::new(1.0, 1, 4, 100));
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["metrics"]["games"], 4);
        assert_eq!(v["metrics"]["ends"]["cut"], 1);
        assert_eq!(v["game"]["touchdowns"], 2.25);
        assert_eq!(v["run"]["seed"], 7);
        assert_eq!(v["throughput"]["threads"], 1);
    }

    #[test]
    fn game_lines_round_trip() {
        for g in four() {
            let line = game_line(&g);
            let back: GameResult<()> = serde_json::from_str(&line).unwrap();
            assert_eq!(back, g);
        }
    }
}
