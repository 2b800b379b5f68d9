//! The `ball sim` report: a text table for people, JSON for machines,
//! and the per-game JSON lines of `--out`.
//!
//! Everything but the last line (throughput, a wall-clock figure) is a
//! function of the results, so a run's report is the same on any number
//! of threads.

use serde::Serialize;
use serde_json::json;

use super::metrics::{CardFigures, EpSide, Metrics};
use super::sim::{End, GameCards, GameResult};
use super::stats::Interval;
use crate::games::ball::piece::Team;

/// What a run was: printed at the top of the report.
#[derive(Clone, Debug, Serialize)]
pub struct RunInfo {
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
pub fn text(m: &Metrics, run: &RunInfo, tp: &Throughput) -> String {
    let mut s = String::new();
    let [a, b] = &m.bots;
    s.push_str(&format!(
        "ball sim: A = {a} vs B = {b}, {} games, seed {}, ruleset {} ({})\n",
        m.games, run.seed, run.ruleset, run.ruleset_hash
    ));
    s.push_str("seats: A plays DEF (moves first) in even games, ATK in odd games\n\n");
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
    row(&mut s, "ATK wins", m.atk_wins, &m.atk_win_rate);
    row(&mut s, "DEF wins", m.def_wins, &m.def_win_rate);
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
        "  {:<26} {:>6}  {:>6}  {}  DEF's mean score (win 1, draw ½)\n",
        "first-mover advantage",
        "",
        pct(m.first_mover.p),
        interval(&m.first_mover)
    ));
    let fig = |s: &mut String, name: &str, v: f64, note: &str| {
        s.push_str(&format!("  {name:<26} {v:>6.3}  {note}\n"));
    };
    fig(&mut s, "balance", m.balance, "1 − |w_DEF − w_ATK|");
    fig(
        &mut s,
        "completion",
        m.completion,
        "decided by touchdowns before the turn limit",
    );
    fig(
        &mut s,
        "drawishness",
        m.drawishness,
        "draws at the turn limit",
    );
    fig(
        &mut s,
        "timeouts",
        m.timeouts,
        "ended by the turn limit (or cut)",
    );
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
    s.push('\n');
    fig(&mut s, "touchdowns per game", m.touchdowns_per_game, "");
    s.push_str(&format!(
        "  {:<26} {:>6.1}  legal actions per decision\n",
        "mean branching factor", m.branching_factor
    ));
    match &m.cards {
        Some(c) => cards_text(&mut s, c, &m.bots),
        None => s.push_str("  card mode                     n/a  not a card-mode ruleset\n"),
    }
    s.push('\n');
    s.push_str(&tp.line(m.games));
    s.push('\n');
    s
}

/// The card-use and EP-economy tables.
fn cards_text(s: &mut String, c: &CardFigures, bots: &[String; 2]) {
    let [a, b] = bots;
    s.push_str(&format!(
        "\n{:<20} {:>10} {:>7}  {:>15}  {:>15}  {}\n",
        format!("cards ({} games)", c.games),
        "plays/game",
        "games",
        trunc(&format!("A ({a})"), 15),
        trunc(&format!("B ({b})"), 15),
        "side win rate: played / not"
    ));
    let opt = |i: &Option<Interval>| i.as_ref().map_or("-".to_string(), |i| pct(i.p));
    for u in &c.cards {
        s.push_str(&format!(
            "  {:<18} {:>10.2} {:>7}  {:>6.2} {:>8}  {:>6.2} {:>8}  {:>6} / {}\n",
            trunc(&u.card, 18),
            u.plays_per_game,
            pct(u.game_share.p),
            u.bot_plays_per_game[0],
            pct(u.bot_game_share[0].p),
            u.bot_plays_per_game[1],
            pct(u.bot_game_share[1].p),
            opt(&u.win_rate_played),
            opt(&u.win_rate_not_played),
        ));
    }
    if c.failed > 0 {
        s.push_str(&format!(
            "  {:<18} {:>10}  card effects that failed (B11.7): a script bug\n",
            "failed", c.failed
        ));
    }
    s.push_str(&format!(
        "\n{:<20} {:>8} {:>9} {:>8} {:>8} {:>8}\n",
        "EP per game", "earned", "converted", "spent", "final", "cards"
    ));
    let ep_row = |s: &mut String, name: &str, e: &EpSide| {
        s.push_str(&format!(
            "  {:<18} {:>8.2} {:>9.2} {:>8.2} {:>8.2} {:>8.2}\n",
            trunc(name, 18),
            e.earned,
            e.converted,
            e.spent,
            e.final_ep,
            e.card_plays
        ));
    };
    ep_row(s, "ATK", &c.ep.atk);
    ep_row(s, "DEF", &c.ep.def);
    ep_row(s, &format!("A ({a})"), &c.ep.bots[0]);
    ep_row(s, &format!("B ({b})"), &c.ep.bots[1]);
    s.push_str("  earned (the EP table, B11.3) = final − converted + spent; EP start at 0\n");
}

