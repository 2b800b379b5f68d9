//! Bot seats: how a front end asks a bot for an action without waiting
//! for it. The session says what to ask ([`BotRequest`]); a [`Worker`]
//! thinks on a thread of its own, with its own copy of the game, and
//! answers with the request's version, so that an answer to a position
//! since undone is recognised and dropped.
//!
//! A bot may keep state between the decisions of one run — a seat's
//! actions in one turn: `mcts` never plays back into a position of its
//! own run, or BALL's free hand-offs could pass the ball to and fro for
//! ever. So a request carries its run (the positions this seat decided in
//! since its turn began) and the run's seed, drawn from the game's seed,
//! the seat and the ply the run began at; an [`Answerer`] keeps the bot
//! of each seat while its run goes on, and builds it again, replaying the
//! run, when the run is not the one it saw (after an undo). The same game
//! gets the same replies, on a thread or in a test, before or after an
//! undo.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, Sender, channel};

use super::deal::Deal;
use super::flow::Flow;
use crate::bots::Evaluate;
use crate::kernel::game::{Game, Seat};
use crate::kernel::rng::SplitMix64;

/// Bot threads end their name with this, so that a panic hook can tell
/// them from the front end's own thread.
pub const BOT_THREAD_SUFFIX: &str = "-bot";

/// What the bot of the seat to move is asked.
#[derive(Clone, Debug)]
pub struct BotRequest<G: Game> {
    /// The session's version when asked: the answer must bring it back.
    pub version: u64,
    pub seat: Seat,
    pub spec: String,
    /// The seed of the bot of this run.
    pub seed: u64,
    /// The positions the seat decided in earlier in this run, in order.
    pub run: Vec<G::Position>,
    pub position: G::Position,
}

/// The seed of a seat's bot for a run beginning at ply `ply` of a game
/// dealt from `seed`.
pub fn request_seed(seed: u64, seat: Seat, ply: usize) -> u64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    let k = (2 * ply as u64 + seat as u64 + 1).wrapping_mul(GAMMA);
    SplitMix64::new(seed ^ k).next_u64()
}

/// Each seat's bot while its run goes on: the one place a board calls
/// into `crate::bots`.
pub struct Answerer<G: Game> {
    seats: [Option<Kept<G>>; 2],
}

struct Kept<G: Game> {
    spec: String,
    seed: u64,
    /// The positions it decided in, in order.
    seen: Vec<G::Position>,
    bot: Box<dyn crate::bots::Bot<G>>,
}

impl<G: Evaluate> Default for Answerer<G> {
    fn default() -> Self {
        Answerer {
            seats: [None, None],
        }
    }
}

impl<G: Evaluate> Answerer<G> {
    /// The request's choice, by the bot its spec names: the seat's bot if
    /// it decided exactly the request's run, else a new one that decides
    /// the run's positions again first.
    pub fn answer(&mut self, game: &G, req: &BotRequest<G>) -> Result<G::Action, String> {
        let mut legal = Vec::new();
        game.legal_into(&req.position, &mut legal);
        if legal.is_empty() {
            return Err("the game is over: there is nothing to choose".into());
        }
        let slot = &mut self.seats[req.seat.min(1)];
        let fits = slot
            .as_ref()
            .is_some_and(|k| k.spec == req.spec && k.seed == req.seed && k.seen == req.run);
        if !fits {
            let mut bot = crate::bots::from_spec::<G>(&req.spec, req.seed)?;
            let mut earlier = Vec::new();
            for p in &req.run {
                game.legal_into(p, &mut earlier);
                if !earlier.is_empty() {
                    bot.choose(game, p, &earlier);
                }
            }
            *slot = Some(Kept {
                spec: req.spec.clone(),
                seed: req.seed,
                seen: req.run.clone(),
                bot,
            });
        }
        let kept = slot.as_mut().expect("filled above");
        let a = kept.bot.choose(game, &req.position, &legal);
        kept.seen.push(req.position.clone());
        Ok(a)
    }
}

/// The request's choice, by a bot built for it alone (it decides the
/// run again first): what an [`Answerer`] would answer.
pub fn choose<G: Evaluate>(game: &G, req: &BotRequest<G>) -> Result<G::Action, String> {
    Answerer::default().answer(game, req)
}

/// A worker's answer.
pub enum Reply<G: Game> {
    Chose {
        version: u64,
        action: G::Action,
    },
    /// The worker stopped (a bot panicked, the game would not build).
    Failed(String),
}

/// A bot thread.
pub struct Worker<G: Game> {
    requests: Sender<BotRequest<G>>,
    replies: Receiver<Reply<G>>,
}

impl<G: Flow + Evaluate> Worker<G> {
    /// Starts the thread; it deals its own game from `deal`.
    pub fn spawn(deal: Deal<G>) -> Result<Worker<G>, String> {
        let (requests, rx) = channel::<BotRequest<G>>();
        let (tx, replies) = channel::<Reply<G>>();
        std::thread::Builder::new()
            .name(format!("{}{BOT_THREAD_SUFFIX}", G::NAME))
            .spawn(move || {
                let game = match deal.game() {
                    Ok((g, _, _)) => g,
                    Err(e) => return drop(tx.send(Reply::Failed(e))),
                };
                let mut answerer = Answerer::default();
                for req in rx {
                    let chosen =
                        std::panic::catch_unwind(AssertUnwindSafe(|| answerer.answer(&game, &req)));
                    let reply = match chosen {
                        Ok(Ok(action)) => Reply::Chose {
                            version: req.version,
                            action,
                        },
                        Ok(Err(_)) => continue,
                        Err(p) => {
                            let why = panic_reason(p.as_ref());
                            let _ = tx.send(Reply::Failed(format!("{} panicked: {why}", req.spec)));
                            return;
                        }
                    };
                    if tx.send(reply).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| format!("cannot start the bot: {e}"))?;
        Ok(Worker { requests, replies })
    }
}

impl<G: Game> Worker<G> {
    /// Sends a request; false if the thread has ended.
    pub fn ask(&self, req: BotRequest<G>) -> bool {
        self.requests.send(req).is_ok()
    }

    /// An answer, if one has arrived.
    pub fn reply(&self) -> Option<Reply<G>> {
        self.replies.try_recv().ok()
    }

    /// An answer, waiting for it at most `wait`: a board waits on the
    /// bot rather than on a fixed sleep, so a quick bot's answer is
    /// played the moment it comes.
    pub fn reply_within(&self, wait: std::time::Duration) -> Option<Reply<G>> {
        self.replies.recv_timeout(wait).ok()
    }
}

/// What a caught panic says.
pub fn panic_reason(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "it panicked".into())
}
