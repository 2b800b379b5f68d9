//! The HTTP server of `ball serve`: its routes, its limits, the games'
//! threads and server push.
//!
//! A game lives on a thread of its own ([`spawn_table`]) that owns its
//! [`Table`]; a request is a job sent to that thread, answered through a
//! one-shot channel. After every job or bot action the thread saves what
//! changed in the line of play, if it did — the new actions, the cut of a
//! tail an undo took back, the header if it changed, in one transaction
//! whose cost does not grow with the game's length ([`Saved`]) — before
//! the request is answered: what is acknowledged is in the store — and
//! tells every client of the game through a broadcast channel, which the
//! `events` route turns into server-sent events: each client then fetches
//! its own view.
//!
//! A create is acknowledged once the game is built and one transaction
//! of the store (`web::store`) has counted the games and added it: a
//! refused create leaves nothing.
//!
//! Resources are bounded: a game holding Lua states gives them back when
//! it ends or sits idle ([`Config::idle`]) and is rebuilt from its record
//! when it is next asked for; a game thread never waits for the scripts'
//! memory pool (`script::sandbox`): a full server answers 503 at once.
//! Inputs are bounded: a request body (64 KiB, a record 1 MiB), a bot
//! spec or ruleset name (64 bytes), the number of games (`--max-games`),
//! JSON depth (serde_json's recursion limit on a body that small), a key
//! twice in a JSON object (`json_line::from_slice`); every refusal is an
//! HTTP 4xx or 503 with JSON `{"error": …}`, and a job that panics is
//! caught on its thread.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Arc, RwLock, mpsc};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use crate::shell::Seat;
use crate::store::games;
use crate::web::seats::{Links, random_hex};
use crate::web::store::{Store, is_id};
use crate::web::table::{Open, Refusal, Request, Table, game_of_record, is_game};
use crate::web::view::{Held, Who};

/// How a server is started.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// The games file (`web::store`), made if missing.
    pub db: PathBuf,
    /// A directory of `ID.record`/`ID.links` files to add to the store
    /// first (what servers kept before the store).
    pub import_dir: Option<PathBuf>,
    pub max_games: usize,
    /// A game holding Lua states that nobody asks for this long gives
    /// them back (and is rebuilt from its record when asked again).
    pub idle: Duration,
}

/// How long a game may sit idle before its Lua states are given back.
pub const IDLE: Duration = Duration::from_secs(300);

/// The largest request body, and a record's.
pub const MAX_BODY: usize = 64 << 10;
pub const MAX_RECORD_BODY: usize = 1 << 20;
/// How long a request waits for its game's thread (a bot's long think;
/// a game thread never waits for a Lua state).
const JOB_WAIT: Duration = Duration::from_secs(60);

/// A request's work on the game's thread; what it returns is called once
/// the change it made (if any) is saved, with the save's outcome: the
/// answer goes out only then.
type Job = Box<dyn FnOnce(&mut dyn Table) -> Reply + Send>;
type Reply = Box<dyn FnOnce(Result<(), String>) + Send>;

/// Who wants to know when a game ends (a league fixture, to commit its
/// result): sent the game's whole record, once it is saved, each time an
/// action brings the game to its end.
pub type Watch = mpsc::Sender<String>;

/// A game as the server holds it: its tokens and its thread.
struct Entry {
    game: &'static str,
    links: Links,
    jobs: mpsc::Sender<Job>,
    changes: broadcast::Sender<(u64, usize)>,
}

struct Inner {
    games: RwLock<HashMap<String, Arc<Entry>>>,
    store: Arc<Store>,
    max_games: usize,
    idle: Duration,
}

#[derive(Clone)]
struct App(Arc<Inner>);

fn refusal(status: u16, error: impl Into<String>) -> Refusal {
    Refusal {
        status,
        error: error.into(),
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let code = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        (code, axum::Json(json!({ "error": self.error }))).into_response()
    }
}

/// A game's thread, built and waiting: its jobs, the switch that starts
/// it (`true`) or ends it (`false`, or dropped), and the game's record's
/// header and actions (a new game's: a reloaded one is stored already)
/// and version as built.
struct Spawned {
    jobs: mpsc::Sender<Job>,
    go: mpsc::Sender<bool>,
    header: String,
    actions: Vec<String>,
    version: u64,
}

/// What a game's thread knows the store holds of its game, so that a
/// save writes only what changed since: the header as stored and how many
/// actions stand stored. `None` where that is not known (a save failed):
/// the next save then writes the whole record.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Saved {
    header: String,
    actions: usize,
}