/// At most `n` characters.
fn trunc(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The `--json` report: the same figures, throughput under its own key.
pub fn json(m: &Metrics, run: &RunInfo, tp: &Throughput) -> String {
    let v = json!({
        "run": run,
        "metrics": m,
        "throughput": tp,
    });
    let mut s = serde_json::to_string_pretty(&v).expect("figures serialize");
    s.push('\n');
    s
}

/// One `--out` line: the game as a JSON object (no newline).
pub fn game_line(g: &GameResult) -> String {
    let winner = match (g.winner, g.end) {
        (Some(t), _) => t.name(),
        (None, End::Cut) => "unfinished",
        (None, _) => "draw",
    };
    json!({
        "game": g.index,
        "seed": g.seed,
        "DEF": g.seats[Team::Def as usize],
        "ATK": g.seats[Team::Atk as usize],
        "winner": winner,
        "score": { "ATK": g.score[Team::Atk as usize], "DEF": g.score[Team::Def as usize] },
        "turns": g.turns,
        "actions": g.actions,
        "end": match g.end {
            End::Touchdowns => "touchdowns",
            End::TurnLimit => "turn-limit",
            End::Cut => "cut",
        },
        "cards": g.cards.as_ref().map(game_cards),
        "record": g.record,
    })
    .to_string()
}

/// A game's card plays and EP flows, by seat.
fn game_cards(c: &GameCards) -> serde_json::Value {
    let (atk, def) = (Team::Atk as usize, Team::Def as usize);
    let plays: serde_json::Map<String, serde_json::Value> = c
        .plays
        .iter()
        .map(|(id, p)| (id.clone(), json!({ "ATK": p[atk], "DEF": p[def] })))
        .collect();
    let earned = c.earned();
    let ep = |t: usize| {
        json!({
            "earned": earned[t],
            "converted": c.converted[t],
            "spent": c.spent[t],
            "final": c.final_ep[t],
        })
    };
    json!({
        "plays": plays,
        "ep": { "ATK": ep(atk), "DEF": ep(def) },
        "failed": c.failed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::metrics::{compute, tests::four};

    fn info() -> RunInfo {
        RunInfo {
            ruleset: "standard".into(),
            ruleset_hash: "0123456789abcdef".into(),
            seed: 7,
        }
    }

    #[test]
    fn text_report_has_every_figure_and_throughput_last() {
        let m = compute(&four(), &["greedy".into(), "random".into()]);
        let tp = Throughput::new(2.0, 2, 4, 20300);
        let t = text(&m, &info(), &tp);
        for needle in [
            "ATK wins",
            "DEF wins",
            "draws",
            "unfinished",
            "A (greedy) wins",
            "B (random) wins",
            "first-mover advantage",
            "balance",
            "completion",
            "drawishness",
            "turns",
            "actions",
            "touchdowns per game",
            "mean branching factor",
            "card mode",
        ] {
            assert!(t.contains(needle), "{needle} missing from\n{t}");
        }
        let last = t.lines().last().unwrap();
        assert!(last.starts_with("throughput: 4 games in 2.00 s on 2 threads: 2.0 games/s"));
        // 2 s × 2 threads / 20300 actions = 197.044 µs.
        assert!(last.ends_with("197.044 µs per action"), "{last}");
    }

    #[test]
    fn json_report_parses() {
        let m = compute(&four(), &["greedy".into(), "random".into()]);
        let j = json(&m, &info(), &Throughput::new(1.0, 1, 4, 100));
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["metrics"]["games"], 4);
        assert_eq!(v["metrics"]["cards"], serde_json::Value::Null);
        assert_eq!(v["run"]["seed"], 7);
        assert_eq!(v["throughput"]["threads"], 1);
    }

    #[test]
    fn card_tables_in_text_and_json() {
        use crate::lab::metrics::tests::two_card_games;
        let m = compute(&two_card_games(), &["greedy".into(), "random".into()]);
        let tp = Throughput::new(1.0, 1, 2, 180);
        let t = text(&m, &info(), &tp);
        assert!(!t.contains("n/a"), "{t}");
        assert!(t.contains("cards (2 games)"), "{t}");
        // sprint: 1.5 plays a game, in 50 % of games; A 1.00 in 50 %, B
        // 0.50 in 50 %; sides that played it won 50.0 %, the others 50.0 %.
        let sprint = t
            .lines()
            .find(|l| l.trim_start().starts_with("sprint"))
            .unwrap();
        let cols: Vec<&str> = sprint.split_whitespace().collect();
        assert_eq!(
            cols,
            [
                "sprint", "1.50", "50.0%", "1.00", "50.0%", "0.50", "50.0%", "50.0%", "/", "50.0%"
            ]
        );
        let atk = t
            .lines()
            .find(|l| l.trim_start().starts_with("ATK  "))
            .unwrap();
        assert_eq!(
            atk.split_whitespace().collect::<Vec<_>>(),
            ["ATK", "2.50", "0.50", "1.50", "1.50", "1.00"]
        );
        assert!(t.contains("A (greedy)") && t.contains("earned"));
        let v: serde_json::Value = serde_json::from_str(&json(&m, &info(), &tp)).unwrap();
        let c = &v["metrics"]["cards"];
        assert_eq!(c["games"], 2);
        assert_eq!(c["cards"][1]["card"], "sprint");
        assert_eq!(c["cards"][1]["plays_per_game"], 1.5);
        assert_eq!(c["cards"][0]["win_rate_played"]["p"], 1.0);
        assert_eq!(c["ep"]["def"]["earned"], 3.0);
        assert_eq!(c["ep"]["bots"][1]["converted"], 1.5);
    }

    #[test]
    fn game_lines() {
        let g = &four();
        let v: serde_json::Value = serde_json::from_str(&game_line(&g[0])).unwrap();
        assert_eq!(v["winner"], "DEF");
        assert_eq!(v["score"]["DEF"], 3);
        assert_eq!(v["DEF"], "A");
        let v: serde_json::Value = serde_json::from_str(&game_line(&g[3])).unwrap();
        assert_eq!(v["winner"], "unfinished");
        assert_eq!(v["end"], "cut");
        let v: serde_json::Value = serde_json::from_str(&game_line(&g[2])).unwrap();
        assert_eq!(v["winner"], "draw");
    }
}
