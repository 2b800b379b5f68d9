//! `ball league play PATH --person SIDE --web`: the next fixture in a
//! browser. The command starts the web server (`web::server`) on this
//! machine with one page of its own, `/league?t=TOKEN`: the squad and the
//! roster question first; once a roster is accepted the fixture is added
//! to the server as a G-ball game built from the league (its rosters,
//! its seed: the dice are the league's), and the page shows its board.
//! The server tells this command when the game ends (`server::Watch`,
//! with the game's record); the command commits the record's actions
//! through `league::person` — the terminal board's code — shows the
//! result line on the page and exits. Ctrl-C before then commits
//! nothing.
//!
//! The games file the server needs lives in a directory of its own
//! under the system's temporary directory, removed on the way out: a
//! fixture is kept only in the league, and only once it is over. The
//! browser gets the board through the server's own views (the public
//! position, the record without seed and start until the end): nothing
//! here sends the fixture's seed.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::UsageError;
use crate::games::gball::Gball;
use crate::games::gball::league::{League, person};
use crate::kernel::game::Title;
use crate::shell::{Seat, Session};
use crate::web::server::{Config, Host, Server};
use crate::web::table::{Live, Open, Refusal, Table};

/// How long the command waits, once the result is committed, for the
/// page to fetch it before it stops the server.
const TELL_WAIT: Duration = Duration::from_secs(10);

/// Set by Ctrl-C (SIGINT, SIGTERM): the command leaves the match
/// unfinished and says so, where the default action would end the
/// process without a word.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
fn catch_interrupt() {
    extern "C" fn on_signal(_: libc::c_int) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }
    let handler: extern "C" fn(libc::c_int) = on_signal;
    // SAFETY: the handler only stores to an atomic, which is
    // async-signal-safe; `signal` is given a valid function pointer.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
    }
}

#[cfg(not(unix))]
fn catch_interrupt() {}

/// Where the page's fixture stands.
#[derive(Clone, Debug)]
enum Phase {
    Roster,
    Playing {
        board: String,
    },
    Done {
        state: &'static str,
        lines: Vec<String>,
    },
}

struct Shown {
    phase: Phase,
    /// A page has fetched the final lines.
    told: bool,
}

/// A roster the page names, answered by the command's thread: the
/// board's link, or why the roster is refused.
struct Naming {
    roster: String,
    reply: tokio::sync::oneshot::Sender<Result<String, String>>,
}

#[derive(Clone)]
struct Pages {
    token: Arc<str>,
    /// The fixture and the squad: what does not change.
    offer: Arc<Value>,
    heading: Arc<str>,
    shown: Arc<Mutex<Shown>>,
    naming: mpsc::Sender<Naming>,
}

#[derive(Deserialize)]
struct Token {
    t: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RosterBody {
    /// Squad places as the terminal takes them (`"3 0 1"`); empty: the
    /// bots' best nine.
    roster: String,
}

/// A refusal: its status and `{"error": …}`, as the server's own.
fn refusal(status: StatusCode, error: impl Into<String>) -> Refusal {
    Refusal {
        status: status.as_u16(),
        error: error.into(),
    }
}

impl Pages {
    fn check(&self, q: Result<Query<Token>, QueryRejection>) -> Result<(), Refusal> {
        let ok = q
            .ok()
            .and_then(|Query(q)| q.t)
            .is_some_and(|t| same(&t, &self.token));
        if ok {
            Ok(())
        } else {
            Err(refusal(
                StatusCode::NOT_FOUND,
                "no fixture has this link: use the one the command printed",
            ))
        }
    }

