//! The figures of a batch of games, each defined in
//! `docs/balance-metrics.md` (which follows Ludii's metric classes, see
//! the notes in `shared/notes/game-systems.md` §5). Pure functions of the
//! [`GameResult`]s: no clock, so equal results give equal figures.

use std::collections::BTreeMap;

use serde::Serialize;

use super::sim::{End, GameCards, GameResult};
use super::stats::{Interval, Spread, spread, wilson};
use crate::games::ball::piece::Team;

/// Every figure of the report but the throughput.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    pub games: usize,
    /// Bot specs A and B.
    pub bots: [String; 2],
    /// Wins by seat.
    pub atk_wins: usize,
    pub def_wins: usize,
    /// Games that ended at the turn limit with equal scores.
    pub draws: usize,
    /// Games cut by the action cap (a bug net: should be 0).
    pub unfinished: usize,
    pub atk_win_rate: Interval,
    pub def_win_rate: Interval,
    pub draw_rate: Interval,
    /// Wins of bot A and bot B, over all games (both seats).
    pub bot_wins: [usize; 2],
    pub bot_win_rate: [Interval; 2],
    /// Ludii AdvantageP1 for DEF, who moves first (B3.2): DEF's mean
    /// score, a win 1, a draw or unfinished game ½, a loss 0.
    pub first_mover: Interval,
    /// 1 − |w_DEF − w_ATK|, w = a seat's mean score (Ludii Balance).
    pub balance: f64,
    /// Fraction of games decided by reaching `touchdowns_to_win`, before
    /// the turn limit.
    pub completion: f64,
    /// Fraction of games that are natural draws (equal score at the turn
    /// limit; cut games are not draws).
    pub drawishness: f64,
    /// Fraction of games ended by the turn limit or the action cap.
    pub timeouts: f64,
    pub turns: Spread,
    pub actions: Spread,
    pub touchdowns_per_game: f64,
    /// Mean over games of the game's mean legal-list length per action.
    pub branching_factor: f64,
    /// Card-mode figures (card use, EP economy): `None` when no game was
    /// played in card mode.
    pub cards: Option<CardFigures>,
}

/// Card use and the EP economy over the card-mode games (B11).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardFigures {
    /// Card-mode games (all of them in a card-mode run).
    pub games: usize,
    /// One entry per card id either coach held, in id order.
    pub cards: Vec<CardUse>,
    pub ep: EpEconomy,
    /// Card actions whose effect failed (B11.7), not counted as plays: a
    /// script bug if above 0.
    pub failed: usize,
}

/// How much one card was played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardUse {
    pub card: String,
    /// Plays per game, both coaches together (mean over games).
    pub plays_per_game: f64,
    /// Games in which either coach played it at least once, and their
    /// share of the games with a 95% Wilson interval.
    pub games_played: usize,
    pub game_share: Interval,
    /// Bot A's and B's plays per game (both seats).
    pub bot_plays_per_game: [f64; 2],
    /// Share of the games in which bot A (B) played it at least once.
    pub bot_game_share: [Interval; 2],
    /// *Sides* (one coach in one game; 2 a game) that played it at least
    /// once, and those that did not.
    pub sides_played: usize,
    pub sides_not_played: usize,
    /// Wins over those sides (a draw is not a win), with Wilson
    /// intervals; `None` when there is no such side.
    pub win_rate_played: Option<Interval>,
    pub win_rate_not_played: Option<Interval>,
}

/// Mean EP flows per game of one coach (a seat, or a bot over both
/// seats). earned = final − converted + spent, exactly, game by game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct EpSide {
    /// From play: the EP table (B11.3).
    pub earned: f64,
    /// Bought with AP (`convert N`, B11.4).
    pub converted: f64,
    /// Paid for cards: the sum of the played cards' EP costs.
    pub spent: f64,
    /// EP left when the game ended.
    pub final_ep: f64,
    /// Cards played.
    pub card_plays: f64,
}

/// The EP economy: per seat and per bot, means per game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EpEconomy {
    pub atk: EpSide,
    pub def: EpSide,
    /// Bot A, bot B.
    pub bots: [EpSide; 2],
}

