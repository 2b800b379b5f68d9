//! Bot seats: how a front end asks a bot for an action without waiting
//! for it. The session says what to ask ([`BotRequest`]); a [`Worker`]
//! thinks on a thread of its own, with its own copy of the game, and
//! answers with the request's version, so that an answer to a position
//! since undone is recognised and dropped.
//!
//! Each request carries its own seed, drawn from the game's seed, the
//! seat and how many actions were played: the same game gets the same
//! replies, whether asked on a thread or in a test, before or after an
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
    /// The seed of this one choice.
    pub seed: u64,
    pub position: G::Position,
}

/// The seed of the bot's choice at ply `ply` of a game dealt from `seed`.
pub fn request_seed(seed: u64, seat: Seat, ply: usize) -> u64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    let k = (2 * ply as u64 + seat as u64 + 1).wrapping_mul(GAMMA);
    SplitMix64::new(seed ^ k).next_u64()
}

/// The request's choice: the bot its spec names, seeded with its seed.
/// The one call into `crate::bots` of every board.
pub fn choose<G: Evaluate>(game: &G, req: &BotRequest<G>) -> Result<G::Action, String> {
    let mut legal = Vec::new();
    game.legal_into(&req.position, &mut legal);
    if legal.is_empty() {
        return Err("the game is over: there is nothing to choose".into());
    }
    let mut bot = crate::bots::from_spec::<G>(&req.spec, req.seed)?;
    Ok(bot.choose(game, &req.position, &legal))
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
                for req in rx {
                    let chosen = std::panic::catch_unwind(AssertUnwindSafe(|| choose(&game, &req)));
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
}

/// What a caught panic says.
pub fn panic_reason(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "it panicked".into())
}
