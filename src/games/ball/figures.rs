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
use crate::lab::report::{interval, pct, trunc};
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
    /// Which sides hold each card of `plays`: a coach that does not hold a
    /// card cannot play it, so its side says nothing about the card.
    pub held: BTreeMap<String, [bool; 2]>,
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
                        let id = card.id.name().to_string();
                        c.plays.insert(id.clone(), [0, 0]);
                        c.held.entry(id).or_insert([false, false])[team as usize] = true;
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
        _after: &Position,
        _events: &[super::event::Event],
        errors: &[String],
    ) {
        let Some(c) = &mut t.cards else { return };
        let side = before.to_move as usize;
        match action {
            Action::Convert { ap } => c.converted[side] += u32::from(ap),
            // An effect that failed (its script raised an error or broke
            // the rules) left the position unchanged (B11.7); a card that
            // succeeds without changing anything is a play.
            Action::Card { .. } if errors.iter().any(|e| e.contains("hook `resolve`")) => {
                c.failed += 1
            }
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

/// How much one card was played. Every share and rate is over the sides
/// (one coach in one game) that held the card: a card in one coach's deck
/// is held by one side a game, and the other coach's sides, which could
/// not play it, count neither as played nor as not played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardUse {
    pub card: String,
    /// Sides that held it: 2 a game when both decks have it, 1 when one
    /// does.
    pub sides_held: usize,
    /// Plays per game, both coaches together (mean over the games).
    pub plays_per_game: f64,
    /// Games in which either coach played it at least once, and their
    /// share of the games with a 95% Wilson interval.
    pub games_played: usize,
    pub game_share: Interval,
    /// Sides of bot A (B) that held it: the bot's games on a seat whose
    /// deck has it.
    pub bot_sides_held: [usize; 2],
    /// Bot A's (B's) plays per side held.
    pub bot_plays_per_side: [f64; 2],
    /// Share of bot A's (B's) sides held in which it played the card at
    /// least once, with a 95% Wilson interval.
    pub bot_side_share: [Interval; 2],
    /// Held sides that played it at least once, and held sides that did
    /// not: `sides_played + sides_not_played = sides_held`.
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
            let held = |c: &GameCards| c.held.get(id).copied().unwrap_or([false, false]);
            let total: u32 = games.iter().map(|(_, c)| plays(c)[0] + plays(c)[1]).sum();
            let games_played = games
                .iter()
                .filter(|(_, c)| plays(c)[0] + plays(c)[1] > 0)
                .count();
            let mut bot_plays = [0u32; 2];
            let mut bot_held = [0usize; 2];
            let mut bot_played = [0usize; 2];
            let (mut sides_held, mut sides_played) = (0usize, 0usize);
            let (mut won_played, mut won_not) = (0usize, 0usize);
            for (g, c) in &games {
                let (p, h) = (plays(c), held(c));
                for team in [Team::Atk, Team::Def] {
                    let t = team as usize;
                    if !h[t] {
                        continue;
                    }
                    let bot = g.bots[t];
                    let won = usize::from(g.winner() == Some(t));
                    sides_held += 1;
                    bot_held[bot] += 1;
                    bot_plays[bot] += p[t];
                    if p[t] > 0 {
                        bot_played[bot] += 1;
                        sides_played += 1;
                        won_played += won;
                    } else {
                        won_not += won;
                    }
                }
            }
            let sides_not_played = sides_held - sides_played;
            let rate = |w: usize, k: usize| (k > 0).then(|| wilson(w as f64, k));
            let per = |k: u32, n: usize| if n == 0 { 0.0 } else { f64::from(k) / n as f64 };
            CardUse {
                card: id.to_string(),
                sides_held,
                plays_per_game: f64::from(total) / nf,
                games_played,
                game_share: wilson(games_played as f64, n),
                bot_sides_held: bot_held,
                bot_plays_per_side: [0, 1].map(|b| per(bot_plays[b], bot_held[b])),
                bot_side_share: [0, 1].map(|b| wilson(bot_played[b] as f64, bot_held[b])),
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

/// The card-use, card-win and EP-economy tables.
fn cards_text(s: &mut String, c: &CardFigures, bots: &[String; 2]) {
    let [a, b] = bots;
    s.push_str(&format!(
        "\n{:<20} {:>5} {:>10} {:>7}  {:>17}  {:>17}\n",
        format!("cards ({} games)", c.games),
        "held",
        "plays/game",
        "games",
        trunc(&format!("A ({a})"), 17),
        trunc(&format!("B ({b})"), 17),
    ));
    s.push_str(&format!(
        "  {:<18} {:>5} {:>10} {:>7}  {:>17}  {:>17}\n",
        "", "sides", "", "played", "plays/side played", "plays/side played"
    ));
    for u in &c.cards {
        s.push_str(&format!(
            "  {:<18} {:>5} {:>10.2} {:>7}  {:>10.2} {:>6}  {:>10.2} {:>6}\n",
            trunc(&u.card, 18),
            u.sides_held,
            u.plays_per_game,
            pct(u.game_share.p),
            u.bot_plays_per_side[0],
            pct(u.bot_side_share[0].p),
            u.bot_plays_per_side[1],
            pct(u.bot_side_share[1].p),
        ));
    }
    s.push_str(&format!(
        "\n{:<20} {:>6} {:>7} {:>16}  {:>6} {:>7} {:>16}\n",
        "side win rate", "played", "win", "95% Wilson", "not", "win", "95% Wilson"
    ));
    let rate = |i: &Option<Interval>| match i {
        Some(i) => (pct(i.p), interval(i)),
        None => ("-".to_string(), String::new()),
    };
    for u in &c.cards {
        let (wp, ip) = rate(&u.win_rate_played);
        let (wn, inn) = rate(&u.win_rate_not_played);
        let line = format!(
            "  {:<18} {:>6} {wp:>7} {ip:>16}  {:>6} {wn:>7} {inn:>16}",
            trunc(&u.card, 18),
            u.sides_played,
            u.sides_not_played,
        );
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push_str(
        "  over the sides that held the card; a correlation, not an effect (docs/balance-metrics.md)\n",
    );
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
    // One group: against a ruleset in card mode, a card only this one
    // holds is compared with 0 plays there; against one without card
    // mode, none of these rows is (each would measure card mode itself).
    s.into_iter().map(|x| x.in_group(CARD_GROUP)).collect()
}

/// The [`Sample::group`] of the card-mode figures.
pub const CARD_GROUP: &str = "cards";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::game::SeatResult::{Loss, Win};

    /// Game `i` of a synthetic card-mode run: bot A on DEF in even games
    /// (as the runner seats them), `winner` the winning team; `only_atk`
    /// is held by ATK alone, `both` by both decks.
    fn game(i: usize, winner: Team, only_atk: u32, both: [u32; 2]) -> GameResult<BallTally> {
        let (atk, def) = (Team::Atk as usize, Team::Def as usize);
        let mut bots = [0usize; 2];
        bots[def] = i % 2;
        bots[atk] = 1 - i % 2;
        let mut results = [Loss, Loss];
        results[winner as usize] = Win;
        let mut c = GameCards::default();
        let mut p = [0, 0];
        p[atk] = only_atk;
        c.plays.insert("only-atk".into(), p);
        let mut h = [false, false];
        h[atk] = true;
        c.held.insert("only-atk".into(), h);
        c.plays.insert("both".into(), both);
        c.held.insert("both".into(), [true, true]);
        GameResult {
            game: i,
            seed: i as u64,
            seats: ["x".into(), "y".into()],
            bots,
            first: def,
            results: Some(results),
            end: "touchdowns".into(),
            by_limit: false,
            score: String::new(),
            turns: 10,
            actions: 10,
            branching_sum: 100,
            kinds: Default::default(),
            script_errors: 0,
            first_script_error: None,
            figures: BallTally {
                touchdowns: [0, 0],
                cards: Some(c),
            },
            record: None,
        }
    }

    /// Four games. `only-atk`: ATK plays it in games 0 and 1 (both won by
    /// ATK), not in 2 and 3 (won by DEF): 4 sides held, 2 played (2 wins),
    /// 2 not (0 wins) — DEF's 4 sides, which could not play it, count
    /// nowhere (the old count had 6 "not played", 4 of them DEF's wins).
    /// ATK is bot B in even games and bot A in odd ones: each bot held it
    /// on 2 sides and played it on 1.
    #[test]
    fn a_card_in_one_deck_counts_only_the_sides_that_hold_it() {
        let games = vec![
            game(0, Team::Atk, 1, [0, 0]),
            game(1, Team::Atk, 2, [0, 0]),
            game(2, Team::Def, 0, [0, 0]),
            game(3, Team::Def, 0, [1, 0]),
        ];
        let f = card_figures(&games).unwrap();
        let u = f.cards.iter().find(|u| u.card == "only-atk").unwrap();
        assert_eq!(u.sides_held, 4);
        assert_eq!((u.sides_played, u.sides_not_played), (2, 2));
        assert_eq!(u.win_rate_played, Some(wilson(2.0, 2)));
        assert_eq!(u.win_rate_not_played, Some(wilson(0.0, 2)));
        assert_eq!(u.games_played, 2);
        assert_eq!(u.plays_per_game, 0.75);
        assert_eq!(u.bot_sides_held, [2, 2]);
        // Bot A (ATK in odd games): 2 plays in game 1 → 2 of 2 sides; bot
        // B (ATK in even games): 1 play in game 0.
        assert_eq!(u.bot_plays_per_side, [1.0, 0.5]);
        assert_eq!(u.bot_side_share, [wilson(1.0, 2), wilson(1.0, 2)]);
        // `both`: 8 sides held; ATK played it once, in game 3 (lost).
        let b = f.cards.iter().find(|u| u.card == "both").unwrap();
        assert_eq!(b.sides_held, 8);
        assert_eq!((b.sides_played, b.sides_not_played), (1, 7));
        assert_eq!(b.win_rate_played, Some(wilson(0.0, 1)));
        // The other 7 sides won 4 games: ATK in 0 and 1, DEF in 2 and 3.
        assert_eq!(b.win_rate_not_played, Some(wilson(4.0, 7)));
        // The table gives n and intervals.
        let section = Ball::section(&games, &["greedy".into(), "random".into()]);
        assert!(section.text.contains("side win rate"), "{}", section.text);
        let row = section
            .text
            .lines()
            .filter(|l| l.trim_start().starts_with("only-atk"))
            .nth(1)
            .unwrap();
        assert!(row.contains(" 2 ") && row.contains("[34.2%, 100.0%]"), "{row}");
    }
}