/// One side's flows in one game.
fn ep_side(c: &GameCards, t: usize) -> EpSide {
    EpSide {
        earned: c.earned()[t] as f64,
        converted: f64::from(c.converted[t]),
        spent: f64::from(c.spent[t]),
        final_ep: f64::from(c.final_ep[t]),
        card_plays: f64::from(c.total_plays()[t]),
    }
}

/// Mean of sides.
fn ep_mean(sides: &[EpSide]) -> EpSide {
    let n = sides.len().max(1) as f64;
    let sum = |f: fn(&EpSide) -> f64| sides.iter().map(f).sum::<f64>() / n;
    EpSide {
        earned: sum(|s| s.earned),
        converted: sum(|s| s.converted),
        spent: sum(|s| s.spent),
        final_ep: sum(|s| s.final_ep),
        card_plays: sum(|s| s.card_plays),
    }
}

/// The card figures of the card-mode games among `results`, in game
/// order; `None` when there is none.
pub fn card_figures(results: &[GameResult]) -> Option<CardFigures> {
    let games: Vec<(&GameResult, &GameCards)> = results
        .iter()
        .filter_map(|g| g.cards.as_ref().map(|c| (g, c)))
        .collect();
    if games.is_empty() {
        return None;
    }
    let n = games.len();
    let nf = n as f64;
    let (atk, def) = (Team::Atk as usize, Team::Def as usize);
    // Every card id held in any game, in id order.
    let mut ids: Vec<&str> = games
        .iter()
        .flat_map(|(_, c)| c.plays.keys().map(String::as_str))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let cards = ids
        .iter()
        .map(|&id| {
            let plays = |c: &GameCards| c.plays.get(id).copied().unwrap_or([0, 0]);
            let total: u32 = games.iter().map(|(_, c)| plays(c)[0] + plays(c)[1]).sum();
            let games_played = games
                .iter()
                .filter(|(_, c)| plays(c)[0] + plays(c)[1] > 0)
                .count();
            let mut bot_plays = [0u32; 2];
            let mut bot_games = [0usize; 2];
            let (mut won_played, mut sides_played) = (0usize, 0usize);
            let mut won_not = 0usize;
            for (g, c) in &games {
                let p = plays(c);
                for team in [Team::Atk, Team::Def] {
                    let k = p[team as usize];
                    let bot = g.bot_of(team);
                    bot_plays[bot] += k;
                    let won = usize::from(g.winner == Some(team));
                    if k > 0 {
                        bot_games[bot] += 1;
                        sides_played += 1;
                        won_played += won;
                    } else {
                        won_not += won;
                    }
                }
            }
            let sides_not_played = 2 * n - sides_played;
            let rate = |w: usize, k: usize| (k > 0).then(|| wilson(w as f64, k));
            CardUse {
                card: id.to_string(),
                plays_per_game: f64::from(total) / nf,
                games_played,
                game_share: wilson(games_played as f64, n),
                bot_plays_per_game: bot_plays.map(|k| f64::from(k) / nf),
                bot_game_share: bot_games.map(|k| wilson(k as f64, n)),
                sides_played,
                sides_not_played,
                win_rate_played: rate(won_played, sides_played),
                win_rate_not_played: rate(won_not, sides_not_played),
            }
        })
        .collect();
    let seat = |t: usize| ep_mean(&games.iter().map(|(_, c)| ep_side(c, t)).collect::<Vec<_>>());
    let bot = |b: usize| {
        let t = |g: &GameResult| if g.def_bot == b { def } else { atk };
        ep_mean(
            &games
                .iter()
                .map(|(g, c)| ep_side(c, t(g)))
                .collect::<Vec<_>>(),
        )
    };
    Some(CardFigures {
        games: n,
        cards,
        ep: EpEconomy {
            atk: seat(atk),
            def: seat(def),
            bots: [bot(0), bot(1)],
        },
        failed: games.iter().map(|(_, c)| c.failed as usize).sum(),
    })
}

/// DEF's score in one game: 1 win, ½ no winner, 0 loss.
fn def_score(g: &GameResult) -> f64 {
    match g.winner {
        Some(Team::Def) => 1.0,
        Some(Team::Atk) => 0.0,
        None => 0.5,
    }
}

