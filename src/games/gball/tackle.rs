//! Tackling (G8): engagements (G8.2) and the two ball resolutions that
//! tackle, the ruck's blocks and contest (G8.4–G8.5) and the maul
//! (G8.7–G8.9). Nothing here waits for a decision: the allocations are
//! made before, the catch attempts after.

use super::board::{self, NONE};
use super::event::{Event, Foul, Injury, OutCause, RollKind};
use super::flow::{Ctx, Hooks, earn, roll};
use super::position::{
    Ball, Misses, Position, STAR_T, Status, Tackle, TackleKind, bit, members, team_of,
};
use super::rules;
use super::{Gball, Team};
use crate::kernel::events::Sink;

/// Where the procedure goes after the tackling of a resolution.
pub enum Next {
    TurnStep,
    Catch,
    EndPhase,
}

pub struct Result {
    pub any_fumble: bool,
    /// The lone player won every pair (a carrier who keeps the ball).
    pub lone_won_all: bool,
}

/// One engagement (G8.2): `lone` against every player of `opponents`,
/// or, with `lone` `None`, the receivers' contest among `opponents`.
pub fn engage<S: Sink<Event>, H: Hooks>(
    g: &Gball,
    pos: &mut Position,
    cx: &mut Ctx<S, H>,
    kind: TackleKind,
    lone: Option<u8>,
    opponents: u32,
) -> Result {
    let mut rolls = [0u8; 18];
    // 1. Dice: the lone player, then his opponents by ascending id.
    let everyone = opponents | lone.map_or(0, bit);
    let mut dice_order = [NONE; 18];
    let mut n = 0;
    if let Some(l) = lone {
        dice_order[n] = l;
        n += 1;
    }
    for p in members(opponents) {
        dice_order[n] = p;
        n += 1;
    }
    for &p in &dice_order[..n] {
        let v = roll(pos, cx, RollKind::Tackle, Some(p), 6);
        let m = v + rules::bonus(g, pos, p, STAR_T);
        let m = (i64::from(m) + i64::from(cx.hooks.tackle_modifier(pos, p, kind))).clamp(0, 255);
        rolls[p as usize] = m as u8;
    }
    // 2. Pairs.
    let mut pairs = [(NONE, NONE); 24];
    let mut np = 0;
    match lone {
        Some(l) => {
            for y in members(opponents) {
                pairs[np] = (l, y);
                np += 1;
            }
        }
        None => {
            // A contest: X the lower id, i.e. BLU against RED.
            for x in members(opponents & Team::Blu.mask()) {
                for y in members(opponents & Team::Red.mask()) {
                    if np < pairs.len() {
                        pairs[np] = (x, y);
                        np += 1;
                    }
                }
            }
        }
    }
    let mut lost = 0u32;
    let mut fumbled = 0u32;
    let mut injuries = [0u8; 18];
    let mut injured_by = [0u8; 18];
    let mut won_all = [true; 18];
    let sum = u32::from(g.params.injury_sum);
    for &(x, y) in &pairs[..np] {
        let t = Tackle {
            kind,
            x,
            y,
            rx: rolls[x as usize],
            ry: rolls[y as usize],
        };
        if let Some(r) = pos.resolution.as_mut() {
            r.push_tackle(t);
        }
        let winner = t.winner();
        cx.emit(Event::Tackle {
            x,
            rx: t.rx,
            y,
            ry: t.ry,
            winner,
        });
        match winner {
            Some(w) => {
                let l = if w == x { y } else { x };
                lost |= bit(l);
                won_all[l as usize] = false;
                if u32::from(t.rx) + u32::from(t.ry) == sum {
                    injuries[l as usize] += 1;
                    injured_by[w as usize] += 1;
                }
            }
            None => {
                fumbled |= bit(x) | bit(y);
                won_all[x as usize] = false;
                won_all[y as usize] = false;
            }
        }
    }
    pos.lost_tackle |= lost;
    let keeps = |p: u8, pos: &Position| {
        kind == TackleKind::Carrier && lone == Some(p) && won_all[p as usize] && pos.ball.holder == p
    };
    // 3. Injuries, by ascending id.
    for p in members(everyone) {
        let k = injuries[p as usize];
        if k == 0 {
            continue;
        }
        let mut best = 0;
        for _ in 0..k {
            best = best.max(roll(pos, cx, RollKind::Injury, Some(p), 6));
        }
        let injury = match cx.hooks.injury(pos, p, best) {
            None => match best {
                1 | 2 => Injury::Stunned,
                3 | 4 => Injury::Minor,
                5 => Injury::Serious,
                _ => Injury::Severe,
            },
            Some(Some(i)) => i,
            // A variant spares him: no injury, he plays on.
            Some(None) => continue,
        };
        let status = match injury {
            Injury::Stunned => Status::Point,
            Injury::Minor => Status::Set,
            Injury::Serious | Injury::Severe => Status::Match,
        };
        cx.emit(Event::Injury(p, injury));
        match injury {
            Injury::Serious => std::sync::Arc::make_mut(&mut pos.misses)[p as usize] = Misses::Games(1),
            Injury::Severe => {
                let v = roll(pos, cx, RollKind::Games, Some(p), 6);
                let m = if v < 6 {
                    Misses::Games(v)
                } else if pos.veterans & bit(p) != 0 {
                    Misses::Retired
                } else {
                    Misses::Season
                };
                std::sync::Arc::make_mut(&mut pos.misses)[p as usize] = m;
                cx.emit(Event::Games(p, m));
            }
            _ => {}
        }
        cx.emit(Event::Out(p, status, OutCause::Injury));
        remove(pos, p, status);
    }
    // 4. Fouls, by ascending id.
    for p in members(everyone) {
        let k = injured_by[p as usize];
        if k == 0 {
            continue;
        }
        let mut best = 0;
        for _ in 0..k {
            best = best.max(roll(pos, cx, RollKind::Foul, Some(p), 6));
        }
        let foul = match best {
            1..=3 => Foul::None,
            4 | 5 => Foul::Foul,
            _ => Foul::Serious,
        };
        cx.emit(Event::Foul(p, foul));
        let status = match foul {
            Foul::None => continue,
            Foul::Foul => Status::Sinbin,
            Foul::Serious => {
                std::sync::Arc::make_mut(&mut pos.misses)[p as usize] = Misses::Games(1);
                Status::Match
            }
        };
        cx.emit(Event::Out(p, status, OutCause::Foul));
        if keeps(p, pos) {
            pos.players[p as usize].out = status;
        } else {
            remove(pos, p, status);
        }
    }
    // 5. Wall-walking, for blocks on a wall square.
    let square = pos.resolution.as_ref().map_or(NONE, |r| r.square);
    if kind == TackleKind::Block && square != NONE && board::is_wall(square) && fumbled != 0 {
        let mut order = [NONE; 18];
        let mut n = 0;
        if let Some(l) = lone {
            order[n] = l;
            n += 1;
        }
        for p in members(opponents) {
            order[n] = p;
            n += 1;
        }
        for &p in &order[..n] {
            if fumbled & bit(p) == 0 || pos.players[p as usize].out != Status::None {
                continue;
            }
            let v = roll(pos, cx, RollKind::Wallwalk, Some(p), 6);
            if v <= 3 {
                cx.emit(Event::Out(p, Status::Point, OutCause::Wallwalk));
                remove(pos, p, Status::Point);
            }
        }
    }
    // G16.4: one tackle each; the stars after the whole engagement.
    for p in members(everyone) {
        let st = &mut std::sync::Arc::make_mut(&mut pos.stats)[p as usize];
        st.tackles += 1;
        if won_all[p as usize] {
            st.won += 1;
        }
    }
    for p in members(everyone) {
        earn(g, pos, cx, p);
    }
    Result {
        any_fumble: fumbled != 0,
        lone_won_all: lone.is_some_and(|l| won_all[l as usize]),
    }
}

