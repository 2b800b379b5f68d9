//! G-ball's `setup:` lines of scenario files (`crate::scenario`): what a
//! designer needs to set up a position, in the notation's words.
//!
//! ```text
//! game: gball
//! setup:
//!   place RED1 D3 NE      # a player on court, facing (G1.5)
//!   place BLU2 E3 W
//!   out BLU5 sinbin       # a status, off court (G13.4)
//!   ball D4 S RED         # a loose moving ball, its possession (or -)
//!   ball D4 spin RED      # a spinball (G10.3)
//!   ball held RED1        # held by a player placed above
//!   sets 1 0              # sets won, RED then BLU (G3.1)
//!   points 2 1            # points of the current set, RED then BLU
//!   home BLU              # the point's home team (G3.3)
//!   dice 4 2 6            # forced dice, first used first (G14.3)
//!   rng 7                 # the generator's seed (G14.1)
//!   phase 2 3             # start phase 2 of turn 3: the last line
//! ```
//!
//! Everything but `phase` edits the start position (the first placement
//! of a match, everyone off court, the ball off court). `phase K [TURN]`
//! then starts phase K (1–4) of turn TURN (default 1) and runs the
//! engine to the first decision, so the designer places pieces and the
//! rules derive the rest — initiative, morale, the movement order, the
//! ball resolution, the `auto` decisions — which is why no line sets a
//! pending decision or a resolution by hand: they could contradict the
//! rules, and the reader would refuse the position. A setup without
//! `phase` stays in placement, for scenarios of G4.3.

use super::Gball;
use super::Team;
use super::board::{NONE, parse_dir, parse_square};
use super::position::{Ball, Misses, Phase, Position, Status, bit, id_name, parse_id, team_of};
use crate::kernel::rng::SplitMix64;

const USAGE: &str = "expected `place PLAYER SQUARE FACING`, `out PLAYER point|sinbin|set|match`, \
`ball SQUARE DIR|spin [TEAM|-]`, `ball held PLAYER`, `sets R B`, `points R B`, `home TEAM`, \
`dice D …`, `rng SEED` or `phase K [TURN]`";

