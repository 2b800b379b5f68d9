//! The sim runner: many seeded bot games, in parallel, with results that
//! do not depend on the thread count.
//!
//! **Determinism.** Game `i` of a run with seed `S` is fixed by `(S, i)`
//! alone: its seed is output `i` of SplitMix64 seeded with `S`
//! ([`game_seed`]); the game is dealt from it ([`Title::new_game`]: the
//! dice of a dice game), the bots' seeds are the first two outputs of a
//! SplitMix64 seeded with it (the first seat's bot first), and results
//! are gathered in game order. Which thread plays a game changes nothing.
//!
//! **Seats.** Bot A plays the seat that moves first in even-numbered
//! games and the other seat in odd ones; bot B takes the other seat.
//! Over an even number of games each bot plays each seat equally often.
//!
//! **One game per worker.** Each worker builds its own game from the
//! ruleset ([`Title::build`]): a game may hold a script state, which is
//! not `Send`, so a game is never shared between threads.

use serde::{Deserialize, Serialize};

use super::Figures;
use super::kinds::{KindCounter, Kinds};
use crate::bots::{self, Evaluate};
use crate::kernel::game::{Game, Seat, SeatResult, Title};
use crate::kernel::record::Record;
use crate::kernel::rng::SplitMix64;
use rayon::prelude::*;

/// How a cut game is named where an `End` would be.
pub const CUT: &str = "cut";

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

/// One finished game: everything the metrics read, and one `--out` line.
/// A game still going after `Game::MAX_ACTIONS` is cut: it counts as
/// unfinished, never as a draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "T: serde::de::DeserializeOwned"))]
pub struct GameResult<T> {
    /// The game's number in the run, from 0.
    pub game: usize,
    pub seed: u64,
    /// Bot specs by seat.
    pub seats: [String; 2],
    /// Which bot (0 = A, 1 = B) played each seat.
    pub bots: [usize; 2],
    /// The seat that moved first.
    pub first: Seat,
    /// Each seat's result; `None` for a game cut by `Game::MAX_ACTIONS`.
    pub results: Option<[SeatResult; 2]>,
    /// How it ended (`End::name`), or [`CUT`].
    pub end: String,
    /// Ended by a limit (of turns, of time) rather than by play.
    pub by_limit: bool,
    /// The final score as text.
    pub score: String,
    /// The turn the game ended in.
    pub turns: u32,
    pub actions: u32,
    /// Sum of the legal-list lengths over the decisions (one per action):
    /// divided by `actions`, the game's mean branching factor.
    pub branching_sum: u64,
    /// The actions played by kind ([`super::kinds`]: `move`, `end`,
    /// `card sprint`), in kind order. Summed per game here rather than
    /// over a run, so that the games of shards merge into the run's counts.
    pub kinds: Kinds,
    /// Script failures during the game, and the first one's message.
    pub script_errors: u32,
    pub first_script_error: Option<String>,
    /// The game's own counts ([`Figures::Tally`]).
    pub figures: T,
    /// The match record, when [`SimConfig::records`] asked for it.
    pub record: Option<String>,
}

impl<T> GameResult<T> {
    /// The bot (0 = A, 1 = B) that won, if any.
    pub fn winning_bot(&self) -> Option<usize> {
        self.winner().map(|s| self.bots[s])
    }

    /// The winning seat, if any.
    pub fn winner(&self) -> Option<Seat> {
        self.results?.iter().position(|&r| r == SeatResult::Win)
    }

    pub fn is_cut(&self) -> bool {
        self.results.is_none()
    }

    pub fn is_draw(&self) -> bool {
        self.results.is_some_and(|r| r[0] == SeatResult::Draw)
    }

    /// A seat's score: 1 a win, ½ a draw or a cut game, 0 a loss.
    pub fn points(&self, seat: Seat) -> f64 {
        self.results.map_or(0.5, |r| r[seat].points())
    }
}

/// Game `i`'s seed: output `i` (counting from 0) of SplitMix64(`seed`),
/// computed directly (SplitMix64's state after `i` steps is
/// `seed + i · γ`).
pub fn game_seed(seed: u64, index: usize) -> u64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    SplitMix64::new(seed.wrapping_add((index as u64).wrapping_mul(GAMMA))).next_u64()
}