/// Off court at once, holder or not (a carrier who lost a pair does not
/// keep the ball, so he is no leaving holder).
fn remove(pos: &mut Position, p: u8, status: Status) {
    let pl = &mut pos.players[p as usize];
    if pl.out == Status::None {
        pl.out = status;
    }
    pl.at = NONE;
    pl.facing = NONE;
}

/// The opponents a player blocks in the resolution's allocation.
fn blockers_of(pos: &Position, target: u8) -> u32 {
    pos.resolution.as_ref().map_or(0, |r| {
        r.blocks()
            .iter()
            .filter(|&&(_, o)| o == target)
            .fold(0, |m, &(b, _)| m | bit(b))
    })
}

/// G8.4 steps 5–6: the blocks by receiver id, then the contest.
pub fn ruck<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>) -> Next {
    let receivers = pos.resolution.as_ref().map_or(0, |r| r.receivers_mask());
    for r in members(receivers) {
        let b = blockers_of(pos, r);
        if b != 0 {
            engage(g, pos, cx, TackleKind::Block, Some(r), b);
        }
    }
    let el = rules::eligible_receivers(pos);
    if el & Team::Red.mask() != 0 && el & Team::Blu.mask() != 0 {
        let e = engage(g, pos, cx, TackleKind::Contest, None, el);
        if e.any_fumble {
            cx.emit(Event::Halt);
            return Next::EndPhase;
        }
    }
    Next::Catch
}

