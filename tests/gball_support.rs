//! Helpers of the G-ball tests: positions built from a short description
//! (players, ball, decision), checked through the JSON reader, and
//! actions applied with their events as text.

use ball::games::gball::action::parse;
use ball::games::gball::board::{NONE, parse_dir, parse_square};
use ball::games::gball::position::{Ball, Pending, Phase, Position, parse_id};
use ball::games::gball::{Gball, Params, Team, json};
use ball::kernel::game::Title;

pub fn sq(s: &str) -> u8 {
    parse_square(s).unwrap_or_else(|| panic!("square {s}"))
}

pub fn dir(s: &str) -> u8 {
    parse_dir(s).unwrap_or_else(|| panic!("direction {s}"))
}

pub fn id(s: &str) -> u8 {
    parse_id(s).unwrap_or_else(|| panic!("player {s}"))
}

pub fn team(s: &str) -> Team {
    Team::parse(s).unwrap()
}

pub fn standard() -> Gball {
    Gball::standard()
}

pub fn with(f: impl FnOnce(&mut Params)) -> Gball {
    let mut p = Params::default();
    f(&mut p);
    Gball::with_params(p)
}

/// A mid-match position of `g`'s rosters: everyone off court, nothing
/// pending; the caller sets what the scenario needs.
pub fn blank(g: &Gball) -> Position {
    let mut pos = g.start(0);
    pos.pending = None;
    pos.ball = Ball::OFF;
    pos
}

/// Puts players on court: `("RED1", "D3", "NE")`.
pub fn place(pos: &mut Position, players: &[(&str, &str, &str)]) {
    for &(p, s, d) in players {
        let pl = &mut pos.players[id(p) as usize];
        pl.at = sq(s);
        pl.facing = dir(d);
    }
}

pub fn loose(pos: &mut Position, at: &str, d: &str, possession: Option<Team>) {
    pos.ball = Ball {
        at: sq(at),
        dir: dir(d),
        spin: false,
        holder: NONE,
        possession,
    };
}

pub fn held(pos: &mut Position, holder: &str) {
    let h = id(holder);
    pos.ball = Ball {
        at: pos.players[h as usize].at,
        dir: NONE,
        spin: false,
        holder: h,
        possession: Some(ball::games::gball::position::team_of(h)),
    };
}

/// Sets phase, turn and the pending decision, with initiative settled as
/// the engine would (G5.2), and checks the position through the reader.
pub fn ready(g: &Gball, pos: &mut Position, phase: Phase, turn: u32, pending: Pending) {
    pos.phase = phase;
    pos.turn = turn;
    pos.pending = Some(pending);
    if phase != Phase::Place {
        ball::games::gball::flow::settle(g, pos);
    }
    reread(g, pos);
}

/// Writes and reads the position back: it must pass every reader check
/// and round-trip.
pub fn reread(g: &Gball, pos: &Position) {
    let text = json::write(pos);
    match json::read(g, &text) {
        Ok(back) => assert_eq!(&back, pos, "round trip of\n{text}"),
        Err(e) => panic!("the scenario position is malformed: {e}\n{text}"),
    }
}

/// Applies actions (checked), returning every event line.
pub fn play(g: &Gball, pos: &mut Position, actions: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for a in actions {
        let action = parse(a).unwrap_or_else(|e| panic!("{e}"));
        let mut log = Vec::new();
        if let Err(e) = g.play(pos, action, &mut log) {
            panic!(
                "{a}: {e}\nlegal: {:?}\n{}",
                g.canonical_legal(pos),
                g.show(pos)
            );
        }
        out.extend(log.iter().map(|e| e.to_string()));
    }
    out
}

pub fn legal(g: &Gball, pos: &Position) -> Vec<String> {
    g.canonical_legal(pos)
}

/// The lines of a trace in the notation file, `text` as written there.
pub fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// `events` from the first line equal to `trace[0]`, cut to the trace's
/// length.
pub fn from_first<'a>(events: &'a [String], trace: &[String]) -> &'a [String] {
    let start = events
        .iter()
        .position(|e| *e == trace[0])
        .unwrap_or_else(|| panic!("no `{}` in {events:#?}", trace[0]));
    let end = (start + trace.len()).min(events.len());
    &events[start..end]
}

pub fn forced(pos: &mut Position, dice: &[u32]) {
    pos.dice.extend(dice.iter().copied());
}

pub fn is_place(p: &Position) -> bool {
    p.phase == Phase::Place
}
