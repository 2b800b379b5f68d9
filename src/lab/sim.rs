//! The sim runner: many seeded bot games, in parallel, with results that
//! do not depend on the thread count.
//!
//! **Determinism.** Game `i` of a run with seed `S` is fixed by `(S, i)`
//! alone: its seed is output `i` of SplitMix64 seeded with `S`
//! ([`game_seed`]), the bots' seeds are the first two outputs of a
//! SplitMix64 seeded with that (DEF's bot first), and results are
//! gathered in game order. Which thread plays a game changes nothing.
//!
//! **Seats.** Bot A plays DEF (who moves first, B3.2) in even-numbered
//! games and ATK in odd ones; bot B takes the other seat. Over an even
//! number of games each bot plays each seat equally often.
//!
//! **One game per worker.** Each worker builds its own game from the
//! [`Ruleset`] ([`new_game`]): a game may hold a Lua state, which is
//! not `Send`, so a `Ball` is never shared between threads.

use std::collections::BTreeMap;

use crate::bots;
use crate::games::ball::Ball;
use crate::games::ball::action::{Action, CardId};
use crate::games::ball::piece::Team;
use crate::games::ball::position::{Outcome, Position};
use crate::games::ball::ruleset::Ruleset;
use crate::kernel::game::Game;
use crate::kernel::record::Record;
use crate::kernel::rng::SplitMix64;
use rayon::prelude::*;

/// Safety net: a game is cut after this many actions (a real game has a
/// few hundred; `turn_limit` ends every legal game long before this).
/// A cut game counts as unfinished, never as a draw.
pub const MAX_ACTIONS: usize = 20_000;

/// What to run.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Bot specs A and B (`bots::from_spec`).
    pub bots: [String; 2],
    pub games: usize,
    pub seed: u64,
    /// Keep each game's match record text (costs a string per action).
    pub records: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A team reached `touchdowns_to_win` (B3.6).
    Touchdowns,
    /// The last turn ended (B3.6).
    TurnLimit,
    /// [`MAX_ACTIONS`] was reached: a bug net, not a rule.
    Cut,
}

/// One finished game: everything the metrics read.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub index: usize,
    pub seed: u64,
    /// Bot specs by seat, indexed by `Team as usize` (ATK, DEF).
    pub seats: [String; 2],
    /// Which of the two bots (0 = A, 1 = B) played DEF.
    pub def_bot: usize,
    /// `None` for a draw or a cut game.
    pub winner: Option<Team>,
    pub end: End,
    /// Touchdowns, indexed by `Team as usize`.
    pub score: [u8; 2],
    /// The turn number the game ended in.
    pub turns: u32,
    pub actions: u32,
    /// Sum of the legal-list lengths over the states where a choice was
    /// made (one per action): divided by `actions`, the game's mean
    /// branching factor.
    pub branching_sum: u64,
    /// The match record, when [`SimConfig::records`] asked for it.
    pub record: Option<String>,
    /// Card plays and the EP economy (B11); `None` when the game is not
    /// in card mode.
    pub cards: Option<GameCards>,
}

/// One card-mode game's card plays and EP flows, every array indexed by
/// `Team as usize` (ATK, DEF).
#[derive(Clone, Debug, Default, PartialEq)]
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

/// The EP cost of each side's cards, looked up once per game.
fn card_costs(game: &Ball) -> [Vec<(CardId, u32)>; 2] {
    [Team::Atk, Team::Def].map(|t| game.cards(t).iter().map(|c| (c.id, c.cost)).collect())
}

impl GameResult {
    /// The bot (0 = A, 1 = B) that played `team`.
    pub fn bot_of(&self, team: Team) -> usize {
        if team == Team::Def {
            self.def_bot
        } else {
            1 - self.def_bot
        }
    }

    /// The winning bot, if any.
    pub fn winning_bot(&self) -> Option<usize> {
        self.winner.map(|t| self.bot_of(t))
    }
}

/// Game `i`'s seed: output `i` (counting from 0) of SplitMix64(`seed`),
/// computed directly (SplitMix64's state after `i` steps is
/// `seed + i · γ`).
pub fn game_seed(seed: u64, index: usize) -> u64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    SplitMix64::new(seed.wrapping_add((index as u64).wrapping_mul(GAMMA))).next_u64()
}

/// The game of a ruleset, scripts included (variants such as `three-ap`,
/// card mode): `crate::games::ball::script::game`. `Ruleset::game` gives the native
/// parameters only, which would silently play a variant as `standard`.
/// Call it on the thread that plays: the result may hold a Lua state.
pub fn new_game(ruleset: &Ruleset) -> Result<Ball, String> {
    crate::games::ball::script::game(ruleset).map_err(|errors| {
        let all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        format!("ruleset `{}`: {}", ruleset.name, all.join("; "))
    })
}

/// Checks the bot specs before any thread starts.
pub fn check_bots(specs: &[String; 2]) -> Result<(), String> {
    for s in specs {
        bots::from_spec(s, 0)?;
    }
    Ok(())
}

/// The result text of a match record: `ATK 3 - DEF 1`, with `unfinished`
/// in front for a game that is not over.
pub fn result_text(pos: &Position) -> String {
    let s = format!(
        "ATK {} - DEF {}",
        pos.score[Team::Atk as usize],
        pos.score[Team::Def as usize]
    );
    if pos.is_over() {
        s
    } else {
        format!("unfinished {s}")
    }
}