pub fn compute(results: &[GameResult], bots: &[String; 2]) -> Metrics {
    let n = results.len();
    let count = |f: &dyn Fn(&GameResult) -> bool| results.iter().filter(|g| f(g)).count();
    let atk_wins = count(&|g| g.winner == Some(Team::Atk));
    let def_wins = count(&|g| g.winner == Some(Team::Def));
    let draws = count(&|g| g.winner.is_none() && g.end != End::Cut);
    let unfinished = count(&|g| g.end == End::Cut);
    let bot_wins = [
        count(&|g| g.winning_bot() == Some(0)),
        count(&|g| g.winning_bot() == Some(1)),
    ];
    let def_total: f64 = results.iter().map(def_score).sum();
    let w_def = if n == 0 { 0.5 } else { def_total / n as f64 };
    let frac = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let turns: Vec<f64> = results.iter().map(|g| f64::from(g.turns)).collect();
    let actions: Vec<f64> = results.iter().map(|g| f64::from(g.actions)).collect();
    let tds: Vec<f64> = results
        .iter()
        .map(|g| f64::from(g.score[0]) + f64::from(g.score[1]))
        .collect();
    let branching: Vec<f64> = results
        .iter()
        .filter(|g| g.actions > 0)
        .map(|g| g.branching_sum as f64 / f64::from(g.actions))
        .collect();
    Metrics {
        games: n,
        bots: bots.clone(),
        atk_wins,
        def_wins,
        draws,
        unfinished,
        atk_win_rate: wilson(atk_wins as f64, n),
        def_win_rate: wilson(def_wins as f64, n),
        draw_rate: wilson(draws as f64, n),
        bot_wins,
        bot_win_rate: [wilson(bot_wins[0] as f64, n), wilson(bot_wins[1] as f64, n)],
        first_mover: wilson(def_total, n),
        // w_ATK = 1 − w_DEF: every game hands out exactly one point.
        balance: 1.0 - (w_def - (1.0 - w_def)).abs(),
        completion: frac(count(&|g| g.end == End::Touchdowns)),
        drawishness: frac(draws),
        timeouts: frac(count(&|g| g.end != End::Touchdowns)),
        turns: spread(&turns),
        actions: spread(&actions),
        touchdowns_per_game: spread(&tds).mean,
        branching_factor: spread(&branching).mean,
        cards: card_figures(results),
    }
}

/// Per-game samples of the figures `ball compare` tests with Welch.
pub fn samples(results: &[GameResult]) -> Samples {
    Samples {
        turns: results.iter().map(|g| f64::from(g.turns)).collect(),
        actions: results.iter().map(|g| f64::from(g.actions)).collect(),
        touchdowns: results
            .iter()
            .map(|g| f64::from(g.score[0]) + f64::from(g.score[1]))
            .collect(),
        branching: results
            .iter()
            .filter(|g| g.actions > 0)
            .map(|g| g.branching_sum as f64 / f64::from(g.actions))
            .collect(),
        cards: card_samples(results),
    }
}

/// Per-game card samples, both coaches together, over the card-mode
/// games in game order; `None` when there is none.
fn card_samples(results: &[GameResult]) -> Option<CardSamples> {
    let games: Vec<&GameCards> = results.iter().filter_map(|g| g.cards.as_ref()).collect();
    if games.is_empty() {
        return None;
    }
    let both = |f: &dyn Fn(&GameCards) -> f64| games.iter().map(|c| f(c)).collect::<Vec<f64>>();
    let mut plays: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for c in &games {
        for id in c.plays.keys() {
            plays.entry(id.clone()).or_default();
        }
    }
    for (id, v) in plays.iter_mut() {
        *v = both(&|c| {
            let p = c.plays.get(id).copied().unwrap_or([0, 0]);
            f64::from(p[0] + p[1])
        });
    }
    Some(CardSamples {
        earned: both(&|c| (c.earned()[0] + c.earned()[1]) as f64),
        converted: both(&|c| f64::from(c.converted[0] + c.converted[1])),
        spent: both(&|c| f64::from(c.spent[0] + c.spent[1])),
        plays,
    })
}

#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub turns: Vec<f64>,
    pub actions: Vec<f64>,
    pub touchdowns: Vec<f64>,
    pub branching: Vec<f64>,
    pub cards: Option<CardSamples>,
}