/// What the store must be told of `table`'s line of play, given what it
/// holds (`saved`) and how many actions stood before the job or bot step
/// that changed it (`before`). A job or a step moves the line one way —
/// it takes actions back (an undo) or adds some (an action, a redo),
/// never both — so every action below the fewest that stood is the
/// stored one, and those from there on are all that is written.
fn tail(table: &dyn Table, saved: Option<&Saved>, before: usize) -> (games::Tail, Saved) {
    let header = table.record_header();
    let now = table.actions_len();
    let (from, changed) = match saved {
        Some(s) => (s.actions.min(before).min(now), s.header != header),
        None => (0, true),
    };
    let tail = games::Tail {
        header: changed.then(|| header.clone()),
        from,
        actions: table.actions_from(from),
    };
    (
        tail,
        Saved {
            header,
            actions: now,
        },
    )
}

/// Saves the change `table` made (see [`tail`]) and its version, and
/// keeps in `saved` what the store now holds: the number of action rows
/// written or deleted.
fn save_change(
    store: &Store,
    id: &str,
    table: &dyn Table,
    saved: &mut Option<Saved>,
    before: usize,
) -> Result<usize, String> {
    let (tail, now) = tail(table, saved.as_ref(), before);
    match store.save_tail(id, &tail, table.version()) {
        Ok(n) => {
            *saved = Some(now);
            Ok(n)
        }
        Err(e) => {
            *saved = None;
            Err(e)
        }
    }
}

/// Builds a table on the current thread: `Err` with the game's reason.
fn build(game: &'static str, open: Open) -> Result<Box<dyn Table>, String> {
    match std::panic::catch_unwind(AssertUnwindSafe(|| crate::games::visit(game, open))) {
        Ok(Some(t)) => t,
        Ok(None) => Err(format!("no game `{game}`")),
        Err(_) => Err("the game panicked while it was built".into()),
    }
}

/// Starts a game's thread with the table `open` makes (its version
/// continued past `resume`, for a game reloaded from the store); the
/// game's build errors come back here. The thread does nothing until it
/// is told to go: the caller first commits the game to the store.
#[allow(clippy::too_many_arguments)]
fn spawn_table(
    game: &'static str,
    open: Open,
    resume: Option<u64>,
    id: String,
    store: Arc<Store>,
    changes: broadcast::Sender<(u64, usize)>,
    idle: Duration,
    watch: Option<Watch>,
) -> Result<Spawned, String> {
    let (jobs, rx) = mpsc::channel::<Job>();
    let (go, go_rx) = mpsc::channel::<bool>();
    let (ready_tx, ready_rx) = mpsc::channel::<Result<(String, Vec<String>, u64), String>>();
    std::thread::Builder::new()
        .name(format!("web-{game}-{id}"))
        .spawn(move || {
            // A full scripts' pool is said at once, never waited for.
            crate::script::sandbox::never_wait_here();
            let mut table = match build(game, open) {
                Ok(t) => t,
                Err(e) => return drop(ready_tx.send(Err(e))),
            };
            if let Some(v) = resume {
                table.continue_after(v);
            }
            let version = table.version();
            let (header, actions) = if resume.is_some() {
                (String::new(), Vec::new())
            } else {
                (table.record_header(), table.actions_from(0))
            };
            // A reloaded game's header is written again at its first save
            // (this binary may write it otherwise); its actions are the
            // stored ones, which it replayed.
            let saved = Some(Saved {
                header: header.clone(),
                actions: table.actions_len(),
            });
            let mut slot = Some(table);
            let mut kept = (String::new(), 0);
            if resume.is_some() {
                // A reloaded game is idle until asked for: its Lua states
                // go back at once, so that a restart reloads every game
                // however many hold one.
                release(&mut slot, &mut kept);
            }
            let _ = ready_tx.send(Ok((header, actions, version)));
            if go_rx.recv() != Ok(true) {
                return;
            }
            drop(go_rx);
            table_loop(
                game, &id, slot, kept, saved, &rx, &store, &changes, idle, watch,
            );
        })
        .map_err(|e| format!("cannot start the game's thread: {e}"))?;
    match ready_rx.recv() {
        Ok(Ok((header, actions, version))) => Ok(Spawned {
            jobs,
            go,
            header,
            actions,
            version,
        }),
        Ok(Err(e)) => Err(e),
        Err(_) => Err("the game's thread stopped while the game was built".into()),
    }
}