/// Plays game `index` of a run.
pub fn play_game(game: &Ball, ruleset: &Ruleset, cfg: &SimConfig, index: usize) -> GameResult {
    let seed = game_seed(cfg.seed, index);
    let def_bot = index % 2;
    let mut seeds = SplitMix64::new(seed);
    // Specs were checked by `check_bots`; a failure here is a logic error.
    let mut def = bots::from_spec(&cfg.bots[def_bot], seeds.next_u64()).expect("checked spec");
    let mut atk = bots::from_spec(&cfg.bots[1 - def_bot], seeds.next_u64()).expect("checked spec");
    let mut pos = game.start();
    let mut legal: Vec<Action> = Vec::with_capacity(256);
    let mut actions = Vec::new();
    let mut n = 0u32;
    let mut branching_sum = 0u64;
    let costs = card_costs(game);
    let mut cards = game.card_mode().then(|| {
        let mut c = GameCards::default();
        for list in &costs {
            for (id, _) in list {
                c.plays.insert(id.name().to_string(), [0, 0]);
            }
        }
        c
    });
    while (n as usize) < MAX_ACTIONS {
        game.legal_into(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        branching_sum += legal.len() as u64;
        let bot = if pos.to_move == Team::Def {
            &mut def
        } else {
            &mut atk
        };
        let a = bot.choose(game, &pos, &legal);
        debug_assert!(legal.contains(&a), "bot chose an illegal action {a}");
        if cfg.records {
            actions.push(a.to_string());
        }
        let before = pos;
        game.apply(&mut pos, a);
        if let Some(c) = &mut cards {
            let side = before.to_move as usize;
            match a {
                Action::Convert { ap } => c.converted[side] += u32::from(ap),
                Action::Card { .. } if pos == before => c.failed += 1,
                Action::Card { card, .. } => {
                    let cost = costs[side].iter().find(|(id, _)| *id == card).map(|x| x.1);
                    debug_assert!(cost.is_some(), "card {} not held", card.name());
                    c.spent[side] += cost.unwrap_or(0);
                    c.plays.entry(card.name().to_string()).or_insert([0, 0])[side] += 1;
                }
                _ => {}
            }
        }
        n += 1;
    }
    if let Some(c) = &mut cards {
        c.final_ep = pos.ep;
    }
    let ttw = game.params.touchdowns_to_win;
    let (winner, end) = match pos.outcome {
        None => (None, End::Cut),
        Some(o) => {
            let winner = match o {
                Outcome::Winner(t) => Some(t),
                Outcome::Draw => None,
            };
            if pos.score.iter().any(|&s| s >= ttw) {
                (winner, End::Touchdowns)
            } else {
                (winner, End::TurnLimit)
            }
        }
    };
    let mut seats = [String::new(), String::new()];
    seats[Team::Def as usize] = def.spec();
    seats[Team::Atk as usize] = atk.spec();
    let record = cfg.records.then(|| {
        let mut r = Record::new("ball");
        r.set("ruleset", ruleset.name.clone());
        r.set("ruleset-hash", ruleset.fingerprint());
        r.set("seed", seed.to_string());
        r.set("DEF", seats[Team::Def as usize].clone());
        r.set("ATK", seats[Team::Atk as usize].clone());
        r.set("result", result_text(&pos));
        r.actions = actions;
        r.write()
    });
    GameResult {
        index,
        seed,
        seats,
        def_bot,
        winner,
        end,
        score: pos.score,
        turns: u32::from(pos.turn),
        actions: n,
        branching_sum,
        record,
        cards,
    }
}

/// Runs `cfg.games` games on a pool of `threads` threads; `tick` is
/// called once per finished game (from any thread, in any order: for a
/// progress bar only). Results come back in game order.
pub fn run(
    ruleset: &Ruleset,
    cfg: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<GameResult>, String> {
    check_bots(&cfg.bots)?;
    // Fails here, on the caller's thread, if the scripts do not load; the
    // workers then build the same game again.
    new_game(ruleset)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    Ok(pool.install(|| {
        (0..cfg.games)
            .into_par_iter()
            // The game is built on the worker, once per split of the
            // range: never shared between threads.
            .map_init(
                || new_game(ruleset).expect("the ruleset's game was built once already"),
                |game, i| {
                    let r = play_game(game, ruleset, cfg, i);
                    tick();
                    r
                },
            )
            .collect()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seed_is_the_splitmix_stream() {
        let mut r = SplitMix64::new(42);
        for i in 0..5 {
            assert_eq!(game_seed(42, i), r.next_u64());
        }
    }

    #[test]
    fn seats_alternate() {
        let rs = Ruleset::standard();
        let cfg = SimConfig {
            bots: ["random".into(), "greedy".into()],
            games: 2,
            seed: 1,
            records: false,
        };
        let r = run(&rs, &cfg, 1, &|| {}).unwrap();
        assert_eq!(r[0].seats[Team::Def as usize], "random");
        assert_eq!(r[0].seats[Team::Atk as usize], "greedy");
        assert_eq!(r[1].seats[Team::Def as usize], "greedy");
        assert_eq!(r[1].bot_of(Team::Atk), 0);
        assert_eq!(r[0].bot_of(Team::Def), 0);
    }
}