/// Per card-mode game, both coaches summed: EP earned, converted, spent,
/// and each card's plays.
#[derive(Clone, Debug, Default)]
pub struct CardSamples {
    pub earned: Vec<f64>,
    pub converted: Vec<f64>,
    pub spent: Vec<f64>,
    pub plays: BTreeMap<String, Vec<f64>>,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A synthetic game result.
    pub(crate) fn game(
        index: usize,
        winner: Option<Team>,
        end: End,
        score: [u8; 2],
        turns: u32,
        actions: u32,
        branching_sum: u64,
    ) -> GameResult {
        GameResult {
            index,
            seed: index as u64,
            seats: ["B".into(), "A".into()],
            def_bot: index % 2,
            winner,
            end,
            score,
            turns,
            actions,
            branching_sum,
            record: None,
            cards: None,
        }
    }

    /// Four games with known answers:
    /// 0: A on DEF wins 3-1 by touchdowns, turn 40, 100 actions, b̄ 10;
    /// 1: A on ATK wins 3-0, turn 20, 50 actions, b̄ 20;
    /// 2: draw 1-1 at turn 60, 150 actions, b̄ 30;
    /// 3: cut by the action cap, 0-0, turn 10, 20000 actions, b̄ 40.
    pub(crate) fn four() -> Vec<GameResult> {
        vec![
            game(0, Some(Team::Def), End::Touchdowns, [1, 3], 40, 100, 1000),
            game(1, Some(Team::Atk), End::Touchdowns, [3, 0], 20, 50, 1000),
            game(2, None, End::TurnLimit, [1, 1], 60, 150, 4500),
            game(3, None, End::Cut, [0, 0], 10, 20000, 800_000),
        ]
    }

    #[test]
    fn outcomes_of_four_games() {
        let m = compute(&four(), &["A".into(), "B".into()]);
        assert_eq!(m.games, 4);
        assert_eq!(
            (m.atk_wins, m.def_wins, m.draws, m.unfinished),
            (1, 1, 1, 1)
        );
        assert_eq!(m.bot_wins, [2, 0]);
        assert_eq!(m.atk_win_rate.p, 0.25);
        assert_eq!(m.bot_win_rate[0].p, 0.5);
        assert_eq!(m.bot_win_rate[0], wilson(2.0, 4));
        // DEF: 1 + 0 + ½ + ½ = 2 of 4.
        assert_eq!(m.first_mover.p, 0.5);
        assert_eq!(m.balance, 1.0);
        assert_eq!(m.completion, 0.5);
        assert_eq!(m.drawishness, 0.25);
        assert_eq!(m.timeouts, 0.5);
        assert_eq!(m.touchdowns_per_game, (4.0 + 3.0 + 2.0) / 4.0);
        assert_eq!(m.turns.mean, 32.5);
        assert_eq!(m.turns.median, 30.0);
        assert_eq!(m.actions.max, 20000.0);
        assert_eq!(m.branching_factor, 25.0);
        assert_eq!(m.cards, None);
    }

    /// DEF wins 3 of 4, ATK 1: w_DEF = 0.75, balance = 1 − |0.75 − 0.25|.
    #[test]
    fn balance_and_first_mover() {
        let g = |i, w| game(i, Some(w), End::Touchdowns, [0, 3], 30, 60, 600);
        let results = vec![
            g(0, Team::Def),
            g(1, Team::Def),
            g(2, Team::Def),
            g(3, Team::Atk),
        ];
        let m = compute(&results, &["A".into(), "B".into()]);
        assert_eq!(m.first_mover.p, 0.75);
        assert_eq!(m.balance, 0.5);
        assert_eq!(m.completion, 1.0);
        assert_eq!(m.drawishness, 0.0);
        // A played DEF in games 0 and 2, ATK in 1 and 3: A won 0, 2, 3.
        assert_eq!(m.bot_wins, [3, 1]);
    }