/// A game's thread at work: jobs and bot actions, each change saved
/// before it is answered; a table holding Lua states is dropped when the
/// game ends or sits idle, and rebuilt from its record when next needed
/// (its version kept).
#[allow(clippy::too_many_arguments)]
fn table_loop(
    game: &'static str,
    id: &str,
    // The table, or `None` with `kept` the record and version of the
    // dropped one.
    mut slot: Option<Box<dyn Table>>,
    mut kept: (String, u64),
    mut saved: Option<Saved>,
    rx: &mpsc::Receiver<Job>,
    store: &Store,
    changes: &broadcast::Sender<(u64, usize)>,
    idle: Duration,
    watch: Option<Watch>,
) {
    loop {
        let bot_due = slot.as_ref().is_some_and(|t| t.bot_due());
        let job = if bot_due {
            match rx.try_recv() {
                Ok(j) => Some(j),
                Err(mpsc::TryRecvError::Empty) => None,
                Err(mpsc::TryRecvError::Disconnected) => return,
            }
        } else {
            match rx.recv_timeout(idle) {
                Ok(j) => Some(j),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    release(&mut slot, &mut kept);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        };
        let table = match slot.take() {
            Some(t) => t,
            None => match rebuild(game, &kept) {
                Ok(t) => t,
                Err(e) => {
                    if let Some(j) = job {
                        answer_unbuilt(j, e);
                    }
                    continue;
                }
            },
        };
        let mut table = table;
        let before = table.stamp();
        let stood = table.actions_len();
        let ran = std::panic::catch_unwind(AssertUnwindSafe(|| match job {
            Some(j) => Some(j(&mut *table)),
            None => {
                if let Err(e) = table.bot_step() {
                    eprintln!("ball serve: game {id}: the bot cannot answer: {e}");
                    // The seat waits for a person's undo.
                    std::thread::sleep(Duration::from_millis(200));
                }
                None
            }
        }));
        let reply = match ran {
            Ok(r) => r,
            Err(_) => {
                eprintln!("ball serve: game {id}: a request panicked; the game goes on");
                // What it left of the line of play is not known to have
                // moved one way only: the next save writes it all.
                saved = None;
                None
            }
        };
        let after = table.stamp();
        let mut outcome = Ok(());
        if after.0 != before.0 {
            let done = save_change(store, id, &*table, &mut saved, stood);
            if let Err(e) = &done {
                eprintln!("ball serve: game {id}: {e}");
            }
            outcome = done.map(|_| ());
        }
        if let Some(reply) = reply {
            reply(outcome);
        }
        if after != before {
            let _ = changes.send(after);
        }
        let ended = after.0 != before.0 && table.over();
        if ended && let Some(w) = &watch {
            let _ = w.send(table.record());
        }
        slot = Some(table);
        if ended {
            release(&mut slot, &mut kept);
        }
    }
}

/// Drops a table that holds Lua states (keeping its record and version
/// to rebuild it); a table without any stays.
fn release(slot: &mut Option<Box<dyn Table>>, kept: &mut (String, u64)) {
    if crate::script::sandbox::states_held_here() == 0 {
        return;
    }
    if let Some(t) = slot.take() {
        *kept = (t.record(), t.version());
        drop(t);
    }
}

/// A dropped table again, from its record, at its version.
fn rebuild(game: &'static str, kept: &(String, u64)) -> Result<Box<dyn Table>, String> {
    let mut t = build(game, Open::Record(kept.0.clone()))?;
    // A rebuilt session starts at version 0: continuing after the one
    // before it gives back exactly the version the clients saw.
    t.continue_after(kept.1.saturating_sub(1));
    Ok(t)
}

/// A job that could not run because its game could not be rebuilt: its
/// requester is told so (by dropping its answer: `run` says 503).
fn answer_unbuilt(job: Job, why: String) {
    eprintln!("ball serve: a game could not be rebuilt: {why}");
    drop(job);
}

/// Runs `f` on the game's thread and waits for its answer.
async fn run<T: Send + 'static>(
    entry: &Entry,
    f: impl FnOnce(&mut dyn Table) -> T + Send + 'static,
) -> Result<T, Refusal> {
    let (tx, rx) = tokio::sync::oneshot::channel::<Result<T, Refusal>>();
    entry
        .jobs
        .send(Box::new(move |t| {
            let v = f(t);
            Box::new(move |saved: Result<(), String>| {
                let _ = tx.send(match saved {
                    Ok(()) => Ok(v),
                    Err(e) => Err(refusal(
                        500,
                        format!("the change could not be saved ({e}); it may be lost if the server stops"),
                    )),
                });
            }) as Reply
        }))
        .map_err(|_| refusal(503, "this game's thread has stopped"))?;
    match tokio::time::timeout(JOB_WAIT, rx).await {
        Ok(Ok(v)) => v,
        Ok(Err(_)) => Err(refusal(
            503,
            "the game could not be run just now (the server may be full, or it failed inside; see the server's log); try again",
        )),
        Err(_) => Err(refusal(
            503,
            "the game is busy (a bot is thinking); try again",
        )),
    }
}

impl App {
    fn entry(&self, id: &str, token: Option<&str>) -> Result<(Arc<Entry>, Who), Refusal> {
        let none = || refusal(404, "no game has this link: check the address");
        let entry = self.held(id, none)?;
        let who = token.and_then(|t| entry.links.who(t)).ok_or_else(none)?;
        Ok((entry, who))
    }

    /// The game the server holds under `id`, or `none()`'s refusal (a
    /// malformed id is not looked up).
    fn held(&self, id: &str, none: impl Fn() -> Refusal) -> Result<Arc<Entry>, Refusal> {
        if !is_id(id) {
            return Err(none());
        }
        self.0
            .games
            .read()
            .map_err(|_| refusal(500, "the server's game list is broken"))?
            .get(id)
            .cloned()
            .ok_or_else(none)
    }