/// G8.7 steps 4–5, G8.8, G8.9.
pub fn maul<S: Sink<Event>, H: Hooks>(g: &Gball, pos: &mut Position, cx: &mut Ctx<S, H>) -> Next {
    let carrier = pos.ball.holder;
    let tacklers = rules::participants(pos) & team_of(carrier).other().mask();
    let mut reach = 0u32;
    for t in members(tacklers) {
        let b = blockers_of(pos, t);
        if b == 0 {
            reach |= bit(t);
            continue;
        }
        engage(g, pos, cx, TackleKind::Block, Some(t), b);
        let won = pos.resolution.as_ref().is_some_and(|r| {
            r.tackles()
                .iter()
                .filter(|x| x.kind == TackleKind::Block && x.x == t)
                .all(|x| x.rx > x.ry)
        });
        if won && pos.in_play(t) {
            reach |= bit(t);
        }
    }
    if reach == 0 {
        return Next::TurnStep;
    }
    let mut facings = [NONE; 18];
    for p in members(reach | bit(carrier)) {
        facings[p as usize] = pos.players[p as usize].facing;
    }
    let e = engage(g, pos, cx, TackleKind::Carrier, Some(carrier), reach);
    let square = pos.resolution.as_ref().map_or(NONE, |r| r.square);
    if e.any_fumble {
        let tied = pos.resolution.as_ref().map_or(0, |r| {
            r.tackles()
                .iter()
                .filter(|x| x.kind == TackleKind::Carrier && x.rx == x.ry)
                .fold(0, |m, x| m | bit(x.y))
        });
        let n = tied.count_ones();
        let chosen = if n >= 2 {
            let k = roll(pos, cx, RollKind::Pick, None, n);
            members(tied).nth(k as usize - 1).unwrap_or(NONE)
        } else {
            members(tied).next().unwrap_or(NONE)
        };
        let f = roll(pos, cx, RollKind::Fumble, Some(carrier), 6);
        let base = if f <= 3 {
            facings[carrier as usize]
        } else {
            facings[chosen as usize]
        };
        let dir = match (f - 1) % 3 {
            0 => board::left(board::left(base)),
            1 => base,
            _ => board::right(board::right(base)),
        };
        pos.ball = Ball {
            at: square,
            dir,
            spin: false,
            holder: NONE,
            possession: None,
        };
        cx.emit(Event::Fumble(dir));
        return Next::EndPhase;
    }
    if e.lone_won_all {
        return Next::TurnStep;
    }
    pos.ball = Ball {
        at: square,
        dir: NONE,
        spin: false,
        holder: NONE,
        possession: None,
    };
    Next::Catch
}