    /// Two card-mode games with known answers (A = bot 0):
    /// 0: A on DEF wins; sprint ATK 1, DEF 2; converted ATK 1, DEF 3;
    ///    spent 2, 4; final EP 0, 5 ⇒ earned 1, 6.
    /// 1: A on ATK wins; shove ATK 1; converted 0, 2; spent 1, 0;
    ///    final 3, 2 ⇒ earned 4, 0.
    pub(crate) fn two_card_games() -> Vec<GameResult> {
        let cards = |sprint: [u32; 2], shove: [u32; 2], conv, spent, fin| GameCards {
            plays: [("sprint".to_string(), sprint), ("shove".to_string(), shove)].into(),
            converted: conv,
            spent,
            final_ep: fin,
            failed: 0,
        };
        let mut g0 = game(0, Some(Team::Def), End::Touchdowns, [0, 3], 30, 90, 900);
        g0.cards = Some(cards([1, 2], [0, 0], [1, 3], [2, 4], [0, 5]));
        let mut g1 = game(1, Some(Team::Atk), End::Touchdowns, [3, 0], 30, 90, 900);
        g1.cards = Some(cards([0, 0], [1, 0], [0, 2], [1, 0], [3, 2]));
        vec![g0, g1]
    }

    #[test]
    fn card_figures_of_two_games() {
        let r = two_card_games();
        assert_eq!(r[0].cards.as_ref().unwrap().earned(), [1, 6]);
        assert_eq!(r[1].cards.as_ref().unwrap().earned(), [4, 0]);
        let c = compute(&r, &["A".into(), "B".into()]).cards.unwrap();
        assert_eq!(c.games, 2);
        assert_eq!(c.failed, 0);
        let ids: Vec<&str> = c.cards.iter().map(|u| u.card.as_str()).collect();
        assert_eq!(ids, ["shove", "sprint"]);
        let (shove, sprint) = (&c.cards[0], &c.cards[1]);
        assert_eq!(sprint.plays_per_game, 1.5);
        assert_eq!(sprint.games_played, 1);
        assert_eq!(sprint.game_share, wilson(1.0, 2));
        // Game 0: A (DEF) played it twice, B (ATK) once.
        assert_eq!(sprint.bot_plays_per_game, [1.0, 0.5]);
        assert_eq!(sprint.bot_game_share.map(|i| i.p), [0.5, 0.5]);
        // Sides that played it: game 0's two (DEF won); not: game 1's two
        // (ATK won).
        assert_eq!((sprint.sides_played, sprint.sides_not_played), (2, 2));
        assert_eq!(sprint.win_rate_played, Some(wilson(1.0, 2)));
        assert_eq!(sprint.win_rate_not_played, Some(wilson(1.0, 2)));
        assert_eq!(shove.plays_per_game, 0.5);
        // Game 1's ATK is A.
        assert_eq!(shove.bot_plays_per_game, [0.5, 0.0]);
        assert_eq!(shove.bot_game_share.map(|i| i.p), [0.5, 0.0]);
        assert_eq!((shove.sides_played, shove.sides_not_played), (1, 3));
        assert_eq!(shove.win_rate_played.unwrap().p, 1.0);
        assert_eq!(shove.win_rate_not_played.unwrap().p, 1.0 / 3.0);
        let side = |earned, converted, spent, final_ep, card_plays| EpSide {
            earned,
            converted,
            spent,
            final_ep,
            card_plays,
        };
        assert_eq!(c.ep.atk, side(2.5, 0.5, 1.5, 1.5, 1.0));
        assert_eq!(c.ep.def, side(3.0, 2.5, 2.0, 3.5, 1.0));
        assert_eq!(c.ep.bots[0], side(5.0, 1.5, 2.5, 4.0, 1.5));
        assert_eq!(c.ep.bots[1], side(0.5, 1.5, 1.0, 1.0, 0.5));
        let s = samples(&r).cards.unwrap();
        assert_eq!(s.earned, [7.0, 4.0]);
        assert_eq!(s.converted, [4.0, 2.0]);
        assert_eq!(s.spent, [6.0, 1.0]);
        assert_eq!(s.plays["sprint"], [3.0, 0.0]);
        assert_eq!(s.plays["shove"], [0.0, 1.0]);
        // Not card mode: no card figures.
        assert!(samples(&four()).cards.is_none());
    }

    #[test]
    fn no_games_no_panic() {
        let m = compute(&[], &["A".into(), "B".into()]);
        assert_eq!(m.games, 0);
        assert_eq!(m.balance, 1.0);
        assert_eq!(m.completion, 0.0);
    }
}