/// Checks the bot specs before any thread starts.
pub fn check_bots(specs: &[String; 2]) -> Result<(), String> {
    for s in specs {
        bots::check_spec(s)?;
    }
    Ok(())
}

/// The result line of a match record: the score, with `unfinished` in
/// front for a game that is not over.
pub fn result_text<G: Game>(game: &G, pos: &G::Position) -> String {
    let s = game.score_text(pos);
    if game.to_move(pos).is_none() {
        match game.outcome(pos) {
            Some(o) if o.end.is_named() => format!("{s} ({})", o.end.name),
            _ => s,
        }
    } else {
        format!("unfinished {s}")
    }
}

/// The header of a match record of this game and ruleset.
pub fn record_header<G: Title>(ruleset: &G::Ruleset, seed: u64, seats: &[String; 2]) -> Record {
    let mut r = Record::new(G::NAME);
    r.set("ruleset", G::ruleset_name(ruleset));
    r.set("ruleset-hash", G::fingerprint(ruleset));
    r.set("seed", seed.to_string());
    for (name, bot) in G::SEATS.iter().zip(seats) {
        r.set(name, bot.clone());
    }
    r
}

/// Plays game `index` of a run; `kinds` is the worker's counter of
/// actions by kind.
pub fn play_game<G: Evaluate + Figures>(
    base: &G,
    kinds: &mut KindCounter<G::Action>,
    ruleset: &G::Ruleset,
    cfg: &SimConfig,
    index: usize,
) -> GameResult<G::Tally> {
    let seed = game_seed(cfg.seed, index);
    // Every game from the same script state, whatever the games this
    // worker played before did: results depend on the game alone.
    base.reset();
    let (game, mut pos, _) = base.new_game(seed);
    let first = game.to_move(&pos).unwrap_or(0);
    let mut bot_of = [0usize; 2];
    bot_of[first] = index % 2;
    bot_of[1 - first] = 1 - index % 2;
    let mut seeds = SplitMix64::new(seed);
    let mut seat_seeds = [0u64; 2];
    seat_seeds[first] = seeds.next_u64();
    seat_seeds[1 - first] = seeds.next_u64();
    // Specs were checked by `check_bots`; a failure here is a logic error.
    let mut players: Vec<Box<dyn bots::Bot<G>>> = (0..2)
        .map(|s| bots::from_spec(&cfg.bots[bot_of[s]], seat_seeds[s]).expect("checked spec"))
        .collect();
    let mut tally = game.start_tally(&pos);
    let mut legal: Vec<G::Action> = Vec::with_capacity(256);
    let mut log: Vec<G::Event> = Vec::new();
    let mut actions = Vec::new();
    let mut n = 0u32;
    let mut branching_sum = 0u64;
    // The position before each action, for the tally: one buffer copied
    // into, not a fresh clone an action (a G-ball position holds a queue).
    let mut before = pos.clone();
    // The worker's counter: nothing of another game may be counted here.
    kinds.clear();
    let mut script_errors = 0u32;
    let mut first_script_error = None;
    let mut note = |errors: Vec<String>| {
        script_errors += errors.len() as u32;
        if first_script_error.is_none() {
            first_script_error = errors.first().cloned();
        }
        errors
    };
    note(game.take_errors());
    while (n as usize) < G::MAX_ACTIONS {
        game.legal_into(&pos, &mut legal);
        note(game.take_errors());
        let Some(seat) = game.to_move(&pos) else {
            break;
        };
        if legal.is_empty() {
            break;
        }
        branching_sum += legal.len() as u64;
        let a = players[seat].choose(&game, &pos, &legal);
        debug_assert!(legal.contains(&a), "bot chose an illegal action {a}");
        if cfg.records {
            let text = a.to_string();
            kinds.count_text(&text);
            actions.push(text);
        } else {
            kinds.count(&a);
        }
        before.clone_from(&pos);
        log.clear();
        if G::EVENTS {
            game.apply_logged(&mut pos, a, &mut log);
        } else {
            game.apply(&mut pos, a);
        }
        let errors = note(game.take_errors());
        game.tally(&mut tally, &before, a, &pos, &log, &errors);
        n += 1;
    }
    game.finish_tally(&mut tally, &pos);
    let seats = [0, 1].map(|s| players[s].spec());
    let outcome = game.outcome(&pos);
    let record = cfg.records.then(|| {
        let mut r = record_header::<G>(ruleset, seed, &seats);
        r.set("result", result_text(&game, &pos));
        r.actions = actions;
        r.write()
    });
    GameResult {
        game: index,
        seed,
        seats,
        bots: bot_of,
        first,
        results: outcome.as_ref().map(|o| o.results),
        end: outcome
            .as_ref()
            .map_or(CUT.to_string(), |o| o.end.name.to_string()),
        by_limit: outcome.as_ref().is_none_or(|o| o.end.by_limit),
        score: game.score_text(&pos),
        turns: game.turn(&pos),
        actions: n,
        branching_sum,
        kinds: kinds.take(),
        script_errors,
        first_script_error,
        figures: tally,
        record,
    }
}

