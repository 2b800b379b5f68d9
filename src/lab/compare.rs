//! `ball compare`: two rulesets, the same seeds and bots, side by side.
//!
//! Each figure is tested for a difference at the 5 % level:
//! - rates (wins, draws, completion, first-mover score) with the pooled
//!   two-proportion z-test;
//! - means (turns, actions, touchdowns, branching factor) with Welch's
//!   t-test, which does not assume equal variances.
//!
//! When both rulesets are in card mode, rows follow for the EP economy
//! (earned, converted, spent per game, both coaches together: Welch) and
//! for each card (plays per game: Welch; share of games played: z).
//!
//! The games of the two sides share seeds but not positions (the rules
//! differ, so the games part at once), so the samples are treated as
//! independent. Balance is a function of the first-mover score and is
//! shown without a test of its own.

use serde::Serialize;

use super::metrics::{Metrics, Samples};
use super::stats::{two_proportion_p, welch_p};

/// The significance level of the tests.
pub const ALPHA: f64 = 0.05;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub figure: String,
    pub a: f64,
    pub b: f64,
    /// b − a.
    pub diff: f64,
    /// `z` (two proportions), `welch`, or `none`.
    pub test: &'static str,
    /// Two-sided p-value; `None` when the figure is not tested.
    pub p: Option<f64>,
    pub significant: bool,
}

fn row(figure: &str, a: f64, b: f64, test: &'static str, p: Option<f64>) -> Row {
    Row {
        figure: figure.into(),
        a,
        b,
        diff: b - a,
        test,
        p,
        significant: p.is_some_and(|p| p < ALPHA),
    }
}

/// The rows of the comparison of side `a` with side `b`.
pub fn compare(ma: &Metrics, sa: &Samples, mb: &Metrics, sb: &Samples) -> Vec<Row> {
    let (na, nb) = (ma.games, mb.games);
    let rate = |name: &str, xa: f64, xb: f64| {
        let pa = if na == 0 { 0.0 } else { xa / na as f64 };
        let pb = if nb == 0 { 0.0 } else { xb / nb as f64 };
        row(name, pa, pb, "z", Some(two_proportion_p(xa, na, xb, nb)))
    };
    let mean = |name: &str, a: &[f64], b: &[f64]| {
        let m = |v: &[f64]| {
            if v.is_empty() {
                0.0
            } else {
                v.iter().sum::<f64>() / v.len() as f64
            }
        };
        row(name, m(a), m(b), "welch", Some(welch_p(a, b)))
    };
    let [bot_a, bot_b] = &ma.bots;
    let mut rows = vec![
        rate("ATK win rate", ma.atk_wins as f64, mb.atk_wins as f64),
        rate("DEF win rate", ma.def_wins as f64, mb.def_wins as f64),
        rate("draw rate", ma.draws as f64, mb.draws as f64),
        rate(
            &format!("A ({bot_a}) win rate"),
            ma.bot_wins[0] as f64,
            mb.bot_wins[0] as f64,
        ),
        rate(
            &format!("B ({bot_b}) win rate"),
            ma.bot_wins[1] as f64,
            mb.bot_wins[1] as f64,
        ),
        rate(
            "first-mover advantage",
            ma.first_mover.p * na as f64,
            mb.first_mover.p * nb as f64,
        ),
        row("balance", ma.balance, mb.balance, "none", None),
        rate(
            "completion",
            ma.completion * na as f64,
            mb.completion * nb as f64,
        ),
        rate(
            "drawishness",
            ma.drawishness * na as f64,
            mb.drawishness * nb as f64,
        ),
        mean("turns (mean)", &sa.turns, &sb.turns),
        mean("actions (mean)", &sa.actions, &sb.actions),
        mean("touchdowns per game", &sa.touchdowns, &sb.touchdowns),
        mean("mean branching factor", &sa.branching, &sb.branching),
    ];
    // Card mode on both sides: the EP flows (both coaches together) and
    // each card's plays and game share. Only then: against a side without
    // cards every difference would be the card mode itself.
    if let (Some(ca), Some(cb), Some(xa), Some(xb)) = (&sa.cards, &sb.cards, &ma.cards, &mb.cards) {
        rows.push(mean("EP earned per game", &ca.earned, &cb.earned));
        rows.push(mean("EP converted per game", &ca.converted, &cb.converted));
        rows.push(mean("EP spent per game", &ca.spent, &cb.spent));
        let mut ids: Vec<&String> = ca.plays.keys().chain(cb.plays.keys()).collect();
        ids.sort();
        ids.dedup();
        for id in ids {
            // A card one side does not hold: 0 plays in each of its games.
            let zeros = |k: usize| vec![0.0; k];
            let pa = ca
                .plays
                .get(id)
                .cloned()
                .unwrap_or_else(|| zeros(ca.earned.len()));
            let pb = cb
                .plays
                .get(id)
                .cloned()
                .unwrap_or_else(|| zeros(cb.earned.len()));
            rows.push(mean(&format!("{id}: plays per game"), &pa, &pb));
            let played = |c: &super::metrics::CardFigures| {
                c.cards
                    .iter()
                    .find(|u| &u.card == id)
                    .map_or(0.0, |u| u.games_played as f64)
            };
            let (ga, gb) = (xa.games, xb.games);
            let (ka, kb) = (played(xa), played(xb));
            let share = |k: f64, n: usize| if n == 0 { 0.0 } else { k / n as f64 };
            rows.push(row(
                &format!("{id}: games played"),
                share(ka, ga),
                share(kb, gb),
                "z",
                Some(two_proportion_p(ka, ga, kb, gb)),
            ));
        }
    }
    rows
}