    /// The fixture as the page and a test see it.
    fn status(&self) -> Value {
        let mut v = (*self.offer).clone();
        let Ok(mut shown) = self.shown.lock() else {
            return json!({"error": "the fixture's state is broken"});
        };
        let (state, board, lines) = match &shown.phase {
            Phase::Roster => ("roster", None, Vec::new()),
            Phase::Playing { board } => ("playing", Some(board.clone()), Vec::new()),
            Phase::Done { state, lines } => (*state, None, lines.clone()),
        };
        if matches!(shown.phase, Phase::Done { .. }) {
            shown.told = true;
        }
        v["state"] = json!(state);
        v["board"] = json!(board);
        v["lines"] = json!(lines);
        v
    }
}

/// Equal tokens, in time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

async fn page(
    State(p): State<Pages>,
    q: Result<Query<Token>, QueryRejection>,
) -> Result<Response, Refusal> {
    p.check(q)?;
    Ok(Html(roster_page(&p.heading, &p.offer)).into_response())
}

async fn status(
    State(p): State<Pages>,
    q: Result<Query<Token>, QueryRejection>,
) -> Result<Response, Refusal> {
    p.check(q)?;
    Ok(axum::Json(p.status()).into_response())
}

async fn name_roster(
    State(p): State<Pages>,
    q: Result<Query<Token>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Refusal> {
    p.check(q)?;
    let body = body.map_err(|e| refusal(e.status(), "the request's body could not be read"))?;
    let req: RosterBody = crate::json_line::from_slice(&body).map_err(|e| {
        refusal(
            StatusCode::BAD_REQUEST,
            format!("malformed request: {e} (send {{\"roster\": \"3 0 1 …\"}})"),
        )
    })?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    p.naming
        .send(Naming {
            roster: req.roster,
            reply: tx,
        })
        .map_err(|_| refusal(StatusCode::SERVICE_UNAVAILABLE, "the command has stopped"))?;
    match rx.await {
        Ok(Ok(board)) => Ok(axum::Json(json!({ "board": board })).into_response()),
        Ok(Err(e)) => Err(refusal(StatusCode::UNPROCESSABLE_ENTITY, e)),
        Err(_) => Err(refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "the command has stopped",
        )),
    }
}

fn routes(p: Pages) -> Router {
    Router::new()
        .route("/league", get(page))
        .route("/league/api", get(status))
        .route("/league/api/roster", post(name_roster))
        .layer(DefaultBodyLimit::max(4096))
        .with_state(p)
}

/// The fixture and the person's squad as JSON (no seed: nothing that
/// predicts a die).
fn offer_json(l: &League, offer: &person::Offer) -> Value {
    let f = &offer.fixture;
    json!({
        "fixture": f.number,
        "season": f.season,
        "round": f.round,
        "home": l.team_name(f.home),
        "away": l.team_name(f.away),
        "side": if offer.side == 0 { "home" } else { "away" },
        "team": l.team_name(offer.team),
        "called_up": offer.called_up,
        "best": offer.best,
        "squad": offer.squad.iter().filter(|x| !x.retired).map(|x| json!({
            "place": x.index,
            "name": x.name,
            "stars": person::stars(x),
            "veteran": x.veteran,
            "season": x.season,
            "available": x.available(),
            "availability": person::availability(x),
        })).collect::<Vec<_>>(),
    })
}

/// The roster page; its script names the roster, then shows the board
/// and, at the end, the committed result.
fn roster_page(heading: &str, offer: &Value) -> String {
    use crate::web::svg::esc;
    let best: Vec<u64> = offer["best"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let mut rows = String::new();
    for x in offer["squad"].as_array().into_iter().flatten() {
        let place = x["place"].as_u64().unwrap_or(0);
        let available = x["available"] == true;
        rows.push_str(&format!(
            "<tr><td><input type=\"checkbox\" data-place=\"{place}\"{}{}></td><td>{place}</td><td>{}</td>\
<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if best.contains(&place) { " checked" } else { "" },
            if available { "" } else { " disabled" },
            esc(x["name"].as_str().unwrap_or("")),
            esc(x["stars"].as_str().unwrap_or("")),
            if x["veteran"] == true { "yes" } else { "" },
            x["season"],
            esc(x["availability"].as_str().unwrap_or("")),
        ));
    }
    let best_text: Vec<String> = best.iter().map(u64::to_string).collect();
    let called = match offer["called_up"].as_u64().unwrap_or(0) {
        0 => String::new(),
        k => format!("<p>{k} called up to have nine available (G17.5).</p>"),
    };
    let body = format!(
        "<header><b>ball league</b> · {}</header><main><div style=\"width:100%\">\
<div id=\"naming\"><h3>Your match roster</h3>\
<p>Up to nine available players, numbered 1-9 in the order given: tick them, or type their squad \
places. The bots' best nine are ticked.</p>{called}\
<table id=\"squad\"><tr><th></th><th>place</th><th>name</th><th>stars</th><th>veteran</th>\
<th>season</th><th>available</th></tr>{rows}</table>\
<p><label>roster <input id=\"places\" size=\"30\" value=\"{}\"></label>\
<button id=\"name\">Play with this roster</button></p></div>\
<div id=\"message\"></div><pre id=\"result\" style=\"color:#fd4;font-weight:bold\"></pre>\
<div id=\"play\" hidden><p><a id=\"boardlink\" target=\"_blank\">the board in a tab of its own</a> · \
<span id=\"hint\">the result is committed to the league when the match ends; Ctrl-C in the \
terminal leaves it unfinished (nothing committed)</span></p>\
<iframe id=\"board\" style=\"width:100%;height:88vh;border:0\"></iframe></div></div></main>\
<script>{LEAGUE_SCRIPT}</script>",
        esc(heading),
        best_text.join(" "),
    );
    crate::web::page::document("ball · league fixture", &body)
}

const LEAGUE_SCRIPT: &str = r#"
const T = new URLSearchParams(location.search).get('t') || '';
const api = p => '/league/api' + p + '?t=' + encodeURIComponent(T);
const $ = id => document.getElementById(id);
const field = $('places');
const boxes = [...document.querySelectorAll('#squad input')];
const words = () => field.value.split(/[\s,]+/).filter(w => w);
boxes.forEach(b => b.onchange = () => {
  const k = b.dataset.place;
  const p = words().filter(w => w !== k);
  if (b.checked) p.push(k);
  field.value = p.join(' ');
});
field.oninput = () => { const p = words(); boxes.forEach(b => b.checked = p.includes(b.dataset.place)); };
let shown = false, over = false;
function show(v) {
  if (v.board && !shown) {
    shown = true;
    $('naming').hidden = true;
    $('play').hidden = false;
    $('board').src = v.board;
    $('boardlink').href = v.board;
  }
  if (v.lines && v.lines.length) {
    $('result').textContent = v.lines.join('\n');
    $('hint').textContent = v.state === 'committed' ? 'committed to the league; the command has ended'
      : 'nothing committed; the command has ended';
    over = true;
  }
}
$('name').onclick = async () => {
  try {
    const r = await fetch(api('/roster'), {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({roster: field.value})});
    const v = await r.json();
    if (!r.ok) { $('message').textContent = v.error; return; }
    $('message').textContent = '';
    show(v);
  } catch (e) { $('message').textContent = 'the league command has stopped: ' + e; }
};
async function poll() {
  try {
    const r = await fetch(api(''));
    show(await r.json());
  } catch (e) {
    if (!over) $('message').textContent = 'the league command has stopped; a match left unfinished is not committed';
    return;
  }
  if (!over) setTimeout(poll, 1000);
}
poll();
"#;

/// A directory of its own for the server's games file.
fn scratch_dir() -> Result<PathBuf, String> {
    let tag = crate::web::seats::random_hex(6)?;
    let dir = std::env::temp_dir().join(format!("ball-league-{}-{tag}", std::process::id()));
    std::fs::create_dir(&dir).map_err(|e| format!("cannot make `{}`: {e}", dir.display()))?;
    Ok(dir)
}

/// `play --person SIDE --web`: see the module's comment.
pub fn play_web(
    path: &Path,
    side: usize,
    bots: &[String; 2],
    port: u16,
    out: &mut dyn std::io::Write,
) -> Result<(), UsageError> {
    let (mut store, l) = super::league::open(path)?;
    let Some(offer) = person::offer(&l, side).map_err(UsageError)? else {
        writeln!(out, "nothing to play")?;
        return Ok(());
    };
    let dir = scratch_dir().map_err(UsageError)?;
    let r = serve_fixture(&mut store, &l, &offer, bots, port, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    for line in r? {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn serve_fixture(
    store: &mut crate::store::Store,
    l: &League,
    offer: &person::Offer,
    bots: &[String; 2],
    port: u16,
    dir: &Path,
) -> Result<Vec<String>, UsageError> {
    let n = offer.number();
    let side = offer.side;
    let token: Arc<str> = crate::web::seats::random_hex(16)
        .map_err(UsageError)?
        .into();
    let (naming, namings) = mpsc::channel::<Naming>();
    let heading: Arc<str> = offer.heading(l).into();
    let pages = Pages {
        token: token.clone(),
        offer: Arc::new(offer_json(l, offer)),
        heading: heading.clone(),
        shown: Arc::new(Mutex::new(Shown {
            phase: Phase::Roster,
            told: false,
        })),
        naming,
    };
    let mut host: Option<Host> = None;
    let server = Server::start_with(
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            db: dir.join("games.db"),
            import_dir: None,
            // The fixture, and a few games anyone on this machine might
            // start from the home page without taking the fixture's place.
            max_games: 4,
            idle: crate::web::server::IDLE,
        },
        |h| {
            host = Some(h);
            routes(pages.clone())
        },
    )
    .map_err(UsageError)?;
    let Some(host) = host else {
        server.stop();
        return Err(UsageError("the server started without its host".into()));
    };
    catch_interrupt();
    {
        use std::io::Write;
        let mut term = std::io::stdout().lock();
        let _ = writeln!(term, "{heading}");
        let _ = writeln!(
            term,
            "Open http://{}/league?t={token} to name your roster and play; Ctrl-C leaves the match unfinished.",
            server.addr
        );
        let _ = term.flush();
    }
    let (ended_tx, ended) = mpsc::channel::<String>();
    let mut prepared = None;
    let outcome = loop {
        if INTERRUPTED.load(Ordering::SeqCst) {
            break Ok(person::Outcome::Unfinished);
        }
        if let (Ok(record), Some(p)) = (ended.try_recv(), &prepared) {
            break crate::kernel::record::Record::parse(&record)
                .map_err(|e| e.to_string())
                .and_then(|r| person::commit(store, l, p, side, bots, &r.actions));
        }
        match namings.recv_timeout(Duration::from_millis(100)) {
            Ok(Naming { roster, reply }) => {
                if prepared.is_some() {
                    let _ = reply.send(Err(
                        "the roster is named and the match is on: reload the page".into(),
                    ));
                    continue;
                }
                match start_match(&host, l, offer, &roster, bots, ended_tx.clone()) {
                    Ok((p, board)) => {
                        prepared = Some(p);
                        set_phase(
                            &pages,
                            Phase::Playing {
                                board: board.clone(),
                            },
                        );
                        let _ = reply.send(Ok(board));
                    }
                    Err(e) => {
                        let _ = reply.send(Err(e));
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(person::Outcome::Unfinished),
        }
    };
    let (state, lines) = match &outcome {
        Ok(o) => (
            match o {
                person::Outcome::Committed { .. } => "committed",
                person::Outcome::Unfinished => "unfinished",
                person::Outcome::Taken => "taken",
            },
            o.lines(n),
        ),
        Err(e) => ("failed", vec![format!("fixture {n}: not committed: {e}")]),
    };
    set_phase(
        &pages,
        Phase::Done {
            state,
            lines: lines.clone(),
        },
    );
    // The page shows the committed line: give it a moment to fetch it,
    // unless the person asked to stop.
    let since = Instant::now();
    while state != "unfinished"
        && !INTERRUPTED.load(Ordering::SeqCst)
        && since.elapsed() < TELL_WAIT
        && !pages.shown.lock().map_or(true, |s| s.told)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    server.stop();
    outcome.map_err(UsageError)?;
    Ok(lines)
}

fn set_phase(p: &Pages, phase: Phase) {
    if let Ok(mut s) = p.shown.lock() {
        s.phase = phase;
    }
}

/// Names the roster and adds the match to the server: the prepared
/// fixture and the board's link, or why the roster is refused.
fn start_match(
    host: &Host,
    l: &League,
    offer: &person::Offer,
    roster: &str,
    bots: &[String; 2],
    watch: crate::web::server::Watch,
) -> Result<(crate::games::gball::league::play::Prepared, String), String> {
    let chosen = match super::league::parse_places(roster)? {
        c if c.is_empty() => offer.best.clone(),
        c => c,
    };
    let p = offer.with_roster(&chosen)?;
    let rules = person::ruleset(l, &p)?;
    let seed = p.seed;
    let seats = [0, 1].map(|k| {
        if k == offer.side {
            Seat::Person
        } else {
            Seat::Bot(bots[k].clone())
        }
    });
    let open = Open::Built(Box::new(move || {
        let s = Session::<Gball>::new(rules, seats, seed)?;
        Ok(Box::new(Live::new(s)) as Box<dyn Table>)
    }));
    let hosted = host.add(<Gball as Title>::NAME, open, Some(watch))?;
    Ok((p, hosted.seat_links[offer.side].clone()))
}
