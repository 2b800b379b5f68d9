//! BALL's own figures in the balance lab (`lab::Figures`): touchdowns, and
//! in card mode each card's use and the EP economy (B11), every figure
//! defined in `docs/balance-metrics.md`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Ball;
use super::action::Action;
use super::piece::Team;
use super::position::Position;
use crate::lab::report::{pct, trunc};
use crate::lab::stats::{Interval, spread, wilson};
use crate::lab::{Figures, GameResult, Sample, Section};

/// One game's counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BallTally {
    /// Touchdowns, indexed by `Team as usize` (ATK, DEF).
    pub touchdowns: [u8; 2],
    /// Card plays and the EP economy; `None` when the game is not in card
    /// mode.
    pub cards: Option<GameCards>,
}

/// One card-mode game's card plays and EP flows, every array indexed by
/// `Team as usize` (ATK, DEF).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameCards {
    /// Plays of each card id by side. Every card either coach holds is
    /// listed, played or not, in id order.
    pub plays: BTreeMap<String, [u32; 2]>,
    /// EP bought with AP: the sum of N over the side's `convert N`.
    pub converted: [u32; 2],
    /// EP paid for cards: the sum of the EP costs (`Ball::cards`) of the
    /// cards the side played.
    pub spent: [u32; 2],
    /// EP left at the end of the game.
    pub final_ep: [u32; 2],
    /// Card actions whose effect failed, leaving the position unchanged
    /// (B11.7): not counted as plays. A script bug if ever above 0.
    pub failed: u32,
}

impl GameCards {
    /// EP earned from play (the EP table, B11.3), derived from the
    /// identity final = earned + converted − spent (EP start at 0, B11.2).
    /// Signed, so that a broken identity shows as a negative figure
    /// rather than wrapping.
    pub fn earned(&self) -> [i64; 2] {
        [0, 1].map(|t| {
            i64::from(self.final_ep[t]) - i64::from(self.converted[t]) + i64::from(self.spent[t])
        })
    }

    /// Total plays of all cards by side.
    pub fn total_plays(&self) -> [u32; 2] {
        self.plays
            .values()
            .fold([0, 0], |acc, p| [acc[0] + p[0], acc[1] + p[1]])
    }
}


impl Figures for Ball {
    type Tally = BallTally;

    fn start_tally(&self, _start: &Position) -> BallTally {
        BallTally {
            touchdowns: [0, 0],
            cards: self.card_mode().then(|| {
                let mut c = GameCards::default();
                for team in Team::BOTH {
                    for card in self.cards(team) {
                        c.plays.insert(card.id.name().to_string(), [0, 0]);
                    }
                }
                c
            }),
        }
    }

    fn tally(
        &self,
        t: &mut BallTally,
        before: &Position,
        action: Action,
        after: &Position,
        _events: &[super::event::Event],
    ) {
        let Some(c) = &mut t.cards else { return };
        let side = before.to_move as usize;
        match action {
            Action::Convert { ap } => c.converted[side] += u32::from(ap),
            Action::Card { .. } if after == before => c.failed += 1,
            Action::Card { card, .. } => {
                let cost = self
                    .cards(before.to_move)
                    .iter()
                    .find(|x| x.id == card)
                    .map(|x| x.cost);
                debug_assert!(cost.is_some(), "card {} not held", card.name());
                c.spent[side] += cost.unwrap_or(0);
                c.plays.entry(card.name().to_string()).or_insert([0, 0])[side] += 1;
            }
            _ => {}
        }
    }

    fn finish_tally(&self, t: &mut BallTally, last: &Position) {
        t.touchdowns = last.score;
        if let Some(c) = &mut t.cards {
            c.final_ep = last.ep;
        }
    }

    fn section(games: &[GameResult<BallTally>], bots: &[String; 2]) -> Section {
        let tds: Vec<f64> = games.iter().map(touchdowns).collect();
        let tpg = spread(&tds).mean;
        let cards = card_figures(games);
        let mut text = format!("  {:<26} {tpg:>6.3}\n", "touchdowns per game");
        match &cards {
            Some(c) => cards_text(&mut text, c, bots),
            None => text.push_str("  card mode                     n/a  not a card-mode ruleset\n"),
        }
        Section {
            text,
            json: json!({ "touchdowns_per_game": tpg, "cards": cards }),
        }
    }

    fn samples(games: &[GameResult<BallTally>]) -> Vec<Sample> {
        let mut s = vec![Sample::mean(
            "touchdowns per game",
            games.iter().map(touchdowns).collect(),
        )];
        s.extend(card_samples(games));
        s
    }
}

fn touchdowns(g: &GameResult<BallTally>) -> f64 {
    let t = g.figures.touchdowns;
    f64::from(t[0]) + f64::from(t[1])
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
pub fn card_figures(results: &[GameResult<BallTally>]) -> Option<CardFigures> {
    let games: Vec<(&GameResult<BallTally>, &GameCards)> = results
        .iter()
        .filter_map(|g| g.figures.cards.as_ref().map(|c| (g, c)))
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
                    let bot = g.bots[team as usize];
                    bot_plays[bot] += k;
                    let won = usize::from(g.winner() == Some(team as usize));
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
        let t = |g: &GameResult<BallTally>| if g.bots[def] == b { def } else { atk };
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

/// Per-game card samples, both coaches together, over the card-mode
/// games in game order: EP earned, converted, spent, and each card's plays
/// and whether it was played. Empty when no game is in card mode.
fn card_samples(results: &[GameResult<BallTally>]) -> Vec<Sample> {
    let games: Vec<&GameCards> = results.iter().filter_map(|g| g.figures.cards.as_ref()).collect();
    if games.is_empty() {
        return Vec::new();
    }
    let both = |f: &dyn Fn(&GameCards) -> f64| games.iter().map(|c| f(c)).collect::<Vec<f64>>();
    let mut ids: Vec<&String> = games.iter().flat_map(|c| c.plays.keys()).collect();
    ids.sort();
    ids.dedup();
    let mut s = vec![
        Sample::mean("EP earned per game", both(&|c| (c.earned()[0] + c.earned()[1]) as f64)),
        Sample::mean(
            "EP converted per game",
            both(&|c| f64::from(c.converted[0] + c.converted[1])),
        ),
        Sample::mean("EP spent per game", both(&|c| f64::from(c.spent[0] + c.spent[1]))),
    ];
    for id in ids {
        let plays = |c: &GameCards| {
            let p = c.plays.get(id).copied().unwrap_or([0, 0]);
            f64::from(p[0] + p[1])
        };
        s.push(Sample::mean(format!("{id}: plays per game"), both(&plays)));
        s.push(Sample::share(
            format!("{id}: games played"),
            both(&|c| f64::from(u8::from(plays(c) > 0.0))),
        ));
    }
    s
}