/// Part `index` of `count` of a run: the games `index`, `index + count`,
/// `index + 2·count`, … A game's seed depends on (run seed, game index)
/// only, so a shard plays exactly those games of the whole run, and the
/// shards together are the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// From 0, so that a batch engine's index is the shard as it is
    /// (Kubernetes' `JOB_COMPLETION_INDEX`, a Slurm array `0-(N-1)`).
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole run: one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `K/N` (0 ≤ K < N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad =
            || format!("--shard `{text}`: expected K/N, shard K (from 0) of N, e.g. 0/4 … 3/4");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 {
            return Err(format!("--shard `{text}`: N must be at least 1"));
        }
        if index >= count {
            return Err(format!(
                "--shard `{text}`: K counts from 0 to N − 1 (0/{count} … {}/{count})",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// Whether game `game` of the run is this shard's.
    pub fn holds(self, game: usize) -> bool {
        game % self.count == self.index
    }

    /// How many of a run's `games` are this shard's.
    pub fn len(self, games: usize) -> usize {
        if self.index >= games {
            0
        } else {
            (games - self.index - 1) / self.count + 1
        }
    }

    /// This shard's game indices, in order.
    pub fn games(self, games: usize) -> impl Iterator<Item = usize> {
        (self.index..games).step_by(self.count)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Runs `cfg.games` games on a pool of `threads` threads; `tick` is
/// called once per finished game (from any thread, in any order: for a
/// progress bar only). Results come back in game order.
pub fn run<G: Evaluate + Figures>(
    ruleset: &G::Ruleset,
    cfg: &SimConfig,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<GameResult<G::Tally>>, String> {
    run_shard::<G>(ruleset, cfg, Shard::WHOLE, threads, tick)
}

/// [`run`] for one shard of the run: its games only, in game order, each
/// exactly as the whole run plays it.
pub fn run_shard<G: Evaluate + Figures>(
    ruleset: &G::Ruleset,
    cfg: &SimConfig,
    shard: Shard,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<GameResult<G::Tally>>, String> {
    check_bots(&cfg.bots)?;
    // Fails here, on the caller's thread, if the scripts do not load; the
    // workers then build the same game again.
    G::build(ruleset)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    Ok(pool.install(|| {
        (0..shard.len(cfg.games))
            .into_par_iter()
            .map(|j| shard.index + j * shard.count)
            // The game is built on the worker, once per split of the
            // range: never shared between threads.
            .map_init(
                || {
                    let game =
                        G::build(ruleset).expect("the ruleset's game was built once already");
                    (game, KindCounter::new())
                },
                |(game, kinds), i| {
                    let r = play_game(game, kinds, ruleset, cfg, i);
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
    fn shards_partition_the_run() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, count: 4 }));
        assert_eq!(Shard::parse("0/1"), Ok(Shard::WHOLE));
        for bad in ["4/4", "1/0", "x/4", "1", "-1/4", "1/4/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(Shard::parse("4/4").unwrap_err().contains("0/4 … 3/4"));
        for games in [0, 1, 7, 8, 9] {
            let mut all: Vec<usize> = (0..4)
                .flat_map(|k| Shard { index: k, count: 4 }.games(games))
                .collect();
            for k in 0..4 {
                let s = Shard { index: k, count: 4 };
                assert_eq!(s.len(games), s.games(games).count());
                assert!(s.games(games).all(|g| s.holds(g)));
            }
            all.sort_unstable();
            assert_eq!(all, (0..games).collect::<Vec<_>>());
        }
        assert_eq!(Shard { index: 1, count: 4 }.to_string(), "1/4");
    }
}