/// One `setup:` line.
pub fn edit(g: &Gball, pos: &mut Position, line: &str) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if pos.phase != Phase::Place {
        return Err(format!(
            "`{line}`: `phase` is the last setup line (it runs the engine to a decision)"
        ));
    }
    let player = |s: &str| {
        parse_id(s)
            .filter(|&p| pos.roster & bit(p) != 0)
            .ok_or_else(|| format!("`{s}` is not a player of the rosters (RED1-RED9, BLU1-BLU9, G2.1)"))
    };
    let square = |s: &str| parse_square(s).ok_or_else(|| format!("`{s}` is not a square A1-K6 (G1.1)"));
    let dir = |s: &str| {
        parse_dir(s).ok_or_else(|| format!("`{s}` is not a direction N NE E SE S SW W NW (G1.5)"))
    };
    let team = |s: &str| Team::parse(s).ok_or_else(|| format!("`{s}` is not a team: RED or BLU"));
    let possession = |w: &[&str]| match w {
        [] | ["-"] => Ok(None),
        [t] => team(t).map(Some),
        _ => Err(format!("`{line}`: {USAGE}")),
    };
    let count = |s: &str, what: &str, max: u32| {
        s.parse::<u32>()
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| format!("`{s}` is not {what} (0-{max})"))
    };
    match words.as_slice() {
        ["place", p, at, facing] => {
            let p = player(p)?;
            let (at, facing) = (square(at)?, dir(facing)?);
            let pl = &mut pos.players[p as usize];
            pl.at = at;
            pl.facing = facing;
            pl.out = Status::None;
            if pos.ball.holder == p {
                pos.ball.at = at;
            }
        }
        ["out", p, status] => {
            let p = player(p)?;
            let status = match *status {
                "point" => Status::Point,
                "sinbin" => Status::Sinbin,
                "set" => Status::Set,
                "match" => Status::Match,
                s => return Err(format!("`{s}` is not a status: point, sinbin, set or match (G13.4)")),
            };
            let pl = &mut pos.players[p as usize];
            pl.at = NONE;
            pl.facing = NONE;
            pl.out = status;
            std::sync::Arc::make_mut(&mut pos.misses)[p as usize] = Misses::None;
            if pos.ball.holder == p {
                pos.ball = Ball::OFF;
            }
        }
        ["ball", "held", p] => {
            let p = player(p)?;
            let at = pos.players[p as usize].at;
            if at == NONE {
                return Err(format!(
                    "`{line}`: place {} on court before he holds the ball (G2.6)",
                    id_name(p)
                ));
            }
            pos.ball = Ball {
                at,
                dir: NONE,
                spin: false,
                holder: p,
                possession: Some(team_of(p)),
            };
        }
        ["ball", at, "spin", rest @ ..] => {
            pos.ball = Ball {
                at: square(at)?,
                dir: NONE,
                spin: true,
                holder: NONE,
                possession: possession(rest)?,
            };
        }
        ["ball", at, d, rest @ ..] => {
            let (at, d) = (square(at)?, dir(d)?);
            if !super::board::ball_dir_ok(at, d) {
                return Err(format!(
                    "`{line}`: a moving ball's direction leads to a square of the court, never along the wall (G6.2)"
                ));
            }
            pos.ball = Ball {
                at,
                dir: d,
                spin: false,
                holder: NONE,
                possession: possession(rest)?,
            };
        }
        ["sets", r, b] => pos.sets = [count(r, "a number of sets", 9)? as u8, count(b, "a number of sets", 9)? as u8],
        ["points", r, b] => {
            pos.points = [count(r, "a number of points", 99)? as u8, count(b, "a number of points", 99)? as u8];
        }
        ["home", t] => pos.home = Some(team(t)?),
        ["dice", dice @ ..] if !dice.is_empty() => {
            for d in dice {
                let v = count(d, "a die value 1-6", 6)?;
                if v == 0 {
                    return Err("`0` is not a die value 1-6 (G14.2)".into());
                }
                pos.dice.push_back(v);
            }
        }
        ["rng", seed] => {
            let seed = seed
                .parse::<u64>()
                .map_err(|_| format!("`{seed}` is not a seed (a whole number)"))?;
            pos.rng = SplitMix64::new(seed);
        }
        ["phase", k, turn @ ..] => {
            let k = count(k, "a phase 1-4", 4)? as u8;
            if k == 0 {
                return Err("`0` is not a phase 1-4 (G5.1)".into());
            }
            let turn = match turn {
                [] => 1,
                [t] => count(t, "a turn", 10_000)?.max(1),
                _ => return Err(format!("`{line}`: {USAGE}")),
            };
            // What the engine takes for granted outside placement; the
            // reader checks everything else once the decision is reached.
            if pos.ball.at == NONE {
                return Err(format!(
                    "`{line}`: put the ball on court first (`ball SQUARE DIR`, `ball held PLAYER`): outside placement it is always there (G2.6)"
                ));
            }
            for t in Team::BOTH {
                let n = pos.on_court(t).count_ones();
                if n > u32::from(g.params.players_on_court) {
                    return Err(format!(
                        "`{line}`: {n} {t} players on court; at most players_on_court = {} (G2.4)",
                        g.params.players_on_court
                    ));
                }
            }
            pos.turn = turn;
            pos.match_turns = pos.match_turns.max(turn - 1);
            // The reader checks the rest: a team over `players_on_court`,
            // a holder off court, a ball in a state its phase forbids.
            // A `Vec` sink, not `()`: the hot path's `run::<()>` keeps
            // its one caller (`flow::apply`), so this setup-only entry
            // cannot change how the compiler inlines it.
            let mut events: Vec<super::event::Event> = Vec::new();
            let bad = match &g.script {
                None => super::flow::begin_phase(g, pos, k, &mut events),
                Some(s) => super::flow::begin_phase_with(
                    g,
                    pos,
                    k,
                    &mut events,
                    &super::script::Hooked(s),
                ),
            };
            if let Some(bad) = bad {
                return Err(format!("`{line}`: {bad}"));
            }
            if pos.phase == Phase::Place {
                // The phase ended the point (a score, an empty court)
                // and the next placement began: still a position, but
                // no longer the designer's; say so rather than go on.
                return Err(format!(
                    "`{line}`: the point ended before any decision of phase {k}; place players who can act"
                ));
            }
        }
        _ => return Err(format!("`{line}`: {USAGE}")),
    }
    Ok(())
}