/// The comparison as a table.
pub fn text(name_a: &str, name_b: &str, ma: &Metrics, rows: &[Row]) -> String {
    let mut s = format!(
        "ball compare: {name_a} vs {name_b}: A = {} vs B = {}, {} games each, same seeds\n",
        ma.bots[0], ma.bots[1], ma.games
    );
    s.push_str(&format!(
        "significant: p < {ALPHA} (rates: two-proportion z-test; means: Welch's t-test)\n\n"
    ));
    let wa = name_a.chars().count().clamp(8, 20);
    let wb = name_b.chars().count().clamp(8, 20);
    let wf = rows
        .iter()
        .map(|r| r.figure.chars().count())
        .max()
        .unwrap_or(0)
        .max(26);
    s.push_str(&format!(
        "{:<w$} {:>wa$} {:>wb$} {:>9} {:>8}\n",
        "figure",
        name_a,
        name_b,
        "diff",
        "p",
        w = wf + 2
    ));
    for r in rows {
        let p = r.p.map_or("-".to_string(), |p| format!("{p:.4}"));
        let mark = if r.significant { "  significant" } else { "" };
        s.push_str(&format!(
            "  {:<wf$} {:>wa$.3} {:>wb$.3} {:>+9.3} {:>8}{mark}\n",
            r.figure, r.a, r.b, r.diff, p
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ball::piece::Team;
    use crate::lab::metrics::{compute, samples, tests::game};
    use crate::lab::sim::End;

    #[test]
    fn a_large_difference_is_significant_and_equal_sides_are_not() {
        let bots = ["A".to_string(), "B".to_string()];
        // Side a: DEF wins all 100 games in 20 turns; side b: ATK wins all
        // in 40 turns.
        let a: Vec<_> = (0..100)
            .map(|i| {
                game(
                    i,
                    Some(Team::Def),
                    End::Touchdowns,
                    [0, 3],
                    20 + (i % 3) as u32,
                    50,
                    500,
                )
            })
            .collect();
        let b: Vec<_> = (0..100)
            .map(|i| {
                game(
                    i,
                    Some(Team::Atk),
                    End::Touchdowns,
                    [3, 0],
                    40 + (i % 3) as u32,
                    90,
                    900,
                )
            })
            .collect();
        let (ma, mb) = (compute(&a, &bots), compute(&b, &bots));
        let rows = compare(&ma, &samples(&a), &mb, &samples(&b));
        let get = |name: &str| rows.iter().find(|r| r.figure == name).unwrap().clone();
        let def = get("DEF win rate");
        assert_eq!((def.a, def.b, def.diff), (1.0, 0.0, -1.0));
        assert!(def.significant);
        assert!(get("turns (mean)").significant);
        assert!((get("turns (mean)").diff - 20.0).abs() < 1e-9);
        // Bot A won the even games on side a (DEF) and the odd ones on
        // side b (ATK): 50 % both times.
        let bot_a = get("A (A) win rate");
        assert_eq!((bot_a.a, bot_a.b), (0.5, 0.5));
        assert!(!bot_a.significant);
        assert!(get("balance").p.is_none());
        // A side against itself: nothing is significant.
        let same = compare(&ma, &samples(&a), &ma, &samples(&a));
        assert!(same.iter().all(|r| !r.significant && r.diff == 0.0));
        let t = text("standard", "variant", &ma, &rows);
        assert!(t.contains("significant"));
        assert!(t.contains("DEF win rate"));
        // Without card mode: no card rows.
        assert!(!rows.iter().any(|r| r.figure.starts_with("EP ")));
    }

    #[test]
    fn card_rows_when_both_sides_play_cards() {
        use crate::lab::metrics::tests::two_card_games;
        let bots = ["A".to_string(), "B".to_string()];
        let a = two_card_games();
        // Side b: sprint never played, shove played in both games, and
        // a third card only b holds, never played.
        let mut b = two_card_games();
        for g in &mut b {
            let c = g.cards.as_mut().unwrap();
            c.plays.insert("sprint".into(), [0, 0]);
            c.plays.insert("shove".into(), [2, 0]);
            c.plays.insert("magnet".into(), [0, 0]);
            c.spent = [0, 0];
        }
        let (ma, mb) = (compute(&a, &bots), compute(&b, &bots));
        let rows = compare(&ma, &samples(&a), &mb, &samples(&b));
        let get = |name: &str| rows.iter().find(|r| r.figure == name).unwrap().clone();
        let spent = get("EP spent per game");
        // a: (2 + 4) and (1 + 0): 3.5 a game; b: 0.
        assert_eq!((spent.a, spent.b, spent.test), (3.5, 0.0, "welch"));
        let sprint = get("sprint: plays per game");
        assert_eq!((sprint.a, sprint.b), (1.5, 0.0));
        let shove = get("shove: games played");
        assert_eq!((shove.a, shove.b, shove.test), (0.5, 1.0, "z"));
        assert_eq!(shove.p, Some(two_proportion_p(1.0, 2, 2.0, 2)));
        // A card only one side holds: 0 plays on the other side.
        let magnet = get("magnet: plays per game");
        assert_eq!((magnet.a, magnet.b), (0.0, 0.0));
        let t = text("cards", "cards-b", &ma, &rows);
        assert!(t.contains("sprint: plays per game"), "{t}");
        // Against a side without card mode: no card rows.
        let plain = crate::lab::metrics::tests::four();
        let rows = compare(&ma, &samples(&a), &compute(&plain, &bots), &samples(&plain));
        assert!(!rows.iter().any(|r| r.figure.contains("EP ")));
    }
}