    /// Opens a game on its thread and lists it: a new game (`resume`
    /// `None`) is committed to the store first, within `--max-games`
    /// (with `lobby`, its seats open in the lobby); a reloaded one
    /// continues its stored version.
    fn add(
        &self,
        game: &'static str,
        open: Open,
        id: Option<String>,
        links: Links,
        resume: Option<u64>,
        lobby: u8,
    ) -> Result<String, Refusal> {
        self.add_watched(game, open, id, links, resume, lobby, None)
    }

    /// [`App::add`], with `watch` told when the game ends.
    #[allow(clippy::too_many_arguments)]
    fn add_watched(
        &self,
        game: &'static str,
        open: Open,
        id: Option<String>,
        links: Links,
        resume: Option<u64>,
        lobby: u8,
        watch: Option<Watch>,
    ) -> Result<String, Refusal> {
        let full = || {
            refusal(
                503,
                format!(
                    "the server is full: it holds its most games ({}); try again later, or its keeper can raise --max-games",
                    self.0.max_games
                ),
            )
        };
        let count = self.0.games.read().map(|g| g.len()).unwrap_or(usize::MAX);
        if count >= self.0.max_games {
            return Err(full());
        }
        let id = match id {
            Some(id) => id,
            None => random_hex(8).map_err(|e| refusal(500, e))?,
        };
        let (changes, _) = broadcast::channel(64);
        let spawned = spawn_table(
            game,
            open,
            resume,
            id.clone(),
            self.0.store.clone(),
            changes.clone(),
            self.0.idle,
            watch,
        )
        .map_err(|e| {
            if e.contains(crate::script::sandbox::POOL_FULL) {
                refusal(
                    503,
                    format!("the server is full: {e}; try again when some games have ended"),
                )
            } else {
                refusal(422, e)
            }
        })?;
        if resume.is_none() {
            let added = self
                .0
                .store
                .add(
                    &id,
                    &spawned.header,
                    &spawned.actions,
                    &links,
                    spawned.version,
                    self.0.max_games,
                    lobby,
                )
                .map_err(|e| refusal(500, format!("the game could not be saved: {e}")))?;
            if !added {
                // The thread ends without a word: the game was never listed.
                return Err(full());
            }
        }
        let entry = Entry {
            game,
            links,
            jobs: spawned.jobs,
            changes,
        };
        self.0
            .games
            .write()
            .map_err(|_| refusal(500, "the server's game list is broken"))?
            .insert(id.clone(), Arc::new(entry));
        let _ = spawned.go.send(true);
        Ok(id)
    }
}

/// The links of a new game, as paths from the server's root. A seat
/// open in the lobby (bit k of `open`) has no link here: it goes only to
/// the one who claims it.
fn links_json(id: &str, game: &str, links: &Links, open: u8) -> Value {
    let seats = crate::web::table::seat_names(game).unwrap_or(["seat 1", "seat 2"]);
    json!({
        "id": id,
        "game": game,
        "listed": open != 0,
        "seats": (0..2).map(|k| if open & (1 << k) != 0 {
            json!({ "name": seats[k], "link": null, "open": true })
        } else {
            json!({ "name": seats[k], "link": format!("/g/{id}?t={}", links.seats[k]) })
        }).collect::<Vec<_>>(),
        "watch": format!("/g/{id}?t={}", links.watch),
    })
}

#[derive(Deserialize)]
struct Link {
    t: Option<String>,
    hl: Option<usize>,
    /// What the client holds (`view::Held`): its log reaches action
    /// `since` as of version `v`; its board's `svg_hash` is `svg`.
    since: Option<usize>,
    v: Option<u64>,
    svg: Option<u64>,
    /// Asks for the page of the log before this action instead of a view.
    older: Option<usize>,
}

impl Link {
    fn held(&self) -> Held {
        Held {
            log: self.since.zip(self.v),
            svg: self.svg,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    game: Option<String>,
    ruleset: Option<String>,
    seats: Option<[String; 2]>,
    seed: Option<u64>,
    /// Shown in the lobby, its person's seats after the first open to
    /// whoever claims them.
    listed: Option<bool>,
}

fn parse_json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Refusal> {
    crate::json_line::from_slice(body).map_err(|e| refusal(400, format!("malformed request: {e}")))
}

/// A body that could not be read: too large (413), or cut short.
fn too_big(e: BytesRejection) -> Refusal {
    let status = e.status().as_u16();
    if status == 413 {
        refusal(413, "the request is too large for this server")
    } else {
        refusal(
            status,
            format!("the request's body could not be read: {}", e.body_text()),
        )
    }
}

fn bad_query(e: axum::extract::rejection::QueryRejection) -> Refusal {
    refusal(400, format!("malformed address: {e}"))
}

async fn create(
    State(app): State<App>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Refusal> {
    let body = body.map_err(too_big)?;
    let req: NewGame = if body.iter().all(u8::is_ascii_whitespace) {
        NewGame {
            game: None,
            ruleset: None,
            seats: None,
            seed: None,
            listed: None,
        }
    } else {
        parse_json(&body)?
    };
    let game = req.game.unwrap_or_else(|| match &req.ruleset {
        Some(r) => crate::data::game_of(r),
        None => crate::data::DEFAULT_GAME.to_string(),
    });
    let Some(&game) = crate::games::NAMES.iter().find(|n| **n == game) else {
        return Err(refusal(
            400,
            format!(
                "no game `{}`: one of {}",
                game.chars().take(20).collect::<String>(),
                crate::games::names()
            ),
        ));
    };
    let mut seats = [Seat::Person, Seat::Person];
    if let Some(given) = &req.seats {
        for (k, label) in given.iter().enumerate() {
            if label.len() > 64 {
                return Err(refusal(
                    400,
                    format!("seat {}: a bot spec is at most 64 bytes", k + 1),
                ));
            }
            seats[k] = Seat::from_label(label)
                .map_err(|e| refusal(400, format!("seat {}: {e}", k + 1)))?;
        }
    }
    let seed = match req.seed {
        Some(s) => s,
        None => u64::from_str_radix(&random_hex(8).map_err(|e| refusal(500, e))?, 16).unwrap_or(0),
    };
    let lobby = if req.listed == Some(true) {
        crate::web::lobby::open_seats(seats.clone().map(|s| s == Seat::Person))
    } else {
        0
    };
    let links = Links::new().map_err(|e| refusal(500, e))?;
    let open = Open::New {
        ruleset: req.ruleset,
        seats,
        seed,
    };
    let app2 = app.clone();
    let links2 = links.clone();
    let id = tokio::task::spawn_blocking(move || app2.add(game, open, None, links2, None, lobby))
        .await
        .map_err(|_| refusal(500, "the game could not be opened"))??;
    Ok((
        StatusCode::CREATED,
        axum::Json(links_json(&id, game, &links, lobby)),
    )
        .into_response())
}

async fn load(
    State(app): State<App>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Refusal> {
    let body = body.map_err(too_big)?;
    let text =
        std::str::from_utf8(&body).map_err(|_| refusal(400, "a match record is text (UTF-8)"))?;
    let game = game_of_record(text).map_err(|e| refusal(400, e))?;
    if crate::kernel::record::Record::parse(text)
        .map(|r| r.get("withheld").is_some())
        .unwrap_or(false)
    {
        return Err(refusal(
            400,
            "this record was downloaded before its game ended, without its seed: it does not replay; download it again once the game is over",
        ));
    }
    let Some(&game) = crate::games::NAMES.iter().find(|n| **n == game) else {
        return Err(refusal(400, "the record is of no game this server plays"));
    };
    let links = Links::new().map_err(|e| refusal(500, e))?;
    let open = Open::Record(text.to_string());
    let (app2, links2) = (app.clone(), links.clone());
    let id = tokio::task::spawn_blocking(move || app2.add(game, open, None, links2, None, 0))
        .await
        .map_err(|_| refusal(500, "the game could not be opened"))??;
    Ok((
        StatusCode::CREATED,
        axum::Json(links_json(&id, game, &links, 0)),
    )
        .into_response())
}

async fn get_view(
    State(app): State<App>,
    Path(id): Path<String>,
    q: Result<Query<Link>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, Refusal> {
    let Query(q) = q.map_err(bad_query)?;
    let (entry, who) = app.entry(&id, q.t.as_deref())?;
    let (hl, held) = (q.hl, q.held());
    let v = match q.older {
        Some(before) => run(&entry, move |t| t.log_page(before)).await?,
        None => run(&entry, move |t| t.view(who, hl, held)).await?,
    };
    Ok(axum::Json(v).into_response())
}

async fn act(
    State(app): State<App>,
    Path(id): Path<String>,
    q: Result<Query<Link>, axum::extract::rejection::QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Refusal> {
    let body = body.map_err(too_big)?;
    let Query(q) = q.map_err(bad_query)?;
    let (entry, who) = app.entry(&id, q.t.as_deref())?;
    let req: Request = parse_json(&body)?;
    let (hl, held) = (q.hl, q.held());
    let v = run(&entry, move |t| {
        t.act(who, &req).map(|_| t.view(who, hl, held))
    })
    .await??;
    Ok(axum::Json(v).into_response())
}

async fn record(
    State(app): State<App>,
    Path(id): Path<String>,
    q: Result<Query<Link>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, Refusal> {
    let Query(q) = q.map_err(bad_query)?;
    let (entry, _) = app.entry(&id, q.t.as_deref())?;
    let text = run(&entry, |t| t.client_record()).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}-{id}.record\"", entry.game),
            ),
        ],
        text,
    )
        .into_response())
}

async fn events(
    State(app): State<App>,
    Path(id): Path<String>,
    q: Result<Query<Link>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, Refusal> {
    let Query(q) = q.map_err(bad_query)?;
    let (entry, _) = app.entry(&id, q.t.as_deref())?;
    let rx = entry.changes.subscribe();
    let (version, chosen) = run(&entry, |t| t.stamp()).await?;
    let first = futures_util::stream::once(async move {
        Ok::<Event, Infallible>(
            Event::default()
                .event("change")
                .data(format!("{version}:{chosen}")),
        )
    });
    let rest = futures_util::stream::unfold(rx, |mut rx| async move {
        let data = match rx.recv().await {
            Ok((v, c)) => format!("{v}:{c}"),
            // Missed some: one change event brings the client up to date.
            Err(broadcast::error::RecvError::Lagged(_)) => "?".to_string(),
            Err(broadcast::error::RecvError::Closed) => return None,
        };
        Some((
            Ok::<Event, Infallible>(Event::default().event("change").data(data)),
            rx,
        ))
    });
    use futures_util::StreamExt;
    Ok(Sse::new(first.chain(rest))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response())
}

#[derive(Deserialize)]
struct GalleryQuery {
    ruleset: Option<String>,
}

async fn gallery(
    q: Result<Query<GalleryQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, Refusal> {
    let Query(q) = q.map_err(bad_query)?;
    let spec = q.ruleset.unwrap_or_else(|| "cards".into());
    crate::web::table::check_ruleset_name(&spec).map_err(|e| refusal(400, e))?;
    let page = tokio::task::spawn_blocking(move || crate::web::gallery::page(&spec))
        .await
        .map_err(|_| refusal(500, "the gallery failed"))?
        .map_err(|e| refusal(404, e))?;
    Ok(Html(page).into_response())
}

#[derive(Deserialize)]
struct GameQuery {
    game: Option<String>,
}

/// A game's shipped rulesets with their descriptions and its seats, for
/// the home page's choices.
async fn rulesets(
    q: Result<Query<GameQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, Refusal> {
    let Query(q) = q.map_err(bad_query)?;
    let game = q
        .game
        .unwrap_or_else(|| crate::data::DEFAULT_GAME.to_string());
    let no_game = || {
        refusal(
            404,
            format!(
                "no game `{}`: one of {}",
                game.chars().take(20).collect::<String>(),
                crate::games::names()
            ),
        )
    };
    if !is_game(&game) {
        return Err(no_game());
    }
    let g = game.clone();
    let v = tokio::task::spawn_blocking(move || crate::web::lobby::game_choices(&g))
        .await
        .map_err(|_| refusal(500, "the game's rulesets could not be read"))?
        .ok_or_else(no_game)?;
    Ok(axum::Json(v).into_response())
}

/// A store job on a blocking thread (SQLite waits on the disk and on
/// other processes' locks); a failure is a 500 that says what could not
/// be done.
async fn in_store<T: Send + 'static>(
    what: &'static str,
    job: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(job)
        .await
        .map_err(|_| refusal(500, what))?
        .map_err(|e| refusal(500, format!("{what}: {e}")))
}

/// The listed games with a seat to claim (no token among them).
async fn lobby(State(app): State<App>) -> Result<Response, Refusal> {
    let store = app.0.store.clone();
    let rows = in_store("the lobby could not be read", move || {
        store.open_games(crate::web::lobby::MAX_LISTED)
    })
    .await?;
    let held = app
        .0
        .games
        .read()
        .map_err(|_| refusal(500, "the server's game list is broken"))?
        .keys()
        .cloned()
        .collect::<std::collections::HashSet<String>>();
    let games: Vec<Value> = rows
        .iter()
        .filter(|(id, _, _)| held.contains(id))
        .filter_map(|(id, record, open)| crate::web::lobby::listing(id, record, *open))
        .collect();
    Ok(axum::Json(json!({ "games": games })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Join {
    seat: Option<usize>,
}

/// Claims an open seat of a listed game: its link goes to this caller
/// alone, and the seat leaves the lobby (for good: the claim is stored).
async fn join(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Refusal> {
    let body = body.map_err(too_big)?;
    let req: Join = if body.iter().all(u8::is_ascii_whitespace) {
        Join { seat: None }
    } else {
        parse_json(&body)?
    };
    let none = || {
        refusal(
            404,
            "no listed game has this id: it may have ended or never been listed",
        )
    };
    let entry = app.held(&id, none)?;
    let store = app.0.store.clone();
    let id2 = id.clone();
    let claimed = in_store("the seat could not be claimed", move || {
        store.claim(&id2, req.seat)
    })
    .await?;
    let Some(k) = claimed else {
        return Err(refusal(
            409,
            "this seat is not open any more: somebody else took it; pick another game",
        ));
    };
    let names = crate::web::table::seat_names(entry.game).unwrap_or(["seat 1", "seat 2"]);
    // A games file edited by hand may hold any bits: a seat past the
    // game's two is refused, not indexed.
    let (Some(name), Some(token)) = (names.get(k), entry.links.seats.get(k)) else {
        return Err(refusal(
            500,
            format!("the games file lists seat {k} of game {id} as open, which it has not"),
        ));
    };
    Ok(axum::Json(json!({
        "id": id,
        "seat": k,
        "name": name,
        "link": format!("/g/{id}?t={token}"),
    }))
    .into_response())
}

/// The spectators' link of a listed game, by a redirect.
async fn lobby_watch(State(app): State<App>, Path(id): Path<String>) -> Result<Response, Refusal> {
    let none = || refusal(404, "no listed game has this id");
    let entry = app.held(&id, none)?;
    let store = app.0.store.clone();
    let id2 = id.clone();
    let state = in_store("the lobby could not be read", move || {
        store.lobby_state(&id2)
    })
    .await?;
    if !matches!(state, Some((true, _))) {
        return Err(none());
    }
    Ok((
        StatusCode::SEE_OTHER,
        [(header::LOCATION, format!("/g/{id}?t={}", entry.links.watch))],
    )
        .into_response())
}

async fn not_found() -> Refusal {
    refusal(404, "no such page")
}

fn router(app: App) -> Router {
    Router::new()
        .route("/", get(|| async { Html(crate::web::page::home()) }))
        .route("/g/{id}", get(|| async { Html(crate::web::page::board()) }))
        .route(
            "/page.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    crate::web::page::SCRIPT,
                )
            }),
        )
        .route("/gallery", get(gallery))
        .route("/api/games", post(create))
        .route("/api/rulesets", get(rulesets))
        .route("/api/lobby", get(lobby))
        .route("/api/lobby/{id}/join", post(join))
        .route("/lobby/{id}/watch", get(lobby_watch))
        .route(
            "/api/load",
            post(load).layer(DefaultBodyLimit::max(MAX_RECORD_BODY)),
        )
        .route("/api/games/{id}", get(get_view))
        .route("/api/games/{id}/act", post(act))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/events", get(events))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// The server as a program that starts it sees it (`ball league play
/// --web`): it adds games of its own making and serves pages of its own
/// beside the board, while the server still names no game.
#[derive(Clone)]
pub struct Host(App);

/// A game a [`Host`] added: its id and its links (paths as in
/// `POST /api/games`'s answer: `/g/ID?t=TOKEN`).
#[derive(Clone, Debug)]
pub struct Hosted {
    pub id: String,
    pub links: Links,
    /// Each seat's link and the spectators', from the server's root.
    pub seat_links: [String; 2],
    pub watch_link: String,
}

impl Host {
    /// Opens a game as a client's create does (saved in the store, within
    /// `--max-games`); `watch` hears of its end. Blocks while the game is
    /// built: call it off the server's runtime.
    pub fn add(
        &self,
        game: &'static str,
        open: Open,
        watch: Option<Watch>,
    ) -> Result<Hosted, String> {
        let links = Links::new()?;
        let id = self
            .0
            .add_watched(game, open, None, links.clone(), None, 0, watch)
            .map_err(|r| r.error)?;
        Ok(Hosted {
            seat_links: [0, 1].map(|k| format!("/g/{id}?t={}", links.seats[k])),
            watch_link: format!("/g/{id}?t={}", links.watch),
            id,
            links,
        })
    }
}

/// A running server: its address, and a handle to stop it.
pub struct Server {
    pub addr: SocketAddr,
    /// What starting found worth saying (games that would not reload).
    pub notes: Vec<String>,
    pub reloaded: usize,
    /// Games added from `--import-dir`.
    pub imported: usize,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Binds, opens the store `config.db` (adding `config.import_dir`'s
    /// games), reloads its games, and serves on a thread of its own until
    /// [`Server::stop`] or the process ends.
    pub fn start(config: Config) -> Result<Server, String> {
        Server::start_with(config, |_| Router::new())
    }

    /// [`Server::start`], serving also the routes `pages` makes, which
    /// get the server's [`Host`] to add games with. Their paths must be
    /// none of the server's own (`/`, `/g/…`, `/api/…`, `/page.js`,
    /// `/gallery`): axum panics on a path routed twice, at start.
    pub fn start_with(
        config: Config,
        pages: impl FnOnce(Host) -> Router,
    ) -> Result<Server, String> {
        let store = Arc::new(Store::open(&config.db)?);
        let mut notes = Vec::new();
        let mut imported = 0;
        if let Some(dir) = &config.import_dir {
            let (n, problems) = store.import_dir(dir, config.max_games)?;
            imported = n;
            notes.extend(problems.into_iter().map(|p| format!("import: {p}")));
        }
        let app = App(Arc::new(Inner {
            games: RwLock::new(HashMap::new()),
            store: store.clone(),
            max_games: config.max_games,
            idle: config.idle,
        }));
        let (stored, problems) = store.load_all();
        notes.extend(problems);
        let mut reloaded = 0;
        for s in stored.into_iter().take(config.max_games) {
            let game = match game_of_record(&s.record) {
                Ok(g) if is_game(&g) => g,
                Ok(g) => {
                    notes.push(format!("game {}: no game `{g}`", s.id));
                    continue;
                }
                Err(e) => {
                    notes.push(format!("game {}: {e}", s.id));
                    continue;
                }
            };
            let Some(&game) = crate::games::NAMES.iter().find(|n| **n == game) else {
                continue;
            };
            match app.add(
                game,
                Open::Record(s.record),
                Some(s.id.clone()),
                s.links,
                Some(s.version),
                0,
            ) {
                Ok(_) => reloaded += 1,
                Err(e) => notes.push(format!("game {}: {}", s.id, e.error)),
            }
        }
        let routes = router(app.clone()).merge(pages(Host(app)));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(config.addr))
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot read the address: {e}"))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("web-server".into())
            .spawn(move || {
                let served = runtime.block_on(async move {
                    axum::serve(listener, routes)
                        .with_graceful_shutdown(async move {
                            let _ = stopped.await;
                        })
                        .await
                });
                if let Err(e) = served {
                    eprintln!("ball serve: {e}");
                }
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(|e| format!("cannot start the server's thread: {e}"))?;
        Ok(Server {
            addr,
            notes,
            reloaded,
            imported,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Stops taking connections; open ones (event streams) finish on
    /// their own, so this does not wait for them.
    pub fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        drop(self.thread.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gball::Gball;
    use crate::kernel::game::Title;
    use crate::shell::Session;
    use crate::web::table::{Act, Live};

    fn person_act(t: &mut Live<Gball>, act: Act) {
        let s = t.session();
        let seat = match act {
            Act::Undo => crate::web::view::undo_seat(s),
            _ => s.to_move(),
        }
        .expect("a seat to act");
        t.act(Who::Seat(seat), &Request { act, version: None })
            .expect("the act is taken");
    }

    fn first_legal(t: &Live<Gball>) -> Act {
        let a = t.session().legal()[0];
        Act::Play {
            action: a.to_string(),
        }
    }

    /// Each save writes what the action changed — one row for one
    /// action, however long the game — the header only when it changed,
    /// and cuts what an undo took back; the stored record is the played
    /// one after every save, and after a restart.
    #[test]
    fn a_save_writes_what_changed_and_a_restart_gives_the_game_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        let store = Store::open(&path).unwrap();
        let rules = Gball::load_ruleset("gball").unwrap();
        let session = Session::<Gball>::new(rules, [Seat::Person, Seat::Person], 6).unwrap();
        let mut t = Live::new(session);
        let id = "00000000000000ab";
        let (header, actions) = (t.record_header(), t.actions_from(0));
        let links = Links::new().unwrap();
        assert!(
            store
                .add(id, &header, &actions, &links, t.version(), 9, 0)
                .unwrap()
        );
        let mut saved = Some(Saved {
            header,
            actions: t.actions_len(),
        });
        let mut step = |t: &mut Live<Gball>, act: Act| {
            let stood = t.actions_len();
            person_act(t, act);
            let n = save_change(&store, id, &*t, &mut saved, stood).unwrap();
            assert_eq!(
                store.record(id).unwrap().unwrap(),
                t.session().record().write()
            );
            (n, stood)
        };
        for _ in 0..40 {
            let act = first_legal(&t);
            let (n, _) = step(&mut t, act);
            assert_eq!(n, 1, "one action, one row");
        }
        let (n, stood) = step(&mut t, Act::Undo);
        let cut = stood - t.actions_len();
        assert!(cut >= 1);
        assert_eq!(n, cut, "an undo deletes the rows it took back");
        for _ in 0..5 {
            let act = first_legal(&t);
            assert_eq!(step(&mut t, act).0, 1);
        }
        // Nothing changed since the last save: nothing to write, not even
        // the header (it changes only with the result).
        let now = t.actions_len();
        let (again, _) = tail(&t, saved.as_ref(), now);
        assert_eq!(
            again,
            games::Tail {
                header: None,
                from: now,
                actions: vec![],
            }
        );
        // A failed save forgets what is stored: the next one writes all.
        let mut unknown = None;
        let stood = t.actions_len();
        let act = first_legal(&t);
        person_act(&mut t, act);
        let n = save_change(&store, id, &t, &mut unknown, stood).unwrap();
        assert_eq!(n, stood + t.actions_len(), "every row again");
        assert_eq!(
            store.record(id).unwrap().unwrap(),
            t.session().record().write()
        );
        let played = t.record();
        let version = t.version();
        drop(store);
        // A restart: the store read again, the game rebuilt from it.
        let store = Store::open(&path).unwrap();
        let (stored, problems) = store.load_all();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(stored.len(), 1);
        assert_eq!(stored[0].record, played);
        let back = build("gball", Open::Record(stored[0].record.clone())).unwrap();
        assert_eq!(back.record(), played);
        assert_eq!(stored[0].version, version);
    }
}
